"""Errors from outside: an OSError, a full disk, a missing font in; one line for the user out.

Content mistakes are findings (`findings.py`). Everything else that can go wrong around pnp (the
file system, permissions, disk space, fonts, an interrupted write) is raised as an OutsideError
that already holds its one printable line, `<path>: error: <what>; <what to do>`, and the CLI
prints it and exits 1. `outside_error` turns any OSError into one; `describe_os_error` gives the
wording. Only an exception that is none of these is a bug, reported as "internal error".
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from .findings import cap_words, display_path

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2  # clean; content or build errors; usage


class UsageError(Exception):
    """The command line asks for something pnp cannot do: exit 2, one line."""


class OutsideError(Exception):
    """A failure of the world around pnp, phrased as one line that names the path at fault."""

    def __init__(self, line: str, exit_code: int = EXIT_ERRORS):
        super().__init__(line)
        self.line = cap_words(" ".join(line.split()))
        self.exit_code = exit_code

    def __str__(self) -> str:
        return self.line


def shown(path: os.PathLike | str) -> str:
    """A path as the user will recognise it: relative to the cwd when inside it, and its last
    part never replaced by what a symbolic link there points to."""
    path = Path(path)
    if not path.name or path.name == "..":
        return display_path(path, Path.cwd())
    parent = display_path(path.parent, Path.cwd())
    return path.name if parent in ("", ".") else f"{parent.rstrip('/')}/{path.name}"


def human_bytes(count: int | float) -> str:
    """1536 -> '1.5 KB'; decimal units, as disk tools show free space."""
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if abs(count) < 1000 or unit == "TB":
            return f"{count:.0f} {unit}" if unit == "bytes" else f"{count:.1f} {unit}"
        count /= 1000
    raise AssertionError("unreachable")


def free_space(folder: Path) -> int | None:
    """Bytes an ordinary user may still write under `folder`, or None where it cannot be read."""
    for candidate in (folder, *folder.parents):
        try:
            info = os.statvfs(candidate)
        except (OSError, AttributeError):
            continue
        return info.f_bavail * info.f_frsize
    return None


def _blocking_file(path: Path) -> Path | None:
    """The nearest ancestor of `path` (or `path` itself) that exists but is not a folder."""
    for candidate in (path, *path.parents):
        try:
            if candidate.is_symlink() and not candidate.exists():
                return candidate  # a dangling link cannot be made into a folder either
            if candidate.exists():
                return None if candidate.is_dir() else candidate
        except OSError:  # a folder that cannot be looked into: not a file in the way
            return None
    return None


def describe_os_error(exc: OSError, path: os.PathLike | str | None = None,
                      doing: str = "read it", writing: bool = False
                      ) -> tuple[Path | None, str, str]:
    """(the path at fault, what went wrong, what to do) for an OSError met while `doing`.

    `writing` says the path is where output goes, so another folder (--out) is a way out.
    """
    if isinstance(exc.errno, str) and exc.errno.startswith("cairo returned"):
        # cairocffi raises OSError(message, status): cairo failed writing its scratch PDF
        import tempfile  # only here: most runs never fail, and it loads shutil and random

        return (Path(tempfile.gettempdir()),
                "cairo cannot write its scratch file in this temporary folder (full, or not "
                "writable?)", "free some space there, or set TMPDIR to another folder")
    where = Path(path) if path is not None else (
        Path(os.fsdecode(exc.filename)) if exc.filename is not None else None)
    code = exc.errno
    reason = exc.strerror or str(exc) or type(exc).__name__
    elsewhere = ", or choose another folder with --out" if writing else ""
    if code in (errno.ENOSPC, errno.EDQUOT):
        what = "the disk is full" if code == errno.ENOSPC else "the disk quota is used up"
        return where, f"cannot {doing}: {what}", f"free some space{elsewhere}"
    if code in (errno.ENOTDIR, errno.EEXIST) and where is not None:
        blocking = _blocking_file(where)
        if blocking is not None:
            kind = "a symbolic link to nothing" if blocking.is_symlink() else "a file"
            return (blocking, f"is {kind}, but pnp needs a folder here to {doing}",
                    f"move it away{elsewhere}")
    if code == errno.EISDIR:
        return (where, f"is a folder where pnp must {doing}",
                "move the folder away or rename it; nothing was replaced")
    if code in (errno.EACCES, errno.EPERM):
        may = "write there" if writing else "read it"
        return where, f"permission denied: cannot {doing}", f"check that you may {may}{elsewhere}"
    if code == errno.EROFS:
        return (where, f"cannot {doing}: the file system is read-only",
                "choose another folder with --out" if writing else "copy the files elsewhere")
    if code == errno.ENOENT:
        return (where, f"cannot {doing}: no such file or folder"
                + (" (or it cannot be created there)" if writing else ""),
                f"check the path{elsewhere}")
    if code == errno.ENAMETOOLONG:
        return where, f"cannot {doing}: the name is too long", "choose a shorter path"
    if code == errno.ELOOP:
        return where, f"cannot {doing}: a symbolic link loops", "replace the link"
    if code in (errno.EMFILE, errno.ENFILE):
        return where, f"cannot {doing}: too many open files", "close some programs and retry"
    if code == errno.EIO:
        return (where, f"cannot {doing}: input/output error",
                f"the disk or drive may be failing or was removed; retry{elsewhere}")
    return where, f"cannot {doing}: {reason}", f"check the path and retry{elsewhere}"


def outside_error(exc: OSError, path: os.PathLike | str | None = None,
                  doing: str = "read it", writing: bool = False) -> OutsideError:
    """The OutsideError for an OSError met while `doing` something to `path`."""
    where, what, hint = describe_os_error(exc, path, doing, writing)
    prefix = f"{shown(where)}: error:" if where is not None else "pnp: error:"
    return OutsideError(f"{prefix} {what}; {hint}")


def disk_full(exc: OSError, folder: Path, needed_bytes: int) -> OutsideError:
    """The disk filled while writing into `folder`; the build needs at least `needed_bytes`."""
    free = free_space(folder)
    left = f" and {human_bytes(free)} is free" if free is not None else ""
    kind = "the disk is full" if exc.errno == errno.ENOSPC else "the disk quota is used up"
    return OutsideError(
        f"{shown(folder)}: error: {kind}; this build needs at least {human_bytes(needed_bytes)} "
        f"there{left}; nothing was replaced: free some space, or choose another folder with --out")


def is_disk_full(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


__all__ = ["OutsideError", "UsageError", "describe_os_error", "disk_full", "free_space",
           "human_bytes", "is_disk_full", "outside_error", "shown"]
