"""Preflight: a deck, its rendered faces and the shop's product for it in; findings out, in the
form `pnp check` prints them, before a shop file is written.

What a print shop rejects a file for, checked against the product each piece is made as:
- size: a piece no product of the shop fits (`shop-no-product`), never cropped or padded: a
  warning naming the nearest products, one per deck; the decks that fit are still written
  (`--strict` refuses the export);
- resolution: every raster image inside a face, at the size it prints, against the product's
  dpi (`shop-image-resolution`, a warning: `--strict` refuses it);
- colour: an image in CMYK for a shop that takes RGB (`shop-image-colour`);
- bleed: where a face is coloured at the cut, its colour must run through the product's whole
  bleed, read from the rendered face: a border left transparent would print as a white sliver
  (`shop-bleed-unpainted`). White and unpainted both print as the paper, so a face white at
  its edge passes, as it passes `pnp check`'s print-bleed;
- ink: every page of a CMYK file, rendered after its conversion, against the shop's total ink
  limit (`shop-ink-limit`, one finding per deck naming its worst page, face and figure);
- safe zone: the deck's safe margin (inside which `pnp check` keeps every text box) must lie
  inside the product's safe zone where the product's cut falls (`shop-safe-zone`), and text
  `pnp check` found in the safe margin is an error for a shop (`shop-text-unsafe`).
"""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

from ..findings import Finding, Findings, Severity
from ..load.art import effective_dpi
from ..load.assets import image_size
from ..units import MM_PER_INCH, Size
from .printshop import Product, Shop, nearest_products

UNPAINTED_ALPHA = 128  # a pixel less opaque than this shows the paper
PAPER_WHITE = 250  # a pixel this light in every channel prints as the paper
UNPAINTED_SHARE = 0.01  # more than this share of the bleed's outer edge unpainted is a finding
_IMAGE = re.compile(r"<image\b[^>]*>", re.S)
_ATTR = r'(?<![-\w:]){}\s*=\s*"([^"]*)"'
_ROOT = re.compile(r"<svg\b[^>]*>", re.S)


def no_product(deck, shop: Shop, findings: Findings) -> None:
    nearest = "; ".join(p.describe() for p in nearest_products(shop, deck.size, deck.shape))
    shape = " round" if deck.shape == "round" else ""
    findings.warning(
        "shop-no-product", deck.where.of("size"),
        f"{shop.title} makes no{shape} piece of {deck.size.width_mm:g} x "
        f"{deck.size.height_mm:g} mm: nothing is written for this deck (never cropped or "
        f"padded); the nearest products are {nearest}", subject=f"deck {deck.name}",
        hint="resize it to one of them, choose another --shop, or leave it out with --sheets "
             "(--strict refuses an export that leaves a deck out)")


def safe_zone(deck, product: Product, shop: Shop, findings: Findings) -> None:
    """The deck's safe margin against the product's, where the product's cut falls on it."""
    trim = product.trim_for(deck.size)
    need = max(product.safe_mm - (trim.width_mm - deck.size.width_mm) / 2,
               product.safe_mm - (trim.height_mm - deck.size.height_mm) / 2)
    if deck.safe_mm + 0.01 < need:
        findings.error(
            "shop-safe-zone", deck.where.of("size"),
            f"text keeps {deck.safe_mm:g} mm inside the trim (the deck's safe_mm), but "
            f"{shop.title}'s {product.name} trims so that text needs {need:.2f} mm",
            subject=f"deck {deck.name}", hint=f"set the deck's safe_mm to {need:.1f} or more "
            "and move what `pnp check` then finds inside the margin")


def unsafe_text(found: Findings, shop: Shop) -> Findings:
    """The check's text-in-safe-margin warnings, as errors: a shop's cut may trim that text."""
    errors = Findings()
    for finding in found.warnings:
        if finding.rule == "text-in-safe-margin":
            errors.add(Finding("shop-text-unsafe", Severity.ERROR, finding.where,
                               f"{finding.message}; {shop.title} may trim it",
                               subject=finding.subject, field=finding.field,
                               hint=finding.hint))
    return errors


