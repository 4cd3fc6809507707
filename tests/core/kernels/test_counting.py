"""The counting kernels (metrics/core/kernels/counting.py, metrics/core/kernels/compiled.py).

* the compiled (numba) and the pure-numpy kernels give identical count grids, and both
  equal an independent count (collections.Counter over the label pairs), for every
  integer dtype, for labels that make the compiled kernel's guessed grid grow, for
  negative, huge and unsigned-64 labels;
* a table counted from labels equals, cell by cell and in every measure, the same table
  built by each kernel, and the grid-backed and coordinate forms agree;
* the compiled pass over a big grid's cells gives BCubed, the element-centric similarity
  and F of the block-by-block walk and of the formulas on the dense array, and the compiled
  summary of a big grid (marginals, maxima, cell histogram) equals numpy's reductions;
* the Jonker–Volgenant kernel finds scipy's maximum matching mass;
* the core imports and counts without numba; int32 labels are not widened in memory;
  a call never allocates per possible cell beyond what the table needs.
"""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import sparse
from scipy.optimize import linear_sum_assignment

import metrics
import metrics.core.stats as stats_module
from metrics.core.contingency import Contingency
from metrics.core.kernels import counting

numba_kernels = pytest.importorskip("metrics.core.kernels.compiled", reason="numba (the `fast` extra) is not installed")

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.bool_]


@pytest.fixture
def kernel(request):
    """Run a test with one kernel forced, then restore automatic choice."""
    counting.FORCE_KERNEL = request.param
    yield request.param
    counting.FORCE_KERNEL = None


def counter_grid(a, b, shape):
    grid = np.zeros(shape, dtype=np.int64)
    for (x, y), c in Counter(zip(a.tolist(), b.tolist())).items():
        grid[int(x), int(y)] = c
    return grid


def both_kernels(fn, *args):
    out = {}
    for name in counting.KERNELS:
        counting.FORCE_KERNEL = name
        try:
            out[name] = fn(*args)
        finally:
            counting.FORCE_KERNEL = None
    return out["numba"], out["numpy"]


label_arrays = st.sampled_from(INT_DTYPES).flatmap(
    lambda dt: st.integers(1, 300).flatmap(
        lambda n: st.tuples(
            hnp.arrays(dt, n, elements=st.integers(0, 1 if dt == np.bool_ else 40).map(
                lambda v: bool(v) if dt == np.bool_ else v)),
            hnp.arrays(dt, n, elements=st.integers(0, 1 if dt == np.bool_ else 40).map(
                lambda v: bool(v) if dt == np.bool_ else v)))))


@settings(max_examples=100, deadline=None)
@given(label_arrays)
def test_kernels_count_identical_grids(pair):
    a, b = pair
    shape = (int(a.max()) + 1, int(b.max()) + 1)
    expected = counter_grid(a, b, shape)
    fast, plain = both_kernels(counting.count_grid, a, b, *shape)
    np.testing.assert_array_equal(fast, expected)
    np.testing.assert_array_equal(plain, expected)
    fast, plain = both_kernels(counting.count_grid_guessing, a, b, 10**6, 10**6)
    np.testing.assert_array_equal(fast, expected)
    np.testing.assert_array_equal(plain, expected)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 3), st.integers(1, 5000), st.integers(0, 2**31))
