"""Tiling: a board size, a paper and a tile spec in; the tiles that print the board at home out.

Pure geometry, no drawing, all in millimetres with the origin top-left and y down. The board is
cut into a grid of equal windows; neighbouring windows share an overlap band of exactly
`overlap_mm`. Each window is centred on its own page. Every edge two pages share carries
alignment marks: targets centred on the middle line of the band, at the same board point on both
pages. Assembly: cut each page along the middle of its bands with the pages to its left and
above, lay it over them so the half targets meet, and glue.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from ..units import Rect, Size

Edge = Literal["left", "right", "top", "bottom"]


@dataclass(frozen=True)
class TileSpec:
    overlap_mm: float = 10  # the band two neighbouring pages share
    min_margin_mm: float = 10  # kept clear around the window on every page
    mark_spacing_mm: float = 80  # about one alignment mark per this length of shared edge
    mark_inset_mm: float = 25  # marks keep this far from a window's corners


@dataclass(frozen=True)
class Mark:
    """An alignment target on one page; its twin on the neighbouring page has the same board point."""

    edge: Edge  # the window edge it belongs to
    board_x_mm: float
    board_y_mm: float
    x_mm: float  # on the page
    y_mm: float


@dataclass(frozen=True)
class Tile:
    row: int  # from 1, top to bottom
    column: int  # from 1, left to right
    window: Rect  # the part of the board this page shows, in board millimetres
    placed: Rect  # where that window sits on the page
    shared: tuple[Edge, ...]  # edges with a neighbouring page
    marks: tuple[Mark, ...]
    cuts: tuple[Edge, ...]  # edges cut along the band's middle line before gluing (left, top)

    @property
    def label(self) -> str:
        return f"row {self.row} / column {self.column}"

    def to_page(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """A board point as a point on this page."""
        return (x_mm - self.window.x_mm + self.placed.x_mm,
                y_mm - self.window.y_mm + self.placed.y_mm)

    def cut_line_mm(self, edge: Edge, overlap_mm: float) -> float:
        """Where the cut along `edge` runs on the page: x for left, y for top."""
        if edge == "left":
            return self.placed.x_mm + overlap_mm / 2
        if edge == "top":
            return self.placed.y_mm + overlap_mm / 2
        raise ValueError(f"pages are cut on their left and top edges, not {edge}")


@dataclass(frozen=True)
class Tiling:
    board: Size
    paper: Size  # the orientation chosen for the tiles
    spec: TileSpec
    rows: int
    columns: int
    tiles: tuple[Tile, ...]  # row by row

    @property
    def overlap_mm(self) -> float:
        return self.spec.overlap_mm

    def tile(self, row: int, column: int) -> Tile:
        return self.tiles[(row - 1) * self.columns + (column - 1)]


def split(length_mm: float, usable_mm: float, overlap_mm: float) -> list[tuple[float, float]]:
    """Cut `length_mm` into the fewest equal windows no longer than `usable_mm`, neighbours
    overlapping by exactly `overlap_mm`: (start, size) of each."""
    if length_mm <= usable_mm:
        return [(0.0, length_mm)]
    if usable_mm <= overlap_mm:
        raise ValueError(f"a {usable_mm:g} mm window cannot carry a {overlap_mm:g} mm overlap")
    count = math.ceil((length_mm - overlap_mm) / (usable_mm - overlap_mm) - 1e-9)
    size = (length_mm + (count - 1) * overlap_mm) / count
    return [(i * (size - overlap_mm), size) for i in range(count)]


# Room each page's own furniture (board-tile.svg.j2) takes beyond the window, inside the
# printable margin: the shortest corner mark at the sides (1.5 mm off, 1.2 mm long), the
# labels above, a line of notes below (more where the page has room).
SIDE_MM, ABOVE_MM, BELOW_MM = 2.8, 5.5, 4.6


def tile_board(board: Size, paper: Size, spec: TileSpec = TileSpec(), edge_mm: float = 0
               ) -> Tiling:
    """Tile the board over the paper, portrait or landscape, whichever needs fewer pages;
    each page's window and its furniture inside `edge_mm` (the printable margin)."""
    portrait = Size(min(paper), max(paper))
    options = [_tile_on(board, portrait, spec, edge_mm),
               _tile_on(board, portrait.landscape, spec, edge_mm)]
    return min(options, key=lambda t: len(t.tiles))  # portrait on a tie


