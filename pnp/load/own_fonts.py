"""Fonts of a game's own: the manifest's `fonts:` in; the game's `FontTable` out.

Each role names TrueType files in the game folder (regular, and bold, italic and bold-italic
faces for emphasis) and their licence. Files are read through the confined reader, like art:
a path outside the game folder, a missing file or one that is not a font is a finding at its
manifest line. The family name is the one in the file, which is what fontconfig finds it by
when the PDF is drawn: fontconfig cannot tell two files of one family apart, so a file
whose family is a bundled font's (and whose bytes are not that font's) is a finding at its
line, rather than printing with either. A file cut short (its tables or glyph outlines) is
one too (pnp.fonts.cut_short). Roles the game leaves out keep pnp's bundled faces; a game's
`body` with a bold face is also its `bold` role, which icon letters and templates ask for.
"""

from __future__ import annotations

import dataclasses
import re
from functools import cache
from pathlib import Path

from .. import reads
from ..findings import Findings
from ..fonts import (BUNDLED, FontError, FontFace, FontTable, characters_named, face_metrics,
                     read_font)
from .assets import resolve_asset

FONT_SUFFIXES = (".ttf", ".otf")
STYLES = ("regular", "bold", "italic", "bold_italic")
ROLE_NAME = re.compile(r"[a-z][a-z0-9_-]*")
# A licence named rather than given as a file: an SPDX-like name ('OFL-1.1', 'Apache-2.0').
LICENCE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9.+-]*")


def read_fonts(info, folder: Path, findings: Findings) -> FontTable:
    """The bundled faces with the game's own roles over them (those that could be read)."""
    if not info.fonts:
        return BUNDLED
    roles: dict[str, FontFace] = {}
    styled: list[FontFace] = []
    fallbacks: list[tuple[str, tuple[FontFace, ...]]] = []
    for role, spec in info.fonts.items():
        where = spec.where
        if not ROLE_NAME.fullmatch(role):
            findings.error("font-role", info.where.of("fonts"), f"'{role}' cannot name a "
                           "font role", field="fonts", hint="use lower-case letters, digits, "
                           "- and _ (templates write font('" + role.lower() + "'))")
            continue
        _check_licence(spec.licence, folder, findings, where.of("licence"), role)
        faces = {}
        for style in STYLES:
            relative = getattr(spec, style)
            if not relative:
                continue
            face = _read_face(folder, relative, role, findings, where.of(style),
                              f"fonts.{role}.{style}")
            if face is not None:
                faces[style] = face
        if "regular" not in faces:
            continue
        family = faces["regular"].family
        for style, face in faces.items():
            if face.family != family:
                findings.error("font-family", where.of(style), f"'{getattr(spec, style)}' is "
                               f"the family '{face.family}', not '{family}' as the regular "
                               "face", field=f"fonts.{role}.{style}", hint="give each role "
                               "the faces of one family")
        roles[role] = faces["regular"]
        styled += [face for style, face in faces.items() if style != "regular"]
        extra = [_read_face(folder, str(relative), role, findings, where.of("fallback"),
                            f"fonts.{role}.fallback[{n}]")
                 for n, relative in enumerate(spec.fallback)]
        if extra:
            fallbacks.append((role, tuple(face for face in extra if face is not None)))
        if role == "body" and "bold" in faces and "bold" not in info.fonts:
            roles["bold"] = dataclasses.replace(faces["bold"], role="bold")
            if extra:
                fallbacks.append(("bold", fallbacks[-1][1]))
    kept = [face for face in BUNDLED.faces if face.role not in roles]
    # The bundled faces a role of the game's replaced still print pnp's own sheets.
    replaced = [face for face in BUNDLED.faces + BUNDLED.styled if face not in kept]
    table = FontTable(tuple(kept) + tuple(roles.values()), tuple(styled) + tuple(replaced),
                      tuple(fallbacks))
    return table


def _read_face(folder: Path, relative: str, role: str, findings: Findings, where,
               field: str) -> FontFace | None:
    path = resolve_asset(folder, str(relative), findings, where, field=field,
                         suffixes=FONT_SUFFIXES)
    if path is None:
        return None
    try:
        data = reads.read_file(path, inside=folder)
        family, style_name = read_font(data, path)[5:7]
    except (OSError, FontError) as exc:
        findings.error("font-unreadable", where, f"'{relative}' cannot be read as a font "
                       f"({exc})", field=field, hint="give a TrueType (.ttf) file; an OpenType "
                       "file with PostScript outlines can be converted to TrueType")
        return None
    if family in _bundled_families() and reads.digest(data) not in _bundled_digests():
        # fontconfig finds a font by its family's name, and cannot tell two files of one
        # family apart: either might print, and text is measured in one of them.
        findings.error("font-family-taken", where, f"'{relative}' is the family '{family}', "
                       "the name of a font pnp bundles: fontconfig cannot tell the two apart, "
                       "so either could print", field=field, hint="give the font a family "
                       f"name of its own (rename it in the file, e.g. '{family} Game'), or "
                       "leave the role out to print with pnp's own")
        return None
    # fontconfig selects a face by the weight and slant the file declares, so the face is
    # named by those, whichever slot of the role it fills.
    words = style_name.lower()
    weight = "bold" if any(w in words for w in ("bold", "black", "heavy")) else "normal"
    style = "italic" if any(w in words for w in ("italic", "oblique")) else "normal"
    return FontFace(role, path.name, family, weight, style, str(path))


@cache
def _bundled_families() -> frozenset[str]:
    return frozenset(face.family for face in BUNDLED.every_face())


@cache
def _bundled_digests() -> frozenset[str]:
    """The bundled font files' contents (pnp.reads.digest): a game may ship the very same file."""
    return frozenset(reads.digest(face.location.read_bytes()) for face in BUNDLED.every_face())


def _check_licence(licence: str, folder: Path, findings: Findings, where, role: str) -> None:
    """A licence is a file in the game folder, or a licence's name."""
    text = str(licence).strip()
    looks_like_file = "/" in text or Path(text).suffix.lower() in (".txt", ".md", ".html")
    if looks_like_file:
        resolve_asset(folder, text, findings, where, field=f"fonts.{role}.licence")
    elif not LICENCE_NAME.fullmatch(text):
        findings.error("font-licence", where, f"fonts.{role}.licence '{text}' names no licence",
                       field=f"fonts.{role}.licence", hint="give the licence's file in the "
                       "game folder (fonts/OFL.txt) or its name (OFL-1.1)")


def check_icon_letters(info, table: FontTable, findings: Findings) -> None:
    """An icon's letter is drawn in the `bold` role's face: each character must be in it."""
    face = table.face("bold")
    if face is None or not info.icons:
        return
    font = face_metrics(face, table)
    for name, icon in info.icons.items():
        lacking = font.lacks(icon.letter)
        if lacking:
            findings.error("glyph-missing", icon.where.of("letter"),
                           f"{characters_named(lacking, icon.letter)} of icon '{name}' "
                           f"{'is' if len(lacking) == 1 else 'are'} not in "
                           f"the font {face.family} ({face.weight})", field=f"icons.{name}.letter",
                           hint="it would print as an empty box; use another letter, or give "
                                "the game a bold font that has it (fonts: in game.yaml)")
