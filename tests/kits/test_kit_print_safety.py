"""Every kit's PDFs read back with PyMuPDF for what a home printer and a cutter do to a print:
no text under 6 pt but credit lines and version stamps (5 pt at least); on the home layout
nothing printed within 5 mm of the paper's edge; with the home-gutter layout's bleed, the
1 mm band outside each card's trim printed like the card's edge. Each kit is built once per
worker for the home layout (conftest.built_kit) and once here with home-gutter."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest
import yaml

from conftest import REPO, crop_marks, shared_build
from pnp.cli import main
from pnp.units import mm_to_pt

KITS = ("downturn", "crunch", "downsize", "boomtown", "banking")
STAMP = re.compile(r"v[0-9a-f]{6}")
SIZE_SLACK_PT = 0.02  # sizes are stored rounded to 0.001 mm


def attribution(game: str) -> str:
    data = yaml.safe_load((REPO / "content" / game / "game.yaml").read_text(encoding="utf-8"))
    return data["licence"]["attribution"]


def spans(page: pymupdf.Page):
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", ()):
            yield from (span for span in line["spans"] if span["text"].strip())


def is_credit_or_stamp(text: str, credit: str) -> bool:
    text = " ".join(text.split())
    return bool(STAMP.fullmatch(text)) or "©" in text or text in credit


@pytest.mark.parametrize("game", KITS)
def test_no_text_under_6_pt_but_credit_lines_and_stamps(built_kit, game):
    credit = attribution(game)
    small, too_small = [], []
    for path in sorted(built_kit(game).glob("*.pdf")):
        with pymupdf.open(path) as document:
            for number, page in enumerate(document, start=1):
                if ", assembly map" in page.get_text():
                    continue  # a tiled board's map: the whole board as a small picture
                for span in spans(page):
                    size, text = span["size"], span["text"].strip()
                    if size >= 6 - SIZE_SLACK_PT:
                        continue
                    if is_credit_or_stamp(text, credit) and size >= 5 - SIZE_SLACK_PT:
                        small.append(text)
                    else:
                        too_small.append(f"{path.name} p{number}: {text!r} at {size:.2f} pt")
    assert not too_small, "\n".join(too_small[:20])
    assert small, "no credit line or stamp was read: the check above read nothing"


def band_is_blank(pixmap: pymupdf.Pixmap, band_px: int) -> list[str]:
    """Which edges of a rendered page have anything but white within `band_px` pixels."""
    samples, stride, n = pixmap.samples, pixmap.stride, pixmap.n
    width, height = pixmap.width, pixmap.height
    found = []
    rows = {"top": range(band_px), "bottom": range(height - band_px, height)}
    for edge, span in rows.items():
        if min(samples[span.start * stride: span.stop * stride]) < 245:
            found.append(edge)
    left = right = 255
    for y in range(height):
        row = y * stride
        left = min(left, min(samples[row: row + band_px * n]))
        right = min(right, min(samples[row + (width - band_px) * n: row + width * n]))
    found += [edge for edge, value in (("left", left), ("right", right)) if value < 245]
    return found


EDGE_MM = 5
DPI = 100


@pytest.mark.parametrize("game", KITS)
def test_home_layout_prints_nothing_within_5_mm_of_the_edge(built_kit, game):
    # Half a pixel inside the 5 mm: a mark ending exactly there rasterises into its pixel.
    band = int(EDGE_MM / 25.4 * DPI - 0.5)
    crowded = []
    read = 0
    for path in sorted(built_kit(game).glob("*.pdf")):
        if path.stem.endswith("-large"):  # one poster-sized page, for a copy shop
            continue
        with pymupdf.open(path) as document:
            for number, page in enumerate(document, start=1):
                edges = band_is_blank(page.get_pixmap(dpi=DPI), band)
                read += 1
                if edges:
                    crowded.append(f"{path.name} p{number}: {', '.join(edges)}")
    assert read and not crowded, "\n".join(crowded[:20])


def test_a_mark_in_the_margin_is_seen(tmp_path):
    """The edge reader above finds what is there: a page with one short line 3 mm in."""
    with pymupdf.open() as document:
        page = document.new_page(width=mm_to_pt(210), height=mm_to_pt(297))
        page.draw_line((mm_to_pt(3), mm_to_pt(100)), (mm_to_pt(3), mm_to_pt(105)), width=0.3)
        band = int(EDGE_MM / 25.4 * DPI - 0.5)
        assert band_is_blank(page.get_pixmap(dpi=DPI), band) == ["left"]
        blank = document.new_page(width=mm_to_pt(210), height=mm_to_pt(297))
        assert band_is_blank(blank.get_pixmap(dpi=DPI), band) == []


@pytest.fixture(scope="module")
def gutter_kit(tmp_path_factory):
    """`gutter_kit(game)`: the game's decks built once in the test run with home-gutter."""
    def build(game: str) -> Path:
        return shared_build(tmp_path_factory, ("--game", game, "--sheets", "all", "--layout",
                                               "home-gutter")) / game

    return build


