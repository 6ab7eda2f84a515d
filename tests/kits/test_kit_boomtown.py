"""The Boomtown kit, built once for Letter and A4 and read back from its PDFs.

Counts and sizes are read from the PDFs with pdfplumber and pikepdf and compared with the
kit's own data files and with the content brief's constraints (67 + 67 market cards, 11 cycle
cards, markers for the worst case the board allows), never with the code that drew them.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pikepdf
import pytest
import yaml

from conftest import REPO, crop_marks
from pdfread import page_texts
from pnp.cli import main
from pnp.units import PAPERS, pt_to_mm
from readback import squeeze, targets_mm, tile_label, trim_box_mm

GAME = REPO / "content" / "boomtown"
BOARD_MM = (558.8, 431.8)  # 22 x 17 in
PAPER_NAMES = ("letter", "a4")


def rows(name: str) -> list[dict]:
    with (GAME / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def data(name: str):
    return yaml.safe_load((GAME / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def out(built_kit) -> Path:
    """Every Boomtown sheet, built once per test session on both papers."""
    return built_kit("boomtown")


def fronts(pdf) -> list:
    """The fronts pages of a deck PDF: the footer names the side of every page."""
    return [page for page in pdf.pages
            if re.search(r"sheet\d+/\d+·fronts", squeeze(page.extract_text() or ""))]


def big_words(page, min_mm: float) -> list[str]:
    """Words set at least `min_mm` tall: a piece's main figure or letter, not its small print."""
    return [w["text"] for w in page.extract_words(extra_attrs=["size"])
            if pt_to_mm(w["size"]) >= min_mm]


def test_check_is_clean_even_strict(capsys):
    assert main(["check", "--root", str(REPO), "--game", "boomtown", "--strict"]) == 0
    assert "0 errors, 0 warnings" in capsys.readouterr().err

# ---- the board --------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", PAPER_NAMES)
def test_tiled_board_targets_meet_on_every_shared_edge(out, paper):
    path = out / f"board-{paper}.pdf"
    with pdfplumber.open(path) as doc, pikepdf.open(path) as pdf:
        summary = squeeze(doc.pages[0].extract_text())
        overlap = float(re.search(r"overlapband:([\d.]+)mm", summary)[1])
        tiles = {}
        for index, page in enumerate(doc.pages[1:], start=1):
            trim = trim_box_mm(pdf, index)
            tiles[tile_label(page, trim[1])] = (trim, targets_mm(page))
    nrows, ncols = max(r for r, _ in tiles), max(c for _, c in tiles)
    assert set(tiles) == {(r, c) for r in range(1, nrows + 1) for c in range(1, ncols + 1)}
    left, top = {1: 0.0}, {1: 0.0}
    for c in range(2, ncols + 1):
        left[c] = left[c - 1] + tiles[1, c - 1][0][2] - overlap
    for r in range(2, nrows + 1):
        top[r] = top[r - 1] + tiles[r - 1, 1][0][3] - overlap
    assert left[ncols] + tiles[1, ncols][0][2] == pytest.approx(BOARD_MM[0], abs=0.01)
    assert top[nrows] + tiles[nrows, 1][0][3] == pytest.approx(BOARD_MM[1], abs=0.01)

    def on_board(key):
        (x, y, _, _), marks = tiles[key]
        return [(mx - x + left[key[1]], my - y + top[key[0]]) for mx, my in marks]

    edges = 0
    for r, c in tiles:
        for other, axis, start in (((r, c + 1), 0, left.get(c + 1)),
                                   ((r + 1, c), 1, top.get(r + 1))):
            if other not in tiles:
                continue
            mine = sorted(p for p in on_board((r, c)) if start <= p[axis] <= start + overlap)
            theirs = sorted(p for p in on_board(other) if start <= p[axis] <= start + overlap)
            assert len(mine) >= 2 and len(mine) == len(theirs), ((r, c), other)
            for a, b in zip(mine, theirs):
                assert a == pytest.approx(b, abs=0.05)
            edges += 1
    assert edges == nrows * (ncols - 1) + ncols * (nrows - 1)


