"""Counting a sparse table: more possible cells than items (metrics.core.kernels.counting.count_cells,
metrics/core/kernels/sparse_counting.py).

* the compiled radix sort and the numpy sort give the same cells, marginals and order — row-major,
  columns ascending, indices among the non-empty rows and columns — and both equal an independent
  count (collections.Counter), for uint32 keys (≤ 32 bits) and uint64 keys, int32/int64/bool codes;
* count_cells' sixth item (the maxima, histogram and square sums found on the way) equals numpy's
  reductions and coo_square_sums over the cells, to the last bit;
* a table counted that way gives every measure of the same table given as cells (dense array,
  sparse matrix) to the last bit, and its cached marginals are the cells' own sums;
* strings, tuples and other hashable labels count into the table of their integer codes;
* a code outside the stated bounds is never silently counted;
* the first pass's hot cells (each class's first cluster, whose later items skip the sort) count
  the same cells whether they stay on, are dropped after some blocks of items, or never catch an
  item; codes all in use (their own indices) and cells written over the sort's buffers too;
* cells sorted and counted elsewhere (a GPU: distinct keys and their counts) give, through
  cells_of_sorted_keys, what count_cells gives for the same items — every array, to the last bit.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

import metrics
from metrics.core.contingency import Contingency
from metrics.core.kernels import cell_stats, counting

sparse_counting = pytest.importorskip("metrics.core.kernels.sparse_counting",
                                      reason="numba (the `fast` extra) is not installed")

KEYS = [k for k in metrics.MEASURES if not k.startswith("ami")]


def forced(name, fn, *args):
    counting.FORCE_KERNEL = name
    try:
        return fn(*args)
    finally:
        counting.FORCE_KERNEL = None


def with_rows(found):
    """count_cells' answer with each cell's row: made from the cells' offsets by row (the maxima's
    fifth item) where the count wrote those instead."""
    if found[0] is None:
        assert len(found) == 6 and found[5] is not None  # only beside the maxima
        return (counting.rows_of_offsets(found[5][4]), *found[1:])
    return found


def assert_maxima(maxima, a, b, n_rows, n_cols, cells):
    """count_cells' sixth item (maxima=True): each code's largest cell by row and by column, 0 for
    unused codes, np.bincount of the counts (None where one is past the histogram's cap),
    coo_square_sums of the cells by code — to the last bit, 0 for unused codes — and the cells'
    offsets by row."""
    rows, cols, vals = with_rows(cells)[:3]
    sizes_r, sizes_c = np.bincount(a, minlength=n_rows), np.bincount(b, minlength=n_cols)
    used_r, used_c = np.flatnonzero(sizes_r), np.flatnonzero(sizes_c)
    want_r, want_c = np.zeros(n_rows, np.int64), np.zeros(n_cols, np.int64)
    np.maximum.at(want_r, used_r[rows], vals)
    np.maximum.at(want_c, used_c[cols], vals)
    row_max, col_max, hist, squares, offsets = maxima
    np.testing.assert_array_equal(offsets, np.searchsorted(rows, np.arange(np.unique(a).size + 1)))
    want = cell_stats.coo_square_sums(rows, cols, vals, sizes_r[used_r].astype(np.int64),
                                      sizes_c[used_c].astype(np.int64))
    for got, expected, used, size in zip(squares, want, (used_r, used_r, used_c, used_c, used_r),
                                         (n_rows, n_rows, n_cols, n_cols, n_rows)):
        assert got.dtype == np.float64 and got.shape == (size,)
        np.testing.assert_array_equal(got[used], expected)
        assert not np.any(np.delete(got, used))
    np.testing.assert_array_equal(row_max, want_r)
    np.testing.assert_array_equal(col_max, want_c)
    if vals.max() < counting.CELL_HISTOGRAM_CAP:
        assert hist is not None and hist.dtype == np.int64
        np.testing.assert_array_equal(hist, np.bincount(vals))
    else:
        assert hist is None


def counter_cells(a, b):
    """The expected count_cells output, from a Counter over the pairs."""
    counts = Counter(zip(a.tolist(), b.tolist()))
    used_r, used_c = sorted({int(x) for x in a.tolist()}), sorted({int(y) for y in b.tolist()})
    rank_r = {v: i for i, v in enumerate(used_r)}
    rank_c = {v: i for i, v in enumerate(used_c)}
    cells = sorted((rank_r[int(x)], rank_c[int(y)], c) for (x, y), c in counts.items())
    return [np.array([c[i] for c in cells], dtype=np.int64) for i in range(3)]


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 400), st.integers(1, 1 << 21), st.integers(1, 1 << 21), st.integers(0, 2**32),
       st.sampled_from([np.int32, np.int64]), st.booleans())
def test_compiled_and_numpy_cells_agree_with_a_counter(n, n_rows, n_cols, seed, dtype, clumped):
    """Up to 2^21 × 2^21 possible cells: keys of up to 42 bits (uint64), and of ≤ 32 bits (uint32)
    for the smaller shapes; ``clumped`` draws few distinct codes, so cells hold several items and
    some radix digits are equal for every key (skipped)."""
    rng = np.random.default_rng(seed)
    if clumped:
        a = rng.choice(rng.integers(0, n_rows, 5), n).astype(dtype)
        b = rng.choice(rng.integers(0, n_cols, 7), n).astype(dtype)
    else:
        a, b = rng.integers(0, n_rows, n).astype(dtype), rng.integers(0, n_cols, n).astype(dtype)
    fast = forced("numba", counting.count_cells, a, b, n_rows, n_cols)
    plain = forced("numpy", counting.count_cells, a, b, n_rows, n_cols)
    for x, y in zip(fast, plain):
        assert x.dtype == y.dtype == np.int64
        np.testing.assert_array_equal(x, y)
    for split_below in (sparse_counting.SPLIT_ONES_ITEMS, 0):  # cells of one item counted apart, or not
        sparse_counting.SPLIT_ONES_ITEMS, saved = split_below, sparse_counting.SPLIT_ONES_ITEMS
        try:
            with_maxima = with_rows(forced("numba", counting.count_cells, a, b, n_rows, n_cols, True))
        finally:
            sparse_counting.SPLIT_ONES_ITEMS = saved
        for x, y in zip(with_maxima[:5], fast):
            np.testing.assert_array_equal(x, y)
        assert_maxima(with_maxima[5], a, b, n_rows, n_cols, fast)
    assert forced("numpy", counting.count_cells, a, b, n_rows, n_cols, True)[5] is None
    rows, cols, vals = counter_cells(a, b)
    np.testing.assert_array_equal(fast[0], rows)
    np.testing.assert_array_equal(fast[1], cols)
    np.testing.assert_array_equal(fast[2], vals)
    np.testing.assert_array_equal(fast[3], np.bincount(a, minlength=n_rows))
    np.testing.assert_array_equal(fast[4], np.bincount(b, minlength=n_cols))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 600), st.integers(1, 40), st.integers(1, 1 << 20), st.integers(0, 2**32),
       st.floats(0.0, 1.0), st.sampled_from([1, 7, 64, 1 << 16]), st.booleans())
def test_hot_cells_count_the_same_cells(n, n_rows, n_cols, seed, purity, block, switch):
    """Classes that keep a share ``purity`` of their items in one cluster (the rest anywhere), so the
    hot cells catch some, most or none of the items; judged every ``block`` items, so they are kept
    throughout, dropped after the first block, or (``switch``: pure first half, random second)
    dropped mid-way, with the hot cells filled by then still counted. The same cells as numpy's
    and a Counter's, in the same order."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, n_rows, n)
    home = rng.integers(0, n_cols, n_rows)
    stay = rng.random(n) < purity
    if switch:
        stay[n // 2:] = False
    b = np.where(stay, home[a], rng.integers(0, n_cols, n))
    counting.HOT_BLOCK, saved = block, counting.HOT_BLOCK
    try:
        fast = with_rows(forced("numba", counting.count_cells, a, b, n_rows, n_cols, True))
    finally:
        counting.HOT_BLOCK = saved
    plain = forced("numpy", counting.count_cells, a, b, n_rows, n_cols)
    for x, y in zip(fast[:5], plain):
        np.testing.assert_array_equal(x, y)
    assert_maxima(fast[5], a, b, n_rows, n_cols, fast)  # hot cells' catches count in the maxima too
    fast = fast[:5]
    for x, y in zip(fast, counter_cells(a, b)):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("block", [1, 1 << 16])
def test_hot_cells_switch_off_for_random_labels_and_stay_for_pure_ones(block):
    """The first pass keeps writing every key once the hot cells miss more than they catch
    (random labels), and writes only the first item of each class whose items stay together."""
    from metrics.core.kernels import sparse_counting as nb

    rng = np.random.default_rng(11)
    n, k = 200_000, 1000
    a = rng.integers(0, k, n)
    for b, few in ((rng.integers(0, 1 << 20, n), False), ((a * 7919) % (1 << 20), True)):
        keys = np.empty(n, dtype=np.uint64)
        sums = np.zeros(k, np.int64), np.zeros(1 << 20, np.int64)
        hot = np.zeros((k, 2), np.int64)
        stop, written = nb.keys_and_marginals(a, b, k, 1 << 20, 20, keys, *sums, hot, block, True, 0)
        assert stop == n
        assert (written == k) if few else (written > n - max(block, 2 * k))
        np.testing.assert_array_equal(sums[0], np.bincount(a, minlength=k))


@pytest.mark.parametrize("shape", [(50, 60), (3000, 3000)])
def test_codes_all_in_use_and_cells_over_the_sort_buffers(shape):
    """Every code in use (each its own index: no renumbering pass), and random pairs of 2^21 × 2^21
    possible cells (uint64 keys, nearly a cell per item: the rows and columns are written over the
    sort's buffers): the same cells as numpy's."""
    n_rows, n_cols = shape
    rng = np.random.default_rng(2)
    n = 20 * max(shape)
    a, b = rng.integers(0, n_rows, n), rng.integers(0, n_cols, n)
    assert np.unique(a).size == n_rows and np.unique(b).size == n_cols
    for x, y in zip(forced("numba", counting.count_cells, a, b, n_rows, n_cols),
                    forced("numpy", counting.count_cells, a, b, n_rows, n_cols)):
        np.testing.assert_array_equal(x, y)
    a, b = rng.integers(0, 1 << 21, n), rng.integers(0, 1 << 21, n)
    fast = forced("numba", counting.count_cells, a, b, 1 << 21, 1 << 21, True)
    assert fast[0].base is not None and fast[1].base is not None  # written over the buffers
    for x, y in zip(fast[:5], forced("numpy", counting.count_cells, a, b, 1 << 21, 1 << 21)):
        np.testing.assert_array_equal(x, y)
    assert_maxima(fast[5], a, b, 1 << 21, 1 << 21, fast)


def test_boolean_codes_count():
    a = np.array([True, False, True, True])
    b = np.array([3, 0, 3, 9])
    rows, cols, vals, rs, cs = forced("numba", counting.count_cells, a, b, 2, 10)
    np.testing.assert_array_equal(cs, [1, 0, 0, 2, 0, 0, 0, 0, 0, 1])
    np.testing.assert_array_equal(rows, [0, 1, 1])
    np.testing.assert_array_equal(cols, [0, 1, 2])
    np.testing.assert_array_equal(vals, [1, 2, 1])
    np.testing.assert_array_equal(rs, [1, 3])


@pytest.mark.parametrize(("a", "b", "where"), [([0, 1, 5], [0, 1, 1], 2), ([0, 1, 2], [0, -1, 1], 1),
                                             ([0, 0, 0], [0, 1, 2], 2)])
def test_a_code_outside_the_bounds_is_never_counted(a, b, where):
    """The compiled pass checks every code against the bounds it was given (3 × 2 here): a
    negative or too large code stops it, naming the item, instead of writing outside its arrays."""
    with pytest.raises(AssertionError, match=f"position {where} lies outside the 3×2 table"):
        forced("numba", counting.count_cells, np.array(a), np.array(b), 3, 2)


@settings(max_examples=40, deadline=None)
@given(st.integers(300, 3000), st.integers(260, 1500), st.integers(260, 1500), st.integers(0, 2**31),
       st.sampled_from([None, "numpy", "numba"]))
def test_sparse_labels_give_every_measure_of_their_table_to_the_last_bit(n, k_true, k_pred, seed, kernel):
    """Labels with more possible cells than items (the sparse path): the table counted from them
    gives every measure of the same cells given as a dense array or a sparse matrix, exactly; its
    marginals, cells and labels are the table's own."""
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, k_true, n), rng.integers(0, k_pred, n)
    assert k_true * k_pred > counting.dense_cell_limit(n)
    t = forced(kernel, Contingency.from_labels, a, b)
    assert t.grid is None
    assert list(t.row_labels) == sorted(set(a.tolist())) and list(t.col_labels) == sorted(set(b.tolist()))
    dense = np.zeros((k_true, k_pred), dtype=np.int64)
    np.add.at(dense, (a, b), 1)
    dense = dense[dense.sum(axis=1) > 0][:, dense.sum(axis=0) > 0]
    np.testing.assert_array_equal(t.to_dense(), dense)
    expected = metrics.evaluate(t, KEYS)
    for table in (dense, sparse.csr_matrix(dense)):
        other = Contingency.from_table(table)
        np.testing.assert_array_equal(other.rows, t.rows)
        np.testing.assert_array_equal(other.cols, t.cols)
        np.testing.assert_array_equal(other.row_sums, t.row_sums)
        np.testing.assert_array_equal(other.col_sums, t.col_sums)
        assert metrics.evaluate(other, KEYS) == expected


def test_a_sparse_count_that_fills_a_quarter_of_the_used_labels_is_a_grid():
    """Labels that skip values: 10^5 possible codes a side, but only 60 × 50 in use, every cell
    filled — stored as the grid of the used labels, as from_table stores it."""
    rng = np.random.default_rng(3)
    a = rng.integers(0, 60, 40_000) * 1601
    b = rng.integers(0, 50, 40_000) * 1999
    for kernel in counting.KERNELS:
        t = forced(kernel, Contingency.from_labels, a, b)
        assert t.grid is not None and t.shape == (60, 50)
        assert metrics.evaluate(t, KEYS) == metrics.evaluate(Contingency.from_table(t.to_dense()), KEYS)


def test_hashable_labels_count_into_the_table_of_their_codes():
    """Strings, tuples and mixed objects at more possible cells than items: the table of their
    integer codes, cell for cell, with the labels in the one label order."""
    rng = np.random.default_rng(5)
    n = 50_000
    a, b = rng.integers(0, 20_000, n), rng.integers(0, 30_000, n)
    ints = Contingency.from_labels(a, b)
    strings = Contingency.from_labels(np.array([f"c{x:05d}" for x in a], dtype=object),
                                      [f"k{y:05d}" for y in b])
    tuples = Contingency.from_labels([("c", int(x)) for x in a], [("k", int(y)) for y in b])
    for t in (strings, tuples):
        assert t.grid is None
        np.testing.assert_array_equal(t.rows, ints.rows)
        np.testing.assert_array_equal(t.cols, ints.cols)
        np.testing.assert_array_equal(t.values, ints.values)
        assert metrics.evaluate(t, KEYS) == metrics.evaluate(ints, KEYS)
    assert strings.row_labels[0] == f"c{a.min():05d}"
    assert tuples.col_labels[-1] == ("k", int(b.max()))


def test_many_classes_and_clusters_both_kernels_agree():
    """10^6 items over 10^5 × 10^5 possible cells (almost every item a cell of its own), and
    entity-resolution-like labels (a few big entities, most pure): the compiled and numpy paths
    give the same table and the same measures."""
    rng = np.random.default_rng(7)
    n = 10**6
    random_pair = (rng.integers(0, 10**5, n), rng.integers(0, 10**5, n).astype(np.int32))
    gold = np.repeat(np.arange(10**5), rng.multinomial(n - 10**5, np.full(10**5, 1e-5)) + 1)
    pred = gold.copy()
    noisy = rng.random(n) < 0.05
    pred[noisy] = rng.integers(0, 10**5, int(noisy.sum()))
    order = rng.permutation(n)
    for a, b in (random_pair, (gold[order], pred[order])):
        fast = forced("numba", Contingency.from_labels, a, b)
        plain = forced("numpy", Contingency.from_labels, a, b)
        for attr in ("rows", "cols", "values", "row_sums", "col_sums"):
            np.testing.assert_array_equal(getattr(fast, attr), getattr(plain, attr))
        keys = [k for k in KEYS if metrics.MEASURES[k].applies_to(fast)]
        assert metrics.evaluate(fast, keys) == metrics.evaluate(plain, keys)


def test_cells_past_the_histogram_cap_leave_it_to_numpy(monkeypatch):
    """A cell of more items than the kernel's histogram holds: the maxima are still right, the
    histogram is None, and the table's histogram comes from numpy's bincount — the same one."""
    rng = np.random.default_rng(8)
    a = np.concatenate([rng.integers(0, 3000, 150_000), np.full(40, 17)])
    b = np.concatenate([rng.integers(0, 3000, 150_000), np.full(40, 99)])
    monkeypatch.setattr(counting, "CELL_HISTOGRAM_CAP", 16)
    full = forced("numba", counting.count_cells, a, b, 3000, 3000, True)
    assert full[5][2] is None
    assert_maxima(full[5], a, b, 3000, 3000, full)
    monkeypatch.undo()
    counted = forced("numba", Contingency.from_labels, a, b)
    monkeypatch.setattr(counting, "CELL_HISTOGRAM_CAP", 16)
    capped = forced("numba", Contingency.from_labels, a, b)
    assert "_cell_histogram" in counted.__dict__ and "_cell_histogram" not in capped.__dict__
    plain = Contingency(counted.rows, counted.cols, counted.values, counted.row_labels, counted.col_labels)
    for t in (counted, capped):
        assert "_coo_squares" in t.__dict__  # found on the way, with or without the histogram
        np.testing.assert_array_equal(t._cell_histogram, plain._cell_histogram)
        for got, want in zip(t._coo_summary, plain._coo_summary):
            np.testing.assert_array_equal(got, want)
        cell_keys = [k for k in KEYS if metrics.MEASURES[k].family != "matching"]  # the sums over cells
        assert metrics.evaluate(t, cell_keys) == metrics.evaluate(plain, cell_keys)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 400), st.integers(1, 1 << 21), st.integers(1, 1 << 21), st.integers(0, 2**32),
       st.booleans(), st.sampled_from(["numba", "numpy"]), st.booleans())
