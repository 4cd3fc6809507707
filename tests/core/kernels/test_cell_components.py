"""The components of the class–cluster graph (``compiled.cell_components``): what a table lets the
caller tell the kernel — every row has a cell, its largest cell — changes no output, and the
components are those of scipy's ``connected_components``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse
from scipy.sparse.csgraph import connected_components

import metrics
from metrics.core.kernels import compiled
from metrics.measures import matching


def _components(rows, cols, vals, n_r, n_c, every_row, top, indptr=None):
    empty = np.empty(0, dtype=np.int64)
    return compiled.cell_components(empty if indptr is not None else rows, cols, vals, n_r, n_c, every_row,
                                    vals[:0] if top is None else np.array([top], dtype=vals.dtype),
                                    indptr)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 60), st.integers(1, 60), st.integers(1, 400), st.booleans(), st.integers(0, 2**32 - 1))
def test_what_the_table_tells_changes_nothing(n_r, n_c, n, shuffled, seed):
    rng = np.random.default_rng(seed)
    t = metrics.Contingency.from_labels(rng.integers(0, n_r, n), rng.integers(0, n_c, n))
    rows, cols, vals = t.rows.astype(np.int64), t.cols.astype(np.int64), t.values
    if shuffled:  # the kernel must not rely on row-major order
        order = rng.permutation(rows.size)
        rows, cols, vals = rows[order], cols[order], vals[order]
    plain = _components(rows, cols, vals, *t.shape, False, None)
    told = _components(rows, cols, vals, *t.shape, True, vals.max())
    for x, y in zip(plain, told, strict=True):
        np.testing.assert_array_equal(x, y)
    if not shuffled:  # the cells' offsets by row for the rows (a count's): the same components
        offsets = np.searchsorted(rows, np.arange(t.shape[0] + 1))
        for every_row, top in ((False, None), (True, vals.max())):
            by_offsets = _components(None, cols, vals, *t.shape, every_row, top, offsets)
            for x, y in zip(plain, by_offsets, strict=True):
                np.testing.assert_array_equal(x, y)
    # Against scipy: the same partition of the rows, and per component its size and best cell.
    graph = sparse.coo_matrix((np.ones(rows.size), (rows, t.shape[0] + cols)), shape=(sum(t.shape),) * 2)
    n_comp, label = connected_components(graph, directed=False)
    of_row, comp_rows, comp_cols, best, cells = plain
    assert comp_rows.size == n_comp
    relabel = {}
    for i in range(t.shape[0]):
        assert relabel.setdefault(label[i], of_row[i]) == of_row[i]
    want_cells = np.bincount([relabel[label[r]] for r in rows], minlength=n_comp)
    np.testing.assert_array_equal(cells, want_cells)
    np.testing.assert_array_equal(comp_rows, np.bincount(of_row, minlength=n_comp))
    col_comp = [relabel[label[t.shape[0] + j]] for j in range(t.shape[1])]
    np.testing.assert_array_equal(comp_cols, np.bincount(col_comp, minlength=n_comp))
    want_best = np.zeros(n_comp, dtype=vals.dtype)
    np.maximum.at(want_best, of_row[rows], vals)
    np.testing.assert_array_equal(best, want_best)


def test_a_counted_table_tells_its_largest_cell_and_full_rows():
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 3000, 40_000), rng.integers(0, 3000, 40_000)
    t = metrics.Contingency.from_labels(np.concatenate([a, a[:50]]), np.concatenate([b, b[:50]]))
    parts = matching.matching_components(t)
    plain = matching._component_structure(t.rows, t.cols, t.values, *t.shape)
    for x, y in zip(parts, plain, strict=True):
        np.testing.assert_array_equal(x, y)
    assert parts.best.max() == t.values.max() >= 2


@pytest.mark.parametrize("top", [None, 7])
def test_one_component_takes_the_given_top(top):
    rows, cols, vals = np.array([0, 0, 1]), np.array([0, 1, 1]), np.array([3, 7, 2])
    best = _components(rows, cols, vals, 2, 2, True, top)[3]
    assert best.tolist() == [7]
