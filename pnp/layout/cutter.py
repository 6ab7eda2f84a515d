"""Cutting machines: a sheet's pieces, the paper and a layout's registration in; registration
marks and cut files out.

Print-then-cut: the printer prints the sheet with registration marks, the cutting machine's
optical eye finds the marks, and it cuts the path of the cut file, drawn in the same page
coordinates (millimetres from the top-left of the page, y down). Each piece is one closed path
round its trim, its corners rounded by the deck's `corner_radius_mm`; a round piece (`shape:
round`) is one circle, the largest its trim holds (SVG `<circle>`, DXF CIRCLE).

Silhouette: the marks follow Silhouette Card Maker's public "SCM PDF and Cutting Template
Specification" (SPECIFICATION.md in github.com/Alan-Cha/silhouette-card-maker), which third-party
generators are invited to target:
- an L-shaped mark is two arms `thickness_mm` thick (1 mm) and `length_mm` long (5 mm by
  default), meeting at a corner that stands `inset_mm` (10 mm) from both paper edges, the arms
  running inward (towards the middle of the page);
- the THREE-mark pattern (every Silhouette but the Cameo 5 Alpha) has a 5 x 5 mm filled square
  centred `inset_mm` from both edges at the top-left, and L marks at the top-right and the
  bottom-left; the FOUR-mark pattern (Cameo 5 Alpha) has L marks at all four corners;
- pieces are centred on the page, all in one orientation, 1.25 mm apart (so a bleed of at most
  0.625 mm), and the page orientation is the one that holds the most pieces clear of the marks.
Silhouette Studio's registration settings then match the marks: type 1 (or the Cameo 5's four
marks), length 5 mm, thickness 1 mm, inset 10 mm.

Cricut: Design Space prints its own registration frame round an uploaded image and limits
Print Then Cut to a 6.75 x 9.25 in area on Letter and A4; the `cricut` layout keeps the pieces
inside that area (centred on the page) and prints no marks of its own.

The cut files: SVG (mm units, the page's size and viewBox), for Silhouette Studio (Designer
Edition and up) and Cricut Design Space, and DXF (R12, millimetres, y up as DXF wants), which
every cutter's software and the basic Silhouette Studio open.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from ..units import Rect, Size

SQUARE_MM = 5  # the THREE-mark pattern's square, per the SCM specification
CLEARANCE_MM = 1  # pieces (with their bleed) keep this far from a registration mark
CRICUT_AREA = Size(6.75 * 25.4, 9.25 * 25.4)  # Design Space's Print Then Cut limit


@dataclass(frozen=True)
class Registration:
    """Registration marks for a print-then-cut machine (see the module's docstring)."""

    pattern: Literal["three", "four", "cricut"] = "three"
    inset_mm: float = 10
    length_mm: float = 5
    thickness_mm: float = 1


def registration_marks(paper: Size, spec: Registration) -> list[Rect]:
    """The marks as filled rectangles on the page: each L as its two arms, the square."""
    if spec.pattern == "cricut":
        return []
    w, h = paper.width_mm, paper.height_mm
    inset, arm, t = spec.inset_mm, spec.length_mm, spec.thickness_mm
    corners = {"top-left": (inset, inset, 1, 1), "top-right": (w - inset, inset, -1, 1),
               "bottom-left": (inset, h - inset, 1, -1),
               "bottom-right": (w - inset, h - inset, -1, -1)}
    shapes = []
    for name, (x, y, dx, dy) in corners.items():
        if spec.pattern == "three" and name == "bottom-right":
            continue
        if spec.pattern == "three" and name == "top-left":
            # the square: filled, centred on the corner point
            shapes.append(Rect(x - SQUARE_MM / 2, y - SQUARE_MM / 2, SQUARE_MM, SQUARE_MM))
            continue
        # The arms' centre lines meet at the corner point and run `length` inward.
        x0, x1 = sorted((x - dx * t / 2, x + dx * arm))
        shapes.append(Rect(x0, y - t / 2, x1 - x0, t))
        y0, y1 = sorted((y - dy * t / 2, y + dy * arm))
        shapes.append(Rect(x - t / 2, y0, t, y1 - y0))
    return shapes


def keep_out(paper: Size, spec: Registration) -> list[Rect]:
    """Where pieces may not go: each mark's bounds, grown by the clearance."""
    return [mark.grown(CLEARANCE_MM) for mark in registration_marks(paper, spec)]


def cut_area(paper: Size, spec: Registration) -> Rect | None:
    """The area pieces must stay inside, when the machine's software sets one (Cricut)."""
    if spec.pattern != "cricut":
        return None
    area = CRICUT_AREA if paper.width_mm <= paper.height_mm else Size(*reversed(tuple(
        CRICUT_AREA)))
    return Rect((paper.width_mm - area.width_mm) / 2, (paper.height_mm - area.height_mm) / 2,
                *area)


Vertex = tuple[float, float, float]  # x, y on the page; the bulge of the arc to the next one


def rounded_rect(rect: Rect, radius_mm: float) -> list[Vertex]:
    """A closed outline round `rect`, clockwise as the page is seen from its top-left, corners
    rounded by `radius_mm` (at most half the shorter side). A bulge is DXF's: tan(angle / 4)
    of the arc to the next vertex, here > 0 when it turns clockwise as the page is seen."""
    r = max(0.0, min(radius_mm, rect.width_mm / 2, rect.height_mm / 2))
    x0, y0, x1, y1 = rect.x_mm, rect.y_mm, rect.right_mm, rect.bottom_mm
    if r == 0:
        return [(x0, y0, 0), (x1, y0, 0), (x1, y1, 0), (x0, y1, 0)]
    b = math.tan(math.pi / 8)  # a quarter circle
    return [(x0 + r, y0, 0), (x1 - r, y0, b), (x1, y0 + r, 0), (x1, y1 - r, b),
            (x1 - r, y1, 0), (x0 + r, y1, b), (x0, y1 - r, 0), (x0, y0 + r, b)]


def svg_path(vertices: list[Vertex]) -> str:
    d = [f"M {vertices[0][0]:.4f} {vertices[0][1]:.4f}"]
    for (x, y, bulge), (nx, ny, _) in zip(vertices, vertices[1:] + vertices[:1]):
        if bulge:
            angle = 4 * math.atan(abs(bulge))
            radius = math.hypot(nx - x, ny - y) / (2 * math.sin(angle / 2))
            d.append(f"A {radius:.4f} {radius:.4f} 0 {int(angle > math.pi)} "
                     f"{int(bulge > 0)} {nx:.4f} {ny:.4f}")  # sweep 1: clockwise, y down
        else:
            d.append(f"L {nx:.4f} {ny:.4f}")
    return " ".join(d) + " Z"


def outlines_svg(paper: Size, outlines: list[list[Vertex]],
                 folds: tuple[tuple[float, float, float, float], ...] = (),
                 circles: list[tuple[float, float, float]] = ()) -> str:
    """A cut file as SVG in the page's coordinates: one closed path per outline and one
    circle per (x, y, radius) of `circles` (red, "cut"), and the creases, when there are any,
    as dashed lines (blue, "fold")."""
    w, h = f"{paper.width_mm:g}", f"{paper.height_mm:g}"
    parts = [f'<?xml version="1.0" encoding="UTF-8"?>\n'
             f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
             f'viewBox="0 0 {w} {h}">',
             '<g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">']
    parts += [f'<path d="{svg_path(list(o))}"/>' for o in outlines]
    parts += [f'<circle cx="{x:.4f}" cy="{y:.4f}" r="{r:.4f}"/>' for x, y, r in circles]
    parts.append("</g>")
    if folds:
        parts.append('<g id="fold" fill="none" stroke="#0000ff" stroke-width="0.1" '
                     'stroke-dasharray="2 1">')
        parts += [f'<line x1="{x1:.4f}" y1="{y1:.4f}" x2="{x2:.4f}" y2="{y2:.4f}"/>'
                  for x1, y1, x2, y2 in folds]
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def outlines_dxf(paper: Size, outlines: list[list[Vertex]],
                 folds: tuple[tuple[float, float, float, float], ...] = (),
                 circles: list[tuple[float, float, float]] = ()) -> str:
    """A cut file as DXF R12: one closed POLYLINE per outline and one CIRCLE per (x, y,
    radius) of `circles` on layer CUT, arcs as bulges, and the creases as LINEs on layer FOLD; millimetres from the page's bottom-left (DXF's y runs
    up, so a bulge that turns clockwise on the page is negative here too, as DXF counts
    anticlockwise positive)."""
    height = paper.height_mm
    lines = ["0", "SECTION", "2", "HEADER", "9", "$ACADVER", "1", "AC1009",
             "9", "$INSUNITS", "70", "4",  # millimetres
             "9", "$EXTMIN", "10", "0.0", "20", "0.0", "30", "0.0",
             "9", "$EXTMAX", "10", f"{paper.width_mm:.4f}", "20", f"{height:.4f}",
             "30", "0.0", "0", "ENDSEC", "0", "SECTION", "2", "ENTITIES"]
    for outline in outlines:
        lines += ["0", "POLYLINE", "8", "CUT", "66", "1", "70", "1"]
        for x, y, bulge in outline:
            lines += ["0", "VERTEX", "8", "CUT", "10", f"{x:.4f}", "20", f"{height - y:.4f}"]
            if bulge:
                lines += ["42", f"{-bulge:.8f}"]
        lines += ["0", "SEQEND", "8", "CUT"]
    for x, y, r in circles:
        lines += ["0", "CIRCLE", "8", "CUT", "10", f"{x:.4f}", "20", f"{height - y:.4f}",
                  "40", f"{r:.4f}"]
    for x1, y1, x2, y2 in folds:
        lines += ["0", "LINE", "8", "FOLD", "10", f"{x1:.4f}", "20", f"{height - y1:.4f}",
                  "11", f"{x2:.4f}", "21", f"{height - y2:.4f}"]
    lines += ["0", "ENDSEC", "0", "EOF"]
    return "\n".join(lines) + "\n"


Circle = tuple[float, float, float]  # centre x, y on the page; radius


def circle_in(rect: Rect) -> Circle:
    """The largest circle `rect` holds, at its centre: a round piece's outline."""
    return (rect.x_mm + rect.width_mm / 2, rect.y_mm + rect.height_mm / 2,
            min(rect.width_mm, rect.height_mm) / 2)


def cut_svg(paper: Size, pieces: list[Rect], radius_mm: float, shape: str = "rect") -> str:
    """The cut file of a sheet of pieces as SVG: one closed path per piece, or one circle
    per round piece."""
    if shape == "round":
        return outlines_svg(paper, [], circles=[circle_in(r) for r in pieces])
    return outlines_svg(paper, [rounded_rect(r, radius_mm) for r in pieces])


def cut_dxf(paper: Size, pieces: list[Rect], radius_mm: float, shape: str = "rect") -> str:
    """The cut file of a sheet of pieces as DXF: one closed polyline per piece, or one
    CIRCLE per round piece."""
    if shape == "round":
        return outlines_dxf(paper, [], circles=[circle_in(r) for r in pieces])
    return outlines_dxf(paper, [rounded_rect(r, radius_mm) for r in pieces])


__all__ = ["Registration", "registration_marks", "keep_out", "cut_area", "rounded_rect",
           "circle_in", "outlines_svg", "outlines_dxf", "cut_svg", "cut_dxf", "svg_path"]
