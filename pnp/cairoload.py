"""Loading cairocffi without its two slow steps: cairo's C declarations in, compiled once and
kept in the user's cache; the `cairocffi.ffi` module cairocffi expects out.

cairocffi declares cairo's API to cffi as C source, which cffi parses with pycparser each
time cairocffi is imported (about 70 ms); then it asks `ctypes.util.find_library` for three
spellings of cairo's name, which on Linux runs ldconfig, the C compiler and the linker in
subprocesses (about 30 ms). Together they are the largest part of loading the drawing
libraries, which a build's first drawing process waits for.

cffi's own remedy is its "out-of-line" mode: the parsed declarations written out as a Python
module (`cffi.recompiler.make_py_source`) that loads without parsing. The first import after
cairocffi or cffi changes is cairocffi's own; its declarations are then written out, compiled
and kept (pnp.usercache), and later imports are handed them by an import hook in place of
`cairocffi.ffi`. They are the same declarations, so cairo is called exactly as before (one
difference: a function the installed cairo lacks raises cffi's error, not AttributeError). On
Linux, where the loader finds cairo by its soname (the name cairocffi falls back to after
asking find_library), find_library is not asked.

Anything unexpected (cairocffi already loaded, xcffib present, a cache that cannot be read or
written, a kept value that does not load) leaves cairocffi to import itself as usual.
"""

from __future__ import annotations

import sys

_MODULE = "cairocffi.ffi"
_CAIRO = "pnp._cairo_declarations"  # the names the written-out modules know each other by
_PIXBUF = "pnp._cairo_pixbuf_declarations"
_SONAME = "libcairo.so.2"


def install() -> None:
    """Put the import hook first in line, unless cairocffi is loaded already."""
    if "cairocffi" not in sys.modules and not any(isinstance(f, _Hook) for f in sys.meta_path):
        sys.meta_path.insert(0, _Hook())


class _Hook:
    """The import hook: answers for `cairocffi.ffi` once, then steps aside."""

    def find_spec(self, name, path, target=None):
        if name != _MODULE:
            return None
        # A new list: the import system is iterating over the one it has.
        sys.meta_path = [finder for finder in sys.meta_path if finder is not self]
        try:
            return _spec(name, path)
        except Exception:  # noqa: BLE001 - whatever went wrong, cairocffi imports itself
            return None


def _spec(name: str, path):
    import importlib.util
    from importlib.machinery import ModuleSpec, PathFinder

    from . import usercache

    if not path or importlib.util.find_spec("xcffib") is not None:
        return None  # with xcffib, cairocffi declares more than is kept here
    where = usercache.folder("cairo-ffi", _shaped_by(path[0]))
    kept = usercache.read(where, "declarations")
    if kept is not None:
        try:
            return ModuleSpec(name, _Loader(*_load(kept)))
        except Exception:  # noqa: BLE001 - unusable: parsed again below, and replaced
            pass
    spec = PathFinder.find_spec(name, path)
    if spec is None or spec.loader is None:
        return None
    spec.loader = _Keeper(spec.loader, where)
    return spec


def _shaped_by(package: str) -> str:
    """What the declarations depend on: cairocffi's files that make them, and cffi."""
    import hashlib
    import os

    import _cffi_backend

    digest = hashlib.sha256(_cffi_backend.__version__.encode())
    for file_name in ("ffi.py", "constants.py"):
        with open(os.path.join(package, file_name), "rb") as source:
            digest.update(source.read())
    return digest.hexdigest()


def _load(kept: bytes):
    """The two FFI objects from their kept compiled modules."""
    import marshal
    import types

    cairo_code, pixbuf_code = marshal.loads(kept)
    cairo = types.ModuleType(_CAIRO)
    exec(cairo_code, cairo.__dict__)
    sys.modules[_CAIRO] = cairo  # the pixbuf module imports it by name
    pixbuf = types.ModuleType(_PIXBUF)
    exec(pixbuf_code, pixbuf.__dict__)
    sys.modules[_PIXBUF] = pixbuf
    return cairo.ffi, pixbuf.ffi


def _written_out(module) -> bytes:
    """cairocffi's parsed declarations, as compiled out-of-line modules."""
    import io
    import marshal

    from cffi.recompiler import make_py_source

    codes = []
    for ffi, module_name in ((module.ffi, _CAIRO), (module.ffi_pixbuf, _PIXBUF)):
        if not hasattr(ffi, "_assigned_source"):  # what an included ffi must have
            ffi.set_source(module_name, None)
        source = io.StringIO()
        make_py_source(ffi, module_name, source)
        codes.append(compile(source.getvalue(), module_name, "exec"))
    return marshal.dumps(tuple(codes))


class _Loader:
    """Makes `cairocffi.ffi` from kept declarations."""

    def __init__(self, ffi, ffi_pixbuf) -> None:
        self.ffi, self.ffi_pixbuf = ffi, ffi_pixbuf

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        module.ffi, module.ffi_pixbuf = self.ffi, self.ffi_pixbuf
        _skip_find_library()


class _Keeper:
    """cairocffi's own `cairocffi.ffi`, whose declarations are then kept for next time."""

    def __init__(self, loader, where) -> None:
        self.loader, self.where = loader, where

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module) -> None:
        self.loader.exec_module(module)
        _skip_find_library()
        try:
            kept = _written_out(module)
            _load(kept)  # only what loads is kept
        except Exception:  # noqa: BLE001 - nothing kept: the next import parses again
            return
        finally:
            for name in (_CAIRO, _PIXBUF):
                sys.modules.pop(name, None)
        from . import usercache

        usercache.write(self.where, "declarations", kept)


def _skip_find_library() -> None:
    """cairocffi, half loaded as it imports its ffi module, is about to ask find_library for
    cairo by three names, then try `libcairo.so.2` itself. On Linux, where that name loads,
    let it go straight there (cairocffi.pixbuf, which pnp never loads, would likewise go
    straight to its own fallback names)."""
    import ctypes.util

    from .libraries import open_library

    package = sys.modules.get("cairocffi")
    if (not sys.platform.startswith("linux") or package is None
            or getattr(package, "find_library", None) is not ctypes.util.find_library
            or open_library(_SONAME) is None):
        return
    package.find_library = _not_asked


def _not_asked(name: str) -> None:
    return None
