"""Printers: a printer profile (how far a printer shifts and scales the back of a sheet) in;
corrected backs pages, and a two-sided calibration sheet to measure it with, out.

A home printer seldom puts the back side exactly behind the front: it shifts it by a millimetre
or two and may scale it a little. `pnp calibrate` writes a two-page PDF: the front has crosshairs
at the centre and near the left and right edges, the back has a millimetre scale in x and y at
each of the same places, numbered so that what a person reads where the front's crosshair shows
through (hold the sheet to a light) is the correction to enter. `pnp calibrate --save NAME
--x X --y Y` writes `printers/NAME.yaml` in the project (pnp.project reads and writes those
files; nothing here does), and `pnp build --printer NAME` moves every backs page by that
correction.

Profile keys: `description`, `offset_x_mm`, `offset_y_mm` (how far to move the backs, as read on
the calibration sheet: + is right and down as the back page is seen), `scale` (1 = none: the
backs are scaled about the page centre, read from the left and right scales), and
`printable_margin_mm` (how close to the paper's edge the printer prints, when it does better
than the 5 mm a home layout keeps clear).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

from ..load.schema import bounded
from ..units import PAPER_LABELS, PAPERS, Rect, Size

CALIBRATION_REACH_MM = 10  # the back's scales read corrections up to this far either way
CROSS_INSET_MM = 25  # the side crosshairs stand this far in from the left and right edges


@dataclass(frozen=True)
class PrinterProfile:
    description: str = ""
    offset_x_mm: float = bounded(0.0, min=-CALIBRATION_REACH_MM, max=CALIBRATION_REACH_MM)
    offset_y_mm: float = bounded(0.0, min=-CALIBRATION_REACH_MM, max=CALIBRATION_REACH_MM)
    scale: float = bounded(1.0, min=0.9, max=1.1)
    # How close to the paper's edge this printer prints (mm): replaces the layout's
    # printable_margin_mm for the marks and the sheet's furniture. None: as the layout says.
    printable_margin_mm: float | None = bounded(None, min=0, max=20)
    name: str = ""


def profile_problem(profile: PrinterProfile) -> str | None:
    """Why `pnp build` would refuse this profile, in the words of its options, or None."""
    for each in fields(PrinterProfile):
        value = getattr(profile, each.name)
        low, high = each.metadata.get("min"), each.metadata.get("max")
        if (low is None and high is None) or value is None:  # None: as the layout says
            continue
        if not math.isfinite(value):
            return f"{each.name} is {value}, not a number"
        if value < low or value > high:
            return f"{each.name} {value:g} is outside {low:g} to {high:g}"
    return None


def scale_from_readings(left_x_mm: float, right_x_mm: float, paper: Size) -> float:
    """The backs' correction scale from the x readings at the left and right crosshairs.

    The crosshairs stand `paper_width - 2 * CROSS_INSET_MM` apart; if the back needs moving
    further right at the right crosshair than at the left one, the back is printed too small.
    """
    span = paper.width_mm - 2 * CROSS_INSET_MM
    return 1 + (right_x_mm - left_x_mm) / span


def apply_printer(plans: list, profile: PrinterProfile | None) -> list:
    """Every backs page corrected by the profile; the other pages as they were."""
    from .plans import PageTransform

    if profile is None:
        return plans
    move = PageTransform(profile.offset_x_mm, profile.offset_y_mm, profile.scale)
    return [replace(plan, transform=move) if plan.side == "back" else plan for plan in plans]


# -- the calibration sheet ------------------------------------------------------------------


def calibration_points(paper: Size) -> list[tuple[str, float, float]]:
    """Where the crosshairs stand on the front: name, x, y (mm from the top-left)."""
    cy = paper.height_mm / 2
    return [("left", CROSS_INSET_MM, cy), ("centre", paper.width_mm / 2, cy),
            ("right", paper.width_mm - CROSS_INSET_MM, cy),
            ("top", paper.width_mm / 2, 40), ("bottom", paper.width_mm / 2,
                                                paper.height_mm - 40)]


def _svg(paper: Size, body: str) -> str:
    w, h = f"{paper.width_mm:g}", f"{paper.height_mm:g}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
            f'viewBox="0 0 {w} {h}">{body}</svg>')


_FONT = 'font-family="Roboto Condensed" font-weight="400"'


def calibration_front(paper: Size, paper_name: str, duplex: str) -> str:
    parts = []
    for name, x, y in calibration_points(paper):
        parts.append(
            f'<g stroke="#000000" stroke-width="0.15" data-point="{name}">'
            f'<line x1="{x - 6}" y1="{y}" x2="{x + 6}" y2="{y}"/>'
            f'<line x1="{x}" y1="{y - 6}" x2="{x}" y2="{y + 6}"/>'
            f'<circle cx="{x}" cy="{y}" r="2" fill="none"/></g>'
            f'<text x="{x + 1.2}" y="{y - 7.5}" {_FONT} font-size="2.4">{name}</text>')
    edge = "long" if duplex == "long-edge" else "short"
    lines = [
        "pnp printer calibration: front",
        f"Print both pages double-sided on {paper_name}, at 100% (Actual size), "
        f"flipping on the {edge} edge.",
        "Hold the sheet to a light, back side towards you. At each crosshair, read the",
        "numbers on the back's scales where the crosshair's centre shows through.",
        "Then: pnp calibrate --save NAME --x X --y Y (the centre readings),",
        "with --left-x and --right-x as well to correct the scale.",
    ]
    for i, text in enumerate(lines):
        weight = "700" if i == 0 else "400"
        parts.append(f'<text x="{paper.width_mm / 2}" y="{60 + i * 5}" text-anchor="middle" '
                     f'font-family="Roboto Condensed" font-weight="{weight}" font-size="3">'
                     f'{text}</text>')
    return _svg(paper, "".join(parts))


def calibration_back(paper: Size, duplex: str) -> str:
    """Scales behind each crosshair: a mark at value v stands where the front's crosshair shows
    when the back must move by v (+ right and down, as the back page is seen)."""
    from .impose import flip

    parts = []
    reach = CALIBRATION_REACH_MM
    for name, x, y in calibration_points(paper):
        spot = flip(Rect(x, y, 0, 0), paper, duplex)
        bx, by = spot.x_mm, spot.y_mm
        ticks = []
        for v in range(-reach, reach + 1):
            # A printer that puts the back 2 mm too far right prints the tick for -2 where the
            # front's crosshair shows: the reading is the correction, -2.
            long = v % 5 == 0
            size = 2.2 if long else 1.2
            ticks.append(f'<line x1="{bx + v}" y1="{by + 3}" x2="{bx + v}" y2="{by + 3 + size}"/>')
            ticks.append(f'<line x1="{bx + 3}" y1="{by + v}" x2="{bx + 3 + size}" y2="{by + v}"/>')
            if long:
                label = f"{v:+d}" if v else "0"
                ticks.append(f'<text x="{bx + v}" y="{by + 8}" text-anchor="middle" {_FONT} '
                             f'font-size="2.2" stroke="none">{label}</text>')
                ticks.append(f'<text x="{bx + 6.2}" y="{by + v + 0.6}" {_FONT} font-size="2.2" '
                             f'stroke="none">{label}</text>')
        parts.append(f'<g stroke="#000000" stroke-width="0.12" data-point="{name}">'
                     f'{"".join(ticks)}</g>'
                     f'<text x="{bx - 10}" y="{by - 3}" {_FONT} font-size="2.2">{name}: x</text>'
                     f'<text x="{bx + 3}" y="{by - 11.5}" {_FONT} font-size="2.2">y</text>')
    parts.append(f'<text x="{paper.width_mm / 2}" y="{paper.height_mm - 15}" '
                 f'text-anchor="middle" {_FONT} font-size="3">pnp printer calibration: back. '
                 'Read x on the horizontal scale, y on the vertical one.</text>')
    return _svg(paper, "".join(parts))


def calibration_plans(paper_name: str, duplex: str = "long-edge"):
    """The calibration sheet as page plans for `render_pdf`."""
    from .plans import PagePlan

    paper = PAPERS[paper_name]
    whole = Rect(0, 0, *paper)
    label = PAPER_LABELS.get(paper_name, paper_name)
    return [PagePlan(paper, whole, calibration_front(paper, label, duplex), (), side="front"),
            PagePlan(paper, whole, calibration_back(paper, duplex), (), side="back")]
