"""The print plan: a checked game's drawn sheets in; one PDF for the whole kit on a paper out.

`pnp plan` (and `pnp build --plan`) packs the pieces of every deck that share a stock (card or
paper, the deck's `stock`) onto the fewest sheets (pnp.layout.pack), whatever deck they come
from, and writes `<game>-kit-<paper>.pdf`: a plan page first (each sheet, its stock, what is on
it and what to cut), then the card-stock sheets, double-sided as the layout says, and the
decks' tuck boxes, then the paper: paper-stock decks, the whole-page sheets and the boards as
printed on the paper. The decks' own PDFs are unchanged. Nothing here draws: the page plans go
to pnp.pdf like any other.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import SimpleNamespace

from ..findings import Findings
from ..layout.furniture import fit_lines
from ..layout.pack import KitDeck, KitSheet, kit_sheets
from ..layout.layouts import PrintOptions
from ..layout.plans import PagePlan, Placement
from ..layout.printers import apply_printer
from ..render.renderer import Renderer
from ..units import PAPERS, Rect, pt_to_mm
from .board import Board
from .component import FURNITURE_TEMPLATE, Output, document_info, paper_label
from .deck import Deck, sheet_file_name
from .page import Page
from .tuckbox import TuckBox

PLAN_TEMPLATE = "kit-plan.svg.j2"
STOCKS = ("card", "paper")
ROWS_PER_PLAN_PAGE = 30
PLAN_TEXT_MM = 2.6  # the type size of the plan's table, shrunk to fit a long line


@dataclass
class Section:
    """The pages of one stock, as the plan page lists them."""

    stock: str
    sheets: int  # sheets of paper (or card) this stock takes
    pages: int  # pages in the PDF
    first_page: int = 0  # its first page number in the PDF
    double_sided: bool = False
    rows: list[tuple[str, str, str]] = field(default_factory=list)  # sheet, on it, to cut
    cuts: int = 0

    @property
    def last_page(self) -> int:
        return self.first_page + self.pages - 1


@dataclass
class KitPlan:
    """A game's kit on one paper: its PDF and what the summary says of it."""

    output: Output
    sections: list[Section]
    plan_pages: int

    @property
    def pages(self) -> int:
        return self.plan_pages + sum(s.pages for s in self.sections)