def test_guessed_grid_grows_when_later_labels_are_larger(order, n, seed):
    """The compiled kernel guesses the grid from a prefix of the labels: sorted labels,
    or one large label at the very end, make it stop, measure the rest and grow."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 60, n)
    b = rng.integers(0, 60, n)
    if order == 0:
        a.sort()
    elif order == 1:
        a[-1] = 300
    elif order == 2:
        b[-1] = 500
    big = np.concatenate([np.zeros(counting._GUESS_PREFIX, dtype=np.int64), a])
    other = np.concatenate([np.zeros(counting._GUESS_PREFIX, dtype=np.int64), b])
    expected = counter_grid(big, other, (int(big.max()) + 1, int(other.max()) + 1))
    for name in counting.KERNELS:
        counting.FORCE_KERNEL = name
        try:
            got = counting.count_grid_guessing(big, other, 10**7, 10**7)
        finally:
            counting.FORCE_KERNEL = None
        np.testing.assert_array_equal(got, expected, err_msg=name)


@pytest.mark.parametrize("kernel", counting.KERNELS, indirect=True)
def test_guessing_reports_bounds_it_cannot_grid(kernel):
    n = 5000
    a = np.arange(n) % 7
    b = np.arange(n) % 5
    assert isinstance(counting.count_grid_guessing(a, b, 10**6, 10**6), np.ndarray)
    late_negative = a.copy()
    late_negative[-1] = -3
    lo_a, hi_a, lo_b, hi_b = counting.count_grid_guessing(late_negative, b, 10**6, 10**6)
    assert lo_a == -3 and hi_a == 6 and (lo_b, hi_b)[1] == 4
    too_big = a.copy()
    too_big[-1] = 10**6
    assert counting.count_grid_guessing(too_big, b, 10**6, 2 * n + 1024)[1] == 10**6
    wide = np.arange(n)
    assert not isinstance(counting.count_grid_guessing(wide, wide, 10**6, 10**7), np.ndarray)


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 400), st.integers(0, 2**31), st.sampled_from(["compact", "sparse", "negative", "mixed"]))
def test_tables_from_labels_agree_across_kernels(n, seed, kind):
    rng = np.random.default_rng(seed)
    if kind == "compact":
        a, b = rng.integers(0, 12, n).astype(np.int32), rng.integers(0, 9, n).astype(np.uint16)
    elif kind == "sparse":  # labels up to 2n + 1000: own codes, but too many cells for a grid
        a, b = rng.integers(0, 2 * n + 1000, n), rng.integers(0, 2 * n + 1000, n)
    elif kind == "negative":
        a, b = rng.integers(-5, 5, n), rng.integers(0, 4, n).astype(np.int8)
    else:
        a, b = rng.integers(0, 6, n), np.array([f"k{v}" for v in rng.integers(0, 6, n)], dtype=object)
    fast, plain = both_kernels(Contingency.from_labels, a, b)
    for t in (fast, plain):
        pairs = Counter(zip(a.tolist(), b.tolist()))
        cells = {(t.row_labels[r], t.col_labels[c]): int(v) for r, c, v in zip(t.rows, t.cols, t.values)}
        assert cells == dict(pairs)
    assert list(fast.row_labels) == list(plain.row_labels) and list(fast.col_labels) == list(plain.col_labels)
    np.testing.assert_array_equal(fast.to_dense(), plain.to_dense())
    assert metrics.evaluate(fast) == metrics.evaluate(plain)


def test_grid_and_coordinate_forms_give_the_same_measures():
    """A table counted from labels (kept as a grid) and the same table from its cells
    (coordinates): every shared quantity equal, every measure to rounding. (Every constructor
    stores a table this full as a grid; the coordinate form, which sparse tables use, is
    built here directly.)"""
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, 40, 20_000), rng.integers(0, 30, 20_000)
    grid_table = Contingency.from_labels(a, b)
    assert grid_table.grid is not None
    dense = grid_table.to_dense()
    rows, cols = np.nonzero(dense)
    coo_table = Contingency(rows, cols, dense[rows, cols], np.arange(dense.shape[0], dtype=object),
                            np.arange(dense.shape[1], dtype=object))
    assert coo_table.grid is None
    for name in ("n", "pair_sums", "row_max_sum", "col_max_sum", "n_cells", "min_cell", "max_class_size"):
        assert getattr(grid_table, name) == getattr(coo_table, name), name
    np.testing.assert_array_equal(grid_table.row_sums, coo_table.row_sums)
    for t in (grid_table, grid_table.T):
        other = coo_table if t is grid_table else coo_table.T
        x, y = metrics.evaluate(t), metrics.evaluate(other)
        for key in x:
            assert x[key] == pytest.approx(y[key], rel=1e-12, abs=1e-14), key
    # The coordinates of a grid table, made on demand, are the table's cells.
    np.testing.assert_array_equal(grid_table.values, coo_table.values)
    np.testing.assert_array_equal(grid_table.rows, coo_table.rows)


@pytest.mark.parametrize("block_cells", [1, 29, 64, 1 << 20])
def test_cells_walked_block_by_block_give_the_measures_of_one_pass(monkeypatch, block_cells):
    """A grid table's cell measures (F, BCubed, the element-centric similarity) walk its
    rows a block at a time: blocks of one row, of a few rows with an uneven last block,
    or the whole table give the values of the table's coordinate form, to rounding."""
    rng = np.random.default_rng(11)
    a, b = rng.integers(0, 23, 5_000), rng.integers(0, 19, 5_000)
    a[:40] = 22  # a large class, so that no two rows look alike
    monkeypatch.setattr(stats_module, "_BLOCK_CELLS", block_cells)
    grid_table = Contingency.from_labels(a, b)
    assert grid_table.grid is not None
    rows, cols = np.nonzero(grid_table.grid)
    coo_table = Contingency._from_coo(rows, cols, grid_table.grid[rows, cols], np.arange(23), np.arange(19))
    keys = ["f_measure", "f_n", "bcubed_precision", "bcubed_recall", "bcubed_f", "element_centric"]
    for t, other in ((grid_table, coo_table), (grid_table.T, coo_table.T)):
        x, y = metrics.evaluate(t, keys), metrics.evaluate(other, keys)
        for key in keys:
            assert x[key] == pytest.approx(y[key], rel=1e-13), key
    # The same sums by hand, from the dense table: n_ij² over b_j, a_i and max(a_i, b_j).
    dense = grid_table.grid.astype(float)
    size_a, size_b = dense.sum(axis=1)[:, None], dense.sum(axis=0)[None, :]
    n = dense.sum()
    expected = {"bcubed_precision": (dense**2 / size_b).sum() / n,
                "bcubed_recall": (dense**2 / size_a).sum() / n,
                "element_centric": (dense**2 / np.maximum(size_a, size_b)).sum() / n,
                "f_measure": (size_a[:, 0] * (2 * dense / (size_a + size_b)).max(axis=1)).sum() / n}
    got = metrics.evaluate(grid_table, list(expected))
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, rel=1e-13), key


