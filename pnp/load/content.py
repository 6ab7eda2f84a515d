"""Load: content files in, YAML node trees that remember file:line:col out.

The loader is strict on purpose. It only builds plain YAML nodes (never Python objects), refuses
aliases (a few lines of anchors can expand to billions of nodes) and explicit tags such as
`!!python/object`, reports duplicate keys with both line numbers, caps file size and nesting depth,
reads only regular files, and refuses text that is not UTF-8 or holds control characters (which
would also throw YAML's own line numbers off). Values are not converted here: the schema reads
each scalar's source text, so YAML 1.1 surprises (`no` -> false, `010` -> 8) never reach the model
unnoticed. Every problem is one finding on one line with its file:line:col, never an exception.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import yaml
from yaml.composer import Composer
from yaml.cyaml import CParser  # PyYAML's wheels are built with libyaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from .. import reads
from ..findings import Finding, Findings, Location, Severity

from .limits import DEFAULT_FILE_MB, FILE_MB_VARIABLE, file_limit_hint, max_file_bytes

MAX_FILE_BYTES = DEFAULT_FILE_MB * 1_000_000  # the default; a read asks max_file_bytes()
_YAML_TAG = "tag:yaml.org,2002:"
MAX_DEPTH = 40  # nesting of lists and mappings; real content uses 4, a hostile file 10 000

# Characters refused anywhere in a content file: C0 controls other than tab, newline and carriage
# return, DEL, C1 controls (YAML 1.1 reads U+0085 as a line break), the Unicode line and paragraph
# separators (also line breaks to YAML, not to editors) and the two non-characters XML refuses.
REFUSED_RAW = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff]")
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")


# A line inside quoted text that reads like a key of its own: the quote ran on past its line.
_KEY_LINE = re.compile(r"\n[ \t]*(?:- )?([A-Za-z_][A-Za-z0-9_-]{0,40}):(?:[ \t]|$)", re.MULTILINE)


def printable(text: str) -> str:
    """`text` safe to show inside a one-line message: invisible characters as \\xNN escapes."""
    return _UNPRINTABLE.sub(lambda m: repr(m.group())[1:-1], text)


def describe_char(char: str) -> str:
    """'the control character U+0007' or 'the character U+D800 (not printable)'."""
    if unicodedata.category(char) == "Cc":
        return f"the control character U+{ord(char):04X}"
    return f"the character U+{ord(char):04X}, which is not printable"


class RefusedYAML(yaml.MarkedYAMLError):
    """A construct the strict loader refuses; carries its own rule id and hint."""

    def __init__(self, rule: str, problem: str, mark, hint: str):
        super().__init__(problem=problem, problem_mark=mark)
        self.rule = rule
        self.hint = hint


@dataclass(frozen=True)
class Document:
    """One parsed content file: its displayed path and its root node (None when unusable)."""

    shown: str
    root: Node | None


def location_of(shown: str, node: Node) -> Location:
    mark = node.start_mark
    # A spreadsheet cell's mark names its sheet (pnp.load.csvdata.CellMark).
    return Location(shown, mark.line + 1, mark.column + 1, getattr(mark, "sheet", ""))


class _StrictComposing:
    """Composing as a strict loader does: no aliases, no tags, no duplicate keys, a depth cap,
    and a warning for a quote that runs on past its line. Events come from the parser of the
    class it is mixed into."""

    def _strict_setup(self, text: str, shown: str, findings: Findings) -> None:
        self.text = text
        self.shown = shown
        self.findings = findings
        self.runaways = Findings()
        self.depth = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise RefusedYAML("yaml-alias", f"YAML alias '*{printable(event.anchor)}' is not "
                              "allowed", event.start_mark, "write the value out in full")
        tag = getattr(event, "tag", None)
        if tag not in (None, "!"):
            shown_tag = "!!" + tag.removeprefix(_YAML_TAG) if tag.startswith(_YAML_TAG) else tag
            raise RefusedYAML("yaml-tag", f"YAML tag '{printable(shown_tag)}' is not allowed",
                              event.start_mark, "remove it; content is plain text, numbers, "
                              "lists and mappings")
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise RefusedYAML("yaml-depth", f"lists and mappings nested more than "
                                  f"{MAX_DEPTH} deep", event.start_mark,
                                  "flatten the structure")
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def compose_scalar_node(self, anchor):
        node = super().compose_scalar_node(anchor)
        node.style = node.style or None  # libyaml calls a plain scalar's style '', PyYAML None
        start, end = node.start_mark, node.end_mark
        if node.style in ('"', "'") and start.line != end.line:
            source = self.text[start.index:end.index]
            runaway = _KEY_LINE.search(source)
            if runaway:
                key_line = start.line + source.count("\n", 0, runaway.start()) + 2
                self.runaways.warning(  # reported only if the file parses: else the error says it
                    "yaml-runaway-quote", location_of(self.shown, node),
                    f"the quote {source[0]} that opens here closes only at line {end.line + 1},"
                    f" taking in line {key_line} ('{printable(runaway.group(1))}:') as text",
                    hint="close the quote on the line where it opens")
        return node

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
                    f"duplicate key '{printable(name)}' (first at line {first})",
                    hint="remove one of them; YAML would silently keep only the last",
                )
                continue
            if name is not None:
                seen[name] = key
            kept.append((key, value))
        node.value = kept
        return node


class StrictLoader(_StrictComposing, yaml.SafeLoader):
    """PyYAML's own parser, composing strictly: its errors are the ones findings explain."""

    def __init__(self, stream: str, shown: str, findings: Findings):
        yaml.SafeLoader.__init__(self, stream)
        self._strict_setup(stream, shown, findings)


