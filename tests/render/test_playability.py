"""The playability check: pieces the data says differ must stay apart in greyscale and to a
colour-blind player. A small game's suits differing only in red and green get a
`play-colour-only` warning for deuteranopia at the suit's data line; a letter per suit
clears it. Two decks of tokens of one size meet on the table: banking's Central Bank Debt
and Blue Debt colours, on plain discs, are told apart only by colour, and greyscale loses it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pnp.render import vision
from tinygame import manifest_head

GAME = manifest_head("Suits") + """\
decks:
  cards:
    title: Cards
    size: 40 x 56 mm
    front: front.svg.j2
    back: none
    file: cards.yaml
    label: 'card "{{ rank }} {{ suit }}"'
    fields:
      rank: {type: whole, min: 1, max: 9}
      suit: {type: choice, of: [red, green]}
"""
CARDS = "".join(f"- {{rank: {rank}, suit: {suit}}}\n"
                for suit in ("red", "green") for rank in (1, 2, 3))
# A red and a green of about one lightness: a deuteranope sees two near-equal olives.
FRONT = """\
{% set fill = {"red": "#cf3a30", "green": "#4a9a3a"}[card.suit] %}
<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="56mm" viewBox="0 0 40 56">
<rect x="-4" y="-4" width="48" height="64" fill="{{ fill }}"/>
<rect x="5" y="5" width="30" height="46" rx="2" fill="#ffffff"/>
<text x="20" y="34" text-anchor="middle" {{ font('bold') }} font-size="14" fill="#000000">{{ card.rank }}</text>
LETTER
</svg>
"""
LETTER = ('<text x="20" y="16" text-anchor="middle" {{ font(\'bold\') }} font-size="7" '
          'fill="{{ fill }}">{{ card.suit[0] | upper }}</text>')

TOKENS = manifest_head("Tokens") + """\
data:
  players:
    file: players.yaml
    label: 'player "{{ name }}"'
    fields:
      name: text
      fill: colour
decks:
  tokens:
    title: Bank tokens
    size: 18 mm
    shape: round
    front: token.svg.j2
    back: none
    file: tokens.yaml
    label: '{{ kind }} token'
    fields:
      kind: {type: choice, of: [cbdebt]}
  debt_tokens:
    title: Debt tokens
    size: 18 mm
    shape: round
    front: token.svg.j2
    back: none
    each:
      - {kind: "'debt'", owner: players}
    label: '{{ owner.name }} debt token'
"""
# Banking's colours: Central Bank Debt #222222, the Blue player's Debt #1e5aa8.
TOKEN = """\
{% set fill = card.owner.fill if card.kind == "debt" else "#222222" %}
<svg xmlns="http://www.w3.org/2000/svg" width="18mm" height="18mm" viewBox="0 0 18 18">
<circle cx="9" cy="9" r="8.5" fill="{{ fill }}"/>
</svg>
"""


def write(root: Path, name: str, files: dict[str, str]) -> None:
    for path, text in files.items():
        folder = root / ("content" if not path.endswith(".j2") else "templates") / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")


def warnings(run, root: Path, game: str, *options: str) -> list[dict]:
    result = run("check", "--root", str(root), "--game", game, "--format", "json", *options)
    assert result.code == 0, result.err
    return [f for f in json.loads(result.out)["findings"] if f["rule"] == "play-colour-only"]


def test_suits_told_apart_only_by_red_and_green_are_found_and_a_letter_clears_it(tmp_path,
                                                                              run):
    write(tmp_path, "suits", {"game.yaml": GAME, "cards.yaml": CARDS,
                              "front.svg.j2": FRONT.replace("LETTER", "")})
    found = warnings(run, tmp_path, "suits")
    assert len(found) == 1, found
    # Kept in the cache, the answer is the one a check without it gives.
    assert warnings(run, tmp_path, "suits") == found == warnings(run, tmp_path, "suits",
                                                                  "--no-cache")
    finding = found[0]
    assert finding["field"] == "suit" and finding["file"].endswith("content/suits/cards.yaml")
    assert "deuteranopia" in finding["message"] and "protanopia" in finding["message"]
    assert "red" in finding["message"] and "green" in finding["message"]
    assert "add a letter or symbol per suit" in finding["hint"]

    (tmp_path / "templates" / "suits" / "front.svg.j2").write_text(
        FRONT.replace("LETTER", LETTER), encoding="utf-8")
    assert warnings(run, tmp_path, "suits") == []


def test_banking_debt_colours_on_plain_tokens_look_alike_in_greyscale(tmp_path, run):
    write(tmp_path, "tokens", {
        "game.yaml": TOKENS, "tokens.yaml": "- {kind: cbdebt}\n",
        "players.yaml": '- {name: Blue, fill: "#1e5aa8"}\n', "token.svg.j2": TOKEN})
    found = warnings(run, tmp_path, "tokens")
    assert len(found) == 1, found
    assert found[0]["field"] == "kind"
    assert "cbdebt token" in found[0]["message"] and "Blue debt token" in found[0]["message"]
    assert "greyscale" in found[0]["message"]


def test_greyscale_keeps_lightness_and_a_dichromacy_loses_red_and_green():
    red_green = np.array([[[207, 58, 48], [74, 154, 58]]], dtype=np.uint8)
    normal = vision.difference(*vision.seen(red_green, vision.NORMAL)[0])
    deutan = vision.difference(*vision.seen(red_green, "deuteranopia")[0])
    assert normal > 30 and deutan < 10
    grey = vision.simulate(red_green / 255.0, vision.GREYSCALE)
    assert np.allclose(grey[..., 0], grey[..., 1]) and np.allclose(grey[..., 1], grey[..., 2])
    black_white = np.array([[[0, 0, 0], [255, 255, 255]]], dtype=np.uint8)
    assert vision.difference(*vision.seen(black_white, "tritanopia")[0]) > 80


def test_proof_shows_the_gallery_and_its_pngs_as_a_deuteranope_sees_them(tmp_path, run):
    from PIL import Image

    write(tmp_path, "suits", {"game.yaml": GAME, "cards.yaml": CARDS,
                              "front.svg.j2": FRONT.replace("LETTER", "")})
    out = tmp_path / "out"
    result = run("proof", "--root", str(tmp_path), "--game", "suits", "--simulate",
                 "deuteranopia", "--card", "1 red", "--png", "--dpi", "40", "--out", str(out))
    assert result.code == 0, result.err
    folder = out / "suits" / "proof"
    page = (folder / "card-deuteranopia.html").read_text(encoding="utf-8")
    assert 'filter: url(#pnp-simulate)' in page and "<feColorMatrix" in page
    assert not (folder / "card.html").exists()
    matrix = [float(v) for v in page.split('values="')[1].split('"')[0].split()]
    assert np.allclose(np.array(matrix).reshape(4, 5)[:3, :3],
                       vision.linear_matrix("deuteranopia"), atol=1e-5)
    [png] = (folder / "png").glob("*deuteranopia.png")
    corner = np.asarray(Image.open(png).convert("RGB"))[2, 2]  # the red border
    expected = vision.simulate(np.array([0xcf, 0x3a, 0x30]) / 255.0, "deuteranopia") * 255
    assert np.allclose(corner, expected, atol=3), (corner, expected)
    assert abs(int(corner[0]) - int(corner[1])) < 40  # no longer red: an olive
