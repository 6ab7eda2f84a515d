"""A deck that prints nothing (no rows, or every card at 0 copies: left out of this print run)
is a warning at the deck, and the rest of the project checks, builds, plans and exports as
before."""

from __future__ import annotations

import fitz
import pytest

from conftest import clean
from tinygame import GAME, front, write_game

# A second deck of the same cards, from its own file: the one left empty.
SPARE = GAME.replace("decks:\n  cards:", "decks:\n  spare:").split("decks:\n", 1)[1].replace(
    "file: cards.yaml", "file: spare.yaml").replace("Tiny cards", "Spare cards").replace(
    "    quantity: copies\n", "    quantity: copies\n    tuck_box: {}\n")
CARDS = "- {title: One, text: First card., copies: 2}\n"
SPARES = {"every card at 0 copies": "- {title: Two, text: Left out., copies: 0}\n",
          "no rows": "[]\n"}


@pytest.fixture(params=sorted(SPARES))
def game(request, tmp_path, monkeypatch):
    root = write_game(tmp_path, CARDS, front('text_box(card, "title", (6, 6, 51, 10))'))
    manifest = root / "content/tiny/game.yaml"
    manifest.write_text(manifest.read_text() + SPARE, encoding="utf-8")
    (root / "content/tiny/spare.yaml").write_text(SPARES[request.param], encoding="utf-8")
    monkeypatch.chdir(root)
    return root


WARNING = ("content/tiny/game.yaml:23:5: warning: deck spare: deck 'spare' prints nothing: it "
           "has no cards, or every card has 0 copies")


def test_an_empty_deck_is_a_warning_and_the_rest_prints(game, run):
    checked = run("check")
    assert checked.code == 0, checked.err
    clean(checked)
    assert [line for line in checked.lines if ": warning: " in line or ": error: " in line] \
        == [line for line in checked.lines if line.startswith(WARNING)]
    built = run("build")
    assert built.code == 0, built.err
    assert sorted(p.name for p in (game / "output/tiny").glob("*.pdf")) == \
        ["cards-letter.pdf"]  # no spare deck, and no tuck box for it
    with fitz.open(game / "output/tiny/cards-letter.pdf") as pdf:
        assert "One" in pdf[0].get_text()
    for command in (("plan",), ("export", "--to", "tts"), ("proof",)):
        result = run(*command)
        assert result.code == 0, (command, result.err)
        clean(result)
