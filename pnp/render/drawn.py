"""Drawn: a rendered SVG in; what it paints, each mark with its box in millimetres, and what
the checks cannot read, each with its line, out.

The print-safety checks (pnp.render.safety, and the sheets' page checks) ask what a face or a
page prints and where: every text run with the size it is drawn at and the box its glyphs
take, every shape with its box and its paint. This reads the SVG as cairosvg, which draws the
PDF, reads it (pnp.render.svgtree: `style=` folded into the properties, properties inherited,
lengths in any unit), and follows what it draws: transforms composed, the root's viewBox scaled
to its declared size, `<use>` drawing the element it names (in `<defs>` or not; a `<symbol>` or
nested `<svg>` as a viewport), `<defs>`, `<symbol>` and other resources not drawn where they
stand, a `<tspan>` measured in its own font and size where the text's cursor has got to, a
clip-path cutting what it holds to its shapes' box. It draws nothing: boxes are measured with
the game's fonts' advance widths, shapes by their coordinates (a curve by its control points,
which encloses it); masks and filters are not applied.

What it cannot read as cairosvg draws it is not guessed at: each becomes an `Unread` at its line
(CSS in a `<style>` element, the `font` shorthand, a `<use>` of another file, text on a path,
rotated glyphs, markers, conditional processing, a clip path in objectBoundingBox units, more
references than MAX_REFERENCED). Each
mark keeps the line of the rendered SVG it came from (for an element drawn through `<use>`,
the line of that `<use>`), so a finding can name the template line that wrote it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from ..fonts import BUNDLED, FontTable, face_metrics, metrics
from ..units import mm_to_pt
from .svgtext import Cursor, baseline_rise, text_runs
from .svgtree import (IDENTITY, Box, Element, Tree, Unparsed, box_of, cascade, cut,
                      length_mm, multiply, numbers, parse_transform, parse_tree, path_points,
                      scale_of, size, sizes, viewport)

# What roles a template gives text that is not rules-bearing (data-role on the element or a
# group around it): credit lines and version stamps may print smaller (pnp.render.safety).
SMALL_ROLES = ("credit", "stamp")
STAMP_CLASS = "pnp-stamp"
# A glyph's ink, as a fraction of the font size, for overlap: capitals and digits stand about
# this high above the baseline in the bundled faces; descenders are left out, as they seldom
# carry meaning and often hang over a band on purpose.
CAP_HEIGHT = 0.72
DEFAULT_FONT_SIZE = 16.0  # cairosvg's 12pt, in user units
# Elements drawn through <use> that are read before the rest is left unread: cairosvg stops at
# 100,000; a face that reaches this many is a reference bomb, not a card.
MAX_REFERENCED = 20_000

# Resources and containers cairosvg never draws where they stand (cairosvg.surface: defs and
# INVISIBLE_TAGS), and elements that hold no drawing.
_NOT_DRAWN = frozenset(("defs", "clipPath", "filter", "linearGradient", "marker", "mask",
                        "pattern", "radialGradient", "symbol", "style", "title", "desc",
                        "metadata", "script"))
_SHAPES = frozenset(("rect", "circle", "ellipse", "line", "polyline", "polygon", "path",
                     "image"))
_TEXTS = frozenset(("text", "tspan", "a"))
_CONDITIONS = ("requiredFeatures", "requiredExtensions", "systemLanguage")
# Properties that need a closer look: conditions, hiding, what is refused.
_RARE = frozenset(_CONDITIONS + ("display", "opacity", "transform-origin", "font"))
_CLIP_URL = re.compile(r"url\(\s*[\"']?#([^)\"']*)[\"']?\s*\)")
_MARKERS = frozenset(("marker-start", "marker-mid", "marker-end", "marker"))
# Which of the viewport's sides a percentage of a shape's length is of (else its diagonal).
_AXIS = {"x": 0, "cx": 0, "x1": 0, "x2": 0, "width": 0, "rx": 0,
         "y": 1, "cy": 1, "y1": 1, "y2": 1, "height": 1, "ry": 1}


@dataclass(frozen=True)
class Mark:
    """One thing the drawing paints: a text run or a shape."""

    kind: str  # text, rect, circle, ellipse, line, polyline, polygon, path, image
    box: Box  # what it covers on the face or page, mm (a stroke's half width included)
    line: int  # the rendered SVG's line the element starts on (or its <use>'s)
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


@dataclass(frozen=True)
class Unread:
    """Something the drawing does that the checks cannot read: where, and what."""

    line: int
    what: str  # completes "the checks cannot read ..."


@dataclass(frozen=True)
class Drawing:
    marks: tuple[Mark, ...]
    unread: tuple[Unread, ...]


@dataclass(frozen=True)
class _At:
    """Where an element is drawn: its parent's properties, the matrix to mm, the font size
    and viewport in user units, the <use> that drew it (its line, 0 for none), the ids
    that <use> has followed to get here, and the box (mm) a clip-path keeps it within."""

    props: dict
    m: tuple
    font_size: float
    view: tuple[float, float]
    line: int = 0
    used: tuple[str, ...] = ()
    clip: Box | None = None


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


def _opacity(props: dict, name: str) -> float:
    try:
        return float(props.get(name, 1))
    except ValueError:
        return 1.0


class _Reader:
    """One walk over a parsed SVG, in cairosvg's drawing order."""

    def __init__(self, tree: Tree, fonts: FontTable):
        self.tree, self.fonts = tree, fonts
        self.marks: list[Mark] = []
        self.unread: list[Unread] = []
        self.referenced = 0
        self.cursor = Cursor()

    def refuse(self, line: int, what: str) -> None:
        if not any(u.line == line and u.what == what for u in self.unread):
            self.unread.append(Unread(line, what))

    def read_root(self) -> None:
        root = self.tree.root
        props = cascade(None, root)
        box = numbers(props.get("viewBox", ""))
        width, height = length_mm(root.attributes.get("width")), \
            length_mm(root.attributes.get("height"))
        m = IDENTITY
        view = (box[2], box[3]) if len(box) == 4 else (width or 0.0, height or 0.0)
        if width and height and len(box) == 4 and box[2] and box[3]:
            sx, sy, tx, ty = viewport(width, height, box, props.get("preserveAspectRatio"))
            m = multiply((sx, 0, 0, sy, 0, 0), (1, 0, 0, 1, tx - box[0], ty - box[1]))
        if "transform" in props:
            m = multiply(m, parse_transform(props["transform"]))
        at = _At(props, m, self.font_size(props, DEFAULT_FONT_SIZE, view), view)
        self.children(root, at)

    def font_size(self, props: dict, parent: float, view: tuple[float, float]) -> float:
        value = props.get("font-size")
        if value is None:
            return DEFAULT_FONT_SIZE
        return size(value, parent, math.hypot(*view) / math.sqrt(2))

    def children(self, element: Element, at: _At) -> None:
        for child in element.children:
            self.draw(child, at)

    def enter(self, element: Element, at: _At) -> _At | None:
        """The context `element` is drawn in, or None when cairosvg draws nothing of it."""
        props = cascade(at.props, element)
        if not _RARE.isdisjoint(props):
            line = at.line or element.line
            for name in _CONDITIONS:
                if name in element.attributes:
                    self.refuse(line, f"a {name} condition (which cairosvg may draw or not)")
                    return None
            if props.get("display") == "none" or _opacity(props, "opacity") <= 0:
                return None
            if "transform-origin" in props:
                self.refuse(line, "a transform-origin")
            if "font" in props:
                self.refuse(line, "the font shorthand (write font-size, font-family, "
                            "font-weight apart)")
        if element.tag != "svg":
            for name in ("width", "height"):
                if name in element.attributes and size(props[name], at.font_size) == 0:
                    return None
        m = at.m
        if "transform" in props:
            m = multiply(m, parse_transform(props["transform"]))
        font_size = self.font_size(props, at.font_size, at.view)
        inner = _At(props, m, font_size, at.view, at.line, at.used, at.clip)
        if "clip-path" in props and _paint(props["clip-path"]):
            inner = self.clipped(element, inner)
        return inner

    def clipped(self, element: Element, at: _At) -> _At:
        """The context of an element cut by a clip-path: what it draws is kept within the
        box of the clipPath's shapes (drawn in the element's own coordinates, as cairosvg
        draws them)."""
        line = at.line or element.line
        wanted = _CLIP_URL.fullmatch(at.props["clip-path"].strip())
        target = self.tree.ids.get(wanted.group(1)) if wanted else None
        if target is None or target.tag != "clipPath":
            return at  # cairosvg clips nothing
        if target.attributes.get("clipPathUnits") == "objectBoundingBox":
            self.refuse(line, "a clip-path in objectBoundingBox units")
            return at
        shapes = _Reader(self.tree, self.fonts)
        shapes.referenced = self.referenced
        painted = {k: v for k, v in at.props.items() if k not in ("clip-path", "fill")}
        shapes.draw(replace(target, tag="g"), replace(at, props=painted, line=line,
                                                       clip=None))
        self.referenced = shapes.referenced
        boxes = [mark.box for mark in shapes.marks]
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
               max(b[3] for b in boxes)) if boxes else (0.0, 0.0, 0.0, 0.0)
        return replace(at, clip=cut(box, at.clip) if at.clip else box)

    def draw(self, element: Element, at: _At) -> None:
        tag = element.tag
        if tag == "style":
            if element.text.strip():
                self.refuse(at.line or element.line, "CSS in a <style> element")
            return
        if tag in _NOT_DRAWN:
            return
        inner = self.enter(element, at)
        if inner is None:
            return
        line = at.line or element.line
        if tag == "switch":
            self.refuse(line, "a <switch> (which cairosvg draws one child of)")
            return
        if tag == "use":
            self.use(element, inner)
        elif tag == "svg":
            self.children(element, self.nested(element, inner, 0.0, 0.0))
        elif tag in _TEXTS:
            self.text(element, inner)
        else:
            if tag in _SHAPES:
                self.shape(element, inner)
            self.children(element, inner)

    def nested(self, element: Element, at: _At, x: float, y: float,
               width: str | None = None, height: str | None = None) -> _At:
        """The context inside a nested <svg> (or a used <symbol>): its viewport at (x, y)."""
        props = at.props
        x += size(props.get("x"), at.font_size, at.view[0])
        y += size(props.get("y"), at.font_size, at.view[1])
        w = size(width or props.get("width", "100%"), at.font_size, at.view[0])
        h = size(height or props.get("height", "100%"), at.font_size, at.view[1])
        box = numbers(props.get("viewBox", ""))
        if len(box) == 4:
            w, h = w or box[2], h or box[3]
        sx, sy, tx, ty = viewport(w, h, box if len(box) == 4 else [0, 0, w, h],
                                  props.get("preserveAspectRatio"))
        vx, vy = (box[0], box[1]) if len(box) == 4 else (0.0, 0.0)
        m = multiply(at.m, (1, 0, 0, 1, x - vx * sx, y - vy * sy))
        m = multiply(m, (sx, 0, 0, sy, 0, 0))
        m = multiply(m, (1, 0, 0, 1, tx, ty))
        view = (w / sx if sx else w, h / sy if sy else h)
        return replace(at, m=m, view=view)

    def use(self, element: Element, at: _At) -> None:
        """What a <use> draws: the element it names, moved by its x and y, taking its
        properties from the <use> (cairosvg.defs.use)."""
        line = at.line or element.line
        href = element.attributes.get("xlink:href", element.attributes.get("href", ""))
        if not href.startswith("#"):
            if href:
                self.refuse(line, f"a <use> of '{href[:60]}' (only '#id' in the same face)")
            return
        target = self.tree.ids.get(href[1:])
        if target is None or href[1:] in at.used:
            return  # cairosvg draws nothing; a loop is refused (pnp.render.svgcheck)
        self.referenced += 1
        if self.referenced > MAX_REFERENCED:
            self.refuse(line, f"more than {MAX_REFERENCED:,} elements drawn through <use>")
            return
        x = size(at.props.get("x"), at.font_size, at.view[0])
        y = size(at.props.get("y"), at.font_size, at.view[1])
        moved = replace(at, m=multiply(at.m, (1, 0, 0, 1, x, y)), line=line,
                        used=at.used + (href[1:],))
        if target.tag in ("svg", "symbol"):
            inner = self.enter(replace(target, tag="svg"), moved)
            if inner is not None:
                both = "width" in element.attributes and "height" in element.attributes
                self.children(target, self.nested(
                    target, inner, 0.0, 0.0, at.props.get("width") if both else None,
                    at.props.get("height") if both else None))
        else:
            self.draw(target, moved)

    def shape(self, element: Element, at: _At) -> None:
        name, a, m = element.tag, at.props, at.m
        if name == "rect":
            x, y, w, h = (self.length(at, k) for k in ("x", "y", "width", "height"))
            points = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)]
        elif name == "circle":
            cx, cy, r = (self.length(at, k) for k in ("cx", "cy", "r"))
            points = [(cx - r, cy - r), (cx + r, cy - r), (cx - r, cy + r), (cx + r, cy + r)]
        elif name == "ellipse":
            cx, cy, rx, ry = (self.length(at, k) for k in ("cx", "cy", "rx", "ry"))
            points = [(cx - rx, cy - ry), (cx + rx, cy - ry), (cx - rx, cy + ry),
                      (cx + rx, cy + ry)]
        elif name == "line":
            points = [(self.length(at, "x1"), self.length(at, "y1")),
                      (self.length(at, "x2"), self.length(at, "y2"))]
        elif name in ("polyline", "polygon"):
            values = numbers(a.get("points", ""))
            points = list(zip(values[0::2], values[1::2]))
        elif name == "path":
            points = path_points(a.get("d", ""))
        else:  # image
            x, y, w, h = (self.length(at, k) for k in ("x", "y", "width", "height"))
            points = [(x, y), (x + w, y + h)]
        if not points or a.get("visibility") in ("hidden", "collapse"):
            return
        line = at.line or element.line
        if name != "image" and not _MARKERS.isdisjoint(a) and \
                any(_paint(a.get(k)) for k in _MARKERS):
            self.refuse(line, "markers (marker-start, marker-mid, marker-end)")
        fill = "" if name == "line" or _opacity(a, "fill-opacity") <= 0 else \
            _paint(a.get("fill", "#000000"))
        stroke = "" if _opacity(a, "stroke-opacity") <= 0 else _paint(a.get("stroke"))
        if name == "image":
            fill = "image"
        if not fill and not stroke:
            return
        half = size(a.get("stroke-width", "1"), at.font_size,
                    math.hypot(*at.view) / math.sqrt(2)) / 2 if stroke else 0.0
        x0, y0, x1, y1 = box_of(m, points)
        grow = half * scale_of(m)
        box = (x0 - grow, y0 - grow, x1 + grow, y1 + grow)
        if at.clip:
            box = cut(box, at.clip)
            if box is None:
                return
        self.marks.append(Mark(name, box, line,
                               fill, stroke, role=_role(a), order=len(self.marks)))

    def length(self, at: _At, name: str) -> float:
        value = at.props.get(name)
        if value is None:
            return 0.0
        axis = _AXIS.get(name)
        reference = at.view[axis] if axis is not None else math.hypot(*at.view) / math.sqrt(2)
        return size(value, at.font_size, reference)

    def text(self, element: Element, at: _At) -> None:
        """A <text> (or <a>) and what it holds, chunk by chunk, as cairosvg draws it: its own
        words, then each child's, then the words after that child, each in its own font and
        size from where the cursor has got to (cairosvg.parser.Node.text_children,
        cairosvg.text.text)."""
        preserve = at.props.get("xml:space") == "preserve"
        own, children, _ = text_runs(element, preserve, True, True)
        self.cursor = Cursor()
        self.chunk(element, at, own)
        self.chunks(element, children, at)
        self.cursor = Cursor()

    def chunks(self, parent: Element, children: list, at: _At) -> None:
        for child, words, inner_children in children:
            if child is None:  # the words after a child: drawn in the parent's properties
                anonymous = Element("tspan", {}, parent.line)
                inner = self.enter(anonymous, at)
                if inner is not None:
                    self.chunk(anonymous, inner, words)
                continue
            line = at.line or child.line
            if child.tag in ("textPath", "tref"):
                self.refuse(line, f"text drawn through <{child.tag}>")
            elif child.tag in ("tspan", "a"):
                inner = self.enter(child, at)
                if inner is not None:
                    self.chunk(child, inner, words)
                    self.chunks(child, inner_children, inner)
            else:
                self.draw(child, at)

    def chunk(self, element: Element, at: _At, words: str) -> None:
        """One run of words: its glyphs placed from the text's cursor, the cursor moved on."""
        props, fs, line = at.props, at.font_size, at.line or element.line
        if "rotate" in element.attributes or "display-anchor" in props:
            self.refuse(line, "text placed with rotate or display-anchor")
        xs, ys = sizes(props.get("x"), fs, at.view[0]), sizes(props.get("y"), fs, at.view[1])
        dxs, dys = sizes(props.get("dx"), fs, at.view[0]), sizes(props.get("dy"), fs,
                                                                 at.view[1])
        if not words:
            self.cursor.skip(xs, ys, dxs, dys)
            return
        family, weight = props.get("font-family", ""), props.get("font-weight", "normal")
        style = props.get("font-style", "normal")
        font = _text_metrics(self.fonts, family, weight, style)
        size_pt = mm_to_pt(fs)  # the metrics measure in mm: a user unit stands for one
        spacing = size(props["letter-spacing"], fs, math.hypot(*at.view) / math.sqrt(2)) \
            if "letter-spacing" in props else 0.0
        width = font.width_mm(words, size_pt)
        gaps = spacing * (len(words) - 1)
        align = {"middle": -width / 2 - gaps / 2, "end": -width - gaps}.get(
            props.get("text-anchor"), 0.0)
        ascent, descent = font.ascent * fs, font.descent * fs
        rise = baseline_rise(props.get("dominant-baseline") or
                             props.get("alignment-baseline"), ascent, descent)
        placed = self.cursor.place(words, (xs, ys, dxs, dys), width, spacing, align, rise,
                                   lambda letter: font.width_mm(letter, size_pt))
        fill = "" if _opacity(props, "fill-opacity") <= 0 else _paint(props.get("fill",
                                                                                "#000000"))
        if not fill or props.get("visibility") == "hidden":
            return
        shown = " ".join(words.split())
        if not shown:
            return
        left = min(p[0] for p in placed)
        right = max(p[1] for p in placed)
        top, bottom = min(p[2] for p in placed), max(p[2] for p in placed)
        m = at.m
        outline = box_of(m, [(left, top - ascent), (right, bottom + descent)])
        ink = box_of(m, [(left, top - CAP_HEIGHT * fs), (right, bottom)])
        if at.clip:
            outline, ink = cut(outline, at.clip), cut(ink, at.clip)
            if outline is None or ink is None:
                return
        self.marks.append(Mark("text", outline, line, fill, "", shown,
                               mm_to_pt(fs * scale_of(m)), ink, _role(props),
                               bool(props.get("data-fit")), len(self.marks), family, weight,
                               style))


