"""Text fitting: wrapping with the bundled font's real metrics, shrinking, measuring overflow."""

from __future__ import annotations

import pytest

from pnp.fonts import metrics
from pnp.render.textfit import fit_text, pieces

BODY = metrics("body")


def test_widths_come_from_the_font_and_scale_with_size():
    at_10 = BODY.width_mm("Stability", 10)
    assert at_10 > 0
    assert BODY.width_mm("Stability", 20) == pytest.approx(2 * at_10)
    assert BODY.width_mm("WWWW", 10) > BODY.width_mm("iiii", 10)


def test_short_text_fits_at_the_preferred_size_on_one_line():
    fit = fit_text("Stability -1.", BODY, 51, 38, 10, 7)
    assert fit.fits and fit.size_pt == 10
    assert len(fit.lines) == 1
    assert fit.lines[0][0].text == "Stability -1."


def test_lines_never_exceed_the_box_width():
    text = "Leader picks one owned bank, which discards 1 red and 1 yellow cube. " * 3
    fit = fit_text(text, BODY, 40, 100, 9, 9)
    assert len(fit.lines) > 3
    assert max(fit.line_widths_mm) <= 40 + 1e-6


def test_text_shrinks_before_it_overflows():
    text = "word " * 60
    fit = fit_text(text, BODY, 51, 38, 10, 6)
    assert fit.fits
    assert 6 <= fit.size_pt < 10
    assert fit.height_mm <= 38 + 1e-6


def test_overflow_is_measured_in_lines_and_millimetres():
    text = "word " * 400
    fit = fit_text(text, BODY, 51, 38, 10, 7)
    assert not fit.fits
    assert fit.size_pt == 7
    assert fit.overflow_lines > 0
    # measured to the ink: "word" has no descender, so it ends above the font's descent
    assert fit.overflow_mm == pytest.approx(fit.ink_height_mm - 38)
    assert fit.ink_height_mm < fit.height_mm


def test_a_word_wider_than_the_box_is_named():
    fit = fit_text("Pay 12345678901234567890", BODY, 10, 30, 10, 8)
    assert not fit.fits
    assert fit.too_wide == "12345678901234567890"
    assert fit.unbreakable == "12345678901234567890"


def test_tokens_become_icons_placed_inline():
    assert pieces("{red},") == [("icon", "red"), ("text", ",")]
    fit = fit_text("discards 1 {red} and 1 {yellow}.", BODY, 51, 20, 10, 10)
    runs = fit.lines[0]
    assert [r.icon for r in runs if r.icon] == ["red", "yellow"]
    xs = [r.x_mm for r in runs]
    assert xs == sorted(xs), "runs must advance left to right"
    for a, b in zip(runs, runs[1:]):
        assert a.x_mm + a.width_mm <= b.x_mm + 1e-6, "runs must not overlap"


def test_centred_lines_are_centred():
    fit = fit_text("Fed Cuts Rates", BODY, 50, 10, 10, 10, align="center")
    run = fit.lines[0][0]
    assert run.x_mm + run.width_mm / 2 == pytest.approx(25, abs=0.01)


def test_missing_glyphs_are_reported():
    assert BODY.missing("Bank 漢") == ["漢"]
    assert BODY.missing("Savings & Loan, 50%: €") == []


def test_a_fit_is_kept_per_text_box_and_font_never_shared_across_them():
    """Fits are kept once per set of arguments: cards with the same text share one; another
    text, box, size or font gets its own."""
    import dataclasses

    from pnp.render.textfit import _fit

    args = ("Draw two cards, then discard one of them.", BODY, 30, 20, 10, 7)
    first, again = fit_text(*args), fit_text(*args)
    assert again is first
    assert first == _fit(*args, 1.2, "left", "en_US")
    other = fit_text("Draw a card.", *args[1:])
    assert other != first and other.lines[0][0].text == "Draw a card."
    narrow = fit_text(args[0], BODY, 12, 20, 10, 7)
    assert narrow != first and len(narrow.lines) > len(first.lines)
    assert fit_text(*args[:4], 9, 7) != first  # another preferred size
    assert fit_text(*args, align="center") != first
    # Another face, or the same face measured again (a new Metrics), has fits of its own.
    bold = fit_text(args[0], metrics("bold"), *args[2:])
    assert bold != first and bold.lines[0][0].width_mm > first.lines[0][0].width_mm
    again_measured = dataclasses.replace(BODY)
    assert fit_text(args[0], again_measured, *args[2:]) is not first
