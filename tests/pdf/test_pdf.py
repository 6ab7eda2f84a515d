"""PDF: the produced documents read back, not trusted: sizes, marks, boxes, fonts, text, duplex."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pdfplumber
import pikepdf
import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest

from conftest import REPO, crop_marks
from pdfread import viewer_preferences
from pnp.cli import main
from pnp.units import PAPERS, pt_to_mm


@pytest.fixture(scope="module")
def built(built_kit) -> dict[str, Path]:
    return {p.stem: p for p in built_kit("downturn").glob("*.pdf")}


@pytest.mark.parametrize("name", ["events-letter", "events-a4", "banks-letter", "banks-a4"])
def test_every_page_has_the_paper_size_and_crop_marks_of_a_3x3_poker_grid(built, name):
    paper = PAPERS[name.split("-")[1]]
    with pdfplumber.open(built[name]) as pdf:
        assert len(pdf.pages) % 2 == 0
        for number, page in enumerate(pdf.pages):
            assert pt_to_mm(page.width) == pytest.approx(paper.width_mm, abs=0.01)
            assert pt_to_mm(page.height) == pytest.approx(paper.height_mm, abs=0.01)
            xs, ys, marks = crop_marks(page)
            last_sheet = number >= len(pdf.pages) - 2
            # A part-filled last sheet is marked only beside the rows it has.
            if last_sheet:
                assert 2 <= len(xs) <= 4 and 2 <= len(ys) <= 4
            else:
                assert len(xs) == 4 and len(ys) == 4
            for a, b in zip(xs, xs[1:]):
                assert b - a == pytest.approx(63.0, abs=0.1)
            for a, b in zip(ys, ys[1:]):
                assert b - a == pytest.approx(88.0, abs=0.1)
            # Every mark lies outside the card grid.
            for mark in marks:
                x0, x1 = pt_to_mm(mark["x0"]), pt_to_mm(mark["x1"])
                top, bottom = pt_to_mm(mark["top"]), pt_to_mm(mark["bottom"])
                outside = (x1 <= xs[0] + 1e-3 or x0 >= xs[-1] - 1e-3
                           or bottom <= ys[0] + 1e-3 or top >= ys[-1] - 1e-3)
                assert outside, f"crop mark over a card on {name}"


@pytest.mark.parametrize("name", ["events-letter", "banks-a4"])
def test_every_page_has_a_trimbox_around_the_card_grid(built, name):
    with pikepdf.open(built[name]) as pdf, pdfplumber.open(built[name]) as plumb:
        for page, plumbed in zip(pdf.pages, plumb.pages):
            assert "/TrimBox" in page.obj and "/BleedBox" in page.obj
            x0, y0, x1, y1 = (float(v) for v in page.obj.TrimBox)
            xs, ys, _ = crop_marks(plumbed)
            height = float(page.obj.MediaBox[3])
            assert pt_to_mm(x0) == pytest.approx(xs[0], abs=0.05)
            assert pt_to_mm(x1) == pytest.approx(xs[-1], abs=0.05)
            assert pt_to_mm(height - y1) == pytest.approx(ys[0], abs=0.05)
            assert pt_to_mm(height - y0) == pytest.approx(ys[-1], abs=0.05)


@pytest.mark.parametrize("name", ["events-letter", "banks-a4"])
def test_viewer_is_told_not_to_scale_and_to_flip_on_the_long_edge(built, name):
    """Read back by MuPDF, not by the library that wrote it: the name must be /None exactly
    (pikepdf's Python spelling Name.None_ once wrote /None_, which no viewer honours)."""
    prefs = viewer_preferences(built[name])
    assert prefs["/PrintScaling"] == "/None"
    assert prefs["/Duplex"] == "/DuplexFlipLongEdge"
    with pikepdf.open(built[name]) as pdf:
        assert pdf.pdf_version >= "1.6"


def test_pdfium_will_not_scale_and_flips_on_the_long_edge(built):
    """PDFium, the engine of Chrome's PDF viewer, as a viewer asks it: print scaling off (it
    honours /None only, never /None_) and duplex flipped on the long edge."""
    document = pypdfium2.PdfDocument(built["events-letter"])
    try:
        assert pdfium_c.FPDF_VIEWERREF_GetPrintScaling(document.raw) == 0
        assert pdfium_c.FPDF_VIEWERREF_GetDuplex(document.raw) == pdfium_c.DuplexFlipLongEdge
    finally:
        document.close()


def _fonts(pdf: pikepdf.Pdf):
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == pikepdf.Name.Font:
            yield obj


@pytest.mark.parametrize("name", ["events-letter", "banks-a4"])
def test_all_fonts_are_embedded(built, name):
    with pikepdf.open(built[name]) as pdf:
        fonts = list(_fonts(pdf))
        assert fonts, "no fonts found: is the text vector?"
        for font in fonts:
            assert font.Subtype != pikepdf.Name.Type3
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font.DescendantFonts[0].FontDescriptor
            assert descriptor is not None, f"{font.get('/BaseFont')} has no descriptor"
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), \
                f"{font.get('/BaseFont')} is not embedded"


