"""Manifest: a game's `game.yaml` nodes in; a validated `Manifest` and compiled field schemas out.

The manifest declares everything a game is: its identity and licence, its data tables, its decks
of same-size pieces, boards and whole pages, the icons of its card text and an optional rules
plug-in. Each table's or deck's `fields` are declared in YAML (`name: text`, `{type: whole, min:
0}`, ...) and compiled here into frozen dataclasses, so the one validator in `schema` checks any
game's data with the same strictness, types and messages as pnp's own files. The language is
documented in docs/manifest.md; docs/content-format.md is generated from the tables below.
"""

from __future__ import annotations

import dataclasses
import itertools
import keyword
import pickle
import re
import secrets
import weakref
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .content import location_of, printable
from ..findings import Findings, Location
from .schema import (INVALID, Colour, IconName, Image, RawNode, Validator, Where, bounded,
                     located, suggest)
from ..units import CARD_SIZES, DEFAULT_BLEED_MM, Size, SizeError, parse_size

NAME = re.compile(r"[a-z][a-z0-9_]*")  # table, deck and field names: usable in expressions
SHEET_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")  # what `--sheets` takes and file names carry
# Names a table or deck cannot take: the other names of expressions and of a `Game`.
RESERVED = {"game", "info", "icons", "sheets", "parts", "folder", "names"}
# Names a field cannot take: what every record carries besides its fields (its location, how
# findings name it) and the record's own name in the code made for it.
RESERVED_FIELDS = {"where", "label", "label_of", "self"}


