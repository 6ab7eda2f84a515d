"""Glyph depth: a font's measures in; how far each character's glyph reaches below the baseline
out, as a fraction of the font size.

A font's descent is the deepest any of its glyphs may go, for line spacing. Whether a text's
ink crosses the bottom of its box depends on the glyphs its last line prints: "ABC" has no
depth at all, "gypsy" most of the descent. The depths are read from the font file's glyph
boxes (the `glyf` table), once per file: kept in the user cache by the file's SHA-256, as the
font's other measures are (pnp.fonts). A font without that table (a CFF-flavoured OpenType
file) gives None, and text fitting then takes the font's descent for every glyph.
"""

from __future__ import annotations

import hashlib
import marshal
import struct
from functools import cache
from pathlib import Path

from .. import reads
from ..cache import store
from ..fonts import FontFace, font_dir


@cache
def glyph_depths(face: FontFace) -> dict[int, float] | None:
    """Code point -> depth below the baseline (fraction of the size) of each glyph of the
    face's font that goes below it; None when the file has no glyph boxes to read."""
    return _depths(str(getattr(face, "path", "") or font_dir() / face.file))


@cache
def _depths(path: str) -> dict[int, float] | None:
    data, _, error = reads.look(Path(path), inside=Path(path).parent)
    if error is not None:
        return None
    where = store.folder("glyph-depths", "render/glyphdepth.py")
    key = hashlib.sha256(data).hexdigest()
    kept = store.read(where, key)
    try:
        return marshal.loads(kept)[0] if kept else _keep(where, key, path)
    except (ValueError, EOFError, TypeError, IndexError):
        return _keep(where, key, path)


def _keep(where, key: str, path: str) -> dict[int, float] | None:
    depths = _read_depths(path)
    store.write(where, key, marshal.dumps((depths,)))
    return depths


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
