"""Every profile `pnp calibrate --save` writes is one `pnp build --printer` accepts, and reads
back as written; what build would refuse is refused by calibrate, with a message, and nothing
is written."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from pnp.layout.printers import PrinterProfile
from pnp.project import ProfileRefused, load_profile, save_profile


@pytest.mark.parametrize("description", [
    'the "office" printer', "tray 2 \\ manual feed", "it's: {odd} [text] # here", "",
    "line\u00e9 \u2014 dash"])
def test_a_saved_description_is_read_back_by_build(project, run, description):
    result = run("calibrate", "--save", "office", "--x", "0.00001", "--y", "-2.25",
                 "--description", description)
    assert result.code == 0, result.err
    checked = run("check", "--printer", "office")
    assert checked.code == 0, checked.err
    profile, findings = load_profile(project, "office")
    assert not findings.errors
    assert profile.description == description
    assert profile.offset_x_mm == pytest.approx(0, abs=1e-3)
    assert profile.offset_y_mm == pytest.approx(-2.25)


@pytest.mark.parametrize("args, expected", [
    (("--x", "nan"), "--x nan"),
    (("--y", "inf"), "--y inf"),
    (("--x", "-11"), "--x -11"),
    (("--left-x", "-10", "--right-x", "10"), "scale"),
    (("--save", "../evil"), "profile name"),
])
def test_a_profile_build_would_refuse_is_not_saved(project, run, args, expected):
    result = run("calibrate", "--save", "office", *args)
    assert result.code == 2, result.err
    assert len(result.lines) == 1 and expected in result.lines[0], result.err
    assert "Traceback" not in result.err and "internal error" not in result.err
    assert not (project / "printers").exists() or not any((project / "printers").iterdir())
    assert not (project / "evil.yaml").exists()


finite = st.floats(min_value=-10, max_value=10, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(x=finite, y=finite, scale=st.floats(min_value=0.9, max_value=1.1),
       description=st.text(max_size=40))
def test_any_profile_saved_reads_back_as_saved(tmp_path_factory, x, y, scale, description):
    root = tmp_path_factory.mktemp("profiles")
    profile = PrinterProfile(description, x, y, scale)
    try:
        save_profile(root, "p", profile)
    except ProfileRefused:
        # refused only for text YAML cannot hold (a control character), never silently
        assert any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 or 0xd800 <= ord(c) < 0xe000
                   or ord(c) in (0xfeff, 0xfffe, 0xffff) for c in description)
        assert not (root / "printers" / "p.yaml").exists()
        return
    read, findings = load_profile(root, "p")
    assert not findings.errors, [f.format() for f in findings]
    assert read.description == description
    assert math.isclose(read.offset_x_mm, x, abs_tol=1e-3)
    assert math.isclose(read.offset_y_mm, y, abs_tol=1e-3)
    assert math.isclose(read.scale, scale, abs_tol=1e-6)
