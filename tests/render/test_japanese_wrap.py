"""A Japanese sentence wraps inside a narrow box, read back from the built PDF (issue 28).

The Serif test game's body role gets a Japanese fallback (a subset of Droid Sans Fallback
holding the sentence's characters, in its fonts folder) and a deck whose one card prints the
sentence in a 22 mm wide text box. UAX #14 breaks between the characters; the PDF is read back
with PyMuPDF against the box the face declares (its `data-fit` group), and the glyphs' ink from
the font file, so nothing here uses pnp's own measures of the text.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf
import pytest
from fontTools.ttLib import TTFont

from conftest import TESTS, edit, line_of
from fitread import MM_PER_PT, fitted_boxes, placement_matrix, printed_lines
from pnp.cli import main
from pnp.pipeline import Project, check_game

SERIF = TESTS / "data" / "games" / "serif"
GAME = Path("content/serif/game.yaml")
CARDS = Path("content/serif/japanese.csv")
FONT = SERIF / "content/serif/fonts/DroidSansFallback-subset.ttf"
SENTENCE = "「都市は地図にない場所に現れ、誰もその名を知らない。」"
WIDTH_MM = 22
# PyMuPDF's glyph boxes are in points, written to the PDF rounded; a glyph past the box's edge
# by this much or more is printed outside it.
EDGE_MM = 0.01
DECK = """
  japanese:
    title: Japanese cards
    size: poker
    front: japanese-front.svg.j2
    back: card-back.svg.j2
    file: japanese.csv
    label: 'card "{{ title }}"'
    fields:
      title: {type: text, max_chars: 24}
      text: {type: text, max_chars: 40}
"""
FRONT = """\
<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">
<rect x="-5" y="-5" width="73" height="98" fill="#ffffff"/>
{{{{ text_box(card, "text", (20, 20, {width}, {height}), size_pt=10, min_pt=10) }}}}
</svg>
"""


def japanese_game(root: Path, width_mm: float = WIDTH_MM, height_mm: float = 40,
                  fallback: bool = True) -> Path:
    """The Serif game with the Japanese deck, its text box `width_mm` by `height_mm`; its body
    role falls back to the Japanese font unless `fallback` is false."""
    shutil.copytree(SERIF, root)
    if fallback:
        edit(root / GAME, "fallback: [fonts/DejaVuSans.ttf]",
             "fallback: [fonts/DejaVuSans.ttf, fonts/DroidSansFallback-subset.ttf]")
    edit(root / GAME, "\ndecks:\n", "\ndecks:" + DECK)
    (root / CARDS).write_text(f"title,text\nCity,{SENTENCE}\n", encoding="utf-8")
    (root / "templates/serif/japanese-front.svg.j2").write_text(
        FRONT.format(width=width_mm, height=height_mm), encoding="utf-8")
    return root


def build(root: Path) -> tuple[bytes, list]:
    """The Japanese deck's PDF, and the plans of its pages."""
    assert main(["build", "--root", str(root), "--sheets", "japanese", "--out",
                 str(root / "out")]) == 0
    [output] = check_game(Project(root), "serif", jobs=1).outputs["japanese"]
    return (root / "out" / "serif" / output.file_name).read_bytes(), output.plans


def glyphs(pdf: bytes) -> list[tuple[str, str, tuple[float, ...], tuple[float, ...], float]]:
    """(character, font without its subset tag, origin, bbox, size in pt) of every glyph on
    the first page, in mm; a bbox runs across the glyph's advance."""
    with pymupdf.open(stream=pdf) as document:
        page = document[0]
        return [(char["c"], span["font"].split("+")[-1],
                 tuple(v * MM_PER_PT for v in char["origin"]),
                 tuple(v * MM_PER_PT for v in char["bbox"]), span["size"])
                for block in page.get_text("rawdict", flags=pymupdf.TEXT_INHIBIT_SPACES)["blocks"]
                for line in block.get("lines", ()) for span in line["spans"]
                for char in span["chars"]]


def ink_mm(char: str, origin: tuple[float, ...], size_pt: float) -> tuple[float, ...]:
    """The ink of `char` drawn in the Japanese font at `origin`: its outline's bounds, read
    from the font file, x0, y0, x1, y1 in mm on the page."""
    font = TTFont(FONT)
    glyph = font["glyf"][font.getBestCmap()[ord(char)]]
    scale = size_pt / font["head"].unitsPerEm * MM_PER_PT
    x, y = origin
    return (x + glyph.xMin * scale, y - glyph.yMax * scale, x + glyph.xMax * scale,
            y - glyph.yMin * scale)


