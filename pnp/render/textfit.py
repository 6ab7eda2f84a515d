"""Text fitting: a string, a box and a font in; wrapped lines at the largest size that fits out.

Lines break where Unicode's line breaking rules allow (UAX #14, from uniseg): after spaces,
hyphens, slashes, dashes, soft hyphens and zero-width spaces, and between CJK characters,
so Japanese wraps without spaces. A soft hyphen (U+00AD) is invisible unless its line breaks
there, where it prints as a hyphen. A word wider than the whole box is hyphenated with
Pyphen's patterns for the text's language, where it has them. Widths are the real advance
widths of the bundled font. If the text does not fit at the preferred size it shrinks in
quarter points down to the template's minimum. Inline tokens such as `{red}` become icons one
em wide. A text fits when its ink does: the glyphs its last line prints (pnp.render.glyphdepth),
not the deepest glyph the font has, must end inside the box. The result says whether it fits
and, if not, by how many lines and millimetres, so `pnp check` can say exactly how much to cut.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..fonts import Metrics
from ..load.schema import ICON_NAME
from .glyphdepth import glyph_depths

TOKEN = re.compile(r"\{(" + ICON_NAME.pattern + r")\}")  # names as game.yaml declares them
SIZE_STEP_PT = 0.25
ICON_EM = 0.95  # icon width as a fraction of the font size
ICON_GAP_EM = 0.08
ICON_RISE_EM = 0.78  # an icon's top above the baseline
ICON_STROKE_EM = 0.06 * ICON_EM  # its outline's width (pnp/templates/icons.svg.j2)
DEFAULT_LANGUAGE = "en_US"
SOFT_HYPHEN = "\u00ad"
HYPHEN = "-"  # what a soft hyphen, or a break Pyphen found, prints at the end of a line
# Characters that mark where a line may break and print nothing themselves.
_INVISIBLE = str.maketrans("", "", "\u00ad\u200b\u2060\ufeff")
# An icon stands in the text as one private-use character while the text is broken: Unicode
# breaks those as letters, so an icon keeps to the word it is written in, as before.
_ICON = "\ue000"
_SPACES = re.compile(r"[ \t\r\f\v]+")
# A chunk between spaces made of these alone has no break opportunity inside (letters, digits,
# apostrophes, and quotes, brackets and stops around them): no need to ask the rules.
_PLAIN = re.compile(r"""["'(\[\u2018\u201c]*[A-Za-z0-9'\u2019]+["'\u2019\u201d.,;:!?)\]]*""")
_WORD = re.compile(r"[^\W\d_]{4,}")  # letters Pyphen may hyphenate
EPSILON_MM = 1e-9


@dataclass(frozen=True)
class Run:
    """A piece of one line: text, or an icon (then `icon` names it and `text` is empty)."""

    x_mm: float
    width_mm: float
    text: str = ""
    icon: str = ""


@dataclass(frozen=True)
class Fit:
    size_pt: float
    leading: float
    lines: tuple[tuple[Run, ...], ...]
    line_widths_mm: tuple[float, ...]
    fits: bool
    overflow_mm: float  # how far the ink runs past the bottom of the box (0 when it fits)
    overflow_lines: int  # how many lines' ink does not fit
    too_wide: str  # a word wider than the box that no break opportunity narrows, if any

    vertical: tuple[float, float] = (0.0, 0.0)  # the font's ascent and descent per point of size
    # The part of `too_wide` that cannot be broken further (a hyphen or a soft hyphen inside
    # it would let it break); one character when the box is narrower than a character.
    unbreakable: str = ""
    ink_height_mm: float = 0.0  # from the box's top to the lowest glyph of any line

    @property
    def height_mm(self) -> float:
        return _height_mm(len(self.lines), self.size_pt, self.leading, self.vertical)


@dataclass(frozen=True)
class _Unit:
    """Text between two break opportunities, icons as _ICON; whether a space follows it."""

    text: str
    space_after: bool
    icons: tuple[str, ...]  # the icons' names, in order
    glyphs: str  # the characters it prints (icons and soft hyphens left out)
    soft: bool  # it ends in a soft hyphen: a hyphen prints if the line breaks after it


def _unit(text: str, space_after: bool, icons: tuple[str, ...] = ()) -> _Unit:
    return _Unit(text, space_after, icons, printed_text(text).replace(_ICON, ""),
                 text.endswith(SOFT_HYPHEN))


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


def tokens_in(text: str) -> list[str]:
    return TOKEN.findall(text)


def printed_text(text: str) -> str:
    """`text` without the characters that only mark breaks (they print nothing)."""
    return text.translate(_INVISIBLE)


def _height_mm(lines: int, size_pt: float, leading: float, vertical: tuple[float, float]) -> float:
    ascent, descent = vertical
    size_mm = size_pt * 25.4 / 72
    if lines == 0:
        return 0.0
    return (ascent + descent) * size_mm + (lines - 1) * leading * size_mm


# Break opportunities -------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def _chunk_breaks(chunk: str) -> tuple[int, ...]:
    """Offsets inside a chunk of text without spaces after which a line may break.

    uniseg takes about 0.25 ms a character, several times what fitting a whole text takes;
    asked per chunk, each distinct word of a deck is broken once, and plain words not at all.
    """
    if _PLAIN.fullmatch(chunk):
        return ()
    from uniseg.linebreak import line_break_boundaries

    return tuple(b for b in line_break_boundaries(chunk) if b < len(chunk))


@lru_cache(maxsize=8192)
def _breaks_at_space(before: str, after: str) -> bool:
    """Whether a line may break at the space between a chunk ending in `before` and one
    starting with `after`. The rules for a break after a space look at no more than the
    characters either side of it (no break before '!' or ')', nor after '(' and a space)."""
    if after[0].isascii() and after[0].isalnum() and before[-1] not in "([{":
        return True
    from uniseg.linebreak import line_break_boundaries

    return len(before) + 1 in set(line_break_boundaries(f"{before} {after}"))


@lru_cache(maxsize=8192)
def _paragraph_units(paragraph: str) -> tuple[tuple[str, bool], ...]:
    """A paragraph (single spaces, icons as _ICON) cut at every break opportunity, as
    (text, a space follows). Fitting tries many sizes and boxes for the same text; its break
    opportunities are found once."""
    units: list[list] = []
    chunks = paragraph.split(" ") if paragraph else []
    for i, chunk in enumerate(chunks):
        cuts = (0, *_chunk_breaks(chunk), len(chunk))
        parts = [chunk[a:b] for a, b in zip(cuts, cuts[1:])]
        if i and not _breaks_at_space(chunks[i - 1][-2:], chunk[:2]):
            units[-1][0] += " " + parts.pop(0)  # a space no line may break at
        elif i:
            units[-1][1] = True
        units += [[part, False] for part in parts]
    return tuple((text, space) for text, space in units)


@lru_cache(maxsize=8192)
def _units(paragraph: str) -> tuple[_Unit, ...]:
    """A paragraph as written (tokens, any spaces) cut at every break opportunity."""
    names = iter(TOKEN.findall(paragraph))
    shape = _SPACES.sub(" ", TOKEN.sub(_ICON, paragraph)).strip()
    return tuple(_unit(text, space, tuple(next(names) for _ in range(text.count(_ICON))))
                 for text, space in _paragraph_units(shape))


@lru_cache(maxsize=64)
def _hyphenator(language: str):
    import pyphen

    found = pyphen.language_fallback(language.replace("-", "_"))
    return pyphen.Pyphen(lang=found) if found else None


@lru_cache(maxsize=16384)
def _hyphenation_points(text: str, language: str) -> tuple[int, ...]:
    """Offsets in `text` where its language's patterns allow a hyphen."""
    hyphenator = _hyphenator(language)
    if hyphenator is None:
        return ()
    return tuple(match.start() + point for match in _WORD.finditer(text)
                 for point in hyphenator.positions(match.group()))


def _hyphenated(unit: _Unit, language: str) -> list[_Unit]:
    """A unit cut where its language hyphenates it, each cut ending in a soft hyphen."""
    points = _hyphenation_points(unit.text, language)
    if not points:
        return [unit]
    cuts = (0, *points, len(unit.text))
    parts = [unit.text[a:b] for a, b in zip(cuts, cuts[1:])]
    names = iter(unit.icons)
    return [_unit(part + ("" if last else SOFT_HYPHEN), unit.space_after if last else False,
                  tuple(next(names) for _ in range(part.count(_ICON))))
            for last, part in ((i == len(parts) - 1, part) for i, part in enumerate(parts))]


# Measuring and breaking ----------------------------------------------------------------------


class _Measure:
    """Widths at one size, in mm."""

    def __init__(self, font: Metrics, size_pt: float):
        self.font, self.size_pt = font, size_pt
        self.space = font.width_mm(" ", size_pt)
        self.hyphen = font.width_mm(HYPHEN, size_pt)
        self.icon = (ICON_EM + 2 * ICON_GAP_EM) * size_pt * 25.4 / 72

    def unit(self, unit: _Unit) -> float:
        return self.font.width_mm(unit.glyphs, self.size_pt) + len(unit.icons) * self.icon

    def alone(self, unit: _Unit) -> float:
        """The width of a line holding only this unit."""
        return self.unit(unit) + (self.hyphen if unit.soft else 0.0)

    def line(self, units) -> float:
        """The width a line of these units prints: spaces between them, and a hyphen after
        the last one if it ends in a soft hyphen."""
        if not units:
            return 0.0
        spaces = sum(1 for unit in units[:-1] if unit.space_after)
        hyphen = self.hyphen if units[-1].soft else 0.0
        return sum(self.unit(unit) for unit in units) + spaces * self.space + hyphen


def _break_paragraph(units: list[_Unit], unit_widths: list[float], measure: _Measure,
                     width_mm: float) -> list[list[_Unit]]:
    """Greedy: each line takes units while they fit and breaks at the last opportunity
    that fits (a soft hyphen's hyphen counted where the line breaks at it)."""
    # running sums: a line's width from any unit to any other in constant time
    widths, spaces = [0.0], [0]
    for unit, unit_width in zip(units, unit_widths):
        widths.append(widths[-1] + unit_width)
        spaces.append(spaces[-1] + unit.space_after)

    def width(start: int, end: int) -> float:
        return (widths[end] - widths[start] + (spaces[end - 1] - spaces[start]) * measure.space
                + (measure.hyphen if units[end - 1].soft else 0.0))

    limit = width_mm + EPSILON_MM
    lines: list[list[_Unit]] = []
    start = 0
    for end in range(1, len(units) + 1):
        while end - start > 1 and width(start, end) > limit:
            cut = next((k for k in range(end - 1, start, -1) if width(start, k) <= limit),
                       start + 1)
            lines.append(units[start:cut])
            start = cut
    lines.append(units[start:])
    return lines


def _shown(unit: _Unit) -> str:
    """A unit as the writer wrote it: icons as their tokens, no soft hyphen."""
    names = iter(unit.icons)
    return re.sub(_ICON, lambda _: "{" + next(names) + "}", printed_text(unit.text))


def wrap(text: str, font: Metrics, size_pt: float, width_mm: float,
         language: str = DEFAULT_LANGUAGE):
    """Lines of units at `size_pt`; the first word wider than the box that no break
    opportunity narrows enough (or ""); and its part that cannot be broken."""
    measure = _Measure(font, size_pt)
    lines: list[list[_Unit]] = []
    too_wide = unbreakable = ""
    limit = width_mm + EPSILON_MM
    for paragraph in text.split("\n"):
        units: list[_Unit] = []
        widths: list[float] = []
        for unit in _units(paragraph):
            width = measure.unit(unit)
            if width + (measure.hyphen if unit.soft else 0.0) <= limit:
                units.append(unit)
                widths.append(width)
                continue
            # wider than the box: hyphenated by the language's patterns, if it has them
            for part in _hyphenated(unit, language):
                units.append(part)
                widths.append(measure.unit(part))
                if measure.alone(part) > limit and not too_wide:
                    too_wide = _shown(unit) or HYPHEN  # a lone soft hyphen
                    unbreakable = _shown(part).removesuffix(HYPHEN)
        lines += _break_paragraph(units, widths, measure, width_mm)
    return lines, too_wide, unbreakable


def place(lines, font: Metrics, size_pt: float, width_mm: float, align: str):
    """Turn lines of units into runs with x positions (relative to the box's left edge)."""
    measure = _Measure(font, size_pt)
    icon = ICON_EM * size_pt * 25.4 / 72
    gap = ICON_GAP_EM * size_pt * 25.4 / 72
    placed, widths = [], []
    for units in lines:
        total = measure.line(units)
        x = {"left": 0.0, "center": (width_mm - total) / 2, "right": width_mm - total}[align]
        runs: list[Run] = []
        text, text_x = "", x
        for i, unit in enumerate(units):
            last = i == len(units) - 1
            shown = unit.text
            if last and shown.endswith(SOFT_HYPHEN):
                shown = shown[:-1] + HYPHEN
            shown = printed_text(shown) + (" " if unit.space_after and not last else "")
            names = iter(unit.icons)
            for j, part in enumerate(shown.split(_ICON)):
                if j:  # an icon before this part
                    if text.strip():
                        runs.append(Run(text_x, x - text_x, text=text.rstrip()))
                    text = ""
                    runs.append(Run(x + gap, icon, icon=next(names)))
                    x += icon + 2 * gap
                if part:
                    if not text:
                        text_x = x
                    text += part
                    x += font.width_mm(part, size_pt)
        if text.strip():
            runs.append(Run(text_x, x - text_x, text=text.rstrip()))
        placed.append(tuple(runs))
        widths.append(total)
    return tuple(placed), tuple(widths)


@lru_cache(maxsize=65536)
def _glyph_depth(face, glyphs: str, descent: float) -> float:
    """How far the deepest of these glyphs reaches below the baseline (fraction of the size);
    the font's descent when its glyph boxes cannot be read."""
    depths = glyph_depths(face)
    if depths is None:
        return descent if glyphs.strip() else 0.0
    return max((depths.get(ord(ch), 0.0) for ch in glyphs), default=0.0)


def _depth(units: list[_Unit], font: Metrics) -> float:
    """How far a line's ink reaches below its baseline, as a fraction of the size."""
    deepest = max((_glyph_depth(font.face, unit.glyphs, font.descent) for unit in units),
                  default=0.0)
    if any(unit.icons for unit in units):
        deepest = max(deepest, ICON_EM - ICON_RISE_EM + ICON_STROKE_EM / 2)
    return deepest


def fit_text(text: str, font: Metrics, width_mm: float, height_mm: float, size_pt: float,
             min_pt: float, leading: float = 1.2, align: str = "left",
             language: str = DEFAULT_LANGUAGE) -> Fit:
    """The largest size from `size_pt` down to `min_pt` at which `text` fits the box;
    `language` (a code such as 'de' or 'en_US') chooses the hyphenation patterns."""
    vertical = (font.ascent, font.descent)
    size = size_pt
    while True:
        lines, too_wide, unbreakable = wrap(text, font, size, width_mm, language)
        size_mm = size * 25.4 / 72
        # each printed line's lowest ink, from the top of the box (an empty line has none)
        bottoms = [(font.ascent + i * leading + _depth(line, font)) * size_mm
                   for i, line in enumerate(lines) if line]
        ink_height = max(bottoms, default=0.0)
        fits = not too_wide and ink_height <= height_mm + EPSILON_MM
        if fits or size - SIZE_STEP_PT < min_pt - 1e-9:
            break
        size -= SIZE_STEP_PT
    runs, widths = place(lines, font, size, width_mm, align)
    over = sum(1 for bottom in bottoms if bottom > height_mm + EPSILON_MM)
    return Fit(size, leading, runs, widths, fits, max(ink_height - height_mm, 0.0), over,
               too_wide, vertical, unbreakable, ink_height)
