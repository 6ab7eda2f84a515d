"""The sheet cache: a check draws again only the sheets whose inputs changed, and what it
hands on is what a check drawing everything hands on (pnp.sheetcache)."""

from __future__ import annotations

import hashlib
import os
import shutil
import time

import pytest

import pnp.fonts
import pnp.pipeline
from pnp.pipeline import Project, check_game

EVENT_TEXT = 'effect: "Stability +1."'


@pytest.fixture
def drawn(project, monkeypatch, tmp_path_factory):
    """The names of the sheets the next checks draw (not taken from the cache), in a user
    cache of this test's own."""
    folder = tmp_path_factory.mktemp("user-cache")
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    names: list[str] = []
    real = pnp.pipeline._draw

    def draw(sheet, *args):
        names.append(sheet.name)
        return real(sheet, *args)

    monkeypatch.setattr(pnp.pipeline, "_draw", draw)

    def check(**options) -> set[str]:
        names.clear()
        check_game(Project(project), "downturn", jobs=1, **options)
        return set(names)

    check.entries = lambda: [p for kept in folder.glob("sheets-*") for p in kept.iterdir()]
    return check


def handed_on(checked):
    """What a check hands on: findings as printed, every page plan, every face."""
    return (sorted(f.format() for f in checked.findings),
            {name: [(o.file_name, o.plans, o.document) for o in outputs]
             for name, outputs in checked.outputs.items()},
            {sheet.name: sheet.gallery() for sheet in checked.sheets})


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    write(path, text.replace(old, new, 1))


def write(path, text: str) -> None:
    """Saved a moment ago: a file changed as a check begins is not kept from (see the last
    test), so these edits are dated a few seconds back."""
    path.write_text(text, encoding="utf-8")
    earlier = time.time_ns() - 5 * 10**9
    os.utime(path, ns=(earlier, earlier))


