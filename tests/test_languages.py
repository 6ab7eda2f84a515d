"""One game in two languages: `--lang de` makes the German edition from cards.de.yaml beside
cards.yaml, with its own file names, its text fitted and checked at the German file's lines,
and the same backs (read back from the PDFs with PyMuPDF)."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from conftest import TESTS, copy_as_cwd, edit, line_of
from pnp.units import mm_to_pt

BABEL = TESTS / "data" / "games" / "babel"
GAME = Path("content/babel/game.yaml")
CARDS = Path("content/babel/cards.yaml")
GERMAN = Path("content/babel/cards.de.yaml")
LONG = " ".join(["Jeder Spieler nimmt einen Stein aus dem Vorrat und legt ihn zurück."] * 9)


@pytest.fixture
def babel(tmp_path, monkeypatch) -> Path:
    return copy_as_cwd(BABEL, tmp_path, monkeypatch)


def findings(result, kind: str) -> list[str]:
    return [line for line in result.lines if f": {kind}: " in line]


def page_text(pdf: Path, number: int) -> str:
    with pymupdf.open(pdf) as document:
        return document[number].get_text()


def test_two_editions_with_their_own_names_and_the_same_backs(babel, run, tmp_path):
    out = tmp_path / "out"
    assert run("build", "--strict", "--out", str(out)).code == 0
    result = run("build", "--strict", "--lang", "de", "--out", str(out))
    assert result.code == 0, result.err
    english, german = out / "babel" / "cards-letter.pdf", out / "babel" / "cards-de-letter.pdf"
    assert sorted(p.name for p in (out / "babel").glob("*.pdf")) == [
        "cards-de-letter.pdf", "cards-letter.pdf"]
    assert "Turm" in page_text(german, 0) and "Stockwerk" in page_text(german, 0)
    assert "Tower" in page_text(english, 0) and "Turm" not in page_text(english, 0)
    with pymupdf.open(english) as en, pymupdf.open(german) as de:
        assert len(en) == len(de) == 2  # one sheet of fronts, one of backs
        backs = [document[1] for document in (en, de)]
        # the same cards; only pnp's own words beside them are in the edition's language
        texts = [[block[4] for block in page.get_text("blocks")] for page in backs]
        same = [(a, b) for a, b in zip(*texts) if a == b]
        assert len(texts[0]) == len(texts[1]) and len(same) == len(texts[0]) - 2
        assert any("Rückseiten" in text for text in texts[1])
        drawn = [[(d["rect"], d.get("fill")) for d in page.get_drawings()] for page in backs]
        assert drawn[0] == drawn[1]
        cards = pymupdf.Rect()  # the backs as cut: their fills less the 5 mm they run past
        for drawing in backs[0].get_drawings():
            if drawing.get("fill"):
                cards |= drawing["rect"] + (mm_to_pt(5), mm_to_pt(5), -mm_to_pt(5),
                                            -mm_to_pt(5))
        pixels = [page.get_pixmap(dpi=30, clip=cards).samples for page in backs]
        assert pixels[0] == pixels[1]
        assert en[0].get_pixmap(dpi=30).samples != de[0].get_pixmap(dpi=30).samples


def test_german_overflow_is_found_at_the_german_line(babel, run):
    edit(babel / GERMAN, "Jeder Spieler nimmt 1 {skull} und verliert 1 {coin}.", LONG)
    assert run("check", "--strict").code == 0  # the English edition is untouched
    result = run("check", "--lang", "de")
    assert result.code == 1
    [line] = findings(result, "error")
    assert line.startswith(f"{GERMAN}:{line_of(babel / GERMAN, 'Jeder Spieler nimmt einen')}:")
    assert "text overflows" in line and 'card "curse"' in line


def test_a_missing_translation_is_a_warning_at_the_text_it_lacks(babel, run, tmp_path):
    edit(babel / GERMAN, "  text: Zahle 1 {coin}, um ein Stockwerk zu bauen.\n", "")
    result = run("check", "--lang", "de")
    assert result.code == 0
    [line] = findings(result, "warning")
    assert line.startswith(f"{CARDS}:{line_of(babel / CARDS, 'to build one floor')}:")
    assert "no 'de' translation of text: it prints in en" in line
    assert "add it to cards.de.yaml, or set 'fallback: en'" in line
    assert run("check", "--strict", "--lang", "de").code == 1
    # Said once, the fallback is what the designer wants: the English text, no warning.
    edit(babel / GAME, "languages: [en, de]", "languages: [en, de]\nfallback: en")
    assert run("build", "--strict", "--lang", "de", "--out", str(tmp_path / "out")).code == 0
    text = page_text(tmp_path / "out" / "babel" / "cards-de-letter.pdf", 0)
    assert "Turm" in text and "to build one floor" in text


def test_a_missing_translations_file_is_a_warning_at_the_data_file(babel, run):
    (babel / GERMAN).unlink()
    result = run("check", "--lang", "de")
    [line] = findings(result, "warning")
    assert line.startswith(f"{GAME}:{line_of(babel / GAME, 'file: cards.yaml')}:")
    assert "'cards.yaml' has no 'de' translation" in line and "create cards.de.yaml" in line


@pytest.mark.parametrize("old, new, kind, fragment", [
    ("- name: curse", "- name: curze", "warning", "'curze' is not an item of cards.yaml"),
    ("  title: Fluch", "  titel: Fluch", "error", "'titel' is not a field; did you mean 'title'?"),
    ("- name: tower\n", "- titel: Turm\n", "error", "a translated item names its item by 'name'"),
])
def test_a_translation_that_fits_no_item_is_found_at_its_line(babel, run, old, new, kind,
                                                             fragment):
    edit(babel / GERMAN, old, new)
    result = run("check", "--lang", "de")
    lines = [line for line in findings(result, kind) if fragment in line]
    assert lines, result.err
    assert lines[0].startswith(f"{GERMAN}:{line_of(babel / GERMAN, new.split(chr(10))[0])}:")


@pytest.mark.parametrize("languages, lang, fragment", [
    ("languages: [en, de]", "fr", "the game has no 'fr' edition; languages: en, de"),
    ("languages: [en, de]", "DE", "the game has no 'DE' edition; did you mean 'de'?"),
    ("languages: [en, Deutsch]", "", "'Deutsch' is not a language code"),
    ("languages: [en, de]\nfallback: de", "", "fallback 'de' is not the language the data"),
])
def test_languages_asked_for_or_declared_wrongly_are_errors(babel, run, languages, lang,
                                                           fragment):
    edit(babel / GAME, "languages: [en, de]", languages)
    result = run("check", *(("--lang", lang) if lang else ()))
    assert result.code == 1
    [line] = findings(result, "error")
    assert line.startswith(f"{GAME}:") and fragment in line


def test_json_check_and_proof_take_the_language(babel, run):
    result = run("check", "--lang", "de", "--format", "json")
    assert result.code == 0 and json.loads(result.out)["ok"]
    assert run("proof", "--lang", "de").code == 0
    gallery = (babel / "output" / "babel" / "proof-de" / "index.html").read_text("utf-8")
    assert "Turm" in gallery


def test_remembered_checks_follow_the_translations_file_and_the_language(babel, run):
    assert run("check", "--strict", "--lang", "de").code == 0
    edit(babel / GERMAN, "Jeder Spieler nimmt 1 {skull} und verliert 1 {coin}.", LONG)
    result = run("check", "--lang", "de")  # the same arguments: the edited file is seen
    assert result.code == 1 and f"{GERMAN}:" in result.err
    assert run("check", "--strict").code == 0  # the English edition, after the German one
    assert run("check", "--lang", "de").code == 1
