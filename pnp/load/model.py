"""Model: a game folder in (its manifest, data files); a `Game` of validated records out.

`load_game` is the sequence of steps: the manifest read and checked (pnp.load.manifest), the
tables and deck files declared, read and validated (pnp.load.tables), references, budgets
and art checked (pnp.load.values), decks arranged and generated (pnp.load.decks), then the
sheets' sizes and the fonts. Nothing here knows any particular game. Every problem is a
finding.
"""

from __future__ import annotations

import copy

import dataclasses
from pathlib import Path
from typing import Any, Callable

from ..fonts import BUNDLED
from ..findings import NOWHERE, Findings
from .content import load_document
from .decks import arrange, generate, reads_any
from .icons import read_icons
from .languages import Translator, edition_problem
from .limits import DEFAULT_ITEMS
from .manifest import (BoardSpec, DeckSpec, Manifest, PageSpec, RecordType, TableSpec,
                       read_size)
from .own_fonts import check_icon_letters, read_fonts
from .schema import INVALID, suggest, validate_entries
from .tables import GAME_FILE, ErrorsAdded, Loader, check_names, declare
from .values import check_values, keys_of
from ..units import Size

MAX_ITEMS = DEFAULT_ITEMS  # the default; each deck asks max_items() (pnp.load.limits)



@dataclasses.dataclass(frozen=True)
class Component:
    """A deck, board or page the manifest declares, checked: its kind, its size (None for a
    page, which takes the paper's) and its data (a deck's items, a board's or page's table).
    The pipeline makes the printable sheets from these (pnp.compose)."""

    kind: str  # "deck", "board" or "page"
    name: str
    size: Size | None
    data: Any = None


