"""A misspelt key in a manifest changes what prints (the key is ignored), so it is an error at
its line with the key it was likely meant to be; `--lenient` turns it back into a warning."""

from __future__ import annotations

import json

from tinygame import front, write_game

CARDS = "- {title: One, text: a, copies: 2}\n- {title: Two, text: b, copies: 1}\n"


def _misspelt(root):
    write_game(root, CARDS, front('text_box(card, "title", (5, 5, 53, 10))'))
    game = root / "content" / "tiny" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace("    quantity: copies", "    quantity_field: copies"),
                    encoding="utf-8")
    line = 1 + text.splitlines().index("    quantity: copies")
    return line


def test_misspelt_deck_key_is_an_error_at_its_line(tmp_path, monkeypatch, run):
    line = _misspelt(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = run("check", "--no-cache")
    assert result.code == 1
    errors = [l for l in result.err.splitlines() if ": error:" in l]
    assert errors == [f"content/tiny/game.yaml:{line}:5: error: decks.cards: unknown key "
                      "'quantity_field'; did you mean 'quantity'? (pnp would ignore it, which "
                      "changes what prints; --lenient makes this a warning) "
                      "(rule schema-unknown-key)"]


def test_lenient_makes_it_a_warning(tmp_path, monkeypatch, run):
    line = _misspelt(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = run("check", "--no-cache", "--lenient", "--format", "json")
    found = json.loads(result.out)["findings"]
    unknown = [f for f in found if f["rule"] == "schema-unknown-key"]
    assert [(f["severity"], f["line"]) for f in unknown] == [("warning", line)]
    assert "did you mean 'quantity'?" in unknown[0]["hint"]
