"""Glyph depth: a font's measures in; how far each character's glyph reaches below the baseline
out, as a fraction of the font size.

A font's descent is the deepest any of its glyphs may go, for line spacing. Whether a text's
ink crosses the bottom of its box depends on the glyphs its last line prints: "ABC" has no
depth at all, "gypsy" most of the descent. The depths are read from the font file's glyph
boxes (the `glyf` table), once per file and process (about 15 ms a font: not kept between
runs). A font without that table (a CFF-flavoured OpenType
file) gives None, and text fitting then takes the font's descent for every glyph.
"""

from __future__ import annotations

import struct
from functools import cache
from pathlib import Path

from .. import reads
from ..fonts import FontFace, font_dir


@cache
def glyph_depths(face: FontFace) -> dict[int, float] | None:
    """Code point -> depth below the baseline (fraction of the size) of each glyph of the
    face's font that goes below it; None when the file has no glyph boxes to read."""
    return _depths(str(getattr(face, "path", "") or font_dir() / face.file))


@cache
def _depths(path: str) -> dict[int, float] | None:
    _, _, error = reads.look(Path(path), inside=Path(path).parent)  # confined, and noted
    if error is not None:
        return None
    return _read_depths(path)


def _read_depths(path: str) -> dict[int, float] | None:
    from reportlab.pdfbase.ttfonts import TTFError, TTFontFile

    try:
        face = TTFontFile(path)
        glyf = face.get_table_pos("glyf")[0]
    except (TTFError, KeyError, OSError, struct.error):
        return None
    depths = {}
    for code, glyph in face.charToGlyph.items():
        start, end = face.glyphPos[glyph], face.glyphPos[glyph + 1]
        if end <= start:  # an empty glyph (a space)
            continue
        # A glyph's header: number of contours, then xMin, yMin, xMax, yMax in font units.
        y_min = struct.unpack(">h", face.get_chunk(glyf + start + 4, 2))[0]
        if y_min < 0:
            depths[code] = -y_min / face.unitsPerEm
    return depths
