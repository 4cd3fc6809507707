"""Compiled kernels (numba, the optional ``fast`` extra): counting, a grid's summary, the dense
assignment, and the components of a big table's class–cluster graph; the sparse assignment
(:mod:`metrics.core.kernels.augmenting_paths`) is reached through here too.

Reached only through :func:`metrics.core.kernels.counting.compiled_kernels` (by the counting, by
``Contingency._from_grid``, and by :mod:`metrics.measures.matching`; the per-cell sums are
:mod:`metrics.core.kernels.cell_stats`), and only when numba is installed (``pip install
partition-lab[fast]``); every kernel here has a pure-numpy/scipy counterpart that gives
the same result, and the test suite runs the two against each other. Compiled code is
cached on disk (``cache=True``), so the first call on a machine compiles (about a second
per dtype combination) and later processes load it.

All kernels are single-threaded: the benchmark's floor (reading both arrays once) is
single-threaded too, and the machines this runs on share their cores.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from .augmenting_paths import _flip_path, _prefetch, held_max_weight, levels_max_weight, sparse_max_weight_matching

__all__ = ["bounds", "count_pairs", "grid_summary", "max_weight_assignment", "csr_order",
           "sparse_max_weight_matching", "levels_max_weight", "held_max_weight", "sorted_indptr", "cell_components"]


# --------------------------------------------------------------------------- counting
@njit(cache=True, nogil=True)
def bounds(a):
    """(min, max) of a non-empty integer array, as int64, in one pass."""
    lo = np.int64(a[0])
    hi = lo
    for i in range(a.shape[0]):
        x = np.int64(a[i])
        lo = min(lo, x)
        hi = max(hi, x)
    return lo, hi


@njit(cache=True, nogil=True)
def count_pairs(a, b, hi_a, hi_b, out):
    """The fused single pass: ``out[a[i], b[i]] += 1`` for every i.

    ``out`` is a C-contiguous (hi_a + 1, hi_b + 1) count grid. Each item is checked
    against the grid (0 ≤ a[i] ≤ hi_a, 0 ≤ b[i] ≤ hi_b): the pass stops at the first
    item outside it and returns its index (``a.shape[0]`` when every item was counted),
    so that a caller that guessed the grid's size can grow it and go on from there.
    Labels are read in their own dtype: an int32 array is never widened in memory.

    Why unsigned: a negative label turns into a huge one, so one comparison per side
    checks both ends, and an unsigned index spares numba's negative-index wraparound;
    with the loop counting up from 0 the hot loop is as short as an unchecked one.
    """
    flat = out.reshape(-1)
    top_a = np.uint64(hi_a)
    top_b = np.uint64(hi_b)
    stride = np.uint64(hi_b + 1)
    for i in range(a.shape[0]):
        x = np.uint64(a[i])
        y = np.uint64(b[i])
        if (x > top_a) | (y > top_b):
            return i
        flat[x * stride + y] += 1
    return a.shape[0]


# --------------------------------------------------------------------------- grid summary
@njit(cache=True, nogil=True)
def grid_summary(grid, cap, limit, copy_to=None):
    """One pass over an integer count grid for what every table needs: row and column
    sums and maxima (int64), the number of non-zero cells, and how many cells hold each
    count 0 … top (``hist``, first ``cap`` long, grown as bigger counts come up to ``limit``
    entries; ``complete`` is False when some cell reaches ``limit``, and ``hist`` is then to
    be ignored), and the smallest cell of the rows read (``low``): a negative cell stops the
    pass at its row — then nothing else is valid, the caller refuses the grid. The growth is for the few
    big cells of a clustering's dominant matches: the histogram stays one pass.

    numpy needs seven passes for these (two sums, two maxima, a count of non-zeros, a
    max and a bincount that first widens the grid to int64); here they are one
    (docs/performance.md). The histogram is kept four times over, one copy
    per column residue, so that runs of equal counts do not wait on each other's store.

    ``copy_to``: an int64 array of the grid's shape that the pass also copies the cells into
    (a table's own copy of a caller's array, made on the way rather than by a pass of its own);
    None (numba compiles that case apart, without the stores): no copy.
    """
    n_rows, n_cols = grid.shape
    row_sums = np.zeros(n_rows, dtype=np.int64)
    row_max = np.zeros(n_rows, dtype=np.int64)
    col_sums = np.zeros(n_cols, dtype=np.int64)
    col_max = np.zeros(n_cols, dtype=np.int64)
    hists = np.zeros((4, cap), dtype=np.int64)
    nonzero = 0
    complete = True
    for i in range(n_rows):
        row = grid[i]
        total = np.int64(0)
        top = np.int64(0)
        low = np.int64(0)
        for j in range(n_cols):
            x = np.int64(row[j])
            if copy_to is not None:
                copy_to[i, j] = x
            total += x
            top = max(top, x)
            low = min(low, x)
            col_sums[j] += x
            col_max[j] = max(col_max[j], x)
            nonzero += x != 0
        row_sums[i] = total
        row_max[i] = top
        if low < 0:
            return row_sums, row_max, col_sums, col_max, nonzero, hists.sum(axis=0), False, low
        if complete and top >= cap:
            if top < limit:
                cap = max(2 * cap, top + 1)
                grown = np.zeros((4, cap), dtype=np.int64)
                grown[:, : hists.shape[1]] = hists
                hists = grown
            else:
                complete = False
        if complete:
            for j in range(n_cols):
                hists[j & 3, np.uint64(row[j])] += 1
    return row_sums, row_max, col_sums, col_max, nonzero, hists.sum(axis=0), complete, np.int64(0)


# --------------------------------------------------------------------------- assignment
def _cost(x):
    """A weight in the assignment's cost type (numba picks it by the weight's type, below):
    int64 for integer counts, whose prices then cannot overflow an int32 table's type, float64
    for fractional weights (NCA's and PSI's)."""
    return x


def _no_cost(x):
    """Above every cost of ``x``'s cost type: the largest int64, or infinity."""
    return x


