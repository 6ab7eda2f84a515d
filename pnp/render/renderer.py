"""Render: model objects and Jinja SVG templates in; one SVG document per face out.

Templates are looked up in the game's own folder first (`templates/<game>/`), then in the
project's `templates/common/`, then among pnp's built-in ones (`pnp/templates/`). Autoescape is on and undefined names are errors, so card text with `&`, `<`
or quotes is always drawn as text and a typo in a template fails loudly.

Text boxes are declared by the template with `text_box(...)`: the box, the font role, the
preferred and minimum size. Fitting happens here, with the same metrics the PDF is drawn with,
and anything that had to shrink, does not fit or cannot be drawn becomes a finding on the card.
"""

from __future__ import annotations

import base64
import functools
import math
import os
import posixpath
import re
from dataclasses import dataclass
from xml.parsers import expat
from pathlib import Path
from typing import Any

import jinja2
from jinja2.loaders import split_template_path
from markupsafe import Markup, escape

from .. import reads
from ..errors import OutsideError
from ..findings import Findings, Location, display_path
from ..load.content import printable
from ..fonts import BUNDLED, FontTable, metrics
from .safety import MIN_SMALL_PT, MIN_TEXT_PT, SMALL_ROLE_NAMES, face_problems
from .emphasis import BOLD, ITALIC, STYLE_NAMES, parse_emphasis
from .glyphs import printed_text_problems
from .svgcheck import drawing_problem
from .textfit import (DEFAULT_LANGUAGE, ICON_RISE_EM, TOKEN, fit_text, printed_text,
                      styled_metrics, wrap)
from ..units import MM_PER_INCH, Size

MM_PER_PT = 25.4 / 72
# An SVG length's unit -> millimetres (CSS: 96 px to the inch).
_SVG_UNITS = {"mm": 1.0, "cm": 10.0, "in": MM_PER_INCH, "pt": MM_PER_INCH / 72,
              "pc": MM_PER_INCH / 6, "px": MM_PER_INCH / 96}
_LENGTH = re.compile(r"\s*([0-9]*\.?[0-9]+)\s*(mm|cm|in|pt|pc|px)?\s*")
SIZE_TOLERANCE_MM = 0.01
# An href the drawing would fetch: anything but a `data:` URL (image() embeds checked art so)
# or a reference inside the drawing (#id). cairosvg refuses to fetch it at build time.
_FOREIGN_HREF = re.compile(r"""\bhref\s*=\s*(["'])(?!\s*(?:data:|#))(.*?)\1""", re.DOTALL)
ICONS_TEMPLATE = "icons.svg.j2"
# Content files, which the model reads: never embedded as art.
DATA_SUFFIXES = (".yaml", ".yml", ".csv", ".xlsx")
_IMAGE_TYPES = {b"\x89PNG": "image/png", b"\xff\xd8": "image/jpeg"}


@dataclass(frozen=True)
class Face:
    """One rendered face of one component."""

    svg: str
    label: str
    stamp: str = ""  # the face's version stamp (pnp.render.stamps), when it has one


