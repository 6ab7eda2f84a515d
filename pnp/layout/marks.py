"""Crop marks: the pieces on a page and a layout's mark style in; the marks' lines out.

Marks lie on the extension of the cut lines, outside the pieces (and their bleed): short ticks,
lines across the sheet, or none, kept clear of the paper's unprinted edge. All in millimetres,
origin at the top-left of the page, y down.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..units import Rect, Size, bounds

if TYPE_CHECKING:
    from .layouts import SheetLayout

MIN_TICK_MM = 1.2  # a crop mark shortened to keep off the unprinted edge starts nearer the
LEAST_TICK_MM = 1.0  # pieces to keep this length, and is left off when it cannot keep this
MARK_CLEAR_MM = 0.1  # a mark's ends stay this much further in: its stroke's half width
MIN_OFFSET_MM = 0.25  # and may start this close to the pieces' drawing to keep that length
KEPT_BLEED_MM = 0.75  # but leaves a piece's own bleed printed this far out: a cut 0.5 mm off


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


def cut_lines(cells: list[Rect]) -> tuple[list[float], list[float]]:
    """Where the cuts run: the distinct vertical (x) and horizontal (y) edges of the cells."""
    xs = sorted({round(x, 6) for c in cells for x in (c.x_mm, c.right_mm)})
    ys = sorted({round(y, 6) for c in cells for y in (c.y_mm, c.bottom_mm)})
    return xs, ys


def crop_marks(cells: list[Rect], layout: SheetLayout, bleed_mm: float = 0,
               paper: Size | None = None, edge_mm: float = 0, yielding_mm: float = 0
               ) -> list[Line]:
    """Marks on the extension of the cut lines of the pieces on this page, outside them.

    Only the pieces present count, so a part-filled sheet has no marks beside its empty rows.
    Ticks start `offset_mm` beyond the pieces' bleed and run `length_mm` outwards, so a slightly
    misaligned cut never leaves a visible mark on a piece; `lines` run across the whole sheet
    (the pieces are drawn over them); inner ticks mark each corner in the gaps between pieces.
    On `paper`, no mark comes closer than `edge_mm` to its edge (the printable margin): a tick
    is shortened, and where that leaves it under MIN_TICK_MM it starts nearer the pieces, up
    to MIN_OFFSET_MM from the drawing, or from the trim across `yielding_mm` of drawing that
    gives way to it (the outer bleed of butted pieces: `clear_of_marks`); a tick that still
    has no room is left off, a line stops there.
    """
    marks_spec = layout.marks
    if marks_spec.style == "none" or not cells:
        return []
    marks = _crop_marks(cells, layout, bleed_mm)
    if paper is None or not edge_mm:
        return marks
    room = max(marks_spec.offset_mm - MIN_OFFSET_MM, 0) + yielding_mm
    kept = [_kept_off_edge(m, paper, edge_mm, room if marks_spec.style == "ticks" else 0)
            for m in marks]
    kept = [m for m in kept if m is not None]
    if marks_spec.style == "ticks" and layout.gap_mm > 0:
        kept += _gutter_marks(cells, kept, layout, bleed_mm)
    return kept


def yielding_bleed(bleed_mm: float, outer_mm: float = 0) -> float:
    """How much of the pieces' drawing past the trim gives way to a tick with no other room:
    all of the outer bleed of butted pieces (`outer_mm`), but of a piece's own bleed
    (`bleed_mm`) only what leaves KEPT_BLEED_MM of it printed, so a home printer's cut that
    misses the trim shows the face's colour, not paper; a tick that then has no room is
    left off."""
    if outer_mm:
        return outer_mm
    return max(bleed_mm - KEPT_BLEED_MM - MARK_CLEAR_MM + MIN_OFFSET_MM, 0)


def clear_of_marks(shown: Rect, trim: Rect, marks: tuple[Line, ...] | list[Line],
                   printable: Rect | None = None) -> Rect:
    """What of a piece's drawing shows (`shown`, its trim and bleed), cut back on each side,
    never inside the trim, so that it stays inside the `printable` area and no crop mark lies
    under it: the pieces are drawn over the marks, and a tick that needed the outer bleed's
    room would not print."""
    left, top, right, bottom = shown.x_mm, shown.y_mm, shown.right_mm, shown.bottom_mm
    if printable is not None:
        left = min(max(left, printable.x_mm), trim.x_mm)
        top = min(max(top, printable.y_mm), trim.y_mm)
        right = max(min(right, printable.right_mm), trim.right_mm)
        bottom = max(min(bottom, printable.bottom_mm), trim.bottom_mm)
    for mark in marks:
        box = mark.box(MARK_CLEAR_MM)
        if not box.overlaps(Rect(left, top, right - left, bottom - top)):
            continue
        if box.bottom_mm <= trim.y_mm + 1e-9:
            top = min(max(top, box.bottom_mm), trim.y_mm)
        elif box.y_mm >= trim.bottom_mm - 1e-9:
            bottom = max(min(bottom, box.y_mm), trim.bottom_mm)
        elif box.right_mm <= trim.x_mm + 1e-9:
            left = min(max(left, box.right_mm), trim.x_mm)
        elif box.x_mm >= trim.right_mm - 1e-9:
            right = max(min(right, box.x_mm), trim.right_mm)
    return Rect(left, top, right - left, bottom - top)


def _kept_off_edge(mark: Line, paper: Size, edge_mm: float, closer_mm: float = 0
                   ) -> Line | None:
    """A mark with both ends kept `edge_mm` inside the paper; a tick (drawn from its near
    end outwards) shortened under MIN_TICK_MM starts up to `closer_mm` nearer the pieces to
    keep that length, and is left off (None) when it is then still shorter than
    LEAST_TICK_MM."""
    vertical = mark.x1_mm == mark.x2_mm
    a, b = (mark.y1_mm, mark.y2_mm) if vertical else (mark.x1_mm, mark.x2_mm)
    edge_mm += MARK_CLEAR_MM
    high = (paper.height_mm if vertical else paper.width_mm) - edge_mm
    new_a, new_b = min(max(a, edge_mm), high), min(max(b, edge_mm), high)
    if closer_mm and abs(new_b - new_a) < MIN_TICK_MM - 1e-9:
        inwards = -math.copysign(1, b - a)  # from the tick's far end towards the pieces
        nearest = a + inwards * closer_mm  # as near the pieces as it may start
        want = new_b + inwards * MIN_TICK_MM
        new_a = min(want, nearest) if inwards > 0 else max(want, nearest)
        new_a = min(max(new_a, edge_mm), high)
        if abs(new_b - new_a) < LEAST_TICK_MM - 1e-9:
            return None
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


def _gutter_marks(cells: list[Rect], marks: list[Line], layout: SheetLayout, bleed_mm: float
                  ) -> list[Line]:
    """For each cut line the printable margin left without a mark, a tick centred in every
    gutter the line crosses between two pieces, clear of the bleed each piece keeps
    (KEPT_BLEED_MM: the bleed gives way to the rest, `clear_of_marks`)."""
    near = min(bleed_mm, KEPT_BLEED_MM) + 2 * MARK_CLEAR_MM
    length = min(layout.marks.length_mm, layout.gap_mm - 2 * near)
    if length < LEAST_TICK_MM - 1e-9:
        return []
    xs, ys = cut_lines(cells)
    found = []
    for vertical, lines in ((False, ys), (True, xs)):
        marked = {round(m.x1_mm if vertical else m.y1_mm, 6) for m in marks
                  if (m.x1_mm == m.x2_mm) == vertical}
        for at in lines:
            if at in marked:
                continue
            on = sorted(_cells_on([at], cells, (lambda c: (c.x_mm, c.right_mm)) if vertical
                                  else (lambda c: (c.y_mm, c.bottom_mm)))[at],
                        key=lambda c: c.y_mm if vertical else c.x_mm)
            for a, b in zip(on, on[1:]):
                start, end = (a.bottom_mm, b.y_mm) if vertical else (a.right_mm, b.x_mm)
                if end - start < 2 * near + length - 1e-9:
                    continue
                mid = (start + end) / 2
                tick = Line(at, mid - length / 2, at, mid + length / 2) if vertical else \
                    Line(mid - length / 2, at, mid + length / 2, at)
                if not any(tick.box().overlaps(c.grown(near - 1e-6)) for c in cells):
                    found.append(tick)
    return sorted(set(found), key=lambda m: (m.x1_mm, m.y1_mm, m.x2_mm, m.y2_mm))


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

