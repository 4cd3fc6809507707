"""The sparse count's two-level sort (metrics/core/kernels/sparse_counting.py: ``bucket_scatter``,
``sort_buckets``; metrics/core/kernels/counting.py: ``count_cells``).

* the cells written bucket by bucket are the distinct keys, in order, with their counts, and
  the rows' marginal, indices and maxima found on the way are the keys' — for every split of the
  key's bits: no column bits, no row bits kept in a bucket, more than one digit of them, empty
  buckets, one bucket holding nearly every key;
* count_cells takes the two levels wherever a bucket's key fits 32 bits and the one-level radix
  sort otherwise, both giving numpy's cells; with about a cell per item the values and rows are
  written over the sort's own buffers (a value below every key not read yet), and the cells are
  still numpy's, to the last item, maxima and square sums included.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.core.kernels import counting

nb = pytest.importorskip("metrics.core.kernels.sparse_counting", reason="numba (the `fast` extra) is not installed")

from .test_sparse_counting import assert_maxima, forced, with_rows  # noqa: E402


def two_level_sort(keys: np.ndarray, n_rows: int, col_bits: int, low: int):
    """``keys`` (uint64 ``row << col_bits | col``) through both levels: (the cells' keys and counts
    in the order sort_buckets writes them, the number of cells it returned)."""
    rows = (keys >> np.uint64(col_bits)).astype(np.int64)
    out = np.empty(keys.size, dtype=np.uint32)
    starts = nb.bucket_scatter(keys, out, np.bincount(rows >> low, minlength=((n_rows - 1) >> low) + 1), col_bits, low)
    assert starts[0] == 0 and starts[-1] == keys.size and np.all(np.diff(starts) >= 0)
    digits = counting._digits(col_bits, nb.DIGIT_BITS)
    digits += [(col_bits + s, w) for s, w in counting._digits(low, nb.DIGIT_BITS)]
    shifts = np.array([d[0] for d in digits], dtype=np.int64)
    widths = np.array([d[1] for d in digits], dtype=np.int64)
    n_cols = 1 << col_bits

    def sort(write_rows: bool):
        key_rows, row_index, row_max = (np.zeros(n_rows, dtype=np.int64) for _ in range(3))
        cells = [np.full(keys.size if write_rows or i else 0, -1, dtype=np.int64) for i in range(3)]
        row_starts = np.full(n_rows + 1, -1, dtype=np.int64)
        m, complete = nb.sort_buckets(out, starts, col_bits, low, shifts, widths, key_rows,
                                      np.zeros((n_rows, 2), np.int64), row_index, np.arange(n_cols), *cells, row_starts,
                                      row_max, np.ones(n_cols, np.int64), np.zeros(64, np.int64), None)
        return m, complete, key_rows, row_index, row_max, cells, row_starts

    m, complete, key_rows, row_index, row_max, cells, row_starts = sort(True)
    # Without the rows: the same cells and offsets, and the offsets are where each row's cells begin.
    unwritten = sort(False)
    assert unwritten[:2] == (m, complete) and unwritten[5][0].size == 0
    for x, y in zip(cells[1:], unwritten[5][1:], strict=True):
        np.testing.assert_array_equal(x, y)
    n_used = np.unique(rows).size
    np.testing.assert_array_equal(unwritten[6][:n_used], row_starts[:n_used])
    np.testing.assert_array_equal(row_starts[:n_used], np.searchsorted(cells[0][:m], np.arange(n_used)))
    sizes = np.bincount(rows, minlength=n_rows)
    np.testing.assert_array_equal(key_rows, sizes)  # the rows' marginal, counted
    used = np.flatnonzero(sizes)
    np.testing.assert_array_equal(row_index[used], np.arange(used.size))
    assert np.all(cells[0][m:] == -1)  # nothing written past the cells
    row_codes, col_codes, counts = (x[:m] for x in cells)
    assert complete == (counts.max() < 64)  # every cell past the histogram's 64 counts noticed
    largest = np.zeros(n_rows, dtype=np.int64)
    np.maximum.at(largest, used[row_codes], counts)
    np.testing.assert_array_equal(row_max, largest)  # 1 for each class in use, then its cells
    return (used[row_codes].astype(np.uint64) << np.uint64(col_bits)) | col_codes.astype(np.uint64), counts, m


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 3000), st.integers(0, 20), st.integers(0, 14), st.integers(0, 2**32),
       st.sampled_from(["spread", "clumped", "one row"]))
def test_the_buckets_sorted_are_the_sorted_keys(n, col_bits, row_bits, seed, kind):
    """Every split of up to 34 key bits (a bucket keeps row_bits − 9 of the row's bits, 0 when
    there are fewer): the keys come out sorted, and the cells counted are the distinct keys."""
    rng = np.random.default_rng(seed)
    n_rows, n_cols = 1 << row_bits, 1 << col_bits
    rows = rng.integers(0, n_rows, n)
    cols = rng.integers(0, n_cols, n)
    if kind == "clumped":  # few distinct keys: long runs, equal digits
        rows, cols = rng.choice(rng.integers(0, n_rows, 3), n), rng.choice(rng.integers(0, n_cols, 4), n)
    elif kind == "one row":  # one bucket holds every key, the others are empty
        rows = np.full(n, rng.integers(0, n_rows))
    keys = (rows.astype(np.uint64) << np.uint64(col_bits)) | cols.astype(np.uint64)
    low = max(row_bits - nb.DIGIT_BITS, 0)
    got, counts, cells = two_level_sort(keys, n_rows, col_bits, low)
    want, want_counts = np.unique(keys, return_counts=True)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(counts, want_counts)
    assert cells == want.size


@pytest.mark.parametrize(("col_bits", "row_bits"), [(0, 12), (17, 0), (17, 17), (9, 27), (23, 18)])
def test_splits_at_the_edges(col_bits, row_bits):
    """No column bits (one cluster), a single class, the benchmark's 17 + 17 bits, a bucket
    keeping 18 row bits (two row digits), and a bucket key of exactly 32 bits."""
    rng = np.random.default_rng(col_bits * 100 + row_bits)
    n = 20_000
    keys = ((rng.integers(0, 1 << row_bits, n).astype(np.uint64) << np.uint64(col_bits))
            | rng.integers(0, 1 << col_bits, n).astype(np.uint64))
    low = max(row_bits - nb.DIGIT_BITS, 0)
    assert col_bits + low <= 32
    got, counts, cells = two_level_sort(keys, 1 << row_bits, col_bits, low)
    want, want_counts = np.unique(keys, return_counts=True)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(counts, want_counts)
    assert cells == want.size


def spy_on_the_sort(monkeypatch) -> list[str]:
    """The sorts count_cells calls, by name, in order."""
    calls: list[str] = []
    for name in ("bucket_scatter", "scatter_digit"):
        real = getattr(nb, name)

        def spy(*args, _real=real, _name=name):
            calls.append(_name)
            return _real(*args)

        monkeypatch.setattr(nb, name, spy)
    return calls


@pytest.mark.parametrize(("n_rows", "n_cols", "two_levels"), [
    (1 << 17, 1 << 17, True),         # 17 + 8 bits a bucket key
    (3000, 1 << 23, True),            # 23 + 3 bits
    (1 << 18, 1 << 24, False),        # 24 + 9 bits: past 32, one level
    (1 << 21, 1 << 21, False),        # 21 + 12 bits
])
def test_count_cells_takes_two_levels_where_a_bucket_key_fits_32_bits(monkeypatch, n_rows, n_cols, two_levels):
    rng = np.random.default_rng(n_rows + n_cols)
    n = 30_000
    a, b = rng.integers(0, n_rows, n), rng.integers(0, n_cols, n)
    calls = spy_on_the_sort(monkeypatch)
    fast = forced("numba", counting.count_cells, a, b, n_rows, n_cols, True)
    assert ("bucket_scatter" in calls) == two_levels
    assert (fast[0] is None) == two_levels  # the two levels write the rows' offsets alone
    fast = with_rows(fast)
    assert ("scatter_digit" in calls) == (not two_levels)
    for x, y in zip(fast[:5], forced("numpy", counting.count_cells, a, b, n_rows, n_cols)):
        assert x.dtype == y.dtype == np.int64
        np.testing.assert_array_equal(x, y)
    assert_maxima(fast[5], a, b, n_rows, n_cols, fast)


@pytest.mark.parametrize("own_mapping", [False, True])
@pytest.mark.parametrize("hot_catch", [0.0, 0.9])
def test_cells_written_over_the_sorts_buffers_are_numpys(monkeypatch, hot_catch, own_mapping):
    """About a cell per item at 34 key bits: the values are written in the buffer whose upper half
    holds the bucket keys and the columns over the first pass's keys (the rows not at all); with
    most items caught by their class's hot cell, far fewer cells than items, and the rows over the
    keys. Either way every cell is numpy's, and the arrays handed back keep no buffer much bigger
    than the cells alive: copied, or (``own_mapping``: buffers as big as a mapping of their own)
    shrunk in place."""
    if own_mapping:
        monkeypatch.setattr(counting, "_OWN_MAPPING_BYTES", 0)
    rng = np.random.default_rng(21)
    n, k = 200_000, 1 << 17
    a, b = rng.integers(0, k, n), rng.integers(0, k, n)
    home = rng.integers(0, k, k)
    stay = rng.random(n) < hot_catch
    b[stay] = home[a[stay]]
    fast = forced("numba", counting.count_cells, a, b, k, k, True)
    # A key an item: the rows' offsets stand for them; most items caught: the rows are written.
    assert (fast[0] is None) == (hot_catch == 0.0)
    fast = with_rows(fast)
    for x, y in zip(fast[:5], forced("numpy", counting.count_cells, a, b, k, k)):
        np.testing.assert_array_equal(x, y)
    m = fast[2].size
    assert (m > 0.9 * n) == (hot_catch == 0.0)
    for cells in fast[1:3]:  # no buffer kept alive beyond a third more than the cells
        assert cells.size == m and (cells.base is None or 3 * cells.base.size <= 4 * m)
    assert_maxima(fast[5], a, b, k, k, fast)


@pytest.mark.parametrize(("size", "m", "how"), [(1000, 750, "view"), (1000, 749, "copy"),
                                                (5 << 20, 1 << 20, "shrunk")])
def test_a_filled_buffer_is_fitted_to_its_cells(size, m, how):
    """A view where the cells fill three quarters of the buffer; else a buffer of their own —
    the buffer itself shrunk in place where it is mapped memory of its own (40 MiB here),
    copied where it is small enough to lie in the heap."""
    buffer = np.arange(size, dtype=np.int64)
    fitted = counting._fitted(buffer, m)
    np.testing.assert_array_equal(fitted, np.arange(m))
    assert fitted.size == m
    assert {"view": fitted.base is buffer, "copy": fitted.base is None and fitted is not buffer,
            "shrunk": fitted is buffer and fitted.base is None}[how]
