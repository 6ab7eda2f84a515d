"""Tabletop Simulator exports read back: the JSON validated against a schema of TTS's save
format written from its documentation (tts-save.schema.json), the images with Pillow, and what
a schema cannot say (deck IDs unique across a save, sizes from millimetres) checked here."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import unquote, urlsplit

import jsonschema
import pytest
from PIL import Image

from conftest import REPO
from pnp.export.tts import plan_game
from pnp.units import Size

SCHEMA = json.loads((Path(__file__).parent / "tts-save.schema.json").read_text(encoding="utf-8"))
GAMES = REPO / "tests" / "data" / "games"
MM_PER_INCH = 25.4
CARD_HEIGHT_AT_SCALE_1_MM = 3.5 * MM_PER_INCH  # TTS: a card at scale 1 is a poker card
CARD_WIDTH_AT_SCALE_1_MM = 2.5 * MM_PER_INCH
TILE_HEIGHT_AT_SCALE_1_MM = 1.318 * MM_PER_INCH  # TTS: a custom tile at scale 1


def objects_in(document: dict):
    """Every object of a save, those inside decks and bags too."""
    stack = list(document["ObjectStates"])
    while stack:
        obj = stack.pop()
        yield obj
        stack.extend(obj.get("ContainedObjects", []))


def check_save(folder: Path, save: str, sizes_mm: dict[str, tuple[float, float]]) -> dict:
    """Validate a game's save and every saved object beside it; return the save's objects by
    nickname. `sizes_mm`: each deck's title -> its pieces' size."""
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    for path in folder.glob("*.json"):
        jsonschema.validate(json.loads(path.read_text(encoding="utf-8")), SCHEMA)
    document = json.loads((folder / save).read_text(encoding="utf-8"))
    tops = {obj["Nickname"]: obj for obj in document["ObjectStates"]}
    # A deck ID names one sheet in the whole save: two decks never share one.
    owners: dict[str, dict] = {}
    for obj in objects_in(document):
        for deck_id, entry in obj.get("CustomDeck", {}).items():
            assert owners.setdefault(deck_id, entry) == entry, f"deck ID {deck_id} reused"
        if "CardID" in obj:
            assert str(obj["CardID"] // 100) in obj["CustomDeck"]
        for key in ("FaceURL", "BackURL"):
            for entry in obj.get("CustomDeck", {}).values():
                assert (folder / entry[key]).is_file()  # beside the save, by a relative name
        if "CustomImage" in obj:
            for key in ("ImageURL", "ImageSecondaryURL"):
                if key == "ImageURL" or obj["CustomImage"][key]:
                    assert (folder / obj["CustomImage"][key]).is_file()
    for title, obj in tops.items():
        if obj["Name"] == "Custom_Board":  # its size is checked by its own test
            continue
        # A single card is named after the card; its description is the deck's title.
        width, height = sizes_mm[obj["Description"] if obj["Name"] == "CardCustom" else title]
        if obj["Name"] == "Bag":
            for tile in obj["ContainedObjects"]:
                assert tile["Transform"]["scaleZ"] * TILE_HEIGHT_AT_SCALE_1_MM == \
                    pytest.approx(height, abs=0.01)
        else:
            # every card at its own width and height (within 1 %), not a poker card's shape
            for card in [obj, *obj.get("ContainedObjects", [])]:
                assert card["Transform"]["scaleX"] * CARD_WIDTH_AT_SCALE_1_MM == \
                    pytest.approx(width, rel=0.01)
                assert card["Transform"]["scaleZ"] * CARD_HEIGHT_AT_SCALE_1_MM == \
                    pytest.approx(height, rel=0.01)
    return tops


def test_downturn_save_has_decks_of_cards_and_bags_of_tiles_of_their_size(project, run):
    result = run("export", "--to", "tts", "--sheets", "events,banks,aids,shares,markers,cubes")
    assert result.code == 0, result.err
    folder = project / "output" / "downturn" / "tts"
    tops = check_save(folder, "downturn-save.json", {
        "Event cards": (63, 88), "Bank cards": (63, 88), "Player aids": (63, 88),
        "Personal Shares": (25.4, 25.4), "Markers": (31.75, 31.75),
        "Cube tokens and score markers": (12.7, 12.7)})
    assert {title: obj["Name"] for title, obj in tops.items()} == {
        "Event cards": "DeckCustom", "Bank cards": "DeckCustom", "Player aids": "DeckCustom",
        "Personal Shares": "Bag", "Markers": "Bag", "Cube tokens and score markers": "Bag"}
    events = tops["Event cards"]
    assert len(events["ContainedObjects"]) == 42
    assert "Credit Swap" in events["ContainedObjects"][15]["Nickname"]
    (deck_id, sheet), = events["CustomDeck"].items()
    assert events["DeckIDs"] == [int(deck_id) * 100 + i for i in range(42)]
    cols, rows = sheet["NumWidth"], sheet["NumHeight"]
    assert cols * rows - 1 >= 42
    image = Image.open(folder / sheet["FaceURL"]).convert("RGB")
    assert image.width <= 4096 and image.height <= 4096
    assert image.width % cols == 0 and image.height % rows == 0
    w, h = image.width // cols, image.height // rows
    assert abs(w / h - 63 / 88) < 0.01  # the faces keep the card's proportions
    assert Image.open(folder / sheet["BackURL"]).size == (w, h)

    def blank(cell: int) -> bool:
        x, y = (cell % cols) * w, (cell // cols) * h
        return image.crop((x, y, x + w, y + h)).getextrema() == ((255, 255),) * 3

    assert not any(blank(i) for i in range(42)) and all(blank(i) for i in range(42, cols * rows))
    shares = tops["Personal Shares"]["ContainedObjects"]
    assert len(shares) == 80 and {t["CustomImage"]["CustomTile"]["Type"] for t in shares} == {0}
    face = Image.open(folder / shares[0]["CustomImage"]["ImageURL"])
    assert face.width == face.height
    assert len(tops["Cube tokens and score markers"]["ContainedObjects"]) == 108


def test_tokens_a_single_card_and_backless_decks(tmp_path, run):
    """Debtors: 30 round tokens without backs and a player aid deck of one tarot card."""
    result = run("export", "--to", "tts", "--root", str(GAMES / "debtors"), "--out",
                 str(tmp_path))
    assert result.code == 0, result.err
    folder = tmp_path / "debtors" / "tts"
    tops = check_save(folder, "debtors-save.json", {
        "Debt cards": (63, 88), "Debt tokens": (20, 20), "Player aid": (70, 120)})
    tokens = tops["Debt tokens"]["ContainedObjects"]
    assert len(tokens) == 30
    assert {t["CustomImage"]["CustomTile"]["Type"] for t in tokens} == {2}  # circles
    # No back in the game: each token's bottom is a plain back, not its face again.
    faces = {t["CustomImage"]["ImageURL"] for t in tokens}
    backs = {t["CustomImage"]["ImageSecondaryURL"] for t in tokens}
    assert len(backs) == 1 and not backs & faces
    plain = Image.open(folder / backs.pop()).convert("RGB")
    centre = plain.getpixel((plain.width // 2, plain.height // 2))
    assert plain.getpixel((plain.width // 4, plain.height // 4)) == centre
    assert plain.getcolors(maxcolors=32) is not None  # one field and a frame: no drawing
    aid = next(obj for obj in tops.values() if obj["Name"] == "CardCustom")
    assert aid["Description"] == "Player aid" and aid["Nickname"] == 'aid "How to play"'
    (entry,) = aid["CustomDeck"].values()
    assert (entry["NumWidth"], entry["NumHeight"]) == (1, 1)
    card = Image.open(folder / entry["FaceURL"])
    assert abs(card.width / card.height - 70 / 120) < 0.01
    assert aid["Transform"]["scaleZ"] * CARD_HEIGHT_AT_SCALE_1_MM == pytest.approx(120, rel=0.01)
    assert aid["Transform"]["scaleX"] * CARD_WIDTH_AT_SCALE_1_MM == pytest.approx(70, rel=0.01)


BOARD_LONG_SIDE_AT_SCALE_1_MM = 10 * MM_PER_INCH  # TTS: a custom board at scale 1


def flat_face(size: Size, colour: str) -> str:
    w, h = f"{size.width_mm:g}", f"{size.height_mm:g}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
            f'viewBox="0 0 {w} {h}"><rect width="{w}" height="{h}" fill="{colour}"/></svg>')


def test_bills_a_tarot_deck_and_a_board_are_their_own_size_in_the_save(tmp_path):
    """Boomtown's 63 x 29 mm bills, a tarot deck and a 300 x 200 mm board, written as a save
    and read back: each object's size within 1 % of the piece."""
    from pnp.export.tts import export_games

    def deck(name: str, title: str, size: Size, count: int) -> SimpleNamespace:
        faces = [SimpleNamespace(svg=flat_face(size, f"#{40 + i:02x}6090"), label=f"{name} {i}")
                 for i in range(count)]
        return SimpleNamespace(name=name, title=title, size=size, shape="rect",
                               back="back.svg.j2", fronts=faces,
                               backs=[SimpleNamespace(svg=flat_face(size, "#222222"), label="")]
                               * count)

    bills, tarot = deck("money", "Play money", Size(63, 29), 3), \
        deck("aids", "Tarot aids", Size(70, 120), 2)
    board = SimpleNamespace(name="board", title="Game board", size=Size(300, 200),
                            face=SimpleNamespace(svg=flat_face(Size(300, 200), "#3a7d44")))
    checked = SimpleNamespace(name="g", info=SimpleNamespace(title="G"))
    files = export_games([(checked, [bills, tarot, board])], tmp_path, None, 1)
    for path, data in files:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    folder = tmp_path / "g" / "tts"
    tops = check_save(folder, "g-save.json", {"Play money": (63, 29), "Tarot aids": (70, 120)})
    assert tops["Play money"]["SidewaysCard"] is False
    for title, (width, height) in {"Play money": (63, 29), "Tarot aids": (70, 120)}.items():
        (entry, *_) = tops[title]["CustomDeck"].values()
        sheet = Image.open(folder / entry["FaceURL"])
        cell = (sheet.width / entry["NumWidth"], sheet.height / entry["NumHeight"])
        assert cell[0] / cell[1] == pytest.approx(width / height, rel=0.01)  # its own shape
    board = tops["Game board"]
    assert board["Name"] == "Custom_Board"
    image = Image.open(folder / board["CustomImage"]["ImageURL"])
    assert image.width / image.height == pytest.approx(300 / 200, rel=0.01)
    assert board["Transform"]["scaleX"] == board["Transform"]["scaleZ"]
    assert board["Transform"]["scaleX"] * BOARD_LONG_SIDE_AT_SCALE_1_MM == \
        pytest.approx(300, rel=0.01)


