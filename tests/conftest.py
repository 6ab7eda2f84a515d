"""Shared fixtures: a throwaway copy of the project to break, and the CLI run in-process."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import io
import multiprocessing
import os
import pickle
import shutil
import signal
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

# pnp's user cache, from the first import on (collecting a test module may already draw, or
# load cairo): a folder of this test process's own, removed when it ends, so no test writes
# into the cache of the person running the tests. Each test then gets one of its own
# (`user_cache`).
SESSION_CACHE = tempfile.mkdtemp(prefix="pnp-test-cache-")
os.environ["PNP_CACHE_DIR"] = SESSION_CACHE

# Tests interrupt pnp's child processes with SIGINT. A run started in the background by a
# shell without job control ignores SIGINT, and an ignored signal is inherited across exec:
# Python's own handler here is reset to the default in every child instead.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

from pnp.cli import main  # noqa: E402 - after the cache is chosen
from pnp.units import pt_to_mm  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
TESTS = REPO / "tests"  # tests/data (small games, bad input) and tests/golden
# Builds run in-process here unless a test asks for workers (-j 2): forking the test runner for
# every small build only slows the suite down.
os.environ.setdefault("PNP_JOBS", "1")
# The proof gallery and the served, reloading gallery are tested in a real headless Chromium.
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.strip()]


def pytest_unconfigure(config):
    shutil.rmtree(SESSION_CACHE, ignore_errors=True)


NO_CHROMIUM = ("Chromium is not installed: `sudo apt install chromium` (Debian, Ubuntu) or "
               "`python -m playwright install chromium` runs the browser tests")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """A headless Chromium: the system's (on PATH), else one `playwright install` fetched;
    without either the browser tests are skipped, except in CI, which must run them."""
    from playwright.sync_api import sync_playwright

    # Chromium keeps settings and crash reports in the home folder: give it one of its own.
    home = tmp_path_factory.mktemp("chromium-home")
    with sync_playwright() as playwright:
        executable = CHROMIUM or playwright.chromium.executable_path
        if not os.path.exists(executable):
            assert not os.environ.get("CI"), "CI must have chromium: .ci/run installs it"
            pytest.skip(NO_CHROMIUM)
        launched = playwright.chromium.launch(executable_path=executable, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"],
            env={**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
                 "XDG_CACHE_HOME": str(home / ".cache")})
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def user_cache(tmp_path_factory, monkeypatch) -> Path:
    """pnp's user cache for this test alone: what a test finds kept there was kept by the
    test itself, never by an earlier test or run."""
    folder = tmp_path_factory.mktemp("user-cache")
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    return folder


@pytest.fixture(autouse=True)
def no_workers_left():
    """Every worker pool is shut down before the build or check that made it returns: a test
    that leaves a worker process running fails (and the worker is stopped)."""
    yield
    left = multiprocessing.active_children()
    for process in left:
        process.kill()
        process.join()
    assert not left, f"worker processes left running: {left}"


PROJECT_GAME = "downturn"  # the game the shared `project` fixture carries


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A copy of Downturn's content and templates in a temporary folder, the cwd.

    Findings then print paths such as content/downturn/events.yaml, as for a user. The other
    shipped games are left out: the tests using this fixture are about Downturn and pnp itself,
    and every `pnp check` they run would otherwise check (and draw) every game. Each kit has
    its own module of tests; `add_game` copies a game in where a test needs it.
    """
    add_game(tmp_path, PROJECT_GAME)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def add_game(project: Path, game: str) -> None:
    """Copy one shipped game's content and templates into a test project (once)."""
    for folder in ("content", "templates"):
        target = project / folder / game
        if not target.exists() and (REPO / folder / game).is_dir():
            shutil.copytree(REPO / folder / game, target)


BASELINE_SHEETS = ("--sheets", "events,banks")


def retitled_build(root: Path) -> Path:
    """Downturn built in `root` (events and banks), then its title changed, so that a rebuild
    would write different bytes: a project with good earlier PDFs to lose."""
    add_game(root, PROJECT_GAME)
    assert main(["build", "--root", str(root), *BASELINE_SHEETS]) == 0
    game = root / "content" / PROJECT_GAME / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        "title: Downturn", "title: Downturn Revised", 1), encoding="utf-8")
    return root


def copy_as_cwd(baseline: Path, tmp_path: Path, monkeypatch) -> Path:
    """A fresh copy of a baseline project as the current directory."""
    copy = tmp_path / "project"
    shutil.copytree(baseline, copy)
    monkeypatch.chdir(copy)
    return copy


LEDGER = TESTS / "data" / "games" / "ledger"  # a small test game: one deck, one table


@pytest.fixture
def ledger(tmp_path, monkeypatch) -> Path:
    """The ledger test game, a project of its own, copied as the current directory."""
    return copy_as_cwd(LEDGER, tmp_path, monkeypatch)


def clean(result) -> None:
    """A run that ended without a traceback or an internal error."""
    assert "Traceback" not in result.err and "internal error" not in result.err, result.err