CELL_KEYS = ["f_measure", "f_n", "bcubed_precision", "bcubed_recall", "bcubed_f", "element_centric"]


def _cell_measures_by_hand(dense: np.ndarray) -> dict[str, float]:
    dense = dense.astype(float)
    size_a, size_b = dense.sum(axis=1)[:, None], dense.sum(axis=0)[None, :]
    n = dense.sum()
    return {"bcubed_precision": (dense**2 / size_b).sum() / n,
            "bcubed_recall": (dense**2 / size_a).sum() / n,
            "element_centric": (dense**2 / np.maximum(size_a, size_b)).sum() / n,
            "f_measure": (size_a[:, 0] * (2 * dense / (size_a + size_b)).max(axis=1)).sum() / n}


@pytest.mark.parametrize("case", ["sparse cells", "symmetric (a_i = b_i ties)", "huge counts", "wide"])
def test_compiled_cell_sums_give_the_cell_walk(case):
    """A big grid table's BCubed, element-centric and F values come from one compiled pass
    (Contingency.compiled_cell_stats); without it the cells are walked in blocks. Both agree
    with each other and with the formulas on the dense array, to rounding, on tables with
    empty cells and rows, with class and cluster sizes equal (the max(a_i, b_j) tie), with
    counts near 2^40, and transposed."""
    rng = np.random.default_rng(5)
    if case == "sparse cells":
        dense = rng.poisson(0.7, (300, 250))
        dense[17] = 0
    elif case == "symmetric (a_i = b_i ties)":
        p = rng.poisson(4.0, (260, 260))
        dense = p + p.T
    elif case == "huge counts":
        dense = rng.poisson(2.0, (400, 170)) * (1 << 40) + rng.integers(0, 3, (400, 170))
    else:
        dense = rng.poisson(1.5, (40, 2000))
    for arr in (dense, dense.T):
        fast_table = Contingency.from_table(arr)
        assert fast_table.grid is not None and fast_table.compiled_cell_stats is not None
        fast = metrics.evaluate(fast_table, CELL_KEYS)
        counting.FORCE_KERNEL = "numpy"
        try:
            walk_table = Contingency.from_table(arr)
            assert walk_table.compiled_cell_stats is None
            walked = metrics.evaluate(walk_table, CELL_KEYS)
        finally:
            counting.FORCE_KERNEL = None
        for key in CELL_KEYS:
            assert fast[key] == pytest.approx(walked[key], rel=1e-13, abs=0), key
        for key, value in _cell_measures_by_hand(arr[arr.sum(axis=1) > 0][:, arr.sum(axis=0) > 0]).items():
            assert fast[key] == pytest.approx(value, rel=1e-13, abs=0), key


def test_small_grids_walk_their_cells():
    """Below 2^16 cells the compiled pass is not used (a numba import for a table numpy walks
    in a moment)."""
    t = Contingency.from_table(np.random.default_rng(1).poisson(3.0, (200, 200)))
    assert t.grid is not None and t.compiled_cell_stats is None


