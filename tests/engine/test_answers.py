"""Remembered answers (pnp.engine.answers): `pnp check` and `pnp build` run again with nothing
changed print what they printed before without running the pipeline; any change to what the
run read, to its output folder or to its command line runs it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass

import pytest

from pnp import cli
from pnp.entry import run as pnp

from conftest import REPO, edit


@dataclass
class Answer:
    code: int
    err: str
    ran: bool  # whether the pipeline ran (False: a remembered answer)


@pytest.fixture
def answer(capsys, monkeypatch):
    """`answer(*argv)`: `pnp ARGV` as the console script runs it."""
    ran = []
    real = cli.main

    def counted(argv):
        ran.append(argv)
        return real(argv)

    monkeypatch.setattr(cli, "main", counted)

    def invoke(*argv: str) -> Answer:
        ran.clear()
        code = pnp(list(argv))
        captured = capsys.readouterr()
        return Answer(code, captured.err, bool(ran))

    return invoke


CHECK = ("check", "--game", "downturn")


def test_an_unchanged_check_is_answered_as_before_without_running(project, answer):
    first = answer(*CHECK)
    again = answer(*CHECK)
    assert first.ran and not again.ran
    assert again.code == first.code == 0
    assert again.err.split("(")[0] == first.err.split("(")[0]
    assert again.err.rstrip().endswith(" s)")  # the time it took itself


def test_a_content_edit_runs_the_check_and_its_findings_show(project, answer):
    answer(*CHECK)
    edit(project / "content/downturn/events.yaml", "Housing Starts Slow", "Housing Starts Slow" * 9)
    edited = answer(*CHECK)
    assert edited.ran and edited.code == 1 and "overflows" in edited.err
    assert not answer(*CHECK).ran  # the failing answer is remembered too, exit code and all
    assert answer(*CHECK).code == 1


def test_a_template_where_none_was_found_runs_the_check(project, answer):
    answer(*CHECK)
    # Downturn's own folder is looked in first: a bank front there replaces the project's.
    source = (project / "templates/downturn/bank-front.svg.j2").read_text(encoding="utf-8")
    own = project / "templates/common/bank-front.svg.j2"
    own.parent.mkdir(exist_ok=True)
    own.write_text(source, encoding="utf-8")
    assert not answer(*CHECK).ran  # not looked at: the game's own folder answers first
    (project / "templates/downturn/bank-front.svg.j2").unlink()
    assert answer(*CHECK).ran


def test_a_project_layouts_file_printer_or_new_game_runs_the_check(project, answer):
    answer(*CHECK)
    (project / "layouts.yaml").write_text("layouts:\n  home:\n    margin_mm: 80\n")
    assert answer(*CHECK).ran
    answer("check")
    game = project / "content/other"
    game.mkdir()
    answer("check")
    assert not answer("check").ran  # a folder with no game.yaml is not a game
    (game / "game.yaml").write_text("name: Other\n")
    assert answer("check").ran


def test_options_environment_and_folder_are_part_of_the_question(project, answer, monkeypatch):
    answer(*CHECK)
    assert answer(*CHECK, "--strict").ran
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert answer(*CHECK).ran
    assert not answer(*CHECK).ran
    monkeypatch.chdir(project / "content")
    assert answer(*CHECK, "--root", "..").ran


def test_no_cache_always_runs_and_keeps_nothing(project, answer):
    assert answer(*CHECK, "--no-cache").ran
    assert answer(*CHECK, "--no-cache").ran
    assert answer(*CHECK).ran  # nothing was kept by the runs without the cache


def _untimed(text: str) -> str:
    return re.sub(r"in \d+\.\d\d s", "in T", text)


def test_a_build_is_remembered_as_it_prints_next_time_and_while_its_output_stays(
        project, answer, user_cache):
    build = ("build", "--game", "downturn", "--sheets", "banks")
    first = answer(*build)
    assert first.ran and "1 PDF in" in first.err
    second = answer(*build)  # what the same build prints when it writes nothing
    assert not second.ran and "0 PDFs" in second.err and "1 unchanged" in second.err
    for kept in user_cache.glob("answers-*"):  # the real run, with nothing remembered
        shutil.rmtree(kept)
    real = answer(*build)
    assert real.ran and _untimed(real.err) == _untimed(second.err)
    pdf = project / "output/downturn/banks-letter.pdf"
    pdf.unlink()
    fourth = answer(*build)
    assert fourth.ran and pdf.is_file()
    with pdf.open("ab") as changed:
        changed.write(b"\n")
    assert answer(*build).ran
    assert not answer(*build).ran
    history = project / "output/downturn/history/builds"
    assert len(list(history.iterdir())) == 1  # the same build again records nothing


def test_a_new_commit_runs_the_build_whose_history_records_it(project, answer):
    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=pnp", "-c", "user.email=pnp@example.org",
                        *args], cwd=project, check=True, capture_output=True)

    git("init", "-q")
    git("add", "content")
    git("commit", "-q", "-m", "first")
    build = ("build", "--game", "downturn", "--sheets", "banks")
    assert answer(*build).ran
    assert not answer(*build).ran
    (project / "notes.txt").write_text("not read by pnp\n")
    git("add", "notes.txt")
    git("commit", "-q", "-m", "second")
    assert answer(*build).ran  # the history records this build at the new commit
    history = project / "output/downturn/history/builds"
    assert len(list(history.iterdir())) == 2
    assert not answer(*build).ran


def test_a_rules_file_read_by_a_worker_process_is_part_of_the_answer(project, tmp_path):
    """A check's rules run in a worker process: what they read is the run's read too."""
    env = {**os.environ, "PNP_JOBS": "2", "PYTHONPATH": os.pathsep.join(
        [str(REPO), str(REPO / "plugins/downturn")])}

    def check():
        return subprocess.run([sys.executable, "-m", "pnp", *CHECK], env=env, cwd=project,
                              capture_output=True, text=True, timeout=300)

    assert check().returncode == 0
    assert check().returncode == 0
    rules = project / "content/downturn/rules.yaml"
    text = rules.read_text(encoding="utf-8") if rules.exists() else "rules: []\n"
    rules.write_text(text + "\nthis is: [not closed\n", encoding="utf-8")
    broken = check()
    assert broken.returncode == 1 and "rules.yaml" in broken.stderr
