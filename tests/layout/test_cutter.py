"""Print-then-cut layouts: the registration marks where Silhouette Card Maker's specification
puts them, and cut files whose paths run round each piece's trim as the PDF prints it.

The trims are read from the PDF with pdfplumber (the ledger card's white background fills its
trim exactly), the SVG cut paths with ElementTree and the DXF with ezdxf; the marks from the
specification's numbers: L corners 10 mm in from both edges, 5 mm arms 1 mm thick running
inward, a 5 mm square centred at the top-left corner point (three-mark pattern), or L marks
at all four corners (four-mark pattern)."""

from __future__ import annotations

import math
import re
import shutil
import xml.etree.ElementTree as ET

import ezdxf
import pdfplumber
import pytest

from pnp.cli import main
from pnp.units import pt_to_mm
from conftest import TESTS, edit

RADIUS_MM = 3
INSET, ARM, THICK, SQUARE = 10, 5, 1, 5


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("cutter") / "ledger"
    shutil.copytree(TESTS / "data" / "games" / "ledger", root)
    edit(root / "content" / "ledger" / "game.yaml", "    size: poker\n",
         f"    size: poker\n    corner_radius_mm: {RADIUS_MM}\n")
    cards = root / "content" / "ledger" / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8") + "".join(
        f"Extra {n},{n % 10},More text.,art.png\n" for n in range(7)), encoding="utf-8")
    for layout in ("silhouette", "silhouette-four"):
        assert main(["build", "--root", str(root), "--sheets", "cards", "--layout", layout,
                     "-j", "1"]) == 0
    return root / "output" / "ledger"


def trims(page) -> list[tuple[float, float, float, float]]:
    """The cards' trims on a page (mm, x0 top x1 bottom): their 63 x 88 mm white fills."""
    found = []
    for r in page.rects:
        x0, top, x1, bottom = (pt_to_mm(r[k]) for k in ("x0", "top", "x1", "bottom"))
        if r.get("fill") and abs(x1 - x0 - 63) < 0.05 and abs(bottom - top - 88) < 0.05:
            found.append((x0, top, x1, bottom))
    return sorted(found)


def svg_paths(path) -> list[dict]:
    """Each cut path of an SVG cut file: its points' bounds and its arcs' radii."""
    tree = ET.parse(path)
    paths = []
    for element in tree.iter("{http://www.w3.org/2000/svg}path"):
        tokens = re.findall(r"[MLAZ]|-?\d+(?:\.\d+)?", element.get("d"))
        assert tokens[0] == "M" and tokens[-1] == "Z"  # one closed path
        points, radii, i = [], [], 0
        while i < len(tokens):
            command = tokens[i]
            if command in "ML":
                points.append((float(tokens[i + 1]), float(tokens[i + 2])))
                i += 3
            elif command == "A":
                radii.append(float(tokens[i + 1]))
                points.append((float(tokens[i + 6]), float(tokens[i + 7])))
                i += 8
            else:
                i += 1
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        paths.append({"box": (min(xs), min(ys), max(xs), max(ys)), "radii": radii,
                      "closed": points[0] == points[-1]})
    return sorted(paths, key=lambda p: p["box"])


@pytest.mark.parametrize("layout", ["silhouette", "silhouette-four"])
def test_cut_paths_run_round_the_printed_trims(built, layout):
    stem = f"cards-letter-{layout}"
    with pdfplumber.open(built / f"{stem}.pdf") as pdf:
        fronts = [trims(page) for page in pdf.pages[0::2]]
    assert [len(t) for t in fronts] == [8, 2]  # 10 cards, 4 x 2 on a landscape Letter sheet
    for number, printed in enumerate(fronts, start=1):
        cut = svg_paths(built / f"{stem}-cut-{number:02d}.svg")
        assert len(cut) == len(printed)
        for path, trim in zip(cut, printed):
            assert path["closed"]
            assert path["box"] == pytest.approx(trim, abs=0.1)
            assert path["radii"] == pytest.approx([RADIUS_MM] * 4)


