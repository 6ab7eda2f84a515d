"""Layout: a number of components, their size, a paper and a sheet layout in; pages out.

Pure imposition, no drawing: where each component's trim box sits on each page (and which face,
turned how far), where the crop marks go, and where the margin furniture (ruler, notes, footer,
licence line) fits. All in millimetres, origin at the top-left of the page, y down, as in SVG.

The layout (layouts.py) says the paper, the grid or gutterfold, the gap and margins, how the
sheet is flipped and where the backs go; the crop marks come from marks.py and the furniture's
places from furniture.py. For a long-edge flip the back of the component at (x, y) sits at
(paper_width - x - width, y): the sheet turns over about its vertical axis; for a short-edge
flip it sits at (x, paper_height - y - height).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from ..units import Rect, Size, bounds
from .cutter import cut_area, keep_out, registration_marks
from .furniture import EDGE_MM, Furniture, furniture_lengths, place_furniture, sheet_notes
from .layouts import SheetLayout, SlotSpec, paper_for, printable_margin
from .marks import Line, clear_of_marks, crop_marks, yielding_bleed


@dataclass(frozen=True)
class Slot:
    index: int  # which component of the deck sits here
    rect: Rect  # its trim box on the page (turned, when `rotate` is 90 or 270)
    face: Literal["front", "back"] = "front"
    rotate: int = 0  # degrees clockwise the face is turned on the page
    bleed_mm: float = 0  # how far the face's drawing runs past the trim on every side
    shown: Rect | None = None  # what of the drawing shows (trim and outer bleed); None: all


@dataclass(frozen=True)
class Page:
    side: Literal["front", "back", "fold"]
    number: int  # counts sheets of paper: a fronts page and its backs page share a number
    paper: Size
    slots: tuple[Slot, ...]
    trim: Rect  # the bounding box of the pieces on this page: the PDF TrimBox
    marks: tuple[Line, ...]
    furniture: dict[str, Furniture]  # ruler, note, footer, credit: where each fits
    notes: tuple[str, ...] = ()  # the note lines printed beside the cards (what is true)
    bleed: Rect | None = None  # the bounding box of the pieces' bleed: the PDF BleedBox
    folds: tuple[Line, ...] = ()  # fold lines (gutterfold)
    notices: tuple[str, ...] = ()  # what imposition had to change, for the user to read
    layout_name: str = ""
    registration: tuple[Rect, ...] = ()  # a cutting machine's marks, filled (fronts pages)

    # The names older templates and tests read.
    @property
    def ruler(self) -> Furniture | None:
        return self.furniture.get("ruler")

    @property
    def note(self) -> Furniture | None:
        return self.furniture.get("note")

    @property
    def footer(self) -> Furniture | None:
        return self.furniture.get("footer")

    @property
    def credit(self) -> Furniture | None:
        return self.furniture.get("credit")


@dataclass(frozen=True)
class _Cell:
    rect: Rect
    rotate: int = 0
    face: Literal["front", "back"] = "front"
    pair: int = 0  # cells that show the same piece share a pair number (gutterfold)


def grid_shape(item: Size, paper: Size, layout: SheetLayout, pitch_gap_mm: float | None = None
               ) -> tuple[int, int]:
    """How many columns and rows of `item` fit inside the paper's minimum margins."""
    gap = layout.gap_mm if pitch_gap_mm is None else pitch_gap_mm
    usable_w = paper.width_mm - 2 * layout.min_margin_mm + gap
    usable_h = paper.height_mm - 2 * layout.min_margin_mm + gap
    cols = math.floor(usable_w / (item.width_mm + gap) + 1e-9)
    rows = math.floor(usable_h / (item.height_mm + gap) + 1e-9)
    if layout.grid.cols:
        cols = min(cols, layout.grid.cols)
    if layout.grid.rows:
        rows = min(rows, layout.grid.rows)
    if cols < 1 or rows < 1:
        raise ValueError(f"a {item.width_mm:g} x {item.height_mm:g} mm item does not fit the "
                         f"paper with {layout.min_margin_mm:g} mm margins")
    return cols, rows


