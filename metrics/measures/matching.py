"""Set-matching measures: each class or cluster is matched to its best counterpart.

Notation: a_i class sizes (rows), b_j cluster sizes (columns), n items.

References
----------
[RH07] Rosenberg & Hirschberg (2007), Fig. 1 (clustering F-measure) and §3.
[Wu09] Wu, Xiong & Chen (2009), Table 1 rows 2, 3, 12–15; Table 5 rows 6–8; Procedure 1.
[vD00] van Dongen (2000), Performance criteria for graph clustering and Markov
       cluster experiments. CWI INS-R0012.
"""

from __future__ import annotations

import sys
from itertools import permutations
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .._lazy import extension_function, lazy_function, lazy_module
from ..core.arith import div, where
from ..core.batch import TableBatch
from ..core.cells import distinct_sizes
from ..core.contingency import Contingency
from ..core.kernels import counting, small_assignment
from ..core.limits import COSTS, MATCHING_BUDGET
from ..core.registry import register
from .compiled_matching import (
    ByRow,
    MatchingStopped,
    by_levels,
    cell_rows,
    compiled_sparse_matching,
    line_cells,
    psi_line_cells,
)

if TYPE_CHECKING:
    from scipy import sparse
    from scipy.optimize import linear_sum_assignment as scipy_assignment
    from scipy.sparse.csgraph import connected_components, min_weight_full_bipartite_matching
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    sparse = lazy_module("scipy.sparse")
    # scipy.optimize's C assignment alone, not the package (metrics._lazy.extension_function)
    scipy_assignment = extension_function("scipy.optimize", "_lsap", "linear_sum_assignment")
    connected_components = lazy_function("scipy.sparse.csgraph", "connected_components")
    min_weight_full_bipartite_matching = lazy_function("scipy.sparse.csgraph", "min_weight_full_bipartite_matching")

# A process's first assignments of tables of at most small_assignment.SMALL_SIDE rows and columns
# are solved in numpy: importing scipy.optimize costs more than a fresh process's first evaluate
# of such a table. A process that solves more of them (bootstrap, chance) pays the import once.
_NUMPY_ASSIGNMENTS = 64
_numpy_assignments_done = 0


def linear_sum_assignment(weights, maximize: bool = False):
    """scipy's ``linear_sum_assignment(weights, maximize)`` — for a process's first small tables,
    :func:`~metrics.core.kernels.small_assignment.max_weight_assignment_small` (the same optimum
    without importing scipy.optimize)."""
    global _numpy_assignments_done
    w = np.asarray(weights)
    if ("scipy.optimize" not in sys.modules and _numpy_assignments_done < _NUMPY_ASSIGNMENTS
            and w.ndim == 2 and max(w.shape) <= small_assignment.SMALL_SIDE):
        _numpy_assignments_done += 1
        return small_assignment.max_weight_assignment_small(w if maximize else -np.asarray(w, dtype=np.float64))
    return scipy_assignment(w, maximize=maximize)


# Dense assignment is fastest while the table is small; beyond this many cells the
# sparse matcher works on the non-zero cells only.
_DENSE_MATCHING_CELLS = 1 << 20
# From this many classes and clusters on, an integer table's dense assignment goes to
# the compiled Jonker–Volgenant kernel where numba is installed (the `fast` extra).
_COMPILED_MATCHING_SIZE = 64


def _frac(x, n):
    return div(x, n, 1.0)  # an empty table is vacuously pure


@register("purity", name="Purity", symbol="P", family="matching", direction="higher", bounds=(0.0, 1.0),
          reference="Zhao & Karypis 2001; Wu et al. 2009 Table 1 row 2",
          formula=r"P = \frac1n\sum_j \max_i n_{ij}",
          description="Fraction of items in their cluster's majority class.")
def purity(t, *, log_base, beta):
    return _frac(t.col_max_sum, t.n)


@register("inverse_purity", name="Inverse purity", symbol="IP", family="matching", direction="higher",
          bounds=(0.0, 1.0), reference="Amigó et al. 2009 (inverse purity)",
          formula=r"IP = \frac1n\sum_i \max_j n_{ij}",
          description="Fraction of items in their class's largest cluster.")
