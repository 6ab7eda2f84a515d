"""Drawn: a rendered SVG in; what it paints out, each mark with its box in millimetres.

The print-safety checks (pnp.render.safety, and the sheets' page checks) ask what a face or a
page prints and where: every text run with the size it is drawn at and the box its glyphs
take, every shape with its box and its paint. This reads the SVG the way the PDF stage will
draw it (transforms composed, viewBox scaled to the declared size, paint inherited from
groups) but draws nothing: boxes are measured with the game's fonts' advance widths, shapes
by their coordinates (a curve by its control points, which encloses it). Each mark keeps the
line of the rendered SVG it came from, so a finding can name the template line that wrote it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from xml.parsers import expat

from ..fonts import BUNDLED, FontTable, face_metrics, metrics

MM_PER_PT = 25.4 / 72
_UNITS_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72, "pc": 25.4 / 6,
             "px": 25.4 / 96, "": 25.4 / 96}
_LENGTH = re.compile(r"\s*(-?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([a-z]*)\s*")
_NUMBER = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")
_PATH_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|" + _NUMBER.pattern)
# What roles a template gives text that is not rules-bearing (data-role on the element or a
# group around it): credit lines and version stamps may print smaller (pnp.render.safety).
SMALL_ROLES = ("credit", "stamp")
STAMP_CLASS = "pnp-stamp"
# A glyph's ink, as a fraction of the font size, for overlap: capitals and digits stand about
# this high above the baseline in the bundled faces; descenders are left out, as they seldom
# carry meaning and often hang over a band on purpose.
CAP_HEIGHT = 0.72

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm, y down


@dataclass(frozen=True)
class Mark:
    """One thing the drawing paints: a text run or a shape."""

    kind: str  # text, rect, circle, ellipse, line, polyline, polygon, path, image
    box: Box  # what it covers on the face or page, mm (a stroke's half width included)
    line: int  # the rendered SVG's line the element starts on
    fill: str = ""  # the colour it is filled with ("" when none)
    stroke: str = ""  # the colour it is outlined with ("" when none)
    text: str = ""
    size_pt: float = 0.0  # a text's font size as printed
    ink: Box | None = None  # a text's capital-height box (for overlap)
    role: str = ""  # data-role of the element or the nearest group that has one
    fitted: bool = False  # drawn by text_box, which checks its own text at the data line
    order: int = 0  # drawing order
    family: str = ""  # a text's font-family, weight and style as the SVG asks for them
    weight: str = ""
    style: str = ""


def _length_mm(value: str | None) -> float | None:
    match = _LENGTH.fullmatch(value or "")
    if not match or match.group(2) not in _UNITS_MM:
        return None
    return float(match.group(1)) * _UNITS_MM[match.group(2)]


def _multiply(a: tuple, b: tuple) -> tuple:
    """The affine matrix a x b (b applied first), as SVG's (a, b, c, d, e, f)."""
    a0, a1, a2, a3, a4, a5 = a
    b0, b1, b2, b3, b4, b5 = b
    return (a0 * b0 + a2 * b1, a1 * b0 + a3 * b1, a0 * b2 + a2 * b3, a1 * b2 + a3 * b3,
            a0 * b4 + a2 * b5 + a4, a1 * b4 + a3 * b5 + a5)


IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def parse_transform(text: str) -> tuple:
    matrix = IDENTITY
    for name, args in _TRANSFORM.findall(text or ""):
        v = [float(n) for n in _NUMBER.findall(args)]
        if name == "matrix" and len(v) == 6:
            step = tuple(v)
        elif name == "translate" and v:
            step = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0)
        elif name == "scale" and v:
            step = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "rotate" and v:
            r = math.radians(v[0])
            step = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)
            if len(v) == 3:
                step = _multiply(_multiply((1, 0, 0, 1, v[1], v[2]), step),
                                 (1, 0, 0, 1, -v[1], -v[2]))
        elif name == "skewX" and v:
            step = (1, 0, math.tan(math.radians(v[0])), 1, 0, 0)
        elif name == "skewY" and v:
            step = (1, math.tan(math.radians(v[0])), 0, 1, 0, 0)
        else:
            continue
        matrix = _multiply(matrix, step)
    return matrix


