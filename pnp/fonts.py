"""Fonts: the bundled font files in; metrics for fitting text, and a renderer that sees only them.

cairosvg asks fontconfig for a family by name. Left to itself fontconfig would answer with
whatever the machine has installed and silently substitute unknown names, so the same content
would print differently on two machines. Instead pnp makes a private fontconfig configuration
holding only the bundled files and makes it current before anything is drawn: every PDF embeds
exactly these fonts, everywhere. Measuring uses reportlab's reader of the same files; its
advance widths are the ones cairo uses when it draws (neither applies kerning).
"""

from __future__ import annotations

import ctypes
import ctypes.util
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

from reportlab.pdfbase.pdfmetrics import registerFont
from reportlab.pdfbase.ttfonts import TTFont

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


def font_dir() -> Path:
    return Path(str(resources.files("pnp").joinpath("fonts")))


@dataclass(frozen=True)
class Metrics:
    """Measures strings in one face; sizes in points, lengths in millimetres."""

    face: FontFace
    ttf: TTFont

    @property
    def ascent(self) -> float:
        """Ascent as a fraction of the font size."""
        return self.ttf.face.ascent / 1000

    @property
    def descent(self) -> float:
        """Descent below the baseline as a positive fraction of the font size."""
        return -self.ttf.face.descent / 1000

    def width_mm(self, text: str, size_pt: float) -> float:
        return _width_mm(self.face.role, text, size_pt)

    def missing(self, text: str) -> list[str]:
        """Characters the font cannot draw (they would print as empty boxes)."""
        cmap = self.ttf.face.charToGlyph
        return sorted({ch for ch in text if ord(ch) not in cmap and ch not in "\n\t"})


@cache
def metrics(role: str) -> Metrics:
    face = FACES[role]
    path = font_dir() / face.file
    try:
        ttf = TTFont(f"pnp-{role}", str(path))
    except Exception as exc:  # reportlab says TTFError, or OSError, for a missing or broken file
        raise _font_error(path, f"cannot be read ({' '.join(str(exc).split())[:120]})") from exc
    registerFont(ttf)
    return Metrics(face, ttf)


def require_fonts() -> None:
    """Read every bundled font once, so a missing or broken one is one error before any work."""
    for role in FACES:
        metrics(role)


@lru_cache(maxsize=65536)
def _width_mm(role: str, text: str, size_pt: float) -> float:
    """Text fitting measures the same words at the same sizes over and over: once is enough."""
    return metrics(role).ttf.stringWidth(text, size_pt) * 25.4 / 72


@cache
def use_bundled_fonts() -> None:
    """Make fontconfig (and so cairo and cairosvg) see the bundled fonts and nothing else."""
    name = ctypes.util.find_library("fontconfig")
    if name is None:
        raise OutsideError("pnp: error: the fontconfig library is not installed; install it "
                           "(on Debian and Ubuntu: apt install libfontconfig1)")
    fc = ctypes.CDLL(name)
    fc.FcConfigCreate.restype = ctypes.c_void_p
    fc.FcConfigAppFontAddFile.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    fc.FcConfigSetCurrent.argtypes = [ctypes.c_void_p]
    config = fc.FcConfigCreate()
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
