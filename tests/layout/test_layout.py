"""Layout: imposition is pure geometry, tested here without rendering anything."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.layout.impose import grid_shape, impose
from pnp.layout.layouts import builtin_layouts
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
    front = impose(9, POKER, "letter", HOME, bleed_mm=3)[0]
    trim = front.trim
    vertical = [m for m in front.marks if m.x1_mm == m.x2_mm]
    horizontal = [m for m in front.marks if m.y1_mm == m.y2_mm]
    assert sorted({round(m.x1_mm - trim.x_mm, 6) for m in vertical}) == [0, 63, 126, 189]
    assert sorted({round(m.y1_mm - trim.y_mm, 6) for m in horizontal}) == [0, 88, 176, 264]
    for m in vertical:
        assert max(m.y1_mm, m.y2_mm) <= trim.y_mm or min(m.y1_mm, m.y2_mm) >= trim.bottom_mm
        # As long as the layout says, or cut short (Letter's 7.7 mm top margin) so that it
        # stays off the quarter inch a US printer leaves blank, and at least 1 mm long.
        assert 1.0 - 1e-6 <= abs(m.y2_mm - m.y1_mm) <= HOME.marks.length_mm + 1e-6
        assert min(m.y1_mm, m.y2_mm) >= 6.35 and \
            max(m.y1_mm, m.y2_mm) <= front.paper.height_mm - 6.35
        # The pieces are drawn over the marks: their outer bleed gives way to a tick.
        assert not any(m.box().overlaps(slot.shown) for slot in front.slots)
        assert all(slot.shown.inside(slot.rect.grown(1)) for slot in front.slots)
    for m in horizontal:
        assert max(m.x1_mm, m.x2_mm) <= trim.x_mm or min(m.x1_mm, m.x2_mm) >= trim.right_mm


def test_margin_furniture_stays_on_the_paper_and_off_the_cards():
    for paper in ("letter", "a4"):
        front = impose(9, POKER, paper, HOME)[0]
        assert set(front.furniture) == {"ruler", "note", "footer", "credit"}
        assert not front.ruler.rect.overlaps(front.trim)
        assert front.ruler.length_mm >= 50
        assert not front.note.rect.overlaps(front.trim)
        assert not front.footer.rect.overlaps(front.trim)


def test_a_part_filled_sheet_has_marks_only_beside_its_pieces():
    """5 cards on a 3 x 3 sheet fill the first row and part of the second: no mark runs beside
    the empty third row, and the sheet's trim box is the pieces', not the grid's."""
    pages = impose(14, POKER, "letter", HOME)
    full, part = pages[0], pages[2]
    top = full.trim.y_mm
    rows_marked = sorted({round(m.y1_mm - top, 6) for m in part.marks if m.y1_mm == m.y2_mm})
    assert rows_marked == [0, 88, 176]
    assert part.trim.bottom_mm == pytest.approx(top + 176)
    for m in part.marks:
        assert max(m.y1_mm, m.y2_mm) <= top + 176 + HOME.marks.offset_mm + \
            HOME.marks.length_mm + 1e-9
    back = pages[3]
    assert sorted({round(m.y1_mm - top, 6) for m in back.marks if m.y1_mm == m.y2_mm}) == \
        [0, 88, 176]


SHORT = builtin_layouts()["home-short-edge"]


def test_short_edge_backs_mirror_the_rows():
    front, back = impose(9, POKER, "a4", SHORT)[:2]
    height = PAPERS["a4"].height_mm
    for f, b in zip(front.slots, back.slots):
        assert b.rect.x_mm == pytest.approx(f.rect.x_mm)
        assert b.rect.y_mm == pytest.approx(height - f.rect.bottom_mm)
    assert "short edge" in front.notes[1] and "short-edge" in back.notes[1]
    assert "long" not in " ".join(front.notes + back.notes)


def test_backs_at_the_end_follow_all_the_fronts():
    pages = impose(20, POKER, "letter", builtin_layouts()["home-stack"])
    assert [p.side for p in pages] == ["front"] * 3 + ["back"] * 3
    assert [p.number for p in pages] == [1, 2, 3, 1, 2, 3]


def test_fronts_only_has_no_backs_pages():
    pages = impose(20, POKER, "letter", builtin_layouts()["fronts-only"])
    assert [p.side for p in pages] == ["front"] * 3
    assert "single-sided" in pages[0].notes[1]


