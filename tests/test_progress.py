"""Progress: one rewritten line on a terminal for a build that takes a while; nothing when piped,
in CI, or for a quick build."""

from __future__ import annotations

import io
import shutil

from conftest import REPO
from pnp.progress import Progress, wanted


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_quiet_when_piped_or_in_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert wanted(Terminal())
    assert not wanted(io.StringIO())  # piped or redirected
    monkeypatch.setenv("CI", "true")
    assert not wanted(Terminal())


def test_a_long_build_shows_pages_and_clears_its_line():
    stream = Terminal()
    with Progress("pnp build", stream, enabled=True, show_after_s=0) as progress:
        progress.update(3, 12)
        progress.update(12, 12)
    text = stream.getvalue()
    assert "\rpnp build: drawing [######" in text and "3/12 pages" in text and "12/12 pages" in text
    assert text.endswith("\r\033[K")


def test_a_quick_build_shows_nothing():
    stream = Terminal()
    with Progress("pnp build", stream, enabled=True, show_after_s=60) as progress:
        progress.update(12, 12)
    assert stream.getvalue() == ""


def test_a_piped_build_prints_no_progress(tmp_path, monkeypatch, run):
    monkeypatch.chdir(tmp_path)
    for folder in ("content", "templates"):
        shutil.copytree(REPO / "bench/poker" / folder, tmp_path / folder)
    result = run("build")
    assert result.code == 0
    assert "\r" not in result.err and "pages" not in result.err


def test_the_bar_names_the_game_and_is_gone_before_the_summary(tmp_path, monkeypatch, run):
    """On a terminal, each game's bar says which game it draws, and is cleared before
    anything else is printed; the summary times the whole command, check included."""
    import pnp.progress

    monkeypatch.chdir(tmp_path)
    for folder in ("content", "templates"):
        shutil.copytree(REPO / "bench/poker" / folder, tmp_path / folder)
    monkeypatch.setattr(pnp.progress, "wanted", lambda stream: True)
    monkeypatch.setattr(pnp.progress, "SHOW_AFTER_S", 0.0)
    result = run("build", "-j", "1", "--no-cache")
    assert result.code == 0
    bars = [part for part in result.err.split("\r") if "pages" in part]
    assert bars and all(bar.startswith("pnp build: poker: drawing [") for bar in bars)
    summary = result.err.splitlines()[-1]
    assert summary.startswith("\033[Kpnp build: 1 PDF in ")
