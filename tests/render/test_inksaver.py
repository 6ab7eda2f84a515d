"""Ink-saver: large fills lightened on any template, what templates mark as decoration left
out, measured on the pages as PDFium renders them (a second reader) against the normal build,
every text read back the same (PyMuPDF)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pypdfium2
from PIL import ImageChops, ImageOps, ImageStat

import pytest

from pnp.render.inksaver import save_ink
from conftest import shared_build

SVG = "{http://www.w3.org/2000/svg}"

FACE = """<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">
<rect x="-5" y="-5" width="73" height="98" fill="#1f2a44" data-ink="decoration"/>
<circle cx="10" cy="10" r="4" fill="#7f1d1d" data-ink="outline"/>
<g data-ink-fill="#1f2a44"><g fill="#ffffff"><text x="1" y="20">Title</text></g></g>
<rect x="1" y="30" width="5" height="5" fill="#2e7d32"/>
</svg>"""


def test_decoration_is_dropped_outlines_kept_and_light_text_darkened():
    root = ET.fromstring(save_ink(FACE))
    rects = root.findall(f"{SVG}rect")
    assert [r.get("fill") for r in rects] == ["#2e7d32"]  # the background is gone, the rest kept
    circle = root.find(f"{SVG}circle")
    assert circle.get("fill") == "none" and circle.get("stroke") == "#7f1d1d"
    inner = root.find(f"{SVG}g/{SVG}g")
    assert inner.get("fill") == "#1f2a44"
    assert root.find(f"{SVG}g/{SVG}g/{SVG}text").text == "Title"


PLAIN = """<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">
<rect x="-5" y="-5" width="73" height="98" fill="#1f2a44"/>
<g fill="#455a64"><rect x="0" y="0" width="63" height="3"/><rect x="0" y="85" width="63" height="3"/></g>
<rect x="1" y="30" width="5" height="5" fill="#2e7d32"/>
<text x="3" y="33" fill="#ffffff">7</text>
<text x="10" y="50" fill="#ffffff">Title</text>
<text x="10" y="60" fill="#333333">Rules</text>
<line x1="0" y1="70" x2="63" y2="70" stroke="#000000" stroke-width="0.3"/>
</svg>"""


def test_a_face_without_marks_has_its_large_fills_lightened_and_its_text_kept():
    root = ET.fromstring(save_ink(PLAIN))
    background, chip = root.findall(f"{SVG}rect")
    assert background.get("fill") == "#d7d9dd"  # 18% of the navy's ink
    assert root.find(f"{SVG}g").get("fill") == "#dee1e3"  # a group of fills, taken together
    assert chip.get("fill") == "#2e7d32"  # a small fill carries information: kept
    on_chip, title, rules = root.findall(f"{SVG}text")
    assert on_chip.get("fill") == "#ffffff"  # light text on a kept chip stays light
    assert title.get("fill") == "#1f2a44"  # light text on the lightened panel: its colour
    assert rules.get("fill") == "#333333" and title.text == "Title"
    assert root.find(f"{SVG}line").get("stroke") == "#000000"


def ink(path: Path) -> float:
    """The ink laid down, summed over every page, as a share of one page fully covered by one
    ink (how much ink, not only where): each pixel of the page rendered at 72 dpi turned into
    CMYK with full black generation (K = min(C, M, Y), taken out of C, M and Y)."""
    total = 0.0
    document = pypdfium2.PdfDocument(path)
    try:
        for page in document:
            image = page.render(scale=1).to_pil().convert("RGB")
            page.close()
            cyan, magenta, yellow = ImageOps.invert(image).split()
            black = ImageChops.darker(ImageChops.darker(cyan, magenta), yellow)
            sums = [ImageStat.Stat(channel).sum[0] for channel in (cyan, magenta, yellow, black)]
            total += (sum(sums[:3]) - 2 * sums[3]) / (255 * image.width * image.height)
    finally:
        document.close()
    return total


def test_the_ink_saver_events_use_at_most_half_the_ink(project, run):
    for extra in ((), ("--ink-saver",)):
        result = run("build", "--sheets", "events", *extra)
        assert result.code == 0, result.err
    folder = project / "output" / "downturn"
    normal, saver = ink(folder / "events-letter.pdf"), ink(folder / "events-letter-ink-saver.pdf")
    assert normal > 0 and saver > 0
    assert saver <= normal / 2, f"ink-saver {saver:.2f} against {normal:.2f}"


def words(path: Path) -> list[str]:
    import pymupdf

    with pymupdf.open(path) as pdf:
        return [" ".join(page.get_text().split()) for page in pdf]


@pytest.mark.parametrize("game, deck", [("downsize", "reference"), ("crunch", "trust")])
def test_the_ink_saver_saves_ink_on_templates_without_marks(tmp_path_factory, game, deck):
    """Kits whose templates mark nothing: at least 40% less ink, every text read back."""
    out = shared_build(tmp_path_factory, ("--game", game, "--sheets", deck, "-j", "1"))
    saved = shared_build(tmp_path_factory, ("--game", game, "--sheets", deck, "--ink-saver",
                                            "-j", "1"))
    normal = out / game / f"{deck}-letter.pdf"
    saver = saved / game / f"{deck}-letter-ink-saver.pdf"
    assert saver.read_bytes().count(b"data-ink") == 0
    assert ink(saver) <= 0.6 * ink(normal), (ink(saver), ink(normal))
    assert words(saver) == words(normal)
