"""Layout: imposition is pure geometry, tested here without rendering anything."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.layout import builtin_layouts, grid_shape, impose
from pnp.units import CARD_SIZES, PAPERS, Size

HOME = builtin_layouts()["home"]
POKER = CARD_SIZES["poker"]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_poker_cards_sit_three_by_three_centred(paper):
    assert grid_shape(POKER, PAPERS[paper], HOME) == (3, 3)
    front = impose(9, POKER, paper, HOME)[0]
    width, height = PAPERS[paper]
    assert front.trim.width_mm == pytest.approx(189.0)
    assert front.trim.height_mm == pytest.approx(264.0)
    assert front.trim.x_mm == pytest.approx((width - 189) / 2)
    assert front.trim.y_mm == pytest.approx((height - 264) / 2)
    first, last = front.slots[0].rect, front.slots[-1].rect
    assert (first.x_mm, first.y_mm) == pytest.approx((front.trim.x_mm, front.trim.y_mm))
    assert (last.right_mm, last.bottom_mm) == pytest.approx(
        (front.trim.right_mm, front.trim.bottom_mm))


def test_letter_is_exactly_8_5_by_11_inches():
    assert tuple(PAPERS["letter"]) == pytest.approx((215.9, 279.4))
    assert tuple(PAPERS["a4"]) == (210, 297)


def test_each_fronts_page_is_followed_by_its_backs_page():
    pages = impose(42, POKER, "letter", HOME)
    assert [p.side for p in pages] == ["front", "back"] * 5
    assert [p.number for p in pages] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert [s.index for s in pages[-2].slots] == list(range(36, 42))
    assert [s.index for s in pages[-1].slots] == list(range(36, 42))


def test_backs_mirror_the_columns_for_a_long_edge_flip():
    front, back = impose(9, POKER, "a4", HOME)[:2]
    width = PAPERS["a4"].width_mm
    for f, b in zip(front.slots, back.slots):
        assert f.index == b.index
        assert b.rect.y_mm == pytest.approx(f.rect.y_mm)
        assert b.rect.x_mm == pytest.approx(width - f.rect.right_mm)
    # Top-left front card's back is at the top right.
    assert back.slots[0].rect.x_mm > back.slots[2].rect.x_mm


def test_crop_marks_stand_on_every_cut_line_outside_the_grid():
    front = impose(9, POKER, "letter", HOME)[0]
    trim = front.trim
    vertical = [m for m in front.marks if m.x1_mm == m.x2_mm]
    horizontal = [m for m in front.marks if m.y1_mm == m.y2_mm]
    assert sorted({round(m.x1_mm - trim.x_mm, 6) for m in vertical}) == [0, 63, 126, 189]
    assert sorted({round(m.y1_mm - trim.y_mm, 6) for m in horizontal}) == [0, 88, 176, 264]
    for m in vertical:
        assert max(m.y1_mm, m.y2_mm) <= trim.y_mm or min(m.y1_mm, m.y2_mm) >= trim.bottom_mm
        assert abs(m.y2_mm - m.y1_mm) == pytest.approx(HOME.mark_length_mm)
    for m in horizontal:
        assert max(m.x1_mm, m.x2_mm) <= trim.x_mm or min(m.x1_mm, m.x2_mm) >= trim.right_mm


def test_margin_furniture_stays_on_the_paper_and_off_the_cards():
    for paper in ("letter", "a4"):
        front = impose(9, POKER, paper, HOME)[0]
        assert front.ruler.right_mm <= front.trim.x_mm + 1e-9
        assert front.ruler.height_mm >= 50
        assert front.note.x_mm >= front.trim.right_mm - 1e-9
        assert front.footer.y_mm >= front.trim.bottom_mm


sizes = st.builds(Size, st.floats(10, 120), st.floats(10, 150))


@settings(max_examples=60, deadline=None)
@given(count=st.integers(1, 200), item=sizes, paper=st.sampled_from(["letter", "a4"]))
def test_imposition_keeps_every_item_once_without_overlaps(count, item, paper):
    pages = impose(count, item, paper, HOME)
    fronts = [p for p in pages if p.side == "front"]
    indexes = [s.index for p in fronts for s in p.slots]
    assert indexes == list(range(count))
    width, height = PAPERS[paper]
    for page in pages:
        rects = [s.rect for s in page.slots]
        for r in rects:
            assert r.x_mm >= 0 and r.y_mm >= 0
            assert r.right_mm <= width + 1e-9 and r.bottom_mm <= height + 1e-9
        for i, a in enumerate(rects):
            for b in rects[i + 1:]:
                assert (a.right_mm <= b.x_mm + 1e-9 or b.right_mm <= a.x_mm + 1e-9
                        or a.bottom_mm <= b.y_mm + 1e-9 or b.bottom_mm <= a.y_mm + 1e-9)
        for mark in page.marks:
            for r in rects:
                inside_x = r.x_mm + 1e-9 < mark.x1_mm < r.right_mm - 1e-9
                inside_y = r.y_mm + 1e-9 < mark.y1_mm < r.bottom_mm - 1e-9
                assert not (inside_x and inside_y), "a crop mark starts on a card"
