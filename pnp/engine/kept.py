"""Kept answers: a kind, a key and the work that answers it in; the answer, from the user's
cache or this process's memory when the same key was answered before, else from the work.

`kept(kind, key, work)` is the one way a stage's answer is kept between checks: the key is
a digest of everything the work reads (the caller makes it with `value_digest` over the
values it hands the work; files are never part of a value, so a stage that reads files keeps
nothing this way). The answer is written to the store's folder for `kind`, named for pnp's
whole installation (pnp.engine.store), so a change to pnp's code starts afresh, and is held
in memory for the process's next checks (a watch, a release's builds). No key (`--no-cache`,
or a value `digest` cannot key) does the work and keeps nothing. Each kind that uses it says in its caller's
docstring what keeping it is worth.
"""

from __future__ import annotations

from typing import Callable, TypeVar

from . import store
from .memo import value_digest

T = TypeVar("T")

# The last answers of each kind this process gave: a watch or a release checks one game again
# and again, and a game's answer is small.
_HELD_PER_KIND = 8
_held: dict[str, dict[str, object]] = {}


def kept(kind: str, key: str | None, work: Callable[[], T]) -> T:
    """The answer to `work()` kept under (`kind`, `key`), or `work()`'s, which is kept; with
    no key, `work()`'s, kept nowhere."""
    if key is None:
        return work()
    held = _held.setdefault(kind, {})
    if key in held:
        return held[key]  # type: ignore[return-value]
    where = store.folder(kind)
    found = store.read_value(where, key)
    if found is None:
        found = work()
        store.write_value(where, key, found)
    while len(held) >= _HELD_PER_KIND:
        held.pop(next(iter(held)))
    held[key] = found
    return found


def digest(value) -> str | None:
    """A key for `value` (`value_digest`), or None when it cannot be pickled exactly: such a
    value's work is done every time."""
    try:
        return value_digest(value)
    except store.UNPICKLABLE:
        return None


__all__ = ["kept", "digest"]
