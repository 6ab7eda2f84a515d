"""The sheet cache: a check draws again only the sheets that read something that changed,
and what it hands on is what a check drawing everything hands on (pnp.engine.memo)."""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import pickle
import shutil
from pathlib import Path

import pytest

import pnp.fonts
import pnp.load.model
import pnp.pipeline
from pnp.compose.cover import KitPart
from conftest import REPO
from measures import forget_font_measures
from pnp.pipeline import Project, check_game
from pnp.engine.memo import value_digest
from pnp.engine.store import UNPICKLABLE

EVENT_TEXT = 'effect: "Stability +1."'


@pytest.fixture
def drawn(project, monkeypatch, user_cache):
    """The names of the sheets the next checks draw (not taken from the cache)."""
    names: list[str] = []
    real = pnp.pipeline._draw

    def draw(sheet, *args):
        names.append(sheet.name)
        return real(sheet, *args)

    monkeypatch.setattr(pnp.pipeline, "_draw", draw)

    def check(game: str = "downturn", root: Path = project, **options) -> set[str]:
        names.clear()
        check_game(Project(root), game, jobs=1, **options)
        return set(names)

    check.entries = lambda: [p for kept in user_cache.glob("sheets-*") for p in kept.iterdir()]
    return check


def parts_of(checked) -> dict[str, int]:
    """How many parts each sheet of a checked game is drawn and kept in."""
    return {sheet.name: len(sheet.parts(checked.renderer, checked.paper))
            for sheet in checked.sheets}


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
    path.write_text(text, encoding="utf-8")


def shadow(folder, name: str) -> None:
    """A copy of one of pnp's templates in `folder`, edited."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(pnp.pipeline.BUILTIN_TEMPLATES / name, folder / name)
    with (folder / name).open("a", encoding="utf-8") as handle:
        handle.write("{# edited #}\n")


ALL = {"events", "banks", "shares", "markers", "cubes", "aids", "board", "cover"}


def test_a_recheck_draws_only_what_an_edit_touched(project, drawn):
    assert drawn() == ALL
    assert drawn() == set()
    edit(project / "content/downturn/events.yaml", EVENT_TEXT,
         'effect: "Stability +1, and a much longer line of text to fit."')
    # The board's template reads the regions, banks and tracks as `game.<name>`: it does not
    # read the events, so it is not drawn again. The cover's reads `game[...]`, a part named
    # by its data, which could be any: it is drawn again after an edit to any data file.
    assert drawn() == {"events", "cover"}
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
    # The project's own copy of pnp's page margins, found before pnp's: every deck's pages
    # planned in its parts. (The events are laid in a seeded shuffle, so each page holds
    # cards of several parts: their pages are planned after the parts, which draw only faces.)
    (lambda root: shadow(root / "templates/common", "sheet.svg.j2"),
     ALL - {"board", "cover", "events"}),
    # The manifest: every sheet prints its title and licence.
    (lambda root: edit(root / "content/downturn/game.yaml", "title: Downturn",
                       "title: Downturn Revised"), ALL),
    # Data only the board reads, through `game`.
    (lambda root: edit(root / "content/downturn/regions.yaml", "max: 8}", "max: 9}"),
     {"board", "cover"}),
    # The icons' macros, shadowed: the sheets that draw an icon, in their text or their own.
    (lambda root: shadow(root / "templates/common", "icons.svg.j2"),
     {"events", "aids", "board"}),
    # A file nothing reads.
    (lambda root: (root / "content/downturn/art.png").write_bytes(b"\x89PNG new art"), set()),
], ids=["template", "shadowed-template", "manifest", "data-read-through-game", "icons",
        "unread-file"])
def test_each_input_draws_its_sheets_again(project, drawn, change, redrawn):
    drawn()
    change(project)
    assert drawn() == redrawn


def test_paper_layout_and_working_folder_are_inputs(project, drawn, monkeypatch):
    from pnp.layout.layouts import PrintOptions

    drawn()
    assert check_game(Project(project), "downturn", "a4", jobs=1).findings is not None
    assert drawn() == set()  # letter's entries are still there beside a4's
    assert drawn(options=PrintOptions(layout="home-stack")) == ALL
    (project / "elsewhere").mkdir()
    monkeypatch.chdir(project / "elsewhere")  # findings name files relative to it
    assert drawn() == ALL


@pytest.fixture
def own_fonts(monkeypatch, tmp_path):
    """A copy of the bundled fonts, which text is measured with from now on."""
    fonts = tmp_path / "fonts"
    shutil.copytree(pnp.fonts.font_dir(), fonts)
    monkeypatch.setattr(pnp.fonts, "font_dir", lambda: fonts)
    forget_font_measures()
    yield fonts
    monkeypatch.undo()
    forget_font_measures()


def test_a_font_change_draws_every_sheet_again(project, drawn, own_fonts):
    assert drawn() == ALL
    assert drawn() == set()
    with (own_fonts / pnp.fonts.FACES["body"].file).open("ab") as handle:
        handle.write(b"\0\0\0\0")
    assert drawn() == set()  # this process measures with the bytes it read
    forget_font_measures()  # as a new process: it reads the fonts again
    assert drawn() == ALL


def test_art_a_card_embeds_draws_its_sheet_again(tmp_path, monkeypatch, drawn):
    """The player aid embeds coin.svg; the cards' template names `game`, so they depend on
    every file the game was loaded from, the art checked as it loads among them."""
    root = tmp_path / "debtors"
    shutil.copytree(REPO / "tests/data/games/debtors", root)
    monkeypatch.chdir(root)
    every = drawn("debtors", root)
    assert {"aid", "cards", "tokens"} <= every and drawn("debtors", root) == set()
    art = root / "content/debtors/coin.svg"
    write(art, art.read_text(encoding="utf-8").replace("</svg>", "<!-- new --></svg>"))
    assert drawn("debtors", root) == {"aid", "cards"}


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
    assert drawn() == {"cubes", "board", "cover"}  # the cover reads game[...]


def test_a_deck_made_from_other_tables_read_through_game_counts_them_all(project, drawn):
    """The shares are made from the regions (`each:`): a template that reads them through
    `game` depends on every file the game was loaded from, the regions' among them."""
    edit(project / "templates/downturn/cube-front.svg.j2", "</svg>",
         "<!-- {{ game.shares | length }} --></svg>")
    drawn()
    edit(project / "content/downturn/regions.yaml", "max: 8}", "max: 9}")
    assert "cubes" in drawn()


