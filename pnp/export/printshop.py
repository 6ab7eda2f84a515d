"""Print shops: a shop's products (pnp/data/shops.yaml) and a deck's rendered faces in; for each
face, the image or PDF page the shop's product for that piece asks for, out.

Every piece is matched by size and shape to one product of the shop (`pick_product`): a piece
within FIT_MM of a product's trim on both sides is that product (a 63 x 88 mm card is a 2.5 x
3.5 in poker card); a piece no product fits gets none, and the export reports it instead of
cropping or padding it. A face is drawn at its product's size: the product's trim plus its
bleed, the face centred on it, so the face's own bleed fills the edge (never stretched). A PNG
is rendered at the product's dpi and says so (its pHYs chunk); a PDF page is the product's
trim plus bleed, with TrimBox and BleedBox. Faces are numbered in the order the shop asks for
(back 1, front 1, back 2, ... or front first); each distinct face once, with a manifest
of the copies (shopfiles.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal

from ..findings import Findings
from ..layout.plans import grow_viewport
from ..load.content import load_document
from ..load.schema import INVALID, validate
from ..units import MM_PER_INCH, Size, SizeError, parse_length, parse_size

SHOPS_FILE = Path(__file__).parent.parent / "data" / "shops.yaml"
# A piece within this of a product's trim, on each side, is that product: a cut wanders about
# as much, so 63 x 88 mm and 2.5 x 3.5 in (63.5 x 88.9 mm) come out the same card.
FIT_MM = 1.0


@dataclass(frozen=True)
class ProductSpec:
    """A product as shops.yaml writes it; empty fields take the shop's."""

    trim: str
    title: str = ""  # the shop's own name for it, as an order names it
    shape: Literal["rect", "round"] = "rect"
    bleed: str = ""
    safe: str = ""
    dpi: int = 0
    file: Literal["", "png", "pdf"] = ""
    colour: Literal["", "rgb", "cmyk"] = ""


@dataclass(frozen=True)
class ShopSpec:
    title: str
    products: dict[str, ProductSpec]
    file: Literal["png", "pdf"] = "png"
    colour: Literal["rgb", "cmyk"] = "rgb"
    backs: Literal["before-fronts", "after-fronts"] = "before-fronts"
    dpi: int = 300
    bleed: str = "0.125 in"
    safe: str = "0.125 in"
    ink_limit: str = ""  # the most total ink (C+M+Y+K) the shop prints, as '240 %'


@dataclass(frozen=True)
class Product:
    """One thing a shop makes: its cut size (None: any, the piece's own), bleed, safe zone,
    resolution, file type and colour."""

    shop: str
    name: str
    trim: Size | None
    shape: str
    bleed_mm: float
    safe_mm: float
    dpi: int
    file: str
    colour: str
    title: str = ""  # the shop's own name for it; the product's key when not given

    def trim_for(self, piece: Size) -> Size:
        return self.trim or piece

    def image_mm(self, piece: Size) -> Size:
        """The whole image: the trim plus the bleed on every side."""
        trim = self.trim_for(piece)
        return Size(trim.width_mm + 2 * self.bleed_mm, trim.height_mm + 2 * self.bleed_mm)

    def pixels(self, piece: Size, dpi: float | None = None) -> tuple[int, int]:
        """The whole image in pixels, at the product's dpi unless another is given."""
        dpi = dpi or self.dpi
        image = self.image_mm(piece)
        return round(image.width_mm * dpi / MM_PER_INCH), round(image.height_mm * dpi / MM_PER_INCH)

    def describe(self) -> str:
        if self.trim is None:
            return f"{self.name} (any size, {self.bleed_mm:g} mm bleed)"
        inches = [v / MM_PER_INCH for v in self.trim]
        return (f"{self.name} ({inches[0]:g} x {inches[1]:g} in"
                f"{', round' if self.shape == 'round' else ''})")


@dataclass(frozen=True)
class Shop:
    name: str
    title: str
    file: str
    colour: str
    backs_first: bool
    products: tuple[Product, ...] = field(default_factory=tuple)
    ink_limit: float | None = None  # percent of total ink; None: the shop names none


def _length_mm(text: str) -> float:
    return parse_length(text)


def _resolve(name: str, spec: ShopSpec) -> Shop:
    products = []
    for product_name, p in spec.products.items():
        trim = None if p.trim.strip() == "piece" else parse_size(p.trim)
        products.append(Product(name, product_name, trim, p.shape,
                                _length_mm(p.bleed or spec.bleed), _length_mm(p.safe or spec.safe),
                                p.dpi or spec.dpi, p.file or spec.file, p.colour or spec.colour,
                                p.title or product_name))
    return Shop(name, spec.title, spec.file, spec.colour, spec.backs == "before-fronts",
                tuple(products), _percent(spec.ink_limit) if spec.ink_limit else None)


def _percent(text: str) -> float:
    try:
        value = float(text.strip().removesuffix("%").strip())
    except ValueError:
        raise SizeError(f"'{text}' is not a percentage such as '240 %'") from None
    if not 0 < value <= 400:
        raise SizeError(f"an ink limit of {text} is not between 0 and 400 %")
    return value


@cache
def load_shops() -> dict[str, Shop]:
    """The shops of pnp/data/shops.yaml; a mistake there is a packaging bug, raised at once."""
    findings = Findings()
    specs = validate(load_document(SHOPS_FILE, "pnp/data/shops.yaml", findings),
                     dict[str, ShopSpec], "", findings)
    if specs is INVALID or findings.errors:
        raise RuntimeError("; ".join(f.format() for f in findings))
    try:
        return {name: _resolve(name, spec) for name, spec in specs.items()}
    except SizeError as exc:
        raise RuntimeError(f"pnp/data/shops.yaml: {exc}") from None


def pick_product(shop: Shop, piece: Size, shape: str) -> Product | None:
    """The shop's product for a piece of this size and shape: the closest within FIT_MM on both
    sides, of the same shape; None when none is."""
    fitting = []
    for product in shop.products:
        if product.trim is None:
            fitting.append((0.0, product))
            continue
        if product.shape != shape:
            continue
        off = max(abs(product.trim.width_mm - piece.width_mm),
                  abs(product.trim.height_mm - piece.height_mm))
        if off <= FIT_MM:
            fitting.append((off, product))
    return min(fitting, key=lambda pair: pair[0])[1] if fitting else None


def nearest_products(shop: Shop, piece: Size, shape: str, count: int = 2) -> list[Product]:
    """The products closest in size to a piece no product fits, to name in its finding."""
    sized = [p for p in shop.products if p.trim is not None and p.shape == shape] or \
        [p for p in shop.products if p.trim is not None]
    return sorted(sized, key=lambda p: abs(p.trim.width_mm - piece.width_mm) +
                  abs(p.trim.height_mm - piece.height_mm))[:count]


def face_on_product(svg: str, piece: Size, product: Product) -> str:
    """The face with its viewport grown to the product's whole image, centred: more of the
    face's own bleed shows, nothing is stretched."""
    image = product.image_mm(piece)
    return grow_viewport(svg, (image.width_mm - piece.width_mm) / 2,
                         (image.height_mm - piece.height_mm) / 2)
