"""Every finding at once: an error in one item or one file never hides the findings of the
others, so one check lists everything there is to fix."""

from __future__ import annotations

import shutil

import pytest
from pathlib import Path

from conftest import TESTS, edit

LEDGER = TESTS / "data" / "games" / "ledger"


def rules_of(result) -> set[str]:
    return {line.rsplit("(rule ", 1)[-1].rstrip(")") for line in result.lines
            if ": error: " in line}


def shows(lines: list[str], where: str, *fragments: str) -> bool:
    """Whether a line starts at `where` (file:line:) and holds every fragment."""
    return any(line.startswith(where) and all(part in line for part in fragments)
               for line in lines)


def error_lines(result) -> list[str]:
    """The error lines of a check that failed as it should: exit 1, no traceback."""
    assert result.code == 1
    assert "Traceback" not in result.err and "internal error" not in result.err
    return [line for line in result.lines if ": error: " in line]


def test_a_schema_error_in_one_file_does_not_hide_the_budgets_of_another(tmp_path, run,
                                                                        monkeypatch):
    shutil.copytree(LEDGER, tmp_path / "p")
    monkeypatch.chdir(tmp_path / "p")
    edit(Path("content/ledger/cards.csv"), "Loan,1,", "Loan with a far too long title,1,")
    edit(Path("content/ledger/notes.yaml"), "amount: ", "amount: lots  # ", 1)
    result = run("check")
    assert result.code == 1
    assert "Traceback" not in result.err
    assert {"text-budget", "schema-type"} <= rules_of(result), result.err
    assert shows(result.lines, "content/ledger/cards.csv:2:")


def test_a_text_over_budget_does_not_hide_the_rules_findings(project, run):
    game = project / "content/downturn/game.yaml"
    edit(game, "      title: text", "      title: {type: text, max_chars: 20}")
    edit(project / "content/downturn/banks.yaml", "auction_order: 2", "auction_order: 1")
    result = run("check")
    assert result.code == 1
    assert "Traceback" not in result.err
    assert {"text-budget", "bank-auction-order"} <= rules_of(result), result.err


def ledger_with_references(root: Path) -> Path:
    """Ledger, its notes each naming a card (`card: {type: ref, to: cards}`, cards keyed by
    title), a table of prices, and a rules.yaml with a rule over each."""
    shutil.copytree(LEDGER, root)
    game = root / "content/ledger"
    edit(game / "game.yaml", "\ndecks:\n", "\ndata:\n  prices:\n    file: prices.yaml\n"
         "    label: 'price \"{{ name }}\"'\n"
         "    fields: {name: text, cost: whole}\n\ndecks:\n")
    (game / "prices.yaml").write_text("- {name: Loan, cost: 3}\n- {name: Bond, cost: 30}\n",
                                      encoding="utf-8")
    edit(game / "game.yaml", "    file: cards.csv\n", "    file: cards.csv\n    key: title\n")
    edit(game / "game.yaml", "      amount: {type: whole, min: 1, max: 99}",
         "      amount: {type: whole, min: 1, max: 99}\n      card: {type: ref, to: cards}")
    edit(game / "notes.yaml", "  amount: 5\n", "  amount: 5\n  card: Loan\n")
    edit(game / "notes.yaml", "  amount: 50\n", "  amount: 50\n  card: Bond\n")
    (game / "rules.yaml").write_text(
        "- id: cheap\n"
        "  for_each: prices\n"
        "  item: price\n"
        "  expect: price.cost < 10\n"
        "  message: '{{ price.name }} costs {{ price.cost }}'\n"
        "- id: three-cards\n"
        "  expect: cards | length == 3\n"
        "  message: 'there are {{ cards | length }} cards'\n"
        "- id: three-cards-of-the-game\n"
        "  expect: game.cards | length == 3\n"
        "  message: 'there are {{ game.cards | length }} cards'\n"
        "- id: two-notes\n"
        "  expect: notes | length == 2\n"
        "  message: 'there are {{ notes | length }} notes'\n", encoding="utf-8")
    return root


def test_a_schema_error_in_one_file_does_not_hide_a_broken_reference_in_another(tmp_path, run,
                                                                               monkeypatch):
    root = ledger_with_references(tmp_path / "p")
    monkeypatch.chdir(root)
    # On the game as it is, only the rule over the prices finds something.
    assert rules_of(run("check")) == {"cheap"}
    # A schema error in cards.csv's first item; a broken reference in notes.yaml; a reference
    # to the card with the error is no error (its key is still 'Loan').
    edit(Path("content/ledger/cards.csv"), "Loan,1,", "Loan,one,")
    edit(Path("content/ledger/notes.yaml"), "card: Bond", "card: Bnod")
    result = run("check")
    errors = error_lines(result)
    assert shows(errors, "content/ledger/cards.csv:2:", "(rule schema-type)"), result.err
    assert shows(errors, "content/ledger/notes.yaml:6:", "'Bnod' is not in cards",
                 "(rule ref-unknown)"), result.err
    assert not any("'Loan'" in line for line in errors), result.err
    # The rule over the prices, which are whole, still runs, at the price's own line; the
    # rules that read the cards (one short of what they hold) or the notes (one names a card
    # that is not there) are left out, not reported wrongly.
    cheap = [line for line in errors if "(rule cheap)" in line]
    assert len(cheap) == 1 and cheap[0].startswith("content/ledger/prices.yaml:2:") \
        and "Bond costs 30" in cheap[0], result.err
    assert rules_of(result) == {"schema-type", "ref-unknown", "cheap"}, result.err
    assert len(errors) == 3, result.err


