"""`pnp plan`: Boomtown's and Downsize's whole kits in one PDF, read back with PyMuPDF and
pikepdf.

The pieces are found from the clip each face is drawn in (PyMuPDF's drawings: a piece's trim);
a poker card is a 63 x 88 mm one. Nothing here asks pnp.kit how it packed the sheets: the
summary printed and the PDF are compared with each other and with the kit's known decks."""

from __future__ import annotations

import contextlib
import io
import re
import shutil

import pikepdf
import pymupdf
import pytest

from pnp.cli import main
from pnp.units import pt_to_mm
from readback import Card, Sheet, close, mirrored
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
    sheet = shared_value(tmp_path_factory, f"read_pieces {path}", lambda: read_pieces(path))
    return path, (out / "printed.txt").read_text(encoding="utf-8"), sheet


def piece_boxes(page) -> list[pymupdf.Rect]:
    """The trims of the pieces on a page: the outermost clip each face is drawn in."""
    return [d["scissor"] for d in page.get_drawings(extended=True)
            if d.get("type") == "clip" and d.get("level") == 1
            and d["scissor"].width < page.rect.width * 0.9]


def read_pieces(path) -> Sheet:
    """Every page's pieces: box (mm) and the words inside it, in reading order."""
    pages = []
    with pymupdf.open(path) as pdf:
        width = pt_to_mm(pdf[0].rect.width)
        for number, page in enumerate(pdf):
            lines = [(line["dir"], pymupdf.Rect(line["bbox"]),
                      " ".join(span["text"] for span in line["spans"]))
                     for block in page.get_text("dict")["blocks"]
                     for line in block.get("lines", ())]
            cards = []
            for r in piece_boxes(page):
                grown = r + (-0.5, -0.5, 0.5, 0.5)
                # the lines that run the way most of the piece's lines run (a stamp up its
                # side is left out), in the order they are drawn
                ways = [way for way, box, _ in lines if box in grown]
                way = max(set(ways), key=ways.count) if ways else None
                cards.append(Card(number, tuple(pt_to_mm(v) for v in r), " ".join(
                    text for w, box, text in lines if w == way and box in grown), [], []))
            pages.append(cards)
    return Sheet(width, pages)


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
    assert re.search(r"^  cuts: about \d+ trimmer cuts", summary, re.M)
    ink = re.search(r"ink: (\d+)% of the page area on average, as much as (\d+) pages", summary)
    assert ink and 0 < int(ink[1]) < 100 and int(ink[2]) > 0


def double_sided_pages(summary: str) -> list[int]:
    """The 0-based numbers of the fronts pages printed double-sided."""
    return [n - 1 for sided, _, first, last in sections(summary) if sided == "double"
            for n in range(first, last + 1, 2)]


def test_poker_cards_take_at_most_18_card_sheets(boomtown):
    """Fewer than the 20 of the decks' own PDFs, though every deck keeps a gutter from the
    others (their backs must look alike)."""
    _, summary, sheet = boomtown
    with_poker = set()
    cards = 0
    for n in double_sided_pages(summary):
        poker = [c for c in sheet.pages[n] if close(  # upright or on their side
            sorted((c.box_mm[2] - c.box_mm[0], c.box_mm[3] - c.box_mm[1])), POKER_MM)]
        if poker:
            with_poker.add(n)
            cards += len(poker)
    assert cards == 149  # 11 Cycle, 3 Focus, 1 Banker Duties, 67 Market Up, 67 Market Down
    assert len(with_poker) <= 18


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


@pytest.fixture(scope="module")
def downsize(tmp_path_factory):
    out = shared_build(tmp_path_factory, ("--game", "downsize", "-j", "1"), command="plan")
    return out / "downsize" / "downsize-kit-letter.pdf", \
        (out / "printed.txt").read_text(encoding="utf-8")


def is_returns_back(pix, r) -> bool:
    """A Returns back, by the green of its patterned frame (sampled 2 pt inside its edges)."""
    points = [p for t in range(1, 8) for p in (
        (r.x0 + 2, r.y0 + t * r.height / 8), (r.x1 - 2, r.y0 + t * r.height / 8),
        (r.x0 + t * r.width / 8, r.y0 + 2), (r.x0 + t * r.width / 8, r.y1 - 2))]
    red, green, blue = (sum(pix.pixel(int(x), int(y))[i] for x, y in points) / len(points)
                        for i in range(3))
    return green > red + 40 and green > blue + 40


