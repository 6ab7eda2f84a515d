"""Validate: YAML nodes in, frozen model objects (or findings) out.

The model dataclasses are the schema. Their type hints say what each key must hold; a field's
default makes its key optional; `bounded()` adds a numeric range. Every problem becomes a finding
with the file:line:col of the offending node, the key path, the actual value and what was
expected, and validation carries on so that one run reports everything.

Scalars are read from their source text, never from PyYAML's YAML 1.1 conversion: a text field
keeps exactly what was typed, and a number or boolean field refuses `010`, `1:30` or `yes` with a
hint instead of silently turning them into 8, 90 or True. Text may not hold characters that cannot
be printed or written as XML (controls, lone surrogates); numbers are finite and of sane length.
A `Colour` field accepts only `#rgb` or `#rrggbb`, so a value that reaches an SVG attribute
cannot carry anything else.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, Mapping, NewType, Union

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .content import describe_char, location_of, printable
from ..findings import BIDI_CONTROLS, NOWHERE, Findings, Location

INVALID: Any = type("Invalid", (), {"__repr__": lambda self: "<invalid>"})()

_YAML_TAG = "tag:yaml.org,2002:"
# C0 controls other than tab and newline, DEL, and C1 controls: invisible in an editor,
# fatal to the SVG parser. The line and paragraph separators break a message or a line of text
# where nobody sees a break. Lone surrogates and U+FFFE/U+FFFF (reachable through "\ud800"-style
# escapes) cannot be written as UTF-8 or XML at all.
_CONTROL_CHARS = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")
_PLAIN_DECIMAL = re.compile(r"[-+]?(0|[1-9][0-9]{0,14})")
_PLAIN_FLOAT = re.compile(r"[-+]?(0|[1-9][0-9]{0,14})(\.[0-9]{1,15})?")
_YAML11_BOOLS = {"yes", "no", "on", "off", "y", "n"}
_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")

# A colour that may reach an SVG attribute: `#rgb` or `#rrggbb`, nothing else.
Colour = NewType("Colour", str)
# A path to art inside the game folder; its file is checked by the model stage (`pnp.load.assets`).
Image = NewType("Image", str)


class RawNode:
    """A schema type that keeps the YAML node as it is, for a part (a manifest's field
    declarations) that its own reader structures, with locations, after validation."""


@dataclass(frozen=True)
class Where:
    """Where a model object came from: its mapping, and the value of each of its keys."""

    at: Location = NOWHERE
    fields: Mapping[str, Location] = field(default_factory=dict)

    def of(self, name: str) -> Location:
        return self.fields.get(name, self.at)


# An icon's name, as declared under `icons:` in game.yaml and written in text as `{name}`: the
# one grammar both places use, so every declared name can be drawn and every token looked up.
ICON_NAME = re.compile(r"[a-z][a-z0-9_-]*")
IconName = NewType("IconName", str)  # a mapping key that must follow ICON_NAME


def bounded(default: Any = dataclasses.MISSING, *, min: float | None = None,
            max: float | None = None) -> Any:
    """A dataclass field with an allowed numeric range, checked during validation."""
    return field(default=default, metadata={"min": min, "max": max})


def located(*, compare: bool = False) -> Any:
    """The `where` field every model object carries; filled in by the validator."""
    return field(default=Where(), compare=compare, repr=False)


def suggest(name: str, known: typing.Iterable[str]) -> str:
    import difflib  # only for a name that is not known

    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


def _describe(node: Node) -> str:
    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a list"
    return f"'{_shown(node.value)}'"


def _shown(text: str) -> str:
    """A scalar as quoted in a message: one line, invisible characters escaped, at most 40 long."""
    text = printable(text)
    return text if len(text) <= 40 else text[:37] + "..."


class Validator:
    """Structures one document's nodes into model objects, collecting findings."""

    def __init__(self, shown: str, findings: Findings, separable: tuple[type, ...] = (),
                 unknown_keys_fail: bool = False):
        self.shown = shown
        self.findings = findings
        # An unknown key is an error (the entry is left out) rather than a warning: in a
        # manifest, where a misspelt key silently changes what prints.
        self.unknown_keys_fail = unknown_keys_fail
        self._item: _Named | None = None  # the list item being read
        # A mapping of these (a manifest's decks) loses an entry with an error, not its use.
        self.separable = separable
        self.left_out: dict[str, int] = {}  # the paths of the entries it lost: their errors

    def error(self, rule: str, node: Node, path: str, message: str, hint: str = "") -> Any:
        subject = ""
        named = self._item
        while named is not None:  # the innermost item with a label names the finding
            label = named.label()
            if label and path.startswith(named.path):
                subject, path = label, path[len(named.path):].lstrip(".")
                break
            named = named.outer
        self.findings.error(rule, location_of(self.shown, node), message, subject=subject,
                            field=path, hint=hint)
        return INVALID

    def structure(self, node: Node, hint: Any, path: str) -> Any:
        origin = typing.get_origin(hint)
        if origin is Literal:
            return self._choice(node, typing.get_args(hint), path)
        if origin in (Union, types.UnionType):
            options = [a for a in typing.get_args(hint) if a is not type(None)]
            if isinstance(node, ScalarNode) and node.tag == _YAML_TAG + "null":
                return None
            return self.structure(node, options[0], path)
        if origin is tuple:
            return self._sequence(node, typing.get_args(hint)[0], path)
        if origin is dict:
            key_kind, item = typing.get_args(hint)
            return self._mapping(node, item, path, key_kind)
        if dataclasses.is_dataclass(hint):
            return self._dataclass(node, hint, path)
        if hint is Colour:
            return self._colour(node, path)
        if hint is RawNode:
            return node
        if hint is Image:
            return self._image(node, path)
        if hint in (str, int, float, bool):
            return self._scalar(node, hint, path)
        raise TypeError(f"schema type {hint!r} is not supported")  # a bug in a model, not content

    # -- scalars -----------------------------------------------------------------------------

    def _scalar(self, node: Node, kind: type, path: str) -> Any:
        if not isinstance(node, ScalarNode):
            return self.error("schema-type", node, path,
                              f"expected {_KIND_NAMES[kind]}, got {_describe(node)}")
        tag, text = node.tag.removeprefix(_YAML_TAG), node.value
        if tag == "null" and not (kind is str and node.style):
            return self.error("schema-missing", node, path,
                              f"has no value; expected {_KIND_NAMES[kind]}")
        if kind is str:
            bad = _CONTROL_CHARS.search(text)
            if bad:
                return self.error("text-control-char", node, path,
                                  f"contains {describe_char(bad.group())}",
                                  hint="remove it; it cannot be printed")
            bidi = BIDI_CONTROLS.search(text)
            if bidi:  # it makes the text read in another order than it is written
                import unicodedata

                char = bidi.group()
                return self.error("text-bidi-control", node, path,
                                  f"contains the bidirectional control U+{ord(char):04X} "
                                  f"({unicodedata.name(char, 'bidi control').lower()})",
                                  hint="remove it; it reorders how the text reads, in "
                                  "messages as on the card")
            return text
        quoted = bool(node.style)
        shown = _shown(text)
        plain = {bool: re.compile("true|false"), int: _PLAIN_DECIMAL, float: _PLAIN_FLOAT}[kind]
        unquote = "remove the quotes" if quoted and plain.fullmatch(text) else ""
        if kind is bool:
            if not quoted and text in ("true", "false"):
                return text == "true"
            hint = unquote or "write true or false"
            if text.lower() in _YAML11_BOOLS or text in ("True", "False", "TRUE", "FALSE"):
                hint = (f"older YAML reads '{shown}' as a yes/no value, other tools read it as "
                        "text; write true or false")
            return self.error("schema-type", node, path, f"expected true or false, got '{shown}'",
                              hint=hint)
        if kind is int:
            if not quoted and _PLAIN_DECIMAL.fullmatch(text):
                return self._in_range(node, int(text), path)
            return self.error("schema-type", node, path,
                              f"expected a whole number, got '{shown}'",
                              hint=unquote or _whole_number_hint(text, tag))
        if kind is float:
            if not quoted and _PLAIN_FLOAT.fullmatch(text):  # at most 30 digits: always finite
                return self._in_range(node, float(text), path)
            hint = unquote or "write a plain decimal number such as 1.5"
            return self.error("schema-type", node, path, f"expected a number, got '{shown}'",
                              hint=hint)
        raise AssertionError(kind)

    def _colour(self, node: Node, path: str) -> Any:
        if not isinstance(node, ScalarNode) or not _COLOUR.fullmatch(node.value):
            return self.error("schema-colour", node, path,
                              f"expected a colour such as '#1f2a44', got {_describe(node)}",
                              hint="write '#' and six hex digits, quoted (YAML reads # as a "
                                   "comment)")
        return Colour(node.value.lower())

    def _image(self, node: Node, path: str) -> Any:
        text = self._scalar(node, str, path)
        if text is INVALID:
            return INVALID
        if not text.strip():
            return self.error("schema-missing", node, path, "has no value; expected the path "
                              "of a PNG, JPEG or SVG file in the game folder")
        return Image(text)

    def _in_range(self, node: Node, value: float, path: str) -> Any:
        low, high = self._bounds
        if low is not None and value < low:
            return self.error("schema-range", node, path, f"{value} must be >= {low}")
        if high is not None and value > high:
            return self.error("schema-range", node, path, f"{value} must be <= {high}")
        return value

    _bounds: tuple = (None, None)

    def _choice(self, node: Node, choices: tuple, path: str) -> Any:
        if not isinstance(node, ScalarNode) or node.value not in choices:
            got = _describe(node)
            hint = suggest(printable(node.value), choices) if isinstance(node, ScalarNode) else ""
            return self.error("schema-choice", node, path,
                              f"{got} is not one of: {', '.join(choices)}", hint=hint)
        return node.value

    # -- collections -------------------------------------------------------------------------

    def _sequence(self, node: Node, item: Any, path: str) -> Any:
        if not isinstance(node, SequenceNode):
            return self.error("schema-type", node, path, f"expected a list, got {_describe(node)}")
        values = self.each(node, item, path)
        return INVALID if any(v is INVALID for v in values) else tuple(values)

    def each(self, node: SequenceNode, item: Any, path: str) -> list:
        """Every item of a list structured as `item`, INVALID for those that cannot be."""
        label_of = getattr(item, "label_of", None)
        values = []
        for i, child in enumerate(node.value):
            outer = self._item
            if callable(label_of) and isinstance(child, MappingNode):
                # Findings inside an item name it as a person would ('card "Ace"'), not by
                # its index, even though the item itself could not be built.
                self._item = _Named(label_of, child, f"{path}[{i}]", outer)
            try:
                values.append(self.structure(child, item, f"{path}[{i}]"))
            finally:
                self._item = outer
        return values

    def _keys(self, node: MappingNode, path: str):
        for key, value in node.value:
            if not isinstance(key, ScalarNode) or key.tag != _YAML_TAG + "str":
                got = _describe(key) if isinstance(key, ScalarNode) else _describe(key)[2:]
                self.error("schema-type", key, path, f"a key must be plain text, not {got}",
                           hint="write keys as plain words")
                continue
            yield key, value

    def _mapping(self, node: Node, item: Any, path: str, key_kind: Any = str) -> Any:
        if not isinstance(node, MappingNode):
            return self.error("schema-type", node, path,
                              f"expected a mapping, got {_describe(node)}")
        values = {}
        for key, value in self._keys(node, path):
            if key_kind is IconName and not ICON_NAME.fullmatch(key.value):
                values[key.value] = self._bad_icon_name(key, path)
                continue
            if item not in self.separable:
                values[key.value] = self.structure(value, item, _join(path, key.value))
                continue
            before = len(self.findings.errors)
            values[key.value] = self.structure(value, item, _join(path, key.value))
            if values[key.value] is INVALID:
                self.left_out[_join(path, key.value)] = len(self.findings.errors) - before
        if item in self.separable:
            return {key: v for key, v in values.items() if v is not INVALID}
        return INVALID if any(v is INVALID for v in values.values()) else values

    def _bad_icon_name(self, key: ScalarNode, path: str) -> Any:
        """An icon name text could never write as a token: at its own line, with a name
        that can be."""
        name = key.value
        fixed = re.sub(r"[^a-z0-9_-]+", "_", name.strip().lower()).strip("_-")
        fixed = fixed if ICON_NAME.fullmatch(fixed) else ""
        shown = f"'{_shown(name)}'" if name else "an empty name"
        hint = (f"rename it '{fixed}' and write {{{fixed}}} in text" if fixed else
                "name it with lower-case letters, digits, _ and -, starting with a letter")
        return self.error("icon-name", key, path, f"icon {shown} cannot be written as a token "
                          "in text: a name is lower-case letters, digits, _ and -, starting "
                          "with a letter", hint=hint)

    def _dataclass(self, node: Node, cls: type, path: str) -> Any:
        if not isinstance(node, MappingNode):
            return self.error("schema-type", node, path,
                              f"expected a mapping, got {_describe(node)}")
        hints = _hints(cls)
        fields, required, located = _shape(cls)
        values: dict[str, Any] = {}
        places: dict[str, Location] = {}
        ok = True
        for key, value in self._keys(node, path):
            name = key.value
            if name not in fields:
                hint = suggest(printable(name), fields) or f"known keys: {', '.join(fields)}"
                if self.unknown_keys_fail:
                    self.error("schema-unknown-key", key, path, f"unknown key '{_shown(name)}'",
                               hint=f"{hint} (pnp would ignore it, which changes what prints; "
                                    "--lenient makes this a warning)")
                    ok = False
                else:
                    self.findings.warning("schema-unknown-key", location_of(self.shown, key),
                                          f"unknown key '{_shown(name)}'", field=path, hint=hint)
                continue
            meta = fields[name].metadata
            self._bounds = (meta.get("min"), meta.get("max"))
            try:
                result = self.structure(value, hints[name], _join(path, name))
            finally:
                self._bounds = (None, None)
            places[name] = location_of(self.shown, value)
            ok = ok and result is not INVALID
            values[name] = result
        for name in required:
            if name not in values:
                self.error("schema-missing", node, path, f"missing required key '{name}'",
                           hint=f"add '{name}:' to this entry")
                ok = False
        if not ok:
            return INVALID
        if located:
            values["where"] = Where(location_of(self.shown, node), places)
        return cls(**values)


