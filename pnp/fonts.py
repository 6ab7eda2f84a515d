"""Fonts: the bundled font files (and a game's own) in; metrics for fitting text, and a renderer
that sees only them.

cairosvg asks fontconfig for a family by name. Left to itself fontconfig would answer with
whatever the machine has installed and silently substitute unknown names, so the same content
would print differently on two machines. Instead pnp makes a private fontconfig configuration
holding only the bundled files, and the game's own (`FontTable`, from `fonts:` in game.yaml),
and makes it current before anything is drawn: every PDF embeds exactly these fonts,
everywhere. fontconfig cannot tell two files of one family, weight and style apart, so a
game's own font of a bundled family is a finding (pnp.load.own_fonts), not a coin toss.
Measuring uses reportlab's reader of the same files; its advance widths are the ones cairo
uses when it draws (neither applies kerning). What it reads (advance widths, ascent, descent,
which characters have glyphs) is kept in the user's cache by the font file's SHA-256, so a
check does not parse the fonts, or load reportlab, each run.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from pathlib import Path

from . import reads
from .errors import OutsideError
from .units import pt_to_mm


@dataclass(frozen=True)
class FontFace:
    """A role that templates ask for, mapped to one font file: a bundled one, or one of the
    game's own (`path` set, read from the game folder)."""

    role: str
    file: str
    family: str  # the name fontconfig and SVG know it by
    weight: str  # SVG font-weight: normal or bold
    style: str = "normal"  # SVG font-style: normal or italic
    path: str = ""  # a game's own font file; "" for a bundled one

    @property
    def location(self) -> Path:
        return Path(self.path) if self.path else font_dir() / self.file


@dataclass(frozen=True)
class FontTable:
    """The faces one game draws with: each role's face, and the family's other weights and
    styles that emphasis (`**bold**`, `*italic*`) draws with."""

    faces: tuple[FontFace, ...]  # the faces roles name, first the one a role names
    styled: tuple[FontFace, ...] = ()  # the other faces of their families
    # Per role, the faces that draw a character its own faces lack, first first.
    fallbacks: tuple[tuple[str, tuple[FontFace, ...]], ...] = ()

    def fallbacks_of(self, role: str) -> tuple[FontFace, ...]:
        return next((faces for name, faces in self.fallbacks if name == role), ())

    # A table is asked for the same few faces for every text of every face a check draws,
    # and is part of the key of every cached font lookup: what it answers and its hash are
    # worked out once (its fields never change).
    def __hash__(self) -> int:
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((self.faces, self.styled, self.fallbacks))

    @cached_property
    def _every(self) -> tuple[FontFace, ...]:
        return self.faces + self.styled + tuple(f for _, faces in self.fallbacks for f in faces)

    @cached_property
    def _chosen(self) -> dict[tuple[str, str, str], FontFace | None]:
        return {}

    def __getstate__(self) -> dict:
        """The fields alone: a hash is only good in the process that worked it out."""
        return {name: self.__dict__[name] for name in ("faces", "styled", "fallbacks")}

    def face(self, role: str) -> FontFace | None:
        return next((face for face in self.faces if face.role == role), None)

    @property
    def roles(self) -> list[str]:
        return sorted({face.role for face in self.faces})

    @property
    def families(self) -> list[str]:
        return sorted({face.family for face in self._every})

    def every_face(self) -> list[FontFace]:
        """Each font file once, as fontconfig and the proof load them."""
        seen: dict[Path, FontFace] = {}
        for face in self._every:
            seen.setdefault(face.location, face)
        return list(seen.values())

    def variant(self, face: FontFace, bold: bool, italic: bool) -> FontFace | None:
        """The face of `face`'s family with that weight and style (None: the family has none)."""
        weight = "bold" if bold or face.weight == "bold" else "normal"
        style = "italic" if italic or face.style == "italic" else "normal"
        return self.drawing(face.family, weight, style)

    def drawing(self, family: str, weight: str = "normal", style: str = "normal"
                ) -> FontFace | None:
        """The face that draws text asking for this family, weight and style, as fontconfig
        would choose it among the faces here (None: no face of that family)."""
        asked = (family, weight, style)
        if asked not in self._chosen:
            self._chosen[asked] = self._choose(*asked)
        return self._chosen[asked]

    def _choose(self, family: str, weight: str, style: str) -> FontFace | None:
        family = family.split(",")[0].strip().strip("\"'")
        weight = "bold" if weight in ("bold", "bolder", "600", "700", "800", "900") else "normal"
        style = "italic" if style in ("italic", "oblique") else "normal"
        candidates = [face for face in self._every if face.family == family]
        if not candidates:
            return None
        # fontconfig favours the slant over the weight when it cannot match both
        return min(candidates,
                   key=lambda face: (face.weight != weight) + 2 * (face.style != style))


