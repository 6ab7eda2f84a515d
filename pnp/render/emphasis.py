"""Emphasis: card text with `**bold**`, `*italic*` and `\\*` in; the text with each word's
style marked, its styled spans, and what is unbalanced, out.

Text fitting breaks lines between words and inside them (pnp.render.textfit), so each word
carries its own style: a style switch (a private-use character, STYLE_BASE + style) opens
every word that does not start in the regular face, and stands wherever the style changes
within a word. `\\*` is a literal asterisk. `{icon}` marks are left as they are, inside or
outside a span.
"""

from __future__ import annotations

from dataclasses import dataclass

BOLD, ITALIC = 1, 2
STYLE_BASE = 0xE000  # U+E000..U+E003: switch to regular, bold, italic, bold italic
STYLE_MARKS = "".join(chr(STYLE_BASE + n) for n in range(4))
STYLE_NAMES = {0: "regular", BOLD: "bold", ITALIC: "italic", BOLD | ITALIC: "bold italic"}


@dataclass(frozen=True)
class Emphasis:
    marked: str  # the text with style switches instead of asterisks
    spans: tuple[tuple[int, str], ...]  # (style, text) in order, asterisks gone
    problem: str  # why the markup is unbalanced ("" when it is not)


def parse_emphasis(text: str) -> Emphasis:
    """Read the asterisks of `text`: `**` switches bold, `*` italic, `\\*` is an asterisk."""
    if "*" not in text:
        return Emphasis(text, ((0, text),), "")
    spans: list[list] = [[0, ""]]
    style, opened, i = 0, {}, 0
    while i < len(text):
        if text.startswith("\\*", i):
            spans[-1][1] += "*"
            i += 2
            continue
        if text[i] == "*":
            switch = BOLD if text.startswith("**", i) else ITALIC
            if style & switch:
                opened.pop(switch, None)
            else:
                opened[switch] = i
            style ^= switch
            spans.append([style, ""])
            i += 2 if switch == BOLD else 1
            continue
        spans[-1][1] += text[i]
        i += 1
    problem = ""
    if opened:
        switch, at = min(opened.items(), key=lambda item: item[1])
        mark = "**" if switch == BOLD else "*"
        problem = (f"the '{mark}' at character {at + 1} opens {STYLE_NAMES[switch]} text that "
                   "is never closed")
    kept = tuple((s, t) for s, t in spans if t)
    return Emphasis(_marked(kept), kept, problem)


def _marked(spans: tuple[tuple[int, str], ...]) -> str:
    """The spans as one string, each word opening with its style's switch when not regular."""
    out: list[str] = []
    current = 0
    at_word_start = True
    for style, text in spans:
        for char in text:
            if char.isspace():
                out.append(char)
                at_word_start = True
                continue
            if at_word_start:
                if style:
                    out.append(chr(STYLE_BASE + style))
                current = style
                at_word_start = False
            elif style != current:
                out.append(chr(STYLE_BASE + style))
                current = style
            out.append(char)
    return "".join(out)


def plain(text: str) -> str:
    """A marked text without its style switches."""
    return text.translate({ord(mark): None for mark in STYLE_MARKS}) if text else text
