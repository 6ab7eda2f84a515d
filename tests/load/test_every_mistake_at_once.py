"""A data file with five independent mistakes gives five findings in one check: an item with
a schema error no longer hides the other items' text-fit and emphasis problems until the
next run (they are drawn and checked in the same run; nothing is printed)."""

from __future__ import annotations

import json

from tinygame import front, write_game

CARDS = """\
- {title: One, text: fine, copies: x}
- {title: Two, text: "a **bold never closed", copies: 1}
- {title: "Three, a title over its budget of forty characters", text: fine, copies: 1}
- {title: Four, text: "words far too many for a small box words far too many for a small box words far too many for a small box words far too many for a small box", copies: 1}
- {text: "no title", copies: 1}
- {title: Six, text: fine, copies: 1}
"""


def test_five_mistakes_five_findings(tmp_path, monkeypatch, run):
    write_game(tmp_path, CARDS, front('text_box(card, "title", (5, 5, 53, 20))',
                                      'text_box(card, "text", (5, 40, 50, 6))'))
    monkeypatch.chdir(tmp_path)
    result = run("check", "--no-cache", "--format", "json")
    assert result.code == 1
    found = json.loads(result.out)["findings"]
    assert sorted((f["file"], f["line"], f["rule"]) for f in found) == [
        ("content/tiny/cards.yaml", 1, "schema-type"),
        ("content/tiny/cards.yaml", 2, "text-emphasis"),
        ("content/tiny/cards.yaml", 3, "text-budget"),
        ("content/tiny/cards.yaml", 4, "text-overflow"),
        ("content/tiny/cards.yaml", 5, "schema-missing"),
    ]
    # A partly valid game is only checked: a build still writes nothing.
    assert run("build", "-j", "1").code == 1
    assert not (tmp_path / "output").exists() or not list((tmp_path / "output").rglob("*.pdf"))