def test_no_returns_back_touches_another_decks_back(downsize):
    """Downsize's Returns backs are all alike: a cut 0.3 mm off must not leave another deck's
    back colour on one. On every rendered backs page, a Returns back keeps at least 1.4 mm
    from any other back."""
    path, _ = downsize
    returns = 0
    with pymupdf.open(path) as pdf:
        for page in pdf:
            if "· backs" not in page.get_text():
                continue
            boxes = piece_boxes(page)
            pix = page.get_pixmap(dpi=72)  # one pixel a point, as the boxes are measured
            kinds = [is_returns_back(pix, r) for r in boxes]
            returns += sum(kinds)
            for mine, kind in zip(boxes, kinds):
                near = mine + (-4, -4, 4, 4)
                assert not kind or all(other_kind or not near.intersects(other)
                                       for other, other_kind in zip(boxes, kinds)), page.number
    assert returns == 18


def lines(values) -> list[float]:
    """Distinct cut lines: values within 0.2 mm of each other are one line."""
    found: list[float] = []
    for v in sorted(values):
        if not found or v - found[-1] > 0.2:
            found.append(v)
    return found


def trimmer_cuts(boxes) -> int:
    """Cut across at every distinct line, then each strip down at each of its lines."""
    across = lines(v for b in boxes for v in (b[1], b[3]))
    strips: dict = {}
    for b in boxes:
        top = min(across, key=lambda y: abs(y - b[1]))
        strips.setdefault(top, []).extend((b[0], b[2]))
    return len(across) + sum(len(lines(xs)) for xs in strips.values())


def test_the_plan_counts_trimmer_cuts_and_has_no_blank_page(downsize):
    path, summary = downsize
    sheet = read_pieces(path)
    said = int(re.search(r"cuts: about (\d+) trimmer cuts", summary)[1])
    fronts = [n for n in double_sided_pages(summary)]
    assert said == sum(trimmer_cuts([c.box_mm for c in sheet.pages[n]]) for n in fronts) > 0
    with pymupdf.open(path) as pdf:
        blank = [page.number for page in pdf if not page.get_text().strip()]
        plan_pages = int(re.search(r"(\d+) plan page", summary)[1])
        assert plan_pages == 1 and "plan page 1 of" not in pdf[0].get_text()
    assert blank == []


def test_marker_colours_keep_sheets_of_their_own(boomtown):
    """Each of Boomtown's marker colours is on sheets of its own (the plan page's rows)."""
    path, _, _ = boomtown
    with pymupdf.open(path) as pdf:
        plan = "\n".join(pdf[n].get_text() for n in range(2))
    rows = [line for line in plan.splitlines() if " markers" in line]
    assert len(rows) >= 8
    assert all(len(re.findall(r"\d+ x ", row)) == 1 for row in rows), rows


def test_a_layouts_plan_writes_its_own_file(tmp_path):
    root = tmp_path / "ledger"
    shutil.copytree(TESTS / "data" / "games" / "ledger", root)
    for layout in ("home", "home-gutter"):
        assert main(["plan", "--root", str(root), "--layout", layout, "-j", "1"]) == 0
    folder = root / "output" / "ledger"
    with pikepdf.open(folder / "ledger-kit-letter.pdf") as home, \
            pikepdf.open(folder / "ledger-kit-letter-home-gutter.pdf") as gutter:
        assert len(home.pages) and len(gutter.pages)


def test_trust_cards_are_not_laid_in_bailout_order(tmp_path_factory):
    """Crunch's Trust backs (each its own Government Bailout) on their own sheets: no sheet
    holds only bailouts above those of an earlier sheet."""
    out = shared_build(tmp_path_factory, ("--game", "crunch", "--sheets", "trust", "-j", "1"))
    sheets = []
    with pymupdf.open(out / "crunch" / "trust-letter.pdf") as pdf:
        for page in pdf:
            if "· backs" in page.get_text():
                sheets.append(sorted(int(w[:-1]) for w in page.get_text().split()
                                     if re.fullmatch(r"\d+M", w)))
    assert sum(len(s) for s in sheets) == 15 and len(sheets) > 1
    assert any(max(a) > min(b) for a, b in zip(sheets, sheets[1:])), sheets
