"""Model: a game folder in (its manifest, data files); a `Game` of validated records out.

Reads `game.yaml`, compiles the declared fields, loads every table and deck file (YAML, CSV or
.xlsx) through the one validator, then checks what a type alone cannot: references between tables,
text budgets and art files. Decks with `each` are made from the data, `quantity` repeats an item,
`sort` orders a deck. Nothing here knows any particular game. Every problem is a finding.
"""

from __future__ import annotations

import dataclasses
import keyword
import math
from pathlib import Path
from typing import Any, Callable

import jinja2
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .. import reads
from ..fonts import BUNDLED
from .own_fonts import check_icon_letters, read_fonts
from .assets import MAX_ASSET_BYTES, check_asset_bytes, resolve_asset
from .content import Document, load_document, location_of, printable
from .csvdata import load_csv
from .icons import read_icons
from .languages import Translator, edition_problem
from .limits import DEFAULT_ITEMS, ITEMS_VARIABLE, items_limit_hint, max_items
from .expressions import names_used, sandbox
from ..findings import NOWHERE, Findings, Location
from .manifest import (NAME, RESERVED, RESERVED_FIELDS, SHEET_NAME, BoardSpec, DeckSpec,
                       FieldReader, FieldSpec, Manifest, PageSpec, RecordType, labelled,
                       TableSpec, name_problem, read_size, record_class_name, record_type)
from .schema import INVALID, Image, Where, suggest, validate, validate_entries, validate_items
from .spreadsheet import SPREADSHEET_SUFFIXES, load_spreadsheet
from ..units import Size

GAME_FILE = "game.yaml"
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
MAX_ITEMS = DEFAULT_ITEMS  # the default; each deck asks max_items() (pnp.load.limits)


@dataclasses.dataclass(frozen=True)
class Component:
    """A deck, board or page the manifest declares, checked: its kind, its size (None for a
    page, which takes the paper's) and its data (a deck's items, a board's or page's table).
    The pipeline makes the printable sheets from these (pnp.compose)."""

    kind: str  # "deck", "board" or "page"
    name: str
    size: Size | None
    data: Any = None