# Piece sizes from 12 mm tokens to tarot cards, square and not.
PIECES = [Size(12, 12), Size(12.7, 12.7), Size(20, 20), Size(25.4, 25.4), Size(31.75, 31.75),
          Size(44, 63), Size(57, 89), POKER, Size(88, 63), Size(70, 120)]


@pytest.mark.parametrize("name", sorted(set(builtin_layouts()) - {"print-shop"}))
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_furniture_fits_on_the_paper_for_every_piece_size(name, paper):
    """The ruler, the note, the footer and the licence line lie on the paper (EDGE_MM in), off
    every piece and its bleed, off every mark and off each other; when the margins of a full
    sheet are too narrow, fewer pieces go on a sheet and the notice says so."""
    from pnp.layout.furniture import EDGE_MM

    layout = builtin_layouts()[name]
    for piece in PIECES:
        pages = impose(400, piece, paper, layout, bleed_mm=3)
        if name == "universal" and not pages[0].furniture:
            # a page for both papers keeps the pieces both hold and leaves the furniture off
            assert "they are left off" in pages[0].notices[0], piece
            continue
        for page in pages[:2] + pages[-2:]:  # full sheets are all alike; then the last one
            assert set(page.furniture) == {"ruler", "note", "footer", "credit"}, (piece, name)
            w, h = page.paper
            boxes = [f.rect for f in page.furniture.values()]
            for i, box in enumerate(boxes):
                assert box.x_mm >= EDGE_MM - 1e-6 and box.y_mm >= EDGE_MM - 1e-6
                assert box.right_mm <= w - EDGE_MM + 1e-6 and box.bottom_mm <= h - EDGE_MM + 1e-6
                for slot in page.slots:
                    assert not box.overlaps(slot.rect.grown(slot.bleed_mm)), (piece, name)
                for mark in page.marks + page.folds:
                    assert not box.overlaps(mark.box(0.1)), (piece, name)
                for mark in page.registration:  # a cutting machine's eye must see them alone
                    assert not box.overlaps(mark.grown(0.5)), (piece, name)
                for other in boxes[i + 1:]:
                    assert not box.overlaps(other)
        full = len({slot.index for slot in pages[0].slots})
        if pages[0].notices:  # 400 pieces take more sheets than they would without furniture
            assert f"holds {full} instead of" in pages[0].notices[0]


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


def test_imposition_is_kept_per_set_of_arguments_and_handed_out_as_a_new_list():
    """A deck imposed twice alike shares its pages; any argument that differs imposes anew,
    and a caller changing its list changes no one else's."""
    from dataclasses import replace

    from pnp.layout.layouts import SlotSpec
    from pnp.load.schema import Where

    first, again = impose(20, POKER, "letter", HOME), impose(20, POKER, "letter", HOME)
    assert again == first and again is not first
    again.clear()
    assert impose(20, POKER, "letter", HOME) == first
    assert len(impose(30, POKER, "letter", HOME)) > len(first)
    assert impose(20, POKER, "a4", HOME)[0].paper != first[0].paper
    assert impose(20, POKER, "letter", HOME, bleed_mm=3) != first
    texts = {"footer": "Game · Cards · sheet 3/3 · fronts and backs · layout home"}
    assert impose(20, POKER, "letter", HOME, texts=texts) == \
        impose(20, POKER, "letter", HOME, texts=dict(texts))
    # A layout holding its YAML locations (a dict) cannot be a key: it is imposed each time.
    slots = tuple(SlotSpec(10 + 70 * k, 10, where=Where(fields={"x_mm": None}))
                  for k in range(2))
    placed = replace(HOME, kind="slots", slots=slots)
    assert [len(page.slots) for page in impose(3, POKER, "letter", placed)
            if page.side == "front"] == [2, 1]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_gutterfold_fills_both_halves_with_pieces_without_backs(paper):
    """Nothing is folded behind a piece without a back: its fronts fill both halves, about as
    many a sheet as at home (Boomtown's 189 bills of 63 x 29 mm)."""
    layouts = builtin_layouts()
    bill = Size(63, 29)
    fold = impose(189, bill, paper, layouts["gutterfold"], with_backs=False)
    home = impose(189, bill, paper, layouts["home"], with_backs=False)
    assert len(fold) <= len(home)
    assert [s.index for p in fold for s in p.slots] == list(range(189))
    assert all(s.face == "front" for p in fold for s in p.slots)
    width = fold[0].paper.width_mm
    assert any(s.rect.x_mm > width / 2 for s in fold[0].slots)  # the right half holds fronts
