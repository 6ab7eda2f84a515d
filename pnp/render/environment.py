"""Environment: a game's template folders in; the Jinja environment that finds and compiles its
templates out.

Templates are looked up in the game's own folder first (`templates/<game>/`), then in the
project's `templates/common/`, then among pnp's built-in ones (`pnp/data/templates/`).
Autoescape is on and undefined names are errors, so card text with `&`, `<` or quotes is
always drawn as text and a typo in a template fails loudly.
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

import jinja2
from jinja2.loaders import split_template_path

from .. import reads
from ..findings import display_path


class TemplateLoader(jinja2.BaseLoader):
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


def template_environment(template_dirs: list[Path], root: Path | None = None,
                         bytecode_cache: jinja2.BytecodeCache | None = None
                         ) -> jinja2.Environment:
    """The environment that renders templates found in `template_dirs` (first found first),
    reading only inside the project folder `root` when a folder is in it, keeping compiled
    templates in `bytecode_cache` if one is handed in (the pipeline hands the engine's)."""
    env = jinja2.Environment(
        loader=TemplateLoader([str(d) for d in template_dirs],
                              str(root) if root is not None else None),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        bytecode_cache=bytecode_cache,
    )
    env.filters["n"] = number
    return env


def number(value: float) -> str:
    """Short, stable decimal text for SVG coordinates (mm; 0.001 mm is far below print)."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
