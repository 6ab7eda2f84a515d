"""Reference: a game engine's schema in; a Markdown reference of its content files out.

The model dataclasses are the schema, so the content-format reference is generated from them and
cannot drift from what `pnp check` accepts. Each file's opening comment in the shipped content
explains what its values mean; the tables say what each key must hold.

    python -m pnp.reference downturn > docs/content-format.md
"""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from pathlib import Path
from typing import Any, Literal, Union

from .games import GameInfo, engines

GAME_FILE = "game.yaml"


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
    return {str: "text", int: "whole number", float: "number", bool: "`true` or `false`"}.get(
        hint, getattr(hint, "__name__", str(hint)))


def _nested(hint: Any) -> list[type]:
    """The dataclasses a type refers to, in order of appearance."""
    if dataclasses.is_dataclass(hint):
        return [hint]
    return [cls for arg in typing.get_args(hint) for cls in _nested(arg)]


def _table(cls: type) -> list[str]:
    hints = typing.get_type_hints(cls)
    rows = [f"#### {cls.__name__}", "", "| key | holds | required | allowed |", "|---|---|---|---|"]
    for field in dataclasses.fields(cls):
        if field.name == "where":
            continue
        required = (field.default is dataclasses.MISSING
                    and field.default_factory is dataclasses.MISSING)
        default = "yes" if required else f"no (default `{_default(field.default)}`)"
        low, high = field.metadata.get("min"), field.metadata.get("max")
        allowed = " ".join(part for part in (
            f">= {low}" if low is not None else "", f"<= {high}" if high is not None else "")
            if part) or ""
        rows.append(f"| `{field.name}` | {type_name(hints[field.name])} | {default} | "
                    f"{allowed} |")
    return rows + [""]


def _default(value: Any) -> str:
    if value is None or value == "":
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _opening_comment(path: Path) -> list[str]:
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines() if path.is_file() else []:
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    return [" ".join(lines), ""] if lines else []


def reference(engine_name: str, content: Path) -> str:
    engine = engines()[engine_name]
    files = {GAME_FILE: ("info", GameInfo), **engine.files}
    out = [f"# Content format: {engine_name}", "",
           "Generated from the model by `python -m pnp.reference "
           f"{engine_name} > docs/content-format.md`; a test keeps it current. Every file is "
           "YAML in `content/<game>/`. Quote text that YAML could read as something else "
           "(`\"no\"`, `\"010\"`); `pnp check` points at any value that does not fit.", ""]
    seen: set[type] = set()
    for file_name, (_, schema) in files.items():
        out += [f"## {file_name}", ""]
        out += _opening_comment(content / file_name)
        out += [f"Holds: {type_name(schema)}.", ""]
        queue = _nested(schema)
        while queue:
            cls = queue.pop(0)
            if cls in seen:
                continue
            seen.add(cls)
            out += _table(cls)
            hints = typing.get_type_hints(cls)
            queue += [n for f in dataclasses.fields(cls) if f.name != "where"
                      for n in _nested(hints[f.name])]
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    name = sys.argv[1] if len(sys.argv) > 1 else "downturn"
    sys.stdout.write(reference(name, Path("content") / name))
