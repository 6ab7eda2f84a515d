"""The drawing processes (pnp.crew): started once, before pnp loads; each call goes
to the first free worker; a failure or an interruption stops them all; they end with the
process that started them. Each test runs its own Python process, as the console script does."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

START = """
import json, os, sys, threading, time
from pnp import crew
if sys.argv[1] == "threaded":  # another thread running: the first worker is spawned, not forked
    threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
crew.start_crew(2)
pids = crew.call_in_crew([(os.getpid, ())] * 2 + [(time.sleep, (0.2,))] * 2
                              + [(os.getpid, ())] * 4, lambda n: None)
workers = sorted({pids[n] for n in (0, 1, 4, 5, 6, 7)})
print(json.dumps({"me": os.getpid(), "group": os.getpgid(0), "workers": workers,
                  "groups": sorted({os.getpgid(p) for p in workers})}), flush=True)
"""


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


def run(script: str, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                          text=True, timeout=60, **kwargs)


@pytest.mark.parametrize("birth", ["forked", "threaded"])
def test_calls_are_shared_by_two_workers_in_a_group_of_their_own(birth):
    done = run(START + "print('left', flush=True)", birth)
    assert done.returncode == 0, done.stderr
    started = json.loads(done.stdout.splitlines()[0])
    assert len(started["workers"]) == 2 and started["me"] not in started["workers"]
    # one group, led by the first worker, not this process's: one signal reaches them all
    assert len(started["groups"]) == 1 and started["groups"][0] in started["workers"]
    assert started["groups"][0] != started["group"]
    assert wait_gone(started["workers"])  # they left when the process that started them did


def test_a_call_that_fails_raises_its_error_here_and_stops_the_crew():
    script = START + """
try:
    crew.call_in_crew([(time.sleep, (0.3,)), (int, ("twelve",))], lambda n: None)
except ValueError as exc:
    print("raised", exc, flush=True)
print(not crew.running(), flush=True)
time.sleep(2)
"""
    process = subprocess.Popen([sys.executable, "-c", script, "forked"], text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        started = json.loads(process.stdout.readline())
        assert "invalid literal for int()" in process.stdout.readline()
        assert process.stdout.readline().strip() == "True"
        assert wait_gone(started["workers"], 1)  # stopped at once, the sleeper too
    finally:
        process.kill()
        process.communicate()


def test_ctrl_c_during_drawing_stops_every_worker_at_once():
    script = START + """
try:
    crew.call_in_crew([(time.sleep, (30,))] * 2, lambda n: None,
                           lambda: print("drawing", flush=True))
except KeyboardInterrupt:
    print("interrupted", not crew.running(), flush=True)
time.sleep(2)
"""
    process = subprocess.Popen([sys.executable, "-c", script, "forked"], text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)  # a terminal of its own, as it were
    try:
        started = json.loads(process.stdout.readline())
        assert process.stdout.readline().strip() == "drawing"
        os.killpg(started["group"], signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        assert process.stdout.readline().strip() == "interrupted True"
        assert wait_gone(started["workers"], 1)
    finally:
        process.kill()
        process.communicate()


def test_workers_ignore_ctrl_c_and_leave_when_the_build_is_killed():
    script = START + "time.sleep(30)"
    process = subprocess.Popen([sys.executable, "-c", script, "forked"], text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        started = json.loads(process.stdout.readline())
        for worker in started["workers"]:
            os.kill(worker, signal.SIGINT)
        time.sleep(0.2)
        assert not any(gone(p) for p in started["workers"])
        process.kill()  # no chance to stop them: they see their pipes close
        process.wait()
        assert wait_gone(started["workers"])
    finally:
        process.kill()
        process.communicate()


def test_the_console_script_starts_the_crew_only_for_commands_that_draw():
    from pnp.crew import workers_wanted

    assert workers_wanted(["build", "-j", "2"]) == 2
    assert workers_wanted(["build", "--jobs=3"]) == 3
    assert workers_wanted(["watch", "-j", "1"]) == 1
    assert workers_wanted(["check", "-j", "2"]) == 0
    assert workers_wanted(["build", "-j", "many"]) == 0
    assert workers_wanted([]) == 0


def test_the_workers_are_waited_for_so_their_time_is_counted():
    """When the build ends, it waits for the first worker, which has waited for the others:
    none is left to the system, and their CPU time is counted as the build's children's."""
    script = START + """
import resource
def spent(size):  # sums `size` numbers; the CPU time this worker has used so far
    sum(range(size))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
def children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
crew.stop_crew(kill=False)
before = children()
crew.start_crew(2)
reported = crew.call_in_crew([(spent, (4_000_000,))] * 2, lambda n: None)  # one each
crew.stop_crew(kill=False)
print(json.dumps([children() - before, reported]), flush=True)
"""
    done = run(script, "forked")
    assert done.returncode == 0, done.stderr
    started, counted = done.stdout.splitlines()
    assert all(gone(p) for p in json.loads(started)["workers"])
    counted, reported = json.loads(counted)
    assert min(reported) > 0.02  # each worker did its sum
    assert counted >= sum(reported) - 0.005  # both workers' time, not the first one's alone


def test_a_crew_that_never_drew_is_stopped_at_exit_without_waiting_for_its_loading():
    """A build answered from its record, or stopped by its findings, started the crew for
    nothing: at exit it is killed, not left to finish loading cairo first."""
    script = """
import json, os, time
from pnp import crew
crew.start_crew(2)
group = crew._CREW.group
started = time.perf_counter()
crew._at_exit()
print(json.dumps([group, time.perf_counter() - started]), flush=True)
"""
    done = run(script)
    assert done.returncode == 0, done.stderr
    group, took = json.loads(done.stdout)
    assert gone(group)
    assert took < 0.1  # loading the drawing libraries alone takes longer than this


def test_a_worker_still_loading_is_handed_a_whole_page_plan_without_the_build_waiting():
    """The build sends the first calls, then does its own work while the workers draw: a
    call as large as a big sheet's page plans must fit in the pipe before the worker, still
    loading cairo, reads any of it."""
    script = """
import os
from pnp import crew
crew.start_crew(2)
first = crew._CREW.workers[0]
os.set_blocking(first.requests, False)  # a full pipe raises instead of waiting
crew._send(first.requests, (print, ("x" * 900_000,)))
print("handed", flush=True)
crew.stop_crew()
"""
    done = run(script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "handed"
