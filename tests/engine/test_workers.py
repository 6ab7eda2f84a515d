"""Worker processes (pnp.engine.workers): results come back in order, whichever process made them; an
error in a worker is raised here, as with one process; Ctrl-C stops the workers and changes no
output; -j, else PNP_JOBS, says how many; and no process is left behind.

The builds with workers that must fail or hang run the real CLI in a child process, with a small
module added to what the fork server imports, so that every worker it forks draws through it."""

from __future__ import annotations

import concurrent.futures
import io
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import weakref
from dataclasses import dataclass
from pathlib import Path

import pikepdf
import pytest

import pnp.commands.build
import pnp.pipeline
import pnp.engine.workers
from conftest import BASELINE_SHEETS, REPO, edit
from pnp.pipeline import Project, check_game
from pnp.engine.workers import Drawing, Job, default_jobs, run_tasks
from pnp.pdf import DRAWING

# -- a check's tasks --------------------------------------------------------------------------


def _numbered(n: int):
    def task():
        time.sleep(0.05)  # long enough that both workers take some
        return n, os.getpid()
    return task


def test_tasks_run_in_forked_workers_and_come_back_in_order():
    results = run_tasks([_numbered(n) for n in range(8)], workers=2)
    assert [n for n, _ in results] == list(range(8))
    pids = {pid for _, pid in results}
    assert len(pids) == 2 and os.getpid() not in pids
    assert multiprocessing.active_children() == []  # the pool is gone when the check goes on


def test_one_worker_runs_every_task_here_without_a_pool():
    assert run_tasks([os.getpid] * 4, workers=1) == [os.getpid()] * 4


@dataclass
class Result:
    """A task's result that can go from a worker to this process."""

    n: int
    pid: int


@pytest.mark.parametrize("workers", [1, 2])
def test_each_result_is_taken_in_order_here_and_dropped_before_the_next(workers):
    """`each` runs in this process, on each result in order, and what it makes is what is
    kept: the results taken before are no longer held when it takes the next."""
    taken, earlier, made = [], [], []

    def each(result):
        taken.append((result.n, os.getpid(), [gone() for gone in earlier]))
        made.append(result.pid)
        earlier.append(weakref.ref(result))
        return result.n

    def task(n: int):
        return lambda: Result(n, os.getpid())

    assert run_tasks([task(n) for n in range(6)], workers, each) == list(range(6))
    assert taken == [(n, os.getpid(), [None] * n) for n in range(6)]
    if workers > 1:
        assert os.getpid() not in made  # made in the workers, not run again here


def test_a_task_that_fails_in_a_worker_is_run_again_here():
    here = os.getpid()

    def fails_in_a_worker():
        if os.getpid() != here:
            raise RuntimeError("only in a worker")
        return "done here"

    assert run_tasks([fails_in_a_worker] * 4, workers=2) == ["done here"] * 4


def test_a_task_that_fails_raises_its_error_here():
    def fails():
        raise ValueError("template bug")

    with pytest.raises(ValueError, match="template bug"):
        run_tasks([fails] * 4, workers=2)


def test_a_check_with_workers_shares_its_sheets(project, monkeypatch):
    pools = []

    class Counted(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            pools.append(args[0])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counted)
    assert check_game(Project(project), "downturn", jobs=2).ok
    assert pools == [2]
    # One card edited: its part, the cover (which reads the game's data) and the rules, fewer
    # tasks than a pool is forked for (FORK_FROM): drawn here.
    edit(project / "content/downturn/events.yaml", "Stability +1.", "Stability +1 (edited).")
    checked = check_game(Project(project), "downturn", jobs=2)
    assert checked.ok and pools == [2]
    assert any("Stability +1 (edited)." in face.svg for sheet in checked.sheets
               for face in getattr(sheet, "fronts", ()))


# -- a build's PDFs ---------------------------------------------------------------------------


def _pages(data: bytes) -> int:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return len(pdf.pages)


