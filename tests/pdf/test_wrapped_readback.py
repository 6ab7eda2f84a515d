"""Text wrapped by Unicode's rules and fitted to its ink, read back from the built PDF: lines
with PyMuPDF, ink with PDFium's rendering. The bundled fonts have no Japanese glyphs: Japanese
is read back in tests/render/test_japanese_wrap.py, set in a game's own Japanese font."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pypdfium2
import pytest

from fitread import fitted_boxes, placement_matrix, printed_lines
from pnp.cli import main
from pnp.pipeline import Project, check_game
from pnp.units import mm_to_pt
from tinygame import front, write_game

NARROW = front('text_box(card, "title", (5, 6, 53, 10), font="title", size_pt=11, min_pt=11)',
               'text_box(card, "text", (20, 24, 18, 60), size_pt=9, min_pt=9)')
CARDS = """\
- title: "Donau\\u00addampf\\u00adschiff\\u00adfahrt"
  text: "Meet at City-Which-Appears-On-No-Map, then ride the
    Donau\\u00addampf\\u00adschiff\\u00adfahrt and/or walk."
  copies: 1
"""


def build(root: Path, run) -> tuple[bytes, list]:
    result = run("build", "--root", str(root), "--game", "tiny", "--out", str(root / "out"))
    assert result.code == 0, result.err
    [output] = check_game(Project(root), "tiny", jobs=1).outputs["cards"]
    return (root / "out" / "tiny" / output.file_name).read_bytes(), output.plans


def test_hyphenated_and_soft_hyphenated_words_wrap_inside_a_narrow_box(tmp_path, run):
    pdf, plans = build(write_game(tmp_path, CARDS, NARROW), run)
    lines, skipped = printed_lines(pdf, plans)
    assert skipped == 0
    text_lines = [line for line in lines if line.box_mm[2] - line.box_mm[0] < 20]
    title_lines = [line for line in lines if line.box_mm[2] - line.box_mm[0] > 50]
    assert len(text_lines) >= 5
    assert max(line.over_mm for line in lines) <= 0.002  # no line wider than its box
    printed = [line.printed for line in text_lines]
    joined = "".join(printed)
    # the hyphenated name broke at its hyphens, each kept where it was written
    assert "City-Which-Appears-On-No-Map," in joined.replace(" ", "")
    assert any(line.endswith(("City-", "Which-", "Appears-", "On-", "No-")) for line in printed)
    # the soft hyphens: a hyphen where the line breaks at one, nothing elsewhere
    soft_breaks = [line for line in printed if line.endswith(("Donau-", "dampf-", "schiff-"))]
    assert soft_breaks
    assert "Donaudampfschifffahrt" in "".join(line.removesuffix("-") if line in soft_breaks
                                              else line for line in printed).replace(" ", "")
    assert [line.printed for line in title_lines] == ["Donaudampfschifffahrt"]
    with pymupdf.open(stream=pdf) as document:
        assert "\u00ad" not in document[0].get_text()


INK = front('text_box(card, "text", (7, 30, 49, 4.2), size_pt=10, policy="fail", '
            'fill="#ff0000")')


def test_a_line_whose_ink_ends_inside_the_box_is_no_overflow(tmp_path, run):
    """At 10 pt the font's descent ends 0.45 mm below this 4.2 mm box; capitals end on the
    baseline, 0.5 mm above it. Before, check called it an overflow 'by 0.5 mm (1 line)'."""
    root = write_game(tmp_path / "flat", "- {title: North, text: NORTH SEA HAVEN, copies: 1}\n",
                      INK)
    checked = run("check", "--strict", "--root", str(root), "--game", "tiny")
    assert checked.code == 0, checked.err
    pdf, plans = build(root, run)
    [(matrix, box, _)] = [found for placement in plans[0].placements
                          for found in fitted_boxes(placement.svg, placement_matrix(placement))]
    a, _, _, d, e, f = matrix
    x0, top = a * box[0] + e, d * box[1] + f
    x1, bottom = x0 + a * box[2], top + d * box[3]
    # the red text, rendered by PDFium at 1200 dpi around the box: ink above its bottom only
    document = pypdfium2.PdfDocument(pdf)
    page = document[0]
    height_pt = page.get_height()
    margin = 3
    crop = (mm_to_pt(x0) - margin, height_pt - mm_to_pt(bottom) - margin - 10,
            page.get_width() - mm_to_pt(x1) - margin, mm_to_pt(top) - margin)
    scale = 1200 / 72
    image = page.render(scale=scale, crop=crop).to_pil().convert("RGB")
    document.close()
    red_rows = [y for y in range(image.height) for x in range(0, image.width, 2)
                if _red(image.getpixel((x, y)))]
    assert red_rows, "the text was not found"
    lowest_mm = (max(red_rows) + 1) / scale * 25.4 / 72 + top - margin * 25.4 / 72
    assert lowest_mm <= bottom + 0.02
    assert lowest_mm > bottom - 1.0  # the ink is near the bottom: the box was tight


def _red(pixel) -> bool:
    r, g, b = pixel
    return r > 150 and g < 110 and b < 110


def test_a_line_whose_ink_crosses_the_box_is_an_overflow_at_its_line(tmp_path, run):
    root = write_game(tmp_path / "deep", "- {title: Deep, text: gypsy quay, copies: 1}\n", INK)
    checked = run("check", "--root", str(root), "--game", "tiny")
    assert checked.code == 1
    [line] = [line for line in checked.lines if "text-overflow" in line]
    assert "cards.yaml:1:" in line and "by 0.0 mm" not in line and "(1 line)" in line
    assert "shorten it by about 2 words" in checked.err


@pytest.mark.parametrize("text, hint", [
    ("Pay 12345678901234567890123", "soft hyphen"),
    ("Pay WWWWWWWWWWWWWWWWWWWWWWWWWWWW", "soft hyphen"),
])
def test_a_word_that_cannot_break_names_the_soft_hyphen(tmp_path, run, text, hint):
    narrow = front('text_box(card, "text", (7, 30, 20, 40), size_pt=9, min_pt=9)')
    root = write_game(tmp_path / "word", f"- {{title: Word, text: {text}, copies: 1}}\n",
                      narrow)
    checked = run("check", "--root", str(root), "--game", "tiny")
    assert checked.code == 1
    assert hint in checked.err and "\\u00ad" in checked.err
    assert "break or shorten the word" not in checked.err
