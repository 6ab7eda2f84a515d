"""The user's cache: a key (text) in; the bytes an earlier run kept under it out. One store
for everything pnp keeps between runs to save time, with one place, one cap per kind and one
way of pruning.

Where: `$PNP_CACHE_DIR`, else the platform's cache folder: `$XDG_CACHE_HOME/pnp`, else
`~/.cache/pnp` (Linux and other Unix); `~/Library/Caches/pnp` (macOS);
`%LOCALAPPDATA%\\pnp\\Cache` (Windows). Never in the project. `pnp cache` prints where it is
and its size; `pnp cache clear` removes it.

Each kind of value (compiled Jinja, a check's sheets, remembered answers) has a folder of its
own, `<kind>-<16 hex digits>`, the digits a digest of pnp's whole installation
(`installation()`: every file of pnp, the installed distributions, Python's version). That
is the one key of pnp's own code for every kind: a change to any file of pnp, or an upgraded
library, starts afresh in new folders, and the old ones are pruned away. Entries are files
named by the SHA-256 of their key, written to a temporary file then renamed, so a reader
never sees half a value; each holds its value after a mark and the value's SHA-256, so an
entry damaged since (truncated, a byte changed) is read as no entry, never as another value.
Reading an entry sets its time to now, so "oldest" means least recently used.

Every kind is capped (MAX_BYTES, DEFAULT_MAX_BYTES for any other) and so is the whole store
(STORE_MAX_BYTES). A check prunes the store at its end, at most once every PRUNE_EVERY_S:
each kind's folder beyond its cap, then the whole store beyond its own, loses its oldest
entries until it is down to three quarters of the cap.

Deleting is always safe: any entry, any folder or the whole store may go at any time (by
hand, `pnp cache clear`, or another process pruning). A missing entry, one that cannot be
read, or a folder that cannot be written only costs the time the entry would have saved.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import shutil
import sys
import time
from functools import cache
from pathlib import Path

MIB = 1024 * 1024
# The cap of each kind's folder, in bytes; a kind not listed (an old pnp's) has the default.
MAX_BYTES = {"sheets": 256 * MIB, "jinja": 64 * MIB, "answers": 16 * MIB}
DEFAULT_MAX_BYTES = 16 * MIB
STORE_MAX_BYTES = 512 * MIB
PRUNE_EVERY_S = 600
PRUNED_MARK = ".pruned"  # its time: when the store was last pruned
# A kind's folder; and the folder of an earlier pnp's remembered answers, also removed.
_KIND_FOLDER = re.compile(r"(?P<kind>[a-z0-9][a-z0-9.-]*)-[0-9a-f]{16}")
_LEGACY = ("checks",)


def cache_home() -> Path:
    """pnp's folder in the user's cache (see the module's notes)."""
    chosen = os.environ.get("PNP_CACHE_DIR")
    if chosen:
        return Path(chosen)
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "pnp"
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return (Path(local) if local else Path.home() / "AppData" / "Local") / "pnp" / "Cache"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    # The XDG spec: a relative path is invalid and is ignored.
    return (Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache") / "pnp"


def folder(kind: str) -> Path | None:
    """The folder for `kind`, named for pnp's installation; None if it cannot be made."""
    return _folder(cache_home(), kind)


@cache
def _folder(home: Path, kind: str) -> Path | None:
    path = home / f"{kind}-{installation()[:16]}"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path


def _entry(where: Path, key: str) -> Path:
    return where / hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def holds(where: Path | None, key: str) -> bool:
    return where is not None and _entry(where, key).is_file()


_MARK = b"pnp-cache-1\n"  # then the SHA-256 of the value, then the value
_HEAD = len(_MARK) + hashlib.sha256().digest_size


def read(where: Path | None, key: str) -> bytes | None:
    """The bytes kept under `key`, or None (also for an entry damaged since it was written);
    a hit makes the entry the newest."""
    if where is None:
        return None
    return read_file(_entry(where, key))


def read_file(path: Path) -> bytes | None:
    """The value `write_file` kept at `path`, or None (absent, unreadable or damaged)."""
    try:
        sealed = path.read_bytes()
    except OSError:
        return None
    data = memoryview(sealed)[_HEAD:]
    if not sealed.startswith(_MARK) or \
            hashlib.sha256(data).digest() != sealed[len(_MARK):_HEAD]:
        return None
    touch(path)
    return bytes(data)


def touch(path: Path | str) -> None:
    """Mark an entry as just used, so pruning keeps it longer (best effort)."""
    try:
        os.utime(path)
    except OSError:
        pass


def write(where: Path | None, key: str, data: bytes) -> None:
    """Keep `data` under `key` (best effort); a folder deleted meanwhile is made again."""
    if where is not None:
        write_file(_entry(where, key), data)


def write_file(path: Path, data: bytes) -> None:
    """Keep `data` in the entry file `path` of a kind's folder (best effort), for
    `read_file`; a folder deleted meanwhile is made again."""
    where = path.parent
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    sealed = _MARK + hashlib.sha256(data).digest() + data
    for attempt in (1, 2):
        try:
            temporary.write_bytes(sealed)
            os.replace(temporary, path)
            return
        except FileNotFoundError:
            temporary.unlink(missing_ok=True)
            if attempt == 2:
                return
            try:
                where.mkdir(parents=True, exist_ok=True)
            except OSError:
                return
        except OSError:
            temporary.unlink(missing_ok=True)
            return


# What pickling a value that cannot be written exactly raises.
UNPICKLABLE = (pickle.PicklingError, TypeError, AttributeError, RecursionError)


def read_value(where: Path | None, key: str):
    """The value `write_value` kept under `key`, or None (also for an entry that cannot be
    unpickled, or kept under another key whose digest is the same)."""
    data = read(where, key)
    if data is None:
        return None
    try:
        entry = pickle.loads(data)
        return entry[1] if entry[0] == key else None
    except Exception:  # noqa: BLE001 - an unreadable entry only costs the work again
        return None


def write_value(where: Path | None, key: str, value) -> None:
    """Keep `value` pickled under `key` (best effort): a value pickle cannot write is not
    kept, and the work is done again next time. Pickle is the store's one serializer."""
    try:
        data = pickle.dumps((key, value), pickle.HIGHEST_PROTOCOL)
    except UNPICKLABLE:
        return
    write(where, key, data)


# What an installed distribution is, among the names in a folder on sys.path: its metadata
# folder (name and version), a legacy development link, or a .pth file adding folders.
_METADATA = (".dist-info", ".egg-info", ".egg-link", ".pth")
# The files of a metadata folder that decide what pnp finds: what the distribution is, its entry
# points (the rules plug-ins), and for an editable install where its code is.
_STAMPED = ("METADATA", "PKG-INFO", "entry_points.txt", "direct_url.json", "top_level.txt")


def stamp(path: str) -> str:
    """A file's size, time and inode ("absent" when there is none), as Python judges its
    compiled modules."""
    try:
        info = os.stat(path)
    except OSError:
        return "absent"
    return f"{info.st_size} {info.st_mtime_ns} {info.st_ino}"


def installed_distributions() -> bytes:
    """Every distribution Python finds on sys.path, wherever it lives (site-packages, a
    PYTHONPATH folder, the working folder, a source folder a .pth names), as
    importlib.metadata would find them: each folder's metadata folders and .pth files by
    name (a distribution's name and version), with the files that say what it provides (its
    entry points, and for an editable or path install where its code is) by size, time and
    inode. A plug-in installed or removed anywhere Python looks changes this. The code a
    distribution runs is stamped where it is loaded (its modules' files), and the files a
    plug-in reads, where it declares them (pnp.rules.plugins)."""
    found = []
    seen = set()
    for entry in sys.path:
        folder = entry or os.getcwd()
        if folder in seen:
            continue
        seen.add(folder)
        try:
            names = sorted(name for name in os.listdir(folder) if name.endswith(_METADATA))
        except OSError:
            continue
        found.append(f"{folder}\0")
        for name in names:
            path = os.path.join(folder, name)
            if name.endswith((".dist-info", ".egg-info")) and os.path.isdir(path):
                stamps = " ".join(stamp(os.path.join(path, file)) for file in _STAMPED)
            else:
                stamps = stamp(path)
            found.append(f"{name} {stamps}\0")
    return "".join(found).encode("utf-8", "surrogateescape")


@cache
def installation() -> str:
    """pnp itself (its files by name, size, time and inode, as Python judges its compiled
    modules), the installed distributions and Python's version, once per process: the code a
    process runs is the code it loaded. Part of the key of every kept result that pnp's code
    computed."""
    here = Path(__file__).parent.parent  # pnp/
    digest = hashlib.sha256(f"{sys.version}\0".encode())
    digest.update(installed_distributions())
    for root, folders, files in os.walk(here):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in sorted(files):
            path = os.path.join(root, name)
            info = os.stat(path)
            digest.update(f"{os.path.relpath(path, here)}\0{info.st_size} "
                          f"{info.st_mtime_ns} {info.st_ino}\0".encode())
    return digest.hexdigest()


# -- size, pruning, clearing ----------------------------------------------------------------

class KindUsage:
    """What one kind holds in the store, over all its folders. (A plain class: the console
    script imports this module before anything else, and a dataclass costs its import.)"""

    def __init__(self, kind: str, files: int = 0, bytes: int = 0) -> None:
        self.kind, self.files, self.bytes = kind, files, bytes

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KindUsage) and \
            (self.kind, self.files, self.bytes) == (other.kind, other.files, other.bytes)

    def __repr__(self) -> str:
        return f"KindUsage({self.kind!r}, files={self.files}, bytes={self.bytes})"


def _kind_of(name: str) -> str | None:
    """The kind a folder in the store holds, or None for a folder pnp did not make."""
    match = _KIND_FOLDER.fullmatch(name)
    if match:
        return match["kind"]
    return name if name in _LEGACY else None


def _entries(path: Path) -> list[tuple[int, int, str]]:
    """(time, size, path) of every file under a folder of the store."""
    found = []
    for root, _, files in os.walk(path):
        for name in files:
            full = os.path.join(root, name)
            try:
                info = os.stat(full)
            except OSError:  # removed meanwhile
                continue
            found.append((info.st_mtime_ns, info.st_size, full))
    return found


def _kind_folders(home: Path) -> list[tuple[str, Path]]:
    try:
        children = sorted(home.iterdir())
    except OSError:
        return []
    return [(kind, child) for child in children
            if child.is_dir() and not child.is_symlink() and (kind := _kind_of(child.name))]


def usage(home: Path | None = None) -> list[KindUsage]:
    """What the store holds, kind by kind, largest first."""
    kinds: dict[str, KindUsage] = {}
    for kind, path in _kind_folders(home or cache_home()):
        used = kinds.setdefault(kind, KindUsage(kind))
        for _, size, _ in _entries(path):
            used.files += 1
            used.bytes += size
    return sorted(kinds.values(), key=lambda used: (-used.bytes, used.kind))


def _remove_oldest(entries: list[tuple[int, int, str]], total: int, cap: int) -> int:
    """Remove the oldest entries while `total` is beyond `cap`, down to three quarters of it;
    returns what is left."""
    if total <= cap:
        return total
    for _, size, path in sorted(entries):
        if total <= cap * 3 // 4:
            break
        try:
            os.unlink(path)
        except OSError:  # removed by another process meanwhile: it is gone all the same
            pass
        total -= size
    return total


def prune(home: Path | None = None, *, now: bool = False) -> None:
    """Bring every kind within its cap and the store within STORE_MAX_BYTES, oldest entries
    first; unless `now`, only when the last pruning is PRUNE_EVERY_S old (a stat, otherwise).
    Best effort: a store that cannot be read or written is left as it is."""
    home = home or cache_home()
    mark = home / PRUNED_MARK
    if not now:
        try:
            if time.time() - mark.stat().st_mtime < PRUNE_EVERY_S:
                return
        except FileNotFoundError:
            pass
        except OSError:
            return
    left = []
    for kind, path in _kind_folders(home):
        entries = _entries(path)
        total = sum(size for _, size, _ in entries)
        cap = 0 if kind in _LEGACY else MAX_BYTES.get(kind, DEFAULT_MAX_BYTES)
        if _remove_oldest(entries, total, cap) != total:
            entries = _entries(path)
        left += entries
    _remove_oldest(left, sum(size for _, size, _ in left), STORE_MAX_BYTES)
    try:
        if home.is_dir():
            mark.touch()
    except OSError:
        pass


def clear(home: Path | None = None) -> int:
    """Remove the store: every folder pnp made in it, and the folder itself when nothing
    else is left in it (a `PNP_CACHE_DIR` holding other files keeps them). Returns the
    bytes freed."""
    home = home or cache_home()
    freed = 0
    for _, path in _kind_folders(home):
        freed += sum(size for _, size, _ in _entries(path))
        shutil.rmtree(path, ignore_errors=True)
    (home / PRUNED_MARK).unlink(missing_ok=True)
    try:
        home.rmdir()
    except OSError:  # not empty (files that are not pnp's), or already gone
        pass
    _folder.cache_clear()
    return freed
