"""Glyphs: a rendered SVG and the game's fonts in; the text it would print wrongly out.

A template's own `<text>` (literal words, data it prints, icon letters, sheet furniture) is
drawn by fontconfig with the face the text's font-family, weight and style select. A family
no font role provides would be silently replaced by another, and a character the selected
face lacks prints as an empty box: both are problems, with the rendered SVG line that drew
them. Text drawn by `text_box` is checked where it is fitted, at its data line.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..fonts import FontTable, characters_named, face_metrics
from .drawn import marks_of


@dataclass(frozen=True)
class GlyphProblem:
    rule: str
    line: int  # the rendered SVG's line
    text: str  # the text drawn there
    char: str  # the first character that cannot be drawn ("" for a family problem)
    message: str
    hint: str


def printed_text_problems(svg: str, fonts: FontTable) -> list[GlyphProblem]:
    problems = []
    for mark in marks_of(svg, fonts):
        if mark.kind != "text" or mark.fitted:
            continue
        family = mark.family.split(",")[0].strip().strip("\"'")
        face = fonts.drawing(family, mark.weight, mark.style)
        if face is None:
            asked = f"font-family '{family}'" if family else "no font-family"
            problems.append(GlyphProblem(
                "font-unknown", mark.line, mark.text, "",
                f"text '{_short(mark.text)}' asks for {asked}, which no font role provides "
                f"(the game's families: {', '.join(fonts.families)})",
                "select a font with {{ font('body') }} (or another role), or give the game "
                "that font in game.yaml (fonts:)"))
            continue
        lacking = face_metrics(face, fonts).lacks(mark.text)
        if lacking:  # one problem per text, however many characters it lacks
            problems.append(GlyphProblem(
                "glyph-missing", mark.line, mark.text, lacking[0],
                f"{characters_named(lacking, mark.text)} in '{_short(mark.text)}' "
                f"{'is' if len(lacking) == 1 else 'are'} not in the font {face.family} "
                f"({_face_name(face)})",
                "it would print as an empty box; replace it, draw it in a text box (where a "
                "role's fallback fonts apply), or give the role a font that has it"))
    return problems


def _face_name(face) -> str:
    named = " ".join(word for word in (face.weight, face.style) if word != "normal")
    return named or "regular"


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."
