"""Reading imposed card sheets back with MuPDF (PyMuPDF): the cards of a page, their text, and the
shapes drawn on them. Used by the kit tests; nothing here knows how the sheets were written.

A card is found from the crop marks alone (conftest.crop_marks): the cut lines they stand on
split the page into cells, and a cell with anything printed in it is a card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pikepdf
import pymupdf
import pytest

from conftest import crop_marks
from pnp.units import mm_to_pt, pt_to_mm

MM_PER_PT = 25.4 / 72
TARGET_RGB = (0xE4 / 255, 0, 0x7C / 255)  # the board's alignment targets


@dataclass
class Card:
    """One card as printed: its page, its box on the page (mm) and what can be read on it."""

    page: int
    box_mm: tuple[float, float, float, float]  # x0, top, x1, bottom
    text: str
    words: list[dict] = field(repr=False)
    rects: list[dict] = field(repr=False)

    def has(self, phrase: str) -> bool:
        """Whether the card reads `phrase`, ignoring spacing (cairo places glyphs one by one, so
        letter-spaced headings come back as 'W O R K' and tight words as 'twowords')."""
        return "".join(phrase.split()) in "".join(self.text.split())

    def words_in(self, box_mm) -> list[dict]:
        x0, top, x1, bottom = box_mm
        return [w for w in self.words
                if x0 <= pt_to_mm(w["x0"]) and pt_to_mm(w["x1"]) <= x1
                and top <= pt_to_mm(w["top"]) and pt_to_mm(w["bottom"]) <= bottom]

    def rects_of(self, width_mm: float, height_mm: float, tol: float = 0.05) -> list[tuple]:
        """Boxes (mm) of the filled rectangles of exactly this size drawn on the card."""
        found = []
        for r in self.rects:
            w, h = pt_to_mm(r["width"]), pt_to_mm(r["height"])
            if abs(w - width_mm) < tol and abs(h - height_mm) < tol and r.get("fill"):
                found.append((pt_to_mm(r["x0"]), pt_to_mm(r["top"]),
                              pt_to_mm(r["x1"]), pt_to_mm(r["bottom"])))
        return found


@dataclass
class Sheet:
    """A whole PDF: its page width and the cards of each page (fronts pages even, backs odd)."""

    width_mm: float
    pages: list[list[Card]]

    @property
    def fronts(self) -> list[Card]:
        return [card for page in self.pages[0::2] for card in page]

    @property
    def backs(self) -> list[Card]:
        return [card for page in self.pages[1::2] for card in page]


def read_sheet(path: Path) -> Sheet:
    """The cards of every page, found from the crop marks, with their words and rectangles
    as MuPDF reads them (several times quicker than pdfminer parses a card sheet)."""
    pages = []
    with pymupdf.open(path) as pdf:
        width = pt_to_mm(pdf[0].rect.width)
        for number, page in enumerate(pdf):
            xs, ys, _ = crop_marks(page)
            words, rects = page_words(page), _rects(page)
            cards = []
            for top, bottom in zip(ys, ys[1:]):
                for x0, x1 in zip(xs, xs[1:]):
                    box = (mm_to_pt(x0), mm_to_pt(top), mm_to_pt(x1), mm_to_pt(bottom))
                    inside = [w for w in words if _within(w, box)]
                    if not inside:
                        continue
                    inside.sort(key=lambda w: (round(w["top"]), w["x0"]))
                    cards.append(Card(number, (x0, top, x1, bottom),
                                      " ".join(w["text"] for w in inside), inside,
                                      [r for r in rects if _within(r, box)]))
            pages.append(cards)
    return Sheet(width, pages)


def page_words(page, x_tolerance: float = 1.0) -> list[dict]:
    """A PyMuPDF page's words as pdfplumber's extract_words describes them (points, y down,
    with the font size): a span's characters joined until a space or a gap wider than
    `x_tolerance`."""
    words = []
    for block in page.get_text("rawdict", flags=0)["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                current = None
                for char in span["chars"]:
                    x0, top, x1, bottom = char["bbox"]
                    if char["c"].isspace():
                        current = None
                    elif current is not None and x0 - current["x1"] <= x_tolerance:
                        current.update(text=current["text"] + char["c"], x1=max(current["x1"], x1),
                                       top=min(current["top"], top),
                                       bottom=max(current["bottom"], bottom))
                    else:
                        current = {"text": char["c"], "x0": x0, "x1": x1, "top": top,
                                   "bottom": bottom, "size": span["size"]}
                        words.append(current)
    return words


def _rects(page) -> list[dict]:
    """A PyMuPDF page's rectangles as pdfplumber describes them (points, y down, filled or not)."""
    return [{"x0": box.x0, "x1": box.x1, "top": box.y0, "bottom": box.y1, "width": box.width,
             "height": box.height, "fill": drawing.get("fill") is not None}
            for drawing in page.get_drawings() for item in drawing["items"] if item[0] == "re"
            for box in (item[1],)]


