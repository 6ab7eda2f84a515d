"""Sheet cache: one sheet's check (its faces drawn, its pages planned, its findings) in; the
same result, kept from an earlier check that was handed the same values and read the same
files, out.

A designer checks after every save, and a save usually touches one file: the sheets drawn
from the others need not be drawn again. A kept part of a sheet is used again only when
both of these hold:

- its key is the same. The key is a SHA-256 over what the drawing is handed: the sheet (its
  spec and every item, each field with its file:line; for one part of a deck drawn in
  several, the deck's other fields and that part's own items), the renderer's values (`info`,
  `icons`), the paper and the print options (the layout, built in or from the project's
  layouts.yaml, and a printer profile), each pickled as plain values; and over pnp itself
  (its files by name, size and time, as Python judges its compiled modules), the installed
  distributions, Python's version, the font files text is measured with (by the answers
  their reads gave), the working folder (findings name files relative to it) and
  SOURCE_DATE_EPOCH;
- every file its drawing read gives the same answer now (pnp.reads). Recorded while it was
  drawn, these are the templates it rendered, included, imported or extended, and each
  folder where a lookup found nothing (a template created since is found now); the art it
  embedded; and, when one of those templates names `game` (through which a template can
  reach the whole model), the files the game was loaded from, less the data files of the
  tables and decks none of them reads as `game.<name>` (a template that uses `game` in any
  other way, or reads a deck made from other tables, keeps every file). When one names `deck`
  (every item of the deck), the whole deck's digest is kept too, and must still match. What
  a template reads is known from its source, so the model records nothing.

Nothing is kept from a drawing whose record is mixed (a file that changed between two of
its reads), nor when a value cannot be pickled exactly: that sheet is drawn every time
rather than risk a stale answer. Entries live in the user's cache (pnp.engine.store), one per
project, game, paper, sheet and part, each replaced when its inputs change, and pruned with
the rest of the cache. `pnp build --no-cache` neither reads nor writes them.

Why: the watch loop and the 30,000-card check after one edited row redraw only what the
edit touched: the 30,000-card check after one edited row takes 0.13 of the same check with
nothing kept (3.10 s against 23.56 s, bench/bench_build.py --sections big, 5 rounds, a quiet
2-core machine): 7.6x.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import sys
from dataclasses import fields, is_dataclass, replace
from functools import lru_cache
from operator import attrgetter
from pathlib import Path

import jinja2
from jinja2 import nodes

from . import reads, store
from .store import UNPICKLABLE

FORMAT = 4  # 4: the result pickled apart from its entry
# What a template may read through `game` that game.yaml (its fonts and icons) holds.
GAME_YAML_NAMES = frozenset({"info", "icons", "fonts", "language", "folder"})


def _made_at_run_time(*parts) -> None:
    """Stands for a class made while pnp runs, in a key's pickle (which is never loaded)."""
    raise TypeError("a key's pickle is never loaded")


class _KeyPickler(pickle.Pickler):
    """Pickles values for a key. A record type a game's manifest declares is made while pnp
    runs, and pickle cannot name it: such a class is written as its name (what it does comes
    from the manifest, which the key holds too), its instances as that and their fields."""

    def __init__(self, file, protocol) -> None:
        super().__init__(file, protocol)
        self._how: dict[type, object] = {}

    def reducer_override(self, obj):
        if isinstance(obj, type):
            if _importable(obj):
                return NotImplemented
            return _made_at_run_time, (obj.__module__, obj.__qualname__)
        kind = type(obj)
        how = self._how.get(kind)
        if how is None:
            how = NotImplemented
            if is_dataclass(kind) and not _importable(kind):
                names = tuple(field.name for field in fields(kind))
                how = (f"{kind.__module__}.{kind.__qualname__}", names,
                       attrgetter(*names) if names else (lambda _: ()))
            self._how[kind] = how
        if how is NotImplemented:
            return how
        name, names, values = how
        return _made_at_run_time, (name, names, values(obj))


def _importable(kind: type) -> bool:
    found = sys.modules.get(kind.__module__)
    for part in kind.__qualname__.split("."):
        found = getattr(found, part, None)
    return found is kind