class Withheld(Exception):
    """Raised when a rule reads a table or deck of a game that is only partly valid, and the
    part it reads is one of those with an error (pnp.load.model.Game.withheld): a finding of
    that rule would be about the gap, not the data, so the rule is left out."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


class Game:
    """A game's validated data: `info` (the manifest), each table and deck by name, and its
    sheets as components (no drawing: pnp.compose makes the printable sheets from them).
    Attribute access reads the parts, so rules and templates write `game.events`.

    A game with errors that still has valid tables and decks is `complete=False`: it is not
    drawn, but its rules run on it; reading a part of `withheld` (a table or deck that failed
    validation, lost items to errors, or holds a broken reference) raises `Withheld`."""

    def __init__(self, info: Manifest, folder: Path):
        self.info = info
        self.folder = folder
        self.complete = True
        self.withheld: frozenset[str] = frozenset()
        self.parts: dict[str, Any] = {}
        self.sheets: dict[str, Component] = {}
        self.icons: dict[str, dict] = {}  # what `{name}` draws (pnp.load.icons)
        self.language = ""  # the edition's language when it is not the data's own
        self.fonts = BUNDLED  # with the game's own fonts once they are read (pnp.load.own_fonts)

    def __getattr__(self, name: str) -> Any:
        parts = self.__dict__.get("parts", {})
        if name in self.__dict__.get("withheld", ()):
            raise Withheld(name)
        if name in parts:
            return parts[name]
        raise AttributeError(name)

    def names(self) -> dict[str, Any]:
        """The names expressions see: `game`, `info` and every table and deck."""
        return {"game": self, "info": self.info, **self.parts}


class _Loader:
    def __init__(self, folder: Path, shown: Callable[[Path], str], findings: Findings):
        self.folder = folder
        self.shown = shown
        self.findings = findings
        self.game_shown = shown(folder / GAME_FILE)
        # A list whose items failed validation in part: the nodes of those items, by the
        # table or deck they belong to (their keys still count for references).
        self.dropped: dict[str, list[Node]] = {}
        # A table or deck whose file had an error before its items were read (a ragged CSV
        # row is left out): which keys it holds cannot be known.
        self.damaged: set[str] = set()

    # -- labels --------------------------------------------------------------------------------

    def label_factory(self, source: str, owner: str, specs: dict[str, FieldSpec],
                      where: Location | None):
        def compile_template(text: str) -> jinja2.Template:
            try:
                unknown = sorted(set(names_used(text)) - set(specs))
                if unknown:
                    self.findings.error("manifest-label", where or Location(self.game_shown),
                                        f"label names '{unknown[0]}', which is not a field",
                                        hint=suggest(unknown[0], specs) or
                                        f"fields: {', '.join(specs)}")
                    return sandbox.from_string(owner)
                return sandbox.from_string(text)
            except jinja2.TemplateSyntaxError as exc:
                self.findings.error("manifest-label", where or Location(self.game_shown),
                                    f"label: syntax error: {exc.message}",
                                    hint='write fields in {{ }}, e.g. card "{{ title }}"')
                return sandbox.from_string(owner)

        return labelled(source, compile_template, owner.split("_")[0], specs)

    # -- files ---------------------------------------------------------------------------------

    def document(self, name: str, where: Location, sheet: str = "",
                 sheet_where: Location = NOWHERE) -> Document | None:
        path = self.folder / name
        if Path(name).is_absolute() or ".." in Path(name).parts:
            self.findings.error("manifest-file", where, f"'{name}' is outside the game folder",
                                hint="name a file inside the game's folder")
            return None
        suffix = path.suffix.lower()
        if sheet and suffix not in SPREADSHEET_SUFFIXES:
            self.findings.error("manifest-file", sheet_where, f"'sheet' names a sheet of a "
                                f"spreadsheet, but '{name}' is not an .xlsx file",
                                hint="remove 'sheet', or name the workbook in 'file'")
            return None
        if suffix in (".csv", ".yaml", ".yml", *SPREADSHEET_SUFFIXES) and \
                not reads.exists(path) and not path.is_symlink():
            self.findings.error("file-missing", where, f"'{name}' is not in "
                                f"{self.shown(self.folder)}/", hint="create it, or fix the name")
            return None
        if suffix == ".csv":
            return load_csv(path, self.shown(path), self.findings)
        if suffix in SPREADSHEET_SUFFIXES:
            return load_spreadsheet(path, self.shown(path), self.findings, sheet, sheet_where)
        if suffix in (".yaml", ".yml"):
            return load_document(path, self.shown(path), self.findings)
        hint = "save it from LibreOffice as Excel 2007-365 (.xlsx)" if suffix == ".ods" else \
            "data comes from YAML, CSV or .xlsx files"
        self.findings.error("manifest-file", where, f"'{name}' is not a .yaml, .csv or .xlsx "
                            "file", hint=hint)
        return None

    def records(self, file: str, where: Location, record: RecordType, shape: str,
                path: str, sheet: str = "", sheet_where: Location = NOWHERE) -> Any:
        """A data file's records, validated."""
        before = len(self.findings.errors)
        document = self.document(file, where, sheet, sheet_where)
        if document is None or document.root is None:
            return INVALID
        if len(self.findings.errors) > before:
            self.damaged.add(path)
        header = getattr(document.root, "csv_header", None)
        if header is not None:
            if shape == "record":
                kind = "a spreadsheet" if sheet or file.lower().endswith(
                    SPREADSHEET_SUFFIXES) else "a CSV file"
                self.findings.error("manifest-file", where, f"'{file}' is {kind}, but "
                                    "this table is one record", hint="use a YAML mapping")
                return INVALID
            unknown = [key for key in header if key.value.split(".")[0] not in record.fields]
            for key in unknown:
                name = key.value.split(".")[0]
                self.findings.error("csv-header", location_of(document.shown, key),
                                    f"column '{key.value}' is not a field of {path}",
                                    hint=suggest(name, record.fields) or
                                    f"fields: {', '.join(record.fields)}")
            if unknown:
                return INVALID
        if shape == "record":
            return validate(document, record.cls, path, self.findings)
        # Item by item: an error in one item leaves the others to be checked.
        items, dropped = validate_items(document, record.cls, path, self.findings)
        if dropped:
            self.dropped[path] = dropped
        return items

    # -- after validation ----------------------------------------------------------------------

    def walk(self, value: Any, record: RecordType, visit) -> None:
        """Call visit(record_value, spec) for every declared field of every nested record."""
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            for spec in record.fields.values():
                visit(item, spec)
                inner = getattr(item, spec.name)
                if spec.record is not None and inner is not None:
                    self.walk(inner, spec.record, visit)
                elif spec.of is not None and spec.of.record is not None and inner:
                    self.walk(inner, spec.of.record, visit)

    def check_values(self, value: Any, record: RecordType, keys: dict[str, set]) -> None:
        def visit(item, spec: FieldSpec) -> None:
            current = getattr(item, spec.name)
            if current is None:
                return
            where = item.where.of(spec.name)
            # A record's label is drawn from its label template: only for a finding.
            subject = lambda: getattr(item, "label", "")  # noqa: E731
            if spec.kind == "text" and isinstance(current, str):
                self.budget(current, spec, where, subject)
            if spec.kind == "list" and isinstance(current, tuple):
                count = len(current)
                if spec.min_items is not None and count < spec.min_items or \
                        spec.max_items is not None and count > spec.max_items:
                    self.findings.error(
                        "field-items", where, f"has {count} items, expected "
                        f"{spec.min_items or 0} to {spec.max_items or 'any number of'}",
                        subject=subject(), field=spec.name)
            kind = spec.of.kind if spec.kind == "list" and spec.of else spec.kind
            if kind not in ("ref", "image"):
                return
            values = current if spec.kind == "list" else (current,)
            target = spec.of.to if spec.kind == "list" and spec.of else spec.to
            for each in values:
                if kind == "ref":
                    self.reference(each, target, keys, where, subject, spec.name)
                else:
                    self.image(each, where, subject(), spec.name)

        self.walk(value, record, visit)

    def budget(self, text: str, spec: FieldSpec, where, subject: Callable[[], str]) -> None:
        if spec.max_chars is not None and len(text) > spec.max_chars:
            chars = len(text)
            self.findings.error("text-budget", where, f"text is {chars} characters, over its "
                                f"budget of {spec.max_chars}", subject=subject(),
                                field=spec.name,
                                hint=f"cut about {chars - spec.max_chars} characters")
        if spec.max_words is not None and len(words := text.split()) > spec.max_words:
            self.findings.error("text-budget", where, f"text is {len(words)} words, over its "
                                f"budget of {spec.max_words}", subject=subject(),
                                field=spec.name,
                                hint=f"cut about {len(words) - spec.max_words} words")

    def reference(self, value: str, target: str, keys: dict[str, set | None], where,
                  subject: Callable[[], str], field_name) -> None:
        if keys.get(target) is None:
            # reported once, with the field declaration, or the target's keys are unknown
            # (its file failed validation, reported there)
            return
        if value not in keys[target]:
            self.findings.error("ref-unknown", where, f"'{value}' is not in {target}",
                                subject=subject(), field=field_name,
                                hint=suggest(value, sorted(map(str, keys[target]))) or
                                f"{target} holds: {', '.join(sorted(map(str, keys[target])))[:200]}")

    def image(self, value: Image, where, subject, field_name) -> None:
        path = resolve_asset(self.folder, value, self.findings, where, subject=subject,
                             field=field_name, suffixes=IMAGE_SUFFIXES)
        if path is None:
            return
        problem = check_asset_bytes(reads.read_file(path, MAX_ASSET_BYTES + 1,
                                                    inside=self.folder))
        if problem:
            self.findings.error("image-refused", where, f"'{value}' {problem}",
                                subject=subject, field=field_name)