def _within(obj: dict, box_pt) -> bool:
    x0, top, x1, bottom = box_pt
    return (x0 - 0.01 <= obj["x0"] and obj["x1"] <= x1 + 0.01
            and top - 0.01 <= obj["top"] and obj["bottom"] <= bottom + 0.01)


def mirrored(box_mm, width_mm: float) -> tuple[float, float, float, float]:
    """Where a box on a fronts page lands on the backs page after a flip on the long edge."""
    x0, top, x1, bottom = box_mm
    return (width_mm - x1, top, width_mm - x0, bottom)


def close(a, b, tol_mm: float = 0.1) -> bool:
    return all(abs(p - q) <= tol_mm for p, q in zip(a, b))


def _walk_resources(pdf, visit) -> None:
    """Call visit(kind, object) for every font and XObject a page uses, nested forms included."""
    def walk(resources, seen) -> None:
        for font in resources.get("/Font", {}).values():
            visit("font", font)
        for xobject in resources.get("/XObject", {}).values():
            if xobject.objgen in seen:
                continue
            seen.add(xobject.objgen)
            visit("xobject", xobject)
            if "/Resources" in xobject:
                walk(xobject.Resources, seen)

    for page in pdf.pages:
        walk(page.obj.get("/Resources", {}), set())


def images(path: Path) -> int:
    """How many raster images the PDF's pages draw (a vector card sheet draws none)."""
    found = []
    with pikepdf.open(path) as pdf:
        _walk_resources(pdf, lambda kind, obj: found.append(obj) if kind == "xobject"
                        and obj.get("/Subtype") == "/Image" else None)
    return len(found)


def font_names(path: Path) -> set[str]:
    """The base names of the fonts the PDF embeds, without the subset prefix (ABCDEF+)."""
    names = set()
    with pikepdf.open(path) as pdf:
        _walk_resources(pdf, lambda kind, obj: names.add(str(obj.get("/BaseFont", "")).lstrip(
            "/").split("+")[-1]) if kind == "font" else None)
    return names


def amounts(words: list[dict], pattern: str = r"(\d+)M") -> list[int]:
    return [int(m.group(1)) for w in words if (m := re.fullmatch(pattern, w["text"]))]


def trim_box_mm(pdf: pikepdf.Pdf, index: int) -> tuple[float, float, float, float]:
    """A page's TrimBox as (x, y-from-top, width, height) in mm."""
    page = pdf.pages[index]
    x0, y0, x1, y1 = (float(v) for v in page.obj.TrimBox)
    height = float(page.obj.MediaBox[3])
    return (x0 * MM_PER_PT, (height - y1) * MM_PER_PT, (x1 - x0) * MM_PER_PT,
            (y1 - y0) * MM_PER_PT)


def targets_mm(page) -> list[tuple[float, float]]:
    """Centres of the alignment targets on a page: their horizontal strokes' midpoints, in mm."""
    centres = []
    for line in page.lines:
        colour = tuple(line.get("stroking_color") or ())
        if len(colour) == 3 and colour == pytest.approx(TARGET_RGB, abs=0.01) and \
                abs(line["top"] - line["bottom"]) < 0.01:
            centres.append(((line["x0"] + line["x1"]) / 2 * MM_PER_PT, line["top"] * MM_PER_PT))
    return centres


def squeeze(text: str) -> str:
    """Text without white space: condensed type makes word gaps in extracted text unreliable."""
    return re.sub(r"\s+", "", text)


def tile_label(page, trim_top_mm: float) -> tuple[int, int]:
    """The 'row r / column c' label above the window (9 pt, larger than the header beside it) (the instructions beside it mention
    neighbours in small type; the board drawing is inside the window)."""
    big = squeeze(" ".join(w["text"] for w in page.extract_words(extra_attrs=["size"])
                           if w["size"] > 8.8 and w["bottom"] * MM_PER_PT < trim_top_mm))
    match = re.fullmatch(r"row(\d+)/column(\d+)", big)
    assert match, f"no tile label on page {page.page_number}: {big!r}"
    return int(match[1]), int(match[2])
