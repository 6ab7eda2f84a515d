"""Both cores: the PDFs a build must draw (page plans and metadata) in, their bytes out, drawn
in worker processes; and `share_tasks`, by which a check draws its sheets' faces in this
process and a forked copy of it at once.

Each PDF is split into parts that do not depend on how many workers there are: a small PDF is
one part, a large deck's pages are cut into parts of about PART_PAGES pages, each drawn to a
PDF of its own by cairo and joined in order by pikepdf before the page boxes and metadata are
added. `-j 1` draws the same parts, one after another in this process, so every build gives
the same bytes whatever its `-j`.

Loading cairo, cairosvg and pikepdf takes a quarter of a second, about as long as checking a
game. So the console script starts the drawing processes (the crew, `start_crew`) before pnp
loads: the first of them loads the drawing libraries and the bundled fonts while this process
loads and checks, then forks the others from itself, and each waits for work on a pipe. This
process never loads them. Page plans are plain frozen data: they are pickled to the workers and
only PDF bytes come back. The document's date is part of its metadata
(`DocumentInfo.date_epoch`), never read from a worker's environment. The crew stays for the
life of the process (`pnp watch` draws round after round with it) and ends with it: a worker
leaves when its pipe closes, and the process waits for them (so their time and memory are
counted as its children's).

Workers ignore Ctrl-C: the build stops them and is discarded as a whole. The first worker is
forked with Ctrl-C and SIGTERM held, and sets them up before it lets them in, so a signal never
lands in a half-made worker; it leads a process group of its own, so one signal stops them all.
"""

from __future__ import annotations

import atexit
import math
import os
import pickle
import signal
import sys
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence, TypeVar

if TYPE_CHECKING:  # this module is imported before pnp loads: it starts the crew
    from .plans import DocumentInfo, PagePlan

PART_PAGES = 64  # a PDF with more pages is drawn in parts of at most this many


@dataclass(frozen=True)
class Job:
    """One PDF to draw; `name` is what progress shows."""

    name: str
    plans: Sequence[PagePlan]
    document: DocumentInfo


def default_jobs() -> int:
    """Worker processes when none are asked for: `PNP_JOBS` if set, else the CPUs this
    process may use."""
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


def draw_pages(plans: list[PagePlan]) -> bytes:
    from .pdf import draw_pages as draw

    return draw(plans)


def finish_document(parts: list[bytes], plans: list[PagePlan], document: DocumentInfo) -> bytes:
    from .pdf import finish_document as finish

    return finish(parts, plans, document)


def _draw_part(plans: list[PagePlan], document: DocumentInfo | None) -> bytes:
    """A part's drawing; a PDF drawn in one part (`document` given) is finished here too."""
    drawn = draw_pages(plans)
    return drawn if document is None else finish_document([drawn], plans, document)


_HELD = {signal.SIGINT, signal.SIGTERM}


def workers_wanted(argv: list[str]) -> int:
    """How many drawing processes a `build` or `watch` command line will use (0: it draws
    nothing); read before pnp loads, so they can start first (an unusual spelling just
    starts them later)."""
    if not argv or argv[0] not in ("build", "watch") or not hasattr(os, "fork"):
        return 0
    jobs = None
    for n, token in enumerate(argv):
        if token in ("-j", "--jobs") and n + 1 < len(argv):
            jobs = argv[n + 1]
        elif token.startswith("--jobs="):
            jobs = token.partition("=")[2]
    if jobs is None:
        return default_jobs()
    return int(jobs) if jobs.isdigit() else 0


Progress = Callable[[int, int], None]  # (pages drawn, pages in all)
T = TypeVar("T")
MAX_SHARED_TASKS = 255  # task numbers travel as single bytes


