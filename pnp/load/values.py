"""Values: a game's validated records in; findings on what a type alone cannot check out.

`keys_of` gives the keys each table and deck can be referred to by, and checks that every
declared reference names one; `check_values` checks a table's or deck's records: text
budgets, list lengths, references between tables and the art files images name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from yaml.nodes import MappingNode, Node, ScalarNode

from .. import reads
from ..findings import Findings
from .assets import MAX_ASSET_BYTES, check_asset_bytes, resolve_asset
from .manifest import FieldSpec, Manifest, RecordType
from .schema import INVALID, Image, suggest

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")


def keys_of(info: Manifest, parts: dict[str, Any], types: dict[str, RecordType],
            findings: Findings, dropped: dict[str, list[Node]], damaged: set[str]) -> dict[str, set | None]:
    """The keys each table and deck can be referred to by (None when they cannot be known:
    its file failed validation, or lost a row before its items were read); declared refs are
    checked here. An item that failed validation still has the key its text gives it, so a
    reference to it is no error."""
    keys: dict[str, set | None] = {}
    specs = {**info.data, **info.decks}
    for name, value in parts.items():
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
            raw = raw_key(node, key)
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


def raw_key(node: Node, key: str) -> str | None:
    """The text of an item's `key` field in its YAML or CSV node, when it has one."""
    if isinstance(node, MappingNode):
        for name, value in node.value:
            if isinstance(name, ScalarNode) and name.value == key:
                return value.value if isinstance(value, ScalarNode) and value.value else None
    return None


def walk(value: Any, record: RecordType, visit) -> None:
    """Call visit(record_value, spec) for every declared field of every nested record."""
    items = value if isinstance(value, tuple) else (value,)
    for item in items:
        for spec in record.fields.values():
            visit(item, spec)
            inner = getattr(item, spec.name)
            if spec.record is not None and inner is not None:
                walk(inner, spec.record, visit)
            elif spec.of is not None and spec.of.record is not None and inner:
                walk(inner, spec.of.record, visit)


def check_values(value: Any, record: RecordType, keys: dict[str, set], folder: Path,
                 findings: Findings) -> None:
    """Check what a type alone cannot in a table's or deck's validated records: text
    budgets, list lengths, references (against `keys`) and art files (in `folder`)."""
    def visit(item, spec: FieldSpec) -> None:
        current = getattr(item, spec.name)
        if current is None:
            return
        where = item.where.of(spec.name)
        # A record's label is drawn from its label template: only for a finding.
        subject = lambda: getattr(item, "label", "")  # noqa: E731
        if spec.kind == "text" and isinstance(current, str):
            _budget(current, spec, where, subject, findings)
        if spec.kind == "list" and isinstance(current, tuple):
            count = len(current)
            if spec.min_items is not None and count < spec.min_items or \
                    spec.max_items is not None and count > spec.max_items:
                findings.error(
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
                _reference(each, target, keys, where, subject, spec.name, findings)
            else:
                _image(each, where, subject(), spec.name, folder, findings)

    walk(value, record, visit)


def _budget(text: str, spec: FieldSpec, where, subject: Callable[[], str],
            findings: Findings) -> None:
    if spec.max_chars is not None and len(text) > spec.max_chars:
        chars = len(text)
        findings.error("text-budget", where, f"text is {chars} characters, over its "
                            f"budget of {spec.max_chars}", subject=subject(),
                            field=spec.name,
                            hint=f"cut about {chars - spec.max_chars} characters")
    if spec.max_words is not None and len(words := text.split()) > spec.max_words:
        findings.error("text-budget", where, f"text is {len(words)} words, over its "
                            f"budget of {spec.max_words}", subject=subject(),
                            field=spec.name,
                            hint=f"cut about {len(words) - spec.max_words} words")


def _reference(value: str, target: str, keys: dict[str, set | None], where,
               subject: Callable[[], str], field_name, findings: Findings) -> None:
    if keys.get(target) is None:
        # reported once, with the field declaration, or the target's keys are unknown
        # (its file failed validation, reported there)
        return
    if value not in keys[target]:
        findings.error("ref-unknown", where, f"'{value}' is not in {target}",
                            subject=subject(), field=field_name,
                            hint=suggest(value, sorted(map(str, keys[target]))) or
                            f"{target} holds: {', '.join(sorted(map(str, keys[target])))[:200]}")


def _image(value: Image, where, subject, field_name, folder: Path, findings: Findings
           ) -> None:
    path = resolve_asset(folder, value, findings, where, subject=subject,
                         field=field_name, suffixes=IMAGE_SUFFIXES)
    if path is None:
        return
    problem = check_asset_bytes(reads.read_file(path, MAX_ASSET_BYTES + 1,
                                                inside=folder))
    if problem:
        findings.error("image-refused", where, f"'{value}' {problem}",
                            subject=subject, field=field_name)
