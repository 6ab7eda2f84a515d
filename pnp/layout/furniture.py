"""Margin furniture: a page's pieces, marks and notes in; a box in the margin for each piece
of furniture (the check ruler, the print notes, the footer, the licence line) out.

Each goes on the first side it prefers where a box of its size lies on the paper, clear of the
pieces, the marks and the furniture already placed. All in millimetres, origin at the top-left
of the page, y down.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Literal

from ..units import Rect, Size, bounds, mm_to_pt
from .marks import Line

if TYPE_CHECKING:
    from .layouts import SheetLayout

RULER_MM = 50  # the printed check ruler: measure it to prove the sheet printed at 100%
EDGE_MM = 3.5  # the least furniture keeps from the paper's edge, whatever a layout says
CLEAR_MM = 0.6  # and this far from pieces, marks and other furniture
NOTE_PT = {"bold": 2.3, "body": 2.15}  # font sizes of the note lines, in mm (6 pt and more)
SMALL_LINE_MM = 1.8  # the least size of the credit line and footer (5.1 pt)
RULER_THICKNESS_MM = 5.0
NOTE_THICKNESS_MM = 5.5
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


def fit_lines(text: str, role: str, size_mm: float, room_mm: float, least_mm: float
              ) -> tuple[tuple[str, ...], float]:
    """`text` set to fit `room_mm`: on one line at `size_mm` or smaller, never under
    `least_mm`; where that is too small, broken between words into as few lines as fit at
    `least_mm` (a word longer than the room stays whole). The lines and their size (mm)."""
    width = text_width_mm(text, role, size_mm)
    if width <= room_mm:
        return (text,), size_mm
    fitted = round(size_mm * room_mm / width, 3)
    if fitted >= least_mm:
        return (text,), fitted
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and text_width_mm(joined, role, least_mm) <= room_mm:
            lines[-1] = joined
        else:
            lines.append(word)
    return tuple(lines), least_mm


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




_DIRECTION = {"left": "up", "right": "down", "top": "across", "bottom": "across"}


def _span(rect: Rect, axis: int) -> tuple[float, float, float]:
    """A rect's start, extent and end along x (axis 0) or y (axis 1)."""
    if axis == 0:
        return rect.x_mm, rect.width_mm, rect.right_mm
    return rect.y_mm, rect.height_mm, rect.bottom_mm


def _find_spot(kind, length, thick, area: Rect, printable: Rect, blocked: list[Rect]
               ) -> Furniture | None:
    """The first side `kind` prefers with room for a `length` x `thick` box (its length along
    that side), and the box there."""
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
        rect = _spot_on(side, length, thick, area, printable, local)
        if rect is not None:
            return Furniture(kind, rect, _DIRECTION[side])
    return None


def _spot_on(side: str, length: float, thick: float, area: Rect, printable: Rect,
             local: list[Rect]) -> Rect | None:
    """A `length` x `thick` box beside the pieces on `side`, clear of `local`, or None.

    One search for the four sides: `out` is the axis away from the pieces (x beside them, y
    above and below), `along` the other. Candidates away from the pieces are the nearest place
    first, then just beyond each obstacle; along the side, nearest the pieces' centre first.
    """
    out = 1 if side in ("top", "bottom") else 0
    along = 1 - out
    stops = sorted({round(v, 4) for b in local for v in (b.x_mm, b.right_mm, b.y_mm,
                                                         b.bottom_mm)})
    area_start, area_extent, area_end = _span(area, out)
    room_start, _, room_end = _span(printable, out)
    if side in ("left", "top"):
        outs = [area_start - CLEAR_MM - thick] + [s - thick for s in stops if s < area_start]
        outs = sorted({v for v in outs if v >= room_start - 1e-9}, reverse=True)
    else:
        outs = [area_end + CLEAR_MM] + [s for s in stops if s > area_end]
        outs = sorted({v for v in outs if v + thick <= room_end + 1e-9})
    along_start, along_extent, _ = _span(area, along)
    first, _, last = _span(printable, along)
    centre = along_start + along_extent / 2 - length / 2
    alongs = [centre, first, last - length, *stops, *(s - length for s in stops)]
    alongs = sorted({v for v in alongs if first - 1e-9 <= v <= last - length + 1e-9},
                    key=lambda v: abs(v - centre))
    # Rect.overlaps and Rect.inside, spelled out over plain numbers: this loop runs
    # thousands of times. Only the boxes level with a row (or column) can be in its way.
    edges = [(_span(b, out)[0] - 1e-9, _span(b, out)[2] - 1e-9,
              _span(b, along)[0] - 1e-9, _span(b, along)[2] - 1e-9) for b in local]
    out_low, out_high = room_start - 1e-9, room_end + 1e-9
    along_low, along_high = first - 1e-9, last + 1e-9
    for fixed in outs:
        reach = fixed + thick - 1e-9
        level = [(a0, a1) for o0, o1, a0, a1 in edges if fixed < o1 and o0 < reach]
        for moving in alongs:
            if not (fixed >= out_low and moving >= along_low and fixed + thick <= out_high
                    and moving + length <= along_high):
                continue
            end = moving + length - 1e-9
            if not any(moving < stop and start < end for start, stop in level):
                return Rect(fixed, moving, thick, length) if out == 0 else \
                    Rect(moving, fixed, length, thick)
    return None
