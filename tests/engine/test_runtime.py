"""The collector and what a check keeps (pnp.engine.runtime): what lasts is frozen once made, the
collector is left as it was found, and what one check froze is released by the next."""

from __future__ import annotations

import gc
import shutil
import weakref

import pytest

from conftest import REPO
from pnp.engine import runtime as collector
from pnp.pipeline import Project, check_game


@pytest.fixture(autouse=True)
def thawed():
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_what_lasting_makes_is_frozen_and_the_collector_is_left_on():
    assert gc.isenabled()
    before = gc.get_freeze_count()
    with collector.lasting():
        assert not gc.isenabled()  # paused while it is made
        made = [[n] for n in range(1000)]
    assert gc.isenabled()
    assert gc.get_freeze_count() >= before + len(made)
    collector.release()
    assert gc.get_freeze_count() == 0


def test_a_paused_collector_stays_paused():
    gc.disable()
    try:
        with collector.lasting():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


class Node:
    """A value in a reference cycle: only the collector frees it."""

    def __init__(self):
        self.me = self


def frozen_garbage() -> weakref.ref:
    """A cycle frozen as an earlier check leaves what it held, then dropped."""
    node = Node()
    gc.freeze()
    return weakref.ref(node)


def test_release_gives_what_an_earlier_check_froze_back_to_the_collector():
    with collector.lasting():
        gone = frozen_garbage()
    gc.collect()
    assert gone() is not None  # frozen: the collector passes it by
    collector.release()
    assert gc.get_freeze_count() == 0
    gc.collect()  # the collector's next full pass
    assert gone() is None


def test_a_check_freezes_what_it_keeps_and_a_watch_round_frees_it(tmp_path,
                                                                        monkeypatch):
    for folder in ("content", "templates"):
        shutil.copytree(REPO / "bench/poker" / folder, tmp_path / folder)
    monkeypatch.chdir(tmp_path)
    with collector.lasting():  # as an earlier check leaves what it kept
        gone = frozen_garbage()
    checked = check_game(Project(tmp_path), "poker", jobs=1, remember=False)
    assert not checked.findings.errors
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0
    collector.release(collect=True)  # as pnp watch does before each round
    assert gone() is None