def test_whole_board_is_22_by_17_inches_with_the_loop_and_deck_spaces(out):
    with pikepdf.open(out / "board-large.pdf") as pdf:
        assert len(pdf.pages) == 1
        assert trim_box_mm(pdf, 0) == pytest.approx((0, 0, *BOARD_MM), abs=0.01)
    with pdfplumber.open(out / "board-large.pdf") as doc:
        words = Counter(w["text"] for w in doc.pages[0].extract_words())
        text = squeeze(doc.pages[0].extract_text())
    spaces = Counter(row["kind"] for row in rows("spaces.csv"))
    # every green space says MARKET UP, every red one MARKET DOWN (the Market Up deck space
    # and the Market Down one add one each): readable without colour
    assert words["UP"] == spaces["green"] + 1 and words["DOWN"] == spaces["red"] + 1
    for needle in ("START", "BAILOUT", "+5%", "–5%", "CYCLECARDS", "BANKTOWER", "Buildingboard"):
        assert needle in text, needle


# ---- cards ------------------------------------------------------------------------------------

@pytest.mark.parametrize("deck, sign", [("market_up", "+"), ("market_down", "–")])
def test_market_decks_hold_67_cards_each_with_the_listed_values(out, deck, sign):
    with pdfplumber.open(out / f"{deck}-letter.pdf") as pdf:
        printed = Counter(int(w[1:-1]) for page in fronts(pdf) for w in big_words(page, 5)
                          if re.fullmatch(re.escape(sign) + r"\d+%", w))
    listed = Counter({abs(int(r["percent"])): int(r["quantity"]) for r in rows(f"{deck}.csv")})
    assert printed == listed
    assert sum(printed.values()) == 67  # the rules' Market Up and Market Down decks
    assert all(value % 5 == 0 for value in printed)


def test_cycle_deck_is_1_to_10_and_end_game(out):
    with pdfplumber.open(out / "cycles-letter.pdf") as pdf:
        pages = fronts(pdf)
        labels = [w for page in pages for w in big_words(page, 8)]
        cards = sum(squeeze(page.extract_text()).count("CYCLE") for page in pages)
    assert cards == 11
    assert sorted(labels, key=lambda w: (not w.isdigit(), int(w) if w.isdigit() else 0)) == \
        [str(n) for n in range(1, 11)] + ["END"]


@pytest.mark.parametrize("deck, names", [
    ("focus", ["Developing", "Selling", "PropertyBuying"]), ("duties", ["BankerDuties"])])
def test_focus_and_banker_duty_cards(out, deck, names):
    with pdfplumber.open(out / f"{deck}-letter.pdf") as pdf:
        text = "".join(squeeze(page.extract_text()) for page in fronts(pdf))
    for name in names:
        assert text.count(name) >= 1, name
    if deck == "duties":
        for duty in ("Roll", "Advance", "Market", "Rent", "Mortgages"):
            assert duty in text


# ---- pieces: marks, counts --------------------------------------------------------------------

def declared_mm(deck: str) -> tuple[float, float]:
    size = data("game.yaml")["decks"][deck]["size"]
    if size == "poker":
        return 63.0, 88.0
    numbers = [float(n) for n in re.findall(r"[\d.]+", size)]
    return (numbers[0], numbers[-1])


@pytest.mark.parametrize("paper", PAPER_NAMES)
@pytest.mark.parametrize("deck", ["digits", "land_markers", "building_markers",
                                  "plaza_markers", "money", "cycles"])
def test_crop_marks_describe_the_declared_piece_size(out, deck, paper):
    width, height = declared_mm(deck)
    with pdfplumber.open(out / f"{deck}-{paper}.pdf") as pdf:
        # the first page, and the last (a part-filled grid); every page is imposed alike
        for page in {pdf.pages[0].page_number: pdf.pages[0],
                     pdf.pages[-1].page_number: pdf.pages[-1]}.values():
            assert pt_to_mm(page.width) == pytest.approx(PAPERS[paper].width_mm, abs=0.1)
            xs, ys, _ = crop_marks(page)
            assert len(xs) >= 2 and len(ys) >= 2
            assert {round(b - a, 1) for a, b in zip(xs, xs[1:])} == {round(width, 1)}
            assert {round(b - a, 1) for a, b in zip(ys, ys[1:])} == {round(height, 1)}


