"""PDF: page plans (paper size, margin furniture, placed SVG faces) in; PDF bytes out.

Every face is drawn by cairosvg straight onto one cairo PDF surface, so the whole document shares
one embedded subset per font and text stays vector and selectable. cairo cannot write page boxes
or viewer preferences: pikepdf adds them afterwards (pnp.pdf.finish).

Here (and for the page boxes, in pnp.pdf.finish) millimetres become points, and y-down
becomes PDF's y-up.
"""

from __future__ import annotations

import functools
import math
import re
import tempfile
from collections import Counter
from pathlib import Path

import cairocffi as cairo
import cairosvg.parser
import cairosvg.surface

from ..load.assets import refuse_fetch
from .fasttext import draw_text
from .images import draw_picture, is_picture
from ..fonts import use_bundled_fonts, use_fonts
from ..libraries import load_whole
from ..layout.plans import DocumentInfo, PagePlan, PageTransform, svg_size_mm
from ..units import Rect, Size, mm_to_pt


# The tag cairosvg draws a picture by with `images.draw_picture` (no XML element has a name
# with a space, so no drawing names it by itself).
PICTURE_TAG = "pnp picture"


class _PlacedSurface(cairosvg.surface.Surface):
    """Draws one SVG document onto an existing cairo surface, its top-left at an offset.

    cairosvg has no public API for drawing into an existing surface; this reuses its Surface
    machinery with the output surface swapped in, which is the fastest route through cairosvg.
    """

    def __init__(self, tree, target: cairo.Surface, steps: tuple, clip_pt=None):
        self._target = target
        self._steps = steps
        self._clip_pt = clip_pt
        super().__init__(tree, None, 96)

    def _create_surface(self, width, height):
        return self._target, width, height

    def set_context_size(self, width, height, viewbox, tree):
        _apply(self.context, self._steps, self.device_units_per_user_units, self._clip_pt)
        super().set_context_size(width, height, viewbox, tree)

    def draw(self, node):
        # cairosvg resets the font options after each element it draws (from its
        # text-rendering), so they are set again before each one.
        self.context.set_font_options(_unhinted_metrics())
        if is_picture(node):  # drawn from one shared copy, no larger than it prints
            cairosvg.surface.TAGS.setdefault(PICTURE_TAG, draw_picture)
            node.tag = PICTURE_TAG
        if not draw_text(self, node):  # a plain line of text: one call, not one per glyph
            super().draw(node)


@functools.cache
def _unhinted_metrics() -> cairo.FontOptions:
    """Font options that keep every glyph advance exact, on any surface.

    A PDF surface asks cairo for unhinted metrics by itself, but a recording surface (a shared
    face) leaves them at the default, and FreeType then rounds each advance to a whole device
    unit, here a PDF point: a line of a face printed twice came out up to 1.2 mm wider than
    the same line printed once, and wider than its box. Set on every context pnp draws with, a face has the same glyph positions
    however it is drawn, and they are the advances text fitting measures.
    """
    options = cairo.FontOptions()
    options.set_hint_metrics(cairo.HINT_METRICS_OFF)
    options.set_hint_style(cairo.HINT_STYLE_NONE)
    return options


def _apply(context: cairo.Context, steps: tuple, unit: float = 1, clip_pt=None) -> None:
    """Apply ("page", PageTransform), ("clip", ...), ("translate", x_pt, y_pt),
    ("rotate", degrees) and ("scale", s) steps, in that order, to a context whose user unit
    is `unit` points."""
    for step in steps:
        if step[0] == "page":
            t: PageTransform = step[1]
            cx, cy = step[2]
            context.translate((cx + mm_to_pt(t.dx_mm)) / unit, (cy + mm_to_pt(t.dy_mm)) / unit)
            context.scale(t.scale, t.scale)
            context.translate(-cx / unit, -cy / unit)
        elif step[0] == "clip":
            context.rectangle(*(v / unit for v in step[1]))
            context.clip()
        elif step[0] == "translate":
            context.translate(step[1] / unit, step[2] / unit)
        elif step[0] == "rotate":
            context.rotate(math.radians(step[1]))
        elif step[0] == "scale":
            context.scale(step[1], step[1])


