"""Fast text: one parsed SVG `<text>` element in; its line drawn onto cairo with one call out.

cairosvg draws text one glyph at a time: it measures every character, moves to it and shows it
alone, and before that builds every glyph's outline as a path only to stroke it with no paint.
That is most of a card's drawing time. pnp's text boxes already break text into lines, so a
plain `<text>` (one line, one position, a flat fill) is drawn here with a single `show_text`:
the same font selection, size, anchor and colour as cairosvg, the same advances (cairo's toy
text API applies no kerning either way), so the pixels are the same; the text stays vector with
the font embedded, and the line is written as one string, spaces included, so a PDF reader
extracts the words with their spaces.

Letter-spaced text (a heading's `letter-spacing`) is shown glyph by glyph, each at the place
cairosvg puts it: the previous glyph's advance and the spacing on from it, the line moved by
the anchor as cairosvg moves it (spacing included), one `show_text` per glyph, as cairosvg
shows them. What is skipped is cairosvg's outline of every glyph, built into a path only to be
stroked with no paint.

Anything this does not handle exactly as cairosvg would (tspans, per-character positions, a
stroke, a gradient, an opacity, baseline alignment, text on a path) returns False, and cairosvg
draws the element as before.
"""

from __future__ import annotations

import cairocffi as cairo
from cairosvg.helpers import paint, size, transform

# Attributes whose presence sends an element back to cairosvg's own text code.
_NOT_HANDLED = ("dx", "dy", "rotate", "display-anchor", "dominant-baseline",
                "alignment-baseline", "filter", "mask", "clip-path", "href",
                "{http://www.w3.org/1999/xlink}href", "font", "text-rendering")
_ANCHOR = {None: 0.0, "start": 0.0, "middle": 0.5, "end": 1.0}


def _single(value: str | None) -> bool:
    return value is None or len(value.replace(",", " ").split()) <= 1


def draw_text(surface, node) -> bool:
    """Draw a simple `<text>` node on `surface` (a cairosvg Surface) and return True, or
    return False without drawing anything when it is not simple."""
    if node.tag != "text" or node.children or not node.text:
        return False
    if any(name in node for name in _NOT_HANDLED):
        return False
    if not (_single(node.get("x")) and _single(node.get("y"))):
        return False
    anchor = node.get("text-anchor")
    if anchor not in _ANCHOR:
        return False
    stroke_source, stroke_colour = paint(node.get("stroke"))
    if stroke_source or (stroke_colour not in (None, "none")):
        return False
    fill_source, fill_colour = paint(node.get("fill", "black"))
    if fill_source:  # a gradient or pattern: cairosvg needs the text's bounding box
        return False
    opacity = float(node.get("opacity", 1)) * float(node.get("fill-opacity", 1))
    display = node.get("display", "inline") != "none"
    visible = display and node.get("visibility", "visible") != "hidden"

    context = surface.context
    old_font_size = surface.font_size
    surface.font_size = size(surface, node.get("font-size", "12pt"))
    context.save()
    try:
        transform(surface, node.get("transform"), transform_origin=node.get("transform-origin"))
        if visible and fill_colour not in (None, "none"):
            weight = node.get("font-weight")
            if weight and weight.isdigit() and int(weight) >= 550:
                weight = "bold"
            family = (node.get("font-family") or "sans-serif").split(",")[0].strip("\"' ")
            context.select_font_face(
                family,
                getattr(cairo, f"FONT_SLANT_{node.get('font-style')}".upper(),
                        cairo.FONT_SLANT_NORMAL),
                getattr(cairo, f"FONT_WEIGHT_{weight}".upper(), cairo.FONT_WEIGHT_NORMAL))
            context.set_font_size(surface.font_size)
            x = size(surface, node["x"], "x") if "x" in node else surface.cursor_position[0]
            y = size(surface, node["y"], "y") if "y" in node else surface.cursor_position[1]
            text = node.text
            share = _ANCHOR[anchor]
            spacing = size(surface, node.get("letter-spacing"))
            context.set_source_rgba(*surface.map_color(fill_colour, opacity))
            if spacing:
                _show_spaced(context, text, x, y, share, spacing)
            else:
                if share:
                    x_bearing, _, width = context.text_extents(text)[:3]
                    x -= share * width + x_bearing
                context.move_to(x, y)
                context.show_text(text)
        context.new_path()
    finally:
        context.restore()
        surface.font_size = old_font_size
    surface.cursor_position = [0, 0]
    surface.cursor_d_position = [0, 0]
    surface.text_path_width = 0
    return True


def _show_spaced(context, text: str, x: float, y: float, share: float, spacing: float) -> None:
    """`text` with `spacing` after each glyph, each placed and shown as cairosvg's text code
    places and shows it (pnp draws nothing else there, so the same numbers give the same
    page)."""
    x_bearing, _, width = context.text_extents(text)[:3]
    x_align = 0.0
    if share == 0.5:
        x_align = -(width / 2 + x_bearing)
        x_align -= (len(text) - 1) * spacing / 2
    elif share == 1.0:
        x_align = -(width + x_bearing)
        x_align -= (len(text) - 1) * spacing
    for i, letter in enumerate(text):
        advance = context.text_extents(letter)[4]
        if i:
            x += spacing
        context.save()
        context.move_to(x, y)
        context.rel_move_to(x_align, 0)
        if not letter.isspace():  # as cairosvg: a space is only moved past
            context.show_text(letter)
        context.restore()
        x += advance
