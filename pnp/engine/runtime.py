"""Python's cyclic garbage collector, told which of a check's objects last until it ends.

A check of a large deck makes millions of small objects that live as long as the command:
the game's records (each with the file:line of every field), and the faces and page plans
of its sheets, drawn or read back from the sheet cache. The collector passes over every
object it tracks each time their number has grown by a quarter since its last full pass,
and once more as the process ends. None of these passes frees any of them. On a 30,000-card
deck those passes were about 40 % of a check after one edited row (1.9 s of the lead
process's time, and 0.7 s of leaving), and half the CPU time of reading its rows.

So what a check keeps is made with the collector paused (`lasting`): reading rows and
validating them, and reading kept parts back, make trees of values that refer to one
another without cycles, freed by their reference counts as soon as they are dropped (the
cycles that drawing with Jinja makes are not made there: the collector runs while sheets are
drawn). Then everything the process holds is frozen (`gc.freeze`): later passes, in this
process and in the processes forked from it to draw, skip it, and the forked processes leave
its memory pages shared. `release` gives what an earlier check froze back to the collector
before the next check freezes what it keeps; `pnp watch` also collects then (`collect`), so
each round frees what the last one no longer holds. A check does not collect by itself: a full
pass over a long-lived process's every object at every check (a test run's) cost more than
the check.

Kept for: an edited 30,000-card check took 4.9-5.1 s with the collector left alone and
2.3-2.8 s with it paused and frozen (about 2x, measured when it was added).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def lasting() -> Iterator[None]:
    """Make what lasts until the check ends: the collector paused while it is made, and
    everything this process holds frozen afterwards."""
    global _frozen
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        _frozen = True
        if paused:
            gc.enable()


def release(collect: bool = False) -> None:
    """Give what earlier checks froze back to the collector (before a new check freezes
    what it keeps); with `collect`, free now what of it is no longer used. Nothing frozen
    here: nothing to do (counting the frozen objects would walk them all)."""
    global _frozen
    if _frozen:
        gc.unfreeze()
        _frozen = False
        if collect:
            gc.collect()


_frozen = False  # whether `lasting` has frozen what this process holds since `release`


__all__ = ["lasting", "release"]