def _number(value: float) -> str:
    """Short, stable decimal text for SVG coordinates (mm; 0.001 mm is far below print)."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class _TemplateLoader(jinja2.BaseLoader):
    """Finds templates in its folders, first found first, as Jinja's FileSystemLoader does,
    but reads them through pnp.reads and names them as the user sees them
    (templates/x/y.svg.j2).

    Each folder looked in is a read, so a lookup that found nothing is noted as one. A
    template Jinja keeps compiled is not looked up again: its reads are noted again each time
    Jinja asks whether it is up to date (on every use), for the work using it. The shown
    name goes into error locations, and names the template's entry in the compiled-template
    cache, so two copies of a project, each checked from its own folder, share their
    compiled templates (a checksum of the source decides if an entry is used).
    """

    def __init__(self, searchpath: list[str], root: str | None = None):
        self.searchpath = searchpath
        # Each folder's reads stay inside the project (`root`) when the folder is in it,
        # else inside the folder itself (pnp's own templates).
        self.inside = {folder: root if root and reads.is_inside(folder, root) else folder
                       for folder in searchpath}
        # The source of each template read, by its read's answer (pnp.engine.memo asks
        # which of those a piece of work read name `game`).
        self.sources: dict[str, str] = {}
        self.shown_sources: dict[str, str] = {}  # by the name findings show: macros' too

    def get_source(self, environment, template):
        looked = []
        for folder in self.searchpath:
            filename = os.path.normpath(posixpath.join(folder, *split_template_path(template)))
            data, answer, error = reads.look(filename, inside=self.inside[folder])
            looked.append((filename, answer))
            if data is not None:
                break
            if answer not in (reads.ABSENT, reads.FOLDER, reads.NOT_A_FILE):
                raise error  # there, but unreadable: as Jinja's own loader would
        else:
            plural = "path" if len(self.searchpath) == 1 else "paths"
            raise jinja2.TemplateNotFound(template, f"{template!r} not found in search "
                                          f"{plural}: {', '.join(map(repr, self.searchpath))}")
        source = data.decode("utf-8")
        shown = display_path(Path(filename), Path.cwd())
        self.sources[answer] = source
        self.shown_sources[shown] = source
        mtime = os.path.getmtime(filename)

        def uptodate() -> bool:
            for path, found in looked:
                reads.note(path, found)
            try:
                return os.path.getmtime(filename) == mtime
            except OSError:
                return False

        return source, shown, uptodate


class Renderer:
    """Renders the faces of one game's components, collecting text findings as it goes."""

    def __init__(self, template_dirs: list[Path], icons: dict[str, dict[str, str]],
                 globals_: dict[str, Any], art_folder: Path | None = None,
                 root: Path | None = None, fonts: FontTable = BUNDLED,
                 bytecode_cache: jinja2.BytecodeCache | None = None):
        """`bytecode_cache`: where compiled templates are kept between runs, if anywhere
        (the pipeline hands in the engine's)."""
        self.env = jinja2.Environment(
            loader=_TemplateLoader([str(d) for d in template_dirs],
                                   str(root) if root is not None else None),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            bytecode_cache=bytecode_cache,
        )
        self.env.filters["n"] = _number
        self.env.globals.update(globals_)
        self.env.globals["text_box"] = self.text_box
        self.env.globals["font"] = self.font_attributes
        # pnp's own sheets (footers, covers, plans, tuck boxes) are measured by the layout
        # stage in the bundled faces, so they print in them whatever the game's fonts.
        self.env.globals["pnp_font"] = functools.partial(_face_attributes, BUNDLED)
        self.env.globals["icon"] = self.icon
        self.env.globals["line_count"] = functools.partial(line_count, fonts=fonts)
        self.env.globals["image"] = self.image
        self.env.globals["icons"] = icons
        self.env.globals["stamp"] = ""  # a face's version stamp, given by pnp.render.stamps
        self.icons = icons
        self.fonts = fonts
        self.info = globals_.get("info")
        self.art_folder = art_folder
        self.findings = Findings()
        self._icon_macro = None
        self._icon_template = None
        self._broken: set[tuple[Location, str]] = set()
        # Each distinct drawing's root attributes, or why it is not well-formed XML: a deck's
        # backs are one drawing, parsed once.
        self._roots: dict[str, dict[str, str] | expat.ExpatError] = {}
        self._drawing: dict[str, tuple[str, str, str] | None] = {}  # svg -> drawing_problem
        self._safety: dict[tuple, list] = {}  # each distinct drawing's print-safety problems
        self._lines: dict[tuple[str, str], Location] = {}  # each written line's template line

    def take_findings(self) -> tuple[Findings, set[tuple[Location, str]]]:
        """The findings gathered since the last call, and the keys of those reported once
        however many faces show them: (location, message), and (location, rule) for a
        print-safety warning, shown once per template line and rule in a sheet; both start
        afresh."""
        taken = self.findings, self._broken
        self.findings, self._broken = Findings(), set()
        return taken

    def render(self, template: str, item: Any, expect: Size | None = None,
               **context: Any) -> Face:
        """Render one face; a broken or missing template, SVG that is not well-formed, or a
        drawing whose declared size is not `expect` becomes a finding, not a crash."""
        label = getattr(item, "label", "")
        deck = context.get("deck")
        self._safe = (expect, getattr(deck, "safe_mm", 0)) if expect is not None else None
        try:
            svg = self.env.get_template(template).render(card=item, **context)
        except OutsideError:  # the machine failed (a font, the disk), not the template
            raise
        except Exception as exc:  # a template bug, or model code a template called, failed
            where = self._template_location(template, exc)
            detail = exc.message if isinstance(exc, jinja2.TemplateError) else exc
            self._report(where, f"{type(exc).__name__}: {detail}", label)
            return Face("", label)
        if not self._svg_usable(svg, template, expect, label):
            return Face("", label)
        self._check_printed_text(svg, template, item, label)
        if expect is not None:
            self._check_print_safety(svg, template, expect, context, label)
        return Face(svg, label)

    def _check_print_safety(self, svg: str, template: str, expect: Size, context: dict,
                            label: str) -> None:
        """Warnings, at the template line that drew it, for what would print badly
        (pnp.render.safety): text too small, paint that stops at the trim, fixed text off its
        piece or over its frame or other text. Once per template line and rule."""
        deck = context.get("deck")
        bleed = float(getattr(deck, "bleed_mm", 0) or 0) if deck is not None else 0.0
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
        rendered = svg.splitlines()
        for problem in problems:
            text = rendered[problem.line - 1] if 0 < problem.line <= len(rendered) else ""
            where = self._source_line(template, text)
            if (where, problem.rule) in self._broken:  # once per template line and rule
                continue
            self._broken.add((where, problem.message))
            self._broken.add((where, problem.rule))
            self.findings.warning(problem.rule, where, problem.message, subject=label,
                                  hint=problem.hint)

    def _check_printed_text(self, svg: str, template: str, item: Any, label: str) -> None:
        """Text a template prints outside text boxes (literal words, data, icon letters) in
        a family the game has, with every character in the face that draws it: an error at
        the data line the words came from when they are a field of the item, else at the
        template line that wrote them."""
        for problem in printed_text_problems(svg, self.fonts):
            if problem.char and self._manifest_text(problem.text, problem.char):
                continue  # reported at its game.yaml line (pnp.pipeline.check_printed_text)
            where = _data_location(item, problem.text, problem.char)
            if where is None:
                rendered = svg.splitlines()
                text = rendered[problem.line - 1] if 0 < problem.line <= len(rendered) else ""
                where = self._source_line(template, text)
            self._report(where, problem.message, label, problem.rule, problem.hint)

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

    def font_attributes(self, role: str) -> Markup:
        """SVG attributes selecting a font by role: `<text {{ font('title') }}>`."""
        return _face_attributes(self.fonts, role)

    def exists(self, template: str, where: Location, field: str = "") -> bool:
        """Whether `template` can be found; if not, a finding at `where` (the manifest line
        that names it), so a typo is reported once, where it was made."""
        try:
            self.env.loader.get_source(self.env, template)
            return True
        except jinja2.TemplateNotFound:
            folders = ", ".join(display_path(Path(d), Path.cwd()) + "/"
                                for d in self.env.loader.searchpath[:-1])
            self._report(where, f"template '{template}' not found", "", "template-missing",
                         f"create it in {folders} or fix the name")
            return False
        except reads.Outside:
            self._report(where, f"template '{template}' {reads.OUTSIDE_MESSAGE}", "",
                         "file-outside", reads.OUTSIDE_HINT)
            return False
        except (OSError, UnicodeDecodeError) as exc:
            self._report(where, f"template '{template}' cannot be read: {exc}", "",
                         "template-missing", "save the template as UTF-8 text")
            return False

    def _report(self, where: Location, message: str, label: str, rule: str = "template-error",
                hint: str = "fix the template; the content was not at fault") -> None:
        if (where, message) not in self._broken:  # once per template problem, not per card
            self._broken.add((where, message))
            self.findings.error(rule, where, message, subject=label, hint=hint)

    def _svg_usable(self, svg: str, template: str, expect: Size | None, label: str) -> bool:
        """Parse the rendered SVG as the PDF stage will, and compare its declared size."""
        root = self._roots.get(svg)
        if root is None:
            try:
                root = _root_attributes(svg)
            except expat.ExpatError as exc:
                root = exc.with_traceback(None)
            self._roots[svg] = root
        if isinstance(root, expat.ExpatError):
            line, column = root.lineno, root.offset
            rendered = svg.splitlines()[line - 1] if 0 < line <= len(svg.splitlines()) else ""
            where = self._source_line(template, rendered)
            reason = str(root).split(":")[0]
            self._report(where, f"the SVG it draws is not well-formed XML: {reason} (at "
                         f"'{_excerpt(rendered, column)}')", label, "template-xml",
                         "close every tag and quote every attribute in the template")
            return False
        foreign = _FOREIGN_HREF.search(svg) if "href" in svg else None
        if foreign:
            shown = printable(foreign.group(2))[:60]
            self._report(self._source_line(template, foreign.group(0)), f"loads '{shown}' "
                         "by href, which a build refuses: templates draw art only through "
                         "image()", label, "template-href", "write {{ image(card, 'field', "
                         "(x, y, width, height)) }}: image() checks the art and embeds it")
            return False
        drawing = self._drawing.get(svg, False)
        if drawing is False:
            drawing = self._drawing[svg] = drawing_problem(svg)
        if drawing is not None:
            excerpt, message, hint = drawing
            self._report(self._source_line(template, excerpt), message, label,
                         "template-drawing", hint)
            return False
        if expect is None:
            return True
        size = _declared_size(root)
        if size is None:
            self._report(self._source_line(template, "<svg"), "the root <svg> declares no physical width and height",
                         label, "template-size", f'declare width="{expect.width_mm:g}mm" '
                         f'height="{expect.height_mm:g}mm" and a viewBox in mm')
            return False
        if abs(size.width_mm - expect.width_mm) > SIZE_TOLERANCE_MM or \
                abs(size.height_mm - expect.height_mm) > SIZE_TOLERANCE_MM:
            self._report(self._source_line(template, "<svg"), f"draws {size.width_mm:g} x {size.height_mm:g} mm, but it is "
                         f"printed at {expect.width_mm:g} x {expect.height_mm:g} mm", label,
                         "template-size", "make the template's width and height match the "
                         "size declared in game.yaml, so nothing is stretched")
            return False
        return True

    def _source_line(self, template: str, rendered: str) -> Location:
        """The template line that most likely wrote `rendered` (Jinja keeps no output map),
        looked for once: a problem of a deck's template shows on most of its faces."""
        if (template, rendered) not in self._lines:
            self._lines[template, rendered] = self._find_source_line(template, rendered)
        return self._lines[template, rendered]

    def _find_source_line(self, template: str, rendered: str) -> Location:
        try:
            source, filename, _ = self.env.loader.get_source(self.env, template)
        except jinja2.TemplateNotFound:
            return Location(template)
        lines = source.splitlines()
        wanted = rendered.strip()
        exact = next((n for n, text in enumerate(lines, start=1) if wanted and wanted in text),
                     0)
        if exact:
            return Location(filename, exact, 1)
        # A line with expressions: its literal parts around them, in this template or one it
        # imports macros from.
        folder = posixpath.dirname(filename)
        imported = set(re.findall(r"\{%-?\s*(?:from|import|include)\s+[\"']([^\"']+)", source))
        others = sorted(((name, text) for name, text in self.env.loader.shown_sources.items()
                         if name != filename and posixpath.dirname(name) == folder),
                        key=lambda pair: posixpath.basename(pair[0]) not in imported)
        for name, text in [(filename, source)] + others:
            for number, pattern in _line_patterns(text):
                if pattern.fullmatch(wanted):
                    return Location(name, number, 1)
        import difflib  # only to place a problem whose line is not written out in the source

        best, score = 0, 0.0
        for number, text in enumerate(lines, start=1):
            ratio = difflib.SequenceMatcher(None, wanted[:200], text.strip()[:200]).ratio()
            if ratio > score:
                best, score = number, ratio
        return Location(filename, best, 1) if best else Location(filename)

    def image(self, card: Any, field: str, box_mm: tuple[float, float, float, float], *,
              fit: str = "meet") -> Markup:
        """Draw the art named by `card.<field>` (an `image` field, checked by the model stage)
        into the box (x, y, width, height in mm), embedded in the face. Raster art too coarse
        for the box it prints in is a warning on the card, with its effective dpi."""
        if self.art_folder is None:
            raise ValueError("this game has no art folder")
        path = str(getattr(card, field))
        file = (self.art_folder / path).resolve()
        if not file.is_relative_to(self.art_folder.resolve()):
            raise ValueError(f"'{path}' is outside the game folder")
        if file.suffix.lower() in DATA_SUFFIXES:
            raise ValueError(f"'{path}' is a content file, not art")
        data = reads.read_file(file, inside=self.art_folder)
        x, y, width, height = box_mm
        where = card.where.of(field) if hasattr(card, "where") else None
        if where is not None:
            from ..load.art import resolution_finding

            finding = resolution_finding(data, (width, height), where, shown=path,
                                         subject=getattr(card, "label", ""), field=field,
                                         fit=fit)
            if finding is not None and (where, finding.message) not in self._broken:
                self._broken.add((where, finding.message))
                self.findings.add(finding)
        kind = next((t for magic, t in _IMAGE_TYPES.items() if data.startswith(magic)),
                    "image/svg+xml")
        encoded = base64.b64encode(data).decode("ascii")
        aspect = "xMidYMid slice" if fit == "slice" else "xMidYMid meet"
        return Markup(f'<image x="{_number(x)}" y="{_number(y)}" width="{_number(width)}" '
                      f'height="{_number(height)}" preserveAspectRatio="{aspect}" '
                      f'href="data:{kind};base64,{encoded}"/>')

    def _template_location(self, template: str, exc: Exception) -> Location:
        """The template file and line where rendering failed, as precisely as Jinja knows."""
        name, line = getattr(exc, "filename", None), getattr(exc, "lineno", None)
        if name is None:
            trace = exc.__traceback__
            while trace is not None:
                if trace.tb_frame.f_code.co_filename.endswith(".j2"):
                    name, line = trace.tb_frame.f_code.co_filename, trace.tb_lineno
                trace = trace.tb_next
        if name is None:
            return Location(template)
        return Location(name, line or 0, 1 if line else 0)

    def icon(self, name: str, x_mm: float, y_mm: float, size_mm: float) -> Markup:
        spec = self.icons[name]
        if spec.get("href"):  # the designer's own symbol, checked when the game was loaded
            return Markup(f'<image x="{_number(x_mm)}" y="{_number(y_mm)}" '
                          f'width="{_number(size_mm)}" height="{_number(size_mm)}" '
                          f'preserveAspectRatio="xMidYMax meet" href="{spec["href"]}"/>')
        # Asked for at every use, so the work drawing the icon notes the template's reads.
        template = self.env.get_template(ICONS_TEMPLATE)
        if template is not self._icon_template:
            self._icon_template, self._icon_macro = template, template.module.icon
        return self._icon_macro(spec, x_mm, y_mm, size_mm)

    def text_box(self, card: Any, field: str, box_mm: tuple[float, float, float, float], *,
                 font: str = "body", size_pt: float = 9, min_pt: float | None = None,
                 leading: float = 1.2, align: str = "left", valign: str = "top",
                 fill: str = "#000000", policy: str = "shrink", text: str | None = None,
                 role: str = "") -> Markup:
        """Fit `card.<field>` into the box (x, y, width, height in mm) and draw it.

        policy 'shrink' may go down to `min_pt` (a warning below `size_pt`); 'fail' may not.
        `text` draws other words (a title with its number) checked at the field's location.
        `role` "credit" (or "stamp") marks text that may print at MIN_SMALL_PT.
        """
        text = str(getattr(card, field) if text is None else text)
        x, y, width, height = box_mm
        if self.fonts.face(font) is None:
            raise ValueError(f"no font role '{font}'; the game's roles are "
                             f"{', '.join(self.fonts.roles)}")
        face = metrics(font, self.fonts)
        where = card.where.of(field) if hasattr(card, "where") else None
        label = getattr(card, "label", "")
        smallest = size_pt if policy == "fail" or min_pt is None else min_pt
        self._check_tokens(text, where, label, field)
        emphasis = parse_emphasis(text)
        self._check_characters(emphasis, face, where, label, field)
        text = emphasis.marked
        fit = fit_text(text, face, width, height, size_pt, smallest, leading, align,
                       self._language())
        if where is not None:
            if not fit.fits:
                self._report_overflow(fit, text, box_mm, smallest, where, label, field)
            elif fit.size_pt < size_pt:
                self.findings.warning(
                    "text-shrunk", where,
                    f"text shrunk from {size_pt:g} pt to {fit.size_pt:g} pt to fit its box",
                    subject=label, field=field,
                    hint="shorten it a little if it should print at the designed size")
        if where is not None and fit.fits:
            self._check_safe_zone(fit, x, y, height, valign, where, label, field)
        least = MIN_SMALL_PT if role in SMALL_ROLE_NAMES else MIN_TEXT_PT
        if where is not None and fit.size_pt < least - 0.005 and fit.lines:
            self.findings.warning(
                "print-text-size", where, f"text prints at {fit.size_pt:g} pt, under "
                f"{least:g} pt", subject=label, field=field,
                hint=f"shorten it, or give the template's text box a minimum of "
                     f"{least:g} pt or more")
        return self._draw(fit, face, x, y, width, height, valign, fill)

    def _check_safe_zone(self, fit, x, y, height, valign, where, label, field) -> None:
        """A warning when the drawn text (not its box) reaches into the deck's safe margin,
        where a slightly misaligned cut would trim it."""
        if not getattr(self, "_safe", None) or not self._safe[1]:
            return
        size, safe = self._safe
        runs = [run for line in fit.lines for run in line]
        if not runs:
            return
        offset = {"top": 0.0, "middle": (height - fit.height_mm) / 2,
                  "bottom": height - fit.height_mm}[valign]
        left = x + min(run.x_mm for run in runs)
        right = x + max(run.x_mm + run.width_mm for run in runs)
        top = y + max(offset, 0.0)
        bottom = top + fit.height_mm
        if (left < safe - 0.01 or top < safe - 0.01 or right > size.width_mm - safe + 0.01
                or bottom > size.height_mm - safe + 0.01):
            self.findings.warning(
                "text-in-safe-margin", where,
                f"text reaches into the {safe:g} mm safe margin of its "
                f"{size.width_mm:g} x {size.height_mm:g} mm piece", subject=label, field=field,
                hint="keep text inside the safe area (the deck's safe_mm), where a cut that "
                     "wanders cannot trim it")

    def _check_tokens(self, text, where, label, field) -> None:
        """Anything written like a token that names no icon is an error, so it never prints
        as typed; the hint names the icons that can be drawn, the closest first."""
        if where is None or "{" not in text:
            return
        for match in _TOKEN_LIKE.finditer(text):
            name = match.group(1)
            if TOKEN.fullmatch(match.group(0)) and name in self.icons:
                continue
            known = _closest_first(name, self.icons)
            hint = ("known tokens: " + ", ".join("{" + n + "}" for n in known)) if known else \
                "declare it under 'icons:' in game.yaml, or remove the braces"
            self.findings.error("text-unknown-token", where,
                                f"unknown icon token {{{printable(name)}}}", subject=label,
                                field=field, hint=hint)

    def _check_characters(self, emphasis, face, where, label, field) -> None:
        """Emphasis and every character, each in the face that draws it."""
        if where is None:
            return
        if emphasis.problem:
            self.findings.error("text-emphasis", where, emphasis.problem, subject=label,
                                field=field, hint="close it with the same mark, or write \\* "
                                "for an asterisk")
        for style in sorted({style for style, _ in emphasis.spans}):
            drawing = styled_metrics(face, style)
            # fontconfig would draw the nearest face it has: a family without an italic
            # prints `*italic*` upright, so that is said, not left to be found in print.
            if (style & ITALIC and drawing.face.style != "italic") or \
                    (style & BOLD and drawing.face.weight != "bold"):
                self.findings.error(
                    "font-no-style", where, f"{STYLE_NAMES[style]} text, but the font "
                    f"{face.face.family} has no {STYLE_NAMES[style]} face", subject=label,
                    field=field, hint="give the font role that face in game.yaml (fonts:), "
                    "or drop the emphasis")
            used = "".join(part for s, part in emphasis.spans if s == style)
            for char in drawing.missing(_strip_tokens(used)):
                self.findings.error(
                    "glyph-missing", where,
                    f"character '{char}' (U+{ord(char):04X}) is not in the font "
                    f"{drawing.face.family} ({_face_name(drawing.face)})", subject=label,
                    field=field, hint="it would print as an empty box; replace it, or give "
                    "the game a font that has it (fonts: in game.yaml)")

    def _language(self) -> str:
        """The edition's language, for hyphenation; English when the game names none."""
        return str(self.env.globals.get("lang") or DEFAULT_LANGUAGE)

    def _report_overflow(self, fit, text, box_mm, smallest, where, label, field) -> None:
        _, _, width, height = box_mm
        if fit.too_wide:
            message = (f"the word '{fit.too_wide}' is wider than its {width:g} mm box even at "
                       f"{smallest:g} pt")
            hint = _too_wide_hint(fit)
        else:
            message = (f"text overflows its {width:g} x {height:g} mm box by "
                       f"{_shown_mm(fit.overflow_mm)} mm ({fit.overflow_lines} line"
                       f"{'s' if fit.overflow_lines != 1 else ''}) even at {smallest:g} pt")
            cut = _words_to_cut(fit)
            hint = f"shorten it by about {cut} word{'s' if cut != 1 else ''}"
            if fit.overflow_lines == 1:  # its last line only: a little more room would do
                hint += (f", or give the template's text box {_shown_mm(fit.overflow_mm)} mm "
                         "more height")
        self.findings.error("text-overflow", where, message, subject=label, field=field,
                            hint=hint)

    def _run_texts(self, font, run, x_mm: float, baseline: float, size_pt: float) -> list[str]:
        """A text run's `<text>` elements: one, in the face its emphasis names, or one per
        piece where a fallback face draws characters that face lacks."""
        drawing = styled_metrics(font, run.style)
        pieces = drawing.segments(run.text)
        out = []
        for face, text in pieces:
            attributes = ""
            if face != font.face:
                attributes = (f' font-family="{escape(face.family)}" font-weight="{face.weight}"'
                              f' font-style="{face.style}"')
            out.append(f'<text x="{_number(x_mm)}" y="{_number(baseline)}"{attributes}>'
                       f"{escape(text)}</text>")
            x_mm += drawing.width_mm(text, size_pt)
        return out

    def _draw(self, fit, font, x, y, width, height, valign, fill) -> Markup:
        face = font.face
        size_mm = fit.size_pt * MM_PER_PT
        offset = {"top": 0.0, "middle": (height - fit.height_mm) / 2,
                  "bottom": height - fit.height_mm}[valign]
        baseline = y + max(offset, 0.0) + fit.vertical[0] * size_mm
        # The box the text was fitted to (x y width height, mm) goes with it, so what prints
        # can be compared with what was measured.
        box = " ".join(_number(v) for v in (x, y, width, height))
        parts = [f'<g data-fit="text" data-box="{box}" font-family="{face.family}" '
                 f'font-weight="{face.weight}" font-size="{_number(size_mm)}" '
                 f'fill="{escape(fill)}">']
        for runs in fit.lines:
            for run in runs:
                if run.icon:
                    if run.icon in self.icons:
                        # A square sits a little below the baseline, as a capital's box
                        # would; a designer's symbol stands on it, as its letters do.
                        image = bool(self.icons[run.icon].get("href"))
                        top = baseline - (run.width_mm if image else ICON_RISE_EM * size_mm)
                        parts.append(self.icon(run.icon, x + run.x_mm, top, run.width_mm))
                else:
                    parts += self._run_texts(font, run, x + run.x_mm, baseline, fit.size_pt)
            baseline += fit.leading * size_mm
        parts.append("</g>")
        return Markup("".join(str(p) for p in parts))


