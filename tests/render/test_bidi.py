"""Right-to-left text: Hebrew and Arabic in a card's text box print in the order a reader
reads them, set by the Unicode bidirectional algorithm.

The Serif test game draws its card text in DejaVu Serif with DejaVu Sans as the fallback,
which has Hebrew and Arabic. The PDF is read back with PyMuPDF: the characters of each line
on the page, in the order of their glyphs' left edges, are the order they print in.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf
import pytest

from conftest import TESTS
from pnp.cli import main
from pnp.render.bidi import printed_order
from pnp.render.textfit import Run

SERIF = TESTS / "data" / "games" / "serif"
CARDS = Path("content/serif/cards.csv")
HEBREW = "שלום לכם"  # "peace to you"
ARABIC = "سلام عليكم"  # the same
MIXED = "קנה 3 מניות"  # "buy 3 shares": a number inside a right-to-left sentence


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> list[str]:
    """Each line of text on the cards' first page, its characters in printed order."""
    root = tmp_path_factory.mktemp("bidi")
    shutil.copytree(SERIF, root, dirs_exist_ok=True)
    (root / CARDS).write_text(
        "title,kind,text\n"
        f"Loan,Action,{HEBREW}\n"
        f"Audit,Event,{ARABIC}\n"
        f"Share,Event,{MIXED}\n", encoding="utf-8")
    assert main(["build", "--root", str(root), "--no-cache"]) == 0
    page = pymupdf.open(root / "output/serif/cards-letter.pdf")[0]
    lines: dict[int, list[tuple[float, str]]] = {}  # baseline -> (left edge, character)
    for block in page.get_text("rawdict")["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                for char in span["chars"]:
                    lines.setdefault(round(char["origin"][1]), []).append(
                        (char["bbox"][0], char["c"]))
    return ["".join(c for _, c in sorted(chars)) for chars in lines.values()]


@pytest.mark.parametrize("written", [HEBREW, ARABIC], ids=["hebrew", "arabic"])
def test_right_to_left_words_print_from_right_to_left(printed, written):
    # the first word read is the rightmost printed, each word's letters right to left
    assert any(written[::-1] in line for line in printed), "|".join(printed)
    assert not any(written in line for line in printed)


def test_a_number_in_a_right_to_left_sentence_keeps_its_digits_in_order(printed):
    words = MIXED.split()
    # (the digit is drawn in the serif, the words in the fallback: spaces at the ends of the
    # pieces are not extracted, so they are left out of the comparison)
    assert any(f"{words[2][::-1]}3{words[0][::-1]}" in line.replace(" ", "")
               for line in printed), printed


def test_a_right_to_left_line_of_several_runs_is_mirrored():
    runs = (Run(0.0, 10.0, text="שלום"), Run(10.0, 4.0, icon="coin"),
            Run(14.0, 6.0, text="עולם"))
    shown = printed_order(runs)
    assert [(run.x_mm, run.text or run.icon) for run in shown] == [
        (0.0, "םלוע"), (6.0, "coin"), (10.0, "םולש")]
    left_to_right = (Run(0.0, 8.0, text="Take "), Run(8.0, 5.0, text="שלום"))
    assert printed_order(left_to_right) == (Run(0.0, 8.0, text="Take "),
                                            Run(8.0, 5.0, text="םולש"))
