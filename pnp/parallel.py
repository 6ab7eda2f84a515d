"""Parallel drawing: the PDFs a build must draw (page plans and metadata) in; their bytes out,
drawn in worker processes.

Each PDF is split into parts that do not depend on how many workers there are: a small PDF is
one part, a large deck's pages are cut into parts of about PART_PAGES pages, each drawn to a
PDF of its own by cairo and joined in order by pikepdf before the page boxes and metadata are
added. `-j 1` draws the same parts, one after another in this process, so every build gives
the same bytes whatever its `-j`.

Workers are forked after the game is checked and are given only the index of a part: the plans
are plain data already in their memory, so nothing of the model (whose dataclasses are made at
run time and cannot be pickled) crosses a process boundary; only PDF bytes come back. Workers
ignore Ctrl-C: the parent stops them and the build is discarded as a whole.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Callable, Sequence

from .fonts import use_bundled_fonts
from .pdf import DocumentInfo, PagePlan, draw_pages, finish_document

PART_PAGES = 64  # a PDF with more pages is drawn in parts of at most this many
MIN_PAGES_FOR_WORKERS = 16  # fewer pages are drawn sooner than workers are started


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


_PARTS: list[tuple[int, range]] = []  # (job, pages): set before the workers are forked
_JOBS: list[Job] = []


def _draw_part(index: int) -> bytes:
    """A part's drawing; a PDF drawn in one part is finished here too, in the worker."""
    job, pages = _PARTS[index]
    plans = list(_JOBS[job].plans)
    drawn = draw_pages(plans[pages.start:pages.stop])
    if len(pages) == len(plans):
        return finish_document([drawn], plans, _JOBS[job].document)
    return drawn


_HELD = {signal.SIGINT, signal.SIGTERM}


def _quiet_worker() -> None:
    """A worker ignores Ctrl-C and dies of SIGTERM; both were held while it was forked."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


Progress = Callable[[int, int], None]  # (pages drawn, pages in all)


def render_all(jobs: list[Job], workers: int, progress: Progress | None = None) -> list[bytes]:
    """Every job's PDF bytes, in order, drawn by `workers` processes (1: in this one)."""
    global _PARTS, _JOBS
    parts = [(n, pages) for n, job in enumerate(jobs) for pages in split(len(job.plans))]
    total = sum(len(pages) for _, pages in parts)
    drawn: dict[int, bytes] = {}
    done = 0

    def finished(index: int, data: bytes) -> None:
        nonlocal done
        drawn[index] = data
        done += len(parts[index][1])
        if progress:
            progress(done, total)

    _PARTS, _JOBS = parts, jobs
    try:
        workers = min(workers, len(parts))
        if workers <= 1 or total < MIN_PAGES_FOR_WORKERS or multiprocessing.get_start_method(allow_none=True) not in (
                None, "fork") or "fork" not in multiprocessing.get_all_start_methods():
            for index in range(len(parts)):
                finished(index, _draw_part(index))
        else:
            _draw_in_workers(parts, workers, finished)
    finally:
        _PARTS, _JOBS = [], []
    results = []
    for n, job in enumerate(jobs):
        pieces = [drawn[i] for i, (owner, _) in enumerate(parts) if owner == n]
        results.append(pieces[0] if len(pieces) == 1 else
                       finish_document(pieces, list(job.plans), job.document))
    return results


def _draw_in_workers(parts, workers: int, finished) -> None:
    context = multiprocessing.get_context("fork")
    use_bundled_fonts()  # once, before the fork, rather than once in every worker
    # The largest parts first, so no worker is left drawing a big one alone at the end.
    order = sorted(range(len(parts)), key=lambda i: -len(parts[i][1]))
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_quiet_worker)
    processes = []
    try:
        # The workers are forked on the first submit: Ctrl-C and SIGTERM are held meanwhile,
        # so a signal never lands in a half-made worker; it reaches this process afterwards.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        try:
            pending = {pool.submit(_draw_part, index): index for index in order}
            processes = list((pool._processes or {}).values())
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        while pending:
            complete, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in complete:
                finished(pending.pop(future), future.result())
    except BaseException:
        for process in processes:
            process.terminate()
        # Waits only for the pool's own thread to see its workers gone.
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()