_EXPRESSION = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")


@functools.lru_cache(maxsize=256)
def _line_patterns(source: str) -> tuple[tuple[int, re.Pattern], ...]:
    """Each template line that writes markup with expressions, as a pattern its output
    matches (the expressions may print anything)."""
    patterns = []
    for number, line in enumerate(source.splitlines(), start=1):
        text = line.strip()
        parts = _EXPRESSION.split(text)
        if len(parts) < 2 or "<" not in "".join(parts):
            continue
        literal = [re.escape(part) for part in parts]
        patterns.append((number, re.compile(".*?".join(literal), re.S)))
    return tuple(patterns)


def line_count(text: str, width_mm: float, *, font: str = "body", size_pt: float = 9,
               fonts: FontTable = BUNDLED) -> int:
    """How many lines `text` wraps to in a box `width_mm` wide at `size_pt`: lets a template
    give each text box the height it needs before `text_box` fits and checks it."""
    marked = parse_emphasis(str(text)).marked
    return len(wrap(marked, metrics(font, fonts), size_pt, width_mm)[0])


def _root_attributes(svg: str) -> dict[str, str]:
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


def _declared_size(root: dict[str, str]) -> Size | None:
    """The physical size an SVG root's attributes (`_root_attributes`) declare, in mm; None
    when they declare none."""
    lengths = []
    for name in ("width", "height"):
        match = _LENGTH.fullmatch(root.get(name, ""))
        if not match or not match.group(2):
            return None
        lengths.append(float(match.group(1)) * _SVG_UNITS[match.group(2)])
    return Size(*lengths)