FACES = {
    face.role: face
    for face in (
        FontFace("body", "RobotoCondensed-Regular.ttf", "Roboto Condensed", "normal"),
        FontFace("bold", "RobotoCondensed-Bold.ttf", "Roboto Condensed", "bold"),
        FontFace("title", "NotoSerif-Bold.ttf", "Noto Serif", "bold"),
    )
}
# The body family's italic faces: no role names them; `*italic*` in body text draws with them.
ITALICS = (
    FontFace("body", "RobotoCondensed-Italic.ttf", "Roboto Condensed", "normal", "italic"),
    FontFace("body", "RobotoCondensed-BoldItalic.ttf", "Roboto Condensed", "bold", "italic"),
)
BUNDLED = FontTable(tuple(FACES.values()), ITALICS)


def font_files(table: FontTable | None = None) -> list[tuple[str, Path]]:
    """Each font's name (role, family, weight, style, file) and path, by role: the bundled
    ones, or those of a game's `table`."""
    faces = (table or BUNDLED).faces + (table or BUNDLED).styled
    return [(f"{face.role} {face.family} {face.weight} {face.style} {face.file}", face.location)
            for face in sorted(faces, key=lambda face: (face.role, face.weight, face.style))]


def own_font_files(table: FontTable) -> tuple[str, ...]:
    """The files of a game's own fonts, which the PDF stage adds to the bundled ones."""
    return tuple(str(face.location) for face in table.every_face() if face.path)


def font_dir() -> Path:
    # The folder beside this file: fontconfig reads fonts from files, so pnp is always
    # installed as files (importlib.resources costs more to load, to say the same).
    return Path(__file__).parent / "data" / "fonts"


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
    table: FontTable = BUNDLED  # the faces emphasis may switch to

    @property
    def ascent(self) -> float:
        """Ascent as a fraction of the font size."""
        return self.ascent_units / 1000

    @property
    def descent(self) -> float:
        """Descent below the baseline as a positive fraction of the font size."""
        return -self.descent_units / 1000

    def width_mm(self, text: str, size_pt: float) -> float:
        return _width_mm(self.face, self.fallback_faces, text, size_pt)

    @cached_property
    def fallback_faces(self) -> tuple[FontFace, ...]:
        """The role's fallback faces (asked for each string measured: looked up once)."""
        return self.table.fallbacks_of(self.face.role)

    def face_for(self, char: str) -> FontFace:
        """The face that draws `char`: this one, else the role's first fallback that has it
        (this one again when none has: `missing` reports it)."""
        if ord(char) in self.drawable or char in "\n\t":
            return self.face
        for fallback in self.fallback_faces:
            if ord(char) in face_metrics(fallback).drawable:
                return fallback
        return self.face

    def segments(self, text: str) -> list[tuple[FontFace, str]]:
        """`text` split where the face that draws it changes (a fallback's characters)."""
        if self.drawable.issuperset(map(ord, text.translate(_BLANKS))):  # most text: one face
            return [(self.face, text)] if text else []
        out: list[tuple[FontFace, str]] = []
        for char in text:
            face = self.face if char == " " else self.face_for(char)
            if out and (out[-1][0] == face or char == " "):
                out[-1] = (out[-1][0], out[-1][1] + char)
            else:
                out.append((face, char))
        return out

    def styled(self, bold: bool, italic: bool) -> Metrics | None:
        """The metrics of this family's face with that weight and style (None: it has none)."""
        face = self.table.variant(self.face, bold, italic)
        return face_metrics(face, self.table) if face is not None else None

    def lacks(self, text: str) -> list[str]:
        """Characters this face itself cannot draw: what a template's own `<text>`, drawn
        in one face with no fallback, would print as empty boxes."""
        return sorted({ch for ch in text if ord(ch) not in self.drawable and ch not in "\n\t"})

    def missing(self, text: str) -> list[str]:
        """Characters neither the font nor its role's fallbacks can draw (they would print
        as empty boxes)."""
        return sorted({ch for ch in text if ord(ch) not in self.drawable and ch not in "\n\t"
                       and self.face_for(ch) == self.face})


