"""The sparse count's two-level sort (metrics/core/kernels/sparse_counting.py: ``bucket_scatter``,
``sort_buckets``; metrics/core/kernels/counting.py: ``count_cells``).

* the buckets' keys, each bucket sorted, are the sorted keys, the cells counted are the distinct
  keys and the rows' marginal counted on the way is the keys' — for every split of the key's
  bits: no column bits, no row bits kept in a bucket, more than one digit of them, empty
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

from .test_sparse_counting import assert_maxima, forced  # noqa: E402


def two_level_sort(keys: np.ndarray, n_rows: int, col_bits: int, low: int):
    """``keys`` (uint64 ``row << col_bits | col``) through both levels: (the full keys in the
    order the buckets hold them, the cells sort_buckets counted)."""
    rows = (keys >> np.uint64(col_bits)).astype(np.int64)
    out = np.empty(keys.size, dtype=np.uint32)
    starts = nb.bucket_scatter(keys, out, np.bincount(rows >> low, minlength=((n_rows - 1) >> low) + 1), col_bits, low)
    assert starts[0] == 0 and starts[-1] == keys.size and np.all(np.diff(starts) >= 0)
    digits = counting._digits(col_bits, nb.DIGIT_BITS)
    digits += [(col_bits + s, w) for s, w in counting._digits(low, nb.DIGIT_BITS)]
    shifts = np.array([d[0] for d in digits], dtype=np.int64)
    widths = np.array([d[1] for d in digits], dtype=np.int64)
    key_rows = np.zeros(n_rows, dtype=np.int64)
    cells = nb.sort_buckets(out, starts, col_bits, low, shifts, widths, key_rows)
    np.testing.assert_array_equal(key_rows, np.bincount(rows, minlength=n_rows))  # the rows' marginal, counted
    bucket = np.repeat(np.arange(starts.size - 1, dtype=np.uint64), np.diff(starts))
    return (bucket << np.uint64(col_bits + low)) | out.astype(np.uint64), cells


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 3000), st.integers(0, 20), st.integers(0, 14), st.integers(0, 2**32),
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
    got, cells = two_level_sort(keys, n_rows, col_bits, low)
    np.testing.assert_array_equal(got, np.sort(keys))
    assert cells == np.unique(keys).size


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
    got, cells = two_level_sort(keys, 1 << row_bits, col_bits, low)
    np.testing.assert_array_equal(got, np.sort(keys))
    assert cells == np.unique(keys).size


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
    assert ("scatter_digit" in calls) == (not two_levels)
    for x, y in zip(fast[:5], forced("numpy", counting.count_cells, a, b, n_rows, n_cols)):
        assert x.dtype == y.dtype == np.int64
        np.testing.assert_array_equal(x, y)
    assert_maxima(fast[5], a, b, n_rows, n_cols, fast)


@pytest.mark.parametrize("hot_catch", [0.0, 0.9])
def test_cells_written_over_the_sorts_buffers_are_numpys(hot_catch):
    """About a cell per item at 34 key bits: the values are written in the buffer whose upper half
    holds the bucket keys and the rows over the first pass's keys; every cell is still numpy's.
    With most items caught by their class's hot cell, fewer cells than items: fresh arrays."""
    rng = np.random.default_rng(21)
    n, k = 200_000, 1 << 17
    a, b = rng.integers(0, k, n), rng.integers(0, k, n)
    home = rng.integers(0, k, k)
    stay = rng.random(n) < hot_catch
    b[stay] = home[a[stay]]
    fast = forced("numba", counting.count_cells, a, b, k, k, True)
    shared = fast[0].base is not None and fast[2].base is not None
    assert shared == (hot_catch == 0.0)
    for x, y in zip(fast[:5], forced("numpy", counting.count_cells, a, b, k, k)):
        np.testing.assert_array_equal(x, y)
    assert_maxima(fast[5], a, b, k, k, fast)
