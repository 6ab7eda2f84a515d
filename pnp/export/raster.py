"""Rasters: a face's SVG and a pixel size in; its pixels (a Pillow RGBA image) or a PNG out.

A face is drawn for an export exactly as a build draws it into a PDF (`pnp.pdf.draw.draw_svg`:
the same cairosvg elements, the same one-call text, the same unhinted glyph advances), onto a
cairo image surface whose device scale maps the face's points onto the pixels asked for. So a
shop's PNG and a Tabletop Simulator sheet show the face the PDFs print, glyph for glyph.
cairosvg's own PNG route (`pnp.pdf.draw.render_image`) draws text one glyph at a time, about
half of its time on Downturn's faces; this route takes 0.55 x its CPU for the same faces.

PNGs are encoded by Pillow at zlib level PNG_COMPRESSION (`encode_png`). Measured on a third
of Downturn's 300 dpi shop faces (78 faces, 0.28 s of CPU to draw): Pillow took 0.38 s at
level 1 (2.6 MB), 0.54 s at 6 (2.3 MB), 2.3 s at 9; cairo's own `write_to_png` (libpng's
defaults) 0.76 s (2.3 MB). Level 0 still took 0.26 s, for files 31 times larger: most of the
encoding is Pillow choosing each row's filter, not zlib, and level 6 saves an eighth of the
bytes for 1.4 times the time: level 1 is kept. Either way the files are plain, lossless PNGs,
and their bytes depend only on the pixels and the level, never on the process or the number
of processes.
"""

from __future__ import annotations

import io
import sys

PNG_COMPRESSION = 1  # zlib level: see the module's notes


def draw_face(svg: str, width_px: int, height_px: int):
    """The face drawn onto exactly `width_px` x `height_px` pixels (its drawing's size in mm
    stretched to them: the two agree within a pixel's rounding), as a Pillow RGBA image;
    what the face leaves unpainted stays transparent. A face whose root does not give its
    size in mm is drawn by cairosvg's own route (`pnp.pdf.draw.render_image`)."""
    import cairocffi as cairo
    from PIL import Image

    from ..fonts import use_bundled_fonts
    from ..layout.plans import svg_size_mm
    from ..pdf.draw import draw_svg, render_image
    from ..units import mm_to_pt

    width_mm, height_mm = svg_size_mm(svg) or (0, 0)
    if not (width_mm > 0 and height_mm > 0):
        return render_image(svg, 96, width_px, height_px)
    use_bundled_fonts()
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, width_px, height_px)
    surface.set_device_scale(width_px / mm_to_pt(width_mm), height_px / mm_to_pt(height_mm))
    draw_svg(surface, svg, 0, 0)
    surface.flush()
    if sys.byteorder != "little":
        png = io.BytesIO()
        surface.write_to_png(png)
        return Image.open(io.BytesIO(png.getvalue())).convert("RGBA")
    # cairo's ARGB32 is premultiplied and native-endian: B, G, R, A in memory here.
    return Image.frombuffer("RGBA", (width_px, height_px), bytes(surface.get_data()), "raw",
                            "BGRa", surface.get_stride(), 1)


def encode_png(image, dpi: float | None = None) -> bytes:
    """The image as PNG bytes (with its dpi in a pHYs chunk when given)."""
    out = io.BytesIO()
    options = {"dpi": (dpi, dpi)} if dpi else {}
    image.save(out, "PNG", compress_level=PNG_COMPRESSION, **options)
    return out.getvalue()
