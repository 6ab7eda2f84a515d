"""Icons in card text: one grammar for their names, where game.yaml declares them and where
text writes them, and the designer's own SVG or PNG symbols drawn on the text's baseline
(read back from the PDF with PyMuPDF)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf
import pytest

from conftest import TESTS, copy_as_cwd, edit, line_of
from pnp.units import pt_to_mm

BABEL = TESTS / "data" / "games" / "babel"
GAME = Path("content/babel/game.yaml")
CARDS = Path("content/babel/cards.yaml")
ICON_COLOUR = (0x7a / 255, 0x1f / 255, 0x5c / 255)  # the skull's square, in icons/skull.svg


@pytest.fixture
def babel(tmp_path, monkeypatch) -> Path:
    return copy_as_cwd(BABEL, tmp_path, monkeypatch)


def errors(result) -> list[str]:
    return [line for line in result.lines if ": error: " in line]


@pytest.mark.parametrize("declared, fragment, hint", [
    ("elder sign", "icon 'elder sign' cannot be written as a token", "rename it 'elder_sign'"),
    ("Big", "icon 'Big' cannot be written as a token", "rename it 'big'"),
    ('""', "icon an empty name cannot be written as a token", "name it with lower-case"),
    ("9lives", "icon '9lives' cannot be written", "name it with lower-case"),
])
def test_a_name_text_cannot_write_is_refused_at_its_line(babel, run, declared, fragment, hint):
    edit(babel / GAME, "  coin: {fill", f"  {declared}: {{fill: '#000000', letter: X}}\n"
                                         "  coin: {fill")
    result = run("check")
    assert result.code == 1
    [line] = errors(result)
    assert line.startswith(f"{GAME}:{line_of(babel / GAME, 'letter: X')}:")
    assert fragment in line and hint in line and "(rule icon-name)" in line


def test_a_name_with_an_underscore_draws(babel, run, tmp_path):
    edit(babel / GAME, "  coin: {fill", "  elder_sign: {fill: '#2e7d32', letter: E}\n"
                                         "  coin: {fill")
    edit(babel / CARDS, "to build one floor.", "to build one floor. {elder_sign}")
    assert run("check", "--strict").code == 0
    assert run("build", "--out", str(tmp_path / "out")).code == 0
    with pymupdf.open(tmp_path / "out" / "babel" / "cards-letter.pdf") as pdf:
        text = pdf[0].get_text()
    assert "{elder_sign}" not in text and "E" in text.split()


@pytest.mark.parametrize("written", ["{Coin}", "{coins}", "{elder sign}", "{}", "{coin }"])
def test_braces_naming_no_icon_are_an_error_listing_drawable_icons(babel, run, written):
    edit(babel / CARDS, "to build one floor.", f"to build one floor {written}.")
    result = run("check")
    assert result.code == 1
    [line] = errors(result)
    assert line.startswith(f"{CARDS}:{line_of(babel / CARDS, 'build one floor')}:")
    assert f"unknown icon token {written}" in line
    assert line.endswith("known tokens: {coin}, {skull} (rule text-unknown-token)") or \
        line.endswith("known tokens: {skull}, {coin} (rule text-unknown-token)")
    if "oin" in written:
        assert "known tokens: {coin}, {skull}" in line  # the closest first


def test_image_icon_stands_on_the_text_baseline(babel, run, tmp_path):
    assert run("build", "--out", str(tmp_path / "out")).code == 0
    with pymupdf.open(tmp_path / "out" / "babel" / "cards-letter.pdf") as pdf:
        page = pdf[0]
        squares = [d["rect"] for d in page.get_drawings()
                   if d.get("fill") and all(abs(a - b) < 0.01
                                            for a, b in zip(d["fill"], ICON_COLOUR))]
        spans = [span for block in page.get_text("rawdict")["blocks"]
                 for line in block.get("lines", ()) for span in line["spans"]
                 if "".join(c["c"] for c in span["chars"]).startswith("Each player takes")]
    assert squares, "the skull icon is not on the page"
    [span] = spans
    icon = max(squares, key=lambda rect: rect.width * rect.height)  # its square, not its eyes
    baseline_pt, size_pt = span["origin"][1], span["size"]
    assert abs(pt_to_mm(icon.y1 - baseline_pt)) <= 0.3, (icon, baseline_pt)
    # One em high, or near it, and after the words before it on the same line.
    assert 0.8 * size_pt <= icon.height <= 1.05 * size_pt
    assert icon.x0 >= span["bbox"][2] - 0.01


@pytest.mark.parametrize("image, fragment", [
    ("icons/missing.svg", "'icons/missing.svg' does not exist in the game folder"),
    ("../outside.svg", "'../outside.svg' goes up out of its folder"),
    ("icons/skull.gif", "'icons/skull.gif' is not one of: .svg, .png"),
    ("icons/broken.svg", "'icons/broken.svg' is not well-formed SVG"),
    ("icons/fake.png", "'icons/fake.png' is not a PNG file"),
])
def test_a_missing_or_broken_icon_image_is_an_error_at_its_line(babel, run, image, fragment):
    folder = babel / "content" / "babel" / "icons"
    (folder / "skull.gif").write_bytes(b"GIF89a")
    (folder / "broken.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'><rect>",
                                       encoding="utf-8")
    shutil.copy(folder / "skull.svg", folder / "fake.png")
    edit(babel / GAME, "image: icons/skull.svg", f"image: {image}")
    result = run("check")
    assert result.code == 1
    [line] = errors(result)
    assert line.startswith(f"{GAME}:{line_of(babel / GAME, 'skull:')}:")
    assert fragment in line


def test_an_icon_that_draws_nothing_is_an_error(babel, run):
    edit(babel / GAME, "coin: {fill: '#c9a227', letter: C, ink: '#000000'}", "coin: {letter: C}")
    result = run("check")
    assert result.code == 1
    [line] = errors(result)
    assert line.startswith(f"{GAME}:{line_of(babel / GAME, 'coin:')}:")
    assert "icon 'coin' draws nothing" in line and "(rule icon-kind)" in line


def test_png_icon_stands_on_the_text_baseline(babel, run, tmp_path):
    from PIL import Image

    Image.new("RGB", (64, 64), (0x7a, 0x1f, 0x5c)).save(
        babel / "content" / "babel" / "icons" / "skull.png")
    edit(babel / GAME, "image: icons/skull.svg", "image: icons/skull.png")
    assert run("build", "--strict", "--out", str(tmp_path / "out")).code == 0
    with pymupdf.open(tmp_path / "out" / "babel" / "cards-letter.pdf") as pdf:
        page = pdf[0]
        boxes = [page.get_image_bbox(image) for image in page.get_images(full=True)]
        [span] = [span for block in page.get_text("rawdict")["blocks"]
                  for line in block.get("lines", ()) for span in line["spans"]
                  if "".join(c["c"] for c in span["chars"]).startswith("Each player takes")]
    assert len(boxes) == 1, boxes
    assert abs(pt_to_mm(boxes[0].y1 - span["origin"][1])) <= 0.3
    assert 0.8 * span["size"] <= boxes[0].height <= 1.05 * span["size"]