def test_what_a_drawing_reads_through_game_is_what_a_full_check_sees(project, drawn):
    """Kept drawings that read only some tables through `game` give what a check without the
    cache gives, after an edit to a table they read and to one they do not."""
    drawn()
    for file, old, new in (("regions.yaml", "max: 8}", "max: 7}"),
                           ("events.yaml", EVENT_TEXT, 'effect: "Stability +2."'),
                           ("tracks.yaml", "phase: Depression", "phase: Slump")):
        edit(project / "content/downturn" / file, old, new)
        cached = check_game(Project(project), "downturn", jobs=1)
        fresh = check_game(Project(project), "downturn", jobs=1, remember=False)
        assert handed_on(cached) == handed_on(fresh), file


def test_an_unreadable_entry_is_drawn_again(project, drawn):
    first = check_game(Project(project), "downturn", jobs=1)
    entries = drawn.entries()
    assert len(entries) == sum(parts_of(first).values())
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


def test_nothing_is_kept_from_a_file_changed_between_two_reads(project, drawn, monkeypatch):
    """The events' front template, found when the sheets are listed, is edited before it is
    drawn: the drawing read two versions of it, so nothing is kept from it."""
    template = project / "templates/downturn/event-front.svg.j2"
    real = pnp.pipeline._draw  # the fixture's counting one

    def edited_first(sheet, *args):
        if sheet.name == "events":
            edit(template, "</svg>", "<!-- edited meanwhile --></svg>")
        return real(sheet, *args)

    with monkeypatch.context() as patch:
        patch.setattr(pnp.pipeline, "_draw", edited_first)
        assert drawn() == ALL
    parts = parts_of(check_game(Project(project), "downturn", jobs=1, remember=False))
    assert len(drawn.entries()) == sum(parts.values()) - parts["events"]
    assert drawn() == {"events"}
    assert drawn() == set()


def test_a_template_named_by_an_expression_is_read_as_any_other(project, drawn):
    """An include whose name is worked out when drawing: the template it found is what the
    sheet read, and only an edit of that one draws it again."""
    templates = project / "templates/downturn"
    write(templates / "note.svg.j2", "<!-- note -->")
    edit(templates / "cube-front.svg.j2", "</svg>",
         '{% include "no" ~ "te.svg.j2" %}</svg>')
    drawn()
    edit(templates / "bank-front.svg.j2", "</svg>", "<!-- edited --></svg>")
    assert drawn() == {"banks"}
    write(templates / "note.svg.j2", "<!-- another note -->")
    assert drawn() == {"cubes"}


