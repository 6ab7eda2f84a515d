"""A game's data files read and validated by several processes (pnp.load.model, given
pnp.engine.workers.run_tasks) give the game, the findings and the sheets one process gives."""

from __future__ import annotations

import pickle
import subprocess
import sys
from functools import partial

import pytest

import pnp.load.model
from pnp.findings import Findings
from pnp.load.model import load_game
from pnp.pipeline import Project, check_game
from pnp.engine.workers import run_tasks

from conftest import REPO, add_game, edit


@pytest.fixture
def banking(tmp_path, monkeypatch, user_cache):
    """The Banking kit, whose data is YAML and CSV files, read apart however small."""
    add_game(tmp_path, "banking")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(pnp.load.model, "SHARED_DATA_BYTES", 0)
    return tmp_path


def _checked(root, jobs):
    checked = check_game(Project(root), "banking", jobs=jobs, remember=False)
    return (sorted(f.format() for f in checked.findings),
            {name: [(o.file_name, o.plans) for o in outputs]
             for name, outputs in checked.outputs.items()},
            {name: repr(value) for name, value in
             (checked.game.parts.items() if checked.game else ())})


def test_files_read_apart_give_what_one_process_gives(banking, monkeypatch):
    tasks = []
    real = run_tasks

    def counted(run, workers, *how):
        tasks.append(len(run))
        return real(run, workers, *how)

    monkeypatch.setattr(pnp.pipeline, "run_tasks", counted)
    apart = _checked(banking, jobs=2)
    assert tasks[0] >= 2  # the data files, as one task each
    assert apart == _checked(banking, jobs=1)


def test_a_mistake_in_a_file_read_apart_is_located_as_ever(banking):
    cards = banking / "content/banking/cards.csv"
    lines = cards.read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3] + ",an extra cell"
    cards.write_text("\n".join(lines) + "\n", encoding="utf-8")
    edit(banking / "content/banking/players.yaml", "name:", "nmae:")
    apart, alone = _checked(banking, jobs=2)[0], _checked(banking, jobs=1)[0]
    assert apart == alone
    assert any("cards.csv:4:" in line for line in apart)
    assert any("players.yaml" in line for line in apart)


def test_a_record_pickles_within_its_process_and_its_forks_only(banking):
    game = load_game(banking / "content/banking", str, Findings())
    card = game.parts["cards"][0]
    again = pickle.loads(pickle.dumps(card))
    assert again == card and type(again) is type(card) and again.label == card.label
    done = subprocess.run([sys.executable, "-c", "import pickle, sys, pnp.load.manifest; "
                           "pickle.loads(sys.stdin.buffer.read())"], input=pickle.dumps(card),
                          capture_output=True, cwd=REPO)
    assert done.returncode != 0 and b"made by another process" in done.stderr


def test_few_or_small_files_are_read_here(tmp_path, monkeypatch):
    add_game(tmp_path, "banking")
    ran = []
    load_game(tmp_path / "content/banking", str, Findings(),
              run=lambda tasks: ran.append(tasks) or [task() for task in tasks])
    assert ran == []  # a few kilobytes: no processes started for them
    monkeypatch.setattr(pnp.load.model, "SHARED_DATA_BYTES", 0)
    load_game(tmp_path / "content/banking", str, Findings(),
              run=partial(lambda tasks: ran.append(tasks) or [task() for task in tasks]))
    assert len(ran) == 1
