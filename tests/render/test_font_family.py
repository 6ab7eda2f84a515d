"""A game's own font named like a bundled one, and a game's font that is broken, on the Serif
test game (DejaVu Serif in its folder).

- Its four DejaVu Serif files renamed to the family "Roboto Condensed" (fontTools), the
  family of pnp's bundled body and bold faces: the game's own files draw its text (PyMuPDF
  reads the embedded font of each span back), pnp's own furniture too, since fontconfig
  could not tell the two files of one family, weight and style apart.
- The regular file with its glyph outlines cut short (the 'glyf' table's length made smaller
  than its index says) or the file truncated: a finding at the font's line in game.yaml.
"""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pymupdf
import pytest
from fontTools.ttLib import TTFont

from conftest import TESTS, copy_as_cwd, line_of
from pnp.cli import main

SERIF = TESTS / "data" / "games" / "serif"
FONTS = Path("content/serif/fonts")
GAME = Path("content/serif/game.yaml")
FACES = ["DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerif-Italic.ttf",
         "DejaVuSerif-BoldItalic.ttf"]


def renamed(path: Path, family: str) -> None:
    """The font file's family (name ids 1 and 16) renamed; its PostScript name kept."""
    font = TTFont(path)
    for record in font["name"].names:
        if record.nameID in (1, 16):
            record.string = family
    font.save(path)


@pytest.fixture(scope="module")
def shadowing(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("shadowing")
    shutil.copytree(SERIF, root, dirs_exist_ok=True)
    for name in FACES:
        renamed(root / FONTS / name, "Roboto Condensed")
    assert main(["build", "--root", str(root), "--no-cache"]) == 0
    return root


def span_fonts(pdf: Path) -> dict[str, str]:
    """Each span's text -> the font it is drawn in (its subset tag left off)."""
    page = pymupdf.open(pdf)[0]
    return {span["text"]: span["font"].split("+")[-1]
            for block in page.get_text("dict")["blocks"] for line in block.get("lines", [])
            for span in line["spans"]}


def test_a_games_own_font_wins_over_a_bundled_family_of_the_same_name(shadowing):
    pdf = shadowing / "output/serif/cards-letter.pdf"
    fonts = span_fonts(pdf)
    assert fonts["Action"] == "DejaVuSerif"
    embedded = {font[3].split("+")[-1] for page in pymupdf.open(pdf) for font in page.get_fonts()}
    assert not {name for name in embedded if name.startswith("RobotoCondensed")}, embedded


def cut_glyph_outlines(path: Path) -> None:
    """The 'glyf' table's length in the table directory made 1000 bytes."""
    data = bytearray(path.read_bytes())
    for at in range(12, 12 + 16 * struct.unpack(">H", data[4:6])[0], 16):
        if data[at:at + 4] == b"glyf":
            struct.pack_into(">I", data, at + 12, 1000)
    path.write_bytes(bytes(data))


def truncated(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:len(data) - 1000])


@pytest.mark.parametrize("damage", [cut_glyph_outlines, truncated])
def test_a_broken_font_is_a_finding_at_its_line(tmp_path, monkeypatch, capsys, damage):
    root = copy_as_cwd(SERIF, tmp_path, monkeypatch)
    damage(root / FONTS / "DejaVuSerif.ttf")
    assert main(["check", "--no-cache"]) == 1
    err = capsys.readouterr().err
    line = line_of(root / GAME, "regular: fonts/DejaVuSerif.ttf")
    found = [text for text in err.splitlines() if "font-unreadable" in text]
    assert len(found) == 1, err
    assert found[0].startswith(f"{GAME}:{line}:"), found[0]
    assert "cut short" in found[0]
    assert "template" not in err
