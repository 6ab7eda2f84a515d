"""Load: content files in, YAML node trees that remember file:line:col out.

The loader is strict on purpose. It only builds plain YAML nodes (never Python objects), refuses
aliases (a few lines of anchors can expand to billions of nodes), reports duplicate keys with both
line numbers, caps file size and refuses text that is not UTF-8. Values are not converted here:
the schema reads each scalar's source text, so YAML 1.1 surprises (`no` -> false, `010` -> 8)
never reach the model unnoticed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .findings import Findings, Location

MAX_FILE_BYTES = 1_000_000  # far above any real game file; stops a runaway or hostile one early


@dataclass(frozen=True)
class Document:
    """One parsed content file: its displayed path and its root node (None when unusable)."""

    shown: str
    root: Node | None


def location_of(shown: str, node: Node) -> Location:
    mark = node.start_mark
    return Location(shown, mark.line + 1, mark.column + 1)


class StrictLoader(yaml.SafeLoader):
    """A SafeLoader that composes nodes only, with no aliases and no duplicate keys."""

    def __init__(self, stream, shown: str, findings: Findings):
        super().__init__(stream)
        self.shown = shown
        self.findings = findings

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, "YAML aliases (*name) are not allowed; write the value out in full",
                event.start_mark,
            )
        return super().compose_node(parent, index)

    def compose_mapping_node(self, anchor):
        node = super().compose_mapping_node(anchor)
        seen: dict[str, Node] = {}
        kept = []
        for key, value in node.value:
            name = key.value if isinstance(key, ScalarNode) else None
            if name is not None and name in seen:
                first = seen[name].start_mark.line + 1
                self.findings.error(
                    "yaml-duplicate-key", location_of(self.shown, key),
                    f"duplicate key '{name}' (first at line {first})",
                    hint="remove one of them; YAML would silently keep only the last",
                )
                continue
            if name is not None:
                seen[name] = key
            kept.append((key, value))
        node.value = kept
        return node


def load_document(path: Path, shown: str, findings: Findings) -> Document:
    """Read and compose one YAML file; every problem becomes a finding, never an exception."""
    where = Location(shown)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        findings.error("file-missing", where, "file not found", hint="create it or restore it")
        return Document(shown, None)
    if size > MAX_FILE_BYTES:
        findings.error(
            "file-too-large", where,
            f"file is {size} bytes, more than the {MAX_FILE_BYTES} allowed",
            hint="split it or check that it is the right file",
        )
        return Document(shown, None)
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        findings.error(
            "file-encoding", Location(shown, line, 1),
            f"byte 0x{raw[exc.start]:02x} is not valid UTF-8", hint="save the file as UTF-8",
        )
        return Document(shown, None)
    loader = StrictLoader(text, shown, findings)
    try:
        root = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        where = Location(shown, mark.line + 1, mark.column + 1) if mark else where
        findings.error("yaml-syntax", where, f"YAML syntax error: {problem}",
                       hint="fix the indentation or quoting near this line")
        return Document(shown, None)
    except yaml.YAMLError as exc:
        findings.error("yaml-syntax", where, f"YAML error: {exc}")
        return Document(shown, None)
    finally:
        loader.dispose()
    if root is None:
        findings.error("yaml-empty", where, "file is empty", hint="add the content it should hold")
    return Document(shown, root)


__all__ = [
    "Document", "MappingNode", "ScalarNode", "SequenceNode", "StrictLoader",
    "load_document", "location_of", "MAX_FILE_BYTES",
]
