"""PDF jobs (and a check's sheet tasks) in; results out, on N processes; one for -j 1.

Both kinds of work run on `concurrent.futures.ProcessPoolExecutor`; with one process (`-j 1`,
`PNP_JOBS=1`) they run here, one after another, with no pool.

A build's PDFs (`Drawing`). Each PDF is split into parts that do not depend on how many
processes there are: a small PDF is one part, a large deck's pages are cut into parts of about
PART_PAGES pages. The workers draw each part to a PDF of its own with cairo; this process
joins a document's parts in order and adds the page boxes and metadata (pnp.pdf.finish, with
pikepdf) as soon as its last part comes back, while the workers draw the rest. Every `-j`
draws the same parts, so every build gives the same bytes. The pool's workers are forked from
multiprocessing's fork server, which imports the drawing modules (cairo, cairosvg) once, before
any worker is forked from it (`set_forkserver_preload`). A build makes its `Drawing` before it
checks the content: that starts the server, so the libraries load while the content is
checked; this process never loads cairo, and loads pikepdf while the workers draw. Page plans
are plain frozen data: they are pickled to the workers and PDF bytes come back. The
document's date is part of its metadata (`DocumentInfo.date_epoch`), never read from a
worker's environment. As with any pool whose workers are not plain forks, a worker
runs the script that started this process again, as `__mp_main__`: a script that builds with
workers keeps its own code under `if __name__ == "__main__":` (pnp's console script and
`python -m pnp` do).

A check's sheet tasks (`run_tasks`) are closures over the renderer and the sheets, which
cannot be pickled. So their pool is made once they exist, on the `fork` start method: its
workers are copies of this process, holding the tasks in `_TASKS`, and are sent only a task's
number; each result comes back pickled. A task that fails in a worker is run again here, so
its error is raised here, as with one process. A fork copies other threads' locks as they
are, and is unsafe on macOS: elsewhere than Linux, or while another thread runs (the proof
gallery's server), the tasks run here.

Workers ignore Ctrl-C: the fork server is started while this process ignores it, and passes
that on to every worker it forks, so from their first instruction; a check's forked workers
are started while this process only notes a signal, and ignore Ctrl-C from their initializer. An interrupted or failed
build kills them and is discarded as a whole, and each worker leaves by itself if this process
is killed outright. Every pool is shut down before its build ends, so no worker outlives it;
the fork server (and multiprocessing's resource tracker) stays, idle, until this process ends
(`pnp watch` starts it once). A killed worker may have been half-way through sending a result:
the pool's thread that reads results would wait for the rest forever (and
`ProcessPoolExecutor.shutdown`, and Python's exit, with it), so `_shut_down` closes this
process's end of the pipe the results come through once the workers are dead: the read ends
there. Each pool's workers keep their scratch files in a folder of the pool's own, removed
when it is shut down: a worker killed while it draws leaves nothing in TMPDIR.

Kept for: all cores. The 30,000-card check with nothing cached keeps 1.94 of 2 cores busy
(CPU / wall, bench/bench_build.py --sections big), and a first build of Downturn takes 0.67 of
its time in one process (1.83 s against 2.74 s);
small work stays here (FORK_FROM), where forking cost more than it saved.
"""

from __future__ import annotations

import math
import os
import shutil
import signal
import sys
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Sequence

from . import reads
from ..libraries import load_whole, signals_kept_back

# concurrent.futures and multiprocessing are imported where a pool is made (about 20 ms): a
# check with one sheet to draw runs it here and never loads them.

__all__ = ["Job", "Drawing", "Progress", "default_jobs", "run_tasks", "split", "start_drawing"]

PART_PAGES = 64  # a PDF with more pages is drawn in parts of at most this many
# What the fork server imports once, for every worker it forks (a pool's worker runs in
# concurrent.futures.process), besides the modules a Drawing is handed.
PRELOAD = ["concurrent.futures.process", "pnp.engine.workers"]

Progress = Callable[[int, int], None]  # (pages drawn, pages in all)


@dataclass(frozen=True)
class Job:
    """One PDF to draw; `name` is what progress shows."""

    name: str
    plans: Sequence  # the pages (pnp.layout.plans.PagePlan)
    document: object  # its metadata (pnp.layout.plans.DocumentInfo)
    fonts: tuple[str, ...] = ()  # the game's own font files, besides the bundled ones


def default_jobs() -> int:
    """Processes when none are asked for: `PNP_JOBS` if set, else the CPUs this process may
    use."""
    chosen = os.environ.get("PNP_JOBS", "").strip()
    if chosen.isdigit() and int(chosen) > 0:
        return int(chosen)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def split(pages: int) -> list[range]:
    """The page ranges a PDF of `pages` pages is drawn in (the same for any -j)."""
    parts = max(1, math.ceil(pages / PART_PAGES))
    size = math.ceil(pages / parts)
    # Keep a fronts page and its backs page in one part (they come in pairs).
    size += size % 2 if parts > 1 else 0
    return [range(start, min(start + size, pages)) for start in range(0, pages, size)]


