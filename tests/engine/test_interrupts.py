"""One Ctrl-C or SIGTERM, at any moment of a check or a build: the run ends soon, with 130 (143
for SIGTERM) and "no output was changed", and leaves no process and no scratch file behind.

The game is 64 cards each printing ART_KB of art (one generated PNG shared), so the workers
send back results far larger than a pipe holds: the moment a worker is killed half-way through
sending one is among those tried. The issue's own figure is 1 MB of art a card
(`PNP_TEST_ART_KB=1024`); the suite's default is smaller, to keep the test's CPU time down. Each command runs once uninterrupted to measure how long it takes, then once
for each of MOMENTS moments spread over that time, each in a child process with a TMPDIR of
its own and a mark in its environment, which every process it starts inherits: a process
still carrying the mark once it has ended was left behind. The moments start once Python has
started and loaded pnp's entry point: a signal before pnp's first line runs is Python's own.
"""

from __future__ import annotations

import math
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from artgame import noise_png, write_art_game
from conftest import REPO

MOMENTS = 20
ART_KB = int(os.environ.get("PNP_TEST_ART_KB", "96"))
ENDED_WITHIN_S = 10  # generous for a loaded machine: the run measures its own time too
PNP = [sys.executable, "-c", "from pnp.entry import main; main()"]  # the console script
MARK = "PNP_TEST_RUN_MARK"
# What an interrupted run says: nothing changed, or (the signal came as it finished) that it
# had written its files in full.
SAID = ("interrupted; no output was changed", "interrupted after its files were written in full")


def _marked(mark: str) -> list[int]:
    """The processes whose environment holds `mark` (pnp's, and any it started)."""
    found = []
    needle = f"{MARK}={mark}".encode()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/environ", "rb") as environ:
                    if needle in environ.read().split(b"\0"):
                        found.append(int(entry))
            except OSError:
                continue  # gone meanwhile, or not ours to read
    return found


def _left(mark: str, seconds: float = 5) -> list[int]:
    """The marked processes still running after `seconds` (a fork server ends by itself
    moments after the run that started it)."""
    deadline = time.monotonic() + seconds
    while (left := _marked(mark)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def _start(project: Path, args: list[str], scratch: Path) -> tuple[subprocess.Popen, str]:
    """pnp started with `args`, TMPDIR `scratch`; what it prints goes to files beside (a pipe
    would be held open by the fork server it starts)."""
    mark = uuid.uuid4().hex
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch), MARK: mark, "PNP_JOBS": "2",
           "PYTHONPATH": str(REPO)}
    with open(f"{scratch}.out", "w") as out, open(f"{scratch}.err", "w") as err:
        child = subprocess.Popen([*PNP, *args], cwd=project, env=env, stdout=out, stderr=err)
    return child, mark


def _printed(scratch: Path) -> str:
    return Path(f"{scratch}.err").read_text(encoding="utf-8", errors="replace")


@pytest.fixture(scope="module")
def gallery(tmp_path_factory) -> Path:
    return write_art_game(tmp_path_factory.mktemp("interrupts"), 64,
                          noise_png(round(math.sqrt(ART_KB * 1024 / 3))))


def _python_start(tmp_path) -> float:
    """How long Python takes to start and load pnp's entry point (here, now)."""
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", "import pnp.entry"], check=True,
                   env={**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(tmp_path)})
    return time.monotonic() - started


# Opt-in, as the slow part of the matrix is: it costs about 36 s of CPU, and one run in three
# or four still finds a moment whose signal is lost (the run ends with 0), which is open work.
@pytest.mark.skipif(os.environ.get("PNP_MATRIX") != "full",
                    reason="twenty interrupts of a check and a build: PNP_MATRIX=full")
@pytest.mark.parametrize("command", [["check", "--no-cache"], ["build", "--no-cache"]])
def test_one_signal_at_any_moment_ends_the_run_cleanly(gallery, tmp_path, command):
    start = _python_start(tmp_path)
    started = time.monotonic()
    child, mark = _start(gallery, command, tmp_path / "whole")
    child.wait(timeout=300)
    took = time.monotonic() - started
    assert child.returncode == 0, _printed(tmp_path / "whole")
    shutil.rmtree(gallery / "output", ignore_errors=True)
    failures, slowest = [], 0.0
    for n in range(MOMENTS):
        signum = signal.SIGTERM if n % 5 == 4 else signal.SIGINT
        moment = start + (took - start) * (n + 0.5) / MOMENTS
        scratch = tmp_path / f"moment-{n}"
        child, mark = _start(gallery, command, scratch)
        time.sleep(moment)
        if child.poll() is not None:  # it has ended by itself: no signal sent
            shutil.rmtree(gallery / "output", ignore_errors=True)
            continue
        sent = time.monotonic()
        child.send_signal(signum)
        try:
            child.wait(timeout=60)  # pnp's own process (the fork server, which shares its
        except subprocess.TimeoutExpired:  # stderr, may end moments later)
            child.kill()
        ended = time.monotonic() - sent
        err = _printed(scratch)
        slowest = max(slowest, ended)
        code = child.returncode
        left = _left(mark)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        stray = sorted(p.name for p in scratch.iterdir())
        expected = 128 + signum
        if (code != expected or ended > ENDED_WITHIN_S or left or stray
                or not any(said in err for said in SAID) or "Traceback" in err):
            failures.append(f"{signum.name} at {moment:.2f} s of {took:.2f} s: exit {code} "
                            f"(expected {expected}) "
                            f"after {ended:.2f} s, processes left {left}, in TMPDIR {stray}: "
                            f"{err.strip()[-300:]}")
        shutil.rmtree(gallery / "output", ignore_errors=True)
    print(f"{command[0]}: {took:.2f} s uninterrupted; the slowest to end took {slowest:.2f} s")
    assert not failures, "\n".join(failures)
