"""Compiled kernels (numba, the ``fast`` extra) that count a sparse table: more possible cells
than items (10^5 classes × 10^5 clusters from 10^7 labels: entity resolution, communities).

Reached only through :func:`metrics.core.kernels.counting.count_cells`, which has the numpy
counterpart giving the same cells (tested against each other), and, for cells sorted and
counted on a GPU, through :func:`metrics.core.kernels.counting.cells_of_sorted_keys`.

The cells come out in row-major order, columns ascending — the order ``np.nonzero`` gives for
the dense table and ``Contingency.from_table`` keeps — so that a table counted from labels and
the same table given as cells sum their cells in the same order and give every measure to the
last bit.

How: the first pass checks the codes, counts the marginals and gives each class one *hot cell* —
the cluster of its first item — whose later items are only counted there. The other items'
packed keys ``row << col_bits | col`` are written out (each hot cell's first item among them),
LSD radix sorted and run-length encoded, each hot cell's run getting the items it caught. Labels
whose classes mostly stay in one cluster (entity resolution) then sort a small share of the
keys; where the hot cells miss more than they catch (random labels), the pass stops looking after
a block of items, and that case pays for the block only.

The keys are sorted in two levels wherever a bucket's key fits 32 bits: one counting-sort pass
into at most 2^DIGIT_BITS buckets by the row's high bits, keeping each key's low bits as uint32
(half the traffic of a 64-bit key), then each bucket — 2^low classes, a few tens of thousands of
keys at the sizes this is for — LSD radix sorted where it fits in the L2 cache, by the column's
digits and then the row's low bits, and turned into its cells while it is still there. Each
digit's histogram is counted on the pass before it, and the row digit's histogram is the
bucket's rows' marginal, so the first pass counts only the buckets' sizes (an increment in the L1
cache) where the classes' marginal would be a random one in L2. Past 32 bits (some 2^21 classes
and clusters and more), one level: an LSD radix sort of the whole keys whose digits split the
column bits and the row bits separately, so that every digit's histogram comes from a marginal
of the written keys (the first pass's marginals less the hot cells' catch) instead of a pass over
the items, and a digit on which every key agrees is skipped. Digits have at most ``DIGIT_BITS``
bits: few enough buckets that every bucket's write front stays in the L1/L2 cache, where a
counting sort straight by row (10^5 buckets) misses on nearly every write. Keys of at most 32
bits are sorted as uint32. Everything is O(n + classes + clusters); nothing is hashed.

Big buffers are allocated by numpy and handed in: numpy asks for transparent huge pages, and the
first touch of 80 MB of small pages costs about as much as a pass over them — which is also why
the cells are written over the sort's own buffers (the columns over the first pass's keys, the
values over the buffer whose upper half holds the bucket keys; the rows not at all where two
levels sort: each row's first cell stands for them), which
:func:`metrics.core.kernels.counting.count_cells` then fits to the cells.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

__all__ = ["DIGIT_BITS", "keys_and_marginals", "digit_histogram", "scatter_digit", "bucket_scatter", "sort_buckets",
           "count_runs", "runs_to_cells",
           "CellSquares", "SPLIT_ONES_ITEMS", "square_sums"]

# Bits per radix digit: 512 buckets.
DIGIT_BITS = 9


@njit(cache=True, nogil=True)
def keys_and_marginals(a, b, n_rows, n_cols, col_bits, keys, row_sums, col_sums, hot, block, narrow, row_shift):
    """The first pass: check every code, count the marginals into ``row_sums`` and ``col_sums``
    (zeroed int64 arrays of ((n_rows − 1) >> row_shift) + 1 and n_cols: each class's items are
    counted at its code >> ``row_shift`` — 0 for the classes' marginal, the bits a bucket keeps for
    the buckets' sizes, one increment in the L1 cache where a marginal's is in L2), keep each
    class's hot cell in ``hot`` (zeroed int64, n_rows × 2: the hot cluster + 1, 0 for none yet,
    and the items it caught after the first), and write the keys ``a[i] << col_bits | b[i]`` of
    the other items into ``keys`` (uint32 or uint64) — the first item of a hot cell included, so
    that each hot cell is a cell of the sorted keys, to which :func:`runs_to_cells` adds the
    items it caught.

    After the first ``block`` items, and every ``block`` items after, the hot cells are left alone
    for the rest of the pass unless they caught as many items as they missed (items of a class
    whose hot cell holds another cluster); the hot cells filled until then stay.

    Returns (the first position whose code lies outside 0..n_rows − 1 or 0..n_cols − 1 — a
    negative code turns into a huge unsigned one, so one comparison a side checks both ends — or
    ``len(a)`` when every code is in range, the number of keys written); only when every code is in
    range is anything written valid."""
    top_a = np.uint64(n_rows)
    top_b = np.uint64(n_cols)
    shift = np.uint64(col_bits)
    n = a.shape[0]
    written = 0
    misses = 0
    hot_on = True
    start = 0
    # While the hot cells are on, an item touches its class's hot cell only: the marginals are
    # made up after the loop from the keys written and the hot cells' catch (two fewer random
    # increments per item, most of this loop's cost).
    while start < n and hot_on:
        stop = min(n, start + block)
        for i in range(start, stop):
            x = np.uint64(a[i])
            y = np.uint64(b[i])
            if (x >= top_a) | (y >= top_b):
                return i, written
            h = hot[x, 0]
            y1 = np.int64(y) + 1
            if h == y1:
                hot[x, 1] += 1
                continue
            if h == 0:
                hot[x, 0] = y1
            else:
                misses += 1
            keys[written] = (x << shift) | y
            written += 1
        hot_on = stop - written >= misses  # the items caught against those missed
        start = stop
    col_mask = (np.uint64(1) << shift) - np.uint64(1)
    rshift = np.uint64(row_shift)
    for i in range(written):
        k = np.uint64(keys[i])
        row_sums[(k >> shift) >> rshift] += 1
        col_sums[k & col_mask] += 1
    for r in range(n_rows):
        if hot[r, 1]:
            row_sums[r >> row_shift] += hot[r, 1]
            col_sums[hot[r, 0] - 1] += hot[r, 1]
    # The rest of the items, the hot cells left alone: every key written; counted into int32
    # marginals where ``narrow`` (fewer than 2^31 items): the two random increments per item are
    # most of this loop, and at 10^5 classes and clusters two int32 arrays fit in L2, int64 ones not.
    if start < n:
        if narrow:
            rows32, cols32 = np.zeros(row_sums.shape[0], dtype=np.int32), np.zeros(n_cols, dtype=np.int32)
            stop = _all_keys(a[start:], b[start:], n_rows, n_cols, col_bits, keys[written:], rows32, cols32,
                             row_shift)
            row_sums += rows32
            col_sums += cols32
        else:
            stop = _all_keys(a[start:], b[start:], n_rows, n_cols, col_bits, keys[written:], row_sums, col_sums,
                             row_shift)
        written += stop
        if start + stop < n:
            return start + stop, written
    return n, written


@njit(cache=True, nogil=True)
def _all_keys(a, b, n_rows, n_cols, col_bits, keys, row_sums, col_sums, row_shift):
    """:func:`keys_and_marginals` without hot cells: every item's key written at its own position.
    Returns the first position whose code is out of range, or ``len(a)``."""
    top_a = np.uint64(n_rows)
    top_b = np.uint64(n_cols)
    shift = np.uint64(col_bits)
    rshift = np.uint64(row_shift)
    for i in range(a.shape[0]):
        x = np.uint64(a[i])
        y = np.uint64(b[i])
        if (x >= top_a) | (y >= top_b):
            return i
        row_sums[x >> rshift] += 1
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
def bucket_scatter(keys, out, sizes, col_bits, low):
    """The first level of the two-level sort: the keys ``row << col_bits | col`` counting-sorted
    into buckets by their row's bits above ``low`` (``sizes``: the keys of each bucket), each key
    written to ``out`` (uint32) as its ``col_bits + low`` bits below them — half the traffic of a
    64-bit key. Returns the buckets' starts in ``out`` (one more than the buckets)."""
    starts = np.zeros(sizes.shape[0] + 1, dtype=np.int64)
    for j in range(sizes.shape[0]):
        starts[j + 1] = starts[j] + sizes[j]
    pos = starts[:-1].copy()
    sub_bits = np.uint64(col_bits + low)
    sub_mask = (np.uint64(1) << sub_bits) - np.uint64(1)
    for i in range(keys.shape[0]):
        k = np.uint64(keys[i])
        bucket = k >> sub_bits
        out[pos[bucket]] = np.uint32(k & sub_mask)
        pos[bucket] += 1
    return starts