def name_problem(name: object, reserved: set[str] = RESERVED_FIELDS) -> str | None:
    """Why `name` cannot name a field (or an `each` binding), or None: it must be a plain
    lower-case identifier, not a Python keyword and not a name pnp reserves."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        return "must be lower-case letters, digits and _, starting with a letter"
    if keyword.iskeyword(name):
        return "is a Python keyword"
    if name in reserved:
        return f"is reserved (pnp reserves: {', '.join(sorted(reserved))})"
    return None


@dataclass(frozen=True)
class Players:
    min: int = bounded(min=1)
    max: int = bounded(min=1)


@dataclass(frozen=True)
class Licence:
    name: str
    url: str
    attribution: str  # printed on every sheet and card made from the game
    where: Where = located()


@dataclass(frozen=True)
class Icon:
    """How `{name}` in card text is drawn: a filled square with a letter (for greyscale), or
    the designer's own SVG or PNG symbol, sitting on the text's baseline at its size."""

    fill: Colour | None = None  # a letter icon's square; required unless `image` is given
    letter: str = ""
    ink: Colour = Colour("#ffffff")
    image: str = ""  # an SVG or PNG file in the game folder, drawn instead of the square
    where: Where = located()


@dataclass(frozen=True)
class FontSpec:
    """A font role of the game's own: TrueType files in the game folder, one per face, and
    their licence (a font's licence travels with every copy of its files)."""

    regular: str  # the face the role names
    licence: str  # the licence's text, a file in the game folder, or its name ('OFL-1.1')
    bold: str = ""  # what `**bold**` draws with (and the role `bold`, for `body`)
    italic: str = ""  # what `*italic*` draws with
    bold_italic: str = ""  # what `***both***` draws with
    fallback: tuple[str, ...] = ()  # fonts for characters these faces lack (symbols, CJK)
    where: Where = located()


@dataclass(frozen=True)
class TableSpec:
    """Data that is not printed: it feeds templates, rules and the items of other decks."""

    file: str  # .yaml, .csv or .xlsx, in the game folder
    fields: RawNode  # each record's fields and types
    sheet: str = ""  # the sheet of an .xlsx file to read (default: its first sheet)
    shape: Literal["list", "record"] = "list"  # a list of records, or one record
    key: str = "name"  # the field a `ref` to this table names
    label: str = ""  # how findings name one record, a Jinja template over its fields
    where: Where = located()


@dataclass(frozen=True)
class TuckBoxSpec:
    """A tuck box for a deck: made from the deck's card size and count (pnp/layout/dieline.py)."""

    title: str = ""  # printed on the lid and the sides; the deck's title when left out
    card_thickness_mm: float = bounded(0.3, min=0.05, max=2)  # one card, sleeved or not
    clearance_mm: float = bounded(1, min=0, max=10)  # room added to the width, height and depth


@dataclass(frozen=True)
class DeckSpec:
    """Same-size pieces (cards, tiles, tokens), imposed on sheets with a front and a back."""

    title: str  # for people: the PDF's title and each sheet's footer
    size: str  # a preset ('poker') or '63 x 88 mm', '2.5 x 3.5 in', '20 mm'
    front: str  # template file
    back: str  # template file, or 'none'
    file: str = ""  # the items: a YAML list, a CSV file or an .xlsx workbook ...
    sheet: str = ""  # the sheet of an .xlsx `file` to read (default: its first sheet)
    each: RawNode | None = None  # ... or generators over the data
    fields: RawNode | None = None  # the items' fields and types (required with `file`)
    quantity: str = ""  # the field saying how many copies of an item to print
    sort: str = ""  # print order: a field name, '-field' for descending
    key: str = "name"  # the field a `ref` to this deck names
    label: str = ""  # how findings and the proof name an item: 'card "{{ title }}"'
    shape: Literal["rect", "round"] = "rect"  # round pieces: templates and marks may use it
    bleed_mm: float = bounded(DEFAULT_BLEED_MM, min=0, max=10)  # drawing past the trim, for layouts with bleed
    bleed: Literal["drawn", "extend", "mirror"] = "drawn"  # the template paints the bleed, or pnp extends or mirrors the face's edge into it
    safe_mm: float = bounded(3, min=0, max=20)  # how far text keeps inside the trim
    stock: Literal["card", "paper"] = "card"  # what `pnp plan` prints it on, with the like
    corner_radius_mm: float = bounded(0, min=0, max=20)  # rounded corners: cut files, the proof
    tuck_box: TuckBoxSpec | None = None  # also make a box to hold the deck: sheet '<deck>_box'
    where: Where = located()


@dataclass(frozen=True)
class BoardSpec:
    """One large piece drawn from one template: printed whole and tiled over the paper."""

    title: str  # for people
    size: str  # e.g. '22 x 17 in' or '600 x 450 mm'
    template: str  # drawn at the board's size
    data: str = ""  # the table the template reads as `card`
    where: Where = located()


@dataclass(frozen=True)
class PageSpec:
    """A whole-page sheet (a record sheet, a rules summary) drawn at the chosen paper size."""

    title: str  # for people
    template: str  # drawn at the paper's size, given to it as `paper`
    copies: int = bounded(1, min=1, max=100)  # pages printed
    data: str = ""  # the table the template reads as `card`
    where: Where = located()


@dataclass(frozen=True)
class Manifest:
    """`game.yaml`."""

    title: str  # the game's name, printed on every sheet
    designer: str
    year: int
    players: Players
    licence: Licence  # printed on every sheet: keep the designer's attribution
    version: str = ""  # the rules' version the kit follows
    plugin: str = ""  # rules from an installed package (entry-point group pnp.rules)
    stamps: bool = True  # a short version stamp on every printed face; false for a final print
    icons: dict[IconName, Icon] = field(default_factory=dict)  # `{name}` in text draws one
    # Editions: the first is the language the data files are written in; each other one is
    # read from translations files beside them (pnp.load.languages), built with `--lang`.
    languages: tuple[str, ...] = ()
    fallback: str = ""  # the first language, printed where a translation is missing
    fonts: dict[str, FontSpec] = field(default_factory=dict)  # the game's own fonts, by role
    data: dict[str, TableSpec] = field(default_factory=dict)  # tables, not printed
    decks: dict[str, DeckSpec] = field(default_factory=dict)  # cards, tiles, tokens
    boards: dict[str, BoardSpec] = field(default_factory=dict)  # printed whole and tiled
    pages: dict[str, PageSpec] = field(default_factory=dict)  # whole-page sheets
    where: Where = located()


# -- field declarations ----------------------------------------------------------------------

# type name -> (what it holds, the options it takes): docs/content-format.md is made from this.
FIELD_TYPES: dict[str, tuple[str, tuple[str, ...]]] = {
    "text": ("any text", ("max_chars", "max_words")),
    "whole": ("a whole number, written plainly", ("min", "max")),
    "number": ("a decimal number", ("min", "max")),
    "bool": ("true or false", ()),
    "choice": ("one of the listed words", ("of",)),
    "colour": ("'#rgb' or '#rrggbb', quoted", ()),
    "list": ("a list of values of one type", ("of", "min_items", "max_items")),
    "mapping": ("a nested mapping with its own fields", ("fields", "label")),
    "ref": ("the key of a record of another table or deck", ("to",)),
    "image": ("a PNG, JPEG or SVG file in the game folder", ()),
}
COMMON_OPTIONS = ("type", "default", "required", "summary")
_SCALARS = {"text": str, "whole": int, "number": float, "bool": bool, "colour": Colour,
            "image": Image, "ref": str}


# Record types are made while pnp runs, so pickle cannot name them. A record is pickled as
# its type's token and its fields: a process forked after the type was made (a worker loading
# a data file) and the one that made it know the token; any other process does not, and
# unpickling fails there rather than finding another type.
_PROCESS = secrets.token_hex(8)
_MADE: "weakref.WeakValueDictionary[str, type]" = weakref.WeakValueDictionary()
_NUMBERS = itertools.count()


def _remade(token: str, values: dict[str, Any]) -> Any:
    kind = _MADE.get(token)
    if kind is None:
        raise pickle.UnpicklingError(f"record type {token} was made by another process")
    return kind(**values)


def _reduce(record: Any) -> tuple:
    return _remade, (type(record).__token__, {column.name: getattr(record, column.name)
                                              for column in dataclasses.fields(record)})


def record_type(name: str, columns: list[tuple[str, Any, Any]], namespace: dict) -> type:
    """A frozen, keyword-only dataclass named `name` with `columns` (name, type, field) and
    `namespace` in its body."""
    token = f"{_PROCESS}-{next(_NUMBERS)}"
    body = {**namespace, "__annotations__": {column: kind for column, kind, _ in columns},
            "__qualname__": name, "__module__": __name__, "__token__": token,
            "__reduce__": _reduce,
            # Without a docstring, dataclass() makes one from inspect.signature: a cost per
            # table on every check, for a text nobody reads.
            "__doc__": f"{name}: one record of the game's data."}
    body.update({column: declared for column, _, declared in columns})
    made = _MADE[token] = dataclass(type(name, (), body), frozen=True, kw_only=True)
    return made


@dataclass(frozen=True)
class FieldSpec:
    """One declared field, with what it takes, and its Python type for the validator."""

    name: str
    kind: str
    hint: Any
    required: bool = True
    default: Any = None  # meaningful only when has_default
    has_default: bool = False
    minimum: float | None = None
    maximum: float | None = None
    max_chars: int | None = None
    max_words: int | None = None
    min_items: int | None = None
    max_items: int | None = None
    to: str = ""  # ref: the table or deck named
    of: "FieldSpec | None" = None  # list: its elements
    record: "RecordType | None" = None  # mapping: its compiled type
    where: Location = Location("")


@dataclass(frozen=True)
class RecordType:
    """A compiled record: its dataclass and field specs (for refs and text budgets)."""

    cls: type
    fields: dict[str, FieldSpec]


class FieldReader:
    """Reads `fields:` declarations into FieldSpecs and compiles them into dataclasses."""

    def __init__(self, shown: str, findings: Findings, label_factory):
        self.shown = shown
        self.findings = findings
        self.validator = Validator(shown, findings)
        self.label_factory = label_factory  # (template, where) -> property, or None

    def error(self, node: Node, path: str, message: str, hint: str = "") -> None:
        self.findings.error("manifest-field", location_of(self.shown, node), message,
                            field=path, hint=hint)

    def record(self, node: Node | None, path: str, class_name: str, label: str = "",
               label_where: Location | None = None) -> RecordType | None:
        """Compile a `fields:` mapping node into a record type; None after reporting why."""
        if node is None:
            self.findings.error("manifest-field", label_where or Location(self.shown), 
                                "missing required key 'fields'", field=path,
                                hint="declare each field, e.g. 'fields: {title: text}'")
            return None
        if not isinstance(node, MappingNode) or not node.value:
            self.error(node, path, "expected a mapping of field names to types",
                       hint="e.g. 'fields: {title: text, value: {type: whole, min: 0}}'")
            return None
        specs: dict[str, FieldSpec] = {}
        ok = True
        for key, value in node.value:
            name = key.value if isinstance(key, ScalarNode) else ""
            where = f"{path}.{name}" if name else path
            reason = name_problem(name)
            if reason:
                self.error(key, path, f"field name '{printable(str(name))}' {reason}",
                           hint="rename it, e.g. title or home_region")
                ok = False
                continue
            if name in specs:
                self.error(key, path, f"field '{name}' is declared twice")
                ok = False
                continue
            spec = self.field(name, value, where, class_name)
            if spec is None:
                ok = False
            else:
                specs[name] = spec
        if not ok:
            return None
        return RecordType(self.compile(class_name, specs, label, label_where), specs)

    def field(self, name: str, node: Node, path: str, owner: str) -> FieldSpec | None:
        options: dict[str, Node] = {}
        if isinstance(node, ScalarNode):
            type_node = node
        elif isinstance(node, MappingNode):
            for key, value in node.value:
                options[str(key.value)] = value
            if "type" not in options:
                self.error(node, path, "missing required key 'type'",
                           hint=f"types: {', '.join(FIELD_TYPES)}")
                return None
            type_node = options["type"]
        else:
            self.error(node, path, "expected a type name or a mapping with 'type'",
                       hint=f"types: {', '.join(FIELD_TYPES)}")
            return None
        kind = type_node.value if isinstance(type_node, ScalarNode) else ""
        if kind not in FIELD_TYPES:
            self.error(type_node, path, f"unknown field type '{kind}'",
                       hint=suggest(str(kind), FIELD_TYPES) or
                       f"types: {', '.join(FIELD_TYPES)}")
            return None
        allowed = set(FIELD_TYPES[kind][1]) | set(COMMON_OPTIONS)
        for key, value in (node.value if isinstance(node, MappingNode) else ()):
            if key.value not in allowed:
                self.error(key, path, f"'{key.value}' is not an option of a {kind} field",
                           hint=suggest(str(key.value), allowed) or
                           f"options: {', '.join(sorted(allowed))}")
                return None
        number = lambda key, kind_=float: self._option(options, key, kind_, path)  # noqa: E731
        spec = dict(name=name, kind=kind, where=location_of(self.shown, node))
        if kind in ("whole", "number"):
            spec["minimum"], spec["maximum"] = number("min"), number("max")
        if kind == "text":
            spec["max_chars"], spec["max_words"] = number("max_chars", int), \
                number("max_words", int)
        if kind == "list":
            spec["min_items"], spec["max_items"] = number("min_items", int), \
                number("max_items", int)
        if kind in _SCALARS:
            hint = _SCALARS[kind]
        elif kind == "choice":
            choices = options.get("of")
            if not isinstance(choices, SequenceNode) or not choices.value or not all(
                    isinstance(c, ScalarNode) for c in choices.value):
                self.error(choices or node, path, "a choice needs 'of', a list of words",
                           hint="e.g. {type: choice, of: [now, later]}")
                return None
            hint = Literal[tuple(c.value for c in choices.value)]
        elif kind == "list":
            element = options.get("of")
            if element is None:
                self.error(node, path, "a list needs 'of', the type of its elements",
                           hint="e.g. {type: list, of: text}")
                return None
            inner = self.field(name, element, f"{path}[]", owner)
            if inner is None:
                return None
            spec["of"] = inner
            hint = tuple[inner.hint, ...]
        elif kind == "mapping":
            label_node = options.get("label")
            label = label_node.value if isinstance(label_node, ScalarNode) else ""
            record = self.record(options.get("fields"), f"{path}.fields",
                                 f"{owner}_{name}", label,
                                 location_of(self.shown, label_node or node))
            if record is None:
                return None
            spec["record"] = record
            hint = record.cls
        if kind == "ref":
            target = options.get("to")
            if not isinstance(target, ScalarNode) or not target.value:
                self.error(node, path, "a ref needs 'to', the table or deck it names",
                           hint="e.g. {type: ref, to: regions}")
                return None
            spec["to"] = target.value
        required = options.get("required")
        if required is not None:
            value = self.validator.structure(required, bool, f"{path}.required")
            if value is INVALID:
                return None
            spec["required"] = value
        if "default" in options:
            default = self.validator.structure(options["default"], hint, f"{path}.default")
            if default is INVALID:
                return None
            spec["default"], spec["required"], spec["has_default"] = default, False, True
        elif spec.get("required") is False:
            spec["default"], spec["has_default"] = None, True
            hint = hint | None
        if None in (spec.get("minimum"), spec.get("maximum")) or \
                spec["minimum"] <= spec["maximum"]:
            return FieldSpec(hint=hint, **spec)
        self.error(node, path, f"min {spec['minimum']:g} is larger than max {spec['maximum']:g}")
        return None

    def _option(self, options: dict[str, Node], key: str, kind: type, path: str):
        node = options.get(key)
        if node is None:
            return None
        value = self.validator.structure(node, kind, f"{path}.{key}")
        if value is not INVALID and kind is int and value < 0:  # a count or a budget
            self.error(node, f"{path}.{key}", f"{key} {value} must be >= 0")
            return None
        return None if value is INVALID else value

    def compile(self, class_name: str, specs: dict[str, FieldSpec], label: str,
                label_where: Location | None) -> type:
        """A frozen dataclass for the validator: hints, ranges, defaults, a `label`."""
        columns = []
        for spec in specs.values():
            metadata = {"min": spec.minimum, "max": spec.maximum}
            if not spec.has_default:
                columns.append((spec.name, spec.hint, field(metadata=metadata)))
            else:
                columns.append((spec.name, spec.hint,
                                field(default=spec.default, metadata=metadata)))
        columns.append(("where", Where, located()))
        namespace = {}
        if "label" not in specs:
            prop = self.label_factory(label, class_name, specs, label_where)
            namespace["label"] = prop
            namespace["label_of"] = staticmethod(prop.label_of)
        return record_type(record_class_name(class_name), columns, namespace)


def record_class_name(name: str) -> str:
    """A record type's name in messages: 'banks' -> Bank, 'aid_texts_aids' -> AidTextsAid."""
    words = [part.capitalize() for part in re.split(r"[_-]+", name) if part]
    if words and len(words[-1]) > 3 and words[-1].endswith("s") and \
            not words[-1].endswith("ss"):
        words[-1] = words[-1][:-1]
    return "".join(words) or "Record"


def default_label(owner: str, specs) -> str:
    """A record's name in findings when the manifest gives none: `owner "title"`."""
    for name in ("title", "name"):
        if name in specs:
            return owner + ' "{{ ' + name + ' }}"'
    return owner


def labelled(template_source: str, compile_template, owner: str, specs) -> cached_property:
    """A `label` property rendering the label template over a record's fields."""
    template = compile_template(template_source or default_label(owner, specs))

    def label(self) -> str:
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        try:
            return template.render(values).strip()
        except Exception:  # a label is for messages: never let it break one
            return owner

    def label_of(values: dict[str, str]) -> str:
        """The label from a record's raw text values, before it is validated; '' if the
        values it names are missing."""
        try:
            return template.render(values).strip()
        except Exception:
            return ""

    prop = cached_property(label)
    prop.__set_name__(None, "label")
    prop.label_of = label_of
    return prop


def read_size(text: str, where: Location, findings: Findings, path: str) -> Size | None:
    try:
        return parse_size(text)
    except SizeError as exc:
        findings.error("manifest-size", where, str(exc), field=path,
                       hint=suggest(text.strip().lower(), CARD_SIZES) or
                       f"presets: {', '.join(CARD_SIZES)}")
        return None
