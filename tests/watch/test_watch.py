"""`pnp watch` on a real project in a temporary folder, edited for real: the mistake's finding
appears, the fix clears it and rewrites the PDF, and Ctrl-C ends the watch cleanly. With
`--proof`, the gallery served on loopback reloads itself in a real headless Chromium; the
server refuses paths outside the output folder and answers its long poll."""

from __future__ import annotations

import http.client
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import REPO
from pnp.cli import main
from pnp.commands import build as commands_build
from pnp.pipeline import build_game
from pnp.watch import serve
from pnp.watch.liveserver import POLL_S, LiveServer

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


def start_watch(project: Path, *options: str) -> subprocess.Popen:
    """`pnp watch -j 1` on a copy of the poker benchmark in `project`."""
    for folder in ("content", "templates"):
        shutil.copytree(POKER / folder, project / folder)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "pnp", "watch", "-j", "1", *options],
                            cwd=project, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


def stop_watch(child: subprocess.Popen, lines: Lines) -> None:
    child.send_signal(signal.SIGINT)
    lines.wait_for("pnp watch: stopped")
    assert child.wait(timeout=TIMEOUT_S) == 0
    assert not any("Traceback" in line for line in lines.seen)


def test_watch_reports_a_mistake_then_rebuilds_the_fix(tmp_path):
    child = start_watch(tmp_path)
    cards = tmp_path / "content/poker/cards.csv"
    pdf = tmp_path / "output/poker/cards-letter.pdf"
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
        lines.wait_for("pnp watch: checked in")  # the check's end, before what is written
        lines.wait_for("pnp build: 1 PDF")
        lines.wait_for("pnp watch: clean")
        assert pdf.read_bytes() != built
        stop_watch(child, lines)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_a_rounds_findings_are_printed_before_its_pdfs_are_drawn(tmp_path, monkeypatch,
                                                                capsys):
    """One round of `pnp watch`, in this process: what it had printed to stderr when it began
    to draw the PDFs is the check's findings and the line closing the check, flushed."""
    for folder in ("content", "templates"):
        shutil.copytree(POKER / folder, tmp_path / folder)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(serve, "watch_project", lambda root, rebuild: rebuild())
    printed_when_drawing: list[str] = []

    def drawn(*args, **kwargs):
        printed_when_drawing.append(capsys.readouterr().err)
        return build_game(*args, **kwargs)

    monkeypatch.setattr(commands_build, "build_game", drawn)
    assert main(["watch", "-j", "1"]) == 0
    after = capsys.readouterr().err
    (before,) = printed_when_drawing
    *found, closing = before.splitlines()
    assert [line.split(": warning: ")[0] for line in found] == [
        "templates/poker/card-back.svg.j2:2:1", "templates/poker/card-back.svg.j2:4:1"]
    assert re.fullmatch(r"pnp watch: checked in \d+\.\d\d s, 0 errors, 2 warnings; writing "
                        r"the PDFs that changed", closing)
    assert "warning" not in after and "pnp build: 1 PDF in" in after
    assert (tmp_path / "output/poker/cards-letter.pdf").read_bytes().startswith(b"%PDF-")


