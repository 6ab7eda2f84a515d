"""Plausible edits a designer makes to a kit's data, each one alone in a copy of the shipped
game: the rules (the game's rules.yaml and plug-in) must report it at the line of the data
that changed, under the rule that owns it. The shipped kits give none of these findings.

Only the rules run here (load, then pnp.pipeline.check_rules), not the drawing: a rule reads
the same data the templates print, so this is where a printed number and its data part ways.
The last tests run the whole `pnp check` once, on a Boomtown whose colour was renamed.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import REPO, edit, line_of
from pnp.cli import main
from pnp.findings import Findings
from pnp.load.model import load_game
from pnp.pipeline import Project, check_rules
from pnp.rules.registry import REGISTRY


def rule_findings(root: Path, game: str) -> list:
    """The findings of `game`'s rules in the project at `root`, loading nothing but its data."""
    project = Project(root)
    folder = project.content / game
    findings = Findings()
    model = load_game(folder, str, findings, partial=True)
    assert model is not None, [str(f) for f in findings]
    findings.extend(check_rules(project, folder, model))
    return list(findings)


def copied(tmp_path: Path, game: str) -> Path:
    shutil.copytree(REPO / "content" / game, tmp_path / "content" / game)
    return tmp_path / "content" / game


# (game, [(file, old, new), ...], rule, (file, text on the line the finding points at))
HEADHUNTER_OF_OLD = ("Headhunter,action,,,3,Take one Workforce card from another bank with every "
                     "Asset lent on it and put it in front of you.,,2")
EDITS = {
    # The report's card that knocks a bank out: its old text takes a bank's last Workforce.
    "crunch-headhunter": ("crunch", [("assets.csv", re.compile(r"^Headhunter,.*$", re.M),
                                      HEADHUNTER_OF_OLD)],
                          "no-card-takes-last-workforce", ("assets.csv", "Headhunter,")),
    # The cover prints the deal from cover.yaml: a setup row changed alone disagrees with it.
    "crunch-deal": ("crunch", [("setup.yaml", "{players: 3, workforce: 1, trust: 2",
                                "{players: 3, workforce: 1, trust: 3")],
                    "cover-deal-matches-setup", ("setup.yaml", "players: 3")),
    "crunch-reveal-cost": ("crunch", [("scoring.yaml", "reveal_cost: 1", "reveal_cost: 2")],
                           "aid-reveal-cost", ("scoring.yaml", "reveal_cost")),
    "crunch-gold-values-swapped": ("crunch", [("assets.csv", "Gold 3M,gold,,,3,", "Gold 3M,gold,,,4,"),
                                              ("assets.csv", "Gold 4M,gold,,,4,", "Gold 4M,gold,,,3,")],
                                   "asset-name-is-its-value", ("assets.csv", "Gold 3M")),
    "crunch-cash-renamed": ("crunch", [("assets.csv", "Cash 2M,cash", "Cash 1M,cash")],
                            "asset-name-is-its-value", ("assets.csv", "Cash 1M,cash,,,2")),
    "crunch-unknown-industry": ("crunch", [("events.yaml", "for each Oil share", "for each Pharma share")],
                                "event-names-a-company", ("events.yaml", "Pharma")),
    "crunch-counter-misnamed": ("crunch", [("assets.csv", "Play when a Bank Run is aimed",
                                            "Play when a Run on the Bank is aimed")],
                                "counter-card-names-its-target", ("assets.csv", "Emergency Loan")),
    "crunch-defaults-inverted": ("crunch", [
        ("events.yaml", "pays: high, per_asset: 2, defaults: 1", "pays: high, per_asset: 2, defaults: 0"),
        ("events.yaml", "pays: high, per_asset: 3, defaults: 2", "pays: high, per_asset: 3, defaults: 0"),
        ("events.yaml", "pays: low, per_asset: 1, defaults: 0", "pays: low, per_asset: 1, defaults: 1")],
        "interest-defaults-rise", ("events.yaml", "High-Risk Interest,")),
    "crunch-free-workforce": ("crunch", [("workforce.csv", "Pension Desk,low,1,2", "Pension Desk,low,0,9")],
                              "workforce-overhead-paid", ("workforce.csv", "Pension Desk")),
    "crunch-big-low-workforce": ("crunch", [("workforce.csv", "Pension Desk,low,1,2",
                                             "Pension Desk,low,1,9")],
                                 "workforce-capacity-below-next-risk", ("workforce.csv", "Pension Desk")),
    # The dividend the plug-in computes (permanent cubes only) against the aid's words.
    "downturn-dividend-wording": ("downturn", [("aids.yaml", "its dividend in permanent cubes (invested",
                                                "its dividend in cubes (invested")],
                                  "printed-readings", ("aids.yaml", "its dividend in cubes (invested")),
    "downturn-blue-in-the-bag": ("downturn", [("board.yaml", " (the blue cube stays in the box)", "")],
                                 "printed-readings", ("board.yaml", "setup:")),
    "downturn-cleanup-wording": ("downturn", [("aids.yaml", " (the limit counts cubes only)", "")],
                                 "printed-readings", ("aids.yaml", "Banks absorb half")),
    "downturn-stability-wording": ("downturn", [("aids.yaml", "A move stops at 1 or 5. ", "")],
                                   "printed-readings", ("aids.yaml", "At 1 the Investment Track drops")),
    # Boomtown's land value against the $10/$20/$920 the cards and board print.
    "boomtown-land-value": ("boomtown", [("economy.yaml", "land_value_m: 10", "land_value_m: 20"),
                                         ("economy.yaml", "first_property_value_m: 20",
                                          "first_property_value_m: 40"),
                                         ("economy.yaml", "bank_tower_value_m: 920",
                                          "bank_tower_value_m: 1840")],
                            "printed-land-value", ("economy.yaml", "land_value_m")),
    # Numbers the covers print from other tables.
    "downturn-cover-cubes": ("downturn", [("components.yaml", "green: 40", "green: 44")],
                             "cover-cube-counts", ("components.yaml", "cubes:")),
    "banking-cover-hand": ("banking", [("economy.yaml", "hand_size: 3", "hand_size: 4")],
                           "cover-setup-figures", ("economy.yaml", "starting_greenbacks")),
    "downsize-cover-hand": ("downsize", [("setup.yaml", "{players: 6, hand: 8", "{players: 6, hand: 9")],
                            "cover-setup-figures", ("setup.yaml", "players: 6")),
    # Two Debt-token sets named Red print 100 RED and no PURPLE.
    "banking-two-reds": ("banking", [("players.yaml", "{name: Purple,", "{name: Red,")],
                         "debt-name-unique", ("players.yaml", "initial: P")),
    "downsize-department-lookalike": ("downsize", [("departments.yaml", "{name: HR, letter: H",
                                                    "{name: HR, letter: C")],
                                      "department-letter-unique", ("departments.yaml", "name: HR")),
}


