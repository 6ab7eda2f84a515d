"""A game's own fonts (fonts: in game.yaml), inline emphasis, and the glyph check of every
printed character, on the Serif test game (DejaVu Serif, its four faces, in its folder).

The PDF is read back with PyMuPDF: the fonts it embeds, and the font each span is drawn in.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf
import pytest
from hypothesis import given, strategies as st

from conftest import TESTS, copy_as_cwd, edit, line_of
from pnp.fonts import BUNDLED, metrics
from pnp.load.own_fonts import read_fonts
from pnp.render.emphasis import parse_emphasis, plain
from pnp.render.textfit import fit_text

SERIF = TESTS / "data" / "games" / "serif"
GAME = Path("content/serif/game.yaml")
CARDS = Path("content/serif/cards.csv")
FRONT = Path("templates/serif/card-front.svg.j2")


@pytest.fixture
def serif(tmp_path, monkeypatch) -> Path:
    return copy_as_cwd(SERIF, tmp_path, monkeypatch)


@pytest.fixture(scope="module")
def serif_built(tmp_path_factory) -> Path:
    from pnp.cli import main

    root = tmp_path_factory.mktemp("serif-built")
    shutil.copytree(SERIF, root, dirs_exist_ok=True)
    assert main(["build", "--root", str(root)]) == 0
    assert main(["proof", "--root", str(root)]) == 0
    return root


def spans(pdf: Path) -> list[tuple[str, str]]:
    """(text, font name without its subset tag) of every span on the PDF's first page."""
    page = pymupdf.open(pdf)[0]
    return [(span["text"], span["font"].split("+")[-1])
            for block in page.get_text("dict")["blocks"] for line in block.get("lines", [])
            for span in line["spans"]]


def test_the_pdf_embeds_the_games_own_fonts_by_name(serif_built):
    document = pymupdf.open(serif_built / "output/serif/cards-letter.pdf")
    embedded = {font[3].split("+")[-1] for page in document for font in page.get_fonts()}
    assert {"DejaVuSerif", "DejaVuSerif-Bold", "DejaVuSerif-Italic",
            "DejaVuSerif-BoldItalic"} <= embedded
    footer = {text: font for text, font in spans(serif_built / "output/serif/cards-letter.pdf")}
    # pnp's own furniture is measured by the layout in the bundled faces, and printed in them
    assert footer["Serif · Serif cards · sheet 1/1 · fronts"] == "RobotoCondensed-Regular"
    assert footer["Action"] == "DejaVuSerif"


def test_emphasis_is_drawn_in_the_faces_it_names_and_an_escaped_asterisk_prints(serif_built):
    drawn = spans(serif_built / "output/serif/cards-letter.pdf")
    fonts = {}
    for text, font in drawn:
        fonts.setdefault(text.strip(), font)
    assert fonts["two coins"] == "DejaVuSerif-Bold"
    assert fonts["Repay them"] == "DejaVuSerif-Italic"
    assert fonts["hidden"] == "DejaVuSerif-BoldItalic"
    assert fonts["Take"] == "DejaVuSerif"
    text = " ".join(t for t, _ in drawn)
    assert "a * penalty." in text
    assert "**" not in text and "*two" not in text


def test_a_character_the_face_lacks_is_drawn_in_the_roles_fallback(serif_built):
    drawn = spans(serif_built / "output/serif/cards-letter.pdf")
    fonts = {}
    for text, font in drawn:
        fonts.setdefault(text.strip(), font)
    assert fonts["★"] == "DejaVuSans" and fonts["✈"] == "DejaVuSans"
    assert fonts["Then fly"] == "DejaVuSerif"


def test_the_proof_loads_the_same_font_files(serif_built):
    proof = serif_built / "output/serif/proof"
    html = (proof / "index.html").read_text()
    for name, weight, style in (("DejaVuSerif.ttf", "normal", "normal"),
                                ("DejaVuSerif-Bold.ttf", "bold", "normal"),
                                ("DejaVuSerif-Italic.ttf", "normal", "italic"),
                                ("DejaVuSerif-BoldItalic.ttf", "bold", "italic")):
        assert (f'font-family: "DejaVu Serif"; font-weight: {weight};\n  font-style: {style}; '
                f'src: url("fonts/{name}")') in html
        assert (proof / "fonts" / name).read_bytes() == \
            (SERIF / "content/serif/fonts" / name).read_bytes()


