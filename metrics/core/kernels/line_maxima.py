"""The maximum-weight matching of a count grid certified by its lines' maxima (numba, the optional
``fast`` extra): when every row (the shorter side's lines) has its best cell in a column of its
own, those cells are the matching — no matching weighs more than the sum of the lines' maxima.
One pass over the counts, for the weights of ε (n_ij), NCA (n_ij / a_i) and PSI
(n_ij / max(a_i, b_j)); a clustering whose every class has its own dominant cluster is solved
by it. Where the best counts tie within lines (counts drawn from a few values: uniform 0–19,
0–2), the lines' best cells, ties included, may still hold a matching of every line: a
maximum-cardinality matching of those cells (Hopcroft & Karp) finds it or shows there is none,
for ε and for NCA by rows. Anything else goes to the assignment solvers
(:mod:`.float_assignment`, scipy).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .augmenting_paths import _SPREAD, _hopcroft_karp, _matching_arrays
from .cell_stats import _VECTOR_MATH
from .float_assignment import _EPS

# The weights :func:`lines_best` reads off a count grid.
COUNT, SHARE_OF_CLASS, SHARE_OF_LARGER = 0, 1, 2
# ... by the names the measures give them.
CODES = {"count": COUNT, "share_of_class": SHARE_OF_CLASS, "share_of_larger": SHARE_OF_LARGER}


@njit(cache=True, nogil=True, fastmath=_VECTOR_MATH, error_model="numpy")
def lines_best(counts, row_sums, col_sums, kind, by_row, tops, runner_up):
    """Each row's (``by_row``) or each column's largest weight in a count grid, the line across
    where it lies (the first such cell; −1 for a line of zeros), and whether those are distinct.
    The weights (``kind``): the counts n_ij, n_ij / a_i or n_ij / max(a_i, b_j) — the float
    operations numpy makes on the same numbers, so the same weights (0 for an empty cell).
    ``col_sums`` as floats.

    When the lines' best cells lie in distinct lines across, taking them is a matching, and no
    matching weighs more than the sum of those lines' maxima: it is optimal, certified without
    prices. A clustering whose every class has its own dominant cluster is solved by this one
    pass. Lines whose best weight is 0 take no cell (any free one weighs as much).

    By rows, the maximum and where it lies are separate loops, as in
    :func:`metrics.core.kernels.cell_stats.grid_square_sums`: the first vectorises (a float
    maximum over the quotients' bit patterns, which order alike for non-negative doubles), and
    so does the second, a minimum of the positions that reach it (a search that stops at the
    first one does not).

    ``tops``: for the counts (``COUNT``), each line's largest count where the grid's summary pass
    kept it (int64, one per line), else empty: by rows the maximum's loop is then skipped, and by
    columns the scan becomes a vectorised minimum of the rows that reach each column's top. With
    them, ``runner_up`` (int64, one per line; else empty) receives each line's largest count
    but its best cell's — its top again where the top is tied — for :func:`psi_from_count_cells`."""
    n_r, n_c = counts.shape
    best = np.zeros(n_r if by_row else n_c)
    at = np.full(best.shape[0], -1, dtype=np.int64)
    known = kind == COUNT and tops.shape[0] == best.shape[0]
    second = known and runner_up.shape[0] == best.shape[0]
    if known and not by_row:
        first_row = np.full(n_c, n_r, dtype=np.int64)
        col_under = np.zeros(n_c, dtype=np.int64)
        col_tied = np.zeros(n_c, dtype=np.int64)
        for i in range(n_r):
            row = counts[i]
            for j in range(n_c):
                first_row[j] = min(first_row[j], i if np.int64(row[j]) == tops[j] else n_r)
            if second:
                for j in range(n_c):
                    count = np.int64(row[j])
                    col_tied[j] += count == tops[j]
                    col_under[j] = max(col_under[j], count if count < tops[j] else 0)
        for j in range(n_c):
            if tops[j] > 0 and first_row[j] < n_r:
                at[j] = first_row[j]
                best[j] = np.float64(tops[j])
            if second:
                runner_up[j] = tops[j] if col_tied[j] > 1 else col_under[j]
        return best, at, _distinct(at, n_r)
    quotient = np.zeros(n_c)
    quotient_bits = quotient.view(np.int64)
    largest = np.zeros(1)
    largest_bits = largest.view(np.int64)
    inverse_b = np.empty(n_c)
    for j in range(n_c):  # an empty column's cells are 0 whatever they are multiplied by (no inf: fastmath)
        inverse_b[j] = 1.0 / col_sums[j] if col_sums[j] > 0.0 else 0.0
    for i in range(n_r):
        a = np.float64(row_sums[i])
        if a == 0.0:  # an empty row: every weight 0
            if second:
                runner_up[i] = 0
            continue
        row = counts[i]
        if by_row and kind == SHARE_OF_LARGER:
            # The quotients first as products with 1 / max(a, b_j) = min(1/a, 1/b_j) (rounding
            # is monotone): each within 2u of n / max(a, b_j) (u = 2^-53, two roundings), so
            # the cell of the largest exact quotient has a product within 6u of the largest
            # product. The cells within 16ε = 32u of it are divided exactly (usually one).
            inverse_a = 1.0 / a
            for j in range(n_c):
                quotient[j] = np.float64(row[j]) * min(inverse_a, inverse_b[j])
            bits = np.int64(0)
            for j in range(n_c):
                bits = max(bits, quotient_bits[j])
            if bits > 0:
                largest_bits[0] = bits
                near = largest[0] * (1.0 - 16.0 * _EPS)
                first = n_c
                many = 0
                for j in range(n_c):
                    hit = quotient[j] >= near
                    first = min(first, j if hit else n_c)
                    many += hit
                top_q = 0.0
                for j in range(first, n_c if many > 1 else first + 1):
                    if quotient[j] >= near:
                        q = np.float64(row[j]) / max(a, col_sums[j])
                        if q > top_q:
                            top_q = q
                            at[i] = j
                best[i] = top_q
        elif by_row:  # n / a for one a is monotone in n (division rounds correctly): the largest count's
            top = np.int64(0)
            if known:
                top = tops[i]
            else:
                for j in range(n_c):
                    top = max(top, np.int64(row[j]))
            if top > 0:
                first = n_c
                for j in range(n_c):
                    first = min(first, j if row[j] == top else n_c)
                at[i] = first
                best[i] = np.float64(top) / a if kind == SHARE_OF_CLASS else np.float64(top)
            if second:
                tied = np.int64(0)
                under = np.int64(0)
                for j in range(n_c):
                    count = np.int64(row[j])
                    tied += count == top
                    under = max(under, count if count < top else np.int64(0))
                runner_up[i] = top if tied > 1 else under
        else:
            for j in range(n_c):
                if row[j] > 0:
                    x = np.float64(row[j])
                    if kind == SHARE_OF_CLASS:
                        x /= a
                    elif kind == SHARE_OF_LARGER:
                        x /= max(a, col_sums[j])
                    if x > best[j]:
                        best[j] = x
                        at[j] = i
    return best, at, _distinct(at, n_c if by_row else n_r)


@njit(cache=True, nogil=True)
def _distinct(at, n_across):
    """Whether the lines' best cells (``at``, −1 for none) lie in distinct lines across."""
    taken = np.zeros(n_across, dtype=np.bool_)
    for q in range(at.shape[0]):
        if at[q] >= 0:
            if taken[at[q]]:
                return False
            taken[at[q]] = True
    return True


@njit(cache=True, nogil=True, error_model="numpy")
def grid_weights(counts, row_sums, col_sums, kind, out):
    """Write into ``out`` the dense float weights of a count grid: n_ij / a_i
    (``SHARE_OF_CLASS``) or n_ij / max(a_i, b_j) (``SHARE_OF_LARGER``), sizes as floats — the
    float operations numpy makes of ``counts / a[:, None]`` and
    ``counts / np.maximum(a[:, None], b[None, :])``, so the same bits, in one pass that writes
    nothing else (numpy casts the counts, and for the larger share builds the matrix of maxima,
    before it divides). ``out`` comes from numpy, which backs a big array with huge pages where
    the system allows: every later pass of the solver over the weights then misses the TLB
    less than over an array allocated here."""
    n_r, n_c = counts.shape
    for i in range(n_r):
        a = row_sums[i]
        row = counts[i]
        if kind == SHARE_OF_CLASS:
            for j in range(n_c):
                out[i, j] = np.float64(row[j]) / a
        else:
            for j in range(n_c):
                out[i, j] = np.float64(row[j]) / max(a, col_sums[j])


@njit(cache=True, nogil=True)
def tied_best_cells(counts, top, by_row, per_row):
    """The cells holding their line's largest count (``top``, one per line of the grid's rows —
    ``by_row`` — or columns, in the grid's dtype; a line whose top is 0 has none) in CSR form by
    line: (offsets, the line across of each cell, how many such cells there are before any
    limit). A first pass counts each line's cells (a comparison a cell, which vectorises), the
    second writes them.

    By rows, at most ``per_row`` cells a row: a row with more takes the first it meets from a
    point of the row that moves from row to row. Taken from the start of every row, the rows
    would offer the same few columns, and no matching could give each its own."""
    n_r, n_c = counts.shape
    lines = n_r if by_row else n_c
    size = np.zeros(lines, dtype=np.int64)
    total = 0
    for i in range(n_r):
        row = counts[i]
        if by_row:
            t = top[i]
            tied = 0
            for j in range(n_c):
                tied += row[j] == t
            size[i] = min(tied, per_row) if t > 0 else 0
            total += tied if t > 0 else 0
        else:
            for j in range(n_c):
                size[j] += (row[j] == top[j]) & (top[j] > 0)
    ptr = np.zeros(lines + 1, dtype=np.int64)
    for q in range(lines):
        ptr[q + 1] = ptr[q] + size[q]
    if not by_row:
        total = ptr[lines]
    across = np.empty(ptr[lines], dtype=np.int64)
    at = ptr[:-1].copy()
    for i in range(n_r):
        row = counts[i]
        if not by_row:
            for j in range(n_c):
                if (row[j] == top[j]) & (top[j] > 0):
                    across[at[j]] = i
                    at[j] += 1
        elif top[i] == 0:  # an empty row: no cell is its best
            continue
        elif size[i] < per_row:  # every tied cell
            for j in range(n_c):
                if row[j] == top[i]:
                    across[at[i]] = j
                    at[i] += 1
        else:  # the first per_row from a point that moves from row to row, round the row
            start = (i * _SPREAD) % n_c
            for j in range(start, n_c):
                if row[j] == top[i]:
                    across[at[i]] = j
                    at[i] += 1
                    if at[i] == ptr[i + 1]:
                        break
            for j in range(start if at[i] < ptr[i + 1] else 0):
                if row[j] == top[i]:
                    across[at[i]] = j
                    at[i] += 1
                    if at[i] == ptr[i + 1]:
                        break
    return ptr, across, total


@njit(cache=True, nogil=True)
def every_line_matched(ptr, across, n_across, max_steps):
    """Whether a matching of the cells in CSR form (``ptr``, ``across``: :func:`tied_best_cells`)
    takes a cell of every line that has any: Hopcroft & Karp's maximum matching, within
    ``max_steps`` cell reads (past them: False, not known)."""
    lines = ptr.shape[0] - 1
    col_of, row_of, dist, queue, stack, via, it = _matching_arrays(lines, n_across)
    finished, _ = _hopcroft_karp(ptr, across, col_of, row_of, dist, queue, stack, via, it, 0, max_steps)
    if not finished:
        return False
    unmatched = 0
    for q in range(lines):
        unmatched += (ptr[q + 1] > ptr[q]) & (col_of[q] < 0)
    return unmatched == 0


# Each row's tied cells a matching is sought among: at least this many, and 2 ln(columns) past
# it. Rows that pick d columns at random leave some column unpicked with a chance of about
# columns · e^−d (at 1000 columns, d = 8: 1 in 3 — 5 or 6 of 20 uniform tables of counts 0–19
# missed their matching — d = 16: 1 in 10^4).
TIED_PER_ROW = 16
# Hopcroft–Karp's budget of cell reads per tied cell: a maximum matching takes at most about √lines
# phases, each reading every cell once; past this the assignment solvers take over.
TIED_READS_PER_CELL = 64


def best_tied_cells(counts: np.ndarray, cells):
    """The cells holding their line's best count, ties included (``cells``: :func:`line_best_cells`
    of the counts): (offsets, lines across, the tied cells a line holds on average before the
    limit of :data:`TIED_PER_ROW` a row) — or None for counts past 2^53, which the maxima as floats
    do not hold exactly (a row's maximum could round onto a smaller count, whose cell would be
    taken for a best one)."""
    best, _, _, by_row = cells
    if best.size == 0 or best.max() >= 2.0**53:
        return None
    counts = np.ascontiguousarray(counts)
    per_row = max(TIED_PER_ROW, math.ceil(2 * math.log(counts.shape[1])))
    ptr, across, total = tied_best_cells(counts, best.astype(counts.dtype), by_row, per_row)
    return ptr, across, total / best.size


def tied_cells_match(tied, n_across: int) -> bool:
    """Whether the tied best cells (:func:`best_tied_cells`; None: not tried) hold a matching that
    takes a cell of every line with any: then no matching of the counts weighs more than it (the
    sum of the lines' maxima bounds every matching), nor of n_ij / a_i by rows (the same cells are
    each row's best). ``n_across``: the lines across."""
    if tied is None:
        return False
    ptr, across, _ = tied
    return bool(every_line_matched(ptr, across, n_across, TIED_READS_PER_CELL * (across.size + ptr.size)))


def best_cells_match(counts: np.ndarray, cells) -> bool:
    """:func:`tied_cells_match` of the grid's :func:`best_tied_cells`."""
    n_across = counts.shape[1] if cells[3] else counts.shape[0]
    return tied_cells_match(best_tied_cells(counts, cells), n_across)


def line_best_cells(counts: np.ndarray, row_sums: np.ndarray, col_sums: np.ndarray, kind: int,
                    line_maxima: tuple[np.ndarray, np.ndarray] | None = None, runner_up: np.ndarray | None = None):
    """:func:`lines_best` of the grid's shorter side: (best, at, distinct, by_row).
    ``line_maxima``: the grid's rows' and columns' largest counts, where known (for ``COUNT``);
    then ``runner_up`` (int64, one per line of the shorter side) receives each line's runner-up."""
    counts = np.ascontiguousarray(counts)
    by_row = counts.shape[0] <= counts.shape[1]
    tops = np.empty(0, dtype=np.int64)
    if kind == COUNT and line_maxima is not None:
        tops = np.asarray(line_maxima[0 if by_row else 1], dtype=np.int64)
    second = np.empty(0, dtype=np.int64) if runner_up is None else runner_up
    return (*lines_best(counts, row_sums, col_sums.astype(np.float64), kind, by_row, tops, second), by_row)


def psi_from_count_cells(counts: np.ndarray, row_sums: np.ndarray, col_sums: np.ndarray, cells,
                         runner_up: np.ndarray):
    """PSI's :func:`line_best_cells` (n_ij / max(a_i, b_j)) read off the counts' (``cells``, with
    each line's ``runner_up`` count), or None where that does not certify them.

    A cell's weight is at most its count over its line's own size (max(a_i, b_j) ≥ a_i by rows),
    so no other cell of a line weighs more than runner-up / size; where the best count's cell
    weighs more than that (a clustering's dominant cells), it is the line's unique best weight —
    rounding keeps the order, fl being monotone — and its weight is the quotient
    :func:`lines_best` divides, the same bits. No pass over the grid."""
    _, at, distinct, by_row = cells
    own = (row_sums if by_row else col_sums).astype(np.float64)
    line = np.flatnonzero(at >= 0)
    rows, cols = (line, at[line]) if by_row else (at[line], line)
    weight = counts[rows, cols].astype(np.float64) / np.maximum(row_sums[rows].astype(np.float64),
                                                                  col_sums[cols].astype(np.float64))
    if not np.all(weight > runner_up[line] / own[line]):
        return None
    best = np.zeros(at.shape[0])
    best[line] = weight
    return best, at, distinct, by_row


def by_line_maxima(counts: np.ndarray, row_sums: np.ndarray, cells, kind: int,
                   tied_match: bool = False) -> float | int | None:
    """The maximum-weight matching's weight when each line of the grid's shorter side has its
    best cell in a line of its own (``cells``: :func:`line_best_cells` of ``kind``'s weights, or
    of the counts for n_ij / a_i by rows: the same cells), or when ``tied_match`` (the counts'
    best cells, ties included, match every line: :func:`best_cells_match`), else None. For
    counts, their sum (an int); for fractions, the matched weights summed as
    :func:`metrics.measures.matching._lsa_value` sums scipy's (sorted). A line's matched cell
    among its ties weighs its maximum whichever it is, so ``at`` (the first) stands for it."""
    best, at, distinct, by_row = cells
    if not (distinct or tied_match):
        return None
    line = np.flatnonzero(at >= 0)
    if kind == COUNT:
        return int(counts[line, at[line]].sum() if by_row else counts[at[line], line].sum())
    if kind == SHARE_OF_CLASS and by_row:
        # n_ij / a_i as lines_best divides: the same float operation, the same bits.
        best = np.zeros(best.shape[0])
        best[line] = counts[line, at[line]].astype(np.float64) / row_sums[line].astype(np.float64)
    return float(np.sort(best).sum())
