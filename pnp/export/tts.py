"""Tabletop Simulator: a deck's rendered faces in; deck sheet PNGs, a back image and a saved
object (JSON) for TTS out.

TTS reads a deck from a sheet of faces in a grid of at most 10 columns by 7 rows, whose last
cell it keeps for the face shown for hidden cards, so a sheet holds at most 69 faces; larger
decks take several sheets. Each face here is rendered at the same size in pixels, and a sheet
stays within 4096 px a side, which every TTS version loads. The saved object is a deck
(`DeckCustom`) whose cards are numbered sheet * 100 + cell, as TTS numbers them; it points at
the images by `file://` URL, so TTS on this machine loads them at once (after uploading the
images to a host, replace the URLs with theirs). Copy the JSON into TTS's "Saves/Saved
Objects" folder and the deck appears under Objects > Saved Objects.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass
from pathlib import Path

from ..pdf.draw import render_png
from ..units import MM_PER_INCH, Size

MAX_COLS, MAX_ROWS = 10, 7
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # TTS keeps the last cell for the hidden-card face
MAX_SIDE_PX = 4096
DPI = 150


@dataclass(frozen=True)
class Sheet:
    png: bytes
    cols: int
    rows: int
    count: int
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


def deck_sheets(faces: list[str], size: Size) -> list[Sheet]:
    from PIL import Image

    sheets = []
    for start in range(0, len(faces), PER_SHEET):
        chunk = faces[start:start + PER_SHEET]
        cols, rows = sheet_shape(len(chunk))
        w, h = face_size_px(size, cols, rows)
        image = Image.new("RGB", (cols * w, rows * h), "white")
        cache: dict[str, Image.Image] = {}
        for i, svg in enumerate(chunk):
            if svg not in cache:
                cache[svg] = Image.open(io.BytesIO(render_png(svg, DPI, w, h))).convert("RGB")
            image.paste(cache[svg], ((i % cols) * w, (i // cols) * h))
        out = io.BytesIO()
        image.save(out, "PNG", optimize=True)
        sheets.append(Sheet(out.getvalue(), cols, rows, len(chunk), (w, h)))
    return sheets


def saved_object(title: str, labels: list[str], sheets: list[Sheet], face_urls: list[str],
                 back_urls: list[str], unique_back: bool) -> dict:
    """The saved-object JSON for one deck."""
    custom = {}
    cards = []
    ids = []
    card = 0
    for key, (sheet, face, back) in enumerate(zip(sheets, face_urls, back_urls), start=1):
        entry = {"FaceURL": face, "BackURL": back, "NumWidth": sheet.cols,
                 "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": unique_back,
                 "Type": 0}
        custom[str(key)] = entry
        for cell in range(sheet.count):
            card_id = key * 100 + cell
            ids.append(card_id)
            cards.append({"Name": "Card", "Nickname": labels[card], "CardID": card_id,
                          "Transform": _transform(), "CustomDeck": {str(key): entry}})
            card += 1
    deck = {"Name": "DeckCustom", "Nickname": title, "Description": "", "Transform":
            _transform(), "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": cards,
            "HideWhenFaceDown": True, "SidewaysCard": False}
    return {"SaveName": "", "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
            "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": [deck], "TabStates": {}, "VersionNumber": ""}


def _transform() -> dict:
    return {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 180,
            "scaleX": 1, "scaleY": 1, "scaleZ": 1}


def export_deck(deck_name: str, title: str, labels: list[str], fronts: list[str],
                backs: list[str], size: Size, folder: Path) -> list[tuple[Path, bytes]]:
    """The files for one deck: face sheets, back image (or back sheets), saved object."""
    files: list[tuple[Path, bytes]] = []
    sheets = deck_sheets(fronts, size)
    face_paths = [folder / f"{deck_name}-faces-{i}.png" for i in range(1, len(sheets) + 1)]
    files.extend(zip(face_paths, (s.png for s in sheets)))
    unique_back = len(set(backs)) > 1
    if unique_back:
        back_sheets = deck_sheets(backs, size)
        back_paths = [folder / f"{deck_name}-backs-{i}.png" for i in range(1, len(sheets) + 1)]
        files.extend(zip(back_paths, (s.png for s in back_sheets)))
    else:
        w, h = sheets[0].face_px
        back_paths = [folder / f"{deck_name}-back.png"] * len(sheets)
        files.append((back_paths[0], render_png(backs[0], DPI, w, h)))
    urls = [p.resolve().as_uri() for p in face_paths]
    back_urls = [p.resolve().as_uri() for p in back_paths]
    document = saved_object(title, labels, sheets, urls, back_urls, unique_back)
    files.append((folder / f"{deck_name}.json",
                  json.dumps(document, indent=2, ensure_ascii=False).encode("utf-8")))
    return files
