"""`pnp plan`: Boomtown's whole kit in one PDF, read back with pdfplumber and pikepdf.

The cards are found from the crop marks (readback.read_sheet); a poker card is a 63 x 88 mm
cell. Nothing here asks pnp.kit how it packed the sheets: the summary printed and the PDF are
compared with each other and with the kit's known decks."""

from __future__ import annotations

import contextlib
import io
import re
import shutil

import pikepdf
import pytest

from pnp.cli import main
from readback import close, mirrored, read_sheet
from conftest import REPO, TESTS, edit, shared_build, shared_value

# The heading of each Boomtown poker deck, as its fronts and its backs print it (the Banker
# Duties card's front is headed with its name, its back "The Banker").
KINDS = {"CYCLE": "CYCLE", "FOCUS": "FOCUS", "THEBANKER": "THEBANKER",
         "BANKERDUTIES": "THEBANKER", "MARKETUP": "MARKETUP", "MARKETDOWN": "MARKETDOWN"}
POKER_MM = (63, 88)


@pytest.fixture(scope="module")
def boomtown(tmp_path_factory):
    out = shared_build(tmp_path_factory, ("--game", "boomtown", "-j", "1"), command="plan")
    path = out / "boomtown" / "boomtown-kit-letter.pdf"
    sheet = shared_value(tmp_path_factory, f"read_sheet {path}", lambda: read_sheet(path))
    return path, (out / "printed.txt").read_text(encoding="utf-8"), sheet


def squeezed(text: str) -> str:
    return "".join(text.split()).upper()


def kind_of(text: str) -> str | None:
    """The deck heading a card's text starts with (after the game's name, on a back)."""
    text = squeezed(text).removeprefix("BOOMTOWN")
    found = [k for k in KINDS if text.startswith(k)]
    return KINDS[max(found, key=len)] if found else None


def sections(summary: str) -> list[tuple[str, int, int, int]]:
    """(double|one, sheets, first page, last page) of each part the summary lists."""
    return [(m[2], int(m[1]), int(m[3]), int(m[4] or m[3])) for m in re.finditer(
        r"^ +(\d+) (double|one)-sided, pages? (\d+)(?:-(\d+))?$", summary, re.M)]


def test_the_summary_counts_the_pages_of_the_pdf(boomtown):
    path, summary, _ = boomtown
    with pikepdf.open(path) as pdf:
        pages = len(pdf.pages)
    total = int(re.search(r"(\d+) pages: (\d+) plan page", summary)[1])
    plan = int(re.search(r"(\d+) plan page", summary)[1])
    assert total == pages
    parts = sections(summary)
    assert parts and parts[0][2] == plan + 1 and parts[-1][3] == pages
    for (sided, sheets, first, last), following in zip(parts, parts[1:] + [None]):
        assert last - first + 1 == sheets * (2 if sided == "double" else 1)
        if following:
            assert following[2] == last + 1
    for stock in ("card", "paper"):
        said = re.search(rf"{stock} stock: (\d+) sheets?, (\d+) pages", summary)
        assert said, stock
    card_sheets = int(re.search(r"card stock: (\d+) sheets", summary)[1])
    card_parts = [p for p in parts if p[2] < int(re.search(
        r"paper stock.*\n +\d+ \w+-sided, pages? (\d+)", summary)[1])]
    assert sum(p[1] for p in card_parts) == card_sheets
    assert re.search(r"^  cuts: \d+$", summary, re.M)
    ink = re.search(r"ink: (\d+)% of the page area on average, as much as (\d+) pages", summary)
    assert ink and 0 < int(ink[1]) < 100 and int(ink[2]) > 0


def double_sided_pages(summary: str) -> list[int]:
    """The 0-based numbers of the fronts pages printed double-sided."""
    return [n - 1 for sided, _, first, last in sections(summary) if sided == "double"
            for n in range(first, last + 1, 2)]