def characters_named(chars: list[str] | str, text: str = "", shown: int = 8) -> str:
    """Characters a font lacks, as one finding names them, in the order `text` has them:
    "character 'é' (U+00E9)", or "9 characters '日本語...' (U+65E5 U+672C ...)": a text in
    a script no font has is one finding, not one per character."""
    chars = sorted(dict.fromkeys(chars), key=lambda char: (text.find(char), char))
    if len(chars) == 1:
        return f"character '{chars[0]}' (U+{ord(chars[0]):04X})"
    more = " ..." if len(chars) > shown else ""
    codes = " ".join(f"U+{ord(char):04X}" for char in chars[:shown])
    return f"{len(chars)} characters '{''.join(chars[:shown])}' ({codes}{more})"


_BLANKS = str.maketrans("", "", " \n\t")  # drawn by any face: a space by the text's own

# Each font file as measured in this process, and what was read from it (pnp.reads).
_MEASURED: dict[str, tuple[str, str]] = {}


def metrics(role: str, table: FontTable = BUNDLED) -> Metrics:
    """The metrics of the face `role` names in `table` (KeyError: no such role)."""
    face = table.face(role)
    if face is None:
        raise KeyError(role)
    return face_metrics(face, table)


def face_metrics(face: FontFace, table: FontTable = BUNDLED) -> Metrics:
    """The metrics of one face; `table` is where emphasis finds the family's other faces."""
    return _face_metrics(face, table)


@cache
def _face_metrics(face: FontFace, table: FontTable) -> Metrics:
    ascent, descent, widths, default, drawable = _measure(face.location, bool(face.path))[:5]
    return Metrics(face, ascent, descent, widths, default, frozenset(drawable), table)


@cache
def _measure(path: Path, own: bool) -> tuple:
    """A font file read once per process (whichever tables name it), its read noted."""
    data, answer, error = reads.look(path, inside=path.parent)
    if error is not None:
        if own:  # a game's own font: the loader reported it (pnp.load.own_fonts)
            raise OutsideError(f"{path}: error: the font cannot be read "
                               f"({error.strerror or error})") from error
        raise _font_error(path, f"cannot be read ({error.strerror or error})") from error
    _MEASURED[str(path)] = (str(path), answer)
    return read_font(data, path)


def read_font(data: bytes, path: Path) -> tuple:
    """(ascent, descent, widths, default width, code points with a glyph, family name, style
    name) of a font file (FontError: unreadable). Read each time a process first measures
    the file: keeping them between runs saved about 0.05 s a font on a check (1.1-1.2x),
    under what a kept kind must earn."""
    problem = cut_short(data)
    if problem:
        if not str(path).startswith(str(font_dir())):
            raise FontError(problem)
        raise _font_error(path, problem)
    return _read_metrics(path)


def cut_short(data: bytes) -> str | None:
    """Why a TrueType file's tables or glyph outlines end past where they should (a file
    cut short, a glyph table shorter than its index says), or None. reportlab reads the
    metrics without the outlines, and cairo would draw such glyphs as nothing."""
    if len(data) < 12 or data[:4] not in (b"\0\1\0\0", b"true", b"OTTO"):
        return None  # not a font file reportlab reads: it says so itself
    count = int.from_bytes(data[4:6], "big")
    tables = {}
    for at in range(12, 12 + 16 * count, 16):
        record = data[at:at + 16]
        if len(record) < 16:
            return "the file is cut short: its table directory is incomplete"
        tag = record[:4].decode("latin-1").strip()
        offset, length = int.from_bytes(record[8:12], "big"), int.from_bytes(record[12:], "big")
        if offset + length > len(data):
            return f"the file is cut short: its '{tag}' table ends past the end of the file"
        tables[tag] = (offset, length)
    if not {"glyf", "loca", "head", "maxp"} <= tables.keys():
        return None
    head, maxp, (loca, loca_length), glyf_length = (tables["head"][0], tables["maxp"][0],
                                                    tables["loca"], tables["glyf"][1])
    glyphs = int.from_bytes(data[maxp + 4:maxp + 6], "big")
    size, scale = (4, 1) if int.from_bytes(data[head + 50:head + 52], "big") else (2, 2)
    if loca_length < (glyphs + 1) * size:
        return f"its glyph index (loca) is cut short: it holds fewer than {glyphs} glyphs"
    last = int.from_bytes(data[loca + glyphs * size:loca + (glyphs + 1) * size], "big") * scale
    if last > glyf_length:
        return (f"its glyph outlines are cut short: they end at byte {glyf_length} of the "
                f"'glyf' table, its index says {last}")
    return None