@pytest.mark.parametrize("case", EDITS)
def test_an_edit_is_reported_at_the_data_that_changed(tmp_path, case):
    game, edits, rule, (file, needle) = EDITS[case]
    folder = copied(tmp_path, game)
    for name, old, new in edits:
        if isinstance(old, re.Pattern):
            path = folder / name
            text = path.read_text(encoding="utf-8")
            assert old.search(text)
            path.write_text(old.sub(new, text, count=1), encoding="utf-8")
        else:
            edit(folder / name, old, new)
    found = [f for f in rule_findings(tmp_path, game) if f.rule == rule]
    assert found, f"{case}: no '{rule}' finding"
    line = line_of(folder / file, needle)
    assert any(Path(f.where.path).name == file and f.where.line == line for f in found), \
        [str(f) for f in found]


@pytest.mark.parametrize("game", sorted({game for game, *_ in EDITS.values()}))
def test_the_shipped_kits_keep_these_rules_and_give_none_of_their_findings(game):
    rules = {rule for owner, _, rule, _ in EDITS.values() if owner == game}
    found = [str(f) for f in rule_findings(REPO, game) if f.rule in rules]
    assert not found
    declared = (REPO / "content" / game / "rules.yaml").read_text(encoding="utf-8")
    assert all(f"id: {rule}" in declared or rule in REGISTRY for rule in rules)  # plug-in's: loaded


@pytest.fixture(scope="module")
def boomtown_copy(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("boomtown")
    copied(root, "boomtown")
    shutil.copytree(REPO / "templates" / "boomtown", root / "templates" / "boomtown")
    return root


@pytest.mark.parametrize("old, new, expected", [
    ("{name: Yellow, letter: Y", "{name: Purple, letter: P", "investors.yaml:{line}:"),
    ("- {name: Yellow, letter: Y, fill: \"#fdd835\", ink: \"#000000\"}\n", "", "game.yaml:"),
])
def test_a_renamed_or_removed_colour_is_a_located_finding(boomtown_copy, capsys, old, new,
                                                          expected):
    path = boomtown_copy / "content" / "boomtown" / "investors.yaml"
    shipped = path.read_text(encoding="utf-8")
    try:
        edit(path, old, new)
        line = line_of(path, "Purple") if "Purple" in new else 0
        code = main(["check", "--root", str(boomtown_copy), "--game", "boomtown", "--no-cache"])
    finally:
        path.write_text(shipped, encoding="utf-8")
    out = capsys.readouterr()
    said = out.out + out.err
    assert code in (0, 1) and "internal error" not in said
    assert expected.format(line=line) in said
