"""The compiled matchings of a big sparse table's cells (numba, the ``fast`` extra), for
:func:`metrics.measures.matching.matched_mass` and NCA's and PSI's weights: a bound and a matching
that reaches it where few cells hold more than one item, levels of maximum-cardinality matchings
where cells hold a few items, shortest-path searches otherwise
(:mod:`metrics.core.kernels.augmenting_paths`); and a big grid's lines' best cells, once per
table (:func:`line_cells`, :func:`psi_line_cells`: :mod:`metrics.core.kernels.line_maxima`)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..core.kernels import counting
from ..core.limits import COSTS, FLOAT_MATCHING_BUDGET, MATCHING_BUDGET

if TYPE_CHECKING:
    from ..core.contingency import Contingency

__all__ = ["LEVELS_MAX_WEIGHT", "MatchingStopped", "ByRow", "cell_rows", "compiled_sparse_matching", "by_levels",
           "used_ranks", "line_cells", "psi_line_cells"]


# Cells of at most this many items are matched by levels; past it the searches are quicker (measured).
LEVELS_MAX_WEIGHT = 4


class MatchingStopped(ValueError):
    """The sparse assignment stopped at its budget of steps (MATCHING_BUDGET seconds of one core at
    the measured cost of a step); ``seconds`` is the time it had run."""

    def __init__(self, seconds: float, budget: float):
        self.seconds = seconds
        super().__init__(f"its exact one-to-one matching was stopped after {seconds:.2g} s of one core, at its budget "
                         f"of {budget:g} s (cells nearly all equal make the search explore the whole table)")


class ByRow(NamedTuple):
    """What a count keeps of a table's cells by row, which the matchings read rather than find:
    the cells' offsets by row (CSR: one more than the rows) and, for the counts themselves (not
    weights made from them), each row's largest cell."""

    offsets: np.ndarray
    top: np.ndarray | None = None


def cell_rows(rows, by_row: ByRow | None) -> np.ndarray:
    """``rows``, or where None the cells' rows that the count's offsets stand for."""
    if rows is not None:
        return rows
    assert by_row is not None, "the cells' rows or their offsets"
    return counting.rows_of_offsets(by_row.offsets)


def by_levels(cells: np.ndarray) -> bool:  # whether the compiled matching of these cells goes by levels
    return cells.dtype.kind in "iu" and int(cells.max()) <= LEVELS_MAX_WEIGHT


def compiled_sparse_matching(rows, cols, vals, shape=None, top=None, by_row: ByRow | None = None):
    """The maximum-weight matching of the cells (rows[k], cols[k]) holding vals[k], every component
    at once, by the compiled sparse assignment (:mod:`metrics.core.kernels.augmenting_paths`): by
    levels where no cell holds over :data:`LEVELS_MAX_WEIGHT` items, else integer cells first by
    the bound where few hold more than one item (``held_max_weight``; both on the cells as they
    come, not renumbered), then by the searches (``shape``, ``top``: the table's and its largest
    cell, ``by_row``: what the count kept of the cells by row, where known — then ``rows`` may be
    None, made from the offsets if needed). None without numba, or where integer distances could
    overflow int64 (the caller then solves each component with scipy)."""
    kernels = counting.compiled_kernels(vals.size * 100)  # any sparse assignment repays the load
    if kernels is None:
        return None
    top = vals.max() if top is None else top
    n_r, n_c = shape or (int(rows.max()) + 1, int(cols.max()) + 1)
    integer, levels = vals.dtype.kind in "iu", by_levels(np.asarray(top))
    indptr, row_top = by_row or (None, None)
    if levels or (integer and _fits_int64(top, min(n_r, n_c))):
        # By levels (the bound first), or the bound alone: the cells row by row as they come.
        ptr, c, w = _row_csr(kernels, rows, cols, vals, n_r, indptr=indptr)
        steps, start = int(MATCHING_BUDGET / COSTS["levels_step"]), time.thread_time()
        if levels:
            total, complete, _ = kernels.levels_max_weight(ptr, c, w, n_c, steps, row_top)
            return _levels_result(total, complete, start)
        total, status, _, _ = kernels.held_max_weight(ptr, c, w, n_c, steps, row_top)
        if status:
            return _levels_result(total, status == 1, start)
    # Rows start the searches: the smaller side, renumbered to the classes and clusters in use (by
    # their counts, not np.unique's sort: a random 10^5 x 10^5 table's 10^6 cells sorted twice per
    # matching cost as much as the renumbering and the CSR order together, ten times over).
    n_c_used, c = used_ranks(cols)
    if rows is None and indptr is not None and n_r <= n_c_used and bool(np.all(indptr[1:] > indptr[:-1])):
        n_r_used, r, same_rows = n_r, None, True  # every row in use, on the smaller side: the offsets hold
    else:
        n_r_used, r = used_ranks(cell_rows(rows, by_row))
        same_rows = n_r_used <= n_c_used and n_r_used == n_r  # the rows as they came: their offsets hold
    if n_r_used > n_c_used:
        n_r_used, r, n_c_used, c = n_c_used, c, n_r_used, r
    if integer and not _fits_int64(top, n_r_used):
        return None
    indptr, c, weights = _row_csr(kernels, r, c, vals, n_r_used, np.int64 if integer else np.float64,
                                  indptr if same_rows else None)
    budget = MATCHING_BUDGET if integer else FLOAT_MATCHING_BUDGET
    start = time.thread_time()
    total, _, complete = kernels.sparse_max_weight_matching(indptr, c, weights, n_c_used,
                                                            int(budget / COSTS["matching_step"]))
    if not complete:
        raise MatchingStopped(time.thread_time() - start, budget)
    return int(total) if integer else float(total)