InTurn = Callable[[list[Callable[[], Any]]], list]  # tasks in, their results out, in order
# Data files are read and validated by `run` (several processes) only when they hold at least
# this much in all: for less, starting processes costs more than it saves.
SHARED_DATA_BYTES = 1_000_000


def load_game(folder: Path, shown: Callable[[Path], str], findings: Findings,
              lang: str = "", partial: bool = False, run: InTurn | None = None
              ) -> Game | None:
    """Read, validate and model one game folder, in the edition of language `lang` (default:
    the language its data is written in); None when it cannot be modelled. With `partial`, a
    game whose manifest is valid but whose data has errors is returned with `complete` False
    and the parts with errors `withheld`, for its rules to run on what is valid. Two or more
    large data files are read and validated by `run` (several processes, one each), when it
    is given; the result is the same."""
    game_file = folder / GAME_FILE
    loader = _Loader(folder, shown, findings)
    # One table's, deck's, board's or page's spec with an error is left out of the manifest
    # (the game is then only checked, never drawn); the others are read as ever.
    info, left_out = validate_entries(load_document(game_file, shown(game_file), findings),
                                      Manifest, "", findings,
                                      (TableSpec, DeckSpec, BoardSpec, PageSpec))
    if info is INVALID or edition_problem(info, lang, findings):
        return None
    # Only the errors of the entries left out let the game be read on (and then only checked).
    known_errors = sum(left_out.values())
    game = Game(info, folder)
    translator = None
    if lang and lang != info.languages[0]:
        game.language = lang
        translator = Translator(info, lang, findings, loader.document, folder)
    game.icons = read_icons(info.icons, folder, findings)
    reader = FieldReader(loader.game_shown, findings, loader.label_factory)
    seen: dict[tuple[str, str], str] = {}
    for kind, specs in (("data", info.data), ("decks", info.decks), ("boards", info.boards),
                        ("pages", info.pages)):
        for name, spec in specs.items():
            where = info.where.of(kind)
            pattern = NAME if kind in ("data", "decks") else SHEET_NAME
            what = {"data": "data table", "decks": "deck", "boards": "board",
                    "pages": "page"}[kind]
            if not pattern.fullmatch(name) or name in RESERVED or keyword.iskeyword(name):
                findings.error("manifest-name", where, f"'{name}' cannot name a {what}",
                               field=kind, hint="use lower-case letters, digits and _, and "
                               f"none of: {', '.join(sorted(RESERVED))}")
            # Tables and decks share the names expressions see; decks, boards and pages
            # share the sheet names `--sheets` takes.
            spaces = {"data": ("parts",), "decks": ("parts", "sheets"), "boards": ("sheets",),
                      "pages": ("sheets",)}[kind]
            for space in spaces:
                other = seen.get((space, name))
                if other:
                    findings.error("manifest-name", where, f"'{name}' names both a {other} "
                                   f"and a {what}", field=kind, hint="give each its own name")
                seen[(space, name)] = what
    if len(findings.errors) > known_errors:
        return None
    types: dict[str, RecordType] = {}
    # A table or deck whose declaration has an error is not read; the others are.
    undeclared: set[str] = {entry.split(".", 1)[1] for entry in left_out
                            if entry.split(".", 1)[0] in ("data", "decks")}
    for name, table in info.data.items():
        before = len(findings.errors)
        fields = _shared_fields(table.fields, info, findings, loader.game_shown)
        record = None if fields is INVALID else reader.record(
            fields, f"data.{name}.fields", name, table.label,
            table.where.of("label") if table.label else table.where.at)
        if record is not None:
            types[name] = record
        if record is None or len(findings.errors) > before:
            undeclared.add(name)
    for name, deck in info.decks.items():
        before = len(findings.errors)
        if bool(deck.file) == (deck.each is not None):
            findings.error("manifest-items", deck.where.at,
                           f"deck '{name}' needs exactly one of 'file' or 'each'",
                           field=f"decks.{name}",
                           hint="file: a YAML or CSV list of items; each: items made from data")
        elif deck.file:
            fields = _shared_fields(deck.fields, info, findings, loader.game_shown)
            record = None if fields is INVALID else reader.record(
                fields, f"decks.{name}.fields", name, deck.label,
                deck.where.of("label") if deck.label else deck.where.at)
            if record is not None:
                types[name] = record
            else:
                undeclared.add(name)
        if len(findings.errors) > before:
            undeclared.add(name)
    # An error in one item or one file never hides what the others hold: every valid item's
    # budgets, art, counts and references are checked, and a part with an error is withheld
    # from the rules (a finding about it would be about the gap, not the data).
    withheld: set[str] = set(undeclared)
    for name in undeclared - set(types):
        game.parts[name] = INVALID
    files = [(name, table, table.shape) for name, table in info.data.items() if name in types] \
        + [(name, deck, "list") for name, deck in info.decks.items()
           if deck.file and name in types]
    for (name, owner, _), (value, errors) in zip(files, _read_records(loader, files, types,
                                                                      run)):
        game.parts[name] = value
        if translator:
            before = len(findings.errors)
            game.parts[name] = translator.translate(value, owner.file, owner.where.of("file"),
                                                    types[name], owner.key, shown)
            errors += len(findings.errors) - before
        if errors:
            withheld.add(name)
    keys = _keys(info, game, types, findings, loader.dropped, loader.damaged)
    for name, record in types.items():
        if game.parts[name] is INVALID:
            continue
        before = len(findings)
        loader.check_values(game.parts[name], record, keys)
        if any(f.rule == "ref-unknown" for f in findings.items[before:]):
            withheld.add(name)
    for name, deck in info.decks.items():
        before = len(findings.errors)
        if name in undeclared and name not in types:
            continue
        if deck.file:
            if game.parts[name] is not INVALID:
                game.parts[name] = _arrange(game.parts[name], deck, types[name], findings,
                                            loader.game_shown)
        elif withheld and _reads_any(deck, withheld | {"game"}):
            withheld.add(name)  # made from data with errors: left unmade
            game.parts[name] = INVALID
        else:
            game.parts[name] = _generate(deck, name, game, findings, loader)
        if len(findings.errors) > before:  # its copies or items are not what was meant
            withheld.add(name)
    # The sheets' sizes and the fonts are checked whatever the data holds, so their
    # findings show beside the data's.
    _read_components(game, findings)
    game.fonts = read_fonts(info, folder, findings)
    check_icon_letters(info, game.fonts, findings)
    # A text over its budget or a list of the wrong length is the item's own problem: the
    # game is still modelled, drawn and checked by its rules, so every other finding shows.
    if not _blocking(findings):
        return game
    if not partial:
        return None
    game.complete = False
    game.withheld = frozenset(withheld)
    game.sheets = _Withholding(game.sheets, {
        name for name, sheet in game.sheets.items()
        if name in withheld or _data_name(info, name) in withheld})
    return game


