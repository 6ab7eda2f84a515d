"""Downturn (Jack Neal, 2009, CC BY-NC 3.0 US): content files in, model and sheets out.

The dataclasses below are both the model and the schema of `content/downturn/*.yaml`. The
consistency rules live in `downturn_rules`, registered when this module is imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Literal

from ..findings import Finding
from ..rules import problem, rule
from ..schema import Where, bounded, located, suggest
from ..units import CARD_SIZES, Size
from . import Board, Deck, GameInfo

ENGINE_NAME = "downturn"
CUBE_COLOURS = ("red", "yellow", "green")


@dataclass(frozen=True)
class Cubes:
    red: int = bounded(0, min=0)
    yellow: int = bounded(0, min=0)
    green: int = bounded(0, min=0)

    @property
    def total(self) -> int:
        return self.red + self.yellow + self.green

    def as_list(self) -> list[str]:
        """One colour name per cube, red first: the order a card prints them in."""
        return ["red"] * self.red + ["yellow"] * self.yellow + ["green"] * self.green


@dataclass(frozen=True)
class Region:
    name: str
    starting_value: int = bounded(min=0)
    max: int = bounded(min=0)
    where: Where = located()

    @property
    def label(self) -> str:
        return f'region "{self.name}"'


@dataclass(frozen=True)
class RegionBlock:
    """Where one region's block sits on the board's map, in board millimetres."""

    region: str
    x_mm: float = bounded(min=0)
    y_mm: float = bounded(min=0)
    width_mm: float = bounded(min=50)
    height_mm: float = bounded(min=90)
    note: str = ""  # a line of geography printed at the block's foot
    where: Where = located()

    @property
    def label(self) -> str:
        return f'board block "{self.region}"'


@dataclass(frozen=True)
class BoardLayout:
    """`board.yaml`: the board's size, its block map of the regions, and its printed notes."""

    width_mm: float = bounded(min=200)
    height_mm: float = bounded(min=200)
    blocks: tuple[RegionBlock, ...]
    setup: str
    investment_note: str
    bond_note: str
    scoring_note: str
    where: Where = located()

    @property
    def label(self) -> str:
        return "board"

    @property
    def size(self) -> Size:
        return Size(self.width_mm, self.height_mm)


@rule("board-blocks", ENGINE_NAME, "every region has one block on the board, inside it, unshared")
def _board_blocks(model: Downturn) -> Iterator[Finding]:
    board, names = model.board, [r.name for r in model.regions]
    seen: dict[str, RegionBlock] = {}
    for block in board.blocks:
        where = block.where.of("region")
        if block.region not in names:
            yield problem("board-blocks", where, f"no region named '{block.region}'",
                          subject=block.label, hint=suggest(block.region, names) or
                          f"regions: {', '.join(names)}")
        elif block.region in seen:
            yield problem("board-blocks", where, f"region '{block.region}' has a second block",
                          subject=block.label, hint="give each region one block")
        seen.setdefault(block.region, block)
        if block.x_mm + block.width_mm > board.width_mm or \
                block.y_mm + block.height_mm > board.height_mm:
            yield problem("board-blocks", block.where.at,
                          f"block reaches ({block.x_mm + block.width_mm:g}, "
                          f"{block.y_mm + block.height_mm:g}) mm, outside the "
                          f"{board.width_mm:g} x {board.height_mm:g} mm board",
                          subject=block.label)
        for other in board.blocks[:board.blocks.index(block)]:
            if (block.x_mm < other.x_mm + other.width_mm and other.x_mm < block.x_mm +
                    block.width_mm and block.y_mm < other.y_mm + other.height_mm and
                    other.y_mm < block.y_mm + block.height_mm):
                yield problem("board-blocks", block.where.at,
                              f"block overlaps the block of '{other.region}'",
                              subject=block.label, hint="move or shrink one of them")
    for name in names:
        if name not in seen:
            yield problem("board-blocks", board.where.of("blocks"),
                          f"region '{name}' has no block on the board", subject="board",
                          hint=f"add '- {{region: {name}, x_mm: ..., y_mm: ..., ...}}'")


@dataclass(frozen=True)
class Bank:
    name: str
    home_region: str
    min_players: int = bounded(min=1)
    auction_order: int = bounded(min=1)
    dividend: int = bounded(min=0)
    max_cubes_cards: int = bounded(min=0)
    max_shares: int = bounded(min=0)
    where: Where = located()

    @property
    def label(self) -> str:
        return f'bank "{self.name}"'


TIMINGS = {"now": "Now", "rest-of-turn": "Rest of turn", "end-of-turn": "End of turn"}


