"""The cells of a table: checked, in one dtype, summed by row or column.

A count table's cells are finite and never negative, and its total stays below
:data:`~metrics.core.limits.MAX_TOTAL` so that marginals and pair counts are exact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._lazy import lazy_module
from .limits import MAX_TOTAL

if TYPE_CHECKING:
    import pandas as pd
    from scipy import sparse
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    pd = lazy_module("pandas")
    sparse = lazy_module("scipy.sparse")

__all__ = ["label_array", "refuse_bad_cells", "normalize_counts", "compact_index", "group_sum", "sum_of_group_max",
           "table_cells"]

# Larger totals would overflow int64 marginals (and n^4 in float pair statistics): metrics.core.limits.
_MAX_TOTAL = float(MAX_TOTAL)


def label_array(labels) -> np.ndarray:
    """Labels as a 1-D object array, one entry per label — tuples stay labels (``np.asarray``
    would make a list of equally long tuples a 2-D array)."""
    if isinstance(labels, np.ndarray) and labels.ndim == 1:
        return labels if labels.dtype == object else labels.astype(object)
    labels = list(labels)
    return np.fromiter(labels, dtype=object, count=len(labels))


def compact_index(index: np.ndarray, labels):
    """Renumber ``index`` to 0..k-1 over the values in use, keeping their labels.

    A bincount instead of np.unique: linear time, no sort."""
    labels = label_array(labels)
    if index.size == 0:
        return index, labels[:0]
    present = np.bincount(index, minlength=len(labels)) > 0
    if present.all():
        return index, labels
    new_index = np.cumsum(present) - 1
    return new_index[index], labels[present]


def refuse_bad_cells(vals: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> None:
    """A count table's cells are finite and never negative."""
    if vals.dtype.kind == "f" and not np.isfinite(vals).all():
        raise ValueError("table has NaN or infinite cells")
    if (vals < 0).any():
        k = int(np.flatnonzero(vals < 0)[0])
        raise ValueError(f"table has negative cells, first at row {int(rows[k])}, column {int(cols[k])} ({vals[k]})")


def normalize_counts(vals: np.ndarray) -> np.ndarray:
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


def group_sum(index: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    if values.dtype.kind == "f":
        return np.bincount(index, weights=values, minlength=size)
    out = np.zeros(size, dtype=np.int64)
    if values.size and int(values.max()) * values.size < (1 << 53):
        # bincount adds in float64, exact below 2**53.
        return np.bincount(index, weights=values, minlength=size).astype(np.int64)
    np.add.at(out, index, values)
    return out


def sum_of_group_max(index: np.ndarray, values: np.ndarray, size: int):
    if values.size == 0:
        return 0
    best = np.zeros(size, dtype=values.dtype)
    np.maximum.at(best, index, values)
    return int(best.sum()) if values.dtype.kind in "iu" else float(best.sum())


def table_cells(table, row_labels=None, col_labels=None):
    """The non-zero cells of a 2-D array-like, DataFrame or ``scipy.sparse`` matrix, checked:
    ``(rows, cols, values, shape, row_labels, col_labels)``, labels from a DataFrame's index and
    columns unless given. A sparse matrix is never densified (a cell given more than once adds
    up, as in scipy); a masked array's masked cells are refused."""
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
            # entries and a total past 2^62 are refused first (normalize_counts), so
            # that the sums cannot wrap; on a copy, never on the caller's matrix.
            refuse_bad_cells(coo.data, coo.row, coo.col)
            coo = sparse.coo_matrix((normalize_counts(coo.data), (coo.row, coo.col)), shape=coo.shape)
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
    return rows, cols, np.asarray(vals), shape, row_labels, col_labels
