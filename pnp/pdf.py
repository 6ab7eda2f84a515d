"""PDF: page plans (paper size, margin furniture, placed SVG faces) in; PDF bytes out.

Every face is drawn by cairosvg straight onto one cairo PDF surface, so the whole document shares
one embedded subset per font and text stays vector and selectable. cairo cannot write page boxes
or viewer preferences, so pikepdf adds them afterwards: a TrimBox and BleedBox on every page, and
PrintScaling=None so a viewer does not shrink the sheet to fit. Document dates come only from
SOURCE_DATE_EPOCH and the file ID is derived from the content, so the same input gives the same
bytes on every run.

This is the one place where millimetres become points, and y-down becomes PDF's y-up.
"""

from __future__ import annotations

import contextlib
import io
import re
import os
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.request import urlopen

import cairocffi as cairo
import cairosvg.parser
import cairosvg.surface
import pikepdf

from .fasttext import draw_text
from .fonts import use_bundled_fonts
from .layout import Rect
from .units import Size, mm_to_pt


@dataclass(frozen=True)
class Placement:
    x_mm: float
    y_mm: float
    svg: str
    clip: Rect | None = None  # on the page: only this part of the drawing shows
    scale: float = 1  # drawn at this fraction of its size (a thumbnail)


@dataclass(frozen=True)
class PagePlan:
    paper: Size
    trim: Rect
    furniture: str  # the page-sized SVG with crop marks, ruler and notes
    placements: tuple[Placement, ...]


@dataclass(frozen=True)
class DocumentInfo:
    title: str
    author: str
    subject: str
    keywords: str = ""
    duplex: str = "long-edge"


class RefusedFetch(Exception):
    pass


def refuse_fetch(url: str, resource_type: str):
    """cairosvg's fetcher: a face may embed checked art as a `data:` image (the `image()`
    template helper does); nothing else, no file and no network, is ever read."""
    if url.startswith("data:image/") and resource_type.startswith("image/"):
        from .assets import check_asset_bytes

        with urlopen(url) as handle:  # a data: URL is decoded in memory, never fetched
            data = handle.read()
        problem = check_asset_bytes(data)
        if problem is None:
            return data
        raise RefusedFetch(f"refused an embedded image: it {problem}")
    raise RefusedFetch(f"refused to fetch {url[:80]!r}: templates may not load external "
                       "resources")


class _PlacedSurface(cairosvg.surface.Surface):
    """Draws one SVG document onto an existing cairo surface, its top-left at an offset.

    cairosvg has no public API for drawing into an existing surface; this reuses its Surface
    machinery with the output surface swapped in, which is the fastest route through cairosvg.
    """

    def __init__(self, tree, target: cairo.Surface, offset_pt: tuple[float, float],
                 clip_pt: tuple[float, float, float, float] | None = None, scale: float = 1):
        self._target = target
        self._offset_pt = offset_pt
        self._clip_pt = clip_pt
        self._scale = scale
        super().__init__(tree, None, 96)

    def _create_surface(self, width, height):
        return self._target, width, height

    def set_context_size(self, width, height, viewbox, tree):
        scale = self.device_units_per_user_units
        if self._clip_pt is not None:
            self.context.rectangle(*(v / scale for v in self._clip_pt))
            self.context.clip()
        self.context.translate(self._offset_pt[0] / scale, self._offset_pt[1] / scale)
        self.context.scale(self._scale, self._scale)
        super().set_context_size(width, height, viewbox, tree)

    def draw(self, node):
        if not draw_text(self, node):  # a plain line of text: one call, not one per glyph
            super().draw(node)


def draw_svg(target: cairo.Surface, svg: str, x_mm: float, y_mm: float, *,
             clip: Rect | None = None, scale: float = 1) -> None:
    tree = cairosvg.parser.Tree(bytestring=svg.encode("utf-8"), url_fetcher=refuse_fetch)
    clip_pt = None if clip is None else (
        mm_to_pt(clip.x_mm), mm_to_pt(clip.y_mm), mm_to_pt(clip.width_mm),
        mm_to_pt(clip.height_mm))
    _PlacedSurface(tree, target, (mm_to_pt(x_mm), mm_to_pt(y_mm)), clip_pt, scale)


def render_pdf(pages: list[PagePlan], info: DocumentInfo) -> bytes:
    """Draw the pages with cairo, then add page boxes and print settings with pikepdf."""
    return _finish_document(draw_pages(pages), pages, info)


