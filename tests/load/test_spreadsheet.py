"""Spreadsheets: a deck or table naming an .xlsx workbook (and a sheet in it) reads its rows as
the same items as a CSV file's, located as `cards.xlsx:Cards!C7` in findings.

The workbooks are made here with openpyxl from the banking kit's CSV files, numbers typed as
numbers as a spreadsheet program keeps them.
"""

from __future__ import annotations

import csv
import json
import re
import zipfile
from pathlib import Path

import jsonschema
import openpyxl
import pytest

from conftest import REPO, add_game, edit, line_of
from pnp import reads
from pnp.engine import reads as recorded
from pnp.findings import Findings, Location
from pnp.load.model import load_game
from pnp.load.spreadsheet import MAX_UNPACKED_BYTES

GAME = Path("content/banking")
CARDS, TOKENS = GAME / "cards.xlsx", GAME / "tokens.xlsx"


def save_as_xlsx(csv_path: Path, xlsx_path: Path, sheet: str, before: str = "") -> None:
    """The CSV file's rows in a workbook's sheet `sheet` (after a sheet `before`, if named)."""
    book = openpyxl.Workbook()
    first = book.active
    if before:
        first.title = before
        first["A1"] = "notes, not data"
        target = book.create_sheet(sheet)
    else:
        first.title = sheet
        target = first
    with open(csv_path, newline="", encoding="utf-8") as handle:
        for row in csv.reader(handle):
            target.append([int(cell) if re.fullmatch(r"-?\d+", cell) else cell for cell in row])
    book.save(xlsx_path)


def banking(root: Path, spreadsheet: bool) -> Path:
    """The banking kit in `root`, its cards and tokens from CSV files or from workbooks: the
    cards from a sheet named in the manifest, the tokens from the first sheet."""
    add_game(root, "banking")
    if spreadsheet:
        save_as_xlsx(root / GAME / "cards.csv", root / CARDS, "Cards", before="Notes")
        save_as_xlsx(root / GAME / "tokens.csv", root / TOKENS, "Tokens")
        (root / GAME / "cards.csv").unlink()
        (root / GAME / "tokens.csv").unlink()
        edit(root / GAME / "game.yaml", "    file: cards.csv\n",
             "    file: cards.xlsx\n    sheet: Cards\n")
        edit(root / GAME / "game.yaml", "    file: tokens.csv\n", "    file: tokens.xlsx\n")
    return root


def test_the_banking_kit_from_workbooks_prints_the_same_pdfs_byte_for_byte(tmp_path, run):
    pdfs = {}
    for name, spreadsheet in (("csv", False), ("xlsx", True)):
        root = banking(tmp_path / name, spreadsheet)
        result = run("build", "--root", str(root), "--game", "banking", "--sheets", "all",
                     "--no-cache", "-j", "1")
        assert result.code == 0, result.err
        pdfs[name] = {p.name: p.read_bytes() for p in (root / "output/banking").glob("*.pdf")}
    assert len(pdfs["csv"]) >= 4 and pdfs["csv"].keys() == pdfs["xlsx"].keys()
    for name, data in pdfs["csv"].items():
        assert pdfs["xlsx"][name] == data, f"{name} differs"


def test_the_workbook_is_read_through_pnp_reads(tmp_path):
    root = banking(tmp_path, spreadsheet=True)
    findings = Findings()
    with recorded.recording() as record:
        game = load_game(root / GAME, lambda p: p.relative_to(root).as_posix(), findings)
    assert game is not None and not findings.errors, [f.format() for f in findings]
    assert record.reads[str(root / CARDS)] == reads.digest((root / CARDS).read_bytes())
    assert len(game.cards) == 54 and game.cards[0].rank == "A" and game.cards[0].value == 1


SCHEMA = json.loads((REPO / "docs" / "findings.schema.json").read_text(encoding="utf-8"))


def check_json(run, root: Path) -> list[dict]:
    """The findings of `pnp check --format json`, a report that matches its schema."""
    result = run("check", "--root", str(root), "--game", "banking", "--format", "json")
    assert result.code == 1, result.err
    report = json.loads(result.out)
    jsonschema.validate(report, SCHEMA)
    return report["findings"]


def set_cells(path: Path, sheet: str, cells: dict[str, object]) -> None:
    book = openpyxl.load_workbook(path)
    for cell, value in cells.items():
        book[sheet][cell] = value
    book.save(path)


# A cell put into the Cards sheet (header in row 1: rank, suit, value; row 7 is 6 of spades)
# -> the finding's rule, cell and message fragment.
BAD_CELLS = [
    ("not-a-number", {"C7": "x"}, "schema-type", "C7",
     "card \"6 spades\": value: expected a whole number, got 'x'"),
    ("past-the-header", {"D9": 3}, "csv-row", "D9", "row has 4 cells, the header names 3"),
    ("error-value", {"C5": "#DIV/0!"}, "spreadsheet-cell", "C5", "cell shows the error #DIV/0!"),
    ("formula-never-computed", {"C4": "=1+2"}, "spreadsheet-cell", "C4",
     "formula has no saved result"),
    ("bad-header", {"C1": "face value"}, "csv-header", "C1",
     "header 'face value' is not a field name"),
    ("a-choice-it-does-not-have", {"B12": "stars"}, "schema-choice", "B12", "'stars'"),
]