class _Withholding(dict):
    """A partly valid game's sheets: one made from a table or deck with errors is there,
    but reading it raises Withheld (a rule's finding about it would be about the gap)."""

    def __init__(self, sheets: dict, withheld: set[str]):
        super().__init__(sheets)
        self.withheld = withheld

    def __getitem__(self, name):
        if name in self.withheld:
            raise Withheld(name)
        return super().__getitem__(name)

    def get(self, name, default=None):
        return self[name] if name in self else default

    def values(self):
        return [self[name] for name in self]

    def items(self):
        return [(name, self[name]) for name in self]


def _data_name(info: Manifest, sheet: str) -> str:
    """The table or deck a board or page is drawn from ('' for none)."""
    spec = info.boards.get(sheet) or info.pages.get(sheet)
    return getattr(spec, "data", "") or ""


def _reads_any(deck: DeckSpec, names: set[str]) -> bool:
    """Whether a deck's `each` generators name any of `names` (or cannot be read to tell)."""
    node = deck.each
    if not isinstance(node, SequenceNode):
        return False  # reported when the deck is made
    for generator in node.value:
        for _, value in generator.value if isinstance(generator, MappingNode) else ():
            if isinstance(value, ScalarNode):
                try:
                    if set(names_used("{{ (" + value.value + ") }}")) & names:
                        return True
                except jinja2.TemplateSyntaxError:
                    return True
    return False


