"""Compiled per-cell sums (numba, the optional ``fast`` extra): one pass over a table's cells
for every sum the measures read from the cells with their class and cluster sizes.

With a_i the class sizes, b_j the cluster sizes and x = n_ij a non-zero cell, one pass gives

==============================  =============================================================
sum                             read by
==============================  =============================================================
Σ x log(b_j / x)                H(C|K): homogeneity, V, VI and its normalisations, E, Q0, Q2
Σ x log(a_i / x)                H(K|C): completeness, V, VI and its normalisations
Σ_i x² and Σ_j x² (split by     BCubed precision and recall, the element-centric similarity
which of a_i, b_j is larger)
max_j 2x / (a_i + b_j) per row  the clustering F measure and F_n
==============================  =============================================================

Why the conditional entropies are summed directly (issue 26, item 7): every term of
Σ x log(b_j / x) is non-negative, so the sum keeps its relative precision however small it
is, where H(C) − I subtracts two numbers of size log n and loses every digit of a
near-perfect table of 10^15 items. A term whose ratio b_j / x is below 2 takes
log1p((b_j − x) / x), with b_j − x exact in integers; the others take log b_j − log x,
whose relative error is a few ulps since the difference is at least log 2.

A grid whose cell histogram is kept (every cell below 4096, the summary pass's histogram) takes
its two conditional sums from that histogram and the rows' and columns' largest cells
(:func:`metrics.core.stats.conditional_sum_from_histogram`): no logarithm per cell, so its only
pass over the cells is :func:`grid_square_sums`, whose loops vectorise. Other grids add
:func:`grid_log_sums`.

Reached through :func:`metrics.core.stats.cell_kernels`, only where numba is installed; the
numpy counterpart (:func:`metrics.core.stats.x_log_ratio` over the cells) gives the same
sums up to rounding, and the tests run the two against each other.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["LOG_TABLE", "log_table", "grid_line_maxima", "grid_square_sums", "grid_log_sums", "grid_cell_sums",
           "coo_square_sums", "coo_log_sums", "coo_summary"]

# Counts below this take their logarithm from a table: one load instead of a log per cell.
LOG_TABLE = 1 << 12


def log_table() -> np.ndarray:
    """log k for k = 0 … LOG_TABLE − 1 (log 0 read as 0: an empty cell adds nothing)."""
    return np.log(np.maximum(np.arange(LOG_TABLE, dtype=np.float64), 1.0))


@njit(cache=True, nogil=True, inline="always")
def _log_count(x, logs):
    # ``logs`` is empty for fractional tables, whose cells are never looked up.
    if x < logs.shape[0]:
        return logs[np.int64(x)]
    return np.log(np.float64(x))


@njit(cache=True, nogil=True, inline="always")
def _x_log_ratio(x, fx, whole, log_whole, log_x):
    """x · log(whole / x) for 0 < x ≤ whole, accurate to a few ulps however close x is
    to whole (whole − x is then exact, and log1p keeps every digit of the small ratio)."""
    if x > whole - x:
        return fx * np.log1p(np.float64(whole - x) / fx)
    return fx * (log_whole - log_x)


# Loops over a grid row that LLVM vectorises: float sums reassociated into vector lanes (every
# partial sum of whole-number squares below 2^53 is exact, so the order changes nothing there),
# max reductions without NaN, and division without numba's zero check (no size is 0).
_VECTOR_MATH = {"reassoc", "nnan", "ninf", "nsz"}


@njit(cache=True, nogil=True, fastmath=_VECTOR_MATH, error_model="numpy")
def grid_line_maxima(grid):
    """Each row's and each column's largest cell of a count grid (int64): for the grids whose
    summary pass did not keep them (:func:`grid_cell_sums`)."""
    n_rows, n_cols = grid.shape
    row_top = np.zeros(n_rows, dtype=np.int64)
    col_top = np.zeros(n_cols, dtype=np.int64)
    for i in range(n_rows):
        row = grid[i]
        top = np.int64(0)
        for j in range(n_cols):
            x = np.int64(row[j])
            top = max(top, x)
            col_top[j] = max(col_top[j], x)
        row_top[i] = top
    return row_top, col_top


@njit(cache=True, nogil=True, fastmath=_VECTOR_MATH, error_model="numpy")
def grid_square_sums(grid, a, b):
    """The sums over a count grid's cells that need no logarithm, row by row.

    ``grid``: (R, C) counts, no empty row or column; ``a``, ``b``: its row and column sums
    (int64). Returns (row_sq, row_le, col_sq, col_gt, best_f): per-row and per-column Σ x² —
    all of it, and split by which of a_i, b_j is larger (``row_le``: cells with b_j ≤ a_i,
    ``col_gt``: the others) —, and each row's max_j 2x / (a_i + b_j). The rows' and columns'
    largest cells, which the log sums also need, come from the grid's summary pass
    (:func:`metrics.core.kernels.compiled.grid_summary`) or :func:`grid_line_maxima`.

    Why two loops per row instead of one: each of them vectorises on its own (a loop that
    mixes float sums and a division does not), and the row stays in cache between them. F's
    maximum is taken over the quotients' bit patterns as integers: for non-negative doubles
    they order alike, and an integer max reduction vectorises where a float one does not.
    2 · fl(x / d) = fl(2x / d) exactly, so F is the per-cell formula's."""
    n_rows, n_cols = grid.shape
    fb = np.empty(n_cols)
    for j in range(n_cols):
        fb[j] = np.float64(b[j])
    row_sq = np.zeros(n_rows)
    row_le = np.zeros(n_rows)
    col_sq = np.zeros(n_cols)
    col_gt = np.zeros(n_cols)
    best_f = np.zeros(n_rows)
    best_bits = best_f.view(np.int64)
    quotient = np.empty(n_cols)
    quotient_bits = quotient.view(np.int64)
    for i in range(n_rows):
        row = grid[i]
        fa = np.float64(a[i])
        r_sq = 0.0
        r_le = 0.0  # summed apart, not r_sq − Σ gt: squares past 2^53 would cancel
        for j in range(n_cols):
            fx = np.float64(row[j])
            sq = fx * fx
            larger_b = fb[j] > fa
            r_sq += sq
            r_le += 0.0 if larger_b else sq
            col_sq[j] += sq
            col_gt[j] += sq if larger_b else 0.0
        row_sq[i] = r_sq
        row_le[i] = r_le
        for j in range(n_cols):
            quotient[j] = np.float64(row[j]) / (fa + fb[j])
        bits = np.int64(0)
        for j in range(n_cols):
            bits = max(bits, quotient_bits[j])
        best_bits[i] = bits
    for i in range(n_rows):
        best_f[i] *= 2.0
    return row_sq, row_le, col_sq, col_gt, best_f