def inverse_purity(t, *, log_base, beta):
    return _frac(t.row_max_sum, t.n)


@register("micro_avg_precision", name="Micro-average precision", symbol="MAP", family="matching",
          direction="higher", bounds=(0.0, 1.0), reference="Wu et al. 2009, Table 1 row 14",
          formula=r"MAP = \sum_j p_j \max_i \frac{p_{ij}}{p_j}",
          description="Majority-class precision averaged over items; equal to purity (Wu et al. §5.3).")
def micro_avg_precision(t, *, log_base, beta):
    # Σ_j p_j max_i (p_ij / p_j) = Σ_j max_i p_ij: Wu et al.'s Table 1 form, which they
    # note is purity itself.
    return _frac(t.col_max_sum, t.n)


@register("goodman_kruskal", name="Goodman–Kruskal coefficient", symbol="GK", family="matching",
          direction="lower", bounds=(0.0, 1.0), reference="Goodman & Kruskal 1954; Wu et al. 2009 Table 1 row 15",
          formula=r"GK = \sum_j p_j \Big(1 - \max_i \frac{p_{ij}}{p_j}\Big)",
          description="Error of predicting each item's class by its cluster's majority: 1 − purity.")
def goodman_kruskal(t, *, log_base, beta):
    return 1.0 - _frac(t.col_max_sum, t.n)


def f_measure_value(t):
    return t.memo("f_measure", _f_measure)


def _f_measure(t):
    # F(c_i, k_j) = 2 n_ij / (a_i + b_j); each class keeps its best cluster.
    fast = t.compiled_cell_stats  # a big grid table, with numba
    best = fast[3] if fast is not None else t.row_max_of(lambda n, a, b: div(2.0 * n, a + b, 0.0))
    weighted = t.row_total(t.row_sums * best)
    return div(weighted, t.n, 1.0)


@register("f_measure", name="Clustering F-measure", symbol="F", family="matching", direction="higher",
          bounds=(0.0, 1.0), reference="Rosenberg & Hirschberg 2007, Fig. 1; Wu et al. 2009 Table 1 row 3",
          formula=r"F = \sum_i \frac{a_i}{n}\max_j \frac{2 n_{ij}}{a_i + b_j}",
          description="Each class scored by the F1 of its best cluster, weighted by class size.")
def f_measure(t, *, log_base, beta):
    return f_measure_value(t)


def f_matches(t: Contingency) -> list[tuple[int, int]]:
    """The cells the clustering F-measure reads: (class, cluster) positions of each non-empty
    class's best cluster by F(c_i, k_j) = 2 n_ij / (a_i + b_j) — the first on a tie, as
    ``max`` in :func:`f_measure` takes any. Every other cell enters F only through the
    cluster sizes b_j: [RH07] §3's "problem of matching". For tables small enough to show."""
    dense = np.asarray(t.to_dense(), dtype=np.float64)
    a, b = dense.sum(axis=1), dense.sum(axis=0)
    f_cells = div(2.0 * dense, a[:, None] + b[None, :], 0.0)
    return [(i, int(np.argmax(f_cells[i]))) for i in range(dense.shape[0]) if a[i] > 0]


def f_lower_bound(t: Contingency) -> float:
    """F_− of Wu et al.'s Procedure 1, a lower bound of F for the given margins.

    Wu's cluster index i is our column, their class index j our row: n* is the
    largest cluster; class sizes are sorted ascending and filled greedily with n*
    items; F_− = (2/n) Σ_j a_j / (1 + n*/n_[j]), n* being the *original* largest
    cluster size in the denominator (step 7 reads max_i n_i, not the running n*).
    """
    sizes = _sorted_sizes(t.row_sums)
    largest = np.asarray(t.max_cluster_size, dtype=np.float64)[..., None]
    # Greedy fill, smallest class first: class j takes min(its size, what is left).
    filled_before = np.cumsum(sizes, axis=-1) - sizes
    take = np.clip(largest - filled_before, 0.0, sizes)
    terms = div(take * sizes, sizes + largest, 0.0)  # take / (1 + n*/size); empty rows add 0
    total = terms.sum(axis=-1)
    return div(2.0 * (total if total.ndim else float(total)), t.n, 1.0)