def test_poker_cards_take_at_most_17_card_sheets(boomtown):
    _, summary, sheet = boomtown
    with_poker = set()
    cards = 0
    for n in double_sided_pages(summary):
        poker = [c for c in sheet.pages[n] if close(
            (c.box_mm[2] - c.box_mm[0], c.box_mm[3] - c.box_mm[1]), POKER_MM)]
        if poker:
            with_poker.add(n)
            cards += len(poker)
    assert cards == 149  # 11 Cycle, 3 Focus, 1 Banker Duties, 67 Market Up, 67 Market Down
    assert len(with_poker) <= 17


def test_the_banker_duties_card_shares_its_sheet(boomtown):
    _, summary, sheet = boomtown
    pages = [n for n in double_sided_pages(summary)
             if any(squeezed(c.text).startswith("BANKERDUTIES") for c in sheet.pages[n])]
    assert len(pages) == 1
    assert len(sheet.pages[pages[0]]) > 1


def test_every_back_is_behind_its_front(boomtown):
    """Long-edge flip: the back of the card at (x, y) is at (width - x - w, y), within 0.1 mm,
    and shows the same deck's back."""
    _, summary, sheet = boomtown
    checked = 0
    for n in double_sided_pages(summary):
        backs = sheet.pages[n + 1]
        for front in sheet.pages[n]:
            kind = kind_of(front.text)
            behind = [b for b in backs if close(b.box_mm, mirrored(front.box_mm, sheet.width_mm))]
            assert len(behind) == 1, (n, front.box_mm)
            if kind:
                assert kind_of(behind[0].text) == kind, (n, front.box_mm, behind[0].text)
                checked += 1
    assert checked == 149


def test_a_plan_is_checked_like_a_build(tmp_path):
    """The plan runs the build's check: content that fails it writes no kit."""
    root = tmp_path / "ledger"
    shutil.copytree(TESTS / "data" / "games" / "ledger", root)
    edit(root / "content" / "ledger" / "game.yaml", "size: poker", "size: 300 x 88 mm")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["plan", "--root", str(root), "-j", "1"]) == 1
    assert "game.yaml:" in err.getvalue() and "layout-too-large" in err.getvalue()
    assert not (root / "output" / "ledger" / "ledger-kit-letter.pdf").exists()


def test_build_with_plan_writes_the_decks_and_the_kit(tmp_path):
    root = tmp_path / "ledger"
    shutil.copytree(TESTS / "data" / "games" / "ledger", root)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["build", "--root", str(root), "--plan", "-j", "1"]) == 0
    folder = root / "output" / "ledger"
    assert (folder / "cards-letter.pdf").is_file() and (folder / "notes-letter.pdf").is_file()
    with pikepdf.open(folder / "ledger-kit-letter.pdf") as pdf:
        pages = len(pdf.pages)
    summary = out.getvalue()
    assert int(re.search(r"(\d+) pages: ", summary)[1]) == pages
    # the notes have no backs: their sheet is printed one-sided, after the cards' sheets
    parts = sections(summary)
    assert [p[0] for p in parts] == ["double", "one"]


def test_a_tuck_box_joins_the_card_stock(tmp_path):
    root = tmp_path / "ledger"
    shutil.copytree(TESTS / "data" / "games" / "ledger", root)
    edit(root / "content" / "ledger" / "game.yaml", "    back: card-back.svg.j2\n",
         "    back: card-back.svg.j2\n    tuck_box: {}\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["plan", "--root", str(root), "-j", "1"]) == 0
    summary = out.getvalue()
    with pikepdf.open(root / "output" / "ledger" / "ledger-kit-letter.pdf") as pdf:
        assert int(re.search(r"(\d+) pages: ", summary)[1]) == len(pdf.pages)
    # the cards (double-sided), the notes without backs, then the box: one card sheet each
    assert re.search(r"card stock: 3 sheets", summary)
    assert [p[0] for p in sections(summary)] == ["double", "one", "one"]
