"""Tuck boxes: a deck in; the flat dieline of a box that holds it (pnp.layout.dieline), the
deck's back and first front on its panels, on one page with a cut file beside it, out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..findings import Findings
from ..layout.cutter import outlines_dxf, outlines_svg, svg_path
from ..layout.layouts import PrintOptions
from ..layout.plans import PagePlan, Placement
from ..layout.dieline import dieline, fit_dieline, inner_size
from ..load.schema import Where
from ..render.renderer import Face, Renderer
from ..render.stamps import render_stamped
from ..units import PAPERS, Size
from .component import (Component, Drawn, Output, blank_svg, document_info, paper_label,
                        size_label)
from .deck import Deck

TUCK_TEMPLATE = "tuckbox.svg.j2"  # a tuck box's dieline, creases and titles


@dataclass
class TuckBox(Component):
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

    def part(self, renderer: Renderer) -> Callable[[], Drawn] | None:
        deck, first = self.deck, self.deck.items[:1]
        wanted = [(side, template) for side, template in (("back", deck.back), ("front",
                  deck.front)) if template and first and renderer.exists(
                      template, deck.where.of(side))]
        return lambda: {"faces": {side: render_stamped(renderer, template, first[0], deck.size,
                                                       deck=deck)
                                  for side, template in wanted}}

    def join(self, parts: list[Drawn]) -> None:
        self.faces = parts[0]["faces"] if parts else {}

    def outputs(self, renderer: Renderer, paper: str, findings: Findings,
                options: PrintOptions | None = None) -> list[Output]:
        count = len(self.deck.items)
        if not count:  # no box for a deck that prints nothing (the deck's warning says so)
            return []
        layout = (options or PrintOptions()).sheet_layout()
        fits = fit_dieline(self.deck.size, count, PAPERS[paper], layout.min_margin_mm,
                           self.card_thickness_mm, self.clearance_mm)
        if fits is None:
            flat = dieline(self.deck.size, count, self.card_thickness_mm, self.clearance_mm)
            flat_size = Size(flat.bounds.width_mm, flat.bounds.height_mm)
            findings.error("layout-too-large", self.where.of("tuck_box"),
                           f"the tuck box for {count} cards lies flat in {size_label(flat_size)}, "
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
