"""Downturn's consistency rules: each one broken alone in a copy of the shipped content.

Every row breaks the shipped data in one way (sometimes one logical change spread over a few
lines, such as a rename), runs `pnp check`, and expects that rule, and only that rule, to report
an error at the file and line of the value at fault.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from pnp.pipeline import Project, check_game
from pnp_downturn import rules as downturn_rules
from pnp.rules.registry import REGISTRY, rules_for

from conftest import edit, line_of
from sameplace import project, same_place  # noqa: F401 - fixtures

GAME = Path("content/downturn")
RULES_MODULE = downturn_rules.__name__
EMPIRE = "\n- name: Empire Savings"
CASCADE_BLOCK = ("\n- name: Cascade Home Loan\n  home_region: Pacific\n  min_players: 4\n"
                 "  auction_order: 10\n  dividend: 3\n  max_cubes_cards: 6\n  max_shares: 4")
EVENT_41_BLOCK = ('\n- number: 41\n  title: "Cross-Country Migration"\n  timing: now\n'
                  '  leader: true\n  effect: "Leader moves up to 2 cubes from one region to '
                  'another region that is below its max."\n  invest: {yellow: 1, green: 1}\n')
NEW_REGIONS = ("Gulf", "Lakes", "Valley", "Delta", "Coast")
PACIFIC = "- {name: Pacific, starting_value: 5, max: 8}"
LAST_BLOCK = 'note: "From Virginia round the Gulf to Florida."}'
LIQUIDITY_FREEZE = ('effect: "Investment Track down 1 column; for the rest of the turn action E '
                    '(Regional Bank Investment) may not be taken."\n  track: -1')
LIQUIDITY_FREEZE_WITHOUT_DROP = ('effect: "For the rest of the turn action E (Regional Bank '
                                 'Investment) may not be taken."')


def add_regions(*names: str, start: str = "3, max: 6") -> list[tuple]:
    """Edits that add regions, each with a small block of its own on the board."""
    regions = "".join(f"\n- {{name: {name}, starting_value: {start}}}" for name in names)
    blocks = "".join(f"\n  - {{region: {name}, x_mm: {350 + 54 * (i % 3)}, "
                     f"y_mm: {72 + 94 * (i // 3)}, width_mm: 50, height_mm: 90}}"
                     for i, name in enumerate(names))
    return [("regions.yaml", PACIFIC, PACIFIC + regions),
            ("board.yaml", LAST_BLOCK, LAST_BLOCK + blocks)]


def case(rule_id, changes, where, *, id=None):
    """One row: `changes` is [(file, old, new[, count])], `where` is (file, needle[, offset])."""
    return pytest.param(rule_id, changes, where, id=id or rule_id)


CASES = [
    # the board's block map
    case("board-blocks", [("board.yaml", "{region: Pacific,", "{region: Pacifc,")],
         ("board.yaml", "region: Pacifc")),
    # components and supply
    case("components-cube-supply", [("components.yaml", "black: 3", "black: 2")],
         ("components.yaml", "cubes:")),
    case("components-player-colours",
         [("components.yaml", "[red, yellow, blue, green]", "[red, yellow, blue]")],
         ("components.yaml", "player_colours:")),
    case("components-shares",
         [("components.yaml", "shares_per_colour: 20", "shares_per_colour: 15")],
         ("components.yaml", "shares_per_colour:")),
    case("components-markers",
         [("components.yaml", "turn_order_markers: 4", "turn_order_markers: 3")],
         ("components.yaml", "turn_order_markers:")),
    case("game-player-count", [("game.yaml", "{min: 2, max: 4}", "{min: 2, max: 5}")],
         ("game.yaml", "players:")),
    case("bond-start-per-player",
         [("tracks.yaml", "bond_green_per_player: 1", "bond_green_per_player: 2")],
         ("tracks.yaml", "bond_green_per_player:")),
    case("setup-green-supply", add_regions(*NEW_REGIONS),
         ("components.yaml", "cubes:")),
    case("setup-bag", [("regions.yaml", "{name: Pacific, starting_value: 5, max: 8}",
                        "{name: Pacific, starting_value: 45, max: 48}")],
         ("components.yaml", "cubes:")),
    # regions
    case("region-name-unique",
         add_regions("pacific", start="6, max: 9"),
         ("regions.yaml", "{name: pacific")),
    case("region-attested", [(name, "Midwest", "Great Lakes", -1)
                             for name in ("regions.yaml", "banks.yaml", "events.yaml",
                                          "board.yaml")],
         ("regions.yaml", "{name: Northeast")),
    case("region-southeast-max", [("regions.yaml", "{name: Southeast, starting_value: 5, max: 8}",
                                   "{name: Southeast, starting_value: 3, max: 6}")],
         ("regions.yaml", "{name: Southeast")),
    case("region-starting-value", [("regions.yaml", "{name: Mountain, starting_value: 3,",
                                    "{name: Mountain, starting_value: 2,")],
         ("regions.yaml", "{name: Mountain")),
    case("region-max", [("regions.yaml", "{name: Northeast, starting_value: 5, max: 8}",
                         "{name: Northeast, starting_value: 5, max: 7}")],
         ("regions.yaml", "{name: Northeast")),
    case("region-max", [("regions.yaml", "{name: Northeast, starting_value: 5, max: 8}",
                         "{name: Northeast, starting_value: 5, max: 5}")],
         ("regions.yaml", "{name: Northeast"), id="region-max-not-above-start"),
    # banks
    case("bank-count", [("banks.yaml", CASCADE_BLOCK, "")], ("banks.yaml", "- name: Empire")),
    case("bank-auction-order", [("banks.yaml", "auction_order: 7", "auction_order: 6")],
         ("banks.yaml", "- name: Liberty Trust", 3)),
    case("bank-auction-order", [("banks.yaml", "auction_order: 10", "auction_order: 11")],
         ("banks.yaml", "auction_order: 11"), id="bank-auction-order-range"),
    case("bank-home-region", [("banks.yaml", "home_region: Southwest", "home_region: Sothwest")],
         ("banks.yaml", "home_region: Sothwest")),
    case("bank-dividend", [("banks.yaml", "dividend: 4\n  max_cubes_cards: 8",
                            "dividend: 8\n  max_cubes_cards: 8")],
         ("banks.yaml", "dividend: 8")),
    case("bank-max-shares", [("banks.yaml", "max_cubes_cards: 5\n  max_shares: 3",
                              "max_cubes_cards: 5\n  max_shares: 1")],
         ("banks.yaml", "max_shares: 1")),
    case("bank-name-unique", [("banks.yaml", "- name: Liberty Trust", "- name: EMPIRE SAVINGS")],
         ("banks.yaml", "EMPIRE SAVINGS")),
    case("bank-min-players", [("banks.yaml", "min_players: 4\n  auction_order: 10",
                               "min_players: 5\n  auction_order: 10")],
         ("banks.yaml", "min_players: 5")),
    case("bank-minimum-in-play",
         [("banks.yaml", f"min_players: 2\n  auction_order: {n}",
           f"min_players: 3\n  auction_order: {n}") for n in (2, 3, 4, 5)],
         ("banks.yaml", "- name: Empire Savings")),
    case("bank-plains-three-players", [("banks.yaml", "min_players: 3\n  auction_order: 6",
                                        "min_players: 4\n  auction_order: 6")],
         ("banks.yaml", "- name: Prairie Bancorp", 2)),
    case("bank-dixie", [("banks.yaml", "max_cubes_cards: 5\n  max_shares: 3",
                         "max_cubes_cards: 6\n  max_shares: 3")],
         ("banks.yaml", "- name: Dixie Bank", 5)),
    case("bank-dixie", [("banks.yaml", "home_region: Southeast", "home_region: Northeast")],
         ("banks.yaml", "- name: Dixie Bank", 1), id="bank-dixie-home"),
    case("bank-share-slots", [("banks.yaml", "max_shares: 5", "max_shares: 25")],
         ("banks.yaml", "max_shares: 25")),
    # tracks
    case("track-column-numbers", [("tracks.yaml", "{column: 3, phase: Slowdown",
                                   "{column: 2, phase: Slowdown")],
         ("tracks.yaml", "phase: Slowdown")),
    case("track-start-column", [("tracks.yaml", "investment_start: 6", "investment_start: 5")],
         ("tracks.yaml", "investment_start:")),
    case("track-top-ratio", [("tracks.yaml", "yellow: 3, red: 5", "yellow: 3, red: 6")],
         ("tracks.yaml", "phase: Boom")),
    case("track-example-column", [("tracks.yaml", "yellow: -1, red: -2", "yellow: -1, red: -3")],
         ("tracks.yaml", "{column: 1,")),
    case("track-example-column", [("tracks.yaml", "yellow: -2, red: -4", "yellow: -1, red: -2")],
         ("tracks.yaml", "phase: Recession"), id="track-example-column-twice"),
    case("track-monotonic", [("tracks.yaml", "phase: Plateau, green: 1, yellow: 1, red: 1",
                              "phase: Plateau, green: 1, yellow: 1, red: 4")],
         ("tracks.yaml", "phase: Plateau")),
    case("track-bond-halves", [("tracks.yaml", "bond_green: 1.5", "bond_green: 1.25")],
         ("tracks.yaml", "bond_green: 1.25")),
    case("track-stability", [("tracks.yaml", "{spaces: 5, start: 3}", "{spaces: 5, start: 2}")],
         ("tracks.yaml", "stability:")),
    case("track-scoring", [("tracks.yaml", "{min: -10,", "{min: -5,")],
         ("tracks.yaml", "scoring:")),
    case("track-scoring", [("tracks.yaml", "lap: 60}", "lap: 70}")],
         ("tracks.yaml", "scoring:"), id="track-scoring-lap-gap"),
    case("track-quarters", [("tracks.yaml", "quarters: 4", "quarters: 3")],
         ("tracks.yaml", "quarters:")),
    # events
    case("event-count", [("events.yaml", EVENT_41_BLOCK, "")], ("events.yaml", "- number: 42")),
    case("event-numbers", [("events.yaml", "- number: 42", "- number: 41")],
         ("events.yaml", "- number: 41")),
    case("event-title-unique", [("events.yaml", '"Bull Market Rally"', '"FED CUTS RATES"')],
         ("events.yaml", "FED CUTS RATES")),
    case("event-invest-cubes", [("events.yaml", "invest: {red: 1, yellow: 1, green: 1}",
                                 "invest: {red: 2, yellow: 1, green: 1}")],
         ("events.yaml", "invest: {red: 2, yellow: 1, green: 1}")),
    case("event-region-exists", [("events.yaml", "region: Plains", "region: Plainz")],
         ("events.yaml", "region: Plainz")),
    case("event-effect-fields", [("events.yaml", 'effect: "Stability -2."\n  stability: -2',
                                  'effect: "Stability -2."\n  stability: -1')],
         ("events.yaml", '"Subprime Defaults Spike"', 3)),
    case("event-effect-fields", [("events.yaml", "  track: 1\n", "")],
         ("events.yaml", '"Bull Market Rally"', 2), id="event-effect-fields-track"),
    case("event-effect-fields", [("events.yaml", "  bond: 2\n", "")],
         ("events.yaml", '"Bond Market Rally"', 2), id="event-effect-fields-bond"),
    case("event-stability-delta", [("events.yaml", 'effect: "Stability -2."\n  stability: -2',
                                    'effect: "Stability -3."\n  stability: -3')],
         ("events.yaml", "stability: -3")),
    case("event-crash-track",
         [("events.yaml", LIQUIDITY_FREEZE, LIQUIDITY_FREEZE_WITHOUT_DROP)],
         ("events.yaml", "For the rest of the turn action E")),
    case("event-leader-flag", [("events.yaml", 'leader: true\n  effect: "Stability -1; then',
                                'effect: "Stability -1; then')],
         ("events.yaml", "every owned bank holding 2+")),
    case("event-leader-flag", [("events.yaml", 'title: "Housing Starts Slow"\n  timing: now',
                                'title: "Housing Starts Slow"\n  timing: now\n  leader: true')],
         ("events.yaml", '"Housing Starts Slow"', 2), id="event-leader-flag-unused"),
    case("event-initial-draw-actor",
         [("events.yaml", 'effect: "In turn order, each player may withdraw one of their own',
           'effect: "The active player withdraws one of their own')],
         ("events.yaml", "The active player withdraws")),
    case("event-owned-banks", [("events.yaml", "picks one owned bank, which discards 1 {red}",
                                "picks one bank, which discards 1 {red}")],
         ("events.yaml", "Leader picks one bank, which discards")),
    case("event-bond-floor", [("events.yaml", "Bond area (never below one per player);",
                               "Bond area;")],
         ("events.yaml", "from the Bond area; Stability -1.")),
    case("event-timing-text",
         [("events.yaml", 'rest-of-turn\n  effect: "For the rest of the turn every',
           'now\n  effect: "For the rest of the turn every')],
         ("events.yaml", '"Lending Standards Relaxed"', 1)),
    case("event-attested-titles", [("events.yaml", '"Credit Swap"', '"Credit Swop"')],
         ("events.yaml", "- number: 1")),
]


def errors_of(run) -> list[dict]:
    result = run("check", "--format", "json")
    report = json.loads(result.out)
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert (result.code == 1) == bool(errors), result.err
    return errors


def test_shipped_content_passes_every_rule(project, run):
    result = run("check")
    assert result.code == 0, result.err
    assert "0 errors, 0 warnings" in result.err


@pytest.mark.parametrize(("rule_id", "changes", "where"), CASES)
def test_each_rule_fires_alone_at_the_value_at_fault(project, run, rule_id, changes, where):
    for file_name, old, new, *count in changes:
        edit(GAME / file_name, old, new, *count)
    file_name, needle, *offset = where
    line = line_of(GAME / file_name, needle) + (offset[0] if offset else 0)

    errors = errors_of(run)

    assert {f["rule"] for f in errors} == {rule_id}, errors
    places = {(f["file"], f["line"]) for f in errors}
    assert ((GAME / file_name).as_posix(), line) in places, errors
    assert all(f["message"] for f in errors)


def test_every_downturn_rule_has_a_breaking_case():
    covered = {param.values[0] for param in CASES}
    written_here = {r.id for r in rules_for("downturn") if r.check.__module__ == RULES_MODULE}
    assert len(written_here) >= 30
    assert written_here <= covered, sorted(written_here - covered)


@pytest.mark.parametrize(("needle", "fragment"), [
    ("black: 3", "2 black cubes, the rules list 3"),
    ("{name: Mountain, starting_value: 3,", "starting value 2, expected at least 3"),
])
def test_messages_state_actual_and_expected(project, run, needle, fragment):
    file_name = "components.yaml" if "black" in needle else "regions.yaml"
    edit(GAME / file_name, needle, needle.replace("3", "2", 1))
    result = run("check")
    assert fragment in result.err


def test_setup_bag_names_the_player_count_and_the_reading(project, run):
    edit(GAME / "regions.yaml", "{name: Pacific, starting_value: 5, max: 8}",
         "{name: Pacific, starting_value: 45, max: 48}")
    [finding] = errors_of(run)
    # At 4 players: 100 cubes - 21 regional greens - 4 bond greens - 3 scorers = 72 in the bag;
    # 70 drawn on top of the greens plus 10 bank cubes = 80.
    assert "holds 72 cubes after setup at 4 players but the draws need 80" in finding["message"]
    assert "on top of the 3 greens" in finding["message"]


def test_a_full_deal_needs_enough_events(project):
    checked = check_game(Project(Path(".")), "downturn")
    assert checked.ok
    short = copy.copy(checked.game)
    short.parts = {**checked.game.parts, "events": checked.game.events[:30]}
    messages = [f.message for f in REGISTRY["game-player-count"].check(short)]
    assert messages == [
        "a 4-player turn deals 31 cards (3 + 7 x 4), more than the 30 event cards"]
