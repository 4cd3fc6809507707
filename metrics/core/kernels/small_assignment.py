"""The assignment problem of a small table, in numpy: what ``scipy.optimize.linear_sum_assignment``
gives, without importing ``scipy.optimize``.

Why: a fresh process's first :func:`metrics.evaluate` of a table of a few classes and clusters
needs one assignment (classification error, ε, NPA, NCA, PSI), and importing ``scipy.optimize``
for it costs several times the whole evaluation. The shortest augmenting path method with
row and column potentials (Kuhn–Munkres in Jonker–Volgenant's form, the algorithm scipy runs)
takes one vectorised pass over a row per step: about side² numpy calls, well under a
millisecond up to :data:`SMALL_SIDE` classes and clusters. Bigger tables go to scipy (or to
the compiled kernels, :mod:`metrics.core.kernels.compiled`).

The optimum is exact for integer weights (every potential is an integer sum of weights, below
2^53); for fractional weights it is optimal up to the rounding of the potentials, like scipy's.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SMALL_SIDE", "max_weight_assignment_small"]

# Tables with at most this many rows and columns are solved here.
SMALL_SIDE = 24


def max_weight_assignment_small(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols) of a maximum-weight assignment of a 2-D array of finite weights: every row
    matched to a distinct column when there are no more rows than columns (else every column to
    a distinct row), the pairs in increasing row order — scipy's
    ``linear_sum_assignment(weights, maximize=True)`` contract. Which optimum is returned
    among several of equal weight may differ from scipy's; the weight does not."""
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 2:
        raise ValueError(f"weights must be 2-D, got shape {w.shape}")
    if w.size == 0:
        return np.empty(0, dtype=np.intp), np.empty(0, dtype=np.intp)
    if w.shape[0] > w.shape[1]:
        cols, rows = max_weight_assignment_small(w.T)
        order = np.argsort(rows)
        return rows[order], cols[order]
    cost = w.max() - w  # a minimum-cost problem with non-negative costs
    n, m = cost.shape
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    row_of = np.zeros(m + 1, dtype=np.intp)  # row_of[j]: 1-based row matched to column j (0: none)
    way = np.zeros(m + 1, dtype=np.intp)
    for i in range(1, n + 1):
        row_of[0] = i
        j0 = 0
        min_to = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = row_of[j0]
            reduced = cost[i0 - 1] - u[i0] - v[1:]
            free = ~used[1:]
            better = free & (reduced < min_to[1:])
            min_to[1:][better] = reduced[better]
            way[1:][better] = j0
            candidates = np.where(free, min_to[1:], np.inf)
            j1 = int(np.argmin(candidates)) + 1
            delta = candidates[j1 - 1]
            u[row_of[used]] += delta
            v[used] -= delta
            min_to[~used] -= delta
            j0 = j1
            if row_of[j0] == 0:
                break
        while j0:  # flip the augmenting path back to the free row
            j1 = way[j0]
            row_of[j0] = row_of[j1]
            j0 = j1
    cols = np.flatnonzero(row_of[1:])
    rows = row_of[1:][cols] - 1
    order = np.argsort(rows)
    return rows[order], cols[order]
