"""Text fitting: a string, a box and a font in; wrapped lines at the largest size that fits out.

Text wraps greedily at spaces with the real advance widths of its font, each `**bold**` or
`*italic*` part (pnp.render.emphasis) and each fallback character in the face that draws it.
If it does not fit at the preferred size it shrinks in quarter points down to the template's
minimum. Inline tokens such as `{red}` become icons one em wide. The result says whether it
fits and, if not, by how many lines and millimetres, so `pnp check` can say exactly how much to
cut.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..fonts import Metrics
from .emphasis import BOLD, ITALIC, styled_parts

TOKEN = re.compile(r"\{([a-z][a-z0-9-]*)\}")
SIZE_STEP_PT = 0.25
ICON_EM = 0.95  # icon width as a fraction of the font size
ICON_GAP_EM = 0.08


@dataclass(frozen=True)
class Run:
    """A piece of one line: text, or an icon (then `icon` names it and `text` is empty)."""

    x_mm: float
    width_mm: float
    text: str = ""
    icon: str = ""
    style: int = 0  # emphasis: 0 regular, 1 bold, 2 italic, 3 both (pnp.render.emphasis)


@dataclass(frozen=True)
class Fit:
    size_pt: float
    leading: float
    lines: tuple[tuple[Run, ...], ...]
    line_widths_mm: tuple[float, ...]
    fits: bool
    overflow_mm: float  # how far the text runs past the bottom of the box (0 when it fits)
    overflow_lines: int  # how many lines do not fit
    too_wide: str  # a single word wider than the box, if any

    vertical: tuple[float, float] = (0.0, 0.0)  # the font's ascent and descent per point of size

    @property
    def height_mm(self) -> float:
        return _height_mm(len(self.lines), self.size_pt, self.leading, self.vertical)


def pieces(word: str) -> list[tuple[str, str]]:
    """Split a word into ('text', s) and ('icon', name) pieces."""
    out: list[tuple[str, str]] = []
    pos = 0
    for match in TOKEN.finditer(word):
        if match.start() > pos:
            out.append(("text", word[pos: match.start()]))
        out.append(("icon", match.group(1)))
        pos = match.end()
    if pos < len(word):
        out.append(("text", word[pos:]))
    return out


def word_parts(word: str) -> list[tuple[str, str, int]]:
    """A word's ('text', s, style) and ('icon', name, style) parts: its pieces, with the
    emphasis each is drawn in (a style carries on past an icon)."""
    out: list[tuple[str, str, int]] = []
    style = 0
    for kind, value in pieces(word):
        if kind == "icon":
            out.append((kind, value, style))
            continue
        for style, text in styled_parts(value, style):
            if text:
                out.append((kind, text, style))
    return out


def styled_metrics(font: Metrics, style: int) -> Metrics:
    """The face emphasis draws in; the role's own face when its family has no such face
    (the renderer reports that)."""
    if not style:
        return font
    return font.styled(bool(style & BOLD), bool(style & ITALIC)) or font


def word_width_mm(word: str, font: Metrics, size_pt: float, icon_mm: float) -> float:
    """A word's width: each text part measured in the face that draws it, icons `icon_mm`."""
    return sum(icon_mm if kind == "icon" else styled_metrics(font, style).width_mm(s, size_pt)
               for kind, s, style in word_parts(word))


def space_after_mm(word: str, font: Metrics, size_pt: float) -> float:
    """The space after a word: drawn in the run the word ends, so in that part's face."""
    parts = word_parts(word)
    return styled_metrics(font, parts[-1][2] if parts else 0).width_mm(" ", size_pt)


def tokens_in(text: str) -> list[str]:
    return TOKEN.findall(text)


def _height_mm(lines: int, size_pt: float, leading: float, vertical: tuple[float, float]) -> float:
    ascent, descent = vertical
    size_mm = size_pt * 25.4 / 72
    if lines == 0:
        return 0.0
    return (ascent + descent) * size_mm + (lines - 1) * leading * size_mm


def wrap(text: str, font: Metrics, size_pt: float, width_mm: float):
    """Greedy line breaking; returns (lines of words, widest single word that cannot fit)."""
    icon = (ICON_EM + 2 * ICON_GAP_EM) * size_pt * 25.4 / 72
    lines: list[list[tuple[str, float]]] = []
    too_wide = ""
    for paragraph in text.split("\n"):
        line: list[tuple[str, float]] = []
        used = 0.0
        for word in paragraph.split():
            w = word_width_mm(word, font, size_pt, icon)
            if w > width_mm + 1e-9 and not too_wide:
                too_wide = word
            extra = w if not line else used + space_after_mm(line[-1][0], font, size_pt) + w
            if line and extra > width_mm + 1e-9:
                lines.append(line)
                line, used = [(word, w)], w
            else:
                line.append((word, w))
                used = extra
        lines.append(line)
    return lines, too_wide


def place(lines, font: Metrics, size_pt: float, width_mm: float, align: str):
    """Turn lines of words into runs with x positions (relative to the box's left edge)."""
    icon = ICON_EM * size_pt * 25.4 / 72
    gap = ICON_GAP_EM * size_pt * 25.4 / 72
    placed, widths = [], []
    for words in lines:
        total = sum(w for _, w in words) + sum(space_after_mm(word, font, size_pt)
                                               for word, _ in words[:-1])
        x = {"left": 0.0, "center": (width_mm - total) / 2, "right": width_mm - total}[align]
        runs: list[Run] = []
        text, text_x, text_style = "", x, 0
        for i, (word, _) in enumerate(words):
            if i:
                text += " " if text else ""
                x += space_after_mm(words[i - 1][0], font, size_pt)
            for kind, value, style in word_parts(word):
                if kind == "text":
                    if style != text_style:  # a run is drawn in one face
                        if text.strip():
                            runs.append(Run(text_x, x - text_x, text=text.rstrip(),
                                            style=text_style))
                        text, text_style = "", style
                    if not text:
                        text_x = x
                    text += value
                    x += styled_metrics(font, style).width_mm(value, size_pt)
                else:
                    if text.strip():
                        runs.append(Run(text_x, x - text_x, text=text.rstrip(),
                                        style=text_style))
                    text = ""
                    runs.append(Run(x + gap, icon, icon=value))
                    x += icon + 2 * gap
        if text.strip():
            runs.append(Run(text_x, x - text_x, text=text.rstrip(), style=text_style))
        placed.append(tuple(runs))
        widths.append(total)
    return tuple(placed), tuple(widths)


def fit_text(text: str, font: Metrics, width_mm: float, height_mm: float, size_pt: float,
             min_pt: float, leading: float = 1.2, align: str = "left") -> Fit:
    """The largest size from `size_pt` down to `min_pt` at which `text` fits the box."""
    vertical = (font.ascent, font.descent)
    size = size_pt
    while True:
        lines, too_wide = wrap(text, font, size, width_mm)
        height = _height_mm(len(lines), size, leading, vertical)
        fits = not too_wide and height <= height_mm + 1e-9
        if fits or size - SIZE_STEP_PT < min_pt - 1e-9:
            break
        size -= SIZE_STEP_PT
    overflow_mm = max(height - height_mm, 0.0)
    size_mm = size * 25.4 / 72
    capacity = 0 if height_mm < (vertical[0] + vertical[1]) * size_mm else (
        math.floor((height_mm - (vertical[0] + vertical[1]) * size_mm) / (leading * size_mm)
                   + 1e-9) + 1)
    runs, widths = place(lines, font, size, width_mm, align)
    return Fit(size, leading, runs, widths, fits, overflow_mm,
               max(len(lines) - capacity, 0), too_wide, vertical)