@njit(cache=True, nogil=True)
def sort_buckets(keys, starts, col_bits, low, shifts, widths, key_rows, hot, row_index, col_index, rows, cols, vals,
                 row_starts, row_max, col_max, hist, squares):
    """The second level: each bucket ``keys[starts[j]:starts[j + 1]]`` (uint32, from
    :func:`bucket_scatter`) sorted by an LSD radix sort on the digits (``shifts``, ``widths``:
    the column's digits first, then the row's low bits') — a bucket of 2^low classes is a few
    tens of thousands of keys at most sizes, sorted within the L2 cache — and, while it is there,
    turned into its cells as :func:`runs_to_cells` does (``rows`` — empty: not written —,
    ``cols``, ``vals``, ``row_starts``, ``row_max``, ``col_max``, ``hist``, ``squares``: its
    arrays; ``vals`` may be the buffer whose upper half holds ``keys``).

    Each digit's histogram is counted on the pass before it (the first by a pass of its own); the
    row digit's (where the low bits make one digit) is each row's keys. So the sort finds the
    classes' marginal, which the first pass then need not count at random: ``key_rows`` (zeroed,
    by row code) gets each class's items (its keys and its hot cell's catch in ``hot``),
    ``row_index`` (by code) each class's index among the classes in use and ``row_max`` 1 for
    each class in use, before its bucket's cells are written. Returns (the number of cells,
    whether every cell fitted in ``hist``)."""
    n_digits = shifts.shape[0]
    biggest = 0
    for j in range(starts.shape[0] - 1):
        biggest = max(biggest, starts[j + 1] - starts[j])
    spare = np.empty(biggest, dtype=keys.dtype)
    hist_d = np.zeros((n_digits + 1, 1 << DIGIT_BITS), dtype=np.int64)
    m, complete, rank = -1, True, 0
    for j in range(starts.shape[0] - 1):
        lo, size = starts[j], starts[j + 1] - starts[j]
        if size == 0:  # no keys, so no items: a hot cell's first item is a key
            continue
        src, dst = keys[lo:lo + size], spare[:size]
        hist_d[:] = 0
        if n_digits:
            _count_digit(src, size, hist_d[0], shifts[0], widths[0])
        first_row = j << low
        for d in range(n_digits):
            if d == n_digits - 1 and 0 < low <= DIGIT_BITS:  # the row digit: its histogram is the rows'
                _store_rows(hist_d[d], key_rows, first_row, low)
            counts_next = d + 1 < n_digits
            _scatter_counting(src, dst, size, hist_d[d], shifts[d], widths[d], hist_d[d + 1],
                              shifts[d + 1] if counts_next else 0, widths[d + 1] if counts_next else 0, counts_next)
            src, dst = dst, src
        if low == 0:  # a bucket of one class
            key_rows[j] = size
        elif low > DIGIT_BITS:  # rows of more than one digit: counted over the sorted bucket
            _count_rows(src, size, key_rows, first_row, col_bits)
        rank = _bucket_rows(key_rows, hot, row_index, row_max, first_row, min(first_row + (1 << low),
                                                                              key_rows.shape[0]), rank)
        m, complete = _bucket_cells(src, 0, size, np.uint64(j) << np.uint64(col_bits + low), None, col_bits,
                                    row_index, col_index, hot, rows, cols, vals, row_starts, row_max, col_max, hist,
                                    squares, m, complete)
    return m + 1, complete


