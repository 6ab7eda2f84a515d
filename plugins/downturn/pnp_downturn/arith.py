"""Downturn's game arithmetic: cube counts and track values in; values and verdicts out.

Everything the rules text computes with numbers lives here once, as pure functions over small
frozen dataclasses, with no I/O: a bank's value (BV) in an Investment Track column, whether a
bank is profitable, solvent or bankrupt, how a bank absorbs cubes from its home region at
cleanup, and how many cubes setup needs for a given player count. The consistency rules and the
tests both use these functions, so a reading of the rules is fixed in exactly one place.

Readings of the rules fixed here (the content brief's interpretations):

- A1: "draw cubes to equal the Starting Value" is ambiguous. `Reading.UP_TO` fills a region up
  to its Starting Value (the 3 greens count); `Reading.ON_TOP` draws the Starting Value on top
  of them. Setup checks use both.
- A2: the bond area's greens are set aside from the supply before the rest is bagged.
- A3: a scoring marker of red, yellow or green is a cube taken from the supply.
- A4: the dividend threshold counts permanent cubes only; investment cards still count in BV.
- A5 and A11: at cleanup the bank's maximum counts cubes only; absorption halves each colour
  invested on the revealed cards (rounding down), takes red, then yellow, then green, one cube
  at a time up to the maximum, and skips a colour its home region has run out of.

Objects from the model (`Cubes`, `InvestmentColumn`, `Bank`) fit these functions as they are:
they only need the attributes named in the protocols below.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable, Protocol, Sequence

COLOURS = ("red", "yellow", "green")  # the absorption order at cleanup
# The words a player reads for each reading above, wherever the kit prints it: the kit's
# `printed-readings` rule finds each phrase in the text, so the print says what is computed.
DIVIDEND_COUNTS = "permanent cubes"  # A4
CLEANUP_LIMIT_COUNTS = "cubes only"  # A5
STABILITY_STOPS = "stops at"  # A10: a move past an end stops there
BAGGED = COLOURS  # setup bags red, yellow and green only; the blue cube is left out
REGION_START_GREENS = 3  # each region starts with three green cubes
PROFITABLE_FROM = 1  # a bank's BV must be $1 or more to pay out
BANKRUPT_AT = -5  # a bank with enough cubes and a BV of -$5 or less fails


class CubeCounts(Protocol):
    red: int
    yellow: int
    green: int


class ColumnValues(Protocol):
    """The dollar value of one cube of each colour in one Investment Track column."""

    red: int
    yellow: int
    green: int


class HasMinPlayers(Protocol):
    min_players: int


@dataclass(frozen=True)
class Pile:
    """Cubes by colour: on a bank, in a region, or listed on investment cards."""

    red: int = 0
    yellow: int = 0
    green: int = 0

    @property
    def total(self) -> int:
        return self.red + self.yellow + self.green

    @classmethod
    def of(cls, cubes: CubeCounts) -> Pile:
        return cls(cubes.red, cubes.yellow, cubes.green)

    def plus(self, colour: str, count: int) -> Pile:
        counts = {c: getattr(self, c) for c in COLOURS}
        counts[colour] += count
        return Pile(**counts)


@dataclass(frozen=True)
class Prices:
    """One Investment Track column's cube values, for callers without a model column."""

    red: int
    yellow: int
    green: int


def total_cubes(piles: Iterable[CubeCounts]) -> Pile:
    """The cubes of several piles (for example every revealed investment card) added up."""
    red = yellow = green = 0
    for pile in piles:
        red, yellow, green = red + pile.red, yellow + pile.yellow, green + pile.green
    return Pile(red, yellow, green)


# -- bank valuation --------------------------------------------------------------------------


def cube_value(cubes: CubeCounts, column: ColumnValues) -> int:
    """The dollars a pile of cubes is worth in an Investment Track column."""
    return cubes.red * column.red + cubes.yellow * column.yellow + cubes.green * column.green


def bank_value(cubes: CubeCounts, cards: Sequence[CubeCounts], column: ColumnValues) -> int:
    """BV: the bank's permanent cubes plus the cubes on its revealed investment cards."""
    return cube_value(cubes, column) + cube_value(total_cubes(cards), column)


class Standing(enum.Enum):
    PROFITABLE = "profitable"
    SOLVENT = "solvent"
    BANKRUPT = "bankrupt"


@dataclass(frozen=True)
class Valuation:
    value: int  # BV in dollars
    standing: Standing
    reason: str  # the clause of the rules that decided it