def test_cells_counted_elsewhere_are_the_cells_counted_here(n, n_rows, n_cols, seed, clumped, kernel, split):
    """What a GPU hands back — the distinct keys ``row << col_bits | col`` in ascending order,
    each one's count, both marginals — through ``cells_of_sorted_keys``: count_cells' output for
    the same items, maxima, histogram and square sums included, with either kernel, cells of
    one item counted apart or not."""
    rng = np.random.default_rng(seed)
    if clumped:
        a, b = rng.choice(rng.integers(0, n_rows, 5), n), rng.choice(rng.integers(0, n_cols, 7), n)
    else:
        a, b = rng.integers(0, n_rows, n), rng.integers(0, n_cols, n)
    col_bits = (n_cols - 1).bit_length()
    keys, counts = np.unique((a << col_bits) | b, return_counts=True)
    sizes_r, sizes_c = np.bincount(a, minlength=n_rows), np.bincount(b, minlength=n_cols)
    saved = sparse_counting.SPLIT_ONES_ITEMS
    sparse_counting.SPLIT_ONES_ITEMS = saved if split else 0
    try:
        got = forced(kernel, counting.cells_of_sorted_keys, keys, counts.astype(np.int64), n_rows, n_cols,
                     sizes_r.astype(np.int64), sizes_c.astype(np.int64), True)
        want = with_rows(forced(kernel, counting.count_cells, a, b, n_rows, n_cols, True))
    finally:
        sparse_counting.SPLIT_ONES_ITEMS = saved
    for x, y in zip(got[:5], want[:5]):
        assert x.dtype == y.dtype == np.int64
        np.testing.assert_array_equal(x, y)
    if kernel == "numpy":
        assert got[5] is None and want[5] is None
        return
    row_max, col_max, hist, squares, offsets = got[5]
    np.testing.assert_array_equal(offsets, want[5][4])  # the cells' offsets by row, as the count's
    np.testing.assert_array_equal(row_max, want[5][0])
    np.testing.assert_array_equal(col_max, want[5][1])
    assert (hist is None) == (want[5][2] is None)
    if hist is not None:
        np.testing.assert_array_equal(hist, want[5][2])
    for x, y in zip(squares, want[5][3]):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("row_shift", [0, 5])
