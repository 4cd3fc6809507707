"""The contingency table and the quantities every measure shares.

Orientation: rows are gold classes C, columns are clusters K. Cell ``n_ij`` is the
number (or, for ambiguous data, the mass) of items of class i in cluster j.

A :class:`Contingency` keeps only its non-zero cells (coordinate form), so a table
with 10^5 clusters and 10^3 classes costs memory proportional to its non-zero cells,
never to their product — except a table counted from labels that fills at least a
quarter of its grid, which keeps the grid (at most as many cells as items).
Counting the labels is :mod:`metrics._counting` (host) and :mod:`metrics._array_api`
(labels on another device). Everything a measure reads — marginals, entropies, pair
sums, per-row and per-column maxima — is computed once, on first use, and cached.

Exactness: integer tables keep integer counts; the pair sums ``Σ C(x, 2)`` are exact
Python integers (no int64 overflow even for cells of 10^12).
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Hashable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from functools import cached_property
from itertools import chain
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.special import xlogy

from . import _array_api, _counting
from ._arith import is_batch, where
from .limits import MAX_TOTAL

__all__ = ["Contingency", "pair_counts"]

# Larger totals would overflow int64 marginals (and n^4 in float pair statistics): metrics.limits.
_MAX_TOTAL = float(MAX_TOTAL)
# Below this total, every pair sum fits int64 (C(n, 2) < 2**62); above, Python ints.
_INT64_SAFE_TOTAL = 1 << 31
# Cells per block when a measure walks a grid table's cells (512 KiB of float64).
_BLOCK_CELLS = 1 << 16
# Grid tables from this many cells have their marginals, maxima and cell histogram
# (_compiled_summary) and their per-cell sums (Contingency.compiled_cell_stats) from compiled
# passes, where numba is installed.
_COMPILED_CELLS = 1 << 16
# Counts 0 … cap − 1 are histogrammed in the compiled summary pass (a table with a bigger
# cell gets its histogram from numpy's bincount, when it asks for it).
_SUMMARY_HIST_CAP = 1 << 12


def _as_1d_labels(labels, name: str):
    """One labeling as a 1-D numpy array — or, for an array of another library
    (CuPy, PyTorch, any array-API array), that array itself, to be counted where it
    lives (:mod:`metrics._array_api`).

    Refuses, with what to pass instead, every input whose iteration would not give one
    label per item in item order: DataFrames (they iterate over column names), mappings
    (keys), sets (no order), strings (characters) and anything 2-D.
    """
    if isinstance(labels, pd.DataFrame):
        cols = list(labels.columns)
        shown = ", ".join(repr(c) for c in cols[:4]) + (", …" if len(cols) > 4 else "")
        example = f"df[{cols[0]!r}]" if cols else "df['gold']"
        raise ValueError(f"{name} is a DataFrame (columns {shown}); it needs one label per item: "
                         f"pass one column, e.g. {example}")
    if isinstance(labels, (pd.Series, pd.Index, pd.api.extensions.ExtensionArray)):
        arr = labels.to_numpy()
    elif isinstance(labels, np.ma.MaskedArray):
        # A masked item has no label (numpy's way of saying missing): refused like NaN, never
        # counted under the value that happens to sit behind the mask.
        masked = np.flatnonzero(np.ma.getmaskarray(labels).ravel()) if labels.ndim == 1 else np.empty(0)
        if masked.size:
            raise ValueError(f"{name} has {masked.size} masked label(s), first at position {int(masked[0])}; drop or "
                             f"fill them first (labels.compressed() keeps the others: drop the same items from both "
                             "sides)")
        arr = np.ma.getdata(labels)
    elif isinstance(labels, Mapping):
        raise ValueError(f"{name} is a {type(labels).__name__}, whose iteration gives its keys: pass one "
                         "label per item in item order, e.g. list(d.values()) if the values are the labels")
    elif isinstance(labels, AbstractSet):
        raise ValueError(f"{name} is a {type(labels).__name__}: a set has no order and no repeats, so it "
                         "cannot give each item its label; pass a list or array with one label per item")
    elif isinstance(labels, (str, bytes, np.generic)) or labels is None:
        raise ValueError(f"{name} must be a 1-D sequence of labels, one per item, got a single "
                         f"{type(labels).__name__}; e.g. pass list(text) for one label per character")
    elif _array_api.is_foreign_array(labels):
        return _array_api.check_labels(labels, name)
    elif hasattr(labels, "__array__") and not isinstance(labels, (list, tuple)):
        arr = np.asarray(labels)  # xarray, pyarrow, polars, dask: numpy's own conversion
    elif not isinstance(labels, Iterable):
        raise ValueError(f"{name} must be a 1-D sequence of labels, one per item, got {type(labels).__name__}")
    else:
        labels = list(labels)
        # Tuples are hashable labels; lists, sets, dicts and arrays are not.
        nested = next((i for i, x in enumerate(labels)
                       if isinstance(x, (list, AbstractSet, Mapping, np.ndarray, pd.Series))), None)
        if nested is not None:
            raise ValueError(
                f"{name} must be 1-D: item {nested} is a {type(labels[nested]).__name__}, not a label. "
                "Pass one label per item (for a list of one-element rows, [row[0] for row in rows]); "
                "for items with several labels use Contingency.from_memberships"
            )
        arr = np.fromiter(labels, dtype=object, count=len(labels))
        # Let numpy pick a compact dtype when every label is a plain number.
        if len(labels) and all(isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))
                               for x in labels):
            try:
                arr = np.asarray(labels, dtype=np.int64)
            except OverflowError:
                pass
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one label per item), got an array of shape {arr.shape}: "
                         f"{_one_column_hint(arr.shape)}")
    return arr


def _one_column_hint(shape) -> str:
    """What to pass instead of an array of this shape."""
    if len(shape) == 0:
        return "a single label is not a labeling; pass a sequence with one label per item"
    if len(shape) == 2 and 1 in shape:
        return "pass it flattened, e.g. arr.ravel() (np.asarray(m).ravel() for a matrix)"
    return "pass one column, e.g. arr[:, 0]"


def _factorize(arr: np.ndarray, name: str, known_bounds=None) -> tuple[np.ndarray, np.ndarray]:
    """Codes 0..k-1 and the k distinct labels (codes may skip unused values).

    Compact non-negative integers (largest below 2n + 1024) are their own codes, their
    labels in increasing order (no pass over the data beyond min/max); anything else
    goes through a hash factorization, never a sort, its labels in order of first
    appearance. Missing (NaN/None/NA) and infinite labels are refused, naming where.
    ``known_bounds``: (lo, hi) of an integer array already measured (lo exact when
    negative, else any lower bound ≥ 0).
    """
    if arr.dtype.kind in "iub" and arr.size:
        lo, hi = known_bounds or _counting.bounds(arr)
        if lo >= 0 and hi < _compact_limit(arr.size):
            return arr, _own_labels(arr.dtype, hi + 1)
    try:
        codes, uniques = pd.factorize(arr, use_na_sentinel=True)
    except TypeError:  # an unhashable label (a list inside an object array)
        bad = next(i for i, x in enumerate(arr) if not isinstance(x, Hashable))
        raise ValueError(f"{name} has an unhashable label ({type(arr[bad]).__name__}) at position {bad}: "
                         "labels must be hashable (use tuples, not lists)") from None
    if arr.size and codes.min() < 0:
        missing = np.flatnonzero(codes < 0)
        raise ValueError(
            f"{name} contains NaN or None: {missing.size} missing label(s), first at position "
            f"{int(missing[0])}; drop or fill them first"
        )
    uniques = np.asarray(uniques, dtype=object) if not isinstance(uniques, np.ndarray) else uniques
    infinite = _infinite_positions(uniques)
    if infinite.size:
        where = np.flatnonzero(np.isin(codes, infinite))
        raise ValueError(
            f"{name} contains infinity: {where.size} infinite label(s) (±inf), first at position "
            f"{int(where[0])}; like NaN, ±inf names no group: drop or replace them first"
        )
    return codes, np.asarray(uniques, dtype=object)


def _infinite_positions(uniques: np.ndarray) -> np.ndarray:
    """Indices of the ±inf values among factorized labels (float, complex or object)."""
    if uniques.dtype.kind in "fc":
        return np.flatnonzero(np.isinf(uniques))
    if uniques.dtype == object:
        return np.array([i for i, u in enumerate(uniques)
                         if isinstance(u, (float, complex, np.floating, np.complexfloating))
                         and not (u != u) and cmath.isinf(u)], dtype=np.int64)
    return np.empty(0, dtype=np.int64)


def _compact_limit(n_items: int) -> int:
    """Non-negative integer labels below this bound are their own codes."""
    return 2 * int(n_items) + 1024


def _own_labels(dtype, k: int) -> np.ndarray:
    """The labels of codes 0..k-1 that are their own labels (booleans stay booleans)."""
    return np.array([False, True][:k], dtype=object) if dtype.kind == "b" else np.arange(k)


def _exact_sum_comb2(values: np.ndarray):
    """Σ C(x, 2) over ``values``: an exact int for integer input, a float otherwise."""
    if values.size == 0:
        return 0
    if values.dtype.kind == "f":
        return float(np.sum(values * (values - 1.0)) / 2.0)
    # Σ C(x, 2) ≤ C(Σx, 2): int64 is exact whenever (Σx)² < 2**63.
    total = int(values.sum(dtype=object)) if values.dtype == object else int(values.astype(np.float64).sum())
    if total < _INT64_SAFE_TOTAL:
        v = values.astype(np.int64)
        return int(np.sum(v * (v - 1) // 2))
    v = values.astype(object)
    return int(sum(v * (v - 1) // 2))


class TableStats:
    """What every measure reads, shared by one table (:class:`Contingency`, Python
    numbers) and a batch of tables (:class:`metrics.batch.TableBatch`, arrays).

    Subclasses provide n, row_sums, col_sums, h_c, h_k, h_ck, mi, pair_sums,
    row_max_sum, col_max_sum, n_classes, n_clusters and the cell-level helpers
    (cell_sums, row_max_of, row_total).
    """

    # Per-cell sums from one compiled pass, where a table has them (Contingency's big grids);
    # None makes the measures walk the cells (cell_sums, row_max_of).
    compiled_cell_stats = None

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
        return where(self._whole_classes, np.minimum(self.h_k, mi) if is_batch(mi) else min(self.h_k, mi), mi)

    @cached_property
    def h_c_given_k(self):
        """H(C|K) in nats."""
        return where(self._pure_clusters, 0.0, np.maximum(self.h_c - self.mi, 0.0))

    @cached_property
    def h_k_given_c(self):
        """H(K|C) in nats."""
        return where(self._whole_classes, 0.0, np.maximum(self.h_k - self.mi, 0.0))


class Contingency(TableStats):
    """A class-by-cluster contingency table with its shared quantities cached.

    Build one with :meth:`from_labels`, :meth:`from_table` or :meth:`from_memberships`.
    Empty rows and columns are dropped: they change no measure.

    Attributes read by the measures (all cached on first use):
    ``n``, ``row_sums`` (class sizes ``a_i``), ``col_sums`` (cluster sizes ``b_j``),
    ``h_c``, ``h_k``, ``h_ck`` (entropies in nats), ``mi``, ``pair_sums``,
    ``row_max_sum`` (Σ_i max_j n_ij), ``col_max_sum`` (Σ_j max_i n_ij).

    Storage: the non-zero cells in coordinate form (``rows``, ``cols``, ``values``), or,
    for a table counted from labels that is at least a quarter full, the dense count
    ``grid`` itself (then the coordinates are made on first use). ``grid`` is None for
    coordinate tables. Either way every attribute and measure gives the same values.
    """

    grid: np.ndarray | None = None

    def __init__(self, rows, cols, values, row_labels, col_labels):
        # Internal: callers use the from_* constructors, which validate.
        self.rows = rows
        self.cols = cols
        self.values = values
        self.row_labels = row_labels
        self.col_labels = col_labels

    # Coordinates of a grid table, made when first read.
    @cached_property
    def _coo(self):
        flat = np.flatnonzero(self.grid)
        n_c = self.grid.shape[1]
        return flat // n_c, flat % n_c, self.grid.reshape(-1)[flat]

    @cached_property
    def rows(self) -> np.ndarray:
        """Class index of each non-zero cell."""
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
    def _from_coo(cls, rows, cols, values, row_labels, col_labels) -> "Contingency":
        """Drop zero cells and empty rows/columns, and relabel to 0..R-1, 0..C-1.

        Integer cells that fill a quarter of the R × C table or more are stored as a grid,
        as ``_from_grid`` stores them: whichever way a table was built (a grid of label
        codes, hashed label pairs with codes that skip values, a table with empty rows),
        the same cells give every measure to the last bit."""
        keep = values != 0
        if not keep.all():
            rows, cols, values = rows[keep], cols[keep], values[keep]
        rows, row_labels = _compact(rows, row_labels)
        cols, col_labels = _compact(cols, col_labels)
        n_r, n_c = len(row_labels), len(col_labels)
        if values.dtype.kind in "iu" and values.size and 4 * values.size >= n_r * n_c:
            grid = np.zeros((n_r, n_c), dtype=np.int64)
            grid[rows, cols] = values
            return cls._from_grid(grid, row_labels, col_labels)
        return cls(rows.astype(np.int64, copy=False), cols.astype(np.int64, copy=False),
                   values, np.asarray(row_labels, dtype=object), np.asarray(col_labels, dtype=object))

    @classmethod
    def _from_grid(cls, grid: np.ndarray, row_labels, col_labels) -> "Contingency":
        """A table from a dense count grid (int64): empty rows and columns dropped.

        A grid at least a quarter full is kept as it is — the marginals, maxima and
        per-cell sums of a 1000 × 1000 table are then single vectorized reductions —
        and its coordinate form (``rows``, ``cols``, ``values``) is made only if asked
        for. A sparser grid is turned into coordinates at once.
        """
        row_labels, col_labels = np.asarray(row_labels, dtype=object), np.asarray(col_labels, dtype=object)
        summary = _compiled_summary(grid)
        if summary is None:
            row_sums, col_sums = grid.sum(axis=1), grid.sum(axis=0)
        else:
            row_sums, row_max, col_sums, col_max, n_cells, hist = summary
        keep_r, keep_c = row_sums > 0, col_sums > 0
        if not keep_r.all():
            grid, row_labels, row_sums = grid[keep_r], row_labels[keep_r], row_sums[keep_r]
            if summary is not None:
                row_max = row_max[keep_r]
        if not keep_c.all():
            grid, col_labels, col_sums = grid[:, keep_c], col_labels[keep_c], col_sums[keep_c]
            if summary is not None:
                col_max = col_max[keep_c]
        if summary is None:
            n_cells = int(np.count_nonzero(grid))
        if 4 * n_cells < grid.size:
            flat = np.flatnonzero(grid)
            n_c = grid.shape[1]
            return cls(flat // n_c, flat % n_c, grid.reshape(-1)[flat], row_labels, col_labels)
        t = cls.__new__(cls)
        t.grid = np.ascontiguousarray(grid)
        t.row_labels, t.col_labels = row_labels, col_labels
        t.__dict__.update(row_sums=row_sums, col_sums=col_sums, n_cells=n_cells)
        if summary is not None:
            # The values the cached properties would compute, from the same pass.
            t.__dict__.update(row_max_sum=int(row_max.sum()), col_max_sum=int(col_max.sum()))
            if hist is not None:
                hist = hist[:int(row_max.max()) + 1]
                hist[0] = grid.size - n_cells  # the dropped empty rows and columns held zeros
                t.__dict__["_cell_histogram"] = hist
        return t

    @classmethod
    def from_labels(cls, labels_true, labels_pred) -> "Contingency":
        """Table of two hard labelings of the same items (any hashable labels).

        ``labels_true`` gives each item's gold class, ``labels_pred`` its cluster: lists,
        tuples, numpy arrays of any dtype, pandas Series or Index — or arrays of another
        library (CuPy, PyTorch, any array-API array), which are counted on their own
        device; only the table comes back to the host (see :mod:`metrics._array_api`).

        Compact non-negative integer labels (largest below 2n + 1024) are their own codes
        and keep their numeric order; other labels are hashed, in order of first
        appearance (labels on a device: in sorted order). Tuples are labels.

        Raises ``ValueError``, saying what to pass instead, on empty or mismatched input,
        input that is not 1-D (a 2-D array, an (n, 1) column, nested lists), a DataFrame
        (pass one column), a mapping or a set, a string, and on missing (NaN/None) or
        infinite labels.
        """
        t = _as_1d_labels(labels_true, "labels_true")
        p = _as_1d_labels(labels_pred, "labels_pred")
        if isinstance(t, _array_api.DeviceLabels) or isinstance(p, _array_api.DeviceLabels):
            counted = _array_api.count_on_device(t, p)
            if counted.grid is not None:
                return cls._from_grid(counted.grid, counted.row_labels, counted.col_labels)
            return cls._from_coo(counted.rows, counted.cols, counted.values, counted.row_labels, counted.col_labels)
        if t.size != p.size:
            raise ValueError(
                f"labels_true and labels_pred must have the same length, got {t.size} and {p.size}"
            )
        if t.size == 0:
            raise ValueError("empty input: labels_true and labels_pred hold no items")
        n = t.size
        limit = _counting.dense_cell_limit(n)
        if t.dtype.kind in "iub" and p.dtype.kind in "iub":
            # Both sides may be compact integers: count them in one pass, guessing the grid.
            counted = _counting.count_grid_guessing(t, p, limit, _compact_limit(n))
            if isinstance(counted, np.ndarray):
                return cls._from_grid(counted, _own_labels(t.dtype, counted.shape[0]),
                                      _own_labels(p.dtype, counted.shape[1]))
            bounds_t, bounds_p = counted[:2], counted[2:]
        else:
            bounds_t = bounds_p = None
        tc, tu = _factorize(t, "labels_true", bounds_t)
        pc, pu = _factorize(p, "labels_pred", bounds_p)
        n_r, n_c = len(tu), len(pu)
        if n_r * n_c <= limit:
            return cls._from_grid(_counting.count_grid(tc, pc, n_r, n_c), tu, pu)
        # Too many possible cells for a grid: hash the distinct (class, cluster) keys.
        keys = np.multiply(tc, n_c, dtype=np.int64)
        keys += pc
        codes, uniq = pd.factorize(keys, sort=False)
        vals = np.bincount(codes)
        return cls._from_coo(uniq // n_c, uniq % n_c, vals.astype(np.int64), tu, pu)

    @classmethod
    def from_table(cls, table, row_labels=None, col_labels=None) -> "Contingency":
        """Table from a 2-D array-like or DataFrame: rows gold classes, columns clusters.

        Cells must be finite and non-negative; integer-valued tables stay integer
        (exact pair counts), fractional ones (ambiguous data) are kept as floats.
        A ``scipy.sparse`` matrix is accepted and never densified. A masked array's masked
        cells are refused (an unknown count is neither the value behind the mask nor 0).
        """
        if isinstance(table, pd.DataFrame):
            row_labels = list(table.index) if row_labels is None else row_labels
            col_labels = list(table.columns) if col_labels is None else col_labels
            table = table.to_numpy()
        if sparse.issparse(table):
            coo = sparse.coo_matrix(table)
            if coo.data.dtype.kind not in "iufb":
                raise ValueError(f"table cells must be numbers, got dtype {coo.data.dtype}")
            if not coo.has_canonical_format:
                # scipy's meaning of a cell given more than once: its entries add up. Bad
                # entries and a total past 2^62 are refused first (_normalize_counts), so
                # that the sums cannot wrap; on a copy, never on the caller's matrix.
                _refuse_bad_cells(coo.data, coo.row, coo.col)
                coo = sparse.coo_matrix((_normalize_counts(coo.data), (coo.row, coo.col)), shape=coo.shape)
                coo.sum_duplicates()
            shape = coo.shape
            rows, cols, vals = coo.row.astype(np.int64), coo.col.astype(np.int64), coo.data
        else:
            if isinstance(table, (list, tuple)) and table and all(isinstance(r, (list, tuple, np.ndarray)) for r in table):
                lengths = {len(r) for r in table}
                if len(lengths) > 1:
                    raise ValueError(f"ragged table: rows have different lengths {sorted(lengths)}")
            if isinstance(table, np.ma.MaskedArray):
                # A masked cell is an unknown count: refused (not read as the value behind the mask,
                # nor as 0, which would state that the cell holds no items).
                masked = np.argwhere(np.ma.getmaskarray(table)) if table.ndim == 2 else np.empty((0, 2))
                if masked.size:
                    i, j = (int(x) for x in masked[0])
                    raise ValueError(f"table has {len(masked)} masked cell(s), first at row {i}, column {j}: fill them "
                                     "(table.filled(0) if they hold no items) or leave those rows out")
                table = np.ma.getdata(table)
            try:
                arr = np.asarray(table)
            except ValueError as exc:  # numpy refuses some ragged inputs outright
                raise ValueError(f"table is not rectangular: {exc}") from None
            if arr.dtype == object:
                try:
                    arr = arr.astype(np.float64)
                except (TypeError, ValueError):
                    raise ValueError("table cells must be numbers (found text or ragged rows)") from None
            if arr.size == 0:
                raise ValueError(f"empty table (shape {arr.shape}): it needs at least one cell")
            if arr.ndim != 2:
                raise ValueError(f"table must be 2-D (rows = classes, columns = clusters), got {arr.ndim}-D")
            if arr.dtype.kind not in "iufb":
                raise ValueError(f"table cells must be numbers, got dtype {arr.dtype}")
            shape = arr.shape
            rows, cols = np.nonzero(arr)
            vals = arr[rows, cols]
            bad = None
            if arr.dtype.kind == "f":
                if np.isnan(arr).any():
                    bad = "NaN"
                elif np.isinf(arr).any():
                    bad = "infinite"
            if bad:
                i, j = np.argwhere(~np.isfinite(arr))[0]
                raise ValueError(f"table has {bad} cells, first at row {i}, column {j}")
        return cls._from_cells(rows, cols, np.asarray(vals), shape, row_labels, col_labels)

    @classmethod
    def _from_cells(cls, rows, cols, vals, shape, row_labels=None, col_labels=None) -> "Contingency":
        """The table of :meth:`from_table` from its cells: (rows[k], cols[k]) holds vals[k], every
        other cell of the ``shape`` table 0. Cells in row-major order give the table that
        ``from_table`` gives for the dense array, to the last bit."""
        _refuse_bad_cells(vals, rows, cols)
        vals = _normalize_counts(vals)
        row_labels = list(range(shape[0])) if row_labels is None else list(row_labels)
        col_labels = list(range(shape[1])) if col_labels is None else list(col_labels)
        if len(row_labels) != shape[0] or len(col_labels) != shape[1]:
            raise ValueError(
                f"{len(row_labels)} row and {len(col_labels)} column labels for a {shape[0]}×{shape[1]} table"
            )
        return cls._from_coo(rows.astype(np.int64), cols.astype(np.int64), vals, row_labels, col_labels)

    @classmethod
    def from_memberships(cls, gold, clusters, mode: str = "fuzzy") -> "Contingency":
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
        coded = _plain_memberships(gold, clusters)
        if coded is not None:
            return cls._from_plain_memberships(coded, mode)
        return cls._from_weighted_memberships(gold, clusters, mode)

    @classmethod
    def _from_plain_memberships(cls, m: "_Memberships", mode: str) -> "Contingency":
        """:meth:`from_memberships` of labels without weights, in arrays: the same cells, in the
        same order, with the same sums as the per-item loop of :meth:`_from_weighted_memberships`
        (a cell's additions run in item order in both: ``np.bincount`` adds its weights in input
        order), at a fraction of its cost."""
        g_pos, c_pos = _pair_positions(m.g_items, m.c_items, m.n_items)
        n_q = len(m.c_labels)
        key = m.g_codes[g_pos] * n_q + m.c_codes[c_pos]
        uniq, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        order = np.argsort(first)                    # cells in the order they first occur
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        cell = rank[inverse.reshape(-1)]
        if mode == "fuzzy":                          # mass 1 over the item's d classes: 1/d each
            g_count = np.bincount(m.g_items, minlength=m.n_items).astype(np.float64)
            vals = np.bincount(cell, weights=1.0 / g_count[m.g_items[g_pos]], minlength=order.size)
        else:
            vals = np.bincount(cell, minlength=order.size).astype(np.float64)
        key = uniq[order]
        return cls._from_coo(key // n_q, key % n_q, _normalize_counts(vals), list(m.g_labels), list(m.c_labels))

    @classmethod
    def _from_weighted_memberships(cls, gold: list, clusters: list, mode: str) -> "Contingency":
        """:meth:`from_memberships` item by item: any entries, weights included (the reference
        the array path of :meth:`_from_plain_memberships` matches exactly)."""
        cells: dict[tuple[Hashable, Hashable], float] = {}
        for i, (g, k) in enumerate(zip(gold, clusters)):
            gw, kw = _weights(g, "gold", i), _weights(k, "clusters", i)
            if mode == "fuzzy":
                total = sum(gw.values())
                gw = {c: w / total for c, w in gw.items()}
            else:
                gw = dict.fromkeys(gw, 1.0)
                kw = dict.fromkeys(kw, 1.0)
            for c, wc in gw.items():
                for q, wq in kw.items():
                    cells[(c, q)] = cells.get((c, q), 0.0) + wc * wq
        row_labels = list(dict.fromkeys(c for c, _ in cells))
        col_labels = list(dict.fromkeys(q for _, q in cells))
        r_index = {c: i for i, c in enumerate(row_labels)}
        c_index = {q: j for j, q in enumerate(col_labels)}
        rows = np.fromiter((r_index[c] for c, _ in cells), dtype=np.int64, count=len(cells))
        cols = np.fromiter((c_index[q] for _, q in cells), dtype=np.int64, count=len(cells))
        vals = _normalize_counts(np.fromiter(cells.values(), dtype=np.float64, count=len(cells)))
        return cls._from_coo(rows, cols, vals, row_labels, col_labels)

    # ------------------------------------------------------------------ views
    @property
    def T(self) -> "Contingency":
        """The same table with the roles of classes and clusters swapped."""
        if self.grid is not None:
            t = Contingency.__new__(Contingency)
            t.grid, t.row_labels, t.col_labels = self.grid.T, self.col_labels, self.row_labels
            return t
        return Contingency(self.cols, self.rows, self.values, self.col_labels, self.row_labels)

    @property
    def shape(self) -> tuple[int, int]:
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

    # ------------------------------------------------------------------ shared quantities
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
        return _group_sum(self.rows, self.values, self.shape[0])

    @cached_property
    def col_sums(self) -> np.ndarray:
        """Cluster sizes b_j."""
        if self.grid is not None:
            return self.grid.sum(axis=0)
        return _group_sum(self.cols, self.values, self.shape[1])

    @cached_property
    def n(self):
        """Number of items (total mass for fuzzy tables); a Python int or float.
        (Totals are below 2^62, so the int64 sum cannot overflow.)"""
        total = self.values.sum() if self.grid is None else self.row_sums.sum()
        return int(total) if self.is_integer else float(total)

    @cached_property
    def log_n(self) -> float:
        return math.log(self.n) if self.n > 0 else 0.0

    @staticmethod
    def _sum_xlogx(counts: np.ndarray) -> float:
        c = counts.astype(np.float64, copy=False)
        return float(np.sum(xlogy(c, c)))

    @cached_property
    def _xlogx(self) -> tuple[float, float, float]:
        """Σ x log x over class sizes, cluster sizes and cells: the one pass over the
        cells that all four entropies share."""
        hist = self._cell_histogram
        if hist is not None:
            cells = float(np.dot(hist, xlogy(self._hist_values, self._hist_values)))
        else:
            cells = self._sum_xlogx(self.values)
        return (self._sum_xlogx(self.row_sums), self._sum_xlogx(self.col_sums), cells)

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
        if not _histogram_pays(top, cells.size):
            return None
        return np.bincount(cells.reshape(-1), minlength=top + 1)

    @property
    def _hist_values(self) -> np.ndarray:
        return np.arange(self._cell_histogram.size, dtype=np.float64)

    def _entropy(self, sum_xlogx: float) -> float:
        """H = log n − (1/n) Σ x log x, in nats, never negative."""
        if self.n <= 0:
            return 0.0
        return max(self.log_n - sum_xlogx / float(self.n), 0.0)

    @cached_property
    def _h_c_raw(self) -> float:
        return self._entropy(self._xlogx[0])

    @cached_property
    def _h_k_raw(self) -> float:
        return self._entropy(self._xlogx[1])

    @cached_property
    def _h_ck_raw(self) -> float:
        return self._entropy(self._xlogx[2])

    @cached_property
    def _mi_raw(self) -> float:
        # I = H(C) + H(K) − H(C,K) = log n + (Σ cells x log x − Σ rows − Σ cols) / n
        if self.n <= 0:
            return 0.0
        rows, cols, cells = self._xlogx
        return self.log_n + (cells - rows - cols) / float(self.n)

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
        return self.values.min().item()

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
        m = _exact_sum_comb2(self.values) if hist is None else _comb2_from_histogram(hist, n)
        return (m, _exact_sum_comb2(self.row_sums), _exact_sum_comb2(self.col_sums), big_n)

    @cached_property
    def row_max_sum(self):
        """Σ_i max_j n_ij: each class's best cluster (inverse purity · n)."""
        if self.grid is not None:
            return int(self.grid.max(axis=1).sum()) if self.n_cells else 0
        return _sum_of_group_max(self.rows, self.values, self.shape[0])

    @cached_property
    def col_max_sum(self):
        """Σ_j max_i n_ij: each cluster's majority class (purity · n)."""
        if self.grid is not None:
            return int(self.grid.max(axis=0).sum()) if self.n_cells else 0
        return _sum_of_group_max(self.cols, self.values, self.shape[1])

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
        and the element-centric similarity of a 1000 × 1000 grid: 25 → 8 ms)."""
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
    def compiled_cell_stats(self) -> tuple[float, float, float, np.ndarray] | None:
        """(Σ n_ij²/b_j, Σ n_ij²/a_i, Σ n_ij²/max(a_i, b_j), each row's max_j 2 n_ij/(a_i + b_j))
        from one compiled pass over a grid table of at least ``_COMPILED_CELLS`` cells
        (:func:`metrics._numba_kernels.grid_cell_stats`); None for other tables or without
        numba. BCubed, the element-centric similarity and F read it where it is not None and
        walk the cells in blocks (:meth:`cell_sums`, :meth:`row_max_of`) otherwise: the same
        values up to rounding (tested against each other), at a fifth of the time on a
        1000 × 1000 grid (13.5 → 2.4 ms), whose blocks pay for float copies and temporaries of
        every cell."""
        if self.grid is None or self.grid.size < _COMPILED_CELLS:
            return None
        kernels = _counting.compiled_kernels()
        if kernels is None:
            return None
        a = self.row_sums.astype(np.float64)
        b = self.col_sums.astype(np.float64)
        row_sq, row_le, col_sq, col_gt, best_f = kernels.grid_cell_stats(np.ascontiguousarray(self.grid), a, b)
        # A grid keeps no empty row or column, so no size is 0 here.
        return (float(np.sum(col_sq / b)), float(np.sum(row_sq / a)),
                float(np.sum(row_le / a) + np.sum(col_gt / b)), best_f)

    def cell_sums(self, per_cell) -> tuple[float, ...]:
        """Σ over the cells of each array in the tuple ``per_cell(n, a, b)``."""
        totals = None
        for n, a, b in self._cell_blocks():
            parts = [float(np.sum(x)) for x in per_cell(n, a, b)]
            totals = parts if totals is None else [t + p for t, p in zip(totals, parts)]
        return tuple(totals)

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


def _compiled_summary(grid: np.ndarray):
    """(row sums, row maxima, column sums, column maxima, non-zero cells, cell histogram or
    None) of a big integer grid from one compiled pass (:func:`metrics._numba_kernels.grid_summary`),
    or None: a small or fractional grid, or no numba. The histogram is None when some cell
    reaches ``_SUMMARY_HIST_CAP`` (the numpy bincount then sizes it, if it is kept at all)."""
    if grid.size < _COMPILED_CELLS or grid.dtype.kind not in "iu" or grid.size == 0:
        return None
    kernels = _counting.compiled_kernels()
    if kernels is None:
        return None
    row_sums, row_max, col_sums, col_max, nonzero, hist, complete = kernels.grid_summary(
        np.ascontiguousarray(grid), _SUMMARY_HIST_CAP)
    return row_sums, row_max, col_sums, col_max, int(nonzero), hist if complete else None


def _compact(index: np.ndarray, labels):
    """Renumber ``index`` to 0..k-1 over the values in use, keeping their labels.

    A bincount instead of np.unique: linear time, no sort."""
    labels = np.asarray(labels, dtype=object) if not isinstance(labels, np.ndarray) else labels
    if index.size == 0:
        return index, labels[:0]
    present = np.bincount(index, minlength=len(labels)) > 0
    if present.all():
        return index, labels
    new_index = np.cumsum(present) - 1
    return new_index[index], labels[present]


def _weights(entry, name: str, i: int) -> dict:
    if isinstance(entry, Mapping):
        w = {k: float(v) for k, v in entry.items() if v}
        if any((not math.isfinite(v)) or v < 0 for v in w.values()):
            raise ValueError(f"{name}[{i}] has a negative or non-finite weight")
    elif isinstance(entry, (str, bytes)) or not isinstance(entry, Iterable):
        w = {entry: 1.0}
    else:
        w = dict.fromkeys(entry, 1.0)
    if not w:
        raise ValueError(f"{name}[{i}] is empty: every item needs at least one label")
    if any(k is None or (isinstance(k, float) and math.isnan(k)) for k in w):
        raise ValueError(f"{name}[{i}] has a missing label (NaN/None)")
    return w


# Entries the array path of from_memberships reads without a check per item (exact types):
# collections of labels, and single labels. Anything else — a mapping of weights, an array, a
# generator, another object — goes item by item (``_weights``), which also words every refusal.
_LABEL_COLLECTIONS = frozenset({tuple, list, set, frozenset})
_SINGLE_LABELS = frozenset({int, float, str, bytes, bool, np.int64, np.int32, np.float64, np.str_})


class _Memberships(NamedTuple):
    """Memberships of items without weights, as arrays. ``g_items[j]``/``g_codes[j]``: the item
    and class (an index into ``g_labels``) of the j-th class membership, in item order and each
    item's own order, repeats within an item dropped; the same for clusters. Labels are numbered
    in the order they first occur."""

    g_items: np.ndarray
    g_codes: np.ndarray
    g_labels: list
    c_items: np.ndarray
    c_codes: np.ndarray
    c_labels: list
    n_items: int


def _plain_memberships(gold: list, clusters: list) -> _Memberships | None:
    """The memberships of two equally long, non-empty lists of entries as arrays, or None when
    an entry is not a plain label or collection of labels, is empty, or holds a missing label
    (NaN/None): the caller then goes item by item, which refuses the bad entry in its words."""
    g, c = _label_codes(gold), _label_codes(clusters)
    if g is None or c is None:
        return None
    return _Memberships(*g, *c, len(gold))


def _label_codes(entries: list):
    kinds = set(map(type, entries))
    if not kinds <= _LABEL_COLLECTIONS | _SINGLE_LABELS:
        return None
    if not kinds <= _LABEL_COLLECTIONS:
        entries = [e if type(e) in _LABEL_COLLECTIONS else (e,) for e in entries]
    lengths = np.fromiter(map(len, entries), dtype=np.int64, count=len(entries))
    if lengths.min() == 0:
        return None
    flat = list(chain.from_iterable(entries))
    try:
        index = dict.fromkeys(flat)                     # labels in the order they first occur
    except TypeError:                                   # unhashable: refused item by item
        return None
    labels = list(index)
    if None in index or (any(issubclass(t, float) for t in set(map(type, labels)))
                         and any(isinstance(k, float) and math.isnan(k) for k in labels)):
        return None                                     # a missing label (NaN/None)
    index = {k: i for i, k in enumerate(labels)}
    codes = np.fromiter(map(index.__getitem__, flat), dtype=np.int64, count=len(flat))
    items = np.repeat(np.arange(len(entries), dtype=np.int64), lengths)
    if lengths.max() > 1:                               # a label repeated within an item counts once
        _, first = np.unique(items * len(labels) + codes, return_index=True)
        if first.size < codes.size:
            first.sort()
            items, codes = items[first], codes[first]
    return items, codes, labels


def _pair_positions(g_items: np.ndarray, c_items: np.ndarray, n_items: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions in the class and the cluster memberships of every (class, cluster) pair of an
    item, item by item, each class with each of the item's clusters in turn (|G|·|K| per item)."""
    c_count = np.bincount(c_items, minlength=n_items)
    c_start = np.cumsum(c_count) - c_count
    reps = c_count[g_items]                             # each class membership, once per cluster
    g_pos = np.repeat(np.arange(g_items.size), reps)
    block = np.repeat(np.cumsum(reps) - reps, reps)     # where each repeated block starts
    c_pos = c_start[g_items[g_pos]] + np.arange(g_pos.size) - block
    return g_pos, c_pos


def _comb2_from_histogram(hist: np.ndarray, n: int) -> int:
    """Σ C(x, 2) over cells given as a histogram of their counts, exactly."""
    if n < _INT64_SAFE_TOTAL:  # every term, and the sum, is at most C(n, 2) < 2^62
        v = np.arange(hist.size, dtype=np.int64)
        return int(np.dot(hist, v * (v - 1) // 2))
    return sum(int(h) * math.comb(int(v), 2) for v, h in zip(np.flatnonzero(hist), hist[hist > 0]))


def _histogram_pays(top: int, n_cells: int) -> bool:
    """Whether whole-count cells with largest value ``top`` are better summed by a histogram
    of the values 0 … top (one pass, then one term per distinct value) than cell by cell:
    it bounds the histogram to a few times the cells, however large one count is."""
    return top <= 4 * n_cells + 1024


def _refuse_bad_cells(vals: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> None:
    """A count table's cells are finite and never negative."""
    if vals.dtype.kind == "f" and not np.isfinite(vals).all():
        raise ValueError("table has NaN or infinite cells")
    if (vals < 0).any():
        k = int(np.flatnonzero(vals < 0)[0])
        raise ValueError(f"table has negative cells, first at row {int(rows[k])}, column {int(cols[k])} ({vals[k]})")


def _normalize_counts(vals: np.ndarray) -> np.ndarray:
    """Integer-valued cells become int64; fractional ones float64. Refuses totals
    that would overflow (checked before any cast, so uint64 cannot wrap)."""
    with np.errstate(over="ignore"):  # a float total may overflow to inf: refused below
        total = float(np.sum(vals, dtype=np.float64)) if vals.size else 0.0
    if not total < _MAX_TOTAL:
        raise ValueError(
            f"the table's total {total:.3g} is too large: at most 2^62 (about 4.6e18) items, "
            "so that marginals, pair counts and their products stay exact and finite"
        )
    if vals.dtype.kind == "b":
        return vals.astype(np.int64)
    if vals.dtype.kind in "iu":
        return vals.astype(np.int64)
    if vals.dtype.kind == "f" and (vals.size == 0 or (np.all(vals == np.floor(vals)) and vals.max() < 2**62)):
        return vals.astype(np.int64)
    return vals.astype(np.float64)


def _group_sum(index: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    if values.dtype.kind == "f":
        return np.bincount(index, weights=values, minlength=size)
    out = np.zeros(size, dtype=np.int64)
    if values.size and int(values.max()) * values.size < (1 << 53):
        # bincount adds in float64, exact below 2**53.
        return np.bincount(index, weights=values, minlength=size).astype(np.int64)
    np.add.at(out, index, values)
    return out


def _sum_of_group_max(index: np.ndarray, values: np.ndarray, size: int):
    if values.size == 0:
        return 0
    best = np.zeros(size, dtype=values.dtype)
    np.maximum.at(best, index, values)
    return int(best.sum()) if values.dtype.kind in "iu" else float(best.sum())


def pair_counts(t: Contingency) -> tuple:
    """(N11, N10, N01, N00): item pairs together in both; in the same class only; in
    the same cluster only; apart in both. Exact Python ints for integer tables."""
    m, m1, m2, big_n = t.pair_sums
    return (m, m1 - m, m2 - m, big_n - m1 - m2 + m)
