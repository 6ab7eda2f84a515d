"""The C libraries pnp opens itself through ctypes (fontconfig, and cairo to ask its
version): a usual file name in; the opened library, or None, out. Python modules whose
native extension must load whole (`load_whole`). And the signals that stop a command
(`stop_on_signals`): each raised as Ctrl-C is, so every command ends the same way, with the
exit code of the signal (`exit_code`: 130 for Ctrl-C, 143 for SIGTERM)."""

from __future__ import annotations

import importlib
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


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


# Ctrl-C, kill, and a closed terminal (SIGHUP, where the platform has it): what stops a
# command, and what `signals_kept_back` keeps back.
STOPPING = (signal.SIGINT, signal.SIGTERM) + ((signal.SIGHUP,) if hasattr(signal, "SIGHUP")
                                              else ())


class Stopped(KeyboardInterrupt):
    """A signal that stops a command other than Ctrl-C (SIGTERM, SIGHUP), raised as Ctrl-C
    is, so whatever cleans up after a Ctrl-C cleans up after it; `signum` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"signal {signum}")
        self.signum = signum


def stop(signum: int, frame=None) -> None:
    """The handler of a stopping signal other than Ctrl-C: raise `Stopped`."""
    raise Stopped(signum)


def stop_on_signals() -> None:
    """SIGTERM and SIGHUP raise `Stopped` in the main thread from now on, instead of ending
    the process on the spot (which left its workers' scratch folders behind). A signal the
    process was started ignoring (a command run with nohup) stays ignored."""
    for signum in STOPPING:
        if signum != signal.SIGINT and signal.getsignal(signum) == signal.SIG_DFL:
            signal.signal(signum, stop)


def exit_code(interrupt: KeyboardInterrupt) -> int:
    """The exit code of a command the signal behind `interrupt` stopped: 128 + its number,
    as a shell reports a process the signal ended (130 for Ctrl-C, 143 for SIGTERM)."""
    return 128 + getattr(interrupt, "signum", signal.SIGINT)


@contextmanager
def signals_kept_back() -> Iterator[None]:
    """Ctrl-C and SIGTERM noted, not acted on, while the block runs, and raised again once it
    has, to the handler the command had set. Blocking the signals is not enough where there
    are other threads (a worker pool's, while a build draws): one they take is acted on in
    the main thread at its next instruction, mask or not. Elsewhere than in the main thread
    no handler can be set: the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    taken: list[int] = []
    previous = {}
    try:
        for signum in STOPPING:
            previous[signum] = signal.signal(signum, lambda signum, frame: taken.append(signum))
        yield
    finally:
        for signum, handler in previous.items():
            if handler is not None:
                signal.signal(signum, handler)
        if taken:
            signal.raise_signal(taken[0])


def load_whole(module: str):
    """`module`, imported with Ctrl-C and SIGTERM kept back until it has loaded
    (`signals_kept_back`): pikepdf's extension turns a KeyboardInterrupt raised while it
    loads into an ImportError, or nanobind aborts the process, where an interrupted command
    must say that it was interrupted."""
    with signals_kept_back():
        return importlib.import_module(module)
