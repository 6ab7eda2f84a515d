"""Manifest: a game made only of YAML, CSV and templates (tests/data/games/debtors) checks,
builds and reads back as grids of its declared sizes; every mistake in a manifest, a CSV file or
a template is one located line from `pnp check`.

Debtors has a 54-card deck from CSV with a quantity column, 30 round 20 mm tokens made by an
`each` generator with no backs, a two-sided player aid on tarot cards that draws art, and a
score sheet drawn on a whole page of the chosen paper from a data table.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest

from conftest import REPO, TESTS, crop_marks, edit
from sameplace import project, same_place  # noqa: F401 - fixtures
from pnp.units import PAPERS, pt_to_mm

DEBTORS = TESTS / "data" / "games" / "debtors"
GAME = Path("content/debtors")
TEMPLATES = Path("templates/debtors")


@pytest.fixture
def debtors(tmp_path, monkeypatch) -> Path:
    """A copy of the Debtors project (its own content and templates only), as the cwd."""
    shutil.copytree(DEBTORS, tmp_path, dirs_exist_ok=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """Debtors built once on Letter and on A4."""
    from pnp.cli import main

    root = tmp_path_factory.mktemp("debtors")
    shutil.copytree(DEBTORS, root, dirs_exist_ok=True)
    for paper in ("letter", "a4"):
        assert main(["build", "--root", str(root), "--paper", paper]) == 0
    return {p.stem: p for p in (root / "output" / "debtors").glob("*.pdf")}


def pitches(values: list[float]) -> set[float]:
    return {round(b - a, 1) for a, b in zip(values, values[1:])}


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize(("sheet", "width", "height", "count", "backs"), [
    ("cards", 63, 88, 54, True),
    ("tokens", 20, 20, 30, False),
    ("aid", 70, 120, 1, True),
])
def test_each_deck_reads_back_as_a_grid_of_its_declared_size(built, paper, sheet, width, height,
                                                              count, backs):
    with pdfplumber.open(built[f"{sheet}-{paper}"]) as pdf:
        page = pdf.pages[0]
        assert (round(pt_to_mm(page.width), 1), round(pt_to_mm(page.height), 1)) == (
            round(PAPERS[paper].width_mm, 1), round(PAPERS[paper].height_mm, 1))
        xs, ys, _ = crop_marks(page)
        assert pitches(xs) == {width}, xs
        assert pitches(ys) == {height}, ys
        per_sheet = (len(xs) - 1) * (len(ys) - 1)
        sheets = -(-count // per_sheet)
        assert len(pdf.pages) == sheets * (2 if backs else 1)


def test_the_csv_quantity_column_makes_54_cards(built):
    with pdfplumber.open(built["cards-letter"]) as pdf:
        text = "\n".join(page.extract_text(x_tolerance=1) or "" for page in pdf.pages[::2])
    assert text.count("Debt Collector") == 2  # one CSV row with copies 2
    for suit in ("Loans", "Bonds", "Mortgages", "Notes"):
        assert text.count(f"of {suit}") == 13
    # The cards share a back, so the sheets lay them in a seeded shuffle, not the file's order
    # (a sheet of the deck would otherwise hold exactly the Loans).
    assert not text.index("Ace of Loans") < text.index("King of Notes") < \
        text.index("Debt Collector")


def test_the_aid_has_its_back_and_its_art(built):
    with pdfplumber.open(built["aid-letter"]) as pdf:
        front, back = (page.extract_text(x_tolerance=1) or "" for page in pdf.pages)
        assert "YOUR TURN" in front and "THE END" in back
        assert pdf.pages[0].images or pdf.pages[0].curves  # the coin art is drawn


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_whole_page_sheet_is_its_copies_at_the_paper_size(built, paper):
    with pdfplumber.open(built[f"scores-{paper}"]) as pdf:
        assert len(pdf.pages) == 2  # copies: 2
        for number, page in enumerate(pdf.pages, start=1):
            assert (round(pt_to_mm(page.width), 1), round(pt_to_mm(page.height), 1)) == (
                round(PAPERS[paper].width_mm, 1), round(PAPERS[paper].height_mm, 1))
            text = page.extract_text(x_tolerance=1)
            assert f"score sheet {number} of 2" in text
            assert "Mortgages (M)" in text  # its columns come from the suits table


@pytest.mark.parametrize(("pixels", "warned"), [(40, True), (240, False)])
def test_raster_art_too_coarse_for_its_box_is_a_warning_with_its_dpi(debtors, run, pixels,
                                                                      warned):
    from PIL import Image

    Image.new("RGB", (pixels, pixels), "#c9a227").save(GAME / "coin.png")
    edit(GAME / "aid.yaml", "art: coin.svg", "art: coin.png")
    result = run("check")
    assert result.code == 0, result.err
    warnings = [line for line in result.lines if "(rule art-resolution)" in line]
    if warned:  # 40 px across the 20 mm box is 51 dpi
        assert len(warnings) == 1 and warnings[0].startswith(f"{GAME.as_posix()}/aid.yaml:2:")
        assert "51 dpi" in warnings[0] and "at least 118 x 118 pixels" in warnings[0]
    else:  # 240 px is 305 dpi
        assert warnings == []


def test_the_game_checks_clean_and_lists_its_sheets(debtors, run):
    assert run("check").code == 0
    listed = run("list").out
    assert "cards         54 x Debt cards (63 x 88 mm)" in listed
    assert "tokens        30 x Debt tokens (20 x 20 mm)" in listed
    assert "aid            1 x Player aid (70 x 120 mm)" in listed
    assert "scores         2 x Score sheet (a whole page of the paper)" in listed


def test_it_builds_beside_downturn_and_neither_disturbs_the_other(project, run):
    shutil.copytree(DEBTORS / "content" / "debtors", project / "content" / "debtors")
    shutil.copytree(DEBTORS / "templates" / "debtors", project / "templates" / "debtors")
    result = run("check")
    assert result.code == 0, result.err
    assert "downturn, debtors" in result.err or "debtors, downturn" in result.err
    assert run("build", "--sheets", "cards,events").code == 0
    assert (project / "output" / "debtors" / "cards-letter.pdf").is_file()
    assert (project / "output" / "downturn" / "events-letter.pdf").is_file()


# -- mistakes: (case, file, text, replacement, rule, the line's text or number[, more edits]) ---

CSV = GAME / "cards.csv"
MANIFEST = GAME / "game.yaml"
MISTAKES = [
    ("unknown-field-type", MANIFEST, "value: {type: whole,", "value: {type: wholenumber,",
     "manifest-field", "type: wholenumber"),
    ("missing-template", MANIFEST, "front: card-front.svg.j2", "front: card-frnt.svg.j2",
     "template-missing", "card-frnt.svg.j2"),
    ("header-not-in-schema", CSV, "title,suit,value,text,copies", "title,suit,valeu,text,copies",
     "csv-header", 1),
    ("ref-to-unknown-table", MANIFEST, "suit: {type: ref, to: suits,",
     "suit: {type: ref, to: suites,", "manifest-ref", "to: suites"),
    ("missing-data-file", MANIFEST, "file: cards.csv", "file: card.csv", "file-missing",
     "file: card.csv"),
    ("size-typo", MANIFEST, "size: poker", "size: pokr", "manifest-size", "size: pokr"),
    ("size-without-unit", MANIFEST, "size: 20 mm", "size: 20", "manifest-size", "size: 20"),
    ("quantity-minus-one", CSV, "shuffle this card back into the deck.,2",
     "shuffle this card back into the deck.,-1", "schema-range", 54),
    ("control-char-in-csv", CSV, "Ace of Loans,Loans,", "Ace\x07of Loans,Loans,",
     "text-control-char", 2),
    ("bad-csv-cell", CSV, "Ace of Loans,Loans,1,", "Ace of Loans,Loans,x,", "schema-type", 2),
    ("csv-ref-unknown", CSV, "Ace of Loans,Loans,", "Ace of Loans,Loan,", "ref-unknown", 2),
    ("malformed-template-xml", TEMPLATES / "card-back.svg.j2", 'stroke-width="0.8"/>',
     'stroke-width="0.8">', "template-xml", 0),
    # namespaces are checked as the PDF stage reads them: xlink is not declared here
    ("unbound-prefix-in-template", TEMPLATES / "card-back.svg.j2", 'stroke-width="0.8"/>',
     'stroke-width="0.8" xlink:title="back"/>', "template-xml", "xlink:title"),
    ("undefined-name-in-common-sheet", None, None, None, "template-error", 0),
    ("piece-larger-than-paper", MANIFEST, "size: tarot", "size: 300 x 400 mm",
     "layout-too-large", "300 x 400 mm",
     [(TEMPLATES / name, 'width="70mm" height="120mm"', 'width="300mm" height="400mm"')
      for name in ("aid-front.svg.j2", "aid-back.svg.j2")]),
    ("template-size-disagrees", TEMPLATES / "token-front.svg.j2", 'width="20mm" height="20mm"',
     'width="21mm" height="20mm"', "template-size", 'width="21mm"'),
    ("each-syntax-error", MANIFEST, 'number: "range(1, 11)"', 'number: "range(1, 11"',
     "manifest-each", "range(1, 11\""),
    ("file-and-each", MANIFEST, "    back: none\n    each:", "    back: none\n    file: x.csv\n"
     "    each:", "manifest-items", "title: Debt tokens"),
    ("label-unknown-field", MANIFEST, "label: 'card \"{{ title }}\"'",
     "label: 'card \"{{ titel }}\"'", "manifest-label", "titel"),
    ("text-over-budget", CSV, "Ace of Loans,", "Ace of Loans and Other Burdens,", "text-budget",
     2),
    ("image-missing", GAME / "aid.yaml", "art: coin.svg", "art: coins.svg", "asset-missing",
     "coins.svg"),
    ("quantity-not-a-field", MANIFEST, "quantity: copies", "quantity: copy",
     "manifest-quantity", "quantity: copy"),
    ("choice-without-options", MANIFEST, "letter: {type: text, max_chars: 1}",
     "letter: {type: choice}", "manifest-field", "type: choice"),
    ("page-template-wrong-size", TEMPLATES / "score-sheet.svg.j2",
     'width="{{ w|n }}mm"', 'width="{{ (w + 1)|n }}mm"', "template-size", "(w + 1)"),
    ("csv-ragged-row", CSV, "King of Notes,Notes,13,", "King of Notes,Notes,13,extra,",
     "csv-row", 53),
]


def _line_number(path: Path, line) -> int:
    if isinstance(line, int):
        return line
    return next(n for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if line in text)


@pytest.mark.parametrize(("file", "old", "new", "rule", "line", "more"),
                         [pytest.param(*case[1:6], case[6] if len(case) > 6 else [], id=case[0])
                          for case in MISTAKES])
def test_a_mistake_is_one_located_line(debtors, run, file, old, new, rule, line, more):
    if file is None:  # a misspelt name in pnp's own sheet template, copied into the project
        target = Path("templates/common/sheet.svg.j2")
        target.parent.mkdir(parents=True)
        shutil.copy(REPO / "pnp" / "data" / "templates" / "sheet.svg.j2", target)
        edit(target, "{{ sheet_title }}", "{{ sheet_titel }}")
        file, line = target, "sheet_titel"
    else:
        edit(file, old, new)
    for other, old_text, new_text in more:  # what a consistent edit also changes
        edit(other, old_text, new_text)
    result = run("check")
    assert result.code == 1, result.err
    assert "Traceback" not in result.err
    # One error; a text over its budget no longer hides what else the check finds (a
    # warning that the same text had to shrink to fit its box).
    findings = [entry for entry in result.lines if ": error: " in entry]
    assert len(findings) == 1, result.lines
    finding = findings[0]
    assert finding.endswith(f"(rule {rule})"), finding
    number = _line_number(file, line)
    expected = f"{file.as_posix()}:{number}:" if number else f"{file.as_posix()}:"
    assert finding.startswith(expected), finding


def test_there_are_at_least_fifteen_manifest_mistakes():
    assert len({case[4] for case in MISTAKES}) >= 15
    assert len(MISTAKES) >= 15


def test_a_record_type_is_a_frozen_keyword_dataclass_compared_by_its_fields():
    """Record types behave as the frozen, keyword-only dataclasses make_dataclass would make."""
    import dataclasses

    from pnp.findings import Location
    from pnp.load.manifest import record_type
    from pnp.load.schema import Where, located

    Bank = record_type("Bank", [("name", str, dataclasses.field()),
                                ("rate", int, dataclasses.field(default=2)),
                                ("tags", tuple, dataclasses.field(default_factory=tuple)),
                                ("where", Where, located())], {})
    bank = Bank(name="Trust", where=Where(Location("banks.yaml", 3, 1)))
    assert dataclasses.is_dataclass(bank)
    assert [f.name for f in dataclasses.fields(Bank)] == ["name", "rate", "tags", "where"]
    assert (bank.name, bank.rate, bank.tags) == ("Trust", 2, ())
    assert dataclasses.asdict(bank)["rate"] == 2
    assert dataclasses.replace(bank, rate=5).rate == 5 and bank.rate == 2
    same = Bank(name="Trust", rate=2)  # found elsewhere: `where` is not compared
    assert bank == same and hash(bank) == hash(same) and len({bank, same}) == 1
    assert bank != Bank(name="Trust", rate=3) and bank != ("Trust", 2, ())
    assert repr(bank) == "Bank(name='Trust', rate=2, tags=())"
    with pytest.raises(dataclasses.FrozenInstanceError):
        bank.rate = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        del bank.name
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'name'"):
        Bank(rate=1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        Bank(name="Trust", colour="red")
    with pytest.raises(TypeError):
        Bank("Trust")  # keyword-only, as the validator makes them
