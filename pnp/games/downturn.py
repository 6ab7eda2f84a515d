"""Downturn (Jack Neal, 2009, CC BY-NC 3.0 US): content files in, model and sheets out.

The dataclasses below are both the model and the schema of `content/downturn/*.yaml`. The
consistency rules live in `downturn_rules`, registered when this module is imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..schema import Where, bounded, located
from ..units import CARD_SIZES
from . import Deck, GameInfo

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