def _tile_on(board: Size, paper: Size, spec: TileSpec, edge_mm: float = 0) -> Tiling:
    side = max(spec.min_margin_mm, edge_mm + SIDE_MM)
    top = max(spec.min_margin_mm, edge_mm + ABOVE_MM)
    bottom = max(spec.min_margin_mm, edge_mm + BELOW_MM)
    usable_w = paper.width_mm - 2 * side
    usable_h = paper.height_mm - top - bottom
    columns = split(board.width_mm, usable_w, spec.overlap_mm)
    rows = split(board.height_mm, usable_h, spec.overlap_mm)
    window_w, window_h = columns[0][1], rows[0][1]
    page_x = (paper.width_mm - window_w) / 2
    page_y = min(max((paper.height_mm - window_h) / 2, top),
                 paper.height_mm - bottom - window_h)  # centred where that leaves room
    tiles = []
    for r, (y, h) in enumerate(rows, start=1):
        for c, (x, w) in enumerate(columns, start=1):
            shared = tuple(edge for edge, present in (
                ("left", c > 1), ("right", c < len(columns)),
                ("top", r > 1), ("bottom", r < len(rows))) if present)
            window = Rect(x, y, w, h)
            placed = Rect(page_x, page_y, w, h)
            marks = tuple(_marks(window, placed, shared, spec))
            cuts = tuple(e for e in shared if e in ("left", "top"))
            tiles.append(Tile(r, c, window, placed, shared, marks, cuts))
    return Tiling(board, paper, spec, len(rows), len(columns), tuple(tiles))


def mark_offsets(length_mm: float, spec: TileSpec) -> list[float]:
    """Where the marks sit along a shared edge of `length_mm`, from its start."""
    span = length_mm - 2 * spec.mark_inset_mm
    if span <= 0:
        return [length_mm / 2]
    count = max(2, round(span / spec.mark_spacing_mm) + 1)
    return [spec.mark_inset_mm + span * i / (count - 1) for i in range(count)]


def _marks(window: Rect, placed: Rect, shared: tuple[Edge, ...], spec: TileSpec):
    half = spec.overlap_mm / 2
    for edge in shared:
        if edge in ("left", "right"):
            bx = window.x_mm + half if edge == "left" else window.right_mm - half
            points = [(bx, window.y_mm + t) for t in mark_offsets(window.height_mm, spec)]
        else:
            by = window.y_mm + half if edge == "top" else window.bottom_mm - half
            points = [(window.x_mm + t, by) for t in mark_offsets(window.width_mm, spec)]
        for bx, by in points:
            yield Mark(edge, bx, by, bx - window.x_mm + placed.x_mm,
                       by - window.y_mm + placed.y_mm)


def fit_whole(board: Size, paper: Size, margin_mm: float) -> tuple[Size, Rect] | None:
    """The paper, portrait or landscape, and where the board sits centred on it when it fits
    whole inside `margin_mm` of every edge (portrait first); None when it must be tiled."""
    portrait = Size(min(paper), max(paper))
    for page in (portrait, portrait.landscape):
        room_w, room_h = page.width_mm - 2 * margin_mm, page.height_mm - 2 * margin_mm
        if board.width_mm <= room_w + 1e-9 and board.height_mm <= room_h + 1e-9:
            return page, Rect((page.width_mm - board.width_mm) / 2,
                              (page.height_mm - board.height_mm) / 2, *board)
    return None
