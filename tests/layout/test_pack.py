"""Packing a kit: every piece placed once, none overlapping, all inside the margins, each back
behind its front, and no more sheets than the decks take apart."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings, strategies as st

from pnp.layout.impose import grid_shape
from pnp.layout.layouts import builtin_layouts
from pnp.layout.pack import KitDeck, block_gap_mm, kit_sheets
from pnp.units import PAPERS, Rect, Size

HOME = builtin_layouts()["home"]
SIZES = [Size(63, 88), Size(63, 29), Size(25.4, 25.4), Size(12.7, 12.7), Size(31.75, 31.75),
         Size(70, 120), Size(44, 63)]

decks = st.lists(st.tuples(st.sampled_from(SIZES), st.integers(1, 60), st.booleans()),
                 min_size=1, max_size=5)


@settings(max_examples=30, deadline=None)
@given(decks, st.sampled_from(["letter", "a4", "legal"]))
# 25 pieces that fill a Letter sheet's whole height: shortening it for the ruler took a second
# sheet the deck alone does not need.
@example([(Size(63, 29), 25, False)], "letter")
def test_every_piece_is_placed_once_inside_the_margins(spec, paper_name):
    paper = PAPERS[paper_name]
    wanted = [KitDeck(f"d{i}", count, size, back) for i, (size, count, back) in enumerate(spec)]
    sheets = kit_sheets(wanted, paper, HOME, "card")
    placed = {}
    inside = Rect(HOME.min_margin_mm, HOME.min_margin_mm, paper.width_mm - 2 * HOME.min_margin_mm,
                  paper.height_mm - 2 * HOME.min_margin_mm)
    for sheet in sheets:
        front, back = sheet.pages
        rects = [s.rect for s in front.slots]
        for i, a in enumerate(rects):
            assert a.inside(inside)
            assert not any(a.overlaps(b) for b in rects[i + 1:])
        for slot in front.slots:
            key = (slot.deck, slot.index)
            assert key not in placed
            placed[key] = slot
            size = next(d.size for d in wanted if d.name == slot.deck)
            assert sorted((slot.rect.width_mm, slot.rect.height_mm)) == pytest.approx(
                sorted(size))
        behind = {(s.deck, s.index): s for s in back.slots}
        for slot in front.slots:
            if not next(d.has_back for d in wanted if d.name == slot.deck):
                assert (slot.deck, slot.index) not in behind
                continue
            turned = behind[(slot.deck, slot.index)].rect
            assert turned.x_mm == pytest.approx(paper.width_mm - slot.rect.right_mm)
            assert turned.y_mm == pytest.approx(slot.rect.y_mm)
    assert len(placed) == sum(d.count for d in wanted)
    apart = sum(math.ceil(d.count / math.prod(grid_shape(d.size, paper, HOME))) for d in wanted)
    assert len(sheets) <= apart


def test_blocks_of_different_sizes_leave_room_for_their_ticks():
    paper = PAPERS["letter"]
    sheets = kit_sheets([KitDeck("cards", 5, Size(63, 88)), KitDeck("tokens", 30, Size(20, 20))],
                        paper, HOME, "card")
    assert len(sheets) == 1
    first, second = sheets[0].blocks
    assert second.area.y_mm - first.area.bottom_mm == pytest.approx(block_gap_mm(HOME, 0))
    # the ticks of each block's lines down stay in the gap, clear of both blocks
    ticks = [m for m in sheets[0].pages[0].marks if m.x1_mm == m.x2_mm
             and first.area.bottom_mm < m.y1_mm < second.area.y_mm]
    assert len(ticks) == 4 + 11  # 3 cards wide: 4 lines; 10 tokens wide: 11 lines
    for tick in ticks:
        assert first.area.bottom_mm < min(tick.y1_mm, tick.y2_mm)
        assert max(tick.y1_mm, tick.y2_mm) < second.area.y_mm
