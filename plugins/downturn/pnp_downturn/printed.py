"""The readings the arithmetic fixes, against the words the kit prints: a Downturn game in,
findings out.

`arith` decides four questions the rules leave open (the dividend counts permanent cubes, the
cleanup limit counts cubes only, a Stability move stops at the track's end, setup bags red,
yellow and green cubes only). A player reads none of that code, so each reading must be printed
where the player looks for it; `printed-readings` finds the reading's words in that text and
reports the text's line when they are missing.
"""

from __future__ import annotations

from typing import Any, Iterator

from pnp.findings import Finding
from pnp.rules.registry import problem, rule

from .arith import BAGGED, CLEANUP_LIMIT_COUNTS, DIVIDEND_COUNTS, STABILITY_STOPS

PLUGIN = "downturn"

# (aid entry name, the words it must say, the reading they print)
AID_READINGS = (
    ("Profitable", DIVIDEND_COUNTS, "a bank's dividend counts its permanent cubes only (A4)"),
    ("Bankrupt", DIVIDEND_COUNTS, "a bank's dividend counts its permanent cubes only (A4)"),
    ("Cleanup", CLEANUP_LIMIT_COUNTS, "at cleanup a bank's limit counts cubes only (A5)"),
    ("Stability", STABILITY_STOPS, "a Stability move stops at the track's end (A10)"),
)


def _entries(model: Any) -> Iterator[Any]:
    for aid in model.aid_texts.aids:
        for side in (aid.front, aid.back):
            for section in side.sections:
                yield from section.entries


@rule("printed-readings", PLUGIN, "the aids and the board print the readings the plug-in computes")
def _printed_readings(model: Any) -> Iterator[Finding]:
    entries = list(_entries(model))
    for name, words, reading in AID_READINGS:
        found = [entry for entry in entries if entry.name == name]
        if not found:
            yield problem("printed-readings", model.aid_texts.where.at,
                          f"no aid entry '{name}' prints that {reading}", subject="aids",
                          hint=f"add an entry '{name}' saying '{words}'")
        for entry in found:
            if words not in entry.text:
                yield problem("printed-readings", entry.where.of("text"),
                              f"the plug-in computes that {reading}, but the text does not "
                              f"say '{words}'", subject=entry.label, field="text",
                              hint="players read the aid, not the plug-in: say it there")
    left_out = [colour for colour in ("blue", "black")
                if colour not in BAGGED and getattr(model.components.cubes, colour)]
    setup = model.board.setup
    for colour in left_out:
        if colour == "blue" and "blue cube stays in the box" not in setup:
            yield problem("printed-readings", model.board.where.of("setup"),
                          "setup bags red, yellow and green cubes only, but the board's setup "
                          "does not say the blue cube stays in the box", subject="board",
                          field="setup", hint="say 'the blue cube stays in the box' in step 4")