def test_pdfs_come_back_in_order_and_the_same_from_workers(tmp_path, monkeypatch):
    """Jobs of 2, 12 and 2 pages, the long one drawn in three parts and joined: the same bytes
    in the same order from one process and from two."""
    for folder in ("content", "templates"):  # copied: a link out of the project is refused
        shutil.copytree(REPO / "bench/poker" / folder, tmp_path / folder)
    monkeypatch.chdir(tmp_path)
    output = check_game(Project(tmp_path), "poker", jobs=1).outputs["cards"][0]
    plans = list(output.plans)
    jobs = [Job("a", plans[:2], output.document), Job("b", plans, output.document),
            Job("c", plans[4:6], output.document)]
    monkeypatch.setattr(pnp.engine.workers, "PART_PAGES", 4)
    drawn = {}
    for workers in (1, 2):
        with Drawing(workers, **DRAWING) as drawing:
            drawn[workers] = drawing.draw(jobs)
        assert multiprocessing.active_children() == []
    assert [_pages(data) for data in drawn[2]] == [2, 12, 2]
    assert drawn[1] == drawn[2]


@pytest.mark.parametrize("jobs_env, argv, expected", [
    ("3", [], 3),  # PNP_JOBS when -j is not given
    ("3", ["-j", "2"], 2),  # -j first
    ("1", [], 1),
])
def test_j_then_pnp_jobs_sets_the_processes(project, run, monkeypatch, jobs_env, argv, expected):
    asked = []

    class Noted(Drawing):
        def __init__(self, workers: int, **drawing) -> None:
            asked.append(("draw", workers))
            super().__init__(1, **drawing)  # what is asked is the point here, not the processes

    def noted_tasks(tasks, workers, *how):
        asked.append(("check", workers))
        return run_tasks(tasks, 1, *how)

    monkeypatch.setattr(pnp.commands.build, "Drawing", Noted)
    monkeypatch.setattr(pnp.pipeline, "run_tasks", noted_tasks)
    monkeypatch.setenv("PNP_JOBS", jobs_env)
    result = run("build", "--sheets", "banks", "--no-cache", *argv)
    assert result.code == 0, result.err
    assert asked == [("draw", expected), ("check", expected)]


def test_default_jobs_reads_pnp_jobs_else_the_usable_cpus(monkeypatch):
    monkeypatch.setenv("PNP_JOBS", "5")
    assert default_jobs() == 5
    for unusable in ("0", "many", ""):
        monkeypatch.setenv("PNP_JOBS", unusable)
        assert default_jobs() == len(os.sched_getaffinity(0))


def test_a_build_with_workers_leaves_none_running(project, run):
    result = run("build", "--sheets", "banks", "-j", "2")
    assert result.code == 0, result.err
    assert multiprocessing.active_children() == []


# -- builds with workers that fail, hang or end, in a child process ---------------------------

HOOK = textwrap.dedent("""
    import os, time
    import pnp.pdf.draw

    real = pnp.pdf.draw.draw_pages

    def draw_pages(plans):
        with open(os.environ["HOOK_PIDS"], "a") as pids:
            pids.write(f"{os.getpid()} {os.getppid()}\\n")
        if os.environ.get("HOOK") == "fail":
            raise RuntimeError("disk on fire")
        if os.environ.get("HOOK") == "hang":
            time.sleep(60)
        return real(plans)

    pnp.pdf.draw.draw_pages = draw_pages
""")

BUILD = textwrap.dedent("""
    import sys
    import pnp.engine.workers
    from pnp.cli import main

    pnp.engine.workers.PRELOAD.append("worker_hook")
    sys.exit(main(sys.argv[1:]))
""")


def gone(pid: int) -> bool:
    """Whether a process has ended (a zombie waiting to be reaped counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def wait_gone(pids, seconds: float = 5) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(gone(p) for p in pids):
            return True
        time.sleep(0.02)
    return False


def _build(project: Path, how: str, **popen) -> tuple[subprocess.Popen, Path]:
    """`pnp build -j 2` in a child process, its workers drawing through HOOK as `how` says;
    also the file where each drawing worker writes its process id and its parent's."""
    (project / "worker_hook.py").write_text(HOOK, encoding="utf-8")
    pids = project / "pids.txt"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(project)]),
           "HOOK": how, "HOOK_PIDS": str(pids)}
    child = subprocess.Popen([sys.executable, "-c", BUILD, "build", *BASELINE_SHEETS, "-j", "2"],
                             cwd=project, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, **popen)
    return child, pids


def _recorded(pids: Path) -> set[int]:
    return {int(pid) for line in pids.read_text().split("\n") for pid in line.split()}


