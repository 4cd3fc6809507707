"""What every measure reads from a table: the entropies, shared by one table and a batch.

:class:`TableStats` makes exact the zeros a table's structure implies (one class, one cluster,
pure clusters, whole classes), over Python numbers (:class:`~metrics.core.contingency.Contingency`)
and arrays (:class:`~metrics.core.batch.TableBatch`) alike. The pair sums Σ C(x, 2) are exact
integers for integer cells.
"""

from __future__ import annotations

import math
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from .arith import is_batch, where
from .cells import group_sum, sum_of_group_max
from .kernels import counting

__all__ = ["TableStats", "CellStats", "compiled_summary", "cell_kernels", "x_log_ratio", "x_log_ratio_sum",
           "exact_sum_comb2", "comb2_from_histogram", "conditional_sum_from_histogram", "histogram_pays",
           "INT64_SAFE_TOTAL"]

# Below this total, every pair sum fits int64 (C(n, 2) < 2**62); above, Python ints.
INT64_SAFE_TOTAL = 1 << 31


def exact_sum_comb2(values: np.ndarray):
    """Σ C(x, 2) over ``values``: an exact int for integer input, a float otherwise."""
    if values.size == 0:
        return 0
    if values.dtype.kind == "f":
        return float(np.sum(values * (values - 1.0)) / 2.0)
    # Σ C(x, 2) ≤ C(Σx, 2): int64 is exact whenever (Σx)² < 2**63.
    total = int(values.sum(dtype=object)) if values.dtype == object else int(values.astype(np.float64).sum())
    if total < INT64_SAFE_TOTAL:
        v = values.astype(np.int64)
        return int(np.sum(v * (v - 1) // 2))
    v = values.astype(object)
    return int(sum(v * (v - 1) // 2))


class TableStats:
    """What every measure reads, shared by one table (:class:`Contingency`, Python
    numbers) and a batch of tables (:class:`metrics.core.batch.TableBatch`, arrays).

    Subclasses provide n, row_sums, col_sums, h_c, h_k, h_ck, mi, pair_sums,
    row_max_sum, col_max_sum, n_classes, n_clusters and the cell-level helpers
    (cell_sums, row_max_of, row_total).
    """

    @property
    def compiled_cell_stats(self) -> tuple[float, float, float, np.ndarray] | None:
        """Per-cell sums from one compiled pass, where a table has them (Contingency's big
        grids); None makes the measures walk the cells (cell_sums, row_max_of)."""
        return None

    if TYPE_CHECKING:  # provided by the subclasses (the class docstring), as numbers or arrays
        n_classes: Any
        n_clusters: Any
        n_cells: Any
        _h_c_raw: Any
        _h_k_raw: Any
        _h_ck_raw: Any
        _mi_raw: Any
        _h_c_given_k_raw: Any
        _h_k_given_c_raw: Any

    def memo(self, key: str, compute):
        """``compute(self)`` once per table: for costly quantities that more than one
        measure reads but that belong to a measure family (matching, E[I])."""
        cache = self.__dict__.setdefault("_memo", {})
        if key not in cache:
            cache[key] = compute(self)
        return cache[key]

    # Entropies. Subclasses give the raw float formulas (_h_*_raw, _mi_raw); here
    # the zeros that the table's structure implies are made exact, so that e.g. one
    # class gives h = 1 and a perfect table VI = 0, not a rounding residue.
    @cached_property
    def h_c(self):
        """H(C): entropy of the classes, in nats (exactly 0 for one class)."""
        return where(self.n_classes <= 1, 0.0, self._h_c_raw)

    @cached_property
    def h_k(self):
        """H(K): entropy of the clusters, in nats (exactly 0 for one cluster)."""
        return where(self.n_clusters <= 1, 0.0, self._h_k_raw)

    @cached_property
    def h_ck(self):
        """H(C, K): joint entropy, in nats (at least max(H(C), H(K)))."""
        return where(self.n_cells <= 1, 0.0, np.maximum(np.maximum(self._h_ck_raw, self.h_c), self.h_k))

    @cached_property
    def _pure_clusters(self):
        """Every cluster holds one class: H(C|K) = 0 exactly."""
        return self.n_cells == self.n_clusters

    @cached_property
    def _whole_classes(self):
        """Every class lies in one cluster: H(K|C) = 0 exactly."""
        return self.n_cells == self.n_classes

    @cached_property
    def mi(self):
        """I(C; K) in nats, within [0, min(H(C), H(K))] whatever the rounding."""
        mi = np.minimum(np.maximum(self._mi_raw, 0.0), np.minimum(self.h_c, self.h_k))
        mi = where(self._pure_clusters, self.h_c, mi)
        # Every class within one cluster: I = H(K) exactly (H(K) ≤ H(C) then; the smaller of the
        # two whatever the rounding, which is H(C) = H(K) when the clusters are pure too).
        smaller = np.minimum(self.h_c, self.h_k) if is_batch(mi) else min(self.h_c, self.h_k)
        return where(self._whole_classes, smaller, mi)

    # The conditional entropies are summed directly over the cells (Σ n_ij log(b_j / n_ij) / n,
    # the subclasses' _h_*_given_*_raw), not taken as H(C) − I: a sum of non-negative terms
    # keeps its relative precision near 0, a difference of two numbers of size log n does
    # not (a near-perfect table of 10^15 items would keep no correct digit).
    @cached_property
    def h_c_given_k(self):
        """H(C|K) in nats, within [0, H(C)]: exactly 0 when every cluster holds one class,
        exactly H(C) for one cluster."""
        h = where(self.n_clusters <= 1, self.h_c, np.minimum(np.maximum(self._h_c_given_k_raw, 0.0), self.h_c))
        return where(self._pure_clusters, 0.0, h)

    @cached_property
    def h_k_given_c(self):
        """H(K|C) in nats, within [0, H(K)]: exactly 0 when every class lies in one cluster,
        exactly H(K) for one class."""
        h = where(self.n_classes <= 1, self.h_k, np.minimum(np.maximum(self._h_k_given_c_raw, 0.0), self.h_k))
        return where(self._whole_classes, 0.0, h)


def comb2_from_histogram(hist: np.ndarray, n: int) -> int:
    """Σ C(x, 2) over cells given as a histogram of their counts, exactly."""
    if n < INT64_SAFE_TOTAL:  # every term, and the sum, is at most C(n, 2) < 2^62
        v = np.arange(hist.size, dtype=np.int64)
        return int(np.dot(hist, v * (v - 1) // 2))
    return sum(int(h) * math.comb(int(v), 2) for v, h in zip(np.flatnonzero(hist), hist[hist > 0]))


def conditional_sum_from_histogram(hist: np.ndarray, sizes: np.ndarray, tops: np.ndarray) -> float:
    """Σ x log(w / x) over an integer table's non-zero cells x, w the size of each cell's column
    (or row) — n·H(C|K) (or n·H(K|C)) — from the cells' histogram ``hist`` and each column's size
    ``sizes`` and largest cell ``tops``: no pass over the cells.

    A cell past half its column is its largest, so at most one per column: those take
    x · log1p((w − x) / x) with w − x exact, as :func:`x_log_ratio` does. Over the others
    (x ≤ w/2) the sum is Σ_j m_j log w_j − Σ_v h_v v log v, m_j the column's mass without its
    largest cell if that one is past half, h the histogram without those cells (exact integer
    arithmetic: taking their terms out of a float total would cancel every digit of a near-
    perfect table's strays). Both sums are non-negative, and each left-out term
    x (log w − log x) is at least x log 2, so the difference keeps all but log₂ w bits of
    precision — the bound of the per-cell form, whose log w − log x rounds alike."""
    near = tops + tops > sizes
    near_tops = tops[near]
    remaining = hist - np.bincount(near_tops, minlength=hist.size)
    values = np.flatnonzero(remaining[1:]) + 1
    fv = values.astype(np.float64)
    mass = sizes - np.where(near, tops, 0)
    # Products summed by numpy (pairwise), not np.dot: BLAS's dot of 10^5 sizes took milliseconds
    # on a busy machine (its threads), and pairwise summation rounds less.
    far = float(np.sum(mass * np.log(sizes.astype(np.float64)))) - float(
        np.sum(remaining[values] * (fv * np.log(fv))))
    close = np.sum(x_log_ratio(near_tops, sizes[near])) if near_tops.size else 0.0
    return max(far, 0.0) + float(close)


def histogram_pays(top: float, n_cells: int) -> bool:
    """Whether whole-count cells with largest value ``top`` are better summed by a histogram
    of the values 0 … top (one pass, then one term per distinct value) than cell by cell:
    it bounds the histogram to a few times the cells, however large one count is."""
    return top < _histogram_limit(n_cells)


def _histogram_limit(n_cells: int) -> int:
    return 4 * n_cells + 1025


# Cells per block when a measure walks a grid table's cells (512 KiB of float64).
_BLOCK_CELLS = 1 << 16
# Grid tables from this many cells have their marginals, maxima and cell histogram
# (compiled_summary) and their per-cell sums (CellStats.compiled_cell_stats) from compiled
# passes, where numba is installed.
_COMPILED_CELLS = 1 << 16
# The compiled summary pass's histogram starts this long, grown as bigger cells come
# (up to what histogram_pays allows).
_SUMMARY_HIST_CAP = 1 << 12


class CellStats(TableStats):
    """The shared quantities of one table held as cells — a dense count ``grid``, or the
    non-zero cells in coordinate form (``rows``, ``cols``, ``values``) where ``grid`` is None:
    the base of :class:`~metrics.core.contingency.Contingency`, which provides the storage
    (``grid``, ``rows``, ``cols``, ``values``, ``shape``, ``is_integer``).

    Every quantity is computed once, on first use, and cached.
    """

    grid: np.ndarray | None = None
    if TYPE_CHECKING:  # provided by Contingency
        @property
        def rows(self) -> np.ndarray: ...

        @property
        def cols(self) -> np.ndarray: ...

        @property
        def values(self) -> np.ndarray: ...

        @property
        def shape(self) -> tuple[int, int]: ...

        @property
        def is_integer(self) -> bool: ...

    @property
    def n_classes(self) -> int:
        return self.shape[0]

    @property
    def n_clusters(self) -> int:
        return self.shape[1]

    @cached_property
    def row_sums(self) -> np.ndarray:
        """Class sizes a_i."""
        if self.grid is not None:
            return self.grid.sum(axis=1)
        summary = self._coo_summary
        return group_sum(self.rows, self.values, self.shape[0]) if summary is None else summary[0]

    @cached_property
    def col_sums(self) -> np.ndarray:
        """Cluster sizes b_j."""
        if self.grid is not None:
            return self.grid.sum(axis=0)
        summary = self._coo_summary
        return group_sum(self.cols, self.values, self.shape[1]) if summary is None else summary[2]

    @cached_property
    def _coo_summary(self):
        """(row sums, row maxima, column sums, column maxima) of an integer coordinate table of at
        least ``_COMPILED_CELLS`` cells from one compiled pass
        (:func:`metrics.core.kernels.cell_stats.coo_summary`), the same int64 values numpy's
        bincount and maximum.at give; None for other tables or without numba."""
        if self.grid is not None or not self.is_integer or self.values.size < _COMPILED_CELLS:
            return None
        kernels = cell_kernels(self.values.size)
        if kernels is None:
            return None
        return kernels.coo_summary(self.rows, self.cols, self.values, self.shape[0], self.shape[1])

    @cached_property
    def n(self):
        """Number of items (total mass for fuzzy tables); a Python int or float.
        (Totals are below 2^62, so the int64 sum cannot overflow.)"""
        # Whole counts sum exactly in any order: the class sizes where a count of labels left them.
        from_sizes = self.grid is not None or (self.is_integer and "row_sums" in self.__dict__)
        total = self.row_sums.sum() if from_sizes else self.values.sum()
        return int(total) if self.is_integer else float(total)

    @cached_property
    def log_n(self) -> float:
        return math.log(self.n) if self.n > 0 else 0.0

    @cached_property
    def _mass_exponent(self) -> int:
        """The power of two (its exponent) the entropy sums of a fractional table are taken at:
        0, unless its total mass is beyond 2^±500, where x · log(w / x) would underflow into
        subnormals (or overflow) before the sum is divided by n. Scaling by a power of two is
        exact (``ldexp``), so the sums over the scaled n are what they would be without under-
        and overflow."""
        n = self.n
        if self.is_integer or n <= 0 or 2.0 ** -500 <= n <= 2.0 ** 500:
            return 0
        return -math.frexp(n)[1]

    def _scaled_n(self) -> float:
        return math.ldexp(float(self.n), self._mass_exponent)

    @cached_property
    def _entropy_sums(self) -> tuple[float, float, float]:
        """n·H(C), n·H(K) and n·H(C, K): Σ x log(n / x) over class sizes, cluster sizes and cells
        (:func:`x_log_ratio`), the sums all four entropies share. Every term is non-negative, so
        an entropy near 0 (one class of 10^18 items and a few strays) keeps its relative
        precision, which log n − (1/n) Σ x log x would not. The cells' sum reads the cell
        histogram where there is one: one term per distinct count."""
        n, k = self.n, self._mass_exponent
        if n <= 0:
            return 0.0, 0.0, 0.0
        hist = None if k else self._cell_histogram
        if hist is not None:
            counts = np.flatnonzero(hist)
            cells = float(np.dot(hist[counts], x_log_ratio(counts, n)))
        else:
            cells = x_log_ratio_sum(self.values, n, k)
        return x_log_ratio_sum(self.row_sums, n, k), x_log_ratio_sum(self.col_sums, n, k), cells

    @cached_property
    def _cell_histogram(self) -> np.ndarray | None:
        """How many cells hold each count 0, 1, 2, … (integer tables whose largest cell
        is at most about the number of cells; None otherwise). Σ x log x and Σ C(x, 2)
        over the cells are then sums over the distinct counts: one bincount instead of
        a logarithm per cell."""
        if not self.is_integer or self.n_cells == 0:
            return None
        cells = self.values if self.grid is None else self.grid
        top = int(cells.max())
        if not histogram_pays(top, cells.size):
            return None
        return np.bincount(cells.reshape(-1), minlength=top + 1)

    def _per_item(self, total: float) -> float:
        # The sums are taken at the table's mass scale (1 but for extreme fractional masses).
        return max(total / self._scaled_n(), 0.0) if self.n > 0 else 0.0

    @cached_property
    def _h_c_raw(self) -> float:
        return self._per_item(self._entropy_sums[0])

    @cached_property
    def _h_k_raw(self) -> float:
        return self._per_item(self._entropy_sums[1])

    @cached_property
    def _h_ck_raw(self) -> float:
        return self._per_item(self._entropy_sums[2])

    @cached_property
    def _mi_raw(self) -> float:
        # I = H(C) + H(K) − H(C,K), from the sums the entropies share (no pass of its own).
        if self.n <= 0:
            return 0.0
        rows, cols, cells = self._entropy_sums
        return (rows + cols - cells) / self._scaled_n()

    @cached_property
    def min_cell(self):
        """Smallest non-zero cell (inf for an empty table)."""
        if self.n_cells == 0:
            return math.inf
        if self.grid is not None:
            hist = self._cell_histogram
            if hist is not None:
                return int(np.flatnonzero(hist[1:])[0]) + 1
            return self.grid[self.grid > 0].min().item()
        hist = self.__dict__.get("_cell_histogram")  # a count of labels keeps one: no pass over the cells
        return self.values.min().item() if hist is None else int(np.flatnonzero(hist[1:])[0]) + 1

    @cached_property
    def n_cells(self) -> int:
        """Number of non-zero cells."""
        return int(self.values.size) if self.grid is None else int(np.count_nonzero(self.grid))

    @cached_property
    def pair_sums(self) -> tuple:
        """(m, m1, m2, M) = (Σ C(n_ij,2), Σ_i C(a_i,2), Σ_j C(b_j,2), C(n,2)).

        Exact Python ints for integer tables; floats (x(x-1)/2) for fractional ones.
        """
        n = self.n
        big_n = n * (n - 1) // 2 if self.is_integer else n * (n - 1) / 2
        hist = self._cell_histogram
        m = exact_sum_comb2(self.values) if hist is None else comb2_from_histogram(hist, n)
        return (m, exact_sum_comb2(self.row_sums), exact_sum_comb2(self.col_sums), big_n)

    @cached_property
    def row_max_sum(self):
        """Σ_i max_j n_ij: each class's best cluster (inverse purity · n)."""
        if self.grid is not None:
            return int(self.grid.max(axis=1).sum()) if self.n_cells else 0
        summary = self._coo_summary
        return sum_of_group_max(self.rows, self.values, self.shape[0]) if summary is None else int(summary[1].sum())

    @cached_property
    def col_max_sum(self):
        """Σ_j max_i n_ij: each cluster's majority class (purity · n)."""
        if self.grid is not None:
            return int(self.grid.max(axis=0).sum()) if self.n_cells else 0
        summary = self._coo_summary
        return sum_of_group_max(self.cols, self.values, self.shape[1]) if summary is None else int(summary[3].sum())

    @cached_property
    def max_class_size(self):
        return self.row_sums.max().item() if self.row_sums.size else 0

    @cached_property
    def max_cluster_size(self):
        return self.col_sums.max().item() if self.col_sums.size else 0

    # Cell-level work: a measure that reads every cell gives a function of (n, a, b) —
    # the cells' values with their class sizes a_i and cluster sizes b_j, as arrays that
    # broadcast together — and gets the totals or the per-class maxima of what it
    # returns. An empty cell of a grid holds 0, which adds nothing to a sum or a row
    # maximum of a non-negative quantity.
    def _cell_blocks(self):
        """(n, a, b) in float64: the non-zero cells at once for a coordinate table, a
        block of rows at a time for a grid. The blocks keep each temporary of a
        10^6-cell table at 512 KiB — reused by the allocator — instead of a fresh 8 MB
        array per operation, whose page faults cost more than its arithmetic (F, BCubed
        and the element-centric similarity of a big grid; figures in docs/performance.md)."""
        a = self.row_sums.astype(np.float64, copy=False)
        b = self.col_sums.astype(np.float64, copy=False)
        if self.grid is None:
            yield self.values.astype(np.float64, copy=False), a[self.rows], b[self.cols]
            return
        n_rows, n_cols = self.grid.shape
        step = max(1, _BLOCK_CELLS // max(n_cols, 1))
        for start in range(0, max(n_rows, 1), step):
            stop = start + step
            yield self.grid[start:stop].astype(np.float64), a[start:stop, None], b[None, :]

    @cached_property
    def _cell_pass(self):
        """The sums of :mod:`metrics.core.kernels.cell_stats` from its one compiled pass over a
        table of at least ``_COMPILED_CELLS`` cells (a grid's, or a coordinate table's non-zero
        cells); None for smaller tables, without numba, or for extreme fractional masses (summed
        at their scale, :attr:`_mass_exponent`, by the numpy paths)."""
        if self._mass_exponent:
            return None
        kernels = cell_kernels(self.grid.size if self.grid is not None else self.values.size)
        if kernels is None:
            return None
        integer = self.is_integer
        a = self.row_sums if integer else self.row_sums.astype(np.float64)
        b = self.col_sums if integer else self.col_sums.astype(np.float64)
        logs = _log_table(kernels) if integer else np.empty(0)
        if self.grid is not None:
            if self.grid.size < _COMPILED_CELLS:
                return None
            grid = np.ascontiguousarray(self.grid)
            row_sq, row_le, col_sq, col_gt, best_f = kernels.grid_square_sums(grid, a, b)
            row_top, col_top = self.__dict__.get("_grid_line_maxima") or kernels.grid_line_maxima(grid)
            hist = self._cell_histogram  # the entropies read it too; a grid's summary pass makes it
            if hist is not None:
                by_col = conditional_sum_from_histogram(hist, b, col_top)
                by_row = conditional_sum_from_histogram(hist, a, row_top)
            else:
                by_col, by_row = kernels.grid_log_sums(grid, a, b, row_top, col_top, logs)
            return by_col, by_row, row_sq, row_le, col_sq, col_gt, best_f
        if self.values.size < _COMPILED_CELLS:
            return None
        summary = self._coo_summary  # integer cells: each row's and column's largest among them
        hist = self._cell_histogram if summary is not None else None
        if hist is None:
            by_col, by_row = kernels.coo_log_sums(self.rows, self.cols, self.values, a, b, logs)
        else:
            by_col = conditional_sum_from_histogram(hist, b, summary[3])
            by_row = conditional_sum_from_histogram(hist, a, summary[1])
        # A compiled count of labels found the squares on the way (Contingency._from_codes).
        squares = self.__dict__.get("_coo_squares") or kernels.coo_square_sums(self.rows, self.cols, self.values, a, b)
        return by_col, by_row, *squares

    @cached_property
    def compiled_cell_stats(self) -> tuple[float, float, float, np.ndarray] | None:
        """(Σ n_ij²/b_j, Σ n_ij²/a_i, Σ n_ij²/max(a_i, b_j), each row's max_j 2 n_ij/(a_i + b_j))
        from the one compiled pass over the cells (:attr:`_cell_pass`); None for small tables or
        without numba. BCubed, the element-centric similarity and F read it where it is not
        None and walk the cells (:meth:`cell_sums`, :meth:`row_max_of`) otherwise: the same
        values up to rounding (tested against each other), in a fraction of the time on a big
        table, whose blocks pay for float copies and temporaries of every cell
        (docs/performance.md)."""
        cell_pass = self._cell_pass
        if cell_pass is None:
            return None
        row_sq, row_le, col_sq, col_gt, best_f = cell_pass[2:]
        a = self.row_sums.astype(np.float64)
        b = self.col_sums.astype(np.float64)
        # A table keeps no empty row or column, so no size is 0 here.
        return (float(np.sum(col_sq / b)), float(np.sum(row_sq / a)),
                float(np.sum(row_le / a) + np.sum(col_gt / b)), best_f)

    @cached_property
    def _conditional_sums(self) -> tuple[float, float]:
        """(Σ n_ij log(b_j / n_ij), Σ n_ij log(a_i / n_ij)) over the non-zero cells: n·H(C|K)
        and n·H(K|C), summed directly (:func:`x_log_ratio`), from the compiled cell pass where
        there is one."""
        cell_pass = self._cell_pass
        if cell_pass is not None:
            return float(cell_pass[0]), float(cell_pass[1])
        if self.n_cells == 0:
            return 0.0, 0.0
        k = self._mass_exponent
        if k or self.grid is None or self.grid.size < _COMPILED_CELLS:
            x = self.values
            return (x_log_ratio_sum(x, self.col_sums[self.cols], k), x_log_ratio_sum(x, self.row_sums[self.rows], k))
        # A big grid without the compiled pass: from the cell histogram where there is one (no
        # logarithm per cell), else blocks of rows in their integer counts (exact differences).
        hist = self._cell_histogram
        if hist is not None:
            return (conditional_sum_from_histogram(hist, self.col_sums, self.grid.max(axis=0)),
                    conditional_sum_from_histogram(hist, self.row_sums, self.grid.max(axis=1)))
        a, b = self.row_sums[:, None], self.col_sums[None, :]
        step = max(1, _BLOCK_CELLS // self.grid.shape[1])
        by_col = by_row = 0.0
        for start in range(0, self.grid.shape[0], step):
            x = self.grid[start:start + step]
            by_col += float(np.sum(x_log_ratio(x, b)))
            by_row += float(np.sum(x_log_ratio(x, a[start:start + step])))
        return by_col, by_row

    @cached_property
    def _h_c_given_k_raw(self) -> float:
        return self._per_item(self._conditional_sums[0])

    @cached_property
    def _h_k_given_c_raw(self) -> float:
        return self._per_item(self._conditional_sums[1])

    def cell_sums(self, per_cell) -> tuple[float, ...]:
        """Σ over the cells of each array in the tuple ``per_cell(n, a, b)``."""
        totals = None
        for n, a, b in self._cell_blocks():
            parts = [float(np.sum(x)) for x in per_cell(n, a, b)]
            totals = parts if totals is None else [t + p for t, p in zip(totals, parts)]
        return tuple(totals or ())

    def row_max_of(self, per_cell) -> np.ndarray:
        """Per class, the largest value of the array ``per_cell(n, a, b)`` (0 for a row
        with no cell)."""
        if self.grid is None:
            best = np.zeros(self.shape[0])
            np.maximum.at(best, self.rows, per_cell(*next(self._cell_blocks())))
            return best
        return np.concatenate([np.broadcast_to(per_cell(n, a, b), n.shape).max(axis=1, initial=0.0)
                               for n, a, b in self._cell_blocks()])

    @staticmethod
    def row_total(row_array: np.ndarray) -> float:
        return float(np.sum(row_array))


def compiled_summary(grid: np.ndarray, copy_to: np.ndarray | None = None):
    """(row sums, row maxima, column sums, column maxima, non-zero cells, cell histogram or
    None) of a big integer grid from one compiled pass (:func:`metrics.core.kernels.compiled.grid_summary`),
    or None: a small or fractional grid, a negative cell, or no numba. The histogram is None when some cell
    is past what :func:`histogram_pays` allows. ``copy_to``: an int64 array of the grid's shape in C order
    that the pass fills with the cells (only where the summary is not None)."""
    if grid.size < _COMPILED_CELLS or grid.dtype.kind not in "iu" or grid.size == 0:
        return None
    kernels = counting.compiled_kernels()
    if kernels is None:
        return None
    row_sums, row_max, col_sums, col_max, nonzero, hist, complete, low = kernels.grid_summary(
        np.ascontiguousarray(grid), _SUMMARY_HIST_CAP, _histogram_limit(grid.size), copy_to)
    if low < 0:
        return None  # not a count grid: the caller's checks refuse it
    return row_sums, row_max, col_sums, col_max, int(nonzero), hist if complete else None


def cell_kernels(work: float | None = None):
    """The compiled cell sums (:mod:`metrics.core.kernels.cell_stats`), or None: numba missing, the
    numpy kernels forced (``counting.FORCE_KERNEL``), or numba not loaded yet and ``work`` cells
    too few to repay loading it (:func:`metrics.core.kernels.counting.compiled_kernels`)."""
    if counting.compiled_kernels(work) is None:
        return None
    from .kernels import cell_stats
    return cell_stats


@cache
def _log_table(kernels) -> np.ndarray:
    """The kernels' table of small logarithms, made once per process."""
    return kernels.log_table()


def x_log_ratio_sum(x: np.ndarray, whole, exponent: int = 0) -> float:
    """Σ :func:`x_log_ratio` (x, whole), both taken at the scale 2^``exponent`` first
    (:attr:`CellStats._mass_exponent`: exact, and 0 — no scaling, integers kept — but for
    fractional tables of extreme total mass)."""
    if exponent:
        x, whole = np.ldexp(x, exponent), np.ldexp(whole, exponent)
    return float(np.sum(x_log_ratio(x, whole)))


def x_log_ratio(x: np.ndarray, whole: np.ndarray | float, log_x: np.ndarray | None = None) -> np.ndarray:
    """x · log(whole / x) per cell, for 0 ≤ x ≤ whole (counts, or masses; arrays that broadcast
    together; an empty cell gives 0): the terms of the conditional entropies summed directly.

    A ratio below 2 takes log1p((whole − x) / x), with whole − x exact for integer counts (every
    digit of a cell within a few items of its row or column kept); the others log whole − log x,
    a difference of at least log 2, so a few ulps. ``log_x``: log x where the caller has it
    (from a table of small logarithms), any value where x is 0."""
    fx = np.asarray(x, dtype=np.float64)
    fw = np.asarray(whole, dtype=np.float64)
    if log_x is None:
        log_x = np.log(np.where(fx > 0, fx, 1.0))
    out = fx * (np.log(np.where(fw > 0, fw, 1.0)) - log_x)
    near = x > whole - x
    if near.any():
        xb, wb = np.broadcast_arrays(x, whole)
        xn = xb[near]
        out[near] = xn * np.log1p(np.asarray(wb[near] - xn, dtype=np.float64) / xn)
    return out
