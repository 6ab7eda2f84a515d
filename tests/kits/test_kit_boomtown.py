"""The Boomtown kit, built once for Letter and A4 and read back from its PDFs.

Counts and sizes are read from the PDFs with pdfplumber and pikepdf and compared with the
kit's own data files and with the content brief's constraints (67 + 67 market cards, 11 cycle
cards, markers for the worst case the board allows), never with the code that drew them.
"""

from __future__ import annotations

import csv
import re
import shutil
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


# The kit as shipped checks clean even with --strict on Letter and A4: test_matrix's
# test_kits_check_strict_under_every_layout (home layout), on every run.

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
    for needle in ("START", "BAILOUT", "+5%", "–5%", "CYCLECARDS", "BANKTOWER", "BUILDINGBOARD",
                   "grey:roads·framed:squarecityblocks"):
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
@pytest.mark.parametrize("deck", ["digits", "markers_blue", "markers_bank", "money", "cycles"])
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


def marker_letters(path: Path) -> Counter:
    """The colour letters printed on a sheet of markers: land and plaza markers carry one big
    letter, a building cell four smaller ones (3 mm and up: the kind's name is smaller)."""
    with pdfplumber.open(path) as pdf:
        return letters(pdf, 3)


@pytest.mark.parametrize("paper", PAPER_NAMES)
def test_each_colour_prints_alone_within_the_rules_suggestion(out, paper):
    """A group prints only its colours: each colour's markers are a PDF of their own holding that
    colour's letter and no other, with land and building markers in the rules' 30 to 50 and a
    plaza marker for every block a colour could hold (not more than the board has)."""
    supply = data("supply.yaml")
    investors = data("investors.yaml")
    colours = [c for c in investors if not c.get("bank")]
    assert len(colours) >= 7
    for colour in colours:
        path = out / f"markers_{colour['name'].lower()}-{paper}.pdf"
        with pdfplumber.open(path) as pdf:  # opened once: its pages parsed once for both
            text = "".join(squeeze(page.extract_text()) for page in pdf.pages)
            found = letters(pdf, 3)
        words = {kind: text.count(kind) for kind in ("LAND", "PLAZA")}
        assert set(found) == {colour["letter"]}, (path.name, found)
        assert 30 <= words["LAND"] == supply["land_per_colour"] <= 50
        assert 1 <= words["PLAZA"] == supply["plaza_per_colour"] <= 25 + 1
        # one big letter per land or plaza marker, the rest are building markers
        building = found[colour["letter"]] - words["LAND"] - words["PLAZA"]
        assert 30 <= supply["building_per_colour"] <= building < supply["building_per_colour"] + 4
    bank = next(c for c in investors if c.get("bank"))
    found = marker_letters(out / f"markers_bank-{paper}.pdf")
    assert set(found) == {bank["letter"]} and found[bank["letter"]] >= 3 * 7


def test_check_accepts_fifty_markers_of_a_kind_and_refuses_sixty(tmp_path, capsys):
    """The rules suggest 30 to 50 of each kind per colour: 50 passes `pnp check`, 60 does not."""
    game = tmp_path / "content" / "boomtown"
    shutil.copytree(REPO / "content" / "boomtown", game)
    shutil.copytree(REPO / "templates" / "boomtown", tmp_path / "templates" / "boomtown")
    supply = game / "supply.yaml"
    text = supply.read_text(encoding="utf-8")
    for count, code in ((50, 0), (60, 1)):
        supply.write_text(re.sub(r"land_per_colour: \d+", f"land_per_colour: {count}", text),
                          encoding="utf-8")
        assert main(["check", "--root", str(tmp_path), "--game", "boomtown"]) == code
        out_text = capsys.readouterr()
        if code:
            assert "markers-land" in out_text.out + out_text.err


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
        # the rows a pencil writes in: the thin rules of each table, one per row boundary
        halves = Counter(round(line["x0"]) for line in page.lines
                         if abs(line["top"] - line["bottom"]) < 0.01
                         and line["width"] < page.width / 2)
    for column in ("TotalPropertyValues", "Debt", "Equity", "fromcycle4", "networth",
                   "Squares×height"):
        assert column in text
    # a 10-cycle game changes an investor's figures about 55 times, after the setup row
    tables = [count for count in halves.values() if count > 5]  # not the name lines
    assert len(tables) == 2 and sum(count - 1 for count in tables) >= 55 + 1


SMALL_PIECES = ("digits", "markers_")


def credited(path: Path) -> bool:
    """Every page carries the attribution, as PDFium reads it (a second reader, and a fast
    one: part of the line is rotated, which it handles)."""
    pages = page_texts(path)
    return bool(pages) and all("PatrickMangan" in squeeze(page) for page in pages)


@pytest.mark.parametrize("paper", PAPER_NAMES)
def test_every_card_board_and_page_sheet_credits_the_designer(out, paper):
    sheets = [p for p in sorted(out.glob(f"*-{paper}.pdf"))
              if not p.name.startswith(SMALL_PIECES)]
    assert len(sheets) == 9  # eight card, board and page sheets and the cover
    for path in sheets:
        assert credited(path), path.name


def test_sheets_of_small_pieces_credit_the_designer(out):
    small = [p for paper in PAPER_NAMES for p in sorted(out.glob(f"*-{paper}.pdf"))
             if p.name.startswith(SMALL_PIECES)]
    assert len(small) == 2 * (1 + 8)  # value tiles and eight colours of markers, per paper
    assert all(credited(path) for path in small)


@pytest.mark.parametrize("file, old, new, rule", [
    ("economy.yaml", "rent_percent: 10", "rent_percent: 15", "printed-percentages"),
    ("spaces.csv", "23,", "23,green\n24,", "board-loop-cells"),
    ("cycles.yaml", "square_green: 20", "square_green: 18", "cycle-heights-rise"),
])
def test_check_catches_a_kit_edit_the_print_would_not_show(tmp_path, capsys, file, old, new,
                                                           rule):
    """Edits that printed a wrong kit with `pnp check` clean: a rent figure the cards do not
    print, a loop space the board leaves off, a cycle whose limits do not rise."""
    game = tmp_path / "content" / "boomtown"
    shutil.copytree(REPO / "content" / "boomtown", game)
    shutil.copytree(REPO / "templates" / "boomtown", tmp_path / "templates" / "boomtown")
    path = game / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert main(["check", "--root", str(tmp_path), "--game", "boomtown"]) == 1
    captured = capsys.readouterr()
    assert f"(rule {rule})" in captured.out + captured.err


def test_height_limit_table_ends_above_the_credit_line(out):
    """The table's rounded frame (a curve to the reader) stays clear of the credit under it."""
    with pdfplumber.open(out / "cycles-letter.pdf") as pdf:
        page = pdf.pages[0]
        tables = [c for c in page.curves
                  if pt_to_mm(c["x1"] - c["x0"]) == pytest.approx(51, abs=0.5)
                  and 10 < pt_to_mm(c["bottom"] - c["top"]) < 20]
        credits = [w for w in page.extract_words() if w["text"] == "Boomtown"]
    assert len(tables) >= 8
    for table in tables:
        under = [w for w in credits if table["x0"] - 1 <= w["x0"] <= table["x1"]
                 and w["top"] > table["top"]]
        assert pt_to_mm(min(w["top"] for w in under) - table["bottom"]) > 0.3
