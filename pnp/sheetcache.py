"""Sheet cache: one sheet's check (its faces drawn, its pages planned, its findings) in; the
same result, kept from an earlier run with identical inputs, out.

A designer checks after every save, and a save usually touches one file: the sheets drawn
from the others need not be drawn again. What a sheet's check makes depends only on:

- the sheet itself: its spec and every item, each field with its file:line;
- the manifest (`info`) and icons, the paper and the print options;
- the templates it rendered and those they include, import or extend, as the renderer finds
  them (every template file, if one is named by an expression); the entry keeps their
  digests, compared when it is reused;
- the game folder's art (any file that is not YAML or CSV, by name, size and time; art can
  be large, and is only ever read whole);
- pnp itself (its source, built-in templates and fonts), the installed distributions,
  Python's version, the working folder (findings name files relative to it) and
  SOURCE_DATE_EPOCH;
- and, when a template it rendered (or one those include or import) reads `game`, every
  content file of the game (its YAML and CSV, by their bytes), from which the whole model is
  made. Whether it does is known once it has been drawn: the entry keeps that digest then,
  and it is compared when the entry is reused.

The key is a SHA-256 over all of them. A value it cannot digest exactly (an object of an
unknown kind) leaves that sheet uncached rather than risk a stale answer. Entries live in the
user's cache (pnp.usercache), one per project, game, paper, sheet and part, each replaced when
its inputs change, and pruned with the rest of the user cache. `pnp build --no-cache` neither
reads nor writes them.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path

import jinja2

from . import fonts, usercache
from .cache import Undigestible, digest_value
from .jinjacache import template_reads
from .layout import PrintOptions
from .render import DATA_SUFFIXES, Renderer

FORMAT = 1
# A file's time comes from a coarser clock than time.time_ns(): a file changed just after a
# check began may show a time a little before it.
CLOCK_SLACK_NS = 50_000_000
PNP_FOLDER = Path(__file__).parent


def _file(key, stamp, path: str, name: str) -> None:
    """A file's name and bytes into the `key` digest (unless None); its name, size and times
    into the `stamp` digest."""
    info = os.stat(path)
    stamp.update(f"{name}\0{info.st_size} {info.st_mtime_ns} {info.st_ino}\0".encode())
    if key:
        with open(path, "rb") as file:
            key.update(f"{name}\0".encode())
            key.update(hashlib.sha256(file.read()).digest())


def _files(key, stamp, folder: str, prefix: str = "") -> None:
    """Every file under `folder` (see `_file`), in a stable order."""
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except (FileNotFoundError, NotADirectoryError):
        stamp.update(f"absent {folder}\0".encode())
        if key:
            key.update(f"absent {folder}\0".encode())
        return
    for entry in entries:
        if entry.is_dir():
            if entry.name != "__pycache__":
                _files(key, stamp, entry.path, f"{prefix}{entry.name}/")
        elif entry.is_file():
            _file(key, stamp, entry.path, prefix + entry.name)


def _game_files(art, data, folder: Path) -> int:
    """The game folder's files: content data by its bytes into `data`, everything else (art,
    which can be large and is only read whole) by name, size, time and inode into `art`.
    Returns the newest modification time among them."""
    newest = 0
    for root, folders, files in os.walk(folder):
        folders.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            newest = max(newest, os.stat(path).st_mtime_ns)
            shown = os.path.relpath(path, folder)
            if name.lower().endswith(DATA_SUFFIXES):
                _file(data, hashlib.sha256(), path, shown)
            else:
                _file(None, art, path, shown)
    return newest


class SheetCache:
    """The kept checks of one game's sheets, for one project, paper and set of options."""

    def __init__(self, root: Path, game, renderer: Renderer, paper: str, options,
                 began: int) -> None:
        """`began`: the time (time.time_ns) before the game was loaded; a file changed since
        may or may not be in what this check draws, so nothing drawn then is kept."""
        self.game = game
        self.renderer = renderer
        self.began = began - CLOCK_SLACK_NS
        self.changed = False
        self._templates: dict[str, tuple[str | None, str, int]] = {}
        self._all: tuple[str, int] | None = None
        self.place = f"{Path(root).resolve()}\0{game.folder.name}\0{paper}"
        self.folder = usercache.folder("sheets", "sheetcache.py")
        common = hashlib.sha256(f"sheets {FORMAT} {sys.version}\0cwd {Path.cwd()}\0"
                                f"SOURCE_DATE_EPOCH={os.environ.get('SOURCE_DATE_EPOCH', '')}\0"
                                f"{paper}\0".encode())
        common.update(usercache.installed_distributions())
        data = hashlib.sha256(f"game {game.folder.name}\0".encode())
        self.game_data = ""
        try:
            # pnp's own files (code, templates, fonts) by name, size, time and inode, as
            # Python judges its compiled modules; and the fonts wherever pnp finds them.
            _files(None, common, str(PNP_FOLDER))
            for face in sorted(fonts.FACES.values(), key=lambda face: face.role):
                _file(None, common, str(fonts.font_dir() / face.file),
                            f"{face.role} {face.file}")
            self.changed = _game_files(common, data, Path(game.folder)) >= began
            self.game_data = data.hexdigest()
            options = options or PrintOptions()
            for value in (options, options.sheet_layout(), game.info, game.icons):
                digest_value(common, value)
            self.common = common
        except (Undigestible, OSError, KeyError):
            self.common = None

    def _slot(self, sheet, part: int) -> str:
        return f"{self.place}\0{sheet.name}\0{part}"

    def key(self, sheet, part: int, parts: int) -> str | None:
        """The key of part `part` of a sheet drawn in `parts` parts, or None when it cannot
        be told exactly."""
        if self.common is None or self.folder is None:
            return None
        digest = self.common.copy()
        digest.update(f"sheet {sheet.name} part {part} of {parts}\0".encode())
        try:
            digest_value(digest, sheet)
        except Undigestible:
            return None
        return digest.hexdigest()

    def holds(self, sheet, part: int) -> bool:
        """Whether an entry is kept for a sheet's part (its key decides if it is usable)."""
        return self.folder is not None and usercache.holds(self.folder, self._slot(sheet, part))

    def recall(self, sheet, part: int, key: str):
        """The kept result of a sheet's part with this key, or None."""
        data = usercache.read(self.folder, self._slot(sheet, part))
        if data is None:
            return None
        try:
            entry = pickle.loads(data)
            if entry["format"] != FORMAT or entry["key"] != key:
                return None
            if entry["game"] is not None and entry["game"] != self.game_data:
                return None
            if entry["templates"] != self._sources(entry["templates"]):
                return None
            return entry["work"]
        except Exception:  # noqa: BLE001 - an unreadable entry only costs the drawing
            return None

    def keep(self, sheet, part: int, key: str, work, templates: set[str]) -> None:
        """Keep a sheet part's result, with the templates it read (those it rendered and
        those they include, import or extend) and, if any reads `game`, the game's data.
        Nothing is kept if one of those templates changed since the check began: the
        drawing may be of either version."""
        try:
            names, reads_game = self._closure(templates, "game")
            newest = self._every_template()[1] if names is None else \
                max((self._template(name)[2] for name in names), default=0)
            if self.changed or newest >= self.began:
                return
            entry = {"format": FORMAT, "key": key, "work": work,
                     "templates": self._sources(names),
                     "game": self.game_data if reads_game else None}
            data = pickle.dumps(entry, pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError):
            return
        usercache.write(self.folder, self._slot(sheet, part), data)

    def _template(self, name: str) -> tuple[str | None, str, int]:
        """A template's source as the renderer finds it (None: it cannot), its digest and
        its file's modification time; read once per check."""
        if name not in self._templates:
            env = self.renderer.env
            try:  # the plain loader: the file's own path, no shown name to work out
                source, path, _ = jinja2.FileSystemLoader.get_source(env.loader, env, name)
                self._templates[name] = (
                    source, hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest(),
                    os.stat(path).st_mtime_ns)
            except (jinja2.TemplateNotFound, OSError, UnicodeDecodeError):
                self._templates[name] = (None, "absent", 0)
        return self._templates[name]

    def _sources(self, names) -> dict[str, str] | str:
        """Each named template's source digest as the renderer finds it now; for None (a
        template named by an expression, which could be any), a digest of every file in the
        renderer's template folders."""
        if names is None or isinstance(names, str):
            return self._every_template()[0]
        return {name: self._template(name)[1] for name in names}

    def _every_template(self) -> tuple[str, int]:
        """A digest of every file in the renderer's template folders, and the newest
        modification time among them; read once per check."""
        if self._all is None:
            digest, newest = hashlib.sha256(), 0
            for folder in self.renderer.env.loader.searchpath:
                _files(digest, hashlib.sha256(), folder)
                for root, _, files in os.walk(folder):
                    for name in files:
                        newest = max(newest, os.stat(os.path.join(root, name)).st_mtime_ns)
            self._all = (digest.hexdigest(), newest)
        return self._all

    def _closure(self, names: set[str], variable: str) -> tuple[list[str] | None, bool]:
        """These templates and every template they include, import or extend, and whether
        any of them reads `variable`; None for the templates when one is named by an
        expression (it could be any), which also counts as reading `variable`."""
        seen: set[str] = set()
        waiting = list(names)
        reads = False
        while waiting:
            name = waiting.pop()
            if name in seen:
                continue
            seen.add(name)
            source = self._template(name)[0]
            if source is None:
                continue  # nothing was drawn from it (the render reported it)
            try:
                read, referenced = template_reads(self.renderer.env, source)
            except jinja2.TemplateSyntaxError:
                continue  # nothing was drawn from it either
            if None in referenced:
                return None, True
            reads = reads or variable in read
            waiting.extend(referenced)
        return sorted(seen), reads


__all__ = ["SheetCache", "Undigestible", "digest_value"]
