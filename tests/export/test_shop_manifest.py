"""A shop export writes each distinct face once and orders the copies in a manifest: a deck of
12 distinct cards printed 30 times is 12 front PNGs, 1 back PNG (read back with Pillow) and a
CSV (read with the csv module) that counts them."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

from PIL import Image

from conftest import LEDGER

COPIES = (1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4)  # 12 cards, 30 copies


def twelve_cards(root: Path) -> None:
    """The Ledger game with a deck of 12 distinct cards and a quantity column."""
    shutil.copytree(LEDGER, root, dirs_exist_ok=True)
    game = root / "content" / "ledger" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    text = text.replace("    file: cards.csv\n", "    file: cards.csv\n    quantity: copies\n")
    text = text.replace("      art: image\n", "      art: image\n      copies: {type: whole, min: 1}\n")
    game.write_text(text, encoding="utf-8")
    rows = "".join(f"Card {n + 1},{n % 9},Text {n + 1}.,art.png,{copies}\n"
                   for n, copies in enumerate(COPIES))
    (root / "content" / "ledger" / "cards.csv").write_text("title,value,text,art,copies\n" + rows,
                                                         encoding="utf-8")


def test_twelve_distinct_faces_in_thirty_copies_are_twelve_fronts_one_back_and_a_count(
        tmp_path, run):
    twelve_cards(tmp_path)
    result = run("export", "--to", "shop", "--root", str(tmp_path), "--sheets", "cards",
                 "--out", str(tmp_path / "out"))
    assert result.code == 0, result.err
    folder = tmp_path / "out" / "ledger" / "shop-thegamecrafter"
    fronts, backs = sorted(folder.glob("*-front.png")), sorted(folder.glob("*-back.png"))
    assert len(fronts) == 12 and len(backs) == 1, sorted(p.name for p in folder.iterdir())
    pixels = {Image.open(path).convert("RGB").tobytes() for path in fronts}
    assert len(pixels) == 12  # twelve different pictures, not one written twelve times
    with open(folder / "cards-manifest.csv", newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    cards, (total,) = rows[:-1], rows[-1:]
    assert [int(row["quantity"]) for row in cards] == list(COPIES)
    assert total["card"] == "total" and int(total["quantity"]) == 30
    assert {row["product"] for row in rows} == {"Poker Deck"}
    assert {row["front"] for row in cards} == {path.name for path in fronts}
    assert {row["back"] for row in cards} == {backs[0].name}
