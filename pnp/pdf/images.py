"""Pictures: an SVG `<image>` whose picture is a PNG or JPEG `data:` URI, and the surface it
is drawn on, in; the picture drawn from a copy no larger than it prints at, decoded once per
picture and size, out.

cairosvg decodes a picture again each time it is drawn, into a new cairo surface, and cairo
writes each of those surfaces into a PDF as an image of its own: 20 cards sharing one 1 MB PNG
made a 21.6 MB PDF, and a 6000 x 6000 pixel icon used 60 times held 60 decoded copies of
144 MB. Here each picture is decoded once (Pillow), reduced to PRINT_DPI at the largest size
it prints at on the surface, and the same cairo surface painted at every use, which cairo
writes once per document: a PDF holds one image per distinct picture and size, and memory
holds what is distinct. A JPEG printed at its own size keeps its compressed bytes (cairo
embeds them as they are). Other pictures (SVG, GIF, WebP, a file) are left to cairosvg.

Kept for: 20 cards sharing one 1 MB PNG, 21.6 MB of PDF before, under 2 MB after; the
6000 x 6000 icon game, 2.5 GB of memory before, under 500 MB after (tests/pdf/test_images.py).
"""

from __future__ import annotations

import base64
import hashlib
import io
import math

import cairocffi as cairo
from cairosvg.helpers import preserve_ratio, size

from ..load.art import DRAWN_DPI

PRINT_DPI = DRAWN_DPI  # a picture printed finer than this is drawn from a copy reduced to it
KEPT_BYTES = 256 * 1024 * 1024  # decoded pictures kept at once, at most (then forgotten)
_RASTER = {"data:image/png;base64,": "png", "data:image/jpeg;base64,": "jpeg",
           "data:image/jpg;base64,": "jpeg"}

_decoded: dict[tuple, cairo.ImageSurface] = {}  # (digest, width, height): the picture
_natural: dict[bytes, tuple[bytes, int, int]] = {}  # digest: (digest, width, height)


def is_picture(node) -> bool:
    """Whether `node` is an `<image>` whose picture this module draws."""
    href = node.get_href() if node.tag == "image" else None
    return bool(href) and href.startswith(tuple(_RASTER))


def draw_picture(surface, node) -> None:
    """Draw the `<image>` `node` as cairosvg would (its box, preserveAspectRatio, opacity),
    from the shared copy of its picture; an image pnp cannot decode draws nothing, as in
    cairosvg."""
    href = node.get_href()
    found = _measured(href)
    if found is None:
        return
    digest, natural_w, natural_h = found
    context = surface.context
    x, y = size(surface, node.get("x"), "x"), size(surface, node.get("y"), "y")
    width = size(surface, node.get("width"), "x") or natural_w
    height = size(surface, node.get("height"), "y") or natural_h
    node.image_width, node.image_height = natural_w, natural_h
    drawn_as, node.tag = node.tag, "image"  # as cairosvg places an image
    scale_x, scale_y, move_x, move_y = preserve_ratio(surface, node, width, height)
    node.tag = drawn_as
    drawn_w, drawn_h = _pixels_needed(context, surface, natural_w * scale_x,
                                      natural_h * scale_y)
    factor = min(1.0, max(drawn_w / natural_w, drawn_h / natural_h))
    pixels = (max(1, math.ceil(natural_w * factor)), max(1, math.ceil(natural_h * factor)))
    picture = _picture(href, digest, pixels)
    if picture is None:
        return
    if not (move_x == 0 and move_y == 0 and width == scale_x * natural_w
            and height == scale_y * natural_h):
        context.rectangle(x, y, width, height)
        context.clip()
    context.save()
    context.translate(x, y)
    context.scale(scale_x, scale_y)
    context.translate(move_x, move_y)
    context.scale(natural_w / picture.get_width(), natural_h / picture.get_height())
    pattern = cairo.SurfacePattern(picture)
    pattern.set_filter(cairo.FILTER_BEST if node.get("image-rendering") == "optimizeQuality"
                       else cairo.FILTER_FAST if node.get("image-rendering") == "optimizeSpeed"
                       else cairo.FILTER_GOOD)
    context.set_source(pattern)
    context.paint_with_alpha(float(node.get("opacity", 1)))
    context.restore()


