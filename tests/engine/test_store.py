"""The user cache: one place, a cap for every kind it keeps, pruning oldest first, and
`pnp cache` / `pnp cache clear`; deleting any of it is safe (pnp.engine.store)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from pnp.engine import store
from pnp.pipeline import Project, check_game


def test_the_cache_is_where_the_platform_keeps_caches(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PNP_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert store.cache_home() == tmp_path / "home/.cache/pnp"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # invalid by the spec: ignored
    assert store.cache_home() == tmp_path / "home/.cache/pnp"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert store.cache_home() == tmp_path / "xdg/pnp"
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "chosen"))
    assert store.cache_home() == tmp_path / "chosen"
    monkeypatch.delenv("PNP_CACHE_DIR")
    monkeypatch.setattr(sys, "platform", "darwin")
    assert store.cache_home() == tmp_path / "home/Library/Caches/pnp"


def test_a_check_keeps_only_kinds_that_have_a_cap(project, user_cache):
    check_game(Project(project), "downturn", jobs=1)
    kinds = {kind for kind, _ in store._kind_folders(user_cache)}
    assert kinds and kinds <= set(store.MAX_BYTES), kinds
    assert (user_cache / store.PRUNED_MARK).is_file()  # and pruned the store


def _fill(folder: Path, sizes: list[int]) -> list[Path]:
    """Entries of these sizes, the first the oldest (a minute apart)."""
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for number, size in enumerate(sizes):
        path = folder / f"{number:064x}"
        path.write_bytes(b"x" * size)
        moment = 1_700_000_000 + 60 * number
        os.utime(path, (moment, moment))
        made.append(path)
    return made


def test_every_kind_is_pruned_oldest_first_down_to_its_cap(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "MAX_BYTES", {"sheets": 1000})
    monkeypatch.setattr(store, "DEFAULT_MAX_BYTES", 400)
    sheets = _fill(tmp_path / "sheets-0123456789abcdef", [100] * 12)  # 1200 > 1000
    other = _fill(tmp_path / "yaml-6.0.4-0123456789abcdef", [100] * 5)  # 500 > 400
    small = _fill(tmp_path / "font-metrics-0123456789abcdef", [100] * 3)  # within 400
    answers = _fill(tmp_path / "checks", [10] * 3)  # an earlier pnp's answers: all go
    foreign = _fill(tmp_path / "not-pnps", [1000] * 2)  # not made by pnp: never touched
    store.prune(tmp_path, now=True)
    assert [p.exists() for p in sheets] == [False] * 5 + [True] * 7  # 700 <= 3/4 of 1000
    assert [p.exists() for p in other] == [False] * 2 + [True] * 3  # 300 <= 3/4 of 400
    assert all(p.exists() for p in small + foreign)
    assert not any(p.exists() for p in answers)


def test_the_whole_store_is_capped_too(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "STORE_MAX_BYTES", 1000)
    old = _fill(tmp_path / "jinja-0000000000000000", [200] * 4)  # an earlier version's
    new = _fill(tmp_path / "jinja-1111111111111111", [100] * 4)  # each within its cap
    for path in new:  # newer than every entry of the old folder
        os.utime(path, (path.stat().st_mtime + 3600,) * 2)
    store.prune(tmp_path, now=True)  # 1200 > 1000: down to 600 <= 3/4 of 1000
    assert [p.exists() for p in old] == [False] * 3 + [True]
    assert all(p.exists() for p in new)


def test_pruning_waits_between_rounds_and_reading_counts_as_use(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "MAX_BYTES", {"sheets": 300})
    folder = tmp_path / "sheets-0123456789abcdef"
    first, *rest = _fill(folder, [100] * 5)
    (tmp_path / store.PRUNED_MARK).touch()  # pruned a moment ago
    store.prune(tmp_path)
    assert all(p.exists() for p in [first, *rest])
    # The oldest entry, read now, is the newest: the next oldest go instead.
    monkeypatch.setattr(store, "_entry", lambda where, key: where / key)
    value = b"x" * (100 - store._HEAD)  # an entry as pnp writes it, as old as it was
    store.write(folder, first.name, value)
    os.utime(first, (1_700_000_000, 1_700_000_000))
    assert store.read(folder, first.name) == value
    store.prune(tmp_path, now=True)
    assert first.exists() and [p.exists() for p in rest] == [False, False, False, True]


def test_pnp_cache_prints_the_place_and_size_and_clear_removes_it(project, run, user_cache):
    assert run("check").code == 0
    shown = run("cache")
    assert shown.code == 0 and shown.out.splitlines()[0] == str(user_cache)
    assert "sheets" in shown.out and "jinja" in shown.out
    assert " MiB in " in shown.err and "capped at 512.0 MiB" in shown.err
    cleared = run("cache", "clear")
    assert cleared.code == 0 and f"removed {user_cache}" in cleared.err
    assert not user_cache.exists()
    again = run("cache")
    assert "0.0 MiB in 0 files" in again.err


def test_clear_leaves_files_that_are_not_pnps(tmp_path):
    _fill(tmp_path / "sheets-0123456789abcdef", [10])
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert store.clear(tmp_path) == 10
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize("when", ["between runs", "during a run"])
def test_deleting_the_cache_is_always_safe(project, run, user_cache, when, monkeypatch):
    """The store removed under a running pnp (whose folders it has already made) or between
    two runs: the next check gives the same answer, and keeps its entries again."""
    first = run("check")
    assert first.code == 0
    if when == "during a run":
        import pnp.pipeline

        real = pnp.pipeline.check_game

        def removed_meanwhile(*args, **kwargs):
            shutil.rmtree(user_cache)  # by hand: this process still knows its folders
            return real(*args, **kwargs)

        monkeypatch.setattr("pnp.pipeline.check_game", removed_meanwhile)
    else:
        shutil.rmtree(user_cache)
    events = project / "content/downturn/events.yaml"
    events.write_text(events.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    again = run("check")
    assert (again.code, again.lines[:-1]) == (first.code, first.lines[:-1])
    assert any(used.kind == "sheets" and used.files for used in store.usage(user_cache))
