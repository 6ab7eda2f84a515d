"""Check sees what build draws, and every command answers careless input with one line: the
cases of careless and hostile use found on the manifest, CSV, layout, export, history, watch
and proof surfaces, each driven through the CLI."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import pdfplumber
import pikepdf
import pytest

from conftest import add_game, clean, edit, line_of, one_error
from pnp.units import pt_to_mm

GAME = Path("content/ledger/game.yaml")
CARDS = Path("content/ledger/cards.csv")


# -- layouts -------------------------------------------------------------------------------

def test_a_deck_without_backs_builds_under_gutterfold(ledger, run):
    # notes: back: none
    assert run("check", "--layout", "gutterfold").code == 0
    result = run("build", "--layout", "gutterfold", "--sheets", "notes")
    assert result.code == 0, result.err
    clean(result)
    with pikepdf.open(ledger / "output/ledger/notes-gutterfold.pdf") as pdf:
        width = pt_to_mm(float(pdf.pages[0].mediabox[2]))
        assert len(pdf.pages) == 1
    # the fronts left of the fold, nothing drawn right of it
    with pdfplumber.open(ledger / "output/ledger/notes-gutterfold.pdf") as pdf:
        words = pdf.pages[0].extract_words()
    notes = [w for w in words if w["text"] == "NOTE"]
    assert len(notes) == 2
    assert all(pt_to_mm(w["x1"]) < width / 2 for w in notes)


def test_layouts_yaml_warnings_are_printed_by_build_too(ledger, run):
    edit(ledger / "layouts.yaml", "  gap_mm: 2", "  gap_mm: 2\n  gapp: 3")
    line = f"layouts.yaml:{line_of(ledger / 'layouts.yaml', 'gapp')}:3: warning: "
    for command in ("check", "build"):
        result = run(command, "--layout", "prop")
        assert result.code == 0
        assert any(l.startswith(line) and "did you mean 'gap_mm'" in l for l in result.lines), \
            (command, result.err)


# -- templates ------------------------------------------------------------------------------

def test_a_plain_image_href_is_a_located_finding_pointing_to_image(ledger, run):
    template = ledger / "templates/ledger/note-front.svg.j2"
    assert run("build").code == 0
    before = (ledger / "output/ledger/cards-letter.pdf").read_bytes()
    edit(template, "</svg>", '<image href="art.png" x="0" y="0" width="9" height="9"/>\n</svg>')
    line = one_error(run("check"))
    assert line.startswith(f"templates/ledger/note-front.svg.j2:"
                           f"{line_of(template, '<image href')}:"), line
    assert "'art.png'" in line and "image()" in line and "(rule template-href)" in line
    built = run("build")
    assert built.code == 1 and "nothing was written" in built.err
    clean(built)
    assert (ledger / "output/ledger/cards-letter.pdf").read_bytes() == before


@pytest.mark.parametrize("href", ["#local", "data:image/png;base64,iVBORw0KGgo="])
def test_an_href_inside_the_drawing_is_not_foreign(ledger, run, href):
    template = ledger / "templates/ledger/note-front.svg.j2"
    edit(template, "</svg>", f'<defs><circle id="local" r="1"/></defs><use href="{href}"/>\n'
         "</svg>")
    assert not any("template-href" in line for line in run("check").lines)


DRAWING_MISTAKES = [
    ("use-loop", '<g id="loop"><use href="#loop"/></g>', "uses itself through <use>"),
    ("use-loop-through-another", '<defs><g id="a"><use href="#b"/></g><g id="b"><use '
     'href="#a"/></g></defs><use href="#a"/>', "uses itself through <use>"),
    ("transform-huge", '<g transform="scale(1e308)"><rect width="1" height="1"/></g>',
     "which cannot be drawn"),
    ("transform-zero-scale", '<g transform="scale(0)"><rect width="1" height="1"/></g>',
     "which cannot be drawn"),
    ("css-import", "<style>@import url(http://127.0.0.1:9/x.css);</style>",
     "through CSS, which a build refuses"),
    ("css-url", '<rect width="1" height="1" style="fill: url(http://127.0.0.1:9/a.png)"/>',
     "through CSS, which a build refuses"),
]


@pytest.mark.parametrize(("drawing", "message"), [case[1:] for case in DRAWING_MISTAKES],
                         ids=[case[0] for case in DRAWING_MISTAKES])
def test_what_only_drawing_would_refuse_is_a_located_finding_of_check(ledger, run, drawing,
                                                                      message):
    """A build draws with cairo, a check does not: what cairo fails on or the fetcher refuses
    while drawing is found in the face's text, at its template line, by check and build."""
    template = ledger / "templates/ledger/note-front.svg.j2"
    assert run("build").code == 0
    before = (ledger / "output/ledger/notes-letter.pdf").read_bytes()
    edit(template, "</svg>", "\n" + drawing + "\n</svg>")
    line = one_error(run("check"))
    assert line.startswith(f"templates/ledger/note-front.svg.j2:"
                           f"{len(template.read_text().splitlines()) - 1}:"), line
    assert message in line and "(rule template-drawing)" in line
    built = run("build")
    assert built.code == 1 and "nothing was written" in built.err
    clean(built)
    assert (ledger / "output/ledger/notes-letter.pdf").read_bytes() == before