@overload(_cost)
def _cost_typed(x):
    if isinstance(x, types.Integer):
        return lambda x: np.int64(x)
    return lambda x: np.float64(x)


@overload(_no_cost)
def _no_cost_typed(x):
    if isinstance(x, types.Integer):
        return lambda x: np.int64(np.iinfo(np.int64).max)
    return lambda x: np.inf


@njit(cache=True, nogil=True)
def max_weight_assignment(w, max_turns=-1):
    """Largest total weight of a one-to-one matching of the rows and columns of the
    square non-negative matrix ``w`` (integer counts, or fractional weights: see the last
    paragraph), and the matching (row → column).

    Jonker & Volgenant's method (1987) on the costs c_ij = max_k w_ik − w_ij — each row's own
    largest cell less the cell: a constant taken off a row changes no assignment of a square
    matrix, and against one ``max(w)`` for every row the rows of big classes were the cheapest
    in every column, so that column reduction matched few rows and left prices that sent the
    searches over most columns (a table of skewed class sizes took 10× as long; docs/performance.md,
    session 46) —, in its four phases:
    column reduction gives every column its cheapest row (a feasible dual v, and a partial
    matching of tight cells); reduction transfer lowers each matched column's price by its
    row's second-best gap; two rounds of augmenting row reduction let free rows take their
    cheapest column, displacing its row; every row still free is then matched by a shortest
    augmenting path (Dijkstra over the reduced costs c_ij − v_j, dense), after which the
    prices of the columns the search settled are raised so that every reduced cost stays
    ≥ 0 and every matched cell tight. The last phase alone is provably optimal: the first
    three only give it a better start.

    Integer costs keep every comparison exact. Fractional weights are compared as floats, as
    scipy's ``linear_sum_assignment`` compares them (NCA's and PSI's weights, where their
    certified rounds hand over; at 1000 × 1000 1.4 to 5 times quicker than scipy's solve).
    """
    n = w.shape[0]
    zero = _cost(w[:1, :1].sum()) * 0  # 0 in the cost type (and no cell read: ``w`` may be empty)
    top = np.full(n, zero)  # each row's largest cell
    for i in range(n):
        for j in range(n):
            top[i] = max(top[i], _cost(w[i, j]))
    row_of = np.full(n, -1, dtype=np.int64)  # column j -> its row
    col_of = np.full(n, -1, dtype=np.int64)  # row i -> its column
    v = np.empty_like(top)
    # Column reduction: v_j = min_i c_ij (computed row by row, for memory order),
    # then, last column first as in JV, a column whose cheapest row is free takes it.
    best_row = np.zeros(n, dtype=np.int64)
    for j in range(n):
        v[j] = top[0] - _cost(w[0, j])
    for i in range(1, n):
        for j in range(n):
            c = top[i] - _cost(w[i, j])
            if c < v[j]:
                v[j] = c
                best_row[j] = i
    for j in range(n - 1, -1, -1):
        i = best_row[j]
        if col_of[i] < 0:
            col_of[i] = j
            row_of[j] = i
    # Reduction transfer: a matched row's column gives up the gap to the row's second
    # best, so that the row's own dual drops to that gap (all reduced costs stay ≥ 0).
    for i in range(n):
        j1 = col_of[i]
        if j1 < 0:
            continue
        second = _no_cost(zero)
        for j in range(n):
            if j != j1:
                second = min(second, top[i] - _cost(w[i, j]) - v[j])
        if n > 1:
            v[j1] -= second
    free_rows = np.empty(n, dtype=np.int64)
    n_free = 0
    for i in range(n):
        if col_of[i] < 0:
            free_rows[n_free] = i
            n_free += 1
    # Augmenting row reduction, two rounds (JV): a free row takes its cheapest column,
    # lowering that column's price to the row's second-cheapest; the row it displaces
    # goes on at once when the price really dropped, else waits for the next round. Rows go on
    # at most ``max_turns`` times in all (8n unless given: float prices can drop by ever smaller
    # steps, and NCA's weights of skewed cluster sizes took 430 ms in this loop at n² turns, 74 at
    # 8n); the rows still free then go to the searches, which alone make the answer optimal.
    turns = 0
    if max_turns < 0:
        max_turns = 8 * n
    for _ in range(2):
        k = 0
        previous = n_free
        n_free = 0
        while k < previous:
            turns += 1
            if turns > max_turns:
                for q in range(k, previous):  # the rows not taken yet: free for the searches
                    free_rows[n_free] = free_rows[q]
                    n_free += 1
                break
            i = free_rows[k]
            k += 1
            j1 = 0
            umin = top[i] - _cost(w[i, 0]) - v[0]
            j2 = -1
            usub = _no_cost(zero)
            for j in range(1, n):
                h = top[i] - _cost(w[i, j]) - v[j]
                if h < usub:
                    if h >= umin:
                        usub = h
                        j2 = j
                    else:
                        usub = umin
                        umin = h
                        j2 = j1
                        j1 = j
            i0 = row_of[j1]
            if umin < usub:
                v[j1] -= usub - umin
            elif i0 >= 0 and j2 >= 0:
                j1 = j2
                i0 = row_of[j2]
            col_of[i] = j1
            row_of[j1] = i
            if i0 >= 0:
                col_of[i0] = -1
                if umin < usub:
                    k -= 1
                    free_rows[k] = i0
                else:
                    free_rows[n_free] = i0
                    n_free += 1
    d = np.empty_like(top)
    pred = np.empty(n, dtype=np.int64)
    cols = np.empty(n, dtype=np.int64)
    for f in range(n_free):
        free = free_rows[f]
        # Dijkstra from row `free`: cols[:low] settled, cols[low:up] at the current
        # minimum distance (to scan), cols[up:] not yet reached at that distance.
        for j in range(n):
            d[j] = top[free] - _cost(w[free, j]) - v[j]
            pred[j] = free
            cols[j] = j
        low = 0
        up = 0
        end = -1
        dmin = zero
        while end < 0:
            if up == low:
                # Next distance level: gather the columns at the smallest distance.
                dmin = d[cols[up]]
                up += 1
                for k in range(up, n):
                    # numba types j unsigned here (no wraparound check on the loads).
                    j = np.uint64(cols[k])  # type: ignore[assignment]
                    h = d[j]
                    if h <= dmin:
                        if h < dmin:
                            up = low
                            dmin = h
                        cols[k] = cols[up]
                        cols[up] = j
                        up += 1
                for k in range(low, up):
                    if row_of[np.uint64(cols[k])] < 0:
                        end = cols[k]
                        break
                if end >= 0:
                    break
            # Settle one column at distance dmin and relax through its row.
            j1 = cols[low]
            low += 1
            i = row_of[j1]
            u1 = top[i] - _cost(w[i, j1]) - v[j1] - dmin
            # The hot loop (about 60 settled columns per free row, each relaxing the
            # ~800 columns not yet reached): one row, the offset hoisted, and unsigned
            # column indices, which spare numba's negative-index wraparound on each of
            # the four loads.
            row = w[i]
            base = top[i] - u1
            for k in range(up, n):
                j = np.uint64(cols[k])  # type: ignore[assignment]  # unsigned on purpose (above)
                h = base - _cost(row[j]) - v[j]
                if h < d[j]:
                    d[j] = h
                    pred[j] = i
                    if h == dmin:
                        if row_of[j] < 0:
                            end = np.int64(j)  # type: ignore[assignment]  # numba: one integer type
                            break
                        cols[k] = cols[up]
                        cols[up] = j
                        up += 1
        # Raise the settled columns' prices, then flip the path.
        for k in range(low):
            j = cols[k]
            v[j] += d[j] - dmin
        _flip_path(pred, row_of, col_of, end, free)
    total = zero
    for i in range(n):
        total += _cost(w[i, col_of[i]])
    return total, col_of


