"""Cover sheets' counts: a game's components in; what a cover sheet lists of each on a paper
and layout (pieces, sheets of paper, sides) out, counted the way the build imposes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..layout.layouts import PrintOptions
from ..layout.tiling import tile_board
from ..units import PAPERS, Size
from .deck import deck_pages


@dataclass(frozen=True)
class KitPart:
    """One component of a game as a cover sheet lists it: what it is and how many pieces."""

    name: str
    title: str
    kind: str  # "deck", "board" or "page"
    count: int  # pieces (a deck's items, 1 board, a page's copies)
    size: Size | None  # None: a page, the paper's size
    backs: bool = False  # a deck printed double-sided
    bleed_mm: float = 0.0  # a deck's bleed, which imposition may give room


def kit_contents(parts: tuple[KitPart, ...], paper: str,
                 options: PrintOptions | None = None, info: Any = None) -> list[dict[str, Any]]:
    """What a cover sheet lists for each component on this paper and layout, computed the way
    the build imposes it: the pieces, the sheets of paper they take and whether both sides
    print. A deck too large for the paper has `sheets` None (its own finding says why)."""
    options = options or PrintOptions()
    layout = options.sheet_layout()
    listed = []
    for part in parts:
        entry = dict(name=part.name, title=part.title, kind=part.kind, count=part.count,
                     size=part.size, sides=1, sheets=None, tiles=0)
        if part.kind == "deck":
            try:
                pages = deck_pages(part.title, part.count, part.size, part.bleed_mm, part.backs,
                                   paper, options, info)
            except ValueError:
                pages = []
            if pages:
                entry["sheets"] = max(page.number for page in pages)
                entry["sides"] = 2 if part.backs and layout.duplex != "none" else 1
        elif part.kind == "board":
            tiles = len(tile_board(part.size, PAPERS[paper]).tiles)
            entry.update(sheets=tiles + 1, tiles=tiles)  # the assembly map, then the tiles
        else:
            entry["sheets"] = part.count
        listed.append(entry)
    return listed