@njit(cache=True, nogil=True, inline="always")
def _bucket_rows(key_rows, hot, row_index, row_max, first_row, stop_row, rank):
    """A bucket's classes, before its cells: their items (keys and hot cells' catch), index among
    the classes in use (numbered on from ``rank``, returned) and largest cell's floor, 1."""
    for r in range(first_row, stop_row):
        key_rows[r] += hot[r, 1]
        if key_rows[r]:
            row_index[r] = rank
            rank += 1
            row_max[r] = 1
    return rank


@njit(cache=True, nogil=True, inline="always")
def _store_rows(hist, key_rows, first_row, low):
    for v in range(min(1 << low, key_rows.shape[0] - first_row)):
        key_rows[first_row + v] = hist[v]


@njit(cache=True, nogil=True, inline="always")
def _count_rows(src, size, key_rows, first_row, col_bits):
    """Each row's keys in the sorted ``src[:size]``, counted in a register (the rows come one
    after another) and stored in ``key_rows``."""
    shift = np.uint64(col_bits)
    row = np.int64(np.uint64(src[0]) >> shift)
    count = 0
    for i in range(size):
        r = np.int64(np.uint64(src[i]) >> shift)
        if r != row:
            key_rows[first_row + row] = count
            row = r
            count = 0
        count += 1
    key_rows[first_row + row] = count


