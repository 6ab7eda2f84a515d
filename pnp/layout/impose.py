"""Layout: a number of components, their size, a paper and a sheet layout in; pages out.

Pure imposition, no drawing: where each component's trim box sits on each page (and which face,
turned how far), where the crop marks go, and where the margin furniture (ruler, notes, footer,
licence line) fits. All in millimetres, origin at the top-left of the page, y down, as in SVG.

A layout is data (`layouts.yaml` in the package, and optionally one in a project): the paper (or
"universal", the area A4 and Letter share, or "piece", one page per face), a grid or a
gutterfold, the gap, the margins, the crop-mark style, how the sheet is flipped and where the
backs go. For a long-edge flip the back of the component at (x, y) sits at
(paper_width - x - width, y): the sheet turns over about its vertical axis; for a short-edge
flip it sits at (x, paper_height - y - height).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from .. import reads
from ..cache.impositions import kept
from ..load.content import load_document
from ..findings import Findings
from ..load.schema import INVALID, Where, bounded, located, validate
from ..units import MAX_PIECE_MM, PAPERS, Rect, Size, mm_to_pt
from .cutter import Registration, cut_area, keep_out, registration_marks

RULER_MM = 50  # the printed check ruler: measure it to prove the sheet printed at 100%
EDGE_MM = 3.5  # the least furniture keeps from the paper's edge, whatever a layout says
PRINTABLE_MM = 5.0  # what most home printers leave unprinted at each edge (a layout may say less)
MIN_TICK_MM = 1.2  # a crop mark shortened to keep off the unprinted edge is never shorter
MARK_CLEAR_MM = 0.1  # a mark's ends stay this much further in: its stroke's half width
MIN_OFFSET_MM = 0.25  # and may start this close to the pieces' drawing to keep that length
CLEAR_MM = 0.6  # and this far from pieces, marks and other furniture
UNIVERSAL = Size(210, 279.4)  # the area A4 and US Letter share: a page that prints on both
NOTE_PT = {"bold": 2.3, "body": 2.15}  # font sizes of the note lines, in mm (6 pt and more)
SMALL_LINE_MM = 1.8  # the least size of the credit line and footer (5.1 pt)


@dataclass(frozen=True)
class Marks:
    """Crop marks: short ticks on the extension of each cut line, full lines, or none."""

    style: Literal["ticks", "lines", "none"] = "ticks"
    length_mm: float = bounded(5, min=0, max=50)
    offset_mm: float = bounded(1.5, min=0, max=50)  # between the trim (or bleed) edge and mark
    width_pt: float = bounded(0.3, min=0, max=5)
    inner: bool = False  # ticks at every piece's corners too, in the gaps between pieces


@dataclass(frozen=True)
class Grid:
    cols: int = bounded(0, min=0, max=200)  # 0: as many as fit
    rows: int = bounded(0, min=0, max=200)


@dataclass(frozen=True)
class SlotSpec:
    """One place on the sheet: the top-left of the piece's trim as it lies on the paper, and
    how far it is turned clockwise (90 or 270: the piece lies on its side)."""

    x_mm: float = bounded(min=0, max=MAX_PIECE_MM)
    y_mm: float = bounded(min=0, max=MAX_PIECE_MM)
    rotate: int = 0  # 0, 90, 180 or 270
    where: Where = located()


@dataclass(frozen=True)
class SheetLayout:
    description: str
    kind: Literal["grid", "gutterfold", "single", "slots"] = "grid"
    paper: str = ""  # "": the paper asked for (--paper); "universal"; "piece"; "a4"; "letter"
    grid: Grid = Grid()
    gap_mm: float = bounded(0, min=0, max=100)  # a negative gap would overlap the pieces
    min_margin_mm: float = bounded(7, min=0, max=100)
    marks: Marks = Marks()
    duplex: Literal["long-edge", "short-edge", "none"] = "long-edge"
    backs: Literal["after-fronts", "at-end", "before-fronts", "none"] = "after-fronts"
    bleed: bool = False  # draw the deck's bleed (up to half the gap) around every piece
    slots: tuple[SlotSpec, ...] = ()  # kind slots: every place on the sheet, in order
    registration: Registration | None = None  # print-then-cut marks and cut files (cutter.py)
    # Nothing is drawn closer than this to the paper's edge (marks, ruler, notes, footer);
    # 0 for a page the size of the piece. A printer profile may say its printer does better.
    printable_margin_mm: float = PRINTABLE_MM
    # Butted pieces: the outer edges of the outer pieces drawn this far into the margin, so
    # a cut or a duplex shift that misses the outer line shows colour, not white.
    outer_bleed_mm: float = 0

    @property
    def mark_width_pt(self) -> float:  # the name older templates read
        return self.marks.width_pt


def bounds(rects) -> Rect:
    rects = list(rects)
    x0, y0 = min(r.x_mm for r in rects), min(r.y_mm for r in rects)
    x1, y1 = max(r.right_mm for r in rects), max(r.bottom_mm for r in rects)
    return Rect(x0, y0, x1 - x0, y1 - y0)


@dataclass(frozen=True)
class Line:
    x1_mm: float
    y1_mm: float
    x2_mm: float
    y2_mm: float

    def box(self, grow_mm: float = 0) -> Rect:
        x0, x1 = sorted((self.x1_mm, self.x2_mm))
        y0, y1 = sorted((self.y1_mm, self.y2_mm))
        return Rect(x0, y0, x1 - x0, y1 - y0).grown(grow_mm)


@dataclass(frozen=True)
class Slot:
    index: int  # which component of the deck sits here
    rect: Rect  # its trim box on the page (turned, when `rotate` is 90 or 270)
    face: Literal["front", "back"] = "front"
    rotate: int = 0  # degrees clockwise the face is turned on the page
    bleed_mm: float = 0  # how far the face's drawing runs past the trim on every side
    shown: Rect | None = None  # what of the drawing shows (trim and outer bleed); None: all


@dataclass(frozen=True)
class Furniture:
    """A box in the margin for one piece of sheet furniture, and which way its text reads.

    `across` reads left to right; `up` reads bottom to top (glyph tops to the left, for the left
    margin); `down` reads top to bottom (glyph tops to the right, for the right margin). The
    template draws in a local frame `length_mm` x `thickness_mm`, y down, and `transform`
    places that frame in the box.
    """

    kind: str
    rect: Rect
    direction: Literal["across", "up", "down"]

    @property
    def length_mm(self) -> float:
        return self.rect.width_mm if self.direction == "across" else self.rect.height_mm

    @property
    def thickness_mm(self) -> float:
        return self.rect.height_mm if self.direction == "across" else self.rect.width_mm

    @property
    def transform(self) -> str:
        r = self.rect
        if self.direction == "across":
            return f"translate({r.x_mm:.4f} {r.y_mm:.4f})"
        if self.direction == "up":
            return f"translate({r.x_mm:.4f} {r.bottom_mm:.4f}) rotate(-90)"
        return f"translate({r.right_mm:.4f} {r.y_mm:.4f}) rotate(90)"

    def font_size(self, text: str, role: str, size_mm: float, least_mm: float = 0) -> float:
        """The font size (mm) at which `text` fits the box's length: `size_mm` or smaller,
        never under `least_mm` (the box is made long enough for that: `impose`'s texts)."""
        width = text_width_mm(text, role, size_mm)
        room = self.length_mm - 1
        return size_mm if width <= room else max(round(size_mm * room / width, 3), least_mm)


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


# -- layouts as data ------------------------------------------------------------------------


def _read_layouts(path: Path, shown: str, findings: Findings) -> dict[str, SheetLayout]:
    layouts = validate(load_document(path, shown, findings), dict[str, SheetLayout], "",
                       findings)
    return {} if layouts is INVALID else layouts


@cache
def builtin_layouts() -> dict[str, SheetLayout]:
    findings = Findings()  # the file beside this one, as fonts.font_dir() finds the fonts
    own = Path(__file__).parent.parent
    with reads.confined(own):
        layouts = _read_layouts(own / "data" / "layouts.yaml", "pnp/data/layouts.yaml", findings)
    if not layouts or findings.errors:
        raise RuntimeError("; ".join(f.format() for f in findings))  # a packaging bug
    return layouts


PROJECT_LAYOUTS = "layouts.yaml"


def load_layouts(root: Path | None = None, shown: str = PROJECT_LAYOUTS
                 ) -> tuple[dict[str, SheetLayout], Findings]:
    """The built-in layouts, plus (overriding by name) those in the project's layouts.yaml."""
    layouts = dict(builtin_layouts())
    findings = Findings()
    if root is not None and reads.kind(root / PROJECT_LAYOUTS) == reads.FILE:
        with reads.confined(root):
            layouts.update(_read_layouts(root / PROJECT_LAYOUTS, shown, findings))
    return layouts, findings


def paper_for(paper_name: str, layout: SheetLayout, item: Size, bleed_mm: float = 0) -> Size:
    name = layout.paper or paper_name
    if name == "universal":
        return UNIVERSAL
    if name == "piece":
        return Size(item.width_mm + 2 * bleed_mm, item.height_mm + 2 * bleed_mm)
    return PAPERS[name]


# -- imposition -----------------------------------------------------------------------------


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
    (items `with_backs` False have none: a gutterfold sheet leaves their half blank).

    `bleed_mm` is the deck's bleed: drawn only where the layout asks for it and has room (half
    the gap between pieces, or the whole bleed on a page per face). `printer` names the
    printer profile applied, for the sheet's note. `printable_mm` overrides the layout's
    printable margin (a printer profile's); `texts` gives the longest credit and footer line
    the furniture will carry, so their boxes are long enough at their least size.

    Imposition is pure: a deck's pages are worked out once per process for each set of these
    arguments (a check imposes each deck for its own pages and again for the cover sheet's
    count of sheets), and shared, as the frozen Pages they are, and kept between runs
    (pnp.cache.impositions). A layout whose data cannot be hashed (slots that keep their YAML
    locations) is imposed afresh each time.
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
    arguments = (count, item, paper_name, layout, bleed_mm, printer, layout_name, printable_mm,
                 texts, with_backs)
    return kept(arguments, lambda: tuple(_impose(*arguments[:8], dict(texts), with_backs)))


def _impose(count: int, item: Size, paper_name: str, layout: SheetLayout, bleed_mm: float,
            printer: str, layout_name: str, printable_mm: float | None,
            texts: dict[str, str] | None, with_backs: bool) -> list[Page]:
    if layout.kind == "single":
        return _impose_single(count, item, paper_name, layout, bleed_mm, layout_name)
    paper = paper_for(paper_name, layout, item)
    if layout.registration is not None:  # the orientation that holds the most, as SCM does
        paper = max((Size(min(paper), max(paper)), Size(max(paper), min(paper))),
                    key=lambda p: len(_cells(item, p, layout)))
    bleed = min(bleed_mm, layout.gap_mm / 2) if layout.bleed else 0.0
    edge = layout.printable_margin_mm if printable_mm is None else printable_mm
    outer = min(layout.outer_bleed_mm, bleed_mm) if not bleed else 0.0
    sizes = furniture_lengths(texts or {})
    notices: list[str] = []
    cells = _cells(item, paper, layout)
    per_sheet = len({c.pair for c in cells})
    full = _furniture_for(cells, paper, layout, "front", bleed, printer, edge, outer, sizes)
    trimmed, leave_off = 0, False
    while full is None:  # the margins are too narrow for the furniture: give up a row
        trimmed += 1
        cells = _cells(item, paper, layout, trim_rows=trimmed)
        if not cells:
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
        elif not cells:
            cells, leave_off = _cells(item, paper, layout), True
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
    if outer_mm:
        shown_key = ("shown", tuple(c.rect for c in cells))  # pages placed alike: once
        if shown_key not in memo:
            memo[shown_key] = outer_edges([c.rect for c in cells], outer_mm)
        slots = tuple(Slot(start + c.pair, c.rect, c.face, c.rotate, outer_mm, shown)
                      for c, shown in zip(cells, memo[shown_key]))
    else:
        slots = tuple(Slot(start + c.pair, c.rect, c.face, c.rotate, bleed_mm) for c in cells)
    if not cells:
        empty = Rect(paper.width_mm / 2, paper.height_mm / 2, 0, 0)
        return Page(side, number, paper, (), empty, (), {}, sheet_notes(layout, side, printer),
                    None, (), notices, layout_name)
    notes = sheet_notes(layout, side, printer)
    key = (side, tuple(c.rect for c in cells))  # every full sheet is placed alike: once
    drawn = max(bleed_mm, outer_mm)  # how far past the trim the pieces' drawing reaches
    if key not in memo:
        trim = bounds(c.rect for c in cells)
        marks = tuple(crop_marks([c.rect for c in cells], layout, drawn, paper, edge_mm))
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
    bleed = trim.grown(bleed_mm) if bleed_mm else None
    # The machine reads its marks on the side it cuts from: the fronts.
    registration = tuple(registration_marks(paper, layout.registration)) \
        if layout.registration is not None and side == "front" else ()
    return Page(side, number, paper, slots, trim, marks, furniture, notes, bleed, folds,
                notices, layout_name, registration)


def _furniture_for(cells, paper, layout, side, bleed_mm, printer, edge_mm=EDGE_MM,
                   outer_mm=0.0, sizes=None):
    drawn = max(bleed_mm, outer_mm)
    marks = tuple(crop_marks([c.rect for c in cells], layout, drawn, paper, edge_mm)) + \
        _registration_lines(paper, layout)
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


def cut_lines(cells: list[Rect]) -> tuple[list[float], list[float]]:
    """Where the cuts run: the distinct vertical (x) and horizontal (y) edges of the cells."""
    xs = sorted({round(x, 6) for c in cells for x in (c.x_mm, c.right_mm)})
    ys = sorted({round(y, 6) for c in cells for y in (c.y_mm, c.bottom_mm)})
    return xs, ys


def crop_marks(cells: list[Rect], layout: SheetLayout, bleed_mm: float = 0,
               paper: Size | None = None, edge_mm: float = 0) -> list[Line]:
    """Marks on the extension of the cut lines of the pieces on this page, outside them.

    Only the pieces present count, so a part-filled sheet has no marks beside its empty rows.
    Ticks start `offset_mm` beyond the pieces' bleed and run `length_mm` outwards, so a slightly
    misaligned cut never leaves a visible mark on a piece; `lines` run across the whole sheet
    (the pieces are drawn over them); inner ticks mark each corner in the gaps between pieces.
    On `paper`, no mark comes closer than `edge_mm` to its edge: a tick is shortened (to
    MIN_TICK_MM at the least), a line stops there.
    """
    marks_spec = layout.marks
    if marks_spec.style == "none" or not cells:
        return []
    marks = _crop_marks(cells, layout, bleed_mm)
    if paper is None or not edge_mm:
        return marks
    room = max(marks_spec.offset_mm - MIN_OFFSET_MM, 0)
    return [_kept_off_edge(m, paper, edge_mm, room if marks_spec.style == "ticks" else 0)
            for m in marks]


def _kept_off_edge(mark: Line, paper: Size, edge_mm: float, closer_mm: float = 0) -> Line:
    """A mark with both ends kept `edge_mm` inside the paper; a tick (drawn from its near
    end outwards) stays at least MIN_TICK_MM long, starting up to `closer_mm` nearer the
    pieces to keep that length."""
    vertical = mark.x1_mm == mark.x2_mm
    a, b = (mark.y1_mm, mark.y2_mm) if vertical else (mark.x1_mm, mark.x2_mm)
    edge_mm += MARK_CLEAR_MM
    high = (paper.height_mm if vertical else paper.width_mm) - edge_mm
    new_a, new_b = min(max(a, edge_mm), high), min(max(b, edge_mm), high)
    if abs(new_b - new_a) < MIN_TICK_MM:
        outwards = math.copysign(1, b - a)
        new_a = new_a - outwards * min(closer_mm, MIN_TICK_MM - abs(new_b - new_a))
        if abs(new_b - new_a) < MIN_TICK_MM:
            new_b = new_a + outwards * MIN_TICK_MM
    if vertical:
        return Line(mark.x1_mm, new_a, mark.x2_mm, new_b)
    return Line(new_a, mark.y1_mm, new_b, mark.y2_mm)


def _crop_marks(cells: list[Rect], layout: SheetLayout, bleed_mm: float = 0) -> list[Line]:
    marks_spec = layout.marks
    xs, ys = cut_lines(cells)
    area = bounds(cells).grown(bleed_mm)
    near = marks_spec.offset_mm
    far = near + marks_spec.length_mm
    marks = []
    if marks_spec.style == "lines":
        for x in xs:
            marks.append(Line(x, area.y_mm - far, x, area.bottom_mm + far))
        for y in ys:
            marks.append(Line(area.x_mm - far, y, area.right_mm + far, y))
        return marks
    # Each cut line is marked just beyond the outermost pieces it cuts, so a part-filled row
    # or column is marked where its own pieces end.
    on_x = _cells_on(xs, cells, lambda c: (c.x_mm, c.right_mm))
    on_y = _cells_on(ys, cells, lambda c: (c.y_mm, c.bottom_mm))
    for x in xs:
        span = bounds(on_x[x])
        top, bottom = span.y_mm - bleed_mm, span.bottom_mm + bleed_mm
        marks.append(Line(x, top - near, x, top - far))
        marks.append(Line(x, bottom + near, x, bottom + far))
    for y in ys:
        span = bounds(on_y[y])
        left, right = span.x_mm - bleed_mm, span.right_mm + bleed_mm
        marks.append(Line(left - near, y, left - far, y))
        marks.append(Line(right + near, y, right + far, y))
    if marks_spec.inner and layout.gap_mm > 0:
        marks.extend(_inner_marks(cells, layout, bleed_mm, area))
    return marks


def _cells_on(lines: list[float], cells: list[Rect], edges) -> dict[float, list[Rect]]:
    """For each cut line (sorted), the cells with an edge within 1e-6 of it; `edges` gives a
    cell's two edges across the lines. Each edge is looked up among the nearby lines only:
    a page of small pieces has hundreds of cells and dozens of lines."""
    found: dict[float, list[Rect]] = {line: [] for line in lines}
    for cell in cells:
        for edge in edges(cell):
            nearby = lines[bisect_right(lines, edge - 2e-6):bisect_left(lines, edge + 2e-6)]
            for line in nearby:
                if abs(edge - line) < 1e-6:
                    found[line].append(cell)
    return found


def _inner_marks(cells: list[Rect], layout: SheetLayout, bleed_mm: float, area: Rect
                 ) -> list[Line]:
    """Short ticks at each piece's corners, in the gap between pieces, clear of every bleed."""
    start = bleed_mm + 0.3
    length = min(layout.marks.length_mm, layout.gap_mm - 2 * start)
    if length <= 0.5:
        return []
    blocked = [c.grown(bleed_mm) for c in cells]
    marks = []
    for c in cells:
        for x, y, dx, dy in ((c.x_mm, c.y_mm, -1, -1), (c.right_mm, c.y_mm, 1, -1),
                             (c.x_mm, c.bottom_mm, -1, 1), (c.right_mm, c.bottom_mm, 1, 1)):
            for line in (Line(x, y + dy * start, x, y + dy * (start + length)),
                         Line(x + dx * start, y, x + dx * (start + length), y)):
                box = line.box()
                if box.inside(area) and not any(box.overlaps(b) for b in blocked):
                    marks.append(line)
    return sorted(set(marks), key=lambda m: (m.x1_mm, m.y1_mm, m.x2_mm, m.y2_mm))


# -- the sheet's notes and furniture --------------------------------------------------------


def sheet_notes(layout: SheetLayout, side: str, printer: str = "") -> tuple[str, ...]:
    """The two lines printed beside the pieces: print at 100%, and how to print the backs."""
    first = "Print at 100% (Actual size): do not fit to page"
    edge = {"long-edge": "long", "short-edge": "short"}.get(layout.duplex, "")
    if layout.kind == "gutterfold":
        second = "Single-sided. Cut out each strip, fold on the dashed line, glue."
    elif layout.backs == "none" or layout.duplex == "none":
        second = "Fronts only: print single-sided."
    elif layout.backs == "at-end":
        second = (f"Fronts. Print all fronts, then the backs pages on their reverse, {edge}-edge "
                  "flip." if side == "front" else
                  f"Backs. Print on the reverse of the fronts, sheet for sheet, {edge}-edge flip.")
    elif layout.backs == "before-fronts":
        second = (f"Fronts. Print on the back of the previous page, {edge}-edge flip."
                  if side == "front" else
                  f"Backs. Print the next page on the back, flipping on the {edge} edge.")
    else:
        second = (f"Fronts. Print the next page on the back, flipping on the {edge} edge."
                  if side == "front" else
                  f"Backs. Print on the back of the previous page, {edge}-edge flip.")
    if printer and side == "back":
        second += f" Printer profile: {printer}."
    return first, second


@cache
def text_width_mm(text: str, role: str, size_mm: float) -> float:
    from ..fonts import metrics

    return metrics(role).width_mm(text, mm_to_pt(size_mm))


RULER_THICKNESS_MM = 5.0
NOTE_THICKNESS_MM = 5.6
LINE_THICKNESS_MM = 2.8
CREDIT_LENGTH_MM = 50  # the licence line shrinks to fit, down to a size still legible
FOOTER_LENGTH_MM = 58
NOTE_MAX_MM = 70  # a note line is never set smaller than 6 pt: its box is as long as that needs

# Where each piece of furniture prefers to go, best first.
_SIDES = {
    "ruler": ("left", "right", "bottom", "top"),
    "note": ("right", "left", "top", "bottom"),
    "footer": ("bottom", "top", "right", "left"),
    "credit": ("left", "bottom", "top", "right"),
}


def furniture_lengths(texts: dict[str, str]) -> tuple[tuple[str, float], ...]:
    """How long the credit and footer boxes must be for their longest text (`texts`, by
    kind) to print at their least size (5 and 6 pt): at least their usual length."""
    usual = {"footer": FOOTER_LENGTH_MM, "credit": CREDIT_LENGTH_MM}
    least = {"footer": NOTE_PT["body"], "credit": SMALL_LINE_MM}
    return tuple((kind, max(usual[kind], text_width_mm(text, "body", least[kind]) + 1.5))
                 for kind, text in sorted(texts.items()) if kind in usual and text)


def furniture_sizes(notes: tuple[str, ...], lengths: tuple[tuple[str, float], ...] = ()
                    ) -> dict[str, tuple[float, float]]:
    """Length and thickness (mm) of each piece of furniture."""
    note_mm = max([text_width_mm(notes[0], "bold", NOTE_PT["bold"])] +
                  [text_width_mm(n, "body", NOTE_PT["body"]) for n in notes[1:]]) + 2
    longer = dict(lengths)
    return {"ruler": (RULER_MM + 2, RULER_THICKNESS_MM),
            "note": (min(note_mm, NOTE_MAX_MM), NOTE_THICKNESS_MM),
            "footer": (longer.get("footer", FOOTER_LENGTH_MM), LINE_THICKNESS_MM),
            "credit": (longer.get("credit", CREDIT_LENGTH_MM), LINE_THICKNESS_MM)}


def place_furniture(paper: Size, pieces: list[Rect], marks: tuple[Line, ...],
                    notes: tuple[str, ...], edge_mm: float = EDGE_MM,
                    lengths: tuple[tuple[str, float], ...] | None = None
                    ) -> dict[str, Furniture] | None:
    """A place in the margins for each piece of furniture (see `_place_furniture`)."""
    placed = _place_furniture(paper, tuple(pieces), tuple(marks), tuple(notes),
                              max(edge_mm, EDGE_MM), tuple(lengths or ()))
    return None if placed is None else dict(placed)


@lru_cache(maxsize=1024)  # the same grid on the same paper, page after page
def _place_furniture(paper: Size, pieces: tuple[Rect, ...], marks: tuple[Line, ...],
                     notes: tuple[str, ...], edge_mm: float = EDGE_MM,
                     lengths: tuple[tuple[str, float], ...] = ()
                     ) -> dict[str, Furniture] | None:
    """A place in the margins for the ruler, the note, the footer and the licence line.

    Each goes on the first side it prefers where a box of its size lies on the paper (at least
    `edge_mm` in), clear of the pieces, the marks and the furniture already placed: close to the
    pieces between two marks when there is room, else beyond the marks. None when any of
    them fits nowhere.
    """
    if not pieces:
        return {}
    area = bounds(pieces)
    printable = Rect(edge_mm, edge_mm, paper.width_mm - 2 * edge_mm,
                     paper.height_mm - 2 * edge_mm)
    blocked = [area.grown(CLEAR_MM)] + [
        box for box in (m.box(CLEAR_MM) for m in marks) if not box.inside(area.grown(CLEAR_MM))]
    placed: dict[str, Furniture] = {}
    for kind, (length, thick) in furniture_sizes(notes, lengths).items():
        spot = _find_spot(kind, length, thick, area, printable, blocked)
        if spot is None:
            return None
        placed[kind] = spot
        blocked.append(spot.rect.grown(CLEAR_MM))
    return placed


def _find_spot(kind, length, thick, area: Rect, printable: Rect, blocked: list[Rect]
               ) -> Furniture | None:
    p = printable
    bands = {"left": Rect(p.x_mm, p.y_mm, max(area.x_mm - p.x_mm, 0), p.height_mm),
             "right": Rect(area.right_mm, p.y_mm, max(p.right_mm - area.right_mm, 0),
                           p.height_mm),
             "top": Rect(p.x_mm, p.y_mm, p.width_mm, max(area.y_mm - p.y_mm, 0)),
             "bottom": Rect(p.x_mm, area.bottom_mm, p.width_mm,
                            max(p.bottom_mm - area.bottom_mm, 0))}
    for side in _SIDES[kind]:
        # A box on this side lies in its band: only what overlaps the band can be in the way.
        local = [b for b in blocked if b.overlaps(bands[side])]
        stops = sorted({round(v, 4) for b in local for v in (b.x_mm, b.right_mm, b.y_mm,
                                                             b.bottom_mm)})
        if side in ("left", "right"):
            w, h = thick, length
            if side == "left":
                xs = [area.x_mm - CLEAR_MM - w] + [s - w for s in stops if s < area.x_mm]
                xs = sorted({x for x in xs if x >= printable.x_mm - 1e-9}, reverse=True)
            else:
                xs = [area.right_mm + CLEAR_MM] + [s for s in stops if s > area.right_mm]
                xs = sorted({x for x in xs if x + w <= printable.right_mm + 1e-9})
            centre = area.y_mm + area.height_mm / 2 - h / 2
            ys = [centre, printable.y_mm, printable.bottom_mm - h] + \
                 [s for s in stops] + [s - h for s in stops]
            ys = sorted({y for y in ys if printable.y_mm - 1e-9 <= y <= printable.bottom_mm - h
                         + 1e-9}, key=lambda y: abs(y - centre))
            direction = "up" if side == "left" else "down"
            across = False  # a column of candidates for each x
        else:
            w, h = length, thick
            if side == "top":
                ys = [area.y_mm - CLEAR_MM - h] + [s - h for s in stops if s < area.y_mm]
                ys = sorted({y for y in ys if y >= printable.y_mm - 1e-9}, reverse=True)
            else:
                ys = [area.bottom_mm + CLEAR_MM] + [s for s in stops if s > area.bottom_mm]
                ys = sorted({y for y in ys if y + h <= printable.bottom_mm + 1e-9})
            centre = area.x_mm + area.width_mm / 2 - w / 2
            xs = [centre, printable.x_mm, printable.right_mm - w] + \
                 [s for s in stops] + [s - w for s in stops]
            xs = sorted({x for x in xs if printable.x_mm - 1e-9 <= x <= printable.right_mm - w
                         + 1e-9}, key=lambda x: abs(x - centre))
            direction = "across"
            across = True  # a row of candidates for each y
        # Rect.overlaps and Rect.inside, spelled out over plain numbers: this loop runs
        # thousands of times. Only the boxes level with a row (or column) can be in its way.
        edges = [(b.x_mm - 1e-9, b.y_mm - 1e-9, b.right_mm - 1e-9, b.bottom_mm - 1e-9)
                 for b in local]
        left, top = printable.x_mm - 1e-9, printable.y_mm - 1e-9
        right_end, bottom_end = printable.right_mm + 1e-9, printable.bottom_mm + 1e-9
        for fixed in (ys if across else xs):
            if across:
                bottom = fixed + h - 1e-9
                level = [(x0, x1) for x0, y0, x1, y1 in edges if fixed < y1 and y0 < bottom]
            else:
                right = fixed + w - 1e-9
                level = [(y0, y1) for x0, y0, x1, y1 in edges if fixed < x1 and x0 < right]
            for moving in (xs if across else ys):
                x, y = (moving, fixed) if across else (fixed, moving)
                if not (x >= left and y >= top and x + w <= right_end and y + h <= bottom_end):
                    continue
                end = moving + (w if across else h) - 1e-9
                if not any(moving < stop and start < end for start, stop in level):
                    return Furniture(kind, Rect(x, y, w, h), direction)
    return None


__all__ = ["SheetLayout", "Marks", "Grid", "Rect", "Line", "Slot", "Page", "Furniture",
           "builtin_layouts", "load_layouts", "impose", "grid_shape", "flip", "crop_marks",
           "UNIVERSAL"]


DEFAULT_BLEED_MM = 3.175  # 1/8 inch, what most print shops ask for, when a deck declares none


def deck_bleed_mm(deck) -> float:
    """The bleed a deck declares (`bleed_mm`), else the usual 1/8 inch."""
    value = getattr(deck, "bleed_mm", None)
    return DEFAULT_BLEED_MM if value is None else float(value)


def sheet_file_name(deck_name: str, paper: str, layout_name: str, layout: SheetLayout,
                    ink_saver: bool = False) -> str:
    """`events-letter.pdf` for the home layout; the layout's name joins it otherwise, and
    replaces the paper when the layout brings its own (universal, print-shop)."""
    parts = [deck_name]
    if layout_name == "home":
        parts.append(paper)
    elif layout.paper:
        parts.append(layout_name)
    else:
        parts.extend((paper, layout_name))
    if ink_saver:
        parts.append("ink-saver")
    return "-".join(parts) + ".pdf"


@dataclass(frozen=True)
class PrintOptions:
    """How a build prints: the layout (by name, among the built-in and the project's), a
    printer profile (pnp/printers.py) for the backs, and the ink-saver variant."""

    layout: str = "home"
    layouts: dict | None = None
    printer: object = None
    ink_saver: bool = False

    def sheet_layout(self) -> SheetLayout:
        return (self.layouts or builtin_layouts())[self.layout]

    @property
    def printer_name(self) -> str:
        return getattr(self.printer, "name", "") if self.printer else ""