def test_what_drawing_takes_is_not_a_finding(ledger, run):
    template = ledger / "templates/ledger/note-front.svg.j2"
    edit(template, "</svg>", '<defs><linearGradient id="g"/><g id="dot"><circle r="1"/></g>'
         '</defs><use href="#dot"/><use href="#dot" transform="translate(3, 4) scale(0.5)"/>'
         '<rect width="2" height="2" fill="url(#g)" style="stroke: url(\'#g\')"/>'
         '<text x="1" y="1" font-family="Roboto Condensed">url(http://x) and '
         'transform="scale(0)" as text</text>\n</svg>')
    assert not any("template-drawing" in line for line in run("check").lines)


# -- CSV --------------------------------------------------------------------------------------

def test_a_csv_with_a_header_and_no_rows_is_a_finding(ledger, run):
    (ledger / CARDS).write_text("title,value,text,art\n", encoding="utf-8")
    line = one_error(run("check"))
    assert line.startswith(f"{CARDS}:1:1: ") and "header but no rows" in line


def test_a_line_break_inside_a_quoted_csv_cell_is_accepted(ledger, run):
    (ledger / CARDS).write_bytes(b'title,value,text,art\r\nLoan,1,"Borrow\r\ntwo coins.",'
                                 b'art.png\r\n')
    result = run("check")
    assert result.code == 0, result.err


@pytest.mark.parametrize("separator, named", [(";", "';'"), ("\t", "tabs"), ("|", "'|'")])
def test_a_csv_with_another_separator_says_so(ledger, run, separator, named):
    (ledger / CARDS).write_text(f"title{separator}value{separator}text{separator}art\n"
                                f"Loan{separator}1{separator}Borrow{separator}art.png\n",
                                encoding="utf-8")
    line = one_error(run("check"))
    assert line.startswith(f"{CARDS}:1:1: ") and f"separated by {named}" in line
    assert "comma" in line


# -- games, watch, export ---------------------------------------------------------------------

def test_watch_for_a_missing_game_exits_with_the_error(ledger, run):
    result = run("watch", "--game", "nosuch")
    assert result.code == 1
    clean(result)
    assert result.lines[0].startswith("content/nosuch: error: no game 'nosuch'")


def test_a_folder_without_game_yaml_is_named_as_such(ledger, run):
    (ledger / "content/draft").mkdir()
    result = run("check", "--game", "draft")
    assert result.code == 1
    assert result.lines[0].startswith("content/draft/game.yaml: error: content/draft/ has no "
                                      "game.yaml")


