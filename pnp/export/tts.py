"""Tabletop Simulator: a game's checked decks in; images and saved objects (JSON) for TTS out,
each piece as the kind of object its shape makes.

- Cards (a rectangle that is not square): a custom deck (`DeckCustom`) of sheets of faces in a
  grid of at most 10 columns by 7 rows, whose last cell TTS keeps for the face shown for hidden
  cards, so a sheet holds at most 69 faces and a larger deck takes several; a deck of one card
  is a single card (`CardCustom`, its face and back one image each). A sheet stays within
  4096 px a side, which every TTS version loads. Cards are numbered deck ID * 100 + cell, as TTS
  numbers them, and every sheet has a deck ID of its own across the whole game, so no deck
  shows another's faces.
- Square and round pieces (tokens, tiles, chits): custom tiles (`Custom_Tile`, box or circle),
  one per piece, in a bag named after the deck, each drawn from one image per distinct face.
- Boards: a custom board (`Custom_Board`) each, its face one image of the board's proportions.
- Sizes are real: a TTS card at scale 1 is a poker card, 2.5 x 3.5 in, and a card of another
  shape (Boomtown's 63 x 29 mm bills, a tarot aid) is scaled on each axis to its own width
  and height, so its face keeps its proportions; a custom tile at scale 1 is about 1.32 in tall
  (measured against boards of known size: CARD_MM_AT_SCALE_1, TILE_MM_AT_SCALE_1). A deck
  without backs gets a plain back of its own.
- Images are named relative to the saved object (the JSON beside them), or under `--base-url`
  for images uploaded to a host (then anyone loading the save sees them); never by a path of
  this computer.

Each deck is written as a saved object (`<deck>.json`, for TTS's Saves/Saved Objects folder) and
the whole game as one save (`<game>-save.json`, for Saves). Every sheet and tile image is drawn
on every core (`workers.run_tasks`), each distinct face once per image, the way a build draws
it into a PDF (pnp.pdf.raster).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import quote, urlsplit

from ..units import MM_PER_INCH, Size
from ..engine.workers import run_tasks

MAX_COLS, MAX_ROWS = 10, 7
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # TTS keeps the last cell for the hidden-card face
MAX_SIDE_PX = 4096
DPI = 150
CARD_MM_AT_SCALE_1 = 3.5 * MM_PER_INCH  # the height of a TTS card at scale 1 (a poker card)
CARD_WIDTH_MM_AT_SCALE_1 = 2.5 * MM_PER_INCH  # and its width
TILE_MM_AT_SCALE_1 = 1.318 * MM_PER_INCH  # the height of a TTS custom tile at scale 1
# A custom board at scale 1 is as long, on its longer side, as this; TTS gives it its image's
# proportions. Not measured in TTS here (unlike the card and tile figures): check a board's
# size against a card's in TTS before relying on it.
BOARD_MM_AT_SCALE_1 = 10 * MM_PER_INCH
TILE_THICKNESS = 0.1  # in TTS units (about an inch each): a thick card token
TILE_BOX, TILE_CIRCLE = 0, 2  # CustomTile.Type
CARD_ROUNDED = 0  # CustomDeck.Type: a rectangle with rounded corners
PLAIN_BACK = "#8a8f99"  # the back given to a deck that has none
SPACING_UNITS = 4  # objects laid side by side on the table, this far apart


@dataclass(frozen=True)
class Picture:
    """An image to draw: faces in a grid of `cols` x `rows` cells of `face_px` each."""

    name: str
    faces: tuple[str, ...]
    cols: int
    rows: int
    face_px: tuple[int, int]


def face_size_px(size: Size, cols: int, rows: int) -> tuple[int, int]:
    """A face's size in pixels: DPI, or less if the sheet would pass MAX_SIDE_PX."""
    scale = min(DPI / MM_PER_INCH, MAX_SIDE_PX / (cols * size.width_mm),
                MAX_SIDE_PX / (rows * size.height_mm))
    return math.floor(size.width_mm * scale), math.floor(size.height_mm * scale)


def sheet_shape(count: int) -> tuple[int, int]:
    """Columns and rows for `count` faces and TTS's hidden-card cell: at least 2 x 2."""
    cells = count + 1
    cols = min(MAX_COLS, max(2, cells))
    return cols, max(2, math.ceil(cells / cols))


def draw_picture(picture: Picture) -> bytes:
    """The picture's PNG: its faces in their cells on white, each distinct face drawn once."""
    from ..pdf.raster import grid_image
    from .png import encode_png

    return encode_png(grid_image(picture.faces, picture.cols, picture.rows, picture.face_px))


def plain_back(size: Size) -> str:
    """A back for a deck that has none: one flat colour, with a thin frame."""
    w, h = f"{size.width_mm:g}", f"{size.height_mm:g}"
    inset = min(size.width_mm, size.height_mm) * 0.06
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
            f'viewBox="0 0 {w} {h}"><rect width="{w}" height="{h}" fill="{PLAIN_BACK}"/>'
            f'<rect x="{inset:g}" y="{inset:g}" width="{size.width_mm - 2 * inset:g}" '
            f'height="{size.height_mm - 2 * inset:g}" fill="none" stroke="#ffffff" '
            f'stroke-width="{inset / 4:g}"/></svg>')


