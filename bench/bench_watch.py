"""Benchmark helper: a running `pnp watch` timed from outside, round by round.

`bench/bench_build.py --sections watch` uses it: in a scratch copy of the project it starts
`pnp watch --game downturn`, reads what the watcher prints line by line (each line stamped as
it arrives, in a thread per pipe), waits for the first build to finish, and then, round after
round, saves one Downturn event's text in one of two versions (each save a real change) and
times from the moment the file is written and closed until

- the watcher says it noticed the change (`pnp watch: changed ...`): this is mostly the
  watcher's own wait, watchfiles gathering a burst of saves (`step`: a burst ends after 50 ms
  with no new event, `debounce`: at most 300 ms after its first, in pnp/watch/serve.py);
- the save's findings are printed: the line that closes the round's check, before anything is
  drawn (`pnp watch: checked in ...`; a pnp older than that line has no such figure);
- `output/downturn/events-letter.pdf` is replaced (its inode, time or size changes; looked at
  every 5 ms);
- the round's summary (`pnp build: N PDFs in ...`, after the findings and the `wrote` lines);
- the round's last line (`pnp watch: clean (...)`).

The watcher's debounce is part of every figure after the first: it is what a designer waits
for too.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

EVENT = re.compile(r'effect: "Stability \+1\.( \(edit \d+\))?"')
FIGURES = ("change noticed", "findings printed", "events PDF replaced", "summary printed",
           "round done")
OPTIONAL = frozenset({"findings printed"})  # an older pnp prints no line for it
TIMEOUT = 600  # seconds: a round, or the first build, that takes longer is a failure


def edit_event(events: Path, version: int) -> None:
    """The first "Stability +1." event's text, in one of two versions by `version`'s parity."""
    text = events.read_text(encoding="utf-8")
    text, count = EVENT.subn(f'effect: "Stability +1. (edit {1 + version % 2})"', text, count=1)
    if not count:
        raise SystemExit(f"no 'Stability +1.' event to edit in {events}")
    events.write_text(text, encoding="utf-8")


def _stat(path: Path):
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    return info.st_ino, info.st_mtime_ns, info.st_size


class Watcher:
    """`pnp watch --game downturn` running on `project`, its output read line by line."""

    def __init__(self, command: list[str], project: Path, cwd: Path, env: dict[str, str]):
        self.project = project
        self.events = project / "content" / "downturn" / "events.yaml"
        self.pdf = project / "output" / "downturn" / "events-letter.pdf"
        self.lines: queue.Queue = queue.Queue()
        self.log: list[str] = []
        self.versions = iter(range(10**6))
        self.extra_rounds = 0
        self.started = time.perf_counter()
        # A process group of its own: what is left of it (drawing processes) can be ended.
        self.process = subprocess.Popen(
            [*command, "watch", "--root", str(project), "--game", "downturn"], cwd=cwd, env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1, start_new_session=True)
        for stream in (self.process.stdout, self.process.stderr):
            threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.put((time.perf_counter(), line.rstrip("\n")))
        self.lines.put((time.perf_counter(), None))

    def _next(self, deadline: float, wait: float = 0.005):
        """The next line as (time, text), or None after `wait` seconds without one."""
        if time.perf_counter() > deadline:
            self.fail("timed out")
        try:
            stamp, line = self.lines.get(timeout=wait)
        except queue.Empty:
            return None
        if line is None:
            self.fail("the watcher ended")
        self.log.append(line)
        return stamp, line

    def fail(self, why: str) -> None:
        self.stop()
        raise SystemExit(f"pnp watch benchmark: {why}; its output:\n" + "\n".join(self.log[-40:]))

    def first_build(self) -> float:
        """Wait for the first build to finish; seconds from the start."""
        deadline = self.started + TIMEOUT
        while True:
            got = self._next(deadline, 0.1)
            if got and got[1].startswith("pnp watch: watching"):
                if any(line.startswith("pnp watch: has errors") for line in self.log):
                    self.fail("the first build has errors")
                return got[0] - self.started

    def round(self) -> dict[str, float]:
        """Save one event's text; seconds from the save to each of FIGURES."""
        before = _stat(self.pdf)
        edit_event(self.events, next(self.versions))
        saved = time.perf_counter()
        deadline = saved + TIMEOUT
        times: dict[str, float] = {}
        while "round done" not in times or "events PDF replaced" not in times:
            got = self._next(deadline)
            if "events PDF replaced" not in times and _stat(self.pdf) != before:
                times["events PDF replaced"] = time.perf_counter()
            if got is None:
                continue
            stamp, line = got
            if line.startswith("pnp watch: changed"):
                times.setdefault("change noticed", stamp)
            elif line.startswith("pnp watch: checked"):
                times.setdefault("findings printed", stamp)
            elif line.startswith("pnp build:"):
                times.setdefault("summary printed", stamp)
            elif line.startswith("pnp watch: has errors"):
                self.fail("a round has errors")
            elif line.startswith("pnp watch: clean"):
                times.setdefault("round done", stamp)
        self._settle()
        missing = set(FIGURES) - OPTIONAL - set(times)
        if missing:
            self.fail(f"a round printed no {', '.join(sorted(missing))}")
        return {name: times[name] - saved for name in FIGURES if name in times}

    def _settle(self, quiet: float = 0.5) -> None:
        """Wait until the watcher is waiting and has printed nothing for `quiet` seconds; a
        second round for the same save (a burst split in two) is waited for and counted."""
        deadline = time.perf_counter() + TIMEOUT
        last = time.perf_counter()
        while time.perf_counter() - last < quiet:
            got = self._next(deadline, 0.05)
            if got:
                last = got[0]
                if got[1].startswith("pnp watch: changed"):
                    self.extra_rounds += 1

    def stop(self) -> None:
        """Ctrl-C, as a designer stops it; anything of its process group still there after
        30 s is ended."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        try:
            os.killpg(self.process.pid, signal.SIGTERM)  # the group's leftovers, if any
        except (ProcessLookupError, PermissionError):
            pass
