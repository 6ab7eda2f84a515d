"""Print safety: a rendered face (or page) in; what would print badly out, as problems with the
rendered SVG line that drew them.

What a home printer or a cutter does to a print, checked on what a template draws, fixed text
and data text alike:

- text size as printed: rules-bearing text at least MIN_TEXT_PT; credit lines and version
  stamps at least MIN_SMALL_PT. A template marks them `data-role="credit"` or
  `data-role="stamp"` on the text or a group around it (`text_box(..., role="credit")` for a
  fitted one); the face's own stamp and the game's attribution are known by their words;
- a face's edge: a face that paints up to its trim must paint on into its bleed, or a cut
  that wanders shows a white sliver;
- fixed text that runs off its piece, crosses the outline of a frame or a badge it is partly
  on, or is drawn over other text;
- on a page printed at home (a sheet's margins, a whole-page sheet, a board's tile), anything
  drawn within its printable margin of the paper's edge;
- what the checks cannot read as cairosvg draws it (pnp.render.drawn: CSS in a `<style>`
  element, the `font` shorthand, a `<use>` of another file, text on a path, markers, ...):
  a warning at its line rather than a check passed on a guess.

The renderer turns each problem into a finding at the template line that drew it; text drawn
by `text_box` is checked there, at its data line, and is only a party to overlaps here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..fonts import BUNDLED, FontTable
from .drawn import Box, Mark, SMALL_ROLES, Unread, inside, is_white, overlap, read_drawing

MIN_TEXT_PT = 6.0  # below this, rules text is hard to read on a home print
MIN_SMALL_PT = 5.0  # credit lines, stamps and footers: read once, may be smaller
EDGE_TOUCH_MM = 0.05  # paint this close to the trim reaches the edge
PATTERN_MM = 6.0  # paint shorter than this along every edge it touches is a pattern's piece
OVERLAP_MM = 0.3  # glyph boxes overlapping less than this both ways are left alone
SMALL_ROLE_NAMES = SMALL_ROLES


@dataclass(frozen=True)
class Problem:
    rule: str
    line: int  # the rendered SVG's line
    message: str
    hint: str


def text_size_problems(marks: tuple[Mark, ...], known: dict[str, str] | None = None
                       ) -> list[Problem]:
    """Text printed smaller than its kind may be; `known` gives the role of texts known
    by their words (the face's stamp, the game's credit line)."""
    problems = []
    known = {text: role for text, role in (known or {}).items() if text}
    for mark in marks:
        if mark.kind != "text" or mark.fitted:
            continue
        role = mark.role or known.get(mark.text, "")
        small = role in SMALL_ROLE_NAMES
        least = MIN_SMALL_PT if small else MIN_TEXT_PT
        if mark.size_pt < least - 0.005:
            kind = f"{role} text" if small else "text"
            problems.append(Problem(
                "print-text-size", mark.line,
                f"{kind} '{_short(mark.text)}' prints at {mark.size_pt:.2f} pt, under "
                f"{least:g} pt", f"set it at least {least:g} pt ({least * 25.4 / 72:.2f} mm)"
                + ("" if small else "; a credit line or stamp may be 5 pt if marked "
                   "data-role=\"credit\" or \"stamp\"")))
    return problems


def bleed_problems(marks: tuple[Mark, ...], width_mm: float, height_mm: float,
                   bleed_mm: float) -> list[Problem]:
    """Paint that reaches an edge of the piece but stops short of the bleed there."""
    if bleed_mm <= 0:
        return []
    problems = []
    reported: set[int] = set()
    for mark in marks:
        if mark.kind == "text" or not mark.fill or is_white(mark.fill) or mark.line in reported:
            continue
        x0, y0, x1, y1 = mark.box
        # A pattern's small pieces crossing the trim are the pattern going on, not an edge
        # colour: only paint that runs along the edge for a while counts.
        along_x, along_y = min(x1, width_mm) - max(x0, 0), min(y1, height_mm) - max(y0, 0)
        if max(along_x, along_y) < PATTERN_MM:
            continue
        sides = []
        if x0 <= EDGE_TOUCH_MM and x0 > -bleed_mm + 0.01 and y1 > 0 and y0 < height_mm:
            sides.append(("left", x0))
        if x1 >= width_mm - EDGE_TOUCH_MM and x1 < width_mm + bleed_mm - 0.01 and y1 > 0 \
                and y0 < height_mm:
            sides.append(("right", width_mm - x1))
        if y0 <= EDGE_TOUCH_MM and y0 > -bleed_mm + 0.01 and x1 > 0 and x0 < width_mm:
            sides.append(("top", y0))
        if y1 >= height_mm - EDGE_TOUCH_MM and y1 < height_mm + bleed_mm - 0.01 and x1 > 0 \
                and x0 < width_mm:
            sides.append(("bottom", height_mm - y1))
        if sides:
            reported.add(mark.line)
            names = ", ".join(side for side, _ in sides)
            past = max(-beyond for _, beyond in sides)
            past = max(past, 0.0) or 0.0  # never "-0.00"
            problems.append(Problem(
                "print-bleed", mark.line,
                f"a {mark.kind} painted {mark.fill} reaches the {names} edge of the "
                f"{width_mm:g} x {height_mm:g} mm piece but stops {past:.2f} mm past "
                f"it, short of the {bleed_mm:g} mm bleed", "draw it on past the trim by the "
                "bleed (a cut that wanders then shows colour, not white)"))
    return problems


def text_place_problems(marks: tuple[Mark, ...], width_mm: float, height_mm: float
                        ) -> list[Problem]:
    """Fixed text off its piece, across a frame or badge it is partly on, or over other text."""
    problems = []
    piece: Box = (0.0, 0.0, width_mm, height_mm)
    texts = [m for m in marks if m.kind == "text" and m.ink]
    for mark in texts:
        if mark.fitted:
            continue
        ink = mark.ink
        if not inside(ink, piece, 0.01):
            problems.append(Problem(
                "print-text-overflow", mark.line,
                f"text '{_short(mark.text)}' runs off the {width_mm:g} x {height_mm:g} mm "
                "piece", "shorten it, set it smaller or move it inside the piece"))
            continue
        # What the text stands on: the last filled shape before it that holds it whole.
        # Shapes drawn before that one are hidden under it; shapes drawn after the text
        # are not what it is written on.
        ground = max((m.order for m in marks if m.order < mark.order and m.kind != "text"
                      and m.fill and inside(ink, m.box, 0.01)), default=-1)
        ground_fill = marks[ground].fill if ground >= 0 else ""
        for shape in marks:
            if shape.kind in ("text", "line", "image") or not \
                    ground < shape.order < mark.order:
                continue
            if shape.kind in ("path", "polyline", "polygon") and not shape.fill:
                continue  # a drawn line: its box says little of where it runs
            if shape.fill == ground_fill and not shape.stroke:
                continue  # more of the same ground: no edge shows
            across, down = overlap(ink, shape.box)
            if across <= OVERLAP_MM or down <= OVERLAP_MM or _big(shape.box, piece):
                continue
            if inside(ink, shape.box, 0.01) or inside(shape.box, ink, 0.01):
                continue
            # Partly on the shape: past its outline by more than a hair on some side.
            out = max(shape.box[0] - ink[0], ink[2] - shape.box[2], shape.box[1] - ink[1],
                      ink[3] - shape.box[3])
            if out <= OVERLAP_MM:
                continue
            what = "frame" if shape.stroke and not shape.fill else "badge" \
                if shape.fill else "outline"
            problems.append(Problem(
                "print-text-overflow", mark.line,
                f"text '{_short(mark.text)}' runs {out:.1f} mm over the edge of a "
                f"{shape.kind} {what} (line {shape.line} of the drawing)",
                "shorten it, set it smaller or move it clear of the shape"))
            break
    for i, first in enumerate(texts):
        for second in texts[i + 1:]:
            if first.fitted and second.fitted:
                continue  # text_box text does not overlap itself
            across, down = overlap(first.ink, second.ink)
            if across > OVERLAP_MM and down > OVERLAP_MM:
                later = second if not second.fitted else first
                other = first if later is second else second
                problems.append(Problem(
                    "print-text-overlap", later.line,
                    f"text '{_short(later.text)}' is drawn over '{_short(other.text)}'",
                    "move one of them, or shorten it"))
    return problems


def edge_problems(marks: tuple[Mark, ...], width_mm: float, height_mm: float,
                  edge_mm: float) -> list[Problem]:
    """Anything drawn closer than `edge_mm` to the edge of a page most home printers leave
    blank there (once per drawing line)."""
    problems = []
    seen: set[int] = set()
    for mark in marks:
        if mark.line in seen or (mark.fill and is_white(mark.fill) and not mark.stroke):
            continue
        x0, y0, x1, y1 = mark.box
        gap = min(x0, y0, width_mm - x1, height_mm - y1)
        if gap < edge_mm - 0.01:
            seen.add(mark.line)
            what = f"text '{_short(mark.text)}'" if mark.kind == "text" else \
                f"a {mark.role or mark.kind}" if mark.role else f"a {mark.kind}"
            problems.append(Problem(
                "print-edge", mark.line,
                f"{what} comes {max(gap, 0):.1f} mm from the edge of the {width_mm:g} x "
                f"{height_mm:g} mm page, inside the {edge_mm:g} mm most home printers leave "
                "blank", "keep it further in, or give the layout (or the printer profile) a "
                "smaller printable_margin_mm if the printer prints closer"))
    return problems


def unread_problems(unread: tuple[Unread, ...]) -> list[Problem]:
    """What the drawing does that the checks cannot read: nothing it draws there is checked."""
    return [Problem("print-svg-unread", each.line,
                    f"the print-safety checks cannot read {each.what}, so what it draws is "
                    "not checked (text size, bleed, overlaps)",
                    "write it as the checks read it: presentation attributes or style= with "
                    "font-size, font-family, fill, stroke..., <use> of an element in this "
                    "face, plain <text> and <tspan>") for each in unread]


def _big(box: Box, piece: Box) -> bool:
    """A background: a shape covering most of the piece both ways is not a frame for text."""
    return (box[2] - box[0]) >= 0.9 * (piece[2] - piece[0]) and \
        (box[3] - box[1]) >= 0.9 * (piece[3] - piece[1])


def face_problems(svg: str, width_mm: float, height_mm: float, bleed_mm: float = 0.0,
                  known: dict[str, str] | None = None, placement: bool = True,
                  edge_mm: float | None = None, fonts: FontTable = BUNDLED) -> list[Problem]:
    """Every print-safety problem of one face; `bleed_mm` is the bleed it must paint into
    where it paints its edge (0: none checked); `known` names the roles of texts known by
    their words (its stamp, the credit line); `edge_mm`, for a page printed at home, is the
    margin kept blank; `placement` checks where its fixed text
    lies."""
    drawing = read_drawing(svg, fonts)
    marks = drawing.marks
    problems = unread_problems(drawing.unread)
    problems += text_size_problems(marks, known)
    problems += bleed_problems(marks, width_mm, height_mm, bleed_mm)
    if placement:
        problems += text_place_problems(marks, width_mm, height_mm)
    if edge_mm:
        problems += edge_problems(marks, width_mm, height_mm, edge_mm)
    return problems


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


__all__ = ["Problem", "face_problems", "MIN_TEXT_PT", "MIN_SMALL_PT"]