class FastStrictLoader(_StrictComposing, Composer, CParser, Resolver):
    """libyaml's parser (C, about ten times faster) under the same strict composing. Used for
    files that parse cleanly; a file with any problem is read again by StrictLoader, so every
    message and location is PyYAML's."""

    def __init__(self, stream: str, shown: str, findings: Findings):
        CParser.__init__(self, stream)
        Composer.__init__(self)
        Resolver.__init__(self)
        self._strict_setup(stream, shown, findings)


def read_capped(path: Path, where: Location, findings: Findings) -> bytes | None:
    """The bytes of a regular file of at most MAX_FILE_BYTES, or None with a finding.

    The size is checked on what is actually read, not on what stat() promised, so a file that
    grows, or a symlink to a device or a pipe, cannot make the loader read forever. Read
    through pnp.reads, as every project file a check reads.
    """
    limit = max_file_bytes()
    try:
        raw = reads.read_file(path, limit + 1)
    except FileNotFoundError:
        findings.error("file-missing", where, "file not found", hint="create it or restore it")
        return None
    except reads.Outside:
        findings.error("file-outside", where, reads.OUTSIDE_MESSAGE, hint=reads.OUTSIDE_HINT)
        return None
    except reads.NotAFile as exc:
        kind = "a folder" if exc.folder else "not a regular file"
        findings.error("file-not-regular", where, f"is {kind}",
                       hint="a content file must be an ordinary YAML file")
        return None
    except OSError as exc:
        findings.error("file-unreadable", where, f"cannot read: {exc.strerror or exc}")
        return None
    if len(raw) > limit:
        try:
            size = max(path.stat().st_size, len(raw))
        except OSError:
            size = len(raw)
        findings.error(
            "file-too-large", where,
            f"file is {size} bytes, more than the {limit} allowed ({FILE_MB_VARIABLE})",
            hint=file_limit_hint(size))
        return None
    return raw


