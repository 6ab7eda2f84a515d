"""Tuck boxes: a box for Downturn's 42 event cards, its inner size read back from the dieline
(the creases of the printed PDF with pdfplumber, and of the DXF cut file with ezdxf)."""

from __future__ import annotations

import shutil

import ezdxf
import pdfplumber
import pytest

from pnp.cli import main
from pnp.units import pt_to_mm
from conftest import REPO, edit

CARD = (63, 88)  # Downturn's event cards, poker size
EVENTS = 42


def build_box(root, settings: str):
    for folder in ("content", "templates"):
        shutil.copytree(REPO / folder, root / folder)
    edit(root / "content" / "downturn" / "game.yaml", "    back: event-back.svg.j2\n",
         f"    back: event-back.svg.j2\n    tuck_box: {settings}\n")
    assert main(["build", "--root", str(root), "--game", "downturn", "--sheets", "events_box",
                 "-j", "1"]) == 0
    return root / "output" / "downturn"


def panels_from_folds(verticals: list[float]) -> tuple[float, float, float]:
    """The back panel's width and both sides' depth from the four upright creases, which
    stand between front | side | back | side | glue flap."""
    x1, x2, x3, x4 = sorted(verticals)
    return x3 - x2, x2 - x1, x4 - x3


@pytest.mark.parametrize("settings, thickness, clearance", [
    ("{}", 0.3, 1), ("{card_thickness_mm: 0.35, clearance_mm: 2}", 0.35, 2)])
def test_the_box_holds_the_deck(tmp_path, settings, thickness, clearance):
    folder = build_box(tmp_path, settings)
    inner_w, inner_h = CARD[0] + clearance, CARD[1] + clearance
    depth = EVENTS * thickness + clearance

    with pdfplumber.open(folder / "events_box-letter.pdf") as pdf:
        page = pdf.pages[0]
        creases = [line for line in page.lines if _grey(line.get("stroking_color"))]
        upright = sorted({round(pt_to_mm(c["x0"]), 3) for c in creases
                          if abs(c["x0"] - c["x1"]) < 0.01})
        heights = {round(pt_to_mm(c["bottom"] - c["top"]), 3) for c in creases
                   if abs(c["x0"] - c["x1"]) < 0.01}
    assert len(upright) == 4 and len(heights) == 1
    width, side, other_side = panels_from_folds(upright)
    assert width == pytest.approx(inner_w, abs=0.05)
    assert side == pytest.approx(depth, abs=0.05) and other_side == pytest.approx(depth, abs=0.05)
    assert heights.pop() == pytest.approx(inner_h, abs=0.05)

    doc = ezdxf.readfile(folder / "events_box-letter-cut.dxf")
    cut = [e for e in doc.modelspace() if e.dxftype() == "POLYLINE"]
    folds = [e for e in doc.modelspace() if e.dxftype() == "LINE" and e.dxf.layer == "FOLD"]
    assert len(cut) == 1 and cut[0].is_closed  # one piece: one closed outline
    xs = sorted({round(f.dxf.start.x, 3) for f in folds if abs(f.dxf.start.x - f.dxf.end.x) <
                 1e-6})
    assert len(xs) == 4
    assert xs[2] - xs[1] == pytest.approx(inner_w, abs=0.05)
    assert xs[1] - xs[0] == pytest.approx(depth, abs=0.05)
    tall = {round(abs(f.dxf.end.y - f.dxf.start.y), 3) for f in folds
            if abs(f.dxf.start.x - f.dxf.end.x) < 1e-6}
    assert len(tall) == 1 and tall.pop() == pytest.approx(inner_h, abs=0.05)
    # the outline encloses every crease
    points = list(cut[0].points_in_wcs())
    left, right = min(p.x for p in points), max(p.x for p in points)
    assert left < xs[0] and xs[-1] < right


def _grey(colour) -> bool:
    return bool(colour) and len(colour) == 3 and all(abs(c - 0x55 / 255) < 0.01 for c in colour)


def test_a_box_too_large_for_the_paper_is_a_finding(tmp_path, capsys):
    for folder in ("content", "templates"):
        shutil.copytree(REPO / folder, tmp_path / folder)
    edit(tmp_path / "content" / "downturn" / "game.yaml", "    back: event-back.svg.j2\n",
         "    back: event-back.svg.j2\n    tuck_box: {card_thickness_mm: 2}\n")
    assert main(["check", "--root", str(tmp_path), "--game", "downturn"]) == 1
    err = capsys.readouterr().err
    assert "game.yaml:" in err and "tuck box for 42 cards" in err and "layout-too-large" in err
