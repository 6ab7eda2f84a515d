"""Boards: one large piece and its drawn face in; its PDFs' page plans out, whole on a page
of its own size and, on home paper, whole or tiled (pnp.layout.tiling) with an assembly map.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..findings import Findings
from ..layout.furniture import fit_lines
from ..layout.layouts import PrintOptions, printable_margin
from ..layout.plans import PagePlan, Placement
from ..layout.tiling import Tiling, fit_whole, tile_board
from ..load.schema import Where
from ..render.renderer import Face, Renderer
from ..render.stamps import render_stamped
from ..units import PAPERS, Rect, Size, pt_to_mm
from .component import (Component, Drawn, Output, blank_svg, document_info, paper_label,
                        size_label)

TILE_TEMPLATE = "board-tile.svg.j2"  # a tiled board page's margins, cut lines and marks
ASSEMBLY_TEMPLATE = "board-assembly.svg.j2"  # the map of the tiles, first page
ASSEMBLY_MARGIN_MM = 15  # the assembly map's text starts this far in from the left edge
ASSEMBLY_STEPS_MM = 95  # the width of the steps' column beside a tall board's thumbnail
TICK_ROOM_MM = 2.8  # a board printed whole keeps its trim ticks (1.5 mm off, 1.2 mm) printable


@dataclass
class Board(Component):
    """One large piece drawn whole from one template: printed on a single page of its own size
    for a copy shop, or tiled over home-printer paper."""

    name: str
    title: str
    size: Size
    template: str
    item: Any  # the data the template reads as `card`
    where: Where = field(default_factory=Where)
    face: Face | None = None

    def part(self, renderer: Renderer) -> Callable[[], Drawn] | None:
        if not renderer.exists(self.template, self.where.of("template")):
            return None
        return lambda: {"face": render_stamped(renderer, self.template, self.item, self.size,
                                               board=self)}

    def join(self, parts: list[Drawn]) -> None:
        self.face = parts[0]["face"] if parts else None

    def outputs(self, renderer: Renderer, paper: str, findings: Findings,
                options: PrintOptions | None = None) -> list[Output]:
        svg = self.face.svg if self.face else ""
        whole = Rect(0, 0, *self.size)
        large = [PagePlan(self.size, whole, blank_svg(self.size), (Placement(0, 0, svg),))]
        info = renderer.info
        edge = printable_margin(paper, None, getattr(getattr(options, "printer", None),
                                                     "printable_margin_mm", None))
        fits = fit_whole(self.size, PAPERS[paper], edge + TICK_ROOM_MM)
        if fits:  # the paper holds the board inside what a printer prints: no tiles
            page, placed = fits
            on_paper = [PagePlan(page, placed, trim_ticks(page, placed, edge_mm=edge),
                                 (Placement(placed.x_mm, placed.y_mm, svg),))]
            detail = f"whole on {paper_label(paper)}"
        else:
            on_paper = self.plan_tiles(renderer, tile_board(self.size, PAPERS[paper],
                                                            edge_mm=edge), paper, edge)
            detail = f"tiled over {paper_label(paper)}"
        return [
            Output(f"{self.name}-large.pdf", large,
                   document_info(info, self.title, f"one {size_label(self.size)} page", "none")),
            Output(f"{self.name}-{paper}.pdf", on_paper,
                   document_info(info, self.title, detail, "none")),
        ]

    def plan_tiles(self, renderer: Renderer, tiling: Tiling, paper: str, edge_mm: float
                   ) -> list[PagePlan]:
        """The assembly map page, then one page per tile: a clipped window of the board
        between the page's margin furniture (under) and its cut lines and marks (over)."""
        svg = self.face.svg if self.face else ""
        page = Rect(0, 0, *tiling.paper)
        context = dict(board=self, tiling=tiling, paper_name=paper_label(paper),
                       expect=tiling.paper, printable_mm=edge_mm, fit=fit_lines,
                       least_mm=pt_to_mm(6))

        def draw(template: str, layer: str, **extra) -> str:
            return renderer.render(template, None, layer=layer, **context, **extra).svg

        thumb = assembly_thumbnail(tiling)
        scale = thumb.width_mm / self.size.width_mm
        plans = [PagePlan(tiling.paper, page, draw(ASSEMBLY_TEMPLATE, "under", thumb=thumb),
                          (Placement(thumb.x_mm, thumb.y_mm, svg, scale=scale),
                           Placement(0, 0, draw(ASSEMBLY_TEMPLATE, "over", thumb=thumb))))]
        for tile in tiling.tiles:
            x, y = tile.to_page(0, 0)
            plans.append(PagePlan(tiling.paper, tile.placed, draw(TILE_TEMPLATE, "under",
                                                                  tile=tile),
                                  (Placement(x, y, svg, clip=tile.placed),
                                   Placement(0, 0, draw(TILE_TEMPLATE, "over", tile=tile)))))
        return plans

    def gallery(self) -> list[tuple[str, dict[str, str]]]:
        if self.face is None:
            return []
        return [(self.face.label or self.title, {"board": self.face.svg})]

    def describe(self) -> str:
        return f"  1 x {self.title} ({size_label(self.size)}; whole, or tiled over the paper)"