# --------------------------------------------------------------------------- sparse tables: CSR order, components
@njit(cache=True, nogil=True)
def csr_order(keys, n_keys):
    """The stable order that sorts ``keys`` (ints in 0..n_keys − 1) and the CSR index pointer of
    the sorted keys — a counting sort, O(len + n_keys), where ``argsort(kind="stable")`` of int64
    keys is a merge sort."""
    indptr = np.zeros(n_keys + 1, dtype=np.int64)
    for i in range(keys.shape[0]):
        indptr[keys[i] + 1] += 1
    for k in range(n_keys):
        indptr[k + 1] += indptr[k]
    pos = indptr[:-1].copy()
    order = np.empty(keys.shape[0], dtype=np.int64)
    for i in range(keys.shape[0]):
        k = keys[i]
        order[pos[k]] = i
        pos[k] += 1
    return order, indptr


@njit(cache=True, nogil=True)
def sorted_indptr(keys, n_keys):
    """The CSR index pointer of ``keys`` (ints in 0..n_keys − 1) where they are sorted already (a
    table's cells come row by row): one pass, no order; an empty array where they are not."""
    indptr = np.empty(n_keys + 1, dtype=np.int64)
    r = 0
    for i in range(keys.shape[0]):
        k = keys[i]
        if k < r - 1:
            return indptr[:0]
        while r <= k:  # rows r … k start here
            indptr[r] = i
            r += 1
    while r <= n_keys:
        indptr[r] = keys.shape[0]
        r += 1
    return indptr


