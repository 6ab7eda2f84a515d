"""Exports read back: Tabletop Simulator deck sheets (PNG and saved-object JSON) and print-shop
PNG faces, checked with Pillow and json, not with the code that wrote them."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

from PIL import Image


def test_tts_deck_of_events_is_a_grid_tts_accepts(project, run):
    result = run("export", "--to", "tts", "--sheets", "events")
    assert result.code == 0, result.err
    folder = project / "output" / "downturn" / "tts"
    document = json.loads((folder / "events.json").read_text(encoding="utf-8"))
    deck = document["ObjectStates"][0]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "Event cards"
    assert len(deck["ContainedObjects"]) == 42
    assert deck["DeckIDs"] == [100 + i for i in range(42)]
    assert [c["CardID"] for c in deck["ContainedObjects"]] == deck["DeckIDs"]
    assert 'Credit Swap' in deck["ContainedObjects"][15]["Nickname"]
    sheet = deck["CustomDeck"]["1"]
    cols, rows = sheet["NumWidth"], sheet["NumHeight"]
    assert 2 <= cols <= 10 and 2 <= rows <= 7 and cols * rows - 1 >= 42
    face_path = Path(unquote(urlparse(sheet["FaceURL"]).path))
    back_path = Path(unquote(urlparse(sheet["BackURL"]).path))
    assert face_path.parent == folder.resolve() and back_path.parent == folder.resolve()
    image = Image.open(face_path).convert("RGB")
    assert image.width <= 4096 and image.height <= 4096
    assert image.width % cols == 0 and image.height % rows == 0
    w, h = image.width // cols, image.height // rows
    assert abs(w / h - 63 / 88) < 0.01  # the faces keep the card's proportions
    back = Image.open(back_path)
    assert back.size == (w, h)

    def blank(cell: int) -> bool:
        x, y = (cell % cols) * w, (cell // cols) * h
        return image.crop((x, y, x + w, y + h)).getextrema() == ((255, 255), (255, 255),
                                                                  (255, 255))

    assert not any(blank(i) for i in range(42))  # 42 faces, then nothing
    assert all(blank(i) for i in range(42, cols * rows))


def test_a_deck_larger_than_a_sheet_takes_two(project, run):
    result = run("export", "--to", "tts", "--sheets", "shares")
    assert result.code == 0, result.err
    deck = json.loads((project / "output" / "downturn" / "tts" / "shares.json").read_text(
        encoding="utf-8"))["ObjectStates"][0]
    assert sorted(deck["CustomDeck"]) == ["1", "2"]
    assert len(deck["ContainedObjects"]) == 80
    assert deck["DeckIDs"][68:70] == [168, 200]  # 69 on the first sheet, TTS's last cell kept


def test_print_shop_faces_are_825_by_1125_pixels_back_first(project, run):
    result = run("export", "--to", "shop", "--shop", "thegamecrafter", "--sheets", "events")
    assert result.code == 0, result.err
    written = [Path(line.split()[-1]).name for line in result.out.splitlines()
               if line.startswith("wrote")]
    assert written[:4] == ["events-001-back.png", "events-001-front.png",
                           "events-002-back.png", "events-002-front.png"]
    assert len(written) == 84
    folder = project / "output" / "downturn" / "shop-thegamecrafter"
    for name in written[:6]:
        assert Image.open(folder / name).size == (825, 1125)
    back = Image.open(folder / "events-001-back.png").convert("RGB")
    # The back's field runs into the bleed: the corner pixel is the card's navy, not white.
    assert back.getpixel((2, 2)) == back.getpixel((412, 200)) != (255, 255, 255)