def _sorted_sizes(sizes) -> np.ndarray:
    """The class sizes ascending, as floats (the last axis of a batch's): one table's whole sizes
    from their tally (:func:`~metrics.core.cells.distinct_sizes`, a pass), not a sort of 10^5 floats."""
    sizes = np.asarray(sizes)
    if sizes.ndim == 1 and sizes.dtype.kind in "iu":
        values, counts = distinct_sizes(sizes)
        return np.repeat(values, counts).astype(np.float64)
    return np.sort(sizes.astype(np.float64), axis=-1)


@register("f_n", name="Normalized F-measure (Wu)", symbol="F_n", family="matching", direction="higher",
          bounds=(0.0, 1.0), reference="Wu et al. 2009, Table 5 row 7, Procedure 1, Lemma 6",
          formula=r"F_n = \frac{F - F_-}{1 - F_-}",
          description="F-measure rescaled between Wu's lower bound F_− (Procedure 1) and 1.")
def f_n(t, *, log_base, beta):
    lower = f_lower_bound(t)
    # F ≥ F_− = 1 forces F = 1: a perfect table.
    return where(lower >= 1.0, 1.0, div(f_measure_value(t) - lower, 1.0 - lower, 1.0))


# Up to this side, a batch's assignments come from the P! permutations of its zero-padded P × P
# tables, in one vectorised gather (no Python loop per table); beyond it, one scipy assignment
# per table. At P = 5 the gather costs about half a scipy call; at P = 6 five times one.
BRUTE_FORCE_SIDE = 5
# Tables gathered at once: (chunk, P!, P) floats, about 15 MB at P = 5.
_CHUNK = 4096

_PERMS: dict[int, np.ndarray] = {}


def _permutations(p: int) -> np.ndarray:
    if p not in _PERMS:
        _PERMS[p] = np.array(list(permutations(range(p))), dtype=np.intp)
    return _PERMS[p]


def _lsa_value(weights: np.ndarray, dense_first: bool = False, candidates=None) -> float:
    # Fractional weights (NCA's, PSI's) of a big table, once numba is loaded: solved on each row's
    # and column's best cells and certified optimal on every cell by duality
    # (metrics/core/kernels/float_assignment.py); where no certificate comes, the dense
    # Jonker–Volgenant kernel, which compares floats as scipy's solve does, in a fifth to seven
    # tenths of its time (docs/performance.md, session 46). The work is not counted towards loading numba
    # (None): a fresh process's first evaluate stays without it (counting.COLD_WORK), scipy
    # taking no longer than the load would. ``dense_first``: the dense kernel without the rounds;
    # ``candidates``: cells (CSR by row) the rounds start from besides each line's best.
    big = min(weights.shape) >= _COMPILED_MATCHING_SIZE
    kernels = counting.compiled_kernels(None) if big else None
    if kernels is not None:
        from ..core.kernels import float_assignment  # numba is there: the kernels above loaded

        value = None if dense_first else float_assignment.max_weight_value(weights, candidates=candidates)
        if value is not None:
            return value
        w = weights if weights.shape[0] <= weights.shape[1] else weights.T  # rows: the shorter side
        square = np.zeros((w.shape[1],) * 2)
        square[: w.shape[0]] = w
        col_of = kernels.max_weight_assignment(square)[1][: w.shape[0]]
        matched = w[np.arange(w.shape[0]), col_of]  # min(rows, columns) cells: scipy's count
    else:
        r, c = linear_sum_assignment(weights, maximize=True)
        matched = weights[r, c]
    # Summed in increasing order, as genieclust does: fewer last-bit differences against it.
    return float(np.sort(matched).sum())