class Withheld(Exception):
    """Raised when a rule reads a table or deck of a game that is only partly valid, and the
    part it reads is one of those with an error (pnp.load.model.Game.withheld): a finding of
    that rule would be about the gap, not the data, so the rule is left out."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


class Game:
    """A game's validated data: `info` (the manifest), each table and deck by name, and its
    sheets as components (no drawing: pnp.compose makes the printable sheets from them).
    Attribute access reads the parts, so rules and templates write `game.events`.

    A game with errors that still has valid tables and decks is `complete=False`: it is not
    drawn, but its rules run on it; reading a part of `withheld` (a table or deck that failed
    validation, lost items to errors, or holds a broken reference) raises `Withheld`."""

    def __init__(self, info: Manifest, folder: Path):
        self.info = info
        self.folder = folder
        self.complete = True
        self.withheld: frozenset[str] = frozenset()
        self.parts: dict[str, Any] = {}
        self.sheets: dict[str, Component] = {}
        self.icons: dict[str, dict] = {}  # what `{name}` draws (pnp.load.icons)
        self.language = ""  # the edition's language when it is not the data's own
        self.fonts = BUNDLED  # with the game's own fonts once they are read (pnp.load.own_fonts)

    def __getattr__(self, name: str) -> Any:
        parts = self.__dict__.get("parts", {})
        if name in self.__dict__.get("withheld", ()):
            raise Withheld(name)
        if name in parts:
            return parts[name]
        raise AttributeError(name)

    def drawable(self) -> "Game | None":
        """A partly valid game as far as it can be drawn: every part with its valid items and
        none withheld, so the faces of the items without errors are checked in the same run
        as the errors (text fit, emphasis, fonts); None when a part could not be read at all.
        Only checked, never printed: its decks may lack the items with errors."""
        if self.complete:
            return self
        if any(value is INVALID for value in self.parts.values()):
            return None
        view = copy.copy(self)
        view.complete, view.withheld = True, frozenset()
        view.sheets = {name: sheet for name, sheet in dict.items(self.sheets)
                       if sheet.kind != "deck" or sheet.data}  # a deck left with no items
        return view

    def names(self) -> dict[str, Any]:
        """The names expressions see: `game`, `info` and every table and deck."""
        return {"game": self, "info": self.info, **self.parts}


InTurn = Callable[[list[Callable[[], Any]]], list]  # tasks in, their results out, in order
# Data files are read and validated by `run` (several processes) only when they hold at least
# this much in all: for less, starting processes costs more than it saves.
SHARED_DATA_BYTES = 1_000_000


def load_game(folder: Path, shown: Callable[[Path], str], findings: Findings,
              lang: str = "", partial: bool = False, run: InTurn | None = None,
              lenient: bool = False) -> Game | None:
    """Read, validate and model one game folder, in the edition of language `lang` (default:
    the language its data is written in); None when it cannot be modelled. With `partial`, a
    game whose manifest is valid but whose data has errors is returned with `complete` False
    and the parts with errors `withheld`, for its rules to run on what is valid. Two or more
    large data files are read and validated by `run` (several processes, one each), when it
    is given; the result is the same. An unknown key in the manifest is an error (it would
    change what prints), or with `lenient` a warning."""
    loader = Loader(folder, shown, findings)
    manifest = _read_manifest(folder, shown, lang, findings, lenient)
    if manifest is None:
        return None
    info, left_out = manifest
    # Only the errors of the entries left out let the game be read on (and then only checked).
    known_errors = sum(left_out.values())
    game = Game(info, folder)
    translator = None
    if lang and lang != info.languages[0]:
        game.language = lang
        translator = Translator(info, lang, findings, loader.document, folder)
    game.icons = read_icons(info.icons, folder, findings)
    check_names(info, findings)
    if len(findings.errors) > known_errors:
        return None
    types, undeclared = declare(info, loader, left_out, findings)
    # An error in one item or one file never hides what the others hold: every valid item's
    # budgets, art, counts and references are checked, and a part with an error is withheld
    # from the rules (a finding about it would be about the gap, not the data).
    withheld: set[str] = set(undeclared)
    _read_tables(game, types, undeclared, loader, translator, run, withheld)
    keys = keys_of(info, game.parts, types, findings, loader.dropped, loader.damaged)
    _check_tables(game, types, keys, findings, withheld)
    _make_decks(game, types, undeclared, loader, withheld)
    # The sheets' sizes and the fonts are checked whatever the data holds, so their
    # findings show beside the data's.
    _read_components(game, findings)
    game.fonts = read_fonts(info, folder, findings)
    check_icon_letters(info, game.fonts, findings)
    # A text over its budget or a list of the wrong length is the item's own problem: the
    # game is still modelled, drawn and checked by its rules, so every other finding shows.
    if not _blocking(findings):
        return game
    if not partial:
        return None
    game.complete = False
    game.withheld = frozenset(withheld)
    game.sheets = _Withholding(game.sheets, {
        name for name, sheet in game.sheets.items()
        if name in withheld or _data_name(info, name) in withheld})
    return game


def _read_manifest(folder: Path, shown: Callable[[Path], str], lang: str, findings: Findings,
                   lenient: bool = False) -> tuple[Manifest, dict[str, int]] | None:
    """The game's manifest and the entries left out of it (each with its number of errors);
    None when it cannot be read, or has no edition in `lang`."""
    game_file = folder / GAME_FILE
    # One table's, deck's, board's or page's spec with an error is left out of the manifest
    # (the game is then only checked, never drawn); the others are read as ever.
    info, left_out = validate_entries(load_document(game_file, shown(game_file), findings),
                                      Manifest, "", findings,
                                      (TableSpec, DeckSpec, BoardSpec, PageSpec),
                                      unknown_keys_fail=not lenient)
    if info is INVALID or edition_problem(info, lang, findings):
        return None
    return info, left_out


def _read_tables(game: Game, types: dict[str, RecordType], undeclared: set[str],
                 loader: Loader, translator: Translator | None, run: InTurn | None,
                 withheld: set[str]) -> None:
    """Each declared table's and deck file's records into `game.parts` (translated into the
    game's edition), INVALID for those whose declaration has an error; a part whose reading
    gave errors is added to `withheld`."""
    info, findings = game.info, loader.findings
    for name in undeclared - set(types):
        game.parts[name] = INVALID
    files = [(name, table, table.shape) for name, table in info.data.items() if name in types] \
        + [(name, deck, "list") for name, deck in info.decks.items()
           if deck.file and name in types]
    for (name, owner, _), (value, errors) in zip(files, _read_records(loader, files, types,
                                                                      run)):
        game.parts[name] = value
        if translator:
            added = ErrorsAdded(findings)
            game.parts[name] = translator.translate(value, owner.file, owner.where.of("file"),
                                                    types[name], owner.key, loader.shown)
            errors += added.count()
        if errors:
            withheld.add(name)


def _check_tables(game: Game, types: dict[str, RecordType], keys: dict[str, set | None],
                  findings: Findings, withheld: set[str]) -> None:
    """Check each valid part's values (pnp.load.values); one holding a broken reference is
    added to `withheld`."""
    for name, record in types.items():
        if game.parts[name] is INVALID:
            continue
        before = len(findings)
        check_values(game.parts[name], record, keys, game.folder, findings)
        if any(f.rule == "ref-unknown" for f in findings.items[before:]):
            withheld.add(name)


def _make_decks(game: Game, types: dict[str, RecordType], undeclared: set[str],
                loader: Loader, withheld: set[str]) -> None:
    """Arrange each deck file's items and generate each `each` deck's (pnp.load.decks), in
    the manifest's order; a deck made from withheld data is left unmade, and one whose
    making gave errors is added to `withheld`."""
    findings = loader.findings
    for name, deck in game.info.decks.items():
        added = ErrorsAdded(findings)
        if name in undeclared and name not in types:
            continue
        if deck.file:
            if game.parts[name] is not INVALID:
                game.parts[name] = arrange(game.parts[name], deck, types[name], findings,
                                           loader.game_shown)
        elif withheld and reads_any(deck, withheld | {"game"}):
            withheld.add(name)  # made from data with errors: left unmade
            game.parts[name] = INVALID
        else:
            game.parts[name] = generate(deck, name, game.names(), findings, loader)
        if added:  # its copies or items are not what was meant
            withheld.add(name)


class _Withholding(dict):
    """A partly valid game's sheets: one made from a table or deck with errors is there,
    but reading it raises Withheld (a rule's finding about it would be about the gap)."""

    def __init__(self, sheets: dict, withheld: set[str]):
        super().__init__(sheets)
        self.withheld = withheld

    def __getitem__(self, name):
        if name in self.withheld:
            raise Withheld(name)
        return super().__getitem__(name)

    def get(self, name, default=None):
        return self[name] if name in self else default

    def values(self):
        return [self[name] for name in self]

    def items(self):
        return [(name, self[name]) for name in self]


def _data_name(info: Manifest, sheet: str) -> str:
    """The table or deck a board or page is drawn from ('' for none)."""
    spec = info.boards.get(sheet) or info.pages.get(sheet)
    return getattr(spec, "data", "") or ""


def _read_records(loader: Loader, files: list, types: dict[str, RecordType],
                  run: InTurn | None) -> list[tuple[Any, int]]:
    """The records of each (name, table or deck, shape) in `files` and the number of errors
    reading them gave, read and validated here one after another, or by `run` when there
    are two or more and they are large. Each is read by a loader of its own,
    whose findings, dropped items and damaged files are then this one's, in the order of
    `files`."""
    def taken(into: Loader, value: Any) -> tuple:
        return (value, len(into.findings.errors)), into.findings, into.dropped, into.damaged

    def read(name: str, owner, shape: str) -> tuple:
        into = Loader(loader.folder, loader.shown, Findings())
        return taken(into, into.records(owner.file, owner.where.of("file"), types[name],
                                        shape, name, owner.sheet, owner.where.of("sheet")))

    if run is None or len(files) < 2 or sum(_size(loader.folder / owner.file)
                                            for _, owner, _ in files) < SHARED_DATA_BYTES:
        read_now = [read(*file) for file in files]
    else:
        read_now = run([lambda file=file: read(*file) for file in files])
    results = []
    for result, found_here, dropped, damaged in read_now:
        loader.findings.extend(found_here)
        loader.dropped.update(dropped)
        loader.damaged.update(damaged)
        results.append(result)
    return results


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except (OSError, ValueError):
        return 0  # read, and reported, as any other


NOT_BLOCKING = {"text-budget", "field-items"}


def _blocking(findings: Findings) -> bool:
    """Whether an error keeps the game from being modelled (not only a value's own)."""
    return any(f.rule not in NOT_BLOCKING for f in findings.errors)


def _read_components(game: Game, findings: Findings) -> None:
    info = game.info
    for name, deck in info.decks.items():
        size = read_size(deck.size, deck.where.of("size"), findings, f"decks.{name}.size")
        if size is not None:
            game.sheets[name] = Component("deck", name, size, game.parts[name])
    for name, board in info.boards.items():
        size = read_size(board.size, board.where.of("size"), findings, f"boards.{name}.size")
        item = _data_for(board, name, game, findings)
        if size is not None and item is not INVALID:
            game.sheets[name] = Component("board", name, size, item)
    for name, page in info.pages.items():
        item = _data_for(page, name, game, findings)
        if item is not INVALID:
            game.sheets[name] = Component("page", name, None, item)


def _data_for(spec: BoardSpec | PageSpec, name: str, game: Game, findings: Findings) -> Any:
    if not spec.data:
        return None
    if spec.data not in game.parts:
        findings.error("manifest-ref", spec.where.of("data"), f"'{spec.data}' is not a table "
                       "or deck", field=f"{name}.data",
                       hint=suggest(spec.data, game.parts) or
                       f"tables and decks: {', '.join(game.parts) or 'none'}")
        return INVALID
    return game.parts[spec.data]


__all__ = ["GAME_FILE", "Component", "Game", "load_game", "NOWHERE"]
