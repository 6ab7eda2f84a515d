"""SVG tree: a rendered SVG text in; its elements, each with its line, and the properties
cairosvg gives them, out; with the geometry the checks measure them by (lengths, transforms,
viewports, the points of a path, boxes in mm).

The print-safety checks (pnp.render.drawn) must read a face as cairosvg draws it, without
loading cairo (only pnp.pdf does). These are the parts of cairosvg's reading they follow
(cairosvg.parser.Node, cairosvg.helpers.size), so a face written by hand and one pasted from
Inkscape read alike:

- an element's properties: those of its parent (all but the few SVG does not inherit), then its
  own attributes, then its `style="..."` declarations (CSS's own grammar, through tinycss2 as
  cairosvg reads them; `!important` ones last), a value `inherit` taken from the parent and
  `currentColor` from `color`;
- a length: a plain number is a user unit; px, pt, pc, mm, cm and in at 96 px to the inch;
  em, ex and ch from the font size; a percentage of the viewport; anything else 0, as
  cairosvg draws it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from xml.parsers import expat

import tinycss2

from ..units import MM_PER_INCH, SVG_MM_PER_UNIT

PX_PER_INCH = 96  # a CSS pixel, as cairosvg draws (pnp.pdf.draw gives it 96 dpi)

# What an element does not take from its parent (cairosvg.parser.NOT_INHERITED_ATTRIBUTES).
NOT_INHERITED = frozenset((
    "clip", "clip-path", "display", "filter", "height", "id", "mask", "opacity", "overflow",
    "rotate", "stop-color", "stop-opacity", "style", "transform", "transform-origin",
    "viewBox", "width", "x", "y", "dx", "dy", "xlink:href", "href"))
_COLOURS = ("fill", "flood-color", "lighting-color", "stop-color", "stroke")
# Declarations whose value keeps its case (cairosvg.parser.CASE_SENSITIVE_STYLE_METHODS).
_CASED = frozenset(("id", "class", "font-family", "font"))
_URL_CASED = frozenset(("clip-path", "color-profile", "cursor", "fill", "filter",
                        "marker-start", "marker-mid", "marker-end", "mask", "stroke"))
_URL = re.compile(r"url\([^)]*\)", re.IGNORECASE)

_LENGTH = re.compile(r"\s*(-?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([a-z]*)\s*")
_NUMBER = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_PATH_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|" + _NUMBER.pattern)
_MATRIX = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")


Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm, y down


@dataclass(slots=True)
class Element:
    """One element as written: its name (without an `svg:` prefix), attributes, the line it
    starts on, its children, and the text inside it before its first child and after it
    (its tail)."""

    tag: str
    attributes: dict[str, str]
    line: int
    children: list["Element"] = field(default_factory=list)
    text: str = ""
    tail: str = ""


@dataclass(frozen=True)
class Tree:
    """A parsed SVG: its root and each id's element (the first with it, as cairosvg finds)."""

    root: Element
    ids: dict[str, Element]


class Unparsed(ValueError):
    """XML the drawing cannot parse either; `line` is where."""

    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


def parse_tree(svg: str) -> Tree:
    """The elements of `svg`. Names keep their prefixes (`xlink:href`, `xml:space`,
    `inkscape:label`): an element of another namespace draws nothing, as in cairosvg."""
    parser = expat.ParserCreate()
    stack: list[Element] = []
    ids: dict[str, Element] = {}
    top: list[Element] = []

    def start(name: str, attributes: dict[str, str]) -> None:
        element = Element(name[4:] if name.startswith("svg:") else name, attributes,
                          parser.CurrentLineNumber)
        if stack:
            stack[-1].children.append(element)
        else:
            top.append(element)
        own = element.attributes.get("id")
        if own is not None and own not in ids:
            ids[own] = element
        stack.append(element)

    def end(name: str) -> None:
        stack.pop()

    def characters(data: str) -> None:
        if not stack:
            return
        holder = stack[-1]
        if holder.children:
            holder.children[-1].tail += data
        else:
            holder.text += data

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler = characters
    try:
        parser.Parse(svg, True)
    except expat.ExpatError as exc:
        raise Unparsed(str(exc).split(":")[0], exc.lineno) from None
    return Tree(top[0], ids)


def declarations(style: str) -> list[tuple[str, str]]:
    """A `style` attribute's declarations in the order they apply: the normal ones, then
    the `!important` ones, names lower-cased, values as cairosvg keeps them."""
    normal, important = [], []
    for declaration in tinycss2.parse_declaration_list(style):
        if declaration.type != "declaration" or declaration.name.startswith("-"):
            continue
        name = declaration.lower_name
        value = tinycss2.serialize(declaration.value).strip()
        (important if declaration.important else normal).append((name, _cased(name, value)))
    return normal + important


def _cased(name: str, value: str) -> str:
    if name in _CASED:
        return value
    if name in _URL_CASED and "url(" in value.lower():
        kept = _URL.findall(value)
        return _URL.sub(lambda _: kept.pop(0), value.lower()) if kept else value.lower()
    return value.lower()