def _pixels_needed(context: cairo.Context, surface, width: float, height: float
                   ) -> tuple[float, float]:
    """The pixels across and down a picture drawn `width` x `height` user units needs at
    PRINT_DPI (or at the surface's own pixels, if finer): its size in points through the
    current transformation, turned or not."""
    across = math.hypot(*context.user_to_device_distance(width, 0))
    down = math.hypot(*context.user_to_device_distance(0, height))
    target = surface.context.get_target()
    scale = max(target.get_device_scale()) if hasattr(target, "get_device_scale") else 1
    per_point = max(PRINT_DPI / 72, scale)
    return across * per_point, down * per_point


def _measured(href: str) -> tuple[bytes, int, int] | None:
    """The picture's digest (of its `data:` URI: kept rather than the URI, which may be
    megabytes) and its size in pixels, read from its header."""
    digest = hashlib.sha256(href.encode("ascii", "replace")).digest()
    if digest not in _natural:
        data = _bytes(href)
        try:
            from PIL import Image

            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
                if image.format == "JPEG" and (image.getexif() or {}).get(0x0112, 1) >= 5:
                    width, height = height, width  # turned a quarter by its EXIF orientation
        except Exception:  # noqa: BLE001 - what Pillow cannot read, cairosvg could not draw
            return None
        if len(_natural) > 4096:
            _natural.clear()
        _natural[digest] = (digest, width, height)
    return _natural[digest]


def _bytes(href: str) -> bytes:
    head = next(prefix for prefix in _RASTER if href.startswith(prefix))
    return base64.b64decode(href[len(head):])


def _picture(href: str, digest: bytes, pixels: tuple[int, int]) -> cairo.ImageSurface | None:
    """The picture decoded at `pixels`, once for every use of it at that size."""
    key = (digest, *pixels)
    if key not in _decoded:
        picture = _decode(_bytes(href), pixels)
        if picture is None:
            return None
        kept = sum(s.get_stride() * s.get_height() for s in _decoded.values())
        if kept + picture.get_stride() * picture.get_height() > KEPT_BYTES:
            _decoded.clear()
        _decoded[key] = picture
    return _decoded[key]


def _decode(data: bytes, pixels: tuple[int, int]) -> cairo.ImageSurface | None:
    """`data` decoded into a cairo surface of `pixels` (reduced with Lanczos when smaller
    than the picture); a JPEG at its own size carries its own bytes too, which cairo
    writes instead of the pixels."""
    from PIL import Image, ImageOps

    try:
        with Image.open(io.BytesIO(data)) as opened:
            jpeg = opened.format == "JPEG"
            if jpeg:  # decoded at a half, a quarter... of its size, when that is enough
                turned = (opened.getexif() or {}).get(0x0112, 1) >= 5
                opened.draft("RGB", pixels[::-1] if turned else pixels)
            image = ImageOps.exif_transpose(opened)
            same = image.size == pixels
            if not same:
                image = image.convert("RGBA" if _has_alpha(image) else "RGB")
                image = image.resize(pixels, Image.LANCZOS, reducing_gap=3.0)
            if data.startswith(b"\x89PNG") and same:
                return cairo.ImageSurface.create_from_png(io.BytesIO(data))
            if image.mode not in ("RGB", "RGBA"):
                image = image.convert("RGBA" if _has_alpha(image) else "RGB")
            png = io.BytesIO()
            image.save(png, "PNG", compress_level=0)
    except Exception:  # noqa: BLE001 - a picture that cannot be decoded draws nothing
        return None
    picture = cairo.ImageSurface.create_from_png(io.BytesIO(png.getvalue()))
    if jpeg and same and image.mode == "RGB":
        picture.set_mime_data(cairo.MIME_TYPE_JPEG, data)
    return picture


def _has_alpha(image) -> bool:
    return image.mode in ("RGBA", "LA", "PA") or (image.mode == "P"
                                                  and "transparency" in image.info)
