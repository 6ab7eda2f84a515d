"""Assets: file paths named by content (art, icons, fonts) in; files confined to the game folder out.

A path in content must be relative, stay inside the game's own folder once `..` and symbolic links
are resolved, and name an ordinary file: no absolute paths, no URLs (`http:`, `file:`, `data:`),
no `~`, no escapes. `resolve_asset` turns a bad path into a located finding.

`check_asset_bytes` checks every asset's bytes before anything draws them: SVG may not carry a
DOCTYPE (entities), may not be gzip-compressed (a 1 MB svgz can inflate to gigabytes), must refer
only to its own elements, and may draw at most MAX_SVG_ELEMENTS elements once every `<use>` and
`url(#...)` reference is expanded, so a reference bomb is refused in milliseconds instead of
rendering for minutes.
Raster images are measured from their header (`image_size`, without decoding a pixel) and
refused above MAX_IMAGE_PIXELS, also when embedded in SVG as a `data:` image. `refuse_fetch`
is the fetcher for our own templates, which never load anything; `art.check_art` is the
check for an image named by content.
"""

from __future__ import annotations

import hashlib
import io
import re
import struct
from pathlib import Path

from .probe import svg_draw_problem
from .. import reads
from ..findings import Findings, Location

MAX_ASSET_BYTES = 5_000_000
MAX_SVG_ELEMENTS = 20_000  # elements drawn once every reference is expanded
MAX_IMAGE_PIXELS = 40_000_000  # a full A4 page at 600 dpi is 35 million

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")  # also catches Windows drive letters (C:)
_UNSAFE_CHARS = re.compile(r"[\x00-\x1f\x7f-\x9f\\%#?]")
_LOCAL_REF = re.compile(r"""url\(\s*['"]?#([^)'"\s]+)""")
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_REFUSED_ELEMENTS = {
    "pattern": "patterns (nested patterns can take minutes to draw)",
    "marker": "markers (drawn once per vertex of every path)",
    "script": "scripts",
}


def _lexical_problem(relative: str) -> tuple[str, str] | None:
    """Why a path is refused before touching the disk, with a hint; None when it may be used."""
    if not relative.strip():
        return "is empty", "name a file inside the game folder"
    if _SCHEME.match(relative):
        return ("is a URL or drive path; only files inside the game folder can be used",
                "copy the file into the game folder and give its relative path")
    if relative.startswith(("/", "~")):
        return ("is an absolute path; only files inside the game folder can be used",
                "copy the file into the game folder and give its relative path")
    bad = _UNSAFE_CHARS.search(relative)
    if bad:
        shown = repr(bad.group())[1:-1]
        return (f"contains '{shown}'", "use plain file names separated by '/'")
    if ".." in relative.split("/"):
        return ("goes up out of its folder with '..'",
                "give the path from the game folder down, without '..'")
    return None


def resolve_asset(game_dir: Path, relative: str, findings: Findings, where: Location, *,
                  subject: str = "", field: str = "",
                  suffixes: tuple[str, ...] = ()) -> Path | None:
    """The absolute path of `relative` inside `game_dir`, or None with a finding at `where`."""
    shown = repr(relative)[1:-1]
    shown = shown if len(shown) <= 60 else shown[:57] + "..."

    def refuse(rule: str, message: str, hint: str) -> None:
        findings.error(rule, where, f"'{shown}' {message}", subject=subject, field=field,
                       hint=hint)

    problem = _lexical_problem(relative)
    if problem:
        refuse("asset-path", *problem)
        return None
    root = game_dir.resolve()
    try:
        full = (root / relative).resolve()
    except (OSError, RuntimeError):  # a symbolic link loop
        refuse("asset-path", "cannot be resolved (a symbolic link loop?)", "replace the link")
        return None
    if not full.is_relative_to(root):
        refuse("asset-outside", "leads outside the game folder (through a symbolic link)",
               "copy the file into the game folder instead of linking to it")
        return None
    found = reads.kind(full)
    if found == reads.ABSENT:
        refuse("asset-missing", "does not exist in the game folder",
               "check the spelling and the folder")
        return None
    if found != reads.FILE:
        refuse("asset-path", "is not an ordinary file", "name a file, not a folder")
        return None
    if suffixes and full.suffix.lower() not in suffixes:
        refuse("asset-type", f"is not one of: {', '.join(suffixes)}",
               "export it in one of these formats")
        return None
    return full


# -- checking asset bytes -------------------------------------------------------------------------

