"""Kept rows (pnp.cache.rows): a data file an earlier check validated from the same bytes,
under the same manifest, is taken as that validation gave it, and the check hands on what a
check keeping nothing does."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

import pnp.load.model
from conftest import REPO
from pnp.pipeline import Project, check_game

DECKS = ("cards", "more")


def handed_on(checked):
    """What a check hands on: findings as printed, every page plan, every face."""
    return (sorted(f.format() for f in checked.findings),
            {name: [(o.file_name, o.plans, o.document) for o in outputs]
             for name, outputs in checked.outputs.items()},
            {sheet.name: sheet.gallery() for sheet in checked.sheets})


@pytest.fixture
def two_files(tmp_path, monkeypatch, user_cache) -> Path:
    """bench/poker with a second deck from a file of its own (the same 54 rows)."""
    for folder in ("content", "templates"):
        shutil.copytree(REPO / "bench" / "poker" / folder, tmp_path / folder)
    game = tmp_path / "content" / "poker" / "game.yaml"
    manifest = game.read_text(encoding="utf-8")
    deck = manifest[manifest.index("  cards:\n"):]
    game.write_text(manifest + deck.replace("  cards:", "  more:", 1).replace(
        "file: cards.csv", "file: more.csv").replace("title: Poker cards", "title: More"),
        encoding="utf-8")
    shutil.copy(game.with_name("cards.csv"), game.with_name("more.csv"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def validated(monkeypatch) -> list[str]:
    """The data files the next checks validate (not taken as kept)."""
    files: list[str] = []
    real = pnp.load.model._Loader._validated

    def counted(self, file, *args):
        files.append(file)
        return real(self, file, *args)

    monkeypatch.setattr(pnp.load.model._Loader, "_validated", counted)
    return files


def set_cell(path: Path, row: int, column: str, text: str) -> None:
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    rows[row][column] = text
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")


def check(root: Path, **options):
    return check_game(Project(root), "poker", jobs=1, **options)


def test_an_unchanged_file_is_taken_as_kept_and_an_edited_one_validated(two_files, validated):
    check(two_files)
    assert sorted(validated) == ["cards.csv", "more.csv"]
    validated.clear()
    check(two_files)
    assert validated == []
    set_cell(two_files / "content/poker/more.csv", 10, "title", "Edited")
    cached = check(two_files)
    assert validated == ["more.csv"]
    assert handed_on(cached) == handed_on(check(two_files, remember=False))
    assert any(item.title == "Edited" for item in cached.game.parts["more"])


def test_a_kept_file_s_findings_are_reported_again(two_files, validated):
    cards = two_files / "content/poker/cards.csv"
    set_cell(cards, 3, "colour", "red")  # not a colour: an error in the file kept
    set_cell(cards, 4, "suit", "stars")
    first = check(two_files)
    assert {f.where.line for f in first.findings.errors} == {5, 6}
    set_cell(two_files / "content/poker/more.csv", 0, "body", "Edited.")
    validated.clear()
    cached = check(two_files)
    assert validated == ["more.csv"]
    fresh = check(two_files, remember=False)
    assert sorted(f.format() for f in cached.findings) == \
        sorted(f.format() for f in fresh.findings)
    assert {f.where.line for f in cached.findings.errors} == {5, 6}


@pytest.mark.parametrize("change", ["manifest", "working folder", "items limit"])
def test_what_validation_depends_on_besides_the_file_validates_again(two_files, validated,
                                                                      monkeypatch, change):
    check(two_files)
    validated.clear()
    if change == "manifest":  # the same bytes, read against other fields
        game = two_files / "content/poker/game.yaml"
        game.write_text(game.read_text(encoding="utf-8").replace(
            "number: {type: whole, min: 1}", "number: {type: whole, min: 5}", 1),
            encoding="utf-8")
    elif change == "working folder":  # findings name files relative to it
        (two_files / "content").mkdir(exist_ok=True)
        monkeypatch.chdir(two_files / "content")
    else:
        monkeypatch.setenv("PNP_MAX_ITEMS", "20")
    cached = check(two_files)
    assert validated
    assert handed_on(cached) == handed_on(check(two_files, remember=False))


def test_files_read_apart_are_kept_and_taken_as_in_one_process(two_files, validated,
                                                              monkeypatch):
    """Two files read side by side on two cores keep their validations, and a check on two
    cores after one is edited takes the other as kept and hands on what a fresh one does."""
    monkeypatch.setattr(pnp.load.model, "SHARED_DATA_BYTES", 0)
    check_game(Project(two_files), "poker", jobs=2)
    set_cell(two_files / "content/poker/cards.csv", 7, "body", "Edited on two cores.")
    validated.clear()
    cached = check_game(Project(two_files), "poker", jobs=2)
    assert validated == ["cards.csv"]  # taken here: the other file is taken as kept
    assert handed_on(cached) == handed_on(check(two_files, remember=False))
