"""Bertsekas' auction with ε-scaling on a sparse matrix (numba, the optional ``fast`` extra): the
start of :mod:`metrics.core.kernels.float_assignment`'s solves where the weights are nearly
equal everywhere.

Why an auction before the shortest augmenting paths: where every row has many cells of nearly
the same weight (PSI's n_ij / max(a_i, b_j) of a table of counts without a dominant cluster), a
search from a free row settles hundreds of rows before it reaches a free column, over and over.
An auction moves every price at once: each free row bids for its best column, raising that
column's price by its margin over its second best plus ε; ε shrinks phase by phase, each phase
starting from the last one's prices. Its answer is only ε-optimal — each row within ε of its
best — so the exact solve still follows (:func:`float_assignment.sparse_assignment`, warm): it
frees the rows whose column is not exactly their cheapest and searches from them, on prices
already close to the optimum's, and the certificate on every cell decides as before.

The state is :func:`float_assignment.sparse_assignment`'s, in the costs' terms c = top − w:
``v`` the n_cols + n_rows columns' prices (v = −price, ≤ 0; column n_cols + i is row i's private
dummy of weight 0), ``col_of`` (row → column, −1 free), ``own_cost`` (each matched row's c).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def auction(indptr, indices, weights, n_cols, top, v, col_of, own_cost, eps_start, eps_end, keep, max_steps):
    """ε-scaling auction on the CSR matrix from ``eps_start`` down to ``eps_end`` (each phase a
    quarter of the last), updating the state in place. ``keep``: the first phase keeps each
    matched row whose cell is within ε of its best at the current prices (a warm start; the
    others bid again), where a cold start frees every row. Ends by giving every column no row
    holds the price 0 (v = 0) — a column left unmatched can carry no price at the optimum — and
    freeing each row that then prefers its dummy. Returns (whether it finished within
    ``max_steps`` cell reads, how many it made)."""
    n_rows = indptr.shape[0] - 1
    m = n_cols + n_rows
    owner = np.full(m, -1, dtype=np.int64)
    queue = np.empty(n_rows, dtype=np.int64)
    steps = 0
    eps = eps_start
    while True:
        owner[:] = -1
        count = 0
        for i in range(n_rows):
            j = col_of[i]
            if keep and j >= 0:
                steps += indptr[i + 1] - indptr[i] + 1
                best = v[n_cols + i]
                for q in range(indptr[i], indptr[i + 1]):
                    best = max(best, weights[q] + v[indices[q]])
                if (top - own_cost[i]) + v[j] >= best - eps:
                    owner[j] = i
                    continue
            col_of[i] = -1
            queue[count] = i
            count += 1
        keep = False
        head = 0  # the free rows, a ring: a row outbid goes to its end
        while count > 0:
            if steps > max_steps:
                return False, steps
            i = queue[head]
            head = head + 1 if head + 1 < n_rows else 0
            count -= 1
            steps += indptr[i + 1] - indptr[i] + 1
            # The best and second-best values w + v over the row's cells and its dummy (weight 0).
            best_j = n_cols + i
            best = v[best_j]
            best_w = 0.0
            second = -np.inf
            for q in range(indptr[i], indptr[i + 1]):
                j = indices[q]
                x = weights[q] + v[j]
                if x > best:
                    second = best
                    best = x
                    best_j = j
                    best_w = weights[q]
                elif x > second:
                    second = x
            if second == -np.inf:  # nothing else to bid for (a row without cells): no margin
                second = best
            v[best_j] -= best - second + eps
            previous = owner[best_j]
            owner[best_j] = i
            col_of[i] = best_j
            own_cost[i] = top - best_w
            if previous >= 0:
                col_of[previous] = -1
                tail = head + count
                queue[tail - n_rows if tail >= n_rows else tail] = previous
                count += 1
        if eps <= eps_end:
            break
        eps = max(eps / 4.0, eps_end)
    for j in range(m):
        if owner[j] < 0:
            v[j] = 0.0
    for i in range(n_rows):
        j = col_of[i]
        if j < n_cols and (top - own_cost[i]) + v[j] < 0.0:  # its dummy, now at v = 0, is better
            col_of[i] = -1
    return True, steps