def _grid_cells(item: Size, paper: Size, layout: SheetLayout, cols: int, rows: int
                ) -> list[_Cell]:
    gap = layout.gap_mm
    pitch_x, pitch_y = item.width_mm + gap, item.height_mm + gap
    width, height = cols * pitch_x - gap, rows * pitch_y - gap
    left, top = (paper.width_mm - width) / 2, (paper.height_mm - height) / 2
    return [_Cell(Rect(left + c * pitch_x, top + r * pitch_y, *item), pair=r * cols + c)
            for r in range(rows) for c in range(cols)]


def _gutterfold_cells(item: Size, paper: Size, layout: SheetLayout, rows_limit: int = 0
                      ) -> list[_Cell]:
    """Fronts left of the fold, backs right of it, each back the mirror of its front.

    A piece taller than wide lies on its side (fronts turned 270 degrees, backs 90), so a
    poker card's long side runs across the sheet and four rows fit A4 and Letter alike.
    Folding the right half under the left along the centre line puts every back behind its
    front, the right way up.
    """
    upright = (item.height_mm <= item.width_mm
               or paper.width_mm / 2 - item.height_mm < layout.min_margin_mm - 1e-9)
    w, h = (item.width_mm, item.height_mm) if upright else (item.height_mm, item.width_mm)
    gap = layout.gap_mm
    centre = paper.width_mm / 2
    rows = math.floor((paper.height_mm - 2 * layout.min_margin_mm + gap) / (h + gap) + 1e-9)
    if layout.grid.rows:
        rows = min(rows, layout.grid.rows)
    if rows_limit:
        rows = min(rows, rows_limit)
    cols = math.floor((centre - gap / 2 - layout.min_margin_mm + gap) / (w + gap) + 1e-9)
    if layout.grid.cols:
        cols = min(cols, layout.grid.cols)
    if rows < 1 or cols < 1:
        raise ValueError(f"a {item.width_mm:g} x {item.height_mm:g} mm item does not fit a "
                         "gutterfold sheet")
    height = rows * (h + gap) - gap
    top = (paper.height_mm - height) / 2
    cells = []
    for r in range(rows):
        y = top + r * (h + gap)
        for k in range(cols):  # k = 0 is the column furthest from the fold
            x = centre - gap / 2 - (cols - 1 - k) * (w + gap) - w
            pair = r * cols + k
            cells.append(_Cell(Rect(x, y, w, h), 0 if upright else 270, "front", pair))
            cells.append(_Cell(Rect(2 * centre - x - w, y, w, h), 0 if upright else 90,
                               "back", pair))
    return cells


def impose(count: int, item: Size, paper_name: str, layout: SheetLayout, *,
           bleed_mm: float = 0, printer: str = "", layout_name: str = "",
           printable_mm: float | None = None, texts: dict[str, str] | None = None,
           with_backs: bool = True) -> list[Page]:
    """Place `count` items on as many pages as needed, with their backs as the layout says
    (items `with_backs` False have none: on a gutterfold sheet their fronts fill both halves).

    `bleed_mm` is the deck's bleed: drawn only where the layout asks for it and has room (half
    the gap between pieces, or the whole bleed on a page per face). `printer` names the
    printer profile applied, for the sheet's note. `printable_mm` overrides the layout's
    printable margin (a printer profile's); `texts` gives the longest credit and footer line
    the furniture will carry, so their boxes are long enough at their least size.

    Imposition is pure: a deck's pages are worked out once per process for each set of these
    arguments (a check imposes each deck for its own pages and again for the cover sheet's
    count of sheets), and shared, as the frozen Pages they are. A layout whose data cannot be
    hashed (slots that keep their YAML locations) is imposed afresh each time.
    """
    key = (count, item, paper_name, layout, bleed_mm, printer, layout_name, printable_mm,
           tuple(sorted((texts or {}).items())), with_backs)
    try:
        hash(key)
    except TypeError:
        return _impose(*key[:8], texts, with_backs)
    return list(_impose_once(*key))


