"""Reads: a project file's path in; its bytes out, and what was found there told to whoever
listens (`listening`).

A check reads the project's files through this module: content YAML and CSV (and with them
a project's layouts.yaml and printer profiles), templates (through the renderer's loader,
one read for each folder it looks in, so a lookup that found nothing is noted as well),
art, and the bundled fonts. Each read is noted as an answer: for each path, what was there,
such as "absent", "folder" or the length and SHA-256 of the bytes (`answer` tells what a
read finds now). Stages read through here and know nothing of who listens: pnp.engine.reads
attaches its records (what a piece of work read, the key of everything kept), and a reader
that keeps what it read in memory (a template Jinja keeps compiled) notes its reads again
each time it uses them (`note`).

It is also the one confined opener: a read made while `confined(root)` is in force, or with
`inside=root`, is refused (`Outside`) unless the path, its symbolic links resolved, stays
inside `root`, and the file opened is inside it too (a link swapped in after the check is
caught). A link inside the project to another project file is followed; one leading
out of it (to /etc/passwd, to a CSV elsewhere) is refused with one message, wherever pnp reads.
"""

from __future__ import annotations

import hashlib
import os
import stat
from contextlib import contextmanager
from pathlib import Path
from collections.abc import Callable, Iterator

ABSENT = "absent"
FOLDER = "folder"
NOT_A_FILE = "not a file"  # a device, a pipe, a socket
FILE = "file"
# Besides a file's bytes, a read may be of what kind of thing is at a path (`kind`), or of the
# names in a folder (`listing`); each is noted under the path with its own suffix.
KIND_OF = "\0kind"
NAMES_IN = "\0names"
OUTSIDE = "outside"
OUTSIDE_MESSAGE = "leads outside the project folder (through a symbolic link or '..')"
OUTSIDE_HINT = "copy the file into the project instead of linking to it"
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


class NotAFile(OSError):
    """A path that is there but is not an ordinary file: a folder, a device, a pipe."""

    def __init__(self, path: str, folder: bool):
        super().__init__(f"{path}: not an ordinary file")
        self.folder = folder


class Outside(OSError):
    """A path that leads outside the folder the read is confined to."""

    def __init__(self, path: str):
        super().__init__(f"{path}: {OUTSIDE_MESSAGE}")
        self.path = path


Listener = Callable[[str, str], None]  # (path, answer)
_LISTENING: list[Listener] = []  # told every read, innermost last
_ROOTS: list[tuple[str, ...]] = []  # the folders reads are confined to now, innermost last


@contextmanager
def confined(*roots: str | Path) -> Iterator[None]:
    """Until the block ends, every read without its own `inside` must stay inside one of
    `roots` (links resolved)."""
    _ROOTS.append(tuple(os.path.realpath(root) for root in roots))
    try:
        yield
    finally:
        _ROOTS.pop()


def _roots(inside: str | Path | tuple | None) -> tuple[str, ...]:
    if inside is None:
        return _ROOTS[-1] if _ROOTS else ()
    if isinstance(inside, (str, os.PathLike)):
        inside = (inside,)
    return tuple(os.path.realpath(root) for root in inside)


def is_inside(path: str | Path, inside: str | Path | tuple | None = None) -> bool:
    """Whether `path`, links resolved, stays inside the confining folders (True when none)."""
    roots = _roots(inside)
    if not roots:
        return True
    return _within(os.path.realpath(path), roots)


def _within(real: str, roots: tuple[str, ...]) -> bool:
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep)
               for root in roots)


def _opened_inside(fd: int, path: str, roots: tuple[str, ...]) -> bool:
    """Whether the file open as `fd` is inside `roots`: the file itself, not its path, which
    a link swapped in after the path was checked could lead elsewhere. Linux names an open
    file's real path in /proc; elsewhere the file must be the one the path, links resolved,
    leads to now, and that path inside."""
    try:
        real = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        real = ""
    if real.startswith(os.sep):  # a file removed since: its name ends " (deleted)"
        return _within(real, roots)
    resolved = os.path.realpath(path)
    try:
        now = os.stat(resolved)
    except OSError:
        return False
    opened = os.fstat(fd)
    return (opened.st_dev, opened.st_ino) == (now.st_dev, now.st_ino) and \
        _within(resolved, roots)


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """`listener(path, answer)` is told every read made until the block ends."""
    _LISTENING.append(listener)
    try:
        yield
    finally:
        _LISTENING.remove(listener)


def note(path: str, answer: str) -> None:
    """A read made earlier, used again now (or made by another process): told again."""
    for listener in _LISTENING:
        listener(path, answer)


def digest(data: bytes) -> str:
    """The answer for a file that held `data`."""
    return f"{len(data)} {hashlib.sha256(data).hexdigest()}"


_OVERLAY: dict[str, bytes] = {}  # absolute path -> the bytes a read finds there instead


@contextmanager
def overlaid(files: dict[str, bytes]) -> Iterator[None]:
    """Until the block ends, a read of one of `files` (by absolute path) finds the bytes
    given, not the disk's: an editor's unsaved buffers laid over the project (pnp.lsp). What
    is noted is their digest, so what is kept from such a read is keyed on them."""
    _OVERLAY.update({os.path.abspath(path): data for path, data in files.items()})
    try:
        yield
    finally:
        _OVERLAY.clear()