@njit(cache=True, nogil=True, inline="always")
def _count_digit(keys, size, hist, shift, width):
    mask = np.uint32((1 << width) - 1)
    ushift = np.uint32(shift)
    for i in range(size):
        hist[(keys[i] >> ushift) & mask] += 1


@njit(cache=True, nogil=True, inline="always")
def _scatter_counting(src, dst, size, hist, shift, width, next_hist, next_shift, next_width, counts_next):
    """One stable counting-sort pass of ``src`` into ``dst`` by a digit whose histogram is
    ``hist``; where ``counts_next``, the next digit's histogram counted on the way."""
    total = np.int64(0)
    for v in range(1 << width):
        c = hist[v]
        hist[v] = total
        total += c
    mask = np.uint32((1 << width) - 1)
    ushift = np.uint32(shift)
    if counts_next:
        next_mask = np.uint32((1 << next_width) - 1)
        next_ushift = np.uint32(next_shift)
        for i in range(size):
            k = src[i]
            digit = (k >> ushift) & mask
            dst[hist[digit]] = k
            hist[digit] += 1
            next_hist[(k >> next_ushift) & next_mask] += 1
    else:
        for i in range(size):
            k = src[i]
            digit = (k >> ushift) & mask
            dst[hist[digit]] = k
            hist[digit] += 1


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
def runs_to_cells(keys, starts, sub_bits, counts, col_bits, row_index, col_index, hot, rows, cols, vals, row_starts,
                  row_max, col_max, hist, squares):
    """The cells of the sorted keys: each run of equal keys is one cell, its row and column
    renumbered through ``row_index`` and ``col_index`` (code → index among the non-empty rows,
    columns; an empty array: the codes in use are 0 … k − 1, each its own index), its count the
    length of the run plus, for a class's hot cell (``hot``: :func:`keys_and_marginals`'), the
    items it caught.
    ``counts``: None (each key is one item), or each key's items — keys counted elsewhere (on a
    GPU), each distinct, whose runs are one key long. The keys come in buckets: key i of bucket j
    (``starts[j] ≤ i < starts[j + 1]``) is ``j << sub_bits | keys[i]`` (one bucket and
    ``sub_bits`` 0: the keys as they are). ``row_starts`` (one more than the rows' codes) gets each
    row's first cell, by the row's index. ``rows`` may be a buffer the keys no longer use,
    ``cols`` the memory of 64-bit ``keys`` itself and ``vals`` that of ``counts``, or 32-bit
    ``keys`` may lie in the upper half of ``vals``' buffer (``len(keys)`` int64): cell m is written
    after key i ≥ m is read, no key before i is read again, and 8m < 4·len(keys) + 4i.

    On the way, what every table needs of its cells: each row's and column's largest cell
    (``row_max``, ``col_max`` by code, given as 1 for each code in use, 0 for the others) and how
    many cells hold each count 2 … len(hist) − 1 (``hist``, zeroed). Only cells of 2 items or more
    touch them — nearly none where there is about a cell per item — so this costs a fraction of
    a pass of its own. Returns whether every cell fitted in ``hist``.

    ``squares``: :class:`CellSquares` to fill (None: left out) — the sums of
    :func:`metrics.core.kernels.cell_stats.coo_square_sums` by code, to the last bit, while the
    cells are in hand rather than read back from the arrays written here: its operations on the
    cells in its order, but for cells of one item where :data:`SPLIT_ONES_ITEMS` allows."""
    m, complete = -1, True
    for j in range(starts.shape[0] - 1):
        if starts[j + 1] > starts[j]:
            m, complete = _bucket_cells(keys, starts[j], starts[j + 1], np.uint64(j) << np.uint64(sub_bits), counts,
                                        col_bits, row_index, col_index, hot, rows, cols, vals, row_starts, row_max,
                                        col_max, hist, squares, m, complete)
    return complete