def value_digest(value) -> str:
    """A SHA-256 of `value`'s pickle; raises one of UNPICKLABLE for a value that cannot be
    pickled exactly. (Pickling is C; walking the value in Python cost most of a key's time
    on large decks.)"""
    buffer = io.BytesIO()
    _KeyPickler(buffer, pickle.HIGHEST_PROTOCOL).dump(value)
    return hashlib.sha256(buffer.getbuffer()).hexdigest()


class SheetCache:
    """The kept checks of one game's sheets, for one project, paper and set of options."""

    def __init__(self, root: Path, game_name: str, renderer, paper: str, options,
                 loaded: reads.Record, measured_fonts: dict[str, str]) -> None:
        """`options`: the print options (pnp.layout.impose.PrintOptions); `loaded`: the
        record of loading the game, whose reads a sheet depends on when its templates name
        `game` (and which are what this check works from); `measured_fonts`: the font files
        text is measured with and what reading each gave (pnp.fonts.measured)."""
        self.env = renderer.env
        self.sources = renderer.env.loader.sources
        self.loaded = loaded
        self.answers = reads.Answers(loaded)
        self.place = f"{Path(root).resolve()}\0{game_name}\0{paper}"
        self.folder = store.folder("sheets")
        self._sheets: dict[str, str | None] = {}
        # Each table and deck read from a file: its file, as loading it recorded the read.
        game = renderer.env.globals.get("game")
        info = getattr(game, "info", None)
        self._part_files: dict[str, str] = {
            name: str(game.folder / spec.file) for specs in
            ((info.data, info.decks) if info is not None else ())
            for name, spec in specs.items() if getattr(spec, "file", None)}
        values = {name: value for name, value in sorted(renderer.env.globals.items())
                  if name != "game" and not callable(value)}
        try:
            # The layout as the drawing finds it: the options name a built-in one by name.
            layout = options.sheet_layout()
            self.common = value_digest((
                FORMAT, store.installation(), str(Path.cwd()),
                os.environ.get("SOURCE_DATE_EPOCH", ""), paper, options, layout, values,
                measured_fonts))
        except (*UNPICKLABLE, KeyError):
            self.common = None

    def _slot(self, sheet, part: int) -> str:
        return f"{self.place}\0{sheet.name}\0{part}"

    def key(self, sheet, part: int, parts: int) -> str | None:
        """The key of part `part` of a sheet drawn in `parts` parts, taken before anything is
        drawn; None when it cannot be told exactly.

        A part of a deck drawn in several parts draws its own items' faces and plans the
        pages they fill: its key has those items, the deck's other fields and its number of
        items (`part_items`; the footers count the deck's sheets), so a row edited redraws
        one part. A template
        that reads `deck` sees every item: `keep` then notes the whole deck's digest too."""
        if self.common is None or self.folder is None:
            return None
        try:
            own = getattr(sheet, "part_items", None) if parts > 1 else None
            if own is None:
                digest = self._whole(sheet)
            else:
                digest = value_digest((replace(sheet, items=()), len(sheet.items),
                                       own(part)))
        except UNPICKLABLE:
            return None
        if digest is None:
            return None
        return hashlib.sha256(f"{self.common}\0{digest}\0{part} of {parts}".encode()).hexdigest()

    def _whole(self, sheet) -> str | None:
        """The digest of a whole sheet, every item included; worked out once per check."""
        if sheet.name not in self._sheets:
            try:
                self._sheets[sheet.name] = value_digest(sheet)
            except UNPICKLABLE:
                self._sheets[sheet.name] = None
        return self._sheets[sheet.name]

    def recall(self, sheet, part: int, key: str):
        """The kept result of a sheet's part with this key whose every read gives the same
        answer now, or None."""
        data = self.recall_pickled(sheet, part, key)
        return None if data is None else pickle.loads(data)

    def recall_pickled(self, sheet, part: int, key: str) -> bytes | None:
        """`recall`'s result as it was pickled: a process that only hands it on (a check's
        worker, pnp.engine.workers.run_tasks) looks it up without unpickling and pickling it again."""
        data = store.read(self.folder, self._slot(sheet, part))
        if data is None:
            return None
        try:
            entry = pickle.loads(data)
            if entry["format"] != FORMAT or entry["key"] != key:
                return None
            if entry["deck"] is not None and entry["deck"] != self._whole(sheet):
                return None  # its templates read the whole deck, which has changed
            if not self.answers.same(entry["reads"]):
                return None
            reads.note_all(entry["reads"])  # what made it, this run has read too
            return entry["work"]
        except Exception:  # noqa: BLE001 - an unreadable entry only costs the drawing
            return None

    def keep(self, sheet, part: int, key: str, work, record: reads.Record) -> None:
        """Keep a sheet part's result with what its drawing read (`record`); if one of the
        templates it read names `game`, everything loading the game read; if one names
        `deck`, the whole sheet's digest."""
        names, from_game = self._names(record)
        if "game" in names:
            record.update(self._seen_in_game(from_game))
        if record.mixed:
            return
        try:
            deck = self._whole(sheet) if "deck" in names else None
            data = pickle.dumps({"format": FORMAT, "key": key, "reads": record.reads,
                                 "deck": deck, "work": pickle.dumps(
                                     work, pickle.HIGHEST_PROTOCOL)},
                                pickle.HIGHEST_PROTOCOL)
        except UNPICKLABLE:
            return
        store.write(self.folder, self._slot(sheet, part), data)

    def _seen_in_game(self, from_game: frozenset[str] | None) -> reads.Record:
        """What loading the game read, less the data files of the tables and decks the
        templates do not read as `game.<name>`, when they read only tables and decks that come
        each from files of their own, and what game.yaml says (`info`, its icons and fonts).
        Anything else (`game` used otherwise, a deck made from other tables) keeps every file."""
        files = self._part_files
        if from_game is None or not from_game - GAME_YAML_NAMES <= files.keys():
            return self.loaded
        seen = {files[name] for name in from_game if name in files}
        unseen = set(files.values()) - seen
        kept = reads.Record()
        kept.reads = {path: answer for path, answer in self.loaded.reads.items()
                      if path not in unseen}
        kept.mixed = self.loaded.mixed
        return kept

    def _names(self, record: reads.Record) -> tuple[set[str], frozenset[str] | None]:
        """The names the templates in `record` read from their context, and the names they
        read as `game.<name>` (None when one uses `game` otherwise)."""
        names: set[str] = set()
        from_game: frozenset[str] | None = frozenset()
        for answer in record.reads.values():
            source = self.sources.get(answer)
            if source is None:
                continue  # not a template (or one that could not be read)
            try:
                loaded, attributes = _template_names(source, _syntax(self.env))
            except jinja2.TemplateSyntaxError:
                continue  # nothing was drawn from it (the render reported it)
            names.update(loaded)
            if "game" in loaded:
                from_game = None if attributes is None or from_game is None \
                    else from_game | attributes
        return names, from_game


