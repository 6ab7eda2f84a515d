"""Units: the one table of physical sizes, the boxes measured in them, and the conversions
out of millimetres.

Everything inside pnp is millimetres. Points (for PDF) are derived here and nowhere else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


MM_PER_INCH = 25.4
POINTS_PER_INCH = 72
MM_PER_PT = MM_PER_INCH / POINTS_PER_INCH
PX_PER_MM = 96 / MM_PER_INCH  # CSS pixels, as SVG user units are without a viewBox


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
    "legal": Size(inch_to_mm(8.5), inch_to_mm(14)),
    "tabloid": Size(inch_to_mm(11), inch_to_mm(17)),  # ANSI B, "ledger" when landscape
    "a3": Size(297, 420),
}

# How the papers are named on sheets and in PDF titles.
PAPER_LABELS: dict[str, str] = {"letter": "US Letter", "a4": "A4", "legal": "US Legal",
                                "tabloid": "Tabloid (11 x 17 in)", "a3": "A3"}

# The margin a home or office printer leaves unprinted on each paper: what a piece printed
# whole on the paper (a board) keeps clear of every edge. Printers that take the US papers
# leave a quarter inch; those sold for ISO papers about 5 mm.
PRINTABLE_MARGIN_MM: dict[str, float] = {"letter": inch_to_mm(0.25), "legal": inch_to_mm(0.25),
                                         "tabloid": inch_to_mm(0.25), "a4": 5, "a3": 5}

# Card and component sizes, trim size, portrait. Metric presets are the sizes card makers
# print; the "-us" ones are the same cards as sold in inches. A poker card is 63 x 88 mm.
CARD_SIZES: dict[str, Size] = {
    "poker": Size(63, 88),
    "poker-us": Size(inch_to_mm(2.5), inch_to_mm(3.5)),
    "bridge": Size(57, 89),
    "bridge-us": Size(inch_to_mm(2.25), inch_to_mm(3.5)),
    "mini": Size(44, 63),
    "mini-us": Size(inch_to_mm(1.75), inch_to_mm(2.5)),
    "mini-euro": Size(44, 68),
    "euro": Size(59, 92),
    "tarot": Size(70, 120),
    "square": Size(70, 70),
    "square-inch": Size(inch_to_mm(1), inch_to_mm(1)),
    "square-1.25-inch": Size(inch_to_mm(1.25), inch_to_mm(1.25)),
    "square-half-inch": Size(inch_to_mm(0.5), inch_to_mm(0.5)),
}


@dataclass(frozen=True)
class Rect:
    """A box in millimetres, from its top-left corner."""

    x_mm: float
    y_mm: float
    width_mm: float
    height_mm: float

    @property
    def right_mm(self) -> float:
        return self.x_mm + self.width_mm

    @property
    def bottom_mm(self) -> float:
        return self.y_mm + self.height_mm

    def grown(self, by_mm: float) -> "Rect":
        return Rect(self.x_mm - by_mm, self.y_mm - by_mm, self.width_mm + 2 * by_mm,
                    self.height_mm + 2 * by_mm)

    def overlaps(self, other: "Rect") -> bool:
        return (self.x_mm < other.right_mm - 1e-9 and other.x_mm < self.right_mm - 1e-9
                and self.y_mm < other.bottom_mm - 1e-9 and other.y_mm < self.bottom_mm - 1e-9)

    def inside(self, other: "Rect") -> bool:
        return (self.x_mm >= other.x_mm - 1e-9 and self.y_mm >= other.y_mm - 1e-9
                and self.right_mm <= other.right_mm + 1e-9
                and self.bottom_mm <= other.bottom_mm + 1e-9)


def bounds(rects) -> Rect:
    """The smallest box holding every one of `rects`."""
    rects = list(rects)
    x0, y0 = min(r.x_mm for r in rects), min(r.y_mm for r in rects)
    x1, y1 = max(r.right_mm for r in rects), max(r.bottom_mm for r in rects)
    return Rect(x0, y0, x1 - x0, y1 - y0)


# Exact factors from each unit a size may be written in to millimetres.
MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": MM_PER_INCH}
# ... and each unit an SVG length may be written in (CSS's: 96 px and 72 pt to the inch).
SVG_MM_PER_UNIT = {**MM_PER_UNIT, "pt": MM_PER_INCH / POINTS_PER_INCH,
                   "pc": MM_PER_INCH / POINTS_PER_INCH * 12, "px": MM_PER_INCH / 96}
_NUMBER = r"([0-9]+(?:\.[0-9]+)?)"
_UNIT = r"(mm|cm|in)"
_TWO = re.compile(rf"{_NUMBER}\s*{_UNIT}?\s*[x×]\s*{_NUMBER}\s*{_UNIT}")
_ONE = re.compile(rf"{_NUMBER}\s*{_UNIT}")
_BARE = re.compile(rf"{_NUMBER}(\s*[x×]\s*{_NUMBER})?")


class SizeError(ValueError):
    """A size that cannot be read; the message says what to write instead."""


def parse_size(text: str) -> Size:
    """A preset name, 'W x H unit', 'W unit x H unit' or 'S unit' (a square) as millimetres.

    A size without a unit is refused rather than guessed: 63 x 88 could be mm or a typo of
    inches, and a card printed at the wrong scale wastes card stock.
    """
    written = " ".join(text.strip().lower().split())
    if written in CARD_SIZES:
        return CARD_SIZES[written]
    two = _TWO.fullmatch(written)
    if two:
        width, first_unit, height, unit = two.groups()
        first_unit = first_unit or unit
        return _positive(Size(float(width) * MM_PER_UNIT[first_unit],
                              float(height) * MM_PER_UNIT[unit]), text)
    one = _ONE.fullmatch(written)
    if one:
        side = float(one.group(1)) * MM_PER_UNIT[one.group(2)]
        return _positive(Size(side, side), text)
    if _BARE.fullmatch(written):
        raise SizeError(f"size '{text}' has no unit; write it with mm, cm or in, "
                        f"e.g. '{written} mm'")
    raise SizeError(f"size '{text}' is not a preset or a size such as '63 x 88 mm'")


def parse_length(text: str) -> float:
    """A length, 'N unit' (mm, cm or in), as millimetres: a bleed or a safe zone, which may
    be 0 and is not held to a piece's bounds."""
    one = _ONE.fullmatch(" ".join(text.strip().lower().split()))
    if one is None:
        raise SizeError(f"length '{text}' is not a length such as '3 mm' or '0.125 in'")
    return float(one.group(1)) * MM_PER_UNIT[one.group(2)]


DEFAULT_BLEED_MM = MM_PER_INCH / 8  # a deck's bleed when it declares none, as print shops ask

# A piece is large enough to pick up and cut, and small enough to tile over a few dozen
# sheets: a 0.001 mm card would be imposed millions to a page.
MIN_PIECE_MM = 5.0
MAX_PIECE_MM = 2000.0


def _positive(size: Size, text: str) -> Size:
    if size.width_mm <= 0 or size.height_mm <= 0:
        raise SizeError(f"size '{text}' must be larger than 0")
    small, large = min(size), max(size)
    if small < MIN_PIECE_MM:
        raise SizeError(f"size '{text}' is {small:g} mm across, less than the "
                        f"{MIN_PIECE_MM:g} mm a piece must be")
    if large > MAX_PIECE_MM:
        raise SizeError(f"size '{text}' is {large:g} mm across, more than the "
                        f"{MAX_PIECE_MM:g} mm a piece may be")
    return size
