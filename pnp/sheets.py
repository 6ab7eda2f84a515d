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

from bisect import bisect_left
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Protocol

from .findings import Findings
from .layout.cutter import cut_dxf, cut_svg, outlines_dxf, outlines_svg, svg_path
from .layout.tuckbox import dieline, fit_dieline, inner_size
from .layout.impose import PRINTABLE_MM, PrintOptions, SlotProblem, impose, sheet_file_name
from .layout.plans import DocumentInfo, PagePlan, Placement, with_trim_outline
from .layout.printers import apply_printer
from .render.renderer import Face, Renderer
from .load.schema import Where
from .render.stamps import reads_item, render_stamped
from .layout.tiling import Tiling, fit_whole, tile_board
from .units import PAPER_LABELS, PAPERS, PRINTABLE_MARGIN_MM, Rect, Size

FURNITURE_TEMPLATE = "sheet.svg.j2"
TILE_TEMPLATE = "board-tile.svg.j2"  # a tiled board page's margins, cut lines and marks
ASSEMBLY_TEMPLATE = "board-assembly.svg.j2"  # the map of the tiles, first page
TUCK_TEMPLATE = "tuckbox.svg.j2"  # a tuck box's dieline, creases and titles
GALLERY_PAPER = "letter"  # what paper-sized faces are drawn on for the proof gallery


@dataclass(frozen=True)
class Output:
    """One PDF a sheet makes: its file name in the game's output folder, its pages, metadata."""

    file_name: str
    plans: list[PagePlan]
    document: DocumentInfo
    extras: tuple[tuple[str, str], ...] = ()  # (file name, text) written beside it: cut files


Drawn = dict[str, Any]  # some of the fields a sheet's `render` sets, by name
# A deck's faces are drawn and kept in parts of about PART_ITEMS items (an edited card draws
# its part again; each part draws a copy's record and a shared back once), and a large deck
# in at most about MAX_PARTS: each part is a task and a kept entry of its own, whose key and
# reading back cost more than drawing a few more faces.
PART_ITEMS = 16
MAX_PARTS = 64


