"""Every finding at once: an error in one item or one file never hides the findings of the
others, so one check lists everything there is to fix."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import TESTS, edit

LEDGER = TESTS / "data" / "games" / "ledger"


def rules_of(result) -> set[str]:
    return {line.rsplit("(rule ", 1)[-1].rstrip(")") for line in result.lines
            if ": error: " in line}


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
    assert any(line.startswith("content/ledger/cards.csv:2:") for line in result.lines)


def test_a_text_over_budget_does_not_hide_the_rules_findings(project, run):
    game = project / "content/downturn/game.yaml"
    edit(game, "      title: text", "      title: {type: text, max_chars: 20}")
    edit(project / "content/downturn/banks.yaml", "auction_order: 2", "auction_order: 1")
    result = run("check")
    assert result.code == 1
    assert "Traceback" not in result.err
    assert {"text-budget", "bank-auction-order"} <= rules_of(result), result.err
