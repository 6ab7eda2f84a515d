"""Every art file is decoded whole in check, as the build will decode it: a truncated or
damaged image is a located finding of `pnp check`, and `pnp build` writes nothing over the
last good PDFs, instead of failing while it draws."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image


ART = Path("content/ledger/art.png")


def picture(kind: str) -> bytes:
    image = Image.radial_gradient("L").convert("RGB").resize((300, 300))
    out = io.BytesIO()
    image.save(out, kind)
    return out.getvalue()


def truncated_png() -> bytes:
    data = picture("PNG")
    return data[: len(data) // 2]


def damaged_png() -> bytes:
    data = bytearray(picture("PNG"))
    data[data.find(b"IDAT") + 40] ^= 0xFF  # the CRC no longer matches
    return bytes(data)


def truncated_jpeg() -> bytes:
    data = picture("JPEG")
    return data[: len(data) // 3]


@pytest.mark.parametrize("make", [truncated_png, damaged_png, truncated_jpeg],
                         ids=lambda f: f.__name__)
def test_a_broken_image_is_a_check_finding_and_build_keeps_the_last_pdfs(ledger, run, make):
    assert run("build").code == 0
    pdfs = sorted((ledger / "output/ledger").glob("*.pdf"))
    before = {p: p.read_bytes() for p in pdfs}
    art = ledger / ART
    art.write_bytes(make())  # a JPEG under a .png name is drawn by its content, as cairo does
    result = run("check")
    assert result.code == 1, result.err
    assert "Traceback" not in result.err and "internal error" not in result.err
    errors = [line for line in result.lines if ": error: " in line]
    assert errors and all(e.startswith("content/ledger/cards.csv:") for e in errors), errors
    assert all("'art.png' cannot be decoded" in e for e in errors)
    built = run("build")
    assert built.code == 1 and "nothing was written" in built.err
    assert "scratch file" not in built.err
    assert {p: p.read_bytes() for p in pdfs} == before


def test_a_whole_image_passes(ledger, run):
    (ledger / ART).write_bytes(picture("PNG"))
    assert run("check").code == 0
