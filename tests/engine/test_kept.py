"""engine.kept: one answer per kind and key, from memory, then from the user's cache, else
from the work; nothing kept under --no-cache."""

from __future__ import annotations

import pytest

from pnp.engine import kept as kept_module
from pnp.engine.kept import digest, kept


@pytest.fixture(autouse=True)
def nothing_held():
    """Each test starts as a new process does: nothing held in memory."""
    kept_module._held.clear()


def counting():
    calls = []

    def work():
        calls.append(1)
        return {"answer": len(calls)}

    return calls, work


def test_the_same_key_is_worked_out_once_and_a_new_key_again():
    calls, work = counting()
    key = digest(("deck", 1))
    assert kept("test-kind", key, work) == {"answer": 1}
    assert kept("test-kind", key, work) == {"answer": 1}
    assert kept("test-kind", digest(("deck", 2)), work) == {"answer": 2}
    assert len(calls) == 2


def test_an_answer_comes_back_from_the_cache_in_a_process_that_did_not_hold_it(user_cache):
    calls, work = counting()
    key = digest("fronts")
    kept("test-kind", key, work)
    kept_module._held.clear()  # as a new process starts
    assert kept("test-kind", key, work) == {"answer": 1}
    assert len(calls) == 1
    assert any(path.name.startswith("test-kind-") for path in user_cache.iterdir())


def test_without_remembering_the_work_is_done_every_time_and_nothing_is_written(user_cache):
    calls, work = counting()
    kept("test-kind", None, work)
    kept("test-kind", None, work)
    assert len(calls) == 2
    assert not any(path.name.startswith("test-kind-") for path in user_cache.iterdir())


def test_a_value_pickle_cannot_write_exactly_has_no_key():
    assert digest(lambda: 1) is None