def picture_places(item, folder: Path | None, icons: dict) -> dict[str, object]:
    """Where each picture a face of `item` may embed was named, by its base64 text as a
    `data:` URI holds it: the item's art fields (their file:line), and the game's image
    icons (`icons`: each icon's spec, pnp.load.manifest.Icon, and its drawn values)."""
    from .. import reads
    from ..load.art import ART_SUFFIXES

    places = {}
    for spec, values in icons.values():
        href = values.get("href") or ""
        if ";base64," in href:
            places[href.split(";base64,", 1)[1]] = spec.where.of("image")
    fields = getattr(getattr(item, "where", None), "fields", {})
    for name, where in fields.items():
        value = getattr(item, name, None)
        if folder is None or not isinstance(value, str) or \
                not value.lower().endswith(ART_SUFFIXES):
            continue
        try:
            data = reads.read_file(folder / value, inside=folder)
        except (OSError, ValueError):
            continue
        places[base64.b64encode(data).decode("ascii")] = where
    return places


def image_findings(svg: str, where, label: str, product: Product, findings: Findings,
                   places: dict[str, object] | None = None) -> None:
    """Each raster image embedded in a face: its resolution where it prints, and its colour,
    each a finding where the picture was named (`places`, by its base64 text), else at
    `where`."""
    scale = _mm_per_unit(svg)
    for tag in _IMAGE.findall(svg):
        href = re.search(_ATTR.format("href"), tag) or re.search(_ATTR.format("xlink:href"), tag)
        if not href or not href.group(1).startswith("data:") or ";base64," not in href.group(1):
            continue
        encoded = href.group(1).split(";base64,", 1)[1]
        data = base64.b64decode(encoded)
        at = (places or {}).get(encoded, where)
        size = image_size(data)
        width, height = (re.search(_ATTR.format(n), tag) for n in ("width", "height"))
        if size is None or not (width and height):
            continue
        try:
            width_mm, height_mm = float(width.group(1)) * scale, float(height.group(1)) * scale
        except ValueError:
            continue
        aspect = re.search(_ATTR.format("preserveAspectRatio"), tag)
        fit = "slice" if aspect and "slice" in aspect.group(1) else "meet"
        _, width_px, height_px = size
        dpi = effective_dpi(width_px, height_px, width_mm, height_mm, fit)
        if dpi + 0.5 < product.dpi:
            findings.warning(
                "shop-image-resolution", at,
                f"an image of {width_px} x {height_px} px prints at {width_mm:g} x "
                f"{height_mm:g} mm: {dpi:.0f} dpi, below the {product.dpi} dpi of "
                f"{product.name}", subject=label,
                hint=f"use art of at least {round(width_mm / MM_PER_INCH * product.dpi)} x "
                     f"{round(height_mm / MM_PER_INCH * product.dpi)} px")
        if product.colour == "rgb" and _mode(data) == "CMYK":
            findings.error("shop-image-colour", at,
                           f"an image is in CMYK; {product.name} is printed from RGB",
                           subject=label, hint="save the art in RGB (sRGB)")


def _mode(data: bytes) -> str:
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as image:  # reads the header only
            return image.mode
    except Exception:  # noqa: BLE001 - the check has already refused art Pillow cannot read
        return ""


def _mm_per_unit(svg: str) -> float:
    """Millimetres per user unit of a face (its root's mm width over its viewBox width)."""
    root = _ROOT.search(svg)
    if root is None:
        return 1.0
    width = re.search(_ATTR.format("width"), root.group())
    box = re.search(_ATTR.format("viewBox"), root.group())
    try:
        return float(width.group(1)[:-2]) / float(box.group(1).replace(",", " ").split()[2])
    except (AttributeError, ValueError, IndexError, ZeroDivisionError):
        return 1.0


