"""The larger papers (A3, Tabloid, Legal): every kit builds on them, and a board that fits a
paper inside its printable margin prints whole on one page of it; a larger one is tiled.
Page sizes are read back with pdfplumber, the trim box with pikepdf."""

from __future__ import annotations

import os
import shutil

import pdfplumber
import pikepdf
import pytest

from pnp.cli import main
from readback import MM_PER_PT, trim_box_mm
from conftest import REPO, TESTS

INCH = 25.4
PAPER_MM = {"a3": (297, 420), "tabloid": (11 * INCH, 17 * INCH), "legal": (8.5 * INCH, 14 * INCH)}

BOARD_TEMPLATE = """{% set w, h = board.size.width_mm, board.size.height_mm %}
<svg xmlns="http://www.w3.org/2000/svg" width="{{ w }}mm" height="{{ h }}mm"
  viewBox="0 0 {{ w }} {{ h }}">
<rect x="0" y="0" width="{{ w }}" height="{{ h }}" fill="#2a6f4e"/>
</svg>
"""


def page_sizes_mm(path) -> list[tuple[float, float]]:
    with pdfplumber.open(path) as doc:
        return [(float(p.width) * MM_PER_PT, float(p.height) * MM_PER_PT) for p in doc.pages]


# Tabloid on every run; Legal and A3 with the slow part of the matrix (PNP_MATRIX=full).
FULL = os.environ.get("PNP_MATRIX") == "full"


@pytest.mark.parametrize("paper", [pytest.param(
    paper, marks=() if paper == "tabloid" else pytest.mark.skipif(
        not FULL, reason="every kit on this paper: PNP_MATRIX=full")) for paper in sorted(PAPER_MM)])
def test_every_kit_builds_on_the_paper(tmp_path, paper):
    root = tmp_path / "project"
    for folder in ("content", "templates"):
        shutil.copytree(REPO / folder, root / folder)
    assert main(["build", "--root", str(root), "--paper", paper, "-j", "1"]) == 0
    width, height = PAPER_MM[paper]
    checked = 0
    for game in ("banking", "boomtown", "crunch", "downsize", "downturn"):
        for pdf in sorted((root / "output" / game).glob(f"*-{paper}.pdf")):
            for size in page_sizes_mm(pdf):
                assert sorted(size) == pytest.approx(sorted((width, height)), abs=0.05), pdf.name
                checked += 1
    assert checked > 100


@pytest.fixture
def board_game(tmp_path):
    """The ledger test game with a board of a size the test sets."""
    root = tmp_path / "ledger"
    shutil.copytree(TESTS / "data" / "games" / "ledger", root)
    (root / "templates" / "ledger" / "board.svg.j2").write_text(BOARD_TEMPLATE, encoding="utf-8")
    game = root / "content" / "ledger" / "game.yaml"
    base = game.read_text(encoding="utf-8")

    def with_board(size: str):
        game.write_text(base + f"\nboards:\n  board:\n    title: Test board\n    size: {size}\n"
                        "    template: board.svg.j2\n", encoding="utf-8")
        assert main(["build", "--root", str(root), "--sheets", "board", "--paper", "tabloid",
                     "-j", "1"]) == 0
        return root / "output" / "ledger" / "board-tabloid.pdf"

    return with_board


def test_a_board_that_fits_tabloid_prints_whole(board_game):
    path = board_game("10 x 16 in")
    sizes = page_sizes_mm(path)
    assert len(sizes) == 1
    assert sizes[0] == pytest.approx(PAPER_MM["tabloid"], abs=0.05)
    with pikepdf.open(path) as pdf:
        x, y, w, h = trim_box_mm(pdf, 0)
    assert (w, h) == pytest.approx((10 * INCH, 16 * INCH), abs=0.05)
    assert (x, y) == pytest.approx((0.5 * INCH, 0.5 * INCH), abs=0.05)  # centred
    with pdfplumber.open(path) as doc:  # the board's own green fills the trim box
        fills = [r for r in doc.pages[0].rects if r.get("non_stroking_color") and
                 abs(r["width"] * MM_PER_PT - 10 * INCH) < 0.1]
    assert fills


def test_a_board_larger_than_tabloid_is_tiled(board_game):
    path = board_game("10.6 x 16.6 in")  # leaves under a quarter inch at the edges
    sizes = page_sizes_mm(path)
    assert len(sizes) > 2  # the assembly map and at least two tiles
    for size in sizes:
        assert sorted(size) == pytest.approx(sorted(PAPER_MM["tabloid"]), abs=0.05)