@njit(cache=True, nogil=True)
def _root(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]  # path halving
        x = parent[x]
    return x


@njit(cache=True, nogil=True, inline="always")
def _union(parent, x, y):
    """Join the sets of the roots x ≠ y; the new root. The smaller index becomes the root, so a
    set holding a class has a class as its root (classes come before clusters)."""
    if x < y:
        parent[y] = x
        return x
    parent[x] = y
    return y


@njit(cache=True, nogil=True, inline="always")
def _join_row(parent, has_cells, x, r, unions):
    """Class ``r`` (one with a cell) joins the set whose root is ``x``: (its root, the unions made)."""
    has_cells[r] = True
    y = _root(parent, r)
    if x != y:
        return _union(parent, x, y), unions + 1
    return x, unions


@njit(cache=True, nogil=True)
def _cell_row(rows, indptr, k, r):
    """The row of cell ``k``: ``rows[k]``, or where ``indptr`` (the cells' offsets by row) is
    given, found from ``r``, the row of an earlier cell (the cells then come row by row). Compiled
    apart for ``indptr`` None, where numba drops the branch: a branch left in the loop made the
    rows' case three times slower."""
    if indptr is None:
        return rows[k]
    while indptr[r + 1] <= k:
        r += 1
    return r


# How many cells ahead :func:`cell_components` asks for a cluster's node (docs/performance.md, session 46).
_COMPONENTS_AHEAD = 16