def _excerpt(line: str, column: int) -> str:
    start = max(column - 20, 0)
    text = line[start:column + 20].strip()
    return text if len(text) <= 40 else text[:40]


# Single braces around a few words, as a token is written, whether or not they name an icon
# (`{Coin}`, `{elder sign}`, `{}`); not `{{ 7*7 }}` or `{x: 1}`, which are plainly text.
_TOKEN_LIKE = re.compile(r"(?<!\{)\{([\w '.-]{0,40})\}(?!\})")


def _closest_first(name: str, known) -> list[str]:
    """The names in `known`, the most like `name` first."""
    import difflib  # only for a token that names no icon

    wanted = name.strip().lower().replace(" ", "_")
    return sorted(known, key=lambda n: -difflib.SequenceMatcher(None, wanted, n).ratio())


def _strip_tokens(text: str) -> str:
    """The characters a text prints: no icon tokens, no marks that only allow a break."""
    return printed_text(TOKEN.sub("", text))


def _words_to_cut(fit) -> int:
    """The words on the lines whose ink is past the box."""
    over = fit.lines[len(fit.lines) - fit.overflow_lines:] if fit.overflow_lines else ()
    return max(1, sum(len(run.text.split()) + (1 if run.icon else 0)
                      for line in over for run in line))