def test_base_url_names_every_image_under_it(tmp_path, run):
    base = "https://example.org/games/debtors/"
    result = run("export", "--to", "tts", "--root", str(GAMES / "debtors"), "--out",
                 str(tmp_path), "--base-url", base)
    assert result.code == 0, result.err
    document = json.loads((tmp_path / "debtors" / "tts" / "debtors-save.json").read_text(
        encoding="utf-8"))
    jsonschema.validate(document, SCHEMA)
    urls = [entry[key] for obj in objects_in(document)
            for entry in obj.get("CustomDeck", {}).values() for key in ("FaceURL", "BackURL")]
    urls += [obj["CustomImage"][key] for obj in objects_in(document) if "CustomImage" in obj
             for key in ("ImageURL", "ImageSecondaryURL")]
    assert urls and all(url.startswith(base) for url in urls)
    assert all((tmp_path / "debtors" / "tts" / url[len(base):]).is_file() for url in urls)


def test_base_url_is_percent_encoded_as_a_folder(tmp_path, run):
    """A space, `?` or `#` in --base-url would end every image address's path early."""
    result = run("export", "--to", "tts", "--root", str(GAMES / "ledger"), "--out",
                 str(tmp_path), "--base-url", "https://example.org/my games?/#1", "-j", "1")
    assert result.code == 0, result.err
    document = json.loads((tmp_path / "ledger" / "tts" / "ledger-save.json").read_text(
        encoding="utf-8"))
    urls = [entry[key] for obj in objects_in(document)
            for entry in obj.get("CustomDeck", {}).values() for key in ("FaceURL", "BackURL")]
    assert urls
    for url in urls:
        assert url.startswith("https://example.org/my%20games%3F/%231/")
        parts = urlsplit(url)
        assert not parts.query and not parts.fragment
        assert (tmp_path / "ledger" / "tts" / unquote(parts.path.split("/")[-1])).is_file()