def _named(name: str) -> Callable:
    """The function `module:function` names, its module loaded whole (pnp.libraries)."""
    module, function = name.split(":")
    return getattr(load_whole(module), function)


def _call(name: str, *args):
    return _named(name)(*args)


def _drawing_work(plans: Sequence) -> int:
    """How long pages take to draw, roughly: the SVG elements they hold (cairosvg draws
    element by element; a page count misses a page of many small cards)."""
    return sum(plan.furniture.count("<") + sum(place.svg.count("<") for place in plan.placements)
               for plan in plans)


class Drawing:
    """The drawing of one build's PDFs by `workers` processes (1: in this one, with no pool).

    Handed what draws, by name (`module:function`, imported where it runs): `draw(plans,
    fonts)` draws a part's pages, `finish(parts, plans, document)` joins them into the
    document; `preload`, the modules the workers load once (pnp.pdf.DRAWING). Made before
    the check, so the fork server loads the drawing libraries meanwhile; `draw` then draws
    the jobs, as often as asked; leaving the `with` block shuts the pool down, and on an
    exception kills its workers first.
    """

    def __init__(self, workers: int, draw: str, finish: str,
                 preload: Sequence[str] = ()) -> None:
        self.workers = max(1, workers)
        self.draw_part, self.finish = draw, finish
        self._pool = self._scratch = None
        if self.workers > 1:
            from concurrent.futures import ProcessPoolExecutor

            context = _drawing_context(preload)
            try:
                with signals_kept_back():  # the folder is made and owned by the pool at once
                    self._scratch = tempfile.mkdtemp(prefix="pnp-")
                    self._pool = ProcessPoolExecutor(self.workers, mp_context=context,
                                                     initializer=_start_worker,
                                                     initargs=(self._scratch,))
            except BaseException:  # a signal taken meanwhile: no `with` block will close it
                self.close(cancel=True)
                raise

    def __enter__(self) -> Drawing:
        return self

    def __exit__(self, *exc) -> None:
        self.close(cancel=exc[0] is not None)

    def draw(self, jobs: list[Job], progress: Progress | None = None,
             meanwhile: Callable[[], None] | None = None) -> list[bytes]:
        """Every job's PDF bytes, in order. The workers draw the parts; this process joins
        and finishes each document once its last part is drawn (pnp.pdf.finish), while they
        draw the others. `meanwhile` is called once, while the workers draw (with one
        process: before it draws), for work of this process's own."""
        parts = [(n, pages) for n, job in enumerate(jobs) for pages in split(len(job.plans))]
        work = [(list(jobs[n].plans)[pages.start:pages.stop], jobs[n].fonts)
                for n, pages in parts]
        total, done = sum(len(pages) for _, pages in parts), 0
        drawn: dict[int, bytes] = {}
        left = [sum(1 for owner, _ in parts if owner == n) for n in range(len(jobs))]
        documents: dict[int, bytes] = {}

        def finished(index: int, data: bytes) -> None:
            nonlocal done
            drawn[index] = data
            done += len(parts[index][1])
            if progress:
                progress(done, total)
            n = parts[index][0]
            left[n] -= 1
            if not left[n]:
                mine = [drawn.pop(i) for i, (owner, _) in enumerate(parts) if owner == n]
                documents[n] = _call(self.finish, mine, list(jobs[n].plans), jobs[n].document)

        if self._pool is None or not parts:
            if meanwhile:
                meanwhile()
            for index, (plans, fonts) in enumerate(work):
                finished(index, _call(self.draw_part, plans, fonts))
        else:
            from concurrent.futures import FIRST_COMPLETED, wait

            # The longest parts first, so no worker is left drawing a long one alone at the end.
            order = sorted(range(len(parts)), key=lambda i: -_drawing_work(work[i][0]))
            # The first submits start the workers: a signal is taken once they are started,
            # never half-way through starting one (it would run on, unknown to the pool).
            with signals_kept_back():
                pending = {self._pool.submit(_call, self.draw_part, *work[i]): i for i in order}
            _named(self.finish)  # its libraries (pikepdf) load here while the workers draw

            if meanwhile:
                meanwhile()
            while pending:
                complete, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in complete:
                    finished(pending.pop(future), future.result())
        return [documents[n] for n in range(len(jobs))]

    def close(self, cancel: bool = False) -> None:
        pool, self._pool = self._pool, None
        scratch, self._scratch = self._scratch, None
        _shut_down(pool, cancel, scratch)


_TASKS: Sequence[Callable[[], object]] = ()
# Fewer tasks than this are run here, one after another: forking a pool costs more than they
# take. A save in `pnp watch` draws two or three (the part of a deck that holds the edited
# card, a sheet that reads the whole game, the rules); forking for them made the round's
# check take 0.78 s instead of 0.38 s (Downturn, one event edited).
FORK_FROM = 4  # the check's tasks, as its forked workers see them