def test_a_schema_error_in_one_file_does_not_hide_the_rules(tmp_path, run, monkeypatch):
    root = ledger_with_references(tmp_path / "p")
    monkeypatch.chdir(root)
    (root / "content/ledger/rules.yaml").write_text(
        "- id: two-cards\n"
        "  expect: cards | length == 2\n"
        "  message: 'there are {{ cards | length }} cards'\n"
        "- id: two-notes\n"
        "  expect: notes | length == 2\n"
        "  message: 'there are {{ notes | length }} notes'\n", encoding="utf-8")
    edit(Path("content/ledger/notes.yaml"), "amount: 5\n", "amount: five\n")
    result = run("check")
    error_lines(result)
    # The notes are withheld from the rules (one of them failed: two-notes would fail
    # wrongly); the cards are whole, so the rule that reads them runs.
    two_cards = [line for line in result.lines if "(rule two-cards)" in line]
    assert len(two_cards) == 1 and two_cards[0].startswith("content/ledger/rules.yaml:1:") \
        and "there are 3 cards" in two_cards[0], result.err
    assert rules_of(result) == {"schema-type", "two-cards"}, result.err


def test_a_missing_data_file_does_not_hide_the_plugin_rules(project, run):
    """downturn: its banks.yaml broken, the plug-in's rules on the other tables still run."""
    edit(project / "content/downturn/banks.yaml", "auction_order: 2", "auction_order: two")
    edit(project / "content/downturn/regions.yaml", "starting_value: 5", "starting_value: 2", 1)
    result = run("check")
    error_lines(result)
    found = rules_of(result)
    assert {"schema-type", "region-starting-value"} <= found, result.err
    assert "game-plugin" not in found, result.err
    line = [line for line in result.lines if "(rule region-starting-value)" in line]
    assert len(line) == 1 and line[0].startswith("content/downturn/regions.yaml:3:"), result.err


def test_an_error_in_one_decks_declaration_does_not_hide_the_others(tmp_path, run, monkeypatch):
    """A field type misspelt in the cards' declaration in game.yaml: the cards are not read,
    and the notes, the prices and the rules over them still are."""
    root = ledger_with_references(tmp_path / "p")
    monkeypatch.chdir(root)
    edit(Path("content/ledger/game.yaml"), "value: {type: whole,", "value: {type: wholee,")
    edit(Path("content/ledger/notes.yaml"), "name: Small note", "name: A far too long note")
    result = run("check")
    errors = error_lines(result)
    assert shows(errors, "content/ledger/game.yaml:", "wholee"), result.err
    assert shows(errors, "content/ledger/notes.yaml:1:", "(rule text-budget)"), result.err
    assert any("(rule cheap)" in line for line in errors), result.err
    # Nothing about the cards but their declaration: no rule read them, no reference to
    # them was called unknown.
    assert len(errors) == 3, result.err


def test_a_schema_error_in_the_data_does_not_hide_a_sheet_size_error(tmp_path, run,
                                                                    monkeypatch):
    shutil.copytree(LEDGER, tmp_path / "p")
    monkeypatch.chdir(tmp_path / "p")
    edit(Path("content/ledger/cards.csv"), "Loan,1,", "Loan,one,")
    edit(Path("content/ledger/game.yaml"), "size: 40 x 40 mm", "size: 40 x 40 mn")
    result = run("check")
    errors = error_lines(result)
    assert shows(errors, "content/ledger/cards.csv:2:"), result.err
    assert shows(errors, "content/ledger/game.yaml:", "size"), result.err
    assert len(errors) == 2, result.err


@pytest.mark.parametrize(("old", "new", "rule"), [
    ("    size: poker\n", "    size: poker\n    stock: cardboard\n", "schema-choice"),
    ("    size: poker\n", "    size: poker\n    corner_radius_mm: lots\n", "schema-type"),
    ("    size: poker\n", "    size: poker\n    sise: tarot\n", None),  # a warning only
], ids=["choice", "number", "unknown-key"])
def test_an_error_in_one_decks_spec_in_the_manifest_hides_no_other(tmp_path, run, monkeypatch,
                                                                   old, new, rule):
    """A value in one deck's spec in game.yaml that cannot be used: that deck is left out (and
    the game is only checked), the other decks' and files' findings and the rules still show."""
    root = ledger_with_references(tmp_path / "p")
    monkeypatch.chdir(root)
    edit(Path("content/ledger/game.yaml"), old, new)
    edit(Path("content/ledger/notes.yaml"), "name: Small note", "name: A far too long note")
    result = run("check")
    found = rules_of(result)
    assert "text-budget" in found and "cheap" in found, result.err
    if rule:
        assert rule in found and result.code == 1, result.err
        game_yaml = [line for line in error_lines(result) if "game.yaml" in line]
        assert len(game_yaml) == 1 and "decks.cards." in game_yaml[0], result.err
        assert "ref-unknown" not in found and "manifest-ref" not in found, result.err
        built = run("build")
        assert built.code == 1 and "nothing was written" in built.err
        assert not (root / "output").exists()