def draw_pages(pages: list[PagePlan]) -> bytes:
    """The pages drawn by cairo: a PDF still without page boxes, print settings or metadata
    (`finish_document` adds them, once the parts of a large document are joined)."""
    use_bundled_fonts()
    # cairo writes to a scratch file by itself rather than through a Python callback: a
    # Ctrl-C or SIGTERM arriving inside such a callback would be swallowed by cffi with a
    # traceback, instead of stopping the build cleanly.
    with tempfile.TemporaryDirectory(prefix="pnp-") as scratch:
        raw = Path(scratch) / "cairo.pdf"
        first = pages[0].paper
        surface = cairo.PDFSurface(str(raw), mm_to_pt(first.width_mm),
                                   mm_to_pt(first.height_mm))
        page_context = cairo.Context(surface)
        shared = _shared_faces(pages)
        for page in pages:
            surface.set_size(mm_to_pt(page.paper.width_mm), mm_to_pt(page.paper.height_mm))
            draw_svg(surface, page.furniture, 0, 0)
            for placed in page.placements:
                if placed.svg in shared:
                    _paint(page_context, shared[placed.svg], placed.x_mm, placed.y_mm)
                else:
                    draw_svg(surface, placed.svg, placed.x_mm, placed.y_mm, clip=placed.clip,
                             scale=placed.scale)
            page_context.show_page()
        surface.finish()
        data = raw.read_bytes()
    return _drop_repeated_xobjects(data)


def _shared_faces(pages: list[PagePlan]) -> dict[str, cairo.RecordingSurface]:
    """Faces placed more than once (a deck's common back), each drawn once into a recording.

    cairo writes a recording as one reusable PDF object, so a shared back is parsed and drawn
    once per document instead of once per card: faster, and a smaller file.
    """
    counts = Counter(p.svg for page in pages for p in page.placements
                     if p.clip is None and p.scale == 1)
    recordings = {}
    for svg, count in counts.items():
        if count > 1:
            recording = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, None)
            draw_svg(recording, svg, 0, 0)
            recordings[svg] = recording
    return recordings


_XOBJECTS = re.compile(rb"/XObject << ([^<>]*) >>")
_REFERENCE = re.compile(rb"/[^\s/<>]+ \d+ \d+ R ?")


def _drop_repeated_xobjects(data: bytes) -> bytes:
    """Blank out repeated entries in cairo's page /XObject dictionaries.

    cairo 1.16 lists a recording once per paint (`/x13 13 0 R /x13 13 0 R ...`); qpdf then
    discards the whole resource dictionary. Each repeat is replaced by spaces of the same
    length, so every byte offset in the cross-reference table stays valid.
    """

    def dedupe(match: re.Match) -> bytes:
        seen: set[bytes] = set()

        def keep_first(entry: re.Match) -> bytes:
            key = entry.group().strip()
            if key in seen:
                return b" " * len(entry.group())
            seen.add(key)
            return entry.group()

        inner = _REFERENCE.sub(keep_first, match.group(1))
        return match.group()[: match.start(1) - match.start()] + inner + b" >>"

    return _XOBJECTS.sub(dedupe, data)


def _paint(context: cairo.Context, recording: cairo.RecordingSurface, x_mm: float,
           y_mm: float) -> None:
    context.save()
    context.translate(mm_to_pt(x_mm), mm_to_pt(y_mm))
    context.set_source_surface(recording, 0, 0)
    context.paint()
    context.restore()


def _pdf_box(rect: Rect, paper: Size) -> list[float]:
    """A rectangle in mm from the top-left, as a PDF box in points from the bottom-left."""
    x0 = mm_to_pt(rect.x_mm)
    y0 = mm_to_pt(paper.height_mm - rect.bottom_mm)
    return [round(x0, 4), round(y0, 4), round(x0 + mm_to_pt(rect.width_mm), 4),
            round(y0 + mm_to_pt(rect.height_mm), 4)]


def _pdf_date(epoch: int) -> str:
    return time.strftime("D:%Y%m%d%H%M%SZ", time.gmtime(epoch))


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
            box = pikepdf.Array(_pdf_box(plan.trim, plan.paper))
            page.obj.TrimBox = box
            page.obj.BleedBox = box
        preferences = pikepdf.Dictionary(PrintScaling=pikepdf.Name.None_)
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
        docinfo.Producer = "pnp (cairo, pikepdf)"
        if info.keywords:
            docinfo.Keywords = info.keywords
        epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
        if epoch.isdigit():
            docinfo.CreationDate = docinfo.ModDate = _pdf_date(int(epoch))
        out = io.BytesIO()
        pdf.save(out, min_version="1.7", deterministic_id=True)
    return out.getvalue()
