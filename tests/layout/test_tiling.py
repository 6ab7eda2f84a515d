"""Tiling geometry, without rendering: coverage, exact overlap bands, margins and marks."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.layout.tiling import TileSpec, split, tile_board
from pnp.units import PAPERS, Size

BOARD = Size(558.8, 431.8)  # 22 x 17 in


def neighbours(tiling):
    """(tile, tile to its right or below, axis) for every shared edge."""
    for t in tiling.tiles:
        if t.column < tiling.columns:
            yield t, tiling.tile(t.row, t.column + 1), "x"
        if t.row < tiling.rows:
            yield t, tiling.tile(t.row + 1, t.column), "y"


def check_tiling(board: Size, paper: Size, spec: TileSpec):
    tiling = tile_board(board, paper, spec)
    assert {min(tiling.paper), max(tiling.paper)} == {min(paper), max(paper)}
    assert len(tiling.tiles) == tiling.rows * tiling.columns
    xs = sorted({t.window.x_mm for t in tiling.tiles})
    ys = sorted({t.window.y_mm for t in tiling.tiles})
    # Every board point is covered: the windows start at 0, end at the board's far edges, and
    # each starts inside the one before it.
    assert xs[0] == pytest.approx(0) and ys[0] == pytest.approx(0)
    last = tiling.tile(tiling.rows, tiling.columns).window
    assert last.right_mm == pytest.approx(board.width_mm)
    assert last.bottom_mm == pytest.approx(board.height_mm)
    for t in tiling.tiles:
        w = t.window
        assert w.x_mm >= -1e-9 and w.right_mm <= board.width_mm + 1e-9
        assert w.y_mm >= -1e-9 and w.bottom_mm <= board.height_mm + 1e-9
        # the window sits on the page, inside the minimum margins, at its own size
        p = t.placed
        assert (p.width_mm, p.height_mm) == pytest.approx((w.width_mm, w.height_mm))
        assert p.x_mm >= spec.min_margin_mm - 1e-9
        assert p.y_mm >= spec.min_margin_mm - 1e-9
        assert p.right_mm <= tiling.paper.width_mm - spec.min_margin_mm + 1e-9
        assert p.bottom_mm <= tiling.paper.height_mm - spec.min_margin_mm + 1e-9
        assert t.label == f"row {t.row} / column {t.column}"
    for a, b, axis in neighbours(tiling):
        if axis == "x":
            assert a.window.right_mm - b.window.x_mm == pytest.approx(spec.overlap_mm)
            assert a.window.y_mm == b.window.y_mm
        else:
            assert a.window.bottom_mm - b.window.y_mm == pytest.approx(spec.overlap_mm)
            assert a.window.x_mm == b.window.x_mm
        # the marks of a shared edge are the same board points on both pages, on the band's
        # middle line, and each lands where its page draws that board point
        edge_a, edge_b = ("right", "left") if axis == "x" else ("bottom", "top")
        marks_a = [(m.board_x_mm, m.board_y_mm) for m in a.marks if m.edge == edge_a]
        marks_b = [(m.board_x_mm, m.board_y_mm) for m in b.marks if m.edge == edge_b]
        assert marks_a and len(marks_a) == len(marks_b)
        for point_a, point_b in zip(marks_a, marks_b):
            assert point_a == pytest.approx(point_b)
        middle = (b.window.x_mm if axis == "x" else b.window.y_mm) + spec.overlap_mm / 2
        for point in marks_a:
            assert point[0 if axis == "x" else 1] == pytest.approx(middle)
    for t in tiling.tiles:
        for m in t.marks:
            assert (m.x_mm, m.y_mm) == pytest.approx(t.to_page(m.board_x_mm, m.board_y_mm))
            assert t.placed.x_mm <= m.x_mm <= t.placed.right_mm
            assert t.placed.y_mm <= m.y_mm <= t.placed.bottom_mm
        assert set(t.cuts) == set(t.shared) & {"left", "top"}
    return tiling


@pytest.mark.parametrize("paper, expected", [("letter", (2, 3)), ("a4", (2, 4))])
def test_board_on_home_paper(paper, expected):
    tiling = check_tiling(BOARD, PAPERS[paper], TileSpec())
    assert (tiling.rows, tiling.columns) == expected
    assert tiling.paper.width_mm < tiling.paper.height_mm  # portrait needs fewer pages here


def test_sample_points_are_covered():
    tiling = tile_board(BOARD, PAPERS["letter"])
    for x, y in itertools.product([0, 0.01, 183, 187.9, 279.4, 365.5, 558.79, 558.8],
                                  [0, 215.9, 210.95, 220.9, 431.8]):
        assert any(t.window.x_mm <= x <= t.window.right_mm and
                   t.window.y_mm <= y <= t.window.bottom_mm for t in tiling.tiles), (x, y)


def test_landscape_chosen_when_it_saves_pages():
    tiling = tile_board(Size(500, 190), PAPERS["a4"])
    assert tiling.paper.width_mm > tiling.paper.height_mm
    assert (tiling.rows, tiling.columns) == (1, 2)


def test_board_smaller_than_paper_is_one_tile_without_marks():
    tiling = check_tiling(Size(150, 100), PAPERS["a4"], TileSpec())
    assert len(tiling.tiles) == 1 and tiling.tiles[0].marks == () and tiling.tiles[0].cuts == ()


@pytest.mark.parametrize("length, usable, overlap, expected", [
    (100, 120, 10, [(0, 100)]),
    (190, 100, 10, [(0, 100), (90, 100)]),
    (191, 100, 10, [(0, 70.333), (60.333, 70.333), (120.667, 70.333)]),
])
def test_split(length, usable, overlap, expected):
    assert split(length, usable, overlap) == [pytest.approx(e, abs=1e-3) for e in expected]


def test_split_refuses_an_overlap_wider_than_the_window():
    with pytest.raises(ValueError, match="cannot carry"):
        split(500, 10, 10)


@settings(max_examples=60, deadline=None)
@given(width=st.floats(100, 2000), height=st.floats(100, 2000),
       paper=st.sampled_from(sorted(PAPERS)), overlap=st.floats(3, 30),
       margin=st.floats(5, 20))
def test_any_board_tiles_cleanly(width, height, paper, overlap, margin):
    check_tiling(Size(width, height), PAPERS[paper], TileSpec(overlap, margin))
