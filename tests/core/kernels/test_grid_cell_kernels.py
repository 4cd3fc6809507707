"""The grid's cell sums in parts (issue 26, item 3): the squares, maxima and F of
:func:`grid_square_sums` (vectorised loops) exactly as the per-cell formulas give them; the
conditional-entropy sums from the cell histogram (:func:`conditional_sum_from_histogram`, no pass
over the cells) and from :func:`grid_log_sums` against the per-cell terms and mpmath."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from metrics.core.stats import conditional_sum_from_histogram, x_log_ratio

pytest.importorskip("numba")
from metrics.core.kernels import cell_stats


def _full(grid):
    """Drop empty rows and columns (a table keeps none)."""
    grid = grid[grid.sum(axis=1) > 0]
    return np.ascontiguousarray(grid[:, grid.sum(axis=0) > 0], dtype=np.int64)


grids = hnp.arrays(np.int64, st.tuples(st.integers(1, 12), st.integers(1, 40)),
                   elements=st.one_of(st.integers(0, 3), st.integers(0, 5000), st.just(0))).map(_full).filter(
    lambda g: g.size > 0)


def _per_cell(grid):
    a, b = grid.sum(axis=1), grid.sum(axis=0)
    return (float(np.sum(x_log_ratio(grid, b[None, :]))), float(np.sum(x_log_ratio(grid, a[:, None]))))


@settings(max_examples=200, deadline=None)
@given(grids)
def test_square_sums_maxima_and_f_are_the_per_cell_formulas(grid):
    a, b = grid.sum(axis=1), grid.sum(axis=0)
    row_sq, row_le, col_sq, col_gt, best_f = cell_stats.grid_square_sums(grid, a, b)
    row_top, col_top = cell_stats.grid_line_maxima(grid)
    sq = grid.astype(np.float64) ** 2
    larger_b = b[None, :] > a[:, None]
    np.testing.assert_array_equal(row_sq, sq.sum(axis=1))
    np.testing.assert_array_equal(col_sq, sq.sum(axis=0))
    np.testing.assert_array_equal(row_le, np.where(larger_b, 0.0, sq).sum(axis=1))
    np.testing.assert_array_equal(col_gt, np.where(larger_b, sq, 0.0).sum(axis=0))
    np.testing.assert_array_equal(row_top, grid.max(axis=1))
    np.testing.assert_array_equal(col_top, grid.max(axis=0))
    # F to the last bit: the max of fl(2x / (a_i + b_j)) per row, as the numpy walk computes it.
    np.testing.assert_array_equal(best_f, (2.0 * grid / (a[:, None] + b[None, :]).astype(np.float64)).max(axis=1))


@settings(max_examples=200, deadline=None)
@given(grids)
def test_conditional_sums_from_histogram_and_from_the_log_pass(grid):
    a, b = grid.sum(axis=1), grid.sum(axis=0)
    by_col, by_row = _per_cell(grid)
    hist = np.bincount(grid.reshape(-1))
    from_hist = (conditional_sum_from_histogram(hist, b, grid.max(axis=0)),
                 conditional_sum_from_histogram(hist, a, grid.max(axis=1)))
    logs = cell_stats.log_table()
    from_pass = cell_stats.grid_log_sums(grid, a, b, grid.max(axis=1), grid.max(axis=0), logs)
    for got in (from_hist, from_pass):
        assert got[0] == pytest.approx(by_col, rel=1e-13, abs=1e-12)
        assert got[1] == pytest.approx(by_row, rel=1e-13, abs=1e-12)


def _exact(grid):
    g = [[mpmath.mpf(int(x)) for x in row] for row in grid]
    a = [sum(r) for r in g]
    b = [sum(c) for c in zip(*g)]
    by_col = sum(x * mpmath.log(b[j] / x) for r in g for j, x in enumerate(r) if x > 0)
    by_row = sum(x * mpmath.log(a[i] / x) for i, r in enumerate(g) for x in r if x > 0)
    return float(by_col), float(by_row)


@pytest.mark.parametrize("case", ["near-perfect with strays", "half the mass in one cell", "all cells alike"])
def test_histogram_sums_keep_their_precision(case):
    """Against mpmath: a near-perfect table (the strays' few terms beside diagonal cells that hold
    nearly everything — taking the diagonal's terms out of a float total would leave no correct
    digit), cells just past half their row and column, and a table of equal cells."""
    rng = np.random.default_rng(3)
    if case == "near-perfect with strays":
        grid = np.zeros((60, 60), dtype=np.int64)
        grid[np.arange(60), np.arange(60)] = 4000
        grid[rng.integers(0, 60, 15), rng.integers(0, 60, 15)] += 3
    elif case == "half the mass in one cell":
        grid = rng.integers(0, 4, (50, 50))
        grid[np.arange(50), np.arange(50)] = grid.sum(axis=1) + 1
    else:
        grid = np.full((40, 70), 7, dtype=np.int64)
    grid = _full(grid)
    a, b = grid.sum(axis=1), grid.sum(axis=0)
    hist = np.bincount(grid.reshape(-1))
    exact = _exact(grid)
    got = (conditional_sum_from_histogram(hist, b, grid.max(axis=0)),
           conditional_sum_from_histogram(hist, a, grid.max(axis=1)))
    for value, truth in zip(got, exact):
        assert value == pytest.approx(truth, rel=1e-13, abs=0)


def test_composed_grid_cell_sums_equal_the_parts():
    rng = np.random.default_rng(1)
    grid = _full(rng.integers(0, 9000, (70, 90)))
    a, b = grid.sum(axis=1), grid.sum(axis=0)
    whole = cell_stats.grid_cell_sums(grid, a, b, cell_stats.log_table())
    squares = cell_stats.grid_square_sums(grid, a, b)
    logs = cell_stats.grid_log_sums(grid, a, b, grid.max(axis=1), grid.max(axis=0), cell_stats.log_table())
    assert whole[:2] == logs
    for got, part in zip(whole[2:], squares, strict=True):
        np.testing.assert_array_equal(got, part)


@settings(max_examples=150, deadline=None)
@given(grids, st.booleans(), st.randoms(use_true_random=False))
def test_coordinate_kernels_give_the_grid_sums_in_any_cell_order(grid, fractional, random):
    """coo_square_sums and coo_log_sums over a grid's non-zero cells, shuffled, and over masses:
    the grid kernels' sums (the squares to rounding only where cells are masses)."""
    a, b = grid.sum(axis=1), grid.sum(axis=0)
    rows, cols = np.nonzero(grid)
    order = list(range(rows.size))
    random.shuffle(order)
    rows, cols = rows[order].astype(np.int64), cols[order].astype(np.int64)
    vals = grid[rows, cols]
    logs = cell_stats.log_table()
    if fractional:
        vals, a, b, logs = vals / 8.0, a / 8.0, b / 8.0, np.empty(0)  # exact scaling: same sums / 8 (/64)
    squares = cell_stats.coo_square_sums(rows, cols, vals, a, b)
    expected = cell_stats.grid_square_sums(grid, grid.sum(axis=1), grid.sum(axis=0))
    scale = (64.0, 64.0, 64.0, 64.0, 1.0) if fractional else (1.0,) * 5
    for got, want, s in zip(squares, expected, scale):
        np.testing.assert_allclose(got * s, want, rtol=1e-15, atol=0)
    by_col, by_row = _per_cell(grid)
    got = cell_stats.coo_log_sums(rows, cols, vals, a, b, logs)
    per_item = 8.0 if fractional else 1.0
    assert got[0] * per_item == pytest.approx(by_col, rel=1e-13, abs=1e-12)
    assert got[1] * per_item == pytest.approx(by_row, rel=1e-13, abs=1e-12)


