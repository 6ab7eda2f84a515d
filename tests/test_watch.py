"""`pnp watch` on a real project in a temporary folder, edited for real: the mistake's finding
appears, the fix clears it and rewrites the PDF, and Ctrl-C ends the watch cleanly."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time

from conftest import REPO

POKER = REPO / "bench" / "poker"
TIMEOUT_S = 60


class Lines:
    """A child's stderr, read line by line in the background."""

    def __init__(self, stream) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self.queue.put(line.rstrip("\n"))

    def wait_for(self, fragment: str) -> str:
        deadline = time.monotonic() + TIMEOUT_S
        while time.monotonic() < deadline:
            try:
                line = self.queue.get(timeout=0.5)
            except queue.Empty:
                continue
            self.seen.append(line)
            if fragment in line:
                return line
        raise AssertionError(f"no line with {fragment!r}; saw:\n" + "\n".join(self.seen))


def test_watch_reports_a_mistake_then_rebuilds_the_fix(tmp_path):
    for folder in ("content", "templates"):
        shutil.copytree(POKER / folder, tmp_path / folder)
    cards = tmp_path / "content/poker/cards.csv"
    pdf = tmp_path / "output/poker/cards-letter.pdf"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen([sys.executable, "-m", "pnp", "watch", "-j", "1"], cwd=tmp_path,
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)
    try:
        lines = Lines(child.stderr)
        lines.wait_for("pnp watch: watching")
        built = pdf.read_bytes()
        good = cards.read_text(encoding="utf-8")
        cards.write_text(good.replace("1,A of Spades,spades,", "1,A of Spades,swords,", 1),
                         encoding="utf-8")
        finding = lines.wait_for("error:")
        assert finding.startswith("content/poker/cards.csv:2:3: error:")
        assert "swords" in finding
        lines.wait_for("has errors")
        assert pdf.read_bytes() == built  # nothing written while the content is wrong
        cards.write_text(good.replace("A of Spades", "Ace of Spades", 1), encoding="utf-8")
        lines.wait_for("pnp watch: clean")
        assert pdf.read_bytes() != built
        child.send_signal(signal.SIGINT)
        lines.wait_for("pnp watch: stopped")
        assert child.wait(timeout=TIMEOUT_S) == 0
        assert not any("Traceback" in line for line in lines.seen)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