class FontError(ValueError):
    """A font file reportlab cannot read: why, in a few words."""


def _read_metrics(path: Path) -> tuple:
    """(ascent, descent, widths, default width, code points with a glyph, family name, style
    name) as reportlab reads the font file."""
    from reportlab.pdfbase.ttfonts import TTFont

    try:
        ttf = TTFont(f"pnp-{path.stem}", str(path))
    except Exception as exc:  # reportlab says TTFError, or OSError, for a missing or broken file
        if not str(path).startswith(str(font_dir())):
            raise FontError(' '.join(str(exc).split())[:120]) from exc
        raise _font_error(path, f"cannot be read ({' '.join(str(exc).split())[:120]})") from exc
    face = ttf.face
    family, style = (name.decode("utf-8", "replace") if isinstance(name, bytes) else str(name)
                     for name in (face.familyName, face.styleName))
    return (float(face.ascent), float(face.descent), {int(k): float(v) for k, v in
            face.charWidths.items()}, float(face.defaultWidth), set(face.charToGlyph), family,
            style)


def require_fonts() -> None:
    """Read every bundled font once, so a missing or broken one is one error before any work."""
    for face in BUNDLED.every_face():
        face_metrics(face)


def measured() -> dict[str, str]:
    """Every font file text is measured with in this process (each read now if it was not
    yet), and the answer its read gave (pnp.reads): what a kept result measured with."""
    require_fonts()
    return {path: answer for path, answer in sorted(_MEASURED.values())}


@lru_cache(maxsize=65536)
def _width_mm(font: FontFace, fallbacks: tuple[FontFace, ...], text: str, size_pt: float
              ) -> float:
    """Text fitting measures the same words at the same sizes over and over: once is enough.
    The sum is reportlab's own (TTFont.stringWidth), in the same order; a character the face
    lacks is measured in the fallback that draws it."""
    face = face_metrics(font)
    width = face.widths.get
    default = face.default_width
    if fallbacks and not all(ord(ch) in face.drawable for ch in text):
        total = 0.0
        for ch in text:
            if ord(ch) in face.drawable:
                total += width(ord(ch), default)
                continue
            drawing = next((m for m in map(face_metrics, fallbacks)
                            if ord(ch) in m.drawable), face)
            total += drawing.widths.get(ord(ch), drawing.default_width)
        return pt_to_mm(0.001 * size_pt * total)
    return pt_to_mm(0.001 * size_pt * sum(width(ord(ch), default) for ch in text))


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


def use_fonts(paths: tuple[str, ...] = ()) -> None:
    """The bundled fonts, and a game's own font files besides (fontconfig then finds them
    by the family names in the files, and cairo embeds them as subsets)."""
    use_bundled_fonts()
    for path in paths:
        _add_font_file(path)


@cache
def _add_font_file(path: str) -> None:
    import ctypes

    from .libraries import open_library

    fc = open_library("libfontconfig.so.1", "fontconfig")
    fc.FcConfigGetCurrent.restype = ctypes.c_void_p
    fc.FcConfigAppFontAddFile.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    if not fc.FcConfigAppFontAddFile(fc.FcConfigGetCurrent(), path.encode()):
        raise OutsideError(f"{path}: error: fontconfig cannot read this font file; "
                           "export it again as TrueType (.ttf)")


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
    for face in BUNDLED.every_face():
        path = font_dir() / face.file
        if not path.is_file() or not fc.FcConfigAppFontAddFile(config, str(path).encode()):
            raise _font_error(path, "cannot be read by fontconfig")
    if not fc.FcConfigSetCurrent(config):
        raise OutsideError("pnp: error: fontconfig refused the bundled font configuration; "
                           "check the fontconfig installation")


def _font_error(path: Path, what: str) -> OutsideError:
    return OutsideError(f"{path}: error: the bundled font {what}; reinstall pnp "
                        "(pip install --force-reinstall pnp) or restore the file")


def game_font_files(game) -> tuple[str, ...]:
    """The font files a game draws with besides the bundled ones (none for no game): what the
    build, reprint, diff, proof and exports all add before they draw the game's faces."""
    return own_font_files(game.fonts) if game is not None else ()