class Sheet(Protocol):
    name: str
    title: str
    where: Where

    def render(self, renderer: Renderer) -> None: ...

    def parts(self, renderer: Renderer, paper: str | None = None,
              options: PrintOptions | None = None) -> list[Callable[[], Drawn]]: ...

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
    stock: str = "card"  # card or paper: `pnp plan` packs the decks of one stock together
    corner_radius_mm: float = 0  # the trim's rounded corners: cutting machines cut them
    fronts: list[Face] = field(default_factory=list)
    backs: list[Face] = field(default_factory=list)

    def render(self, renderer: Renderer) -> None:
        self.join([part() for part in self.parts(renderer)])

    def parts(self, renderer: Renderer, paper: str | None = None,
              options: PrintOptions | None = None) -> list[Callable[[], Drawn]]:
        """The faces of every part of about PART_ITEMS items (at most about MAX_PARTS parts),
        fronts and backs; each template drawn with the whole deck in view. A template that
        cannot read the item (a shared back, pnp.render.stamps.reads_item) is drawn once a
        part, for its first item, and the copies of an item once a part each. Given the paper
        and print options, a deck in several parts is cut at page boundaries and each part
        plans its own pages (`planned`), so a large deck's pages are planned on every core,
        and kept with their part."""
        front = self.front if renderer.exists(self.front, self.where.of("front")) else None
        back = self.back if self.back and renderer.exists(self.back,
                                                          self.where.of("back")) else None
        # About PART_ITEMS drawings a part: a deck of copies (`quantity`) in larger parts.
        records = len({id(item) for item in self.items}) or 1
        self._part_items = max(PART_ITEMS * len(self.items) // records,
                               -(-len(self.items) // MAX_PARTS))
        self._plan = None
        if paper is not None and len(self.items) > self._part_items:
            self._plan = self._page_plan(renderer, paper, options or PrintOptions())
            if self._plan is not None:  # whole pages per part: a multiple of a page's pieces
                per_page = max(len({slot.index for slot in page.slots})
                               for page in self._plan.pages)
                self._part_items = -(-self._part_items // per_page) * per_page

        def side(template: str | None, items) -> list[Face]:
            if not template:
                return [Face("", getattr(item, "label", "")) for item in items]
            if items and not reads_item(renderer, template):
                # One drawing for every item (a shared back): drawn and checked once, for the
                # first; each item's face is that drawing, under its own label.
                face = render_stamped(renderer, template, items[0], self.size, deck=self)
                return [replace(face, label=getattr(item, "label", "")) for item in items]
            # A copy of an item (`quantity` repeats the one record) is the same face: each
            # record is drawn once, by identity, as only the same object is surely the same.
            drawn: dict[int, Face] = {}
            for item in items:
                if id(item) not in drawn:
                    drawn[id(item)] = render_stamped(renderer, template, item, self.size,
                                                     deck=self)
            return [drawn[id(item)] for item in items]

        def part(start: int) -> Callable[[], Drawn]:
            items = self.items[start:start + self._part_items]

            def draw() -> Drawn:
                drawn = {"fronts": side(front, items), "backs": side(back, items)}
                if self._plan is not None:
                    drawn["planned"] = self._plan.plan_part(
                        renderer, start, drawn["fronts"], drawn["backs"])
                return drawn

            return draw

        return [part(start) for start in range(0, max(len(self.items), 1), self._part_items)]

    def __getstate__(self) -> dict[str, Any]:
        """The deck's fields: how `parts` cut it (its working state) is no part of its value."""
        return {name: value for name, value in self.__dict__.items()
                if not name.startswith("_")}

    def part_items(self, index: int) -> tuple[Any, ...]:
        """The items whose faces part `index` of `parts` draws: all a part's faces depend on,
        with the deck's other fields, unless its templates read `deck` (the whole deck)."""
        size = getattr(self, "_part_items", PART_ITEMS)
        return tuple(self.items[index * size:(index + 1) * size])

    def join(self, parts: list[Drawn]) -> None:
        self.fronts = [face for drawn in parts for face in drawn["fronts"]]
        self.backs = [face for drawn in parts for face in drawn["backs"]]
        self._planned = {number: plan for drawn in parts
                         for number, plan in drawn.get("planned", {}).items()}

    def _page_plan(self, renderer: Renderer, paper: str, options: PrintOptions
                   ) -> "_DeckPages | None":
        """The deck's imposition on `paper`, or None where it cannot be laid out (`outputs`
        reports why)."""
        try:
            return _DeckPages.impose(self, renderer, paper, options)
        except ValueError:  # SlotProblem too
            return None

    def outputs(self, renderer: Renderer, paper: str, findings: Findings,
                options: PrintOptions | None = None) -> list[Output]:
        options = options or PrintOptions()
        layout = options.sheet_layout()
        if self.back is None:
            layout = replace(layout, duplex="none", backs="none")
        planner = getattr(self, "_plan", None)  # imposed by `parts` where it planned pages
        planned = getattr(self, "_planned", {})
        if planner is None or not planner.same(paper, options):
            planned = {}
            try:
                planner = _DeckPages.impose(self, renderer, paper, options)
            except SlotProblem as exc:
                where = exc.spec.where.at if exc.spec is not None else self.where.of("size")
                findings.error("layout-slots", where, f"layout '{options.layout}': {exc}",
                               subject=f"deck {self.name}", hint="move or turn the slot in "
                               "the layouts file, or choose another layout")
                return []
            except ValueError:
                sheet = PAPERS[paper]
                findings.error("layout-too-large", self.where.of("size"),
                               f"a {_mm(self.size)} piece does not fit on {paper_label(paper)} "
                               f"({_mm(sheet)}) inside its "
                               f"{options.sheet_layout().min_margin_mm:g} mm "
                               "margins", subject=f"deck {self.name}", hint="make the piece "
                               "smaller, or declare it as a board, which is tiled over the "
                               "paper")
                return []
        layout, pages, edge = planner.layout, planner.pages, planner.edge_mm
        self._check_slots_printable(pages, edge, paper, findings)
        plans = [planned[number] if number in planned else
                 planner.plan_page(renderer, page, self.fronts, self.backs)
                 for number, page in enumerate(pages)]
        # A page per face (paper: piece) is for a print shop, whatever --paper says.
        detail = "a page per face, for a print shop" if layout.paper == "piece" else \
            paper_label(paper)
        document = document_info(renderer.info, self.title, detail, layout.duplex)
        name = sheet_file_name(self.name, paper, options.layout, layout, options.ink_saver)
        extras = ()
        if layout.registration is not None:  # a cut file for each fronts page, in its frame
            extras = tuple(
                (f"{name.removesuffix('.pdf')}-cut-{page.number:02d}.{kind}", write(
                    page.paper, [slot.rect for slot in page.slots], self.corner_radius_mm))
                for page in pages if page.side == "front"
                for kind, write in (("svg", cut_svg), ("dxf", cut_dxf)))
        return [Output(name, apply_printer(plans, options.printer), document, extras)]

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
        return furniture_texts(self.title, len(self.items), info, layout_name)

    def gallery(self) -> list[tuple[str, dict[str, str]]]:
        def shown(svg: str) -> str:  # a rounded trim is drawn, so the proof shows the cut
            return with_trim_outline(svg, self.corner_radius_mm) if self.corner_radius_mm \
                else svg

        return [(front.label, {"front": shown(front.svg),
                               **({"back": shown(back.svg)} if self.back else {})})
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

    def parts(self, renderer: Renderer, paper: str | None = None,
              options: PrintOptions | None = None) -> list[Callable[[], Drawn]]:
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
        info = renderer.info
        fits = fit_whole(self.size, PAPERS[paper], PRINTABLE_MARGIN_MM[paper])
        if fits:  # the paper holds the board inside what a printer prints: no tiles
            page, placed = fits
            on_paper = [PagePlan(page, placed, trim_ticks(page, placed),
                                 (Placement(placed.x_mm, placed.y_mm, svg),))]
            detail = f"whole on {paper_label(paper)}"
        else:
            on_paper = self.plan_tiles(renderer, tile_board(self.size, PAPERS[paper]), paper)
            detail = f"tiled over {paper_label(paper)}"
        return [
            Output(f"{self.name}-large.pdf", large,
                   document_info(info, self.title, f"one {_mm(self.size)} page", "none")),
            Output(f"{self.name}-{paper}.pdf", on_paper,
                   document_info(info, self.title, detail, "none")),
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


class _DeckPages:
    """A deck's imposed pages on one paper and their plans: each page's margin furniture drawn
    and its faces placed. The "fixed" furniture is, by its template's contract, the same on
    every page of a side, so pages placed alike share it, drawn once per planner."""

    def __init__(self, deck: Deck, paper: str, options: PrintOptions, layout, pages: list,
                 sheets: int, edge_mm: float) -> None:
        self.deck, self.paper, self.options, self.layout = deck, paper, options, layout
        self.pages, self.sheets, self.edge_mm = pages, sheets, edge_mm
        self._fixed: dict = {}
        if options.ink_saver:
            from .render.inksaver import save_ink  # its XML reader loads only when asked for

            self._ink = save_ink
        else:
            self._ink = lambda svg: svg
        # Each page with pieces by its first item, to find a part's pages without a scan.
        self._firsts = sorted((min(slot.index for slot in page.slots),
                               max(slot.index for slot in page.slots), number)
                              for number, page in enumerate(pages) if page.slots)

    @classmethod
    def impose(cls, deck: Deck, renderer: Renderer, paper: str, options: PrintOptions
               ) -> "_DeckPages":
        """The deck imposed on `paper`; raises SlotProblem or ValueError where it cannot be."""
        layout = options.sheet_layout()
        if deck.back is None:
            layout = replace(layout, duplex="none", backs="none")
        pages = deck_pages(deck.title, len(deck.items), deck.size, deck.bleed_mm,
                           deck.back is not None, paper, options, renderer.info)
        edge = printable_margin(options)
        edge = layout.printable_margin_mm if edge is None else edge
        if layout.kind == "single":  # a page the size of the piece goes to a print shop
            edge = 0.0
        return cls(deck, paper, options, layout, pages,
                   max((page.number for page in pages), default=0), edge)

    def same(self, paper: str, options: PrintOptions) -> bool:
        return paper == self.paper and options == self.options

    def plan_part(self, renderer: Renderer, start: int, fronts: list[Face],
                  backs: list[Face]) -> dict[int, PagePlan]:
        """The plans of the pages whose every piece is one of the items from `start` on whose
        faces are given, by page number in the document (from 0)."""
        end = start + len(fronts)
        fronts, backs = [None] * start + fronts, [None] * start + backs  # by item index
        planned = {}
        for low, high, number in self._firsts[bisect_left(self._firsts, (start,)):]:
            if low >= end:
                break
            if high < end:
                planned[number] = self.plan_page(renderer, self.pages[number], fronts, backs)
        return planned

    def plan_page(self, renderer: Renderer, page, fronts: list[Face], backs: list[Face]
                  ) -> PagePlan:
        def draw(part: str) -> str:
            return renderer.render(FURNITURE_TEMPLATE, None, expect=page.paper, part=part,
                                   page=page, deck=self.deck, sheet_title=self.deck.title,
                                   layout=self.layout,
                                   sheets=self.sheets, paper_name=self.paper,
                                   printable_mm=self.edge_mm if page.furniture or page.marks
                                   else None).svg

        alike = (page.side, page.paper, page.marks, page.folds, page.notes,
                 page.registration, tuple(page.furniture.items()))
        if alike not in self._fixed:
            self._fixed[alike] = draw("fixed")
        furniture = {"fixed": self._fixed[alike], "page": draw("page")}
        # The fixed furniture repeats on every page of a side, so it is placed like a
        # shared back and drawn once per document.
        placements = (Placement(0, 0, furniture["fixed"]), *(
            Placement.for_slot(slot, self._ink((fronts if slot.face == "front" else
                                                backs)[slot.index].svg))
            for slot in page.slots))
        return PagePlan(page.paper, page.trim, furniture["page"], placements,
                        bleed=page.bleed, side=page.side, notices=page.notices)


def furniture_texts(title: str, count: int, info: Any, layout_name: str) -> dict[str, str]:
    """The longest credit line and footer a deck's pages carry (sheet.svg.j2 writes them), so
    their boxes are made long enough to print them at 5 and 6 pt."""
    pages = f"{count}/{count}"
    return {"credit": info.licence.attribution if info else "",
            "footer": f"{info.title if info else ''} · {title} · sheet {pages} · "
                      f"fronts and backs · layout {layout_name}"}


def deck_pages(title: str, count: int, size: Size, bleed_mm: float, has_back: bool,
               paper: str, options: PrintOptions, info: Any) -> list:
    """A deck's pages as the build imposes them: the cover sheet counts the same ones."""
    layout = options.sheet_layout()
    if not has_back:
        layout = replace(layout, duplex="none", backs="none")
    return impose(count, size, paper, layout, bleed_mm=bleed_mm, printer=options.printer_name,
                  layout_name=options.layout, printable_mm=printable_margin(options),
                  texts=furniture_texts(title, count, info, options.layout),
                  with_backs=has_back)


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


@dataclass
class Page:
    """A whole-page sheet drawn at the paper's size: a record sheet, a rules summary, a cover
    sheet (which reads `kit`, the game's components as `kit_contents` lists them)."""

    name: str
    title: str
    template: str
    copies: int
    item: Any
    where: Where = field(default_factory=Where)
    preview: Face | None = None  # drawn on GALLERY_PAPER for the proof
    kit: tuple[KitPart, ...] = ()  # every component of the game, for a cover sheet

    def draw(self, renderer: Renderer, paper: str, number: int,
             options: PrintOptions | None = None) -> Face:
        size = PAPERS[paper]
        layout = (options or PrintOptions()).sheet_layout()
        return render_stamped(renderer, self.template, self.item, size, sheet=self,
                              paper=size, paper_name=paper_label(paper), number=number,
                              copies=self.copies, kit=kit_contents(self.kit, paper, options,
                                                                   renderer.info),
                              duplex=layout.duplex, printable_mm=PRINTABLE_MM)

    def render(self, renderer: Renderer) -> None:
        self.join([part() for part in self.parts(renderer)])

    def parts(self, renderer: Renderer, paper: str | None = None,
              options: PrintOptions | None = None) -> list[Callable[[], Drawn]]:
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
                          (Placement(0, 0, self.draw(renderer, paper, n, options).svg),))
                 for n in range(1, self.copies + 1)]
        document = document_info(renderer.info, self.title, paper_label(paper), "none")
        return [Output(f"{self.name}-{paper}.pdf", plans, document)]

    def gallery(self) -> list[tuple[str, dict[str, str]]]:
        if self.preview is None:
            return []
        return [(self.preview.label or self.title, {"page": self.preview.svg})]

    def describe(self) -> str:
        return f"{self.copies:>3} x {self.title} (a whole page of the paper)"


@dataclass
class TuckBox:
    """A box for a deck, made from its card size and count: the flat dieline on one page, the
    deck's back on the box's front and its first card's front on the box's back, the titles
    on the lid and the sides, and a cut file (the outline, and the creases) beside the PDF."""

    name: str
    title: str
    deck: Deck
    card_thickness_mm: float = 0.3
    clearance_mm: float = 1
    where: Where = field(default_factory=Where)
    faces: dict[str, Face] = field(default_factory=dict)

    def render(self, renderer: Renderer) -> None:
        self.join([part() for part in self.parts(renderer)])

    def parts(self, renderer: Renderer, paper: str | None = None,
              options: PrintOptions | None = None) -> list[Callable[[], Drawn]]:
        deck, first = self.deck, self.deck.items[:1]
        wanted = [(side, template) for side, template in (("back", deck.back), ("front",
                  deck.front)) if template and first and renderer.exists(
                      template, deck.where.of(side))]
        return [lambda: {"faces": {side: render_stamped(renderer, template, first[0], deck.size,
                                                        deck=deck)
                                   for side, template in wanted}}]

    def join(self, parts: list[Drawn]) -> None:
        self.faces = parts[0]["faces"] if parts else {}

    def outputs(self, renderer: Renderer, paper: str, findings: Findings,
                options: PrintOptions | None = None) -> list[Output]:
        layout = (options or PrintOptions()).sheet_layout()
        count = len(self.deck.items)
        fits = fit_dieline(self.deck.size, count, PAPERS[paper], layout.min_margin_mm,
                           self.card_thickness_mm, self.clearance_mm)
        if fits is None:
            flat = dieline(self.deck.size, count, self.card_thickness_mm, self.clearance_mm)
            flat_size = Size(flat.bounds.width_mm, flat.bounds.height_mm)
            findings.error("layout-too-large", self.where.of("tuck_box"),
                           f"the tuck box for {count} cards lies flat in {_mm(flat_size)}, "
                           f"more than {paper_label(paper)} holds inside its margins",
                           subject=f"deck {self.deck.name}", hint="choose a larger --paper")
            return []
        page, flat = fits
        placements = []
        for side, panel in (("back", "front"), ("front", "back")):  # the deck's back in front
            face = self.faces.get(side)
            if face is not None:
                box = flat.panels[panel]
                placements.append(Placement(
                    box.x_mm + (box.width_mm - self.deck.size.width_mm) / 2,
                    box.y_mm + (box.height_mm - self.deck.size.height_mm) / 2, face.svg))
        drawing = renderer.render(TUCK_TEMPLATE, None, expect=page, paper=page, flat=flat,
                                  box=self, count=count, cut=svg_path(list(flat.outline))).svg
        plans = [PagePlan(page, flat.bounds, blank_svg(page), tuple(placements) + (
            Placement(0, 0, drawing),), side="front")]
        name = f"{self.name}-{paper}.pdf"
        stem = name.removesuffix(".pdf")
        extras = ((f"{stem}-cut.svg", outlines_svg(page, [list(flat.outline)], flat.folds)),
                  (f"{stem}-cut.dxf", outlines_dxf(page, [list(flat.outline)], flat.folds)))
        return [Output(name, plans, document_info(renderer.info, self.title, paper_label(paper),
                                                  "none"), extras)]

    def gallery(self) -> list[tuple[str, dict[str, str]]]:
        return []

    def describe(self) -> str:
        w, h, d = inner_size(self.deck.size, len(self.deck.items), self.card_thickness_mm,
                             self.clearance_mm)
        return f"  1 x {self.title} (a tuck box {w:g} x {h:g} x {d:g} mm inside)"


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
                                back, deck.shape, deck.where, deck.bleed_mm, deck.safe_mm,
                                deck.stock, deck.corner_radius_mm)
            if deck.tuck_box is not None:
                box = deck.tuck_box
                sheets[f"{name}_box"] = TuckBox(
                    f"{name}_box", box.title or f"{deck.title} box", sheets[name],
                    box.card_thickness_mm, box.clearance_mm, deck.where)
        elif component.kind == "board":
            board = info.boards[name]
            sheets[name] = Board(name, board.title, component.size, board.template,
                                 component.data, board.where)
        else:
            page = info.pages[name]
            sheets[name] = Page(name, page.title, page.template, page.copies, component.data,
                                page.where)
    parts = tuple(kit_part(sheet) for sheet in sheets.values())
    for name, sheet in sheets.items():
        if isinstance(sheet, Page):
            sheets[name] = replace(sheet, kit=parts)
    return sheets


ASSEMBLY_MARGIN_MM = 15  # the assembly map's text starts this far in from the left edge
ASSEMBLY_STEPS_MM = 95  # the width of the steps' column beside a tall board's thumbnail


def kit_part(sheet: Sheet) -> KitPart:
    if isinstance(sheet, Deck):
        return KitPart(sheet.name, sheet.title, "deck", len(sheet.items), sheet.size,
                       sheet.back is not None, sheet.bleed_mm)
    if isinstance(sheet, Board):
        return KitPart(sheet.name, sheet.title, "board", 1, sheet.size)
    # A whole page, or a deck's tuck box: one printed sheet each (a page may ask for copies).
    return KitPart(sheet.name, sheet.title, "page", getattr(sheet, "copies", 1), None)


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


def trim_ticks(paper: Size, piece: Rect, offset_mm: float = 1.5, length_mm: float = 5) -> str:
    """A page-sized SVG with a tick on the extension of each of the piece's edges, in the
    margin (shortened to the room there is): where to trim a piece printed whole."""
    lines = []
    room_x, room_y = piece.x_mm - offset_mm, piece.y_mm - offset_mm
    reach_x, reach_y = min(length_mm, room_x - 1), min(length_mm, room_y - 1)
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
    return PAPER_LABELS.get(paper, paper)
