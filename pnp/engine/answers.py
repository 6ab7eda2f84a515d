"""Remembered answers: a `pnp check` or `pnp build` command line in; when every read the last
run of that command line made gives the same answer now, what that run printed and its exit
code out, without loading the pipeline.

A designer runs `pnp check` on every save, and an editor or a script may run it (or a build)
when nothing has changed at all; loading pnp's libraries takes longer than such an answer
should. The console script (pnp.entry) asks here first, so this module imports only the
standard library, pnp.reads and the cache store.

Kept for: `pnp check` of Downturn with nothing changed answers in 0.05 s, where the same
check after one event edited (the whole pipeline, with the kept sheets) takes 0.68 s
(bench/bench_build.py, 5 rounds, a quiet 2-core machine): 13x.

What a run read is what decides its answer, so that is what an answer is kept with: every
read the run made through pnp.reads (content, templates and every lookup that found nothing,
art, layouts.yaml, printer profiles, fonts, folders listed, kinds of things at paths, worker
processes' reads included, and the files a rules plug-in declares it reads), and the code it
ran (the file of every module it loaded and every file of pnp, by size and time, as Python
judges its compiled modules, and every distribution installed anywhere on sys.path:
store.installed_distributions). The key is the
command line itself, the working folder (findings name files relative to it), the
environment and whether the streams are terminals: no option is interpreted here. An entry
holds that key itself, and one found under another key's name (entries swapped or copied in
the cache folder) is refused (pnp.engine.store.read_value).

A check's answer is kept when it finishes (findings and all). A build's answer is what the
same build prints when it runs again: every PDF unchanged, so its `wrote` lines gone and its
summary "0 PDFs ...; N unchanged" (a build that wrote says so, `again`); it holds while its
output folder holds exactly the files that build left there, byte for byte (their SHA-256:
a file altered in place with its time set back is not the same file). A build records the commit the
project is at in its history, so the commit asked of git is part of its answer too (`git_head`).
The time a run prints is its own (`elapsed`): a remembered answer prints the time it took.
`--no-cache` runs everything and keeps nothing; so does a run during which a file it read
changed (its record is mixed).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from contextlib import contextmanager
from collections.abc import Iterator

from . import reads, store

FORMAT = 4
KIND = "answers"
COMMANDS = ("check", "build")
ELAPSED = "\0elapsed\0"  # where a remembered answer prints its own time
# Set by the shell for each command, not read by pnp: a key without them survives a `cd`.
_SHELL_ONLY = frozenset({"_", "OLDPWD", "PWD", "SHLVL", "LINES", "COLUMNS"})


def _key(argv: list[str]) -> str:
    streams = [getattr(stream, "isatty", lambda: False)()
               for stream in (sys.stdin, sys.stdout, sys.stderr)]
    environment = sorted((k, v) for k, v in os.environ.items() if k not in _SHELL_ONLY)
    return json.dumps([FORMAT, sys.version, sys.executable, argv, os.getcwd(), environment,
                       streams], ensure_ascii=False)


# The standard library changes only with Python's version, which is part of the key.
_STANDARD = os.path.dirname(os.__file__) + os.sep


def _ran(path: str) -> bool:
    return not path.startswith(_STANDARD) or "-packages" + os.sep in path


def _code() -> dict[str, str]:
    """The files of the code this process ran: every loaded module's (the standard library's
    aside) and every file of pnp (templates and fonts among them, and modules only drawing
    processes load), by size, time and inode, as Python judges its compiled modules."""
    files = {path for module in list(sys.modules.values())
             if isinstance(path := getattr(module, "__file__", None), str) and _ran(path)}
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # pnp/
    for root, folders, names in os.walk(here):
        folders[:] = [name for name in folders if name != "__pycache__"]
        files.update(os.path.join(root, name) for name in names)
    return {path: store.stamp(path) for path in sorted(files)}


def _distributions() -> str:
    return hashlib.sha256(store.installed_distributions()).hexdigest()


def _tree(folder: str) -> dict[str, str]:
    """Every file under `folder` (a build's output folder), by its content (SHA-256): a file
    can be altered in place and its time, size and inode kept, so only its bytes prove that
    it is what the build left there."""
    found = {}
    for root, folders, names in os.walk(folder):
        folders.sort()
        for name in sorted(names):
            path = os.path.join(root, name)
            try:
                with open(path, "rb") as file:
                    found[path] = hashlib.file_digest(file, "sha256").hexdigest()
            except OSError:
                found[path] = "unreadable"
    return found


def replay(argv: list[str]) -> int | None:
    """The remembered answer to `argv`, printed, and its exit code; None to run pnp."""
    started = time.perf_counter()
    if not argv or argv[0] not in COMMANDS or "--no-cache" in argv:
        return None
    try:
        entry = store.read_value(store.folder(KIND), _key(argv))
        if entry is None:
            return None
        if (entry["format"] != FORMAT or entry["distributions"] != _distributions()
                or entry["installation"] != store.installation()
                or any(store.stamp(path) != found for path, found in entry["code"].items())
                or any(_git_head(root) != head for root, head in entry["git"].items())
                or (entry["output"] is not None
                    and _tree(entry["output"]) != entry["outputs"])
                or not reads.Answers().same(entry["reads"])):
            return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    sys.stdout.write(entry["stdout"])
    sys.stdout.flush()
    took = f"{time.perf_counter() - started:.2f} s"
    sys.stderr.write(entry["stderr"].replace(ELAPSED, took))
    sys.stderr.flush()
    return int(entry["code_exit"])


class _Tee:
    """A stream that also keeps what is written to it."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.kept: list[str] = []

    def write(self, text: str) -> int:
        self.kept.append(text)
        return self.stream.write(text)

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


class _Run:
    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.elapsed = ""
        self.kept: tuple[int, str | None, str] | None = None
        self.again: str | None = None  # the summary line the same command prints next time
        self.git: dict[str, str] = {}  # project root -> the commit git named for it


_RUN: _Run | None = None


@contextmanager
def remembering(argv: list[str]) -> Iterator[None]:
    """Run a command with what it reads and prints noted, so that, if it says it may be
    remembered (`keep`), the next run of the same command line can be answered by `replay`."""
    global _RUN
    if not argv or argv[0] not in COMMANDS:
        yield
        return
    run, out, err = _Run(argv), _Tee(sys.stdout), _Tee(sys.stderr)
    saved = sys.stdout, sys.stderr
    _RUN, sys.stdout, sys.stderr = run, out, err
    try:
        with reads.recording() as record:
            yield
    finally:
        _RUN = None
        sys.stdout, sys.stderr = saved
    if run.kept is not None and not record.mixed:
        _write(run, record, "".join(out.kept), "".join(err.kept))


def elapsed(seconds: float) -> str:
    """A run's time as it prints it; a remembered answer prints its own there instead."""
    text = f"{seconds:.2f} s"
    if _RUN is not None:
        _RUN.elapsed = text
    return text


def keep(code: int, output: str | os.PathLike | None = None, again: str | None = None) -> None:
    """The command that is running may be answered the same way next time: it exits with
    `code`; a build names its output folder (`output`), whose files must stay as they are.
    A build that wrote PDFs prints, when run again, no `wrote` lines (its standard output)
    and `again` as its last line, with `elapsed_again()` where its time goes."""
    if _RUN is not None:
        _RUN.kept = (code, None if output is None else os.path.abspath(output), _RUN.elapsed)
        _RUN.again = again


def elapsed_again() -> str:
    """Where a remembered answer prints the time it took itself, in a line given to `keep`."""
    return ELAPSED


def git_head(root: str | os.PathLike) -> str:
    """The commit the project at `root` is at, as git names it ('' outside git), for a
    build's history; the running command's answer holds only while git names the same."""
    head = _git_head(os.fspath(root))
    if _RUN is not None:
        _RUN.git[os.path.abspath(root)] = head
    return head


def _git_head(root: str) -> str:
    import subprocess

    try:
        done = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                              capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.decode().strip() if done.returncode == 0 else ""


def _write(run: _Run, record: reads.Record, stdout: str, stderr: str) -> None:
    code, output, took = run.kept
    if run.again is not None:  # what the same build prints when it writes nothing
        lines = stderr.splitlines(keepends=True)
        stdout, stderr = "", "".join(lines[:-1]) + run.again + "\n"
    elif took:
        head, found, tail = stderr.rpartition(took)
        stderr = head + ELAPSED + tail if found else stderr
    entry = {"format": FORMAT, "code_exit": code, "stdout": stdout, "stderr": stderr,
             "git": run.git,
             "reads": record.reads, "code": _code(), "distributions": _distributions(),
             "installation": store.installation(),
             "output": output, "outputs": _tree(output) if output else None}
    store.write_value(store.folder(KIND), _key(run.argv), entry)  # best effort


__all__ = ["replay", "remembering", "keep", "elapsed", "elapsed_again", "git_head"]