@lru_cache(maxsize=256)
def _impose_once(count: int, item: Size, paper_name: str, layout: SheetLayout, bleed_mm: float,
                 printer: str, layout_name: str, printable_mm: float | None,
                 texts: tuple[tuple[str, str], ...], with_backs: bool) -> tuple[Page, ...]:
    return tuple(_impose(count, item, paper_name, layout, bleed_mm, printer, layout_name,
                         printable_mm, dict(texts), with_backs))


def _impose(count: int, item: Size, paper_name: str, layout: SheetLayout, bleed_mm: float,
            printer: str, layout_name: str, printable_mm: float | None,
            texts: dict[str, str] | None, with_backs: bool) -> list[Page]:
    if layout.kind == "single":
        return _impose_single(count, item, paper_name, layout, bleed_mm, layout_name)
    if layout.kind == "gutterfold" and not with_backs:
        # Nothing to fold behind pieces without backs: fronts fill both halves, a grid.
        layout = replace(layout, kind="grid")
    paper = paper_for(paper_name, layout, item)
    if layout.registration is not None:  # the orientation that holds the most, as SCM does
        paper = max((Size(min(paper), max(paper)), Size(max(paper), min(paper))),
                    key=lambda p: len(_cells(item, p, layout)))
    bleed = min(bleed_mm, layout.gap_mm / 2) if layout.bleed else 0.0
    edge = printable_margin(paper_name, layout, printable_mm)
    outer = min(layout.outer_bleed_mm, bleed_mm) if not bleed else 0.0
    sizes = furniture_lengths(texts or {})
    notices: list[str] = []
    cells = _cells(item, paper, layout)
    per_sheet = len({c.pair for c in cells})
    full = _furniture_for(cells, paper, layout, "front", bleed, printer, edge, outer, sizes)
    trimmed, leave_off, full_cells = 0, False, cells
    while full is None:  # the margins are too narrow for the furniture: give up a row
        trimmed += 1
        cells = _cells(item, paper, layout, trim_rows=trimmed)
        if not cells or layout.paper == "universal" and layout.kind == "grid" and \
                math.ceil(count / len({c.pair for c in cells})) > math.ceil(count / per_sheet):
            # A page for both papers holds what both hold: the furniture goes, not sheets.
            cells, leave_off = full_cells, True
            break
        full = _furniture_for(cells, paper, layout, "front", bleed, printer, edge, outer,
                              sizes)
    if trimmed:
        fits = len({c.pair for c in cells}) if cells else 0
        if cells and math.ceil(count / fits) > math.ceil(count / per_sheet):
            notices.append(
                f"the ruler and print notes do not fit the margins of a full sheet of "
                f"{item.width_mm:g} x {item.height_mm:g} mm pieces; each sheet holds {fits} "
                f"instead of {per_sheet}, and they go in the room that frees")
        elif not cells or leave_off:
            cells, leave_off = full_cells, True
            notices.append("the ruler and print notes do not fit beside "
                           f"{item.width_mm:g} x {item.height_mm:g} mm pieces; "
                           "they are left off")
    per_page = len({c.pair for c in cells})
    sheets = []
    for start in range(0, max(count, 1), per_page):
        n = min(per_page, count - start)
        sheets.append([c for c in cells if c.pair < n] if n > 0 else [])
    pages: list[Page] = []
    backs: list[Page] = []
    common = dict(paper=paper, bleed_mm=bleed, layout=layout, printer=printer,
                  notices=tuple(notices), layout_name=layout_name, drop=leave_off, memo={},
                  edge_mm=edge, outer_mm=outer, sizes=sizes)
    for number, used in enumerate(sheets, start=1):
        start = (number - 1) * per_page
        if layout.kind == "gutterfold":
            if not with_backs:  # pieces without backs: the half folded under is blank
                used = [c for c in used if c.face == "front"]
            pages.append(_page("fold", number, used, start, **common))
            continue
        front = _page("front", number, used, start, **common)
        back = None
        if layout.backs != "none" and layout.duplex != "none":
            flipped = [replace(c, rect=flip(c.rect, paper, layout.duplex), face="back",
                               rotate=flip_rotation(c.rotate, layout.duplex)) for c in used]
            back = _page("back", number, flipped, start, **common)
        if back is None:
            pages.append(front)
        elif layout.backs == "at-end":
            pages.append(front)
            backs.append(back)
        elif layout.backs == "before-fronts":
            pages.extend((back, front))
        else:
            pages.extend((front, back))
    return pages + backs


