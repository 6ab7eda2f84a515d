"""Second readers for the PDFs pnp writes: MuPDF (PyMuPDF) and PDFium (pypdfium2), both
independent of pikepdf and qpdf.

pnp writes its page boxes and viewer preferences with pikepdf; reading them back with the same
library would only prove that pikepdf agrees with itself, so these helpers ask MuPDF for the
viewer preferences as the file spells them and PDFium, the engine of Chrome's PDF viewer, for
the page boxes. Both come from PyPI (the `test` extra), so the suite needs no PDF tool on PATH.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pypdfium2

from pnp.units import pt_to_mm


def viewer_preferences(path: Path) -> dict[str, str]:
    """The document's /ViewerPreferences as MuPDF reads them: key -> value as written in the
    file, both with their slash ({'/PrintScaling': '/None', ...})."""
    with pymupdf.open(path) as document:
        catalog = document.pdf_catalog()
        kind, value = document.xref_get_key(catalog, "ViewerPreferences")
        assert kind in ("dict", "xref"), f"no /ViewerPreferences in {path}: {kind} {value}"
        if kind == "xref":
            holder = int(value.split()[0])
            keys = document.xref_get_keys(holder)
            return {f"/{key}": document.xref_get_key(holder, key)[1] for key in keys}
        return {f"/{key}": document.xref_get_key(catalog, f"ViewerPreferences/{key}")[1]
                for key in _direct_keys(value)}


def _direct_keys(text: str) -> list[str]:
    """The top-level keys of a dictionary MuPDF prints inline (`<</A/B/C 3>>`): names that
    follow `<<` or a value; a flat dictionary of names and numbers is all pnp writes."""
    tokens = text.strip().removeprefix("<<").removesuffix(">>").replace("/", " /").split()
    return [token[1:] for index, token in enumerate(tokens) if index % 2 == 0]


def page_boxes(path: Path) -> list[dict[str, tuple[float, float, float, float]]]:
    """For each page, its boxes as given in the file (mm, PDF's bottom-up y), by name without
    the slash, as PDFium reads them: MediaBox, TrimBox, BleedBox, CropBox. A box the page does
    not set is absent."""
    pages = []
    document = pypdfium2.PdfDocument(path)
    try:
        for page in document:
            boxes = {}
            for name, getter in (("MediaBox", page.get_mediabox), ("TrimBox", page.get_trimbox),
                                 ("BleedBox", page.get_bleedbox), ("CropBox", page.get_cropbox)):
                box = getter(fallback_ok=False)
                if box is not None:
                    boxes[name] = tuple(pt_to_mm(float(v)) for v in box)
            pages.append(boxes)
            page.close()
    finally:
        document.close()
    return pages


def top_down(box: tuple[float, float, float, float], page_height_mm: float
             ) -> tuple[float, float, float, float]:
    """A PDF box (x0, y0, x1, y1 from the bottom-left) as left, top, right, bottom from the
    top-left, as pnp's layouts are written."""
    x0, y0, x1, y1 = box
    return x0, page_height_mm - y1, x1, page_height_mm - y0


def page_texts(path: Path) -> list[str]:
    """Each page's text as PDFium extracts it (rotated lines included), one string a page: a
    reader other than pdfplumber's pdfminer, and fast."""
    texts = []
    document = pypdfium2.PdfDocument(path)
    try:
        for page in document:
            text_page = page.get_textpage()
            texts.append(text_page.get_text_bounded())
            text_page.close()
            page.close()
    finally:
        document.close()
    return texts
