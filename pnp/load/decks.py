"""Decks: a deck's declaration and its validated items (or, for `each`, the game's data) in;
the deck's items in print order out.

`arrange` applies a deck file's `quantity` (copies of each item) and `sort`; `generate`
makes the items of a deck declared with `each` from expressions over the game's data;
`reads_any` tells whether those expressions read a given table or deck. Every problem is a
finding.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import jinja2
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..findings import Findings, Location
from .content import location_of, printable
from .expressions import names_used, sandbox
from .limits import ITEMS_VARIABLE, items_limit_hint, max_items
from .manifest import (RESERVED, RESERVED_FIELDS, DeckSpec, RecordType, name_problem,
                       record_class_name, record_type)
from .schema import Where, suggest
from .tables import Loader

def arrange(items: tuple, deck: DeckSpec, record: RecordType, findings: Findings,
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


def generate(deck: DeckSpec, name: str, names: dict[str, Any], findings: Findings,
             loader: Loader) -> tuple:
    """A deck's items made by its `each` generators: nested loops over data expressions,
    which see `names` (the game's, pnp.load.model.Game.names)."""
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
            items.extend(_expand(bindings, names, loader.game_shown, where))
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


def reads_any(deck: DeckSpec, names: set[str]) -> bool:
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
