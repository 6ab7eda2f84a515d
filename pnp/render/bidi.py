"""Bidirectional text: one line of a text box's runs in the order they were written in; the
same runs in the order they print, left to right, out.

cairo draws a string's characters one after another from left to right, so Hebrew or Arabic
written into a card printed backwards. Lines are broken in the order the text is written
(pnp.render.textfit), then each line is put in the order it prints by the Unicode
bidirectional algorithm (UAX #9, rules L1-L2 on the line), which python-bidi implements: a
right-to-left word, a number inside it, an English name inside a Hebrew sentence each land
where a reader expects them. A line in one face is reordered as a whole. A line of several
runs (emphasis, a fallback face, icons) has each run reordered within itself, and when the
line reads right to left (its first letter is of a right-to-left script) the runs' order is
mirrored within the line too.

Arabic letters are not joined here (cairo's text API does not shape): each prints in the form
the font gives its code point.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

# Characters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, NKo, ... and their
# presentation forms): a line without any needs no reordering, and python-bidi is not loaded.
_RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe"
                            "\U00010800-\U00010fff\U0001e800-\U0001efff]")


def has_right_to_left(text: str) -> bool:
    return _RIGHT_TO_LEFT.search(text) is not None


def visual(text: str) -> str:
    """`text`, one line, in the order its characters print from left to right."""
    if not has_right_to_left(text):
        return text
    from bidi import get_display

    return get_display(text)


def reads_right_to_left(text: str) -> bool:
    """Whether the first strong character of `text` is of a right-to-left script (UAX #9, P2)."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


def printed_order(runs: tuple) -> tuple:
    """A line's runs (pnp.render.textfit.Run) in the order they print."""
    if not any(run.text and has_right_to_left(run.text) for run in runs):
        return runs
    leftward = reads_right_to_left("".join(run.text for run in runs))
    runs = tuple(replace(run, text=visual(run.text)) if run.text else run for run in runs)
    if len(runs) < 2 or not leftward:
        return runs
    start = min(run.x_mm for run in runs)
    end = max(run.x_mm + run.width_mm for run in runs)
    return tuple(replace(run, x_mm=start + end - run.x_mm - run.width_mm)
                 for run in reversed(runs))
