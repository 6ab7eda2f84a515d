"""What a piece of work read: the reads pnp.reads notes while it runs in; a `Record` of them
(path -> answer) out, and whether every one gives the same answer now (`Answers`).

A result made by some work is true again for as long as every read in its record gives the
same answer: that, not a list of inputs kept by hand, is what the kept sheets
(pnp.engine.memo) and the remembered answers (pnp.engine.answers) are kept with. A path read
twice with two different answers within one record (a file saved while it was being checked)
makes the record `mixed`: its work may be of either version, and is not kept. Records nest:
a read is noted in every record open at the time.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from .. import reads


class Record:
    """What one piece of work read: path -> answer."""

    def __init__(self) -> None:
        self.reads: dict[str, str] = {}
        self.mixed = False

    def add(self, path: str, answer: str) -> None:
        if self.reads.setdefault(path, answer) != answer:
            self.mixed = True

    def update(self, other: "Record") -> None:
        for path, answer in other.reads.items():
            self.add(path, answer)
        self.mixed = self.mixed or other.mixed


_OPEN: list[Record] = []  # the records open now, innermost last


@contextmanager
def recording() -> Iterator[Record]:
    """A record of every read made until the block ends (nested records see them too)."""
    record = Record()
    _OPEN.append(record)
    try:
        with reads.listening(record.add):
            yield record
    finally:
        _OPEN.remove(record)


def note_all(found: dict[str, str], mixed: bool = False) -> None:
    """Reads another process made for this one (a worker's), into every open record."""
    for path, answer in found.items():
        reads.note(path, answer)
    if mixed:
        for record in _OPEN:
            record.mixed = True


class Answers:
    """What reads find now, each path read once however many records ask about it. A path
    this run has read itself (`known`) has the answer the run is working from."""

    def __init__(self, known: Record | None = None) -> None:
        self.known = dict(known.reads) if known else {}
        self.found: dict[tuple[str, int], str] = {}

    def same(self, found_then: dict[str, str]) -> bool:
        """Whether every read gives the answer it gave then."""
        for path, recorded in found_then.items():
            found = self.known.get(path)
            if found is None:
                key = (path, reads.read_limit(recorded))
                found = self.found.get(key)
                if found is None:
                    found = self.found[key] = reads.answer(path, recorded)
            if found != recorded:
                return False
        return True


__all__ = ["Record", "recording", "note_all", "Answers"]
