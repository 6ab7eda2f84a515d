"""A face is typeset the same however many times it is printed, and what prints is what the
fit measured: glyph positions and line widths read back from the PDF with PyMuPDF."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from conftest import REPO
from fitread import printed_lines
from pnp.cli import main
from pnp.pdf.draw import render_pdf
from pnp.pipeline import Project, check_game
from pnp.units import mm_to_pt
from readback import read_sheet
from tinygame import front, write_game

KITS = ("downturn", "crunch", "downsize", "boomtown", "banking")
# PDF coordinates are written to 1/256 pt or finer; a glyph placed differently moves far more.
SAME_PLACE_PT = 0.01
STAMP = re.compile(r"v[0-9a-f]{6}")

FRONT = front('text_box(card, "title", (7, 8, 49, 10), font="title", size_pt=12, min_pt=9, '
              'align="center")', 'text_box(card, "text", (7, 30, 49, 40), size_pt=10, min_pt=8)')
CARD = """\
- title: Harbour Master
  text: Play this card to move one step ahead, then draw a card and pass the turn to the
    player on your left, who illuminates the harbour.
  copies: {copies}
"""


def first_card_glyphs(root: Path) -> list[tuple[str, float, float]]:
    """(character, origin x, origin y) in points of every glyph of the first page's first
    card (its cell found from the crop marks), but for its version stamp, which differs when
    the content does."""
    path = root / "out" / "tiny" / "cards-letter.pdf"
    x0, top, x1, bottom = (mm_to_pt(v) for v in read_sheet(path).pages[0][0].box_mm)
    with pymupdf.open(path) as document:
        found = []
        for block in document[0].get_text("rawdict")["blocks"]:
            for line in block.get("lines", ()):
                for span in line["spans"]:
                    if STAMP.fullmatch("".join(c["c"] for c in span["chars"]).strip()):
                        continue
                    found += [(c["c"], *c["origin"]) for c in span["chars"] if c["c"].strip()
                              and x0 <= c["origin"][0] <= x1 and top <= c["origin"][1] <= bottom]
    return found


def built(root: Path, copies: int) -> list[tuple[str, float, float]]:
    write_game(root, CARD.format(copies=copies), FRONT)
    assert main(["build", "--root", str(root), "--game", "tiny", "--out",
                 str(root / "out")]) == 0
    return first_card_glyphs(root)


def test_a_face_printed_three_times_is_set_like_one_printed_once(tmp_path):
    once = built(tmp_path / "once", 1)
    thrice = built(tmp_path / "thrice", 3)
    assert len(once) > 60
    assert [c for c, _, _ in thrice] == [c for c, _, _ in once]
    moved = [(c, round(x1 - x0, 3), round(y1 - y0, 3))
             for (c, x0, y0), (_, x1, y1) in zip(once, thrice)
             if abs(x1 - x0) > SAME_PLACE_PT or abs(y1 - y0) > SAME_PLACE_PT]
    assert moved == []


@pytest.mark.parametrize("kit", KITS)
def test_no_printed_line_is_wider_than_the_box_it_was_fitted_to(kit):
    checked = check_game(Project(REPO), kit, jobs=1)
    assert not checked.findings.errors
    lines, skipped = [], 0
    for outputs in checked.outputs.values():
        for output in outputs:
            read, unread = printed_lines(render_pdf(output.plans, output.document),
                                         output.plans)
            lines += read
            skipped += unread
    assert len(lines) > 100 and skipped == 0
    # The lines are found where their faces put them: nearly all read back as the face gives
    # them (not a board line cut by a tile's edge, nor one with an icon's letter in it).
    same = [line.printed.replace(" ", "") == line.text.replace(" ", "") for line in lines]
    assert sum(same) >= 0.95 * len(lines)
    wide = sorted({(round(line.over_mm, 3), line.text) for line in lines if line.over_mm > 0.002},
                  reverse=True)
    assert wide == []
