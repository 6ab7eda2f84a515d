"""Kept values: a value in, pickled under a key in a kind's folder of the store
(pnp.cache.store), with the format it was kept in; the same value out, for the same key and
format. For what a run works out that depends only on its key (a data file's validation, a
deck's imposition). Kept apart from the store, which the console script loads before anything
else: the store loads no pickle.
"""

from __future__ import annotations

import pickle
from pathlib import Path

from . import store

# What pickling a value that cannot be written exactly raises.
UNPICKLABLE = (pickle.PicklingError, TypeError, AttributeError, RecursionError)


def read_value(where: Path | None, key: str, form: int):
    """The value `write_value` kept under `key` in format `form`, or None (also for an entry
    that cannot be unpickled, or kept by another format)."""
    data = store.read(where, key)
    if data is None:
        return None
    try:
        entry = pickle.loads(data)
        return entry["value"] if entry["format"] == form and entry["key"] == key else None
    except Exception:  # noqa: BLE001 - an unreadable entry only costs the work again
        return None


def write_value(where: Path | None, key: str, form: int, value) -> None:
    """Keep `value` pickled under `key` (best effort): a value pickle cannot write is not
    kept, and the work is done again next time."""
    try:
        data = pickle.dumps({"format": form, "key": key, "value": value},
                            pickle.HIGHEST_PROTOCOL)
    except UNPICKLABLE:
        return
    store.write(where, key, data)


__all__ = ["UNPICKLABLE", "read_value", "write_value"]