def value_bank(cubes: CubeCounts, cards: Sequence[CubeCounts], column: ColumnValues,
               dividend: int, *, has_shares: bool = True) -> Valuation:
    """Value a bank and classify it, as in the rules section "Bank Valuation".

    A bank with shares and no assets (no cubes, no cards) is bankrupt. Otherwise the dividend
    threshold counts permanent cubes only (A4): with at least `dividend` cubes a BV of $1 or more
    is profitable and -$5 or less is bankrupt. Everything else is solvent. An unowned bank can
    never be bankrupt.
    """
    value = bank_value(cubes, cards, column)
    count = Pile.of(cubes).total
    if has_shares and count == 0 and not cards:
        return Valuation(value, Standing.BANKRUPT, "no assets: no cubes and no cards")
    if count >= dividend and value >= PROFITABLE_FROM:
        return Valuation(value, Standing.PROFITABLE,
                         f"{count} cubes >= dividend {dividend} and BV {value} >= 1")
    if has_shares and count >= dividend and value <= BANKRUPT_AT:
        return Valuation(value, Standing.BANKRUPT,
                         f"{count} cubes >= dividend {dividend} and BV {value} <= -5")
    if count < dividend:
        return Valuation(value, Standing.SOLVENT, f"{count} cubes < dividend {dividend}")
    if value <= BANKRUPT_AT:
        return Valuation(value, Standing.SOLVENT, "an unowned bank cannot be bankrupt")
    return Valuation(value, Standing.SOLVENT, f"BV {value} is between -4 and 0")


# -- cleanup ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Absorption:
    bank: Pile  # the bank's permanent cubes afterwards
    region: Pile  # its home region's cubes afterwards
    taken: Pile  # what moved from the region to the bank
    wanted: Pile  # half of each colour invested, rounded down


def absorb(bank: CubeCounts, cards: Sequence[CubeCounts], region: CubeCounts,
           max_cubes: int) -> Absorption:
    """Cleanup step A: the bank takes half of each invested colour from its home region.

    Colours go red, yellow, green; each cube is checked against `max_cubes`, which counts the
    bank's cubes only (A5); a colour the region lacks is skipped, not replaced.
    """
    invested = total_cubes(cards)
    wanted = Pile(invested.red // 2, invested.yellow // 2, invested.green // 2)
    held, left, taken = Pile.of(bank), Pile.of(region), Pile()
    for colour in COLOURS:
        for _ in range(getattr(wanted, colour)):
            if held.total >= max_cubes or getattr(left, colour) == 0:
                break
            held, left = held.plus(colour, 1), left.plus(colour, -1)
            taken = taken.plus(colour, 1)
    return Absorption(held, left, taken, wanted)


# -- setup -----------------------------------------------------------------------------------


class Reading(enum.Enum):
    """The two readings of "draw cubes to equal the Starting Value" (A1)."""

    UP_TO = "up to the Starting Value, the 3 greens included"
    ON_TOP = "the Starting Value on top of the 3 greens"


def banks_in_play(banks: Iterable[HasMinPlayers], players: int) -> list:
    """The bank cards left in the game: those listing no more players than are playing."""
    return [bank for bank in banks if bank.min_players <= players]


def region_draws(starting_values: Iterable[int], reading: Reading) -> int:
    """Cubes drawn from the bag to bring every region to its Starting Value."""
    if reading is Reading.UP_TO:
        return sum(max(value - REGION_START_GREENS, 0) for value in starting_values)
    return sum(starting_values)


@dataclass(frozen=True)
class Setup:
    """The cube budget of one setup: what is set aside, what is bagged, what is drawn."""

    players: int
    reading: Reading
    greens_needed: int  # 3 per region, the bond greens and a green scoring marker
    greens_held: int
    bag: int  # red, yellow and green cubes bagged after everything is set aside
    region_draws: int
    bank_draws: int  # one random cube per bank in play

    @property
    def draws(self) -> int:
        return self.region_draws + self.bank_draws

    @property
    def greens_short(self) -> int:
        return max(self.greens_needed - self.greens_held, 0)

    @property
    def bag_left(self) -> int:
        """Cubes still in the bag after the setup draws; negative means the bag ran out."""
        return self.bag - self.draws


def setup_cubes(supply: CubeCounts, starting_values: Sequence[int], banks: int, players: int,
                *, bond_greens_per_player: int = 1, scorers: CubeCounts = Pile(),
                reading: Reading = Reading.UP_TO) -> Setup:
    """The cubes a setup needs for `players` players with `banks` banks in play.

    Order (A2, A3): the bond greens, the scoring-marker cubes and three greens per region leave
    the supply first; the red, yellow and green cubes left go in the bag; each region then draws
    to its Starting Value under `reading`, and each bank in play draws one cube.
    """
    regional_greens = REGION_START_GREENS * len(starting_values)
    bond_greens = bond_greens_per_player * players
    scorer = Pile.of(scorers)
    greens_needed = regional_greens + bond_greens + scorer.green
    bagged = Pile.of(supply).total - regional_greens - bond_greens - scorer.total
    return Setup(players, reading, greens_needed, supply.green, bagged,
                 region_draws(starting_values, reading), banks)


__all__ = [
    "Absorption", "BAGGED", "BANKRUPT_AT", "CLEANUP_LIMIT_COUNTS", "COLOURS", "DIVIDEND_COUNTS",
    "Pile", "Prices", "REGION_START_GREENS", "Reading", "STABILITY_STOPS", "Setup", "Standing",
    "Valuation", "absorb", "bank_value", "banks_in_play", "cube_value", "region_draws",
    "setup_cubes", "total_cubes", "value_bank",
]