def _shown_mm(length_mm: float) -> str:
    """A small length shown so that it never reads as 0.0 (rounded up to 0.01 mm)."""
    if length_mm >= 0.095:
        return f"{length_mm:.1f}"
    return f"{math.ceil(length_mm * 100) / 100:.2f}"


def _too_wide_hint(fit) -> str:
    """What can be done about a word no break opportunity narrows enough."""
    piece = fit.unbreakable
    if len(piece) <= 1:
        return "widen the text box: it is narrower than one character at this size"
    middle = len(piece) // 2
    return (f"shorten it, or write a soft hyphen where it may break (\"{piece[:middle]}"
            f"\\u00ad{piece[middle:]}\" in a double-quoted YAML string): it prints as a "
            "hyphen only where the line breaks")


def _face_attributes(fonts: FontTable, role: str) -> Markup:
    face = fonts.face(role)
    if face is None:
        raise ValueError(f"no font role '{role}'; the game's roles are "
                         f"{', '.join(fonts.roles)}")
    return Markup(f'font-family="{escape(face.family)}" font-weight="{face.weight}"'
                  + (f' font-style="{face.style}"' if face.style != "normal" else ""))


def _face_name(face) -> str:
    return "bold italic" if face.weight == "bold" and face.style == "italic" else \
        face.style if face.style == "italic" else face.weight if face.weight == "bold" \
        else "regular"


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
