"""fontconfig configurations: font files in; the configuration cairo (and so cairosvg) finds
fonts in, made current, out.

Left to itself fontconfig would answer with whatever the machine has installed and silently
substitute unknown names, so the same content would print differently on two machines. pnp
makes private configurations holding only the files it is given (pnp.fonts: the bundled ones
and a game's own), one per set of files, each made once per process.
"""

from __future__ import annotations

from functools import cache

from .errors import OutsideError

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


CURRENT: list[int] = []  # the configuration made current last


def make_current(config: int) -> None:
    if CURRENT == [config]:
        return
    fc = _fontconfig()
    if not fc.FcConfigSetCurrent(config):
        raise OutsideError("pnp: error: fontconfig refused the font configuration; check the "
                           "fontconfig installation")
    CURRENT[:] = [config]


@cache
def _fontconfig():
    import ctypes  # only a process that draws needs it (a check does not)

    from .libraries import open_library

    fc = open_library("libfontconfig.so.1", "fontconfig")
    if fc is None:
        raise OutsideError("pnp: error: the fontconfig library is not installed; install it "
                           "(on Debian and Ubuntu: apt install libfontconfig1)")
    fc.FcConfigCreate.restype = ctypes.c_void_p
    fc.FcConfigAppFontAddFile.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    fc.FcConfigSetCurrent.argtypes = [ctypes.c_void_p]
    fc.FcConfigGetFonts.restype = ctypes.c_void_p
    fc.FcConfigGetFonts.argtypes = [ctypes.c_void_p, ctypes.c_int]
    fc.FcPatternGetString.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int,
                                      ctypes.POINTER(ctypes.c_char_p)]
    fc.FcPatternGetInteger.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int,
                                       ctypes.POINTER(ctypes.c_int)]
    if not hasattr(fc, "FcConfigParseAndLoadFromMemory"):
        raise OutsideError("pnp: error: the fontconfig library is too old (pnp needs 2.13 or "
                           "later); update it")
    fc.FcConfigParseAndLoadFromMemory.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                                  ctypes.c_int]
    return fc


def _new_configuration() -> int:
    fc = _fontconfig()
    config = fc.FcConfigCreate()
    if not fc.FcConfigParseAndLoadFromMemory(config, _UNHINTED, 1):
        raise OutsideError("pnp: error: fontconfig refused pnp's font settings; check the "
                           "fontconfig installation")
    return config


def _styles(config: int) -> set[tuple[bytes, int, int]]:
    """(family, weight, slant) of every face the files added to `config` hold, as
    fontconfig matches them."""
    import ctypes

    fc = _fontconfig()
    fonts = fc.FcConfigGetFonts(config, 1)  # FcSetApplication
    found: set[tuple[bytes, int, int]] = set()
    if not fonts:
        return found
    count = ctypes.cast(fonts, ctypes.POINTER(ctypes.c_int))[0]
    patterns = ctypes.cast(fonts, ctypes.POINTER(ctypes.c_void_p))[1]  # after nfont, sfont
    for n in range(count):
        pattern = ctypes.cast(patterns, ctypes.POINTER(ctypes.c_void_p))[n]
        weight, slant, family = ctypes.c_int(), ctypes.c_int(), ctypes.c_char_p()
        fc.FcPatternGetInteger(pattern, b"weight", 0, ctypes.byref(weight))
        fc.FcPatternGetInteger(pattern, b"slant", 0, ctypes.byref(slant))
        index = 0
        while fc.FcPatternGetString(pattern, b"family", index, ctypes.byref(family)) == 0:
            found.add((family.value, weight.value, slant.value))
            index += 1
    return found


@cache
def configuration(paths: tuple[str, ...], bundled: tuple[str, ...]) -> int:
    """A configuration of the `bundled` files and a game's own (`paths`): a bundled file one
    of `paths` shadows (the same family, weight and slant) is left out."""
    fc = _fontconfig()
    taken = _styles(_scanned(paths)) if paths else set()
    config = _new_configuration()
    for path in bundled:
        if taken and _styles(_scanned((path,))) & taken:
            continue  # the game's own file of this family, weight and slant wins
        _add(config, path)
    for path in paths:
        _add(config, path)
    return config


@cache
def _scanned(paths: tuple[str, ...]) -> int:
    """A configuration of `paths` alone, to ask what they hold."""
    config = _new_configuration()
    for path in paths:
        _add(config, path)
    return config


def _add(config: int, path: str) -> None:
    if not _fontconfig().FcConfigAppFontAddFile(config, path.encode()):
        raise OutsideError(f"{path}: error: fontconfig cannot read this font file; "
                           "export it again as TrueType (.ttf)")
