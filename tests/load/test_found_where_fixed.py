"""A finding is located where the fix is made: a template's unknown font family at the template
line (once, not at every data row), words a text box fits that are not its field at the
template line that gives them, and a template's mistakes with the template line and the
template's own words (the field it likely meant, how a helper is called)."""

from __future__ import annotations

import json

import pytest

from tinygame import front, write_game

CARDS = "".join(f"- {{title: Card {n}, text: fine, copies: 1}}\n" for n in range(1, 5))
TITLE = 'text_box(card, "title", (5, 5, 53, 10))'


def _check(tmp_path, monkeypatch, run, template: str) -> list[tuple]:
    write_game(tmp_path, CARDS, template)
    monkeypatch.chdir(tmp_path)
    result = run("check", "--no-cache", "--format", "json")
    return [(f["file"], f["line"], f["rule"], f"{f.get('subject', '')}: {f['message']}")
            for f in json.loads(result.out)["findings"]]


def _line(template: str, words: str) -> int:
    return next(n for n, text in enumerate(template.splitlines(), 1) if words in text)


def test_unknown_family_once_at_the_template_line(tmp_path, monkeypatch, run):
    template = front(TITLE).replace(
        "</svg>", '<text x="5" y="80" font-family="Comic Sans MS">{{ card.title }}</text>\n'
                  "</svg>")
    found = _check(tmp_path, monkeypatch, run, template)
    assert [f[:3] for f in found] == [("templates/tiny/front.svg.j2",
                                       _line(template, "Comic Sans"), "font-unknown")]


def test_words_not_of_the_field_at_the_template_line(tmp_path, monkeypatch, run):
    credit = " ".join(["a credit line far too long for its small box"] * 6)
    call = f'text_box(card, "title", (5, 80, 40, 3), size_pt=5, role="credit", text="{credit}")'
    template = front(TITLE, call)
    found = _check(tmp_path, monkeypatch, run, template)
    assert [f[:3] for f in found] == [("templates/tiny/front.svg.j2", _line(template, credit),
                                       "text-overflow")]
    assert found[0][3].startswith("text 'a credit line far too long ...': text overflows")


@pytest.mark.parametrize("expression, words", [
    ("card.titel", "the card has no field 'titel' (did you mean 'title'?)"),
    ('text_box(card, "title", (5, 5, 53, 10), colour="red")',
     "text_box(): got an unexpected keyword argument 'colour'; it is called as "
     "text_box(card, field, box_mm, *, font='body'"),
])
def test_template_mistakes_in_its_words(tmp_path, monkeypatch, run, expression, words):
    template = front(TITLE, expression)
    found = _check(tmp_path, monkeypatch, run, template)
    assert [f[:3] for f in found] == [("templates/tiny/front.svg.j2",
                                       _line(template, expression), "template-error")]
    assert words in found[0][3]