def max_assignment_batch(weights: np.ndarray) -> np.ndarray:
    """max_σ Σ_i w[b, i, σ(i)] for each table b of a (B, R, C) batch of non-negative weights.

    A rectangular assignment is the square one of the zero-padded table (padding adds nothing)."""
    w = np.asarray(weights, dtype=np.float64)
    count, r, c = w.shape
    p = max(r, c)
    out = np.zeros(count)
    if p == 0 or count == 0:
        return out
    square = np.zeros((count, p, p))
    square[:, :r, :c] = w
    if p <= BRUTE_FORCE_SIDE:
        perms, rows = _permutations(p), np.arange(p)
        for start in range(0, count, _CHUNK):
            out[start:start + _CHUNK] = square[start:start + _CHUNK][:, rows, perms].sum(axis=-1).max(axis=1)
        return out
    for i in range(count):
        out[i] = _lsa_value(square[i])
    return out


def line_maxima_matching(t: Contingency, kind: str):
    """The maximum-weight matching of a big integer grid's ``kind`` of weights ("count",
    "share_of_class": n_ij / a_i, "share_of_larger": n_ij / max(a_i, b_j)) when each line of its
    shorter side has its best cell in a line of its own — then those cells are the matching,
    certified by one compiled pass over the counts (:mod:`metrics.core.kernels.line_maxima`) —
    or, for the counts and n_ij / a_i by rows, when the lines' best counts, ties included, hold a
    matching of every line; else None: the assignment solvers take over."""
    grid = t.grid
    if grid is None or grid.dtype.kind not in "iu" or min(grid.shape) < _COMPILED_MATCHING_SIZE:
        return None
    if counting.compiled_kernels(None) is None:  # one pass: not worth loading numba for
        return None
    from ..core.kernels import line_maxima  # numba is there: the kernels above loaded

    code = line_maxima.CODES[kind]
    # By rows, n_ij / a_i has its best cells where the counts do: one pass serves ε and NCA.
    shared = line_maxima.COUNT if code == line_maxima.SHARE_OF_CLASS and grid.shape[0] <= grid.shape[1] \
        else code
    cells = psi_line_cells(t) if shared == line_maxima.SHARE_OF_LARGER else line_cells(t, shared)
    # Best counts that tie within lines may still give every line a cell of its own: one matching
    # of those cells, kept for ε and NCA alike. Ties of fractions (PSI's) are rare: not tried.
    tied = not cells[2] and shared == line_maxima.COUNT and t.memo(
        "line_best_cells_match",
        lambda t: line_maxima.tied_cells_match(tied_best_counts(t), grid.shape[1] if cells[3] else grid.shape[0]))
    return line_maxima.by_line_maxima(grid, t.row_sums, cells, code, tied)


def tied_best_counts(t: Contingency):
    """The cells of a big integer grid that hold their line's best count, ties included
    (:func:`metrics.core.kernels.line_maxima.best_tied_cells`, by the shorter side's lines),
    found once per table; None where the compiled kernels are not there or not worth loading."""
    grid = t.grid
    if grid is None or grid.dtype.kind not in "iu" or min(grid.shape) < _COMPILED_MATCHING_SIZE:
        return None
    if counting.compiled_kernels(None) is None:
        return None
    from ..core.kernels import line_maxima

    cells = line_cells(t, line_maxima.COUNT)
    return t.memo("line_best_tied_cells", lambda t: line_maxima.best_tied_cells(t.grid, cells))



def compiled_grid_weights(t: Contingency, kind: str) -> np.ndarray | None:
    """A big integer grid's ``kind`` of weights ("share_of_class", "share_of_larger") as
    :func:`metrics.core.kernels.line_maxima.grid_weights` computes them — numpy's bits in one
    pass — where the compiled kernels are loaded; else None, and numpy divides."""
    grid = t.grid
    if grid is None or grid.dtype.kind not in "iu" or min(grid.shape) < _COMPILED_MATCHING_SIZE:
        return None
    if counting.compiled_kernels(None) is None:
        return None
    from ..core.kernels import line_maxima

    weights = np.empty(grid.shape)
    line_maxima.grid_weights(np.ascontiguousarray(grid), t.row_sums.astype(np.float64), t.col_sums.astype(np.float64),
                             line_maxima.CODES[kind], weights)
    return weights


