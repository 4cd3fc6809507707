"""Counting the contingency table of two integer label arrays: the one pass over the items.

Everything else in Partition Lab works on the table, whose size is that of the
classes × clusters that occur; only this module reads the items. Two kernels give
identical tables and are tested against each other:

* ``"numba"`` (the optional extra ``fast``: ``pip install partition-lab[fast]``): one
  fused pass over both arrays, in their own dtypes (an int32 array is never widened
  in memory), that checks every label against the grid and increments its cell. The
  grid's size is guessed from a prefix of the data; an item outside it stops the pass,
  the next stretch of items is measured and the grid grown to fit, so labels in random
  order are read once (and a few thousand of them twice).
* ``"numpy"`` (always there): min/max of each array, then ``bincount`` of the cell keys
  ``a·C + b`` in chunks, so the int64 key array is never bigger than a chunk.

A count grid is dense: (largest label + 1)² cells. It is used only while it has at most
:func:`dense_cell_limit` cells (no more than the items, so a call never does more work
per possible cell than per item); beyond that :func:`count_cells` gives the non-zero cells
alone, in O(n) (a radix sort of the cell keys, :mod:`metrics.core.kernels.sparse_counting`) or,
without numba, by sorting the keys with numpy: the same cells, in the same order.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import NamedTuple

import numpy as np

__all__ = ["KERNELS", "kernel", "compiled_kernels", "load_compiled", "compiled_available",
           "COLD_WORK", "dense_cell_limit", "bounds", "count_grid", "count_grid_guessing", "SparseGuess",
           "count_cells", "cells_of_sorted_keys", "codes_in_use", "rows_of_offsets"]

KERNELS = ("numba", "numpy")
# Below this many items the compiled kernel saves less than it costs to call.
_NUMBA_MIN_ITEMS = 1 << 15
# Items per chunk of the numpy kernel's key array (8 bytes each).
_CHUNK = 1 << 22
# How many items the numba kernel reads to guess the grid's size.
_GUESS_PREFIX = 1 << 16
# Items after which (and every so many after) the sparse count's first pass judges its hot cells,
# keeping them only while they catch as many items as they miss (random labels' catch none, and
# each costs a look-up per item). Tests set it small to run both of the pass's loops.
HOT_BLOCK = 1 << 16

# None: numba where installed, numpy otherwise. Tests and benchmarks set "numpy" or
# "numba" to run one kernel.
FORCE_KERNEL: str | None = None
_numba: ModuleType | bool | None = None


# Work (items counted, cells summed) that a process which has not loaded numba yet does with numpy
# before it loads the compiled kernels: importing numba and loading its cached kernels costs a few
# hundred ms, more than numpy spends on that much work (so a script's first evaluate of 10^6 labels
# does not wait for it); past it, the compiled kernels repay their load.
COLD_WORK = 1 << 23
_cold_work = 0


def _numba_kernels(work: float | None = None):
    """The compiled kernels, or None where numba is not installed — or not loaded yet and the work
    at hand (``work`` items or cells; None: unknown, counted as none) does not repay loading it
    (:data:`COLD_WORK`). Loaded at once where numba is already imported (the app's server preloads
    the kernels; :func:`load_compiled` does it for a script) or forced (``FORCE_KERNEL``)."""
    global _numba, _cold_work
    if _numba is None:
        if FORCE_KERNEL != "numba" and "numba" not in sys.modules:
            _cold_work += int(work or 0)
            if _cold_work < COLD_WORK:
                return None
        try:
            from . import compiled
        except ImportError:
            _numba = False
        else:
            _numba = compiled
    return _numba or None


def load_compiled() -> bool:
    """Load the compiled kernels now — numba and every kernel cached on disk — rather than when
    the work first repays it: for a server's or a benchmark's warm-up. False without numba."""
    global _numba
    if _numba is None:
        try:
            from . import compiled
        except ImportError:
            _numba = False
        else:
            _numba = compiled
    return bool(_numba)


def compiled_available() -> bool:
    """Whether the compiled kernels can run here (numba installed, the numpy kernel not forced),
    loaded yet or not: what a cost estimate assumes."""
    if FORCE_KERNEL == "numpy" or _numba is False:
        return False
    if _numba is not None:
        return True
    import importlib.util

    return importlib.util.find_spec("numba") is not None


def compiled_kernels(work: float | None = None):
    """The compiled kernels module for other work than counting (the assignment for ε, a grid's
    summary), or None: numba missing, the numpy kernel forced, or numba not loaded yet and
    ``work`` too small to repay loading it (:func:`_numba_kernels`)."""
    return None if FORCE_KERNEL == "numpy" else _numba_kernels(work)


def kernel(n_items: int = _NUMBA_MIN_ITEMS) -> str:
    """Which kernel counts ``n_items`` items: ``"numba"`` or ``"numpy"``."""
    if FORCE_KERNEL is not None:
        if FORCE_KERNEL not in KERNELS:
            raise ValueError(f"FORCE_KERNEL must be one of {KERNELS} or None, got {FORCE_KERNEL!r}")
        if FORCE_KERNEL == "numba" and _numba_kernels() is None:
            raise ValueError("the numba kernel needs numba: pip install partition-lab[fast]")
        return FORCE_KERNEL
    return "numba" if n_items >= _NUMBA_MIN_ITEMS and _numba_kernels(n_items) is not None else "numpy"


def dense_cell_limit(n_items: int) -> int:
    """Most cells a dense count grid may have for ``n_items`` items: the items
    themselves (so per-cell work never exceeds per-item work), and at least 2^16."""
    return max(int(n_items), 1 << 16)


def _counter_dtype(n_items: int):
    """Counters of the compiled kernel: int32 while no cell can reach 2^31 (half the
    cache footprint of a 10^6-cell grid, which its random increments feel), else int64.
    The grid handed back is always int64."""
    return np.int32 if n_items < 1 << 31 else np.int64


def _kernel_view(a: np.ndarray) -> np.ndarray:
    """``a`` as the kernels read it, without a copy: booleans as uint8, uint64 as
    int64 (values ≥ 2^63 turn negative and so fall outside every grid, as they must:
    such labels are never compact)."""
    if a.dtype.kind == "b":
        return a.view(np.uint8)
    if a.dtype == np.uint64:
        return a.view(np.int64)
    return a


def bounds(a: np.ndarray) -> tuple[int, int]:
    """(min, max) of a non-empty integer or boolean array, as Python ints."""
    a = _kernel_view(np.ascontiguousarray(a))
    if a.dtype.kind == "u" or a.dtype.kind == "i":
        nb = _numba_kernels() if kernel(a.size) == "numba" else None
        if nb is not None:
            lo, hi = nb.bounds(a)
            return int(lo), int(hi)
    return int(a.min()), int(a.max())


def count_grid(a: np.ndarray, b: np.ndarray, n_rows: int, n_cols: int) -> np.ndarray:
    """The (n_rows, n_cols) int64 grid of counts of the pairs (a[i], b[i]).

    Every value must already be known to lie in 0..n_rows−1 and 0..n_cols−1.
    """
    a, b = _kernel_view(np.ascontiguousarray(a)), _kernel_view(np.ascontiguousarray(b))
    if kernel(a.size) == "numba":
        grid = np.zeros((n_rows, n_cols), dtype=_counter_dtype(a.size))
        stop = _numba_kernels().count_pairs(a, b, n_rows - 1, n_cols - 1, grid)
        if stop != a.size:  # the caller's bounds were wrong: never silently miscount
            raise AssertionError(f"label pair at position {stop} lies outside the {n_rows}×{n_cols} grid")
        return grid.astype(np.int64, copy=False)
    return _count_grid_numpy(a, b, n_rows, n_cols)


def _count_grid_numpy(a: np.ndarray, b: np.ndarray, n_rows: int, n_cols: int) -> np.ndarray:
    cells = n_rows * n_cols
    grid = np.zeros(cells, dtype=np.int64)
    chunk = max(_CHUNK, cells)  # a chunk's bincount never costs more than its keys
    keys = np.empty(min(chunk, a.size), dtype=np.int64)
    for start in range(0, a.size, chunk):
        stop = min(start + chunk, a.size)
        k = keys[: stop - start]
        np.multiply(a[start:stop], n_cols, out=k, dtype=np.int64, casting="unsafe")
        np.add(k, b[start:stop], out=k, casting="unsafe")
        grid += np.bincount(k, minlength=cells)
    return grid.reshape(n_rows, n_cols)


class SparseGuess(NamedTuple):
    """:func:`count_grid_guessing`'s answer where a prefix of the labels rules a grid out and
    looks compact: each side's largest label, guessed as the prefix's rounded up to all ones in its
    bits (the bits a sparse count's keys take are the same), below ``max_label``. The caller
    counts cells with these bounds (:func:`count_cells`, ``guessed=True``), which checks every
    label against them, and measures the arrays only where one lies outside: the pass that
    measuring them would cost is saved where the guess holds (labels in random order)."""

    hi_a: int
    hi_b: int


def _all_ones_above(hi: int, max_label: int) -> int:
    """``hi`` rounded up to 2^bits − 1 (its own bit length), but below ``max_label``."""
    return min((1 << hi.bit_length()) - 1, max_label - 1)


def count_grid_guessing(a: np.ndarray, b: np.ndarray, max_cells: int, max_label: int, guess_sparse: bool = False):
    """Count two integer label arrays whose bounds are not known yet.

    Returns the int64 count grid of shape (max(a) + 1, max(b) + 1) when every label is
    a non-negative integer below ``max_label`` and that grid has at most ``max_cells``
    cells; otherwise ``(lo_a, hi_a, lo_b, hi_b)``, the bounds that rule the grid out
    (the caller then factorizes or counts keys) — or, with ``guess_sparse``, a
    :class:`SparseGuess` where the compiled kernels count and a prefix already rules the grid
    out without ruling out compact labels.
    """

    def fits(lo_a, hi_a, lo_b, hi_b):
        return (min(lo_a, lo_b) >= 0 and max(hi_a, hi_b) < max_label
                and (hi_a + 1) * (hi_b + 1) <= max_cells)

    a, b = _kernel_view(np.ascontiguousarray(a)), _kernel_view(np.ascontiguousarray(b))
    n = a.size
    nb = _numba_kernels() if kernel(n) == "numba" else None
    if nb is None:
        lo_a, hi_a = bounds(a)
        lo_b, hi_b = bounds(b)
        if not fits(lo_a, hi_a, lo_b, hi_b):
            return lo_a, hi_a, lo_b, hi_b
        return _count_grid_numpy(a, b, hi_a + 1, hi_b + 1)
    # Guess the grid from a prefix, then count in one pass. The first label outside the guess
    # stops the pass; the bounds of the next stretch of labels — as long as the part already
    # counted — then size the grid, and the pass goes on from that item. A label that was only
    # missing from the prefix (labels in random order) grows the grid once, to its exact size:
    # a doubled side would double the cells that the random increments scatter over, and the
    # time they take. The prefix is long enough that labels in random order rarely leave it
    # (a regrowth copies the grid into fresh pages, which costs more than a longer prefix).
    # Labels that keep growing (sorted
    # ones) regrow it O(log n) times, each label being read at most twice. Only a label that
    # rules the grid out (negative, or too large for a grid) makes the rest be measured, to
    # report the bounds.
    m = min(n, _GUESS_PREFIX)
    lo_a, hi_a = (int(x) for x in nb.bounds(a[:m]))
    lo_b, hi_b = (int(x) for x in nb.bounds(b[:m]))
    if not fits(lo_a, hi_a, lo_b, hi_b):
        if guess_sparse and m < n and min(lo_a, lo_b) >= 0 and max(hi_a, hi_b) < max_label:
            return SparseGuess(_all_ones_above(hi_a, max_label), _all_ones_above(hi_b, max_label))
        return _all_bounds(nb, a, b, m, (lo_a, hi_a, lo_b, hi_b))
    grid = np.zeros((hi_a + 1, hi_b + 1), dtype=_counter_dtype(n))
    start = 0
    while True:
        start += nb.count_pairs(a[start:], b[start:], hi_a, hi_b, grid)
        if start == n:
            return grid.astype(np.int64)
        stop = min(n, start + max(start, _GUESS_PREFIX))
        (wlo_a, whi_a), (wlo_b, whi_b) = nb.bounds(a[start:stop]), nb.bounds(b[start:stop])
        lo_a, hi_a = min(lo_a, int(wlo_a)), max(hi_a, int(whi_a))
        lo_b, hi_b = min(lo_b, int(wlo_b)), max(hi_b, int(whi_b))
        if not fits(lo_a, hi_a, lo_b, hi_b):
            return _all_bounds(nb, a, b, stop, (lo_a, hi_a, lo_b, hi_b))
        bigger = np.zeros((hi_a + 1, hi_b + 1), dtype=grid.dtype)
        bigger[: grid.shape[0], : grid.shape[1]] = grid
        grid = bigger


def _all_bounds(nb, a: np.ndarray, b: np.ndarray, seen: int, known: tuple[int, int, int, int]):
    """(lo_a, hi_a, lo_b, hi_b) over both whole arrays, given the bounds ``known`` of their
    first ``seen`` items (read once more only from there on)."""
    lo_a, hi_a, lo_b, hi_b = known
    if seen < a.size:
        ra, rb = nb.bounds(a[seen:]), nb.bounds(b[seen:])
        lo_a, hi_a = min(lo_a, int(ra[0])), max(hi_a, int(ra[1]))
        lo_b, hi_b = min(lo_b, int(rb[0])), max(hi_b, int(rb[1]))
    return lo_a, hi_a, lo_b, hi_b


def _sparse_kernels():
    """The compiled sparse-counting kernels, or None (no numba, or the numpy kernel forced)."""
    if compiled_kernels() is None:
        return None
    from . import sparse_counting

    return sparse_counting


def count_cells(a: np.ndarray, b: np.ndarray, n_rows: int, n_cols: int, maxima: bool = False, guessed: bool = False):
    """The non-zero cells of the pairs (a[i], b[i]), codes known to lie in 0..n_rows − 1 and
    0..n_cols − 1: ``(rows, cols, values, row_sums, col_sums)``.

    ``row_sums`` and ``col_sums`` (int64) count every code, 0 for codes no item has; ``rows`` and
    ``cols`` (int64) index the non-empty rows and columns only (code → its rank among the codes in
    use), ``values`` are int64 counts. Cells come in row-major order, columns ascending: the
    order of ``np.nonzero`` on the dense table. Both kernels give the same arrays.

    ``maxima``: a sixth item, what the compiled kernel finds on the way — (each code's largest
    cell by row, by column (int64, 0 for unused codes), the cells' histogram ``np.bincount(values)``
    or None where a cell is past ``CELL_HISTOGRAM_CAP``, the five square sums of
    :func:`~metrics.core.kernels.cell_stats.coo_square_sums` by code, the cells' offsets by row:
    ``rows`` in CSR form, one more than the rows in use) — or None from numpy. With the maxima
    ``rows`` may be None: the offsets stand for them (:func:`rows_of_offsets` makes them).

    ``guessed``: the bounds are a guess (:class:`SparseGuess`): None where a code lies outside
    them, where known bounds raise ``AssertionError``.
    """
    a, b = _kernel_view(np.ascontiguousarray(a)), _kernel_view(np.ascontiguousarray(b))
    nb = _sparse_kernels() if kernel(a.size) == "numba" else None
    if nb is None:
        if guessed:
            (lo_a, hi_a), (lo_b, hi_b) = bounds(a), bounds(b)
            if min(lo_a, lo_b) < 0 or hi_a >= n_rows or hi_b >= n_cols:
                return None
        cells = _count_cells_numpy(a, b, n_rows, n_cols)
        return (*cells, None) if maxima else cells
    n = a.size
    col_bits = max(int(n_cols - 1).bit_length(), 0)
    row_bits = max(int(n_rows - 1).bit_length(), 0)
    # Two levels where a bucket's key fits 32 bits: one pass into buckets of 2^low classes (at most
    # 2^DIGIT_BITS buckets) keeping each key's low col_bits + low bits, then each bucket sorted
    # where it fits in the cache. One level, a radix sort of the whole keys, past that.
    low = max(row_bits - nb.DIGIT_BITS, 0)
    two_levels = col_bits + low <= 32
    row_shift = low if two_levels else 0
    key_dtype = np.uint32 if col_bits + row_bits <= 32 else np.uint64
    # 64-bit keys in an int64 buffer of their own: the cells' columns (or rows) go over it later,
    # and a buffer that owns its memory can be shrunk to them in place (:func:`_fitted`).
    key_buffer = np.empty(n, dtype=np.int64 if key_dtype == np.uint64 else key_dtype)
    keys = key_buffer.view(key_dtype)
    row_sums = np.zeros(((n_rows - 1) >> row_shift) + 1, dtype=np.int64)  # by bucket where two levels
    col_sums = np.zeros(n_cols, dtype=np.int64)
    hot = np.zeros((n_rows, 2), dtype=np.int64)  # per class: hot cluster + 1, items it caught
    stop, written = nb.keys_and_marginals(a, b, n_rows, n_cols, col_bits, keys, row_sums, col_sums, hot, HOT_BLOCK,
                                          n < 2**31, row_shift)
    if stop != n:  # the caller's bounds were wrong: never silently miscount
        if guessed:
            return None
        raise AssertionError(f"label pair at position {stop} lies outside the {n_rows}×{n_cols} table")
    # What the hot cells caught, taken off the items' marginals: the written keys' own.
    caught = np.flatnonzero(hot[:, 1])
    if not two_levels:
        key_rows = row_sums - hot[:, 1]
        key_cols = col_sums - np.bincount(hot[caught, 0] - 1, weights=hot[caught, 1],
                                          minlength=n_cols).astype(np.int64)
        keys, spare = _radix_sort(nb, keys[:written], key_rows, key_cols, col_bits, row_bits)
        m = nb.count_runs(keys)
        # Where the cells fill most of the items' buffers (random labels: a cell per item), the rows
        # go to the sort's spare buffer and the columns over the sorted keys themselves (a cell is
        # written at or before the key it is read from): memory already mapped, where fresh pages
        # would cost about as much as the pass. Fresh arrays otherwise, which keep no big buffer alive.
        in_place = keys.dtype.itemsize == 8 and 4 * m >= 3 * n
        rows = spare.view(np.int64)[:m] if in_place else np.empty(m, dtype=np.int64)
        cols = keys.view(np.int64)[:m] if in_place else np.empty(m, dtype=np.int64)
        return _runs_to_cells(nb, keys, _one_bucket(written), 0, None, m, n, col_bits, row_sums, col_sums,
                              hot, rows, cols, np.empty(m, dtype=np.int64), maxima)
    # The bucket keys lie in the upper half of the buffer the cells' values are written to (a value
    # is written below every key not read yet). Where the keys are about one an item (random
    # labels: about a cell per item), the columns go over the first pass's 64-bit keys (memory
    # already mapped: fresh pages would cost about as much as the pass) and the rows are not
    # written, each row's first cell stands for them; where the hot cells caught more (a class
    # mostly in one cluster: fewer cells, whose rows the matchings' stars read), the rows go over
    # the keys and the columns to a fresh array. Each is filled as far as the cells go
    # (:func:`_fitted`).
    bucket_sizes = row_sums - np.bincount(caught >> low, weights=hot[caught, 1],
                                          minlength=row_sums.size).astype(np.int64)
    vals = np.empty(written, dtype=np.int64)
    bucket_keys = vals.view(np.uint32)[written:]
    starts = nb.bucket_scatter(keys[:written], bucket_keys, bucket_sizes, col_bits, low)
    digits = [(shift, width) for shift, width in _digits(col_bits, nb.DIGIT_BITS)]
    digits += [(col_bits + shift, width) for shift, width in _digits(low, nb.DIGIT_BITS)]
    shifts, widths = (np.array([d[i] for d in digits], dtype=np.int64) for i in (0, 1))
    row_sums = np.zeros(n_rows, dtype=np.int64)  # by class: counted by the sort
    row_index, row_max = np.zeros(n_rows, dtype=np.int64), np.zeros(n_rows, dtype=np.int64)
    col_index, col_max, hist, squares = _cell_outputs(nb, row_sums, col_sums, n, maxima)
    over_keys = key_buffer if key_buffer.dtype == np.int64 else np.empty(written, dtype=np.int64)
    del keys, key_buffer
    rows_apart = 4 * written < 3 * n
    rows = over_keys if rows_apart else np.empty(0, dtype=np.int64)
    cols = np.empty(written, dtype=np.int64) if rows_apart else over_keys
    row_starts = np.empty(n_rows + 1, dtype=np.int64)
    m, complete = nb.sort_buckets(bucket_keys, starts, col_bits, low, shifts, widths, row_sums, hot, row_index,
                                  col_index, rows, cols, vals, row_starts, row_max, col_max, hist, squares)
    del bucket_keys
    return _counted(nb, _fitted(rows, m) if rows_apart else None, _fitted(cols, m), _fitted(vals, m), row_sums,
                    col_sums, m, complete, row_starts, row_max, col_max, hist, squares)


def rows_of_offsets(offsets: np.ndarray) -> np.ndarray:
    """Each cell's row (int64) from the cells' offsets by row (CSR: one more than the rows)."""
    return np.repeat(np.arange(offsets.size - 1), np.diff(offsets))


def _fitted(buffer: np.ndarray, m: int) -> np.ndarray:
    """The first ``m`` entries of a buffer the count filled, no view of it left elsewhere: a view
    where they fill three quarters of it or more; else the buffer shrunk to them — in place where
    it is big enough to be mapped memory of its own (realloc gives the rest back), copied where
    it may lie in the heap (shrunk in place there, it would leave holes that the next count's
    buffers do not fit, and fresh pages)."""
    if 4 * m >= 3 * buffer.size:
        return buffer[:m]
    if buffer.nbytes >= _OWN_MAPPING_BYTES:
        buffer.resize(m, refcheck=False)
        return buffer
    return buffer[:m].copy()


# glibc maps every allocation from 32 MiB up (its largest mmap threshold on 64 bits) on its own.
_OWN_MAPPING_BYTES = 32 << 20


def _one_bucket(size: int) -> np.ndarray:
    """The bucket starts of keys that are not in buckets: ``runs_to_cells`` reads them as one."""
    return np.array([0, size], dtype=np.int64)


def cells_of_sorted_keys(keys: np.ndarray, counts: np.ndarray, n_rows: int, n_cols: int, row_sums: np.ndarray,
                         col_sums: np.ndarray, maxima: bool = False):
    """:func:`count_cells` of cells counted elsewhere (labels on a GPU): ``keys`` the distinct
    cells ``row << col_bits | col`` (col_bits: the bits of n_cols − 1) in ascending order, int64,
    ``counts`` their items (int64), ``row_sums``, ``col_sums`` the codes' marginals. Both
    arrays are taken over: the columns are written over ``keys`` and the counts stay in
    ``counts``. The compiled kernel makes the same pass as over the keys of sorted items, so the
    table and its sums are those of counting the same labels on the host, to the last bit."""
    n = int(row_sums.sum())
    col_bits = max(int(n_cols - 1).bit_length(), 0)
    # Written over: arrays of this call's own (a device's copies), unless read-only views.
    keys, counts = (np.require(x, np.int64, ["C", "W"]) for x in (keys, counts))
    nb = _sparse_kernels() if kernel(n) == "numba" else None
    if nb is None:
        row_codes, col_codes = keys >> col_bits, keys & ((1 << col_bits) - 1)
        cells = (_ranks(row_sums)[row_codes], _ranks(col_sums)[col_codes], counts, row_sums, col_sums)
        return (*cells, None) if maxima else cells
    m = keys.size
    hot = np.zeros((n_rows, 2), dtype=np.int64)  # no hot cells: every cell's items are in counts
    return _runs_to_cells(nb, keys, _one_bucket(m), 0, counts, m, n, col_bits, row_sums, col_sums, hot,
                          np.empty(m, dtype=np.int64), keys, counts, maxima)


def _runs_to_cells(nb, keys, starts, sub_bits: int, counts, m: int, n: int, col_bits: int, row_sums, col_sums, hot,
                   rows, cols, vals, maxima: bool):
    """The tail of :func:`count_cells`' one-level sort and :func:`cells_of_sorted_keys`: the
    kernel's pass over the sorted keys into ``rows``, ``cols``, ``vals`` (``m`` cells of ``n``
    items), and with ``maxima`` the maxima, histogram and square sums it finds on the way."""
    # The codes in use are 0 … k − 1 (random labels, compacted ids; bounds guessed past the largest
    # label): the codes are their own indices, where a renumbering costs a look-up per cell.
    row_index = np.empty(0, np.int64) if _codes_from_zero(row_sums) else _ranks(row_sums)
    row_max = (row_sums > 0).astype(np.int64)  # a code in use has a cell of at least 1
    col_index, col_max, hist, squares = _cell_outputs(nb, row_sums, col_sums, n, maxima)
    row_starts = np.empty(row_sums.size + 1, dtype=np.int64)
    complete = nb.runs_to_cells(keys, starts, sub_bits, counts, col_bits, row_index, col_index, hot, rows, cols,
                                vals, row_starts, row_max, col_max, hist, squares)
    return _counted(nb, rows, cols, vals, row_sums, col_sums, m, complete, row_starts, row_max, col_max, hist,
                    squares)


def _cell_outputs(nb, row_sums, col_sums, n: int, maxima: bool):
    """What the kernels that write a count's cells fill besides them, by column: (the columns'
    indices — empty where each code is its own —, their largest cells given as 1 for each code in
    use, the cells' histogram, :class:`~metrics.core.kernels.sparse_counting.CellSquares` with
    ``row_sums`` as the classes' sizes, or None without ``maxima``)."""
    n_rows, n_cols = row_sums.size, col_sums.size
    col_index = np.empty(0, np.int64) if _codes_from_zero(col_sums) else _ranks(col_sums)
    col_max = (col_sums > 0).astype(np.int64)
    hist = np.zeros(CELL_HISTOGRAM_CAP, dtype=np.int64)
    if not maxima:
        return col_index, col_max, hist, None
    col = np.zeros((n_cols, 4))
    col[:, 0] = col_sums
    split = n < nb.SPLIT_ONES_ITEMS
    # Each cell of one item reads its column's size and counts into its column, at random: 16 bits
    # a column where every column is smaller than 2^16 (a column's cells of one item are fewer than
    # its items), so that both arrays stay in the L2 cache at 10^5 clusters.
    small = np.uint16 if col_sums.size and int(col_sums.max()) < 1 << 16 else np.int32
    squares = nb.CellSquares(row_sums, np.zeros(n_rows), np.zeros(n_rows), np.zeros(n_rows), col,
                             col_sums.astype(small) if split else np.empty(0, small),
                             np.zeros(n_cols if split else 0, small))
    return col_index, col_max, hist, squares


