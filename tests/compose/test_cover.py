"""Every kit's cover sheet, read back from its PDF with pdfplumber: it lists each deck, board and
page with the pieces and sheets the kit's own PDFs hold (counted from those PDFs, not from the
code that wrote the cover), what else to bring, how to print, and the kit's proposals, as the
game's cover.yaml words them. Also `kit_contents`, the cover's numbers, against imposition."""

from __future__ import annotations

import re

import fitz  # PyMuPDF: every page's text of every kit PDF, read quickly
import pdfplumber
import pytest
import yaml

from conftest import KIT_PAPERS, REPO
from pnp.compose.cover import KitPart, kit_contents
from pnp.units import PAPERS, Size

KITS = ("downturn", "crunch", "downsize", "boomtown", "banking")


def squeeze(text: str) -> str:
    return "".join(text.split())


def manifest(game: str) -> dict:
    return yaml.safe_load((REPO / "content" / game / "game.yaml").read_text(encoding="utf-8"))


def cover_words(game: str) -> dict:
    return yaml.safe_load((REPO / "content" / game / "cover.yaml").read_text(encoding="utf-8"))


def cover_lines(path) -> list[str]:
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == 1
        return (pdf.pages[0].extract_text() or "").splitlines()


def sheets_of(path) -> tuple[int, int]:
    """(sheets of paper, sides) of a built deck PDF: two-sided when a page's footer says backs
    (a fronts page is then followed by its backs page)."""
    with fitz.open(path) as pdf:
        pages = pdf.page_count
        two_sided = any(re.search(r"sheet \d+/\d+ · backs", page.get_text())
                        for page in pdf)
    return (pages // 2, 2) if two_sided else (pages, 1)


@pytest.mark.parametrize("paper", KIT_PAPERS)
@pytest.mark.parametrize("game", KITS)
def test_the_cover_lists_every_deck_with_the_pieces_and_sheets_its_pdf_holds(built_kit, game,
                                                                            paper):
    out = built_kit(game)
    lines = cover_lines(out / f"cover-{paper}.pdf")
    decks = manifest(game)["decks"]
    for name, deck in decks.items():
        (row,) = [line for line in lines if line.startswith(deck["title"] + " ")]
        count, rest = re.fullmatch(r"(\d+) (.*)", row[len(deck["title"]) + 1:]).groups()
        sheets, sides = sheets_of(out / f"{name}-{paper}.pdf")
        # the sheets column reads "N, 2-sided" or "N" after the size
        assert re.search(rf"mm {sheets}(, 2-sided)? ", rest + " "), (row, sheets)
        assert ("2-sided" in rest) == (sides == 2), row
        with fitz.open(out / f"{name}-{paper}.pdf") as pdf:  # reads a footer turned on its side
            footer_total = {int(m) for page in pdf
                            for m in re.findall(r"sheet \d+/(\d+)", page.get_text())}
        assert footer_total == {sheets}, (name, footer_total)
        assert int(count) > 0


@pytest.mark.parametrize("game", KITS)
def test_the_cover_says_what_to_bring_how_to_print_and_what_the_kit_proposes(built_kit, game):
    text = squeeze(" ".join(cover_lines(built_kit(game) / "cover-letter.pdf")))
    words = cover_words(game)
    assert "Whatelsetobring" in text and "Howtoprint" in text
    assert "Printat100%" in text and "flippingonthelongedge" in text
    assert words["bring"]
    for entry in words["bring"] + words.get("printing", []) + words.get("proposals", []):
        assert squeeze(entry) in text, entry
    if words.get("proposals"):
        assert "Wheretherulesaresilent,thiskitproposes" in text


def test_boomtown_cover_lists_the_die_token_pencils_and_bricks(built_kit):
    text = " ".join(cover_lines(built_kit("boomtown") / "cover-letter.pdf")).lower()
    for thing in ("die", "game token", "pencils", "bricks"):
        assert thing in text, thing


def test_the_downturn_cover_keeps_the_licence_attribution(built_kit):
    text = " ".join(cover_lines(built_kit("downturn") / "cover-letter.pdf"))
    assert "Jack Neal" in text and "CC BY-NC 3.0 US" in text


def test_kit_contents_counts_the_sheets_imposition_makes():
    """Nine poker cards fill a Letter sheet on the home layout: 10 take two sheets, printed on
    both sides; a deck without backs is one-sided; a page is its copies."""
    poker = Size(63, 88)
    parts = (KitPart("a", "A", "deck", 9, poker, True), KitPart("b", "B", "deck", 10, poker, True),
             KitPart("c", "C", "deck", 10, poker, False), KitPart("p", "P", "page", 3, None))
    listed = {entry["name"]: entry for entry in kit_contents(parts, "letter")}
    assert (listed["a"]["sheets"], listed["a"]["sides"]) == (1, 2)
    assert (listed["b"]["sheets"], listed["b"]["sides"]) == (2, 2)
    assert (listed["c"]["sheets"], listed["c"]["sides"]) == (2, 1)
    assert listed["p"]["sheets"] == 3
    board = kit_contents((KitPart("g", "G", "board", 1, Size(558.8, 431.8)),), "letter")[0]
    assert board["sheets"] == board["tiles"] + 1 > 1
    assert PAPERS["letter"].width_mm < 558.8