def matched_mass(t):
    """max over one-to-one class→cluster maps σ of Σ n_{i,σ(i)} (unmatched allowed)."""
    if isinstance(t, TableBatch):
        return max_assignment_batch(t.tables)
    if t.n_cells == 0:
        return 0
    n_r, n_c = t.shape
    if n_r * n_c <= _DENSE_MATCHING_CELLS:
        if t.grid is not None:
            value = line_maxima_matching(t, "count")
            if value is not None:
                return value
        return _dense_matching(t.to_dense() if t.grid is None else t.grid)  # read, never written
    try:
        parts = t.memo("matching_components", matching_components)
        comp = t.memo("matching_cell_components", matching_cell_components) if parts.star.any() else None
        by_row = kept_by_row(t, counts=True)
        rows = t.rows if by_row is None or comp is not None else None  # the rows only to gather cells
        return _sparse_matching(rows, t.cols, t.values, n_r, n_c, parts, comp, by_row)
    except MatchingStopped as stopped:
        return stopped  # memoised: matching_out_of_budget reports it, no one runs it again


def _dense_matching(dense: np.ndarray):
    # The size first: asking for the kernels imports numba (a large import) for a table
    # scipy solves in a moment anyway.
    big = dense.dtype.kind in "iu" and min(dense.shape) >= _COMPILED_MATCHING_SIZE
    kernels = counting.compiled_kernels(dense.size) if big else None
    if kernels is not None:
        size, top = max(dense.shape), int(dense.max())
        if top * size < 1 << 56:  # the kernel's int64 prices cannot overflow
            # Jonker–Volgenant on integer counts (metrics/core/kernels/compiled.py), about half
            # scipy's time at 1000 × 1000. A square table is read as it is (a copy of 10^6 cells
            # costs 2–3 ms of fresh pages, more than narrower weights save); another is padded
            # square with empty rows or columns (they add nothing), in int32 where it fits.
            if dense.shape[0] == dense.shape[1] and dense.dtype == np.int64 and dense.flags.c_contiguous:
                return int(kernels.max_weight_assignment(dense)[0])
            square = np.zeros((size, size), dtype=np.int32 if top < 1 << 31 else np.int64)
            square[: dense.shape[0], : dense.shape[1]] = dense
            return int(kernels.max_weight_assignment(square)[0])
    r, c = linear_sum_assignment(dense, maximize=True)
    return dense[r, c].sum()


def matching_components(t: Contingency) -> Components:
    # What a table knows: no row without a cell; and its largest cell, where a count kept it.
    summary = t.__dict__.get("_coo_summary")
    top = np.array([summary[1].max()], dtype=t.values.dtype) if summary is not None and t.values.size else None
    by_row = kept_by_row(t)
    return _component_structure(t.rows if by_row is None else None, t.cols, t.values, *t.shape,
                                every_row=bool(np.all(t.row_sums > 0)), known_top=top, by_row=by_row)


def matching_cell_components(t: Contingency) -> np.ndarray:
    """Each cell's component (:meth:`Components.of_cells` of the table's rows): gathered once per
    table for all its matchings (ε's counts, NCA's and PSI's weights)."""
    parts, by_row = t.memo("matching_components", matching_components), kept_by_row(t)
    return parts.of_cells(t.rows) if by_row is None else np.repeat(parts.of_row, np.diff(by_row.offsets))


