"""Tuck box dielines: a deck's card size and count in; the flat dieline of a box that holds
it out.

A one-piece reverse tuck end box: four body panels in a row (front, side, back, side) and a
glue flap, the lid and its tuck flap on top of the back panel, the bottom and its tuck flap
under the front panel, a dust flap above and below each side, and a thumb notch in the front's
top edge. All in millimetres on the page, origin top-left, y down.

The inside of the box is the card size plus `clearance_mm` each way, and the deck's thickness
(count x `card_thickness_mm`) plus `clearance_mm` deep. Folding (see README): crease every
dashed line; fold the sides and the back round behind the front and glue the flap under the
front's free edge; fold the bottom's dust flaps in, then the bottom, and tuck it; fill the box,
then close the top the same way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..units import Rect, Size

# One closed outline: vertices (x, y, bulge) on the page; bulge is DXF's tan(angle / 4) of the
# arc from this vertex to the next, > 0 when the arc turns clockwise as the page is seen.
Vertex = tuple[float, float, float]

TUCK_MM = 15  # how deep a tuck flap reaches into the box, at most
GLUE_MM = 10  # the glue flap's width, at most
SHOULDER_MM = 1  # a tuck flap is this much narrower each side, to slide in
TAPER_MM = 3  # dust and glue flaps are cut back this far at their free corners


@dataclass(frozen=True)
class Dieline:
    inner: tuple[float, float, float]  # width, height, depth inside the box
    panels: dict[str, Rect]  # front, side-left, back, side-right, glue, lid, tuck-top, ...
    outline: tuple[Vertex, ...]  # the cut, clockwise from the front panel's top-left
    folds: tuple[tuple[float, float, float, float], ...]  # x1, y1, x2, y2 of each crease
    bounds: Rect


def inner_size(card: Size, count: int, card_thickness_mm: float, clearance_mm: float
               ) -> tuple[float, float, float]:
    """Width, height and depth inside a box for `count` cards."""
    return (card.width_mm + clearance_mm, card.height_mm + clearance_mm,
            count * card_thickness_mm + clearance_mm)


def dieline(card: Size, count: int, card_thickness_mm: float = 0.3, clearance_mm: float = 1,
            origin: tuple[float, float] = (0, 0)) -> Dieline:
    """The flat box, its top-left bound at `origin`."""
    w, h, d = inner_size(card, count, card_thickness_mm, clearance_mm)
    tuck = min(TUCK_MM, h / 3, max(d, w / 4))
    dust = min(max(d, 8), w / 2 - 1, d + tuck)
    glue = min(GLUE_MM, w / 3)
    notch = min(10, w / 5)  # the thumb notch's radius
    r_tuck = min(tuck / 2, 5)
    taper = min(TAPER_MM, d / 4, dust / 3)
    x_front = origin[0]
    y_top = origin[1] + d + tuck  # the body's top edge: the lid and its tuck stand above
    y_bottom = y_top + h
    xs = [x_front]
    for width in (w, d, w, d, glue):
        xs.append(xs[-1] + width)
    front, side_l, back, side_r, glue_x = xs[0], xs[1], xs[2], xs[3], xs[4]
    end = xs[5]
    panels = {
        "front": Rect(front, y_top, w, h), "side-left": Rect(side_l, y_top, d, h),
        "back": Rect(back, y_top, w, h), "side-right": Rect(side_r, y_top, d, h),
        "glue": Rect(glue_x, y_top, glue, h),
        "lid": Rect(back, y_top - d, w, d), "tuck-top": Rect(back, y_top - d - tuck, w, tuck),
        "bottom": Rect(front, y_bottom, w, d), "tuck-bottom": Rect(front, y_bottom + d, w, tuck),
        "dust-top-left": Rect(side_l, y_top - dust, d, dust),
        "dust-top-right": Rect(side_r, y_top - dust, d, dust),
        "dust-bottom-left": Rect(side_l, y_bottom, d, dust),
        "dust-bottom-right": Rect(side_r, y_bottom, d, dust),
    }
    quarter = math.tan(math.pi / 8)
    v: list[Vertex] = []

    def go(x: float, y: float, bulge: float = 0) -> None:
        v.append((x, y, bulge))

    # Top edge, left to right: the front (with its notch), a dust flap, the lid and its tuck,
    # a dust flap, the glue flap's top.
    go(front, y_top)
    go(front + w / 2 - notch, y_top, -1)  # a half circle into the front: anticlockwise
    go(front + w / 2 + notch, y_top)
    go(side_l, y_top)
    go(side_l + taper, y_top - dust)
    go(side_l + d - taper, y_top - dust)
    go(back, y_top)
    go(back, y_top - d)
    go(back + SHOULDER_MM, y_top - d)
    go(back + SHOULDER_MM, y_top - d - tuck + r_tuck, quarter)
    go(back + SHOULDER_MM + r_tuck, y_top - d - tuck)
    go(back + w - SHOULDER_MM - r_tuck, y_top - d - tuck, quarter)
    go(back + w - SHOULDER_MM, y_top - d - tuck + r_tuck)
    go(back + w - SHOULDER_MM, y_top - d)
    go(back + w, y_top - d)
    go(side_r, y_top)
    go(side_r + taper, y_top - dust)
    go(side_r + d - taper, y_top - dust)
    go(glue_x, y_top)
    go(end, y_top + taper)
    # Bottom edge, right to left: the glue flap, a dust flap, the back's plain edge, a dust
    # flap, the bottom and its tuck under the front.
    go(end, y_bottom - taper)
    go(glue_x, y_bottom)
    go(side_r + d - taper, y_bottom + dust)
    go(side_r + taper, y_bottom + dust)
    go(side_r, y_bottom)
    go(side_l + d, y_bottom)
    go(side_l + d - taper, y_bottom + dust)
    go(side_l + taper, y_bottom + dust)
    go(side_l, y_bottom)
    go(front + w, y_bottom + d)
    go(front + w - SHOULDER_MM, y_bottom + d)
    go(front + w - SHOULDER_MM, y_bottom + d + tuck - r_tuck, quarter)
    go(front + w - SHOULDER_MM - r_tuck, y_bottom + d + tuck)
    go(front + SHOULDER_MM + r_tuck, y_bottom + d + tuck, quarter)
    go(front + SHOULDER_MM, y_bottom + d + tuck - r_tuck)
    go(front + SHOULDER_MM, y_bottom + d)
    go(front, y_bottom + d)
    folds = tuple([(x, y_top, x, y_bottom) for x in (side_l, back, side_r, glue_x)] + [
        (side_l, y_top, side_l + d, y_top), (back, y_top, back + w, y_top),
        (side_r, y_top, side_r + d, y_top), (back, y_top - d, back + w, y_top - d),
        (front, y_bottom, front + w, y_bottom), (side_l, y_bottom, side_l + d, y_bottom),
        (side_r, y_bottom, side_r + d, y_bottom), (front, y_bottom + d, front + w, y_bottom + d)])
    bounds = Rect(front, y_top - d - tuck, end - front, h + 2 * (d + tuck))
    return Dieline((w, h, d), panels, tuple(v), folds, bounds)


def fit_dieline(card: Size, count: int, paper: Size, margin_mm: float,
                card_thickness_mm: float = 0.3, clearance_mm: float = 1,
                above_mm: float = 0, below_mm: float = 0) -> tuple[Size, Dieline] | None:
    """The dieline centred on the paper, upright or on its side (the paper turned), with
    `above_mm` and `below_mm` of room for its text above and below it, or None when it does
    not fit inside the margins."""
    flat = dieline(card, count, card_thickness_mm, clearance_mm)
    for page in (Size(min(paper), max(paper)), Size(max(paper), min(paper))):
        room = Rect(margin_mm, margin_mm, page.width_mm - 2 * margin_mm,
                    page.height_mm - 2 * margin_mm)
        b = flat.bounds
        tall = b.height_mm + above_mm + below_mm
        if b.width_mm <= room.width_mm + 1e-9 and tall <= room.height_mm + 1e-9:
            x = (page.width_mm - b.width_mm) / 2
            y = (page.height_mm - tall) / 2 + above_mm
            return page, dieline(card, count, card_thickness_mm, clearance_mm, (x, y))
    return None


__all__ = ["Dieline", "dieline", "fit_dieline", "inner_size"]
