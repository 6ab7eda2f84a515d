"""`pnp check` is `pnp build` without writing: the same print options, the same findings."""

from __future__ import annotations

import re

import pytest

NO_ROOM = """\
home:
  description: home, with margins that leave no room for a card
  gap_mm: 0
  min_margin_mm: 80
  marks: {style: ticks, length_mm: 5, offset_mm: 1.5, width_pt: 0.3}
  duplex: long-edge
  backs: after-fronts
"""


def _findings(err: str) -> list[str]:
    """The finding lines of a run, without its closing summary."""
    return sorted(line for line in err.splitlines() if re.match(r"\S+:\d+(:\d+)?: ", line)
                  or ": error: " in line or ": warning: " in line)


def test_check_and_build_lay_out_with_the_projects_layouts(project, run):
    (project / "layouts.yaml").write_text(NO_ROOM, encoding="utf-8")
    check = run("check", "--game", "downturn")
    build = run("build", "--game", "downturn", "--sheets", "events")
    assert check.code == build.code == 1
    found = _findings(check.err)
    assert found and all("layout-too-large" in line for line in found), check.err
    # The build checks every sheet, as the check does, before it writes any.
    assert _findings(build.err) == found
    assert "nothing was written" in build.err
    assert not (project / "output" / "downturn" / "events-letter.pdf").exists()


@pytest.mark.parametrize("option", [("--layout", "home-gutter"), ("--paper", "a4")])
def test_check_takes_the_builds_print_options(project, run, option):
    """A layout that fits the cards on Letter with the default layout, but not with the one
    asked for, is found by a check given the same option as the build."""
    (project / "layouts.yaml").write_text(NO_ROOM.replace("home:", "home-gutter:"),
                                          encoding="utf-8")
    plain = run("check", "--game", "downturn")
    assert plain.code == 0, plain.err
    check = run("check", "--game", "downturn", *option)
    build = run("build", "--game", "downturn", "--sheets", "events", *option)
    if option[0] == "--layout":
        assert check.code == build.code == 1
        assert _findings(check.err) == _findings(build.err) != []
    else:  # the project's home-gutter is not asked for: both pass
        assert check.code == build.code == 0, check.err + build.err


def test_check_names_a_printer_profile_with_problems(project, run):
    printers = project / "printers"
    printers.mkdir()
    (printers / "office.yaml").write_text("offset_x_mm: lots\n", encoding="utf-8")
    check = run("check", "--game", "downturn", "--printer", "office")
    build = run("build", "--game", "downturn", "--sheets", "events", "--printer", "office")
    assert check.code == build.code == 1
    found = _findings(check.err)
    assert found and any("office.yaml" in line for line in found), check.err
    assert _findings(build.err) == found
