"""Components: what every printable kind shares; the protocol in, helpers for page plans out.

Every kind answers the same questions, so the pipeline, `pnp list` and the proof gallery never
ask which kind a sheet is:

- `render(renderer)`: draw every face that does not depend on the paper (cards, a board); the
  same work cut into independent `parts(renderer)`, each returning some of the fields that
  `render` sets, which `join` puts together (a check shares the parts between processes);
- `outputs(renderer, paper, findings)`: the PDFs the sheet makes on a paper, each a list of page
  plans (layout done, margin furniture drawn), or findings when it cannot be laid out;
- `gallery()`: its faces as the proof shows them; `describe()`: its line in `pnp list`.

A new kind (a tuck box) is a new module here, not edits across the pipeline and the CLI.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

from ..findings import Findings
from ..layout.layouts import PrintOptions
from ..layout.plans import DocumentInfo, PagePlan
from ..load.schema import Where
from ..render.renderer import Renderer
from ..units import PAPER_LABELS, Size

FURNITURE_TEMPLATE = "sheet.svg.j2"
GALLERY_PAPER = "letter"  # what paper-sized faces are drawn on for the proof gallery


@dataclass(frozen=True)
class Output:
    """One PDF a sheet makes: its file name in the game's output folder, its pages, metadata."""

    file_name: str
    plans: list[PagePlan]
    document: DocumentInfo
    extras: tuple[tuple[str, str], ...] = ()  # (file name, text) written beside it: cut files


Drawn = dict[str, Any]  # some of the fields a sheet's `render` sets, by name


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


class Component:
    """What the kinds share: `render` is `parts` drawn here and joined; `parts` is one part
    (`part`), or none where a template the kind needs is missing. A deck cuts itself into
    several parts instead."""

    def render(self, renderer: Renderer) -> None:
        self.join([part() for part in self.parts(renderer)])

    def parts(self, renderer: Renderer, paper: str | None = None,
              options: PrintOptions | None = None) -> list[Callable[[], Drawn]]:
        drawing = self.part(renderer)
        return [] if drawing is None else [drawing]

    def part(self, renderer: Renderer) -> Callable[[], Drawn] | None:
        """The drawing of all the kind's faces, or None (`renderer.exists` says why)."""
        raise NotImplementedError

    def join(self, parts: list[Drawn]) -> None:
        raise NotImplementedError


def size_label(size: Size) -> str:
    return f"{size.width_mm:g} x {size.height_mm:g} mm"


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
