"""Face checks: a rendered face's SVG in; findings at the template line that wrote each problem
out.

A face is usable when it parses as the PDF stage parses it, fetches nothing, draws nothing
cairosvg cannot, and declares the size it prints at. Text printed outside text boxes must be
in the game's fonts (pnp.render.glyphs), and what would print badly (pnp.render.safety) is a
warning, once per template line and rule.
"""

from __future__ import annotations

import re
from typing import Any
from xml.parsers import expat

from ..findings import Location
from ..fonts import FontTable
from ..load.content import printable
from ..units import SVG_MM_PER_UNIT, Size
from .glyphs import printed_text_problems
from .safety import face_problems
from .sourcelines import Report, excerpt
from .svgcheck import drawing_problem

_LENGTH = re.compile(r"\s*([0-9]*\.?[0-9]+)\s*(mm|cm|in|pt|pc|px)?\s*")
SIZE_TOLERANCE_MM = 0.01
# An href the drawing would fetch: anything but a `data:` URL (image() embeds checked art so)
# or a reference inside the drawing (#id). cairosvg refuses to fetch it at build time.
_FOREIGN_HREF = re.compile(r"""\bhref\s*=\s*(["'])(?!\s*(?:data:|#))(.*?)\1""", re.DOTALL)


class FaceChecks:
    """The checks of one renderer's faces, each distinct drawing checked once."""

    def __init__(self, report: Report, fonts: FontTable, info: Any = None):
        self.report = report
        self.fonts = fonts
        self.info = info
        # Each distinct drawing's root attributes, or why it is not well-formed XML: a deck's
        # backs are one drawing, parsed once.
        self._roots: dict[str, dict[str, str] | expat.ExpatError] = {}
        self._drawing: dict[str, tuple[str, str, str] | None] = {}  # svg -> drawing_problem
        self._safety: dict[tuple, list] = {}  # each distinct drawing's print-safety problems

    def usable(self, svg: str, template: str, expect: Size | None, label: str) -> bool:
        """Parse the rendered SVG as the PDF stage will, and compare its declared size."""
        report = self.report
        root = self._roots.get(svg)
        if root is None:
            try:
                root = root_attributes(svg)
            except expat.ExpatError as exc:
                root = exc.with_traceback(None)
            self._roots[svg] = root
        if isinstance(root, expat.ExpatError):
            line, column = root.lineno, root.offset
            rendered = svg.splitlines()[line - 1] if 0 < line <= len(svg.splitlines()) else ""
            where = report.source_line(template, rendered)
            reason = str(root).split(":")[0]
            report.error(where, f"the SVG it draws is not well-formed XML: {reason} (at "
                         f"'{excerpt(rendered, column)}')", label, "template-xml",
                         "close every tag and quote every attribute in the template")
            return False
        foreign = _FOREIGN_HREF.search(svg) if "href" in svg else None
        if foreign:
            shown = printable(foreign.group(2))[:60]
            report.error(report.source_line(template, foreign.group(0)), f"loads '{shown}' "
                         "by href, which a build refuses: templates draw art only through "
                         "image()", label, "template-href", "write {{ image(card, 'field', "
                         "(x, y, width, height)) }}: image() checks the art and embeds it")
            return False
        drawing = self._drawing.get(svg, False)
        if drawing is False:
            drawing = self._drawing[svg] = drawing_problem(svg)
        if drawing is not None:
            shown, message, hint = drawing
            report.error(report.source_line(template, shown), message, label,
                         "template-drawing", hint)
            return False
        if expect is None:
            return True
        size = declared_size(root)
        if size is None:
            report.error(report.source_line(template, "<svg"),
                         "the root <svg> declares no physical width and height",
                         label, "template-size", f'declare width="{expect.width_mm:g}mm" '
                         f'height="{expect.height_mm:g}mm" and a viewBox in mm')
            return False
        if abs(size.width_mm - expect.width_mm) > SIZE_TOLERANCE_MM or \
                abs(size.height_mm - expect.height_mm) > SIZE_TOLERANCE_MM:
            report.error(report.source_line(template, "<svg"),
                         f"draws {size.width_mm:g} x {size.height_mm:g} mm, but it is "
                         f"printed at {expect.width_mm:g} x {expect.height_mm:g} mm", label,
                         "template-size", "make the template's width and height match the "
                         "size declared in game.yaml, so nothing is stretched")
            return False
        return True

    def print_safety(self, svg: str, template: str, expect: Size, context: dict,
                     label: str) -> None:
        """Warnings, at the template line that drew it, for what would print badly
        (pnp.render.safety): text too small, paint that stops at the trim, fixed text off its
        piece or over its frame or other text. Once per template line and rule."""
        deck = context.get("deck")
        bleed = float(getattr(deck, "bleed_mm", 0) or 0) if deck is not None else 0.0
        if getattr(deck, "bleed", "drawn") != "drawn":
            bleed = 0.0  # pnp paints the bleed from the face's edge (pnp.render.bleed)
        edge = context.get("printable_mm")
        problems = self._safety.get((svg, edge))
        if problems is None:
            # The face's own stamp and the game's credit line are what they are, whatever a
            # template calls them.
            small = {str(context.get("stamp") or ""): "stamp",
                     str(getattr(getattr(self.info, "licence", None), "attribution", "")):
                     "credit"}
            problems = self._safety[(svg, edge)] = face_problems(
                svg, expect.width_mm, expect.height_mm, bleed, small, edge_mm=edge,
                fonts=self.fonts)
        if not problems:
            return
        report = self.report
        rendered = svg.splitlines()
        for problem in problems:
            text = rendered[problem.line - 1] if 0 < problem.line <= len(rendered) else ""
            where = report.source_line(template, text)
            if (where, problem.rule) in report.once:  # once per template line and rule
                continue
            report.once.add((where, problem.message))
            report.once.add((where, problem.rule))
            report.findings.warning(problem.rule, where, problem.message, subject=label,
                                    hint=problem.hint)

    def printed_text(self, svg: str, template: str, item: Any, label: str) -> None:
        """Text a template prints outside text boxes (literal words, data, icon letters) in
        a family the game has, with every character in the face that draws it: an error at
        the data line the words came from when they are a field of the item, else at the
        template line that wrote them."""
        for problem in printed_text_problems(svg, self.fonts):
            if problem.char and self._manifest_text(problem.text, problem.char):
                continue  # reported at its game.yaml line (pnp.pipeline.check_printed_text)
            # A family is the template's whatever the data: at its line, once.
            where = _data_location(item, problem.text, problem.char) if problem.char else None
            if where is None:
                rendered = svg.splitlines()
                text = rendered[problem.line - 1] if 0 < problem.line <= len(rendered) else ""
                where = self.report.source_line(template, text)
            if not problem.char:
                if (where, problem.rule) in self.report.once:
                    continue
                self.report.once.add((where, problem.rule))
            self.report.error(where, problem.message, label, problem.rule, problem.hint)

    def _manifest_text(self, printed: str, char: str) -> bool:
        """Whether `char` in `printed` comes from the manifest's own words (the game's title,
        its attribution, a sheet's title), which the sheets print around the faces."""
        info = self.info
        if info is None:
            return False
        texts = [getattr(info, "title", ""), getattr(getattr(info, "licence", None),
                                                     "attribution", "")]
        for kind in ("decks", "boards", "pages"):
            texts += [getattr(spec, "title", "") for spec in getattr(info, kind, {}).values()]
        return any(char in text and " ".join(text.split()) in printed for text in texts if text)