def _placement_steps(x_mm: float, y_mm: float, svg_size: tuple[float, float] | None = None,
                     rotate: int = 0, inset_mm: float = 0, scale: float = 1) -> tuple:
    """Steps that put a drawing's top-left so its trim, turned `rotate` degrees clockwise,
    has its top-left at (x, y) on the page."""
    if rotate and svg_size:
        w, h = (v - 2 * inset_mm for v in svg_size)
        dx, dy = {90: (h, 0), 180: (w, h), 270: (0, w)}[rotate]
    else:
        dx = dy = 0
    steps = [("translate", mm_to_pt(x_mm + dx), mm_to_pt(y_mm + dy))]
    if rotate:
        steps.append(("rotate", rotate))
    if inset_mm:
        steps.append(("translate", -mm_to_pt(inset_mm), -mm_to_pt(inset_mm)))
    if scale != 1:
        steps.append(("scale", scale))
    return tuple(steps)


def _viewport_clip(size: tuple[float, float] | None) -> tuple:
    """cairosvg draws past a document's viewport; a face shows only its own area (its trim,
    or its trim and bleed), so a background drawn for a bleed never covers a neighbour or a
    crop mark."""
    if size is None:
        return ()
    return (("clip", (0, 0, mm_to_pt(size[0]), mm_to_pt(size[1]))),)


def _clip_steps(clip: Rect | None) -> tuple:
    if clip is None:
        return ()
    return (("clip", (mm_to_pt(clip.x_mm), mm_to_pt(clip.y_mm), mm_to_pt(clip.width_mm),
                      mm_to_pt(clip.height_mm))),)


def draw_svg(target: cairo.Surface, svg: str, x_mm: float, y_mm: float, *,
             clip: Rect | None = None, scale: float = 1, rotate: int = 0,
             inset_mm: float = 0, page: tuple = ()) -> None:
    tree = cairosvg.parser.Tree(bytestring=svg.encode("utf-8"), url_fetcher=refuse_fetch)
    steps = list(page)
    if clip is not None:
        steps.append(("clip", (mm_to_pt(clip.x_mm), mm_to_pt(clip.y_mm),
                               mm_to_pt(clip.width_mm), mm_to_pt(clip.height_mm))))
    size = svg_size_mm(svg)
    steps.extend(_placement_steps(x_mm, y_mm, size, rotate, inset_mm, scale))
    _PlacedSurface(tree, target, tuple(steps) + _viewport_clip(size))


def render_pdf(pages: list[PagePlan], info: DocumentInfo) -> bytes:
    """Draw the pages with cairo, then add page boxes and print settings with pikepdf."""
    finish = load_whole("pnp.pdf.finish")  # not loaded by the drawing processes, which draw
    return finish.finish_document([draw_pages(pages)], pages, info)


def draw_part(pages: list[PagePlan], fonts: tuple[str, ...] = ()) -> bytes:
    """A part of a document's pages, drawn with the bundled fonts and a game's own `fonts`
    (a worker may draw for several games: each adds its own)."""
    use_fonts(fonts)
    return draw_pages(pages)


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
            steps = () if page.transform is None else (("page", page.transform, (
                mm_to_pt(page.paper.width_mm / 2), mm_to_pt(page.paper.height_mm / 2))),)
            draw_svg(surface, page.furniture, 0, 0, page=steps)
            for placed in page.placements:
                if placed.svg in shared:
                    page_context.save()
                    size = svg_size_mm(placed.svg)
                    _apply(page_context, steps + _clip_steps(placed.clip) + _placement_steps(
                        placed.x_mm, placed.y_mm, size, placed.rotate, placed.inset_mm)
                        + _viewport_clip(size))
                    page_context.set_source_surface(shared[placed.svg], 0, 0)
                    page_context.paint()
                    page_context.restore()
                else:
                    draw_svg(surface, placed.svg, placed.x_mm, placed.y_mm, clip=placed.clip,
                             scale=placed.scale, rotate=placed.rotate,
                             inset_mm=placed.inset_mm, page=steps)
            page_context.show_page()
        surface.finish()
        data = raw.read_bytes()
    return _drop_repeated_xobjects(data)