BLEED_DPI = 127  # a pixel is 0.2 mm
# Read the bleed this far out, and the face at two depths in: a thin frame drawn just inside
# a small tile's edge is the face's detail, not its edge colour, and one depth misses it.
INSIDE_MM, OUTSIDE_MM = (0.3, 0.6), 0.5


def pixel(pixmap: pymupdf.Pixmap, x_mm: float, y_mm: float) -> tuple[int, ...]:
    return pixmap.pixel(int(x_mm / 25.4 * BLEED_DPI), int(y_mm / 25.4 * BLEED_DPI))


def cards_of(page: pymupdf.Page) -> list[tuple[float, float, float, float]]:
    """Each card's trim (mm), from the crop marks: cut lines come in pairs a card apart."""
    xs, ys, _ = crop_marks(page)
    columns = list(zip(xs[0::2], xs[1::2]))
    rows = list(zip(ys[0::2], ys[1::2]))
    return [(x0, y0, x1, y1) for y0, y1 in rows for x0, x1 in columns]


@pytest.mark.parametrize("game", KITS)
def test_bleed_band_is_printed_like_the_face_edge(gutter_kit, game):
    mismatched, compared = [], 0
    for path in sorted(gutter_kit(game).glob("*.pdf")):
        if path.stem.endswith("-large") or "board" in path.stem or "record" in path.stem:
            continue
        with pymupdf.open(path) as document:
            for number, page in enumerate(document, 1):
                words = page.get_text("words")  # the page's text read once, not once a card
                if not words and not page.get_drawings():
                    continue
                pixmap = page.get_pixmap(dpi=BLEED_DPI)
                for x0, y0, x1, y1 in cards_of(page):
                    clip = pymupdf.Rect(*(mm_to_pt(v) for v in (x0, y0, x1, y1)))
                    if not _text_in(words, clip) and not _painted(pixmap, x0, y0, x1, y1):
                        continue  # an empty place on a part-filled sheet
                    # Along each edge, clear of rounded corners, and off the middle of the
                    # edge, where a round token's disc touches its square cell (the disc,
                    # not the cell, is cut out: its ring is the cut guide).
                    for t in (0.25, 0.75):
                        x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
                        for inward, outer in (((0, 1), (x, y0 - OUTSIDE_MM)),
                                              ((0, -1), (x, y1 + OUTSIDE_MM)),
                                              ((1, 0), (x0 - OUTSIDE_MM, y)),
                                              ((-1, 0), (x1 + OUTSIDE_MM, y))):
                            b = pixel(pixmap, *outer)
                            edge = (x if inward[0] == 0 else x0 if inward[0] > 0 else x1,
                                    y if inward[1] == 0 else y0 if inward[1] > 0 else y1)
                            inside = [pixel(pixmap, edge[0] + inward[0] * d,
                                            edge[1] + inward[1] * d) for d in INSIDE_MM]
                            a = inside[0]
                            compared += 1
                            if all(max(abs(p - q) for p, q in zip(c, b)) > 48 for c in inside):
                                mismatched.append(f"{path.name} p{number} card at "
                                                  f"({x0:.1f}, {y0:.1f}): {a} in, {b} out at "
                                                  f"{outer[0]:.1f}, {outer[1]:.1f} mm")
    assert compared and not mismatched, "\n".join(mismatched[:20])


def _text_in(words: list[tuple], clip: pymupdf.Rect) -> bool:
    """Whether any word of a page (PyMuPDF's "words") reaches into `clip`."""
    return any(pymupdf.Rect(word[:4]).intersects(clip) for word in words)


def _painted(pixmap, x0, y0, x1, y1) -> bool:
    return pixel(pixmap, (x0 + x1) / 2, (y0 + y1) / 2) != (255, 255, 255)