def _apply(m: tuple, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _box_of(m: tuple, points) -> Box:
    moved = [_apply(m, x, y) for x, y in points]
    xs, ys = [p[0] for p in moved], [p[1] for p in moved]
    return min(xs), min(ys), max(xs), max(ys)


def _scale(m: tuple) -> float:
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def _num(attributes: dict, name: str, default: float = 0.0) -> float:
    value = attributes.get(name)
    if value is None:
        return default
    found = _NUMBER.match(value.strip())
    return float(found.group()) if found else default


def _path_points(d: str) -> list[tuple[float, float]]:
    """The end and control points of a path's segments (they enclose the curve)."""
    tokens = _PATH_TOKEN.findall(d or "")
    points: list[tuple[float, float]] = []
    x = y = start_x = start_y = 0.0
    command = ""
    i = 0
    counts = {"M": 2, "L": 2, "T": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "A": 7, "Z": 0}

    def numbers(n: int) -> list[float] | None:
        nonlocal i
        if i + n > len(tokens) or any(t.isalpha() for t in tokens[i:i + n]):
            return None
        values = [float(t) for t in tokens[i:i + n]]
        i += n
        return values

    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i]
            i += 1
            if command in "Zz":
                x, y = start_x, start_y
                continue
        if not command:
            break
        upper, relative = command.upper(), command.islower()
        values = numbers(counts[upper])
        if values is None:
            break
        ox, oy = (x, y) if relative else (0.0, 0.0)
        if upper == "H":
            x = values[0] + (x if relative else 0)
        elif upper == "V":
            y = values[0] + (y if relative else 0)
        elif upper == "A":
            ex, ey = values[5] + ox, values[6] + oy
            points += _arc_points(x, y, values, ex, ey)
            x, y = ex, ey
        else:
            pairs = [(values[k] + ox, values[k + 1] + oy) for k in range(0, len(values), 2)]
            points += pairs[:-1]
            x, y = pairs[-1]
        points.append((x, y))
        if upper == "M":
            start_x, start_y = x, y
            command = "l" if relative else "L"  # later pairs are lines
    return points


def _arc_points(x1: float, y1: float, values: list[float], x2: float, y2: float
                ) -> list[tuple[float, float]]:
    """Points along an SVG arc from (x1, y1) to (x2, y2) (SVG's endpoint to centre
    conversion, implementation notes F.6.5), close enough apart to give its box."""
    rx, ry, angle, large, sweep = abs(values[0]), abs(values[1]), values[2], values[3], values[4]
    if rx == 0 or ry == 0 or (x1, y1) == (x2, y2):
        return [(x2, y2)]
    phi = math.radians(angle)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    xp, yp = cos * dx + sin * dy, -sin * dx + cos * dy
    grow = (xp / rx) ** 2 + (yp / ry) ** 2
    if grow > 1:
        rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
    num = rx * rx * ry * ry - rx * rx * yp * yp - ry * ry * xp * xp
    den = rx * rx * yp * yp + ry * ry * xp * xp
    factor = math.sqrt(max(num, 0) / den) if den else 0.0
    if bool(large) == bool(sweep):
        factor = -factor
    cxp, cyp = factor * rx * yp / ry, -factor * ry * xp / rx
    cx = cos * cxp - sin * cyp + (x1 + x2) / 2
    cy = sin * cxp + cos * cyp + (y1 + y2) / 2
    start = math.atan2((yp - cyp) / ry, (xp - cxp) / rx)
    end = math.atan2((-yp - cyp) / ry, (-xp - cxp) / rx)
    span = end - start
    if sweep and span < 0:
        span += 2 * math.pi
    elif not sweep and span > 0:
        span -= 2 * math.pi
    points = []
    for k in range(1, 17):
        t = start + span * k / 16
        ux, uy = rx * math.cos(t), ry * math.sin(t)
        points.append((cos * ux - sin * uy + cx, sin * ux + cos * uy + cy))
    return points


def _paint(value: str | None) -> str:
    value = (value or "").strip().lower()
    return "" if value in ("", "none", "transparent") else value


def is_white(colour: str) -> bool:
    return colour in ("#fff", "#ffffff", "white", "rgb(255,255,255)")


def _text_metrics(fonts: FontTable, family: str, weight: str, style: str):
    """The metrics of the face that draws the text; the body's for a family the game has
    not got (the renderer reports it)."""
    face = fonts.drawing(family, weight, style)
    return face_metrics(face, fonts) if face is not None else metrics("body", fonts)


