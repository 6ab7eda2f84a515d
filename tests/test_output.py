"""Output: nothing lost. A build stopped by an error, Ctrl-C or a kill leaves the PDFs of the last
good build byte for byte and no staging files; two builds of the same content are identical.

The interrupt tests run the real CLI in a child process and stop it with a real signal. A small
wrapper pauses the build right after its first PDF is staged and says so on stdout, so the signal
lands at the worst moment every time rather than by luck of timing.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import pnp.commands.build
import pnp.engine.workers
import pnp.pdf.draw
from pnp.output import STAGING_PREFIX, Staging, remove_stale_staging, staged_output

from conftest import BASELINE_SHEETS, REPO, copy_as_cwd, retitled_build

SHEETS = BASELINE_SHEETS
OUT = Path("output/downturn")

PAUSED_BUILD = textwrap.dedent("""
    import sys, time
    import pnp.output
    from pnp.cli import main

    real_write = pnp.output.Staging.write

    def write_then_pause(self, destination, data):
        real_write(self, destination, data)
        print("staged", destination.name, flush=True)
        time.sleep(30)

    pnp.output.Staging.write = write_then_pause
    sys.exit(main(sys.argv[1:]))
""")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    return {**env, "PYTHONPATH": str(REPO), **extra}


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.startswith(STAGING_PREFIX)}


def _staging_files(root: Path) -> list[Path]:
    return sorted(root.rglob(STAGING_PREFIX + "*"))


@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> Path:
    """A project with a good earlier build, its content since changed; built once per module."""
    return retitled_build(tmp_path_factory.mktemp("baseline"))


@pytest.fixture
def project(baseline, tmp_path, monkeypatch) -> Path:
    """A fresh copy of the baseline project as the current directory."""
    return copy_as_cwd(baseline, tmp_path, monkeypatch)


@pytest.fixture
def built(project) -> dict[str, bytes]:
    """The PDFs of the earlier build, which a stopped build must leave byte for byte."""
    before = _snapshot(project / OUT)
    assert set(before) == {"events-letter.pdf", "banks-letter.pdf"}
    return before


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_midway_leaves_earlier_pdfs_and_no_staging_files(project, built, signum):
    child = subprocess.Popen([sys.executable, "-c", PAUSED_BUILD, "build", *SHEETS],
                             cwd=project, env=_env(), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline()
        assert line.startswith("staged "), line + child.stderr.read()
        assert _staging_files(project), "the first PDF should be staged by now"
        child.send_signal(signum)
        _, err = child.communicate(timeout=20)
    finally:
        child.kill()
    assert child.returncode == 128 + signum, err  # 143 for SIGTERM, as a shell reports it
    assert "interrupted; no output was changed" in err
    assert "Traceback" not in err
    assert _snapshot(project / OUT) == built
    assert _staging_files(project) == []


@pytest.mark.parametrize("signum, delay", [(signal.SIGTERM, 0.9), (signal.SIGINT, 1.3)],
                         ids=["SIGTERM", "SIGINT"])
def test_a_signal_at_any_moment_gives_all_old_or_all_new(project, built, signum, delay):
    """An unpatched build, signalled by the clock: whatever it was doing, outputs stay whole."""
    child = subprocess.Popen([sys.executable, "-m", "pnp", "build", *SHEETS], cwd=project,
                             env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    time.sleep(delay)
    child.send_signal(signum)
    _, err = child.communicate(timeout=30)
    assert "Traceback" not in err
    after = _snapshot(project / OUT)
    assert _staging_files(project) == []
    all_old = after == built
    all_new = set(after) == set(built) and all(after[n] != built[n] for n in built)
    assert all_old or all_new
    assert child.returncode in (0, 128 + signum, -signum), err
    if child.returncode == 0:
        assert all_new
    if "no output was changed" in err:
        assert all_old


def test_sigkill_leaves_earlier_pdfs_and_the_next_build_cleans_up(project, built, run):
    child = subprocess.Popen([sys.executable, "-c", PAUSED_BUILD, "build", *SHEETS],
                             cwd=project, env=_env(), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().startswith("staged ")
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=20)
    finally:
        child.kill()
    assert _snapshot(project / OUT) == built  # nothing was renamed into place
    assert len(_staging_files(project)) == 1  # SIGKILL allows no cleanup...
    result = run("build", *SHEETS)
    assert result.code == 0, result.err
    assert _staging_files(project) == []  # ...so the next build does it
    assert all(_snapshot(project / OUT)[name] != built[name] for name in built)


def test_an_error_midway_leaves_earlier_pdfs_and_no_staging_files(project, built, run,
                                                                   monkeypatch):
    real = pnp.pdf.draw.draw_pages
    calls = []

    def fail_second(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("disk on fire")
        return real(*args, **kwargs)

    monkeypatch.setattr(pnp.pdf.draw, "draw_pages", fail_second)
    result = run("build", *SHEETS, "-j", "1")
    assert result.code == 1
    assert result.lines[-1].startswith("pnp: internal error: RuntimeError: disk on fire")
    assert len(calls) == 2  # the first PDF was drawn before the failure
    assert _snapshot(project / OUT) == built
    assert _staging_files(project) == []


def test_two_builds_of_the_same_content_are_byte_identical(project):
    """Separate processes with different hash seeds: no set or dict order leaks into the PDF."""
    builds = {seed: subprocess.Popen(
        [sys.executable, "-m", "pnp", "build", *SHEETS, "--out", f"out-{seed}"], cwd=project,
        env=_env(PYTHONHASHSEED=seed), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for seed in ("1", "2")}  # side by side: half the wait
    outputs = []
    for seed, child in builds.items():
        _, err = child.communicate(timeout=60)
        assert child.returncode == 0, err
        outputs.append(_snapshot(project / f"out-{seed}" / "downturn"))
    assert set(outputs[0]) == {"events-letter.pdf", "banks-letter.pdf"}
    assert outputs[0] == outputs[1]


# -- the staging area itself -------------------------------------------------------------------

def test_discard_also_removes_a_staged_file_it_never_recorded(tmp_path):
    staging = Staging()
    staging.write(tmp_path / "a.pdf", b"a")
    orphan = tmp_path / f"{staging.prefix}orphan.tmp"  # as if interrupted before noting it
    orphan.write_bytes(b"half")
    other_build = tmp_path / f"{STAGING_PREFIX}1-00000000-x.tmp"
    other_build.write_bytes(b"not ours")
    staging.discard()
    assert sorted(p.name for p in tmp_path.iterdir()) == [other_build.name]


def test_ctrl_c_during_the_renames_is_held_until_all_are_done(tmp_path, monkeypatch):
    (tmp_path / "a.pdf").write_bytes(b"old a")
    (tmp_path / "b.pdf").write_bytes(b"old b")
    real_replace = os.replace
    renamed = []

    def replace_then_interrupt(source, destination):
        real_replace(source, destination)
        renamed.append(destination)
        if len(renamed) == 1:
            # Ctrl-C arrives between the two renames. Sent to this thread, as a terminal's
            # Ctrl-C reaches a one-thread pnp; a process-wide signal could be taken by another
            # thread of the test runner, which holds no mask.
            signal.pthread_kill(threading.get_ident(), signal.SIGINT)

    monkeypatch.setattr(os, "replace", replace_then_interrupt)
    with staged_output() as staging:
        staging.write(tmp_path / "a.pdf", b"new a")
        staging.write(tmp_path / "b.pdf", b"new b")
    assert len(renamed) == 2
    assert (tmp_path / "a.pdf").read_bytes() == b"new a"
    assert (tmp_path / "b.pdf").read_bytes() == b"new b"
    assert _staging_files(tmp_path) == []


def test_stale_staging_of_a_running_build_is_left_alone(tmp_path):
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        running = tmp_path / f"{STAGING_PREFIX}{live.pid}-abcd1234-x.tmp"
        running.write_bytes(b"in progress")
        dead = tmp_path / f"{STAGING_PREFIX}999999999-abcd1234-x.tmp"
        dead.write_bytes(b"left by a killed build")
        remove_stale_staging(tmp_path)
        assert running.exists() and not dead.exists()
    finally:
        live.kill()
        live.wait()


def test_ctrl_c_after_the_renames_does_not_claim_nothing_changed(project, built, run,
                                                                  monkeypatch):
    def interrupt(*args):
        raise KeyboardInterrupt  # as if Ctrl-C came while the "wrote" lines were printed

    monkeypatch.setattr(pnp.commands.build, "display_path", interrupt)
    result = run("build", *SHEETS)
    assert result.code == 130
    assert result.lines[-1] == "pnp: interrupted after its files were written in full"
    after = _snapshot(project / OUT)
    assert set(after) == set(built) and all(after[n] != built[n] for n in built)


def test_a_signal_another_thread_takes_as_the_files_are_renamed_leaves_them_whole(tmp_path):
    """A build has other threads while it commits (its worker pool's): a Ctrl-C one of them
    takes is acted on in the main thread at its next instruction, whatever its mask. Raised
    between two renames, it left the first file new and the second old, and the build said
    nothing was changed. It is now kept back until every file is in place, and the build
    reports what it wrote."""
    probe = textwrap.dedent("""
        import os, signal, sys, threading, time
        from pathlib import Path
        from pnp.output import staged_output

        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
        folder = Path(sys.argv[1])
        for name in ("a.pdf", "b.pdf"):
            (folder / name).write_bytes(b"old")
        real = os.replace

        def replacing(source, destination):
            real(source, destination)
            if str(destination).endswith("a.pdf"):
                os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, between the two renames,
                time.sleep(0.05)  # taken by the other thread meanwhile

        os.replace = replacing
        try:
            with staged_output() as staging:
                for name in ("a.pdf", "b.pdf"):
                    staging.write(folder / name, b"new")
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
        print(*[(folder / name).read_bytes().decode() for name in ("a.pdf", "b.pdf")])
    """)
    run = subprocess.run([sys.executable, "-c", probe, str(tmp_path)], capture_output=True,
                         text=True, timeout=60)
    assert run.stdout.split("\n")[:2] == ["finished", "new new"], run.stdout + run.stderr