@njit(cache=True, nogil=True)
def grid_log_sums(grid, a, b, row_top, col_top, logs):
    """(Σ x log(b_j/x), Σ x log(a_i/x)) over a count grid's non-zero cells, ``row_top`` and
    ``col_top`` its rows' and columns' largest cells (:func:`grid_line_maxima`): for grids
    whose cell histogram is not kept (a cell of 4096 or more), where
    :func:`metrics.core.stats.conditional_sum_from_histogram` cannot serve.

    Why no branch per cell: an empty cell adds 0 to both sums (x = 0, log 0 read as 0), and
    a cell past half its row (or column) — its largest, so at most one per row and one per
    column — is left out by a 0/1 factor and added after the pass through log1p. In a random
    table a branch on either would be mispredicted often."""
    n_rows, n_cols = grid.shape
    log_b = np.empty(n_cols)
    for j in range(n_cols):
        log_b[j] = _log_count(b[j], logs)
    h_c_k = 0.0
    h_k_c = 0.0
    for i in range(n_rows):
        row = grid[i]
        ai = np.int64(a[i])
        la = _log_count(ai, logs)
        r_ck = 0.0
        r_kc = 0.0
        for j in range(n_cols):
            x = np.int64(row[j])
            fx = np.float64(x)
            lx = _log_count(x, logs)
            twice = x + x
            r_ck += fx * (log_b[j] - lx) * np.float64(twice <= b[j])
            r_kc += fx * (la - lx) * np.float64(twice <= ai)
        top = row_top[i]
        if top + top > ai:
            r_kc += _x_log_ratio(top, np.float64(top), ai, la, 0.0)
        h_c_k += r_ck
        h_k_c += r_kc
    for j in range(n_cols):
        top = col_top[j]
        if top + top > b[j]:
            h_c_k += _x_log_ratio(top, np.float64(top), b[j], log_b[j], 0.0)
    return h_c_k, h_k_c


