"""Reference: the manifest's schema in; a Markdown reference of the manifest language out.

The manifest dataclasses and the table of field types are what `pnp check` reads `game.yaml`
with, so the content-format reference is generated from them and cannot drift from what is
accepted. docs/manifest.md explains the language with an example; this lists every key.

    python -m pnp.load.reference > docs/content-format.md
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import sys
import types
import typing
from typing import Any, Literal, Union

from .manifest import COMMON_OPTIONS, FIELD_TYPES, Manifest
from .schema import RawNode


def type_name(hint: Any) -> str:
    """How a schema type reads in the reference."""
    origin = typing.get_origin(hint)
    if origin is Literal:
        return "one of " + ", ".join(f"`{a}`" for a in typing.get_args(hint))
    if origin in (Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return type_name(options[0]) + " (may be left out)"
    if origin is tuple:
        return f"list of {type_name(typing.get_args(hint)[0])}"
    if origin is dict:
        return f"mapping of names to {type_name(typing.get_args(hint)[1])}"
    if dataclasses.is_dataclass(hint):
        return f"[{hint.__name__}](#{hint.__name__.lower()})"
    if hint is RawNode:
        return "see below"
    return {str: "text", int: "whole number", float: "number", bool: "`true` or `false`"}.get(
        hint, getattr(hint, "__name__", str(hint)))


def _nested(hint: Any) -> list[type]:
    """The dataclasses a type refers to, in order of appearance."""
    if dataclasses.is_dataclass(hint):
        return [hint]
    return [cls for arg in typing.get_args(hint) for cls in _nested(arg)]


def _table(cls: type) -> list[str]:
    hints = typing.get_type_hints(cls)
    notes = _comments(cls)
    rows = [f"#### {cls.__name__}", ""]
    if cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "("):
        rows += [" ".join(cls.__doc__.split()), ""]
    rows += ["| key | holds | required | allowed | meaning |", "|---|---|---|---|---|"]
    for field in dataclasses.fields(cls):
        if field.name == "where":
            continue
        required = (field.default is dataclasses.MISSING
                    and field.default_factory is dataclasses.MISSING)
        value = field.default if field.default_factory is dataclasses.MISSING else \
            field.default_factory()
        default = "yes" if required else f"no (default `{_default(value)}`)"
        low, high = field.metadata.get("min"), field.metadata.get("max")
        allowed = " ".join(part for part in (
            f">= {low}" if low is not None else "", f"<= {high}" if high is not None else "")
            if part) or ""
        rows.append(f"| `{field.name}` | {type_name(hints[field.name])} | {default} | "
                    f"{allowed} | {notes.get(field.name, '')} |")
    return rows + [""]


def _comments(cls: type) -> dict[str, str]:
    """The comment after each field in the class's source: what the key means."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return {}
    return {m.group(1): m.group(2).strip().replace("|", "/")
            for m in re.finditer(r"^\s+(\w+):[^#\n]*#\s*(.+)$", source, re.MULTILINE)}


def _default(value: Any) -> str:
    if value is None or value == "" or value == {}:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def reference() -> str:
    out = ["# Content format: the game manifest", "",
           "Generated from the code that reads it by `python -m pnp.load.reference > "
           "docs/content-format.md`; a test keeps it current. docs/manifest.md explains the "
           "language with an example. Every file is YAML (data may also be CSV or .xlsx) in "
           "`content/<game>/`. Quote text that YAML could read as something else (`\"no\"`, "
           "`\"010\"`); `pnp check` points at any value that does not fit.", "",
           "## game.yaml", ""]
    seen: set[type] = set()
    queue = [Manifest]
    while queue:
        cls = queue.pop(0)
        if cls in seen:
            continue
        seen.add(cls)
        out += _table(cls)
        hints = typing.get_type_hints(cls)
        queue += [n for f in dataclasses.fields(cls) if f.name != "where"
                  for n in _nested(hints[f.name])]
    out += ["## Field types", "",
            "`fields:` maps each field name to a type: `name: TYPE` (required), or "
            "`name: {type: TYPE, ...}` with options. Every type also takes "
            + ", ".join(f"`{o}`" for o in COMMON_OPTIONS if o != "type") + ".", "",
            "| type | holds | options |", "|---|---|---|"]
    for name, (holds, options) in FIELD_TYPES.items():
        out.append(f"| `{name}` | {holds} | {', '.join(f'`{o}`' for o in options)} |")
    out += ["", "## each", "",
            "A deck's `each:` is a list of generators, each a mapping of names to Jinja "
            "expressions over `game`, `info` and every table and deck; see docs/manifest.md.",
            "", "## Text in text boxes", "",
            "Text a template fits with `text_box` may carry `{icon}` marks (an icon of "
            "`icons:`), `**bold**`, `*italic*` and `***bold italic***`, nested in any order "
            "with icons; `\\*` prints an asterisk. Each span is measured and drawn in its "
            "font role's face of that weight and style (`fonts:`); an unclosed mark, or a "
            "style the role's family has no face for, is an error at the text's line."]
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    sys.stdout.write(reference())
