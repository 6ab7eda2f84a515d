"""The C libraries pnp opens itself through ctypes (fontconfig, and cairo to ask its
version): a usual file name in; the opened library, or None, out. And Python modules whose
native extension must load whole (`load_whole`)."""

from __future__ import annotations

import importlib
import signal


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


# Ctrl-C, and the signals that stop a process, held while a module loads.
_HELD = {signal.SIGINT, signal.SIGTERM} | ({signal.SIGHUP} if hasattr(signal, "SIGHUP") else set())


def load_whole(module: str):
    """`module`, imported with Ctrl-C and SIGTERM held, and delivered once it has loaded:
    pikepdf's extension turns a signal taken while it loads into an ImportError, where an
    interrupted command must say that it was interrupted."""
    try:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    except (AttributeError, OSError, ValueError):  # no pthread_sigmask, or not the main thread
        return importlib.import_module(module)
    try:
        return importlib.import_module(module)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