@pytest.mark.parametrize("options", [["--to", "tts", "--shop", "nosuch"],
                                     ["--to", "tts", "--shop", "thegamecrafter"],
                                     ["--to", "shop", "--base-url", "https://example.org/"]])
def test_an_option_the_export_does_not_use_is_a_usage_error(tmp_path, run, options):
    result = run("export", "--root", str(GAMES / "ledger"), "--out", str(tmp_path), *options)
    assert result.code == 2, result.err
    assert result.err.startswith(f"pnp: error: {options[2]} ") and " is for --to " in result.err
    assert not (tmp_path / "ledger").exists()


@pytest.mark.parametrize("folder", ["content", "templates/ledger/out"])
def test_out_among_the_games_own_files_is_a_usage_error(tmp_path, run, folder):
    project = tmp_path / "ledger"
    shutil.copytree(GAMES / "ledger", project)
    result = run("export", "--root", str(project), "--out", str(project / folder))
    assert result.code == 2, result.err
    assert "is inside the project's " in result.err and "among the game's own files" in result.err
    assert sorted(p.name for p in (project / "content").iterdir()) == ["ledger"]


def test_the_schema_refuses_what_tts_cannot_load():
    """The schema can fail: an absolute path, a sheet wider than 10 cells, a tile shape TTS
    does not have."""
    card = {"Name": "CardCustom", "Nickname": "x", "CardID": 100, "Transform": {
        k: 1 for k in ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY",
                       "scaleZ")},
        "CustomDeck": {"1": {"FaceURL": "a.png", "BackURL": "b.png", "NumWidth": 1,
                             "NumHeight": 1, "BackIsHidden": True, "UniqueBack": False,
                             "Type": 0}}}
    save = {"SaveName": "x", "ObjectStates": [card]}
    jsonschema.validate(save, SCHEMA)
    for path, value in [(("FaceURL",), "file:///home/a/a.png"), (("BackURL",), "/home/a/b.png"),
                        (("NumWidth",), 11)]:
        broken = json.loads(json.dumps(save))
        broken["ObjectStates"][0]["CustomDeck"]["1"][path[0]] = value
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, SCHEMA)


def fake_deck(name: str, count: int) -> SimpleNamespace:
    """A drawn deck of `count` poker cards, as the export reads one."""
    faces = [SimpleNamespace(svg=f"<svg id='{name}{i}'/>", label=f"{name} {i}")
             for i in range(count)]
    return SimpleNamespace(name=name, title=name.title(), size=Size(63, 88), shape="rect",
                           back="back.svg.j2", fronts=faces,
                           backs=[SimpleNamespace(svg="<svg id='back'/>", label="")] * count)


def test_a_deck_larger_than_a_sheet_takes_two_with_ids_of_their_own():
    big, small = fake_deck("big", 80), fake_deck("small", 3)
    export = plan_game("g", "G", [big, small], Path("tts"), None)
    deck = export.objects["big"]
    assert len(deck["CustomDeck"]) == 2 and len(deck["ContainedObjects"]) == 80
    first, second = sorted(int(key) for key in deck["CustomDeck"])
    # 69 on the first sheet (TTS keeps its last cell), the rest on the second.
    assert deck["DeckIDs"][68:70] == [first * 100 + 68, second * 100]
    assert set(export.objects["small"]["CustomDeck"]).isdisjoint(deck["CustomDeck"])