def check_asset_bytes(data: bytes) -> str | None:
    """Why these bytes may not be drawn, or None. SVG, PNG and Pillow-readable rasters.

    SVG that passes the static checks is drawn once in a bounded child process (10 s, 1 GiB)
    before pnp draws it itself; the answer is kept per content.
    """
    if len(data) > MAX_ASSET_BYTES:
        return f"is {len(data)} bytes, more than the {MAX_ASSET_BYTES} allowed"
    if data.startswith(b"\x1f\x8b"):
        return "is gzip-compressed (svgz); save it uncompressed"
    head = data[:1024].lstrip()
    if head.startswith((b"<svg", b"<?xml", b"<!")) or b"<svg" in data:
        # What the static checks cannot see (a text of millions of glyphs) is caught by one
        # trial drawing in a child process bounded in time and memory (pnp.load.probe).
        return check_svg_asset(data) or svg_draw_problem(data)
    return _check_raster(data)


def check_svg_asset(data: bytes) -> str | None:
    """Why an SVG asset may not be drawn (DOCTYPE, outside references, reference bomb), or None."""
    if data.startswith(b"\x1f\x8b"):
        return "is gzip-compressed (svgz); save it uncompressed"
    if re.search(rb"<!(DOCTYPE|ENTITY)", data, re.IGNORECASE):
        return "has a DOCTYPE or ENTITY declaration; remove it (assets may not define entities)"
    import defusedxml.ElementTree as SafeXML  # loaded only for a game with SVG art
    from defusedxml import DefusedXmlException

    try:
        root = SafeXML.fromstring(data, forbid_dtd=True)
    except (SafeXML.ParseError, DefusedXmlException) as exc:
        return f"is not well-formed SVG: {' '.join(str(exc).split())}"
    elements = list(root.iter())
    by_id = {}
    for element in elements:
        name = _local(element.tag)
        if name in _REFUSED_ELEMENTS:
            return f"uses {_REFUSED_ELEMENTS[name]}, which assets may not contain"
        if name == "style" and "url(" in (element.text or ""):
            return "has a <style> that refers to other elements; use attributes instead"
        if element.get("id"):
            by_id[element.get("id")] = element
    for element in elements:
        href = element.get(_XLINK_HREF, element.get("href"))
        if href and not href.startswith(("#", "data:")):
            return f"refers to '{href[:60]}' outside itself; assets must be self-contained"
    try:
        _weight(root, by_id, {}, set())
    except _Refused as exc:
        return str(exc)
    except RecursionError:
        return "is nested too deeply to draw"
    return None


class _Refused(Exception):
    pass


_TOO_MANY = (f"would draw more than {MAX_SVG_ELEMENTS} elements once its <use> references are "
             "expanded (a reference bomb?)")


def _weight(element, by_id: dict, memo: dict, active: set) -> int:
    """Elements cairosvg draws for `element`: itself, its children, and what it refers to."""
    key = id(element)
    if key in memo:
        return memo[key]
    if key in active:
        raise _Refused("refers to itself in a cycle, which never finishes drawing")
    active.add(key)
    total = 1
    for child in element:
        total += _weight(child, by_id, memo, active)
    targets = []
    href = element.get(_XLINK_HREF, element.get("href")) or ""
    if href.startswith("#"):
        targets.append(href[1:])
    elif href.startswith("data:") and _local(element.tag) == "image":
        total += _data_image_weight(href)
    for value in element.attrib.values():
        targets.extend(_LOCAL_REF.findall(value))
    for target in targets:
        if target in by_id:
            total += _weight(by_id[target], by_id, memo, active)
        if total > MAX_SVG_ELEMENTS:
            raise _Refused(_TOO_MANY)
    active.discard(key)
    if total > MAX_SVG_ELEMENTS:
        raise _Refused(_TOO_MANY)
    memo[key] = total
    return total


def _data_image_weight(url: str) -> int:
    """An embedded SVG image is drawn in full wherever the <image> is drawn."""
    try:
        data = _decoded(url)  # data: URLs only: decoded in memory, no network
    except (OSError, ValueError):
        return 1  # cairosvg will fail to read it too
    if b"<svg" not in data:
        problem = _check_raster(data)  # a bomb inside the SVG is as much a bomb
        if problem:
            raise _Refused(f"embeds an image that {problem}")
        return 1
    problem = check_svg_asset(data)
    if problem:
        raise _Refused(f"embeds an image that {problem}")
    import defusedxml.ElementTree as SafeXML

    root = SafeXML.fromstring(data, forbid_dtd=True)
    return sum(1 for _ in root.iter())