def shadow(folder, name: str) -> None:
    """A copy of one of pnp's templates in `folder`, edited."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(pnp.pipeline.BUILTIN_TEMPLATES / name, folder / name)
    edit(folder / name, "</svg>", "<!-- edited --></svg>")


ALL = {"events", "banks", "shares", "markers", "cubes", "aids", "board"}


def test_a_recheck_draws_only_what_an_edit_touched(project, drawn):
    assert drawn() == ALL
    assert drawn() == set()
    edit(project / "content/downturn/events.yaml", EVENT_TEXT,
         'effect: "Stability +1, and a much longer line of text to fit."')
    # The board's template reads `game` (regions, banks, tracks): any content edit redraws it.
    assert drawn() == {"events", "board"}
    assert drawn() == set()


def test_what_a_cached_check_hands_on_is_what_a_full_check_does(project, drawn):
    events = project / "content/downturn/events.yaml"
    drawn()
    # Too long for its box: a finding on the card, from the one sheet drawn again.
    edit(events, EVENT_TEXT, 'effect: "' + "Stability rises by one, " * 30 + '"')
    cached = check_game(Project(project), "downturn", jobs=1)
    fresh = check_game(Project(project), "downturn", jobs=1, remember=False)
    assert any(f.rule.startswith("text-") for f in cached.findings)
    assert handed_on(cached) == handed_on(fresh)


@pytest.mark.parametrize("change, redrawn", [
    # A template: the sheets that render it.
    (lambda root: edit(root / "templates/downturn/event-front.svg.j2", "</svg>",
                       "<!-- edited --></svg>"), {"events"}),
    # The project's own copy of pnp's page margins, found before pnp's: every deck's pages.
    (lambda root: shadow(root / "templates/common", "sheet.svg.j2"), ALL - {"board"}),
    # The manifest: every sheet prints its title and licence.
    (lambda root: edit(root / "content/downturn/game.yaml", "title: Downturn",
                       "title: Downturn Revised"), ALL),
    # Data only the board reads, through `game`.
    (lambda root: edit(root / "content/downturn/regions.yaml", "max: 8}", "max: 9}"),
     {"board"}),
    # Art in the game folder (any file but YAML and CSV).
    (lambda root: (root / "content/downturn/art.png").write_bytes(b"\x89PNG new art"), ALL),
], ids=["template", "shadowed-template", "manifest", "data-read-through-game", "art"])
def test_each_input_draws_its_sheets_again(project, drawn, change, redrawn):
    drawn()
    change(project)
    assert drawn() == redrawn


def test_paper_layout_and_working_folder_are_inputs(project, drawn, monkeypatch):
    from pnp.layout import PrintOptions

    drawn()
    assert check_game(Project(project), "downturn", "a4", jobs=1).findings is not None
    assert drawn() == set()  # letter's entries are still there beside a4's
    assert drawn(options=PrintOptions(layout="home-stack")) == ALL
    (project / "elsewhere").mkdir()
    monkeypatch.chdir(project / "elsewhere")  # findings name files relative to it
    assert drawn() == ALL


def test_a_font_change_draws_every_sheet_again(project, drawn, monkeypatch, tmp_path):
    fonts = tmp_path / "fonts"
    shutil.copytree(pnp.fonts.font_dir(), fonts)
    monkeypatch.setattr(pnp.fonts, "font_dir", lambda: fonts)
    drawn()
    assert drawn() == set()
    with (fonts / pnp.fonts.FACES["body"].file).open("ab") as handle:
        handle.write(b"\0\0\0\0")
    assert drawn() == ALL


def test_game_read_through_an_imported_macro_counts(project, drawn):
    """A template that imports a macro reading `game` depends on the whole game's data,
    though it never names `game` itself."""
    templates = project / "templates/downturn"
    write(templates / "count.svg.j2",
          "{% macro regions() %}{{ game.regions | length }}{% endmacro %}")
    edit(templates / "cube-front.svg.j2", "</svg>",
         '{% import "count.svg.j2" as count %}<!-- {{ count.regions() }} --></svg>')
    drawn()
    edit(project / "content/downturn/regions.yaml", "max: 8}", "max: 9}")
    assert drawn() == {"cubes", "board"}


def test_an_unreadable_entry_is_drawn_again(project, drawn):
    first = check_game(Project(project), "downturn", jobs=1)
    entries = drawn.entries()
    assert len(entries) == len(ALL)
    for entry in entries:
        entry.write_bytes(b"not a kept sheet")
    again = check_game(Project(project), "downturn", jobs=1)
    assert handed_on(again) == handed_on(first)


def test_build_no_cache_keeps_nothing_and_draws_the_same_bytes(project, drawn, run,
                                                                monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert run("build", "-j", "1", "--no-cache", "--out", "fresh").code == 0
    assert drawn.entries() == []
    drawn()  # the sheets kept by a check ...
    assert run("build", "-j", "1", "--out", "kept").code == 0  # ... and built from
    pdfs = sorted(p.relative_to(project / "fresh") for p in (project / "fresh").rglob("*.pdf"))
    assert pdfs
    for pdf in pdfs:
        assert hashlib.sha256((project / "kept" / pdf).read_bytes()).digest() == \
            hashlib.sha256((project / "fresh" / pdf).read_bytes()).digest(), pdf


def test_nothing_is_kept_from_files_changed_while_checking(project, drawn):
    """A file whose time is after the check began may or may not be in what it drew."""
    template = project / "templates/downturn/event-front.svg.j2"
    later = time.time_ns() + 10 * 10**9
    os.utime(template, ns=(later, later))
    assert drawn() == ALL
    assert drawn() == {"events"}
    for entry in drawn.entries():
        entry.unlink()
    os.utime(project / "content/downturn/regions.yaml", ns=(later, later))
    assert drawn() == ALL
    assert drawn.entries() == []  # any content file: the model may be of either version


def test_a_template_named_by_an_expression_could_be_any(project, drawn):
    """An include whose name is worked out when drawing: any template edit draws it again."""
    templates = project / "templates/downturn"
    write(templates / "note.svg.j2", "<!-- note -->")
    edit(templates / "cube-front.svg.j2", "</svg>",
         '{% include "no" ~ "te.svg.j2" %}</svg>')
    drawn()
    edit(templates / "bank-front.svg.j2", "</svg>", "<!-- edited --></svg>")
    assert drawn() == {"banks", "cubes"}
