"""The crew: the processes that draw a build's PDFs, started before anything else.

Loading cairo, cairosvg and pikepdf is the longest single step of a build, about as long as
loading pnp and checking a game. So the console script starts the crew first of all, before
it even asks pnp.quick for a remembered answer (`start_crew`): the first worker is forked at
once, loads the drawing libraries and the bundled fonts while this process loads and checks,
then forks the others from itself, so that is done once. Each worker waits on a pipe for a
pickled (function, arguments), calls it and sends back the result or the exception
(`call_in_crew`). This module imports only what the fork needs, so it happens early.

The crew stays for the life of the process (`pnp watch` draws round after round with it). At
exit a crew that drew is let go: its pipes close, each worker leaves, the first waits for the
others and this process waits for the first, so their time and memory count as this
process's children's. A crew that never drew (a build answered from its record, or stopped
by its findings) is stopped at once.

Workers ignore Ctrl-C: a build that is interrupted or fails stops them all (`stop_crew`) and
is discarded as a whole. The first worker is forked with Ctrl-C and SIGTERM held and sets them
up before it lets them in, so a signal never lands in a half-made worker; it leads a process
group of its own, so one signal stops them all. Where the process already runs other threads
(a test runner), the first worker is a new interpreter rather than a fork, whose locks could
be copied half-held.
"""

from __future__ import annotations

import atexit
import gc
import os
import signal
import sys

_HELD = {signal.SIGINT, signal.SIGTERM}
_HEADER = 8  # every message is its length in 8 bytes, then a pickle
_PIPE_BYTES = 1 << 20  # the most a pipe may hold on Linux unless raised; 64 KiB by default


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


def workers_wanted(argv: list[str]) -> int:
    """How many drawing processes a `build` or `watch` command line will use (0: it draws
    nothing); read before pnp loads (an unusual spelling just starts them later)."""
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


# -- messages ------------------------------------------------------------------------------


def _send(fd: int, value: object) -> None:
    import pickle

    data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    view = memoryview(len(data).to_bytes(_HEADER, "big") + data)
    while view:
        view = view[os.write(fd, view):]


def _receive(fd: int) -> object:
    """The next message on `fd`; EOFError when the other end is closed."""
    import pickle

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


# -- the crew, seen from the build ----------------------------------------------------------


class _Worker:
    def __init__(self, requests: int, replies: int) -> None:
        self.requests = requests  # the build writes (function, arguments) here
        self.replies = replies  # and reads (True, result) or (False, exception) here


class _Crew:
    def __init__(self, group: int, workers: list[_Worker], spawned=None) -> None:
        self.group = group  # the workers' process group, named by the first worker's pid
        self.workers = workers
        self.spawned = spawned  # the first worker's Popen, when it was spawned
        self.drew = False


_CREW: _Crew | None = None


def running() -> bool:
    return _CREW is not None


def start_crew(size: int) -> None:
    """Start `size` drawing processes, unless they are running (see the module's notes)."""
    global _CREW
    if _CREW is not None or size < 2:
        return
    pipes = [(os.pipe(), os.pipe()) for _ in range(size)]
    for pair in pipes:
        _widen(*pair)
    # Each worker's own ends (it reads requests, writes replies), and this process's ends.
    ends = [(request_read, reply_write) for (request_read, _), (_, reply_write) in pipes]
    ours = [(request_write, reply_read) for (_, request_write), (reply_read, _) in pipes]
    threading = sys.modules.get("threading")  # not loaded: no other thread can be running
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        spawned = None
        if threading is None or threading.active_count() == 1:
            lead = os.fork()
            if lead == 0:
                _lead(ends, close=[fd for pair in ours for fd in pair])
            try:  # as the worker does, so a signal sent at once finds the group
                os.setpgid(lead, lead)
            except OSError:
                pass
        else:
            spawned = _spawn_lead(ends)
            lead = spawned.pid
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    for pair in ends:
        os.close(pair[0])
        os.close(pair[1])
    _CREW = _Crew(lead, [_Worker(*pair) for pair in ours], spawned)
    atexit.register(_at_exit)


def _widen(*pipes: tuple[int, int]) -> None:
    """Let each pipe hold a whole message, where the system allows: the build then hands a
    worker still loading its first call and goes on with its own work, instead of waiting
    for the worker to read it."""
    try:
        import fcntl

        for _, write_end in pipes:
            fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
    except (ImportError, AttributeError, OSError):  # not Linux, or a lower limit: as it is
        pass


def _at_exit() -> None:
    if _CREW is not None:
        stop_crew(kill=not _CREW.drew)


def stop_crew(kill: bool = True) -> None:
    """Stop every worker at once (a build interrupted or failed while they drew, or a crew
    that never drew), or with `kill` false let them leave as their pipes close; then wait
    for the first of them, which has waited for the others."""
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


def call_in_crew(calls: list[tuple], finished=lambda number: None,
                 meanwhile=lambda: None) -> list:
    """Each (function, arguments) call's result, in order, made by the crew, each call
    going to the first worker free (`finished` is told each call's number as it ends); `meanwhile` runs here once the first calls are sent.
    An exception a call raised is raised here; then, or if a worker is lost or this process
    interrupted, the crew is stopped (a build that fails is discarded whole)."""
    import select

    crew = _CREW
    crew.drew = True
    waiting = list(range(len(calls)))[::-1]
    busy: dict[int, tuple[_Worker, int]] = {}  # reply pipe -> (worker, call number)
    results: dict[int, object] = {}

    def give(worker: _Worker) -> None:
        number = waiting.pop()
        _send(worker.requests, calls[number])
        busy[worker.replies] = (worker, number)

    try:
        for worker in crew.workers[:len(calls)]:
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
        stop_crew()
        raise
    return [results[number] for number in range(len(calls))]


# -- the crew, seen from a worker -----------------------------------------------------------


def _spawn_lead(ends):
    """The first worker as a new Python process, given every worker's pipe ends."""
    import json
    import subprocess

    code = ("import sys, json; sys.path[:] = json.loads(sys.argv[1]); "
            "from pnp.crew import _lead; _lead(json.loads(sys.argv[2]))")
    return subprocess.Popen(
        [sys.executable, "-c", code, json.dumps(sys.path), json.dumps(ends)],
        pass_fds=[fd for pair in ends for fd in pair], process_group=0)


def _lead(ends, close=()) -> None:
    """The first worker: load, fork the others, then serve like them. Never returns.

    `ends` is every worker's (request read, reply write); `close`, the build's own ends,
    which a worker forked from the build holds too."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
        os.setpgid(0, 0)
        for fd in close:
            os.close(fd)
        ends = [tuple(pair) for pair in ends]  # lists, when they came as JSON
        try:
            import pnp.parallel  # noqa: F401 - what the build sends: loaded once, for all
            import pnp.pdf  # noqa: F401
            from pnp.fonts import use_bundled_fonts

            use_bundled_fonts()
        except Exception:  # noqa: BLE001 - each call will raise it again, to the build
            pass
        gc.freeze()  # what was loaded stays shared with the others: their collector skips it
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
    import pickle

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
