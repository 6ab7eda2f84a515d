"""Terminal output: a control character in a game's folder name, a path or a message reaches
the terminal escaped, never raw; a bidirectional control in card text is a finding."""

from __future__ import annotations


import pytest

from conftest import edit

ESC = "\x1b"


def test_an_escape_sequence_in_a_game_folder_name_is_escaped(ledger, run):
    name = f"led{ESC}]0;owned{chr(7)}ger"
    (ledger / "content/ledger").rename(ledger / "content" / name)
    (ledger / "templates/ledger").rename(ledger / "templates" / name)
    edit(ledger / "content" / name / "cards.csv", "Loan,1,", "Loan,x,")
    for command in ("check", "build"):
        result = run(command)
        assert result.code == 1
        assert ESC not in result.err + result.out and chr(7) not in result.err + result.out
        assert "led\\x1b]0;owned\\x07ger" in result.err, result.err


def test_written_paths_are_escaped(ledger, run):
    name = f"led{ESC}[2Jger"
    (ledger / "content/ledger").rename(ledger / "content" / name)
    (ledger / "templates/ledger").rename(ledger / "templates" / name)
    result = run("build")
    assert result.code == 0, result.err
    assert ESC not in result.out + result.err
    assert "wrote output/led\\x1b[2Jger/cards-letter.pdf" in result.out


@pytest.mark.parametrize("char", ["\u202e", "\u2066", "\u200f"])
def test_a_bidi_control_in_text_is_a_located_finding(ledger, run, char):
    edit(ledger / "content/ledger/cards.csv", "Loan,1,", f"Lo{char}an,1,")
    result = run("check")
    assert result.code == 1
    errors = [line for line in result.lines if ": error: " in line]
    assert len(errors) == 1 and errors[0].startswith("content/ledger/cards.csv:2:1: ")
    assert f"U+{ord(char):04X}" in errors[0] and "(rule text-bidi-control)" in errors[0]
    assert char not in result.err