def card_texts(path: Path) -> list[str]:
    """The text of every card cell, found from the crop marks, one string per card."""
    texts = []
    with pdfplumber.open(path) as pdf:
        assert not any(page.images for page in pdf.pages), "cards must not be raster images"
        for page in pdf.pages[::2]:
            xs, ys, _ = crop_marks(page)
            for top, bottom in zip(ys, ys[1:]):
                for left, right in zip(xs, xs[1:]):
                    cell = page.crop(tuple(v * 72 / 25.4 for v in (left, top, right, bottom)))
                    # cairo draws no space glyphs; a tolerance below the smallest space finds words.
                    text = " ".join(cell.extract_text(x_tolerance=1).split())
                    if text:
                        texts.append(text)
    return texts


def test_card_text_is_extractable_vector_text(built):
    events = card_texts(built["events-letter"])
    assert len(events) == 42
    joined = "\n".join(events)
    for phrase in ("Overnight Bail Out", "Credit Swap", "Brokerage Bailed Out Over Weekend",
                   "discards up to 2 R"):
        assert phrase in joined
    assert all("Downturn © 2009 Jack Neal · CC BY-NC 3.0 US" in card for card in events)
    banks = card_texts(built["banks-a4"])
    assert len(banks) == 10
    # A wrapped name is read line by line, interleaved with what stands beside it.
    assert any("Sunshine Savings" in card and "& Loan" in card for card in banks)
    with pdfplumber.open(built["events-letter"]) as pdf:
        # Rotated margin text: pdfplumber reads each word of it as a line of its own.
        margin = "".join(pdf.pages[0].extract_text().split())
    assert "Printat100%(Actualsize)" in margin


def test_document_metadata_carries_the_licence(built):
    with pikepdf.open(built["banks-letter"]) as pdf:
        assert "Jack Neal" in str(pdf.docinfo.Subject)
        assert "CC BY-NC 3.0 US" in str(pdf.docinfo.Subject)


# A test face: the card number near the top and a small square exactly at the card centre.
MARKED_FACE = """<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">
<text x="31.5" y="20" text-anchor="middle" font-family="Roboto Condensed" font-size="4">#{{ card.number }}</text>
<rect x="30" y="43" width="3" height="2" fill="#000000"/>
</svg>
"""


def card_centres(page) -> dict[str, tuple[float, float]]:
    """Card number -> centre (mm) of the marked square nearest below that number."""
    squares = [((r["x0"] + r["x1"]) / 2, (r["top"] + r["bottom"]) / 2) for r in page.rects
               if abs(pt_to_mm(r["width"]) - 3) < 0.01 and abs(pt_to_mm(r["height"]) - 2) < 0.01]
    centres = {}
    for word in page.extract_words():
        if re.fullmatch(r"#\d+", word["text"]):
            x, y = (word["x0"] + word["x1"]) / 2, word["bottom"]
            nearest = min(squares, key=lambda s: (s[0] - x) ** 2 + (s[1] - y) ** 2)
            centres[word["text"]] = (pt_to_mm(nearest[0]), pt_to_mm(nearest[1]))
    return centres


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_each_back_lands_behind_its_own_front_when_flipped_on_the_long_edge(
        project, run, paper):
    """After turning the backs page over its vertical axis, every card's back must sit exactly
    behind its own front."""
    templates = project / "templates" / "downturn"
    (templates / "event-front.svg.j2").write_text(MARKED_FACE)
    (templates / "event-back.svg.j2").write_text(MARKED_FACE)
    assert run("build", "--sheets", "events", "--paper", paper).code == 0
    data = (project / "output" / "downturn" / f"events-{paper}.pdf").read_bytes()
    width = PAPERS[paper].width_mm
    seen = 0
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        assert len(pdf.pages) == 10
        for front_page, back_page in zip(pdf.pages[::2], pdf.pages[1::2]):
            fronts, backs = card_centres(front_page), card_centres(back_page)
            assert fronts and fronts.keys() == backs.keys()
            for number, (x, y) in fronts.items():
                back_x, back_y = backs[number]
                assert abs(x - (width - back_x)) < 0.1, f"card {number} back is off sideways"
                assert abs(y - back_y) < 0.1, f"card {number} back is off vertically"
                seen += 1
    assert seen == 42


