"""DriveThruCards' ink limit, read back from the PDF/X-1a with readers apart from the one pnp
measures with (Ghostscript): PyMuPDF's CMYK render for total ink, pdfplumber for the colour of
every character, and Ghostscript's inkcov device where it is installed. Making a PDF/X-1a needs
Ghostscript, so without it these tests skip."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pdfplumber
import pymupdf
import pytest

from conftest import REPO

pytestmark = pytest.mark.skipif(shutil.which("gs") is None,
                                reason="Ghostscript (gs) is not installed: apt install ghostscript")
LIMIT = 240  # DriveThruCards: total ink at most 240 %


def ink_peaks(pdf: Path) -> list[float]:
    """The highest C+M+Y+K of each page, in percent, from PyMuPDF's CMYK render."""
    peaks = []
    with pymupdf.open(pdf) as document:
        for page in document:
            data = page.get_pixmap(colorspace=pymupdf.csCMYK, dpi=40, alpha=False).samples
            peaks.append(max(map(sum, zip(data[0::4], data[1::4], data[2::4], data[3::4])))
                         * 100 / 255)
    return peaks


@pytest.fixture(scope="module")
def crunch_aids(tmp_path_factory) -> Path:
    """Crunch's player aids (black fields, black and coloured text) as DriveThruCards' file."""
    from pnp.cli import main

    out = tmp_path_factory.mktemp("dtc")
    assert main(["export", "--to", "shop", "--shop", "drivethrucards", "--root", str(REPO),
                 "--game", "crunch", "--sheets", "aids", "--out", str(out)]) == 0
    return out / "crunch" / "shop-drivethrucards" / "aids.pdf"


def test_every_page_stays_within_the_ink_limit(crunch_aids):
    peaks = ink_peaks(crunch_aids)
    assert len(peaks) == 2 and max(peaks) <= LIMIT, peaks
    assert max(peaks) > 50  # the black fields are read as ink, not as nothing


def test_ghostscript_inkcov_agrees(crunch_aids):
    """Ghostscript's ink_cov (the inkcov family's device that sums ink, not area) gives each
    page's average C, M, Y and K in percent: within the limit, and mostly black ink."""
    done = subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=ink_cov",
                           "-r40", "-o", "-", str(crunch_aids)], capture_output=True, text=True)
    rows = [[float(v) for v in re.findall(r"\d+\.\d+", line)[:4]]
            for line in done.stdout.splitlines() if "CMYK" in line]
    assert len(rows) == 2  # the one distinct aid: its back and its front
    for c, m, y, k in rows:
        assert c + m + y + k <= LIMIT and k > c + m + y


def test_black_text_is_black_ink_alone(crunch_aids):
    colours = set()
    with pdfplumber.open(crunch_aids) as pdf:
        for page in pdf.pages:
            colours |= {tuple(char["non_stroking_color"] or ()) for char in page.chars}
    assert (0,) in colours or (0.0,) in colours  # black text, as grey: K alone
    for colour in colours:
        if len(colour) == 4:  # no character is built from three inks over one another
            assert min(colour[:3]) == 0, colour


def test_an_over_inked_face_is_a_preflight_finding(tmp_path):
    """A page painted C100 M100 Y100 K40 (340 %): the preflight names its page and figure."""
    from reportlab.pdfgen import canvas

    from pnp.export.pdfx import ink_peaks as measured
    from pnp.export.preflight import ink_finding
    from pnp.export.printshop import load_shops
    from pnp.findings import Findings
    from pnp.load.schema import Where

    buffer = io.BytesIO()
    drawn = canvas.Canvas(buffer, pagesize=(198, 270))
    drawn.setFillColorCMYK(0, 0, 0, 1)
    drawn.rect(20, 20, 100, 100, fill=1, stroke=0)
    drawn.showPage()
    drawn.setFillColorCMYK(1, 1, 1, 0.4)
    drawn.rect(0, 0, 198, 270, fill=1, stroke=0)
    drawn.showPage()
    drawn.save()
    pdf = buffer.getvalue()
    path = tmp_path / "over.pdf"
    path.write_bytes(pdf)
    assert ink_peaks(path)[1] == pytest.approx(340, abs=1)  # the second reader agrees
    shop = load_shops()["drivethrucards"]
    findings = Findings()
    faces = [("d-001-back", "", "back", 'card "A"'), ("d-001-front", "", "front", 'card "A"')]
    ink_finding(measured(pdf), faces, Where(), shop.ink_limit, shop, findings)
    (finding,) = findings.errors
    assert finding.rule == "shop-ink-limit" and finding.subject == 'card "A"'
    assert "1 of 2 pages" in finding.message and "340 % on page 2" in finding.message
