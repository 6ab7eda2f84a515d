"""Golden images: whole printed pages rasterised at low resolution and compared with a tolerance.

The geometry tests prove where things are; these catch what no geometry test names (a colour,
a missing icon, a font that changed). After an intended change to the look, refresh them with
`pytest tests/test_golden.py --update-golden` and review the new PNGs before committing.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest
from PIL import Image, ImageChops

from conftest import REPO, TESTS
from pnp.cli import main

GOLDEN = TESTS / "golden"
DPI = 30
MEAN_TOLERANCE = 1.5  # mean absolute difference per channel, 0..255
PIXEL_TOLERANCE = 0.01  # share of pixels allowed to differ by more than 64

PAGES = [("events-letter", 0), ("events-letter", 1), ("banks-a4", 0), ("aids-letter", 0),
         ("shares-letter", 0)]


@pytest.fixture(scope="module")
def built(built_kit) -> Path:
    return built_kit("downturn")


def rasterise(pdf: Path, index: int) -> Image.Image:
    document = pypdfium2.PdfDocument(pdf)
    try:
        return document[index].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        document.close()


@pytest.mark.parametrize("sheet,index", PAGES)
def test_page_looks_as_approved(built, sheet, index, update_golden, tmp_path):
    actual = rasterise(built / f"{sheet}.pdf", index)
    expected_path = GOLDEN / f"{sheet}-p{index + 1}.png"
    if update_golden:
        actual.save(expected_path)
        pytest.skip(f"updated {expected_path.name}")
    assert expected_path.exists(), "no golden image; run with --update-golden"
    expected = Image.open(expected_path).convert("RGB")
    assert actual.size == expected.size
    diff = ImageChops.difference(actual, expected)
    histogram = diff.convert("L").histogram()
    pixels = actual.size[0] * actual.size[1]
    mean = sum(value * count for value, count in enumerate(histogram)) / pixels
    far = sum(histogram[65:]) / pixels
    if mean > MEAN_TOLERANCE or far > PIXEL_TOLERANCE:
        actual.save(tmp_path / "actual.png")
        diff.save(tmp_path / "diff.png")
        pytest.fail(f"{sheet} page {index + 1} differs from {expected_path.name}: mean "
                    f"{mean:.2f}, {far:.1%} of pixels far off; see {tmp_path}/actual.png and "
                    "diff.png")
