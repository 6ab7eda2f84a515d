"""Components: the shares, markers, cube tokens and aids sheets, read back from the built PDFs.

Counts come from the content (components.yaml, aids.yaml); geometry, colours and text come from
the PDF as pdfplumber sees it, never from the layout code that produced it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pdfplumber
import pymupdf
import pikepdf
import pytest
import yaml

from conftest import crop_marks
from pnp.units import PAPERS, pt_to_mm


ATTRIBUTION = "Downturn © 2009 Jack Neal · CC BY-NC 3.0 US"
ICONS = {"red": "#c62828", "yellow": "#f9c800", "green": "#2e7d32", "blue": "#1565c0",
         "black": "#212121"}


def _rgb(colour) -> tuple[int, int, int] | None:
    if not colour or len(colour) != 3:
        return None
    return tuple(round(c * 255) for c in colour)


def _hex(value: str) -> tuple[int, int, int]:
    return tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))


def tiles(page, size_mm: float) -> dict[tuple[float, float], tuple[int, int, int]]:
    """Every filled square of the tile size: its top-left (mm) and its fill colour.

    Each face paints its own background first, 5 mm past its trim on every side so a bleed
    has something in it (what shows is clipped to the trim and any outer bleed): a square
    10 mm larger than the tile, centred on it, is the tile's background.
    """
    found = {}
    for rect in page.rects:
        if not rect.get("fill"):
            continue
        w, h = pt_to_mm(rect["width"]), pt_to_mm(rect["height"])
        for past in (0, 5):
            if abs(w - size_mm - 2 * past) < 0.01 and abs(h - size_mm - 2 * past) < 0.01:
                found[(round(pt_to_mm(rect["x0"]) + past, 2),
                       round(pt_to_mm(rect["top"]) + past, 2))] = _rgb(rect["non_stroking_color"])
    return found


@pytest.fixture
def content(project) -> dict:
    folder = project / "content" / "downturn"
    return {name: yaml.safe_load((folder / f"{name}.yaml").read_text(encoding="utf-8"))
            for name in ("components", "aids")}


@pytest.fixture
def build(project, run):
    def make(sheets: str, paper: str = "letter") -> Path:
        result = run("build", "--sheets", sheets, "--paper", paper)
        assert result.code == 0, result.err
        return project / "output" / "downturn"
    return make


def test_every_component_sheet_is_listed(project, run):
    result = run("list", "--game", "downturn")
    assert result.code == 0, result.err
    listed = {line.split()[0]: int(line.split()[1]) for line in result.out.splitlines()[1:]}
    assert listed["shares"] == 80
    assert listed["cubes"] == 104 + 4  # the supply, and a score marker per player colour
    assert listed["markers"] == 8
    assert listed["aids"] == 5


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_share_pages_are_a_grid_of_inch_tiles_in_player_colours_backed_alike(
        build, content, paper):
    out = build("shares", paper)
    components = content["components"]
    width = PAPERS[paper].width_mm
    fronts: Counter = Counter()
    with pdfplumber.open(out / f"shares-{paper}.pdf") as pdf:
        assert len(pdf.pages) % 2 == 0
        for front, back in zip(pdf.pages[::2], pdf.pages[1::2]):
            for page in (front, back):
                xs, ys, _ = crop_marks(page)
                assert len(xs) >= 2 and len(ys) >= 2
                for a, b in zip(xs, xs[1:]):
                    assert b - a == pytest.approx(25.4, abs=0.1)
                for a, b in zip(ys, ys[1:]):
                    assert b - a == pytest.approx(25.4, abs=0.1)
            front_tiles, back_tiles = tiles(front, 25.4), tiles(back, 25.4)
            xs, ys, _ = crop_marks(front)
            assert front_tiles.keys() == {
                (x, y) for x, y in front_tiles if x in xs and y in ys}, "tile off the cut grid"
            # Turned over on the long edge, every tile's back is the same colour as its front.
            assert len(back_tiles) == len(front_tiles)
            for (x, y), colour in front_tiles.items():
                mirrored = (round(width - x - 25.4, 2), y)
                match = [c for (bx, by), c in back_tiles.items()
                         if abs(bx - mirrored[0]) < 0.1 and abs(by - y) < 0.1]
                assert match == [colour], f"back of the tile at {x}, {y} mm does not match"
            fronts.update(front_tiles.values())
    expected = {_hex(ICONS[c]): components["shares_per_colour"]
                for c in components["player_colours"]}
    assert dict(fronts) == expected


def test_cube_tokens_match_the_supply_and_carry_a_letter_each(build, content):
    out = build("cubes")
    supply = content["components"]["cubes"]
    colours: Counter = Counter()
    letters: Counter = Counter()
    with pdfplumber.open(out / "cubes-letter.pdf") as pdf:
        front = pdf.pages[0]
        xs, ys, _ = crop_marks(front)
        for a, b in zip(xs, xs[1:]):
            assert b - a == pytest.approx(12.7, abs=0.1)
        colours.update(tiles(front, 12.7).values())
        letters.update(ch["text"] for ch in front.chars
                       if ys[0] <= pt_to_mm(ch["top"]) <= ys[-1])
    players = content["components"]["player_colours"]
    expected = Counter({_hex(ICONS[c]): n for c, n in supply.items()})
    expected.update(_hex(ICONS[c]) for c in players)  # one score marker per player colour
    assert dict(colours) == dict(expected)
    # The letter, not the colour, tells red from green on a greyscale print.
    wanted = Counter({"G": supply["green"], "Y": supply["yellow"], "R": supply["red"],
                      "B": supply["blue"], "K": supply["black"]})
    wanted.update(c[0].upper() for c in players)  # R, Y, B, G: the colour's initial
    assert {k: letters[k] for k in "GYRBK"} == dict(wanted)


def _cell_texts(page, size: tuple[float, float]) -> list[str]:
    xs, ys, _ = crop_marks(page)
    texts = []
    for top, bottom in zip(ys, ys[1:]):
        for left, right in zip(xs, xs[1:]):
            assert right - left == pytest.approx(size[0], abs=0.1)
            assert bottom - top == pytest.approx(size[1], abs=0.1)
            cell = page.crop(tuple(v * 72 / 25.4 for v in (left, top, right, bottom)))
            text = " ".join(cell.extract_text(x_tolerance=1).split())
            if text:
                texts.append(text)
    return texts


def test_markers_and_aids_count_and_wording_come_from_the_content(build, content):
    out = build("markers,aids")
    components, aids = content["components"], content["aids"]
    with pdfplumber.open(out / "markers-letter.pdf") as pdf:
        assert len(pdf.pages) == 2
        fronts = _cell_texts(pdf.pages[0], (31.75, 31.75))
        backs = _cell_texts(pdf.pages[1], (31.75, 31.75))
    # At 5 pt the credit line does not fit a 1.25 in marker: each page carries it, turned in
    # the margin (PyMuPDF reads turned lines whole).
    with pymupdf.open(out / "markers-letter.pdf") as document:
        pages = ["".join(page.get_text().split()) for page in document]
    tracks = [m for m in aids["markers"] if m["kind"] == "track"]
    assert len(fronts) == len(backs) == (components["turn_order_markers"]
                                         + components["leader_markers"] + len(tracks))
    assert len(tracks) == components["cubes"]["black"]  # each stands in for a black cube
    # Tiny and letter-spaced text does not keep its spaces when extracted: compare without.
    squeezed = [t.replace(" ", "") for t in fronts]
    assert sum("TURNORDER" in t for t in squeezed) == components["turn_order_markers"]
    assert all("".join(ATTRIBUTION.split()) in text for text in pages)
    for marker in tracks:
        assert any(marker["title"].replace(" ", "") in t for t in squeezed)
    with pdfplumber.open(out / "aids-letter.pdf") as pdf:
        assert len(pdf.pages) == 2
        fronts = _cell_texts(pdf.pages[0], (63, 88))
        backs = _cell_texts(pdf.pages[1], (63, 88))
    per_player = sum(len(components["player_colours"]) if a.get("per_player") else 1
                     for a in aids["aids"])
    assert len(fronts) == len(backs) == per_player == 5
    assert all(ATTRIBUTION in t for t in fronts + backs)
    player = aids["aids"][0]
    keys = [e["key"] for side in ("front", "back") for s in player[side]["sections"]
            for e in s["entries"]]
    assert keys == list("12345ABCDEFGHIJ")  # every phase and all ten actions
    assert sum("Reorganise" in t for t in backs) == len(components["player_colours"])


def test_shipped_aids_and_markers_fit_at_their_designed_size(project, run):
    result = run("check", "--strict")
    assert not [line for line in result.lines if "aids.yaml" in line], result.err


def test_an_aid_text_too_long_for_its_card_is_a_located_error(project, run):
    aids = project / "content" / "downturn" / "aids.yaml"
    text = aids.read_text(encoding="utf-8")
    old = "text: Discard one card."
    assert old in text
    aids.write_text(text.replace(old, "text: " + "Discard one card and think. " * 20),
                    encoding="utf-8")
    result = run("check")
    assert result.code == 1
    line = next(n for n, s in enumerate(text.splitlines(), start=1) if old in s)
    errors = [s for s in result.lines if "error:" in s]
    # Only the culprit is blamed: the other rows keep the room they need.
    assert len(errors) == 1 and f"aids.yaml:{line}:" in errors[0], result.err
    assert "text-overflow" in errors[0] and 'aid entry J "Pass"' in errors[0]


@pytest.mark.parametrize("sheet", ["shares", "aids"])
def test_component_fonts_are_embedded(build, sheet):
    out = build(sheet)
    with pikepdf.open(out / f"{sheet}-letter.pdf") as pdf:
        fonts = [obj for obj in pdf.objects if isinstance(obj, pikepdf.Dictionary)
                 and obj.get("/Type") == pikepdf.Name.Font]
        assert fonts
        for font in fonts:
            assert font.Subtype != pikepdf.Name.Type3
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font.DescendantFonts[0].FontDescriptor
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
