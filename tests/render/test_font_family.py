"""A game's own font named like a bundled one, and a game's font that is broken, on the Serif
test game (DejaVu Serif in its folder).

- Its four DejaVu Serif files renamed to the family "Roboto Condensed" (fontTools), the
  family of pnp's bundled body and bold faces: fontconfig cannot tell two files of one
  family apart (it printed the game's regular and bold and pnp's italics), so each is a
  finding at its line in game.yaml; the bundled file itself, shipped by the game, is not.
- The regular file with its glyph outlines cut short (the 'glyf' table's length made smaller
  than its index says) or the file truncated: a finding at the font's line in game.yaml.
"""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from conftest import TESTS, copy_as_cwd, line_of
from pnp.cli import main
from pnp.fonts import font_dir

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


def test_a_games_font_of_a_bundled_family_is_a_finding_at_its_line(tmp_path, monkeypatch,
                                                                   capsys):
    root = copy_as_cwd(SERIF, tmp_path, monkeypatch)
    for name in FACES:
        renamed(root / FONTS / name, "Roboto Condensed")
    assert main(["check", "--no-cache"]) == 1
    err = capsys.readouterr().err
    found = sorted(line for line in err.splitlines() if "(rule font-family-taken)" in line)
    assert len(found) == len(FACES), err
    for name in FACES:
        start = f"{GAME}:{line_of(root / GAME, f'fonts/{name}')}:"
        assert any(line.startswith(start) and f"'fonts/{name}'" in line for line in found), err
    assert all("'Roboto Condensed'" in line for line in found)


def test_the_bundled_file_itself_may_be_a_games_own(tmp_path, monkeypatch, capsys):
    root = copy_as_cwd(SERIF, tmp_path, monkeypatch)
    shutil.copy(font_dir() / "RobotoCondensed-Regular.ttf", root / FONTS / "DejaVuSerif.ttf")
    main(["check", "--no-cache"])
    assert "font-family-taken" not in capsys.readouterr().err


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
