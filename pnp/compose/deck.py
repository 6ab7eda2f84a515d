"""Decks: same-size pieces and their drawn faces in; their imposed pages' plans out.

A deck's faces are drawn in parts (`Deck.parts`); its pages are imposed by pnp.layout and
planned by `_DeckPages`, each page's margin furniture drawn and its faces placed.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ..findings import Findings
from ..layout.cutter import cut_dxf, cut_svg
from ..layout.impose import SlotProblem, impose
from ..layout.layouts import PrintOptions, SheetLayout
from ..layout.plans import PagePlan, Placement, with_trim_outline
from ..layout.printers import apply_printer
from ..load.schema import Where
from ..render.renderer import Face, Renderer
from ..render.stamps import reads_item, render_stamped
from ..units import DEFAULT_BLEED_MM, PAPERS, Size
from .component import (FURNITURE_TEMPLATE, Component, Drawn, Output, document_info,
                        paper_label, printable_margin, size_label)

# A deck's faces are drawn and kept in parts of about PART_ITEMS items (an edited card draws
# its part again; each part draws a copy's record and a shared back once), and a large deck
# in at most about MAX_PARTS: each part is a task and a kept entry of its own, whose key and
# reading back cost more than drawing a few more faces.
PART_ITEMS = 16
MAX_PARTS = 64


@dataclass
class Deck(Component):
    """Same-size pieces imposed on sheets, each fronts page followed by its backs page."""

    name: str
    title: str
    items: tuple[Any, ...]
    size: Size
    front: str
    back: str | None  # None: the pieces have no back
    shape: str = "rect"
    where: Where = field(default_factory=Where)
    bleed_mm: float = DEFAULT_BLEED_MM  # how far a face's drawing runs past the trim
    safe_mm: float = 3  # text stays this far inside the trim
    stock: str = "card"  # card or paper: `pnp plan` packs the decks of one stock together
    corner_radius_mm: float = 0  # the trim's rounded corners: cutting machines cut them
    fronts: list[Face] = field(default_factory=list)
    backs: list[Face] = field(default_factory=list)

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
                               -(-len(self.items) // MAX_PARTS), 1)  # an empty deck: one part
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
                               f"a {size_label(self.size)} piece does not fit on "
                               f"{paper_label(paper)} ({size_label(sheet)}) inside its "
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
                        f"on {paper_label(paper)}, a {size_label(self.size)} piece is drawn "
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
        return f"{len(self.items):>3} x {self.title} ({size_label(self.size)})"


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
            from ..render.inksaver import save_ink  # its XML reader loads only when asked for

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


def sheet_file_name(deck_name: str, paper: str, layout_name: str, layout: SheetLayout,
                    ink_saver: bool = False) -> str:
    """`events-letter.pdf` for the home layout; the layout's name joins it otherwise, and
    replaces the paper when the layout brings its own (universal, print-shop)."""
    parts = [deck_name]
    if layout_name == "home":
        parts.append(paper)
    elif layout.paper:
        parts.append(layout_name)
    else:
        parts.extend((paper, layout_name))
    if ink_saver:
        parts.append("ink-saver")
    return "-".join(parts) + ".pdf"


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
