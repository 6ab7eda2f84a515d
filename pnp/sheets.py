"""Sheets: the kinds of printed component, as data; a modelled game's sheets in, page plans out.

Every kind answers the same questions, so the pipeline, `pnp list` and the proof gallery never
ask which kind a sheet is:

- `render(renderer)`: draw every face that does not depend on the paper (cards, a board); the
  same work cut into independent `parts(renderer)`, each returning some of the fields that
  `render` sets, which `join` puts together (a check shares the parts between processes);
- `outputs(renderer, paper, findings)`: the PDFs the sheet makes on a paper, each a list of page
  plans (layout done, margin furniture drawn), or findings when it cannot be laid out;
- `gallery()`: its faces as the proof shows them; `describe()`: its line in `pnp list`.

A new kind (a tuck box) is a new class here, not edits across the pipeline and the CLI.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Protocol

from .findings import Findings
from .layout.impose import PRINTABLE_MM, PrintOptions, impose, sheet_file_name
from .layout.plans import DocumentInfo, PagePlan, Placement
from .layout.printers import apply_printer
from .render.renderer import Face, Renderer
from .load.schema import Where
from .render.stamps import render_stamped
from .layout.tiling import Tiling, tile_board
from .units import PAPERS, Rect, Size

FURNITURE_TEMPLATE = "sheet.svg.j2"
TILE_TEMPLATE = "board-tile.svg.j2"  # a tiled board page's margins, cut lines and marks
ASSEMBLY_TEMPLATE = "board-assembly.svg.j2"  # the map of the tiles, first page
GALLERY_PAPER = "letter"  # what paper-sized faces are drawn on for the proof gallery


@dataclass(frozen=True)
class Output:
    """One PDF a sheet makes: its file name in the game's output folder, its pages, metadata."""

    file_name: str
    plans: list[PagePlan]
    document: DocumentInfo


Drawn = dict[str, Any]  # some of the fields a sheet's `render` sets, by name
PART_ITEMS = 128  # a deck's faces are drawn in parts of at most this many items


class Sheet(Protocol):
    name: str
    title: str
    where: Where

    def render(self, renderer: Renderer) -> None: ...

    def parts(self, renderer: Renderer) -> list[Callable[[], Drawn]]: ...

    def join(self, parts: list[Drawn]) -> None: ...

    def outputs(self, renderer: Renderer, paper: str, findings: Findings,
                options: PrintOptions | None = None) -> list[Output]: ...

    def gallery(self) -> list[tuple[str, dict[str, str]]]: ...

    def describe(self) -> str: ...


def _mm(size: Size) -> str:
    return f"{size.width_mm:g} x {size.height_mm:g} mm"