def _position(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of `index` in `text`, counting lines as an editor does."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


# Composed documents by (shown path, SHA-256 of the bytes), with the findings composing them
# gave: a check after an edit in the same process (`pnp watch`, the tests) re-reads every file
# but composes only the one that changed. Nodes are never modified after composing, so
# sharing them between checks is safe. Nothing is kept between runs: pickles of them in the
# user cache made no measurable difference to a check (libyaml composes a game's files about
# as fast as the pickles loaded), and grew without bound.
_COMPOSED: OrderedDict[tuple[str, bytes], tuple[Document, list]] = OrderedDict()
_COMPOSED_MAX = 256


def load_document(path: Path, shown: str, findings: Findings) -> Document:
    """Read and compose one YAML file; every problem becomes a finding, never an exception."""
    raw = read_capped(path, Location(shown), findings)
    if raw is None:
        return Document(shown, None)
    key = (shown, hashlib.sha256(raw).digest())
    if key not in _COMPOSED:
        fresh = Findings()
        _COMPOSED[key] = (_compose(raw, shown, fresh), list(fresh))
        if len(_COMPOSED) > _COMPOSED_MAX:
            _COMPOSED.popitem(last=False)
    _COMPOSED.move_to_end(key)
    document, found = _COMPOSED[key]
    findings.extend(found)
    return document


def decode_text(raw: bytes, shown: str, findings: Findings, *, encoding: str = "utf-8",
                hint: str = "save the file as UTF-8") -> str | None:
    """A content file's bytes as text, or None with a finding: not UTF-8, or holding a
    character that cannot be printed (YAML and CSV files alike)."""
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        findings.error("file-encoding", Location(shown, line, column),
                       f"byte 0x{raw[exc.start]:02x} is not valid UTF-8", hint=hint)
        return None
    bad = REFUSED_RAW.search(text)
    if bad:
        line, column = _position(text, bad.start())
        others = len(REFUSED_RAW.findall(text)) - 1
        more = f" (and {others} more in this file)" if others else ""
        findings.error("text-control-char", Location(shown, line, column),
                       f"contains {describe_char(bad.group())}{more}",
                       hint="remove it; it cannot be printed")
        return None
    return text


def _compose(raw: bytes, shown: str, findings: Findings) -> Document:
    """Decode, check and compose a file's bytes; every problem becomes a finding."""
    where = Location(shown)
    text = decode_text(raw, shown, findings)
    if text is None:
        return Document(shown, None)
    composed = _compose_fast(text, shown)
    if composed is not None:
        root, found = composed
        findings.extend(found)
        if root is None:
            findings.error("yaml-empty", where, "file is empty",
                           hint="add the content it should hold")
        return Document(shown, root)
    try:
        loader = StrictLoader(text, shown, findings)
    except yaml.YAMLError as exc:  # the reader refused a character the scan above let through
        line, column = _position(text, getattr(exc, "position", 0) or 0)
        findings.error("yaml-syntax", Location(shown, line, column),
                       f"YAML cannot read this file: {printable(str(exc).splitlines()[0])}")
        return Document(shown, None)
    try:
        root = loader.get_single_node()
        findings.extend(loader.runaways)
    except RefusedYAML as exc:
        mark = exc.problem_mark
        findings.error(exc.rule, Location(shown, mark.line + 1, mark.column + 1), exc.problem,
                       hint=exc.hint)
        return Document(shown, None)
    except yaml.MarkedYAMLError as exc:
        findings.add(_syntax_finding(text, shown, exc))
        return Document(shown, None)
    except yaml.YAMLError as exc:
        message = printable(" ".join(str(exc).split()))
        findings.error("yaml-syntax", where, f"YAML error: {message}")
        return Document(shown, None)
    finally:
        loader.dispose()
    if root is None:
        findings.error("yaml-empty", where, "file is empty", hint="add the content it should hold")
    return Document(shown, root)


def _compose_fast(text: str, shown: str) -> tuple[Node | None, Findings] | None:
    """The root node and findings of a file libyaml parses without complaint; None for any
    problem, which the slower parser then reads and explains."""
    # Where libyaml and PyYAML part: a tab (libyaml reads some that PyYAML refuses), a byte
    # order mark (counted in positions or not), the position of the end of a file with no
    # final newline, and a '?' inside a flow collection (libyaml reads `[n? ull]` as one
    # scalar, PyYAML refuses it). Such files take PyYAML's path.
    if "\t" in text or "\ufeff" in text or not text.endswith("\n") or (
            "?" in text and ("[" in text or "{" in text)):
        return None
    found = Findings()
    loader = FastStrictLoader(text, shown, found)
    try:
        root = loader.get_single_node()
    except (yaml.YAMLError, RefusedYAML):
        return None
    finally:
        loader.dispose()
    found.extend(loader.runaways)
    return root, found


def _syntax_finding(text: str, shown: str, exc: yaml.MarkedYAMLError) -> Finding:
    """One finding for a YAML syntax error, placed where the mistake opens, not where YAML gave up.

    A quote left open runs on to the next quote, often lines later, and the error comes after
    that; a bracket left open is noticed at the first thing that cannot be inside it. Both are
    reported where they open, with where YAML noticed in the message.
    """
    # A scanner error's context is the token it was reading (an unclosed quote, a key with
    # no ':'), which is where the mistake is; a parser error's problem is the line at fault.
    mark = exc.problem_mark or exc.context_mark
    if isinstance(exc, yaml.scanner.ScannerError) and exc.context_mark is not None:
        mark = exc.context_mark
    parts = [p for p in (exc.context, exc.problem) if p]
    problem = printable(": ".join(parts).replace("\n", " ")) or "invalid YAML"
    if mark is None:
        return Finding("yaml-syntax", Severity.ERROR, Location(shown),
                       f"YAML syntax error: {problem}")
    noticed = f"line {mark.line + 1}:{mark.column + 1}"
    quote = _quote_before(text, mark) if not isinstance(exc, yaml.scanner.ScannerError) else None
    opened = exc.context_mark
    if quote is not None:
        start, end = quote.start_mark, quote.end_mark
        char = text[start.index]
        inside = "''" if char == "'" else '\\"'
        if start.line != end.line:
            where = Location(shown, start.line + 1, start.column + 1)
            message = (f"YAML syntax error: the quote {char} that opens here is not closed on "
                       f"its line; YAML read on to the next {char} at line {end.line + 1}:"
                       f"{end.column} and failed at {noticed}")
        else:
            where = Location(shown, end.line + 1, end.column)
            message = (f"YAML syntax error: the quoted text that opens at {start.line + 1}:"
                       f"{start.column + 1} ends at this {char}, and more text follows it")
        hint = (f"close the quote on the line where it opens; write {inside} for a {char} inside "
                "the quoted text")
        return Finding("yaml-syntax", Severity.ERROR, where, message, hint=hint)
    if (opened is not None and exc.context and exc.context.startswith("while parsing a flow")
            and opened.index < mark.index):
        bracket = text[opened.index] if opened.index < len(text) else "["
        closer = {"[": "]", "{": "}"}.get(bracket, "the closing bracket")
        return Finding("yaml-syntax", Severity.ERROR,
                       Location(shown, opened.line + 1, opened.column + 1),
                       f"YAML syntax error: the {bracket} that opens here is never closed "
                       f"({printable(exc.problem or '')} at {noticed})",
                       hint=f"close it with {closer} where the list or mapping ends")
    hint = "fix the indentation or quoting near this line"
    lines = text.splitlines()
    line_text = lines[mark.line] if mark.line < len(lines) else ""
    flow_start = re.search(r"(?:^|:\s|-\s)\s*(([{\[])[^}\]]*[}\]]\s*[^\s#].*?)\s*$",
                           line_text)
    if exc.context == "while scanning a quoted scalar":
        hint = "the quote that opens here is never closed; close it on this line"
    elif opened is not None and opened.line != mark.line and exc.context:
        # The parser notices too late: point back at what was left open.
        what = exc.context.removeprefix("while parsing ").removeprefix("a ")
        hint = f"check the {what} that starts at line {opened.line + 1}:{opened.column + 1}"
    if flow_start:  # `name: {click} Small note`: YAML reads the braces as a mapping
        value, bracket = flow_start.group(1), flow_start.group(2)
        quoted = '"' + printable(value[:60]).replace('"', '\\"') + '"'
        hint = (f"a value that starts with {bracket} is read as a YAML "
                f"{'mapping' if bracket == '{' else 'list'}: put the whole value in quotes, "
                f"{quoted}")
    return Finding("yaml-syntax", Severity.ERROR, Location(shown, mark.line + 1, mark.column + 1),
                   f"YAML syntax error: {problem}", hint=hint)


def _quote_before(text: str, mark) -> yaml.ScalarToken | None:
    """The quoted scalar that ends on the error's line just before the error, if there is one.

    Such a scalar either opened on an earlier line (a quote left open, closed by the next quote
    YAML met) or closed early (a quote inside quoted text), and is the likely cause.
    """
    last = None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):  # tokens only: nothing is built
            if token.start_mark.index > mark.index:
                break
            if isinstance(token, yaml.ScalarToken) and token.style in ('"', "'"):
                last = token
    except yaml.YAMLError:
        pass
    if last is None or last.end_mark.line != mark.line or last.end_mark.index > mark.index:
        return None
    between = text[last.end_mark.index:mark.index]
    if last.start_mark.line == last.end_mark.line and between.strip():
        return None  # something else stands between the quote and the error
    return last


__all__ = [
    "MAX_DEPTH", "MAX_FILE_BYTES", "REFUSED_RAW", "Document", "MappingNode", "RefusedYAML",
    "ScalarNode", "SequenceNode", "StrictLoader", "describe_char", "load_document", "location_of",
    "printable", "read_capped",
]
