"""Finishing: a PDF as cairo drew it (in parts, for a large document) and its page plans
in; the document a build writes out: its parts joined in order, a TrimBox and BleedBox on every
page, PrintScaling=None so a viewer does not shrink the sheet to fit, duplex as the layout
prints, and metadata dated only from SOURCE_DATE_EPOCH, with a file ID derived from the
content (the same input, the same bytes).

pikepdf does it, as cairo cannot write page boxes or viewer preferences. No cairo here: a build
finishes its PDFs in its own process while the drawing processes draw the next ones, and that
process never loads cairo.
"""

from __future__ import annotations

import contextlib
import io
import time

import pikepdf

from ..layout.plans import DocumentInfo, PagePlan
from ..units import Rect, Size, mm_to_pt

# The document information's Producer: what made the file.
PRODUCER = "pnp (cairo, pikepdf)"

__all__ = ["finish_document"]


def _pdf_box(rect: Rect, paper: Size) -> list[float]:
    """A rectangle in mm from the top-left, as a PDF box in points from the bottom-left."""
    x0 = mm_to_pt(rect.x_mm)
    y0 = mm_to_pt(paper.height_mm - rect.bottom_mm)
    return [round(x0, 4), round(y0, 4), round(x0 + mm_to_pt(rect.width_mm), 4),
            round(y0 + mm_to_pt(rect.height_mm), 4)]


def _pdf_date(epoch: int) -> str:
    return time.strftime("D:%Y%m%d%H%M%SZ", time.gmtime(epoch))


def _moved(rect: Rect, plan: PagePlan) -> Rect:
    """Where a rectangle lands after the page's correction (a printer profile's offset)."""
    t = plan.transform
    if t is None:
        return rect
    cx, cy = plan.paper.width_mm / 2, plan.paper.height_mm / 2
    return Rect(cx + (rect.x_mm - cx) * t.scale + t.dx_mm, cy + (rect.y_mm - cy) * t.scale +
                t.dy_mm, rect.width_mm * t.scale, rect.height_mm * t.scale)


def _clamped(rect: Rect, paper: Size) -> Rect:
    x0, y0 = max(rect.x_mm, 0), max(rect.y_mm, 0)
    x1, y1 = min(rect.right_mm, paper.width_mm), min(rect.bottom_mm, paper.height_mm)
    return Rect(x0, y0, max(x1 - x0, 0), max(y1 - y0, 0))


def finish_document(parts: list[bytes], pages: list[PagePlan], info: DocumentInfo) -> bytes:
    """The parts of one large document, drawn apart (`draw_pages`), joined in order and
    finished like any other."""
    if len(parts) == 1:
        return _finish_document(parts[0], pages, info)
    with contextlib.ExitStack() as stack:
        whole = stack.enter_context(pikepdf.open(io.BytesIO(parts[0])))
        for part in parts[1:]:
            whole.pages.extend(stack.enter_context(pikepdf.open(io.BytesIO(part))).pages)
        for key in list(whole.docinfo.keys()):  # cairo's Info holds the time it ran
            del whole.docinfo[key]
        joined = io.BytesIO()
        whole.save(joined, deterministic_id=True)  # its /ID[0] is kept by the final save
    return _finish_document(joined.getvalue(), pages, info)


def _finish_document(data: bytes, pages: list[PagePlan], info: DocumentInfo) -> bytes:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for page, plan in zip(pdf.pages, pages):
            trim = _clamped(_moved(plan.trim, plan), plan.paper)
            bleed = trim if plan.bleed is None else _clamped(_moved(plan.bleed, plan),
                                                             plan.paper)
            page.obj.TrimBox = pikepdf.Array(_pdf_box(trim, plan.paper))
            page.obj.BleedBox = pikepdf.Array(_pdf_box(bleed, plan.paper))
        # pikepdf spells the name /None as Name.None_ only in Python; the name written to the
        # file must be /None, which is what viewers look for.
        preferences = pikepdf.Dictionary(PrintScaling=pikepdf.Name("/None"))
        if info.duplex == "long-edge":
            preferences.Duplex = pikepdf.Name.DuplexFlipLongEdge
        elif info.duplex == "short-edge":
            preferences.Duplex = pikepdf.Name.DuplexFlipShortEdge
        pdf.Root.ViewerPreferences = preferences
        docinfo = pdf.docinfo
        for key in list(docinfo.keys()):
            del docinfo[key]
        docinfo.Title = info.title
        docinfo.Author = info.author
        docinfo.Subject = info.subject
        docinfo.Creator = "pnp"
        docinfo.Producer = PRODUCER
        if info.keywords:
            docinfo.Keywords = info.keywords
        if info.date_epoch is not None:
            docinfo.CreationDate = docinfo.ModDate = _pdf_date(info.date_epoch)
        out = io.BytesIO()
        pdf.save(out, min_version="1.7", deterministic_id=True)
    return out.getvalue()