def _wait_for_drawing(pids: Path) -> None:
    deadline = time.monotonic() + 60
    while not (pids.exists() and _recorded(pids)) and time.monotonic() < deadline:
        time.sleep(0.05)


def _pdfs(project: Path) -> dict[str, bytes]:
    folder = project / "output/downturn"
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} \
        if folder.is_dir() else {}


def test_an_error_in_a_worker_is_one_line_and_writes_nothing(project):
    child, pids = _build(project, "fail")
    _, err = child.communicate(timeout=120)
    assert child.returncode == 1, err
    assert err.splitlines()[-1].startswith("pnp: internal error: RuntimeError: disk on fire")
    assert "Traceback" not in err
    assert _pdfs(project) == {}
    assert wait_gone(_recorded(pids))  # the workers, and the fork server they came from


def test_ctrl_c_while_workers_draw_stops_them_and_changes_no_output(project, run):
    assert run("build", *BASELINE_SHEETS, "-j", "1").code == 0
    before = _pdfs(project)
    edit(project / "content/downturn/game.yaml", "title: Downturn", "title: Downturn Revised")
    child, pids = _build(project, "hang", start_new_session=True)  # a terminal of its own
    try:
        _wait_for_drawing(pids)
        started = time.monotonic()
        os.killpg(child.pid, signal.SIGINT)  # as a terminal's Ctrl-C: to the whole group
        _, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 130, err
    assert time.monotonic() - started < 10  # not the minute a hanging worker would take
    assert "interrupted; no output was changed" in err
    assert "Traceback" not in err  # the workers ignored it; the build stopped them
    assert _pdfs(project) == before
    assert not list(project.rglob(".pnp-staging-*"))
    assert wait_gone(_recorded(pids))


def test_no_process_is_left_after_a_build_with_workers(project):
    child, pids = _build(project, "draw")
    _, err = child.communicate(timeout=120)
    assert child.returncode == 0, err
    assert set(_pdfs(project)) >= {"events-letter.pdf", "banks-letter.pdf"}
    assert len(_recorded(pids)) >= 2  # workers, and the fork server as their parent
    assert wait_gone(_recorded(pids))


def test_workers_leave_when_the_build_is_killed_outright(project):
    child, pids = _build(project, "hang")
    try:
        _wait_for_drawing(pids)
        child.kill()  # SIGKILL: the build has no chance to stop them
        child.wait()
        assert wait_gone(_recorded(pids), 10)
    finally:
        for pid in _recorded(pids) if pids.exists() else ():
            if not gone(pid):  # whatever failed, leave nothing running
                os.kill(pid, signal.SIGKILL)
        child.kill()
        child.communicate(timeout=60)


def test_a_signal_while_the_finishing_library_loads_comes_after_it_has_loaded():
    """pikepdf's extension turns a Ctrl-C taken while it loads into an ImportError (a build
    then ended in an internal error): the build's own process loads it whole, with Ctrl-C
    and SIGTERM held (pnp.libraries.load_whole), and takes the signal once it has loaded."""
    probe = textwrap.dedent("""
        import importlib, os, signal, sys, threading, time
        import pnp.engine.workers as workers
        from pnp.pdf import DRAWING
        real = importlib.import_module
        # Another thread, as the pool's own thread is while a build draws: the signal may be
        # taken there, however this thread's mask is set, and acted on here.
        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()

        def loading(name):
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, as the library starts to load
            return real(name)

        importlib.import_module = loading
        try:
            workers._named(DRAWING["finish"])
        except KeyboardInterrupt:
            print("interrupted after loading:", "pikepdf" in sys.modules)
    """)
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=60)
    assert run.stdout.strip() == "interrupted after loading: True", run.stderr


@pytest.mark.parametrize(("variable", "value"), [("PNP_JOBS", "two"), ("PNP_JOBS", "0"),
                                                 ("PNP_MAX_FILE_MB", "1.5"),
                                                 ("PNP_MAX_ITEMS", "-5")])
def test_a_count_setting_that_is_not_a_count_is_a_usage_error(tmp_path, run, monkeypatch,
                                                              variable, value):
    """Not silently the default: the person who set it meant something."""
    monkeypatch.setenv(variable, value)
    result = run("check", "--root", str(tmp_path))
    assert result.code == 2, result.err
    assert result.lines[0].startswith(f"pnp: error: {variable}={value!r} is not a whole "
                                      "number above 0; set it to one (e.g. ")