def assembly_thumbnail(tiling: Tiling) -> Rect:
    """Where the board's thumbnail sits on the assembly map page, below the heading: at the
    left with the steps in a column beside it, or centred with the steps below it, whichever
    draws it larger. Either way the steps end above the ruler and the footer."""
    margin_mm, header_mm, footer_mm, below_mm = ASSEMBLY_MARGIN_MM, 40, 30, 85
    paper = tiling.paper
    board = tiling.board
    height_mm = paper.height_mm - header_mm - footer_mm
    beside = min((paper.width_mm - 2 * margin_mm - ASSEMBLY_STEPS_MM - 10) / board.width_mm,
                 height_mm / board.height_mm)
    below = min((paper.width_mm - 2 * margin_mm) / board.width_mm,
                (height_mm - below_mm) / board.height_mm)
    scale = max(beside, below)
    width, height = board.width_mm * scale, board.height_mm * scale
    x_mm = margin_mm if beside > below else (paper.width_mm - width) / 2
    return Rect(x_mm, header_mm, width, height)


def trim_ticks(paper: Size, piece: Rect, offset_mm: float = 1.5, length_mm: float = 5,
               edge_mm: float = 1) -> str:
    """A page-sized SVG with a tick on the extension of each of the piece's edges, in the
    margin (shortened to the room there is inside the printable `edge_mm`): where to trim a
    piece printed whole."""
    lines = []
    room_x = min(piece.x_mm, paper.width_mm - piece.right_mm) - offset_mm
    room_y = min(piece.y_mm, paper.height_mm - piece.bottom_mm) - offset_mm
    reach_x = min(length_mm, room_x - edge_mm - 0.1)
    reach_y = min(length_mm, room_y - edge_mm - 0.1)
    for x in (piece.x_mm, piece.right_mm):
        if reach_y > 0.5:
            for y0, y1 in ((piece.y_mm - offset_mm, piece.y_mm - offset_mm - reach_y),
                           (piece.bottom_mm + offset_mm, piece.bottom_mm + offset_mm + reach_y)):
                lines.append(f'<line x1="{x:.4f}" y1="{y0:.4f}" x2="{x:.4f}" y2="{y1:.4f}"/>')
    for y in (piece.y_mm, piece.bottom_mm):
        if reach_x > 0.5:
            for x0, x1 in ((piece.x_mm - offset_mm, piece.x_mm - offset_mm - reach_x),
                           (piece.right_mm + offset_mm, piece.right_mm + offset_mm + reach_x)):
                lines.append(f'<line x1="{x0:.4f}" y1="{y:.4f}" x2="{x1:.4f}" y2="{y:.4f}"/>')
    w, h = f"{paper.width_mm:g}", f"{paper.height_mm:g}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
            f'viewBox="0 0 {w} {h}"><g stroke="#000000" stroke-width="0.15">'
            f'{"".join(lines)}</g></svg>')