@pytest.mark.parametrize(("cells", "rule", "cell", "message"),
                         [pytest.param(*case[1:], id=case[0]) for case in BAD_CELLS])
def test_a_bad_cell_is_found_by_sheet_and_cell(tmp_path, run, monkeypatch, cells, rule, cell,
                                               message):
    root = banking(tmp_path, spreadsheet=True)
    set_cells(root / CARDS, "Cards", cells)
    monkeypatch.chdir(root)
    findings = check_json(run, root)
    found = [f for f in findings if f["rule"] == rule]
    assert found, findings
    first = found[0]
    column = ord(cell[0]) - ord("A") + 1
    assert (first["file"], first.get("sheet"), first["line"], first["column"]) == \
        (CARDS.as_posix(), "Cards", int(cell[1:]), column)
    text = run("check", "--game", "banking").err
    assert f"{CARDS.as_posix()}:Cards!{cell}: error: " in text
    assert message in text


def test_a_formula_with_no_saved_result_is_one_finding_at_its_cell(tmp_path, run,
                                                                   monkeypatch):
    """Not also a missing value at the row's first cell."""
    root = banking(tmp_path, spreadsheet=True)
    set_cells(root / CARDS, "Cards", {"C4": "=1+2"})
    monkeypatch.chdir(root)
    errors = [f for f in check_json(run, root) if f["severity"] == "error"]
    assert [(f["rule"], f["line"], f["column"]) for f in errors] == [("spreadsheet-cell", 4, 3)]


def test_a_sheet_the_workbook_does_not_have_is_a_finding_at_the_manifest(tmp_path, run,
                                                                         monkeypatch):
    root = banking(tmp_path, spreadsheet=True)
    edit(root / GAME / "game.yaml", "sheet: Cards", "sheet: Cardz")
    monkeypatch.chdir(root)
    result = run("check", "--game", "banking")
    assert result.code == 1
    line = line_of(root / GAME / "game.yaml", "sheet: Cardz")
    assert (f"{GAME.as_posix()}/game.yaml:{line}:12: error: 'Cardz' is not a sheet of "
            f"{CARDS.as_posix()}; did you mean 'Cards'? (rule spreadsheet-sheet)") in result.lines


def test_a_sheet_named_for_a_csv_file_is_a_finding(tmp_path, run, monkeypatch):
    root = banking(tmp_path, spreadsheet=False)
    edit(root / GAME / "game.yaml", "    file: cards.csv\n", "    file: cards.csv\n    sheet: A\n")
    monkeypatch.chdir(root)
    result = run("check", "--game", "banking")
    assert result.code == 1
    assert "'sheet' names a sheet of a spreadsheet, but 'cards.csv' is not an .xlsx file" \
        in result.err


def bomb(path: Path) -> None:
    """A small archive that unpacks to more than pnp lets a workbook unpack to."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive, \
            archive.open("xl/worksheets/sheet1.xml", "w") as part:
        for _ in range(MAX_UNPACKED_BYTES // 1_000_000 + 1):
            part.write(b"\0" * 1_000_000)


def test_an_ods_file_is_refused_with_how_to_save_it(tmp_path, run, monkeypatch):
    root = banking(tmp_path, spreadsheet=False)
    (root / GAME / "cards.ods").write_bytes(b"PK")
    edit(root / GAME / "game.yaml", "    file: cards.csv\n", "    file: cards.ods\n")
    monkeypatch.chdir(root)
    result = run("check", "--game", "banking")
    assert result.code == 1
    assert "'cards.ods' is not a .yaml, .csv or .xlsx file; save it from LibreOffice as Excel " \
        "2007-365 (.xlsx)" in result.err


@pytest.mark.parametrize(("damage", "message"), [
    (lambda path: path.write_bytes(b"rank,suit,value\nA,spades,1\n"), "is not an .xlsx workbook"),
    (bomb, f"more than {MAX_UNPACKED_BYTES:,}"),
    (lambda path: set_cells(path, "Cards", {f"{c}{r}": None for c in "ABC" for r in range(1, 60)}),
     "Cards: error: sheet is empty"),
])
def test_a_workbook_that_cannot_be_used_is_one_finding(tmp_path, run, monkeypatch, damage,
                                                       message):
    root = banking(tmp_path, spreadsheet=True)
    damage(root / CARDS)
    monkeypatch.chdir(root)
    result = run("check", "--game", "banking")
    assert result.code == 1 and "Traceback" not in result.err
    assert any(line.startswith(CARDS.as_posix()) and message in line for line in result.lines), \
        result.err


@pytest.mark.parametrize(("where", "shown"), [
    (Location("cards.xlsx", 7, 3, "Cards"), "cards.xlsx:Cards!C7"),
    (Location("cards.xlsx", 12, 28, "My Cards"), "cards.xlsx:'My Cards'!AB12"),
    (Location("cards.xlsx", 0, 0, "Cards"), "cards.xlsx:Cards"),
    (Location("cards.csv", 7, 3), "cards.csv:7:3"),
])
def test_a_cell_is_named_as_a_spreadsheet_names_it(where, shown):
    assert str(where) == shown
