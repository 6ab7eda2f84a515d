"""Kept impositions (pnp.cache.impositions): a deck imposed by an earlier run with the same
arguments and the same pnp is taken as it was imposed; anything else is imposed afresh."""

from __future__ import annotations

import pytest

import pnp.engine.store
import pnp.layout.impose as impose_module
from pnp.layout.impose import builtin_layouts, impose
from pnp.units import CARD_SIZES

POKER = CARD_SIZES["poker"]


@pytest.fixture
def imposed(user_cache, monkeypatch):
    """The imposings done afresh (not taken as kept), each by its count; every call as a new
    process makes it (the in-memory layer emptied first)."""
    done = []
    real = impose_module._impose

    def counted(count, *rest):
        done.append(count)
        return real(count, *rest)

    monkeypatch.setattr(impose_module, "_impose", counted)

    def run(count, **options):
        impose_module._impose_once.cache_clear()
        return impose(count, POKER, "letter", builtin_layouts()["home"], **options)

    yield run, done
    impose_module._impose_once.cache_clear()


def test_a_kept_imposition_is_taken_as_it_was(imposed):
    run, done = imposed
    first = run(42, bleed_mm=3)
    again = run(42, bleed_mm=3)
    assert done == [42]  # the second run imposed nothing
    assert again == first and len(again) == 10


def test_other_arguments_are_imposed_afresh(imposed):
    run, done = imposed
    nine = run(9)
    assert run(9, bleed_mm=3) != nine
    assert run(10) != nine
    assert done == [9, 9, 10]


def test_another_pnp_imposes_afresh(imposed, monkeypatch):
    run, done = imposed
    first = run(42)
    monkeypatch.setattr(pnp.engine.store, "installation", lambda: "another pnp")
    assert run(42) == first
    assert done == [42, 42]


def test_a_damaged_entry_is_imposed_again(imposed, user_cache):
    run, done = imposed
    first = run(42)
    [entry] = [path for path in user_cache.glob("impositions-*/*") if path.is_file()]
    entry.write_bytes(entry.read_bytes()[:-10])
    assert run(42) == first
    assert done == [42, 42]


def test_pages_that_cannot_be_pickled_are_handed_on_and_not_kept(user_cache):
    from pnp.cache.impositions import kept

    pages = (lambda: None,)  # nothing an imposition makes, but what pickle refuses
    assert kept(("unpicklable",), lambda: pages) is pages
    assert not [path for path in user_cache.glob("impositions-*/*") if path.is_file()]
