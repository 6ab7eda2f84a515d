"""Units: the one table of physical sizes, and the conversions out of millimetres.

Everything inside pnp is millimetres. Points (for PDF) are derived here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

MM_PER_INCH = 25.4
POINTS_PER_INCH = 72


def mm_to_pt(mm: float) -> float:
    return mm * POINTS_PER_INCH / MM_PER_INCH


def pt_to_mm(pt: float) -> float:
    return pt * MM_PER_INCH / POINTS_PER_INCH


def inch_to_mm(inches: float) -> float:
    return inches * MM_PER_INCH


@dataclass(frozen=True)
class Size:
    """A width and height in millimetres."""

    width_mm: float
    height_mm: float

    @property
    def landscape(self) -> "Size":
        return Size(max(self), min(self))

    def __iter__(self):
        return iter((self.width_mm, self.height_mm))


# Papers are stored portrait in the unit they are defined in.
PAPERS: dict[str, Size] = {
    "letter": Size(inch_to_mm(8.5), inch_to_mm(11)),
    "a4": Size(210, 297),
}

# Card and component sizes, trim size. A poker card is 63 x 88 mm in every metric template.
CARD_SIZES: dict[str, Size] = {
    "poker": Size(63, 88),
    "bridge": Size(57, 89),
    "mini": Size(44, 63),
    "tarot": Size(70, 120),
    "square-inch": Size(inch_to_mm(1), inch_to_mm(1)),
    "square-1.25-inch": Size(inch_to_mm(1.25), inch_to_mm(1.25)),
    "square-half-inch": Size(inch_to_mm(0.5), inch_to_mm(0.5)),
}
