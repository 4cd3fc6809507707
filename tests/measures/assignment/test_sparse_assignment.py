"""The exact matching of ε, ε_n, NCA, NPA and PSI on big sparse tables: the compiled sparse
assignment (metrics.core.kernels.compiled.sparse_max_weight_matching) and the union–find components
against scipy's dense assignment and graph components, and a 10^5 × 10^5 table of 10^6 cells
matched exactly (it was refused: over 30,000 classes sharing items)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse
from scipy.optimize import linear_sum_assignment

import metrics
from metrics.core.kernels import counting
from metrics.measures import compiled_matching, matching

compiled = pytest.importorskip("metrics.core.kernels.compiled", reason="numba (the `fast` extra) is not installed")


def sparse_table(rng, n_r, n_c, density, top):
    return rng.integers(1, top + 1, (n_r, n_c)) * (rng.random((n_r, n_c)) < density)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.floats(0.01, 1.0), st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_compiled_sparse_assignment_equals_scipy_s_dense_assignment(n_r, n_c, density, top, seed):
    """Integer weights (few distinct values: many ties) exactly; the same cells' float weights
    (n_ij / a_i, NCA's) to rounding; rectangular tables either way round."""
    rng = np.random.default_rng(seed)
    dense = sparse_table(rng, n_r, n_c, density, top)
    rows, cols = np.nonzero(dense)
    if rows.size == 0:
        return
    r, c = linear_sum_assignment(dense, maximize=True)
    assert compiled_matching.compiled_sparse_matching(rows, cols, dense[rows, cols]) == dense[r, c].sum()
    share = dense / np.maximum(dense.sum(axis=1, keepdims=True), 1)
    r, c = linear_sum_assignment(share, maximize=True)
    assert compiled_matching.compiled_sparse_matching(rows, cols, share[rows, cols]) == pytest.approx(
        share[r, c].sum(), abs=1e-12)


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_rows_that_first_took_a_column_another_row_needs_give_it_up(dtype):
    """Each row first takes its heaviest cell where no row before it took that column: row 0 takes
    column 0 (5 against 4), which row 1 (6 against 1) needs — 6 + 4 beats 5 + 1 — and row 2 takes
    column 1 (3 against 2), which row 0 then needs: the searches must undo both, and the matching
    returned is one (each column once) that weighs what it says. A row of no cells before them
    (its offsets equal: the next row's first cell is not its own) stays unmatched."""
    dense = np.array([[0, 0, 0], [5, 4, 0], [6, 1, 0], [0, 3, 2]], dtype=dtype)
    rows, cols = np.nonzero(dense)
    indptr = np.searchsorted(rows, np.arange(5)).astype(np.int64)
    total, col_of, complete = compiled.sparse_max_weight_matching(indptr, cols.astype(np.int64),
                                                                   dense[rows, cols], 3, 10**6)
    r, c = linear_sum_assignment(dense, maximize=True)
    assert complete and total == dense[r, c].sum() == 12
    assert col_of[0] >= 3 and col_of[1:].tolist() == [1, 0, 2] and total == dense[[1, 2, 3], col_of[1:]].sum()
    # A row of no cells must not take the next row's first cell (its offsets are the next row's): here
    # that column would stay with it, and the matching weigh 5, not 9 (rows 1 and 2 on columns 1 and 0).
    dense = np.array([[0, 0, 0], [5, 5, 0], [4, 0, 0]], dtype=dtype)
    rows, cols = np.nonzero(dense)
    indptr = np.searchsorted(rows, np.arange(4)).astype(np.int64)
    total, col_of, complete = compiled.sparse_max_weight_matching(indptr, cols.astype(np.int64),
                                                                   dense[rows, cols], 3, 10**6)
    assert complete and total == 9 and col_of[0] >= 3 and col_of[1:].tolist() == [1, 0]


@pytest.mark.parametrize("seed", range(3))
def test_an_entity_resolution_like_table_s_matching_equals_scipy_s(seed):
    """Most classes' heaviest cell in a cluster of its own, some pairs merged into one cluster, noise
    of one item: what the first pass of heaviest cells leaves to the searches (int and NCA's floats)."""
    rng = np.random.default_rng(seed)
    n = 300
    dense = np.zeros((n, n + 40), dtype=np.int64)
    home = rng.permutation(n + 40)[:n]
    merged = rng.choice(n, 30, replace=False)
    home[merged] = home[rng.choice(n, 30)]
    dense[np.arange(n), home] = rng.integers(2, 50, n)
    noise = rng.integers(0, n, 2 * n), rng.integers(0, n + 40, 2 * n)
    np.add.at(dense, noise, 1)
    rows, cols = np.nonzero(dense)
    r, c = linear_sum_assignment(dense, maximize=True)
    assert compiled_matching.compiled_sparse_matching(rows, cols, dense[rows, cols]) == dense[r, c].sum()
    share = dense / dense.sum(axis=1, keepdims=True)
    r, c = linear_sum_assignment(share, maximize=True)
    assert compiled_matching.compiled_sparse_matching(rows, cols, share[rows, cols]) == pytest.approx(
        share[r, c].sum(), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 60), st.integers(1, 60), st.floats(0.005, 0.2), st.integers(0, 2**32 - 1),
       st.booleans(), st.integers(-1, 59))