def is_card(deck) -> bool:
    """Cards are rectangles that are not square; squares and rounds are tiles and tokens."""
    return deck.shape != "round" and abs(deck.size.width_mm - deck.size.height_mm) > 0.01


@dataclass
class GameExport:
    """One game's objects and the pictures they need, with IDs unique across its save."""

    folder: Path
    base_url: str | None
    pictures: list[Picture] = field(default_factory=list)
    objects: dict[str, dict] = field(default_factory=dict)  # deck name -> its object
    next_deck_id: int = 1
    next_guid: int = 1

    def url(self, name: str) -> str:
        if self.base_url:
            return _folder_address(self.base_url) + quote(name)
        return name  # relative to the saved object, which lies beside the images

    def guid(self) -> str:
        self.next_guid += 1
        return f"{self.next_guid - 1:06x}"

    def picture(self, name: str, faces: list[str], size: Size, grid: tuple[int, int] | None
                ) -> str:
        cols, rows = grid or (1, 1)
        px = face_size_px(size, cols, rows)
        self.pictures.append(Picture(name, tuple(faces), cols, rows, px))
        return self.url(name)


def _folder_address(base_url: str) -> str:
    """`--base-url` as the address of a folder, ending in `/`: what follows its host is
    percent-encoded as a path (a space, `?` or `#` in it would otherwise end the path of
    every image's address), escapes already in it kept."""
    parts = urlsplit(base_url)
    path = base_url[len(f"{parts.scheme}://{parts.netloc}"):]
    return (f"{parts.scheme}://{parts.netloc}"
            + quote(path, safe="/%!$&'()*+,;=:@~").rstrip("/") + "/")


def _transform(scale: float | tuple[float, float], x: float = 0, face_down: bool = True
               ) -> dict:
    """Where an object lies, face down or up, and its scale: one for both sides, or (across,
    along) for an object whose proportions differ from its kind's at scale 1."""
    across, along = scale if isinstance(scale, tuple) else (scale, scale)
    return {"posX": x, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180,
            "rotZ": 180 if face_down else 0, "scaleX": across, "scaleY": 1, "scaleZ": along}


def card_scale(size: Size) -> tuple[float, float]:
    """A card's scale across and along: its own width and height over a TTS card's."""
    return (round(size.width_mm / CARD_WIDTH_MM_AT_SCALE_1, 4),
            round(size.height_mm / CARD_MM_AT_SCALE_1, 4))


def add_cards(export: GameExport, deck, backs: list[str], unique_back: bool, x: float) -> dict:
    """A deck of cards as a custom deck, or a single card as a card."""
    scale = card_scale(deck.size)
    fronts = [face.svg for face in deck.fronts]
    labels = [face.label for face in deck.fronts]
    if len(fronts) == 1:
        deck_id = export.next_deck_id
        export.next_deck_id += 1
        entry = {"FaceURL": export.picture(f"{deck.name}-face.png", fronts, deck.size, None),
                 "BackURL": export.picture(f"{deck.name}-back.png", backs[:1], deck.size, None),
                 "NumWidth": 1, "NumHeight": 1, "BackIsHidden": True, "UniqueBack": False,
                 "Type": CARD_ROUNDED}
        return {"GUID": export.guid(), "Name": "CardCustom", "Nickname": labels[0],
                "Description": deck.title, "Transform": _transform(scale, x),
                "CardID": deck_id * 100, "CustomDeck": {str(deck_id): entry},
                "SidewaysCard": False}
    custom, cards, ids = {}, [], []
    for sheet, start in enumerate(range(0, len(fronts), PER_SHEET), start=1):
        chunk = fronts[start:start + PER_SHEET]
        grid = sheet_shape(len(chunk))
        deck_id = export.next_deck_id
        export.next_deck_id += 1
        face_url = export.picture(f"{deck.name}-faces-{sheet}.png", chunk, deck.size, grid)
        if unique_back:
            back_url = export.picture(f"{deck.name}-backs-{sheet}.png",
                                      backs[start:start + PER_SHEET], deck.size, grid)
        else:
            back_url = export.url(f"{deck.name}-back.png")
        entry = {"FaceURL": face_url, "BackURL": back_url, "NumWidth": grid[0],
                 "NumHeight": grid[1], "BackIsHidden": True, "UniqueBack": unique_back,
                 "Type": CARD_ROUNDED}
        custom[str(deck_id)] = entry
        for cell in range(len(chunk)):
            card_id = deck_id * 100 + cell
            ids.append(card_id)
            cards.append({"GUID": export.guid(), "Name": "Card",
                          "Nickname": labels[start + cell], "CardID": card_id,
                          "Transform": _transform(scale), "CustomDeck": {str(deck_id): entry}})
    if not unique_back:
        export.picture(f"{deck.name}-back.png", backs[:1], deck.size, None)
    return {"GUID": export.guid(), "Name": "DeckCustom", "Nickname": deck.title,
            "Description": "", "Transform": _transform(scale, x), "DeckIDs": ids,
            "CustomDeck": custom, "ContainedObjects": cards, "HideWhenFaceDown": True,
            "SidewaysCard": False}