def _read_records(loader: _Loader, files: list, types: dict[str, RecordType],
                  run: InTurn | None) -> list[tuple[Any, int]]:
    """The records of each (name, table or deck, shape) in `files` and the number of errors
    reading them gave, read and validated here one after another, or by `run` when there
    are two or more and they are large. Each is read by a loader of its own,
    whose findings, dropped items and damaged files are then this one's, in the order of
    `files`."""
    def taken(into: _Loader, value: Any) -> tuple:
        return (value, len(into.findings.errors)), into.findings, into.dropped, into.damaged

    def read(name: str, owner, shape: str) -> tuple:
        into = _Loader(loader.folder, loader.shown, Findings())
        return taken(into, into.records(owner.file, owner.where.of("file"), types[name],
                                        shape, name, owner.sheet, owner.where.of("sheet")))

    if run is None or len(files) < 2 or sum(_size(loader.folder / owner.file)
                                            for _, owner, _ in files) < SHARED_DATA_BYTES:
        read_now = [read(*file) for file in files]
    else:
        read_now = run([lambda file=file: read(*file) for file in files])
    results = []
    for result, found_here, dropped, damaged in read_now:
        loader.findings.extend(found_here)
        loader.dropped.update(dropped)
        loader.damaged.update(damaged)
        results.append(result)
    return results


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except (OSError, ValueError):
        return 0  # read, and reported, as any other


