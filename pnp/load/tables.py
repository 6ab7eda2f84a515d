"""Tables: a game's manifest and folder in; its declared record types and the validated
records of its tables and deck files out.

`Loader` reads a data file (YAML, CSV or .xlsx) and validates its records against the type
its `fields:` declare; `declare` checks the names of the tables, decks, boards and pages and
compiles the fields of each table and deck file into a record type. Every problem is a
finding.
"""

from __future__ import annotations

import keyword
from pathlib import Path
from typing import Any, Callable

import jinja2
from yaml.nodes import MappingNode, Node, ScalarNode

from .. import reads
from ..findings import NOWHERE, Findings, Location
from .content import Document, load_document, location_of
from .csvdata import load_csv
from .expressions import names_used, sandbox
from .manifest import (NAME, RESERVED, SHEET_NAME, FieldReader, FieldSpec, Manifest,
                       RecordType, labelled)
from .schema import INVALID, suggest, validate, validate_items
from .spreadsheet import SPREADSHEET_SUFFIXES, load_spreadsheet

GAME_FILE = "game.yaml"


class ErrorsAdded:
    """Whether a step added errors to `findings`: made before the step, true after it when
    the step added any; `count()` says how many."""

    def __init__(self, findings: Findings):
        self.findings = findings
        self.before = len(findings.errors)

    def count(self) -> int:
        return len(self.findings.errors) - self.before

    def __bool__(self) -> bool:
        return self.count() > 0


class Loader:
    """Reads a game's data files into validated records, and compiles label templates: the
    findings go to `findings`; a list's items that failed validation are kept in `dropped`
    and a file with an error before its items were read is named in `damaged`."""

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
        added = ErrorsAdded(self.findings)
        document = self.document(file, where, sheet, sheet_where)
        if document is None or document.root is None:
            return INVALID
        if added:
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


def shared_fields(node: Node | None, info: Manifest, findings: Findings, shown: str
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


def check_names(info: Manifest, findings: Findings) -> None:
    """Each table, deck, board and page has a name it can have, and no two share one."""
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


def declare(info: Manifest, loader: Loader, left_out: dict[str, int], findings: Findings
            ) -> tuple[dict[str, RecordType], set[str]]:
    """The record type of each table and deck file, and the names of the tables and decks
    whose declaration has an error (those are not read)."""
    reader = FieldReader(loader.game_shown, findings, loader.label_factory)
    types: dict[str, RecordType] = {}
    # A table or deck whose declaration has an error is not read; the others are.
    undeclared: set[str] = {entry.split(".", 1)[1] for entry in left_out
                            if entry.split(".", 1)[0] in ("data", "decks")}

    def compiled(section: str, name: str, spec) -> RecordType | None:
        """A table's or deck file's declared fields compiled, or None after the finding."""
        fields = shared_fields(spec.fields, info, findings, loader.game_shown)
        return None if fields is INVALID else reader.record(
            fields, f"{section}.{name}.fields", name, spec.label,
            spec.where.of("label") if spec.label else spec.where.at)

    for name, table in info.data.items():
        added = ErrorsAdded(findings)
        record = compiled("data", name, table)
        if record is not None:
            types[name] = record
        if record is None or added:
            undeclared.add(name)
    for name, deck in info.decks.items():
        added = ErrorsAdded(findings)
        if bool(deck.file) == (deck.each is not None):
            findings.error("manifest-items", deck.where.at,
                           f"deck '{name}' needs exactly one of 'file' or 'each'",
                           field=f"decks.{name}",
                           hint="file: a YAML or CSV list of items; each: items made from data")
        elif deck.file:
            record = compiled("decks", name, deck)
            if record is not None:
                types[name] = record
            else:
                undeclared.add(name)
        if added:
            undeclared.add(name)
    return types, undeclared