def one_error(result) -> str:
    """The one error line of a run that failed cleanly with exactly one error."""
    assert result.code == 1, result.err
    clean(result)
    errors = [line for line in result.lines if ": error: " in line]
    assert len(errors) == 1, result.err
    return errors[0]


KIT_PAPERS = ("letter", "a4")


def shared_build(tmp_path_factory, *builds: tuple[str, ...], command: str = "build") -> Path:
    """The output folder of `pnp build --root REPO ARGS` (or another command that writes
    output) for each ARGS in `builds`, run once for the whole test run: the test processes
    share it (the first to ask runs it, holding a lock; the others wait, then read). What the
    runs print is kept beside, in `printed.txt`. Only for the repository's own content, read
    and never changed by the tests that ask."""
    key = hashlib.sha256(repr((command, builds)).encode()).hexdigest()[:16]
    shared = _shared_folder(tmp_path_factory)
    out, done = shared / key, shared / f"{key}.done"
    with open(shared / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                for args in builds:
                    assert main([command, "--root", str(REPO), *args, "--out", str(out)]) == 0
            (out / "printed.txt").write_text(printed.getvalue(), encoding="utf-8")
            done.touch()
    return out


def _shared_folder(tmp_path_factory) -> Path:
    """A folder every test process of this run shares (xdist's workers included)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the folder every worker's own temporary folder is in
    shared = base / "shared-builds"
    shared.mkdir(exist_ok=True)
    return shared


def shared_value(tmp_path_factory, name: str, compute):
    """`compute()` run once for the whole test run (the first test process to ask runs it,
    holding a lock) and its answer pickled for the others: a PDF read back once, not once in
    every test process. `name` says what is computed, from what (a path, its arguments)."""
    shared = _shared_folder(tmp_path_factory)
    key = "value-" + hashlib.sha256(name.encode()).hexdigest()[:16]
    kept = shared / f"{key}.pickle"
    with open(shared / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not kept.exists():
            part = shared / f"{key}.part"
            part.write_bytes(pickle.dumps(compute()))
            part.replace(kept)
    return pickle.loads(kept.read_bytes())


@pytest.fixture(scope="session")
def built_kit(tmp_path_factory):
    """`built_kit(game)`: the output folder of a shipped game built once per test run on Letter
    and A4, every sheet, from the repository's content and templates."""

    def build(game: str) -> Path:
        return shared_build(tmp_path_factory, *(
            ("--game", game, "--sheets", "all", "--paper", paper) for paper in KIT_PAPERS)
        ) / game

    return build


@pytest.fixture
def run(capsys):
    """Run `pnp ARGS...` in-process and capture its exit code and output."""

    def invoke(*args: str) -> Result:
        code = main(list(args))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return invoke


MARK_MM = 5.0  # the length of a crop mark in the home layout, where the margin has room
MARK_MIN_MM = 1.0  # a mark is cut short to keep off the paper's unprinted edge, to this at least
MARK_WIDTH_PT = 0.3  # the width of a home layout's crop mark


def crop_marks(page) -> tuple[list[float], list[float], list]:
    """Read a pdfplumber (or PyMuPDF) page's crop marks: the vertical and horizontal cut-line
    positions (mm) they stand on, and the mark lines themselves (any straight line a mark's
    width, as long as a mark may be)."""
    xs, ys, marks = set(), set(), []
    lines = page.lines if hasattr(page, "lines") else _mupdf_lines(page)
    for line in lines:
        width, height = abs(line["x1"] - line["x0"]), abs(line["bottom"] - line["top"])
        length = pt_to_mm(max(width, height))
        if not MARK_MIN_MM - 0.05 <= length <= MARK_MM + 0.05 or min(width, height) > 0.01 \
                or abs(line.get("linewidth", MARK_WIDTH_PT) - MARK_WIDTH_PT) > 0.02:
            continue
        marks.append(line)
        if width < 0.01:
            xs.add(round(pt_to_mm(line["x0"]), 2))
        else:
            ys.add(round(pt_to_mm(line["top"]), 2))
    return sorted(xs), sorted(ys), marks


def _mupdf_lines(page) -> list[dict]:
    """A PyMuPDF page's straight lines as pdfplumber describes them (points, y down), read
    many times quicker than pdfplumber parses a page."""
    lines = []
    for drawing in page.get_drawings():
        if drawing.get("type") not in ("s", "fs") or drawing.get("width") is None:
            continue  # a mark is a stroked line; a filled shape's edges are not marks
        for item in drawing["items"]:
            if item[0] == "l":
                (x0, y0), (x1, y1) = item[1], item[2]
                lines.append({"x0": min(x0, x1), "x1": max(x0, x1), "top": min(y0, y1),
                              "bottom": max(y0, y1),
                              "linewidth": drawing["width"]})
    return lines


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace `old` with `new` in a content file, failing loudly if `old` is not there."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not found in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    """The 1-based line number of the first line containing `needle`."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite the golden images in tests/golden/ from the current output")


@pytest.fixture
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")
