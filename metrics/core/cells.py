"""The cells of a table: checked, in one dtype, summed by row or column.

A count table's cells are finite and never negative, and its total stays below
:data:`~metrics.core.limits.MAX_TOTAL` so that marginals and pair counts are exact.
"""

from __future__ import annotations

import warnings
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
           "distinct_sizes",
           "table_cells", "union_codes", "summed_cells", "MergeableTable", "merge_tables"]

# Larger totals would overflow int64 marginals (and n^4 in float pair statistics): metrics.core.limits.
_MAX_TOTAL = float(MAX_TOTAL)


def label_array(labels) -> np.ndarray:
    """Labels as a 1-D object array, one entry per label — tuples stay labels (``np.asarray``
    would make a list of equally long tuples a 2-D array)."""
    if isinstance(labels, np.ndarray) and labels.ndim == 1:
        return labels if labels.dtype == object else labels.astype(object)
    labels = list(labels)
    return np.fromiter(labels, dtype=object, count=len(labels))


def distinct_sizes(sizes) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of ``sizes`` (a table's class or cluster sizes) in ascending order and
    how often each occurs: ``np.unique(sizes, return_counts=True)``, the same arrays. Whole sizes
    no larger than a few times their number (many classes of a few items each) are tallied by a
    bincount, a pass, where ``np.unique`` sorts them."""
    sizes = np.asarray(sizes)
    if sizes.dtype.kind in "iu" and sizes.size and sizes.min() >= 0 and sizes.max() <= 4 * sizes.size + 1024:
        tally = np.bincount(sizes.astype(np.intp, copy=False))  # uint64: numpy before 2 will not cast it
        values = np.flatnonzero(tally)
        return values.astype(sizes.dtype), tally[values]
    return np.unique(sizes, return_counts=True)


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
        shape = coo.shape
        rows, cols, vals = _distinct_cells(coo.row.astype(np.int64), coo.col.astype(np.int64), coo.data, shape)
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


def _distinct_cells(rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, shape: tuple[int, int]):
    """A sparse matrix's entries as distinct cells in row-major order: scipy's meaning of a cell
    given more than once (its entries add up), as ``sum_duplicates`` gives it.

    Why not ``coo.sum_duplicates()``: scipy cannot know that a matrix it did not sort itself
    is canonical (``coo_matrix(coo)`` forgets the flag), so it lexsorts every entry again, some
    200 times the cost of reading them. Entries whose row-major keys already increase — every
    matrix scipy sorted, whatever its format — are checked in one pass; the others are sorted
    once by that key (stable: duplicates add up in the order given). Bad entries and a total
    past 2^62 are refused first (normalize_counts), so that the sums cannot wrap."""
    if rows.size < 2:
        return rows, cols, vals
    if shape[0] * shape[1] >= 1 << 62:  # keys past int64: rows and columns sorted apart
        order = np.lexsort((cols, rows))
        keys = None
    else:
        keys = rows * shape[1] + cols
        if bool(np.all(keys[1:] > keys[:-1])):
            return rows, cols, vals
        order = np.argsort(keys, kind="stable")
    refuse_bad_cells(vals, rows, cols)
    vals = normalize_counts(vals)
    rows, cols, vals = rows[order], cols[order], vals[order]
    if keys is None:
        first = np.r_[True, (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])]
    else:
        keys = keys[order]
        first = np.r_[True, keys[1:] != keys[:-1]]
    if first.all():
        return rows, cols, vals
    starts = np.flatnonzero(first)
    return rows[starts], cols[starts], np.add.reduceat(vals, starts)


# ---------------------------------------------------------------------- tables that merge
def union_codes(label_lists) -> tuple[list[np.ndarray], np.ndarray]:
    """The union of several tables' labels (each a sequence of distinct labels), in the one label
    order (:func:`metrics.core.labels.sorted_codes`: sorted where the labels can be ordered, else in
    order of first appearance, table after table), and each table's labels as codes into it."""
    arrays = [label_array(x) for x in label_lists]
    first = arrays[0] if arrays else None
    if first is not None and all(a is first or (a.size == first.size and _same_labels(a, first)) for a in arrays):
        # Every table has the same labels (mini-batches that each saw every class): no union to make.
        codes = np.arange(first.size, dtype=np.int64)
        return [codes] * len(arrays), first
    numeric = _numeric_union(arrays)
    if numeric is not None:
        return numeric
    joined = np.concatenate(arrays) if arrays else np.empty(0, dtype=object)
    with warnings.catch_warnings():
        # pandas warns while it tries to order tuples among other labels; unorderable labels
        # keep their order of first appearance.
        warnings.simplefilter("ignore")
        try:
            # use_na_sentinel=False: a table's labels are what its caller named them (from_table
            # accepts a None label), never a missing value to drop.
            codes, uniques = pd.factorize(joined, sort=True, use_na_sentinel=False)
        except TypeError:  # labels that cannot be ordered
            codes, uniques = pd.factorize(joined, sort=False, use_na_sentinel=False)
    splits = np.cumsum([a.size for a in arrays])[:-1]
    return np.split(codes.astype(np.int64, copy=False), splits), label_array(uniques)


def _numeric_union(arrays: list[np.ndarray]):
    """:func:`union_codes` of labels that are all Python ints, or all floats (what from_labels
    makes of integer or float labels), through numpy's sort instead of a sort of objects; None
    for any other labels."""
    kinds = {type(x) for a in arrays for x in a}
    if kinds not in ({int}, {float}):
        return None
    dtype = np.int64 if kinds == {int} else np.float64
    try:
        values = [a.astype(dtype) for a in arrays]
    except OverflowError:  # an int past int64
        return None
    # Each table's labels are sorted already: a stable sort merges the runs; then the repeats go.
    joined = np.concatenate(values)
    joined.sort(kind="stable")
    labels = joined[np.concatenate(([True], joined[1:] != joined[:-1]))] if joined.size else joined
    return [np.searchsorted(labels, v).astype(np.int64, copy=False) for v in values], labels.astype(object)


def _same_labels(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal labels of one type each, position by position (1 and True, equal but not the same
    label, go through the union)."""
    try:
        same = bool(np.all(a == b))
    except Exception:  # labels whose comparison is not a plain truth value
        return False
    return same and all(type(x) is type(y) for x, y in zip(a[:1], b[:1])) and \
        {type(x) for x in a} == {type(x) for x in b}


def summed_cells(tables, col_codes=None, n_cols=None):
    """The cells of the sum of ``tables`` (Contingency objects), labels matched by value:
    ``(grid, rows, cols, values, row_labels, col_labels)`` — a dense int64 ``grid`` (rows, cols
    and values None) where every table is a grid and the sum fills at least a quarter of its
    grid, else the non-zero cells in row-major order (grid None).

    Integer tables add up exactly (int64; a total past 2^62 is refused as by every table);
    a fractional table makes the sum fractional. ``col_codes``/``n_cols``: the columns' codes
    and their number, where the caller matched the clusters itself (noise singletons)."""
    rmaps, row_labels = union_codes([t.row_labels for t in tables])
    if col_codes is None:
        col_codes, col_labels = union_codes([t.col_labels for t in tables])
        n_cols = len(col_labels)
    else:
        col_labels = None
    integer = all(t.is_integer for t in tables)
    total = sum(t.n for t in tables)
    if not total < _MAX_TOTAL:
        raise ValueError(f"the tables' total {float(total):.3g} is too large to merge: at most 2^62 (about 4.6e18) "
                         "items, so that marginals, pair counts and their products stay exact and finite")
    n_r = len(row_labels)
    if n_r * n_cols >= 1 << 63:
        raise ValueError(f"{n_r:,} classes × {n_cols:,} clusters: too many possible cells to merge")
    if integer and n_r * n_cols <= 4 * sum(t.n_cells for t in tables):
        # A sum that fills a quarter of its grid is stored as a grid (_from_coo's rule): add each
        # table at its rows and columns of the sum — a grid as a block, cells by their coordinates
        # (each at most once per table, so a plain fancy-index addition is exact). No sort.
        grid = np.zeros((n_r, n_cols), dtype=np.int64)
        for rm, cm, t in zip(rmaps, col_codes, tables):
            if t.grid is None:
                grid[rm[t.rows], cm[t.cols]] += t.values
            elif _identity(rm, n_r) and _identity(cm, n_cols):
                grid += t.grid
            else:
                grid[np.ix_(rm, cm)] += t.grid
        return grid, None, None, None, row_labels, col_labels
    dtype = np.int64 if integer else np.float64
    keys = np.concatenate([rm[t.rows] * n_cols + cm[t.cols] for rm, cm, t in zip(rmaps, col_codes, tables)])
    vals = np.concatenate([np.asarray(t.values).astype(dtype, copy=False) for t in tables])
    # Each table's cells are in row-major order and its codes map to the sum's in increasing
    # order (labels sorted alike), so the keys are a few sorted runs: a stable sort merges them
    # in linear time. Equal keys are then adjacent, each table's in table order.
    order = np.argsort(keys, kind="stable")
    keys, vals = keys[order], vals[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1]))) if keys.size else np.zeros(0, np.intp)
    uniq, sums = keys[starts], np.add.reduceat(vals, starts) if keys.size else vals
    return None, uniq // n_cols, uniq % n_cols, sums, row_labels, col_labels


def _identity(codes: np.ndarray, size: int) -> bool:
    return codes.size == size and bool((codes == np.arange(size)).all())


class MergeableTable:
    """Tables that add up: ``t1 + t2``, ``sum(tables)`` and :meth:`update` (mixed into
    :class:`~metrics.core.contingency.Contingency`).

    The sum of tables counted from disjoint batches of items is the table of all the items,
    whatever labels each batch saw — the same table :meth:`Contingency.from_labels` gives for the
    concatenated labels, cell for cell and label for label, so every measure agrees to the last
    bit. Classes (and clusters) are matched by value, their union in Partition Lab's one label
    order: sorted where the labels can be ordered (numbers by value, text by code point), else in
    order of first appearance, the first table's labels first. This is how mini-batches are
    accumulated (as torchmetrics users do) and how a cluster of machines combines partial tables.
    """

    noise: object
    noise_as: str

    def __add__(self, other):
        if not isinstance(other, MergeableTable):
            return NotImplemented
        return merge_tables([self, other])

    def __radd__(self, other):
        # sum(tables) starts from 0.
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return merge_tables([self])
        return NotImplemented

    @classmethod
    def merge(cls, tables):
        """The table of the items of all ``tables`` at once: what ``sum(tables)`` gives, in one
        addition of them all instead of one per table (each of which copies the running total),
        for hundreds of tables. Raises ``ValueError`` for no tables, ``TypeError`` for something
        that is not a table."""
        tables = list(tables)
        if not tables:
            raise ValueError("no tables to merge: give at least one")
        bad = next((t for t in tables if not isinstance(t, MergeableTable)), None)
        if bad is not None:
            raise TypeError(f"only tables add up, got a {type(bad).__name__}")
        return merge_tables(tables)

    def update(self, labels_true, labels_pred) -> None:
        """Add a batch of items to this table, in place (for streams of labels).

        The batch is counted as :meth:`Contingency.from_labels` counts it — with this table's
        reading of noise items (``noise``, ``noise_as``), labels on a device counted there — and
        added as ``+`` adds tables: afterwards the table equals the table of every item seen so
        far, and every quantity cached from the old cells (entropies, pair sums, digests) is
        dropped and computed again when next read. Returns None, as ``dict.update`` does; to
        keep the old table, add instead (``t = t + Contingency.from_labels(y, p)``) — the sum
        is a new table. Example::

            table = Contingency.from_labels(first_gold, first_pred)
            for gold, pred in batches:
                table.update(gold, pred)
            metrics.evaluate(table)

        Raises ``ValueError`` as ``from_labels`` does for a bad batch; the table is then unchanged.
        """
        kind = type(self)
        batch = kind.from_labels(labels_true, labels_pred, noise=self.noise, noise_as=self.noise_as)  # type: ignore[attr-defined]
        merged = merge_tables([self, batch])
        self.__dict__.clear()
        self.__dict__.update(merged.__dict__)


def merge_tables(tables):
    """The table of the items of all ``tables`` (see :class:`MergeableTable`): a new table."""
    kind = type(tables[0])
    noises = {(t.noise, t.noise_as) for t in tables}
    if len(noises) > 1:
        shown = ", ".join(sorted(f"noise={n!r} read as {a!r}" for n, a in noises))
        raise ValueError(f"tables that read noise items differently cannot be added ({shown}): count every batch "
                         "with the same noise= and noise_as=")
    noise, noise_as = next(iter(noises))
    if noise_as == "singletons" and noise is not None:
        grid, rows, cols, vals, row_labels, col_labels = _summed_with_singletons(tables, noise)
    else:
        grid, rows, cols, vals, row_labels, col_labels = summed_cells(tables)
    if grid is not None:   # _from_coo's own storage rule would make these cells a grid too
        merged = kind._from_grid(grid, row_labels, col_labels)
    else:
        merged = kind._from_coo(rows, cols, vals, row_labels, col_labels)
    if noise is not None or noise_as != "cluster":
        count = sum(t.noise_count for t in tables)
        total = sum(t.n + (t.noise_count if noise_as == "exclude" else 0) for t in tables)
        merged.noise, merged.noise_as, merged.noise_count = noise, noise_as, count
        merged.noise_share = count / total if total else 0.0
        merged.coverage = (total - count) / total if noise_as == "exclude" and total else 1.0
    return merged


def _summed_with_singletons(tables, noise):
    """:func:`summed_cells` of tables whose noise items are clusters of one item each, labelled
    ``(noise, position)`` after the other clusters (:func:`metrics.core.labels.count_with_noise`):
    the other clusters are matched by value; the singletons stay apart, each table's after the
    previous table's, their positions moved past the previous tables' items — as if the batches'
    labels had been counted end to end."""
    plain = [list(t.col_labels)[: t.shape[1] - int(t.noise_count)] for t in tables]
    codes, labels = union_codes(plain)
    col_codes: list[np.ndarray] = []
    singles: list[tuple] = []
    offset = 0
    for t, own in zip(tables, codes):
        k = int(t.noise_count)
        ones = list(t.col_labels)[t.shape[1] - k:]
        start = len(labels) + len(singles)
        col_codes.append(np.concatenate([own, np.arange(start, start + k, dtype=np.int64)]))
        singles.extend((noise, int(pos) + offset) for _, pos in ones)
        offset += int(t.n)
    grid, rows, cols, vals, row_labels, _ = summed_cells(tables, col_codes, len(labels) + len(singles))
    return grid, rows, cols, vals, row_labels, label_array(list(labels) + singles)
