"""Watch: a project's content and templates in; on every saved change, findings and the PDFs
that changed out, until Ctrl-C.

The first round checks and builds everything (the build cache makes that quick when the output
is current). After that, each burst of saves (an editor writing a file in several steps, a
`git checkout`) is gathered for DEBOUNCE_MS and answered by one round: the content is checked
again, its findings printed, and only the PDFs whose inputs changed are drawn and written;
with `--proof` the proof gallery is written again too, and served on loopback by
pnp.watch.liveserver, where an open gallery reloads itself after every round (`pnp watch` in
pnp.commands.build starts that server and tells it when a round is done).
A content mistake is reported and the watch goes on; the next save that fixes it builds.

File events come from watchfiles (the operating system's notifications, not polling); editor
swap and backup files are ignored.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Callable

from ..engine import runtime as collector

DEBOUNCE_MS = 300
# A burst of saves is answered once no file has changed for this long: an editor's own writes
# (a temporary file, then a rename) come within a few milliseconds, and each millisecond
# waited here is one more before a save's findings print (watchfiles' default is 50).
STEP_MS = 10


def watched_folders(root: Path) -> list[Path]:
    return [folder for folder in (root / "content", root / "templates") if folder.is_dir()]


def _shown(paths: set[str], root: Path) -> str:
    names = []
    for path in sorted(paths):
        try:
            names.append(str(Path(path).resolve().relative_to(root.resolve())))
        except ValueError:
            names.append(path)
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def watch_project(root: Path, rebuild: Callable[[], int], *, debounce_ms: int = DEBOUNCE_MS,
                  stop_event=None) -> int:
    """Call `rebuild` once, then after every burst of changes under `root`'s content and
    templates. Returns 0 when stopped by Ctrl-C or `stop_event`."""
    from watchfiles import watch

    folders = watched_folders(root)
    if not folders:
        print(f"pnp watch: nothing to watch: no content/ or templates/ in {root}",
              file=sys.stderr)
        return 1
    first = True
    try:
        # The watcher is running once the generator yields (an empty set after
        # rust_timeout): the first build comes then, so no save is missed in between.
        for changes in watch(*folders, debounce=debounce_ms, step=STEP_MS, stop_event=stop_event,
                             rust_timeout=200, yield_on_timeout=True, raise_interrupt=True):
            if first:
                first = False
                _round(rebuild, "pnp watch: first build")
                shown = ", ".join(str(f) for f in folders)
                print(f"pnp watch: watching {shown}; Ctrl-C to stop", file=sys.stderr,
                      flush=True)
                if not changes:
                    continue
            if not changes:
                continue
            paths = {path for _, path in changes}
            _round(rebuild, f"pnp watch: changed {_shown(paths, root)}")
            print("pnp watch: waiting for changes", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        pass
    print("pnp watch: stopped", file=sys.stderr, flush=True)
    return 0


def _round(rebuild: Callable[[], int], heading: str) -> None:
    print(heading, file=sys.stderr, flush=True)
    started = time.perf_counter()
    try:
        collector.release(collect=True)  # what the last round kept and no longer holds
        code = rebuild()
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # one bad round must not end the watch
        print(f"pnp watch: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        code = 1
    sys.stdout.flush()
    state = "clean" if code == 0 else "has errors; fix and save"
    print(f"pnp watch: {state} ({time.perf_counter() - started:.2f} s)", file=sys.stderr,
          flush=True)
