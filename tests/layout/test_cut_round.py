"""Cut files of round pieces, and of a deck that shrank.

A `shape: round` deck (Debtors' 20 mm tokens, their cut guide moved onto the trim circle) is
cut along circles: the SVG's `<circle>`s (ElementTree) and the DXF's CIRCLEs (ezdxf) have the
centres and radii of the circles the PDF prints (PyMuPDF's paths). A build names the cut files
it wrote, and one of a smaller deck removes the cut files of the sheets it no longer has."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET

import ezdxf
import pymupdf
import pytest

from pnp.units import pt_to_mm
from conftest import TESTS, edit

STEM = "tokens-letter-silhouette"


@pytest.fixture(scope="module")
def tokens(tmp_path_factory):
    """Debtors with 120 round tokens (two Silhouette sheets), built; then the output of a
    second build with 12 tokens, and the folder."""
    from pnp.cli import main

    root = tmp_path_factory.mktemp("round") / "debtors"
    shutil.copytree(TESTS / "data" / "games" / "debtors", root)
    template = root / "templates" / "debtors" / "token-front.svg.j2"
    edit(template, 'r="9.8" fill="none"', 'r="10" fill="none"')  # the guide on the trim
    game = root / "content" / "debtors" / "game.yaml"
    edit(game, 'number: "range(1, 11)"', 'number: "range(1, 41)"')
    assert main(["build", "--root", str(root), "--sheets", "tokens", "--layout",
                 "silhouette", "-j", "1"]) == 0
    folder = root / "output" / "debtors"
    first = sorted(p.name for p in folder.glob(f"{STEM}-cut-*"))
    printed = {}
    with pymupdf.open(folder / f"{STEM}.pdf") as pdf:
        for number, page in enumerate(pdf.pages(0, None, 1), start=1):
            printed[number] = guides(page)
    return root, folder, first, printed


def guides(page) -> list[tuple[float, float, float]]:
    """The printed tokens' cut guides (grey stroked circles): centre and radius in mm."""
    found = []
    for path in page.get_drawings():
        if path.get("color") and path.get("fill") is None and \
                any(item[0] == "c" for item in path["items"]):
            r = path["rect"]
            w, h = pt_to_mm(r.width), pt_to_mm(r.height)
            if abs(w - h) < 0.05 and 19 < w < 21:
                found.append((round(pt_to_mm(r.x0) + w / 2, 3), round(pt_to_mm(r.y0) + h / 2, 3),
                              w / 2))
    return sorted(found)


def test_round_pieces_are_cut_along_the_printed_circles(tokens):
    _, folder, first, printed = tokens
    assert first == [f"{STEM}-cut-01.dxf", f"{STEM}-cut-01.svg", f"{STEM}-cut-02.dxf",
                     f"{STEM}-cut-02.svg"]
    assert sum(len(p) for p in printed.values()) == 120
    for number, circles in printed.items():
        svg = ET.parse(folder / f"{STEM}-cut-{number:02d}.svg")
        ns = "{http://www.w3.org/2000/svg}"
        assert not list(svg.iter(f"{ns}path"))  # no square outlines left
        cut = sorted((float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
                     for c in svg.iter(f"{ns}circle"))
        doc = ezdxf.readfile(folder / f"{STEM}-cut-{number:02d}.dxf")
        height = doc.header["$EXTMAX"][1]
        dxf = sorted((e.dxf.center.x, height - e.dxf.center.y, e.dxf.radius)
                     for e in doc.modelspace() if e.dxftype() == "CIRCLE")
        assert not [e for e in doc.modelspace() if e.dxftype() == "POLYLINE"]
        assert len(cut) == len(dxf) == len(circles) > 0
        for mine, svg_circle, dxf_circle in zip(circles, cut, dxf):
            assert svg_circle == pytest.approx(mine, abs=0.1)
            assert dxf_circle == pytest.approx(mine, abs=0.1)


def test_a_smaller_build_removes_the_cut_files_it_no_longer_makes(tokens, capsys):
    from pnp.cli import main

    root, folder, _, _ = tokens
    capsys.readouterr()
    edit(root / "content" / "debtors" / "game.yaml", 'number: "range(1, 41)"',
         'number: "range(1, 5)"')
    assert main(["build", "--root", str(root), "--sheets", "tokens", "--layout",
                 "silhouette", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert sorted(p.name for p in folder.glob(f"{STEM}-cut-*")) == [
        f"{STEM}-cut-01.dxf", f"{STEM}-cut-01.svg"]
    assert f"{STEM}-cut-01.svg" in out and f"{STEM}-cut-01.dxf" in out  # named as written
    assert "cut-02" not in out