@dataclass
class Deck:
    """Same-size pieces imposed on sheets, each fronts page followed by its backs page."""

    name: str
    title: str
    items: tuple[Any, ...]
    size: Size
    front: str
    back: str | None  # None: the pieces have no back
    shape: str = "rect"
    where: Where = field(default_factory=Where)
    bleed_mm: float = 25.4 / 8  # how far a face's drawing runs past the trim, when printed
    safe_mm: float = 3  # text stays this far inside the trim
    fronts: list[Face] = field(default_factory=list)
    backs: list[Face] = field(default_factory=list)

    def render(self, renderer: Renderer) -> None:
        self.join([part() for part in self.parts(renderer)])

    def parts(self, renderer: Renderer) -> list[Callable[[], Drawn]]:
        """The faces of every PART_ITEMS items, fronts and backs; each template drawn with
        the whole deck in view."""
        front = self.front if renderer.exists(self.front, self.where.of("front")) else None
        back = self.back if self.back and renderer.exists(self.back,
                                                          self.where.of("back")) else None

        def side(template: str | None, items) -> list[Face]:
            if template:
                return [render_stamped(renderer, template, item, self.size, deck=self)
                        for item in items]
            return [Face("", getattr(item, "label", "")) for item in items]

        def part(start: int) -> Callable[[], Drawn]:
            items = self.items[start:start + PART_ITEMS]
            return lambda: {"fronts": side(front, items), "backs": side(back, items)}

        return [part(start) for start in range(0, max(len(self.items), 1), PART_ITEMS)]

    def part_items(self, index: int) -> tuple[Any, ...]:
        """The items whose faces part `index` of `parts` draws: all a part's faces depend on,
        with the deck's other fields, unless its templates read `deck` (the whole deck)."""
        return tuple(self.items[index * PART_ITEMS:(index + 1) * PART_ITEMS])

    def join(self, parts: list[Drawn]) -> None:
        self.fronts = [face for drawn in parts for face in drawn["fronts"]]
        self.backs = [face for drawn in parts for face in drawn["backs"]]

    def outputs(self, renderer: Renderer, paper: str, findings: Findings,
                options: PrintOptions | None = None) -> list[Output]:
        options = options or PrintOptions()
        layout = options.sheet_layout()
        if self.back is None:
            layout = replace(layout, duplex="none", backs="none")
        try:
            pages = impose(len(self.items), self.size, paper, layout, bleed_mm=self.bleed_mm,
                           printer=options.printer_name, layout_name=options.layout,
                           printable_mm=printable_margin(options),
                           texts=self.furniture_texts(renderer.info, options.layout))
        except ValueError:
            sheet = PAPERS[paper]
            findings.error("layout-too-large", self.where.of("size"),
                           f"a {_mm(self.size)} piece does not fit on {paper_label(paper)} "
                           f"({_mm(sheet)}) inside its {layout.min_margin_mm:g} mm margins",
                           subject=f"deck {self.name}", hint="make the piece smaller, or "
                           "declare it as a board, which is tiled over the paper")
            return []
        sheets = max(page.number for page in pages)
        edge = printable_margin(options)
        edge = layout.printable_margin_mm if edge is None else edge
        if layout.kind == "single":  # a page the size of the piece goes to a print shop
            edge = 0.0
        self._check_slots_printable(pages, edge, paper, findings)
        if options.ink_saver:
            from .render.inksaver import save_ink  # its XML reader loads only when it is asked for

            ink = save_ink
        else:
            ink = lambda svg: svg  # noqa: E731
        plans = []
        for page in pages:
            furniture = {part: renderer.render(
                FURNITURE_TEMPLATE, None, expect=page.paper, part=part, page=page, deck=self,
                layout=layout, sheets=sheets, paper_name=paper,
                printable_mm=edge if page.furniture or page.marks else None).svg
                for part in ("fixed", "page")}
            # The fixed furniture repeats on every page of a side, so it is placed like a
            # shared back and drawn once per document.
            placements = (Placement(0, 0, furniture["fixed"]), *(
                Placement.for_slot(slot, ink((self.fronts if slot.face == "front" else
                                              self.backs)[slot.index].svg))
                for slot in page.slots))
            plans.append(PagePlan(page.paper, page.trim, furniture["page"], placements,
                                  bleed=page.bleed, side=page.side, notices=page.notices))
        document = document_info(renderer.info, self.title, paper_label(paper), layout.duplex)
        name = sheet_file_name(self.name, paper, options.layout, layout, options.ink_saver)
        return [Output(name, apply_printer(plans, options.printer), document)]

    def _check_slots_printable(self, pages, edge_mm: float, paper: str, findings: Findings
                               ) -> None:
        """A piece inside the printable margin: the layout's margins are narrower than what a
        home printer prints. (Its bleed may reach in: nothing is lost if it does not print.)"""
        if not edge_mm or not pages:
            return
        for page in pages:
            size = page.paper
            for slot in page.slots:
                shown = slot.rect
                gap = min(shown.x_mm, shown.y_mm, size.width_mm - shown.right_mm,
                          size.height_mm - shown.bottom_mm)
                if gap < edge_mm - 0.01:
                    findings.warning(
                        "print-edge", self.where.of("size"),
                        f"on {paper_label(paper)}, a {_mm(self.size)} piece is drawn "
                        f"{max(gap, 0):.1f} mm from the paper's edge, inside the {edge_mm:g} mm "
                        "most home printers leave blank", subject=f"deck {self.name}",
                        hint="give the layout a larger min_margin_mm, or a smaller "
                             "printable_margin_mm if the printer prints closer")
                    return

    def furniture_texts(self, info: Any, layout_name: str) -> dict[str, str]:
        """The longest credit line and footer the sheet's pages carry (sheet.svg.j2 writes
        them), so their boxes are made long enough to print them at 5 and 6 pt."""
        pages = f"{len(self.items)}/{len(self.items)}"
        return {"credit": info.licence.attribution if info else "",
                "footer": f"{info.title if info else ''} · {self.title} · sheet {pages} · "
                          f"fronts and backs · layout {layout_name}"}

    def gallery(self) -> list[tuple[str, dict[str, str]]]:
        return [(front.label, {"front": front.svg, **({"back": back.svg} if self.back else {})})
                for front, back in zip(self.fronts, self.backs)]

    def describe(self) -> str:
        return f"{len(self.items):>3} x {self.title} ({_mm(self.size)})"


