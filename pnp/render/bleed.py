"""Generated bleed: a rendered face whose drawing stops at the trim, and a deck's `bleed`
setting, in; the same face painting its bleed band from its own edge out.

A designer's art that stops at the trim prints a white sliver wherever a cut wanders. With
`bleed: extend` the face's outermost strip (EDGE_MM wide, EDGE_MM in from the trim, so an
image's soft last half-pixel is not what is stretched) is stretched across the band on each
side, and its corner square across each corner: the edge pixels, extended. With
`bleed: mirror` the band shows the face's outer BAND next to it mirrored about the trim line
(each corner mirrored both ways), so a pattern or a picture runs on. `drawn` (the default)
leaves the face as its template drew it.

It is done on the drawing itself, for vector faces and raster art alike: the face's content,
clipped to its trim, becomes one group, and the bands are `<use>`s of that group, clipped to
a strip and moved into place; nothing is rasterised, and the face keeps its size and viewBox
(the layouts that show a bleed widen it). The print-safety checks have read the face as its
template drew it, before this; `print-bleed` is not asked of it (its every edge now paints
into the bleed).
"""

from __future__ import annotations

import re

MODES = ("drawn", "extend", "mirror")
EDGE_MM = 0.05  # the strip `extend` stretches, and how far in from the trim it starts
SEAM_MM = 0.05  # each band runs this far under the face, so no hairline shows between them
_ROOT = re.compile(r"<svg\b[^>]*>", re.S)
_ATTR = r'(?<![-\w:]){}\s*=\s*"([^"]*)"'
_MM = re.compile(r"\s*([0-9]*\.?[0-9]+)\s*mm\s*")
ID = "pnp-bleed"


def with_bleed(svg: str, bleed_mm: float, mode: str) -> str:
    """The face with its bleed band painted as `mode` says; unchanged for `drawn`, no bleed,
    or a root without a size in mm and a viewBox (the face checks report those)."""
    if mode not in ("extend", "mirror") or bleed_mm <= 0:
        return svg
    root = _ROOT.search(svg)
    end = svg.rfind("</svg>")
    if root is None or end < root.end():
        return svg
    tag = root.group()
    width, height, box = (re.search(_ATTR.format(name), tag)
                          for name in ("width", "height", "viewBox"))
    if not (width and height and box):
        return svg
    sizes = [_MM.fullmatch(width.group(1)), _MM.fullmatch(height.group(1))]
    try:
        x, y, w, h = (float(v) for v in box.group(1).replace(",", " ").split())
    except ValueError:
        return svg
    if not all(sizes) or w <= 0 or h <= 0:
        return svg
    unit_x, unit_y = w / float(sizes[0].group(1)), h / float(sizes[1].group(1))  # per mm
    bands = (_extended if mode == "extend" else _mirrored)(
        x, y, w, h, bleed_mm * unit_x, bleed_mm * unit_y, EDGE_MM * unit_x, EDGE_MM * unit_y,
        SEAM_MM * unit_x, SEAM_MM * unit_y)
    defs = [f'<clipPath id="{ID}-trim"><rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" '
            f'height="{_n(h)}"/></clipPath>']
    uses = []
    for n, (clip, transform) in enumerate(bands):
        cx, cy, cw, ch = clip
        defs.append(f'<clipPath id="{ID}-{n}"><rect x="{_n(cx)}" y="{_n(cy)}" '
                    f'width="{_n(cw)}" height="{_n(ch)}"/></clipPath>')
        uses.append(f'<g transform="{transform}"><use href="#{ID}-face" '
                    f'clip-path="url(#{ID}-{n})"/></g>')
    content = svg[root.end():end]
    # The bands first, the face over them: where they meet, the face's own edge shows.
    return (svg[:root.end()] + "\n<defs>" + "".join(defs) +
            f'<g id="{ID}-face" clip-path="url(#{ID}-trim)">' + content + "</g></defs>\n"
            + "\n".join(uses) + f'\n<use href="#{ID}-face"/>\n' + svg[end:])


Box = tuple[float, float, float, float]


def _extended(x: float, y: float, w: float, h: float, bx: float, by: float, ex: float,
              ey: float, ox: float, oy: float) -> list[tuple[Box, str]]:
    """Each side's strip `e` wide, `e` in, stretched over the band and `o` under the face;
    each corner's square so."""
    kx, ky = (bx + ox) / ex, (by + oy) / ey
    right, bottom = x + w, y + h

    def along(start: float, target: float, k: float) -> float:
        """The strip [start, start + e] lands on [target, target + b + o]."""
        return target - start * k

    left_x, right_x = along(x + ex, x - bx, kx), along(right - 2 * ex, right - ox, kx)
    top_y, bottom_y = along(y + ey, y - by, ky), along(bottom - 2 * ey, bottom - oy, ky)
    sides = [
        ((x + ex, y, ex, h), f"translate({_n(left_x)} 0) scale({_n(kx)} 1)"),
        ((right - 2 * ex, y, ex, h), f"translate({_n(right_x)} 0) scale({_n(kx)} 1)"),
        ((x, y + ey, w, ey), f"translate(0 {_n(top_y)}) scale(1 {_n(ky)})"),
        ((x, bottom - 2 * ey, w, ey), f"translate(0 {_n(bottom_y)}) scale(1 {_n(ky)})"),
    ]
    corners = [((cx, cy, ex, ey), f"translate({_n(tx)} {_n(ty)}) scale({_n(kx)} {_n(ky)})")
               for cx, tx in ((x + ex, left_x), (right - 2 * ex, right_x))
               for cy, ty in ((y + ey, top_y), (bottom - 2 * ey, bottom_y))]
    return sides + corners


def _mirrored(x: float, y: float, w: float, h: float, bx: float, by: float, ex: float,
              ey: float, ox: float, oy: float) -> list[tuple[Box, str]]:
    """Each side's outer band mirrored about its trim line (moved `o` / 2 in, so the copy
    runs `o` under the face); each corner about both."""
    right, bottom = x + w, y + h
    # (strip start, width, twice the axis)
    flips_x = ((x, bx + ox, 2 * x + ox), (right - bx - ox, bx + ox, 2 * right - ox))
    flips_y = ((y, by + oy, 2 * y + oy), (bottom - by - oy, by + oy, 2 * bottom - oy))
    bands = [((sx, y, sw, h), f"translate({_n(axis)} 0) scale(-1 1)")
             for sx, sw, axis in flips_x]
    bands += [((x, sy, w, sh), f"translate(0 {_n(axis)}) scale(1 -1)")
              for sy, sh, axis in flips_y]
    bands += [((sx, sy, sw, sh), f"translate({_n(ax)} {_n(ay)}) scale(-1 -1)")
              for sx, sw, ax in flips_x for sy, sh, ay in flips_y]
    return bands


def _n(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".") or "0"


__all__ = ["with_bleed", "MODES"]
