"""A corpus of careless and hostile inputs, each a small edit of the ledger test game: none
may end in an internal error or a traceback, whatever it is answered with (a clean check, a
finding, a usage error), and every error names a place. The cases are not the ones of the
issue that lists the known ones (those have tests of their own, next to what they fix): they
are what else a hurried or hostile person could write.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Callable

import pytest

from conftest import TESTS

LEDGER = TESTS / "data" / "games" / "ledger"
G = "content/ledger/game.yaml"
CARDS = "content/ledger/cards.csv"
NOTES = "content/ledger/notes.yaml"
FRONT = "templates/ledger/card-front.svg.j2"
NOTE_FRONT = "templates/ledger/note-front.svg.j2"


def replace(path: str, old: str, new: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        target = root / path
        text = target.read_text(encoding="utf-8")
        assert old in text, (path, old)
        target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return apply


def write(path: str, data: str | bytes) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink() or target.is_file():
            target.unlink()
        elif target.is_dir():
            shutil.rmtree(target)
        if isinstance(data, bytes):
            target.write_bytes(data)
        else:
            target.write_text(data, encoding="utf-8")
    return apply


def folder(path: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        (root / path).unlink()
        (root / path).mkdir()
    return apply


def link(path: str, to: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        (root / path).unlink(missing_ok=True)
        (root / path).symlink_to(to)
    return apply


SIZE = "size: 40 x 40 mm"
CARD_FIELDS = "      title: {type: text, max_chars: 20}"
CASES: list[tuple[str, Callable[[Path], None], tuple[str, ...]]] = [
    ("decks-a-list", replace(G, "decks:\n  cards:", "decks:\n  - cards:"), ()),
    ("size-misspelt", replace(G, "size: poker", "size: pokr"), ()),
    ("size-negative", replace(G, SIZE, "size: -40 x 40 mm"), ()),
    ("size-no-unit", replace(G, SIZE, "size: 40 x 40"), ()),
    ("size-nan", replace(G, SIZE, "size: nan mm"), ()),
    ("size-exponent", replace(G, SIZE, "size: 1e3 mm"), ()),
    ("size-a-number", replace(G, SIZE, "size: 40"), ()),
    ("size-a-list", replace(G, SIZE, "size: [40, 40]"), ()),
    ("front-climbs", replace(G, "front: note-front.svg.j2", "front: ../ledger/note-front.svg.j2"),
     ()),
    ("front-absolute", replace(G, "front: note-front.svg.j2", "front: /etc/passwd"), ()),
    ("back-empty", replace(G, "back: card-back.svg.j2", 'back: ""'), ()),
    ("file-a-folder", replace(G, "file: notes.yaml", "file: ."), ()),
    ("file-climbs", replace(G, "file: notes.yaml", "file: ../../layouts.yaml"), ()),
    ("file-not-data", replace(G, "file: notes.yaml", "file: art.png"), ()),
    ("label-unknown-field", replace(G, "label: 'note \"{{ name }}\"'",
                                    "label: '{{ nosuch }}'"), ()),
    ("label-broken", replace(G, "label: 'note \"{{ name }}\"'", "label: '{% for %}'"), ()),
    ("list-without-of", replace(G, CARD_FIELDS, CARD_FIELDS + "\n      tags: {type: list}"), ()),
    ("choice-of-nothing", replace(G, CARD_FIELDS,
                                  CARD_FIELDS + "\n      kind: {type: choice, of: []}"), ()),
    ("min-above-max", replace(G, "value: {type: whole, min: 0, max: 9}",
                              "value: {type: whole, min: 5, max: 1}"), ()),
    ("min-infinite", replace(G, "value: {type: whole, min: 0, max: 9}",
                             "value: {type: number, min: .inf}"), ()),
    ("quantity-of-text", replace(G, "    file: cards.csv", "    file: cards.csv\n"
                                 "    quantity: title"), ()),
    ("sort-unknown", replace(G, "    file: cards.csv", "    file: cards.csv\n    sort: -nosuch"),
     ()),
    ("each-too-many", replace(G, "  notes:", "  made:\n    title: Made\n    size: 20 mm\n"
                              "    front: note-front.svg.j2\n    back: none\n"
                              "    each: [{n: \"range(200000)\"}]\n  notes:"), ()),
    ("each-dunder", replace(G, "  notes:", "  made:\n    title: Made\n    size: 20 mm\n"
                            "    front: note-front.svg.j2\n    back: none\n"
                            "    each: [{n: \"game.__class__.__mro__\"}]\n  notes:"), ()),
    ("csv-utf16", write(CARDS, "title,value,text,art\nLoan,1,x,art.png\n".encode("utf-16")), ()),
    ("csv-duplicate-header", write(CARDS, "title,title,text,art\nLoan,1,x,art.png\n"), ()),
    ("csv-unclosed-quote", write(CARDS, 'title,value,text,art\n"Loan,1,x,art.png\n'), ()),
    ("csv-extra-cells", write(CARDS, "title,value,text,art\nLoan,1,x,art.png,more,cells\n"),
     ()),
    ("csv-empty", write(CARDS, ""), ()),
    ("csv-blank-lines", write(CARDS, "\n\n   \n"), ()),
    ("csv-fullwidth-digit", write(CARDS, "title,value,text,art\nLoan,\uff11,x,art.png\n"), ()),
    ("csv-art-climbs", write(CARDS, "title,value,text,art\nLoan,1,x,../../../etc/passwd\n"), ()),
    ("csv-art-url", write(CARDS, "title,value,text,art\nLoan,1,x,http://127.0.0.1:9/a.png\n"),
     ()),
    ("art-svg-script", write("content/ledger/art.png",
                             '<svg xmlns="http://www.w3.org/2000/svg"><script>x()</script>'
                             "</svg>"), ()),
    ("art-empty", write("content/ledger/art.png", b""), ()),
    ("art-a-folder", folder("content/ledger/art.png"), ()),
    ("art-text", write("content/ledger/art.png", "not an image at all"), ()),
    ("notes-a-mapping", write(NOTES, "name: Small note\namount: 5\n"), ()),
    ("notes-alias", write(NOTES, "- &a {name: A, amount: 1}\n- *a\n"), ()),
    ("notes-deep", write(NOTES, "[" * 5000 + "]" * 5000 + "\n"), ()),
    ("notes-huge-number", write(NOTES, "- {name: A, amount: 1e309}\n"), ()),
    ("notes-long-name", write(NOTES, f"- {{name: {'x' * 100_000}, amount: 1}}\n"), ()),
    ("template-empty", write(NOTE_FRONT, ""), ()),
    ("template-syntax", write(NOTE_FRONT, "{% if %}<svg/>"), ()),
    ("template-includes-itself", write(NOTE_FRONT, '{% include "note-front.svg.j2" %}'), ()),
    ("template-unknown-field", replace(FRONT, "{{ card.value }}", "{{ card.nosuch }}"), ()),
    ("template-latin1", write(NOTE_FRONT, "<svg>caf\xe9</svg>".encode("latin-1")), ()),
    ("template-no-svg-size", write(NOTE_FRONT, '<svg xmlns="http://www.w3.org/2000/svg"/>'), ()),
    ("template-a-folder", folder(NOTE_FRONT), ()),
    ("template-link-loop", link(NOTE_FRONT, "note-front.svg.j2"), ()),
    ("layouts-a-list", write("layouts.yaml", "- a\n- b\n"), ()),
    ("layouts-unknown-kind", replace("layouts.yaml", "  gap_mm: 2", "  kind: spiral\n  gap_mm: 2"),
     ("--layout", "prop")),
    ("layouts-slots-empty", replace("layouts.yaml", "  gap_mm: 2", "  kind: slots\n  gap_mm: 2"),
     ("--layout", "prop")),
    ("layouts-huge-grid", replace("layouts.yaml", "  gap_mm: 2", "  grid: {cols: 150}\n"
                                  "  gap_mm: 2"), ("--layout", "prop")),
    ("printer-scale-wild", replace("printers/office.yaml", "scale: 1", "scale: 5"),
     ("--printer", "office")),
    ("printer-empty", write("printers/office.yaml", ""), ("--printer", "office")),
    ("printer-text-offset", replace("printers/office.yaml", "offset_x_mm: 1",
                                    "offset_x_mm: one"), ("--printer", "office")),
    ("licence-missing", replace(G, "licence:", "licensing:"), ()),
    ("players-reversed", replace(G, "players: {min: 2, max: 4}", "players: {min: 4, max: 2}"),
     ()),
    ("icon-bad-colour", replace(G, "decks:", "icons:\n  coin: {fill: red}\ndecks:"), ()),
    ("rules-broken", write("content/ledger/rules.yaml", "- id: x\n  expect: cards |\n"), ()),
    ("rules-not-a-list", write("content/ledger/rules.yaml", "expect: 1\n"), ()),
    ("game-yaml-a-folder", folder(G), ()),
    ("game-yaml-link-loop", link(G, "game.yaml"), ()),
    ("paper-unknown", lambda root: None, ("--paper", "a5")),
    ("layout-unknown", lambda root: None, ("--layout", "nosuch")),
    ("sheets-unknown", lambda root: None, ("--sheets", "nosuch")),
]


@pytest.fixture(scope="module")
def original(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("corpus") / "ledger"
    shutil.copytree(LEDGER, root)
    return root


@pytest.mark.parametrize("name, change, args", CASES, ids=[case[0] for case in CASES])
def test_no_hostile_input_ends_in_an_internal_error(original, tmp_path, monkeypatch, run,
                                                   name, change, args):
    root = tmp_path / "project"
    shutil.copytree(original, root, symlinks=True)
    monkeypatch.chdir(root)
    change(root)
    command = "build" if "--sheets" in args else "check"
    result = run(command, *args)
    output = result.err + result.out
    assert "internal error" not in output and "Traceback" not in output, (name, output[-3000:])
    assert result.code in (0, 1, 2), (name, result.code)
    for line in result.lines:
        if ": error: " in line:  # every finding names where
            assert line.split(": error: ")[0], line
    assert "\x1b" not in output
    # nothing written outside the project
    assert not any(Path(p).exists() for p in ("/etc/passwd.yaml",))
    assert os.listdir(tmp_path) == ["project"]


def test_the_corpus_is_about_fifty_cases():
    assert len(CASES) >= 50
    assert len({case[0] for case in CASES}) == len(CASES)
