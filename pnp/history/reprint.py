"""Reprint: a checked game and the cards that changed in; one PDF of only those cards out.

`pnp build --reprint` writes `output/<game>/reprint-<paper>.pdf`: a cover page that lists what
to pull from the printed deck (each card with the stamp it carries and the one that replaces
it), what to add and what to throw away, then the changed and added cards of every deck imposed
on the current layout exactly as a full build would, each fronts page followed by its backs page,
so a long-edge duplex print lines up. The cover is followed by an empty page, and a deck without
backs by an empty page after each fronts page, so every fronts page lands on a sheet's front.
A changed board or whole page is listed on the cover: it is printed again from its own PDF.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from markupsafe import escape

from .diff import Change
from .lettering import use_game_fonts, words_family
from ..findings import Findings
from ..layout.plans import DocumentInfo, PagePlan, Placement
from ..compose.component import blank_svg, document_info, paper_label
from ..units import PAPERS, Rect

LINES_PER_PAGE = 42
LINE_MM = 5.2


@dataclass
class Reprint:
    plans: list[PagePlan]
    document: DocumentInfo
    cards: int  # cards printed (fronts)


def plan_reprint(checked, changes: list[Change], since: str, paper: str) -> Reprint | None:
    """The pages of the reprint, or None when no card has to be printed or pulled."""
    if not changes:
        return None
    renderer = checked.renderer
    findings = Findings()
    body: list[PagePlan] = []
    printed = 0
    whole: list[Change] = []
    for sheet in checked.sheets:
        wanted = [c for c in changes if c.sheet == sheet.name and c.kind != "removed"]
        if not wanted:
            continue
        if not hasattr(sheet, "fronts"):  # a board or a page: printed again from its own PDF
            whole.extend(wanted)
            continue
        indices = sorted({c.new["front"].index for c in wanted if "front" in c.new})
        subset = replace(sheet, items=tuple(sheet.items[i] for i in indices),
                         fronts=[sheet.fronts[i] for i in indices],
                         backs=[sheet.backs[i] for i in indices])
        for output in subset.outputs(renderer, paper, findings):
            for plan in output.plans:
                body.append(plan)
                if sheet.back is None:  # keep the next fronts page on the front of a sheet
                    body.append(_blank(paper))
        printed += len(indices)
    cover = _cover(checked, changes, whole, since, paper, printed)
    if len(cover) % 2:
        cover.append(_blank(paper))
    info = checked.info
    document = document_info(info, "Reprint", f"changes since {since}, "
                             f"{paper_label(paper)}", "long-edge")
    return Reprint(cover + body, document, printed)


def _blank(paper: str) -> PagePlan:
    size = PAPERS[paper]
    return PagePlan(size, Rect(0, 0, *size), blank_svg(size), ())


def pull_lines(changes: list[Change], whole: list[Change], since: str) -> list[tuple[str, str]]:
    """The cover's lines as (style, text): headings and one line per card."""
    def stamps(change: Change, side: str = "front") -> str:
        old, new = change.old.get(side), change.new.get(side)
        return f"{old.stamp if old else '?'} -> {new.stamp if new else '?'}"

    lines: list[tuple[str, str]] = []
    pulled = [c for c in changes if c.kind == "changed" and c not in whole]
    added = [c for c in changes if c.kind == "added" and c not in whole]
    removed = [c for c in changes if c.kind == "removed"]
    if pulled:
        lines.append(("head", f"Pull these {len(pulled)} from your deck; their new prints "
                              "follow (stamp on your card -> stamp on the new one):"))
        for change in pulled:
            side = "front" if "front" in change.new else next(iter(change.new), "front")
            lines.append(("card", f"{change.label}   {stamps(change, side)}   "
                                  f"({_clipped(change.describe().split(': ', 1)[1])})"))
    if added:
        lines.append(("head", f"Add these {len(added)} new ones:"))
        lines.extend(("card", f"{c.label}   {c.new['front'].stamp if 'front' in c.new else ''}")
                     for c in added)
    if removed:
        lines.append(("head", f"Take these {len(removed)} out of the game:"))
        lines.extend(("card", f"{c.label}   "
                              f"{next(iter(c.old.values())).stamp if c.old else ''}")
                     for c in removed)
    if whole:
        lines.append(("head", "Print these again in full, from their own PDFs:"))
        lines.extend(("card", f"{c.label} ({c.sheet})") for c in whole)
    return lines


def _clipped(text: str, most: int = 70) -> str:
    return text if len(text) <= most else text[:most - 3].rstrip(" ,") + "..."


def _cover(checked, changes: list[Change], whole: list[Change], since: str, paper: str,
           printed: int) -> list[PagePlan]:
    size = PAPERS[paper]
    info = checked.info
    lines = pull_lines(changes, whole, since)
    chunks = [lines[n:n + LINES_PER_PAGE] for n in range(0, len(lines), LINES_PER_PAGE)] or [[]]
    pages = []
    family = words_family(checked)
    for number, chunk in enumerate(chunks, start=1):
        margin = 18.0
        parts = [_text(margin, 24, f"{info.title}: reprint of the cards changed since {since}",
                       5.2, "bold", family),
                 _text(margin, 31, f"{printed} card{'s' * (printed != 1)} to print"
                                   f" (page {number} of {len(chunks)} of this list). Print "
                                   "double-sided, flipping on the long edge, at 100%.", 3.2,
                       "normal", family)]
        y = 42.0
        for style, text in chunk:
            if style == "head":
                y += 2
                parts.append(_text(margin, y, text, 3.4, "bold", family))
            else:
                parts.append(_text(margin + 4, y, text, 3.0, "normal", family))
            y += LINE_MM
        parts.append(_text(margin, size.height_mm - 14, info.licence.attribution, 2.4, "normal",
                           family))
        w, h = f"{size.width_mm:g}", f"{size.height_mm:g}"
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
               f'viewBox="0 0 {w} {h}">{"".join(parts)}</svg>')
        pages.append(PagePlan(size, Rect(0, 0, *size), blank_svg(size),
                              (Placement(0, 0, svg),)))
    return pages


def _text(x: float, y: float, text: str, size_mm: float, weight: str,
          family: str = "Roboto Condensed") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-family="{escape(family)}" font-weight="{weight}" '
            f'font-size="{size_mm:g}" fill="#000000">{escape(text)}</text>')




def write_reprint(checked, changes: list[Change], since: str, out_dir, staging, paper: str):
    """Stage `reprint-<paper>.pdf` of a game; its path and the cards printed, or None when
    nothing changed."""
    from ..pdf.draw import render_pdf

    planned = plan_reprint(checked, changes, since, paper)
    if planned is None:
        return None
    use_game_fonts(checked)
    destination = out_dir / checked.name / f"reprint-{paper}.pdf"
    staging.write(destination, render_pdf(planned.plans, planned.document))
    return destination, planned.cards


__all__ = ["Reprint", "plan_reprint", "pull_lines", "write_reprint"]