def image_size(data: bytes) -> tuple[str, int, int] | None:
    """(kind, width, height) in pixels read from the file's header, or None when unreadable.

    PNG, JPEG, GIF and WebP headers are read here, byte by byte, so a decompression bomb is
    measured without a single pixel being decoded; other formats go to Pillow, whose `open`
    also reads only the header.
    """
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        if len(data) < 24 or data[12:16] != b"IHDR":
            return None
        width, height = struct.unpack(">II", data[16:24])
        return "png", width, height
    if data.startswith(b"\xff\xd8"):
        return _jpeg_size(data)
    if data.startswith((b"GIF87a", b"GIF89a")) and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return "gif", width, height
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return _webp_size(data)
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as image:  # reads the header only
            width, height = image.size
            kind = (image.format or "image").lower()
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
    return kind, width, height


_JPEG_FRAMES = {*range(0xC0, 0xD0)} - {0xC4, 0xC8, 0xCC}  # start-of-frame markers


def _jpeg_size(data: bytes) -> tuple[str, int, int] | None:
    """Walk the JPEG segments to the first start-of-frame, which holds the size."""
    index = 2
    while index + 4 <= len(data):
        if data[index] != 0xFF:
            return None
        marker = data[index + 1]
        if marker == 0xFF:  # fill byte
            index += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD9)):  # markers without a length
            index += 2
            continue
        (length,) = struct.unpack(">H", data[index + 2:index + 4])
        if marker in _JPEG_FRAMES:
            if index + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[index + 5:index + 9])
            return "jpeg", width, height
        if length < 2:
            return None
        index += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[str, int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
    elif chunk == b"VP8 " and len(data) >= 30:
        width, height = (v & 0x3FFF for v in struct.unpack("<HH", data[26:30]))
    elif chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        width, height = (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    else:
        return None
    return "webp", width, height


def _check_raster(data: bytes) -> str | None:
    size = image_size(data)
    if size is None:
        return "is not an image that can be drawn (its header cannot be read)"
    _, width, height = size
    if width * height > MAX_IMAGE_PIXELS:
        return (f"is {width} x {height} pixels, more than the {MAX_IMAGE_PIXELS} allowed; "
                "scale it down")
    if not width or not height:
        return f"is {width} x {height} pixels: it has no pixels to draw"
    return decode_problem(data)


_DECODED: dict[bytes, str | None] = {}  # content hash -> why its pixels cannot be decoded


def decode_problem(data: bytes) -> str | None:
    """Why the raster `data` cannot be decoded whole, or None: every pixel is decoded, as the
    build's drawing decodes it (cairosvg opens non-PNG art with Pillow and hands it to cairo
    as PNG; PNG goes to libpng, which like Pillow refuses a truncated stream or a broken
    chunk), so a truncated or corrupt file is a finding of check, not a failure of build.
    Kept per content: every card with the same art pays for one decoding."""
    key = hashlib.sha256(data).digest()
    if key not in _DECODED:
        from PIL import Image, ImageFile, ImageOps

        ImageFile.LOAD_TRUNCATED_IMAGES = False  # a truncated file is an error, as for cairo
        try:
            with Image.open(io.BytesIO(data)) as image:
                ImageOps.exif_transpose(image).load()
            _DECODED[key] = None
        except (OSError, ValueError, SyntaxError, EOFError, Image.DecompressionBombError,
                struct.error) as exc:
            reason = " ".join(str(exc).split())[:120] or type(exc).__name__
            _DECODED[key] = (f"cannot be decoded ({reason}): the file is truncated or "
                             "damaged; export it again")
    return _DECODED[key]


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


# -- the fetchers --------------------------------------------------------------------------------

class RefusedFetch(Exception):
    pass


def _decoded(url: str) -> bytes:
    """A `data:` URL's bytes, decoded in memory by urllib's DataHandler (never the network)."""
    from urllib.request import urlopen

    with urlopen(url) as handle:
        return handle.read()


def refuse_fetch(url: str, resource_type: str) -> bytes:
    """cairosvg's fetcher for pnp's own templates: a face may embed checked art as a `data:`
    image (the `image()` template helper does); nothing else, no file and no network, is
    ever read."""
    if url.startswith("data:image/") and resource_type.startswith("image/"):
        problem = check_asset_bytes(data := _decoded(url))
        if problem is None:
            return data
        raise RefusedFetch(f"refused an embedded image: it {problem}")
    raise RefusedFetch(f"refused to fetch {url[:80]!r}: templates may not load external "
                       "resources")


__all__ = [
    "MAX_ASSET_BYTES", "MAX_IMAGE_PIXELS", "MAX_SVG_ELEMENTS", "RefusedFetch",
    "check_asset_bytes", "check_svg_asset", "decode_problem", "image_size", "refuse_fetch",
    "resolve_asset",
]