def test_a_template_created_after_a_check_that_missed_it_is_drawn(project, run,
                                                                    monkeypatch, tmp_path):
    """A check that looked a template up and found nothing depends on it being absent: once
    it is created (here with a mistake in it), the next check draws with it and reports the
    mistake, and a build fails on it exactly as one with --no-cache does."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "user-cache"))
    game = project / "content/downturn/game.yaml"
    edit(game, "front: event-front.svg.j2", "front: event-new.svg.j2")
    missing = run("check", "--game", "downturn")
    assert missing.code == 1 and "template-missing" in missing.err, missing.err
    created = project / "templates/downturn/event-new.svg.j2"
    created.write_text((project / "templates/downturn/event-front.svg.j2").read_text(
        encoding="utf-8").replace("</svg>", "{{ card.no_such_field }}</svg>"), encoding="utf-8")
    again = run("check", "--game", "downturn")
    assert again.code == 1 and "no_such_field" in again.err, again.err
    built = run("build", "--game", "downturn", "--sheets", "events")
    fresh = run("build", "--game", "downturn", "--sheets", "events", "--no-cache")
    assert "internal error" not in built.err
    assert (built.code, built.lines) == (fresh.code, fresh.lines)


def test_a_sheet_whose_values_cannot_be_pickled_is_drawn_every_time(project, drawn,
                                                                      monkeypatch):
    import pnp.engine.memo

    real = pnp.engine.memo.value_digest

    def digest(value):
        if getattr(value, "name", None) == "markers" and not isinstance(value, KitPart):
            raise pickle.PicklingError("a value pickle cannot write")
        return real(value)

    monkeypatch.setattr(pnp.engine.memo, "value_digest", digest)
    assert drawn() == ALL
    assert drawn() == {"markers"}
    parts = parts_of(check_game(Project(project), "downturn", jobs=1))
    assert len(drawn.entries()) == sum(parts.values()) - parts["markers"]


def test_a_key_is_a_pickle_of_plain_values_record_types_included():
    from pnp.load.manifest import record_type

    def card_type():
        return record_type("Card", [("title", str, dataclasses.field(default=None))], {})

    card = card_type()
    assert value_digest(card(title="A")) == value_digest(card(title="A"))
    assert value_digest(card(title="A")) != value_digest(card(title="B"))
    # Made again by another check: the same name, the same fields, the same key.
    assert value_digest([card(title="A")]) == value_digest([card_type()(title="A")])
    assert value_digest(card) == value_digest(card_type())
    with pytest.raises(UNPICKLABLE):
        value_digest({"a": lambda: 0})


def _big_poker(root: Path, rows: int = 300) -> Path:
    """bench/poker with its rows repeated to `rows` cards: a deck drawn in several parts."""
    for folder in ("content", "templates"):
        shutil.copytree(REPO / "bench" / "poker" / folder, root / folder)
    cards = root / "content" / "poker" / "cards.csv"
    header, *lines = cards.read_text(encoding="utf-8").splitlines()
    body = [f"{n + 1},{line.split(',', 1)[1]}" for n, line in
            enumerate(lines[i % len(lines)] for i in range(rows))]
    write(cards, "\n".join([header, *body]) + "\n")
    return cards


def test_one_row_edited_draws_one_part_of_a_large_deck(tmp_path, monkeypatch, user_cache):
    cards = _big_poker(tmp_path)
    monkeypatch.chdir(tmp_path)
    parts: list[str] = []
    real = pnp.pipeline._draw
    monkeypatch.setattr(pnp.pipeline, "_draw",
                        lambda sheet, *args: parts.append(sheet.name) or real(sheet, *args))

    def check():
        parts.clear()
        return check_game(Project(tmp_path), "poker", jobs=1)

    first = check()
    assert parts == ["cards"] * parts_of(first)["cards"] and len(parts) > 2
    check()
    assert parts == []
    lines = cards.read_text(encoding="utf-8").splitlines()
    lines[200] = lines[200].replace("Play this card", "Lay this card", 1)  # a middle part
    write(cards, "\n".join(lines) + "\n")
    cached = check()
    assert parts == ["cards"]
    assert handed_on(cached) == handed_on(check_game(Project(tmp_path), "poker", jobs=1,
                                                     remember=False))


def test_a_template_reading_the_whole_deck_draws_every_part_again(tmp_path, monkeypatch,
                                                                  user_cache):
    cards = _big_poker(tmp_path)
    front = tmp_path / "templates" / "poker" / "card-front.svg.j2"
    edit(front, "</svg>", '<text x="2" y="2" font-size="2">{{ deck.items | length }}</text></svg>')
    monkeypatch.chdir(tmp_path)
    parts: list[str] = []
    real = pnp.pipeline._draw
    monkeypatch.setattr(pnp.pipeline, "_draw",
                        lambda sheet, *args: parts.append(sheet.name) or real(sheet, *args))
    check_game(Project(tmp_path), "poker", jobs=1)
    write(cards, cards.read_text(encoding="utf-8") + "301,Extra,hearts,#cc0000,3,Body.\n")
    parts.clear()
    cached = check_game(Project(tmp_path), "poker", jobs=1)
    assert parts == ["cards"] * parts_of(cached)["cards"]  # every face prints the new count
    assert handed_on(cached) == handed_on(check_game(Project(tmp_path), "poker", jobs=1,
                                                     remember=False))


def test_a_row_added_redraws_the_footers_of_every_part(tmp_path, monkeypatch, user_cache):
    """A large deck's parts plan their own pages, whose footers count the deck's sheets: 297
    poker cards fill 33 sheets, one more makes 34, and every page says so."""
    cards = _big_poker(tmp_path, rows=297)
    monkeypatch.chdir(tmp_path)
    check_game(Project(tmp_path), "poker", jobs=1)
    write(cards, cards.read_text(encoding="utf-8") + "298,Extra,hearts,#cc0000,3,Body.\n")
    cached = check_game(Project(tmp_path), "poker", jobs=1)
    footers = [plan.furniture for plan in cached.outputs["cards"][0].plans]
    assert all("/34 " in footer for footer in footers) and len(footers) == 68
    assert handed_on(cached) == handed_on(check_game(Project(tmp_path), "poker", jobs=1,
                                                     remember=False))


def test_page_furniture_reading_the_whole_deck_plans_every_part_again(tmp_path, monkeypatch,
                                                                      user_cache):
    """A project's own sheet furniture may read `deck` (every item): then an edit anywhere
    in the deck plans every part's pages again."""
    cards = _big_poker(tmp_path)
    furniture = (REPO / "pnp" / "data" / "templates" / "sheet.svg.j2").read_text(encoding="utf-8")
    own = tmp_path / "templates" / "common" / "sheet.svg.j2"
    own.parent.mkdir()
    write(own, furniture.replace("{{ sheet_title }}",
                                 "{{ sheet_title }} ({{ deck.items[-1].title }})"))
    monkeypatch.chdir(tmp_path)
    check_game(Project(tmp_path), "poker", jobs=1)
    lines = cards.read_text(encoding="utf-8").splitlines()
    lines[-1] = lines[-1].replace(",", ",Renamed ", 1)
    write(cards, "\n".join(lines) + "\n")
    cached = check_game(Project(tmp_path), "poker", jobs=1)
    assert "(Renamed " in cached.outputs["cards"][0].plans[0].furniture
    assert handed_on(cached) == handed_on(check_game(Project(tmp_path), "poker", jobs=1,
                                                     remember=False))


