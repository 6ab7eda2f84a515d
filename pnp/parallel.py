"""Both cores: the PDFs a build must draw (page plans and metadata) in, their bytes out, drawn
in worker processes; and `share_tasks`, by which a check draws its sheets' faces in this
process and a forked copy of it at once.

Each PDF is split into parts that do not depend on how many workers there are: a small PDF is
one part, a large deck's pages are cut into parts of about PART_PAGES pages, each drawn to a
PDF of its own by cairo and joined in order by pikepdf before the page boxes and metadata are
added. `-j 1` draws the same parts, one after another in this process, so every build gives
the same bytes whatever its `-j`.

The drawing is done by the crew (pnp.crew), processes started before pnp loads that load cairo,
cairosvg and pikepdf while the content is checked; this process never loads them. Page plans are
plain frozen data: they are pickled to the workers and only PDF bytes come back. The document's
date is part of its metadata (`DocumentInfo.date_epoch`), never read from a worker's
environment.
"""

from __future__ import annotations

import math
import os
import pickle
import signal
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence, TypeVar

from . import crew
from .crew import default_jobs


if TYPE_CHECKING:
    from .plans import DocumentInfo, PagePlan

__all__ = ["Job", "Drawing", "Progress", "default_jobs", "share_tasks", "split"]

PART_PAGES = 64  # a PDF with more pages is drawn in parts of at most this many


@dataclass(frozen=True)
class Job:
    """One PDF to draw; `name` is what progress shows."""

    name: str
    plans: Sequence[PagePlan]
    document: DocumentInfo


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


def _drawing_work(plans: Sequence[PagePlan]) -> int:
    """How long pages take to draw, roughly: the SVG elements they hold (cairosvg draws
    element by element; a page count misses a page of many small cards)."""
    return sum(plan.furniture.count("<") + sum(place.svg.count("<") for place in plan.placements)
               for plan in plans)


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


class Drawing:
    """The drawing of one build's PDFs by `workers` processes (1: in this one).

    Made before the check, so the crew loads the drawing libraries meanwhile if the console
    script has not started it already; `draw` then draws the jobs. Leaving the `with` block
    on an exception stops the crew; otherwise it stays for the next build of this process.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers if workers > 1 and hasattr(os, "fork") else 1
        if self.workers > 1:
            crew.start_crew(self.workers)

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

        shared = self.workers > 1 and crew.running()
        if shared and parts:
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
        if shared and joins:
            joined = dict(zip(joins, crew.call_in_crew(
                [(finish_document, join) for join in joins.values()])))
        else:
            joined = {n: finish_document(*join) for n, join in joins.items()}
        return [joined[n] if n in joined else
                next(drawn[i] for i, (owner, _) in enumerate(parts) if owner == n)
                for n in range(len(jobs))]

    def _in_workers(self, parts, task, finished, meanwhile) -> dict[int, bytes]:
        # The longest parts first, so no worker is left drawing a long one alone at the end.
        work = [task(index) for index in range(len(parts))]  # (plans, document)
        order = sorted(range(len(parts)), key=lambda i: -_drawing_work(work[i][0]))
        calls = [(_draw_part, work[index]) for index in order]
        drawn = crew.call_in_crew(calls, lambda n: finished(order[n]), meanwhile)
        return dict(zip(order, drawn))

    def close(self, cancel: bool = False) -> None:
        if cancel:
            crew.stop_crew()
