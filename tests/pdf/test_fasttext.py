"""The fast text path: a line drawn with one call looks like cairosvg's glyph-by-glyph drawing,
stays vector text with an embedded font, and extracts with its spaces."""

from __future__ import annotations

import io

import pdfplumber
import pikepdf
import pypdfium2
import pytest
from PIL import ImageChops

import pnp.pdf.draw
from pnp.units import Rect
from pnp.pdf.draw import render_pdf
from pnp.layout.plans import DocumentInfo, PagePlan
from pnp.units import Size

PAPER = Size(100, 60)
CARD = """<svg xmlns="http://www.w3.org/2000/svg" width="100mm" height="60mm" viewBox="0 0 100 60">
<rect x="0" y="0" width="100" height="60" fill="#ffffff"/>
<g font-family="Roboto Condensed" font-weight="normal" font-size="4" fill="#202020">
<text x="5" y="10">Play this card to move one step ahead,</text>
<text x="5" y="16">then draw a card &amp; pass the turn.</text>
</g>
<text x="50" y="30" text-anchor="middle" font-family="Noto Serif" font-weight="bold"
 font-size="6" fill="#c62828">Centred Title</text>
<text x="95" y="40" text-anchor="end" font-family="Roboto Condensed" font-weight="bold"
 font-size="5" fill="#1565c0" transform="rotate(-4 95 40)">Right edge 42</text>
<text x="5" y="52" font-family="Roboto Condensed" font-size="4" stroke="#000000"
 stroke-width="0.1" fill="none">Outlined stays with cairosvg</text>
</svg>"""


def _pdf() -> bytes:
    plan = PagePlan(PAPER, Rect(0, 0, 100, 60), CARD, ())
    return render_pdf([plan], DocumentInfo("t", "a", "s", duplex="none"))


@pytest.fixture(scope="module")
def both():
    fast = _pdf()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pnp.pdf.draw, "draw_text", lambda surface, node: False)
        slow = _pdf()
    return fast, slow


def _image(data: bytes, dpi: float = 150):
    document = pypdfium2.PdfDocument(data)
    try:
        return document[0].render(scale=dpi / 72).to_pil().convert("L")
    finally:
        document.close()


def test_fast_text_looks_like_cairosvg(both):
    fast, slow = both
    assert fast != slow  # the fast path really drew something differently encoded
    diff = ImageChops.difference(_image(fast), _image(slow))
    histogram = diff.histogram()
    pixels = diff.size[0] * diff.size[1]
    assert sum(value * count for value, count in enumerate(histogram)) / pixels < 0.5
    assert sum(histogram[65:]) / pixels < 0.002
    inked = sum(_image(fast).point(lambda v: 255 if v < 128 else 0).histogram()[255:])
    assert inked > 500  # the text is there at all


def test_text_extracts_with_its_spaces(both):
    fast, _ = both
    with pdfplumber.open(io.BytesIO(fast)) as pdf:
        text = pdf.pages[0].extract_text()  # default tolerance: spaces must be real
    assert "Play this card to move one step ahead," in text
    assert "then draw a card & pass the turn." in text
    assert "Centred Title" in text
    assert "Right edge 42" in text


def test_text_stays_vector_with_embedded_fonts(both):
    fast, _ = both
    with pikepdf.open(io.BytesIO(fast)) as pdf:
        fonts = pdf.pages[0].Resources.Font
        names = sorted(str(fonts[key].BaseFont) for key in fonts.keys())
        embedded = []
        for key in fonts.keys():
            font = fonts[key]
            descriptor = font.get("/FontDescriptor") or font.DescendantFonts[0].FontDescriptor
            embedded.append(any(k in descriptor for k in ("/FontFile", "/FontFile2",
                                                          "/FontFile3")))
    assert any("RobotoCondensed" in n for n in names) and any("NotoSerif" in n for n in names)
    assert all(embedded)