def unpainted_share(image, piece: Size, product: Product, shape: str) -> float:
    """The share of the outer edge of the product's bleed where paper would show beside colour:
    an edge pixel left unpainted (transparent) while the face is painted, and not white, just
    inside the cut. White and unpainted both print as the paper, so a white face need not run
    into the bleed (one rule with `pnp check`'s print-bleed, which asks nothing of white).
    A rectangle's edge is its outermost pixels; a round piece's, a circle 90% of the way out
    through the bleed (the corners of its square image are never cut)."""
    rgba = image.convert("RGBA")  # a Pillow RGBA image of the face on its product
    width, height = rgba.size
    px_per_mm = width / product.image_mm(piece).width_mm
    pixel = rgba.getpixel
    if shape == "round":
        import math

        trim = product.trim_for(piece)
        outer = (trim.width_mm / 2 + 0.9 * product.bleed_mm) * px_per_mm
        inner = min(trim.width_mm, piece.width_mm) / 2 * px_per_mm - 2
        pairs = []
        for degrees in range(360):
            cos, sin = math.cos(degrees * math.pi / 180), math.sin(degrees * math.pi / 180)
            pairs.append(tuple((min(width - 1, int(width / 2 + r * cos)),
                                min(height - 1, int(height / 2 + r * sin)))
                               for r in (outer, inner)))
    else:
        # just inside both the cut and the piece's own edge (a piece a little smaller than
        # its product sits centred inside the cut)
        image_mm = product.image_mm(piece)
        across, down = (min(int(max(product.bleed_mm, (outer - own) / 2) * px_per_mm) + 2,
                            size // 2)
                        for outer, own, size in ((image_mm.width_mm, piece.width_mm, width),
                                                 (image_mm.height_mm, piece.height_mm, height)))
        pairs = [*(((x, 0), (x, down)) for x in range(width)),
                 *(((x, height - 1), (x, height - 1 - down)) for x in range(width)),
                 *(((0, y), (across, y)) for y in range(height)),
                 *(((width - 1, y), (width - 1 - across, y)) for y in range(height))]
    bare = sum(pixel(edge)[3] < UNPAINTED_ALPHA and not _paper(pixel(inside))
               for edge, inside in pairs)
    return bare / len(pairs)


def _paper(rgba: tuple[int, int, int, int]) -> bool:
    """A pixel that prints as the paper: unpainted, or white."""
    return rgba[3] < UNPAINTED_ALPHA or min(rgba[:3]) >= PAPER_WHITE


def bleed_finding(shares: list[tuple[str, float]], where, product: Product,
                  findings: Findings) -> None:
    """One finding for the faces of a deck's side (label, unpainted share) that leave their
    bleed unpainted."""
    bad = [(label, share) for label, share in shares if share > UNPAINTED_SHARE]
    if not bad:
        return
    label, share = max(bad, key=lambda pair: pair[1])
    findings.error(
        "shop-bleed-unpainted", where,
        f"{len(bad)} of {len(shares)} faces leave the edge of their {product.bleed_mm:g} mm "
        f"bleed unpainted (up to {share:.0%}); {product.name} is cut inside it, so paper "
        f"would show at the edge", subject=label,
        hint="draw the background past the trim by at least the bleed (Downturn's templates "
             "draw it 5 mm past)")


def ink_finding(peaks: list[float], faces, where, limit: float, shop: Shop,
                findings: Findings) -> None:
    """One finding for a deck's converted pages whose total ink passes the shop's limit:
    `faces` are (file stem, svg, side, label) in page order."""
    over = [(page, peak) for page, peak in enumerate(peaks) if peak > limit + 0.5]
    if not over:
        return
    page, peak = max(over, key=lambda pair: pair[1])
    _, _, side, label = faces[page]
    findings.error(
        "shop-ink-limit", where.of(side),
        f"{len(over)} of {len(peaks)} pages pass {shop.title}'s {limit:g} % total ink, up to "
        f"{peak:.0f} % on page {page + 1} (the {side})", subject=label,
        hint=f"lighten the darkest colours of that face (four-colour black, deep colours "
             f"laid over one another) until C+M+Y+K stays within {limit:g} %")