NOT_BLOCKING = {"text-budget", "field-items"}


def _blocking(findings: Findings) -> bool:
    """Whether an error keeps the game from being modelled (not only a value's own)."""
    return any(f.rule not in NOT_BLOCKING for f in findings.errors)


def _shared_fields(node: Node | None, info: Manifest, findings: Findings, shown: str
                   ) -> Any:
    """A `fields:` node; `fields: other` (a name) is the fields of the table or deck `other`,
    so a deck split in two shares one declaration instead of a copy (YAML aliases are
    refused). The name must lead to a declaration written out, not to another name."""
    if not isinstance(node, ScalarNode):
        return node
    owners = {**info.data, **info.decks}
    other = owners.get(node.value)
    if other is None or not isinstance(other.fields, MappingNode):
        findings.error("manifest-field", location_of(shown, node), f"fields: '{node.value}' "
                       "is not a table or deck whose fields are written out",
                       hint=suggest(str(node.value), [n for n, o in owners.items()
                                                      if isinstance(o.fields, MappingNode)])
                       or "write the fields, or name a table or deck that does")
        return INVALID
    return other.fields


def _keys(info: Manifest, game: Game, types: dict[str, RecordType], findings: Findings,
          dropped: dict[str, list[Node]], damaged: set[str]) -> dict[str, set | None]:
    """The keys each table and deck can be referred to by (None when they cannot be known:
    its file failed validation, or lost a row before its items were read); declared refs are
    checked here. An item that failed validation still has the key its text gives it, so a
    reference to it is no error."""
    keys: dict[str, set | None] = {}
    specs = {**info.data, **info.decks}
    for name, value in game.parts.items():
        if name not in types or name not in specs:
            keys[name] = None  # its declaration has an error: its keys are unknown
            continue
        key = specs[name].key
        if types[name].fields.get(key) is None:
            continue
        if value is INVALID or name in damaged:
            keys[name] = None
            continue
        records = value if isinstance(value, tuple) else (value,)
        known: set | None = {getattr(r, key) for r in records}
        for node in dropped.get(name, ()):
            raw = _raw_key(node, key)
            if raw is None:  # an item whose key cannot be read: any name may be its
                known = None
                break
            known.add(raw)
        keys[name] = known

    def check(record: RecordType, path: str) -> None:
        for spec in record.fields.values():
            target = spec.of if spec.kind == "list" and spec.of else spec
            if target.kind == "ref" and target.to not in keys:
                known = [n for n in specs if n in keys]
                findings.error("manifest-ref", spec.where, f"'{target.to}' is not a table or "
                               f"deck with a '{specs[target.to].key if target.to in specs else 'name'}'"
                               " field", field=f"{path}.{spec.name}",
                               hint=suggest(target.to, known) or f"tables and decks: "
                               f"{', '.join(known) or 'none'}")
            if target.record is not None:
                check(target.record, f"{path}.{spec.name}")

    for name, record in types.items():
        check(record, name)
    return keys


def _raw_key(node: Node, key: str) -> str | None:
    """The text of an item's `key` field in its YAML or CSV node, when it has one."""
    if isinstance(node, MappingNode):
        for name, value in node.value:
            if isinstance(name, ScalarNode) and name.value == key:
                return value.value if isinstance(value, ScalarNode) and value.value else None
    return None