SUMMARY_ATTRS = ["row_sums", "col_sums", "n_cells", "row_max_sum", "col_max_sum", "_cell_histogram",
                 "min_cell", "pair_sums", "_entropy_sums"]


def _summary_cases():
    rng = np.random.default_rng(11)
    gaps = rng.poisson(3.0, (400, 300))
    gaps[[0, 57, 399]] = 0          # empty rows, first and last among them
    gaps[:, [3, 150]] = 0           # and empty columns
    big = rng.poisson(2.0, (300, 300))
    big[5, 7] = stats_module._SUMMARY_HIST_CAP  # a cell past the histogram's first length: it grows,
    big[250, 9] = 5 * stats_module._SUMMARY_HIST_CAP  # twice, rows after the first growth counted
    huge = rng.poisson(2.0, (300, 300))
    huge[140, 3] = 4 * huge.size + 1025  # past what a histogram may cost: none
    a, b = rng.integers(0, 700, 400_000).astype(np.int32), rng.integers(0, 300, 400_000).astype(np.int32)
    yield "labels, int32", lambda: Contingency.from_labels(a, b)
    yield "labels with unused codes, int64", lambda: Contingency.from_labels(a.astype(np.int64) * 2, b * 3)
    for dtype in (np.int64, np.int32, np.uint16):
        yield f"empty rows and columns, {np.dtype(dtype).name}", lambda d=dtype: Contingency.from_table(gaps.astype(d))
        yield f"transposed, {np.dtype(dtype).name}", lambda d=dtype: Contingency.from_table(gaps.T.astype(d))
    yield "cells past the histogram's first length", lambda: Contingency.from_table(big)
    yield "a cell past the histogram's limit", lambda: Contingency.from_table(huge)


@pytest.mark.parametrize("case", [name for name, _ in _summary_cases()])
def test_compiled_grid_summary_equals_numpy(case):
    """A big integer grid's marginals, maxima, non-zero count and cell histogram come from one
    compiled pass (stats.compiled_summary) at construction. They, everything derived from
    them, and every measure equal, exactly and in type, what numpy's separate reductions give:
    with empty rows and columns dropped after the pass (the histogram's zero count and the maxima
    must follow), for int64, int32 and uint16 grids, with cells past the histogram's first
    length (it grows in the pass) and past its limit (then none is kept)."""
    build = dict(_summary_cases())[case]
    fast = build()
    assert fast.grid is not None and fast.grid.size >= stats_module._COMPILED_CELLS
    assert "row_max_sum" in fast.__dict__  # the summary was used
    assert ("_cell_histogram" in fast.__dict__) == (case != "a cell past the histogram's limit")
    counting.FORCE_KERNEL = "numpy"
    try:
        plain = build()
    finally:
        counting.FORCE_KERNEL = None
    assert "row_max_sum" not in plain.__dict__ and "_cell_histogram" not in plain.__dict__
    assert np.array_equal(fast.grid, plain.grid)
    for attr in SUMMARY_ATTRS:
        got, want = getattr(fast, attr), getattr(plain, attr)
        if isinstance(want, np.ndarray):
            assert got.dtype == want.dtype and np.array_equal(got, want), attr
        else:
            assert got == want and type(got) is type(want), attr
    keys = [k for k in metrics.MEASURES if not k.startswith("ami")]
    assert metrics.evaluate(fast, keys) == metrics.evaluate(plain, keys)


@pytest.mark.parametrize("kernel", [None, "numpy"])
def test_hashed_label_pairs_are_stored_as_their_table(kernel):
    """Labels whose codes skip values (here every other class number, every third cluster
    number) can span more possible cells than a grid of codes may have, so their pairs are
    hashed; the cells they fill are still 85 % of the table of used labels. Such a table is a
    grid, like the table of the same cells, and every measure agrees to the last bit (before,
    it stayed a list of cells, and BCubed and the element-centric similarity differed from the
    table's in the last digit)."""
    rng = np.random.default_rng(11)
    a, b = rng.integers(0, 700, 400_000) * 2, rng.integers(0, 300, 400_000) * 3
    counting.FORCE_KERNEL = kernel
    try:
        from_labels = Contingency.from_labels(a, b)
        assert counting.dense_cell_limit(a.size) < (a.max() + 1) * (b.max() + 1)  # the hashed path
        from_table = Contingency.from_table(from_labels.to_dense())
    finally:
        counting.FORCE_KERNEL = None
    assert from_labels.grid is not None and from_table.grid is not None
    assert list(from_labels.row_labels) == list(range(0, 1400, 2))
    assert list(from_labels.col_labels) == list(range(0, 900, 3))
    keys = [k for k in metrics.MEASURES if not k.startswith("ami")]
    assert metrics.evaluate(from_labels, keys) == metrics.evaluate(from_table, keys)


