"""One project folder and one pnp cache for a whole test module: Downturn copied afresh into
the same folder for each test, so the decks a test leaves unchanged are answered from what an
earlier test's check kept there (the folder is part of what a kept answer depends on).

For modules whose tests break content and read the findings: a kept answer must be the answer
a fresh check gives, so each test still asserts what a check of its content finds. A module
takes the fixtures by importing them: `from sameplace import project, same_place`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import PROJECT_GAME, add_game


@pytest.fixture(scope="module")
def same_place(tmp_path_factory) -> tuple[Path, Path]:
    """The module's project folder and its pnp cache folder."""
    return tmp_path_factory.mktemp("same-place") / "project", tmp_path_factory.mktemp("cache")


@pytest.fixture
def project(same_place, monkeypatch) -> Path:
    """Downturn's content and templates, fresh for this test, in the module's one folder (the
    cwd), with the module's pnp cache."""
    root, cache = same_place
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    add_game(root, PROJECT_GAME)
    monkeypatch.chdir(root)
    monkeypatch.setenv("PNP_CACHE_DIR", str(cache))
    return root
