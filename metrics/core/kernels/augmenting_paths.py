"""Shortest augmenting paths on a sparse matrix (numba, the optional ``fast`` extra): the search of both sparse
assignments — :func:`sparse_max_weight_matching` (ε, ε_n and their kin on big tables) and the certified rounds of
:mod:`metrics.core.kernels.float_assignment` (NCA's and PSI's weights) — with a binary heap for Dijkstra's frontier
and the path flip that the dense assignment (:func:`metrics.core.kernels.compiled.max_weight_assignment`) ends its
searches with too; and for integer cells of a few items, where those searches are slowest, ε's matching by levels of
maximum-cardinality matchings (:func:`levels_max_weight`, Hopcroft–Karp at each level). Reached through
:mod:`metrics.core.kernels.compiled`, only where numba is installed; the tests run it against scipy's dense
assignment.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

__all__ = ["sparse_max_weight_matching", "augment_free_rows", "cell_cost", "levels_max_weight", "held_max_weight"]


def _prefetch_line(typingctx, array, index):
    """``_prefetch(array, index)`` in a kernel asks for the cache line of ``array[index]`` (valid,
    C-contiguous) without waiting: LLVM's ``prefetch`` (a read, kept in every cache level)."""
    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        byte, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fn = builder.module.declare_intrinsic("llvm.prefetch", [byte],
                                              ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32]))
        builder.call(fn, [builder.bitcast(builder.gep(data, [args[1]]), byte), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


_prefetch: Any = intrinsic(_prefetch_line)  # Any: called in kernels with (array, index), not this signature


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
    """(the nearest column not settled yet, the heap's new size): roots popped until one is neither
    settled (``state`` 2) nor stale (its key no longer its distance ``d``); −1 if none."""
    while size > 0:
        key = keys[0]
        node = nodes[0]
        size = _heap_pop(keys, nodes, size)
        if state[node] != 2 and key == d[node]:
            return node, size
    return -1, size


@njit(cache=True, nogil=True, inline="always")
def _flip_path(pred, row_of, col_of, end, source):
    """Augment along the shortest path found: from the free column ``end`` back through each column's
    predecessor row to the free row ``source``, every row takes the column the path reached it by."""
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
def sparse_max_weight_matching(indptr, indices, weights, n_cols, max_steps):
    """Largest total weight of a one-to-one matching of rows and columns (some may stay unmatched) of the sparse
    non-negative matrix in CSR form (``indptr``, ``indices``, ``weights``; ``n_cols`` columns), the matching (row →
    column, one ≥ ``n_cols`` meaning unmatched), and whether it is complete: the searches stop after ``max_steps``
    relaxations of a cell (the caller's budget).

    Each row first takes its heaviest cell whose column no row before it took (with every price 0 that cell is tight
    and no reduced cost negative: what the searches keep); the rest search from there (:func:`augment_free_rows`),
    relaxing about a ninth of the cells they did from nothing on an entity-resolution table's big component
    (docs/performance.md). Integer weights keep every comparison exact (the caller keeps max(w) times the rows below
    2^56), float weights compare as scipy's do. Cells nearly all equal (random labels) are the slow case: a search
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
    for i in range(n_rows):  # each row's first heaviest cell, where no row before took its column
        best = indptr[i]
        for p in range(indptr[i] + 1, indptr[i + 1]):
            if weights[p] > weights[best]:
                best = p
        if best < indptr[i + 1] and row_of[indices[best]] < 0:
            row_of[indices[best]] = i
            col_of[i] = indices[best]
            own_cost[i] = top - weights[best]
    complete, _ = augment_free_rows(indptr, indices, weights, n_cols, top, max_steps, 0, v, row_of, col_of, own_cost)
    if not complete:
        return zero, col_of, False
    total = zero
    for i in range(n_rows):  # each row's matched cell (a dummy, ≥ n_cols, is no cell's column)
        for p in range(indptr[i], indptr[i + 1]):
            if indices[p] == col_of[i]:
                total += weights[p]
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
    """Successive shortest augmenting paths (the last phase of Jonker & Volgenant's method) from every free row of a
    sparse non-negative matrix (CSR), on its non-zero cells only, with a binary heap for Dijkstra's frontier — the one
    search of both sparse assignments, :func:`sparse_max_weight_matching` (integer or float weights, after each row's
    heaviest free cell) and :func:`metrics.core.kernels.float_assignment.sparse_assignment` (float, warm rounds).

    Every row has a private dummy column (n_cols + i), so a full matching of the rows always exists, and the costs are
    c_ij = top − w_ij for cells and top for dummies (``top`` at least every weight): a minimum-cost full matching is a
    maximum-weight matching. Each free row in turn starts a search over the reduced costs c_ij − v_j − u_i ≥ 0 that
    stops at the first free column it settles; the prices of the columns it settled are then raised so that every
    reduced cost stays ≥ 0 and every matched cell tight — which makes each search short: it explores only the rows that
    compete for its best columns.

    The state is updated in place: ``v`` (the n_cols + n_rows columns' prices, in the weights' dtype), ``row_of``
    (column → row, −1 free), ``col_of`` (row → column, −1 free) and ``own_cost`` (each matched row's cost c: a search
    reaching a row need not look its cell up). Returns (whether every free row was matched before the cell relaxations,
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


# ----------------------------------------------------------------- small integer weights: by levels
_FAR = np.int64(1) << 62
# An odd multiplier that spreads the rows' first looks (:func:`_hopcroft_karp`) over their cells.
_SPREAD = np.int64(40503)
# ``row_of`` of a column whose cell of the matching must stay (:func:`_held_heavy`).
_HELD = np.int64(-2)
# How many rows ahead the first look's cell is asked for (docs/performance.md, session 46).
_GREEDY_AHEAD = 8


@njit(cache=True, nogil=True)
def _cells_at(ptr, cols, w, top, sub_ptr, sub_col):
    """The cells of weight ``top``, row by row (CSR into ``sub_ptr``, ``sub_col``); how many."""
    q = 0
    for i in range(ptr.shape[0] - 1):
        sub_ptr[i] = q
        for p in range(ptr[i], ptr[i + 1]):
            if w[p] == top:
                sub_col[q] = cols[p]
                q += 1
    sub_ptr[ptr.shape[0] - 1] = q
    return q


@njit(cache=True, nogil=True)
def _matching_arrays(n_rows, n_cols):
    """:func:`_hopcroft_karp`'s state: (col_of, row_of) empty, and its work arrays (dist, queue, stack, via, it)."""
    return (np.full(n_rows, -1, dtype=np.int64), np.full(n_cols, -1, dtype=np.int64),
            np.empty(n_rows, dtype=np.int64), np.empty(n_rows, dtype=np.int64), np.empty(n_rows + 1, dtype=np.int64),
            np.empty(n_rows + 1, dtype=np.int64), np.empty(n_rows, dtype=np.int64))


@njit(cache=True, nogil=True, inline="always")
def _flip_stack(stack, via, depth, col_of, row_of):
    """Augment along the path on the depth-first search's stack: each row on it takes the column
    it was left by (``via``), the last row the free column found."""
    for q in range(depth):
        col_of[stack[q]] = via[q]
        row_of[via[q]] = stack[q]


@njit(cache=True, nogil=True)
def _hopcroft_karp(ptr, cols, col_of, row_of, dist, queue, stack, via, it, steps, max_steps):
    """A maximum matching of the cells in CSR (``ptr``, ``cols``), grown from the matching in
    ``col_of``/``row_of`` (updated in place) by Hopcroft & Karp's phases: a breadth-first search
    from every free row that layers the rows by their shortest alternating distance, then
    depth-first augmentations along the layers. A column whose ``row_of`` is :data:`_HELD` is
    neither free nor passed through: its cell of the matching stays. Returns (finished within
    ``max_steps`` cell reads, counted from ``steps``; the count)."""
    n_rows = ptr.shape[0] - 1
    # Each free row takes a free cell before any search, looking from a point of its row that varies
    # from row to row: a row's columns come in ascending order, and from the first one every row would
    # pass over the low columns the rows before it took. That point, a cache miss, is asked rows ahead.
    for i in range(n_rows):
        ahead = i + _GREEDY_AHEAD
        if ahead < n_rows and ptr[ahead + 1] > ptr[ahead]:
            _prefetch(cols, ptr[ahead] + (ahead * _SPREAD) % (ptr[ahead + 1] - ptr[ahead]))
        lo, hi = ptr[i], ptr[i + 1]
        if col_of[i] >= 0 or hi == lo:
            continue
        start = lo + (i * _SPREAD) % (hi - lo)
        p = start
        while True:
            if row_of[cols[p]] == -1:
                col_of[i] = cols[p]
                row_of[cols[p]] = i
                break
            p = lo if p + 1 == hi else p + 1
            if p == start:
                break
    steps += cols.shape[0]
    while True:
        head = tail = 0
        for i in range(n_rows):
            if col_of[i] < 0 and ptr[i + 1] > ptr[i]:
                dist[i] = 0
                queue[tail] = i
                tail += 1
            else:
                dist[i] = _FAR
        # The search stops at the first free column: its layer is the shortest augmenting paths'
        # (``limit``), and every row of the layer before it is labelled already (the layers are
        # filled in order), which is all the augmentations below read.
        limit = _FAR
        while head < tail and limit == _FAR:
            i = queue[head]
            head += 1
            for p in range(ptr[i], ptr[i + 1]):
                r = row_of[cols[p]]
                if r == -1:
                    limit = dist[i] + 1
                    steps += p - ptr[i] + 1
                    break
                if r >= 0 and dist[r] == _FAR:
                    dist[r] = dist[i] + 1
                    queue[tail] = r
                    tail += 1
            else:
                steps += ptr[i + 1] - ptr[i]
        if limit == _FAR:
            return True, steps
        if steps > max_steps:
            return False, steps
        for i in range(n_rows):
            it[i] = ptr[i]
        for source in range(n_rows):
            if col_of[source] >= 0 or dist[source] != 0:
                continue
            stack[0] = source
            depth = 1
            while depth > 0:
                i = stack[depth - 1]
                if dist[i] + 1 == limit:
                    # The last layer: only a free column ends a path here and no row is entered
                    # from it, so its cells are read in a loop of their own, whose reads do not
                    # wait on the stack's (the same cells read, in the same order).
                    p, hi = it[i], ptr[i + 1]
                    while p < hi and row_of[cols[p]] != -1:
                        p += 1
                    steps += p - it[i]
                    if p == hi:
                        it[i] = hi
                        dist[i] = _FAR
                        depth -= 1
                        continue
                    steps += 1
                    it[i] = p + 1
                    via[depth - 1] = cols[p]
                    _flip_stack(stack, via, depth, col_of, row_of)
                    break
                if it[i] == ptr[i + 1]:
                    dist[i] = _FAR  # a dead end for the rest of the phase
                    depth -= 1
                    continue
                j = cols[it[i]]
                it[i] += 1
                steps += 1
                r = row_of[j]
                if r >= 0 and dist[r] == dist[i] + 1 and dist[r] < limit:
                    via[depth - 1] = j
                    stack[depth] = r
                    depth += 1


@njit(cache=True, nogil=True)
def _reduce(ptr, cols, w, off_row, off_col, top, out_cols, out_w, sub_ptr, sub_col):
    """One off each cell of a covered row (``off_row``) and of a covered column (``off_col``),
    the cells left at 0 dropped and the rest written row by row into ``out_cols``, ``out_w``
    (which may be ``cols``, ``w``: a cell is written at or before where it was read; ``ptr``
    updated in place); the cells left at ``top`` − 1, the next level's, into ``sub_ptr``,
    ``sub_col`` — unless that level is 1, where every cell is. Returns how many cells are kept."""
    n_rows = ptr.shape[0] - 1
    nxt = top - 1
    q = 0
    s = 0
    lo = ptr[0]
    for i in range(n_rows):
        hi = ptr[i + 1]
        ptr[i] = q
        sub_ptr[i] = s
        off = np.int64(1) if off_row[i] else np.int64(0)
        for p in range(lo, hi):
            x = w[p] - off - (np.int64(1) if off_col[cols[p]] else np.int64(0))
            if x > 0:
                out_w[q] = x
                out_cols[q] = cols[p]
                q += 1
                if x == nxt and nxt > 1:
                    sub_col[s] = cols[p]
                    s += 1
        lo = hi
    ptr[n_rows] = q
    sub_ptr[n_rows] = s
    return q


@njit(cache=True, nogil=True)
def _held_heavy(ptr, cols, w, n_cols, at, max_steps):
    """The matching's weight by a bound and a matching that reaches it, where few cells (at the positions
    ``at``, ascending) hold more than one item — random labels of many classes and clusters, whose levels
    would each pass over every cell. Any matching M weighs |M| + Σ_{cells of M} (w − 1) ≤ ν + X, with ν
    the largest matching's size (at most the rows, or the columns, that have cells) and X the heaviest
    matching of the cells of w ≥ 2 weighed w − 1 (a small problem: :func:`sparse_max_weight_matching`).
    Held fixed (:data:`_HELD`), that matching is grown by :func:`_hopcroft_karp` over every cell; if it
    reaches as many rows or columns as have cells, it weighs at least ν + X, so exactly that. Returns
    (the weight, 1 certified / 0 not / 2 stopped at ``max_steps``, the cell reads: the heavy
    matching's counted as its cells, its own budget what is left)."""
    n_rows = ptr.shape[0] - 1
    q = at.shape[0]
    lines = min(q, n_rows)
    h_ptr = np.empty(lines + 1, dtype=np.int64)
    h_row = np.empty(lines, dtype=np.int64)
    h_col = np.empty(q, dtype=np.int64)
    h_w = np.empty(q, dtype=np.int64)
    k = 0
    row = -1
    for a in range(q):  # the heavy cells by row, the rows that have any renumbered 0 … k − 1
        p = at[a]
        h_col[a] = cols[p]
        h_w[a] = w[p] - 1
        if row < 0 or p >= ptr[row + 1]:
            row += 1
            while ptr[row + 1] <= p:
                row += 1
            h_row[k] = row
            h_ptr[k] = a
            k += 1
    h_ptr[k] = q
    steps = cols.shape[0] + q
    excess, h_of, complete = sparse_max_weight_matching(h_ptr[: k + 1], h_col, h_w, n_cols, max_steps - steps)
    if not complete:
        return excess, 2, max_steps
    col_of, row_of, dist, queue, stack, via, it = _matching_arrays(n_rows, n_cols)
    for a in range(k):
        if h_of[a] < n_cols:
            col_of[h_row[a]] = h_of[a]
            row_of[h_of[a]] = _HELD
    complete, steps = _hopcroft_karp(ptr, cols, col_of, row_of, dist, queue, stack, via, it, steps, max_steps)
    if not complete:
        return excess, 2, steps
    size = rows_used = 0
    for i in range(n_rows):
        size += col_of[i] >= 0
        rows_used += ptr[i + 1] > ptr[i]
    if size < rows_used:
        seen = np.zeros(n_cols, dtype=np.bool_)
        for p in range(cols.shape[0]):
            seen[cols[p]] = True
        steps += cols.shape[0]
        if size < seen.sum():
            return excess, 0, steps
    return size + excess, 1, steps


# Where at most 1/HELD_HEAVY_SHARE of the cells hold more than one item, the bound is tried first.
HELD_HEAVY_SHARE = 8


@njit(cache=True, nogil=True)
def held_max_weight(indptr, indices, weights, n_cols, max_steps, row_top=None):
    """The largest weight of a one-to-one matching of the CSR matrix of positive integer weights (int64)
    by a bound and a matching that reaches it (:func:`_held_heavy`), where at most 1/:data:`HELD_HEAVY_SHARE`
    of its cells exceed 1 — tables of many classes and clusters whose cells hold one item, a few two or
    more. ``row_top``: each row's largest cell, where the caller knows it (a count keeps it): only the rows
    holding a cell past 1 are read for those cells. Returns (the weight, 1 certified / 0 not tried or not
    certified / 2 stopped at ``max_steps`` cell reads, the cell reads, the largest weight)."""
    m = indices.shape[0]
    cap = m // HELD_HEAVY_SHARE
    at = np.empty(cap, dtype=np.int64)
    top = weights[:0].sum()
    heavy = 0
    for i in range(indptr.shape[0] - 1):  # the largest cell, and where the cells past 1 are (while few)
        if row_top is not None:  # numba compiles this apart where row_top is None
            top = max(top, row_top[i])
            if row_top[i] <= 1:
                continue
        for p in range(indptr[i], indptr[i + 1]):
            x = weights[p]
            if row_top is None:
                top = max(top, x)
            if x > 1:
                if heavy < cap:
                    at[heavy] = p
                heavy += 1
    if 0 < heavy <= cap:
        weight, status, steps = _held_heavy(indptr, indices, weights, n_cols, at[:heavy], max_steps)
        return np.int64(weight), status, steps, top
    return np.int64(0), 0, m, top


@njit(cache=True, nogil=True)
def levels_max_weight(indptr, indices, weights, n_cols, max_steps, row_top=None):
    """Largest total weight of a one-to-one matching of rows and columns of the sparse matrix of positive
    integer weights in CSR form (``indices``, ``weights``: writable int64, only read), by Kao, Lam, Sung &
    Ting's decomposition: with N the largest weight, mwm(G) = |a maximum matching of the cells of weight
    N| + mwm(G'), where G' takes 1 off every cell of each vertex in a minimum vertex cover of those cells
    (König's, read off the maximum matching) and drops the cells left at 0 — its largest weight is N − 1.
    So N maximum-cardinality matchings (:func:`_hopcroft_karp`) give the answer, each level's matching
    starting from the last one's (a matched cell has exactly one covered end: it is at the new top), and
    each level's cells gathered on the last one's pass. Where nearly every cell holds the same few items
    (random labels of many classes and clusters) this is what the shortest-path searches are slowest at:
    there every search explores the rows reachable at no extra cost. Where at most
    1/:data:`HELD_HEAVY_SHARE` of the cells hold more than one item, a bound and a matching that reaches
    it (:func:`held_max_weight`) come first: one maximum-cardinality matching of every cell instead of a
    pass a level (``row_top``: each row's largest cell, where known). Returns (the total, whether it
    finished within ``max_steps`` cell reads, the cell reads)."""
    n_rows = indptr.shape[0] - 1
    cols, w = indices, weights  # the caller's, read until the first level's cover is taken off
    m = cols.shape[0]
    total = np.int64(0)
    if m == 0:
        return total, True, 0
    weight, status, steps, top = held_max_weight(indptr, cols, w, n_cols, max_steps, row_top)
    if status != 0:
        return weight, status == 1, steps
    max_steps -= steps  # the levels' budget: what the bound's try left
    ptr = indptr.copy()
    owned = False
    col_of, row_of, dist, queue, stack, via, it = _matching_arrays(n_rows, n_cols)
    sub_ptr = np.empty(n_rows + 1, dtype=np.int64)
    sub_col = np.empty(m, dtype=np.int64)
    reached_col = np.zeros(n_cols, dtype=np.bool_)
    covered_row = np.zeros(n_rows, dtype=np.bool_)
    everything = _cells_at(ptr, cols, w, top, sub_ptr, sub_col) == m
    steps = 2 * m
    while m > 0:
        if steps > max_steps:  # the levels' passes count too: the budget bounds the whole
            return total, False, steps
        if everything:  # every cell at the top: no copy
            level_ptr, level_col = ptr, cols[:m]
        else:
            level_ptr, level_col = sub_ptr, sub_col[: sub_ptr[n_rows]]
        complete, steps = _hopcroft_karp(level_ptr, level_col, col_of, row_of, dist, queue, stack, via, it,
                                         steps, max_steps)
        if not complete:
            return total, False, steps
        for i in range(n_rows):
            if col_of[i] >= 0:
                total += 1
        if top == 1:
            break
        # König's cover: the rows not reached and the columns reached by alternating paths from
        # the free rows.
        covered_row[:] = True
        reached_col[:] = False
        head = tail = 0
        for i in range(n_rows):
            if col_of[i] < 0:
                covered_row[i] = False
                queue[tail] = i
                tail += 1
        while head < tail:
            i = queue[head]
            head += 1
            for p in range(level_ptr[i], level_ptr[i + 1]):
                j = level_col[p]
                if not reached_col[j]:
                    reached_col[j] = True
                    r = row_of[j]  # never free: the matching is maximum
                    if covered_row[r]:
                        covered_row[r] = False
                        queue[tail] = r
                        tail += 1
        if not owned:  # the first cover taken off: into arrays of its own, the caller's untouched
            own_cols, own_w = np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64)
            m = _reduce(ptr, cols, w, covered_row, reached_col, top, own_cols, own_w, sub_ptr, sub_col)
            cols, w, owned = own_cols, own_w, True
        else:
            m = _reduce(ptr, cols, w, covered_row, reached_col, top, cols, w, sub_ptr, sub_col)
        steps += m
        top -= 1
        everything = top == 1 or sub_ptr[n_rows] == m
    return total, True, steps
