"""Limits: how large a content file may be and how many items one deck may hold, and how a
person raises them.

They are sized for real card lists (a 1.4 MB card database export, a deck of 6,598 cards at
its real quantities) with room to spare, and stop a runaway `each` or a hostile file long
before it costs gigabytes. They are chosen by whoever runs pnp, in the environment, never by
the content being checked (as rules plug-ins are chosen by whoever installed them):

    PNP_MAX_FILE_MB  the largest content file (YAML or CSV), in megabytes; default 50
    PNP_MAX_ITEMS    the most items one deck may hold; default 100000

Every finding that meets a limit names it and says how to raise it.
"""

from __future__ import annotations

import os

FILE_MB_VARIABLE = "PNP_MAX_FILE_MB"
ITEMS_VARIABLE = "PNP_MAX_ITEMS"
DEFAULT_FILE_MB = 50
DEFAULT_ITEMS = 100_000


def _setting(variable: str, default: int) -> int:
    text = os.environ.get(variable, "").strip()
    return int(text) if text.isdigit() and int(text) > 0 else default


def max_file_bytes() -> int:
    """The largest content file read, in bytes."""
    return _setting(FILE_MB_VARIABLE, DEFAULT_FILE_MB) * 1_000_000


def max_items() -> int:
    """The most items one deck may hold."""
    return _setting(ITEMS_VARIABLE, DEFAULT_ITEMS)


def file_limit_hint(size_bytes: int) -> str:
    needed = -(-size_bytes // 1_000_000)
    return (f"if the file is right, raise the limit: set {FILE_MB_VARIABLE}={needed} (or more) "
            "in the environment; else split it")


def items_limit_hint(count: int) -> str:
    return (f"if the count is right, raise the limit: set {ITEMS_VARIABLE}={count} (or more) "
            "in the environment")


__all__ = ["DEFAULT_FILE_MB", "DEFAULT_ITEMS", "FILE_MB_VARIABLE", "ITEMS_VARIABLE",
           "file_limit_hint", "items_limit_hint", "max_file_bytes", "max_items"]
