"""Render: model objects and Jinja SVG templates in; one SVG document per face out.

Templates are found and compiled by pnp.render.environment, and call the helpers of
pnp.render.helpers (text boxes fitted and checked as they are drawn). Each rendered face is
checked (pnp.render.facechecks); a problem is a finding at the template line that wrote it
(pnp.render.sourcelines), never a crash.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from .. import reads
from ..errors import OutsideError
from ..findings import Findings, Location, display_path
from ..fonts import BUNDLED, FontTable
from ..units import Size
from .environment import template_environment
from .facechecks import FaceChecks
from .helpers import TemplateHelpers, face_attributes, line_count
from .sourcelines import Report, explained, template_location
from .words import Words


@dataclass(frozen=True)
class Face:
    """One rendered face of one component."""

    svg: str
    label: str
    stamp: str = ""  # the face's version stamp (pnp.render.stamps), when it has one


class Renderer:
    """Renders the faces of one game's components, collecting text findings as it goes."""

    def __init__(self, template_dirs: list[Path], icons: dict[str, dict[str, str]],
                 globals_: dict[str, Any], art_folder: Path | None = None,
                 root: Path | None = None, fonts: FontTable = BUNDLED,
                 bytecode_cache=None):
        """`bytecode_cache`: where compiled templates are kept between runs, if anywhere
        (a jinja2.BytecodeCache: the pipeline hands in the engine's)."""
        self.env = template_environment(template_dirs, root, bytecode_cache)
        self.report = Report(self.env)
        self.helpers = TemplateHelpers(self.env, self.report, icons, fonts, art_folder)
        self.info = globals_.get("info")
        self.checks = FaceChecks(self.report, fonts, self.info)
        self.fonts = fonts
        self.env.globals.update(globals_)
        self.env.globals["text_box"] = self.helpers.text_box
        self.env.globals["font"] = self.helpers.font_attributes
        # pnp's own sheets (footers, covers, plans, tuck boxes) are measured by the layout
        # stage in the bundled faces, so they print in them whatever the game's fonts.
        self.env.globals["pnp_font"] = functools.partial(face_attributes, BUNDLED)
        self.env.globals["icon"] = self.helpers.icon
        self.env.globals["line_count"] = functools.partial(line_count, fonts=fonts)
        self.env.globals["image"] = self.helpers.image
        self.env.globals["icons"] = icons
        self.env.globals["stamp"] = ""  # a face's version stamp, given by pnp.render.stamps
        # pnp's own words in the edition's language (pnp.render.words)
        self.env.globals["_"] = Words(globals_.get("lang") or "", self.report)

    def take_findings(self) -> tuple[Findings, set[tuple[Location, str]]]:
        """The findings gathered since the last call, and the keys of those reported once
        however many faces show them: (location, message), and (location, rule) for a
        print-safety warning, shown once per template line and rule in a sheet; both start
        afresh."""
        return self.report.take()

    def render(self, template: str, item: Any, expect: Size | None = None,
               **context: Any) -> Face:
        """Render one face; a broken or missing template, SVG that is not well-formed, or a
        drawing whose declared size is not `expect` becomes a finding, not a crash."""
        label = getattr(item, "label", "")
        deck = context.get("deck")
        self.helpers.safe = (expect, getattr(deck, "safe_mm", 0)) if expect is not None \
            else None
        try:
            svg = self.env.get_template(template).render(card=item, **context)
        except OutsideError:  # the machine failed (a font, the disk), not the template
            raise
        except Exception as exc:  # a template bug, or model code a template called, failed
            where = template_location(template, exc)
            self.report.error(where, explained(exc, item, self.env.globals), label)
            return Face("", label)
        if not self.checks.usable(svg, template, expect, label):
            return Face("", label)
        self.checks.printed_text(svg, template, item, label)
        if expect is not None:
            self.checks.print_safety(svg, template, expect, context, label)
        return Face(svg, label)

    def exists(self, template: str, where: Location, field: str = "") -> bool:
        """Whether `template` can be found; if not, a finding at `where` (the manifest line
        that names it), so a typo is reported once, where it was made."""
        try:
            self.env.loader.get_source(self.env, template)
            return True
        except jinja2.TemplateNotFound:
            folders = ", ".join(display_path(Path(d), Path.cwd()) + "/"
                                for d in self.env.loader.searchpath[:-1])
            self.report.error(where, f"template '{template}' not found", "",
                              "template-missing", f"create it in {folders} or fix the name")
            return False
        except reads.Outside:
            self.report.error(where, f"template '{template}' {reads.OUTSIDE_MESSAGE}", "",
                              "file-outside", reads.OUTSIDE_HINT)
            return False
        except (OSError, UnicodeDecodeError) as exc:
            self.report.error(where, f"template '{template}' cannot be read: {exc}", "",
                              "template-missing", "save the template as UTF-8 text")
            return False
