"""Downturn's arithmetic against the rules' own worked examples (content brief 2.6)."""

from __future__ import annotations

import pytest

from pnp_downturn.arith import (
    Pile, Prices, Reading, Standing, absorb, bank_value, banks_in_play, region_draws,
    setup_cubes, value_bank,
)

# The rules' example column: red -$2, yellow -$1, green +$1; the example bank pays a dividend
# from 4 cubes and holds at most 8.
RECESSION = Prices(red=-2, yellow=-1, green=1)
BOOM = Prices(red=5, yellow=3, green=1)
DIVIDEND = 4


@pytest.mark.parametrize(("red", "yellow", "green", "value", "standing"), [
    pytest.param(3, 4, 5, -5, Standing.BANKRUPT, id="example-1-bankrupt"),
    pytest.param(3, 0, 0, -6, Standing.SOLVENT, id="example-2-too-few-cubes"),
    pytest.param(0, 0, 0, 0, Standing.BANKRUPT, id="example-3-no-assets"),
    pytest.param(1, 1, 3, 0, Standing.SOLVENT, id="example-4-solvent"),
    pytest.param(0, 2, 6, 4, Standing.PROFITABLE, id="example-5-profitable"),
])
def test_bank_value_examples(red, yellow, green, value, standing):
    valuation = value_bank(Pile(red, yellow, green), [], RECESSION, DIVIDEND)
    assert (valuation.value, valuation.standing) == (value, standing), valuation.reason


def test_investment_cards_count_toward_bv():
    cards = [Pile(red=1, green=1), Pile(yellow=2)]
    assert bank_value(Pile(green=3), cards, BOOM) == 3 + (5 + 1) + 6


def test_dividend_threshold_counts_permanent_cubes_only():
    # 2 cubes and cards worth 3 more cubes: BV +$20, but only 2 permanent cubes < 4 (A4).
    valuation = value_bank(Pile(green=2), [Pile(red=3)], BOOM, DIVIDEND)
    assert valuation.value == 17
    assert valuation.standing is Standing.SOLVENT


def test_a_bank_with_only_cards_is_not_without_assets():
    valuation = value_bank(Pile(), [Pile(red=1)], RECESSION, DIVIDEND)
    assert valuation.standing is Standing.SOLVENT


def test_an_unowned_bank_is_never_bankrupt():
    assert value_bank(Pile(), [], RECESSION, DIVIDEND,
                      has_shares=False).standing is Standing.SOLVENT
    assert value_bank(Pile(3, 4, 5), [], RECESSION, DIVIDEND,
                      has_shares=False).standing is Standing.SOLVENT


@pytest.mark.parametrize(("cubes", "standing"), [
    pytest.param(Pile(red=2, green=2), Standing.SOLVENT, id="minus-2"),
    pytest.param(Pile(red=2, yellow=1), Standing.SOLVENT, id="too-few-cubes"),
    pytest.param(Pile(red=3, yellow=1, green=2), Standing.BANKRUPT, id="minus-5-edge"),
    pytest.param(Pile(red=2, yellow=1, green=4), Standing.SOLVENT, id="minus-1"),
    pytest.param(Pile(red=1, yellow=0, green=3), Standing.PROFITABLE, id="plus-1-edge"),
])
def test_standing_boundaries(cubes, standing):
    assert value_bank(cubes, [], RECESSION, DIVIDEND).standing is standing


def test_dixie_cleanup_example():
    dixie = Pile(red=2)
    cards = [Pile(green=2), Pile(yellow=3), Pile(red=1)]  # 2 G, 3 Y, 1 R in total
    southeast = Pile(red=2, yellow=5, green=0)
    result = absorb(dixie, cards, southeast, max_cubes=5)
    assert result.wanted == Pile(red=0, yellow=1, green=1)
    assert result.taken == Pile(yellow=1)
    assert result.bank == Pile(red=2, yellow=1)
    assert result.region == Pile(red=2, yellow=4, green=0)


def test_diary_three_cleanup_example():
    cards = [Pile(red=1, yellow=1), Pile(yellow=2, green=1), Pile(green=1)]  # 1 R, 3 Y, 2 G
    result = absorb(Pile(), cards, Pile(red=3, yellow=3, green=3), max_cubes=8)
    assert result.taken == Pile(yellow=1, green=1)
    assert result.region == Pile(red=3, yellow=2, green=2)


def test_cleanup_fills_red_first_and_stops_at_the_maximum():
    cards = [Pile(red=3), Pile(red=1, yellow=2), Pile(yellow=2, green=2)]  # 4 R, 4 Y, 2 G
    result = absorb(Pile(green=3), cards, Pile(red=5, yellow=5, green=5), max_cubes=5)
    assert result.taken == Pile(red=2)
    assert result.bank == Pile(red=2, green=3)


def test_cleanup_maximum_counts_cubes_not_cards():
    # Dixie's example: 2 cubes and 3 cards with max 5 still leaves 3 cube slots (A5).
    cards = [Pile(red=2), Pile(red=2), Pile(red=2)]
    result = absorb(Pile(green=2), cards, Pile(red=9), max_cubes=5)
    assert result.taken == Pile(red=3)


def test_cleanup_takes_only_what_the_region_holds():
    result = absorb(Pile(), [Pile(red=3), Pile(red=3)], Pile(red=1, yellow=4), max_cubes=8)
    assert result.taken == Pile(red=1)


class _Bank:
    def __init__(self, min_players: int):
        self.min_players = min_players


def test_banks_in_play_by_player_count():
    banks = [_Bank(n) for n in (2, 2, 2, 2, 2, 3, 3, 4, 4, 4)]
    assert [len(banks_in_play(banks, players)) for players in (2, 3, 4)] == [5, 7, 10]


SHIPPED_STARTING_VALUES = (5, 5, 4, 4, 4, 3, 5)
SUPPLY = Pile(red=30, yellow=30, green=40)


def test_region_draws_under_both_readings():
    assert region_draws(SHIPPED_STARTING_VALUES, Reading.UP_TO) == 9
    assert region_draws(SHIPPED_STARTING_VALUES, Reading.ON_TOP) == 30
    assert region_draws([2], Reading.UP_TO) == 0


@pytest.mark.parametrize(("players", "greens"), [(2, 23), (3, 24), (4, 25)])
def test_setup_greens_per_player_count(players, greens):
    # Constraint 2: 3 per region plus one bond green per player, set aside first (A2).
    setup = setup_cubes(SUPPLY, SHIPPED_STARTING_VALUES, banks=5, players=players)
    assert setup.greens_needed == greens
    assert setup.greens_short == 0
    with_scorer = setup_cubes(SUPPLY, SHIPPED_STARTING_VALUES, banks=5, players=players,
                              scorers=Pile(green=1))
    assert with_scorer.greens_needed == greens + 1


@pytest.mark.parametrize(("reading", "left"), [(Reading.UP_TO, 53), (Reading.ON_TOP, 32)])
def test_bag_slack_at_four_players(reading, left):
    # Constraint 3 as worked in the brief: 10 banks, red, yellow and green scorers taken.
    setup = setup_cubes(SUPPLY, SHIPPED_STARTING_VALUES, banks=10, players=4,
                        scorers=Pile(1, 1, 1), reading=reading)
    assert setup.bag == 100 - 21 - 4 - 3
    assert setup.bag_left == left


def test_setup_reports_a_short_supply():
    setup = setup_cubes(Pile(red=5, yellow=5, green=20), SHIPPED_STARTING_VALUES, banks=10,
                        players=4, reading=Reading.ON_TOP)
    assert setup.greens_short == 5
    assert setup.bag_left < 0
