"""Downturn's consistency rules: a valid Downturn game (pnp's model of its manifest) in, findings out.

Each rule has a stable id and reports the file:line of the value at fault with the values
involved. The rules text and the content brief's constraints (numbered 1-47 below) are the
source of every check; the game arithmetic they need comes from `downturn_arith`. Five of
the ids below (`event-count`, `event-invest-cubes`, `bank-count`, `bank-dividend`,
`bank-max-shares`) are plain comparisons written in `content/downturn/rules.yaml` instead.

Constraints and the rules that enforce them:

- Components and supply: 1 `components-cube-supply`, `components-player-colours`,
  `components-shares`, `components-markers`; 2 `setup-green-supply`; 3 `setup-bag`;
  5 `game-player-count` (with the rules' 2-4 players); the bond area's one green per player
  `bond-start-per-player`.
- Regions: 6 `region-name-unique`; 7 `bank-home-region`, `event-region-exists`;
  8 `region-southeast-max` (and `region-attested`); 9 `region-attested`;
  10 `region-starting-value`; 11 `region-max`.
- Banks: 12 `bank-count`; 13 `bank-auction-order`; 14 `bank-name-unique`;
  15 `bank-min-players`; 16 `bank-minimum-in-play`; 17 `bank-plains-three-players`;
  18 `bank-dixie`; 19 and 20 `bank-dividend`; 21 `bank-max-shares`; 22 `bank-share-slots`.
- Tracks: `track-column-numbers`; 23 `track-start-column`, `track-top-ratio`;
  24 and 26 `track-example-column`; 25 `track-monotonic`; 28 `track-bond-halves`;
  29 `track-stability`, `event-stability-delta`; 30 `track-scoring`; 43 `track-quarters`.
- Events: 31 `event-count`; 32 `event-numbers`; 33 `event-title-unique`;
  34 `event-invest-cubes`; 35 `event-crash-track`; 36 `event-leader-flag`;
  37 `event-initial-draw-actor`; 38 `event-owned-banks`; 39 `event-bond-floor`;
  40 and 41 `event-timing-text` (the card says when it leaves play);
  42 `event-attested-titles`; and `event-effect-fields`, which
  keeps the numeric fields (stability, track, bond) in step with the effect text they
  summarise.

Covered without a rule of their own:

- 4 (52 cards fit 6 sheets of 9): `event-count` and `bank-count` fix 42 + 10 cards, and the
  sheet layout is data of the layout stage, not of the game.
- 20 (max >= 1): implied by `bank-dividend` (1 <= dividend < max).
- 26 (some cube worth $0 or less): implied by the G +1 / Y -1 / R -2 column that
  `track-example-column` requires.
- 27 (bond values for green and yellow in every column): the schema requires `bond_green` and
  `bond_yellow` in every column; red cannot enter the bond area under any shipped card.
- 40 (exactly one timing per card): the schema allows exactly one of now, rest-of-turn,
  end-of-turn.

Skipped, because the data cannot express them:

- 29, second half (an end of the Stability Track moves the Investment Track, then resets),
  41, the clearing itself (lasting cards go at cleanup), 44 (a bankruptcy drops the track
  mid-valuation), 45 (a rescue costs 3 Personal Shares), 46 (the Leader breaks ties) and 47
  (a restarted bank has no cubes or shares): these are game flow. They hold no value in the content, so a
  designer cannot get them wrong; they belong to a game engine, not a data checker.
- 43, second half (the game ends after the turn of the 3rd bankruptcy): flow, as above; the
  turn count itself is `track-quarters`.
- 36, 37, 38 and 39 are about what an effect does. The effect is prose, so these rules check
  the words that carry the meaning (the Leader, the acting player, owned banks, the bond
  floor) and cannot prove that an effect is resolvable or fair; a reviewer still reads them.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Iterator

from pnp.findings import Finding
from pnp.rules.registry import problem, rule
from pnp.load.schema import suggest

from .arith import COLOURS, Pile, Reading, banks_in_play, setup_cubes

# The model is pnp's generic `Game`: the manifest's tables and decks as records.
Downturn = Event = InvestmentColumn = Any

PLUGIN = "downturn"
EVENT_COUNT = 42
BANK_COUNT = 10

# The rules' component list.
CUBE_SUPPLY = {"green": 40, "yellow": 30, "red": 30, "blue": 1, "black": 3}
PLAYER_COLOURS = ("red", "yellow", "blue", "green")
SHARES_PER_COLOUR = 20
TURN_ORDER_MARKERS = 4
LEADER_MARKERS = 1
PLAYERS = (2, 4)
QUARTERS = 4
BOND_GREENS_PER_PLAYER = 1
DEAL_FIRST = 3  # the Initial Event Card Draw
DEAL_PER_PLAYER = 7

# Names the rules and the designer's diaries attest.
ATTESTED_REGIONS = ("Northeast", "Southeast", "Midwest", "Plains")
SOUTHEAST_MIN_MAX = 7  # the cleanup example's Southeast holds 0 G, 5 Y and 2 R
DIXIE = ("Dixie Bank", "Southeast", 5)  # name, home region, max cubes+cards
ATTESTED_TITLES = ("Brokerage Bailed Out Over Weekend", "Credit Swap", "Overnight Bail Out")

MIN_BANKS_AT_FEWEST_PLAYERS = 2
PLAINS_BANK_BY_PLAYERS = 3  # diary #2: a Plains bank in a 3-player game
TOP_RED_PER_GREEN = 5  # "high-risk investments paying off at 5 times the safest"
EXAMPLE_COLUMN = (1, -1, -2)  # green, yellow, red: the rules' valuation examples
STABILITY_SPACES, STABILITY_START = 5, 3
MAX_STABILITY_MOVE = 2
BANKRUPTCY_VP = -3
BANKRUPTCIES_TO_END = 3


def _region(model: Downturn, name: str):
    return next((r for r in model.regions if r.name == name), None)


def _file_start(items: tuple, fallback):
    return items[0].where.at if items else fallback


@rule("event-numbers", PLUGIN, "event numbers are 1..42, each once (final tiebreak)")
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
        # At the card just before the first gap: where the missing card was, or belongs.
        before = [e for e in model.events if e.number < missing[0]]
        at = max(before, key=lambda e: e.number) if before else model.events[0]
        yield problem("event-numbers", at.where.at,
                      f"numbers {missing} are not used by any card", subject=at.label,
                      hint="number the cards 1..42, each once")


@rule("event-title-unique", PLUGIN, "event titles are unique")
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


@rule("event-region-exists", PLUGIN, "a regional event names a region on the board")
def _event_region(model: Downturn) -> Iterator[Finding]:
    names = [r.name for r in model.regions]
    for event in model.events:
        if event.region is not None and event.region not in names:
            yield problem("event-region-exists", event.where.of("region"),
                          f"region '{event.region}' is not in regions.yaml",
                          subject=event.label, field="region", hint=_suggest(event.region, names))


@rule("bank-auction-order", PLUGIN, "auction order is a permutation of 1..10")
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


@rule("bank-home-region", PLUGIN, "every bank's home region exists")
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


def _player_counts(model: Downturn) -> range:
    return range(max(model.info.players.min, 1), model.info.players.max + 1)


# -- components and supply -------------------------------------------------------------------


@rule("components-cube-supply", PLUGIN, "cubes: 40 green, 30 yellow, 30 red, 1 blue, 3 black")
def _cube_supply(model: Downturn) -> Iterator[Finding]:
    cubes = model.components.cubes
    for colour, expected in CUBE_SUPPLY.items():
        actual = getattr(cubes, colour)
        if actual != expected:
            yield problem("components-cube-supply", cubes.where.of(colour),
                          f"{actual} {colour} cubes, the rules list {expected}",
                          subject="cube supply", field=f"cubes.{colour}")


@rule("components-player-colours", PLUGIN, "player colours are red, yellow, blue, green")
def _player_colours(model: Downturn) -> Iterator[Finding]:
    colours = model.components.player_colours
    if sorted(colours) != sorted(PLAYER_COLOURS):
        yield problem("components-player-colours", model.components.where.of("player_colours"),
                      f"player colours are {list(colours)}, expected {list(PLAYER_COLOURS)} "
                      "each once", subject="components", field="player_colours",
                      hint="the rules give each player the shares of one of these colours")


@rule("components-shares", PLUGIN, "20 Personal Shares per player colour")
def _shares(model: Downturn) -> Iterator[Finding]:
    shares = model.components.shares_per_colour
    if shares != SHARES_PER_COLOUR:
        yield problem("components-shares", model.components.where.of("shares_per_colour"),
                      f"{shares} shares per colour, the rules list {SHARES_PER_COLOUR}",
                      subject="components", field="shares_per_colour")


@rule("components-markers", PLUGIN, "4 turn-order markers (one per player) and 1 Leader")
def _markers(model: Downturn) -> Iterator[Finding]:
    parts = model.components
    for name, expected in (("turn_order_markers", TURN_ORDER_MARKERS),
                           ("leader_markers", LEADER_MARKERS)):
        actual = getattr(parts, name)
        if actual != expected:
            yield problem("components-markers", parts.where.of(name),
                          f"{actual} {name.replace('_', ' ')}, the rules list {expected}",
                          subject="components", field=name)


@rule("game-player-count", PLUGIN, "2 to 4 players, and a full deal never reshuffles")
def _player_count(model: Downturn) -> Iterator[Finding]:
    players = model.info.players
    where = model.info.where.of("players")
    low, high = PLAYERS
    if not low <= players.min <= players.max <= high:
        yield problem("game-player-count", where,
                      f"players {players.min} to {players.max}, the rules say {low} to {high}",
                      subject="game", field="players",
                      hint="there are 4 player colours and 4 turn-order markers")
    dealt = DEAL_FIRST + DEAL_PER_PLAYER * players.max
    if dealt > len(model.events):
        yield problem("game-player-count", where,
                      f"a {players.max}-player turn deals {dealt} cards ({DEAL_FIRST} + "
                      f"{DEAL_PER_PLAYER} x {players.max}), more than the {len(model.events)} "
                      "event cards", subject="game", field="players.max")


@rule("bond-start-per-player", PLUGIN, "the bond area starts with 1 green per player")
def _bond_start(model: Downturn) -> Iterator[Finding]:
    per_player = model.tracks.bond_green_per_player
    if per_player != BOND_GREENS_PER_PLAYER:
        yield problem("bond-start-per-player", model.tracks.where.of("bond_green_per_player"),
                      f"{per_player} green cubes per player, the rules place "
                      f"{BOND_GREENS_PER_PLAYER}", subject="tracks",
                      field="bond_green_per_player",
                      hint="the bond area must start with as many cubes as there are players")


def _scorers(model: Downturn, players: int) -> Pile:
    """The scoring markers taken from the supply (A3), green first: the worst case for greens."""
    colours = [c for c in ("green", "red", "yellow") if c in model.components.player_colours]
    taken = colours[:players]
    return Pile(*(int(c in taken) for c in COLOURS))


def _setups(model: Downturn, reading: Reading):
    values = [r.starting_value for r in model.regions]
    for players in _player_counts(model):
        yield setup_cubes(model.components.cubes, values,
                          len(banks_in_play(model.banks, players)), players,
                          bond_greens_per_player=model.tracks.bond_green_per_player,
                          scorers=_scorers(model, players), reading=reading)


@rule("setup-green-supply", PLUGIN, "enough greens for 3 per region, bonds and a scorer")
def _green_supply(model: Downturn) -> Iterator[Finding]:
    short = [s for s in _setups(model, Reading.UP_TO) if s.greens_short]
    if short:
        worst = short[-1]
        yield problem("setup-green-supply", model.components.cubes.where.of("green"),
                      f"{worst.greens_held} green cubes, but setup at {worst.players} players "
                      f"sets aside {worst.greens_needed} (3 in each of {len(model.regions)} "
                      f"regions, {model.tracks.bond_green_per_player} per player in the bond "
                      "area, 1 scoring marker)", subject="cube supply", field="cubes.green")


@rule("setup-bag", PLUGIN, "the bag covers every setup draw, under both readings of A1")
def _bag(model: Downturn) -> Iterator[Finding]:
    short = [s for reading in Reading for s in _setups(model, reading) if s.bag_left < 0]
    if short:
        worst = min(short, key=lambda s: (s.bag_left, -s.players))
        yield problem("setup-bag", model.components.cubes.where.at,
                      f"the bag holds {worst.bag} cubes after setup at {worst.players} players "
                      f"but the draws need {worst.draws} ({worst.region_draws} for the regions, "
                      f"{worst.bank_draws} for the banks in play), drawing "
                      f"{worst.reading.value}", subject="cube supply", field="cubes",
                      hint="lower the Starting Values or raise the supply")


# -- regions ---------------------------------------------------------------------------------


def _duplicates(items, key, rule_id: str, field: str) -> Iterator[Finding]:
    first: dict = {}
    for item in items:
        name = key(item)
        if name in first:
            other = first[name].where.of(field)
            yield problem(rule_id, item.where.of(field),
                          f"{field} '{getattr(item, field)}' is already used at line "
                          f"{other.line}", subject=item.label, field=field)
        else:
            first[name] = item


@rule("board-blocks", PLUGIN, "every region has one block on the board, inside it, unshared")
def _board_blocks(model: Downturn) -> Iterator[Finding]:
    board, names = model.board, [r.name for r in model.regions]
    size = model.sheets["board"].size if "board" in model.sheets else None
    seen: dict[str, Any] = {}
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
        if size is not None and (block.x_mm + block.width_mm > size.width_mm or
                                 block.y_mm + block.height_mm > size.height_mm):
            yield problem("board-blocks", block.where.at,
                          f"block reaches ({block.x_mm + block.width_mm:g}, "
                          f"{block.y_mm + block.height_mm:g}) mm, outside the "
                          f"{size.width_mm:g} x {size.height_mm:g} mm board",
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


@rule("region-name-unique", PLUGIN, "region names are unique")
def _region_names(model: Downturn) -> Iterator[Finding]:
    yield from _duplicates(model.regions, lambda r: r.name.strip().casefold(),
                           "region-name-unique", "name")


@rule("region-attested", PLUGIN, "Northeast, Southeast, Midwest and Plains exist")
def _region_attested(model: Downturn) -> Iterator[Finding]:
    names = [r.name for r in model.regions]
    for name in ATTESTED_REGIONS:
        if name not in names:
            yield problem("region-attested", _file_start(model.regions, model.info.where.at),
                          f"no region named '{name}'; the rules or the designer's diaries "
                          "name it", hint=suggest(name, names))


@rule("region-southeast-max", PLUGIN, "the Southeast holds at least 7 cubes")
def _southeast(model: Downturn) -> Iterator[Finding]:
    region = _region(model, "Southeast")
    if region is not None and region.max < SOUTHEAST_MIN_MAX:
        yield problem("region-southeast-max", region.where.of("max"),
                      f"max {region.max}, expected at least {SOUTHEAST_MIN_MAX}",
                      subject=region.label, field="max",
                      hint="the rules' cleanup example has 7 cubes (5 yellow, 2 red) there")


@rule("region-starting-value", PLUGIN, "starting value >= 3 (the 3 greens come first)")
def _region_start(model: Downturn) -> Iterator[Finding]:
    for region in model.regions:
        if region.starting_value < 3:
            yield problem("region-starting-value", region.where.of("starting_value"),
                          f"starting value {region.starting_value}, expected at least 3",
                          subject=region.label, field="starting_value",
                          hint="each region starts with 3 green cubes before any draw")


@rule("region-max", PLUGIN, "max >= starting value + 3 (legal under both readings of A1)")
def _region_max(model: Downturn) -> Iterator[Finding]:
    for region in model.regions:
        start, most = region.starting_value, region.max
        if most <= start:
            message = (f"max {most} is not above starting value {start}; cleanup restocks to "
                       "the starting value and removes cubes above the max")
        elif most < start + 3:
            message = (f"max {most} is below starting value {start} + 3 = {start + 3}; drawing "
                       "the starting value on top of the 3 greens would overfill the region")
        else:
            continue
        yield problem("region-max", region.where.of("max"), message, subject=region.label,
                      field="max")


# -- banks -----------------------------------------------------------------------------------


@rule("bank-name-unique", PLUGIN, "bank names are unique")
def _bank_names(model: Downturn) -> Iterator[Finding]:
    yield from _duplicates(model.banks, lambda b: b.name.strip().casefold(),
                           "bank-name-unique", "name")


@rule("bank-min-players", PLUGIN, "a bank's minimum players is a playable player count")
def _bank_min_players(model: Downturn) -> Iterator[Finding]:
    low, high = model.info.players.min, model.info.players.max
    for bank in model.banks:
        if not low <= bank.min_players <= high:
            yield problem("bank-min-players", bank.where.of("min_players"),
                          f"min players {bank.min_players}, expected {low} to {high}",
                          subject=bank.label, field="min_players")


@rule("bank-minimum-in-play", PLUGIN, "at least 2 banks are in play at the fewest players")
def _bank_minimum(model: Downturn) -> Iterator[Finding]:
    players = model.info.players.min
    playing = banks_in_play(model.banks, players)
    if len(playing) < MIN_BANKS_AT_FEWEST_PLAYERS and len(model.banks) == BANK_COUNT:
        yield problem("bank-minimum-in-play", _file_start(model.banks, model.info.where.at),
                      f"{len(playing)} banks are in play at {players} players, expected at "
                      f"least {MIN_BANKS_AT_FEWEST_PLAYERS}",
                      hint="at least one bank must float; give more banks min_players: "
                           f"{players}")


@rule("bank-plains-three-players", PLUGIN, "a Plains bank is in play at 3 players")
def _bank_plains(model: Downturn) -> Iterator[Finding]:
    plains = _region(model, "Plains")
    if plains is None:
        return
    homed = [b for b in model.banks if b.home_region == plains.name]
    if not homed:
        yield problem("bank-plains-three-players", plains.where.of("name"),
                      "no bank has its home in the Plains", subject=plains.label,
                      hint="the designer's 3-player diary game had a Plains bank")
        return
    first = min(homed, key=lambda b: b.min_players)
    if first.min_players > PLAINS_BANK_BY_PLAYERS:
        yield problem("bank-plains-three-players", first.where.of("min_players"),
                      f"min players {first.min_players}, expected at most "
                      f"{PLAINS_BANK_BY_PLAYERS} for the Plains bank", subject=first.label,
                      field="min_players",
                      hint="the designer's 3-player diary game had a Plains bank")


@rule("bank-dixie", PLUGIN, "Dixie Bank: home Southeast, max 5")
def _bank_dixie(model: Downturn) -> Iterator[Finding]:
    name, home, most = DIXIE
    dixie = next((b for b in model.banks if b.name == name), None)
    if dixie is None:
        yield problem("bank-dixie", _file_start(model.banks, model.info.where.at),
                      f"no bank named '{name}'; the rules' cleanup example uses it",
                      hint=suggest(name, [b.name for b in model.banks]))
        return
    if dixie.home_region != home:
        yield problem("bank-dixie", dixie.where.of("home_region"),
                      f"home region '{dixie.home_region}', the rules say '{home}'",
                      subject=dixie.label, field="home_region")
    if dixie.max_cubes_cards != most:
        yield problem("bank-dixie", dixie.where.of("max_cubes_cards"),
                      f"max cubes+cards {dixie.max_cubes_cards}, the rules say {most}",
                      subject=dixie.label, field="max_cubes_cards")


@rule("bank-share-slots", PLUGIN, "share slots in play <= 20 shares x players")
def _bank_share_slots(model: Downturn) -> Iterator[Finding]:
    per_player = model.components.shares_per_colour
    for players in _player_counts(model):
        playing = banks_in_play(model.banks, players)
        slots = sum(b.max_shares for b in playing)
        if playing and slots > per_player * players:
            biggest = max(playing, key=lambda b: b.max_shares)
            yield problem("bank-share-slots", biggest.where.of("max_shares"),
                          f"the {len(playing)} banks in play at {players} players take "
                          f"{slots} shares, more than the {per_player * players} the players "
                          f"own; this bank takes {biggest.max_shares}", subject=biggest.label,
                          field="max_shares")
            return


# -- tracks ----------------------------------------------------------------------------------


def _columns(model: Downturn) -> list[InvestmentColumn] | None:
    """The Investment Track left (worst) to right, or None when its numbering is broken."""
    columns = sorted(model.tracks.investment, key=lambda c: c.column)
    if [c.column for c in columns] != list(range(1, len(columns) + 1)) or not columns:
        return None
    return columns


@rule("track-column-numbers", PLUGIN, "Investment Track columns are numbered 1..N")
def _column_numbers(model: Downturn) -> Iterator[Finding]:
    columns = model.tracks.investment
    counts = Counter(c.column for c in columns)
    for column in columns:
        if counts[column.column] > 1 or column.column > len(columns):
            yield problem("track-column-numbers", column.where.of("column"),
                          f"column {column.column} is used {counts[column.column]} times or "
                          f"lies outside 1..{len(columns)}", subject="investment track",
                          field="column", hint="number the columns 1 (worst) to N, each once")
    if not columns:
        yield problem("track-column-numbers", model.tracks.where.of("investment"),
                      "the Investment Track has no columns", subject="investment track")


@rule("track-start-column", PLUGIN, "the black cube starts on the rightmost column")
def _start_column(model: Downturn) -> Iterator[Finding]:
    columns = _columns(model)
    start = model.tracks.investment_start
    if columns and start != columns[-1].column:
        yield problem("track-start-column", model.tracks.where.of("investment_start"),
                      f"start column {start}, expected {columns[-1].column}, the rightmost",
                      subject="tracks", field="investment_start")


@rule("track-top-ratio", PLUGIN, "in the rightmost column red pays 5 times green")
def _top_ratio(model: Downturn) -> Iterator[Finding]:
    columns = _columns(model)
    if columns:
        top = columns[-1]
        if top.red != TOP_RED_PER_GREEN * top.green:
            yield problem("track-top-ratio", top.where.of("red"),
                          f"red {top.red} with green {top.green}, expected red = "
                          f"{TOP_RED_PER_GREEN} x green = {TOP_RED_PER_GREEN * top.green}",
                          subject=f"investment column {top.column}", field="red",
                          hint="rules 0.9.4 changed the top red value from 6 to 5")


@rule("track-example-column", PLUGIN, "one column is G +1 / Y -1 / R -2, with one below it")
def _example_column(model: Downturn) -> Iterator[Finding]:
    columns = _columns(model)
    if not columns:
        return
    found = [c for c in columns if (c.green, c.yellow, c.red) == EXAMPLE_COLUMN]
    if not found:
        yield problem("track-example-column", model.tracks.where.of("investment"),
                      "no column has green +1, yellow -1, red -2", subject="investment track",
                      hint="the rules' valuation examples and the designer's diary use it")
    for extra in found[1:]:
        yield problem("track-example-column", extra.where.at,
                      f"column {extra.column} repeats green +1, yellow -1, red -2 of column "
                      f"{found[0].column}; expected exactly one such column",
                      subject=f"investment column {extra.column}")
    if found and found[0] is columns[0]:
        yield problem("track-example-column", found[0].where.of("column"),
                      f"column {found[0].column} is the lowest; the diary has a level below "
                      "the green +1, yellow -1, red -2 column",
                      subject=f"investment column {found[0].column}", field="column")


@rule("track-monotonic", PLUGIN, "yellow and red values do not rise as the market falls")
def _monotonic(model: Downturn) -> Iterator[Finding]:
    columns = _columns(model)
    for left, right in zip(columns or [], (columns or [])[1:]):
        for colour in ("yellow", "red"):
            worse, better = getattr(left, colour), getattr(right, colour)
            if worse > better:
                yield problem("track-monotonic", left.where.of(colour),
                              f"{colour} {worse:+d} in column {left.column} is above "
                              f"{better:+d} in column {right.column} to its right; expected "
                              f"at most {better:+d}", subject=f"investment column {left.column}",
                              field=colour)


@rule("track-bond-halves", PLUGIN, "bond values are multiples of 0.5")
def _bond_halves(model: Downturn) -> Iterator[Finding]:
    for column in model.tracks.investment:
        for name in ("bond_green", "bond_yellow"):
            value = getattr(column, name)
            if value * 2 != int(value * 2):
                yield problem("track-bond-halves", column.where.of(name),
                              f"{value:g} is not a multiple of 0.5",
                              subject=f"investment column {column.column}", field=name,
                              hint="bond VP are summed in halves and rounded down at the end")


@rule("track-stability", PLUGIN, "the Stability Track has 5 spaces and starts on 3")
def _stability_track(model: Downturn) -> Iterator[Finding]:
    track = model.tracks.stability
    where = model.tracks.where.of("stability")
    if track.spaces != STABILITY_SPACES:
        yield problem("track-stability", where, f"{track.spaces} spaces, the rules have "
                      f"{STABILITY_SPACES}", subject="stability track", field="spaces")
    if track.start != STABILITY_START:
        yield problem("track-stability", where, f"starts on {track.start}, the rules start on "
                      f"the middle space {STABILITY_START}", subject="stability track",
                      field="start")


@rule("track-scoring", PLUGIN, "the Scoring Track reaches every score, negatives included")
def _scoring_track(model: Downturn) -> Iterator[Finding]:
    track = model.tracks.scoring
    where = model.tracks.where.of("scoring")
    lowest = BANKRUPTCY_VP * BANKRUPTCIES_TO_END
    if track.min > lowest:
        yield problem("track-scoring", where,
                      f"min {track.min}, expected {lowest} or lower: a player can lose "
                      f"{-BANKRUPTCY_VP} VP in each of the {BANKRUPTCIES_TO_END} bankruptcies "
                      "that end the game", subject="scoring track", field="min")
    if not 0 < track.lap <= track.max + 1:
        yield problem("track-scoring", where,
                      f"lap {track.lap} with max {track.max}, expected 1 to {track.max + 1} so "
                      "that a lap token continues the track without a gap",
                      subject="scoring track", field="lap")


@rule("track-quarters", PLUGIN, "the game lasts 4 turns")
def _quarters(model: Downturn) -> Iterator[Finding]:
    if model.tracks.quarters != QUARTERS:
        yield problem("track-quarters", model.tracks.where.of("quarters"),
                      f"{model.tracks.quarters} quarters, the rules play {QUARTERS}",
                      subject="tracks", field="quarters")


# -- events ----------------------------------------------------------------------------------

_STABILITY_TEXT = re.compile(r"\bStability ([+-]\d+)")
_TRACK_TEXT = re.compile(r"\bInvestment Track (up|down) (\d+) column")
_BOND_TEXT = re.compile(r"\bBond area\b")
_BOND_REMOVAL = re.compile(r"\b(discard|remove|take)s?\b[^;.]*\bBond area\b")
_BOND_FLOOR = re.compile(r"\bnever below\b[^;.]*\bper player\b")
_LEADER_TEXT = re.compile(r"\bLeader\b")
_ACTOR_TEXT = re.compile(r"\b(active|acting) player\b", re.IGNORECASE)
_INITIAL_DRAW = re.compile(r"\bInitial Draw\b")
_BANK_TEXT = re.compile(r"\bbanks?\b", re.IGNORECASE)
_CUBE_VERB = re.compile(r"\b(discards?|takes?|gains?|moves?|swaps?|returns?|adds?|receives?)\b")
_OWNED = re.compile(r"\bown(ed|s)\b")
_PARENTHESES = re.compile(r"\([^)]*\)")
_REST_OF_TURN = re.compile(r"\brest of the turn\b", re.IGNORECASE)
_END_OF_TURN = re.compile(r"\bend of turn\b", re.IGNORECASE)


def _field_or_text(event: Event, name: str):
    """Where a numeric field was written, or the effect text when the field was left out."""
    return event.where.fields.get(name) or event.where.of("effect")


@rule("event-effect-fields", PLUGIN, "stability, track and bond agree with the effect text")
def _effect_fields(model: Downturn) -> Iterator[Finding]:
    for event in model.events:
        said = sum(int(n) for n in _STABILITY_TEXT.findall(event.effect))
        if said != event.stability:
            yield problem("event-effect-fields", _field_or_text(event, "stability"),
                          f"stability {event.stability:+d}, but the effect text moves Stability "
                          f"{said:+d}", subject=event.label, field="stability")
        move = _TRACK_TEXT.search(event.effect)
        said = (1 if move.group(1) == "up" else -1) * int(move.group(2)) if move else 0
        if said != event.track:
            yield problem("event-effect-fields", _field_or_text(event, "track"),
                          f"track {event.track:+d}, but the effect text moves the Investment "
                          f"Track {said:+d}", subject=event.label, field="track")
        if bool(_BOND_TEXT.search(event.effect)) != (event.bond != 0):
            said = "names" if _BOND_TEXT.search(event.effect) else "does not name"
            yield problem("event-effect-fields", _field_or_text(event, "bond"),
                          f"bond {event.bond:+d}, but the effect text {said} the Bond area",
                          subject=event.label, field="bond")


@rule("event-stability-delta", PLUGIN, "an event moves Stability by at most 2")
def _stability_delta(model: Downturn) -> Iterator[Finding]:
    for event in model.events:
        if abs(event.stability) > MAX_STABILITY_MOVE:
            yield problem("event-stability-delta", event.where.of("stability"),
                          f"stability {event.stability:+d}, expected -{MAX_STABILITY_MOVE} to "
                          f"+{MAX_STABILITY_MOVE}", subject=event.label, field="stability",
                          hint="the track has 5 spaces and starts on 3")


@rule("event-crash-track", PLUGIN, "every Market Crash moves the track down a column")
def _crash_track(model: Downturn) -> Iterator[Finding]:
    for event in model.events:
        if event.crash and event.track > -1:
            yield problem("event-crash-track", _field_or_text(event, "track"),
                          f"a Market Crash card with track {event.track:+d}, expected -1 or "
                          "lower", subject=event.label, field="track",
                          hint="since rules 0.9.3 a Market Crash always drops a column")


@rule("event-leader-flag", PLUGIN, "a card the Leader decides carries the Leader mark")
def _leader_flag(model: Downturn) -> Iterator[Finding]:
    for event in model.events:
        mentions = bool(_LEADER_TEXT.search(event.effect))
        if mentions and not event.leader:
            yield problem("event-leader-flag", event.where.of("effect"),
                          "the effect gives the Leader a decision, but the card has no "
                          "'leader: true'", subject=event.label, field="leader",
                          hint="add 'leader: true' so the card carries the Leader mark")
        elif event.leader and not mentions:
            yield problem("event-leader-flag", event.where.of("leader"),
                          "leader: true, but the effect never says what the Leader decides",
                          subject=event.label, field="leader")


@rule("event-initial-draw-actor", PLUGIN, "a card with an acting player names who acts "
      "in the Initial Draw")
def _initial_draw(model: Downturn) -> Iterator[Finding]:
    for event in model.events:
        if _ACTOR_TEXT.search(event.effect) and not _INITIAL_DRAW.search(event.effect):
            yield problem("event-initial-draw-actor", event.where.of("effect"),
                          "the effect needs an acting player but does not say who acts when "
                          "the card is drawn in the Initial Draw", subject=event.label,
                          field="effect", hint="add '(Leader during the Initial Draw)'")


@rule("event-owned-banks", PLUGIN, "an effect moves cubes of owned banks only")
def _owned_banks(model: Downturn) -> Iterator[Finding]:
    for event in model.events:
        text = _PARENTHESES.sub("", event.effect)
        for clause in re.split(r"[;.:]", text):
            if (_BANK_TEXT.search(clause) and _CUBE_VERB.search(clause)
                    and not _OWNED.search(clause)):
                yield problem("event-owned-banks", event.where.of("effect"),
                              f"'{clause.strip()}' moves a bank's cubes without limiting it to "
                              "owned banks", subject=event.label, field="effect",
                              hint="events only act on banks with at least one share; say "
                                   "'owned bank'")


@rule("event-bond-floor", PLUGIN, "removing bond cubes never leaves fewer than players")
def _bond_floor(model: Downturn) -> Iterator[Finding]:
    for event in model.events:
        removes = event.bond < 0 or _BOND_REMOVAL.search(event.effect)
        if removes and not _BOND_FLOOR.search(event.effect):
            yield problem("event-bond-floor", event.where.of("effect"),
                          "the effect removes Bond area cubes but does not stop at one cube "
                          "per player", subject=event.label, field="effect",
                          hint="add '(never below one per player)'")


@rule("event-timing-text", PLUGIN, "the effect text says when a lasting card ends")
def _timing_text(model: Downturn) -> Iterator[Finding]:
    for event in model.events:
        rest = bool(_REST_OF_TURN.search(event.effect))
        end = bool(_END_OF_TURN.search(event.effect))
        expected = {"now": (False, False), "rest-of-turn": (True, False),
                    "end-of-turn": (False, True)}[event.timing]
        if (rest, end) != expected:
            said = ("the rest of the turn" if rest else "the end of turn" if end
                    else "neither the rest of the turn nor the end of turn")
            yield problem("event-timing-text", event.where.of("timing"),
                          f"timing {event.timing}, but the effect text says {said}",
                          subject=event.label, field="timing",
                          hint="a card that stays out says 'for the rest of the turn' or "
                               "starts 'End of turn'; the Now cards say neither")


@rule("event-attested-titles", PLUGIN, "the three attested event titles are present")
def _attested_titles(model: Downturn) -> Iterator[Finding]:
    titles = [e.title for e in model.events]
    for title in ATTESTED_TITLES:
        if title not in titles:
            yield problem("event-attested-titles", _file_start(model.events, model.info.where.at),
                          f"no event is titled '{title}'; the rules or the designer's diary "
                          "name it", hint=suggest(title, titles))