def cascade(parent: dict[str, str] | None, element: Element) -> dict[str, str]:
    """The properties `element` is drawn with (cairosvg.parser.Node)."""
    props = dict(parent) if parent else {}
    for name in NOT_INHERITED.intersection(props):
        del props[name]
    props.update(element.attributes)
    style = element.attributes.get("style")
    if style:
        props.update(declarations(style))
    values = props.values()
    if "currentColor" in values:
        for name in _COLOURS:
            if props.get(name) == "currentColor":
                props[name] = props.get("color", "black")
    if "inherit" in values:
        for name in [name for name, value in props.items() if value == "inherit"]:
            if parent is not None and name in parent:
                props[name] = parent[name]
            else:
                del props[name]
    return props


def size(value: str | None, font_size: float = 16.0, reference: float = 0.0) -> float:
    """A length in user units, as cairosvg.helpers.size reads it; `reference` is what 100%
    is."""
    if not value:
        return 0.0
    try:
        return float(value)
    except ValueError:
        pass
    first = _normalize(value).split(" ", 1)[0]
    try:
        if first.endswith("%"):
            return float(first[:-1]) * reference / 100
        if first.endswith("em"):
            return font_size * float(first[:-2])
        if first.endswith(("ex", "ch")):
            return font_size * float(first[:-2]) / 2
        for unit, mm in SVG_MM_PER_UNIT.items():
            if first.endswith(unit):
                return float(first[:-len(unit)]) * mm * PX_PER_INCH / MM_PER_INCH
    except ValueError:
        return 0.0
    return 0.0


def sizes(value: str | None, font_size: float = 16.0, reference: float = 0.0) -> list[float]:
    """A list of lengths (a text's x, y, dx, dy)."""
    if not value:
        return []
    try:
        return [float(value)]
    except ValueError:
        pass
    return [size(v, font_size, reference) for v in _normalize(value).split(" ") if v]


def _normalize(text: str) -> str:
    """cairosvg.helpers.normalize: numbers in a list, one space apart."""
    text = text.replace("E", "e")
    text = re.sub("(?<!e)-", " -", text)
    text = re.sub("[ \n\r\t,]+", " ", text)
    text = re.sub(r"(\.[0-9-]+)(?=\.)", r"\1 ", text)
    return text.strip()


def numbers(text: str) -> list[float]:
    return [float(n) for n in _NUMBER.findall(text or "")]


def multiply(a: tuple, b: tuple) -> tuple:
    """The affine matrix a x b (b applied first), as SVG's (a, b, c, d, e, f)."""
    a0, a1, a2, a3, a4, a5 = a
    b0, b1, b2, b3, b4, b5 = b
    return (a0 * b0 + a2 * b1, a1 * b0 + a3 * b1, a0 * b2 + a2 * b3, a1 * b2 + a3 * b3,
            a0 * b4 + a2 * b5 + a4, a1 * b4 + a3 * b5 + a5)


IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def parse_transform(text: str) -> tuple:
    matrix = IDENTITY
    for name, args in _MATRIX.findall(text or ""):
        v = numbers(args)
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
                step = multiply(multiply((1, 0, 0, 1, v[1], v[2]), step),
                                (1, 0, 0, 1, -v[1], -v[2]))
        elif name == "skewX" and v:
            step = (1, 0, math.tan(math.radians(v[0])), 1, 0, 0)
        elif name == "skewY" and v:
            step = (1, math.tan(math.radians(v[0])), 0, 1, 0, 0)
        else:
            continue
        matrix = multiply(matrix, step)
    return matrix


def length_mm(value: str | None) -> float | None:
    match = _LENGTH.fullmatch(value or "")
    unit = match.group(2) if match else None
    if unit is None or (unit and unit not in SVG_MM_PER_UNIT):
        return None
    return float(match.group(1)) * SVG_MM_PER_UNIT[unit or "px"]


def apply(m: tuple, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def box_of(m: tuple, points) -> Box:
    moved = [apply(m, x, y) for x, y in points]
    xs, ys = [p[0] for p in moved], [p[1] for p in moved]
    return min(xs), min(ys), max(xs), max(ys)


def cut(box: Box, clip: Box) -> Box | None:
    """What of `box` lies within `clip` (None: nothing)."""
    cut = (max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]),
           min(box[3], clip[3]))
    return cut if cut[0] < cut[2] and cut[1] < cut[3] else None


def scale_of(m: tuple) -> float:
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))




def viewport(width: float, height: float, box: list[float], aspect: str | None
             ) -> tuple[float, float, float, float]:
    """Scale x, scale y and the translation (in the scaled units) that fit a viewBox `box`
    into `width` x `height` (cairosvg.helpers.preserve_ratio)."""
    box_w, box_h = (box[2], box[3]) if len(box) == 4 else (width, height)
    scale_x = width / box_w if box_w > 0 else 1
    scale_y = height / box_h if box_h > 0 else 1
    words = (aspect or "xMidYMid").split()
    align = words[0] if words else "xMidYMid"
    if align == "none":
        return scale_x, scale_y, 0.0, 0.0
    scale = max(scale_x, scale_y) if len(words) > 1 and words[1] == "slice" \
        else min(scale_x, scale_y)
    at_x, at_y = align[1:4].lower(), align[5:].lower()
    shift_x = {"mid": (width / scale - box_w) / 2, "max": width / scale - box_w}.get(at_x, 0.0)
    shift_y = {"mid": (height / scale - box_h) / 2,
               "max": height / scale - box_h}.get(at_y, 0.0)
    return scale, scale, shift_x, shift_y


def path_points(d: str) -> list[tuple[float, float]]:
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