def test_export_with_no_deck_chosen_is_an_error(tmp_path, monkeypatch, run):
    """A shop makes decks (a board prints whole from board-large.pdf); Tabletop Simulator takes
    the board as a custom board."""
    add_game(tmp_path, "downturn")
    monkeypatch.chdir(tmp_path)
    result = run("export", "--game", "downturn", "--to", "shop", "--sheets", "board")
    assert result.code == 2
    clean(result)
    assert "nothing to export" in result.err and "board is not a deck" in result.err
    assert not list((tmp_path / "output").glob("downturn/shop-*"))


# -- history ------------------------------------------------------------------------------------

@pytest.mark.parametrize("record", [
    {"faces": [], "svgs": []}, [1], {"faces": [{"x": 1}], "svgs": {}}, {"faces": "none"},
    {"faces": [{"sheet": "a", "label": "b", "side": "front", "stamp": "", "svg_hash": "",
                "size_mm": "wide"}], "svgs": {}},
], ids=["svgs-list", "list", "unknown-key", "faces-text", "size-text"])
def test_a_damaged_history_record_is_one_line_for_diff_and_reprint(ledger, run, record):
    assert run("build").code == 0
    pdfs = {p: p.read_bytes() for p in (ledger / "output/ledger").glob("*.pdf")}
    path = ledger / "output/ledger/history/builds/0001.json.xz"
    path.write_bytes(lzma.compress(json.dumps(record).encode()))
    result = run("diff")
    assert result.code == 1
    clean(result)
    assert len(result.lines) == 1 and "the record of build 1" in result.lines[0] and \
        "cannot be read" in result.lines[0]
    reprint = run("build", "--reprint")
    clean(reprint)
    assert reprint.code == 0
    assert any("no reprint for ledger" in line for line in reprint.lines)
    assert {p: p.read_bytes() for p in pdfs} == pdfs


def test_a_history_record_is_read_back_as_written(ledger, run):
    from pnp.history.record import load_build

    assert run("build").code == 0
    snapshot = load_build(ledger / "output", "ledger", 1)
    labels = [face.label for face in snapshot.faces]
    assert 'card "Loan"' in labels and 'note "Small note"' in labels
    assert all(snapshot.svg(face) for face in snapshot.faces if face.svg_hash)
    assert run("diff").code == 0


# -- proof --------------------------------------------------------------------------------------

def test_proof_png_on_a_card_printed_more_than_once(ledger, run):
    cards = ledger / CARDS
    rows = cards.read_text(encoding="utf-8").splitlines()
    cards.write_text("\n".join(rows + rows[1:2]) + "\n", encoding="utf-8")  # Loan twice
    result = run("proof", "--png")
    assert result.code == 0, result.err
    clean(result)
    pngs = sorted(p.name for p in (ledger / "output/ledger/proof/png").iterdir())
    assert pngs.count("cards-card-loan-front.png") == 1
    result = run("proof", "--card", "Loan", "--png")
    assert result.code == 0, result.err


def test_proof_changed_and_card_leave_the_full_gallery(ledger, run):
    assert run("proof").code == 0
    gallery = ledger / "output/ledger/proof/index.html"
    full = gallery.read_bytes()
    assert run("proof", "--changed").code == 0
    assert run("proof", "--card", "Loan").code == 0
    assert gallery.read_bytes() == full
    assert (ledger / "output/ledger/proof/changed.html").is_file()
    assert "Loan" in (ledger / "output/ledger/proof/card.html").read_text("utf-8")


# -- boards ---------------------------------------------------------------------------------------