def share_tasks(tasks: Sequence[Callable[[], T]], workers: int) -> list[T]:
    """Every task's result, in order: run in this process and, when `workers` > 1 and the
    system can fork, in one forked copy of it at the same time.

    A copy starts at once (nothing is pickled to it, it has everything this process has) and
    each process takes the next task number from a pipe until none is left, so a slow task
    does not hold the other core idle. The copy sends back its results pickled; any task it
    did not finish (it failed, or was killed) is run here, so its error is raised here, as
    in one process. Where the process runs other threads (a fork would copy their locks
    half-held) or cannot fork, the tasks run here, one after another.
    """
    if (workers < 2 or len(tasks) < 2 or len(tasks) > MAX_SHARED_TASKS
            or not hasattr(os, "fork") or threading.active_count() > 1):
        return [task() for task in tasks]
    numbers_in, numbers_out = os.pipe()
    os.write(numbers_out, bytes(range(len(tasks))))
    os.close(numbers_out)
    results_in, results_out = os.pipe()
    child = os.fork()
    if child == 0:  # the copy: run tasks, send the results, leave without any cleanup
        os.close(results_in)
        done: dict[int, T] = {}
        try:
            _take_tasks(numbers_in, tasks, done)
        except BaseException:  # noqa: BLE001 - whatever it was, the task reruns in the parent
            pass
        try:
            with os.fdopen(results_out, "wb") as out:
                out.write(pickle.dumps(done, pickle.HIGHEST_PROTOCOL))
        finally:
            os._exit(0)
    os.close(results_out)
    results: dict[int, T] = {}
    try:
        _take_tasks(numbers_in, tasks, results)
        with os.fdopen(results_in, "rb", closefd=False) as received:
            data = received.read()
        os.waitpid(child, 0)
        child = 0
        try:
            results.update(pickle.loads(data))
        except Exception:  # noqa: BLE001 - no usable answer: its tasks are run here
            pass
    finally:
        os.close(numbers_in)
        os.close(results_in)
        if child:
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
    return [results[n] if n in results else tasks[n]() for n in range(len(tasks))]


def _take_tasks(numbers, tasks: Sequence[Callable[[], T]], done: dict[int, T]) -> None:
    while number := os.read(numbers, 1):
        done[number[0]] = tasks[number[0]]()


# -- the crew: drawing processes, loaded once and kept for the life of this process ----------

_HEADER = 8  # every message is its length in 8 bytes, then a pickle


def _send(fd: int, value: object) -> None:
    data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    view = memoryview(len(data).to_bytes(_HEADER, "big") + data)
    while view:
        view = view[os.write(fd, view):]


def _receive(fd: int) -> object:
    """The next message on `fd`; EOFError when the other end is closed."""
    size = int.from_bytes(_read_exactly(fd, _HEADER), "big")
    return pickle.loads(_read_exactly(fd, size))


