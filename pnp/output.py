"""Output: finished files in memory in; files on disk out, all or nothing.

A build stages every file beside its destination under a hidden temporary name and renames them
into place only once all of them are ready. A rename is atomic, so a reader (or a printer queue)
sees either the old PDF or the new one, never half of one. A build that fails, is interrupted with
Ctrl-C or is terminated removes its staged files and leaves every earlier output untouched.

Staged names carry a token unique to the build, so cleaning up also finds a file whose name was
never recorded (an interrupt can land between creating it and noting it). Ctrl-C and SIGTERM are
held back while the renames run, so a build's outputs are replaced together or not at all. Only
SIGKILL (or a power cut) can leave staged files behind; the next build removes them.
"""

from __future__ import annotations

import os
import secrets
import signal
import tempfile
from contextlib import contextmanager
from pathlib import Path

STAGING_PREFIX = ".pnp-staging-"
_HELD_SIGNALS = {signal.SIGINT, signal.SIGTERM}
_commits = 0  # builds committed by this process, so an interrupt can say what already happened


def commit_count() -> int:
    """How many stagings this process has committed; compare before and after a command."""
    return _commits


class Staging:
    """Files written so far by one build, waiting to be renamed into place."""

    def __init__(self) -> None:
        self.staged: list[tuple[Path, Path]] = []
        self.prefix = f"{STAGING_PREFIX}{os.getpid()}-{secrets.token_hex(4)}-"
        self.folders: set[Path] = set()
        self.committed = False

    def write(self, destination: Path, data: bytes) -> None:
        if any(d == destination for _, d in self.staged):
            raise ValueError(f"{destination} is written twice in one build")
        destination.parent.mkdir(parents=True, exist_ok=True)
        self.folders.add(destination.parent)  # before the file exists: discard() will look here
        fd, temporary = tempfile.mkstemp(prefix=self.prefix, suffix=".tmp",
                                         dir=destination.parent)
        self.staged.append((Path(temporary), destination))
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o644)

    def commit(self) -> list[Path]:
        """Rename every staged file into place, with Ctrl-C and SIGTERM held until all are."""
        held = _hold_signals()
        try:
            for temporary, destination in self.staged:
                os.replace(temporary, destination)
            self.committed = True
            global _commits
            _commits += 1
            for folder in self.folders:
                _sync_folder(folder)
        finally:
            done = [destination for _, destination in self.staged]
            self.staged.clear()
            _release_signals(held)
        return done

    def discard(self) -> None:
        self.staged.clear()
        for folder in self.folders:
            for leftover in folder.glob(self.prefix + "*"):
                leftover.unlink(missing_ok=True)


def _hold_signals():
    try:
        return signal.pthread_sigmask(signal.SIG_BLOCK, _HELD_SIGNALS)
    except (AttributeError, OSError):  # platforms without pthread_sigmask
        return None


def _release_signals(held) -> None:
    if held is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _sync_folder(folder: Path) -> None:
    """Make the renames durable too (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _terminate(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


@contextmanager
def staged_output():
    """Yield a Staging; commit it on success, discard it on any error or SIGTERM/SIGINT."""
    staging = Staging()
    previous = None
    try:
        previous = signal.signal(signal.SIGTERM, _terminate)
    except ValueError:  # not the main thread: leave signal handling to the caller
        previous = None
    try:
        yield staging
        staging.commit()
    except KeyboardInterrupt:
        staging.discard()
        if not staging.committed:
            raise
        # The signal was held while the renames ran and arrived as they finished: the build
        # is complete, so it reports what it wrote rather than a false "nothing changed".
    except BaseException:
        staging.discard()
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def remove_stale_staging(folder: Path) -> None:
    """Remove files left by a build that was killed outright (SIGKILL leaves no chance to clean).

    Files of a build that is still running (its process id is in the name) are left alone.
    """
    if not folder.is_dir():
        return
    for stale in folder.glob(STAGING_PREFIX + "*"):
        owner = stale.name.removeprefix(STAGING_PREFIX).split("-", 1)[0]
        if owner.isdigit() and int(owner) != os.getpid() and _running(int(owner)):
            continue
        stale.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except OSError:  # e.g. PermissionError: the process exists but belongs to someone else
        return True
    return True
