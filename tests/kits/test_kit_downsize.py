"""The Downsize kit, read back from its PDFs: counts against the content brief (section 3),
the removable Trump Card, Returns piles told apart, Market Movements marked with their use, and
two-sided Reference cards whose backs lie behind their fronts after a long-edge flip.

Every sheet is built once per test session on Letter and A4 from YAML, CSV and templates only.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from readback import close, mirrored, read_sheet

SHEETS = ("employees", "returns", "reference", "market")
DEPARTMENTS = ("CORPORATE", "INVESTMENT", "LEGAL", "HR")


@pytest.fixture(scope="session")
def downsize(built_kit) -> dict[str, Path]:
    return {p.stem: p for p in built_kit("downsize").glob("*.pdf")}


@pytest.fixture(scope="session")
def letter(downsize):
    return {name: read_sheet(downsize[f"{name}-letter"]) for name in SHEETS}


def test_every_fronts_page_has_a_backs_page_with_a_back_for_each_card(letter):
    for name, sheet in letter.items():
        assert len(sheet.pages) % 2 == 0, name
        for fronts, backs in zip(sheet.pages[0::2], sheet.pages[1::2]):
            assert len(fronts) == len(backs) > 0, name


def test_sixty_six_employees_and_a_removable_trump_card(letter):
    fronts = letter["employees"].fronts
    assert len(fronts) == 66 + 1
    standard = Counter(d for card in fronts for d in DEPARTMENTS if card.has(f"STANDARD · {d}"))
    assert sum(standard.values()) == 48 and set(standard) == set(DEPARTMENTS)
    assert all(card.has("FIRE IN A PAIR WITH") for card in fronts if card.has("STANDARD ·"))
    specialists = [card for card in fronts if card.has("FIRE ALONE")]
    assert len(specialists) == 66 - 48 + 1
    removable = [card for card in fronts if card.has("REMOVABLE")]
    assert len(removable) == 1 and removable[0].has("Trump Card")
    names = {name for name in ("Auditor", "Angel Investor", "Security Specialist")
             if any(card.has(name) for card in specialists)}
    assert len(names) == 3
    # The redraw rule: some employee appears at least five times.
    assert max(standard.values()) >= 5
    # One back for all, the Trump Card's too, so it hides in the Hire pile.
    assert {" ".join(card.text.split()) for card in letter["employees"].backs} == {
        " ".join(letter["employees"].backs[0].text.split())}


def test_eighteen_returns_from_1m_to_6m_in_a_low_and_a_high_pile(letter):
    fronts = letter["returns"].fronts
    assert len(fronts) == 18
    piles = Counter()
    for card in fronts:
        values = {int(m.group(1)) for w in card.words if (m := re.fullmatch(r"(\d)m", w["text"]))}
        (value,) = values
        (pile,) = [p for p in ("LOW", "HIGH") if card.has(f"{p} PILE")]
        assert (pile == "LOW") == (value <= 3), card.text
        piles[pile, value] += 1
    assert {value for _, value in piles} == set(range(1, 7))
    assert sum(n for (pile, _), n in piles.items() if pile == "LOW") > 0
    assert sum(n for (pile, _), n in piles.items() if pile == "HIGH") > 0
    # The backs do not tell the piles apart: a drawn card stays secret.
    assert len({" ".join(card.text.split()) for card in letter["returns"].backs}) == 1


def test_twenty_market_movements_each_marked_with_its_use(letter):
    fronts = letter["market"].fronts
    assert len(fronts) == 20
    uses = ("FLIP WHEN USED", "GIVE TO A PLAYER", "TURN 90° WHEN USED")
    for card in fronts:
        assert sum(card.has(use) for use in uses) == 1, card.text
    for name in ("Bailout", "Corruption", "Graduate Programme", "Inquiry", "Interns", "Merger",
                 "Outsourcing", "Philanthropy", "Recession"):
        assert any(card.has(name) for card in fronts), name
    assert all(card.has("EXPANSION") for card in letter["market"].backs)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_six_two_sided_reference_cards_pairs_behind_losses(downsize, paper):
    """Side 1 (the firing pairs) on the fronts page, side 2 (the losses) on the backs page: each
    side 2's title band must land on a side 1's band after a long-edge flip (within 0.1 mm)."""
    sheet = read_sheet(downsize[f"reference-{paper}"])
    fronts, backs = sheet.fronts, sheet.backs
    assert len(fronts) == len(backs) == 6
    assert all(card.has("SIDE 1 OF 2") and card.has("Corporate + Investment") for card in fronts)
    assert all(card.has("SIDE 2 OF 2") and card.has("left over") for card in backs)
    for page_fronts, page_backs in zip(sheet.pages[0::2], sheet.pages[1::2]):
        bands = [band for back in page_backs for band in back.rects_of(52, 10)]
        for front in page_fronts:
            (band,) = front.rects_of(52, 10)
            assert sum(close(b, mirrored(band, sheet.width_mm)) for b in bands) == 1
