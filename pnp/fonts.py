"""Fonts: the bundled font files in; metrics for fitting text, and a renderer that sees only them.

cairosvg asks fontconfig for a family by name. Left to itself fontconfig would answer with
whatever the machine has installed and silently substitute unknown names, so the same content
would print differently on two machines. Instead pnp makes a private fontconfig configuration
holding only the bundled files and makes it current before anything is drawn: every PDF embeds
exactly these fonts, everywhere. Measuring uses reportlab's reader of the same files; its
advance widths are the ones cairo uses when it draws (neither applies kerning). What it reads
(advance widths, ascent, descent, which characters have glyphs) is kept in the user's cache
by the font file's SHA-256, so a check does not parse the fonts, or load reportlab, each run.
"""

from __future__ import annotations

import hashlib
import marshal
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from . import reads
from .cache import store
from .errors import OutsideError


@dataclass(frozen=True)
class FontFace:
    """A role that templates ask for, mapped to one bundled file."""

    role: str
    file: str
    family: str  # the name fontconfig and SVG know it by
    weight: str  # SVG font-weight


FACES = {
    face.role: face
    for face in (
        FontFace("body", "RobotoCondensed-Regular.ttf", "Roboto Condensed", "normal"),
        FontFace("bold", "RobotoCondensed-Bold.ttf", "Roboto Condensed", "bold"),
        FontFace("title", "NotoSerif-Bold.ttf", "Noto Serif", "bold"),
    )
}


def font_files() -> list[tuple[str, Path]]:
    """Each bundled font's name (role, family, weight, file) and path, by role."""
    return [(f"{face.role} {face.family} {face.weight} {face.file}", font_dir() / face.file)
            for face in sorted(FACES.values(), key=lambda face: face.role)]


def font_dir() -> Path:
    # The folder beside this file: fontconfig reads fonts from files, so pnp is always
    # installed as files (importlib.resources costs more to load, to say the same).
    return Path(__file__).parent / "fonts"


@dataclass(frozen=True)
class Metrics:
    """Measures strings in one face; sizes in points, lengths in millimetres. Widths are in
    thousandths of the font size, as reportlab reads them."""

    face: FontFace
    ascent_units: float
    descent_units: float  # negative: below the baseline
    widths: dict[int, float]  # code point -> advance width
    default_width: float  # for a code point the font has no glyph for
    drawable: frozenset[int]  # code points with a glyph

    @property
    def ascent(self) -> float:
        """Ascent as a fraction of the font size."""
        return self.ascent_units / 1000

    @property
    def descent(self) -> float:
        """Descent below the baseline as a positive fraction of the font size."""
        return -self.descent_units / 1000

    def width_mm(self, text: str, size_pt: float) -> float:
        return _width_mm(self.face.role, text, size_pt)

    def missing(self, text: str) -> list[str]:
        """Characters the font cannot draw (they would print as empty boxes)."""
        return sorted({ch for ch in text if ord(ch) not in self.drawable and ch not in "\n\t"})


# Each role's font file as measured in this process, and what was read from it (pnp.reads).
_MEASURED: dict[str, tuple[str, str]] = {}


@cache
def metrics(role: str) -> Metrics:
    face = FACES[role]
    path = font_dir() / face.file
    data, answer, error = reads.look(path, inside=font_dir())
    if error is not None:
        raise _font_error(path, f"cannot be read ({error.strerror or error})") from error
    _MEASURED[role] = (str(path), answer)
    where = store.folder("font-metrics", "fonts.py")
    key = hashlib.sha256(data).hexdigest()
    try:
        kept = marshal.loads(store.read(where, key) or b"N")
        ascent, descent, widths, default, drawable = kept
    except (ValueError, EOFError, TypeError):
        ascent, descent, widths, default, drawable = kept = _read_metrics(path)
        store.write(where, key, marshal.dumps(kept))
    return Metrics(face, ascent, descent, widths, default, frozenset(drawable))


