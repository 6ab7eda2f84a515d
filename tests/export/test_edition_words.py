"""pnp's own printed words in an edition's language: the Babel test game (with a cover page and
a French edition added) built with --lang de and --lang fr, its sheet notes and cover headings
read back with PyMuPDF; and a message pnp's catalogue lacks prints in English with a warning."""

from __future__ import annotations

import shutil
from pathlib import Path

import jinja2
import pymupdf
import pytest

from conftest import TESTS

BABEL = TESTS / "data" / "games" / "babel"
COVER = """
data:
  cover:
    file: cover.yaml
    shape: record
    label: cover sheet
    fields:
      on_paper: {type: list, of: text, required: false}
      printing: {type: list, of: text, required: false}
      bring: {type: list, of: text, min_items: 1}
      proposals: {type: list, of: text, required: false}
      optional_rules: {type: text, required: false}

pages:
  cover:
    title: Cover sheet
    template: cover.svg.j2
    data: cover
"""
WORDS = {  # what the edition prints, in the language's own words (written out here)
    "de": {"cards": ["In 100 % (Originalgröße) drucken: nicht an die Seite anpassen",
                     "Vorderseiten. Die nächste Seite auf die Rückseite drucken, an der langen "
                     "Kante wenden.", "50 mm: messen, um den Druckmaßstab zu prüfen"],
           "cover": ["DECKBLATT", "was dieses Set enthält", "Was drin ist", "So wird gedruckt",
                     "Was man noch braucht"]},
    "fr": {"cards": ["Imprimez à 100 % (taille réelle) : sans ajuster à la page",
                     "Rectos. Imprimez la page suivante au dos, en retournant sur le bord long.",
                     "50 mm : mesurez pour vérifier l’échelle d’impression"],
           "cover": ["PAGE DE GARDE", "ce que contient ce kit", "Ce qu’il contient",
                     "Comment imprimer", "Ce qu’il faut encore"]},
}
ENGLISH = ["Print at 100%", "measure to check", "What is in it", "How to print"]


@pytest.fixture(scope="module")
def editions(tmp_path_factory) -> Path:
    from pnp.cli import main

    root = tmp_path_factory.mktemp("babel-editions")
    shutil.copytree(BABEL, root, dirs_exist_ok=True)
    game = root / "content" / "babel"
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "languages: [en, de]", "languages: [en, de, fr]") + COVER, encoding="utf-8")
    (game / "cards.fr.yaml").write_bytes((game / "cards.de.yaml").read_bytes())
    (game / "cover.yaml").write_text('bring:\n  - "Two dice."\n', encoding="utf-8")
    for lang in ("de", "fr"):
        assert main(["build", "--root", str(root), "--lang", lang]) == 0
    return root / "output" / "babel"


def text_of(pdf: Path) -> str:
    with pymupdf.open(pdf) as document:
        return " ".join(" ".join(page.get_text().split()) for page in document)


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_sheet_notes_and_cover_headings_print_in_the_editions_language(editions, lang):
    for sheet, words in WORDS[lang].items():
        text = text_of(editions / f"{sheet}-{lang}-letter.pdf")
        for phrase in words:
            assert phrase in text, (sheet, phrase, text)
        for english in ENGLISH:
            assert english not in text, (sheet, english)


def test_a_message_the_catalogue_lacks_prints_in_english_with_a_warning():
    from pnp.render.sourcelines import Report
    from pnp.render.words import Words

    report = Report(jinja2.Environment())
    words = Words("de", report)
    assert words("Print at 100% (Actual size): do not fit to page") != \
        "Print at 100% (Actual size): do not fit to page"
    assert words("Nothing pnp prints") == "Nothing pnp prints"
    assert words("Nothing pnp prints") == "Nothing pnp prints"  # warned about once
    (warning,) = report.findings.warnings
    assert warning.rule == "pnp-translation-missing" and "no German" in warning.message
    assert Words("en", report)("Nothing pnp prints") == "Nothing pnp prints"
