"""Progress: counts of work done in; one self-rewriting status line on a terminal out.

Shown only on an interactive terminal, never in CI (`CI` set) or when stderr is piped or
redirected, and only once a build has run for SHOW_AFTER_S, so a quick build prints nothing
but its result. The line names the game it draws (`pnp build: downturn: drawing [###...]
12/40 pages`), and is cleared when the work ends, before anything else is printed.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

SHOW_AFTER_S = 1.0


def wanted(stream: TextIO) -> bool:
    if os.environ.get("CI") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """`update(done, total)` as work finishes; `close()` when it ends."""

    def __init__(self, what: str, stream: TextIO | None = None, *, enabled: bool | None = None,
                 show_after_s: float | None = None) -> None:
        self.what = what
        self.stream = stream or sys.stderr
        self.enabled = wanted(self.stream) if enabled is None else enabled
        self.started = time.monotonic()
        self.show_after_s = SHOW_AFTER_S if show_after_s is None else show_after_s
        self.shown = False

    def update(self, done: int, total: int) -> None:
        if not self.enabled or time.monotonic() - self.started < self.show_after_s:
            return
        width = 24
        filled = width * done // max(total, 1)
        line = (f"\r{self.what}: drawing [{'#' * filled}{'.' * (width - filled)}] "
                f"{done}/{total} pages")
        self.stream.write(line)
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
