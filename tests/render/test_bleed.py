"""Generated bleed: art that stops at the trim, with `bleed: extend`, prints its edge pixels on
across the bleed band; with `bleed: mirror`, the band beside the trim mirrored. Read back from
the print-shop PDF (a page per face, the piece and its bleed) by PyMuPDF's renderer, and the
`print-bleed` warning fires only for the deck whose template leaves the band white."""

from __future__ import annotations

import json

import numpy as np
import pymupdf
import pytest
from PIL import Image

from tinygame import manifest_head

WIDTH_MM, HEIGHT_MM, BLEED_MM = 40.0, 56.0, 3.0
ART_PX = (240, 336)  # 152 dpi at 40 x 56 mm
DECK = """\
  {name}:
    title: {name} cards
    size: 40 x 56 mm
    front: front.svg.j2
    back: none
    bleed_mm: 3
    bleed: {mode}
    file: cards.yaml
    label: '{name} card "{{{{ title }}}}"'
    fields:
      title: text
      art: image
"""
GAME = manifest_head("Bleed") + """\
stamps: false
decks:
""" + "".join(DECK.format(name=mode, mode=mode) for mode in ("drawn", "extend", "mirror"))
FRONT = """\
<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="56mm" viewBox="0 0 40 56">
<rect x="0" y="0" width="40" height="56" fill="#204060"/>
{{ image(card, 'art', (0, 0, 40, 56)) }}
</svg>
"""


def art() -> np.ndarray:
    """Red grows to the right, green downwards: every edge pixel differs from its neighbours."""
    width, height = ART_PX
    x, y = np.meshgrid(np.arange(width), np.arange(height))
    return np.stack([x * 255 // (width - 1), y * 255 // (height - 1),
                     np.full_like(x, 128)], axis=-1).astype(np.uint8)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    root = tmp_path_factory.mktemp("bleed")
    content, templates = root / "content" / "bleed", root / "templates" / "bleed"
    content.mkdir(parents=True)
    templates.mkdir(parents=True)
    (content / "game.yaml").write_text(GAME, encoding="utf-8")
    (content / "cards.yaml").write_text("- {title: One, art: art.png}\n", encoding="utf-8")
    Image.fromarray(art(), "RGB").save(content / "art.png")
    (templates / "front.svg.j2").write_text(FRONT, encoding="utf-8")
    return root


def page_pixels(path, dpi: float = 254) -> tuple[np.ndarray, float]:
    """The first page rendered by MuPDF, and its pixels per mm."""
    with pymupdf.open(path) as document:
        page = document[0]
        pixmap = page.get_pixmap(dpi=dpi)
        pixels = np.frombuffer(pixmap.samples, dtype=np.uint8).reshape(
            pixmap.height, pixmap.width, pixmap.n)[..., :3]
        assert page.rect.width == pytest.approx((WIDTH_MM + 2 * BLEED_MM) * 72 / 25.4, abs=0.1)
    return pixels, dpi / 25.4


def test_extend_and_mirror_paint_the_band_from_the_edge_and_print_bleed_passes(game, run):
    result = run("check", "--root", str(game), "--format", "json", "--no-cache")
    bleeds = {f["subject"] for f in json.loads(result.out)["findings"]
              if f["rule"] == "print-bleed"}
    assert any("drawn" in s for s in bleeds), result.out  # the template's band is white
    assert not any("extend" in s or "mirror" in s for s in bleeds), bleeds

    out = game / "out"
    assert run("build", "--root", str(game), "--sheets", "extend,mirror", "--layout",
               "print-shop", "--out", str(out)).code == 0
    source = art().astype(int)
    width, height = ART_PX
    # Along each edge, 0.6 to 2.4 mm out into the band: the art's pixel there.
    extend, per_mm = page_pixels(out / "bleed" / "extend-print-shop.pdf")
    mirror, _ = page_pixels(out / "bleed" / "mirror-print-shop.pdf")
    checked = 0
    for along in np.linspace(0.1, 0.9, 9):
        for out_mm in (0.6, 1.5, 2.4):
            y_mm, x_mm = along * HEIGHT_MM, along * WIDTH_MM
            art_y, art_x = int(along * (height - 1)), int(along * (width - 1))
            deep_x = int(out_mm / WIDTH_MM * width)  # the art pixel the mirror shows there
            deep_y = int(out_mm / HEIGHT_MM * height)
            for spot, edge, mirrored in (
                    ((BLEED_MM - out_mm, BLEED_MM + y_mm), source[art_y, 0],
                     source[art_y, deep_x]),
                    ((BLEED_MM + WIDTH_MM + out_mm, BLEED_MM + y_mm), source[art_y, -1],
                     source[art_y, width - 1 - deep_x]),
                    ((BLEED_MM + x_mm, BLEED_MM - out_mm), source[0, art_x],
                     source[deep_y, art_x]),
                    ((BLEED_MM + x_mm, BLEED_MM + HEIGHT_MM + out_mm), source[-1, art_x],
                     source[height - 1 - deep_y, art_x])):
                px, py = round(spot[0] * per_mm), round(spot[1] * per_mm)
                assert np.abs(extend[py, px].astype(int) - edge).max() <= 8, \
                    (spot, extend[py, px], edge)
                assert np.abs(mirror[py, px].astype(int) - mirrored).max() <= 8, \
                    (spot, mirror[py, px], mirrored)
                checked += 1
    assert checked == 9 * 3 * 4
    # The corners: the art's corner pixel, extended both ways.
    corner = extend[round(1.0 * per_mm), round(1.0 * per_mm)].astype(int)
    assert np.abs(corner - source[0, 0]).max() <= 8, corner