class SlotProblem(ValueError):
    """A layout's slot that cannot hold the piece (off the paper, overlapping, turned oddly):
    the layout's fault, not the piece's size."""

    def __init__(self, spec: SlotSpec | None, message: str):
        super().__init__(message)
        self.spec = spec


def _slot_cells(item: Size, paper: Size, layout: SheetLayout, keep: int) -> list[_Cell]:
    """The layout's own slots, the first `keep` of them; each must lie on the paper and no two
    may overlap."""
    cells = []
    for i, spec in enumerate(layout.slots[:keep]):
        if spec.rotate not in (0, 90, 180, 270):
            raise SlotProblem(spec, f"slot {i + 1}: rotate {spec.rotate} is not 0, 90, 180 "
                              "or 270")
        w, h = (item.height_mm, item.width_mm) if spec.rotate in (90, 270) else tuple(item)
        rect = Rect(spec.x_mm, spec.y_mm, w, h)
        if not rect.inside(Rect(0, 0, *paper)):
            raise SlotProblem(spec, f"slot {i + 1} at ({spec.x_mm:g}, {spec.y_mm:g}) mm: a "
                              f"{w:g} x {h:g} mm piece runs off the {paper.width_mm:g} x "
                              f"{paper.height_mm:g} mm paper")
        if any(rect.overlaps(c.rect) for c in cells):
            raise SlotProblem(spec, f"slot {i + 1} at ({spec.x_mm:g}, {spec.y_mm:g}) mm "
                              "overlaps an earlier slot")
        cells.append(_Cell(rect, spec.rotate, "front", i))
    return cells


def _cells(item: Size, paper: Size, layout: SheetLayout, trim_rows: int = 0) -> list[_Cell]:
    if layout.kind == "slots":
        if not layout.slots:
            raise SlotProblem(None, "a layout of kind 'slots' lists its slots")
        return _slot_cells(item, paper, layout, len(layout.slots) - trim_rows)
    if layout.kind == "gutterfold":
        rows = len({c.rect.y_mm for c in _gutterfold_cells(item, paper, layout)}) - trim_rows
        return _gutterfold_cells(item, paper, layout, rows) if rows >= 1 else []
    cols, rows = grid_shape(item, paper, layout)
    if layout.registration is not None:
        cols, rows = _clear_of_marks(item, paper, layout, cols, rows)
    # Give up rows first, then columns, alternately: room for a ruler opens in either margin.
    drop_rows, drop_cols = (trim_rows + 1) // 2, trim_rows // 2
    if rows - drop_rows < 1 or cols - drop_cols < 1:
        return []
    return _grid_cells(item, paper, layout, cols - drop_cols, rows - drop_rows)


def _clear_of_marks(item: Size, paper: Size, layout: SheetLayout, cols: int, rows: int
                    ) -> tuple[int, int]:
    """The largest centred grid (most pieces) whose pieces and bleed keep clear of the
    registration marks and inside the machine's cutting area."""
    spec = layout.registration
    blocked, area = keep_out(paper, spec), cut_area(paper, spec)
    bleed = layout.gap_mm / 2 if layout.bleed else 0
    best = (0, 0)
    for c in range(cols, 0, -1):
        for r in range(rows, 0, -1):
            if c * r <= best[0] * best[1]:
                break
            cells = [cell.rect.grown(bleed) for cell in _grid_cells(item, paper, layout, c, r)]
            if area is not None and not all(cell.inside(area) for cell in cells):
                continue
            if not any(cell.overlaps(mark) for cell in cells for mark in blocked):
                best = (c, r)
                break
    if best == (0, 0):
        raise ValueError(f"a {item.width_mm:g} x {item.height_mm:g} mm item does not fit "
                         "between the registration marks")
    return best


