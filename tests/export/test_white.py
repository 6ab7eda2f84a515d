"""One rule for white, read back from what pnp prints: white and unpainted both print as the
paper, so a face white at its edge needs no bleed, and one coloured at its edge does; `pnp
check`'s print-bleed and a shop's preflight agree, and `pnp new`'s game passes every shop."""

from __future__ import annotations

import shutil

import pytest
from PIL import Image

from conftest import edit
from pnp.export.printshop import load_shops

FRONT = "templates/fresh/card-front.svg.j2"
BACKGROUND = '<rect x="-5" y="-5" width="73" height="98" fill="#ffffff"/>'


@pytest.fixture
def fresh(tmp_path, monkeypatch, run):
    monkeypatch.chdir(tmp_path)
    assert run("new", "fresh").code == 0
    return tmp_path


@pytest.mark.parametrize("shop", sorted(load_shops()))
def test_a_new_game_exports_to_every_shop(fresh, run, shop):
    if load_shops()[shop].colour == "cmyk" and shutil.which("gs") is None:
        pytest.skip("Ghostscript (gs) is not installed: apt install ghostscript")
    result = run("export", "--to", "shop", "--shop", shop)
    assert result.code == 0, result.err
    assert not [line for line in result.lines if "shop-" in line], result.err


@pytest.mark.parametrize("fill, flagged", [("#ffffff", False), ("#f3e9d2", True)])
def test_check_and_shop_agree_on_a_background_that_stops_at_the_trim(fresh, run, fill,
                                                                     flagged):
    edit(fresh / FRONT, BACKGROUND, f'<rect x="0" y="0" width="63" height="88" fill="{fill}"/>')
    check = run("check", "--layout", "print-shop")
    assert any("print-bleed" in line for line in check.lines) == flagged, check.err
    result = run("export", "--to", "shop")
    assert any("shop-bleed-unpainted" in line for line in result.lines) == flagged, result.err
    assert result.code == (1 if flagged else 0)
    if not flagged:  # the unpainted bleed is written as the paper it prints as: white
        png = next((fresh / "output/fresh/shop-thegamecrafter").glob("*-front.png"))
        with Image.open(png) as image:
            assert image.mode == "RGB" and image.getpixel((1, 1)) == (255, 255, 255)