def _arrange(items: tuple, deck: DeckSpec, record: RecordType, findings: Findings,
             shown: str) -> tuple:
    """Apply a deck's `quantity` (copies of each item) and `sort` (print order)."""
    if len(items) > max_items():
        findings.error("manifest-items", deck.where.of("file"), f"the deck's file holds "
                       f"{len(items)} items, more than the {max_items()} a deck may hold "
                       f"({ITEMS_VARIABLE})", field="file", hint=items_limit_hint(len(items)))
        return items
    if deck.quantity:
        spec = record.fields.get(deck.quantity)
        if spec is None or spec.kind != "whole":
            findings.error("manifest-quantity", deck.where.of("quantity"),
                           f"quantity names '{deck.quantity}', which is not a whole-number "
                           "field of the deck", field="quantity",
                           hint=suggest(deck.quantity, record.fields) or
                           "declare it, e.g. copies: {type: whole, min: 0, default: 1}")
            return items
        bad = [i for i in items if getattr(i, deck.quantity) < 0]
        for item in bad:
            findings.error("schema-range", item.where.of(deck.quantity),
                           f"{getattr(item, deck.quantity)} copies must be >= 0",
                           subject=item.label, field=deck.quantity)
        if bad:
            return items
        total = sum(getattr(i, deck.quantity) for i in items)
        if total > max_items():
            findings.error("manifest-quantity", deck.where.of("quantity"),
                           f"the {deck.quantity} column adds up to {total} items, more than "
                           f"the {max_items()} a deck may hold ({ITEMS_VARIABLE})",
                           field="quantity", hint=items_limit_hint(total))
            return items
        items = tuple(i for i in items for _ in range(getattr(i, deck.quantity)))
    return _sorted(items, deck, list(record.fields), findings)


def _sorted(items: tuple, deck: DeckSpec, fields: list[str], findings: Findings) -> tuple:
    if not deck.sort:
        return items
    name = deck.sort.removeprefix("-")
    if name not in fields:
        findings.error("manifest-sort", deck.where.of("sort"),
                       f"sort names '{name}', which is not a field of the deck",
                       hint=suggest(name, fields) or f"fields: {', '.join(fields)}")
        return items
    present = [i for i in items if getattr(i, name, None) is not None]
    missing = [i for i in items if getattr(i, name, None) is None]
    try:
        ordered = sorted(present, key=lambda i: getattr(i, name),
                         reverse=deck.sort.startswith("-"))
    except TypeError:
        findings.error("manifest-sort", deck.where.of("sort"),
                       f"the values of '{name}' cannot be put in order", hint="sort by a "
                       "field of text or numbers")
        return items
    return tuple(ordered + missing)


def _generate(deck: DeckSpec, name: str, game: Game, findings: Findings,
              loader: _Loader) -> tuple:
    """A deck's items made by its `each` generators: nested loops over data expressions."""
    node = deck.each
    where = location_of(loader.game_shown, node)
    if not isinstance(node, SequenceNode) or not node.value:
        findings.error("manifest-each", where, "each: expected a list of generators",
                       field=f"decks.{name}.each",
                       hint='e.g. each: [{colour: "[\'red\', \'blue\']", number: "range(1, 6)"}]')
        return ()
    items: list = []
    for generator in node.value:
        if not isinstance(generator, MappingNode) or not generator.value:
            findings.error("manifest-each", location_of(loader.game_shown, generator),
                           "a generator is a mapping of names to expressions",
                           field=f"decks.{name}.each")
            return ()
        bindings = []
        for key, value in generator.value:
            label = key.value if isinstance(key, ScalarNode) else ""
            reason = name_problem(label, RESERVED_FIELDS | RESERVED)
            if not isinstance(key, ScalarNode) or reason or not isinstance(value, ScalarNode):
                findings.error("manifest-each", location_of(loader.game_shown, key),
                               f"'{printable(str(label))}': a generator binds a plain name "
                               f"to an expression" + (f"; the name {reason}" if reason else ""),
                               field=f"decks.{name}.each")
                return ()
            bindings.append((label, value))
        try:
            items.extend(_expand(bindings, game.names(), loader.game_shown, where))
        except _GenerateError as exc:
            findings.error("manifest-each", exc.where, exc.message, field=f"decks.{name}.each",
                           hint=exc.hint)
            return ()
        if len(items) > max_items():
            findings.error("manifest-each", where, f"deck '{name}' makes more than the "
                           f"{max_items()} items a deck may hold ({ITEMS_VARIABLE})",
                           hint="check the ranges in its generators; "
                           + items_limit_hint(len(items)))
            return ()
    if not items:
        findings.warning("manifest-each", where, f"deck '{name}' makes no items",
                         hint="check the lists its generators loop over")
        return ()
    fields = list(items[0][0])
    record_names = sorted({n for item, _ in items for n in item})
    cls = record_type(
        record_class_name(name),
        [*((n, Any, dataclasses.field(default=None)) for n in record_names),
         ("where", Where, dataclasses.field(default=Where(), compare=False, repr=False))],
        namespace={"label": loader.label_factory(
            deck.label or " ".join("{{ " + n + " }}" for n in fields), name,
            dict.fromkeys(record_names), deck.where.of("label") if deck.label else where)})
    made = tuple(cls(**values, where=at) for values, at in items)
    return _sorted(made, deck, record_names, findings)