# What decides how Jinja parses a source: its delimiters and whitespace options, and its
# extensions (pnp's environment has none).
_SYNTAX = ("block_start_string", "block_end_string", "variable_start_string",
           "variable_end_string", "comment_start_string", "comment_end_string",
           "line_statement_prefix", "line_comment_prefix", "trim_blocks", "lstrip_blocks",
           "newline_sequence", "keep_trailing_newline")


def _syntax(env: jinja2.Environment) -> tuple:
    return (tuple(getattr(env, name) for name in _SYNTAX), tuple(sorted(env.extensions)))


@lru_cache(maxsize=8)
def _parser(syntax: tuple) -> jinja2.Environment:
    options, extensions = syntax
    return jinja2.Environment(extensions=list(extensions), **dict(zip(_SYNTAX, options)))


@lru_cache(maxsize=1024)
def _template_names(source: str, syntax: tuple
                    ) -> tuple[frozenset[str], frozenset[str] | None]:
    """Every name a template source loads anywhere (globals and its own variables alike), and
    the attributes it reads of `game` when it uses `game` only as `game.<name>` (else None).
    Keyed on the source and the syntax it is parsed with, not on an environment: each check
    makes its own, and `pnp watch` checks again after every save (parsing Downturn's
    templates again took 0.14 s of a 0.58 s edited check)."""
    tree = _parser(syntax).parse(source)
    attributes, through = set(), set()
    for node in tree.find_all(nodes.Getattr):
        if isinstance(node.node, nodes.Name) and node.node.name == "game":
            attributes.add(node.attr)
            through.add(id(node.node))
    names = list(tree.find_all(nodes.Name))
    otherwise = any(name.name == "game" and id(name) not in through for name in names)
    return (frozenset(name.name for name in names if name.ctx == "load"),
            None if otherwise else frozenset(attributes))


__all__ = ["SheetCache", "value_digest"]