@njit(cache=True, nogil=True)
def grid_cell_sums(grid, a, b, logs):
    """Every sum of the module over a count grid's cells: (Σ x log(b_j/x), Σ x log(a_i/x),
    row_sq, row_le, col_sq, col_gt, best_f) — :func:`grid_log_sums` after
    :func:`grid_square_sums` (see there). ``logs``: :func:`log_table`."""
    row_sq, row_le, col_sq, col_gt, best_f = grid_square_sums(grid, a, b)
    row_top, col_top = grid_line_maxima(grid)
    h_c_k, h_k_c = grid_log_sums(grid, a, b, row_top, col_top, logs)
    return h_c_k, h_k_c, row_sq, row_le, col_sq, col_gt, best_f


@njit(cache=True, nogil=True, error_model="numpy")
def coo_square_sums(rows, cols, vals, a, b):
    """:func:`grid_square_sums`' first five sums over the non-zero cells of a coordinate table
    (``rows[k]``, ``cols[k]``, ``vals[k]``; counts or masses, ``a`` and ``b`` in the same kind),
    in any order: (row_sq, row_le, col_sq, col_gt, best_f).

    Why the columns' state is packed (size, Σ x², Σ x² where b_j > a_i: one row of three per
    column): cells of a big table reach their columns in random order, and each column's three
    numbers then come in one cache line instead of three misses."""
    n_rows = a.shape[0]
    n_cols = b.shape[0]
    col = np.zeros((n_cols, 3))
    for j in range(n_cols):
        col[j, 0] = np.float64(b[j])
    row_sq = np.zeros(n_rows)
    row_le = np.zeros(n_rows)
    best_f = np.zeros(n_rows)
    for k in range(vals.shape[0]):
        i = rows[k]
        j = cols[k]
        fx = np.float64(vals[k])
        fa = np.float64(a[i])
        fbj = col[j, 0]
        sq = fx * fx
        gt = sq if fbj > fa else 0.0
        row_sq[i] += sq
        row_le[i] += sq - gt
        col[j, 1] += sq
        col[j, 2] += gt
        best_f[i] = max(best_f[i], 2.0 * fx / (fa + fbj))
    return row_sq, row_le, col[:, 1].copy(), col[:, 2].copy(), best_f


@njit(cache=True, nogil=True)
def coo_log_sums(rows, cols, vals, a, b, logs):
    """(Σ x log(b_j/x), Σ x log(a_i/x)) over the non-zero cells of a coordinate table (see
    :func:`coo_square_sums`; ``logs`` empty for masses), for tables whose cell histogram does
    not serve (:func:`metrics.core.stats.conditional_sum_from_histogram`): fractional cells,
    or counts too large to histogram. Each column's size and its logarithm packed side by
    side, for the reason given there."""
    n_rows = a.shape[0]
    n_cols = b.shape[0]
    log_a = np.empty(n_rows)
    for i in range(n_rows):
        log_a[i] = _log_count(a[i], logs)
    col = np.empty((n_cols, 2))
    for j in range(n_cols):
        col[j, 0] = np.float64(b[j])
        col[j, 1] = _log_count(b[j], logs)
    h_c_k = 0.0
    h_k_c = 0.0
    for k in range(vals.shape[0]):
        i = rows[k]
        j = cols[k]
        x = vals[k]
        fx = np.float64(x)
        lx = _log_count(x, logs)
        h_c_k += _x_log_ratio(x, fx, b[j], col[j, 1], lx)
        h_k_c += _x_log_ratio(x, fx, a[i], log_a[i], lx)
    return h_c_k, h_k_c


@njit(cache=True, nogil=True)
def coo_summary(rows, cols, vals, n_rows, n_cols):
    """Row and column sums and maxima (int64) of a coordinate table's integer cells, in one
    pass (numpy needs a bincount per side and a slow ``maximum.at`` per side)."""
    row_sums = np.zeros(n_rows, dtype=np.int64)
    row_max = np.zeros(n_rows, dtype=np.int64)
    col_sums = np.zeros(n_cols, dtype=np.int64)
    col_max = np.zeros(n_cols, dtype=np.int64)
    for k in range(vals.shape[0]):
        i = rows[k]
        j = cols[k]
        x = np.int64(vals[k])
        row_sums[i] += x
        col_sums[j] += x
        row_max[i] = max(row_max[i], x)
        col_max[j] = max(col_max[j], x)
    return row_sums, row_max, col_sums, col_max
