"""Bounds from the schema, through the CLI: every size, count, gap, offset and scale has a
range, and a value outside it is one located finding, found quickly, never an out-of-memory
or a blame on the wrong thing. The limits on file size and deck size are sized for real card
lists, and a finding that meets one names it and says how to raise it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from conftest import edit, line_of, one_error
from pnp.findings import Findings
from pnp.load.csvdata import load_csv
from pnp.load.limits import DEFAULT_FILE_MB, DEFAULT_ITEMS

GAME = Path("content/ledger/game.yaml")


@pytest.mark.parametrize("size, fragment", [
    ("0.001 mm", "less than the 5 mm a piece must be"),
    ("0.001 x 40 mm", "less than the 5 mm a piece must be"),
    ("4 x 4 mm", "less than the 5 mm"),
    ("3000 x 40 mm", "more than the 2000 mm a piece may be"),
    ("99999999999999 in", "more than the 2000 mm"),
])
def test_a_piece_size_out_of_bounds_is_one_located_finding(ledger, run, size, fragment):
    edit(ledger / GAME, "size: 40 x 40 mm", f"size: {size}")
    started = time.monotonic()
    line = one_error(run("check"))
    assert time.monotonic() - started < 20
    assert line.startswith(f"{GAME}:{line_of(ledger / GAME, 'size: ' + size)}:"), line
    assert fragment in line and "(rule manifest-size)" in line


@pytest.mark.parametrize("old, new, key", [
    ("gap_mm: 2", "gap_mm: -5", "prop.gap_mm: -5.0 must be >= 0"),
    ("min_margin_mm: 8", "min_margin_mm: -1", "prop.min_margin_mm: -1.0 must be >= 0"),
    ("length_mm: 5", "length_mm: -5", "prop.marks.length_mm: -5.0 must be >= 0"),
    ("offset_mm: 1.5", "offset_mm: 999", "prop.marks.offset_mm: 999.0 must be <= 50"),
    ("width_pt: 0.3", "width_pt: -0.3", "prop.marks.width_pt: -0.3 must be >= 0"),
    ("gap_mm: 2", "gap_mm: 2\n  grid: {cols: -1}", "prop.grid.cols: -1 must be >= 0"),
])
def test_a_layout_number_out_of_bounds_is_located_in_layouts_yaml(ledger, run, old, new, key):
    edit(ledger / "layouts.yaml", old, new)
    line = one_error(run("check", "--layout", "prop"))
    assert line.startswith("layouts.yaml:"), line
    assert key in line, line


def test_a_slot_off_the_paper_is_blamed_on_the_slot_not_the_piece(ledger, run):
    layouts = ledger / "layouts.yaml"
    layouts.write_text(layouts.read_text(encoding="utf-8") + (
        "offpaper:\n  description: two slots, one off the page\n  kind: slots\n"
        "  slots:\n    - {x_mm: 10, y_mm: 10}\n    - {x_mm: 400, y_mm: 10}\n"),
        encoding="utf-8")
    result = run("check", "--layout", "offpaper")
    assert result.code == 1
    errors = [line for line in result.lines if ": error: " in line]
    slot_line = line_of(layouts, "x_mm: 400")
    assert errors and all(e.startswith(f"layouts.yaml:{slot_line}:") for e in errors), errors
    assert all("slot 2 at (400, 10) mm" in e and "runs off" in e and "(rule layout-slots)" in e
               for e in errors)
    assert not any("does not fit" in e for e in errors)


@pytest.mark.parametrize("option", ["max_chars", "max_words"])
def test_a_negative_budget_is_refused_where_it_is_declared(ledger, run, option):
    edit(ledger / GAME, "text: {type: text, max_words: 20}",
         f"text: {{type: text, {option}: -1}}")
    line = one_error(run("check"))
    assert line.startswith(f"{GAME}:{line_of(ledger / GAME, option + ': -1')}:"), line
    assert f"{option} -1 must be >= 0" in line


def test_the_item_limit_names_itself_and_how_to_raise_it(ledger, run, monkeypatch):
    monkeypatch.setenv("PNP_MAX_ITEMS", "3")
    cards = ledger / "content/ledger/cards.csv"
    rows = cards.read_text(encoding="utf-8").splitlines()
    cards.write_text("\n".join(rows + rows[1:]) + "\n", encoding="utf-8")
    line = one_error(run("check"))
    assert line.startswith(f"{GAME}:{line_of(ledger / GAME, 'file: cards.csv')}:"), line
    assert "more than the 3 a deck may hold (PNP_MAX_ITEMS)" in line
    assert f"set PNP_MAX_ITEMS={2 * (len(rows) - 1)}" in line
    monkeypatch.setenv("PNP_MAX_ITEMS", "100")
    assert run("check").code == 0


def test_the_file_limit_names_itself_and_how_to_raise_it(ledger, run, monkeypatch):
    monkeypatch.setenv("PNP_MAX_FILE_MB", "1")
    notes = ledger / "content/ledger/notes.yaml"
    notes.write_text(notes.read_text(encoding="utf-8") + "#" * 1_500_000 + "\n",
                     encoding="utf-8")
    line = one_error(run("check"))
    assert line.startswith("content/ledger/notes.yaml: ")
    assert "(PNP_MAX_FILE_MB)" in line and "set PNP_MAX_FILE_MB=2" in line
    monkeypatch.setenv("PNP_MAX_FILE_MB", "2")
    assert run("check").code == 0


def test_the_default_limits_hold_real_card_lists(tmp_path):
    # ArkhamDB's player cards are a 1.43 MB CSV; Netrunner at real quantities is 6,598 cards.
    assert DEFAULT_FILE_MB * 1_000_000 >= 10 * 1_430_000
    assert DEFAULT_ITEMS >= 100_000
    big = tmp_path / "cards.csv"
    row = "A card,3," + "words " * 40 + "\n"
    big.write_text("title,value,text\n" + row * (1_500_000 // len(row)), encoding="utf-8")
    findings = Findings()
    document = load_csv(big, "cards.csv", findings)
    assert not findings.errors and len(document.root.value) * len(row) > 1_430_000
