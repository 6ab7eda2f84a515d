"""Each command's --help says what the command does: `check` prints its findings and writes
no PDF (it said "print nothing"), `lsp` says what an editor gets, and no option of check or
proof promises PDFs they do not write."""

from __future__ import annotations

import pytest

from pnp.cli import main


def _help(capsys, command: str) -> str:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_check_and_lsp_say_what_they_do(capsys):
    check = _help(capsys, "check")
    assert "print nothing" not in check and "print each problem" in check
    assert "Writes no PDF" in check and "PDFs carry" not in check
    assert "PDFs carry" not in _help(capsys, "proof")
    lsp = _help(capsys, "lsp")
    assert "Language Server Protocol" in lsp and "as you type" in lsp


def test_every_option_says_what_it_does():
    from pnp.cli import _parser

    commands = next(a for a in _parser()._actions if a.dest == "command").choices
    silent = [f"{name} {action.option_strings[-1]}" for name, command in commands.items()
              for action in command._actions if action.option_strings and not action.help]
    assert silent == []