@njit(cache=True, nogil=True)
def _bucket_cells(keys, lo, hi, high, counts, col_bits, row_index, col_index, hot, rows, cols, vals, row_starts,
                  row_max, col_max, hist, squares, m, complete):
    """:func:`runs_to_cells` of one bucket, ``keys[lo:hi]`` (each key ``high | keys[i]``), whose
    rows no other bucket holds: its cells written from cell ``m + 1`` on, and each row's first
    cell into ``row_starts`` (by the row's index; the offsets of the cells by row, which every
    sparse matching reads), each cell's row into ``rows`` unless it is empty (the offsets stand
    for them). Returns (the last cell written, whether every cell so far fitted in ``hist``)."""
    shift = np.uint64(col_bits)
    col_mask = (np.uint64(1) << shift) - np.uint64(1)
    own_rows = row_index.shape[0] == 0
    own_cols = col_index.shape[0] == 0
    each_row = rows.shape[0] > 0
    cap = hist.shape[0]
    prev = np.uint64(0)
    row = np.int64(-1)
    row_at = np.int64(0)
    hot_col = np.int64(-1)
    caught = np.int64(0)
    c = np.int64(0)
    x = np.int64(0)  # the current cell's items, in a register until the cell closes
    # The current row's size and square sums, kept in registers: summed through its arrays, each
    # cell would wait for the store of the one before (the cells of a row come one after another).
    a_row = np.int64(0)
    r_sq, r_le, r_f = 0.0, 0.0, 0.0
    ones, ones_le, ones_min_b = 0, 0, _NO_COLUMN
    split = squares is not None and squares.b_small.shape[0] > 0
    first = True
    for i in range(lo, hi):
        k = high | np.uint64(keys[i])
        if first or k != prev:
            if not first:  # the run before is complete: its cell's count is final
                vals[m] = x
                if x > 1:  # rare where there is about a cell per item
                    complete &= _note_cell(x, row, c, row_max, col_max, hist, cap)
                if squares is not None:
                    if split and x == 1:
                        ones, ones_le, ones_min_b = _one_cell(squares, c, a_row, ones, ones_le, ones_min_b)
                    else:
                        r_sq, r_le, r_f = _square_cell(x, a_row, squares.col[c], split, r_sq, r_le, r_f)
            m += 1
            r = np.int64(k >> shift)
            c = np.int64(k & col_mask)
            if r != row:  # a new row: its index and its hot cell, read once
                if squares is not None:
                    if row >= 0:
                        _store_row(squares, row, a_row, r_sq, r_le, r_f, ones, ones_le, ones_min_b)
                    a_row = squares.a[r]
                    r_sq, r_le, r_f = 0.0, 0.0, 0.0
                    ones, ones_le, ones_min_b = 0, 0, _NO_COLUMN
                row = r
                row_at = r if own_rows else row_index[r]
                row_starts[row_at] = m
                hot_col = hot[r, 0] - 1
                caught = hot[r, 1]
            if each_row:
                rows[m] = row_at
            cols[m] = c if own_cols else col_index[c]
            if counts is None:
                x = np.int64(1 + caught if c == hot_col else 1)
            else:
                x = np.int64(counts[i]) + (caught if c == hot_col else 0)
            prev = k
            first = False
        else:
            x += 1
    # The last run closes as the loop closes each run before it. Written once in a helper that
    # takes and returns the row's sums, numba kept the sums in memory, not registers: about 3×
    # slower (docs/performance.md, "Where the random labels' time goes").
    vals[m] = x
    if x > 1:
        complete &= _note_cell(x, row, c, row_max, col_max, hist, cap)
    if squares is not None:
        if split and x == 1:
            ones, ones_le, ones_min_b = _one_cell(squares, c, a_row, ones, ones_le, ones_min_b)
        else:
            r_sq, r_le, r_f = _square_cell(x, a_row, squares.col[c], split, r_sq, r_le, r_f)
        _store_row(squares, row, a_row, r_sq, r_le, r_f, ones, ones_le, ones_min_b)
    return m, complete


class CellSquares(NamedTuple):
    """:func:`metrics.core.kernels.cell_stats.coo_square_sums`' sums by row and column code, which
    :func:`runs_to_cells` fills (:func:`square_sums` reads them out): ``a`` the classes' sizes
    (int64), ``row_sq``, ``row_le``, ``best_f`` floats by row (each row written once), ``col``
    (n_cols × 4 floats, zeroed but for column 0) each column's size, Σ x², Σ x² where b_j > a_i
    and (where cells of one item are counted apart) the items of its other cells, side by side
    (one cache line for a column reached at random). ``b_small`` (int32 sizes by column, or
    empty) asks for cells of one item apart: counted, not summed — ``ones_gt`` (int32, zeroed)
    counts those where b_j > a_i by column — which only the tables of fewer than
    :data:`SPLIT_ONES_ITEMS` items may do."""

    a: np.ndarray
    row_sq: np.ndarray
    row_le: np.ndarray
    best_f: np.ndarray
    col: np.ndarray
    b_small: np.ndarray
    ones_gt: np.ndarray


