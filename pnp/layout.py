"""Layout: a number of components, their size, a paper and a sheet layout in; pages out.

Pure imposition, no drawing: where each component's trim box sits on each page, where the crop
marks go, and where the margin furniture (ruler, notes) sits. All in millimetres, origin at the
top-left of the page, y down, as in SVG.

Each fronts page is followed by its backs page. For a long-edge flip the back of the component
at (x, y) sits at (paper_width - x - width, y): the sheet turns over about its vertical axis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from .content import load_document
from .findings import Findings
from .schema import INVALID, validate
from .units import PAPERS, Size


RULER_MM = 50  # the printed check ruler: measure it to prove the sheet printed at 100%
FOOTER_MIN_MM = 60  # the footer line needs this much room between two cut lines


@dataclass(frozen=True)
class SheetLayout:
    description: str
    gap_mm: float = 0
    min_margin_mm: float = 7
    mark_length_mm: float = 5
    mark_offset_mm: float = 1.5
    mark_width_pt: float = 0.3
    duplex: Literal["long-edge", "short-edge", "none"] = "long-edge"


@dataclass(frozen=True)
class Rect:
    x_mm: float
    y_mm: float
    width_mm: float
    height_mm: float

    @property
    def right_mm(self) -> float:
        return self.x_mm + self.width_mm

    @property
    def bottom_mm(self) -> float:
        return self.y_mm + self.height_mm


@dataclass(frozen=True)
class Line:
    x1_mm: float
    y1_mm: float
    x2_mm: float
    y2_mm: float


@dataclass(frozen=True)
class Slot:
    index: int  # which component of the deck sits here
    rect: Rect


@dataclass(frozen=True)
class Page:
    side: Literal["front", "back"]
    number: int  # counts sheets of paper: a fronts page and its backs page share a number
    paper: Size
    slots: tuple[Slot, ...]
    trim: Rect  # the bounding box of the component grid: the PDF TrimBox
    marks: tuple[Line, ...]
    ruler: Rect  # where a 50 mm check ruler fits, in the left margin
    note: Rect  # the right margin, for the print-at-100% note (written rotated)
    footer: Rect  # the bottom margin, for the title line
    credit: Rect | None  # the left margin below the ruler, for the licence line, when free


@cache
def builtin_layouts() -> dict[str, SheetLayout]:
    source = resources.files("pnp").joinpath("layouts.yaml")
    findings = Findings()
    with resources.as_file(source) as path:
        layouts = validate(load_document(path, "pnp/layouts.yaml", findings),
                           dict[str, SheetLayout], "", findings)
    if layouts is INVALID or findings.errors:
        raise RuntimeError("; ".join(f.format() for f in findings))  # a packaging bug
    return layouts


def grid_shape(item: Size, paper: Size, layout: SheetLayout) -> tuple[int, int]:
    """How many columns and rows of `item` fit inside the paper's minimum margins."""
    usable_w = paper.width_mm - 2 * layout.min_margin_mm + layout.gap_mm
    usable_h = paper.height_mm - 2 * layout.min_margin_mm + layout.gap_mm
    cols = math.floor(usable_w / (item.width_mm + layout.gap_mm) + 1e-9)
    rows = math.floor(usable_h / (item.height_mm + layout.gap_mm) + 1e-9)
    if cols < 1 or rows < 1:
        raise ValueError(f"a {item.width_mm} x {item.height_mm} mm item does not fit the paper")
    return cols, rows


def impose(count: int, item: Size, paper_name: str, layout: SheetLayout) -> list[Page]:
    """Place `count` items on as many pages as needed, fronts then backs for each sheet."""
    paper = PAPERS[paper_name]
    cols, rows = grid_shape(item, paper, layout)
    pitch_x, pitch_y = item.width_mm + layout.gap_mm, item.height_mm + layout.gap_mm
    grid = Rect(0, 0, cols * pitch_x - layout.gap_mm, rows * pitch_y - layout.gap_mm)
    left = (paper.width_mm - grid.width_mm) / 2
    top = (paper.height_mm - grid.height_mm) / 2
    trim = Rect(left, top, grid.width_mm, grid.height_mm)
    cells = [Rect(left + c * pitch_x, top + r * pitch_y, item.width_mm, item.height_mm)
             for r in range(rows) for c in range(cols)]
    cuts = cut_lines(cells)
    marks = tuple(crop_marks(cuts, trim, layout))
    margins = _margins(paper, trim, cuts, layout)
    per_page = cols * rows
    pages: list[Page] = []
    for sheet, start in enumerate(range(0, max(count, 1), per_page), start=1):
        fronts = tuple(Slot(start + i, cell)
                       for i, cell in enumerate(cells[: min(per_page, count - start)]))
        pages.append(Page("front", sheet, paper, fronts, trim, marks, *margins))
        if layout.duplex != "none":
            backs = tuple(Slot(s.index, flip(s.rect, paper, layout.duplex)) for s in fronts)
            back_trim = flip(trim, paper, layout.duplex)
            back_marks = tuple(flip_line(m, paper, layout.duplex) for m in marks)
            pages.append(Page("back", sheet, paper, backs, back_trim, back_marks, *margins))
    return pages