@given(st.integers(1, 3000), st.integers(1, 60), st.integers(1, 60), st.integers(0, 2**31))
def test_labels_and_their_table_give_every_measure_to_the_last_bit(n, k_true, k_pred, seed):
    """from_labels and from_table (a dense array, a DataFrame, a sparse matrix) of the same cells
    store them the same way, so every measure agrees exactly, not only to rounding: a page that
    scores labels and one that scores their table show the same digits."""
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, k_true, n), rng.integers(0, k_pred, n)
    from_labels = Contingency.from_labels(a, b)
    dense = from_labels.to_dense()
    keys = [k for k in metrics.MEASURES if not k.startswith("ami")]
    expected = metrics.evaluate(from_labels, keys)
    for table in (dense, pd.DataFrame(dense), sparse.csr_matrix(dense)):
        t = Contingency.from_table(table)
        assert (t.grid is None) == (from_labels.grid is None)
        assert metrics.evaluate(t, keys) == expected


def test_empty_rows_and_columns_of_a_grid_are_dropped():
    t = Contingency.from_labels(np.array([3, 3, 7], dtype=np.int32), np.array([0, 5, 5], dtype=np.uint8))
    assert t.shape == (2, 2) and list(t.row_labels) == [3, 7] and list(t.col_labels) == [0, 5]
    assert t.to_dense().tolist() == [[1, 1], [0, 1]]


# --------------------------------------------------------------------------- assignment
@settings(max_examples=300, deadline=None)
@given(st.integers(1, 14).flatmap(lambda n: hnp.arrays(np.int64, (n, n), elements=st.integers(0, 6))))
def test_jonker_volgenant_matches_scipy(w):
    total, col_of = numba_kernels.max_weight_assignment(w)
    r, c = linear_sum_assignment(w, maximize=True)
    assert total == w[r, c].sum()
    assert sorted(col_of.tolist()) == list(range(w.shape[0]))  # a permutation
    assert w[np.arange(w.shape[0]), col_of].sum() == total


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 40), st.floats(0.1, 2.0), st.integers(0, 2**32 - 1))
def test_jonker_volgenant_matches_scipy_where_the_rows_differ_in_scale(n, shape, seed):
    """Rows and columns of very different sizes (classes of thousands beside classes of a few,
    gamma-distributed scales): the kernel prices each row's cells against the row's own largest
    cell, which changes no assignment; scipy's matching weighs the same."""
    rng = np.random.default_rng(seed)
    w = rng.poisson(np.outer(rng.gamma(shape, 1 / shape, n), rng.gamma(shape, 1 / shape, n)) * 20)
    total, col_of = numba_kernels.max_weight_assignment(w)
    r, c = linear_sum_assignment(w, maximize=True)
    assert total == w[r, c].sum() == w[np.arange(n), col_of].sum()
    assert sorted(col_of.tolist()) == list(range(n))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30), st.integers(1, 8), st.sampled_from(["nca", "psi", "uniform"]), st.integers(0, 2**32 - 1))
def test_jonker_volgenant_on_fractional_weights_matches_scipy(n, top, kind, seed):
    """NCA's and PSI's weights of count tables (ties within and across rows) and continuous
    weights: compared as floats, as scipy compares them — the same optimum, to rounding."""
    rng = np.random.default_rng(seed)
    table = rng.integers(0, top + 1, (n, n))
    a, b = np.maximum(table.sum(1, keepdims=True), 1), np.maximum(table.sum(0, keepdims=True), 1)
    w = {"nca": table / a, "psi": table / np.maximum(a, b), "uniform": rng.random((n, n))}[kind]
    total, col_of = numba_kernels.max_weight_assignment(w)
    r, c = linear_sum_assignment(w, maximize=True)
    assert sorted(col_of.tolist()) == list(range(n))
    assert w[np.arange(n), col_of].sum() == pytest.approx(w[r, c].sum(), rel=1e-13, abs=1e-15)
    assert total == pytest.approx(w[r, c].sum(), rel=1e-13, abs=1e-15)


