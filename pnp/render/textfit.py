"""Text fitting: a string, a box and a font in; wrapped lines at the largest size that fits out.

Lines break where Unicode's line breaking rules allow (UAX #14, from uniseg): after spaces,
hyphens, slashes, dashes, soft hyphens and zero-width spaces, and between CJK characters,
so Japanese wraps without spaces. A soft hyphen (U+00AD) is invisible unless its line breaks
there, where it prints as a hyphen. A word wider than the whole box is hyphenated with
Pyphen's patterns for the text's language, where it has them. Widths are the real advance
widths of its font, each `**bold**` or `*italic*` part (pnp.render.emphasis) and each
fallback character in the face that draws it. If the text does not fit at the preferred size
it shrinks in quarter points down to the template's minimum. Inline tokens such as `{red}` become icons one
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
from ..units import pt_to_mm
from .bidi import printed_order
from .emphasis import BOLD, ITALIC, STYLE_BASE, STYLE_MARKS
from .glyphdepth import glyph_depths

TOKEN = re.compile(r"\{(" + ICON_NAME.pattern + r")\}")  # names as game.yaml declares them
SIZE_STEP_PT = 0.25
ICON_EM = 0.95  # icon width as a fraction of the font size
ICON_GAP_EM = 0.08
ICON_RISE_EM = 0.78  # an icon's top above the baseline
ICON_STROKE_EM = 0.06 * ICON_EM  # its outline's width (pnp/data/templates/icons.svg.j2)
DEFAULT_LANGUAGE = "en_US"
SOFT_HYPHEN = "\u00ad"
HYPHEN = "-"  # what a soft hyphen, or a break Pyphen found, prints at the end of a line
# Characters that mark where a line may break and print nothing themselves.
_INVISIBLE = str.maketrans("", "", "\u00ad\u200b\u2060\ufeff")
# An icon stands in the text as one private-use character while the text is broken: Unicode
# breaks those as letters, so an icon keeps to the word it is written in, as before.
_ICON = "\ue0ff"  # (U+E000..U+E003 are emphasis's style switches)
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
    style: int = 0  # emphasis: 0 regular, 1 bold, 2 italic, 3 both (pnp.render.emphasis)


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
    glyphs: str  # the characters it prints (icons, soft hyphens and style switches left out)
    soft: bool  # it ends in a soft hyphen: a hyphen prints if the line breaks after it
    style: int = 0  # the emphasis it starts in
    parts: tuple[tuple[int, str], ...] = ()  # (style, text) pieces, switches gone
    end_style: int = 0  # the emphasis it ends in (its space and hyphen are drawn in it)


_NO_SWITCHES = str.maketrans("", "", STYLE_MARKS)


def _unit(text: str, space_after: bool, icons: tuple[str, ...] = (), style: int = 0) -> _Unit:
    parts, end = _styled(text, style)
    return _Unit(text, space_after, icons,
                 printed_text(text).replace(_ICON, "").translate(_NO_SWITCHES),
                 text.endswith(SOFT_HYPHEN), style, parts, end)


def _styled(text: str, style: int) -> tuple[tuple[tuple[int, str], ...], int]:
    """A unit's (style, text) pieces, starting in `style`, and the style it ends in. Emphasis
    marks a style switch at the start of every word not in the regular face (and wherever it
    changes inside one), so a space goes back to regular."""
    if not style and not any(mark in text for mark in STYLE_MARKS):
        return ((0, text),) if text else (), 0
    parts: list[tuple[int, str]] = []
    current = ""
    for char in text:
        if char in STYLE_MARKS:
            if current:
                parts.append((style, current))
            style, current = ord(char) - STYLE_BASE, ""
            continue
        current += char
        if char == " ":
            parts.append((style, current))
            style, current = 0, ""
    if current:
        parts.append((style, current))
    return tuple(parts), style


def styled_metrics(font: Metrics, style: int) -> Metrics:
    """The face emphasis draws in; the role's own face when its family has no such face
    (the renderer reports that)."""
    if not style:
        return font
    return font.styled(bool(style & BOLD), bool(style & ITALIC)) or font


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


def printed_text(text: str) -> str:
    """`text` without the characters that only mark breaks (they print nothing)."""
    return text.translate(_INVISIBLE)


def _height_mm(lines: int, size_pt: float, leading: float, vertical: tuple[float, float]) -> float:
    ascent, descent = vertical
    size_mm = pt_to_mm(size_pt)
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
    units, style = [], 0
    for text, space in _paragraph_units(shape):
        units.append(_unit(text, space, tuple(next(names) for _ in range(text.count(_ICON))),
                           style))
        style = 0 if space else units[-1].end_style
    return tuple(units)


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
    out, style = [], unit.style
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        out.append(_unit(part + ("" if last else SOFT_HYPHEN), unit.space_after if last else False,
                         tuple(next(names) for _ in range(part.count(_ICON))), style))
        style = out[-1].end_style
    return out


# Measuring and breaking ----------------------------------------------------------------------


class _Measure:
    """Widths at one size, in mm."""

    def __init__(self, font: Metrics, size_pt: float):
        self.font, self.size_pt = font, size_pt
        self.icon = pt_to_mm((ICON_EM + 2 * ICON_GAP_EM) * size_pt)

    def text(self, text: str, style: int = 0) -> float:
        """Printed characters in the face `style` draws them in (break marks print nothing)."""
        return styled_metrics(self.font, style).width_mm(
            printed_text(text).replace(_ICON, ""), self.size_pt)

    def space(self, unit: _Unit) -> float:
        """The space after a unit, drawn in the face the unit ends in."""
        return self.text(" ", unit.end_style) if unit.space_after else 0.0

    def hyphen(self, unit: _Unit) -> float:
        """The hyphen a line breaking after this unit prints (none unless it ends soft)."""
        return self.text(HYPHEN, unit.end_style) if unit.soft else 0.0

    def unit(self, unit: _Unit) -> float:
        if all(not style for style, _ in unit.parts):  # the common case: all regular
            width = self.font.width_mm(unit.glyphs, self.size_pt)
        else:
            width = sum(self.text(text, style) for style, text in unit.parts)
        return width + len(unit.icons) * self.icon

    def alone(self, unit: _Unit) -> float:
        """The width of a line holding only this unit."""
        return self.unit(unit) + self.hyphen(unit)

    def line(self, units) -> float:
        """The width a line of these units prints: spaces between them, and a hyphen after
        the last one if it ends in a soft hyphen."""
        if not units:
            return 0.0
        spaces = sum(self.space(unit) for unit in units[:-1])
        return sum(self.unit(unit) for unit in units) + spaces + self.hyphen(units[-1])


def _break_paragraph(units: list[_Unit], unit_widths: list[float], measure: _Measure,
                     width_mm: float) -> list[list[_Unit]]:
    """Greedy: each line takes units while they fit and breaks at the last opportunity
    that fits (a soft hyphen's hyphen counted where the line breaks at it)."""
    # running sums: a line's width from any unit to any other in constant time
    widths, spaces = [0.0], [0.0]
    for unit, unit_width in zip(units, unit_widths):
        widths.append(widths[-1] + unit_width)
        spaces.append(spaces[-1] + measure.space(unit))

    def width(start: int, end: int) -> float:
        return (widths[end] - widths[start] + (spaces[end - 1] - spaces[start])
                + measure.hyphen(units[end - 1]))

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
            if width + measure.hyphen(unit) <= limit:
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
    """Turn lines of units into runs with x positions (relative to the box's left edge): a
    run is one face's text, or one icon."""
    measure = _Measure(font, size_pt)
    icon = pt_to_mm(ICON_EM * size_pt)
    gap = pt_to_mm(ICON_GAP_EM * size_pt)
    placed, widths = [], []
    for units in lines:
        total = measure.line(units)
        x = {"left": 0.0, "center": (width_mm - total) / 2, "right": width_mm - total}[align]
        runs: list[Run] = []
        text, text_x, text_style = "", x, 0

        def flush() -> None:
            if text.strip():
                runs.append(Run(text_x, x - text_x, text=text.rstrip(), style=text_style))

        for i, unit in enumerate(units):
            last = i == len(units) - 1
            names = iter(unit.icons)
            for k, (style, piece) in enumerate(unit.parts):
                if last and k == len(unit.parts) - 1 and piece.endswith(SOFT_HYPHEN):
                    piece = piece[:-1] + HYPHEN
                for j, part in enumerate(printed_text(piece).split(_ICON)):
                    if j:  # an icon before this part
                        flush()
                        text = ""
                        runs.append(Run(x + gap, icon, icon=next(names)))
                        x += icon + 2 * gap
                    if part:
                        if style != text_style:  # a run is drawn in one face
                            flush()
                            text, text_style = "", style
                        if not text:
                            text_x = x
                        text += part
                        x += measure.text(part, style)
            if unit.space_after and not last:
                text += " " if text else ""
                x += measure.space(unit)
        flush()
        placed.append(printed_order(tuple(runs)))  # right-to-left text reordered
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
    `language` (a code such as 'de' or 'en_US') chooses the hyphenation patterns.

    A deck's cards share much of their text (titles, rules lines, copies of a card): a fit
    is worked out once per process for each set of these arguments, the font by its identity
    (the measured face, whose widths a Fit is made from; measuring a font again makes a new
    one). A Fit is immutable, so the one answer serves every caller."""
    return _fit_once(text, _Same(font), width_mm, height_mm, size_pt, min_pt, leading, align,
                     language)


class _Same:
    """An argument compared by identity: the same object, not an equal one (Metrics holds a
    dict, so it has no hash of its own). Kept in a cache's key, it keeps its object alive,
    so no other object can take its id meanwhile."""

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other) -> bool:
        return isinstance(other, _Same) and other.value is self.value


@lru_cache(maxsize=8192)
def _fit_once(text: str, same: _Same, width_mm: float, height_mm: float, size_pt: float,
              min_pt: float, leading: float, align: str, language: str) -> Fit:
    return _fit(text, same.value, width_mm, height_mm, size_pt, min_pt, leading, align, language)


def _fit(text: str, font: Metrics, width_mm: float, height_mm: float, size_pt: float,
         min_pt: float, leading: float, align: str, language: str) -> Fit:
    vertical = (font.ascent, font.descent)
    size = size_pt
    while True:
        lines, too_wide, unbreakable = wrap(text, font, size, width_mm, language)
        size_mm = pt_to_mm(size)
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