def plan_kit(name: str, sheets: list, outputs: dict[str, list[Output]], renderer: Renderer,
             paper: str, options: PrintOptions, findings: Findings, mix: bool = False
             ) -> KitPlan | None:
    """The kit of a checked game's sheets on `paper`, or None (with a finding) when it cannot
    be packed. The kit's promises are kept: a deck that hides information is laid in its
    seeded shuffle and touched only by its own pieces (pnp.layout.pack), and decks the kit
    keeps apart (`variants`) get sheets of their own unless `mix` asks otherwise."""
    layout = options.sheet_layout()
    size = PAPERS[paper]
    decks = [s for s in sheets if isinstance(s, Deck)]
    by_name = {d.name: d for d in decks}
    sections: list[Section] = []
    body: dict[str, list[PagePlan]] = {stock: [] for stock in STOCKS}
    packs = []
    apart = set() if mix else variants(decks)
    for stock in STOCKS:
        # Pieces with backs and pieces without are packed apart: a sheet of pieces without
        # backs is printed on one side, with no blank backs page to keep in step.
        for backed in (True, False):
            mine = [d for d in decks if d.stock == stock and d.items and
                    (d.back is not None) == backed]
            together = [d for d in mine if d.name not in apart]
            for group in ([together] if together else []) + \
                    [[d] for d in mine if d.name in apart]:
                packed = _packed(group, backed, size, layout, stock, renderer, options)
                if isinstance(packed, ValueError):
                    findings.error("kit-layout", group[0].where.of("size"), f"the kit cannot "
                                   f"be packed on {paper_label(paper)}: {packed}",
                                   subject=f"game {name}",
                                   hint="choose a larger --paper or a grid layout")
                    return None
                packs.append((stock, packed))
    totals = {stock: sum(len(p) for s, p in packs if s == stock) for stock in STOCKS}
    numbered = {stock: 0 for stock in STOCKS}
    for stock, packed in packs:
        offset = numbered[stock]
        plans = _sheet_plans(packed, offset, totals[stock], by_name, renderer, layout, options,
                             paper)
        double = any(len(s.pages) > 1 for s in packed)
        if sections and (sections[-1].stock, sections[-1].double_sided) == (stock, double):
            section = sections.pop()  # printed alike, right after: one part of the stock
            section.sheets += len(packed)
            section.pages += len(plans)
            section.cuts += sum(s.cuts for s in packed)
        else:
            section = Section(stock, len(packed), len(plans), double_sided=double,
                              cuts=sum(s.cuts for s in packed))
        for sheet in packed:
            section.rows.append((f"{stock} {offset + sheet.number}", _contents(sheet, by_name),
                                 _cutting(sheet)))
        numbered[stock] += len(packed)
        sections.append(section)
        body[stock] += plans
    boxes = [(f"{sheet.title} (a tuck box)", [p for o in outputs.get(sheet.name, [])
                                             for p in o.plans])
             for sheet in sheets if isinstance(sheet, TuckBox)]
    boxes = [(title, plans) for title, plans in boxes if plans]
    if boxes:  # on card stock, one side, after the packed card sheets
        section = Section("card", len(boxes), len(boxes))
        for title, plans in boxes:
            numbered["card"] += 1
            section.rows.append((f"card {numbered['card']}", title,
                                 "cut the outline, crease the dashed lines"))
            body["card"] += plans
        sections.insert(sum(1 for s in sections if s.stock == "card"), section)
    extra = _paper_sheets(sheets, outputs, paper)
    if extra:
        paper_section = Section("paper", 0, 0)
        sections.append(paper_section)
        for title, plans in extra:
            first = sum(x.sheets for x in sections if x.stock == "paper") + 1
            paper_section.rows.append((f"paper {first}" + (
                f"-{first + len(plans) - 1}" if len(plans) > 1 else ""),
                title, "as printed on it"))
            paper_section.sheets += len(plans)
            paper_section.pages += len(plans)
            body["paper"] += plans
    # The plan pages come first, printed on plain paper, one-sided: no blank page after
    # them (the card sheets are printed from their own first page on, on card stock).
    rows = sum(len(s.rows) for s in sections)
    plan_pages = max(1, -(-rows // ROWS_PER_PLAN_PAGE))
    page = plan_pages + 1
    for section in sections:
        section.first_page = page
        page += section.pages
    plans = _plan_pages(name, sections, plan_pages, renderer, paper, layout) + \
        body["card"] + body["paper"]
    document = document_info(renderer.info, "the whole kit", paper_label(paper), layout.duplex)
    file_name = sheet_file_name(f"{name}-kit", paper, options.layout, layout, options.ink_saver)
    return KitPlan(Output(file_name, plans, document), sections, plan_pages)


def variants(decks: list[Deck]) -> set[str]:
    """The decks the kit keeps apart: two or more decks of pieces without backs drawn by one
    front template at one size are variants of one piece (Boomtown's markers, a colour
    each), each printed on sheets of its own so a group prints only the ones it plays with.
    (Decks with backs that share a template, Boomtown's Market Up and Down, are played
    together; the ones that hide information keep a gutter from the others anyway.)"""
    kinds: dict[tuple, list[str]] = {}
    for deck in decks:
        if deck.back is None:
            kinds.setdefault((deck.front, deck.size), []).append(deck.name)
    return {name for names in kinds.values() if len(names) > 1 for name in names}


def _packed(group: list[Deck], backed: bool, size, layout, stock: str, renderer: Renderer,
            options: PrintOptions) -> list[KitSheet] | ValueError:
    """The sheets `group`'s pieces are packed on, or why they cannot be."""
    kit = [KitDeck(d.name, len(d.items), d.size, backed, d.laid_order(renderer),
                   alone=d.hides(renderer)) for d in group]
    try:
        return kit_sheets(kit, size, layout if backed else replace(layout, duplex="none",
                                                                   backs="none"),
                          stock, bleed_mm=min(d.bleed_mm for d in group),
                          printer=options.printer_name, layout_name=options.layout)
    except ValueError as exc:
        return exc


def _sheet_plans(packed: list[KitSheet], offset: int, total: int, decks: dict[str, Deck],
                 renderer: Renderer, layout, options: PrintOptions, paper: str
                 ) -> list[PagePlan]:
    """The pages of packed sheets, numbered from `offset` + 1 of the stock's `total`."""
    if options.ink_saver:
        from ..render.inksaver import save_ink  # its XML reader loads only when asked for

        ink = save_ink
    else:
        ink = lambda svg: svg  # noqa: E731
    stock = packed[0].stock if packed else "card"
    label = SimpleNamespace(title=f"kit, {stock} stock")
    fronts, backs = [], []
    for sheet in packed:
        for page in sheet.pages:
            page = replace(page, number=offset + page.number)
            furniture = {part: renderer.render(
                FURNITURE_TEMPLATE, None, expect=page.paper, part=part, page=page, deck=label,
                sheet_title=label.title,
                layout=layout, sheets=total, paper_name=paper).svg
                for part in ("fixed", "page")}
            placements = (Placement(0, 0, furniture["fixed"]), *(
                Placement.for_slot(slot, ink(getattr(decks[slot.deck], f"{slot.face}s")
                                             [slot.index].svg)) for slot in page.slots))
            plan = PagePlan(page.paper, page.trim, furniture["page"], placements,
                            bleed=page.bleed, side=page.side, notices=page.notices)
            (fronts if page.side == "front" else backs).append(plan)
    if not backs:
        ordered = fronts
    elif layout.backs == "at-end":
        ordered = fronts + backs
    elif layout.backs == "before-fronts":
        ordered = [p for pair in zip(backs, fronts) for p in pair]
    else:
        ordered = [p for pair in zip(fronts, backs) for p in pair]
    return apply_printer(ordered, options.printer)


def _paper_sheets(sheets: list, outputs: dict[str, list[Output]], paper: str
                  ) -> list[tuple[str, list[PagePlan]]]:
    """The whole pages and the boards as printed on the paper, by title."""
    found = []
    for sheet in sheets:
        if isinstance(sheet, Page):
            plans = [p for o in outputs.get(sheet.name, []) for p in o.plans]
            found.append((f"{sheet.copies} x {sheet.title}", plans))
        elif isinstance(sheet, Board):
            on_paper = [o for o in outputs.get(sheet.name, [])
                        if o.file_name == f"{sheet.name}-{paper}.pdf"]
            for output in on_paper:
                pages = len(output.plans)
                how = "whole" if pages == 1 else f"tiled, map and {pages - 1} tiles"
                found.append((f"{sheet.title} ({how})", output.plans))
    return [(title, plans) for title, plans in found if plans]


def _contents(sheet: KitSheet, decks: dict[str, Deck]) -> str:
    return ", ".join(f"{n} x {decks[deck].title}" for deck, n in sheet.contents().items())


def _cutting(sheet: KitSheet) -> str:
    grids = " + ".join(f"{b.columns} x {b.rows} of {b.piece.width_mm:g} x "
                       f"{b.piece.height_mm:g} mm" for b in sheet.blocks)
    return f"{sheet.cuts} trimmer cuts ({grids})"


def _plan_pages(name: str, sections: list[Section], count: int, renderer: Renderer,
                paper: str, layout) -> list[PagePlan]:
    size = PAPERS[paper]
    rows = [(section.stock, *row) for section in sections for row in section.rows]
    width = size.width_mm - 30
    columns = (0.1, 0.46, 0.44)  # shares of the width: sheet, on it, to cut
    fitted = []
    for stock, sheet, contents, cutting in rows:
        fitted.append([fit_lines(text, "body", PLAN_TEXT_MM, width * share - 2, pt_to_mm(6))
                       for text, share in zip((sheet, contents, cutting), columns)])
    edge = {"long-edge": "long", "short-edge": "short"}.get(layout.duplex, "")
    notes = []
    for section in sections:
        pages = (f"page {section.first_page}" if section.pages == 1 else
                 f"pages {section.first_page}-{section.last_page}")
        how = (f"double-sided, flip on the {edge} edge" if section.double_sided else
               "one-sided")
        notes.append(f"{section.stock.capitalize()} stock: {section.sheets} sheet"
                     f"{'s' * (section.sheets != 1)}, {pages}, {how}."
                     + (f" About {section.cuts} trimmer cuts, a strip at a time."
                        if section.cuts else ""))
    plans = []
    whole = Rect(0, 0, *size)
    for number in range(count):
        chunk = fitted[number * ROWS_PER_PLAN_PAGE:(number + 1) * ROWS_PER_PLAN_PAGE]
        svg = renderer.render(PLAN_TEMPLATE, None, expect=size, paper=size,
                              paper_name=paper_label(paper), rows=chunk, notes=notes,
                              columns=columns, width=width, number=number + 1, count=count,
                              first=number == 0, blank=not chunk and number > 0).svg
        plans.append(PagePlan(size, whole, svg, (), side="front"))
    return plans


def kit_summary(name: str, plan: KitPlan, shown: str) -> list[str]:
    """What `pnp plan` prints of a game's kit: its PDF and pages, sheets per stock (each
    part of a stock printed alike on its own line), cuts."""
    lines = [f"{name}: {shown}, {plan.pages} pages: {plan.plan_pages} plan page"
             f"{'s' * (plan.plan_pages != 1)}, then the sheets"]
    for stock in STOCKS:
        parts = [s for s in plan.sections if s.stock == stock]
        if not parts:
            continue
        sheets = sum(s.sheets for s in parts)
        lines.append(f"  {stock} stock: {sheets} sheet{'s' * (sheets != 1)}, "
                     f"{sum(s.pages for s in parts)} pages")
        for section in parts:
            pages = (f"page {section.first_page}" if section.pages == 1 else
                     f"pages {section.first_page}-{section.last_page}")
            lines.append(f"    {section.sheets} {'double' if section.double_sided else 'one'}"
                         f"-sided, {pages}")
    lines.append(f"  cuts: about {sum(s.cuts for s in plan.sections)} trimmer cuts (across "
                 "each sheet, then down each strip)")
    return lines


__all__ = ["KitPlan", "Section", "plan_kit", "kit_summary"]
