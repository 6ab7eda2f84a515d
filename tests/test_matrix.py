"""The command matrix: every command on every game under every layout and paper, run in-process
through the CLI's main function; no combination may end in an internal error or a traceback.

The test games (ledger, debtors) run the whole matrix on every run: `check` and `build` under
every layout on Letter and A4, then `proof --png`, `export --to shop|tts`, `diff` and
`build --reprint` on what was built. The five kits run `check --strict` under the home layout
on Letter and A4 on every run; the rest of their matrix (`check --strict` under every other
layout, a build under every layout on A4, every command) is the slow part, run when
PNP_MATRIX=full is set (before a release):

    PNP_MATRIX=full pytest -n 2 tests/test_matrix.py
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import REPO, TESTS, KIT_PAPERS, add_game
from pnp.layout.layouts import builtin_layouts

FULL = os.environ.get("PNP_MATRIX") == "full"
KITS = sorted(p.name for p in (REPO / "content").iterdir() if (p / "game.yaml").is_file())
TEST_GAMES = ("ledger", "debtors")
LAYOUTS = sorted(builtin_layouts())
full_only = pytest.mark.skipif(not FULL, reason="the slow part of the matrix: PNP_MATRIX=full")


def no_internal_error(result, *what) -> None:
    assert "internal error" not in result.err and "Traceback" not in result.err, \
        (what, result.err[-2000:])
    assert result.code in (0, 1, 2), (what, result.code)


@pytest.fixture(scope="module")
def test_games(tmp_path_factory) -> Path:
    """One project holding both test games (and ledger's layouts and printer)."""
    root = tmp_path_factory.mktemp("matrix-games")
    for game in TEST_GAMES:
        shutil.copytree(TESTS / "data" / "games" / game, root, dirs_exist_ok=True)
    return root


def run_all(run, root: Path, game: str, layout: str, paper: str) -> None:
    """check, then build, under one layout and paper; both clean of internal errors, and a
    clean check means the build writes."""
    common = ("--root", str(root), "--game", game, "--layout", layout, "--paper", paper)
    checked = run("check", *common)
    no_internal_error(checked, "check", game, layout, paper)
    built = run("build", *common)
    no_internal_error(built, "build", game, layout, paper)
    assert (checked.code == 0) == (built.code == 0), (game, layout, paper, built.err)


@pytest.mark.parametrize("paper", KIT_PAPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("game", TEST_GAMES)
def test_test_games_check_and_build_under_every_layout(test_games, run, game, layout, paper):
    run_all(run, test_games, game, layout, paper)


@pytest.mark.parametrize("game", TEST_GAMES)
def test_test_games_every_other_command(test_games, run, game):
    root = ("--root", str(test_games), "--game", game)
    assert run("build", *root).code == 0
    for command in (("proof", "--png"), ("proof", "--changed"), ("export", "--to", "shop"),
                    ("export", "--to", "tts"), ("diff",), ("build", "--reprint"),
                    ("proof", "--card", "1", "--png")):
        result = run(*command, *root)
        no_internal_error(result, command, game)


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("matrix-kits")
    for game in KITS:
        add_game(root, game)
    return root


# Every run checks each kit under the home layout on both papers; the other layouts are the
# slow part (each a whole check of the kit).
KIT_CHECKS = [pytest.param(layout, paper, marks=() if layout == "home" else full_only)
              for layout in LAYOUTS for paper in KIT_PAPERS]


@pytest.mark.parametrize("layout, paper", KIT_CHECKS)
@pytest.mark.parametrize("game", KITS)
def test_kits_check_strict_under_every_layout(kits, run, game, layout, paper):
    result = run("check", "--strict", "--root", str(kits), "--game", game, "--layout", layout,
                 "--paper", paper)
    no_internal_error(result, game, layout, paper)
    assert result.code == 0, result.err
    assert "0 errors, 0 warnings" in result.err  # each kit's own module relies on this check


@full_only
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("game", KITS)
def test_kits_build_under_every_layout_on_a4(kits, run, game, layout):
    run_all(run, kits, game, layout, "a4")


@full_only
@pytest.mark.parametrize("game", KITS)
def test_kits_every_other_command(kits, run, game):
    root = ("--root", str(kits), "--game", game)
    assert run("build", *root).code == 0
    for command in (("proof", "--png"), ("export", "--to", "shop"), ("export", "--to", "tts"),
                    ("diff",), ("build", "--reprint")):
        result = run(*command, *root)
        no_internal_error(result, command, game)
        if command[-1] == "shop" and result.code == 1:
            export_what_the_shop_makes(kits, run, game, result)
            continue
        assert result.code == 0, (command, result.err)


def export_what_the_shop_makes(root: Path, run, game: str, refused) -> None:
    """The kits are made for a home printer, and some of their pieces are of a size the
    default shop does not make (Banking's 18 mm round tokens, Downturn's markers): the export
    names each such deck at its line in game.yaml and writes nothing. The other decks then
    export cleanly with --sheets."""
    errors = [line for line in refused.lines if ": error: " in line]
    assert errors and all(re.match(r".+/game\.yaml:\d+:\d+: error: deck \w+: .+ \(rule "
                                   r"shop-no-product\)$", line) for line in errors), refused.err
    assert "nothing was written" in refused.err
    assert not list((root / "output" / game).glob("shop-*/*")), "a refused export wrote files"
    refused_decks = {re.search(r"error: deck (\w+):", line).group(1) for line in errors}
    decks = yaml.safe_load((REPO / "content" / game / "game.yaml").read_text("utf-8"))["decks"]
    rest = [deck for deck in decks if deck not in refused_decks]
    assert rest, f"the shop makes none of {game}'s decks"
    result = run("export", "--to", "shop", "--root", str(root), "--game", game,
                 "--sheets", ",".join(rest))
    no_internal_error(result, "export --to shop --sheets", game)
    assert result.code == 0, result.err
