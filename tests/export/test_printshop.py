"""Print-shop exports read back: PNG sizes and resolution with Pillow, PDF pages, boxes and
colour with pikepdf, against the shops' published figures written out here (not read from
pnp/data/shops.yaml): The Game Crafter's poker card is 825 x 1125 px, DriveThruCards' poker page
2.75 x 3.75 in, and so on."""

from __future__ import annotations

import shutil
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from conftest import REPO, edit
from sameplace import project, same_place  # noqa: F401 - fixtures

GAMES = REPO / "tests" / "data" / "games"
POINTS_PER_INCH = 72

# Pixels of each piece's image at The Game Crafter, at 300 dpi: its product's trim plus 1/8 in
# of bleed on every side (poker 2.5 x 3.5 in, tarot 2.75 x 4.75 in, chits 1/2, 3/4 and 1 in).
TGC_PIXELS = {
    ("downturn", "events"): (825, 1125), ("downturn", "banks"): (825, 1125),
    ("downturn", "aids"): (825, 1125), ("downturn", "shares"): (375, 375),
    ("downturn", "cubes"): (225, 225), ("debtors", "cards"): (825, 1125),
    ("debtors", "tokens"): (300, 300), ("debtors", "aid"): (900, 1500),
    ("ledger", "cards"): (825, 1125),
}


def exported_pngs(folder: Path, game: str) -> dict[str, list[Path]]:
    """The PNGs of a shop folder by deck (the file names are deck-NNN-side.png)."""
    decks: dict[str, list[Path]] = {}
    for path in sorted(folder.glob("*.png")):
        decks.setdefault(path.stem.rsplit("-", 2)[0], []).append(path)
    return decks


def ordered(folder: Path) -> dict[str, int]:
    """The copies each deck's manifest orders, after checking that it names exactly the PNGs
    written, each distinct face once."""
    import csv

    counts, named = {}, set()
    for path in folder.glob("*-manifest.csv"):
        with open(path, newline="", encoding="utf-8") as file:
            rows = list(csv.DictReader(file))
        counts[path.name.removesuffix("-manifest.csv")] = sum(
            int(row["quantity"]) for row in rows[:-1])
        assert rows[-1]["card"] == "total" and int(rows[-1]["quantity"]) == sum(
            int(row["quantity"]) for row in rows[:-1])
        named |= {row[side] for row in rows[:-1] for side in ("front", "back") if row[side]}
    assert named == {path.name for path in folder.glob("*.png")}
    return counts


def check_pngs(folder: Path, game: str, expected_decks: set[str]) -> int:
    decks = exported_pngs(folder, game)
    assert set(decks) == expected_decks
    for deck, paths in decks.items():
        for path in paths:
            with Image.open(path) as image:
                assert image.size == TGC_PIXELS[game, deck], path.name
                assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01), path.name
    return sum(len(paths) for paths in decks.values())


def test_downturn_pieces_are_each_their_own_product_at_300_dpi(project, run):
    result = run("export", "--to", "shop", "--sheets", "events,banks,shares,cubes,aids")
    assert result.code == 0, result.err
    folder = project / "output" / "downturn" / "shop-thegamecrafter"
    # Each distinct face once: 42 events and their one shared back, ...
    check_pngs(folder, "downturn", {"events", "banks", "shares", "cubes", "aids"})
    assert len(list(folder.glob("events-*-front.png"))) == 42
    assert len(list(folder.glob("events-*-back.png"))) == 1
    # ... and the manifests order 42 events, 10 banks, 80 shares, 108 cubes and 5 aids.
    assert ordered(folder) == {"events": 42, "banks": 10, "shares": 80, "cubes": 108, "aids": 5}
    back = Image.open(folder / "events-001-back.png").convert("RGB")
    # The back's field runs into the bleed: the corner pixel is the card's navy, not white.
    assert back.getpixel((2, 2)) == back.getpixel((412, 200)) != (255, 255, 255)
    written = [Path(line.split()[-1]).name for line in result.out.splitlines()]
    assert [name for name in written if name.startswith("events-")][:4] == [
        "events-001-back.png", "events-001-front.png", "events-002-front.png",
        "events-003-front.png"]


