"""Compiled kernels (numba, the ``fast`` extra) that count a sparse table: more possible cells
than items (10^5 classes × 10^5 clusters from 10^7 labels: entity resolution, communities).

Reached only through :func:`metrics.core.kernels.counting.count_cells`, which has the numpy
counterpart giving the same cells (tested against each other).

The cells come out in row-major order, columns ascending — the order ``np.nonzero`` gives for
the dense table and ``Contingency.from_table`` keeps — so that a table counted from labels and
the same table given as cells sum their cells in the same order and give every measure to the
last bit.

How: an LSD radix sort of the packed keys ``row << col_bits | col``, then one run-length pass.
The digits split the column bits and the row bits separately, so that every digit's histogram
comes from a marginal (which the first pass counts anyway) instead of a pass over the items,
and a digit on which every key agrees is skipped. Digits have at most ``DIGIT_BITS`` bits: few
enough buckets that every bucket's write front stays in the L1/L2 cache, where a counting sort
straight by row (10^5 buckets) misses on nearly every write. Keys of at most 32 bits are sorted
as uint32 (half the memory traffic). Everything is O(n + classes + clusters); nothing is hashed.

Big buffers are allocated by numpy and handed in: numpy asks for transparent huge pages, and the
first touch of 80 MB of small pages costs about as much as a pass over them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["DIGIT_BITS", "keys_and_marginals", "digit_histogram", "scatter_digit", "count_runs", "runs_to_cells"]

# Bits per radix digit: 512 buckets.
DIGIT_BITS = 9


@njit(cache=True, nogil=True)
def keys_and_marginals(a, b, n_rows, n_cols, col_bits, keys, row_sums, col_sums):
    """The first pass: check every code, count the marginals into ``row_sums`` and ``col_sums``
    (zeroed int64 arrays of n_rows and n_cols), and write each item's key
    ``a[i] << col_bits | b[i]`` into ``keys`` (uint32 or uint64).

    Returns the first position whose code lies outside 0..n_rows − 1 or 0..n_cols − 1 — a
    negative code turns into a huge unsigned one, so one comparison a side checks both ends —
    or ``len(a)`` when every code is in range (only then is anything written valid)."""
    top_a = np.uint64(n_rows)
    top_b = np.uint64(n_cols)
    shift = np.uint64(col_bits)
    for i in range(a.shape[0]):
        x = np.uint64(a[i])
        y = np.uint64(b[i])
        if (x >= top_a) | (y >= top_b):
            return i
        row_sums[x] += 1
        col_sums[y] += 1
        keys[i] = (x << shift) | y
    return a.shape[0]


@njit(cache=True, nogil=True)
def digit_histogram(sizes, shift, bits):
    """How many items have each value of the digit (index >> shift) & (2^bits − 1), from the
    marginal ``sizes`` (items per index): the digit lies within the row bits or the column bits."""
    hist = np.zeros(1 << bits, dtype=np.int64)
    mask = (1 << bits) - 1
    for v in range(sizes.shape[0]):
        hist[(v >> shift) & mask] += sizes[v]
    return hist


@njit(cache=True, nogil=True)
def scatter_digit(src, dst, hist, shift, bits):
    """One stable counting-sort pass of the keys ``src`` into ``dst`` by their digit
    (key >> shift) & (2^bits − 1), whose histogram is ``hist``."""
    pos = np.empty(hist.shape[0], dtype=np.int64)
    total = np.int64(0)
    for d in range(hist.shape[0]):
        pos[d] = total
        total += hist[d]
    mask = np.uint64((1 << bits) - 1)
    ushift = np.uint64(shift)
    for i in range(src.shape[0]):
        k = src[i]
        digit = (np.uint64(k) >> ushift) & mask
        dst[pos[digit]] = k
        pos[digit] += 1


@njit(cache=True, nogil=True)
def count_runs(keys):
    """Number of distinct keys in the sorted array ``keys``: the non-zero cells."""
    if keys.shape[0] == 0:
        return 0
    cells = 1
    prev = keys[0]
    for i in range(1, keys.shape[0]):
        k = keys[i]
        if k != prev:
            cells += 1
            prev = k
    return cells


@njit(cache=True, nogil=True)
def runs_to_cells(keys, col_bits, row_index, col_index, rows, cols, vals):
    """The cells of the sorted keys: each run of equal keys is one cell, its row and column
    renumbered through ``row_index`` and ``col_index`` (code → index among the non-empty rows,
    columns) and its length the count."""
    shift = np.uint64(col_bits)
    col_mask = (np.uint64(1) << shift) - np.uint64(1)
    m = -1
    prev = np.uint64(0)
    for i in range(keys.shape[0]):
        k = np.uint64(keys[i])
        if i == 0 or k != prev:
            m += 1
            rows[m] = row_index[k >> shift]
            cols[m] = col_index[k & col_mask]
            vals[m] = 1
            prev = k
        else:
            vals[m] += 1