def most_land_squares() -> int:
    """The brief's geometry: inside the edge road a 32-stud board holds 5 x 5 cells of 6 studs;
    a rectangular block (10 squares) covers two cells, a square block (4) one."""
    cells = ((32 - 2) // 6) ** 2
    return cells // 2 * 10 + cells % 2 * 4


def letters(pdf, min_mm: float) -> Counter:
    return Counter(ch["text"] for page in pdf.pages for ch in page.chars
                   if pt_to_mm(ch["size"]) >= min_mm)


def test_markers_per_colour_cover_the_worst_case(out):
    investors = data("investors.yaml")
    colours = [c["letter"] for c in investors if not c.get("bank")]
    assert len(colours) >= 7 and len(set(colours)) == len(colours)  # 7 investors, one letter each
    with pdfplumber.open(out / "land_markers-letter.pdf") as pdf:
        land = letters(pdf, 4)
    with pdfplumber.open(out / "building_markers-letter.pdf") as pdf:
        building = letters(pdf, 4)
    with pdfplumber.open(out / "plaza_markers-letter.pdf") as pdf:
        plaza = letters(pdf, 4)
    for letter in colours:
        assert land[letter] >= most_land_squares() == 124
        assert building[letter] >= most_land_squares()
        assert plaza[letter] >= 25 + 1  # every block, and the Bank Tower's
    bank = next(c["letter"] for c in investors if c.get("bank"))
    assert building[bank] >= 3 * 7  # three mortgages for each of seven investors
    assert set(land) == set(colours) and set(plaza) == set(colours)


def test_value_tiles_and_bills_match_their_tables(out):
    with pdfplumber.open(out / "digits-letter.pdf") as pdf:
        digits = letters(pdf, 5)
    assert digits == Counter({r["digit"]: int(r["quantity"]) for r in rows("digits.csv")})
    assert digits["0"] >= most_land_squares() + 1  # every property value ends in 0
    with pdfplumber.open(out / "money-letter.pdf") as pdf:
        bills = Counter(w for page in pdf.pages for w in big_words(page, 7))
    listed = Counter({("$½" if r["value"] == "0.5" else f"${r['value']}"): int(r["quantity"])
                      for r in rows("money.csv")})
    assert bills == listed
    assert bills["$10"] >= 7  # a Bailout pays every investor a $10M bill


@pytest.mark.parametrize("paper", PAPER_NAMES)
def test_record_sheet_is_one_page_of_the_paper(out, paper):
    with pdfplumber.open(out / f"record-{paper}.pdf") as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        assert (pt_to_mm(page.width), pt_to_mm(page.height)) == pytest.approx(
            (PAPERS[paper].width_mm, PAPERS[paper].height_mm), abs=0.1)
        text = squeeze(page.extract_text())
    for column in ("TotalPropertyValues", "Debt", "Equity(fromcycle4)", "networth"):
        assert column in text


SMALL_PIECES = ("digits", "land_markers", "building_markers", "plaza_markers")


def credited(path: Path) -> bool:
    """Every page carries the attribution, as PDFium reads it (a second reader, and a fast
    one: part of the line is rotated, which it handles)."""
    pages = page_texts(path)
    return bool(pages) and all("PatrickMangan" in squeeze(page) for page in pages)


@pytest.mark.parametrize("paper", PAPER_NAMES)
def test_every_card_board_and_page_sheet_credits_the_designer(out, paper):
    sheets = [p for p in sorted(out.glob(f"*-{paper}.pdf"))
              if not p.name.startswith(SMALL_PIECES)]
    assert len(sheets) == 8
    for path in sheets:
        assert credited(path), path.name


def test_sheets_of_small_pieces_credit_the_designer(out):
    assert all(credited(out / f"{deck}-{paper}.pdf")
               for deck in SMALL_PIECES for paper in PAPER_NAMES)