def test_jonker_volgenant_of_no_row_and_of_one():
    for w in (np.zeros((0, 0), dtype=np.int64), np.zeros((0, 0)), np.array([[3]]), np.array([[0.25]])):
        total, col_of = numba_kernels.max_weight_assignment(w)
        assert total == w.sum() and col_of.tolist() == list(range(w.shape[0]))


@pytest.mark.parametrize("max_turns", [0, 1, 5])
def test_jonker_volgenant_hands_the_rows_left_to_the_searches_at_its_turn_limit(max_turns):
    """Augmenting row reduction stops after ``max_turns`` turns (8n by default: float prices can
    fall by ever smaller steps); the rows it had not placed go to the searches: still optimal."""
    rng = np.random.default_rng(max_turns)
    for w in (rng.integers(0, 4, (60, 60)), rng.integers(0, 4, (60, 60)) / rng.integers(1, 9, (60, 1))):
        total, col_of = numba_kernels.max_weight_assignment(w, max_turns)
        r, c = linear_sum_assignment(w, maximize=True)
        assert sorted(col_of.tolist()) == list(range(60))
        assert total == pytest.approx(w[r, c].sum(), rel=1e-13)


def test_classification_error_same_with_and_without_the_kernel():
    rng = np.random.default_rng(3)
    for shape in [(300, 300), (120, 500), (90, 64)]:
        # a table of skewed class and cluster sizes too (the kernel's slow case before its costs
        # were taken against each row's own largest cell)
        for dense in (rng.poisson(3.0, shape), rng.poisson(np.outer(rng.gamma(0.5, 2, shape[0]),
                                                                      rng.gamma(0.5, 2, shape[1])) * 3)):
            t = Contingency.from_table(dense)
            r, c = linear_sum_assignment(dense, maximize=True)
            assert metrics.measures.matching.matched_mass(t) == dense[r, c].sum()


# --------------------------------------------------------------------------- without numba; memory
def test_core_imports_and_counts_without_numba():
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "import numpy as np, metrics\n"
        "from metrics.core.kernels import counting\n"
        "assert counting.kernel(10**7) == 'numpy'\n"
        "a = np.arange(200_000) % 50; b = (np.arange(200_000) * 7) % 40\n"
        "t = metrics.Contingency.from_labels(a.astype(np.int32), b)\n"
        "assert t.n == 200_000 and t.shape == (50, 40)\n"
        "big = metrics.Contingency.from_labels(np.arange(400) % 300, np.arange(400) % 301)\n"
        "assert metrics.evaluate(big, ['classification_error'])['classification_error'] >= 0\n"
        "assert 'numba' not in sys.modules or sys.modules['numba'] is None\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_import_metrics_does_not_import_numba():
    code = "import sys, metrics; assert 'numba' not in sys.modules, 'numba imported eagerly'"
    subprocess.run([sys.executable, "-c", code], check=True)


def _peak(fn):
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_int32_labels_are_not_widened():
    """10^6 int32 labels per side (4 MB each): counting allocates the 100-cell grid and
    small change, never an int64 copy (8 MB) or a key array."""
    n = 10**6
    a = (np.arange(n, dtype=np.int32) * 7) % 10
    b = (np.arange(n, dtype=np.int32) * 3) % 10
    counting.FORCE_KERNEL = "numba"
    try:
        Contingency.from_labels(a, b)  # compile outside the measurement
        peak = _peak(lambda: Contingency.from_labels(a, b))
    finally:
        counting.FORCE_KERNEL = None
    assert peak < 64 * 1024


def test_numpy_kernel_keys_are_chunked():
    n = 3 * 10**6
    a = np.arange(n, dtype=np.int32) % 10
    counting.FORCE_KERNEL = "numpy"
    try:
        peak = _peak(lambda: Contingency.from_labels(a, a))
    finally:
        counting.FORCE_KERNEL = None
    assert peak < 8 * counting._CHUNK + (1 << 20)  # one chunk of int64 keys, not 8n bytes


@pytest.mark.parametrize("kernel", counting.KERNELS, indirect=True)
def test_no_work_per_possible_cell_beyond_the_table(kernel):
    """3000 items whose labels reach 6000 on both sides: 36 million possible cells, at
    most 3000 of them used. Nothing of the size of the possible cells is allocated."""
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 6001, 3000), rng.integers(0, 6001, 3000)
    a[0] = b[0] = 6000
    peak = _peak(lambda: Contingency.from_labels(a, b))
    assert peak < 3000 * 8 * 64  # labels and cells; a grid would take 288 MB
    t = Contingency.from_labels(a, b)
    assert t.n == 3000 and t.grid is None