@dataclass
class Board:
    """One large piece drawn whole from one template: printed on a single page of its own size
    for a copy shop, or tiled over home-printer paper."""

    name: str
    title: str
    size: Size
    template: str
    item: Any  # the data the template reads as `card`
    where: Where = field(default_factory=Where)
    face: Face | None = None

    def render(self, renderer: Renderer) -> None:
        self.join([part() for part in self.parts(renderer)])

    def parts(self, renderer: Renderer) -> list[Callable[[], Drawn]]:
        if not renderer.exists(self.template, self.where.of("template")):
            return []
        return [lambda: {"face": render_stamped(renderer, self.template, self.item, self.size,
                                                board=self)}]

    def join(self, parts: list[Drawn]) -> None:
        self.face = parts[0]["face"] if parts else None

    def outputs(self, renderer: Renderer, paper: str, findings: Findings,
                options: PrintOptions | None = None) -> list[Output]:
        svg = self.face.svg if self.face else ""
        whole = Rect(0, 0, *self.size)
        large = [PagePlan(self.size, whole, blank_svg(self.size), (Placement(0, 0, svg),))]
        tiled = self.plan_tiles(renderer, tile_board(self.size, PAPERS[paper]), paper)
        info = renderer.info
        return [
            Output(f"{self.name}-large.pdf", large,
                   document_info(info, self.title, f"one {_mm(self.size)} page", "none")),
            Output(f"{self.name}-{paper}.pdf", tiled,
                   document_info(info, self.title, f"tiled over {paper_label(paper)}", "none")),
        ]

    def plan_tiles(self, renderer: Renderer, tiling: Tiling, paper: str) -> list[PagePlan]:
        """The assembly map page, then one page per tile: a clipped window of the board
        between the page's margin furniture (under) and its cut lines and marks (over)."""
        svg = self.face.svg if self.face else ""
        page = Rect(0, 0, *tiling.paper)
        context = dict(board=self, tiling=tiling, paper_name=paper_label(paper),
                       expect=tiling.paper, printable_mm=PRINTABLE_MM)

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
        return f"  1 x {self.title} ({_mm(self.size)}; whole, or tiled over the paper)"


