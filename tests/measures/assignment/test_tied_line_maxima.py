"""The lines' best counts that tie (metrics.core.kernels.line_maxima.best_cells_match): where no
line's best cell is its own but the tied best cells hold a matching of every line, the sum of the
lines' maxima is the optimum of ε's counts and of NCA's n_ij / a_i by rows. Checked against
scipy's assignment on random grids of few distinct counts in both orientations, and the gathered
cells against numpy's; through the measures with every solver refused in test_line_maxima.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from metrics.core.kernels import counting

line_maxima = pytest.importorskip("metrics.core.kernels.line_maxima",
                                  reason="numba (the `fast` extra) is not installed")


def scipy_optimum(w: np.ndarray) -> float:
    r, c = linear_sum_assignment(w, maximize=True)
    return float(np.sort(w[r, c]).sum())


def count_cells(grid: np.ndarray):
    return line_maxima.line_best_cells(grid, grid.sum(axis=1), grid.sum(axis=0), line_maxima.COUNT)


@settings(max_examples=400, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 4), st.integers(0, 2**32 - 1))
def test_a_matching_of_the_tied_best_cells_is_the_optimum(n_r, n_c, top, seed):
    """Grids of counts 0 … top (ties everywhere, and often no matching of the best cells): when
    the tied best cells match every line, the lines' maxima sum to scipy's optimum of the counts
    (exactly, an int) and, by rows, of n_ij / a_i (to the bit: the same weights summed sorted).
    Whenever the maxima sum to more than scipy's optimum, no such matching may be claimed."""
    rng = np.random.default_rng(seed)
    grid = rng.integers(0, top + 1, (n_r, n_c))
    grid = grid[grid.sum(axis=1) > 0][:, grid.sum(axis=0) > 0]  # a table keeps no empty line
    if grid.size == 0:
        return
    cells = count_cells(grid)
    matched = line_maxima.best_cells_match(grid, cells)
    optimum = int(scipy_optimum(grid.astype(float)))
    bound = int(cells[0].sum())
    if bound > optimum:
        assert not matched
    if not matched:
        assert line_maxima.by_line_maxima(grid, grid.sum(axis=1), cells, line_maxima.COUNT) is None or cells[2]
        return
    value = line_maxima.by_line_maxima(grid, grid.sum(axis=1), cells, line_maxima.COUNT, True)
    assert type(value) is int and value == optimum == bound
    if cells[3]:  # by rows: NCA's weights have their best cells where the counts do
        a = grid.sum(axis=1).astype(np.float64)[:, None]
        nca = line_maxima.by_line_maxima(grid, grid.sum(axis=1), cells, line_maxima.SHARE_OF_CLASS, True)
        assert nca == scipy_optimum(grid / a)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.integers(0, 3), st.sampled_from([np.int64, np.int32, np.uint8]),
       st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_the_gathered_cells_are_the_lines_best(n_r, n_c, top, dtype, per_row, seed):
    """Every gathered cell holds its line's largest count; by columns every such cell is there;
    by rows, a row with at most ``per_row`` of them gives all, one with more exactly ``per_row``,
    each once; the count of them all comes before that limit."""
    rng = np.random.default_rng(seed)
    grid = rng.integers(0, top + 1, (n_r, n_c)).astype(dtype)
    by_row = n_r <= n_c
    lines = grid if by_row else grid.T
    best = lines.max(axis=1)
    ptr, across, total = line_maxima.tied_best_cells(grid, best, by_row, per_row)
    assert ptr.size == lines.shape[0] + 1
    assert total == int(((lines == best[:, None]) & (best[:, None] > 0)).sum())  # before the limit
    for q in range(lines.shape[0]):
        got = across[ptr[q]:ptr[q + 1]]
        want = np.flatnonzero((lines[q] == best[q]) & (best[q] > 0))
        assert np.unique(got).size == got.size and np.isin(got, want).all()
        assert got.size == (min(want.size, per_row) if by_row else want.size)


def test_the_rows_pick_their_tied_cells_across_the_whole_row():
    """A 1000 × 1000 grid of counts 0–19 (about 50 tied best cells a row, 16 taken): the rows'
    picks reach nearly every column, and the tied cells match every row on each of 20 such grids.
    Taken from the start of each row they would not."""
    counting.load_compiled()
    for seed in range(20):
        grid = np.random.default_rng(seed).integers(0, 20, (1000, 1000))
        cells = count_cells(grid)
        assert not cells[2]  # the rows' first best cells collide: only the ties can certify
        assert line_maxima.best_cells_match(grid, cells), seed
    ptr, across, _ = line_maxima.tied_best_cells(grid, cells[0].astype(grid.dtype), True, 16)
    assert np.all(np.diff(ptr) == 16)
    assert np.unique(across).size > 990


def test_counts_past_2_to_the_53_are_not_tried():
    """The maxima are floats: past 2^53 a row's maximum may round onto a smaller count, whose cell
    would be taken for a best one. Such grids go to the solvers."""
    grid = np.full((3, 3), 2**53, dtype=np.int64)
    grid[0, 0] += 1  # rounds to 2^53 as a float: the other cells of row 0 would look tied
    cells = count_cells(grid)
    assert not line_maxima.best_cells_match(grid, cells)
    assert line_maxima.best_cells_match(grid - 2**53 + 5, count_cells(grid - 2**53 + 5))
