"""The C libraries pnp opens itself through ctypes (fontconfig, and cairo to ask its
version): a usual file name in; the opened library, or None, out."""

from __future__ import annotations


def open_library(soname: str, name: str | None = None):
    """The library whose usual file name is `soname` (`libcairo.so.2`), as the dynamic loader
    finds it; failing that, and given its short `name` (`cairo`), wherever
    `ctypes.util.find_library` finds it, which runs ldconfig or a compiler in subprocesses,
    so it is only asked then. None if neither opens."""
    import ctypes

    try:
        return ctypes.CDLL(soname)
    except OSError:
        pass
    if name is None:
        return None
    import ctypes.util

    found = ctypes.util.find_library(name)
    try:
        return ctypes.CDLL(found) if found else None
    except OSError:
        return None
