"""The game board: its content rule, the sheet list, and its PDFs read back.

The tiled PDF is checked the way a reader assembles it: page 1 is the assembly map and states the
overlap band; every other page is labelled 'row r / column c' and its TrimBox is the board window
it shows. Pages are placed by those labels, column after column, each overlapping the one before
by the stated band; the alignment targets found on the pages must then meet on every shared
edge, and the assembled pages must be exactly the board's size. None of this asks pnp.layout.tiling.
"""

from __future__ import annotations

import re

import pdfplumber
import pikepdf
import pytest

from pnp.pipeline import Project, check_game, select_sheets

from readback import MM_PER_PT, squeeze, targets_mm, tile_label, trim_box_mm
from conftest import edit, line_of
from pdfread import viewer_preferences

BOARD_MM = (558.8, 431.8)


@pytest.fixture(scope="module")
def built(built_kit):
    """Downturn's sheets, the board among them, built once in the test run for Letter and A4
    (conftest.built_kit), not again here."""
    return built_kit("downturn")


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_tiled_pages_reassemble_the_board(built, paper):
    path = built / f"board-{paper}.pdf"
    with pdfplumber.open(path) as doc, pikepdf.open(path) as pdf:
        summary = squeeze(doc.pages[0].extract_text())
        # the map's tile labels are set in 3.4 mm type, a size no thumbnail text has
        map_labels = squeeze(" ".join(
            w["text"] for w in doc.pages[0].extract_words(extra_attrs=["size"])
            if abs(w["size"] * MM_PER_PT - 3.4) < 0.02))
        assert "assemblymap" in summary
        overlap = float(re.search(r"overlapband:([\d.]+)mm", summary)[1])
        assert overlap == 10
        tiles = {}
        for index, page in enumerate(doc.pages[1:], start=1):
            trim = trim_box_mm(pdf, index)
            row, column = tile_label(page, trim[1])
            assert f"row{row}/column{column}" in map_labels
            tiles[row, column] = (trim, targets_mm(page))
    rows = max(r for r, _ in tiles)
    columns = max(c for _, c in tiles)
    assert set(tiles) == {(r, c) for r in range(1, rows + 1) for c in range(1, columns + 1)}

    # Place the pages as the map says: each column (row) starts `overlap` before the previous
    # one ends. Board position = page position - window corner + the window's place.
    left = {1: 0.0}
    for c in range(2, columns + 1):
        left[c] = left[c - 1] + tiles[1, c - 1][0][2] - overlap
    top = {1: 0.0}
    for r in range(2, rows + 1):
        top[r] = top[r - 1] + tiles[r - 1, 1][0][3] - overlap
    assert left[columns] + tiles[1, columns][0][2] == pytest.approx(BOARD_MM[0], abs=0.01)
    assert top[rows] + tiles[rows, 1][0][3] == pytest.approx(BOARD_MM[1], abs=0.01)

    def on_board(key):
        (x, y, w, h), marks = tiles[key]
        return [(mx - x + left[key[1]], my - y + top[key[0]]) for mx, my in marks]

    def in_band(points, axis, start):
        return sorted(p for p in points if start <= p[axis] <= start + overlap)

    shared_edges = 0
    for (r, c) in tiles:
        for other, axis, start in (((r, c + 1), 0, left.get(c + 1)), ((r + 1, c), 1, top.get(r + 1))):
            if other not in tiles:
                continue
            mine, theirs = in_band(on_board((r, c)), axis, start), in_band(on_board(other), axis, start)
            # the targets of a shared edge: at least two, on the band's middle line, and the
            # same board points on both pages
            assert len(mine) >= 2 and len(mine) == len(theirs), ((r, c), other)
            for a, b in zip(mine, theirs):
                assert a == pytest.approx(b, abs=0.05)
                assert a[axis] == pytest.approx(start + overlap / 2, abs=0.05)
            shared_edges += 1
    assert shared_edges == rows * (columns - 1) + columns * (rows - 1)


def test_large_page_is_the_board_size_with_a_trim_box(built):
    with pikepdf.open(built / "board-large.pdf") as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        width, height = (float(v) * MM_PER_PT for v in page.obj.MediaBox[2:])
        assert (width, height) == pytest.approx(BOARD_MM, abs=0.01)
        assert trim_box_mm(pdf, 0) == pytest.approx((0, 0, *BOARD_MM), abs=0.01)
    # Read back by MuPDF: the name in the file must be /None (pikepdf once wrote /None_).
    assert viewer_preferences(built / "board-large.pdf")["/PrintScaling"] == "/None"


@pytest.mark.parametrize("name", ["board-large.pdf", "board-letter.pdf", "board-a4.pdf"])
def test_fonts_are_embedded(built, name):
    with pikepdf.open(built / name) as pdf:
        fonts = {}
        for page in pdf.pages:
            for font in page.obj.Resources.get("/Font", {}).values():
                fonts[str(font.get("/BaseFont"))] = font
        assert fonts
        for base, font in fonts.items():
            descriptor = (font.DescendantFonts[0] if "/DescendantFonts" in font else font).FontDescriptor
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), base


def test_board_words_and_licence(built):
    with pdfplumber.open(built / "board-large.pdf") as doc:
        text = squeeze(doc.pages[0].extract_text())
    for needed in ("DOWNTURN", "Investment Track", "Stability Track", "Quarter", "Bond area",
                   "Setup", "Dixie Bank", "Cascade Home Loan", "−10", "59",
                   "Downturn © 2009 Jack Neal · CC BY-NC 3.0 US"):
        assert squeeze(needed) in text, needed


def test_board_is_a_sheet(project, run):
    checked = check_game(Project(project), "downturn")
    sheets, missing = select_sheets(checked, None)
    assert "board" in [s.name for s in sheets] and not missing
    assert [s.name for s in select_sheets(checked, ["board"])[0]] == ["board"]
    listed = run("list")
    assert re.search(r"board +1 x Game board \(558.8 x 431.8 mm", listed.out)


def test_region_without_a_block_is_reported(project, run):
    board = project / "content" / "downturn" / "board.yaml"
    line = line_of(board, "region: Plains")
    edit(board, "region: Plains", "region: Prairie")
    result = run("check")
    assert result.code == 1
    assert f"content/downturn/board.yaml:{line}:" in result.err
    assert "no region named 'Prairie'; did you mean 'Plains'?" not in result.err  # hint apart
    assert "no region named 'Prairie'" in result.err
    assert "region 'Plains' has no block on the board" in result.err
