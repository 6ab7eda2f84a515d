"""`pnp release`: a game's whole print-and-play release in one zip, the same bytes for the same
content. A one-deck game is released twice (and once more with SOURCE_DATE_EPOCH): the zips are
identical, hold both papers' kits and cut files, previews, the licence, a README and a manifest
whose checksums verify; the PDFs and cut files are read back with pikepdf and ezdxf."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

import ezdxf
import pikepdf
import pytest
from PIL import Image

from tinygame import front, write_game

CARDS = "- {title: One, text: A card to release, copies: 2}\n"


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    from pnp.cli import main

    root = write_game(tmp_path_factory.mktemp("release"), CARDS,
                      front('text_box(card, "text", (6, 10, 51, 60))'))
    zips = []
    for run in range(2):
        out = root / f"out{run}"
        assert main(["release", "--root", str(root), "--game", "tiny", "--out", str(out)]) == 0
        zips.append((out / "tiny" / "tiny-release.zip").read_bytes())
    return root, zips


def test_two_releases_are_byte_identical_and_hold_both_papers(released):
    _, (first, second) = released
    assert first == second
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        names = archive.namelist()
        assert names == sorted(names)
        assert {"README.md", "LICENCE.txt", "manifest.json", "letter/cards-letter.pdf",
                "a4/cards-a4.pdf", "letter/tiny-kit-letter.pdf", "a4/tiny-kit-a4.pdf",
                "previews/cards.png", "fonts/LICENSE-OFL-1.1.txt"} <= set(names)
        assert {entry.date_time for entry in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        for paper, size_pt in (("letter", (612, 792)), ("a4", (595.28, 841.89))):
            cut = [n for n in names if n.startswith(f"cutting/{paper}/")]
            assert {n.rsplit(".", 1)[1] for n in cut} == {"pdf", "svg", "dxf"}, cut
            with pikepdf.open(io.BytesIO(archive.read(f"{paper}/cards-{paper}.pdf"))) as pdf:
                box = [float(v) for v in pdf.pages[0].MediaBox]
                assert box[2:] == pytest.approx(size_pt, abs=0.5)
            dxf = next(n for n in cut if n.endswith(".dxf"))
            drawing = ezdxf.read(io.StringIO(archive.read(dxf).decode("utf-8")))
            assert len(drawing.modelspace()) >= 1  # the card's cut outline
        manifest = json.loads(archive.read("manifest.json"))
        listed = {entry["path"]: entry for entry in manifest["files"]}
        assert set(listed) == set(names) - {"manifest.json"}
        for path, entry in listed.items():
            data = archive.read(path)
            assert entry["bytes"] == len(data)
            assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        with Image.open(io.BytesIO(archive.read("previews/cards.png"))) as preview:
            assert max(preview.size) <= 900 and min(preview.size) > 100
        licence = archive.read("LICENCE.txt").decode("utf-8")
        assert "CC BY 4.0" in licence and "Tiny (c) 2026 A. Designer" in licence
        readme = archive.read("README.md").decode("utf-8")
        assert "100% / Actual size" in readme and "`letter/cards-letter.pdf`" in readme


def test_source_date_epoch_dates_every_entry_and_pdf(released, monkeypatch):
    from pnp.cli import main

    root, (first, _) = released
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01 00:00 UTC
    out = root / "epoch"
    assert main(["release", "--root", str(root), "--game", "tiny", "--out", str(out)]) == 0
    data = (out / "tiny" / "tiny-release.zip").read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as archive, \
            zipfile.ZipFile(io.BytesIO(first)) as earlier:
        assert {entry.date_time for entry in archive.infolist()} == {(2026, 1, 1, 0, 0, 0)}
        assert archive.namelist() == earlier.namelist()
        changed = {n for n in archive.namelist() if archive.read(n) != earlier.read(n)}
        # The PDFs are dated by it too, and the manifest lists their new checksums.
        assert changed == {n for n in archive.namelist() if n.endswith(".pdf")} | \
            {"manifest.json"}
        with pikepdf.open(io.BytesIO(archive.read("letter/cards-letter.pdf"))) as pdf:
            assert str(pdf.docinfo["/CreationDate"]).startswith("D:20260101")