def _read_exactly(fd: int, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


@dataclass
class _Worker:
    requests: int  # this process writes (function, arguments) here
    replies: int  # and reads (True, result) or (False, exception) here


@dataclass
class _Crew:
    group: int  # the workers' process group, named by the first worker's process id
    workers: list[_Worker]
    spawned: object = None  # the first worker's Popen, when it was spawned


_CREW: _Crew | None = None


def start_crew(size: int) -> None:
    """Start `size` drawing processes, unless they are running: the first loads the drawing
    libraries and the bundled fonts, then forks the others from itself, so that is done
    once. They stay for the life of this process and end when it does (at end of file on
    their pipes). Ctrl-C and SIGTERM are held while the first one starts; it ignores Ctrl-C
    (a build that is interrupted stops its workers itself) and leads a process group of its
    own, so they can all be stopped at once."""
    global _CREW
    if _CREW is not None or size < 2:
        return
    pipes = [(os.pipe(), os.pipe()) for _ in range(size)]
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        spawned = None
        if threading.active_count() == 1:
            lead = os.fork()
            if lead == 0:
                _lead(pipes)
        else:  # forking a process that runs other threads could copy their locks half-held
            spawned = _spawn_lead(pipes)
            lead = spawned.pid
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    workers = []
    for (request_read, request_write), (reply_read, reply_write) in pipes:
        os.close(request_read)
        os.close(reply_write)
        workers.append(_Worker(request_write, reply_read))
    _CREW = _Crew(lead, workers, spawned)
    atexit.register(_stop_crew, kill=False)


def _spawn_lead(pipes):
    """The first worker as a new Python process, given its pipes' descriptors."""
    import json
    import subprocess

    ends = [(request_read, reply_write) for (request_read, _), (_, reply_write) in pipes]
    code = ("import sys, json; sys.path[:] = json.loads(sys.argv[1]); "
            "from pnp.parallel import _lead; _lead(json.loads(sys.argv[2]))")
    return subprocess.Popen(
        [sys.executable, "-c", code, json.dumps(sys.path), json.dumps(ends)],
        pass_fds=[fd for pair in ends for fd in pair])


def _lead(pipes) -> None:
    """The first worker: load, fork the others, then serve like them. Never returns.

    `pipes` is either every worker's ((request read, request write), (reply read, reply
    write)), in a process forked from the build, or every worker's (request read, reply
    write) alone, in a spawned one."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
        os.setpgid(0, 0)
        ends = []
        for pair in pipes:
            if isinstance(pair[0], (tuple, list)):  # forked: close the build's ends
                (request_read, request_write), (reply_read, reply_write) = pair
                os.close(request_write)
                os.close(reply_read)
                pair = (request_read, reply_write)
            ends.append(tuple(pair))
        try:
            import pnp.pdf  # noqa: F401 - loaded once here, for every worker
            from .fonts import use_bundled_fonts

            use_bundled_fonts()
        except Exception:  # noqa: BLE001 - each job will raise it again, to the build
            pass
        mine = ends[0]
        for own in ends[1:]:
            if os.fork() == 0:
                mine = own
                break
        for pair in ends:
            if pair != mine:
                os.close(pair[0])
                os.close(pair[1])
        _serve(*mine)
        if mine == ends[0]:  # the first worker waits for the others, so they are accounted for
            while True:
                try:
                    os.wait()
                except ChildProcessError:
                    break
    finally:
        os._exit(0)


def _serve(requests: int, replies: int) -> None:
    """A worker's life: call each (function, arguments) that arrives, send back its result
    or its exception, until the build closes the pipe."""
    while True:
        try:
            function, arguments = _receive(requests)
        except EOFError:
            return
        try:
            reply = (True, function(*arguments))
        except Exception as exc:  # noqa: BLE001 - the build raises it, as in one process
            reply = (False, exc)
        try:
            _send(replies, reply)
        except (pickle.PicklingError, TypeError, AttributeError):
            _send(replies, (False, RuntimeError(f"{type(reply[1]).__name__}: {reply[1]}")))


def _stop_crew(kill: bool = True) -> None:
    """Stop every worker at once (a build interrupted or failed while they drew), or with
    `kill` false let them leave as their pipes close; then wait for the first of them, which
    has waited for the others."""
    global _CREW
    crew, _CREW = _CREW, None
    if crew is None:
        return
    for worker in crew.workers:
        os.close(worker.requests)
        os.close(worker.replies)
    if kill:
        try:
            os.killpg(crew.group, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if crew.spawned is not None:
        crew.spawned.wait()
    else:
        try:
            os.waitpid(crew.group, 0)  # the first worker is this process's child
        except ChildProcessError:
            pass


class Drawing:
    """The drawing of one build's PDFs by `workers` processes (1: in this one).

    Made before the check, so the workers load the drawing libraries meanwhile (the console
    script starts them even earlier, `start_crew`); `draw` then draws the jobs. The workers
    are kept for the next build of this process (`pnp watch`); leaving the `with` block on an
    exception stops them.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers if workers > 1 and hasattr(os, "fork") else 1
        if self.workers > 1:
            start_crew(self.workers)

    def __enter__(self) -> Drawing:
        return self

    def __exit__(self, *exc) -> None:
        self.close(cancel=exc[0] is not None)

    def draw(self, jobs: list[Job], progress: Progress | None = None,
             meanwhile: Callable[[], None] | None = None) -> list[bytes]:
        """Every job's PDF bytes, in order. `meanwhile` is called once, while the workers
        draw (with one process: before it draws), for work of this process's own."""
        parts = [(n, pages) for n, job in enumerate(jobs) for pages in split(len(job.plans))]
        total = sum(len(pages) for _, pages in parts)
        whole = {n for n, job in enumerate(jobs) if len(split(len(job.plans))) == 1}
        done = 0

        def task(index: int) -> tuple:
            n, pages = parts[index]
            plans = list(jobs[n].plans)[pages.start:pages.stop]
            return plans, jobs[n].document if n in whole else None

        def finished(index: int) -> None:
            nonlocal done
            done += len(parts[index][1])
            if progress:
                progress(done, total)

        crew = _CREW if self.workers > 1 else None
        if crew and parts:
            drawn = self._in_workers(parts, task, finished, meanwhile or (lambda: None))
        else:
            if meanwhile:
                meanwhile()
            drawn = {}
            for index in range(len(parts)):
                drawn[index] = _draw_part(*task(index))
                finished(index)
        joins = {n: ([drawn[i] for i, (owner, _) in enumerate(parts) if owner == n],
                     list(job.plans), job.document)
                 for n, job in enumerate(jobs) if n not in whole}
        if crew and joins:
            numbers = list(joins)
            made = _call_in_crew([(finish_document, joins[n]) for n in numbers], lambda _: None)
            joined = {n: made[i] for i, n in enumerate(numbers)}
        else:
            joined = {n: finish_document(*join) for n, join in joins.items()}
        return [joined[n] if n in joined else
                next(drawn[i] for i, (owner, _) in enumerate(parts) if owner == n)
                for n in range(len(jobs))]

    def _in_workers(self, parts, task, finished, meanwhile) -> dict[int, bytes]:
        # The largest parts first, so no worker is left drawing a big one alone at the end.
        order = sorted(range(len(parts)), key=lambda i: -len(parts[i][1]))
        calls = [(_draw_part, task(index)) for index in order]
        drawn = _call_in_crew(calls, lambda n: finished(order[n]), meanwhile)
        return {order[n]: data for n, data in drawn.items()}

    def close(self, cancel: bool = False) -> None:
        if cancel:
            _stop_crew()


def _call_in_crew(calls: list[tuple[Callable, tuple]], finished: Callable[[int], None],
                  meanwhile: Callable[[], None] = lambda: None) -> dict[int, object]:
    """Each call's result by its number, made by the crew, each call going to the first
    worker free; `meanwhile` runs here once the first calls are sent. An exception a call
    raised is raised here; then, or if a worker is lost or this process interrupted, the
    crew is stopped (a build that fails is discarded whole)."""
    import select

    waiting = list(range(len(calls)))[::-1]
    busy: dict[int, tuple[_Worker, int]] = {}  # reply pipe -> (worker, call number)
    results: dict[int, object] = {}

    def give(worker: _Worker) -> None:
        number = waiting.pop()
        _send(worker.requests, calls[number])
        busy[worker.replies] = (worker, number)

    try:
        for worker in _CREW.workers[:len(calls)]:
            give(worker)
        meanwhile()
        while busy:
            ready, _, _ = select.select(list(busy), [], [])
            for fd in ready:
                worker, number = busy.pop(fd)
                try:
                    ok, value = _receive(fd)
                except EOFError:
                    raise RuntimeError("a drawing process stopped before it finished; run "
                                       "again, or draw in one process with -j 1") from None
                if not ok:
                    raise value
                results[number] = value
                finished(number)
                if waiting:
                    give(worker)
    except BaseException:
        _stop_crew()
        raise
    return results
