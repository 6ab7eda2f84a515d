"""A one-deck game with art, written into a test's folder: `cards` cards, each printing the
same generated PNG (noise, so it does not compress), or the `art` given, and maybe an icon."""

from __future__ import annotations

import io
from pathlib import Path

from tinygame import BACK, GAME as TINY

# Tiny's game (tinygame.py) under another title, its deck printing art from a CSV file.
GAME = TINY.split("decks:")[0].replace("Tiny", "Gallery") + """\
decks:
  cards:
    title: Gallery cards
    size: poker
    front: front.svg.j2
    back: back.svg.j2
    file: cards.csv
    quantity: copies
    label: 'card "{{ title }}"'
    fields:
      title: {type: text, max_chars: 40}
      art: image
      copies: {type: whole, min: 0}
"""
FRONT = """\
<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">
<rect x="-5" y="-5" width="73" height="98" fill="#ffffff"/>
{{ image(card, "art", (6, 6, 51, 51)) }}
{{ text_box(card, "title", (6, 62, 51, 10), size_pt=10) }}
</svg>
"""


def noise_png(side_px: int, seed: int = 1) -> bytes:
    """A square RGB PNG of random pixels (3 bytes a pixel, hardly compressed)."""
    import random

    from PIL import Image

    pixels = random.Random(seed).randbytes(side_px * side_px * 3)
    out = io.BytesIO()
    Image.frombytes("RGB", (side_px, side_px), pixels).save(out, "PNG", compress_level=1)
    return out.getvalue()


def grey_png(side_px: int) -> bytes:
    """A square PNG of one grey: tiny on disk, `side_px` squared pixels to decode."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("L", (side_px, side_px), 128).save(out, "PNG")
    return out.getvalue()


def write_art_game(root: Path, cards: int, art: bytes | None = None, copies: int = 1,
                   icon: bytes | None = None) -> Path:
    """The game 'gallery' in `root`: `cards` rows, each `copies` copies of a card printing
    art.png (`art`, else about 1 MB of noise); with `icon`, an image icon (icon.png) the
    title of each card shows twice."""
    content, templates = root / "content" / "gallery", root / "templates" / "gallery"
    content.mkdir(parents=True)
    templates.mkdir(parents=True)
    game = GAME
    if icon is not None:
        game = game.replace("decks:", "icons:\n  grey: {image: icon.png}\ndecks:")
        (content / "icon.png").write_bytes(icon)
    (content / "game.yaml").write_text(game, encoding="utf-8")
    (content / "art.png").write_bytes(noise_png(580) if art is None else art)
    title = "Card {n} {{grey}} and {{grey}}" if icon is not None else "Card {n}"
    rows = "".join(f"{title.format(n=n)},art.png,{copies}\n" for n in range(1, cards + 1))
    (content / "cards.csv").write_text("title,art,copies\n" + rows, encoding="utf-8")
    (templates / "front.svg.j2").write_text(FRONT, encoding="utf-8")
    (templates / "back.svg.j2").write_text(BACK, encoding="utf-8")
    return root
