"""A game with fonts of its own: its reprint and its visual diff print in them, as its build
does, read back from the PDFs with PyMuPDF."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from conftest import TESTS, edit

SERIF = TESTS / "data" / "games" / "serif"
STAMP = re.compile(r"v[0-9a-f]{6}")


def embedded(pdf: Path) -> set[str]:
    """The base names of the fonts a PDF embeds (subset prefixes dropped)."""
    with pymupdf.open(pdf) as document:
        return {font[3].split("+", 1)[-1] for page in document for font in page.get_fonts()}


@pytest.fixture(scope="module")
def reprinted(tmp_path_factory) -> Path:
    """The Serif game built, a card's text edited, diffed, then built with --reprint."""
    from pnp.cli import main

    root = tmp_path_factory.mktemp("serif-reprint")
    shutil.copytree(SERIF, root, dirs_exist_ok=True)
    assert main(["build", "--root", str(root)]) == 0
    edit(root / "content/serif/cards.csv", "Take **two coins**", "Take **three coins**")
    # In a process of their own, drawing the build on workers: fonts made drawable in this
    # process (by the build above) would stay drawable for the reprint and the diff.
    for args in (["diff"], ["build", "--reprint"]):
        done = subprocess.run([sys.executable, "-m", "pnp", *args, "--root", str(root)],
                              capture_output=True, text=True, env={**os.environ, "PNP_JOBS": "2"})
        assert done.returncode == 0, done.stderr
    return root / "output/serif"


def test_the_reprint_embeds_the_fonts_of_the_build(reprinted):
    build, reprint = embedded(reprinted / "cards-letter.pdf"), \
        embedded(reprinted / "reprint-letter.pdf")
    assert "DejaVuSerif" in reprint and "DejaVuSerif-Bold" in reprint
    # nothing the full build does not print with: no bundled face in place of the game's
    assert reprint <= build, reprint - build


def spans(pdf: Path) -> list[tuple[str, str]]:
    """(font, text) of every span of text in a PDF."""
    with pymupdf.open(pdf) as document:
        return [(span["font"].split("+", 1)[-1], span["text"]) for page in document
                for block in page.get_text("dict")["blocks"] for line in block.get("lines", ())
                for span in line["spans"]]


def test_the_visual_diff_prints_in_the_games_fonts_and_no_bundled_body_face(reprinted):
    printed = spans(reprinted / "proof/diff.pdf")
    fonts = {font for font, _ in printed}
    assert {"DejaVuSerif", "DejaVuSerif-Bold"} <= fonts, fonts
    by_text = dict((text.strip(), font) for font, text in printed)
    assert by_text["now"] == "DejaVuSerif" and by_text["Take"] == "DejaVuSerif", by_text
    # the bundled body face prints only what the build prints in it: the version stamps
    assert all(STAMP.fullmatch(text.strip()) for font, text in printed
               if font.startswith("RobotoCondensed")), printed