def _read_metrics(path: Path) -> tuple:
    """(ascent, descent, widths, default width, code points with a glyph) as reportlab reads
    the font file."""
    from reportlab.pdfbase.ttfonts import TTFont

    try:
        ttf = TTFont(f"pnp-{path.stem}", str(path))
    except Exception as exc:  # reportlab says TTFError, or OSError, for a missing or broken file
        raise _font_error(path, f"cannot be read ({' '.join(str(exc).split())[:120]})") from exc
    face = ttf.face
    return (float(face.ascent), float(face.descent), {int(k): float(v) for k, v in
            face.charWidths.items()}, float(face.defaultWidth), set(face.charToGlyph))


def require_fonts() -> None:
    """Read every bundled font once, so a missing or broken one is one error before any work."""
    for role in FACES:
        metrics(role)


def measured() -> dict[str, str]:
    """Every font file text is measured with in this process (each read now if it was not
    yet), and the answer its read gave (pnp.reads): what a kept result measured with."""
    require_fonts()
    return {path: answer for path, answer in sorted(_MEASURED.values())}


@lru_cache(maxsize=65536)
def _width_mm(role: str, text: str, size_pt: float) -> float:
    """Text fitting measures the same words at the same sizes over and over: once is enough.
    The sum is reportlab's own (TTFont.stringWidth), in the same order."""
    face = metrics(role)
    width = face.widths.get
    default = face.default_width
    return 0.001 * size_pt * sum(width(ord(ch), default) for ch in text) * 25.4 / 72


# Glyphs are never hinted. cairo resolves a font's settings once, when the font is first used
# in a process, at that first size: with hinting on, every later advance width depended on
# what the process had drawn before, so the same sheet came out a little different in a
# worker than in one process. Unhinted advances are also the ones text fitting measures.
_UNHINTED = b"""<?xml version="1.0"?>
<fontconfig>
  <match target="pattern">
    <edit name="hinting" mode="assign"><bool>false</bool></edit>
    <edit name="hintstyle" mode="assign"><const>hintnone</const></edit>
  </match>
</fontconfig>
"""


@cache
def use_bundled_fonts() -> None:
    """Make fontconfig (and so cairo and cairosvg) see the bundled fonts and nothing else."""
    import ctypes  # only a process that draws needs it (a check does not)

    from .libraries import open_library

    fc = open_library("libfontconfig.so.1", "fontconfig")
    if fc is None:
        raise OutsideError("pnp: error: the fontconfig library is not installed; install it "
                           "(on Debian and Ubuntu: apt install libfontconfig1)")
    fc.FcConfigCreate.restype = ctypes.c_void_p
    fc.FcConfigAppFontAddFile.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    fc.FcConfigSetCurrent.argtypes = [ctypes.c_void_p]
    config = fc.FcConfigCreate()
    try:
        parse = fc.FcConfigParseAndLoadFromMemory
    except AttributeError:
        raise OutsideError("pnp: error: the fontconfig library is too old (pnp needs 2.13 or "
                           "later); update it") from None
    parse.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    if not parse(config, _UNHINTED, 1):
        raise OutsideError("pnp: error: fontconfig refused pnp's font settings; check the "
                           "fontconfig installation")
    for face in FACES.values():
        path = font_dir() / face.file
        if not path.is_file() or not fc.FcConfigAppFontAddFile(config, str(path).encode()):
            raise _font_error(path, "cannot be read by fontconfig")
    if not fc.FcConfigSetCurrent(config):
        raise OutsideError("pnp: error: fontconfig refused the bundled font configuration; "
                           "check the fontconfig installation")


def _font_error(path: Path, what: str) -> OutsideError:
    return OutsideError(f"{path}: error: the bundled font {what}; reinstall pnp "
                        "(pip install --force-reinstall pnp) or restore the file")