def the_box(plans) -> tuple[float, float, float, float]:
    """The Japanese text box on the page, x0, y0, x1, y1 in mm, from the face's SVG."""
    [(matrix, box, _)] = [found for placement in plans[0].placements
                          for found in fitted_boxes(placement.svg, placement_matrix(placement))]
    a, _, _, d, e, f = matrix
    return (a * box[0] + e, d * box[1] + f, a * (box[0] + box[2]) + e, d * (box[1] + box[3]) + f)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[bytes, list]:
    return build(japanese_game(tmp_path_factory.mktemp("japanese") / "serif"))


def test_a_japanese_sentence_wraps_inside_a_narrow_box(built):
    pdf, plans = built
    lines, skipped = printed_lines(pdf, plans)
    assert skipped == 0
    printed = [line.printed for line in lines]
    # wrapped between its characters onto several lines, which read back as the sentence
    assert len(lines) >= 3, printed
    assert "".join(printed) == SENTENCE
    assert printed == [line.text for line in lines]
    # no line wider than the box
    assert max(line.over_mm for line in lines) <= 0.002, printed
    # no closing mark opens a line, no opening bracket ends one
    assert not any(line.startswith(("、", "。", "」")) for line in printed[1:]), printed
    assert not any(line.endswith("「") for line in printed[:-1]), printed


def test_every_japanese_glyph_is_drawn_in_the_fallback_inside_its_box(built):
    pdf, plans = built
    x0, y0, x1, y1 = the_box(plans)
    assert x1 - x0 == pytest.approx(WIDTH_MM, abs=1e-6)
    drawn = [glyph for glyph in glyphs(pdf) if glyph[0] in SENTENCE]
    assert "".join(c for c, *_ in drawn) == SENTENCE
    assert {font for _, font, *_ in drawn} == {"DroidSansFallback"}
    # across, each glyph's advance and ink; down, its baseline
    outside = [(c, [round(v, 2) for v in bbox]) for c, _, origin, bbox, size in drawn
               for ink in [ink_mm(c, origin, size)]
               if min(bbox[0], ink[0]) < x0 - EDGE_MM or max(bbox[2], ink[2]) > x1 + EDGE_MM
               or not y0 < origin[1] < y1]
    assert outside == [], (x0, y0, x1, y1)
    assert len({round(origin[1], 2) for _, _, origin, _, _ in drawn}) >= 3


@pytest.mark.xfail(strict=True, reason="a fallback character's ink is measured in the role's "
                   "regular face: its depth below the baseline counts as none, and the first "
                   "line sits at the regular face's ascent, below the fallback's tallest ink")
def test_a_box_that_checks_clean_holds_the_fallbacks_ink_down_as_well(tmp_path):
    """A box as deep as pnp's fit of the five lines needs (19.7 mm at 10 pt): check passes it,
    so the ink must be inside it top and bottom."""
    root = japanese_game(tmp_path / "serif", height_mm=19.7)
    assert main(["check", "--strict", "--root", str(root)]) == 0
    pdf, plans = build(root)
    _, y0, _, y1 = the_box(plans)
    inks = [ink_mm(c, origin, size) for c, _, origin, _, size in glyphs(pdf) if c in SENTENCE]
    assert min(ink[1] for ink in inks) >= y0 - EDGE_MM
    assert max(ink[3] for ink in inks) <= y1 + EDGE_MM


def test_the_japanese_game_checks_clean(tmp_path, run):
    japanese_game(tmp_path / "serif")
    result = run("check", "--strict", "--root", str(tmp_path / "serif"))
    assert result.code == 0, result.err


def test_without_the_fallback_a_japanese_text_is_one_located_error(
        tmp_path, monkeypatch, run):
    """One finding for the text, naming how many characters it lacks and the first of them
    in the text's order, not one line per character."""
    root = japanese_game(tmp_path / "serif", fallback=False)
    monkeypatch.chdir(root)
    result = run("check")
    assert result.code == 1
    found = [line for line in result.lines if "(rule glyph-missing)" in line]
    line = line_of(root / CARDS, "City,")
    assert len(found) == 1 and found[0].startswith(f"{CARDS}:{line}:"), result.err
    lacking = list(dict.fromkeys(char for char in SENTENCE))
    assert f"{len(lacking)} characters '{''.join(lacking[:8])}' (U+{ord(lacking[0]):04X} " \
        in found[0], found[0]