PORTRAIT_BOARD = """
boards:
  map:
    title: Portrait map
    size: 18 x 24 in
    template: map.svg.j2
"""
MAP_TEMPLATE = """<svg xmlns="http://www.w3.org/2000/svg" width="457.2mm" height="609.6mm"
 viewBox="0 0 457.2 609.6"><rect x="5" y="5" width="447.2" height="599.6" fill="#ccddee"/>
</svg>
"""


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_portrait_board_keeps_its_assembly_map_on_the_page(ledger, run, paper):
    game = ledger / GAME
    game.write_text(game.read_text(encoding="utf-8") + PORTRAIT_BOARD, encoding="utf-8")
    (ledger / "templates/ledger/map.svg.j2").write_text(MAP_TEMPLATE, encoding="utf-8")
    result = run("build", "--sheets", "map", "--paper", paper)
    assert result.code == 0, result.err
    with pdfplumber.open(ledger / f"output/ledger/map-{paper}.pdf") as pdf:
        page = pdf.pages[0]
        width, height = page.width, page.height
        blocks = [(w["x0"], w["top"], w["x1"], w["bottom"], w["text"])
                  for w in page.extract_words()]
    assert blocks
    for x0, y0, x1, y1, word, *_ in blocks:  # every word of the map inside the paper
        assert 0 <= x0 and x1 <= width + 0.5 and 0 <= y0 and y1 <= height + 0.5, word
    ruler = max(y0 for x0, y0, x1, y1, word, *_ in blocks if word == "50")  # its caption
    column = min(b[0] for b in blocks if b[4] == "1.")  # the steps' numbers line up there
    steps = [b for b in blocks if b[4] in ("1.", "2.", "3.", "4.", "5.", "6.")
             and abs(b[0] - column) < 0.5]
    assert len(steps) == 6
    last_step = [b for b in blocks if b[4] == "Finally"]  # the sixth step's first word
    assert last_step and last_step[0][3] < ruler  # the steps end above the ruler
    assert all(b[3] < ruler for b in steps)
    heading = [b for b in blocks if b[4] == "map," or b[4] == "assembly"]
    assert len(heading) == 2 and all(b[2] <= width for b in heading)


# -- YAML and pnp new -----------------------------------------------------------------------------

@pytest.mark.parametrize("value, kind", [("{click} Small note", "mapping"),
                                         ("[draft] Small note", "list")])
def test_a_value_starting_with_a_bracket_says_to_quote_it(ledger, run, value, kind):
    edit(ledger / "content/ledger/notes.yaml", "- name: Small note", f"- name: {value}")
    line = one_error(run("check"))
    assert line.startswith("content/ledger/notes.yaml:1:")
    assert f"is read as a YAML {kind}: put the whole value in quotes, \"{value}\"" in line


def test_pnp_new_over_a_dangling_link_makes_nothing(ledger, run):
    (ledger / "templates/mine").symlink_to(ledger / "nowhere")
    result = run("new", "mine")
    assert result.code == 2
    clean(result)
    assert "templates/mine already exists" in result.err
    assert not (ledger / "content/mine").exists()


# -- the command line and its environment -----------------------------------------------------

@pytest.mark.parametrize(("argv", "environment", "message"), [
    (("build",), {"SOURCE_DATE_EPOCH": "99999999999999999999"}, "SOURCE_DATE_EPOCH="),
    (("build",), {"SOURCE_DATE_EPOCH": "yesterday"}, "SOURCE_DATE_EPOCH="),
    (("export", "--to", "tts", "--base-url", "javascript:alert(1)"), {}, "--base-url"),
    (("export", "--to", "tts", "--base-url", "http://[::1"), {}, "--base-url"),
    (("calibrate", "--save", " "), {}, "--save names no profile"),
], ids=["date-past-9999", "date-not-a-number", "base-url-script", "base-url-broken",
        "save-no-name"])
def test_a_value_pnp_cannot_use_is_a_usage_error_before_anything_is_written(
        ledger, run, monkeypatch, argv, environment, message):
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    result = run(*argv)
    assert result.code == 2, result.err
    assert result.lines[0].startswith("pnp: error: ") and message in result.lines[0]
    assert "internal error" not in result.err and not (ledger / "output").exists()
