"""Whole pages: a page's template and data in; the page drawn at the paper's size, once per
copy, out (a record sheet, a rules summary, a cover sheet).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..findings import Findings
from ..layout.layouts import PrintOptions, printable_margin
from ..layout.plans import PagePlan, Placement
from ..load.schema import Where
from ..render.renderer import Face, Renderer
from ..render.stamps import render_stamped
from ..units import PAPERS, Rect
from .component import (GALLERY_PAPER, Component, Drawn, Output, blank_svg, document_info,
                        paper_label)
from .cover import KitPart, kit_contents


@dataclass
class Page(Component):
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
                              duplex=layout.duplex,
                              printable_mm=printable_margin(paper))

    def part(self, renderer: Renderer) -> Callable[[], Drawn] | None:
        if not renderer.exists(self.template, self.where.of("template")):
            return None
        return lambda: {"preview": self.draw(renderer, GALLERY_PAPER, 1)}

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