def _counted(nb, rows, cols, vals, row_sums, col_sums, m: int, complete: bool, row_starts, row_max, col_max, hist,
             squares):
    """count_cells' answer from the arrays the kernels filled (:func:`_cell_outputs`;
    ``row_starts``: each row's first cell, by the row's index among the rows in use; ``rows``
    None where the kernel wrote only those: made from them unless the maxima are asked for)."""
    offsets = row_starts[: np.count_nonzero(row_sums) + 1]
    offsets[-1] = m
    if squares is None:
        return rows_of_offsets(offsets) if rows is None else rows, cols, vals, row_sums, col_sums
    if complete and m:
        hist = hist[: int(row_max.max()) + 1]
        hist[1] = m - hist[2:].sum()  # the cells of one item: all the others
    return rows, cols, vals, row_sums, col_sums, (row_max, col_max, hist if complete and m else None,
                                                  nb.square_sums(squares), offsets)


# Counts 2 … cap − 1 of the cells that count_cells' kernel histograms on the way.
CELL_HISTOGRAM_CAP = 1 << 12


def _radix_sort(nb, keys: np.ndarray, key_rows: np.ndarray, key_cols: np.ndarray, col_bits: int, row_bits: int):
    """``keys`` (packed ``row << col_bits | col``, whose rows and columns have the marginals
    ``key_rows`` and ``key_cols``) sorted, by an LSD radix sort whose digits lie within the
    column bits or the row bits, so that each digit's histogram comes from a marginal: (the sorted
    keys, a spare buffer of the same size that the sort no longer needs)."""
    n = keys.size
    other = np.empty_like(keys)
    for sizes, base, bits in ((key_cols, 0, col_bits), (key_rows, col_bits, row_bits)):
        for shift, width in _digits(bits, nb.DIGIT_BITS):
            hist = nb.digit_histogram(sizes, shift, width)
            if hist.max() == n:  # every key has the same digit: nothing moves
                continue
            nb.scatter_digit(keys, other, hist, base + shift, width)
            keys, other = other, keys
    return keys, other


