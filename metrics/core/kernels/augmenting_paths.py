"""Shortest augmenting paths on a sparse matrix (numba, the optional ``fast`` extra): the one
search of both sparse assignments — :func:`sparse_max_weight_matching` (ε, ε_n and their kin
on big tables, integer or float weights) and the certified rounds of
:mod:`metrics.core.kernels.float_assignment` (NCA's and PSI's fractional weights) — with the
binary heap of Dijkstra's frontier, and the path flip the dense assignment
(:func:`metrics.core.kernels.compiled.max_weight_assignment`) ends its searches with too.

Reached through :mod:`metrics.core.kernels.compiled` (which re-exports
:func:`sparse_max_weight_matching`), only where numba is installed; the tests run it against
scipy's dense assignment.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["sparse_max_weight_matching", "augment_free_rows", "cell_cost"]


@njit(cache=True, nogil=True, inline="always")
def _heap_push(keys, nodes, size, key, node):
    """Push (key, node) on the binary min-heap held in keys[:size], nodes[:size]; the new size."""
    i = size
    while i > 0:
        parent = (i - 1) >> 1
        if keys[parent] <= key:
            break
        keys[i] = keys[parent]
        nodes[i] = nodes[parent]
        i = parent
    keys[i] = key
    nodes[i] = node
    return size + 1


@njit(cache=True, nogil=True, inline="always")
def _heap_pop(keys, nodes, size):
    """Drop the heap's root (read by the caller first); the new size."""
    size -= 1
    key = keys[size]
    node = nodes[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and keys[child + 1] < keys[child]:
            child += 1
        if keys[child] >= key:
            break
        keys[i] = keys[child]
        nodes[i] = nodes[child]
        i = child
    if size > 0:
        keys[i] = key
        nodes[i] = node
    return size


@njit(cache=True, nogil=True, inline="always")
def _pop_nearest(keys, nodes, size, state, d):
    """(the nearest column not settled yet, the heap's new size): roots popped until one is
    neither settled (``state`` 2) nor stale (its key no longer its distance ``d``); −1 if none."""
    while size > 0:
        key = keys[0]
        node = nodes[0]
        size = _heap_pop(keys, nodes, size)
        if state[node] != 2 and key == d[node]:
            return node, size
    return -1, size


@njit(cache=True, nogil=True, inline="always")
def _flip_path(pred, row_of, col_of, end, source):
    """Augment along the shortest path found: from the free column ``end`` back through each
    column's predecessor row to the free row ``source``, every row takes the column the path
    reached it by (both assignment kernels end each search with it)."""
    j = end
    while True:
        i = pred[j]
        row_of[j] = i
        nxt = col_of[i]
        col_of[i] = j
        j = nxt
        if i == source:
            break


@njit(cache=True, nogil=True)
def _weight_at(indptr, indices, weights, i, j):
    for p in range(indptr[i], indptr[i + 1]):
        if indices[p] == j:
            return weights[p]
    return weights[0] * 0


@njit(cache=True, nogil=True)
def sparse_max_weight_matching(indptr, indices, weights, n_cols, max_steps):
    """Largest total weight of a one-to-one matching of rows and columns (some may stay
    unmatched) of the sparse non-negative matrix given in CSR form (``indptr``, ``indices``,
    ``weights``; ``n_cols`` columns), the matching (row → column, a column ≥ ``n_cols``
    meaning unmatched), and whether it is complete: the searches stop after ``max_steps``
    relaxations of a cell (the caller's budget), the total and matching being then partial.

    Every row searched from cold by :func:`augment_free_rows` (see there); integer weights keep
    every comparison exact (the caller keeps max(w) times the rows below 2^56, so no distance
    overflows); float weights are compared as floats, as scipy's solvers do. Tables whose cells
    are nearly all equal (random labels, few items a cell) are the slow case: a search then
    explores every row reachable at no extra cost."""
    n_rows = indptr.shape[0] - 1
    zero = weights[0] * 0
    top = zero
    for p in range(weights.shape[0]):
        top = max(top, weights[p])
    v = np.zeros(n_cols + n_rows, dtype=weights.dtype)
    row_of = np.full(n_cols + n_rows, -1, dtype=np.int64)
    col_of = np.full(n_rows, -1, dtype=np.int64)
    own_cost = np.zeros(n_rows, dtype=weights.dtype)
    complete, _ = augment_free_rows(indptr, indices, weights, n_cols, top, max_steps, 0, v, row_of, col_of, own_cost)
    if not complete:
        return zero, col_of, False
    total = zero
    for i in range(n_rows):
        if col_of[i] < n_cols:
            total += _weight_at(indptr, indices, weights, i, col_of[i])
    return total, col_of, True


@njit(cache=True, nogil=True, inline="always")
def cell_cost(indptr, indices, weights, n_cols, top, row, p):
    """The column and cost c = top − w of the ``p``-th cell of the CSR matrix, ``p`` running over
    ``row``'s cells and one past them: the row's private dummy column (weight 0, cost top)."""
    if p < indptr[row + 1]:
        return indices[p], top - weights[p]
    return n_cols + row, top


@njit(cache=True, nogil=True)
def augment_free_rows(indptr, indices, weights, n_cols, top, max_steps, steps, v, row_of, col_of, own_cost):
    """Successive shortest augmenting paths (the last phase of Jonker & Volgenant's method) from
    every free row of a sparse non-negative matrix (CSR), on its non-zero cells only, with a
    binary heap for Dijkstra's frontier — the one search of both sparse assignments,
    :func:`sparse_max_weight_matching` (integer or float weights, from cold) and
    :func:`metrics.core.kernels.float_assignment.sparse_assignment` (float, warm rounds).

    Every row has a private dummy column (n_cols + i), so a full matching of the rows always
    exists, and the costs are c_ij = top − w_ij for cells and top for dummies (``top`` at least
    every weight): a minimum-cost full matching is a maximum-weight matching. Each free row in
    turn starts a search over the reduced costs c_ij − v_j − u_i ≥ 0 that stops at the first
    free column it settles; the prices of the columns it settled are then raised so that every
    reduced cost stays ≥ 0 and every matched cell tight — which makes each search short: it
    explores only the rows that compete for its best columns.

    The state is updated in place: ``v`` (the n_cols + n_rows columns' prices, in the weights'
    dtype), ``row_of`` (column → row, −1 free), ``col_of`` (row → column, −1 free) and
    ``own_cost`` (each matched row's cost c, kept so that a search reaching a row need not look
    its cell up). Returns (whether every free row was matched before the relaxations of a cell,
    counted from ``steps``, passed ``max_steps``; the count)."""
    n_rows = indptr.shape[0] - 1
    m = n_cols + n_rows
    zero = top * 0
    d = np.zeros(m, dtype=v.dtype)
    pred = np.zeros(m, dtype=np.int64)
    pred_cost = np.zeros(m, dtype=v.dtype)  # the cost c of the cell each column was last reached by
    state = np.zeros(m, dtype=np.int8)  # 0 not reached, 1 on the frontier, 2 settled
    touched = np.empty(m, dtype=np.int64)
    settled = np.empty(m, dtype=np.int64)
    # Each search pushes at most once per cell and dummy it relaxes.
    heap_keys = np.empty(weights.shape[0] + n_rows + 1, dtype=v.dtype)
    heap_nodes = np.empty(weights.shape[0] + n_rows + 1, dtype=np.int64)
    for source in range(n_rows):
        if col_of[source] >= 0:
            continue
        if steps > max_steps:
            return False, steps
        n_touched = 0
        n_settled = 0
        size = 0
        end = -1
        dmin = zero
        row = source
        base = zero  # distance of the row reached, minus its own reduced cost (0 for the source)
        while True:
            # Relax the row's cells and its dummy column.
            steps += indptr[row + 1] - indptr[row] + 1
            for p in range(indptr[row], indptr[row + 1] + 1):
                k, c = cell_cost(indptr, indices, weights, n_cols, top, row, p)
                h = base + c - v[k]
                if state[k] == 2:
                    continue
                if state[k] == 0:
                    state[k] = 1
                    touched[n_touched] = k
                    n_touched += 1
                elif h >= d[k]:
                    continue
                d[k] = h
                pred[k] = row
                pred_cost[k] = c
                size = _heap_push(heap_keys, heap_nodes, size, h, k)
            # Settle the nearest column not settled yet (stale heap entries skipped).
            j, size = _pop_nearest(heap_keys, heap_nodes, size, state, d)
            dmin = d[j]
            if row_of[j] < 0:
                end = j
                break
            state[j] = 2
            settled[n_settled] = j
            n_settled += 1
            row = row_of[j]
            base = dmin - (own_cost[row] - v[j])
        for q in range(n_settled):
            k = settled[q]
            v[k] += d[k] - dmin
        for q in range(n_touched):
            state[touched[q]] = 0
        # The path's rows take the cells it reached their columns by.
        j = end
        while True:
            i = pred[j]
            own_cost[i] = pred_cost[j]
            if i == source:
                break
            j = col_of[i]
        _flip_path(pred, row_of, col_of, end, source)
    return True, steps