def test_the_proof_shows_the_print_in_chromium(serif_built, browser):
    page = browser.new_page()
    failed = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.goto((serif_built / "output/serif/proof/index.html").as_uri(), wait_until="load")
    page.evaluate("document.fonts.ready")
    assert failed == []
    loaded = page.evaluate("[...document.fonts].filter(f => f.status == 'loaded')"
                           ".map(f => [f.family.replaceAll('\"', ''), f.weight, f.style])")
    weights = {"bold": "700", "normal": "400"}
    loaded = {(family, weights.get(weight, weight), style) for family, weight, style in loaded}
    assert {("DejaVu Serif", weight, style) for weight in ("400", "700")
            for style in ("normal", "italic")} <= loaded, loaded
    family = page.evaluate("""(() => {
        const text = [...document.querySelectorAll('figure.card svg text')]
            .find(t => t.textContent.includes('two coins'));
        return getComputedStyle(text).fontFamily + '|' + getComputedStyle(text).fontWeight;
    })()""")
    assert family.split("|")[0].strip('"') == "DejaVu Serif"
    assert family.split("|")[1] in ("bold", "700")


def test_a_template_naming_a_family_no_role_provides_is_a_located_error(serif, run):
    edit(serif / FRONT, '<rect x="3"', '<text x="9" y="76" font-family="Comic Sans MS" '
         'font-size="3">Hello</text>\n<rect x="3"')
    result = run("check")
    assert result.code == 1
    line = line_of(serif / FRONT, "Comic Sans MS")
    assert f"{FRONT}:{line}:1: error:" in result.err
    assert "font-family 'Comic Sans MS', which no font role provides" in result.err
    assert "(rule font-unknown)" in result.err


@pytest.mark.parametrize("where, old, new, located", [
    # an icon's letter: at the manifest line that gives it
    (GAME, 'letter: "$"', 'letter: "✈"', (GAME, "letter:")),
    # a plain <text> printing data: at the data line
    (CARDS, "Loan,Action", "Loan,Act ✈ ion", (CARDS, "Loan,")),
    # literal words in a template: at the template line
    (FRONT, '<rect x="3"', '<text x="9" y="76" {{ font("body") }} font-size="3">Fly ✈</text>'
     '\n<rect x="3"', (FRONT, "Fly")),
    # inside a text box, in the face its emphasis draws with and in no fallback either
    (CARDS, "**two coins**", "**two \u0b95**", (CARDS, "Loan,")),
    # sheet furniture (a sheet's footer prints the deck's title): at the manifest line
    (GAME, "title: Serif cards", "title: Serif cards ✈", (GAME, "title: Serif cards")),
], ids=["icon-letter", "plain-text-data", "literal-template-text", "text-box-bold",
        "sheet-furniture"])
def test_a_missing_glyph_is_a_located_error(serif, run, where, old, new, located):
    """A text box may draw a character in its role's fallback font; a template's own <text>
    is drawn in one face, so that face must have every character."""
    edit(serif / where, old, new)
    result = run("check")
    assert result.code == 1, result.err
    file, needle = located
    line = line_of(serif / file, needle)
    found = [text for text in result.err.splitlines() if "(rule glyph-missing)" in text]
    assert found and all(text.startswith(f"{file}:{line}:") for text in found), result.err
    char = "\u0b95" if "\u0b95" in new else "✈"
    assert f"'{char}' (U+{ord(char):04X})" in found[0] and "DejaVu Serif" in found[0]


@pytest.mark.parametrize("old, new, fragment, rule", [
    ("*Repay them*", "*Repay them", "opens italic text that is never closed", "text-emphasis"),
    ("**two coins**", "**two coins", "opens bold text that is never closed", "text-emphasis"),
    ("Loan,Action", "*Loan*,Action", "italic text, but the font Noto Serif has no italic face",
     "font-no-style"),
], ids=["italic-open", "bold-open", "no-italic-face"])
def test_bad_emphasis_is_a_located_error(serif, run, old, new, fragment, rule):
    edit(serif / CARDS, old, new)
    result = run("check")
    assert result.code == 1
    line = line_of(serif / CARDS, new)
    assert f"{CARDS}:{line}:" in result.err and fragment in result.err, result.err
    assert f"(rule {rule})" in result.err


@pytest.mark.parametrize("old, new, fragment", [
    ("regular: fonts/DejaVuSerif.ttf", "regular: ../serif.ttf", "goes up out of its folder"),
    ("regular: fonts/DejaVuSerif.ttf", "regular: /fonts/x.ttf", "is an absolute path"),
    ("regular: fonts/DejaVuSerif.ttf", "regular: fonts/Missing.ttf", "does not exist"),
    ("regular: fonts/DejaVuSerif.ttf", "regular: cards.csv", "is not one of: .ttf, .otf"),
    ("licence: fonts/LICENSE.txt", "licence: fonts/GONE.txt", "does not exist"),
    ("licence: fonts/LICENSE.txt", "licence: 'see the web'", "names no licence"),
    ("bold: fonts/DejaVuSerif-Bold.ttf", "bold: fonts/Broken.ttf", "cannot be read as a font"),
], ids=["dotdot", "absolute", "missing", "not-a-font-name", "licence-missing", "licence-vague",
        "broken-font"])