def test_histogram_sums_beat_a_running_sum_over_a_million_cells():
    """The histogram form of n·H(C|K) over 10^6 random cells against math.fsum of the per-cell
    terms: a few ulps, where one running sum over the cells drifts by ~10^-12."""
    import math

    rng = np.random.default_rng(26)
    cols = rng.integers(0, 10**5, 10**6)
    vals = rng.integers(1, 5, 10**6)
    b = np.bincount(cols, weights=vals, minlength=10**5).astype(np.int64)
    top = np.zeros(10**5, dtype=np.int64)
    np.maximum.at(top, cols, vals)
    keep = b > 0
    # columns only: the sum is over the listed cells, whatever rows they would sit in
    exact = math.fsum(x_log_ratio(vals, b[cols]).tolist())
    got = conditional_sum_from_histogram(np.bincount(vals), b[keep], top[keep])
    assert got == pytest.approx(exact, rel=1e-14, abs=0)


def test_squares_by_side_do_not_cancel_past_two_to_the_53():
    """A row whose big cell lies in a larger column and whose small one does not: Σ x² over the
    small side is 9, which r_sq − Σ_gt x² would round to 0 (2^80 + 9 is 2^80 in float64)."""
    grid = np.array([[2**40, 3], [5, 0]], dtype=np.int64)
    a, b = grid.sum(axis=1), grid.sum(axis=0)
    _, row_le, _, col_gt, *_ = cell_stats.grid_square_sums(grid, a, b)
    assert row_le.tolist() == [9.0, 0.0] and col_gt.tolist() == [float(2**80 + 25), 0.0]
    rows, cols = np.nonzero(grid)
    assert cell_stats.coo_square_sums(rows, cols, grid[rows, cols], a, b)[1].tolist() == [9.0, 0.0]