def test_a_piece_no_product_fits_is_a_warning_and_the_rest_is_written(project, run):
    strict = run("export", "--to", "shop", "--sheets", "events,markers", "--strict")
    assert strict.code == 1 and "nothing was written" in strict.lines[-1]
    assert not (project / "output").exists()
    result = run("export", "--to", "shop", "--sheets", "events,markers")
    assert result.code == 0, result.err
    (line,) = [line for line in result.lines if "shop-no-product" in line]
    assert line.startswith("content/downturn/game.yaml:") and ": warning: " in line
    assert "no piece of 31.75 x 31.75 mm" in line and "deck markers" in line
    assert "large-square-chit (1.5 x 1.5 in)" in line  # the nearest products, named
    folder = project / "output" / "downturn" / "shop-thegamecrafter"
    assert {p.name.split("-")[0] for p in folder.iterdir()} == {"events"}


def test_test_games_export_at_their_products_sizes(tmp_path, run):
    result = run("export", "--to", "shop", "--root", str(GAMES / "debtors"),
                 "--out", str(tmp_path))
    assert result.code == 0, result.err
    # 54 cards and the tarot aid front and back; the 30 round tokens have no back.
    folder = tmp_path / "debtors" / "shop-thegamecrafter"
    check_pngs(folder, "debtors", {"cards", "tokens", "aid"})
    assert ordered(folder) == {"cards": 54, "tokens": 30, "aid": 1}
    result = run("export", "--to", "shop", "--root", str(GAMES / "ledger"),
                 "--out", str(tmp_path))
    # The 40 x 40 mm notes fit no product: a warning, and the cards are written.
    assert result.code == 0, result.err
    assert any("shop-no-product" in line and "40 x 40 mm" in line for line in result.lines)
    # Ledger's 130 px art at 21 mm is below a shop's 300 dpi: a warning, as --strict refuses,
    # at each card's art cell (not at the deck's `front:` line).
    coarse = [line for line in result.lines if "shop-image-resolution" in line]
    assert coarse and all("157 dpi" in line for line in coarse)
    assert [line.split(": warning: ")[0].split("content/ledger/")[1] for line in coarse] == \
        ["cards.csv:2:4", "cards.csv:3:4", "cards.csv:4:4"]
    # 3 cards and their one shared back
    assert check_pngs(tmp_path / "ledger" / "shop-thegamecrafter", "ledger", {"cards"}) == 4


def test_a_face_coloured_to_its_edge_that_paints_no_bleed_fails_the_preflight(project, run):
    # (white stopping at the trim passes: it prints as the paper would; tests/export/test_white)
    edit(project / "templates" / "downturn" / "event-front.svg.j2",
         '<rect x="-5" y="-5" width="73" height="98" fill="#ffffff"/>',
         '<rect x="0" y="0" width="63" height="88" fill="#e8dcc0"/>')
    result = run("export", "--to", "shop", "--sheets", "events")
    assert result.code == 1
    (line,) = [line for line in result.lines if "shop-bleed-unpainted" in line]
    assert line.startswith("content/downturn/game.yaml:") and "42 of 42 faces" in line
    assert not (project / "output").exists()


def test_text_in_the_safe_margin_fails_a_shop_export(project, run):
    edit(project / "templates" / "downturn" / "event-front.svg.j2",
         'text_box(card, "effect", (6, 28,', 'text_box(card, "effect", (0.5, 28,')
    check = run("check")
    assert any("text-in-safe-margin" in line for line in check.lines)
    result = run("export", "--to", "shop", "--sheets", "events")
    assert result.code == 1
    assert any("error" in line and "shop-text-unsafe" in line for line in result.lines)


def pdf_pages(path: Path):
    with pikepdf.open(path) as pdf:
        return [(tuple(float(v) for v in page.MediaBox), tuple(float(v) for v in page.TrimBox),
                 tuple(float(v) for v in page.BleedBox)) for page in pdf.pages]


