"""Ink-saver: what templates mark as decoration is left out, measured on the pages as PDFium
renders them (a second reader) against the normal build."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pypdfium2
from PIL import ImageChops, ImageOps, ImageStat

from pnp.render.inksaver import save_ink

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


def test_a_face_with_no_marks_is_returned_unchanged():
    plain = FACE.replace(' data-ink="decoration"', "").replace(' data-ink="outline"', "") \
        .replace(' data-ink-fill="#1f2a44"', "")
    assert save_ink(plain) == plain


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