@dataclass(frozen=True)
class Event:
    number: int = bounded(min=1)
    title: str
    timing: Literal["now", "rest-of-turn", "end-of-turn"]
    effect: str
    invest: Cubes
    leader: bool = False
    crash: bool = False
    region: str | None = None  # the region a regional event acts on, checked against regions
    # The effect's moves as numbers, so the rules can check them against the effect text:
    stability: int = 0  # spaces the Stability Track moves (+ up, - down)
    track: int = 0  # columns the Investment Track moves at least (+ up, - down)
    bond: int = 0  # most cubes added to (+) or removed from (-) the Bond area
    where: Where = located()

    @property
    def label(self) -> str:
        return f'event {self.number} "{self.title}"'

    @property
    def timing_label(self) -> str:
        return TIMINGS[self.timing]


@dataclass(frozen=True)
class InvestmentColumn:
    column: int = bounded(min=1)
    label: str
    green: int
    yellow: int
    red: int
    bond_green: float
    bond_yellow: float
    where: Where = located()


@dataclass(frozen=True)
class StabilityTrack:
    spaces: int = bounded(min=3)
    start: int = bounded(min=1)


@dataclass(frozen=True)
class ScoringTrack:
    min: int
    max: int
    lap: int


@dataclass(frozen=True)
class Tracks:
    investment: tuple[InvestmentColumn, ...]
    investment_start: int
    stability: StabilityTrack
    scoring: ScoringTrack
    quarters: int = bounded(4, min=1)
    bond_green_per_player: int = bounded(1, min=0)
    where: Where = located()


@dataclass(frozen=True)
class CubeSupply:
    green: int = bounded(min=0)
    yellow: int = bounded(min=0)
    red: int = bounded(min=0)
    blue: int = bounded(min=0)
    black: int = bounded(min=0)
    where: Where = located()


@dataclass(frozen=True)
class Components:
    """The physical kit: what the box holds, as counts the rules and the sheets rely on."""

    cubes: CubeSupply
    player_colours: tuple[Literal["red", "yellow", "blue", "green"], ...]  # what the kit prints
    shares_per_colour: int = bounded(min=0)
    turn_order_markers: int = bounded(min=0)
    leader_markers: int = bounded(min=0)
    where: Where = located()


def _paint(colour: str) -> dict[str, str]:
    """Fill, ink and greyscale letter of a cube or player colour (the engine's icon table)."""
    return DownturnEngine.icons[colour]


@dataclass(frozen=True)
class Piece:
    """One coloured tile made from the Components counts: a Personal Share or a cube token."""

    kind: str  # 'share' or 'cube token'
    colour: str
    number: int
    where: Where = located()

    @property
    def label(self) -> str:
        return f"{self.colour} {self.kind} {self.number}"

    @property
    def paint(self) -> dict[str, str]:
        return _paint(self.colour)


@dataclass(frozen=True)
class AidEntry:
    """One line of a reference card: a key ('1', 'A'), a short name and a paraphrase."""

    key: str
    name: str
    text: str
    where: Where = located()

    @property
    def label(self) -> str:
        return f'aid entry {self.key} "{self.name}"'


@dataclass(frozen=True)
class AidSection:
    heading: str
    entries: tuple[AidEntry, ...]
    where: Where = located()


@dataclass(frozen=True)
class AidFace:
    title: str
    sections: tuple[AidSection, ...]
    where: Where = located()


@dataclass(frozen=True)
class Aid:
    """A two-sided reference card; `per_player` prints one in each player colour."""

    title: str
    front: AidFace
    back: AidFace
    per_player: bool = False
    where: Where = located()


@dataclass(frozen=True)
class MarkerText:
    """The words on one kind of marker: its name, and a reminder printed on its back."""

    kind: Literal["turn-order", "leader", "track"]
    title: str
    text: str
    where: Where = located()

    @property
    def label(self) -> str:
        return f'marker "{self.title}"'


@dataclass(frozen=True)
class Aids:
    """`aids.yaml`: reference cards and the words on the markers."""

    aids: tuple[Aid, ...]
    markers: tuple[MarkerText, ...]
    where: Where = located()


@dataclass(frozen=True)
class AidCard:
    """One printed reference card: an aid, in a player's colour or the neutral one."""

    aid: Aid
    colour: str | None
    where: Where = located()

    @property
    def label(self) -> str:
        return f'aid "{self.aid.title}"' + (f" ({self.colour})" if self.colour else "")

    @property
    def paint(self) -> dict[str, str]:
        return _paint(self.colour) if self.colour else NEUTRAL_PAINT


NEUTRAL_PAINT = {"fill": "#1f2a44", "letter": "", "ink": "#ffffff"}


@dataclass(frozen=True)
class Marker:
    """One printed marker token: turn order 1..n, the Leader, or a track marker."""

    kind: str
    title: str
    text: str
    number: int | None = None
    where: Where = located()

    @property
    def heading(self) -> str:
        return f"{self.title} {self.number}" if self.number else self.title

    @property
    def label(self) -> str:
        return f'marker "{self.heading}"'


