"""The Crunch kit, read back from its PDFs: counts against the content brief, and every Trust
card's Government Bailout behind its own front after a long-edge flip.

Every sheet is built once per test session on Letter and A4 (no Python of the game's own: the
kit is YAML, CSV and templates). The numbers asserted here come from the content brief (section
6), or for the bailouts from the kit's own trust.csv, and are read off the pages with pdfplumber.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pypdfium2
import pytest

from conftest import REPO
from pnp.units import pt_to_mm
from readback import amounts, close, mirrored, read_sheet

SHEETS = ("workforce", "assets", "trust", "events", "aids")


@pytest.fixture(scope="session")
def crunch(built_kit) -> dict[str, Path]:
    return {p.stem: p for p in built_kit("crunch").glob("*.pdf")}


@pytest.fixture(scope="session")
def letter(crunch):
    return {name: read_sheet(crunch[f"{name}-letter"]) for name in SHEETS}


def test_every_fronts_page_has_a_backs_page_with_a_back_for_each_card(letter):
    for name, sheet in letter.items():
        assert len(sheet.pages) % 2 == 0, name
        for fronts, backs in zip(sheet.pages[0::2], sheet.pages[1::2]):
            assert len(fronts) == len(backs) > 0, name


def test_fifteen_workforce_cards_4_low_5_medium_6_high(letter):
    fronts = letter["workforce"].fronts
    assert len(fronts) == 15
    assert all(card.has("OVERHEAD") for card in fronts)
    risks = Counter(word for card in fronts for word in ("LOW", "MEDIUM", "HIGH")
                    if card.has(f"{word} RISK:"))
    assert risks == {"LOW": 4, "MEDIUM": 5, "HIGH": 6}
    assert all(card.has("WORKFORCE") for card in letter["workforce"].backs)


def value_of(card) -> int:
    """The value printed in the top-right corner of an Asset card."""
    x0, top, x1, _ = card.box_mm
    corner = card.words_in((x1 - 20, top, x1, top + 22))
    found = amounts(corner)
    assert len(found) == 1, (card.text, found)
    return found[0]


def test_asset_deck_matches_the_breakdown_by_kind_and_value(letter):
    fronts = letter["assets"].fronts
    assert len(fronts) in (62, 63, 64)
    kinds = {"CASH": "cash", "GOLD": "gold", "SHARES": "share", "ACTION ASSET": "action"}
    by_kind = Counter()
    worth = Counter()
    for card in fronts:
        (kind,) = [k for band, k in kinds.items() if card.has(band)]
        by_kind[kind] += 1
        worth[kind] += value_of(card)
    assert by_kind == {"cash": 5, "gold": 8, "share": 21, "action": 29}
    assert worth == {"cash": 9, "gold": 25, "share": 30, "action": 88}


def test_each_company_has_seven_shares_making_100_percent(letter):
    shares = [card for card in letter["assets"].fronts if card.has("SHARES")]
    percent = Counter()
    for card in shares:
        (name,) = [w for w in ("Petroleum", "Defence", "Rebuild") if card.has(w)]
        biggest = max(card.words, key=lambda w: w["size"])
        (value,) = amounts([biggest], r"(\d+)%")
        percent[name] += value
    assert percent == {"Petroleum": 100, "Defence": 100, "Rebuild": 100}


def test_thirty_four_events_with_crunches_and_interest_for_every_risk(letter):
    fronts = letter["events"].fronts
    assert len(fronts) == 34
    assert sum(card.has("CRUNCH!") for card in fronts) >= 1
    interest = [card for card in fronts if card.has("INTEREST PAYMENT")]
    paid = Counter(risk for card in interest for risk in ("low", "medium", "high")
                   if card.has(f"every {risk} risk Workforce"))
    assert set(paid) == {"low", "medium", "high"} and sum(paid.values()) == len(interest)
    assert all(card.has("PAYOUT") and card.has("DEFAULT") for card in interest)


def test_a_two_sided_player_aid_for_each_of_four_players(letter):
    aids = letter["aids"]
    assert len(aids.fronts) == 4 and all(card.has("PLAYER AID") for card in aids.fronts)
    assert len(aids.backs) == 4
    for card in aids.backs:
        assert card.has("AT ANY TIME") and card.has("3M per Trust card"), card.text


def trust_bailouts() -> Counter:
    with open(REPO / "content" / "crunch" / "trust.csv", encoding="utf-8") as f:
        return Counter(int(row["bailout"]) for row in csv.DictReader(f))


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_fifteen_trust_fronts_read_alike(crunch, paper):
    """The side everyone sees must not tell one Trust card from another: every front extracts to
    the same text (no name, no number), so "your topmost Trust card" is not a choice."""
    fronts = read_sheet(crunch[f"trust-{paper}"]).fronts
    assert len(fronts) == 15
    texts = {" ".join(card.text.split()) for card in fronts}
    assert len(texts) == 1, texts
    (text,) = texts
    assert "TRUST" in "".join(text.split()) and "No." not in text
    assert all(name not in text for name in trust_names())


def trust_names() -> list[str]:
    with open(REPO / "content" / "crunch" / "trust.csv", encoding="utf-8") as f:
        return [row["name"] for row in csv.DictReader(f)]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_each_bailout_lies_behind_a_trust_seal_block(crunch, paper):
    """Fronts and backs pages in turn: every bailout amount is read on the backs page, and turning
    the backs page over on its long edge must bring each amount's panel onto a Trust card's seal
    block (within 0.1 mm), so no amount shows through an unguarded part of a front. The fronts
    being alike, which bailout lies behind which card does not matter; the amounts printed must
    be the kit's own, and the card's number only on this hidden side."""
    sheet = read_sheet(crunch[f"trust-{paper}"])
    seen = Counter()
    for fronts, backs in zip(sheet.pages[0::2], sheet.pages[1::2]):
        blocks = [front.rects_of(45, 30)[0] for front in fronts]
        for back in backs:
            (panel,) = back.rects_of(45, 30)
            (amount,) = amounts(back.words_in(panel))
            assert any(close(panel, mirrored(block, sheet.width_mm)) for block in blocks)
            assert back.has("Trust card No.")
            seen[amount] += 1
    assert seen == trust_bailouts() and sum(seen.values()) == 15
    assert seen[0] >= 1


def test_what_lies_in_front_of_each_bailout_amount_is_dark(crunch):
    """A lamp behind a Trust card shows the amount through whatever light ink the front has in
    front of it: the front's pixels over each amount (read by PDFium, mirrored from the backs
    page) must be dark, as the amount's digits are white on the back."""
    path = crunch["trust-letter"]
    sheet = read_sheet(path)
    document = pypdfium2.PdfDocument(path)
    try:
        dpi = 50
        front = document[0].render(scale=dpi / 72).to_pil().convert("L")
    finally:
        document.close()
    px = dpi / 25.4
    for back in sheet.pages[1]:
        (panel,) = back.rects_of(45, 30)
        digits = [w for w in back.words_in(panel) if w["text"].endswith("M")]
        assert digits
        for word in digits:
            box = (pt_to_mm(word["x0"]), pt_to_mm(word["top"]),
                   pt_to_mm(word["x1"]), pt_to_mm(word["bottom"]))
            x0, top, x1, bottom = mirrored(box, sheet.width_mm)
            area = front.crop((round(x0 * px), round(top * px), round(x1 * px),
                               round(bottom * px)))
            histogram = area.histogram()
            mean = sum(level * count for level, count in enumerate(histogram)) / sum(histogram)
            assert mean < 90, (word["text"], mean)