def _resources_used(content_owner) -> set[tuple[str, str]]:
    used = set()
    for operands, operator in pikepdf.parse_content_stream(content_owner):
        op = str(operator)
        if op == "Tf":
            used.add(("/Font", str(operands[0])))
        elif op == "Do":
            used.add(("/XObject", str(operands[0])))
        elif op == "gs":
            used.add(("/ExtGState", str(operands[0])))
    return used


@pytest.mark.parametrize("name", ["events-letter", "banks-a4"])
def test_every_resource_a_page_uses_is_defined(built, name):
    """Shared backs are painted from one recorded drawing; each page must still carry every
    font, image and graphics state its content names (a viewer shows blanks otherwise)."""
    with pikepdf.open(built[name]) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            resources = page.obj.get("/Resources", pikepdf.Dictionary())
            for kind, key in _resources_used(page):
                assert key in resources.get(kind, {}), f"page {number} lacks {kind} {key}"
                if kind == "/XObject":
                    form = resources[kind][key]
                    inner = form.get("/Resources", pikepdf.Dictionary())
                    for inner_kind, inner_key in _resources_used(form):
                        assert inner_key in inner.get(inner_kind, {}), \
                            f"page {number} form {key} lacks {inner_kind} {inner_key}"


def test_repeated_xobject_entries_are_blanked_without_moving_any_byte():
    from pnp.pdf.draw import _drop_repeated_xobjects

    raw = b"10 0 obj\n<< /XObject << /x13 13 0 R /x13 13 0 R /x7 7 0 R /x13 13 0 R >> >>"
    cleaned = _drop_repeated_xobjects(raw)
    assert len(cleaned) == len(raw)
    assert cleaned.count(b"/x13 13 0 R") == 1 and cleaned.count(b"/x7 7 0 R") == 1


@pytest.mark.parametrize("x_mm", [7, 10, 10.5, 13.45])
def test_a_shared_face_with_strokes_at_its_edge_stays_vector(x_mm):
    """cairo 1.16 turns a painted recording into a page-sized image at some positions when
    several strokes touch the face's edge (a pinstriped back); pnp must draw it as vectors."""
    from pnp.units import Rect
    from pnp.pdf.draw import render_pdf
    from pnp.layout.plans import DocumentInfo, PagePlan, Placement
    from pnp.units import Size

    stripes = "".join(f'<line x1="{0.8 + i * 1.6:.1f}" y1="0" x2="{0.8 + i * 1.6:.1f}" y2="88" '
                      'stroke="#c9a227" stroke-width="0.18"/>' for i in range(5))
    back = ('<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" '
            f'viewBox="0 0 63 88"><rect width="63" height="88" fill="#333"/>{stripes}</svg>')
    paper = Size(215.9, 279.4)
    blank = ('<svg xmlns="http://www.w3.org/2000/svg" width="215.9mm" height="279.4mm" '
             'viewBox="0 0 215.9 279.4"/>')
    plan = PagePlan(paper, Rect(x_mm, 10, 126, 88), blank,
                    tuple(Placement(x_mm + 63 * i, 10, back) for i in range(2)))
    data = render_pdf([plan], DocumentInfo("t", "a", "s"))
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        assert page.images == []
        stripes_drawn = [line for line in page.lines + page.curves + page.rects
                         if abs(pt_to_mm(line["bottom"] - line["top"]) - 88) < 0.2
                         and pt_to_mm(line["x1"] - line["x0"]) < 0.5]
        assert len(stripes_drawn) >= 10, len(stripes_drawn)
