"""Downturn (Jack Neal, 2009, CC BY-NC 3.0 US): content files in, model and card sheets out.

The dataclasses below are both the model and the schema of `content/downturn/*.yaml`. The rules
at the bottom are the data checks a designer needs before printing: counts, unique numbers,
references between files and the bank limits the rules text relies on.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterator, Literal

from ..findings import Finding
from ..rules import problem, rule
from ..schema import Where, bounded, located, suggest
from ..units import CARD_SIZES
from . import Deck, GameInfo

ENGINE_NAME = "downturn"
EVENT_COUNT = 42
BANK_COUNT = 10
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
class Downturn:
    info: GameInfo
    regions: tuple[Region, ...]
    banks: tuple[Bank, ...]
    events: tuple[Event, ...]
    tracks: Tracks

    def region(self, name: str) -> Region | None:
        return next((r for r in self.regions if r.name == name), None)


class DownturnEngine:
    name = ENGINE_NAME
    files = {
        "regions.yaml": ("regions", tuple[Region, ...]),
        "tracks.yaml": ("tracks", Tracks),
        "banks.yaml": ("banks", tuple[Bank, ...]),
        "events.yaml": ("events", tuple[Event, ...]),
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


# -- rules ------------------------------------------------------------------------------------


def _count_rule(rule_id: str, items: tuple, expected: int, what: str, model_where) -> Iterator:
    if len(items) != expected:
        yield problem(rule_id, model_where, f"{len(items)} {what} found, the game needs exactly "
                      f"{expected}", hint=f"add or remove {what} until there are {expected}")


def _file_start(items: tuple, fallback):
    return items[0].where.at if items else fallback


@rule("event-count", ENGINE_NAME, "exactly 42 event cards")
def _event_count(model: Downturn) -> Iterator[Finding]:
    yield from _count_rule("event-count", model.events, EVENT_COUNT, "event cards",
                           _file_start(model.events, model.info.where.at))


@rule("event-numbers", ENGINE_NAME, "event numbers are 1..42, each once (final tiebreak)")
def _event_numbers(model: Downturn) -> Iterator[Finding]:
    counts = Counter(e.number for e in model.events)
    for event in model.events:
        where = event.where.of("number")
        if counts[event.number] > 1:
            yield problem("event-numbers", where, f"number {event.number} is used by "
                          f"{counts[event.number]} cards", subject=event.label, field="number",
                          hint="the final tiebreak needs every number exactly once")
        elif not 1 <= event.number <= EVENT_COUNT:
            yield problem("event-numbers", where, f"number {event.number} is outside 1..42",
                          subject=event.label, field="number")
    missing = sorted(set(range(1, EVENT_COUNT + 1)) - set(counts))
    if missing and len(model.events) == EVENT_COUNT:
        yield problem("event-numbers", _file_start(model.events, model.info.where.at),
                      f"numbers {missing} are not used by any card",
                      hint="number the cards 1..42, each once")


@rule("event-title-unique", ENGINE_NAME, "event titles are unique")
def _event_titles(model: Downturn) -> Iterator[Finding]:
    first: dict[str, Event] = {}
    for event in model.events:
        key = event.title.strip().casefold()
        if key in first:
            other = first[key].where.of("title")
            yield problem("event-title-unique", event.where.of("title"),
                          f"title '{event.title}' is already used at line {other.line}",
                          subject=event.label, field="title")
        else:
            first[key] = event


@rule("event-invest-cubes", ENGINE_NAME, "every event lists 1-3 investment cubes")
def _event_invest(model: Downturn) -> Iterator[Finding]:
    for event in model.events:
        if not 1 <= event.invest.total <= 3:
            yield problem("event-invest-cubes", event.where.of("invest"),
                          f"lists {event.invest.total} investment cubes, expected 1 to 3",
                          subject=event.label, field="invest",
                          hint="a card with no cubes is useless as an investment")


@rule("event-region-exists", ENGINE_NAME, "a regional event names a region on the board")
def _event_region(model: Downturn) -> Iterator[Finding]:
    names = [r.name for r in model.regions]
    for event in model.events:
        if event.region is not None and event.region not in names:
            yield problem("event-region-exists", event.where.of("region"),
                          f"region '{event.region}' is not in regions.yaml",
                          subject=event.label, field="region", hint=_suggest(event.region, names))


@rule("bank-count", ENGINE_NAME, "exactly 10 bank cards")
def _bank_count(model: Downturn) -> Iterator[Finding]:
    yield from _count_rule("bank-count", model.banks, BANK_COUNT, "bank cards",
                           _file_start(model.banks, model.info.where.at))


@rule("bank-auction-order", ENGINE_NAME, "auction order is a permutation of 1..10")
def _bank_auction(model: Downturn) -> Iterator[Finding]:
    counts = Counter(b.auction_order for b in model.banks)
    for bank in model.banks:
        where = bank.where.of("auction_order")
        if counts[bank.auction_order] > 1:
            yield problem("bank-auction-order", where,
                          f"auction order {bank.auction_order} is shared by "
                          f"{counts[bank.auction_order]} banks", subject=bank.label,
                          field="auction_order", hint="give each bank its own place 1..10")
        elif not 1 <= bank.auction_order <= BANK_COUNT:
            yield problem("bank-auction-order", where,
                          f"auction order {bank.auction_order} is outside 1..{BANK_COUNT}",
                          subject=bank.label, field="auction_order")


@rule("bank-home-region", ENGINE_NAME, "every bank's home region exists")
def _bank_home(model: Downturn) -> Iterator[Finding]:
    names = [r.name for r in model.regions]
    for bank in model.banks:
        if bank.home_region not in names:
            yield problem("bank-home-region", bank.where.of("home_region"),
                          f"home region '{bank.home_region}' is not in regions.yaml",
                          subject=bank.label, field="home_region",
                          hint=_suggest(bank.home_region, names))


@rule("bank-dividend", ENGINE_NAME, "1 <= dividend < max cubes+cards")
def _bank_dividend(model: Downturn) -> Iterator[Finding]:
    for bank in model.banks:
        if not 1 <= bank.dividend < bank.max_cubes_cards:
            yield problem("bank-dividend", bank.where.of("dividend"),
                          f"dividend {bank.dividend} with max cubes+cards "
                          f"{bank.max_cubes_cards}; expected 1 <= dividend < max",
                          subject=bank.label, field="dividend",
                          hint="a bank must be able to pay a dividend without exceeding its max")


@rule("bank-max-shares", ENGINE_NAME, "max shares >= 2 (the auction winner places 2)")
def _bank_shares(model: Downturn) -> Iterator[Finding]:
    for bank in model.banks:
        if bank.max_shares < 2:
            yield problem("bank-max-shares", bank.where.of("max_shares"),
                          f"max shares {bank.max_shares}, expected at least 2",
                          subject=bank.label, field="max_shares",
                          hint="the auction winner places 2 Personal Shares on the bank")


def _suggest(name: str, names: list[str]) -> str:
    return suggest(name, names) or f"known: {', '.join(names)}"