def test_int32_and_int64_marginals_of_the_first_pass_agree(row_shift):
    """The first pass counts into int32 marginals below 2^31 items (``narrow``) and into the int64
    ones otherwise: the same keys and marginals, whatever the hot cells caught before; with a
    ``row_shift`` (the two-level sort's buckets) each class's items at its code >> row_shift."""
    from metrics.core.kernels import sparse_counting as nb

    rng = np.random.default_rng(12)
    n, k = 300_000, 5000
    a, b = rng.integers(0, k, n), rng.integers(0, 3 * k, n)
    b[: n // 3] = a[: n // 3]  # a first stretch whose hot cells catch, then random pairs
    out = []
    for narrow in (True, False):
        keys = np.empty(n, dtype=np.uint64)
        sums = np.zeros(((k - 1) >> row_shift) + 1, np.int64), np.zeros(3 * k, np.int64)
        hot = np.zeros((k, 2), np.int64)
        stop, written = nb.keys_and_marginals(a, b, k, 3 * k, 15, keys, *sums, hot, 1 << 12, narrow, row_shift)
        assert stop == n
        out.append((keys[:written].copy(), *sums, hot))
    for x, y in zip(*out):
        np.testing.assert_array_equal(x, y)
    np.testing.assert_array_equal(out[0][1], np.bincount(a >> row_shift))
    np.testing.assert_array_equal(out[0][2], np.bincount(b, minlength=3 * k))
