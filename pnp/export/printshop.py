"""Print shops: a deck's rendered faces in; one PNG per face, sized as a shop asks, out.

Print-on-demand shops take one image per face with the bleed around it, at 300 dpi: The Game
Crafter's poker card is 825 x 1125 px (2.5 x 3.5 in and 1/8 in of bleed on every side). A
shop's trim may differ a little from the deck's (63 x 88 mm against 63.5 x 88.9 mm): the face
is centred and more of its bleed shows, never stretched. Faces are numbered in the order the
shop asks for (back 1, front 1, back 2, ...). The PDF equivalent is the `print-shop` layout.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..layout.plans import grow_viewport
from ..units import MM_PER_INCH, Size, inch_to_mm


@dataclass(frozen=True)
class ShopProfile:
    name: str
    description: str
    trim: Size  # the shop's cut size for this kind of piece
    bleed_mm: float
    dpi: int = 300
    backs_first: bool = True


SHOPS = {
    "thegamecrafter": ShopProfile(
        "thegamecrafter", "The Game Crafter: poker cards, 825 x 1125 px PNG, back then front",
        Size(inch_to_mm(2.5), inch_to_mm(3.5)), inch_to_mm(0.125)),
    "pdf-3mm": ShopProfile(
        "pdf-3mm", "offset printers: the deck's own size, 3 mm bleed, 300 dpi",
        Size(0, 0), 3.0),
}


def face_pixels(shop: ShopProfile, size: Size) -> tuple[int, int]:
    trim = shop.trim if shop.trim.width_mm else size
    return tuple(round((v + 2 * shop.bleed_mm) * shop.dpi / MM_PER_INCH) for v in trim)


def shop_face_svg(svg: str, size: Size, shop: ShopProfile) -> str:
    """The face with as much of its bleed showing as the shop's image holds."""
    trim = shop.trim if shop.trim.width_mm else size
    bleed_x = (trim.width_mm + 2 * shop.bleed_mm - size.width_mm) / 2
    bleed_y = (trim.height_mm + 2 * shop.bleed_mm - size.height_mm) / 2
    return grow_viewport(svg, bleed_x, bleed_y)


def shop_pngs(deck_name: str, fronts: list[str], backs: list[str] | None, size: Size,
              shop: ShopProfile) -> list[tuple[str, bytes]]:
    """(file name, PNG) for every face, in the shop's order."""
    from ..pdf.draw import render_png  # drawing, only when exporting (the CLI reads SHOPS)

    width, height = face_pixels(shop, size)
    files = []
    for index, front in enumerate(fronts, start=1):
        sides = [("front", front)]
        if backs is not None:
            sides = [("back", backs[index - 1]), *sides] if shop.backs_first else \
                [*sides, ("back", backs[index - 1])]
        for side, svg in sides:
            png = render_png(shop_face_svg(svg, size, shop), shop.dpi, width, height)
            files.append((f"{deck_name}-{index:03d}-{side}.png", png))
    return files
