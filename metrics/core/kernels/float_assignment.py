"""Certified maximum-weight assignment of a dense matrix of fractional weights (numba, the optional
``fast`` extra): the matchings of NCA (n_ij / a_i) and PSI (n_ij / max(a_i, b_j)).

scipy's dense ``linear_sum_assignment`` reads every cell in every search. Here the assignment is
solved on a few candidate cells only — each row's ``k`` largest and each column's ``k`` largest —
and the answer is then *certified* on the whole matrix by linear-programming duality, so that a
candidate set that misses the optimum is caught, never trusted:

1. :func:`mark_best` marks the candidates; :func:`sparse_assignment` solves the assignment on them
   by Jonker & Volgenant's augmenting row reduction, then successive shortest augmenting paths
   (:func:`metrics.core.kernels.augmenting_paths.augment_free_rows`), keeping its duals: column
   prices p_j ≥ 0 and row profits u_i with u_i + p_j ≥ w_ij on every candidate, tight on the
   matched cells. Where the searches from nothing are slow (every weight nearly equal, at
   :data:`AUCTION_MIN_ROWS` rows or more), an auction (:mod:`metrics.core.kernels.auction`)
   brings the prices close to the optimum's first, and the searches finish from there.
2. :func:`certify` reads every cell once: the bound B = Σ_i max(0, max_j (w_ij − p_j)) + Σ_j p_j is,
   by weak duality of the matching LP (max Σ w x, each row and column at most once, x ≥ 0; dual
   min Σ u + Σ p, u_i + p_j ≥ w_ij, u, p ≥ 0), an upper bound of the optimum whatever p is; the
   matching's weight M is a lower bound. B − M ≤ ``tol`` certifies M. The cells whose reduced
   weight w_ij − p_j − u_i is positive (beyond rounding) are what the candidates missed: they are
   added and the solve repeated from the last round's matching and prices (warm), a few rounds
   at most; past them, or past a budget of steps, the caller solves densely.

Why the tolerance (see :func:`gap_tolerance`): every term of B and M is a sum or difference of
floats rounded to nearest, so B̂ and M̂ as computed are each within (N + 1)·ε·B̂ of their exact
values, N = rows + columns, ε = 2^−52. Accepting B̂ − M̂ ≤ N·ε·B̂ therefore leaves the exact
optimum within (3N + 2)·ε·B̂ of the matching's exact weight — below 10^−12 relative for N up to
about 1500, and the pairwise sums numpy uses err far less than this worst case. A matching that
is not optimal by more than that is refused. The tolerance never makes the answer depend on the
solver's own rounding: p is only a certificate, any p would do.

The weight returned is summed as :func:`metrics.measures.matching._lsa_value` sums scipy's (the
matched weights sorted, with a zero for each unmatched position): the same matching gives the
same bits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .auction import auction
from .augmenting_paths import augment_free_rows, cell_cost

# Candidates per row and per column. Five already holds the optimum of most count tables; a
# miss costs one more round on the few cells the certificate names.
BEST_PER_LINE = 5
# Rounds of certify-and-add before the caller's dense solve takes over.
ROUNDS = 12
# Past this share of the matrix the candidates are no longer sparse: the dense solve is cheaper.
MAX_CANDIDATE_SHARE = 0.25
# Cell relaxations of the sparse solves, all rounds together, per cell of the matrix: past them
# the caller's dense solve takes over. PSI's weights n_ij / max(a_i, b_j) of a dense 1000 × 1000
# table of counts 0–19 take 3–5 per cell over all rounds, up to 9 where a cold round follows the
# warm ones (one of eight random tables); a table of counts 0–2 (ties everywhere) does not
# converge within 12 and so loses some tens of ms by trying first.
STEPS_PER_CELL = 12.0
# Rounds of augmenting row reduction before the searches: each row it places costs a scan of its
# cells, where a search from it explores hundreds of rows when the weights are nearly equal (at
# 1000 × 1000, 16 rounds halve the first solve's time against JV's 2).
ARR_ROUNDS = 16
# A cold solve's searches get this many cell relaxations a row before the auction takes over:
# NCA's weights of a 1000 × 1000 table of counts 0–19 take about 130 a row (its cells tie
# within each row, where an auction's bids move prices by ε only), PSI's 2,700 (every cell
# nearly equal, where the auction and the searches after it take about a fifth of that time).
COLD_STEPS_PER_ROW = 300
# The auction's ε, relative to the largest weight: from this ...
AUCTION_START = 1e-2
# ... down to this, a quarter each phase; the searches after it make the answer exact.
AUCTION_END = 1e-4
# A warm round starts with an auction where the certificate added more than one cell per this
# many rows; with fewer, the searches from the freed rows alone are quicker.
AUCTION_WHEN_ADDED = 8
# An auction's budget of cell reads per candidate cell: PSI's 1000 × 1000 tables of counts 0–19
# take 25–50; where cells tie (counts 0–2) it would take thousands: past it, the rounds run again
# without the auction.
AUCTION_READS_PER_CELL = 100
# Below this many rows (the shorter side) the auction is not tried: at 300 × 300 it saves under a
# millisecond on PSI's counts 0–19 and loses 5–6 ms on counts 0–2, where the rounds run twice.
AUCTION_MIN_ROWS = 500
# The steps of the rounds with the auction, all together, per cell of the matrix (their budget,
# like STEPS_PER_CELL): PSI's 1000 × 1000 tables of counts 0–19 take 1–2, 300 × 300 up to 5.
# Where they do not certify within it, the rounds run again without the auction: this is what
# such a table can lose.
AUCTION_STEPS_PER_CELL = 6.0
_EPS = float(np.finfo(np.float64).eps)


@njit(cache=True, nogil=True, inline="always")
def _insert(vals, idx, k, x, at):
    """Insert (x, at) into the descending buffer vals[:k], idx[:k], dropping its last entry."""
    p = k - 1
    while p > 0 and vals[p - 1] < x:
        vals[p] = vals[p - 1]
        idx[p] = idx[p - 1]
        p -= 1
    vals[p] = x
    idx[p] = at


@njit(cache=True, nogil=True)
def mark_best(w, k, mask):
    """Set ``mask[i, j]`` for each row's ``k`` largest positive cells and each column's ``k``
    largest, in one pass over the rows (the columns' buffers updated as the rows go by); the
    first cells win ties. Returns how many cells were newly marked."""
    n_r, n_c = w.shape
    kr = min(k, n_c)
    kc = min(k, n_r)
    col_vals = np.zeros((n_c, kc))
    col_idx = np.full((n_c, kc), -1, dtype=np.int64)
    col_last = np.zeros(n_c)  # each column's k-th best so far, read by every cell: kept contiguous
    row_vals = np.zeros(kr)
    row_idx = np.full(kr, -1, dtype=np.int64)
    may_take = np.zeros(n_c, dtype=np.bool_)
    marked = 0
    for i in range(n_r):
        row_vals[:] = 0.0
        row_idx[:] = -1
        row = w[i]
        # The columns this row's cells may enter, by one comparison LLVM vectorises: a column's
        # k-th best changes only when the column takes a cell, which is once per row at most.
        for j in range(n_c):
            may_take[j] = row[j] >= col_last[j]
        # Each row starts its scan at its own offset, so that equal cells (a count repeated
        # across a row, divided by the same class size) go to different columns in different
        # rows rather than all to the first ones: the two stretches, from the offset on, then
        # up to it.
        start = (i * n_c) // n_r
        row_last = 0.0  # the row's k-th best so far
        for stretch in range(2):
            lo = start if stretch == 0 else 0
            hi = n_c if stretch == 0 else start
            for j in range(lo, hi):
                x = row[j]
                if x > row_last:
                    _insert(row_vals, row_idx, kr, x, j)
                    row_last = row_vals[kr - 1]
                if not may_take[j]:
                    continue
                last = col_last[j]
                # Columns see the rows in order: a tie with the column's last candidate replaces
                # it one time in four (by a hash of the cell), so that equal cells spread over
                # the rows instead of all going to the first ones.
                if x > last or (x == last and x > 0.0 and ((i * 40503 + j * 9973) >> 3) & 3 == 0):
                    _insert(col_vals[j], col_idx[j], kc, x, i)
                    col_last[j] = col_vals[j, kc - 1]
        for q in range(kr):
            j = row_idx[q]
            if j >= 0 and not mask[i, j]:
                mask[i, j] = True
                marked += 1
    for j in range(n_c):
        for q in range(kc):
            i = col_idx[j, q]
            if i >= 0 and not mask[i, j]:
                mask[i, j] = True
                marked += 1
    return marked


@njit(cache=True, nogil=True)
def csr_of_mask(w, mask, n_marked):
    """The marked cells of ``w`` in CSR form, row by row: (indptr, column indices, weights).
    ``mask`` may be wider than ``w`` (:func:`new_mask`'s rows of whole words; the padding never
    marked); where each row is whole 8-byte words, it is read a word at a time, a word of no mark
    skipped at once (the candidates are a few cells a row)."""
    n_r, n_c = w.shape
    indptr = np.zeros(n_r + 1, dtype=np.int64)
    indices = np.empty(n_marked, dtype=np.int64)
    weights = np.empty(n_marked)
    width = mask.shape[1]
    words = width // 8 if width % 8 == 0 else 0
    flat = mask.reshape(-1).view(np.uint64) if words else np.zeros(0, dtype=np.uint64)
    p = 0
    for i in range(n_r):
        if words:
            for q in range(words):
                if flat[i * words + q] != 0:
                    for j in range(8 * q, 8 * q + 8):
                        if mask[i, j]:
                            indices[p] = j
                            weights[p] = w[i, j]
                            p += 1
        else:
            for j in range(n_c):
                if mask[i, j]:
                    indices[p] = j
                    weights[p] = w[i, j]
                    p += 1
        indptr[i + 1] = p
    return indptr, indices, weights


@njit(cache=True, nogil=True)
def mark_cells(mask, ptr, across):
    """Set ``mask`` at the cells given in CSR form by row (offsets ``ptr``, columns ``across``).
    Returns how many cells were newly marked."""
    marked = 0
    for i in range(ptr.shape[0] - 1):
        for p in range(ptr[i], ptr[i + 1]):
            if not mask[i, across[p]]:
                mask[i, across[p]] = True
                marked += 1
    return marked


def new_mask(n_r: int, n_c: int) -> np.ndarray:
    """An empty candidate mask for an n_r × n_c matrix, its rows padded to whole 8-byte words
    (read a word at a time by :func:`csr_of_mask`)."""
    return np.zeros((n_r, -(-n_c // 8) * 8), dtype=np.bool_)


@njit(cache=True, nogil=True)
def _repair(indptr, indices, weights, n_cols, top, v, row_of, col_of, own_cost, free):
    """Make a previous round's matching and prices a start for the enlarged cell set: a matched
    row with a new cell cheaper than its own (reduced costs c − v) is unmatched, to be searched
    again; every other matched cell stays its row's cheapest. Returns the number of free rows,
    listed in ``free``.

    A real column so freed keeps its price, which the optimum of the rows' matching may not
    allow (a column left unmatched must have price 0): the searches then stay a valid Dijkstra,
    but their answer can fall short of the optimum by that price. Only the certificate decides:
    when it fails with no cell to add, the caller solves once more from cold."""
    n_rows = indptr.shape[0] - 1
    for i in range(n_rows):
        j = col_of[i]
        if j < 0:
            continue
        own = own_cost[i] - v[j]
        for p in range(indptr[i], indptr[i + 1]):
            if top - weights[p] - v[indices[p]] < own:
                col_of[i] = -1
                row_of[j] = -1
                if j >= n_cols:
                    v[j] = 0.0  # only row i reaches its dummy: nothing else to keep valid
                break
    n_free = 0
    for i in range(n_rows):
        if col_of[i] < 0:
            free[n_free] = i
            n_free += 1
    return n_free


@njit(cache=True, nogil=True)
def sparse_assignment(indptr, indices, weights, n_cols, top, max_steps, v, col_of, own_cost, warm):
    """Maximum-weight matching of the sparse non-negative matrix (CSR) with its duals.

    Augmenting row reduction, then successive shortest augmenting paths
    (:func:`metrics.core.kernels.augmenting_paths.augment_free_rows`), over the costs c = top − w
    in float (``top`` the same in every round). The state —
    ``v`` (the n_cols + n_rows columns' prices in the costs' terms, ≤ 0), ``col_of`` (row →
    column, a column ≥ n_cols being the row's dummy) and ``own_cost`` (each matched row's cost
    c) — is updated in place: cold (``warm`` False) the caller passes it empty; warm it is the
    previous round's on fewer cells, repaired first (:func:`_repair`). Either way the free rows
    then go through augmenting row reduction (:data:`ARR_ROUNDS`) and the searches. Returns
    whether they finished within ``max_steps`` cell relaxations, and how many they made
    (:func:`duals` reads the answer off the state).
    """
    n_rows = indptr.shape[0] - 1
    row_of = np.full(n_cols + n_rows, -1, dtype=np.int64)
    for i in range(n_rows):
        if col_of[i] >= 0:
            row_of[col_of[i]] = i
    steps = 0
    # Augmenting row reduction, ARR_ROUNDS rounds (Jonker & Volgenant's third phase, on the cells):
    # a free row takes its cheapest column at the current prices and lowers that column's v by
    # the gap to its second cheapest, so it stays the row's cheapest (tied); the row it displaces
    # goes on at once when v really dropped, else waits for the next round. Prices only fall and
    # a column once taken stays taken, so a matched cell is always its row's cheapest and every
    # free column keeps v = 0: the searches below start from a valid state, most rows matched.
    free = np.arange(n_rows)
    n_free = n_rows
    if warm:
        n_free = _repair(indptr, indices, weights, n_cols, top, v, row_of, col_of, own_cost, free)
    for _ in range(ARR_ROUNDS):
        k = 0
        previous = n_free
        n_free = 0
        while k < previous:
            if steps > max_steps:
                return False, steps
            i = free[k]
            k += 1
            steps += indptr[i + 1] - indptr[i] + 1
            umin = np.inf
            usub = np.inf
            j1 = -1
            j2 = -1
            c1 = 0.0
            c2 = 0.0
            for p in range(indptr[i], indptr[i + 1] + 1):
                j, c = cell_cost(indptr, indices, weights, n_cols, top, i, p)
                h = c - v[j]
                if h < usub:
                    if h >= umin:
                        usub = h
                        j2 = j
                        c2 = c
                    else:
                        usub = umin
                        j2 = j1
                        c2 = c1
                        umin = h
                        j1 = j
                        c1 = c
            i0 = row_of[j1]
            if umin < usub:
                v[j1] -= usub - umin
            elif i0 >= 0 and j2 >= 0:
                j1 = j2
                c1 = c2
                i0 = row_of[j2]
            col_of[i] = j1
            row_of[j1] = i
            own_cost[i] = c1
            if i0 >= 0:
                col_of[i0] = -1
                if umin < usub:
                    k -= 1
                    free[k] = i0
                else:
                    free[n_free] = i0
                    n_free += 1
    return augment_free_rows(indptr, indices, weights, n_cols, top, max_steps, steps, v, row_of, col_of, own_cost)


def duals(v: np.ndarray, col_of: np.ndarray, own_cost: np.ndarray, top: float, n_cols: int):
    """The matching and duals of a finished :func:`sparse_assignment`, in the maximisation's
    terms: each row's column (−1 unmatched), the column prices p = −v ≥ 0, and the row profits u
    (u_i + p_j ≥ w_ij on every cell solved, equal on the matched ones; an unmatched row's profit
    is minus its dummy's price)."""
    n_rows = col_of.shape[0]
    real = (col_of >= 0) & (col_of < n_cols)
    dummy = col_of >= n_cols
    profit = np.zeros(n_rows)
    profit[real] = (top - own_cost[real]) + v[col_of[real]]
    profit[dummy] = v[col_of[dummy]]
    return np.where(real, col_of, -1), -v[:n_cols], profit


@njit(cache=True, nogil=True)
def certify(w, price, profit, delta, k, mask):
    """One pass over every cell: the dual bound Σ_i max(0, max_j (w_ij − p_j)) + Σ_j p_j; and, in
    each row holding cells whose reduced weight w_ij − p_j − u_i exceeds ``delta``, the ``k`` most
    violated of them marked in ``mask`` (the most violated cells are the likeliest to enter the
    optimum; adding every violated cell would add most of the matrix while the prices are still
    far from the optimum's). Returns the bound and how many cells were marked."""
    n_r, n_c = w.shape
    bound = 0.0
    added = 0
    vals = np.zeros(k)
    idx = np.full(k, -1, dtype=np.int64)
    # A row's w_ij − p_j, and their largest positive one found among their bit patterns as
    # integers, which orders positive floats as their values and puts every negative one below
    # zero: a loop LLVM vectorises, where a float maximum's is a chain of comparisons.
    reduced = np.empty(n_c)
    as_int = reduced.view(np.int64)
    best_bits = np.zeros(1, dtype=np.int64)
    best_float = best_bits.view(np.float64)
    for i in range(n_r):
        row = w[i]
        for j in range(n_c):
            reduced[j] = row[j] - price[j]
        top_bits = np.int64(0)
        for j in range(n_c):
            top_bits = max(top_bits, as_int[j])
        best_bits[0] = top_bits
        best = best_float[0]
        bound += best
        limit = profit[i] + delta
        if best > limit:
            vals[:] = 0.0
            idx[:] = -1
            for j in range(n_c):
                r = reduced[j] - limit
                if r > vals[k - 1] and not mask[i, j]:
                    _insert(vals, idx, k, r, j)
            for q in range(k):
                if idx[q] >= 0:
                    mask[i, idx[q]] = True
                    added += 1
    for j in range(n_c):
        bound += price[j]
    return bound, added


def gap_tolerance(bound: float, n_rows: int, n_cols: int) -> float:
    """How far the computed dual bound may exceed the computed matching weight for the matching
    to count as optimal: (rows + columns)·ε·bound, the rounding of the sums (module docstring)."""
    return (n_rows + n_cols) * _EPS * bound


def matched_weights(w: np.ndarray, col_of: np.ndarray) -> np.ndarray:
    """The weight of each row's matched cell (0 for an unmatched row)."""
    rows = np.flatnonzero(col_of >= 0)
    out = np.zeros(w.shape[0])
    out[rows] = w[rows, col_of[rows]]
    return out


def _solve_cold(indptr, indices, vals, n_c: int, top: float, steps_left: int, v, col_of, own_cost,
                accelerate: bool):
    """A round's solve from nothing: the searches. ``accelerate``: the searches only while they take
    at most :data:`COLD_STEPS_PER_ROW` a row; past that (weights nearly equal everywhere), the
    auction (:mod:`metrics.core.kernels.auction`) from nothing within its budget
    (:func:`_auction_budget`), then the searches from its prices. Returns (finished within
    ``steps_left``, the steps made, whether the auction ran)."""
    n_r = indptr.shape[0] - 1
    v[:] = 0.0
    col_of[:] = -1
    budget = min(steps_left, COLD_STEPS_PER_ROW * n_r) if accelerate else steps_left
    complete, steps = sparse_assignment(indptr, indices, vals, n_c, top, budget, v, col_of, own_cost, False)
    if complete or not accelerate:
        return complete, steps, False
    v[:] = 0.0
    col_of[:] = -1
    complete, more = auction(indptr, indices, vals, n_c, top, v, col_of, own_cost, AUCTION_START * top,
                             AUCTION_END * top, False, min(steps_left - steps, _auction_budget(indptr)))
    steps += more
    if complete:
        complete, more = sparse_assignment(indptr, indices, vals, n_c, top, steps_left - steps, v, col_of, own_cost,
                                           True)
        steps += more
    return complete, steps, True


def _auction_budget(indptr) -> int:
    """An auction's cell reads: :data:`AUCTION_READS_PER_CELL` per candidate cell and row."""
    return AUCTION_READS_PER_CELL * int(indptr[-1] + indptr.shape[0])


def max_weight_value(weights: np.ndarray, best_per_line: int = BEST_PER_LINE, rounds: int = ROUNDS,
                     max_share: float | None = None, candidates=None) -> float | None:
    """The largest total weight of a one-to-one matching of the rows and columns of the dense
    non-negative float matrix ``weights``, certified optimal on every cell — or None when the
    candidates grew past ``max_share`` of the matrix (:data:`MAX_CANDIDATE_SHARE` by default),
    ``rounds`` rounds did not certify, or the searches ran past their budget
    (:data:`STEPS_PER_CELL`): the caller then solves densely.

    The rounds are tried first with the auction where the searches from nothing are slow
    (:data:`AUCTION_STEPS_PER_CELL` steps in all); where that does not certify — an auction's
    answer leaves prices on columns its repair frees, which tables of ties everywhere do not
    recover from — they run again with the searches alone.

    ``candidates``: more cells to start from (offsets and columns in CSR form by row, for a
    matrix of no more rows than columns), where the caller knows where the optimum's cells are
    likely to lie; the certificate reads every cell whatever they are.

    Summed as scipy's ``linear_sum_assignment`` answer is in
    :func:`metrics.measures.matching._lsa_value`: min(rows, columns) matched weights, sorted."""
    w = np.asarray(weights, dtype=np.float64)
    if w.shape[0] > w.shape[1]:  # one search per row: the shorter side searches
        if candidates is not None:
            raise ValueError("candidates are given by row, for a matrix of no more rows than columns")
        w = w.T
    w = np.ascontiguousarray(w)
    n_r, n_c = w.shape
    if n_r == 0:
        return 0.0
    mask = new_mask(n_r, n_c)
    marked = mark_best(w, best_per_line, mask)
    if candidates is not None:
        marked += mark_cells(mask, *candidates)
    # A thin matrix's first candidates alone can pass the share (each column's best in a 1 × n):
    # the cap is on what the rounds add.
    share = MAX_CANDIDATE_SHARE if max_share is None else max_share
    cap = max(share * n_r * n_c, 2 * marked)
    steps = max(int(STEPS_PER_CELL * n_r * n_c), 1 << 16)
    if n_r < AUCTION_MIN_ROWS:
        return _rounds(w, mask, marked, best_per_line, rounds, cap, steps)[0]
    first = mask.copy()
    value, auctioned = _rounds(w, mask, marked, best_per_line, rounds, cap, steps,
                               max(int(AUCTION_STEPS_PER_CELL * n_r * n_c), 1 << 16))
    if value is None and auctioned:
        value, _ = _rounds(w, first, marked, best_per_line, rounds, cap, steps)
    return value


def _rounds(w, mask, marked: int, best_per_line: int, rounds: int, cap: float, steps_left: int,
            auction_steps: int = 0) -> tuple[float | None, bool]:
    """:func:`max_weight_value`'s rounds of solve, certify and add, from the candidates in
    ``mask`` (``marked`` of them), within ``steps_left`` steps; with ``auction_steps``, with the
    auction where the searches from nothing are slow (:func:`_solve_cold`), and then within that
    many steps in all. Returns (the certified value or None, whether an auction ran)."""
    accelerate = auction_steps > 0
    made = 0
    n_r, n_c = w.shape
    top = float(w.max())
    v = np.zeros(n_c + n_r)
    col_of = np.full(n_r, -1, dtype=np.int64)
    own_cost = np.zeros(n_r)
    warm = auctioned = False
    last_gap = np.inf
    added = 0
    for _ in range(rounds):
        if marked > cap:
            return None, auctioned
        indptr, indices, vals = csr_of_mask(w, mask, marked)
        if not warm:
            complete, steps, ran = _solve_cold(indptr, indices, vals, n_c, top, steps_left, v, col_of, own_cost,
                                               accelerate)
            auctioned |= ran
        else:
            steps = 0
            if auctioned and added * AUCTION_WHEN_ADDED > n_r:  # many new cells: prices move everywhere
                complete, steps = auction(indptr, indices, vals, n_c, top, v, col_of, own_cost, AUCTION_END * top,
                                          AUCTION_END * top, True, min(steps_left, _auction_budget(indptr)))
                if not complete:
                    return None, auctioned
            complete, more = sparse_assignment(indptr, indices, vals, n_c, top, steps_left - steps, v, col_of,
                                               own_cost, True)
            steps += more
        steps_left -= steps
        made += steps
        if not complete or (auctioned and made > auction_steps):
            return None, auctioned
        # A column the searches left free keeps no price: the bound may then name the cells that
        # should take it, and the next round's repair frees their rows (_repair).
        taken = np.zeros(n_c, dtype=np.bool_)
        taken[col_of[(col_of >= 0) & (col_of < n_c)]] = True
        v[:n_c][~taken] = 0.0
        matched, price, profit = duals(v, col_of, own_cost, top, n_c)
        delta = 8.0 * _EPS * (top + float(price.max(initial=0.0)))
        bound, added = certify(w, price, profit, delta, best_per_line, mask)
        value = float(np.sort(matched_weights(w, matched)).sum())
        if bound - value <= gap_tolerance(bound, n_r, n_c):
            return value, auctioned
        if added == 0 and not warm:
            return None, auctioned  # the bound is off by more than rounding, yet no cell is named: dense
        # New cells: the next round starts from this one's matching (warm). A warm round's answer
        # can fall short where a freed column kept its price (_repair): when the gap grew (stale
        # prices piling up, as in tables of ties everywhere), or no cell was added after a warm
        # round, the next round solves from cold, which the certificate then accepts — except
        # in the last rounds' tail (gap below 1e-6 of the bound), where a few cells are still
        # coming in and a cold solve would cost the most (going cold at any growth sent one of
        # eight random 1000 × 1000 PSI tables to the fallback, its gap of 6e-7 growing by 4 %).
        gap = bound - value
        warm = added > 0 and (gap < last_gap or gap < 1e-6 * bound)
        last_gap = gap
        marked += added
    return None, auctioned