def _fits_int64(top, rows: int) -> bool:
    """Whether the searches' integer distances over ``rows`` rows of cells up to ``top`` stay in int64."""
    return int(top) * (rows + 1) < 1 << 56


def _row_csr(kernels, rows, cols, vals, n_r, dtype=np.int64, indptr=None):
    """The cells in CSR form by row (codes 0 … ``n_r`` − 1): the offsets ``indptr`` where the
    count kept them, else in one pass where the cells come row by row (a table's), else a
    counting sort; the columns as writable int64 and the weights as writable ``dtype`` (numba
    types a read-only array apart)."""
    if indptr is None:
        indptr = kernels.sorted_indptr(rows.astype(np.int64, copy=False), n_r)
    if indptr.size == 0:
        order, indptr = kernels.csr_order(rows.astype(np.int64, copy=False), n_r)
        cols, vals = cols[order], vals[order]
    return indptr, np.require(cols, np.int64, ["C", "W"]), np.require(vals, dtype, ["C", "W"])


def _levels_result(total, complete: bool, start: float) -> int:
    if not complete:
        raise MatchingStopped(time.thread_time() - start, MATCHING_BUDGET)
    return int(total)


def used_ranks(index: np.ndarray) -> tuple[int, np.ndarray]:
    """How many distinct values the non-negative ints ``index`` hold, and each one's rank among
    them (int64): ``np.unique(index, return_inverse=True)`` without sorting — ``index`` itself
    where every value up to its largest is in use (a whole table's rows or columns)."""
    used = np.bincount(index) > 0
    if used.all():
        return used.size, index.astype(np.int64, copy=False)
    ranks = np.cumsum(used) - 1
    return int(ranks[-1]) + 1, ranks[index]


def line_cells(t: Contingency, code: int):
    """:func:`metrics.core.kernels.line_maxima.line_best_cells` of the grid's ``code`` of weights,
    once per table; for the counts, with the lines' largest counts that the grid's summary pass
    kept (``Contingency._from_grid``), which spare the kernel finding them, and each line's
    runner-up count found on the way (for :func:`psi_line_cells`)."""
    from ..core.kernels import line_maxima

    if code != line_maxima.COUNT:
        return t.memo(f"line_best_cells:{code}", lambda t: line_maxima.line_best_cells(
            t.grid, t.row_sums, t.col_sums, code))
    return _count_cells(t)[0]


def _count_cells(t: Contingency):
    """(the counts' line_best_cells, each line's runner-up count or None), once per table."""
    from ..core.kernels import line_maxima

    def count_cells(t):
        maxima = t.__dict__.get("_grid_line_maxima")
        runner_up = None if maxima is None else np.zeros(min(t.grid.shape), dtype=np.int64)
        return line_maxima.line_best_cells(t.grid, t.row_sums, t.col_sums, line_maxima.COUNT, maxima,
                                           runner_up), runner_up

    return t.memo("line_best_cells:count_and_runner_up", count_cells)


def psi_line_cells(t: Contingency):
    """PSI's line_best_cells: read off the counts' where their runner-ups certify them (a
    clustering's dominant cells: no pass of its own), else from PSI's own pass over the grid."""
    from ..core.kernels import line_maxima

    def psi_cells(t):
        cells, runner_up = _count_cells(t)
        read = None if runner_up is None else line_maxima.psi_from_count_cells(
            t.grid, t.row_sums, t.col_sums, cells, runner_up)
        return read or line_maxima.line_best_cells(t.grid, t.row_sums, t.col_sums, line_maxima.SHARE_OF_LARGER)

    return t.memo(f"line_best_cells:{line_maxima.SHARE_OF_LARGER}", psi_cells)
