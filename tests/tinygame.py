"""A one-deck game written into a test's folder: its cards and its front template given by the
test, so a text box can be tried at any size with any text."""

from __future__ import annotations

from pathlib import Path


def manifest_head(title: str) -> str:
    """The lines a small test game's game.yaml opens with: its title, designer and licence."""
    return (f"title: {title}\ndesigner: A. Designer\nyear: 2026\n"
            "players: {min: 1, max: 2}\nlicence:\n  name: CC BY 4.0\n"
            "  url: https://creativecommons.org/licenses/by/4.0/\n"
            f'  attribution: "{title} (c) 2026 A. Designer, CC BY 4.0"\n')


GAME = manifest_head("Tiny") + """\
decks:
  cards:
    title: Tiny cards
    size: poker
    front: front.svg.j2
    back: back.svg.j2
    file: cards.yaml
    quantity: copies
    label: 'card "{{ title }}"'
    fields:
      title: {type: text, max_chars: 40}
      text: {type: text, max_words: 60}
      copies: {type: whole, min: 0}
"""
BACK = """\
<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">
<rect x="-5" y="-5" width="73" height="98" fill="#1f2a44"/>
</svg>
"""


def front(*boxes: str) -> str:
    """A white card front drawing the given `text_box(...)` calls."""
    calls = "\n".join("{{ " + box + " }}" for box in boxes)
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" '
            'viewBox="0 0 63 88">\n<rect x="-5" y="-5" width="73" height="98" '
            f'fill="#ffffff"/>\n{calls}\n</svg>\n')


def write_game(root: Path, cards: str, front_template: str) -> Path:
    """The game 'tiny' in `root` (content/tiny, templates/tiny); `cards` is its cards.yaml."""
    content, templates = root / "content" / "tiny", root / "templates" / "tiny"
    content.mkdir(parents=True)
    templates.mkdir(parents=True)
    (content / "game.yaml").write_text(GAME, encoding="utf-8")
    (content / "cards.yaml").write_text(cards, encoding="utf-8")
    (templates / "front.svg.j2").write_text(front_template, encoding="utf-8")
    (templates / "back.svg.j2").write_text(BACK, encoding="utf-8")
    return root
