"""Build cache: a PDF's inputs in; whether the PDF on disk is already what they would make out.

A PDF is a pure function of its page plans (every face's SVG as rendered, so the items' data,
the templates, the layout and the paper are all in it), its metadata, the bundled fonts, the
code that draws it (pnp's version and the source of its drawing modules, cairo's, cairosvg's
and pikepdf's versions) and the document's date (SOURCE_DATE_EPOCH). The cache key is a SHA-256 over all of them.

The record lives in the game's output folder (`.pnp-cache/build.json`): for each PDF, its key and
the SHA-256 of the bytes written. A PDF is reused only when both match, so a PDF edited, lost
or replaced by hand is rebuilt. The record is staged and renamed into place together with the
PDFs it describes, so an interrupted build leaves the old record beside the old PDFs and a
killed one leaves a record that is still true of every file it names.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from yaml.nodes import Node

from .. import __version__
from ..engine import store

CACHE_FILE = ".pnp-cache/build.json"
FORMAT = 3


@cache
def _cairo() -> bytes:
    return f"cairo {_cairo_version()}\0".encode()


def _toolchain() -> bytes:
    """What the drawing code is: pnp's whole installation (store.installation: every file of
    pnp, the installed distributions and Python's version) and the cairo library's version.
    No list of "drawing modules" is kept by hand: a PDF's bytes also depend on page boxes,
    viewer preferences, units and asset handling, anywhere in pnp."""
    return f"pnp {__version__} cache {FORMAT}\0{store.installation()}\0".encode() + _cairo()


def _cairo_version() -> str:
    """The cairo library's own version, asked of the library cairocffi loads."""
    import ctypes

    from ..libraries import open_library

    library = open_library("libcairo.so.2", "cairo")
    if library is None:
        return "unknown"
    library.cairo_version_string.restype = ctypes.c_char_p
    return library.cairo_version_string().decode()


def _fonts(font_files) -> bytes:
    """The fonts (name, path) a PDF is drawn with: hashed once per process, again only if a
    file's size or time changes (each PDF's key has them)."""
    files = []
    for name, path in font_files:
        info = path.stat()
        files.append((name, str(path), info.st_size, info.st_mtime_ns, info.st_ino))
    return _fonts_digest(tuple(files))


@lru_cache(maxsize=8)
def _fonts_digest(files: tuple) -> bytes:
    digest = hashlib.sha256()
    for name, path, *_ in files:
        digest.update(f"{name}\0".encode())
        digest.update(hashlib.sha256(Path(path).read_bytes()).digest())
    return digest.digest()


def output_key(plans, document, font_files) -> str:
    """The key of one PDF: everything its bytes depend on. `font_files`: (name, path) of
    each font it is drawn with (pnp.fonts.font_files)."""
    digest = hashlib.sha256(_toolchain())
    digest.update(_fonts(font_files))  # the document's date is one of its fields
    digest_value(digest, document)
    for plan in plans:
        digest_value(digest, plan)
    return digest.hexdigest()


class Undigestible(Exception):
    """A value whose every part cannot be told apart by its digest."""


def digest_value(digest, value: Any) -> None:
    """Every part of a value into `digest`, tagged by kind, so different values never give
    the same bytes: text as it is (faces are long), dataclasses field by field (whatever
    fields they gain later), containers item by item, YAML nodes as written. Anything else
    raises Undigestible rather than be told apart by a repr that may not show all of it."""
    if isinstance(value, str):
        kind = "s" if type(value) is str else f"s{type(value).__qualname__}"
        data = value.encode("utf-8", "surrogatepass")
        digest.update(f"{kind}{len(data)}:".encode() + data)
    elif value is None or isinstance(value, (bool, int, float, enum.Enum)):
        digest.update(f"{type(value).__qualname__}:{value!r};".encode())
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        head, names = _shape(type(value))
        digest.update(head)
        for name, label in names:
            digest.update(label)
            digest_value(digest, getattr(value, name))
        digest.update(b">")
    elif isinstance(value, dict):
        digest.update(b"{")
        for key, item in value.items():
            digest_value(digest, key)
            digest_value(digest, item)
        digest.update(b"}")
    elif isinstance(value, (list, tuple)):
        digest.update(b"[" if isinstance(value, list) else b"(")
        for item in value:
            digest_value(digest, item)
        digest.update(b"]")
    elif isinstance(value, Node):  # a manifest keeps some YAML as it was written
        digest.update(f"<{type(value).__name__} {value.tag} {value.start_mark.line} "
                      f"{value.start_mark.column} {getattr(value, 'style', None)}".encode())
        digest_value(digest, value.value)
        digest.update(b">")
    elif isinstance(value, Path):
        digest_value(digest, f"path {value}")
    else:
        raise Undigestible(type(value).__qualname__)


@cache
def _shape(kind: type) -> tuple[bytes, tuple[tuple[str, bytes], ...]]:
    """A dataclass's name and its fields' names, as `digest_value` writes them."""
    return (f"<{kind.__module__}.{kind.__qualname__}".encode(),
            tuple((field.name, f" {field.name}=".encode()) for field in dataclasses.fields(kind)))


def file_digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


class BuildCache:
    """The cache record of one game's output folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / CACHE_FILE
        self.entries: dict[str, dict[str, str]] = {}
        try:
            record = json.loads(self.path.read_text(encoding="utf-8"))
            if record.get("format") == FORMAT and isinstance(record.get("files"), dict):
                self.entries = {name: entry for name, entry in record["files"].items()
                                if isinstance(entry, dict)}
        except (OSError, ValueError, AttributeError):
            self.entries = {}  # no record, or an unreadable one: everything is rebuilt

    def lists(self, file_name: str) -> bool:
        return file_name in self.entries

    def fresh(self, file_name: str, key: str) -> bool:
        """Whether the PDF on disk is exactly what `key` would make."""
        entry = self.entries.get(file_name)
        if not entry or entry.get("key") != key:
            return False
        return file_digest(self.folder / file_name) == entry.get("sha256")

    def record(self, file_name: str, key: str, data: bytes) -> None:
        self.entries[file_name] = {"key": key, "sha256": hashlib.sha256(data).hexdigest()}

    def to_bytes(self) -> bytes:
        files = {name: self.entries[name] for name in sorted(self.entries)}
        return (json.dumps({"format": FORMAT, "files": files}, indent=1) + "\n").encode()