@lru_cache(maxsize=4096)
def marks_of(svg: str, fonts: FontTable = BUNDLED) -> tuple[Mark, ...]:
    """Everything `svg` paints, in drawing order, in mm from its root's top-left corner,
    text measured with `fonts`. An SVG that does not parse paints nothing here (the
    renderer reports it)."""
    parser = expat.ParserCreate()
    found: list[Mark] = []
    # Each open element's state: matrix, inherited attributes, and text gathered (for text).
    stack: list[dict] = []
    texts: list[dict] = []

    def start(name: str, attributes: dict[str, str]) -> None:
        parent = stack[-1] if stack else {"m": IDENTITY, "fill": "#000000", "stroke": "",
                                          "stroke-width": "1", "font-size": "16",
                                          "font-family": "", "font-weight": "normal",
                                          "font-style": "normal",
                                          "text-anchor": "start", "letter-spacing": "0",
                                          "role": "", "fitted": False, "hidden": False}
        state = dict(parent)
        matrix = parent["m"]
        if not stack and name == "svg":
            width, height = _length_mm(attributes.get("width")), _length_mm(attributes.get("height"))
            box = [float(v) for v in _NUMBER.findall(attributes.get("viewBox", ""))]
            if width and height and len(box) == 4 and box[2] and box[3]:
                matrix = _multiply((width / box[2], 0, 0, height / box[3], 0, 0),
                                   (1, 0, 0, 1, -box[0], -box[1]))
        if "transform" in attributes:
            matrix = _multiply(matrix, parse_transform(attributes["transform"]))
        state["m"] = matrix
        for key in ("fill", "stroke", "stroke-width", "font-size", "font-family", "font-weight",
                    "font-style", "text-anchor", "letter-spacing"):
            if key in attributes:
                state[key] = attributes[key]
        if attributes.get("data-role"):
            state["role"] = attributes["data-role"]
        if STAMP_CLASS in attributes.get("class", "").split():
            state["role"] = "stamp"
        if attributes.get("data-fit"):
            state["fitted"] = True
        if attributes.get("opacity") in ("0", "0.0") or attributes.get("display") == "none" \
                or name in ("defs", "clipPath", "mask", "symbol", "pattern"):
            state["hidden"] = True
        state["line"] = parser.CurrentLineNumber
        state["name"] = name
        stack.append(state)
        if name == "text":
            texts.append({"attributes": attributes, "chars": []})
        elif not state["hidden"]:
            _shape(name, attributes, state)

    def _shape(name: str, a: dict, state: dict) -> None:
        m = state["m"]
        if name == "rect":
            x, y, w, h = _num(a, "x"), _num(a, "y"), _num(a, "width"), _num(a, "height")
            points = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)]
        elif name == "circle":
            cx, cy, r = _num(a, "cx"), _num(a, "cy"), _num(a, "r")
            points = [(cx - r, cy - r), (cx + r, cy - r), (cx - r, cy + r), (cx + r, cy + r)]
        elif name == "ellipse":
            cx, cy, rx, ry = _num(a, "cx"), _num(a, "cy"), _num(a, "rx"), _num(a, "ry")
            points = [(cx - rx, cy - ry), (cx + rx, cy - ry), (cx - rx, cy + ry),
                      (cx + rx, cy + ry)]
        elif name == "line":
            points = [(_num(a, "x1"), _num(a, "y1")), (_num(a, "x2"), _num(a, "y2"))]
        elif name in ("polyline", "polygon"):
            values = [float(n) for n in _NUMBER.findall(a.get("points", ""))]
            points = list(zip(values[0::2], values[1::2]))
        elif name == "path":
            points = _path_points(a.get("d", ""))
        elif name == "image":
            x, y, w, h = _num(a, "x"), _num(a, "y"), _num(a, "width"), _num(a, "height")
            points = [(x, y), (x + w, y + h)]
        else:
            return
        if not points:
            return
        fill = "" if name == "line" else _paint(state["fill"])
        stroke = _paint(state["stroke"])
        if name == "image":
            fill = "image"
        if not fill and not stroke:
            return
        half = _num(state, "stroke-width", 1.0) / 2 if stroke else 0.0
        x0, y0, x1, y1 = _box_of(m, points)
        grow = half * _scale(m)
        found.append(Mark(name, (x0 - grow, y0 - grow, x1 + grow, y1 + grow), state["line"],
                          fill, stroke, role=state["role"], order=len(found)))

    def end(name: str) -> None:
        state = stack.pop()
        if name != "text" or not texts:
            return
        gathered = texts.pop()
        text = " ".join("".join(gathered["chars"]).split())
        if not text or state["hidden"]:
            return
        a, m = gathered["attributes"], state["m"]
        fill = _paint(state["fill"])
        if not fill:
            return
        size = _num(state, "font-size", 16.0)
        font = _text_metrics(fonts, state["font-family"], state["font-weight"],
                             state["font-style"])
        spacing = _num(state, "letter-spacing", 0.0)
        width = font.width_mm(text, size / MM_PER_PT) + spacing * max(len(text) - 1, 0)
        x, y = _num(a, "x"), _num(a, "y")
        left = {"middle": x - width / 2, "end": x - width}.get(state["text-anchor"], x)
        outline = _box_of(m, [(left, y - font.ascent * size), (left + width, y +
                                                                 font.descent * size)])
        ink = _box_of(m, [(left, y - CAP_HEIGHT * size), (left + width, y)])
        printed_mm = size * _scale(m)
        found.append(Mark("text", outline, state["line"], fill, "", text,
                          printed_mm / MM_PER_PT, ink, state["role"], state["fitted"],
                          len(found), state["font-family"], state["font-weight"],
                          state["font-style"]))

    def characters(data: str) -> None:
        if texts:
            texts[-1]["chars"].append(data)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    try:
        parser.Parse(svg, True)
    except expat.ExpatError:
        return ()
    return tuple(found)


def overlap(a: Box, b: Box) -> tuple[float, float]:
    """How far two boxes overlap across and down (<= 0: they do not)."""
    return min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])


def inside(inner: Box, outer: Box, slack: float = 0.0) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def moved(box: Box, dx: float, dy: float) -> Box:
    return box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy


__all__ = ["Mark", "marks_of", "overlap", "inside", "moved", "is_white", "SMALL_ROLES"]
