"""Kept rows: a data file's validation in (its records, the findings and the items it had to
leave out); the same, from an earlier check that read the same bytes under the same manifest,
out.

A large card list is mostly read and validated again on every check, though a save usually
changes one of its files. A file's validation depends on its bytes, on the manifest (the
fields it is validated against, the labels findings name items by), on where pnp runs
(findings name files relative to it), on the limits a person may raise (a file's size and
a list's items, pnp.load.limits) and on pnp itself: the key is a SHA-256 over all of them,
so an entry is used again only where validating again would give the same answer. Records
are kept as plain values (their type's name and fields) and made again as this run's record
types, which pickle cannot name across processes. Entries live in the user's cache
(pnp.cache.store, as pnp.cache.values keeps them), capped and pruned with the rest;
`--no-cache` neither reads nor writes them.

Why: on a 30,000-card deck in four files, a check after one row was edited spent about 0.7 s
reading and validating the three files that had not changed (0.3 s a file, and passing the
records between processes); taking them as kept costs about 0.09 s a file. (Keeping them
gained little while Python's collector passed over every record each time their number grew
by a quarter: pnp.collector.)
"""

from __future__ import annotations

import hashlib
import os

from . import store, values

FORMAT = 2  # 2: the entry as pnp.cache.values.write_value keeps it
KIND = "rows"


class RowCache:
    """The kept validations of one game's data files, under one manifest."""

    def __init__(self, manifest_answer: str, limits: tuple[int, ...]) -> None:
        """`manifest_answer`: what reading game.yaml gave (pnp.reads: its size and digest);
        `limits`: the limits validation applies, as set where pnp runs (pnp.load.limits)."""
        self.folder = store.folder(KIND, "cache/rows.py")
        self.common = hashlib.sha256("\0".join([
            str(FORMAT), store.installation(), os.getcwd(), manifest_answer,
            *map(str, limits)]).encode("utf-8", "surrogatepass")).hexdigest()

    def key(self, file_answer: str, *what: str) -> str:
        """The key of one file's validation: what reading it gave, and `what` it was read as
        (its shown path, the table's name, its shape, a workbook's sheet)."""
        return hashlib.sha256("\0".join([self.common, file_answer, *what]).encode(
            "utf-8", "surrogatepass")).hexdigest()

    def recall(self, key: str):
        """The plain validation kept under `key`, or None."""
        return values.read_value(self.folder, key, FORMAT)

    def keep(self, key: str, kept) -> None:
        """Keep a plain validation (one pickle cannot write is not kept: the next check only
        validates again)."""
        values.write_value(self.folder, key, FORMAT, kept)


__all__ = ["RowCache"]