def test_one_row_edited_in_a_deck_of_several_files_on_two_cores(tmp_path, monkeypatch,
                                                                 user_cache):
    """Two decks of 300 rows, each from its own CSV file, read side by side and checked on
    two cores: after one row is edited, only its part is drawn again (one kept entry
    changes), and the check hands on what a check keeping nothing does, the new finding
    included."""
    first = _big_poker(tmp_path)
    game = tmp_path / "content" / "poker" / "game.yaml"
    manifest = game.read_text(encoding="utf-8")
    deck = manifest[manifest.index("  cards:\n"):]
    write(game, manifest + deck.replace("  cards:", "  more:", 1).replace(
        "file: cards.csv", "file: more.csv").replace("title: Poker cards", "title: More"))
    second = first.with_name("more.csv")
    write(second, first.read_text(encoding="utf-8"))
    monkeypatch.setattr(pnp.load.model, "SHARED_DATA_BYTES", 0)
    monkeypatch.chdir(tmp_path)

    def entries() -> dict[str, bytes]:
        return {p.name: p.read_bytes() for kept in user_cache.glob("sheets-*")
                for p in kept.iterdir()}

    parts = sum(parts_of(check_game(Project(tmp_path), "poker", jobs=2)).values())
    before = entries()
    rows = list(csv.reader(io.StringIO(second.read_text(encoding="utf-8"))))
    rows[150][-1] = "A body far too long to fit. " * 12  # row 150, on line 151
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    write(second, text.getvalue())
    cached = check_game(Project(tmp_path), "poker", jobs=2)
    after = entries()
    assert len(before) == len(after) == parts > 2  # several parts a deck
    assert sum(before[name] != after[name] for name in before) == 1
    fresh = check_game(Project(tmp_path), "poker", jobs=1, remember=False)
    assert any(f.where.line == 151 for f in fresh.findings)
    assert handed_on(cached) == handed_on(fresh)
