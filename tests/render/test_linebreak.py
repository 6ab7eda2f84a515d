"""Line breaking by Unicode's rules (UAX #14), hyphenation where a word cannot fit otherwise,
and a fit measured to the ink of the glyphs printed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.fonts import metrics
from pnp.render.textfit import fit_text

BODY = metrics("body")
JAPANESE = ("日本語の文章は空白がなくても、"
            "文字と文字の間で折り返すことができます。")


def texts(fit) -> list[str]:
    return ["".join(run.text for run in line) for line in fit.lines]


def test_a_hyphenated_name_breaks_after_its_hyphens():
    fit = fit_text("City-Which-Appears-On-No-Map", BODY, 15, 40, 9, 9)
    assert fit.fits and not fit.too_wide
    lines = texts(fit)
    assert len(lines) > 1 and "".join(lines) == "City-Which-Appears-On-No-Map"
    assert all(line.endswith("-") for line in lines[:-1])
    assert max(fit.line_widths_mm) <= 15 + 1e-6


@pytest.mark.parametrize("text, pieces", [
    ("and/or either/neither", ["and/", "or", "either/", "neither"]),
    ("a\u2014b\u2014c", ["a", "\u2014", "b", "\u2014", "c"]),
    ("north\u2013south", ["north\u2013", "south"]),
    ("Zero\u200bwidth\u200bspace", ["Zero", "width", "space"]),
])
def test_slashes_dashes_and_zero_width_spaces_are_break_opportunities(text, pieces):
    # A box so narrow each piece is a line of its own; a language without hyphenation
    # patterns ("zxx": no linguistic content), so every break comes from Unicode's rules.
    fit = fit_text(text, BODY, 1.0, 100, 9, 9, language="zxx")
    assert texts(fit) == pieces


def test_a_soft_hyphen_prints_only_where_the_line_breaks():
    word = "Donau\u00addampf\u00adschiff\u00adfahrt"
    wide = fit_text(word, BODY, 60, 20, 9, 9)
    assert texts(wide) == ["Donaudampfschifffahrt"]
    narrow = fit_text(word, BODY, 11, 40, 9, 9)
    lines = texts(narrow)
    assert len(lines) > 1 and all(line.endswith("-") for line in lines[:-1])
    assert "".join(line.removesuffix("-") for line in lines) == "Donaudampfschifffahrt"
    assert not any("\u00ad" in line for line in lines)
    assert max(narrow.line_widths_mm) <= 11 + 1e-6  # the hyphen counted where it prints


def test_japanese_wraps_between_characters():
    fit = fit_text(JAPANESE, BODY, 20, 80, 9, 9)
    lines = texts(fit)
    assert len(lines) > 2 and "".join(lines) == JAPANESE
    assert max(fit.line_widths_mm) <= 20 + 1e-6
    assert not any(line.startswith(("、", "。")) for line in lines)  # no stop opens a line


def test_no_break_before_closing_punctuation_after_a_space():
    # UAX #14 keeps "!" with the word before it even across a space (French spacing)
    fit = fit_text("Go Attention !", BODY, BODY.width_mm("Go Attention", 9) + 0.1, 40, 9, 9)
    assert texts(fit) == ["Go", "Attention !"]


def test_a_word_too_wide_for_the_box_is_hyphenated_by_its_language():
    fit = fit_text("Play it incomprehensibilities", BODY, 12, 40, 9, 9)
    assert fit.fits and not fit.too_wide
    lines = texts(fit)
    assert any(line.endswith("-") for line in lines)
    assert "".join(line.removesuffix("-") for line in lines).replace(" ", "") == \
        "Playitincomprehensibilities"
    german = fit_text("Dampfschifffahrtsgesellschaft", BODY, 12, 40, 9, 9, language="de")
    assert german.fits and len(german.lines) > 1


def test_a_word_that_fits_on_a_line_of_its_own_is_not_hyphenated():
    fit = fit_text("a illuminations", BODY, BODY.width_mm("illuminations", 9) + 0.1, 40, 9, 9)
    assert texts(fit) == ["a", "illuminations"]


def test_a_word_without_break_opportunities_is_named_with_its_unbreakable_part():
    fit = fit_text("ab 1234567890123456", BODY, 10, 40, 9, 9)
    assert not fit.fits
    assert fit.too_wide == fit.unbreakable == "1234567890123456"


def test_tokens_stay_with_their_word_and_break_like_letters():
    fit = fit_text("take {red}, then {red}{yellow}", BODY, 12, 40, 9, 9)
    lines = fit.lines
    icons = [[run.icon for run in line if run.icon] for line in lines]
    assert ["red", "red", "yellow"] == [name for line in icons for name in line]
    assert [] not in [icons[i] for i, line in enumerate(lines) if any(r.text == "," for r in line)]


def test_the_fit_is_measured_to_the_ink_of_the_last_line():
    # Capitals end on the baseline; "gypsy" reaches nearly the font's whole descent.
    size_mm = 10 * 25.4 / 72
    flat = fit_text("NORTH", BODY, 40, 20, 10, 10)
    deep = fit_text("gypsy", BODY, 40, 20, 10, 10)
    assert flat.ink_height_mm == pytest.approx(BODY.ascent * size_mm, abs=0.05)
    assert flat.ink_height_mm < deep.ink_height_mm < flat.height_mm
    # a box the font's descent would overflow, but the ink does not
    box = (flat.ink_height_mm + flat.height_mm) / 2
    assert fit_text("NORTH", BODY, 40, box, 10, 10).fits
    assert not fit_text("gypsy", BODY, 40, flat.ink_height_mm, 10, 10).fits


def test_breaking_a_text_again_is_quick(monkeypatch):
    # Finding break opportunities (uniseg, about 0.25 ms a character) and hyphenation points
    # (pyphen) is the slow part of a fit: it is done once for a text, not again for each box
    # the same text is fitted to. Counted in calls, so the bound does not depend on the machine.
    import pyphen
    import uniseg.linebreak

    calls = {"breaks": 0, "hyphens": 0}
    boundaries, positions = uniseg.linebreak.line_break_boundaries, pyphen.Pyphen.positions

    def counted_boundaries(*args, **kwargs):
        calls["breaks"] += 1
        return boundaries(*args, **kwargs)

    def counted_positions(self, *args, **kwargs):
        calls["hyphens"] += 1
        return positions(self, *args, **kwargs)

    monkeypatch.setattr(uniseg.linebreak, "line_break_boundaries", counted_boundaries)
    monkeypatch.setattr(pyphen.Pyphen, "positions", counted_positions)
    # words no other test fits, so the first fit below finds their breaks itself
    text = ("Play this well-worn card (once) to move one step-by-step ahead/astern, then draw "
            "a card and pass the incomprehensibilities to the quartermaster-general. ") * 3
    first = fit_text(text, BODY, 15, 100, 9, 7)  # a box too narrow for the longest word
    assert calls["breaks"] > 0 and calls["hyphens"] > 0, calls  # the counting sees the work
    assert len(first.lines) > 1
    calls.update(breaks=0, hyphens=0)
    for width in range(16, 60):
        fit_text(text, BODY, width, 100, 9, 7)
    assert calls == {"breaks": 0, "hyphens": 0}


PIECES = st.sampled_from(list("ab -/\u00ad\u200b\n()!,.日本語、。\u2014\u2013\u00a0\t'\"1")
                         + ["{red}", "{yellow}", "{x-1}", "Donau", "illuminations"])


@settings(max_examples=200, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join), st.floats(0.5, 60),
       st.sampled_from(["left", "center", "right"]), st.sampled_from(["en_US", "de", "zxx"]))
def test_any_text_fits_inside_its_width_or_names_what_is_too_wide(text, width, align, language):
    fit = fit_text(text, BODY, width, 30, 9, 7, align=align, language=language)
    if not fit.too_wide:
        assert max(fit.line_widths_mm, default=0.0) <= width + 1e-6
    printed = [run.text for line in fit.lines for run in line]
    assert not any("\u00ad" in text or "\u200b" in text for text in printed)