class Components(NamedTuple):
    """The connected components of a table's class–cluster graph (edges: the non-zero cells),
    as the sparse matching and its cost estimate read them."""

    of_row: np.ndarray   #: each class's component (the compiled path: −1 for a class without cells)
    star: np.ndarray     #: which components have one class or one cluster (their largest cell is the matching)
    best: np.ndarray     #: each component's largest cell
    size: np.ndarray     #: each component's min(#classes, #clusters)
    cells: np.ndarray    #: each component's number of cells

    def of_cells(self, rows: np.ndarray) -> np.ndarray:
        """The component of each cell, given the cells' rows: gathered only when a matching runs."""
        return self.of_row[rows]

    def weighted(self, comp: np.ndarray, weights: np.ndarray) -> Components:
        """The same components for other weights of the same cells (each cell's component ``comp``,
        :meth:`of_cells`): only the stars' largest cells change — the graph, and so the table's
        memoised components, do not."""
        in_star = self.star[comp]
        best = np.zeros(self.best.size, dtype=weights.dtype)
        np.maximum.at(best, comp[in_star], weights[in_star])
        return self._replace(best=best)


def _component_structure(rows, cols, vals, n_r: int, n_c: int, every_row: bool = False,
                         known_top: np.ndarray | None = None, by_row: ByRow | None = None) -> Components:
    """Connected components of the class–cluster graph of non-zero cells (:class:`Components`);
    ``every_row``, ``known_top``: what the caller knows (:func:`~metrics.core.kernels.compiled.cell_components`);
    ``by_row``: what a count kept of the cells by row, whose offsets may stand for ``rows`` (None)."""
    kernels = counting.compiled_kernels(cols.size)
    if kernels is not None and cols.size:
        of_row, comp_rows, comp_cols, best, cells = kernels.cell_components(
            np.empty(0, dtype=np.int64) if rows is None else rows.astype(np.int64, copy=False),
            cols.astype(np.int64, copy=False), vals,
            n_r, n_c, every_row, vals[:0] if known_top is None else known_top,
            by_row.offsets if rows is None and by_row is not None else None)
        size = np.minimum(comp_rows, comp_cols)
        return Components(of_row, size == 1, best, size, cells)
    rows = cell_rows(rows, by_row)
    graph = sparse.coo_matrix((np.ones(rows.size), (rows, n_r + cols)), shape=(n_r + n_c,) * 2)
    n_comp, component = connected_components(graph, directed=False)
    comp = component[rows]
    comp_rows = np.bincount(component[:n_r], minlength=n_comp)
    comp_cols = np.bincount(component[n_r:], minlength=n_comp)
    best = np.zeros(n_comp, dtype=vals.dtype)
    np.maximum.at(best, comp, vals)
    size = np.minimum(comp_rows, comp_cols)
    return Components(component[:n_r], size == 1, best, size, np.bincount(comp, minlength=n_comp))


def sparse_matching_seconds(t, compiled: bool | None = None, counts: bool = True) -> float:
    """Estimated seconds of one core for the exact matching of a table beyond the dense
    assignment's size: each component of the class–cluster graph that leaves a choice costs
    about classes × √cells (the sparse assignment's searches, one per class of the smaller side,
    each exploring the classes that compete for its clusters) at the measured cost per unit of
    the compiled solver or of scipy's (``COSTS`` in metrics.core.limits); by levels (compiled,
    cells of at most :data:`LEVELS_MAX_WEIGHT` items), its cells × its largest cell — the counts'
    matching only (``counts``; NCA's and PSI's fractions search). Stars cost nothing."""
    if compiled is None:
        compiled = counting.compiled_available()
    parts = t.memo("matching_components", matching_components)
    hard = ~parts.star
    if compiled and counts and hard.any() and by_levels(parts.best[hard]):
        return COSTS["levels_matching_cell"] * float(np.sum(parts.cells[hard] * parts.best[hard].astype(np.float64)))
    cost = COSTS["sparse_matching_cell"] if compiled else COSTS["scipy_matching_cell"]
    return cost * t.memo("matching_work", _matching_work)


def _matching_work(t) -> float:
    """Σ classes × √cells over the components of ``t`` that leave a choice (each measure's limit
    asks: computed once per table)."""
    parts = t.memo("matching_components", matching_components)
    hard = ~parts.star
    if not hard.any():
        return 0.0
    return float(np.sum(parts.size[hard] * np.sqrt(parts.cells[hard].astype(np.float64))))


