"""Tuck boxes: a deck in; the flat dieline of a box that holds it (pnp.layout.dieline), the
deck's back and first front on its panels, on one page with a cut file beside it, out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..findings import Findings
from ..layout.cutter import outlines_dxf, outlines_svg, svg_path
from ..layout.dieline import Dieline, dieline, fit_dieline, inner_size
from ..layout.furniture import text_width_mm
from ..layout.layouts import PrintOptions, printable_margin
from ..layout.plans import PagePlan, Placement
from ..load.schema import Where
from ..render.renderer import Face, Renderer
from ..render.stamps import render_stamped
from ..units import PAPERS, Rect, Size, pt_to_mm
from .component import (Component, Drawn, Output, blank_svg, document_info, paper_label,
                        size_label)
from .deck import Deck

TUCK_TEMPLATE = "tuckbox.svg.j2"  # a tuck box's dieline, creases and titles
LABEL_MM = {"lid": 3.4, "side-left": 3.2, "side-right": 3.2}  # the titles' sizes on a deep box
LEAST_LABEL_MM = pt_to_mm(6)  # and the least: a title set smaller is left off instead
LABEL_CLEAR_MM = 0.6  # a title's glyphs (ascent and descent) take its size plus this across
ABOVE_MM, BELOW_MM = 5, 15  # the credit line above the dieline, the instructions below it
NOTE_MM = 2.5  # the instructions' size (7 pt)


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
        edge = printable_margin(paper, layout, _printer_margin(options))
        fits = fit_dieline(self.deck.size, count, PAPERS[paper], max(layout.min_margin_mm, edge),
                           self.card_thickness_mm, self.clearance_mm, ABOVE_MM, BELOW_MM)
        if fits is None:
            flat = dieline(self.deck.size, count, self.card_thickness_mm, self.clearance_mm)
            flat_size = Size(flat.bounds.width_mm, flat.bounds.height_mm)
            findings.error("layout-too-large", self.where.of("tuck_box"),
                           f"the tuck box for {count} cards lies flat in {size_label(flat_size)}, "
                           f"more than {paper_label(paper)} holds inside its margins",
                           subject=f"deck {self.deck.name}", hint="choose a larger --paper")
            return []
        page, flat = fits
        labels, said = box_labels(flat, renderer.info.title, self.title)
        if said and said.startswith("the box's"):
            findings.warning("print-text-size", self.where.of("tuck_box"), said,
                             subject=f"deck {self.deck.name}",
                             hint="give the box a shorter title: tuck_box: {title: ...}")
        edge = printable_margin(paper, layout, _printer_margin(options))
        notes = instructions(renderer.info.title, self.title, count, flat)
        notes_x = min(max(flat.bounds.x_mm, edge), page.width_mm - edge - max(
            text_width_mm(text, role, NOTE_MM) for text, role in notes))
        placements = []
        for side, panel in (("back", "front"), ("front", "back")):  # the deck's back in front
            face = self.faces.get(side)
            if face is not None:
                box = flat.panels[panel]
                placements.append(Placement(
                    box.x_mm + (box.width_mm - self.deck.size.width_mm) / 2,
                    box.y_mm + (box.height_mm - self.deck.size.height_mm) / 2, face.svg))
        drawing = renderer.render(TUCK_TEMPLATE, None, expect=page, paper=page, flat=flat,
                                  box=self, count=count, cut=svg_path(list(flat.outline)),
                                  labels=labels, notes=notes, notes_x=max(notes_x, edge),
                                  printable_mm=edge).svg
        notices = (said,) if said and not said.startswith("the box's") else ()
        plans = [PagePlan(page, flat.bounds, blank_svg(page), tuple(placements) + (
            Placement(0, 0, drawing),), side="front", notices=notices)]
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


def _printer_margin(options: PrintOptions | None) -> float | None:
    printer = options.printer if options else None
    return getattr(printer, "printable_margin_mm", None) if printer else None


def box_labels(flat: Dieline, game: str, box: str
               ) -> tuple[dict[str, tuple[str, float]], str]:
    """The titles on the lid and the two sides, each (text, size in mm) as large as its panel
    holds, never under 6 pt: a side too short for the game's title and the box's takes the
    box's alone; a panel too thin for 6 pt is left without (and the second value says so,
    for the build to print; or, starting "the box's", that the box's own title is too long
    for the sides, which the designer can shorten)."""
    labels: dict[str, tuple[str, float]] = {}
    thin, long = [], ""
    for name, wanted in LABEL_MM.items():
        panel: Rect = flat.panels[name]
        across, along = sorted((panel.width_mm, panel.height_mm))
        texts = [game] if name == "lid" else [f"{game} · {box}", box]
        size = min(wanted, across - LABEL_CLEAR_MM)
        if size < LEAST_LABEL_MM - 1e-9:
            thin.append(name)
            continue
        for text in texts:
            width = text_width_mm(text, "bold", size)
            fitted = size if width <= along - 2 else size * (along - 2) / width
            if fitted >= LEAST_LABEL_MM - 1e-9:
                labels[name] = (text, round(fitted, 3))
                break
        else:
            long = long or (f"the box's title '{texts[-1]}' does not fit along its "
                            f"{along:g} mm {name.split('-')[0]} at 6 pt; it is left off")
    if long:
        return labels, long
    if thin:
        depth = flat.inner[2]
        return labels, (f"the box is {depth:g} mm deep, too thin for a title on its "
                        f"{' and '.join(sorted({n.split('-')[0] + 's' if n != 'lid' else n for n in thin}))} "
                        f"at 6 pt (that needs {LEAST_LABEL_MM + LABEL_CLEAR_MM:.1f} mm); "
                        "they are left off")
    return labels, ""


def instructions(game: str, box: str, count: int, flat: Dieline) -> tuple[tuple[str, str], ...]:
    """The lines printed under the dieline, each with its font role."""
    w, h, d = flat.inner
    return ((f"{game}: {box}, for {count} cards. Inside: {round(w, 2):g} x {round(h, 2):g} "
             f"mm, {round(d, 2):g} mm deep.", "bold"),
            ("Print at 100% on card stock, one side. Cut the solid outline; crease every "
             "dashed line. Fold the sides and the back behind the front and glue the flap",
             "body"),
            ("under the front's free edge. Fold the bottom dust flaps in, then the bottom, and "
             "tuck it in. Fill the box, then close the top the same way.", "body"))
