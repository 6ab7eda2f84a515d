"""Output: finished files in memory in; files on disk out, all or nothing.

A build stages every file beside its destination under a hidden temporary name and renames them
into place only once all of them are ready. A rename is atomic, so a reader (or a printer queue)
sees either the old PDF or the new one, never half of one. A build that fails, is interrupted with
Ctrl-C or is terminated removes its staged files and leaves every earlier output untouched.
"""

from __future__ import annotations

import os
import signal
import tempfile
from contextlib import contextmanager
from pathlib import Path

STAGING_PREFIX = ".pnp-staging-"


class Staging:
    """Files written so far by one build, waiting to be renamed into place."""

    def __init__(self) -> None:
        self.staged: list[tuple[Path, Path]] = []

    def write(self, destination: Path, data: bytes) -> None:
        destination.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=STAGING_PREFIX, suffix=".tmp",
                                         dir=destination.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        os.chmod(temporary, 0o644)
        self.staged.append((Path(temporary), destination))

    def commit(self) -> list[Path]:
        for temporary, destination in self.staged:
            os.replace(temporary, destination)
        done = [destination for _, destination in self.staged]
        self.staged.clear()
        return done

    def discard(self) -> None:
        for temporary, _ in self.staged:
            temporary.unlink(missing_ok=True)
        self.staged.clear()


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
    except BaseException:
        staging.discard()
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def remove_stale_staging(folder: Path) -> None:
    """Remove files left by a build that was killed outright (SIGKILL leaves no chance to clean)."""
    if folder.is_dir():
        for stale in folder.glob(STAGING_PREFIX + "*"):
            stale.unlink(missing_ok=True)