def matching_out_of_budget(t, counts: bool = True) -> str | None:
    """Why ε is not computed for ``t`` (None when it is): its exact matching's estimated cost
    (:func:`sparse_matching_seconds`) exceeds MATCHING_BUDGET seconds of one core, or it ran past
    it; the reason says which. ``counts`` False: the estimate alone, of NCA's or PSI's weights."""
    if not isinstance(t, Contingency) or t.shape[0] * t.shape[1] <= _DENSE_MATCHING_CELLS:
        return None
    seconds = sparse_matching_seconds(t, counts=counts)
    if seconds <= MATCHING_BUDGET:
        if not counts:
            return None
        mass = t.memo("matched_mass", matched_mass)  # run within its budget of steps
        return str(mass) if isinstance(mass, MatchingStopped) else None
    parts = t.memo("matching_components", matching_components)
    star, size = parts.star, parts.size
    faster = ("" if counting.compiled_available() else
              f"; with the compiled solver (pip install partition-lab[fast]) about "
              f"{sparse_matching_seconds(t, compiled=True, counts=counts):.2g} s")
    return (f"its exact one-to-one matching, among up to {int(size[~star].max()):,} classes and clusters that share "
            f"items, would take about {seconds:.2g} s of one core (estimated from the measured cost per class "
            f"and cell), over the budget of {MATCHING_BUDGET:g} s{faster}")


def kept_by_row(t: Contingency, counts: bool = False) -> ByRow | None:
    """What ``t``'s count kept of its cells by row (:class:`ByRow`: with ``counts``, each row's
    largest cell too), else None."""
    offsets = t.__dict__.get("_row_offsets")
    if offsets is None:
        return None
    return ByRow(offsets, t.__dict__["_coo_summary"][1] if counts else None)


def _sparse_matching(rows, cols, vals, n_r: int, n_c: int, structure=None, comp=None, by_row: ByRow | None = None):
    """Maximum-mass matching on the non-zero cells only.

    A matching never links two connected components of the class–cluster graph, so
    each component is solved on its own: a component with a single class or a single
    cluster (a lone cell, e.g. every item of a relabelled partition, or a cluster of
    singleton classes) takes its largest cell outright, and only the other
    components go to an assignment solver — whose cost grows much faster than
    linearly in their size. ``structure`` and ``comp``: the cells' components and each cell's
    (:func:`matching_components`, :func:`matching_cell_components`), ``by_row`` what its count
    kept of the cells by row (:func:`kept_by_row`), where the table has them: then ``rows`` may be
    None, made from the offsets where needed.
    """
    parts = structure or _component_structure(rows, cols, vals, n_r, n_c, by_row=by_row)
    star = parts.star
    total = parts.best[star].sum()
    rest = None  # no star (random labels: one component): every cell, nothing to gather
    if star.any():
        rows = cell_rows(rows, by_row)
        comp = parts.of_cells(rows) if comp is None else comp
        rest = np.flatnonzero(~star[comp])
        if rest.size == 0:
            return total
    kept = (rows, cols, vals) if rest is None else (rows[rest], cols[rest], vals[rest])
    compiled = compiled_sparse_matching(*kept, shape=(n_r, n_c), top=parts.best[~star].max(),
                                        by_row=by_row if rest is None else None)
    if compiled is not None:
        return total + compiled
    rows = cell_rows(rows, by_row)
    comp, rest = (parts.of_cells(rows), np.arange(rows.size)) if rest is None else (comp, rest)
    order = rest[np.argsort(comp[rest], kind="stable")]
    bounds = np.flatnonzero(np.diff(comp[order])) + 1
    for cells in np.split(order, bounds):
        r_ids, r = np.unique(rows[cells], return_inverse=True)
        c_ids, c = np.unique(cols[cells], return_inverse=True)
        if r_ids.size * c_ids.size <= _DENSE_MATCHING_CELLS:
            dense = np.zeros((r_ids.size, c_ids.size), dtype=vals.dtype)
            dense[r, c] = vals[cells]
            total += _dense_matching(dense)
        else:
            total += _min_cost_matching(r, c, vals[cells], r_ids.size, c_ids.size)
    return total