def _digits(total_bits: int, max_bits: int) -> list[tuple[int, int]]:
    """(shift, bits) of the radix digits covering ``total_bits`` bits, each of at most
    ``max_bits`` bits, as even as possible (two digits of 9 and 8 bits, not 9 and 1 + a pass)."""
    if total_bits <= 0:
        return []
    count = -(-total_bits // max_bits)
    out, shift = [], 0
    for i in range(count):
        width = total_bits // count + (1 if i < total_bits % count else 0)
        out.append((shift, width))
        shift += width
    return out


def codes_in_use(sizes: np.ndarray) -> slice | np.ndarray:
    """What picks the codes in use (non-zero ``sizes``) out of an array by code: ``slice(0, k)``
    where they are 0 … k − 1 (random labels, compacted ids; bounds guessed past the largest
    label) — each code its own rank, and a view where a mask would copy — else the mask."""
    used = sizes > 0
    k = int(np.count_nonzero(used))
    return slice(0, k) if k == 0 or (used[k - 1] and not used[k:].any()) else used


def _codes_from_zero(sizes: np.ndarray) -> bool:
    """Whether the codes in use are 0 … k − 1 (:func:`codes_in_use`)."""
    return isinstance(codes_in_use(sizes), slice)


def _ranks(sizes: np.ndarray) -> np.ndarray:
    """Each code's rank among the codes in use (those with a non-zero size)."""
    return np.cumsum(sizes > 0) - 1


def _count_cells_numpy(a: np.ndarray, b: np.ndarray, n_rows: int, n_cols: int):
    """:func:`count_cells` with numpy: the cell keys a·n_cols + b sorted (O(n log n)), then
    run-length encoded."""
    keys = np.multiply(a, n_cols, dtype=np.int64)
    keys += b
    keys.sort()
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1]))) if keys.size else np.empty(0, np.intp)
    vals = np.diff(np.append(starts, keys.size)).astype(np.int64)
    cells = keys[starts]
    row_sums = np.bincount(a, minlength=n_rows).astype(np.int64)
    col_sums = np.bincount(b, minlength=n_cols).astype(np.int64)
    return (_ranks(row_sums)[cells // n_cols], _ranks(col_sums)[cells % n_cols], vals, row_sums, col_sums)
