"""Findings: what every stage reports instead of raising.

In: a location in a content file, a rule id and a message. Out: one printable line per problem,
sorted by file and line, so a designer sees every problem at once and never a traceback.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from pathlib import Path


# What a terminal would act on instead of showing: C0 and C1 controls (ESC starts a sequence
# that can recolour, retitle or clear the screen), and the bidirectional controls that make a
# line read in another order than it is written.
_TERMINAL_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                              "\u2066-\u2069\u2028\u2029]")
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """`text` with every character a terminal would act on written as an escape (\\x1b)."""
    return _TERMINAL_UNSAFE.sub(lambda m: ascii(m.group())[1:-1], text)


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Location:
    """A place in a content file; line and column count from 1, as editors do. In a
    spreadsheet, `sheet` names the sheet, and line and column are a cell's row and column,
    shown as a spreadsheet names the cell: `cards.xlsx:Cards!B7`."""

    path: str
    line: int = 0
    column: int = 0
    sheet: str = ""

    def __str__(self) -> str:
        if self.sheet:
            sheet = self.sheet if re.fullmatch(r"\w+", self.sheet) else \
                "'" + self.sheet.replace("'", "''") + "'"
            if not self.line:
                return f"{self.path}:{sheet}"
            return f"{self.path}:{sheet}!{column_letters(self.column)}{self.line}"
        if not self.line:
            return self.path
        return f"{self.path}:{self.line}:{self.column}"


def column_letters(column: int) -> str:
    """A spreadsheet column's letters from its number: 1 -> A, 27 -> AA."""
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


NOWHERE = Location("<unknown>")

MAX_WORD = 120  # characters of one word (no spaces) shown in a message; longer ones are cut
_LONG_WORD = re.compile(r"[^\s'\"`,;:()\[\]{}<>]{%d,}" % (MAX_WORD + 1))


def cap_words(text: str) -> str:
    """`text` with every word longer than MAX_WORD cut, so one line stays readable.

    A 5,000-character word quoted from content (or typed on the command line) keeps its start
    and end and says how long it was.
    """
    def cut(match: re.Match) -> str:
        word = match.group()
        return f"{word[:80]}...{word[-20:]} [{len(word)} characters]"

    return _LONG_WORD.sub(cut, text)


@dataclass(frozen=True)
class Finding:
    rule: str
    severity: Severity
    where: Location
    message: str
    subject: str = ""  # the card or component concerned, e.g. 'event 12 "Overnight Bail Out"'
    field: str = ""  # the field path inside the subject, e.g. 'effect'
    hint: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def sort_key(self) -> tuple:
        return (self.where.path, self.where.line, self.where.column, self.rule, self.message)

    def format(self) -> str:
        """The one-line form: location first, then what, then the rule id."""
        parts = [f"{self.where}: {self.severity.value}:"]
        if self.subject:
            parts.append(f"{self.subject}:")
        if self.field:
            parts.append(f"{self.field}:")
        parts.append(self.message)
        line = " ".join(parts)
        if self.hint:
            line += f"; {self.hint}"
        return terminal_safe(f"{cap_words(line)} (rule {self.rule})")

    def as_dict(self) -> dict:
        return {
            "rule": self.rule,
            "severity": self.severity.value,
            "file": self.where.path,
            "line": self.where.line,
            "column": self.where.column,
            "subject": self.subject,
            "field": self.field,
            "message": self.message,
            "hint": self.hint,
            # Only for a spreadsheet: line and column are then the cell's row and column.
            **({"sheet": self.where.sheet} if self.where.sheet else {}),
        }


@dataclass
class Findings:
    """An append-only collection that every stage writes into."""

    items: list[Finding] = field(default_factory=list)

    def add(self, finding: Finding) -> None:
        self.items.append(finding)

    def error(self, rule: str, where: Location, message: str, **extra) -> None:
        self.add(Finding(rule, Severity.ERROR, where, message, **extra))

    def warning(self, rule: str, where: Location, message: str, **extra) -> None:
        self.add(Finding(rule, Severity.WARNING, where, message, **extra))

    def extend(self, other: "Findings | list[Finding]") -> None:
        self.items.extend(other.items if isinstance(other, Findings) else other)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.items if f.is_error]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.items if not f.is_error]

    def sorted(self) -> list[Finding]:
        # A set first: the same problem reached by two routes is reported once.
        return sorted(set(self.items), key=Finding.sort_key)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):
        return iter(self.items)


PACKAGE = Path(__file__).resolve().parent  # pnp's own files: its templates, layouts, fonts


def display_path(path: Path, root: Path) -> str:
    """The path as the user should read it: relative to the project root when inside it, by
    its package path (pnp/data/templates/tuckbox.svg.j2) when it is one of pnp's own files,
    wherever pnp is installed; any control character in it escaped (a folder's name is
    content too)."""
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):  # a path that cannot be read
        return terminal_safe(path.as_posix())
    for base, prefix in ((root, ""), (PACKAGE, "pnp/")):
        try:
            return terminal_safe(prefix + resolved.relative_to(base.resolve()).as_posix())
        except (ValueError, OSError, RuntimeError):  # outside this folder
            continue
    return terminal_safe(path.as_posix())