def test_compiled_components_equal_scipy_s(n_r, n_c, density, seed, shuffled, full_row):
    """The union–find components: the same partition of the cells, and per component the same
    classes, clusters, largest cell and number of cells, as scipy's connected_components —
    cells in row-major order (a table's) or shuffled (the row carried from cell to cell must
    not be trusted across a change of row). ``full_row``: that row holds a cell in every
    cluster, so that from it on every cluster is in one set and the later classes' cells are
    skipped but their first (the compiled kernel's second loop), empty classes after it or not."""
    rng = np.random.default_rng(seed)
    dense = sparse_table(rng, n_r, n_c, density, 9)
    if 0 <= full_row < n_r:
        dense[full_row] = rng.integers(1, 9, n_c)
    rows, cols = np.nonzero(dense)
    if rows.size == 0:
        return
    if shuffled:
        order = rng.permutation(rows.size)
        rows, cols = rows[order], cols[order]
    fast = matching._component_structure(rows, cols, dense[rows, cols], n_r, n_c)
    counting.FORCE_KERNEL = "numpy"
    try:
        plain = matching._component_structure(rows, cols, dense[rows, cols], n_r, n_c)
    finally:
        counting.FORCE_KERNEL = None
    fast_cells, plain_cells = fast.of_cells(rows), plain.of_cells(rows)
    to_plain = dict(zip(fast_cells.tolist(), plain_cells.tolist()))
    assert len(to_plain) == len(set(plain_cells.tolist())) == fast.star.size
    assert [to_plain[c] for c in fast_cells.tolist()] == plain_cells.tolist()
    order = np.array([to_plain[c] for c in range(fast.star.size)])
    for x, y in zip(fast[1:], plain[1:]):
        np.testing.assert_array_equal(x, y[order])


@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (7, 1), (5, 5), (40, 3)])
def test_components_of_a_connected_table(shape):
    """A table whose every class and cluster ends in one component stops the union pass early
    (the compiled path): one component holding every cell, its largest cell found past the
    cell that connected everything."""
    n_r, n_c = shape
    rows = np.repeat(np.arange(n_r), n_c)
    cols = np.tile(np.arange(n_c), n_r)
    vals = np.ones(rows.size, dtype=np.int64)
    vals[-1] = 7   # after the stop: the last cell closes nothing, yet is the largest
    parts = matching._component_structure(rows, cols, vals, n_r, n_c)
    assert parts.star.size == 1 and parts.cells.tolist() == [rows.size] and parts.best.tolist() == [7]
    assert parts.size.tolist() == [min(n_r, n_c)] and set(parts.of_row.tolist()) == {0}


@pytest.mark.parametrize("seed", [0, 1])
def test_sparse_and_scipy_paths_give_the_same_epsilon(seed):
    """A table beyond the dense assignment's size (1500 × 1500) with components of every kind:
    the compiled solver and scipy's component-by-component path give the same ε, ε_n, NPA exactly
    and NCA, PSI to rounding."""
    rng = np.random.default_rng(seed)
    n = 20_000
    gold = rng.integers(0, 1500, n)
    pred = np.where(rng.random(n) < 0.8, gold, rng.integers(0, 1500, n))
    t = metrics.Contingency.from_labels(gold, pred)
    assert t.shape[0] * t.shape[1] > matching._DENSE_MATCHING_CELLS
    keys = ["classification_error", "epsilon_n", "npa", "nca", "psi"]
    fast = metrics.evaluate(t, keys)
    counting.FORCE_KERNEL = "numpy"
    try:
        plain = metrics.evaluate(metrics.Contingency.from_labels(gold, pred), keys)
    finally:
        counting.FORCE_KERNEL = None
    for key in keys[:3]:
        assert fast[key] == plain[key], key
    for key in keys[3:]:
        assert fast[key] == pytest.approx(plain[key], abs=1e-12), key


