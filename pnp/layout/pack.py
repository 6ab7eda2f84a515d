"""Packing: every piece of a game that prints on one stock in; the fewest sheets that hold
them out.

`pnp plan` packs the pieces of all a game's decks that share a stock (card or paper) together,
whatever deck they come from, instead of giving each deck sheets of its own. Pure geometry in
millimetres, origin top-left, y down, as in impose.py.

A sheet is a stack of blocks. A block is a grid of pieces of one size (from any decks), upright
or all turned on their side, centred across the sheet; blocks of different sizes stand
`block_gap_mm` apart, so the ticks that mark a block's vertical cut lines fit between them.
Cutting a sheet: first across the whole sheet along every line marked in the side margins
(that frees each block), then each block along the ticks above and below it. The back of every
piece lands behind its front for the layout's duplex flip, as on a deck's own sheets.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from ..units import Rect, Size, bounds
from .furniture import place_furniture, sheet_notes
from .impose import Page, Slot, flip, flip_line, flip_rotation
from .layouts import SheetLayout
from .marks import Line

BLOCK_TICK_MM = 1.5  # the ticks between two blocks: short, to fit the gap
BLOCK_TICK_CLEAR_MM = 0.5  # and this far from the pieces' bleed


def shuffled(count: int, seed: str) -> tuple[int, ...]:
    """The indices 0 .. count - 1 in a shuffle fixed by `seed` (the same on every run and
    machine: a text seed goes through SHA-512): the order a deck of hidden information is
    laid on its sheets, so no sheet holds, say, exactly its highest values."""
    order = list(range(count))
    random.Random(seed).shuffle(order)
    return tuple(order)


def laid_in(pages: list[Page], order: tuple[int, ...]) -> list[Page]:
    """The pages with piece `order[i]` where piece `i` was: the same places, another order."""
    if not order:
        return pages
    return [replace(page, slots=tuple(replace(slot, index=order[slot.index])
                                      for slot in page.slots)) for page in pages]


@dataclass(frozen=True)
class KitDeck:
    """What to pack from one deck: how many pieces, their trim size, whether they have backs,
    the order its pieces are laid in (`order`; empty: as they come), and whether only its own
    pieces may touch it (`alone`: a deck whose backs must all look alike keeps to blocks of
    its own, a gutter from any other deck's)."""

    name: str
    count: int
    size: Size
    has_back: bool = True
    order: tuple[int, ...] = ()
    alone: bool = False

    def pieces(self) -> list[tuple[str, int]]:
        return [(self.name, i) for i in (self.order or range(self.count))]


@dataclass(frozen=True)
class KitSlot(Slot):
    deck: str = ""  # the deck whose face `index` goes here


@dataclass(frozen=True)
class Block:
    """A grid of same-size pieces on a sheet; `pieces` in reading order, (deck, index)."""

    area: Rect  # the trim boxes' bounds
    piece: Size  # as it lies on the page (turned, when `rotate` is 90)
    rotate: int
    columns: int
    rows: int
    pieces: tuple[tuple[str, int], ...]
    gap_mm: float

    def cells(self) -> list[Rect]:
        pitch_x, pitch_y = self.piece.width_mm + self.gap_mm, self.piece.height_mm + self.gap_mm
        return [Rect(self.area.x_mm + (i % self.columns) * pitch_x,
                     self.area.y_mm + (i // self.columns) * pitch_y, *self.piece)
                for i in range(len(self.pieces))]


@dataclass(frozen=True)
class KitSheet:
    number: int  # from 1, within its stock
    stock: str  # card or paper
    blocks: tuple[Block, ...]
    pages: tuple[Page, ...]  # the fronts page, and the backs page when the layout prints backs

    def contents(self) -> dict[str, int]:
        """How many pieces of each deck, in the order they lie on the sheet."""
        counts: dict[str, int] = {}
        for block in self.blocks:
            for deck, _ in block.pieces:
                counts[deck] = counts.get(deck, 0) + 1
        return counts

    @property
    def cuts(self) -> int:
        """The cuts a person makes with a trimmer to free every piece, one strip at a time:
        each distinct line across the sheet (its edges' too), then, strip by strip, each
        distinct line down it. A sheet of 3 x 3 butted cards is 4 + 3 x 4 = 16 cuts."""
        across = {round(y, 4) for b in self.blocks for c in b.cells()
                  for y in (c.y_mm, c.bottom_mm)}
        strips: dict[tuple[int, float], set[float]] = {}
        for n, block in enumerate(self.blocks):
            for cell in block.cells():
                strips.setdefault((n, round(cell.y_mm, 4)), set()).update(
                    (round(cell.x_mm, 4), round(cell.right_mm, 4)))
        return len(across) + sum(len(xs) for xs in strips.values())


def block_gap_mm(layout: SheetLayout, bleed_mm: float) -> float:
    """How far apart two blocks stand: room for each one's ticks, clear of both bleeds."""
    return max(layout.gap_mm, 2 * (bleed_mm + BLOCK_TICK_CLEAR_MM + BLOCK_TICK_MM) + 1)


def pack(decks: list[KitDeck], paper: Size, layout: SheetLayout, bleed_mm: float = 0,
         room_for=lambda blocks: True) -> list[tuple[Block, ...]]:
    """The fewest sheets (greedy): pieces grouped by size, largest first; each sheet takes as
    many rows of the largest pieces left as fit, then fills the height that remains with
    smaller ones. A group lies on its side when that fits more of it in the room left.

    `room_for(blocks)` says whether a sheet so filled leaves room in its margins for the
    sheet's furniture (ruler, notes); when it does not, the sheet is filled again a few
    millimetres shorter, until it does, unless that takes more sheets than filling each as
    full as it goes: then a sheet is shortened only while it holds as many pieces."""
    margin, gap = layout.min_margin_mm, layout.gap_mm
    width = paper.width_mm - 2 * margin
    height = paper.height_mm - 2 * margin
    # A group fills blocks of its own: pieces of one size from decks that may touch, or one
    # deck that only its own pieces may touch.
    groups: dict[tuple[Size, str], list[tuple[str, int]]] = {}
    for deck in decks:
        groups.setdefault((deck.size, deck.name if deck.alone else ""), []).extend(
            deck.pieces())
    for size, _ in groups:
        if _fits(size, width, height, gap) == (0, 0) and \
                _fits(Size(size.height_mm, size.width_mm), width, height, gap) == (0, 0):
            raise ValueError(f"a {size.width_mm:g} x {size.height_mm:g} mm piece does not fit "
                             f"the paper with {margin:g} mm margins")
    order = sorted(groups, key=lambda g: (-g[0].width_mm * g[0].height_mm, -g[0].height_mm,
                                          g[1]))
    left = {group: list(groups[group]) for group in order}
    between = block_gap_mm(layout, bleed_mm)
    furnished = _sheets(left, order, paper, margin, width, height, gap, between, room_for)
    if len(furnished) == 1:
        return furnished
    # Shortening a sheet for its ruler and notes can cost a sheet of card: then sheets are
    # shortened only while they hold as many pieces, and the few left without room go bare.
    fuller = _sheets(left, order, paper, margin, width, height, gap, between, room_for,
                     keep_count=True)
    return fuller if len(fuller) < len(furnished) else furnished


def _sheets(left, order, paper: Size, margin: float, width: float, height: float, gap: float,
            between: float, room_for, keep_count: bool = False) -> list[tuple[Block, ...]]:
    """Sheet after sheet, each filled a few millimetres shorter until `room_for` its
    furniture (with `keep_count`, only while it still holds as many pieces)."""
    left = {size: list(pieces) for size, pieces in left.items()}
    sheets = []
    while any(left.values()):
        full = {size: list(pieces) for size, pieces in left.items()}
        most = _fill(full, order, paper, margin, width, height, gap, between)
        for shorter in range(0, int(height / 2), SHORTEN_MM):
            trial = {size: list(pieces) for size, pieces in left.items()}
            blocks = _fill(trial, order, paper, margin, width, height - shorter, gap, between)
            if keep_count and _held(blocks) < _held(most):
                break
            if blocks and room_for(blocks):
                most, full = blocks, trial
                break
        # else: no height leaves room: the sheet goes without its furniture
        left = full
        sheets.append(most)
    return sheets


def _held(blocks: tuple[Block, ...]) -> int:
    return sum(len(block.pieces) for block in blocks)


SHORTEN_MM = 3  # how much shorter a sheet is filled again when its furniture does not fit


def _fill(left, order, paper: Size, margin: float, width: float, height: float, gap: float,
          between: float) -> tuple[Block, ...]:
    """One sheet's blocks, taken from `left` (which loses them), centred on the paper."""
    blocks: list[Block] = []
    used = 0.0
    for group in order:
        size = group[0]
        while left[group]:
            room = height - used - (between if blocks else 0)
            best = None
            for rotate, piece in ((0, size), (90, Size(size.height_mm, size.width_mm))):
                cols, rows = _fits(piece, width, room, gap)
                n = min(len(left[group]), cols * rows)
                if n and (best is None or n > best[0]):
                    best = (n, rotate, piece, cols)
            if best is None:
                break
            n, rotate, piece, cols = best
            rows = math.ceil(n / cols)
            cols = min(cols, n)
            top = margin + used + (between if blocks else 0)
            block_w = cols * (piece.width_mm + gap) - gap
            block_h = rows * (piece.height_mm + gap) - gap
            area = Rect((paper.width_mm - block_w) / 2, top, block_w, block_h)
            blocks.append(Block(area, piece, rotate, cols, rows, tuple(left[group][:n]), gap))
            del left[group][:n]
            used = top + block_h - margin
    return _centred(tuple(blocks), paper) if blocks else ()


def _fits(piece: Size, width: float, height: float, gap: float) -> tuple[int, int]:
    cols = math.floor((width + gap) / (piece.width_mm + gap) + 1e-9)
    rows = math.floor((height + gap) / (piece.height_mm + gap) + 1e-9)
    return (cols, rows) if cols >= 1 and rows >= 1 else (0, 0)


def _centred(blocks: tuple[Block, ...], paper: Size) -> tuple[Block, ...]:
    """The stack of blocks moved down to stand in the middle of the paper."""
    top, bottom = blocks[0].area.y_mm, blocks[-1].area.bottom_mm
    shift = (paper.height_mm - (bottom - top)) / 2 - top
    return tuple(replace(b, area=Rect(b.area.x_mm, b.area.y_mm + shift, b.area.width_mm,
                                      b.area.height_mm)) for b in blocks)


def kit_marks(blocks: tuple[Block, ...], layout: SheetLayout, bleed_mm: float) -> list[Line]:
    """Ticks for a stack of blocks: every line across the sheet in the side margins, beyond all
    the pieces; each block's lines down above and below it (in the top or bottom margin at the
    ends of the stack, in the gap between two blocks, shorter, elsewhere)."""
    spec = layout.marks
    if spec.style == "none":
        return []
    cells = [c for b in blocks for c in b.cells()]
    area = bounds(cells).grown(bleed_mm)
    near, far = spec.offset_mm, spec.offset_mm + spec.length_mm
    marks = []
    for y in sorted({round(v, 6) for c in cells for v in (c.y_mm, c.bottom_mm)}):
        marks.append(Line(area.x_mm - near, y, area.x_mm - far, y))
        marks.append(Line(area.right_mm + near, y, area.right_mm + far, y))
    for n, block in enumerate(blocks):
        box = block.area.grown(bleed_mm)
        xs = sorted({round(v, 6) for c in block.cells() for v in (c.x_mm, c.right_mm)})
        first, last = n == 0, n == len(blocks) - 1
        up = (near, far) if first else (BLOCK_TICK_CLEAR_MM,
                                         BLOCK_TICK_CLEAR_MM + BLOCK_TICK_MM)
        down = (near, far) if last else (BLOCK_TICK_CLEAR_MM,
                                          BLOCK_TICK_CLEAR_MM + BLOCK_TICK_MM)
        for x in xs:
            marks.append(Line(x, box.y_mm - up[0], x, box.y_mm - up[1]))
            marks.append(Line(x, box.bottom_mm + down[0], x, box.bottom_mm + down[1]))
    return marks


def kit_sheets(decks: list[KitDeck], paper: Size, layout: SheetLayout, stock: str, *,
               bleed_mm: float = 0, printer: str = "", layout_name: str = "") -> list[KitSheet]:
    """The pieces of `decks` packed on sheets of `paper`, each sheet as its pages: a fronts
    page and, when the layout prints backs, a backs page with every back behind its front
    (and a blank one for a sheet of pieces without backs, so the pages stay in step)."""
    if layout.kind != "grid":
        raise ValueError(f"a kit is packed on grid layouts, not '{layout.kind}' ones")
    if layout.registration is not None:  # a cutter cuts one grid of one size per sheet
        raise ValueError("a kit is packed for cutting by hand, not on a cutting machine's "
                         "layout; print those deck by deck")
    bleed = min(bleed_mm, layout.gap_mm / 2) if layout.bleed else 0.0
    backs = layout.backs != "none" and layout.duplex != "none"
    has_back = {d.name: d.has_back for d in decks}
    def room_for(blocks) -> bool:
        cells = [c.grown(bleed) for b in blocks for c in b.cells()]
        return place_furniture(paper, cells, tuple(kit_marks(blocks, layout, bleed)),
                               sheet_notes(layout, "front", printer)) is not None

    sheets = []
    for number, blocks in enumerate(pack(decks, paper, layout, bleed, room_for), start=1):
        slots = [KitSlot(index, cell, "front", block.rotate, bleed, deck=deck)
                 for block in blocks for (deck, index), cell in zip(block.pieces, block.cells())]
        marks = tuple(kit_marks(blocks, layout, bleed))
        pages = [_page("front", number, paper, tuple(slots), marks, layout, bleed, printer,
                       layout_name)]
        if backs:
            turned = tuple(replace(s, rect=flip(s.rect, paper, layout.duplex), face="back",
                                   rotate=flip_rotation(s.rotate, layout.duplex))
                           for s in slots if has_back[s.deck])
            pages.append(_page("back", number, paper, turned,
                               tuple(flip_line(m, paper, layout.duplex) for m in marks),
                               layout, bleed, printer, layout_name))
        sheets.append(KitSheet(number, stock, blocks, tuple(pages)))
    return sheets


def _page(side, number, paper, slots, marks, layout, bleed, printer, layout_name) -> Page:
    notes = sheet_notes(layout, side, printer)
    if not slots:
        empty = Rect(paper.width_mm / 2, paper.height_mm / 2, 0, 0)
        return Page(side, number, paper, (), empty, (), {}, notes, None, (), (), layout_name)
    trim = bounds(s.rect for s in slots)
    furniture = place_furniture(paper, [s.rect.grown(bleed) for s in slots], marks, notes)
    notices = () if furniture is not None else (
        f"kit sheet {number}: the ruler and print notes do not fit its margins; "
        "they are left off",)
    return Page(side, number, paper, slots, trim, marks, furniture or {}, notes,
                trim.grown(bleed) if bleed else None, (), notices, layout_name)


__all__ = ["KitDeck", "KitSlot", "KitSheet", "Block", "pack", "kit_sheets", "kit_marks",
           "shuffled", "laid_in"]