def _role(props: dict) -> str:
    if STAMP_CLASS in props.get("class", "").split():
        return "stamp"
    return props.get("data-role", "")


@lru_cache(maxsize=4096)
def read_drawing(svg: str, fonts: FontTable = BUNDLED) -> Drawing:
    """Everything `svg` paints, in drawing order, in mm from its root's top-left corner,
    text measured with `fonts`, and what the checks cannot read of it. XML that does not
    parse paints nothing and is unread at its line (the renderer reports it first)."""
    try:
        tree = parse_tree(svg)
    except Unparsed as exc:
        return Drawing((), (Unread(exc.line, f"XML that cairosvg cannot parse ({exc})"),))
    reader = _Reader(tree, fonts)
    reader.read_root()
    return Drawing(tuple(reader.marks), tuple(reader.unread))


def marks_of(svg: str, fonts: FontTable = BUNDLED) -> tuple[Mark, ...]:
    """What `svg` paints (read_drawing's marks)."""
    return read_drawing(svg, fonts).marks


def overlap(a: Box, b: Box) -> tuple[float, float]:
    """How far two boxes overlap across and down (<= 0: they do not)."""
    return min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])


def inside(inner: Box, outer: Box, slack: float = 0.0) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def moved(box: Box, dx: float, dy: float) -> Box:
    return box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy


__all__ = ["Mark", "Unread", "Drawing", "read_drawing", "marks_of", "overlap", "inside",
           "moved", "is_white", "SMALL_ROLES", "MAX_REFERENCED"]