def add_tiles(export: GameExport, deck, backs: list[str], x: float) -> dict:
    """Square and round pieces as custom tiles (box or circle) of their real size, in a bag
    named after the deck; one image per distinct face."""
    scale = round(deck.size.height_mm / TILE_MM_AT_SCALE_1, 4)
    urls: dict[tuple[str, str], str] = {}

    def url(svg: str, side: str) -> str:
        if (side, svg) not in urls:
            number = sum(key[0] == side for key in urls) + 1
            urls[side, svg] = export.picture(f"{deck.name}-{side}-{number}.png", [svg],
                                             deck.size, None)
        return urls[side, svg]

    tiles = []
    for index, front in enumerate(deck.fronts):
        tiles.append({
            "GUID": export.guid(), "Name": "Custom_Tile", "Nickname": front.label,
            "Transform": _transform(scale, face_down=False),
            "CustomImage": {
                "ImageURL": url(front.svg, "face"),
                "ImageSecondaryURL": url(backs[index], "back"),
                "ImageScalar": 1.0, "WidthScale": 0.0,
                "CustomTile": {"Type": TILE_CIRCLE if deck.shape == "round" else TILE_BOX,
                               "Thickness": TILE_THICKNESS, "Stackable": True,
                               "Stretch": True}}})
    return {"GUID": export.guid(), "Name": "Bag", "Nickname": deck.title, "Description":
            f"{len(tiles)} x {deck.size.width_mm:g} x {deck.size.height_mm:g} mm",
            "Transform": _transform(1, x, face_down=False), "ContainedObjects": tiles}


def add_board(export: GameExport, board, x: float) -> dict:
    """A board as a custom board: its face one image, at the board's size."""
    size = board.size
    scale = round(max(size.width_mm, size.height_mm) / BOARD_MM_AT_SCALE_1, 4)
    url = export.picture(f"{board.name}-board.png", [board.face.svg], size, None)
    return {"GUID": export.guid(), "Name": "Custom_Board", "Nickname": board.title,
            "Description": f"{size.width_mm:g} x {size.height_mm:g} mm",
            "Transform": _transform(scale, x, face_down=False),
            "CustomImage": {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0,
                            "WidthScale": 0.0}}


def save_document(title: str, objects: list[dict]) -> dict:
    """A TTS save (the form of a saved object too) holding `objects`."""
    return {"SaveName": title, "GameMode": title, "Date": "", "VersionNumber": "",
            "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "",
            "LuaScriptState": "", "ObjectStates": objects, "TabStates": {}}


def plan_game(name: str, title: str, decks: list, folder: Path,
              base_url: str | None) -> GameExport:
    export = GameExport(folder, base_url)
    for number, deck in enumerate(decks):
        x = number * SPACING_UNITS
        if not hasattr(deck, "fronts"):  # a board
            if getattr(deck, "face", None) is not None:
                export.objects[deck.name] = add_board(export, deck, x)
            continue
        if deck.back is not None:
            backs = [face.svg for face in deck.backs]
        else:
            backs = [plain_back(deck.size)] * len(deck.fronts)
        if is_card(deck):
            export.objects[deck.name] = add_cards(export, deck, backs, len(set(backs)) > 1, x)
        else:
            export.objects[deck.name] = add_tiles(export, deck, backs, x)
    return export


def export_games(games: list[tuple[object, list]], out_dir: Path, base_url: str | None,
                 workers: int) -> list[tuple[Path, bytes]]:
    """Every game's images, saved objects and save, drawn on `workers` processes."""
    exports = []
    for checked, decks in games:
        title = checked.info.title if checked.info else checked.name
        exports.append((checked.name, title, plan_game(checked.name, title, decks,
                                                        out_dir / checked.name / "tts",
                                                        base_url)))
    pictures = [(export, picture) for _, _, export in exports for picture in export.pictures]
    tasks: list[Callable[[], bytes]] = [lambda p=picture: draw_picture(p)
                                        for _, picture in pictures]
    files = [(export.folder / picture.name, png)
             for (export, picture), png in zip(pictures, run_tasks(tasks, workers))]
    for name, title, export in exports:
        for deck_name, obj in export.objects.items():
            files.append((export.folder / f"{deck_name}.json",
                          _json(save_document(obj.get("Nickname", deck_name), [obj]))))
        files.append((export.folder / f"{name}-save.json",
                      _json(save_document(title, list(export.objects.values())))))
    return files


def _json(document: dict) -> bytes:
    return json.dumps(document, indent=2, ensure_ascii=False).encode("utf-8")
