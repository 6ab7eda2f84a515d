"""Sheet layouts: pnp's built-in layouts.yaml in; SheetLayout values, and the PrintOptions a
build prints with, out. A project's own layouts.yaml is read by pnp.project.

A layout is data (`layouts.yaml` in the package, and optionally one in a project): the paper (or
"universal", the area A4 and Letter share, or "piece", one page per face), a grid or a
gutterfold, the gap, the margins, the crop-mark style, how the sheet is flipped and where the
backs go.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from .. import reads
from ..findings import Findings
from ..load.content import load_document
from ..load.schema import INVALID, Where, bounded, located, validate
from ..units import MAX_PIECE_MM, PAPERS, PRINTABLE_MARGIN_MM, Size
from .cutter import Registration

PRINTABLE_MM = 5.0  # what most home printers leave unprinted on a paper pnp knows no margin of
UNIVERSAL = Size(210, 279.4)  # the area A4 and US Letter share: a page that prints on both


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
    # None: the paper's own (`printable_margin`). A printer profile may say its printer does
    # better.
    printable_margin_mm: float | None = bounded(None, min=0, max=50)
    # Butted pieces: the outer edges of the outer pieces drawn this far into the margin, so
    # a cut or a duplex shift that misses the outer line shows colour, not white.
    outer_bleed_mm: float = 0

    @property
    def mark_width_pt(self) -> float:  # the name older templates read
        return self.marks.width_pt


def read_layouts(path: Path, shown: str, findings: Findings) -> dict[str, SheetLayout]:
    """The layouts a layouts.yaml defines, by name; {} (with findings) when it is not valid."""
    layouts = validate(load_document(path, shown, findings), dict[str, SheetLayout], "",
                       findings)
    return {} if layouts is INVALID else layouts


@cache
def builtin_layouts() -> dict[str, SheetLayout]:
    findings = Findings()  # the file beside this one, as fonts.font_dir() finds the fonts
    own = Path(__file__).parent.parent
    with reads.confined(own):
        layouts = read_layouts(own / "data" / "layouts.yaml", "pnp/data/layouts.yaml", findings)
    if not layouts or findings.errors:
        raise RuntimeError("; ".join(f.format() for f in findings))  # a packaging bug
    return layouts


def paper_for(paper_name: str, layout: SheetLayout, item: Size, bleed_mm: float = 0) -> Size:
    name = layout.paper or paper_name
    if name == "universal":
        return UNIVERSAL
    if name == "piece":
        return Size(item.width_mm + 2 * bleed_mm, item.height_mm + 2 * bleed_mm)
    return PAPERS[name]


def printable_margin(paper_name: str, layout: SheetLayout | None = None,
                     printer_mm: float | None = None) -> float:
    """How close to the paper's edge anything may be drawn: the printer profile's margin
    (`printer_mm`), else the layout's, else the paper's own (a quarter inch on the US papers,
    5 mm on ISO; on a universal page the larger of A4's and Letter's, as it prints on both;
    0 on a page the size of the piece)."""
    if printer_mm is not None:
        return printer_mm
    if layout is not None and layout.printable_margin_mm is not None:
        return layout.printable_margin_mm
    name = (layout.paper if layout is not None else "") or paper_name
    if name == "piece":
        return 0.0
    if name == "universal":
        return max(PRINTABLE_MARGIN_MM["letter"], PRINTABLE_MARGIN_MM["a4"])
    return PRINTABLE_MARGIN_MM.get(name, PRINTABLE_MM)


@dataclass(frozen=True)
class PrintOptions:
    """How a build prints: the layout (by name, among the built-in and the project's), a
    printer profile (pnp/layout/printers.py) for the backs, and the ink-saver variant."""

    layout: str = "home"
    layouts: dict | None = None
    printer: object = None
    ink_saver: bool = False

    def sheet_layout(self) -> SheetLayout:
        return (self.layouts or builtin_layouts())[self.layout]

    @property
    def printer_name(self) -> str:
        return getattr(self.printer, "name", "") if self.printer else ""