def _read(path: str, limit: int | None, roots: tuple[str, ...] = ()) -> bytes:
    if _OVERLAY and os.path.abspath(path) in _OVERLAY:
        data = _OVERLAY[os.path.abspath(path)]
        return data if limit is None else data[:limit]
    # Opened without waiting (a pipe with no writer), then asked what it is and, when
    # confined, where it is: what was read is what was looked at, even if the file (or a
    # link on its path) is replaced meanwhile.
    # The descriptor stays this function's alone (closefd=False), closed once, here: a file
    # object that owned it, dropped by a Ctrl-C taken as it was made, closed it, and the
    # close here then failed (EBADF) in the interrupt's place, or closed another thread's file.
    fd = os.open(path, _FLAGS)
    try:
        if roots and not _opened_inside(fd, path, roots):
            raise Outside(path)
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotAFile(path, stat.S_ISDIR(mode))
        with open(fd, "rb", closefd=False) as handle:
            return handle.read() if limit is None else handle.read(limit)
    finally:
        os.close(fd)


def _failure(path: str, exc: OSError) -> str:
    if isinstance(exc, Outside):
        return OUTSIDE
    if isinstance(exc, NotAFile):
        return FOLDER if exc.folder else NOT_A_FILE
    if isinstance(exc, PermissionError) and os.path.isdir(path):
        return FOLDER  # Windows will not open a folder as a file
    if isinstance(exc, (FileNotFoundError, NotADirectoryError)):
        return ABSENT
    return f"unreadable {exc.errno}"


def look(path: str | Path, limit: int | None = None, inside: str | Path | tuple | None = None
         ) -> tuple[bytes | None, str, OSError | None]:
    """Read the file at `path` (at most `limit` bytes), noting the answer in every open
    record: its bytes (None if it could not be read), the answer, and why it could not.
    Confined to `inside` (a folder or several), else to those of `confined`, if any: a path
    leading out of them is not read (`Outside`)."""
    path = os.fspath(path)
    roots = _roots(inside)
    try:
        # Checked before it is opened (nothing outside is opened at all), and the file
        # opened checked again (a link swapped in between is caught).
        if roots and not _within(os.path.realpath(path), roots):
            raise Outside(path)
        data = _read(path, limit, roots)
    except OSError as exc:
        answer = _failure(path, exc)
        note(path, answer)
        return None, answer, exc
    answer = digest(data)
    note(path, answer)
    return data, answer, None


def read_file(path: str | Path, limit: int | None = None,
              inside: str | Path | tuple | None = None) -> bytes:
    """The bytes of the ordinary file at `path` (at most `limit`), noted in every open
    record; OSError as open() raises it (NotAFile for a folder, a device or a pipe; Outside
    for a path leading out of the folders the read is confined to)."""
    data, _, error = look(path, limit, inside)
    if error is not None:
        raise error
    return data


def exists(path: str | Path) -> bool:
    """Whether anything is at `path`; a path with nothing there is noted as absent (one that
    is there is read next, and noted then)."""
    if os.path.exists(path):
        return True
    note(os.fspath(path), ABSENT)
    return False


def _kind(path: str) -> str:
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return ABSENT
    except OSError as exc:
        return f"unreadable {exc.errno}"
    if stat.S_ISREG(mode):
        return FILE
    return FOLDER if stat.S_ISDIR(mode) else NOT_A_FILE


def kind(path: str | Path) -> str:
    """What is at `path`: FILE, FOLDER, ABSENT or NOT_A_FILE (noted in every open record)."""
    found = _kind(os.fspath(path))
    note(os.fspath(path) + KIND_OF, found)
    return found


def _names(path: str) -> tuple[list[str], str]:
    try:
        names = sorted(os.listdir(path))
    except (FileNotFoundError, NotADirectoryError):
        return [], ABSENT
    except OSError as exc:
        return [], f"unreadable {exc.errno}"
    return names, "names " + hashlib.sha256("\0".join(names).encode(
        "utf-8", "surrogateescape")).hexdigest()


def listing(path: str | Path) -> list[str]:
    """The names in the folder at `path`, sorted (none if it is not a folder), noted in
    every open record: a file added or removed there changes the answer."""
    names, found = _names(os.fspath(path))
    note(os.fspath(path) + NAMES_IN, found)
    return names


def read_limit(recorded: str) -> int:
    """How far to read to tell a file from a `recorded` answer: one byte past its length
    shows a file that grew; for an answer that is not a length, whether a file is there."""
    size = recorded.split(" ", 1)[0]
    return int(size) + 1 if size.isdigit() else 0


def answer(path: str, recorded: str) -> str:
    """What a read of `path` finds now, read as far as needed to tell it from `recorded`."""
    if path.endswith(KIND_OF):
        return _kind(path[:-len(KIND_OF)])
    if path.endswith(NAMES_IN):
        return _names(path[:-len(NAMES_IN)])[1]
    try:
        return digest(_read(path, read_limit(recorded)))
    except OSError as exc:
        return _failure(path, exc)
