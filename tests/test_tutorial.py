"""The tutorial docs/your-own-game.md is followed command by command in an empty folder: every
`pnp` line runs through the CLI with the exit code the text gives it (0 unless it says
`# exits N`), every other line runs in a shell, and each `text` block it shows is printed."""

from __future__ import annotations

import re
import shlex
import subprocess

import pytest

from conftest import REPO

TUTORIAL = REPO / "docs" / "your-own-game.md"
BLOCK = re.compile(r"```(sh|text)\n(.*?)```", re.DOTALL)


def steps() -> list[tuple[str, str]]:
    return BLOCK.findall(TUTORIAL.read_text(encoding="utf-8"))


def test_the_tutorial_has_commands_and_shown_output():
    kinds = [kind for kind, _ in steps()]
    assert kinds.count("sh") >= 4 and kinds.count("text") >= 2


def test_following_the_tutorial_works(tmp_path, monkeypatch, run):
    monkeypatch.chdir(tmp_path)
    last = None
    for kind, body in steps():
        if kind == "text":
            assert last is not None
            for line in body.strip().splitlines():
                assert line in last.err, f"the tutorial shows {line!r}; pnp printed {last.err!r}"
            continue
        for line in body.strip().splitlines():
            # A comment stands apart: '#' inside a command (a colour) is the command's.
            command, _, comment = line.partition(" # ")
            expected = int(m.group(1)) if (m := re.search(r"exits (\d)", comment)) else 0
            words = shlex.split(command)
            if words[0] == "pnp":
                last = run(*words[1:])
                assert last.code == expected, f"{line}: {last.err}"
            else:
                done = subprocess.run(command, shell=True, cwd=tmp_path, check=False)
                assert done.returncode == expected, line
    assert (tmp_path / "output" / "debt-game" / "cards-a4.pdf").is_file()
    assert (tmp_path / "output" / "debt-game" / "cards-de-a4.pdf").is_file()


@pytest.mark.parametrize("name", ["My Game", "../up", "x" * 41])
def test_new_refuses_a_name_that_cannot_be_a_folder(tmp_path, monkeypatch, run, name):
    monkeypatch.chdir(tmp_path)
    result = run("new", name)
    assert result.code == 2 and "cannot name a game" in result.err
    assert not (tmp_path / "content").exists()


def test_new_never_overwrites_a_game(project, run):
    before = (project / "content" / "downturn" / "game.yaml").read_bytes()
    result = run("new", "downturn")
    assert result.code == 2 and "already exists" in result.err
    assert (project / "content" / "downturn" / "game.yaml").read_bytes() == before


def test_a_new_game_passes_check_strict(tmp_path, monkeypatch, run):
    """What `pnp new` writes is a game the print-safety checks find nothing in: a designer's
    first `pnp check --strict` speaks of their own edits only."""
    monkeypatch.chdir(tmp_path)
    assert run("new", "mine").code == 0
    result = run("check", "--strict", "--game", "mine")
    assert result.code == 0 and ": warning: " not in result.err, result.err
    assert "0 errors, 0 warnings" in result.err