def test_served_gallery_reloads_itself_after_a_save(tmp_path, browser):
    child = start_watch(tmp_path, "--proof", "--port", "0")
    cards = tmp_path / "content/poker/cards.csv"
    try:
        lines = Lines(child.stderr)
        announced = lines.wait_for("pnp watch: proof gallery at ")
        url = re.fullmatch(r"pnp watch: proof gallery at (http://127\.0\.0\.1:\d+/\S+)",
                           announced).group(1)
        assert url.endswith("/poker/proof/index.html")
        lines.wait_for("pnp watch: watching")
        page = browser.new_page()
        loads, problems = [], []
        page.on("load", lambda _: loads.append(page.url))
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(url, wait_until="load")
        title = page.locator("figure.card svg text", has_text=re.compile(r"^A of Spades$"))
        assert title.count() == 1
        page.evaluate("window.loadedBeforeTheSave = true")
        cards.write_text(cards.read_text(encoding="utf-8").replace(
            "1,A of Spades,", "1,Ace of Spades,", 1), encoding="utf-8")
        page.locator("figure.card svg text", has_text=re.compile(r"^Ace of Spades$")).wait_for(
            state="attached", timeout=15_000)
        assert page.evaluate("window.loadedBeforeTheSave") is None  # a new page, reloaded
        # The reloaded page's text is there before its load event has fired and reached us.
        deadline = time.monotonic() + 15
        while len(loads) < 2 and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert loads == [url, url]
        assert title.count() == 0 and problems == []
        page.close()
        stop_watch(child, lines)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def get(server: LiveServer, path: str, timeout_s: float = 5) -> tuple[int, bytes]:
    """A request sent as written: no client tidies its `..` away first."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout_s)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


@pytest.fixture
def served(tmp_path):
    gallery = tmp_path / "output" / "poker" / "proof"
    gallery.mkdir(parents=True)
    (gallery / "index.html").write_text('<p>cards</p>\n<script data-pnp-round="">'
                                        "</script>\n", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("outside the output folder", encoding="utf-8")
    (gallery / "link.txt").symlink_to(tmp_path / "secret.txt")
    server = LiveServer(tmp_path / "output", 0)
    yield server
    server.close()


def test_server_serves_the_output_folder_and_nothing_outside_it(served):
    status, page = get(served, "/poker/proof/index.html")
    assert status == 200
    assert page.decode() == f'<p>cards</p>\n<script data-pnp-round="{served.round}"></script>\n'
    assert get(served, "/poker/proof/")[0] == 200
    for path in ("/../secret.txt", "/poker/proof/../../../secret.txt", "/%2e%2e/secret.txt",
                 "/poker/proof/..%2f..%2f..%2fsecret.txt", "/%2E%2E%2Fsecret.txt",
                 "/poker/proof/link.txt", "/%2fetc%2fpasswd", "/poker/proof/missing.html"):
        status, body = get(served, path)
        assert status in (403, 404), path
        assert b"outside" not in body


def test_long_poll_answers_at_once_when_behind_and_waits_when_current(served):
    current = served.round
    started = time.monotonic()
    assert get(served, f"/.pnp/reload?since={current - 1}") == (200, f"{current}\n".encode())
    assert time.monotonic() - started < POLL_S / 5  # not held for the poll's 25 s
    with pytest.raises(TimeoutError):  # nothing rebuilt: the request waits
        get(served, f"/.pnp/reload?since={current}", timeout_s=0.5)
    threading.Timer(0.3, served.finished_round).start()
    assert get(served, f"/.pnp/reload?since={current}") == (200, f"{current + 1}\n".encode())
    assert get(served, "/.pnp/reload?since=soon")[0] == 400


def test_one_edit_one_finding_printed_once(tmp_path, monkeypatch, capsys):
    """`pnp watch --proof` after one edit with one finding prints that finding once (the
    build printed it; the proof after it does not print it again)."""
    for folder in ("content", "templates"):
        shutil.copytree(POKER / folder, tmp_path / folder)
    monkeypatch.chdir(tmp_path)
    cards = tmp_path / "content/poker/cards.csv"

    def two_rounds(root, rebuild):
        rebuild()
        capsys.readouterr()
        cards.write_text(cards.read_text(encoding="utf-8").replace(
            "1,A of Spades,spades,", "1,A of Spades,swords,", 1), encoding="utf-8")
        rebuild()
        return 0

    monkeypatch.setattr(serve, "watch_project", two_rounds)
    assert main(["watch", "-j", "1", "--proof", "--port", "0"]) == 0
    printed = capsys.readouterr().err.splitlines()
    found = [line for line in printed if ": error:" in line]
    assert len(found) == 1 and found[0].startswith("content/poker/cards.csv:2:3: error:"), printed