class _Named:
    """A list item being read, and its label from its raw text values: drawn (from its label
    template) only when a finding inside it needs a name."""

    def __init__(self, label_of, node: MappingNode, path: str, outer: "_Named | None") -> None:
        self.label_of, self.node, self.path, self.outer = label_of, node, path, outer
        self._label: str | None = None

    def label(self) -> str:
        if self._label is None:
            raw = {k.value: v.value for k, v in self.node.value
                   if isinstance(k, ScalarNode) and isinstance(v, ScalarNode)}
            self._label = self.label_of(raw)
        return self._label


def _whole_number_hint(text: str, tag: str) -> str:
    if re.fullmatch(r"[-+]?[0-9]{16,}", text):
        return "a number this long cannot be meant; write a plain whole number"
    if tag == "int":
        return (f"YAML 1.1 reads '{_shown(text)}' as a different number (octal, base 60 or hex);"
                " write it in plain decimal, or quote it if it is text")
    if tag == "float":
        return "a whole number has no decimal point or exponent"
    if tag == "bool":
        return f"YAML 1.1 reads '{_shown(text)}' as true/false; a number was expected"
    return "write a plain whole number"


_KIND_NAMES = {str: "text", int: "a whole number", float: "a number", bool: "true or false"}


def _join(path: str, name: str) -> str:
    name = printable(name)
    return f"{path}.{name}" if path else name