def root_attributes(svg: str) -> dict[str, str]:
    """The attributes of an SVG's root element, once the whole drawing has parsed as
    well-formed XML, with namespaces, as the PDF stage parses it (ExpatError if not). No
    tree is built: the check only needs to know that it would parse, and its size."""
    parser = expat.ParserCreate(namespace_separator="}")
    root: dict[str, str] = {}

    def start(name: str, attributes: dict[str, str]) -> None:
        root.update(attributes)
        parser.StartElementHandler = None  # the root's attributes are all that is read

    parser.StartElementHandler = start
    parser.Parse(svg, True)
    return root


def declared_size(root: dict[str, str]) -> Size | None:
    """The physical size an SVG root's attributes (`root_attributes`) declare, in mm; None
    when they declare none."""
    lengths = []
    for name in ("width", "height"):
        match = _LENGTH.fullmatch(root.get(name, ""))
        if not match or not match.group(2):
            return None
        lengths.append(float(match.group(1)) * SVG_MM_PER_UNIT[match.group(2)])
    return Size(*lengths)


def _data_location(item: Any, text: str, char: str) -> Location | None:
    """The data line of the item's field whose value holds `char` and is printed in `text`."""
    where = getattr(item, "where", None)
    fields = getattr(item, "__dataclass_fields__", None)
    if where is None or not fields:
        return None
    for name in fields:
        value = getattr(item, name, None)
        if isinstance(value, str) and char in value and value.strip() and \
                " ".join(value.split()) in text:
            return where.of(name)
    return None
