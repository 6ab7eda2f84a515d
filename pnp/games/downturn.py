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
    player_colours: tuple[str, ...]
    shares_per_colour: int = bounded(min=0)
    turn_order_markers: int = bounded(min=0)
    leader_markers: int = bounded(min=0)
    where: Where = located()


@dataclass(frozen=True)
class Downturn:
    info: GameInfo
    regions: tuple[Region, ...]
    board: BoardLayout
    banks: tuple[Bank, ...]
    events: tuple[Event, ...]
    tracks: Tracks
    components: Components

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
        ]


ENGINE = DownturnEngine()


from . import downturn_rules  # noqa: E402,F401  (registers the rules)
