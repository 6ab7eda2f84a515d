"""Rasters: a face's SVG (or a grid of them) and a size in pixels in; Pillow images out.

A face is drawn for an image exactly as it is drawn into a PDF (`draw.draw_svg`: the same
cairosvg elements, the same one-call text, the same unhinted glyph advances), onto a cairo
image surface whose device scale maps the face's points onto the pixels asked for, so an
exported PNG shows the face the PDFs print, glyph for glyph. cairosvg's own PNG route
(`draw.render_png`) draws text one glyph at a time, about half of its time on Downturn's
faces; this route takes 0.55-0.66 x its CPU for the same faces. A face whose root does not
give its size in mm (which `draw_svg` needs to place it) takes cairosvg's route.

A grid (`grid_image`, a Tabletop Simulator sheet) is one white cairo surface: each distinct face
is drawn once and painted into each of its cells, and the sheet is read out once as RGB,
rather than each face being composited on white, converted and pasted by Pillow (which took a
quarter of a 2,400-card export). A face used once is drawn on one scratch surface, cleared
each time: a new surface per face was a fresh, zeroed allocation each time, and about 1 s of
system time in that export.
"""

from __future__ import annotations

import io
import sys
from collections import Counter
from typing import Sequence

import cairocffi as cairo

from ..fonts import use_bundled_fonts
from ..layout.plans import svg_size_mm
from ..units import mm_to_pt
from .draw import draw_svg, render_png


def _face_surface(svg: str, width_px: int, height_px: int,
                  reuse: cairo.ImageSurface | None = None) -> cairo.ImageSurface:
    """The face drawn onto exactly `width_px` x `height_px` transparent pixels (its size in
    mm stretched to them: the two agree within a pixel's rounding); onto `reuse`, cleared,
    when given (a new surface of that size costs a fresh, zeroed allocation each time)."""
    use_bundled_fonts()
    size = svg_size_mm(svg)
    if size is None or not (size[0] > 0 and size[1] > 0):
        png = render_png(svg, 96, width_px, height_px)
        return cairo.ImageSurface.create_from_png(io.BytesIO(png))
    if reuse is None:
        surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, width_px, height_px)
    else:
        surface = reuse
        clear = cairo.Context(surface)
        clear.set_operator(cairo.OPERATOR_CLEAR)
        clear.paint()
    surface.set_device_scale(width_px / mm_to_pt(size[0]), height_px / mm_to_pt(size[1]))
    draw_svg(surface, svg, 0, 0)
    surface.flush()
    surface.set_device_scale(1, 1)  # painted elsewhere, a pixel of it is a pixel again
    return surface


def _pillow(surface: cairo.ImageSurface, mode: str):
    """A cairo image surface's pixels as a Pillow image: RGBA (straight alpha) or RGB."""
    from PIL import Image

    size = (surface.get_width(), surface.get_height())
    # cairo's pixels are 32-bit words in the machine's byte order: B, G, R, A (or X) in memory
    # on a little-endian one; ARGB32 is premultiplied.
    little = sys.byteorder == "little"
    raw = {"RGBA": "BGRa" if little else "aRGB", "RGB": "BGRX" if little else "XRGB"}[mode]
    if raw == "aRGB":  # Pillow has no unpacker for it: through a PNG, on such machines only
        png = io.BytesIO()
        surface.write_to_png(png)
        return Image.open(io.BytesIO(png.getvalue())).convert("RGBA")
    return Image.frombuffer(mode, size, surface.get_data(), "raw", raw, surface.get_stride(), 1)


def face_image(svg: str, width_px: int, height_px: int):
    """The face drawn onto exactly `width_px` x `height_px` pixels, as a Pillow RGBA image;
    what the face leaves unpainted stays transparent."""
    return _pillow(_face_surface(svg, width_px, height_px), "RGBA")


def grid_image(faces: Sequence[str], cols: int, rows: int, face_px: tuple[int, int]):
    """The faces in a grid of `cols` x `rows` cells of `face_px` pixels, left to right and top
    to bottom, on white, as a Pillow RGB image; each distinct face is drawn once."""
    w, h = face_px
    sheet = cairo.ImageSurface(cairo.FORMAT_RGB24, cols * w, rows * h)
    context = cairo.Context(sheet)
    context.set_source_rgb(1, 1, 1)
    context.paint()
    uses = Counter(faces)
    scratch = cairo.ImageSurface(cairo.FORMAT_ARGB32, w, h)  # for each face used once
    drawn: dict[str, cairo.ImageSurface] = {}  # each face used more often
    for index, svg in enumerate(faces):
        if uses[svg] == 1:
            face = _face_surface(svg, w, h, reuse=scratch)
        else:
            if svg not in drawn:
                drawn[svg] = _face_surface(svg, w, h)
            face = drawn[svg]
        context.set_source_surface(face, (index % cols) * w, (index // cols) * h)
        context.paint()
        context.set_source_rgb(1, 1, 1)  # lets go of the face, so the scratch can be drawn on
    sheet.flush()
    return _pillow(sheet, "RGB")