def test_the_dxf_cut_file_matches_the_svg(built):
    stem = "cards-letter-silhouette"
    with pdfplumber.open(built / f"{stem}.pdf") as pdf:
        height_mm = pt_to_mm(pdf.pages[0].height)
        printed = trims(pdf.pages[0])
    doc = ezdxf.readfile(built / f"{stem}-cut-01.dxf")
    polylines = [e for e in doc.modelspace() if e.dxftype() == "POLYLINE"]
    assert len(polylines) == len(printed)
    boxes = []
    for line in polylines:
        assert line.is_closed
        points = list(line.points_in_wcs())
        xs, ys = [p.x for p in points], [height_mm - p.y for p in points]  # DXF's y runs up
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
        # four quarter circles, each bulging outward, clockwise as the sheet is seen
        bulges = [v.dxf.bulge for v in line.vertices if v.dxf.bulge]
        assert bulges == pytest.approx([-math.tan(math.pi / 8)] * 4)
        assert len(points) == 8
    for box, trim in zip(sorted(boxes), printed):
        assert box == pytest.approx(trim, abs=0.1)


def black_fills(page) -> list[tuple[float, float, float, float]]:
    return sorted(tuple(round(pt_to_mm(r[k]), 2) for k in ("x0", "top", "x1", "bottom"))
                  for r in page.rects if r.get("fill") and r.get("non_stroking_color") in
                  ((0,), (0, 0, 0), [0], [0, 0, 0]))


def l_mark(x, y, dx, dy):
    """An L's two arms as boxes, its corner at (x, y), its arms running dx, dy (+1 or -1)."""
    h0, h1 = sorted((x - dx * THICK / 2, x + dx * ARM))
    v0, v1 = sorted((y - dy * THICK / 2, y + dy * ARM))
    return [(h0, y - THICK / 2, h1, y + THICK / 2), (x - THICK / 2, v0, x + THICK / 2, v1)]


@pytest.mark.parametrize("layout, pattern", [("silhouette", "three"),
                                             ("silhouette-four", "four")])
def test_registration_marks_stand_where_the_specification_puts_them(built, layout, pattern):
    with pdfplumber.open(built / f"cards-letter-{layout}.pdf") as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        w, h = pt_to_mm(front.width), pt_to_mm(front.height)
        assert w > h  # Letter on its side holds the most cards
        found = black_fills(front)
        assert black_fills(back) == []  # the machine reads the marks on the side it cuts
    expected = l_mark(w - INSET, INSET, -1, 1) + l_mark(INSET, h - INSET, 1, -1)
    if pattern == "three":
        expected.append((INSET - SQUARE / 2, INSET - SQUARE / 2, INSET + SQUARE / 2,
                         INSET + SQUARE / 2))
    else:
        expected += l_mark(INSET, INSET, 1, 1) + l_mark(w - INSET, h - INSET, -1, -1)
    assert len(found) == len(expected)
    for box in sorted(expected):
        assert any(all(abs(a - b) < 0.05 for a, b in zip(box, f)) for f in found), box


PIECES = [(12.7, 12.7), (25.4, 25.4), (44, 63), (63, 88), (88, 63), (70, 120)]


@pytest.mark.parametrize("layout", ["silhouette", "silhouette-four", "cricut"])
@pytest.mark.parametrize("paper", ["letter", "a4", "tabloid"])
def test_pieces_keep_clear_of_the_marks_and_inside_the_cutting_area(layout, paper):
    from pnp.layout.impose import impose
    from pnp.layout.layouts import builtin_layouts
    from pnp.units import Rect, Size

    spec = builtin_layouts()[layout]
    for w, h in PIECES:
        page = impose(30, Size(w, h), paper, spec, bleed_mm=3)[0]
        pw, ph = page.paper
        if layout == "cricut":  # Design Space's Print Then Cut area: 6.75 x 9.25 in, centred
            aw, ah = (6.75 * 25.4, 9.25 * 25.4) if pw < ph else (9.25 * 25.4, 6.75 * 25.4)
            area = Rect((pw - aw) / 2, (ph - ah) / 2, aw, ah)
            assert all(s.rect.grown(s.bleed_mm).inside(area) for s in page.slots)
        else:
            assert page.registration
        for slot in page.slots:
            assert slot.bleed_mm <= 0.625 + 1e-9  # half SCM's 1.25 mm card distance
            for mark in page.registration:
                assert not slot.rect.grown(slot.bleed_mm).overlaps(mark.grown(1)), (w, h)
        # centred on the page, as the specification asks for double-sided alignment
        left = min(s.rect.x_mm for s in page.slots)
        right = max(s.rect.right_mm for s in page.slots)
        assert left == pytest.approx(pw - right)
