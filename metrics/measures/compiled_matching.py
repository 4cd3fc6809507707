"""The compiled matchings of a big sparse table's cells (numba, the ``fast`` extra), for
:func:`metrics.measures.matching.matched_mass` and NCA's and PSI's weights: a bound and a matching
that reaches it where few cells hold more than one item, levels of maximum-cardinality matchings
where cells hold a few items, shortest-path searches otherwise
(:mod:`metrics.core.kernels.augmenting_paths`)."""

from __future__ import annotations

import time

import numpy as np

from ..core.kernels import counting
from ..core.limits import COSTS, FLOAT_MATCHING_BUDGET, MATCHING_BUDGET

__all__ = ["LEVELS_MAX_WEIGHT", "MatchingStopped", "compiled_sparse_matching", "by_levels", "used_ranks"]


# Cells of at most this many items are matched by levels; past it the searches are quicker (measured).
LEVELS_MAX_WEIGHT = 4


class MatchingStopped(ValueError):
    """The sparse assignment stopped at its budget of steps (MATCHING_BUDGET seconds of one core at
    the measured cost of a step); ``seconds`` is the time it had run."""

    def __init__(self, seconds: float, budget: float):
        self.seconds = seconds
        super().__init__(f"its exact one-to-one matching was stopped after {seconds:.2g} s of one core, at its budget "
                         f"of {budget:g} s (cells nearly all equal make the search explore the whole table)")


def by_levels(cells: np.ndarray) -> bool:  # whether the compiled matching of these cells goes by levels
    return cells.dtype.kind in "iu" and int(cells.max()) <= LEVELS_MAX_WEIGHT


def compiled_sparse_matching(rows, cols, vals, shape=None, top=None):
    """The maximum-weight matching of the cells (rows[k], cols[k]) holding vals[k], every component
    at once, by the compiled sparse assignment (:mod:`metrics.core.kernels.augmenting_paths`): by
    levels where no cell holds over :data:`LEVELS_MAX_WEIGHT` items (``shape``, ``top``: where
    known), else integer cells first by the bound where few hold more than one item
    (``held_max_weight``), then by the searches. None without numba, or where integer distances
    could overflow int64 (the caller then solves each component with scipy)."""
    kernels = counting.compiled_kernels(rows.size * 100)  # any sparse assignment repays the load
    if kernels is None:
        return None
    if by_levels(vals if top is None else np.asarray(top)):
        return _levels_matching(kernels, rows, cols, vals, shape or (int(rows.max()) + 1, int(cols.max()) + 1))
    # Rows start the searches: the smaller side, renumbered to the classes and clusters in use (by
    # their counts, not np.unique's sort: a random 10^5 x 10^5 table's 10^6 cells sorted twice per
    # matching cost as much as the renumbering and the CSR order together, ten times over).
    n_r_used, r = used_ranks(rows)
    n_c_used, c = used_ranks(cols)
    if n_r_used > n_c_used:
        n_r_used, r, n_c_used, c = n_c_used, c, n_r_used, r
    integer = vals.dtype.kind in "iu"
    if integer and int(vals.max()) * (n_r_used + 1) >= 1 << 56:
        return None
    weights = vals.astype(np.int64 if integer else np.float64)
    order, indptr = kernels.csr_order(r, n_r_used)
    budget = MATCHING_BUDGET if integer else FLOAT_MATCHING_BUDGET
    start = time.thread_time()
    c, weights = c[order], weights[order]
    if integer:  # few cells of more than one item: the bound and a matching that reaches it, first
        total, status, _, _ = kernels.held_max_weight(indptr, c, weights, n_c_used, int(budget / COSTS["levels_step"]))
        if status:
            return _levels_result(total, status == 1, start)
    total, _, complete = kernels.sparse_max_weight_matching(indptr, c, weights, n_c_used,
                                                            int(budget / COSTS["matching_step"]))
    if not complete:
        raise MatchingStopped(time.thread_time() - start, budget)
    return int(total) if integer else float(total)


def _levels_matching(kernels, rows, cols, vals, shape) -> int:
    """By levels: no renumbering (empty lines cost nothing there), no sort of cells row by row."""
    (n_r, n_c), rows = shape, rows.astype(np.int64, copy=False)
    indptr = kernels.sorted_indptr(rows, n_r)
    if indptr.size == 0:
        order, indptr = kernels.csr_order(rows, n_r)
        cols, vals = cols[order], vals[order]
    cols, vals = (np.require(x, np.int64, ["C", "W"]) for x in (cols, vals))
    start = time.thread_time()
    total, complete, _ = kernels.levels_max_weight(indptr, cols, vals, n_c, int(MATCHING_BUDGET / COSTS["levels_step"]))
    return _levels_result(total, complete, start)


def _levels_result(total, complete: bool, start: float) -> int:
    if not complete:
        raise MatchingStopped(time.thread_time() - start, MATCHING_BUDGET)
    return int(total)


def used_ranks(index: np.ndarray) -> tuple[int, np.ndarray]:
    """How many distinct values the non-negative ints ``index`` hold, and each one's rank among
    them (int64): ``np.unique(index, return_inverse=True)`` without sorting."""
    used = np.bincount(index) > 0
    ranks = np.cumsum(used) - 1
    return int(ranks[-1]) + 1, ranks[index]
