"""The user's cache: a key (text) in; the bytes kept under it by an earlier run out.

What pnp keeps between runs to save time (compiled Jinja, composed YAML) lives in the user's
cache folder, never in the project: `$PNP_CACHE_DIR`, else `$XDG_CACHE_HOME/pnp`, else
`~/.cache/pnp`. Each kind of value has a folder of its own whose name carries a digest of
everything that shapes the value (library versions, the source of the modules that make it),
so a change to any of them starts afresh. Entries are named by the SHA-256 of their key and
written to a temporary file then renamed, so a reader never sees half a value. A folder that
cannot be written, or an entry that cannot be read, only costs the time it would have saved.
"""

from __future__ import annotations

import hashlib
import os
import sys
from functools import cache
from pathlib import Path



def cache_home() -> Path:
    """pnp's folder in the user's cache: `$PNP_CACHE_DIR`, else `$XDG_CACHE_HOME/pnp`, else
    `~/.cache/pnp`."""
    return Path(os.environ.get("PNP_CACHE_DIR") or (
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pnp"))


def installed_distributions() -> bytes:
    """The installed distributions and their versions (their metadata folders' names)."""
    found = []
    for entry in sorted({e for e in sys.path if e.endswith(("site-packages", "dist-packages"))}):
        try:
            names = sorted(p for p in os.listdir(entry) if p.endswith((".dist-info",
                                                                         ".egg-info")))
        except OSError:
            continue
        found.append(f"{entry}\0{' '.join(names)}\0")
    return "".join(found).encode()


def folder(kind: str, *shaped_by: str) -> Path | None:
    """The folder for `kind`, named for Python's version and for `shaped_by` (library
    versions, and names of pnp's own modules whose source is read); None if it cannot be
    made."""
    return _folder(cache_home(), kind, shaped_by)


@cache
def _folder(home: Path, kind: str, shaped_by: tuple[str, ...]) -> Path | None:
    salt = hashlib.sha256(sys.implementation.cache_tag.encode())
    here = Path(__file__).parent
    for part in shaped_by:
        salt.update(part.encode() + b"\0")
        if part.endswith(".py"):
            salt.update((here / part).read_bytes())
    path = home / f"{kind}-{salt.hexdigest()[:16]}"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path


def _entry(where: Path, key: str) -> Path:
    return where / hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def holds(where: Path | None, key: str) -> bool:
    return where is not None and _entry(where, key).is_file()


def read(where: Path | None, key: str) -> bytes | None:
    if where is None:
        return None
    try:
        return _entry(where, key).read_bytes()
    except OSError:
        return None


def write(where: Path | None, key: str, data: bytes) -> None:
    if where is None:
        return
    path = _entry(where, key)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
