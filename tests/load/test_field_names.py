"""No code is made from a name a person wrote without checking it first: a field or `each`
name that is not a plain identifier, is a Python keyword or is a name pnp reserves is one
located finding; a rules plug-in written for another game is one finding at `plugin:`."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import edit, line_of, one_error

GAME = Path("content/ledger/game.yaml")
NOTE_NAME = "      name: {type: text, max_chars: 16}"


@pytest.mark.parametrize("name, reason", [
    ("self", "is reserved"), ("label", "is reserved"), ("label_of", "is reserved"),
    ("where", "is reserved"), ("class", "is a Python keyword"),
    ("lambda", "is a Python keyword"), ("None", "must be lower-case letters"),
    ("__init__", "must be lower-case letters"), ("title-text", "must be lower-case"),
    ("'a b'", "must be lower-case"),
])
def test_a_field_name_that_cannot_be_a_name_is_a_located_finding(ledger, run, name, reason):
    edit(ledger / GAME, NOTE_NAME, f"{NOTE_NAME}\n      {name}: {{type: text, required: false}}")
    line = one_error(run("check"))
    assert line.startswith(f"{GAME}:{line_of(ledger / GAME, name + ': {type: text')}:7:"), line
    assert reason in line and "(rule manifest-field)" in line


def test_a_field_called_match_or_type_is_fine(ledger, run):
    edit(ledger / GAME, NOTE_NAME, f"{NOTE_NAME}\n      match: {{type: text, required: false}}"
         "\n      type: {type: text, required: false}")
    assert run("check").code == 0


@pytest.mark.parametrize("name", ["class", "self", "label", "game"])
def test_an_each_name_that_cannot_be_a_name_is_a_located_finding(ledger, run, name):
    game = ledger / GAME
    game.write_text(game.read_text(encoding="utf-8") + (
        "  made:\n    title: Made\n    size: 20 mm\n    front: note-front.svg.j2\n"
        f"    back: none\n    each: [{{{name}: \"range(3)\"}}]\n"), encoding="utf-8")
    line = one_error(run("check"))
    assert line.startswith(f"{GAME}:{line_of(game, 'each: [')}:"), line
    assert "(rule manifest-each)" in line


def test_a_plugin_for_another_game_is_one_finding_at_plugin(ledger, run):
    edit(ledger / GAME, "year: 2026", "year: 2026\nplugin: downturn")
    line = one_error(run("check"))
    assert line.startswith(f"{GAME}:{line_of(ledger / GAME, 'plugin: downturn')}:9:"), line
    assert "the rules plug-in 'downturn' does not fit this game" in line
    assert "reads 'events'" in line


SPLIT_DECK = """
  more:
    title: More cards
    size: poker
    front: card-front.svg.j2
    back: card-back.svg.j2
    file: more.csv
    fields: {owner}
"""


def test_a_deck_reuses_another_decks_fields_by_name(ledger, run):
    game = ledger / GAME
    game.write_text(game.read_text(encoding="utf-8") + SPLIT_DECK.format(owner="cards"),
                    encoding="utf-8")
    (ledger / "content/ledger/more.csv").write_text(
        "title,value,text,art\nLoan with a title far too long,1,x,art.png\n", encoding="utf-8")
    line = one_error(run("check"))  # the shared declaration's budget holds for both decks
    assert line.startswith("content/ledger/more.csv:2:1: ") and "(rule text-budget)" in line


def test_fields_naming_nothing_is_one_located_finding(ledger, run):
    game = ledger / GAME
    game.write_text(game.read_text(encoding="utf-8") + SPLIT_DECK.format(owner="cardz"),
                    encoding="utf-8")
    (ledger / "content/ledger/more.csv").write_text("title\nx\n", encoding="utf-8")
    line = one_error(run("check"))
    assert line.startswith(f"{GAME}:{line_of(game, 'fields: cardz')}:13: ")
    assert "did you mean 'cards'?" in line