# Below this many items every sum of squares of a row or column is below 2^53, so floats sum
# whole numbers exactly in any order, and cells of one item may be counted apart and added
# at the end (to the last bit what adding them cell by cell gives): in a table of about a cell
# per item, nearly every cell then costs a comparison and a small counter instead of two float
# sums in a big array.
SPLIT_ONES_ITEMS = 1 << 26


@njit(cache=True, nogil=True, inline="always", error_model="numpy")
def _square_cell(x, a_row, col, split, r_sq, r_le, r_f):
    """A cell of ``x`` items in a row of ``a_row`` items and the column whose packed state is
    ``col``: coo_square_sums' loop body, operation for operation, the row's three sums carried
    along; where cells of one item are counted apart (``split``), the column's items in its
    other cells too."""
    fx = np.float64(x)
    fa = np.float64(a_row)
    fbj = col[0]
    sq = fx * fx
    gt = sq if fbj > fa else 0.0
    col[1] += sq
    col[2] += gt
    if split:
        col[3] += fx
    return r_sq + sq, r_le + (sq - gt), max(r_f, 2.0 * fx / (fa + fbj))


# Above every column's size: the smallest column of a row's cells of one item, before the first.
_NO_COLUMN = np.int64(1) << 62


@njit(cache=True, nogil=True, inline="always")
def _one_cell(squares, col, a_row, ones, ones_le, ones_min_b):
    """A cell of one item in column ``col`` of a row of ``a_row`` items, counted: without a branch
    on b_j > a_i, which a random table would mispredict half the time."""
    bj = np.int64(squares.b_small[col])
    gt = np.int64(bj > a_row)
    squares.ones_gt[col] += gt
    return ones + 1, ones_le + (1 - gt), min(ones_min_b, bj)


@njit(cache=True, nogil=True, inline="always", error_model="numpy")
def _store_row(squares, row, a_row, r_sq, r_le, r_f, ones, ones_le, ones_min_b):
    """A row's sums, its cells of one item added: each adds 1 to Σ x², and its largest
    2x / (a_i + b_j) is the one in the smallest column (the division rounds monotonically)."""
    squares.row_sq[row] = r_sq + ones
    squares.row_le[row] = r_le + ones_le
    squares.best_f[row] = max(r_f, 2.0 / (np.float64(a_row) + ones_min_b)) if ones else r_f


def square_sums(squares: CellSquares) -> tuple[np.ndarray, ...]:
    """(row_sq, row_le, col_sq, col_gt, best_f) by code from a filled :class:`CellSquares`: the
    columns' cells of one item added (b_j less the items of its bigger cells)."""
    col = squares.col
    if squares.b_small.shape[0] == 0:
        return squares.row_sq, squares.row_le, col[:, 1].copy(), col[:, 2].copy(), squares.best_f
    return (squares.row_sq, squares.row_le, *_column_sums(col, squares.ones_gt), squares.best_f)


@njit(cache=True, nogil=True)
def _column_sums(col, ones_gt):
    """Each column's Σ x² and Σ x² where b_j > a_i, its cells of one item added: numpy's
    ``col[:, 1] + (col[:, 0] - col[:, 3])`` and ``col[:, 2] + ones_gt``, the same operations, in one
    pass where numpy's strided columns take four."""
    col_sq, col_gt = np.empty(col.shape[0]), np.empty(col.shape[0])
    for j in range(col.shape[0]):
        col_sq[j] = col[j, 1] + (col[j, 0] - col[j, 3])
        col_gt[j] = col[j, 2] + np.float64(ones_gt[j])
    return col_sq, col_gt


@njit(cache=True, nogil=True, inline="always")
def _note_cell(x, row, col, row_max, col_max, hist, cap):
    """A cell of ``x`` ≥ 2 items at (row, col) codes, for :func:`runs_to_cells`' maxima and
    histogram; False when ``x`` is past the histogram."""
    row_max[row] = max(row_max[row], x)
    col_max[col] = max(col_max[col], x)
    if x < cap:
        hist[x] += 1
        return True
    return False