_HINT_CACHE: dict[type, dict[str, Any]] = {}


@lru_cache(maxsize=1024)  # a long `pnp watch` makes new record types on every save
def _shape(cls: type) -> tuple[dict[str, dataclasses.Field], tuple[str, ...], bool]:
    """A record type's fields by name (but `where`), those required, and whether it has a
    `where`: read once per type, not once per item."""
    every = dataclasses.fields(cls)
    fields = {f.name: f for f in every if f.name != "where"}
    required = tuple(name for name, f in fields.items()
                     if f.default is dataclasses.MISSING
                     and f.default_factory is dataclasses.MISSING)
    return fields, required, any(f.name == "where" for f in every)


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINT_CACHE:
        _HINT_CACHE[cls] = typing.get_type_hints(cls)
    return _HINT_CACHE[cls]


def validate(document, hint: Any, path: str, findings: Findings) -> Any:
    """Structure a loaded document's root node as `hint`; INVALID when it cannot be used."""
    if document.root is None:
        return INVALID
    return Validator(document.shown, findings).structure(document.root, hint, path)


def validate_entries(document, hint: Any, path: str, findings: Findings,
                     separable: tuple[type, ...], unknown_keys_fail: bool = False
                     ) -> tuple[Any, dict[str, int]]:
    """`validate`, but an entry with an error in a mapping of `separable` values (one deck's
    spec among a manifest's decks) is left out rather than making the whole document
    unusable: the other entries are still read and checked. Returns the value and the path of
    each entry left out, with the number of errors it had. With `unknown_keys_fail`, an
    unknown key is an error that leaves its entry out, not a warning."""
    if document.root is None:
        return INVALID, {}
    validator = Validator(document.shown, findings, separable, unknown_keys_fail)
    return validator.structure(document.root, hint, path), validator.left_out


def validate_items(document, item: Any, path: str, findings: Findings
                   ) -> tuple[Any, list[MappingNode | Node]]:
    """Structure a list document's items one by one: the tuple of the valid ones (INVALID when
    the document is not a list at all) and the nodes of those that are not, so that an error
    in one item leaves the others to be checked (references, rules)."""
    if document.root is None:
        return INVALID, []
    validator = Validator(document.shown, findings)
    if not isinstance(document.root, SequenceNode):
        return validator.structure(document.root, tuple[item, ...], path), []
    values = validator.each(document.root, item, path)
    return (tuple(v for v in values if v is not INVALID),
            [node for node, v in zip(document.root.value, values) if v is INVALID])
