"""A face whose template cannot depend on its item (a shared back) is drawn once and used for
every item; one that reads the item, itself or through a template it includes, is drawn per
item."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from pnp.render.renderer import Renderer
from pnp.render.stamps import reads_item, render_stamped
from pnp.compose.deck import Deck
from pnp.units import Size

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" '
       'viewBox="0 0 63 88">{}</svg>\n')
TEMPLATES = {
    "shared.svg.j2": SVG.format('<rect width="63" height="88" fill="#123456"/>'),
    "own.svg.j2": SVG.format('<text x="5" y="10">{{ card.title }}</text>'),
    "part.svg.j2": '<text x="5" y="10">{{ card.title }}</text>',
    "includes.svg.j2": SVG.format('{% include "part.svg.j2" %}'),
    "by-name.svg.j2": SVG.format('{% include name %}'),
    "plain-part.svg.j2": '<rect width="63" height="88" fill="#654321"/>',
    "includes-plain.svg.j2": SVG.format('{% include "plain-part.svg.j2" %}'),
}


@dataclass(frozen=True)
class Card:
    title: str

    @property
    def label(self) -> str:
        return f'card "{self.title}"'


@pytest.fixture
def renderer(tmp_path: Path) -> Renderer:
    for name, text in TEMPLATES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return Renderer([tmp_path], {}, {"name": "part.svg.j2"})


@pytest.mark.parametrize("template, expected", [
    ("shared.svg.j2", False), ("own.svg.j2", True), ("includes.svg.j2", True),
    ("by-name.svg.j2", True), ("includes-plain.svg.j2", False)])
def test_a_template_reads_the_item_itself_or_through_what_it_includes(renderer, template,
                                                                       expected):
    assert reads_item(renderer, template) is expected


def _deck(back: str) -> Deck:
    items = tuple(Card(f"Card {n}") for n in range(5))
    return Deck("cards", "Cards", items, Size(63, 88), "own.svg.j2", back)


def _count_renders(monkeypatch) -> list:
    """The (template, item) of every face the renderer draws from now on."""
    drawn = []
    render = Renderer.render

    def counting(self, template, item, *args, **kwargs):
        drawn.append((template, item))
        return render(self, template, item, *args, **kwargs)

    monkeypatch.setattr(Renderer, "render", counting)
    return drawn


@pytest.mark.parametrize("back", ["shared.svg.j2", "includes-plain.svg.j2"])
def test_a_shared_back_is_drawn_once_and_labelled_per_item(renderer, back, monkeypatch):
    deck = _deck(back)
    render = Renderer.render
    drawn = _count_renders(monkeypatch)
    deck.render(renderer)
    assert [t for t, _ in drawn].count(back) == 1
    assert [face.label for face in deck.backs] == [item.label for item in deck.items]
    assert len({(face.svg, face.stamp) for face in deck.backs}) == 1
    # The same faces as drawing each back on its own.
    monkeypatch.setattr(Renderer, "render", render)
    for item, face in zip(deck.items, deck.backs):
        assert render_stamped(renderer, back, item, deck.size, deck=deck) == face


@pytest.mark.parametrize("back", ["own.svg.j2", "includes.svg.j2"])
def test_a_back_that_reads_the_item_is_drawn_per_item(renderer, back):
    deck = _deck(back)
    deck.render(renderer)
    assert len({face.svg for face in deck.backs}) == len(deck.items)
    for item, face in zip(deck.items, deck.backs):
        assert item.title in face.svg
        assert face.label == item.label


def test_the_copies_of_an_item_are_drawn_once_and_equal_items_each(renderer, monkeypatch):
    """`quantity` repeats the one record: its copies are one drawing. Two records that are
    merely equal are drawn each, and every item keeps its own face in its own place."""
    one, other = Card("One"), Card("Other")
    twin = Card("One")  # equal to `one`, but another record
    items = (one, one, one, other, other, twin)
    deck = Deck("cards", "Cards", items, Size(63, 88), "own.svg.j2", "shared.svg.j2")
    render = Renderer.render
    drawn = _count_renders(monkeypatch)
    deck.render(renderer)
    fronts = [item for template, item in drawn if template == "own.svg.j2"]
    assert len(fronts) == 3 and fronts[0] is one and fronts[1] is other and fronts[2] is twin
    assert [face.label for face in deck.fronts] == [item.label for item in items]
    assert ["One" in face.svg for face in deck.fronts] == [True, True, True, False, False,
                                                           True]
    monkeypatch.setattr(Renderer, "render", render)
    for item, face in zip(items, deck.fronts):
        assert render_stamped(renderer, "own.svg.j2", item, deck.size, deck=deck) == face


def test_a_corner_radius_over_half_the_piece_is_a_warning_at_its_line(tmp_path, monkeypatch,
                                                                       run):
    """Not clamped silently: the cut file's corners are not what the designer wrote."""
    from tinygame import front, write_game

    root = write_game(tmp_path, "- {title: One, text: A card., copies: 1}\n",
                      front('text_box(card, "title", (6, 6, 51, 10))'))
    manifest = root / "content/tiny/game.yaml"
    manifest.write_text(manifest.read_text().replace(
        "    size: poker\n", "    size: poker\n    corner_radius_mm: 20\n"), encoding="utf-8")
    monkeypatch.chdir(root)
    small = run("check")
    assert small.code == 0 and "corner-radius" not in small.err  # 20 mm of a 63 mm card
    manifest.write_text(manifest.read_text().replace("size: poker", "size: 30 x 88 mm"),
                        encoding="utf-8")
    result = run("check")
    assert ("content/tiny/game.yaml:13:23: warning: deck cards: corner_radius_mm 20 is more "
            "than half the 30 x 88 mm piece") in result.err