def run_tasks(tasks: Sequence[Callable[[], object]], workers: int,
              each: Callable[[object], object] | None = None) -> list:
    """Every task's result, in order, run by `workers` processes forked from this one (see
    the module's notes), or here, one after another. With `each`, what `each` makes of each
    result as it is taken, the result itself dropped then: large results that are kept in
    another form are not all held at once."""
    global _TASKS
    each = each or (lambda result: result)
    if (workers < 2 or len(tasks) < FORK_FROM or not sys.platform.startswith("linux")
            or threading.active_count() > 1):
        return [each(task()) for task in tasks]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    _TASKS = tasks
    pool = scratch = None
    try:
        with signals_kept_back():  # the folder is made and owned by the pool at once
            scratch = tempfile.mkdtemp(prefix="pnp-")
            pool = ProcessPoolExecutor(min(workers, len(tasks)), initializer=_start_worker,
                                       initargs=(scratch,),
                                       mp_context=multiprocessing.get_context("fork"))
        # The workers are forked by the first submit, with Ctrl-C and SIGTERM only noted
        # (their initializer ignores Ctrl-C); this process takes a signal once they are
        # started, never half-way through forking one.
        with signals_kept_back():
            futures = [pool.submit(_run_task, n) for n in range(len(tasks))]
        results = []
        for n, future in enumerate(futures):
            futures[n] = None  # its result is dropped once taken
            try:
                result, found, mixed = future.result()
            except Exception:  # noqa: BLE001 - run here, so its error is raised as in one process
                results.append(each(tasks[n]()))
                continue
            del future
            reads.note_all(found, mixed)  # what the worker read, this process's run read
            results.append(each(result))
            del result
    except BaseException:
        _shut_down(pool, True, scratch)
        raise
    finally:
        _TASKS = ()
    _shut_down(pool, False, scratch)
    return results


def _run_task(number: int) -> tuple[object, dict[str, str], bool]:
    with reads.recording() as record:
        result = _TASKS[number]()
    return result, record.reads, record.mixed


def start_drawing(preload: Sequence[str] = ()) -> None:
    """Start the fork server now, so it loads the drawing libraries while this process loads
    pnp's stages and checks the content (pnp.cli calls it before it imports a command that
    draws); a `Drawing` made later forks its workers from it. Nothing happens where there is
    no fork server (Windows) or one is running."""
    _drawing_context(preload)


def _drawing_context(preload: Sequence[str] = ()):
    """The drawing pool's start method: the fork server, started now with the drawing
    modules preloaded; where there is none (Windows), new interpreters."""
    import multiprocessing
    from multiprocessing import forkserver

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([*PRELOAD, *preload])  # a server already running keeps what it loaded
    try:
        with _ctrl_c_ignored():
            forkserver.ensure_running()
    except OSError:  # its socket cannot be made (a TMPDIR too long to name one in): spawn
        return multiprocessing.get_context("spawn")
    return context


@contextmanager
def _ctrl_c_ignored():
    """Ignore Ctrl-C in this process for the moment processes are started in, so they are
    born ignoring it. It is blocked meanwhile too: one that comes then waits (a blocked signal
    is kept pending, even while it is ignored) and is taken once the old handler is back,
    instead of being lost."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set a handler: the workers' initializer does it
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _start_worker(scratch: str) -> None:
    """A worker ignores Ctrl-C (it already does, unless it was spawned), keeps its scratch
    files in its pool's `scratch` folder, and leaves as soon as the process that made its pool
    has ended, however it ended: a pool's workers otherwise wait for work forever once that
    process is killed outright."""
    import multiprocessing

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a forked worker's came from its parent
    tempfile.tempdir = scratch
    threading.Thread(target=_leave_with, args=(multiprocessing.parent_process(),),
                     daemon=True).start()


def _leave_with(parent) -> None:
    parent.join()  # returns once the process that made the pool has ended
    os.kill(os.getpid(), signal.SIGKILL)


def _shut_down(pool, cancel: bool, scratch: str | None) -> None:
    """Wait for the pool's workers to leave; with `cancel`, kill them first (the work is
    discarded). Then remove the workers' `scratch` folder. A process has one pool with workers
    at a time, so every worker this process started is the pool's."""
    try:
        if pool is None:
            return
        if cancel:
            import multiprocessing

            killed = multiprocessing.active_children()
            for process in killed:
                process.kill()
            for process in killed:
                process.join()
            _end_reading(pool)
        pool.shutdown(wait=True, cancel_futures=cancel)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def _end_reading(pool) -> None:
    """Close this process's end of the pipe the pool's results come through, its workers
    dead. The pool's thread may be blocked reading a result a killed worker had half sent,
    waiting for bytes no one will write; with no writer left, the read ends (EOFError), and
    the thread marks the pool broken and leaves, as for a worker that died. concurrent.futures
    keeps the pipe private (Python 3.9-3.13: `_result_queue._writer`); where it is not there,
    nothing is closed."""
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        writer.close()