def _shared_faces(pages: list[PagePlan]) -> dict[str, cairo.RecordingSurface]:
    """Faces placed more than once (a deck's common back), each drawn once into a recording.

    cairo writes a recording as one reusable PDF object, so a shared back is parsed and drawn
    once per document instead of once per card: faster, and a smaller file.
    """
    # A face clipped to its trim and outer bleed (inset) is shared too; a board's tile is not.
    counts = Counter(p.svg for page in pages for p in page.placements
                     if (p.clip is None or p.inset_mm) and p.scale == 1)
    spots: dict[str, set] = {}
    for page in pages:
        for placed in page.placements:
            if counts.get(placed.svg, 0) > 1:
                spots.setdefault(placed.svg, set()).add((page.paper, placed.x_mm, placed.y_mm))
    recordings = {}
    for svg, places in spots.items():
        recording = cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, None)
        draw_svg(recording, svg, 0, 0)
        if _stays_vector(recording, svg, places):
            recordings[svg] = recording
    return recordings


def _paint(context: cairo.Context, recording: cairo.RecordingSurface, x_mm: float,
           y_mm: float) -> None:
    context.save()
    context.translate(mm_to_pt(x_mm), mm_to_pt(y_mm))
    context.set_source_surface(recording, 0, 0)
    context.paint()
    context.restore()


def _image_count(draw, paper: Size) -> int:
    """How many images cairo writes for what `draw(surface, context)` draws on one page."""
    with tempfile.TemporaryDirectory(prefix="pnp-") as scratch:
        path = Path(scratch) / "probe.pdf"
        surface = cairo.PDFSurface(str(path), mm_to_pt(paper.width_mm),
                                   mm_to_pt(paper.height_mm))
        draw(surface, cairo.Context(surface))
        surface.finish()
        return path.read_bytes().count(b"/Subtype /Image")


def _stays_vector(recording: cairo.RecordingSurface, svg: str, places: set) -> bool:
    """Whether painting `recording` where it is placed keeps it vector.

    cairo 1.16 sometimes replaces a painted recording with a 300 dpi image of the whole page
    (seen with several separate strokes that touch the face's edge, at some positions only).
    Each shared face is painted once at every spot it goes to on a scratch page; one that
    writes more images than drawing the SVG directly is drawn directly, once per placement.
    """
    for paper in {paper for paper, _, _ in places}:
        spots = [(x, y) for page_paper, x, y in places if page_paper == paper]

        def painted(surface, context) -> None:
            for x, y in spots:
                _paint(context, recording, x, y)

        def direct(surface, context) -> None:
            for x, y in spots:
                draw_svg(surface, svg, x, y)

        found = _image_count(painted, paper)
        if found and found > (_image_count(direct, paper) if "<image" in svg else 0):
            return False
    return True


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


def render_png(svg: str, dpi: float, width_px: int | None = None,
               height_px: int | None = None) -> bytes:
    """One SVG document as a PNG at `dpi`, or at exactly `width_px` x `height_px` (then the
    drawing's size in mm and the pixel size must agree, as for a shop's face)."""
    from cairosvg.surface import PNGSurface

    use_bundled_fonts()
    return PNGSurface.convert(bytestring=svg.encode("utf-8"), dpi=dpi, url_fetcher=refuse_fetch,
                              output_width=width_px, output_height=height_px)
