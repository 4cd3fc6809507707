"""The contingency table and the quantities every measure shares.

Orientation: rows are gold classes C, columns are clusters K. Cell ``n_ij`` is the
number (or, for ambiguous data, the mass) of items of class i in cluster j.

A :class:`Contingency` keeps only its non-zero cells (coordinate form), so a table
with 10^5 clusters and 10^3 classes costs memory proportional to its non-zero cells,
never to their product — except a table counted from labels that fills at least a
quarter of its grid, which keeps the grid (at most as many cells as items).
Counting the labels is :mod:`metrics.core.kernels.counting` (host) and :mod:`metrics.core.kernels.array_api`
(labels on another device). Everything a measure reads — marginals, entropies, pair
sums, per-row and per-column maxima — is computed once, on first use, and cached.

Turning labels into codes is :mod:`metrics.core.labels`, the shared entropies
:mod:`metrics.core.stats`, checking cells :mod:`metrics.core.cells`, ambiguous data
:mod:`metrics.core.memberships`.

Exactness: integer tables keep integer counts; the pair sums ``Σ C(x, 2)`` are exact
Python integers (no int64 overflow even for cells of 10^12).
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from .._lazy import lazy_module
from .cells import (
    MergeableTable,
    compact_index,
    label_array,
    normalize_counts,
    refuse_bad_cells,
    table_cells,
)
from .kernels import array_api, counting
from .labels import as_1d_labels, compact_limit, count_with_noise, factorize_labels, own_labels
from .limits import MAX_TOTAL
from .memberships import Memberships, plain_cells, plain_memberships, weighted_cells
from .stats import CellStats, compiled_summary, histogram_pays

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    pd = lazy_module("pandas")

__all__ = ["Contingency", "pair_counts"]


class Contingency(CellStats, MergeableTable):
    """A class-by-cluster contingency table with its shared quantities cached.

    Build one with :meth:`from_labels`, :meth:`from_table` or :meth:`from_memberships`.
    Empty rows and columns are dropped: they change no measure. Tables add up: ``t1 + t2``,
    ``sum(tables)``, :meth:`merge` and, for streams, :meth:`update` give the table of all the
    items (:class:`~metrics.core.cells.MergeableTable`).

    Attributes read by the measures (all cached on first use):
    ``n``, ``row_sums`` (class sizes ``a_i``), ``col_sums`` (cluster sizes ``b_j``),
    ``h_c``, ``h_k``, ``h_ck`` (entropies in nats), ``mi``, ``pair_sums``,
    ``row_max_sum`` (Σ_i max_j n_ij), ``col_max_sum`` (Σ_j max_i n_ij).

    Storage: the non-zero cells in coordinate form (``rows``, ``cols``, ``values``), or,
    for a table counted from labels that is at least a quarter full, the dense count
    ``grid`` itself (then the coordinates are made on first use). ``grid`` is None for
    coordinate tables; a sparse table counted from labels keeps its cells' offsets by row for
    ``rows`` (made on first use: the measures and matchings read the offsets). Either way every
    attribute and measure gives the same values.
    """

    grid: np.ndarray | None = None
    # How from_labels read the clustering's noise items (labels.count_with_noise); no noise label: None.
    noise: object = None
    noise_as: str = "cluster"
    noise_count: int | None = None
    noise_share: float | None = None
    coverage: float = 1.0

    def __init__(self, rows, cols, values, row_labels, col_labels):
        # Internal: callers use the from_* constructors, which validate.
        self.rows = rows
        self.cols = cols
        self.values = values
        self.row_labels = row_labels
        self.col_labels = col_labels

    # Labels that are integers (a count of compact integer labels) are kept as an int array until
    # first read: made Python ints, 10^5 labels a side cost milliseconds no measure needs.
    _integer_labels: tuple[np.ndarray, np.ndarray]

    @cached_property
    def row_labels(self) -> np.ndarray:
        """The classes' labels (a 1-D object array), in the one label order."""
        return label_array(self._integer_labels[0])

    @cached_property
    def col_labels(self) -> np.ndarray:
        """The clusters' labels (a 1-D object array), in the one label order."""
        return label_array(self._integer_labels[1])

    # Coordinates of a grid table, made when first read.
    @cached_property
    def _coo(self):
        grid = self.grid
        assert grid is not None  # read only for a grid table
        flat = np.flatnonzero(grid)
        n_c = grid.shape[1]
        return flat // n_c, flat % n_c, grid.reshape(-1)[flat]

    @cached_property
    def rows(self) -> np.ndarray:
        """Class index of each non-zero cell."""
        if self.grid is None:  # a count kept the cells' offsets by row instead
            return counting.rows_of_offsets(self.__dict__["_row_offsets"])
        return self._coo[0]

    @cached_property
    def cols(self) -> np.ndarray:
        """Cluster index of each non-zero cell."""
        return self._coo[1]

    @cached_property
    def values(self) -> np.ndarray:
        """Count (or mass) of each non-zero cell."""
        return self._coo[2]

    # ------------------------------------------------------------------ building
    @classmethod
    def _from_coo(cls, rows, cols, values, row_labels, col_labels) -> Contingency:
        """Drop zero cells and empty rows/columns, and relabel to 0..R-1, 0..C-1.

        Integer cells that fill a quarter of the R × C table or more are stored as a grid,
        as ``_from_grid`` stores them: whichever way a table was built (a grid of label
        codes, hashed label pairs with codes that skip values, a table with empty rows),
        the same cells give every measure to the last bit."""
        keep = values != 0
        if not keep.all():
            rows, cols, values = rows[keep], cols[keep], values[keep]
        rows, row_labels = compact_index(rows, row_labels)
        cols, col_labels = compact_index(cols, col_labels)
        n_r, n_c = len(row_labels), len(col_labels)
        if values.dtype.kind in "iu" and values.size and 4 * values.size >= n_r * n_c:
            grid = np.zeros((n_r, n_c), dtype=np.int64)
            grid[rows, cols] = values
            return cls._from_grid(grid, row_labels, col_labels)
        return cls(rows.astype(np.int64, copy=False), cols.astype(np.int64, copy=False),
                   values, label_array(row_labels), label_array(col_labels))

    @classmethod
    def _from_grid(cls, grid: np.ndarray, row_labels, col_labels, summary=None, cell_pass=None) -> Contingency:
        """A table from a dense count grid (int64): empty rows and columns dropped.

        A grid at least a quarter full is kept as it is — the marginals, maxima and
        per-cell sums of a 1000 × 1000 table are then single vectorized reductions —
        and its coordinate form (``rows``, ``cols``, ``values``) is made only if asked
        for. A sparser grid is turned into coordinates at once. ``summary`` and
        ``cell_pass``: the grid's summary and per-cell sums computed on a device
        (:mod:`metrics.core.kernels.array_api`), which the host then does not compute.
        """
        row_labels, col_labels = label_array(row_labels), label_array(col_labels)
        summary = compiled_summary(grid) if summary is None else summary  # given: from the device
        if summary is None:
            row_sums, col_sums = grid.sum(axis=1), grid.sum(axis=0)
        else:
            row_sums, row_max, col_sums, col_max, n_cells, hist = summary
        keep_r, keep_c = row_sums > 0, col_sums > 0
        if not keep_r.all():
            grid, row_labels, row_sums = grid[keep_r], row_labels[keep_r], row_sums[keep_r]
            if summary is not None:
                row_max = row_max[keep_r]
            if cell_pass is not None:
                cell_pass = (*cell_pass[:2], *(v[keep_r] for v in cell_pass[2:4]), *cell_pass[4:6],
                             cell_pass[6][keep_r])
        if not keep_c.all():
            grid, col_labels, col_sums = grid[:, keep_c], col_labels[keep_c], col_sums[keep_c]
            if summary is not None:
                col_max = col_max[keep_c]
            if cell_pass is not None:
                cell_pass = (*cell_pass[:4], *(v[keep_c] for v in cell_pass[4:6]), cell_pass[6])
        if summary is None:
            n_cells = int(np.count_nonzero(grid))
        if 4 * n_cells < grid.size:
            flat = np.flatnonzero(grid)
            n_c = grid.shape[1]
            sparse = cls(flat // n_c, flat % n_c, grid.reshape(-1)[flat], row_labels, col_labels)
            if cell_pass is not None:
                sparse.__dict__["_cell_pass"] = cell_pass
            return sparse
        t = cls.__new__(cls)
        t.grid = np.ascontiguousarray(grid)
        t.row_labels, t.col_labels = row_labels, col_labels
        t.__dict__.update(row_sums=row_sums, col_sums=col_sums, n_cells=n_cells)
        if summary is not None:
            # The values the cached properties would compute, from the same pass.
            t.__dict__.update(row_max_sum=int(row_max.sum()), col_max_sum=int(col_max.sum()),
                              _grid_line_maxima=(row_max, col_max))
            if hist is not None:
                hist = hist[:int(row_max.max()) + 1]
                hist[0] = grid.size - n_cells  # the dropped empty rows and columns held zeros
                t.__dict__["_cell_histogram"] = hist
        if cell_pass is not None:
            t.__dict__["_cell_pass"] = cell_pass
        return t

    @classmethod
    def from_labels(cls, labels_true, labels_pred, noise=None, noise_as: str = "cluster") -> Contingency:
        """Table of two hard labelings of the same items (any hashable labels).

        ``labels_true`` gives each item's gold class, ``labels_pred`` its cluster: lists,
        tuples, numpy arrays of any dtype, pandas Series or Index — or arrays of another
        library (CuPy, PyTorch, any array-API array), which are counted on their own
        device; only the table comes back to the host (see :mod:`metrics.core.kernels.array_api`).

        Classes and clusters come in Partition Lab's one label order
        (:func:`metrics.core.labels.sorted_codes`): sorted where the labels can be ordered
        (numbers by value, text by code point), else in order of first appearance — the order
        the reader (:mod:`metrics.io`) and labels on a device give too. Compact non-negative
        integer labels (largest below 2n + 1024) are their own codes. Tuples are labels.

        Raises ``ValueError``, saying what to pass instead, on empty or mismatched input,
        input that is not 1-D (a 2-D array, an (n, 1) column, nested lists), a DataFrame
        (pass one column), a mapping or a set, a string, and on missing (NaN/None) or
        infinite labels.

        ``noise``: the label of ``labels_pred``'s noise items (DBSCAN's −1), read as ``noise_as``:
        "cluster" (one cluster: the table of the labels as they are, every peer's reading),
        "singletons" (each its own cluster) or "exclude" (left out). The table reports
        ``noise_count``, ``noise_share`` (of all items) and ``coverage`` (share of items counted).
        ``noise=None`` (the default) declares no noise label: today's table, ``noise_count`` None.
        """
        if noise is not None or noise_as != "cluster":
            return count_with_noise(labels_true, labels_pred, noise, noise_as, cls.from_labels, cls._from_codes)
        t = as_1d_labels(labels_true, "labels_true")
        p = as_1d_labels(labels_pred, "labels_pred")
        if isinstance(t, array_api.DeviceLabels) or isinstance(p, array_api.DeviceLabels):
            counted = array_api.count_on_device(t, p)
            if counted.grid is not None:
                return cls._from_grid(counted.grid, counted.row_labels, counted.col_labels, counted.summary,
                                      counted.cell_pass)
            return cls._from_counted_cells(counted.rows, counted.cols, counted.values, counted.row_sums,
                                           counted.col_sums, counted.maxima, counted.row_labels, counted.col_labels)
        if t.size != p.size:
            raise ValueError(
                f"labels_true and labels_pred must have the same length, got {t.size} and {p.size}"
            )
        if t.size == 0:
            raise ValueError("empty input: labels_true and labels_pred hold no items")
        n = t.size
        limit = counting.dense_cell_limit(n)
        if t.dtype.kind in "iub" and p.dtype.kind in "iub":
            # Both sides may be compact integers: count them in one pass, guessing the grid.
            grid = counting.count_grid_guessing(t, p, limit, compact_limit(n), guess_sparse=True)
            if isinstance(grid, np.ndarray):
                return cls._from_grid(grid, own_labels(t.dtype, grid.shape[0]), own_labels(p.dtype, grid.shape[1]))
            if isinstance(grid, counting.SparseGuess):
                # Compact labels of more possible cells than items, bounds guessed from a prefix:
                # the count checks every label against them, so only a label outside them costs
                # the pass that measures both arrays. Codes no item has are dropped with their labels.
                n_r, n_c = grid.hi_a + 1, grid.hi_b + 1
                found = counting.count_cells(t, p, n_r, n_c, maxima=True, guessed=True)
                if found is not None:
                    rows, cols, vals, row_sums, col_sums, maxima = found
                    return cls._from_counted_cells(rows, cols, vals, row_sums, col_sums, maxima,
                                                   own_labels(t.dtype, n_r), own_labels(p.dtype, n_c))
                grid = (*counting.bounds(t), *counting.bounds(p))
            bounds_t, bounds_p = grid[:2], grid[2:]
        else:
            bounds_t = bounds_p = None
        tc, tu = factorize_labels(t, "labels_true", bounds_t)
        pc, pu = factorize_labels(p, "labels_pred", bounds_p)
        return cls._from_codes(tc, tu, pc, pu)

    @classmethod
    def _from_codes(cls, tc: np.ndarray, tu, pc: np.ndarray, pu) -> Contingency:
        """The table of items with class codes ``tc`` (labels ``tu``) and cluster codes ``pc``
        (labels ``pu``): every count of labels into a table goes through here — a dense grid
        while it has at most as many cells as items, else its non-zero cells alone, counted in
        O(n) (:func:`metrics.core.kernels.counting.count_cells`) in row-major order, as a grid's
        cells are."""
        n_r, n_c = len(tu), len(pu)
        if n_r * n_c <= counting.dense_cell_limit(tc.size):
            return cls._from_grid(counting.count_grid(tc, pc, n_r, n_c), tu, pu)
        rows, cols, vals, row_sums, col_sums, maxima = counting.count_cells(tc, pc, n_r, n_c, maxima=True)
        return cls._from_counted_cells(rows, cols, vals, row_sums, col_sums, maxima, tu, pu)

    @classmethod
    def _from_counted_cells(cls, rows, cols, vals, row_sums, col_sums, maxima, tu, pu) -> Contingency:
        """The table of cells counted by :func:`~metrics.core.kernels.counting.count_cells` (or
        :func:`~metrics.core.kernels.counting.cells_of_sorted_keys`) from codes whose labels
        are ``tu`` and ``pu``: the unused codes' labels dropped, and what the count found on
        the way kept, so that no measure passes over the cells for it again. ``rows`` None: the
        cells' offsets by row (in ``maxima``) stand for them, made into rows when first read."""
        keep_r, keep_c = counting.codes_in_use(row_sums), counting.codes_in_use(col_sums)
        integer = all(isinstance(x, np.ndarray) and x.dtype.kind in "iu" for x in (tu, pu))
        tu, pu = (x[keep] if integer else label_array(x)[keep] for x, keep in ((tu, keep_r), (pu, keep_c)))
        row_sums, col_sums = row_sums[keep_r], col_sums[keep_c]
        if 4 * vals.size >= tu.size * pu.size:  # a quarter full: stored as a grid (_from_coo's rule)
            return cls._from_coo(counting.rows_of_offsets(maxima[4]) if rows is None else rows, cols, vals, tu, pu)
        t = cls(rows, cols, vals, tu, pu)
        if rows is None:  # made from the offsets when read
            del t.rows
        if integer:  # made an object array when read
            del t.row_labels, t.col_labels
            t._integer_labels = (tu, pu)
        t.__dict__.update(row_sums=row_sums, col_sums=col_sums)  # what the cached properties would compute
        if maxima is not None:  # the compiled count found the coordinate summary, histogram, squares
            row_max, col_max, hist, (row_sq, row_le, col_sq, col_gt, best_f), offsets = maxima
            t.__dict__["_coo_summary"] = (row_sums, row_max[keep_r], col_sums, col_max[keep_c])
            t.__dict__["_row_offsets"] = offsets  # the cells in CSR form by row, for the sparse matchings
            t.__dict__["_coo_squares"] = (row_sq[keep_r], row_le[keep_r], col_sq[keep_c], col_gt[keep_c],
                                          best_f[keep_r])
            if hist is not None and vals.size:
                t.__dict__["_cell_histogram"] = hist if histogram_pays(hist.size - 1, vals.size) else None
        return t


    @classmethod
    def from_table(cls, table, row_labels=None, col_labels=None) -> Contingency:
        """Table from a 2-D array-like or DataFrame: rows gold classes, columns clusters.

        Cells must be finite and non-negative; integer-valued tables stay integer
        (exact pair counts), fractional ones (ambiguous data) are kept as floats.
        A ``scipy.sparse`` matrix is accepted and never densified. A masked array's masked
        cells are refused (an unknown count is neither the value behind the mask nor 0).
        """
        if type(table) is np.ndarray and table.ndim == 2 and table.size and table.dtype.kind in "iu":
            counted = cls._from_count_array(table, row_labels, col_labels)
            if counted is not None:
                return counted
        return cls._from_cells(*table_cells(table, row_labels, col_labels))

    @classmethod
    def _from_count_array(cls, arr: np.ndarray, row_labels, col_labels) -> Contingency | None:
        """:meth:`from_table` of a 2-D integer array, straight to :meth:`_from_grid` (on a copy:
        the caller's array may change, a table may not) without the coordinate form the general
        path makes and turns back into a grid: the same table, to the last bit. None where
        the general path must decide — a negative cell, a total that might pass ``MAX_TOTAL``,
        an all-zero table, labels of the wrong length — and say why."""
        row_labels = range(arr.shape[0]) if row_labels is None else list(row_labels)
        col_labels = range(arr.shape[1]) if col_labels is None else list(col_labels)
        if (len(row_labels), len(col_labels)) != arr.shape:
            return None
        # A big grid's one compiled pass (the summary every table needs) also finds its smallest
        # and largest cells, where numpy makes two passes; over an int64 array in C order it also
        # writes the table's copy, which then costs no pass of its own.
        if arr.dtype.kind == "u" and arr.dtype.itemsize == 8 and int(arr.max()) >= 1 << 63:
            return None  # past int64: the general path says why
        summary = None
        if arr.dtype == np.int64 and arr.flags.c_contiguous:
            grid = np.empty(arr.shape, dtype=np.int64)
            summary = compiled_summary(arr, copy_to=grid)
        if summary is None:
            grid = np.array(arr, dtype=np.int64, order="C")
            summary = compiled_summary(grid)
        if summary is None:  # small, no numba, or a negative cell
            if grid.min() < 0:
                return None
            top = int(grid.max())
        else:
            top = int(summary[1].max(initial=0))
        if top == 0 or top * grid.size >= MAX_TOTAL:
            return None
        return cls._from_grid(grid, list(row_labels), list(col_labels), summary=summary)

    @classmethod
    def _from_cells(cls, rows, cols, vals, shape, row_labels=None, col_labels=None) -> Contingency:
        """The table of :meth:`from_table` from its cells: (rows[k], cols[k]) holds vals[k], every
        other cell of the ``shape`` table 0. Cells in row-major order give the table that
        ``from_table`` gives for the dense array, to the last bit."""
        refuse_bad_cells(vals, rows, cols)
        vals = normalize_counts(vals)
        row_labels = list(range(shape[0])) if row_labels is None else list(row_labels)
        col_labels = list(range(shape[1])) if col_labels is None else list(col_labels)
        if len(row_labels) != shape[0] or len(col_labels) != shape[1]:
            raise ValueError(
                f"{len(row_labels)} row and {len(col_labels)} column labels for a {shape[0]}×{shape[1]} table"
            )
        return cls._from_coo(rows.astype(np.int64), cols.astype(np.int64), vals, row_labels, col_labels)

    @classmethod
    def from_memberships(cls, gold, clusters, mode: str = "fuzzy") -> Contingency:
        """Table for ambiguous data and soft clusterings (Utt et al. 2014).

        ``gold[i]`` and ``clusters[i]`` give item i's classes and clusters: a single
        label, a collection of labels, or a mapping label → weight.

        ``mode="fuzzy"`` (Utt et al. §3, Tables 1–2): every item carries mass 1, split
        over its gold classes (evenly, or in proportion to the given weights) and added
        in full to every cluster it belongs to (times the cluster weight, 1 if none
        given). ``mode="count"``: every (class, cluster) membership pair of an item
        adds 1 — the "traditional" counting the paper compares against.
        """
        if mode not in ("fuzzy", "count"):
            raise ValueError(f"mode must be 'fuzzy' or 'count', got {mode!r}")
        gold, clusters = list(gold), list(clusters)
        if len(gold) != len(clusters):
            raise ValueError(f"gold and clusters must have the same length, got {len(gold)} and {len(clusters)}")
        if not gold:
            raise ValueError("empty input: gold and clusters hold no items")
        coded = plain_memberships(gold, clusters)
        if coded is not None:
            return cls._from_plain_memberships(coded, mode)
        return cls._from_weighted_memberships(gold, clusters, mode)

    @classmethod
    def _from_plain_memberships(cls, m: Memberships, mode: str) -> Contingency:
        """:meth:`from_memberships` of labels without weights, in arrays
        (:func:`metrics.core.memberships.plain_cells`)."""
        return cls._from_coo(*plain_cells(m, mode))

    @classmethod
    def _from_weighted_memberships(cls, gold: list, clusters: list, mode: str) -> Contingency:
        """:meth:`from_memberships` item by item: any entries, weights included."""
        return cls._from_coo(*weighted_cells(gold, clusters, mode))

    # ------------------------------------------------------------------ views
    @property
    def T(self) -> Contingency:
        """The same table with the roles of classes and clusters swapped."""
        if self.grid is not None:
            t = Contingency.__new__(Contingency)
            t.grid, t.row_labels, t.col_labels = self.grid.T, self.col_labels, self.row_labels
            return t
        return Contingency(self.cols, self.rows, self.values, self.col_labels, self.row_labels)

    @property
    def shape(self) -> tuple[int, int]:
        if "row_labels" not in self.__dict__:  # integer labels not read yet
            return (len(self._integer_labels[0]), len(self._integer_labels[1]))
        return (len(self.row_labels), len(self.col_labels))

    @property
    def is_integer(self) -> bool:
        return (self.values if self.grid is None else self.grid).dtype.kind in "iu"

    def to_dense(self) -> np.ndarray:
        """The full table as an array (refuses tables of more than 10^8 cells)."""
        if self.shape[0] * self.shape[1] > 10**8:
            raise ValueError(f"table of shape {self.shape} is too large to densify")
        if self.grid is not None:
            return self.grid.copy()
        out = np.zeros(self.shape, dtype=self.values.dtype)
        out[self.rows, self.cols] = self.values
        return out

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.to_dense(), index=list(self.row_labels), columns=list(self.col_labels))

    def __repr__(self) -> str:
        return f"Contingency(classes={self.shape[0]}, clusters={self.shape[1]}, n={self.n})"


def pair_counts(t: Contingency) -> tuple:
    """(N11, N10, N01, N00): item pairs together in both; in the same class only; in
    the same cluster only; apart in both. Exact Python ints for integer tables."""
    m, m1, m2, big_n = t.pair_sums
    return (m, m1 - m, m2 - m, big_n - m1 - m2 + m)
