"""Ink: page plans in; how much of each page ink covers, measured on the drawn page, out.

Each page is drawn as the PDF draws it (the same faces, furniture and placements) onto a small
raster, and its coverage is the mean darkness of its pixels: 0 for a blank page, 1 for a page
printed solid black, 1/3 for one printed solid in a primary colour. Cartridge yields are rated
at 5% coverage (ISO/IEC 19752 and 24711), so the total is also given in those pages.
"""

from __future__ import annotations

import sys

import cairocffi as cairo

from ..fonts import use_bundled_fonts
from ..layout.plans import PagePlan
from ..units import mm_to_pt
from .draw import draw_svg

INK_DPI = 12  # coarse, and plenty for a mean: a Letter page is about 100 x 130 pixels
RATED_COVERAGE = 0.05  # what a cartridge's page yield assumes


def ink_coverage(pages: list[PagePlan], dpi: float = INK_DPI) -> list[float]:
    """The share of each page's area that ink covers, from 0 to 1."""
    use_bundled_fonts()
    found = []
    scale = dpi / 72
    for page in pages:
        width = max(1, round(mm_to_pt(page.paper.width_mm) * scale))
        height = max(1, round(mm_to_pt(page.paper.height_mm) * scale))
        surface = cairo.ImageSurface(cairo.FORMAT_RGB24, width, height)
        context = cairo.Context(surface)
        context.set_source_rgb(1, 1, 1)
        context.paint()
        steps = (("scale", scale),)
        draw_svg(surface, page.furniture, 0, 0, page=steps)
        for placed in page.placements:
            draw_svg(surface, placed.svg, placed.x_mm, placed.y_mm, clip=placed.clip,
                     scale=placed.scale, rotate=placed.rotate, inset_mm=placed.inset_mm,
                     page=steps)
        surface.flush()
        data = bytes(surface.get_data())
        stride = surface.get_stride()
        dark = 0
        unused = 3 if sys.byteorder == "little" else 0  # FORMAT_RGB24: 4 bytes, one unused
        for row in range(height):
            line = data[row * stride:row * stride + width * 4]
            dark += 3 * 255 * width - (sum(line) - sum(line[unused::4]))
        found.append(dark / (3 * 255 * width * height))
    return found


def rated_pages(coverage: list[float]) -> float:
    """How many pages at the rated 5% coverage use as much ink as these pages."""
    return sum(coverage) / RATED_COVERAGE


__all__ = ["ink_coverage", "rated_pages", "INK_DPI"]