def flip(rect: Rect, paper: Size, duplex: str) -> Rect:
    """Where `rect` on a front lands on the back after the sheet is turned over."""
    if duplex == "long-edge":
        return Rect(paper.width_mm - rect.right_mm, rect.y_mm, rect.width_mm, rect.height_mm)
    return Rect(rect.x_mm, paper.height_mm - rect.bottom_mm, rect.width_mm, rect.height_mm)


def flip_line(line: Line, paper: Size, duplex: str) -> Line:
    if duplex == "long-edge":
        w = paper.width_mm
        return Line(w - line.x1_mm, line.y1_mm, w - line.x2_mm, line.y2_mm)
    h = paper.height_mm
    return Line(line.x1_mm, h - line.y1_mm, line.x2_mm, h - line.y2_mm)


def cut_lines(cells: list[Rect]) -> tuple[list[float], list[float]]:
    """Where the cuts run: the distinct vertical (x) and horizontal (y) edges of the cells."""
    xs = sorted({round(x, 6) for c in cells for x in (c.x_mm, c.right_mm)})
    ys = sorted({round(y, 6) for c in cells for y in (c.y_mm, c.bottom_mm)})
    return xs, ys


def crop_marks(cuts: tuple[list[float], list[float]], trim: Rect,
               layout: SheetLayout) -> list[Line]:
    """Marks on the extension of every cut line, in the margin only, never over a component.

    Each mark starts `mark_offset_mm` outside the grid and runs `mark_length_mm` outwards, so a
    slightly misaligned cut never leaves a visible mark on the card.
    """
    xs, ys = cuts
    near, far = layout.mark_offset_mm, layout.mark_offset_mm + layout.mark_length_mm
    marks = []
    for x in xs:
        marks.append(Line(x, trim.y_mm - near, x, trim.y_mm - far))
        marks.append(Line(x, trim.bottom_mm + near, x, trim.bottom_mm + far))
    for y in ys:
        marks.append(Line(trim.x_mm - near, y, trim.x_mm - far, y))
        marks.append(Line(trim.right_mm + near, y, trim.right_mm + far, y))
    return marks


def _margins(paper: Size, trim: Rect, cuts: tuple[list[float], list[float]],
             layout: SheetLayout):
    """Free areas for the margin furniture: ruler, note, footer and credit line.

    Crop marks stand only on the cut lines, so the margin between two cut lines is free right up
    to the grid. Where the cut lines are too close for a 50 mm ruler (small tiles), the strip
    beyond the marks is used instead.
    """
    far = layout.mark_offset_mm + layout.mark_length_mm + 0.5
    xs, ys = cuts
    gaps = [(a, b) for a, b in zip(ys, ys[1:]) if b - a >= RULER_MM + 4]
    left_w, right_w = trim.x_mm, paper.width_mm - trim.right_mm
    if gaps:
        (top, bottom), rest = gaps[0], gaps[1:]
        ruler = Rect(0, top + 1, left_w, bottom - top - 2)
        note = Rect(trim.right_mm, top + 1, right_w, bottom - top - 2)
        credit = Rect(0, rest[0][0] + 1, left_w, rest[0][1] - rest[0][0] - 2) if rest else None
    else:
        ruler = Rect(0, trim.y_mm, max(left_w - far, 0), trim.height_mm)
        note = Rect(trim.right_mm + far, trim.y_mm, max(right_w - far, 0), trim.height_mm)
        credit = None
    middle = len(xs) // 2 - 1 if len(xs) > 2 else 0
    x0, x1 = xs[middle], xs[middle + 1]
    if x1 - x0 >= FOOTER_MIN_MM:  # between two cut lines, clear of the marks
        footer = Rect(x0 + 1, trim.bottom_mm + layout.mark_offset_mm, x1 - x0 - 2,
                      max(paper.height_mm - trim.bottom_mm - layout.mark_offset_mm, 0))
    else:  # cut lines too close together (small tiles): below the marks instead
        footer = Rect(trim.x_mm, trim.bottom_mm + far - 1.5, trim.width_mm,
                      max(paper.height_mm - trim.bottom_mm - far + 1.5, 0))
    return ruler, note, footer, credit