def _page(side, number, cells, start, *, paper, bleed_mm, layout, printer, notices,
          layout_name, drop, memo, edge_mm=EDGE_MM, outer_mm=0.0, sizes=None) -> Page:
    if not cells:
        empty = Rect(paper.width_mm / 2, paper.height_mm / 2, 0, 0)
        return Page(side, number, paper, (), empty, (), {}, sheet_notes(layout, side, printer),
                    None, (), notices, layout_name)
    notes = sheet_notes(layout, side, printer)
    key = (side, tuple(c.rect for c in cells))  # every full sheet is placed alike: once
    drawn = max(bleed_mm, outer_mm)  # how far past the trim the pieces' drawing reaches
    if key not in memo:
        trim = bounds(c.rect for c in cells)
        marks = tuple(crop_marks([c.rect for c in cells], layout, drawn, paper, edge_mm,
                                 yielding_bleed(bleed_mm, outer_mm)))
        folds = ()
        if layout.kind == "gutterfold":
            x = paper.width_mm / 2
            folds = (Line(x, trim.y_mm - layout.marks.offset_mm, x,
                          trim.bottom_mm + layout.marks.offset_mm),)
        furniture = {} if drop else (place_furniture(
            paper, [c.rect.grown(drawn) for c in cells],
            marks + folds + _registration_lines(paper, layout), notes, edge_mm, sizes) or {})
        memo[key] = trim, marks, folds, furniture
    trim, marks, folds, furniture = memo[key]
    shown_key = ("shown", tuple(c.rect for c in cells))  # pages placed alike: once
    if shown_key not in memo:  # the bleed gives way to the marks and the printable margin
        drawings = outer_edges([c.rect for c in cells], outer_mm) if outer_mm else \
            [c.rect.grown(bleed_mm) for c in cells]
        printable = Rect(edge_mm, edge_mm, paper.width_mm - 2 * edge_mm,
                         paper.height_mm - 2 * edge_mm)
        memo[shown_key] = [clear_of_marks(d, c.rect, marks, printable)
                           for c, d in zip(cells, drawings)]
    slots = tuple(Slot(start + c.pair, c.rect, c.face, c.rotate, max(outer_mm, bleed_mm),
                       shown if outer_mm or shown != c.rect.grown(bleed_mm) else None)
                  for c, shown in zip(cells, memo[shown_key]))
    bleed = trim.grown(bleed_mm) if bleed_mm else None
    # The machine reads its marks on the side it cuts from: the fronts.
    registration = tuple(registration_marks(paper, layout.registration)) \
        if layout.registration is not None and side == "front" else ()
    return Page(side, number, paper, slots, trim, marks, furniture, notes, bleed, folds,
                notices, layout_name, registration)


def _furniture_for(cells, paper, layout, side, bleed_mm, printer, edge_mm=EDGE_MM,
                   outer_mm=0.0, sizes=None):
    drawn = max(bleed_mm, outer_mm)
    marks = tuple(crop_marks([c.rect for c in cells], layout, drawn, paper, edge_mm,
                             yielding_bleed(bleed_mm, outer_mm)))
    marks += _registration_lines(paper, layout)
    return place_furniture(paper, [c.rect.grown(drawn) for c in cells], marks,
                           sheet_notes(layout, side, printer), edge_mm, sizes)