@njit(cache=True, nogil=True)
def cell_components(rows, cols, vals, n_rows, n_cols, every_row, known_top, indptr):
    """Connected components of the class–cluster graph whose edges are the cells (rows[k], cols[k]),
    by union–find: each row's component (numbered 0.. in row order; −1 for a row without cells),
    and per component its classes, its clusters, its largest cell and its number of cells.

    Union–find needs no graph built first (a sparse-graph search does). Three things keep it near
    one sequential read of the cells where the cells come in row-major order (every table's
    order): the row's root is carried from cell to cell of the same row (only the cluster is
    looked up); once every cluster is in one set, each later class joins that set by its first
    cell and the rest of its cells are skipped (random labels get
    there within their first ~12 % of cells); and the per-cell component is not written — the matching, when it
    runs, gathers it from the rows (a table it refuses never needs it). The forest is int32,
    small enough for the L2 cache at 10^5 + 10^5 nodes.

    ``every_row``: the caller knows that every row has a cell (a table's rows: no empty one), so
    that, once every cluster is in one set, the classes not reached yet join it without their
    cells being read. ``known_top``: the largest cell where the caller knows it (one value of
    ``vals``' dtype), else empty. ``indptr``: the cells' offsets by row (CSR), where the caller has
    them instead of ``rows`` (then empty), else None."""
    n_nodes = n_rows + n_cols
    parent = np.arange(n_nodes).astype(np.int32)
    has_cells = np.zeros(n_rows, dtype=np.bool_)
    m = cols.shape[0]
    unions = 0
    seen_rows = 0
    seen_cols = 0
    prev = -1
    x = 0
    k = 0
    r = 0
    while k < m:
        r = _cell_row(rows, indptr, k, r)
        if r != prev:
            if not has_cells[r]:
                has_cells[r] = True
                seen_rows += 1
            x = _root(parent, r)
            prev = r
        c = n_rows + cols[k]
        if k + _COMPONENTS_AHEAD < m:  # the cluster's node some cells ahead: a read at random
            _prefetch(parent, n_rows + cols[k + _COMPONENTS_AHEAD])
        y = _root(parent, c)
        k += 1
        if y == c:  # a cluster's root is itself only until its first cell joins it to a class
            seen_cols += 1
        if x != y:
            x = _union(parent, x, y)
            unions += 1
            if seen_cols == n_cols and seen_rows + seen_cols - unions == 1:
                break
    # Every cluster is in the one set built so far: each later class joins it by any of its cells,
    # and its other cells change nothing.
    if every_row and k < m:
        for r in range(n_rows):
            if not has_cells[r]:
                x, unions = _join_row(parent, has_cells, x, r, unions)
        k = m
    while k < m:
        r = _cell_row(rows, indptr, k, r)
        k += 1
        if r != prev:
            prev = r
            x, unions = _join_row(parent, has_cells, x, r, unions)
    connected = unions == n_nodes - 1
    if connected:  # one component: every class and cluster holds a cell
        top = vals[0]
        if known_top.shape[0]:
            top = known_top[0]
        else:
            for q in range(m):
                top = max(top, vals[q])
        best = np.empty(1, dtype=vals.dtype)
        best[0] = top
        return (np.zeros(n_rows, dtype=np.int32), np.array([n_rows], dtype=np.int64),
                np.array([n_cols], dtype=np.int64), best, np.array([m], dtype=np.int64))
    label = np.full(n_nodes, -1, dtype=np.int32)
    of_row = np.full(n_rows, -1, dtype=np.int32)
    n_comp = 0
    for i in range(n_rows):
        if has_cells[i]:
            root = _root(parent, i)
            if label[root] < 0:
                label[root] = n_comp
                n_comp += 1
            of_row[i] = label[root]
    comp_rows = np.zeros(n_comp, dtype=np.int64)
    comp_cols = np.zeros(n_comp, dtype=np.int64)
    cells = np.zeros(n_comp, dtype=np.int64)
    best = np.zeros(n_comp, dtype=vals.dtype)
    for i in range(n_rows):
        if of_row[i] >= 0:
            comp_rows[of_row[i]] += 1
    for j in range(n_cols):
        lab = label[_root(parent, n_rows + j)]
        if lab >= 0:
            comp_cols[lab] += 1
    r = 0
    for q in range(m):
        r = _cell_row(rows, indptr, q, r)
        lab = of_row[r]
        cells[lab] += 1
        best[lab] = max(best[lab], vals[q])
    return of_row, comp_rows, comp_cols, best, cells
