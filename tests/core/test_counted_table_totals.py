"""A table counted from labels keeps what the count found (class sizes, the cells' histogram):
its total and smallest cell are read from them, not from a pass over its cells — and equal what
that pass gives, for every kernel and kind of table."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics
from metrics.core.kernels import counting


@pytest.fixture(params=["numba", "numpy"])
def kernel(request, monkeypatch):
    monkeypatch.setattr(counting, "FORCE_KERNEL", request.param)
    return request.param


def _fresh_view(t):
    """The same cells without anything the count kept."""
    return metrics.Contingency(t.rows, t.cols, t.values, t.row_labels, t.col_labels)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3000), st.integers(1, 400), st.integers(1, 400), st.integers(0, 3), st.integers(0, 2**32 - 1))
def test_total_and_smallest_cell_of_counted_tables(n, k_true, k_pred, repeats, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, k_true, n), rng.integers(0, k_pred, n)
    if repeats:  # some cells of several items, so the smallest cell is not always 1
        a, b = np.repeat(a, repeats + 1), np.repeat(b, repeats + 1)
    for force in ("numba", "numpy"):
        counting.FORCE_KERNEL = force
        try:
            t = metrics.Contingency.from_labels(a, b)
        finally:
            counting.FORCE_KERNEL = None
        plain = _fresh_view(t)
        assert t.n == plain.n == a.size and type(t.n) is int
        assert t.min_cell == plain.min_cell == int(plain.values.min() if t.grid is None else t.grid[t.grid > 0].min())


def test_a_sparse_count_reads_its_kept_histogram(kernel):
    """10^4 classes and clusters from 2·10^4 labels: the sparse count; with the compiled kernel the
    histogram it kept answers the smallest cell (every cell of 2 items or more here)."""
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 10**4, 10**4), rng.integers(0, 10**4, 10**4)
    t = metrics.Contingency.from_labels(np.repeat(a, 2), np.repeat(b, 2))
    assert t.grid is None
    if kernel == "numba":
        assert t.__dict__.get("_cell_histogram") is not None
    assert t.min_cell == 2 == int(t.values.min())
    assert t.n == 2 * 10**4 == int(t.values.sum())


def test_fractional_tables_still_sum_their_cells():
    t = metrics.Contingency.from_table(np.array([[0.1, 0.2], [0.3, 0.0]]))
    assert t.n == pytest.approx(0.6)
    assert t.min_cell == 0.1