@dataclass(frozen=True)
class Downturn:
    info: GameInfo
    regions: tuple[Region, ...]
    board: BoardLayout
    banks: tuple[Bank, ...]
    events: tuple[Event, ...]
    tracks: Tracks
    components: Components
    aids: Aids

    def region(self, name: str) -> Region | None:
        return next((r for r in self.regions if r.name == name), None)


class DownturnEngine:
    name = ENGINE_NAME
    files = {
        "regions.yaml": ("regions", tuple[Region, ...]),
        "board.yaml": ("board", BoardLayout),
        "tracks.yaml": ("tracks", Tracks),
        "banks.yaml": ("banks", tuple[Bank, ...]),
        "events.yaml": ("events", tuple[Event, ...]),
        "components.yaml": ("components", Components),
        "aids.yaml": ("aids", Aids),
    }
    # Investment cubes in card text. Each colour also carries a letter so a greyscale print
    # still tells them apart.
    icons = {
        "red": {"fill": "#c62828", "letter": "R", "ink": "#ffffff"},
        "yellow": {"fill": "#f9c800", "letter": "Y", "ink": "#000000"},
        "green": {"fill": "#2e7d32", "letter": "G", "ink": "#ffffff"},
        "blue": {"fill": "#1565c0", "letter": "B", "ink": "#ffffff"},
        "black": {"fill": "#212121", "letter": "K", "ink": "#ffffff"},
    }

    def make_model(self, info: GameInfo, parts: dict[str, Any]) -> Downturn:
        return Downturn(info=info, **parts)

    def boards(self, model: Downturn) -> list[Board]:
        return [Board("board", "Game board", model.board, model.board.size, "board.svg.j2")]

    def sheets(self, model: Downturn) -> list[Deck]:
        poker = CARD_SIZES["poker"]
        events = tuple(sorted(model.events, key=lambda e: e.number))
        banks = tuple(sorted(model.banks, key=lambda b: b.auction_order))
        return [
            Deck("events", "Event cards", events, poker, "event-front.svg.j2",
                 "event-back.svg.j2"),
            Deck("banks", "Bank cards", banks, poker, "bank-front.svg.j2", "bank-back.svg.j2"),
            Deck("shares", "Personal Shares", shares(model.components),
                 CARD_SIZES["square-inch"], "share-front.svg.j2", "share-back.svg.j2"),
            Deck("markers", "Markers", markers(model.components, model.aids),
                 CARD_SIZES["square-1.25-inch"], "marker-front.svg.j2", "marker-back.svg.j2"),
            Deck("cubes", "Cube tokens and score markers", cube_tokens(model.components),
                 CARD_SIZES["square-half-inch"], "cube-front.svg.j2", "cube-back.svg.j2"),
            Deck("aids", "Player aids", aid_cards(model.components, model.aids), poker,
                 "aid-front.svg.j2", "aid-back.svg.j2"),
        ]


def shares(components: Components) -> tuple[Piece, ...]:
    """Every player colour's Personal Shares, one colour after another."""
    where = Where(components.where.of("shares_per_colour"))
    return tuple(Piece("share", colour, n, where) for colour in components.player_colours
                 for n in range(1, components.shares_per_colour + 1))


def cube_tokens(components: Components) -> tuple[Piece, ...]:
    """A token for every cube of the supply, in the order the rules list them, then a score
    marker per player colour: the rules give each player a small cube of their colour for the
    Scoring Track, but the supply holds none in red, yellow or green."""
    cubes = components.cubes
    supply = tuple(Piece("cube token", colour, n, Where(cubes.where.of(colour)))
                   for colour in ("green", "yellow", "red", "blue", "black")
                   for n in range(1, getattr(cubes, colour) + 1))
    where = Where(components.where.of("player_colours"))
    return supply + tuple(Piece("score marker", colour, 1, where)
                          for colour in components.player_colours)


def markers(components: Components, aids: Aids) -> tuple[Marker, ...]:
    """Turn-order markers 1..n and the Leader (counts from components), then track markers."""
    copies = {"turn-order": components.turn_order_markers, "leader": components.leader_markers}
    out = []
    for text in aids.markers:
        count = copies.get(text.kind, 1)
        for n in range(1, count + 1):
            number = n if text.kind == "turn-order" else None
            out.append(Marker(text.kind, text.title, text.text, number, text.where))
    return tuple(out)


def aid_cards(components: Components, aids: Aids) -> tuple[AidCard, ...]:
    """One card per player colour for a per-player aid, one card for any other."""
    return tuple(AidCard(aid, colour, aid.where) for aid in aids.aids
                 for colour in (components.player_colours if aid.per_player else (None,)))


ENGINE = DownturnEngine()


from . import downturn_rules  # noqa: E402,F401  (registers the rules)
