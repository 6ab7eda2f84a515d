"""Cutting machines: a sheet's pieces, the paper and a layout's registration in; registration
marks and cut files out.

Print-then-cut: the printer prints the sheet with registration marks, the cutting machine's
optical eye finds the marks, and it cuts the path of the cut file, drawn in the same page
coordinates (millimetres from the top-left of the page, y down). Each piece is one closed path
round its trim, its corners rounded by the deck's `corner_radius_mm`.

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


def outline(rect: Rect, radius_mm: float) -> list[tuple[str, tuple[float, ...]]]:
    """A closed path round `rect`, clockwise from the top edge, corners rounded by
    `radius_mm` (at most half the shorter side): ("line", (x, y)) and ("arc", (x, y)) steps
    after a ("move", (x, y))."""
    r = max(0.0, min(radius_mm, rect.width_mm / 2, rect.height_mm / 2))
    x0, y0, x1, y1 = rect.x_mm, rect.y_mm, rect.right_mm, rect.bottom_mm
    if r == 0:
        return [("move", (x0, y0)), ("line", (x1, y0)), ("line", (x1, y1)), ("line", (x0, y1)),
                ("close", ())]
    return [("move", (x0 + r, y0)), ("line", (x1 - r, y0)), ("arc", (x1, y0 + r)),
            ("line", (x1, y1 - r)), ("arc", (x1 - r, y1)), ("line", (x0 + r, y1)),
            ("arc", (x0, y1 - r)), ("line", (x0, y0 + r)), ("arc", (x0 + r, y0)), ("close", ())]


def cut_svg(paper: Size, pieces: list[Rect], radius_mm: float) -> str:
    """The cut file as SVG: one closed path per piece, in the page's coordinates."""
    paths = []
    for rect in pieces:
        r = max(0.0, min(radius_mm, rect.width_mm / 2, rect.height_mm / 2))
        d = []
        for kind, point in outline(rect, radius_mm):
            if kind == "move":
                d.append(f"M {point[0]:.4f} {point[1]:.4f}")
            elif kind == "line":
                d.append(f"L {point[0]:.4f} {point[1]:.4f}")
            elif kind == "arc":  # a quarter circle, clockwise on the page (y down)
                d.append(f"A {r:.4f} {r:.4f} 0 0 1 {point[0]:.4f} {point[1]:.4f}")
            else:
                d.append("Z")
        paths.append(f'<path d="{" ".join(d)}"/>')
    w, h = f"{paper.width_mm:g}", f"{paper.height_mm:g}"
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
            f'viewBox="0 0 {w} {h}">\n<g fill="none" stroke="#ff0000" stroke-width="0.1">\n'
            + "\n".join(paths) + "\n</g>\n</svg>\n")


# A quarter circle as a DXF polyline bulge: tan(90 degrees / 4), negative when clockwise.
_QUARTER_BULGE = math.tan(math.pi / 8)


def cut_dxf(paper: Size, pieces: list[Rect], radius_mm: float) -> str:
    """The cut file as DXF R12: one closed POLYLINE per piece, its rounded corners as bulges,
    in millimetres from the page's bottom-left (DXF's y runs up)."""
    lines = ["0", "SECTION", "2", "HEADER", "9", "$ACADVER", "1", "AC1009",
             "9", "$INSUNITS", "70", "4",  # millimetres
             "9", "$EXTMIN", "10", "0.0", "20", "0.0", "30", "0.0",
             "9", "$EXTMAX", "10", f"{paper.width_mm:.4f}", "20", f"{paper.height_mm:.4f}",
             "30", "0.0", "0", "ENDSEC", "0", "SECTION", "2", "ENTITIES"]
    for rect in pieces:
        steps = outline(rect, radius_mm)
        vertices = []  # (x, y, bulge of the segment that starts here)
        for (kind, point), (after, _) in zip(steps, steps[1:] + [("close", ())]):
            if kind in ("move", "line", "arc") and point:
                # the outline runs clockwise as the page is seen, in DXF as on paper: bulges < 0
                vertices.append((point[0], paper.height_mm - point[1],
                                 -_QUARTER_BULGE if after == "arc" else 0.0))
        if vertices[0][:2] == vertices[-1][:2]:
            vertices.pop()  # the closing vertex: the polyline is closed by its flag
        lines += ["0", "POLYLINE", "8", "CUT", "66", "1", "70", "1"]
        for x, y, bulge in vertices:
            lines += ["0", "VERTEX", "8", "CUT", "10", f"{x:.4f}", "20", f"{y:.4f}"]
            if bulge:
                lines += ["42", f"{bulge:.8f}"]
        lines += ["0", "SEQEND", "8", "CUT"]
    lines += ["0", "ENDSEC", "0", "EOF"]
    return "\n".join(lines) + "\n"


__all__ = ["Registration", "registration_marks", "keep_out", "cut_area", "outline", "cut_svg",
           "cut_dxf"]
