"""A game's components: a loaded Game in; its printable sheets (decks, their tuck boxes,
boards, pages), by name in the manifest's order, out. New values: the game is not changed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .board import Board
from .component import Sheet
from .cover import KitPart
from .deck import Deck
from .page import Page
from .tuckbox import TuckBox


def make_sheets(game: Any) -> dict[str, Sheet]:
    """A loaded game's decks, boards and pages (its components) as printable sheets, by name,
    in the manifest's order. New values: the game is not changed."""
    info, sheets = game.info, {}
    for component in game.sheets.values():
        name = component.name
        if component.kind == "deck":
            deck = info.decks[name]
            back = None if deck.back.strip().lower() == "none" else deck.back
            sheets[name] = Deck(name, deck.title, component.data, component.size, deck.front,
                                back, deck.shape, deck.where, deck.bleed_mm, deck.safe_mm,
                                deck.stock, deck.corner_radius_mm, bleed=deck.bleed)
            if deck.tuck_box is not None:
                box = deck.tuck_box
                sheets[f"{name}_box"] = TuckBox(
                    f"{name}_box", box.title or f"{deck.title} box", sheets[name],
                    box.card_thickness_mm, box.clearance_mm, deck.where)
        elif component.kind == "board":
            board = info.boards[name]
            sheets[name] = Board(name, board.title, component.size, board.template,
                                 component.data, board.where)
        else:
            page = info.pages[name]
            sheets[name] = Page(name, page.title, page.template, page.copies, component.data,
                                page.where)
    parts = tuple(kit_part(sheet) for sheet in sheets.values())
    for name, sheet in sheets.items():
        if isinstance(sheet, Page):
            sheets[name] = replace(sheet, kit=parts)
    return sheets


def kit_part(sheet: Sheet) -> KitPart:
    if isinstance(sheet, Deck):
        return KitPart(sheet.name, sheet.title, "deck", len(sheet.items), sheet.size,
                       sheet.back is not None, sheet.bleed_mm)
    if isinstance(sheet, Board):
        return KitPart(sheet.name, sheet.title, "board", 1, sheet.size)
    # A whole page, or a deck's tuck box: one printed sheet each (a page may ask for copies).
    return KitPart(sheet.name, sheet.title, "page", getattr(sheet, "copies", 1), None)
