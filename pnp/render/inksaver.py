"""Ink-saver: a rendered face (SVG text) in; the same face drawn with much less ink out.

It works on any template, with no markup: every large filled area (a full-bleed background, a
panel, a patterned frame: a shape, or a group of shapes sharing a fill, covering at least
LARGE_SHARE of the face) is lightened to a tint that keeps INK_KEPT of its ink, so it still
shows where it was and in its hue. Text, thin lines (strokes) and small fills (icons, colour
chips, symbols) are kept as they are: they carry the information. A light text (white on a
dark panel) would vanish on the lightened panel, so it is printed in the panel's own colour
instead. Gradients are lightened like large fills.

Templates may still say more, and these marks are applied first:

- `data-ink="decoration"` on an element: the ink-saver build leaves it (and what it holds) out;
- `data-ink-fill="#rrggbb"` (or `none`) / `data-ink-stroke="#rrggbb"`: the colour to use
  instead, for the element and every filled (stroked) element inside it;
- `data-ink="outline"`: the element keeps its shape as a thin outline in its own fill colour.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

SVG_NS = "http://www.w3.org/2000/svg"
OUTLINE_WIDTH_MM = 0.3
LARGE_SHARE = 0.03  # a fill covering this share of the face or more is lightened
INK_KEPT = 0.18  # a lightened fill keeps this share of its ink (of 1 - its luminance)
LIGHT = 0.6  # a text this light (relative luminance) is printed dark instead
_MARKED = re.compile(r"\bdata-ink(?:-fill|-stroke)?=")
_HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_NAMED = {"white": "#ffffff", "black": "#000000"}
_SHAPES = {"rect", "circle", "ellipse", "path", "polygon"}
_TEXT = {"text", "tspan", "textPath"}


def save_ink(svg: str) -> str:
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        return svg
    if _MARKED.search(svg):
        _prune(root)
    face = _face_area(root)
    if face:
        _lighten(root, face)
    return ET.tostring(root, encoding="unicode")


def _local(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _rgb(colour: str | None) -> tuple[int, int, int] | None:
    colour = _NAMED.get((colour or "").strip().lower(), (colour or "").strip())
    match = _HEX.match(colour)
    if not match:
        return None
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def _luminance(rgb: tuple[int, int, int]) -> float:
    return (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255


def _tint(rgb: tuple[int, int, int]) -> str:
    """The colour with INK_KEPT of its ink: the same hue, mixed with the paper's white."""
    return "#" + "".join(f"{round(255 - (255 - c) * INK_KEPT):02x}" for c in rgb)


def _number(value: str | None) -> float:
    try:
        return float(re.sub(r"[a-z%]+$", "", (value or "0").strip()))
    except ValueError:
        return 0.0


def _face_area(root: ET.Element) -> float:
    box = (root.get("viewBox") or "").replace(",", " ").split()
    if len(box) == 4:
        return abs(float(box[2]) * float(box[3]))
    return _number(root.get("width")) * _number(root.get("height"))


def _bounds(element: ET.Element) -> tuple[float, float, float, float] | None:
    """A shape's bounds (x0, y0, x1, y1) in its own units; None for a path whose bounds are
    not known without walking it (relative steps)."""
    kind, get = _local(element), element.get
    if kind == "rect":
        x, y = _number(get("x")), _number(get("y"))
        return x, y, x + _number(get("width")), y + _number(get("height"))
    if kind in ("circle", "ellipse"):
        cx, cy = _number(get("cx")), _number(get("cy"))
        rx = _number(get("r")) if kind == "circle" else _number(get("rx"))
        ry = _number(get("r")) if kind == "circle" else _number(get("ry"))
        return cx - rx, cy - ry, cx + rx, cy + ry
    if kind == "polygon":
        numbers = [float(n) for n in re.findall(r"-?\d*\.?\d+", get("points", ""))]
    elif kind == "path":
        d = get("d", "")
        if re.search(r"[a-ln-z]", d):  # relative steps
            return None
        numbers = [float(n) for n in re.findall(r"-?\d*\.?\d+", d)]
    else:
        return None
    xs, ys = numbers[0::2], numbers[1::2]
    if not xs or not ys:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def _area(element: ET.Element) -> float:
    """What a shape covers, in the face's units (its bounds, for a path or polygon)."""
    kind = _local(element)
    if kind == "circle":
        return math.pi * _number(element.get("r")) ** 2
    if kind == "ellipse":
        return math.pi * _number(element.get("rx")) * _number(element.get("ry"))
    box = _bounds(element)
    return (box[2] - box[0]) * (box[3] - box[1]) if box else 0.0


def _covered(element: ET.Element) -> float:
    """What the shapes inside a group cover together (those without a fill of their own)."""
    total = 0.0
    for child in element:
        if child.get("fill") is not None:
            continue
        total += _area(child) if _local(child) in _SHAPES else _covered(child)
    return total


def _lighten(root: ET.Element, face: float) -> None:
    panel = None  # the original colour of the largest fill lightened: light text's ink
    largest = 0.0
    chips = []  # the bounds of small dark fills kept: a light text on one stays light
    for element in root.iter():
        kind = _local(element)
        if kind == "stop":
            rgb = _rgb(element.get("stop-color"))
            if rgb is not None:
                element.set("stop-color", _tint(rgb))
            continue
        rgb = _rgb(element.get("fill"))
        if rgb is None or kind in _TEXT:
            continue
        area = _area(element) if kind in _SHAPES else _covered(element) if kind == "g" else 0
        if area >= LARGE_SHARE * face:
            element.set("fill", _tint(rgb))
            if area > largest and _luminance(rgb) < LIGHT:
                largest, panel = area, rgb
        elif kind in _SHAPES and _luminance(rgb) < LIGHT and _bounds(element):
            chips.append(_bounds(element))
    ink = "#{:02x}{:02x}{:02x}".format(*panel) if panel else "#000000"
    _darken_light_text(root, None, ink, chips)


def _darken_light_text(element: ET.Element, fill: str | None, ink: str, chips: list) -> None:
    """Light text printed in `ink`, unless it stands on a small dark fill that was kept."""
    fill = element.get("fill", fill)
    if _local(element) in _TEXT:
        rgb = _rgb(fill)
        x, y = _number(element.get("x")), _number(element.get("y"))
        on_chip = any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in chips)
        if rgb is not None and _luminance(rgb) >= LIGHT and not on_chip:
            element.set("fill", ink)
            fill = ink
    for child in element:
        _darken_light_text(child, fill, ink, chips)


def _prune(element: ET.Element, fill: str | None = None, stroke: str | None = None) -> None:
    for child in list(element):
        mark = child.get("data-ink")
        if mark == "decoration":
            element.remove(child)
            continue
        if mark == "outline":
            own = child.get("fill", "#000000")
            if own != "none":
                child.set("stroke", child.get("data-ink-stroke", own))
                child.set("stroke-width", str(OUTLINE_WIDTH_MM))
            child.set("fill", "none")
        child_fill = child.get("data-ink-fill", fill)
        child_stroke = child.get("data-ink-stroke", stroke)
        if child_fill and mark != "outline" and (child.get("fill") not in (None, "none")
                                                 or "data-ink-fill" in child.attrib):
            child.set("fill", child_fill)
        if child_stroke and mark != "outline" and child.get("stroke") not in (None, "none"):
            child.set("stroke", child_stroke)
        _prune(child, child_fill, child_stroke)
