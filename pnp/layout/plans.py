"""Page plans: what each printed page holds, as plain data; no drawing.

Layout and the sheets produce these (paper, trim and bleed boxes, the margin furniture's SVG,
each face's SVG and where it goes); `pdf` draws them. They are kept apart from the drawing
code so that `pnp check`, which plans every page but draws none, never loads cairo or
pikepdf, and so that a plan can be sent to a worker process as it is.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from typing import TYPE_CHECKING


if TYPE_CHECKING:
    from .impose import Slot
    from ..units import Rect, Size


@dataclass(frozen=True)
class Placement:
    x_mm: float  # the top-left of what shows on the page (the trim box, turned if rotated)
    y_mm: float
    svg: str
    clip: Rect | None = None  # on the page: only this part of the drawing shows
    scale: float = 1  # drawn at this fraction of its size (a thumbnail)
    rotate: int = 0  # degrees clockwise: 0, 90, 180 or 270
    inset_mm: float = 0  # the drawing starts this far up and left of the trim (its bleed)

    @classmethod
    def for_slot(cls, slot: Slot, svg: str) -> "Placement":
        """A face in its slot: turned as the slot says, its viewport grown by the bleed."""
        if slot.bleed_mm:
            svg = grow_viewport(svg, slot.bleed_mm)
        return cls(slot.rect.x_mm, slot.rect.y_mm, svg, rotate=slot.rotate % 360,
                   inset_mm=slot.bleed_mm, clip=getattr(slot, "shown", None))


@dataclass(frozen=True)
class PageTransform:
    """A correction applied to everything on a page: scale about the page centre, then shift.

    A printer profile gives each backs page one, so the backs land where the fronts are.
    """

    dx_mm: float = 0
    dy_mm: float = 0
    scale: float = 1


@dataclass(frozen=True)
class PagePlan:
    paper: Size
    trim: Rect
    furniture: str  # the page-sized SVG with crop marks, ruler and notes
    placements: tuple[Placement, ...]
    bleed: Rect | None = None  # the PDF BleedBox; the TrimBox when None
    side: str = "front"  # front, back or fold
    transform: PageTransform | None = None
    notices: tuple[str, ...] = ()  # what imposition had to change, for `pnp build` to say


_ROOT = re.compile(r"<svg\b[^>]*>", re.S)
_ATTR = r'(?<![-\w:]){}\s*=\s*"([^"]*)"'  # not stroke-width, not a namespaced name


def grow_viewport(svg: str, bleed_mm: float, bleed_y_mm: float | None = None) -> str:
    """The same drawing with `bleed_mm` more of it showing on every side (`bleed_y_mm` above
    and below, when given).

    A face's root declares its size in mm and a viewBox; drawing that runs past the viewBox
    (a background meant to bleed) is shown by widening both. A root without a mm size is
    returned unchanged.
    """
    root = _ROOT.search(svg)
    if root is None:
        return svg
    tag = root.group()
    width = re.search(_ATTR.format("width"), tag)
    height = re.search(_ATTR.format("height"), tag)
    box = re.search(_ATTR.format("viewBox"), tag)
    if not (width and height and box) or not width.group(1).endswith("mm") \
            or not height.group(1).endswith("mm"):
        return svg
    w_mm, h_mm = float(width.group(1)[:-2]), float(height.group(1)[:-2])
    x, y, vw, vh = (float(v) for v in box.group(1).replace(",", " ").split())
    by_mm = bleed_mm if bleed_y_mm is None else bleed_y_mm
    ux, uy = bleed_mm * vw / w_mm, by_mm * vh / h_mm
    new = tag
    for pattern, value in ((_ATTR.format("width"), f"{w_mm + 2 * bleed_mm:.4f}mm"),
                           (_ATTR.format("height"), f"{h_mm + 2 * by_mm:.4f}mm"),
                           (_ATTR.format("viewBox"),
                            f"{x - ux:.4f} {y - uy:.4f} {vw + 2 * ux:.4f} {vh + 2 * uy:.4f}")):
        new = re.sub(pattern, lambda m, v=value: m.group().replace(m.group(1), v), new, count=1)
    return svg[: root.start()] + new + svg[root.end():]


def with_trim_outline(svg: str, radius_mm: float) -> str:
    """The face with its trim drawn over it as a thin outline, corners rounded by
    `radius_mm`: how the proof shows where a rounded card is cut. A root without a mm size
    and a viewBox is returned unchanged."""
    root = _ROOT.search(svg)
    size = svg_size_mm(svg)
    box = re.search(_ATTR.format("viewBox"), root.group()) if root else None
    end = svg.rfind("</svg>")
    if size is None or box is None or end < 0:
        return svg
    x, y, vw, vh = (float(v) for v in box.group(1).replace(",", " ").split())
    unit = vw / size[0]  # viewBox units per mm
    r = min(radius_mm, size[0] / 2, size[1] / 2) * unit
    outline = (f'<rect x="{x:.4f}" y="{y:.4f}" width="{vw:.4f}" height="{vh:.4f}" '
               f'rx="{r:.4f}" ry="{r:.4f}" fill="none" stroke="#d81b60" '
               f'stroke-width="{0.25 * unit:.4f}" stroke-dasharray="{unit:.4f} {unit:.4f}" '
               'data-role="trim"/>')
    return svg[:end] + outline + svg[end:]


def svg_size_mm(svg: str) -> tuple[float, float] | None:
    root = _ROOT.search(svg)
    if root is None:
        return None
    width = re.search(_ATTR.format("width"), root.group())
    height = re.search(_ATTR.format("height"), root.group())
    if not (width and height and width.group(1).endswith("mm")
            and height.group(1).endswith("mm")):
        return None
    return float(width.group(1)[:-2]), float(height.group(1)[:-2])


def source_date_epoch() -> int | None:
    """SOURCE_DATE_EPOCH, when set to a whole number of seconds; dates come only from it."""
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    return int(value) if value.isdigit() else None


@dataclass(frozen=True)
class DocumentInfo:
    title: str
    author: str
    subject: str
    keywords: str = ""
    duplex: str = "long-edge"
    # The document's date: SOURCE_DATE_EPOCH as the planning process sees it (None: no date),
    # carried with the plans so a worker process never reads its own environment for it.
    date_epoch: int | None = field(default_factory=source_date_epoch)

