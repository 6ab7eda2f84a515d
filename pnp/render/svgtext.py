"""SVG text: a `<text>` element in; its runs of words (its own, each child's, the words after
each child) with white space as cairosvg keeps it, and where each run's glyphs go, out.

cairosvg draws a `<text>` run by run (cairosvg.parser.Node.text_children, cairosvg.text.text):
each `<tspan>` in its own font and size, starting where the previous run left the cursor
unless it gives its own x and y, each run aligned by its own text-anchor. These follow it so
the print-safety checks (pnp.render.drawn) measure each run where it prints; the glyphs are
measured by the caller's advance widths.
"""

from __future__ import annotations

import re
from typing import Callable

from .svgtree import Element

Placed = tuple[float, float, float]  # left, right and baseline of glyphs placed together


def text_runs(element: Element, preserve: bool, trailing: bool, root: bool
              ) -> tuple[str, list, bool]:
    """An element's own words and its children's, white space kept or dropped as cairosvg
    keeps it: (words, [(child or None for the words after it, words, its children)],
    whether the last words end in a space)."""
    own = white_space(element.text, preserve)
    if trailing and not preserve:
        own = own.lstrip(" ")
    if own:
        trailing = own.endswith(" ")
    children: list = []
    for child in element.children:
        kept = child.attributes.get("xml:space")
        child_preserve = kept == "preserve" if kept else preserve
        words, inner, trailing = text_runs(child, child_preserve, trailing, False)
        trailing = words.endswith(" ")
        children.append((child, words, inner))
        if child.tail:
            after = white_space(child.tail, preserve)
            if trailing and not preserve:
                after = after.lstrip(" ")
            if after:
                trailing = after.endswith(" ")
            children.append((None, after, []))
    if root and not children and not preserve:
        own = own.rstrip(" ")
    return own, children, trailing


class Cursor:
    """Where a `<text>`'s next glyph goes and the dx/dy offset carried on, in user units,
    moved run by run as cairosvg moves it."""

    def __init__(self) -> None:
        self.at = [0.0, 0.0]
        self.shift = [0.0, 0.0]

    def skip(self, xs: list[float], ys: list[float], dxs: list[float], dys: list[float]
             ) -> None:
        """A run with no words: only its position counts."""
        x = xs[0] if xs else self.at[0]
        y = ys[0] if ys else self.at[1]
        self.at = [x + (dxs[0] if dxs else 0.0), y + (dys[0] if dys else 0.0)]

    def place(self, words: str, positions: tuple[list[float], ...], width: float,
              spacing: float, align: float, rise: float, advance: Callable[[str], float]
              ) -> list[Placed]:
        """Where a run's glyphs go: `positions` its x, y, dx and dy lists, `width` its
        advance, `align` its anchor's shift, `rise` its baseline's; `advance` measures one
        glyph (only for glyphs placed one by one)."""
        xs, ys, dxs, dys = (list(values) for values in positions)
        if len(xs) <= 1 and len(ys) <= 1 and not dxs and not dys:  # the run in one piece
            self._reset(xs[0] if xs else None, ys[0] if ys else None)
            x = xs[0] if xs else self.at[0]
            y = ys[0] if ys else self.at[1]
            gaps = spacing * (len(words) - 1)
            left = x + self.shift[0] + align
            self.at = [x + width + gaps, y]
            return [(left, left + width + gaps, y + self.shift[1] + rise)]
        placed = []
        for i, letter in enumerate(words):
            x = xs.pop(0) if xs else None
            y = ys.pop(0) if ys else None
            self._reset(x, y)
            self.shift[0] += dxs.pop(0) if dxs else 0.0
            self.shift[1] += dys.pop(0) if dys else 0.0
            step = advance(letter)
            x = self.at[0] if x is None else x
            y = self.at[1] if y is None else y
            if i:
                x += spacing
            left = x + self.shift[0] + align
            placed.append((left, left + step, y + self.shift[1] + rise))
            self.at = [x + step, y]
        return placed

    def _reset(self, x: float | None, y: float | None) -> None:
        # As cairosvg: a position of 0 does not reset the offset.
        if x:
            self.shift[0] = 0.0
        if y:
            self.shift[1] = 0.0


def baseline_rise(baseline: str | None, ascent: float, descent: float) -> float:
    """How far cairosvg moves a run down for its baseline alignment (cairosvg.text)."""
    if not baseline:
        return 0.0
    if baseline in ("central", "middle"):
        return (ascent - descent) / 2
    if baseline in ("text-before-edge", "before_edge", "top", "hanging", "text-top"):
        return ascent
    if baseline in ("text-after-edge", "after_edge", "bottom", "text-bottom"):
        return -descent
    return 0.0


def white_space(text: str, preserve: bool) -> str:
    """Text as cairosvg keeps it (cairosvg.parser.handle_white_spaces)."""
    if not text:
        return ""
    if "  " not in text and not any(c in text for c in "\n\r\t"):
        return text
    if preserve:
        return re.sub("[\n\r\t]", " ", text)
    text = re.sub("[\n\r]", "", text)
    return re.sub(" +", " ", text.replace("\t", " "))