@pytest.mark.parametrize("kernel", [None, "numpy"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_nca_and_psi_reuse_the_table_s_components_with_their_own_largest_cells(seed, kernel):
    """NCA's and PSI's sparse matchings read the table's memoised components (ε's), each star's
    largest cell taken by their own weights: the same value, to the last bit, as components
    computed afresh from those weights. Stars (a class or a cluster alone: most components
    here) hold a largest count that is not their largest weight, so reusing ε's stars as they
    are fails this."""
    from metrics.measures.normalised_matching import _share_of_class, _share_of_larger, max_weight_matching

    rng = np.random.default_rng(seed)
    n = 30_000
    gold = rng.integers(0, 3000, n)
    pred = np.where(rng.random(n) < 0.9, gold // 2, rng.integers(0, 3000, n))  # pairs of classes merged
    counting.FORCE_KERNEL = kernel
    try:
        t = metrics.Contingency.from_labels(gold, pred)
        assert t.shape[0] * t.shape[1] > matching._DENSE_MATCHING_CELLS
        parts = t.memo("matching_components", matching.matching_components)
        assert parts.star.sum() > 10 and (~parts.star).sum() > 0
        rows, cols = t.rows, t.cols
        for weight in (_share_of_class, _share_of_larger):
            w = weight(t.values.astype(np.float64), t.row_sums[rows].astype(np.float64),
                       t.col_sums[cols].astype(np.float64))
            afresh = matching._sparse_matching(rows, cols, w, *t.shape)
            assert max_weight_matching(t, weight) == afresh
            stale = parts._replace(best=parts.best.astype(np.float64))  # the counts' largest, not the weights'
            assert matching._sparse_matching(rows, cols, w, *t.shape, stale) != afresh
        # One gather of the cells' components, kept by the table, served both weights and then ε.
        comp = t.__dict__["_memo"]["matching_cell_components"]
        assert np.array_equal(comp, parts.of_cells(rows))
        fresh = metrics.Contingency.from_labels(gold, pred)
        assert metrics.evaluate(t, ["epsilon_n"]) == metrics.evaluate(fresh, ["epsilon_n"])
        assert t.__dict__["_memo"]["matching_cell_components"] is comp
    finally:
        counting.FORCE_KERNEL = None


def test_a_hundred_thousand_classes_and_clusters_are_matched_exactly():
    """10^5 classes × 10^5 clusters, 10^6 non-zero cells in one component: a planted one-to-one
    matching of cells 20–30 and noise cells 1–19. Every noise cell of a matching displaces its
    row's planted cell, which is larger, so the planted cells are the best matching: ε is known
    exactly. (Before, ε was refused here: more than 30,000 classes and clusters sharing items.)"""
    rng = np.random.default_rng(3)
    k = 10**5
    perm = rng.permutation(k)
    noise_r, noise_c = rng.integers(0, k, 9 * 10**5), rng.integers(0, k, 9 * 10**5)
    keep = noise_c != perm[noise_r]
    planted = rng.integers(20, 31, k)
    rows = np.concatenate([np.arange(k), noise_r[keep]])
    cols = np.concatenate([perm, noise_c[keep]])
    vals = np.concatenate([planted, rng.integers(1, 20, int(keep.sum()))])
    t = metrics.Contingency.from_table(sparse.coo_matrix((vals, (rows, cols)), shape=(k, k)).tocsr())
    assert t.n_cells > 9 * 10**5
    parts = t.memo("matching_components", matching.matching_components)
    assert parts.size[~parts.star].max() > 90_000  # one giant component: no shortcut
    assert metrics.MEASURES["classification_error"].why_not(t) is None
    values = metrics.evaluate(t, ["classification_error", "epsilon_n"])
    expected = 1.0 - int(planted.sum()) / t.n
    assert values["classification_error"] == pytest.approx(expected, rel=0, abs=1e-15)
    assert values["epsilon_n"] == pytest.approx(expected / (1.0 - 1.0 / k), rel=0, abs=1e-15)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 300), min_size=1, max_size=400), st.integers(0, 2**32 - 1))
def test_renumbering_and_csr_order_equal_unique_and_a_stable_argsort(values, seed):
    """The sparse matching's renumbering by counts and its counting-sort CSR order: the same as
    np.unique(return_inverse=True) and argsort(kind="stable") with its bincount pointer, for
    sorted and shuffled indices with gaps."""
    index = np.array(values, dtype=np.int64)
    if seed % 2:
        index.sort()
    size, ranks = compiled_matching.used_ranks(index)
    ids, inverse = np.unique(index, return_inverse=True)
    assert size == ids.size
    np.testing.assert_array_equal(ranks, inverse)
    order, indptr = compiled.csr_order(ranks, size)
    np.testing.assert_array_equal(order, np.argsort(ranks, kind="stable"))
    np.testing.assert_array_equal(indptr, np.concatenate([[0], np.cumsum(np.bincount(ranks, minlength=size))]))