class _GenerateError(Exception):
    def __init__(self, where: Location, message: str, hint: str = ""):
        super().__init__(message)
        self.where, self.message, self.hint = where, message, hint


def _expand(bindings: list[tuple[str, Node]], names: dict[str, Any], shown: str,
            fallback: Location) -> list[tuple[dict[str, Any], Where]]:
    """Every combination of the bindings, each evaluated with the names bound before it."""
    results: list[tuple[dict[str, Any], Where]] = []

    def bind(index: int, scope: dict[str, Any], bound: dict[str, Any]) -> None:
        if len(results) > max_items():
            return
        if index == len(bindings):
            origin = next((v.where for v in bound.values()
                           if isinstance(getattr(v, "where", None), Where)), Where(fallback))
            results.append((dict(bound), origin))
            return
        label, node = bindings[index]
        where = location_of(shown, node)
        try:
            value = sandbox.compile_expression(node.value, undefined_to_none=False)(**scope)
        except jinja2.TemplateSyntaxError as exc:
            raise _GenerateError(where, f"{label}: syntax error in '{node.value}': "
                                 f"{exc.message}", "quote a word inside the expression: "
                                 "\"'red'\"") from None
        except Exception as exc:  # content-written expressions fail as findings
            raise _GenerateError(where, f"{label}: {type(exc).__name__}: {exc}") from None
        if isinstance(value, jinja2.Undefined):
            raise _GenerateError(where, f"{label}: {value._undefined_message}",
                                 f"names: {', '.join(sorted(n for n in scope if n != 'game'))}")
        if isinstance(value, (list, tuple, range)):
            values = value
        else:
            values = (value,)
        for each in values:
            if isinstance(each, float) and not math.isfinite(each):
                raise _GenerateError(where, f"{label}: {each} is not a finite number")
            bind(index + 1, {**scope, label: each}, {**bound, label: each})

    bind(0, dict(names), {})
    return results


def _read_components(game: Game, findings: Findings) -> None:
    info = game.info
    for name, deck in info.decks.items():
        size = read_size(deck.size, deck.where.of("size"), findings, f"decks.{name}.size")
        if size is not None:
            game.sheets[name] = Component("deck", name, size, game.parts[name])
    for name, board in info.boards.items():
        size = read_size(board.size, board.where.of("size"), findings, f"boards.{name}.size")
        item = _data_for(board, name, game, findings)
        if size is not None and item is not INVALID:
            game.sheets[name] = Component("board", name, size, item)
    for name, page in info.pages.items():
        item = _data_for(page, name, game, findings)
        if item is not INVALID:
            game.sheets[name] = Component("page", name, None, item)


def _data_for(spec: BoardSpec | PageSpec, name: str, game: Game, findings: Findings) -> Any:
    if not spec.data:
        return None
    if spec.data not in game.parts:
        findings.error("manifest-ref", spec.where.of("data"), f"'{spec.data}' is not a table "
                       "or deck", field=f"{name}.data",
                       hint=suggest(spec.data, game.parts) or
                       f"tables and decks: {', '.join(game.parts) or 'none'}")
        return INVALID
    return game.parts[spec.data]


__all__ = ["GAME_FILE", "Component", "Game", "load_game", "NOWHERE"]