def _min_cost_matching(rows, cols, vals, n_r: int, n_c: int):
    # Give every row a private dummy column so a full matching of the rows always
    # exists; with edge cost (top + 1 − n_ij) for real cells and (top + 1) for
    # dummies, a minimum-cost full matching is a maximum-mass matching.
    if n_r > n_c:
        rows, cols, n_r, n_c = cols, rows, n_c, n_r
    top = float(vals.max())
    cost_real = top + 1.0 - vals.astype(np.float64)
    dummy_rows = np.arange(n_r)
    graph = sparse.csr_matrix(
        (np.concatenate([cost_real, np.full(n_r, top + 1.0)]),
         (np.concatenate([rows, dummy_rows]), np.concatenate([cols, n_c + dummy_rows]))),
        shape=(n_r, n_c + n_r))
    _, match = min_weight_full_bipartite_matching(graph)
    real = match < n_c
    cell = sparse.csr_matrix((vals, (rows, cols)), shape=(n_r, n_c))
    return np.asarray(cell[np.flatnonzero(real), match[real]]).ravel().sum()


def classification_error_value(t):
    mass = t.memo("matched_mass", matched_mass)
    if isinstance(mass, MatchingStopped):
        raise mass
    return 1.0 - div(mass, t.n, 1.0)


@register("classification_error", name="Classification error", symbol="ε", family="matching",
          direction="lower", bounds=(0.0, 1.0), reference="Meilă & Heckerman 2001; Wu et al. 2009 Table 1 row 12",
          formula=r"\varepsilon = 1 - \frac1n\max_\sigma \sum_j n_{\sigma(j),j}",
          description="Misclassification rate under the best one-to-one mapping of classes to clusters.",
          symmetric=True,
          limit=matching_out_of_budget)
def classification_error(t, *, log_base, beta):
    return classification_error_value(t)


@register("epsilon_n", name="Normalized classification error (Wu)", symbol="ε_n", family="matching",
          direction="lower", bounds=(0.0, 1.0), reference="Wu et al. 2009, Table 5 row 8, Lemma 7",
          formula=r"\varepsilon_n = \frac{\varepsilon}{1 - 1/\max(K, K')}",
          description="Classification error divided by its upper bound 1 − 1/max(#classes, #clusters).",
          symmetric=True,
          limit=matching_out_of_budget)
def epsilon_n(t, *, log_base, beta):
    k = np.maximum(np.maximum(t.n_classes, t.n_clusters), 1)
    return div(classification_error_value(t), 1.0 - 1.0 / k, 0.0)  # k = 1: nothing to misclassify


@register("van_dongen", name="van Dongen criterion", symbol="VD", family="matching", direction="lower",
          bounds=(0.0, 1.0), reference="van Dongen 2000; Wu et al. 2009 Table 1 row 13",
          formula=r"VD = \frac{2n - \sum_i \max_j n_{ij} - \sum_j \max_i n_{ij}}{2n}",
          description="Items outside their class's best cluster plus outside their cluster's majority class, over 2n.",
          symmetric=True)
def van_dongen(t, *, log_base, beta):
    return div(2 * t.n - t.row_max_sum - t.col_max_sum, 2 * t.n, 0.0)


@register("vd_n", name="Normalized van Dongen (Wu)", symbol="VD_n", family="matching", direction="lower",
          bounds=(0.0, 1.0), reference="Wu et al. 2009, Table 5 row 6, Lemma 5",
          formula=r"VD_n = \frac{2n - \sum_i \max_j n_{ij} - \sum_j \max_i n_{ij}}{2n - \max_i a_i - \max_j b_j}",
          description="van Dongen divided by its tighter bound; Wu et al.'s recommended measure.",
          symmetric=True)
def vd_n(t, *, log_base, beta):
    den = 2 * t.n - t.max_class_size - t.max_cluster_size
    # den = 0 only for one class and one cluster (or n = 0): nothing can be wrong.
    return div(2 * t.n - t.row_max_sum - t.col_max_sum, den, 0.0)
