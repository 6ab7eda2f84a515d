"""Pictures in PDFs (pnp.pdf.images): one image object per distinct picture, drawn from a copy
no larger than it prints at, with the memory of a build bounded by what is distinct; art far
finer than it prints is a finding. Every PDF is read back with PyMuPDF."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap

import fitz
import pytest

from artgame import grey_png, noise_png, write_art_game
from conftest import REPO
from pnp.units import pt_to_mm

PDF = "output/gallery/cards-letter.pdf"


def _images(path) -> dict[int, tuple[int, int]]:
    """Every image object the PDF's pages draw: its number and its size in pixels."""
    with fitz.open(path) as pdf:
        return {image[0]: (image[2], image[3]) for page in pdf for image in
                page.get_images(full=True)}


def test_twenty_cards_sharing_one_picture_hold_it_once(tmp_path, monkeypatch, run):
    monkeypatch.chdir(write_art_game(tmp_path, 20))  # about 1 MB of art, on every card
    result = run("build")
    assert result.code == 0, result.err
    assert len(_images(PDF)) == 1
    assert os.path.getsize(PDF) < 2_000_000  # 20 MB when each card held its own copy


def _gradient_png(side_px: int) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.linear_gradient("L").resize((side_px, side_px)).save(out, "PNG")
    return out.getvalue()


def test_a_picture_is_drawn_from_a_copy_reduced_to_600_dpi_where_it_prints(
        tmp_path, monkeypatch, run):
    monkeypatch.chdir(write_art_game(tmp_path, 2, art=_gradient_png(3000)))
    result = run("build")
    assert result.code == 0, result.err
    # 3000 pixels in a 51 mm box is 1494 dpi: a finding, and a copy of 51 mm at 600 dpi.
    assert "content/gallery/cards.csv:2:2: warning: " in result.err
    assert "'art.png' is 3000 x 3000 pixels: 1494 dpi" in result.err
    assert "export it at 1205 x 1205 pixels (rule art-oversized)" in result.err
    (number, (width, height)), = _images(PDF).items()
    assert (width, height) == (1205, 1205)
    with fitz.open(PDF) as pdf:
        rects = pdf[0].get_image_rects(number)
        assert len(rects) == 2  # both cards, in one image
        for rect in rects:  # where the template puts it: 51 mm square
            assert pt_to_mm(rect.width) == pytest.approx(51, abs=0.05)
            assert pt_to_mm(rect.height) == pytest.approx(51, abs=0.05)
        # Drawn, not only referenced: the gradient runs black to white across the box.
        pixmap = pdf[0].get_pixmap(dpi=30, clip=rects[0])
        top, bottom = pixmap.pixel(pixmap.width // 2, 1), pixmap.pixel(pixmap.width // 2,
                                                                        pixmap.height - 2)
        assert top[0] < 40 and bottom[0] > 215


PEAK = textwrap.dedent("""
    import resource, subprocess, sys
    done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
    sys.stderr.write(done.stderr)
    print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
""")


def test_a_6000_pixel_icon_builds_in_bounded_memory_and_is_a_finding(tmp_path):
    """9 cards showing a 6000 x 6000 grey icon twice each: 2.6 GB at its peak when every use
    decoded the icon again (144 MB each), under 500 MB once it is decoded once, reduced."""
    root = write_art_game(tmp_path, 9, art=noise_png(320), icon=grey_png(6000))
    env = {**os.environ, "PYTHONPATH": str(REPO), "PNP_JOBS": "1"}
    done = subprocess.run([sys.executable, "-c", PEAK, sys.executable, "-m", "pnp", "build"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=600)
    code, peak_kb = map(int, done.stdout.split())
    assert code == 0, done.stderr
    assert peak_kb < 500 * 1024
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert ("content/gallery/game.yaml:10:17: warning: icons.grey.image: 'icon.png' is 6000 x "
            "6000 pixels") in done.stderr
    sizes = set(_images(root / PDF).values()) - {(320, 320)}  # besides the art: the icon
    assert len(sizes) == 1 and max(sizes.pop()) < 200  # once, a few mm at 600 dpi
