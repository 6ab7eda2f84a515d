"""Downturn's consistency rules: a valid Downturn model in, findings out.

Each rule has a stable id and reports the file:line of the value at fault with the values
involved. The rules text and the content brief's constraints are the source of every check.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Iterator

from ..findings import Finding
from ..rules import problem, rule
from ..schema import suggest

if TYPE_CHECKING:
    from .downturn import Downturn, Event

ENGINE_NAME = "downturn"
EVENT_COUNT = 42
BANK_COUNT = 10


def _file_start(items: tuple, fallback):
    return items[0].where.at if items else fallback


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


@rule("event-region-exists", ENGINE_NAME, "a regional event names a region on the board")
def _event_region(model: Downturn) -> Iterator[Finding]:
    names = [r.name for r in model.regions]
    for event in model.events:
        if event.region is not None and event.region not in names:
            yield problem("event-region-exists", event.where.of("region"),
                          f"region '{event.region}' is not in regions.yaml",
                          subject=event.label, field="region", hint=_suggest(event.region, names))


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


def _suggest(name: str, names: list[str]) -> str:
    return suggest(name, names) or f"known: {', '.join(names)}"