def test_offset_printer_pdf_is_the_piece_and_3_mm_of_bleed_a_page(project, run):
    result = run("export", "--to", "shop", "--shop", "pdf-3mm", "--sheets", "banks,shares")
    assert result.code == 0, result.err
    folder = project / "output" / "downturn" / "shop-pdf-3mm"
    assert sorted(p.name for p in folder.iterdir()) == [
        "banks-manifest.csv", "banks.pdf", "shares-manifest.csv", "shares.pdf"]
    mm = POINTS_PER_INCH / 25.4
    pages = pdf_pages(folder / "banks.pdf")
    assert len(pages) == 20  # back and front of 10 banks
    for media, trim, bleed in pages:
        assert media == pytest.approx((0, 0, 69 * mm, 94 * mm), abs=0.01)
        assert trim == pytest.approx((3 * mm, 3 * mm, 66 * mm, 91 * mm), abs=0.01)
        assert bleed == pytest.approx(media, abs=0.01)
    assert pdf_pages(folder / "shares.pdf")[0][0] == pytest.approx(
        (0, 0, 31.4 * mm, 31.4 * mm), abs=0.01)


def test_without_ghostscript_a_cmyk_export_stops_naming_the_package(project, run, tmp_path,
                                                                    monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    result = run("export", "--to", "shop", "--shop", "drivethrucards", "--sheets", "events")
    assert result.code == 1
    assert len(result.lines) == 1 and "ghostscript" in result.lines[0]
    assert not (project / "output").exists()


def drawn_colours(path: Path) -> set[int]:
    """How many components the colours drawn on the pages have (3: RGB, 4: CMYK, 1: grey),
    read by pdfplumber (pdfminer), a reader apart from the one that checks the file in pnp."""
    import pdfplumber

    channels = set()
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            for obj in page.chars + page.rects + page.lines + page.curves:
                for key in ("non_stroking_color", "stroking_color"):
                    colour = obj.get(key)
                    if isinstance(colour, (list, tuple)):
                        channels.add(len(colour))
    return channels


def image_colour_spaces(pdf) -> set[str]:
    """The colour space of every image in the file (the first name of an array)."""
    spaces = set()
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image" \
                and "/ColorSpace" in obj:
            space = obj.ColorSpace
            spaces.add(str(space[0] if isinstance(space, pikepdf.Array) else space))
    return spaces


@pytest.mark.skipif(shutil.which("gs") is None,
                    reason="Ghostscript (gs) is not installed: apt install ghostscript")
def test_drivethrucards_poker_pdf_is_pdfx_1a_in_cmyk_at_2_75_by_3_75_inches(project, run):
    result = run("export", "--to", "shop", "--shop", "drivethrucards", "--sheets", "events")
    assert result.code == 0, result.err
    path = project / "output" / "downturn" / "shop-drivethrucards" / "events.pdf"
    inch = POINTS_PER_INCH
    with pikepdf.open(path) as pdf:
        assert len(pdf.pages) == 84
        for page in pdf.pages:
            assert [float(v) for v in page.MediaBox] == pytest.approx(
                [0, 0, 2.75 * inch, 3.75 * inch], abs=0.01)
            assert [float(v) for v in page.TrimBox] == pytest.approx(
                [0.125 * inch, 0.125 * inch, 2.625 * inch, 3.625 * inch], abs=0.01)
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == "/GTS_PDFX" and int(intent.DestOutputProfile.N) == 4
        assert str(pdf.docinfo["/GTS_PDFXVersion"]).startswith("PDF/X-1a")
        assert image_colour_spaces(pdf) <= {"/DeviceCMYK", "/DeviceGray"}
    assert 4 in drawn_colours(path) and 3 not in drawn_colours(path)


def test_print_shop_layout_pdf_is_titled_for_a_shop_not_a_paper(project, run):
    result = run("build", "--layout", "print-shop", "--sheets", "banks")
    assert result.code == 0, result.err
    (path,) = (project / "output" / "downturn").glob("banks*.pdf")
    with pikepdf.open(path) as pdf:
        title = str(pdf.docinfo["/Title"])
    assert title == "Downturn: Bank cards (a page per face, for a print shop)"