@dataclass
class Page:
    """A whole-page sheet drawn at the paper's size: a record sheet, a rules summary."""

    name: str
    title: str
    template: str
    copies: int
    item: Any
    where: Where = field(default_factory=Where)
    preview: Face | None = None  # drawn on GALLERY_PAPER for the proof

    def draw(self, renderer: Renderer, paper: str, number: int) -> Face:
        size = PAPERS[paper]
        return render_stamped(renderer, self.template, self.item, size, sheet=self,
                              paper=size, paper_name=paper_label(paper), number=number,
                              copies=self.copies, printable_mm=PRINTABLE_MM)

    def render(self, renderer: Renderer) -> None:
        self.join([part() for part in self.parts(renderer)])

    def parts(self, renderer: Renderer) -> list[Callable[[], Drawn]]:
        if not renderer.exists(self.template, self.where.of("template")):
            return []
        return [lambda: {"preview": self.draw(renderer, GALLERY_PAPER, 1)}]

    def join(self, parts: list[Drawn]) -> None:
        self.preview = parts[0]["preview"] if parts else None

    def outputs(self, renderer: Renderer, paper: str, findings: Findings,
                options: PrintOptions | None = None) -> list[Output]:
        if self.preview is None:
            return []
        size = PAPERS[paper]
        whole = Rect(0, 0, *size)
        plans = [PagePlan(size, whole, blank_svg(size),
                          (Placement(0, 0, self.draw(renderer, paper, n).svg),))
                 for n in range(1, self.copies + 1)]
        document = document_info(renderer.info, self.title, paper_label(paper), "none")
        return [Output(f"{self.name}-{paper}.pdf", plans, document)]

    def gallery(self) -> list[tuple[str, dict[str, str]]]:
        if self.preview is None:
            return []
        return [(self.preview.label or self.title, {"page": self.preview.svg})]

    def describe(self) -> str:
        return f"{self.copies:>3} x {self.title} (a whole page of the paper)"


def make_sheets(game: Any) -> dict[str, Sheet]:
    """A loaded game's decks, boards and pages (its components) as printable sheets, by name,
    in the manifest's order. New values: the game is not changed."""
    info, sheets = game.info, {}
    for component in game.sheets.values():
        name = component.name
        if component.kind == "deck":
            deck = info.decks[name]
            back = None if deck.back.strip().lower() == "none" else deck.back
            sheets[name] = Deck(name, deck.title, component.data, component.size, deck.front,
                                back, deck.shape, deck.where, deck.bleed_mm, deck.safe_mm)
        elif component.kind == "board":
            board = info.boards[name]
            sheets[name] = Board(name, board.title, component.size, board.template,
                                 component.data, board.where)
        else:
            page = info.pages[name]
            sheets[name] = Page(name, page.title, page.template, page.copies, component.data,
                                page.where)
    return sheets


def assembly_thumbnail(tiling: Tiling) -> Rect:
    """Where the board's thumbnail sits on the assembly map page: full width, below a header."""
    margin_mm, header_mm, footer_mm = 15, 40, 100
    paper = tiling.paper
    scale = min((paper.width_mm - 2 * margin_mm) / tiling.board.width_mm,
                (paper.height_mm - header_mm - footer_mm) / tiling.board.height_mm)
    width, height = tiling.board.width_mm * scale, tiling.board.height_mm * scale
    return Rect((paper.width_mm - width) / 2, header_mm, width, height)


def blank_svg(size: Size) -> str:
    w, h = f"{size.width_mm:g}", f"{size.height_mm:g}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
            f'viewBox="0 0 {w} {h}"/>')


def document_info(info: Any, title: str, detail: str, duplex: str) -> DocumentInfo:
    """A PDF's metadata: what it is, and the game's licence and attribution."""
    return DocumentInfo(
        title=f"{info.title}: {title} ({detail})",
        author=info.designer,
        subject=f"{info.title} print-and-play, {title.lower()}. "
                f"{info.licence.attribution}. {info.licence.url}",
        keywords=f"print and play; {info.licence.name}",
        duplex=duplex,
    )


def printable_margin(options: PrintOptions) -> float | None:
    """The printer profile's printable margin, when it gives one (else the layout's)."""
    return getattr(options.printer, "printable_margin_mm", None) if options.printer else None


def paper_label(paper: str) -> str:
    return {"letter": "US Letter", "a4": "A4"}.get(paper, paper)