def test_a_bad_font_declaration_is_a_located_error(serif, run, old, new, fragment):
    (serif / "content/serif/fonts/Broken.ttf").write_bytes(b"not a font at all")
    edit(serif / GAME, old, new)
    result = run("check")
    assert result.code == 1
    line = line_of(serif / GAME, new.split(": ", 1)[1])
    assert f"{GAME}:{line}:" in result.err and fragment in result.err, result.err


def test_a_link_out_of_the_game_folder_is_refused(serif, run, tmp_path):
    outside = tmp_path / "elsewhere.ttf"
    shutil.copy(SERIF / "content/serif/fonts/DejaVuSerif.ttf", outside)
    (serif / "content/serif/fonts/Linked.ttf").symlink_to(outside)
    edit(serif / GAME, "regular: fonts/DejaVuSerif.ttf", "regular: fonts/Linked.ttf")
    result = run("check")
    assert result.code == 1
    assert "leads outside the game folder" in result.err


def test_the_bundled_roles_stay_for_a_game_without_fonts():
    from types import SimpleNamespace

    assert read_fonts(SimpleNamespace(fonts={}), Path("."), None) is BUNDLED
    assert metrics("body").face.family == "Roboto Condensed"


@pytest.mark.parametrize("text, spans, problem", [
    ("plain", ((0, "plain"),), ""),
    ("a **b** c", ((0, "a "), (1, "b"), (0, " c")), ""),
    ("*a **b***", ((2, "a "), (3, "b")), ""),
    (r"5 \* 3", ((0, "5 * 3"),), ""),
    ("{coin} **{coin} gold**", ((0, "{coin} "), (1, "{coin} gold")), ""),
    ("a *b", ((0, "a "), (2, "b")), "the '*' at character 3 opens italic text"),
])
def test_emphasis_reads_its_marks(text, spans, problem):
    read = parse_emphasis(text)
    assert read.spans == spans
    assert read.problem.startswith(problem) if problem else read.problem == ""


def test_emphasis_is_fitted_with_each_faces_own_widths():
    body = metrics("body")
    plain = fit_text("wide words here", body, 100, 20, 10, 10)
    bold = fit_text(parse_emphasis("**wide words here**").marked, body, 100, 20, 10, 10)
    assert bold.line_widths_mm[0] == pytest.approx(
        metrics("bold").width_mm("wide words here", 10), abs=1e-6)
    assert bold.line_widths_mm[0] > plain.line_widths_mm[0] + 0.2
    assert [run.style for run in bold.lines[0]] == [1]


def test_italic_body_text_of_a_game_without_fonts_draws_in_the_bundled_italic(
        tmp_path, monkeypatch, run):
    root = tmp_path / "debtors"
    shutil.copytree(TESTS / "data" / "games" / "debtors", root)
    monkeypatch.chdir(root)
    edit(root / "content/debtors/cards.csv", "Ace of Loans,Loans,1,Borrow two coins from the "
         "bank; repay three", "Ace of Loans,Loans,1,Borrow two coins from the bank; *repay "
         "three*")
    result = run("build", "--sheets", "cards")
    assert result.code == 0, result.err
    pdf = next((root / "output/debtors").glob("cards-*.pdf"))
    drawn = {text.strip(): font for text, font in spans(pdf)}
    assert drawn["repay three"] == "RobotoCondensed-Italic"


@given(st.text(alphabet="ab *\\\n{}", max_size=40))
def test_any_text_reads_as_spans_that_print_its_words(text):
    """Whatever the asterisks, reading never fails, and the marked text (what is fitted and
    drawn) holds exactly the spans' characters, spaces included."""
    read = parse_emphasis(text)
    assert plain(read.marked) == "".join(part for _, part in read.spans)
    assert all(style in (0, 1, 2, 3) for style, _ in read.spans)


def test_a_role_of_the_games_own_is_what_its_templates_name(serif, run):
    edit(serif / GAME, "\ndecks:", "  flavour:\n    regular: fonts/DejaVuSerif-Italic.ttf\n"
         "    licence: fonts/LICENSE.txt\n\ndecks:")
    edit(serif / FRONT, "{{ font('body') }} font-size=\"3\"", "{{ font('flavour') }} "
         "font-size=\"3\"")
    result = run("build")
    assert result.code == 0, result.err
    drawn = dict(spans(serif / "output/serif/cards-letter.pdf"))
    assert drawn["Action"] == "DejaVuSerif-Italic"
    edit(serif / FRONT, "font('flavour')", "font('flavor')")
    result = run("check")
    assert result.code == 1
    line = line_of(serif / FRONT, "font('flavor')")
    assert f"{FRONT}:{line}:1: error:" in result.err and "no font role 'flavor'" in result.err
