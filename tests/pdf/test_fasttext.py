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
from pnp.layout.plans import DocumentInfo, PagePlan, Placement
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


SPACED = """<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="30mm" viewBox="0 0 60 30">
<text x="4" y="8" font-family="Roboto Condensed" font-weight="bold" font-size="4"
 fill="#202020" letter-spacing="1.2">BANK NOTE</text>
<text x="30" y="16" text-anchor="middle" font-family="Noto Serif" font-size="3.4"
 fill="#c62828" letter-spacing="0.6">MARKET MOVES</text>
<text x="56" y="24" text-anchor="end" font-family="Roboto Condensed" font-size="3"
 fill="#1565c0" letter-spacing="0.3">Right 7</text>
</svg>"""


def _glyphs(data: bytes, page: int = 0) -> list[tuple[str, float, float]]:
    """Each glyph drawn on a page, as pdfplumber reads it: the letter and its left and top."""
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [(c["text"], round(c["x0"], 2), round(c["top"], 2))
                for c in pdf.pages[page].chars]


def _spaced_pdf(*placed: tuple[float, float]) -> bytes:
    page = ('<svg xmlns="http://www.w3.org/2000/svg" width="130mm" height="40mm" '
            'viewBox="0 0 130 40"></svg>')
    plan = PagePlan(Size(130, 40), Rect(0, 0, 130, 40), page, tuple(
        Placement(x, y, SPACED) for x, y in placed))
    return render_pdf([plan], DocumentInfo("t", "a", "s", duplex="none"))


def test_letter_spaced_text_is_placed_glyph_by_glyph_as_cairosvg_places_it():
    fast = _spaced_pdf((5, 5))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pnp.pdf.draw, "draw_text", lambda surface, node: False)
        slow = _spaced_pdf((5, 5))
    assert fast == slow  # drawn straight onto the page: the same bytes as cairosvg's
    glyphs = _glyphs(fast)
    assert "".join(letter for letter, _, _ in glyphs) == "BANKNOTEMARKETMOVESRight7"


def test_letter_spaced_text_is_spaced_alike_on_a_shared_face():
    """A face placed twice is drawn once, as a recording; its headings keep the exact
    advances and spacing, as on a face drawn once (cairosvg's own text code rounded them to
    whole points in a recording: up to 0.3 pt a glyph)."""
    once = _glyphs(_spaced_pdf((5, 5)))
    twice = _glyphs(_spaced_pdf((5, 5), (67, 5)))
    first = [(letter, x, top) for letter, x, top in twice if x < 5 * 72 / 25.4 + 60 * 72 / 25.4]
    assert len(first) == len(once)
    assert all(a[0] == b[0] and abs(a[1] - b[1]) < 0.02 and abs(a[2] - b[2]) < 0.02
               for a, b in zip(first, once)), list(zip(first, once))