def outer_edges(rects: list[Rect], bleed_mm: float) -> list[Rect]:
    """What of each butted piece's drawing shows: its trim, grown by `bleed_mm` on each side
    where no other piece on the page shares its edge (an outer edge of the block)."""
    def at(value: float) -> float:
        return round(value, 4)

    # Pieces by where their edges lie, so each edge looks only at the pieces that could meet it.
    by_right, by_left, by_bottom, by_top = {}, {}, {}, {}
    for rect in rects:
        by_right.setdefault(at(rect.right_mm), []).append(rect)
        by_left.setdefault(at(rect.x_mm), []).append(rect)
        by_bottom.setdefault(at(rect.bottom_mm), []).append(rect)
        by_top.setdefault(at(rect.y_mm), []).append(rect)

    def along_y(a: Rect, b: Rect) -> bool:
        return b.y_mm < a.bottom_mm - 1e-6 and a.y_mm < b.bottom_mm - 1e-6

    def along_x(a: Rect, b: Rect) -> bool:
        return b.x_mm < a.right_mm - 1e-6 and a.x_mm < b.right_mm - 1e-6

    shown = []
    for rect in rects:
        left = any(along_y(rect, o) for o in by_right.get(at(rect.x_mm), ()) if o is not rect)
        right = any(along_y(rect, o) for o in by_left.get(at(rect.right_mm), ())
                    if o is not rect)
        top = any(along_x(rect, o) for o in by_bottom.get(at(rect.y_mm), ()) if o is not rect)
        bottom = any(along_x(rect, o) for o in by_top.get(at(rect.bottom_mm), ())
                     if o is not rect)
        grow_left, grow_right, grow_top, grow_bottom = (
            0.0 if shared else bleed_mm for shared in (left, right, top, bottom))
        shown.append(Rect(rect.x_mm - grow_left, rect.y_mm - grow_top,
                          rect.width_mm + grow_left + grow_right,
                          rect.height_mm + grow_top + grow_bottom))
    return shown


def _registration_lines(paper: Size, layout: SheetLayout) -> tuple[Line, ...]:
    """The registration marks' keep-out boxes, as lines whose boxes they are (a diagonal
    each): furniture keeps clear of them as it keeps clear of crop marks."""
    if layout.registration is None:
        return ()
    return tuple(Line(r.x_mm, r.y_mm, r.right_mm, r.bottom_mm)
                 for r in keep_out(paper, layout.registration))


def _impose_single(count, item, paper_name, layout, bleed_mm, layout_name) -> list[Page]:
    """One page per face, the page the piece plus its bleed: what print shops ask for."""
    paper = paper_for(paper_name, layout, item, bleed_mm)
    trim = Rect(bleed_mm, bleed_mm, *item)
    bleed = Rect(0, 0, *paper)
    pages = []
    for index in range(count):
        order = ["back", "front"] if layout.backs == "before-fronts" else ["front", "back"]
        if layout.backs == "none":
            order = ["front"]
        for side in order:
            slot = Slot(index, trim, side, 0, bleed_mm)
            pages.append(Page(side, index + 1, paper, (slot,), trim, (), {}, (), bleed, (),
                              (), layout_name))
    return pages


def flip(rect: Rect, paper: Size, duplex: str) -> Rect:
    """Where `rect` on a front lands on the back after the sheet is turned over."""
    if duplex == "long-edge":
        return Rect(paper.width_mm - rect.right_mm, rect.y_mm, rect.width_mm, rect.height_mm)
    return Rect(rect.x_mm, paper.height_mm - rect.bottom_mm, rect.width_mm, rect.height_mm)


def flip_rotation(rotate: int, duplex: str) -> int:
    """How far a back must be turned so that, seen through its front, its top is behind the
    front's top (the card one gets by turning a long-edge sheet over, whatever the flip).

    Turning over the long edge mirrors left and right: a face turned 90 degrees needs its
    back at 270. Turning over the short edge mirrors top and bottom: an upright face needs
    its back upside down on the page.
    """
    if duplex == "short-edge":
        return (180 - rotate) % 360
    return (360 - rotate) % 360


def flip_line(line: Line, paper: Size, duplex: str) -> Line:
    if duplex == "long-edge":
        w = paper.width_mm
        return Line(w - line.x1_mm, line.y1_mm, w - line.x2_mm, line.y2_mm)
    h = paper.height_mm
    return Line(line.x1_mm, h - line.y1_mm, line.x2_mm, h - line.y2_mm)

