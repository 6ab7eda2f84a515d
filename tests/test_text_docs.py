"""docs/text.md's examples work as written: its text boxes, icons and translations are put
into a small game in English and German, which then checks clean and builds both editions."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest
import yaml

from conftest import REPO, TESTS, copy_as_cwd

DOC = REPO / "docs" / "text.md"
BABEL = TESTS / "data" / "games" / "babel"


def blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


@pytest.fixture
def babel(tmp_path, monkeypatch) -> Path:
    return copy_as_cwd(BABEL, tmp_path, monkeypatch)


def test_the_worked_text_box_example_builds_in_both_languages(babel, run, tmp_path):
    example = next(block for block in blocks("jinja") if "leading=" in block)
    front = babel / "templates" / "babel" / "front.svg.j2"
    lines = front.read_text(encoding="utf-8").splitlines()
    # The template's own text boxes make way for the documented ones.
    kept = [line for line in lines if "text_box" not in line]
    front.write_text("\n".join(kept[:-1] + [example.strip(), kept[-1]]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    for lang in ("en", "de"):
        result = run("build", "--strict", "--lang", lang, "--out", str(out))
        assert result.code == 0, result.err
    with pymupdf.open(out / "babel" / "cards-de-letter.pdf") as pdf:
        text = pdf[0].get_text()
    assert "Turm" in text and "Babel © 2026" in text


def test_the_icons_example_is_what_game_yaml_accepts(babel, run):
    example = next(block for block in blocks("yaml") if block.startswith("icons:"))
    icons = yaml.safe_load(example)["icons"]
    assert set(icons) == {"coin", "skull"}
    game = babel / "content" / "babel" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    start = text.index("icons:")
    end = text.index("\n\n", start)
    game.write_text(text[:start] + example.strip() + text[end:], encoding="utf-8")
    assert run("check", "--strict").code == 0


def test_the_translation_example_pairs_each_item_with_its_key():
    example = next(block for block in blocks("yaml") if "cards.de.yaml" in block)
    english, german = [], []
    for line in example.splitlines()[1:]:
        english.append(line[:45].rstrip())
        german.append(line[45:])
    data, translation = yaml.safe_load("\n".join(english)), yaml.safe_load("\n".join(german))
    assert data[0]["name"] == translation[0]["name"]
    assert set(translation[0]) - {"name"} <= {k for k, v in data[0].items() if isinstance(v, str)}
