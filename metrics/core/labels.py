"""One labeling as a 1-D array, and its labels as integer codes.

Everything that turns a caller's labels into a table starts here: :func:`as_1d_labels`
refuses, saying what to pass instead, every input whose iteration would not give one label
per item in item order; :func:`factorize_labels` numbers the distinct labels.
"""

from __future__ import annotations

import cmath
import contextlib
import sys
from collections.abc import Hashable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

import numpy as np

from .._lazy import lazy_module
from .kernels import array_api, counting

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    pd = lazy_module("pandas")

__all__ = ["as_1d_labels", "factorize_labels", "sorted_codes", "compact_limit", "own_labels", "NOISE_READINGS",
           "check_noise", "noise_mask", "count_with_noise", "table_with_noise",
           "find_noise_label"]


def as_1d_labels(labels, name: str):
    """One labeling as a 1-D numpy array — or, for an array of another library
    (CuPy, PyTorch, any array-API array), that array itself, to be counted where it
    lives (:mod:`metrics.core.kernels.array_api`).

    Refuses, with what to pass instead, every input whose iteration would not give one
    label per item in item order: DataFrames (they iterate over column names), mappings
    (keys), sets (no order), strings (characters) and anything 2-D.
    """
    # Only a process that has imported pandas can hold a pandas object: asked that way, numpy
    # labels and lists never import it (a fifth of a second in a fresh process).
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(labels, pandas.DataFrame):
        cols = list(labels.columns)
        shown = ", ".join(repr(c) for c in cols[:4]) + (", …" if len(cols) > 4 else "")
        example = f"df[{cols[0]!r}]" if cols else "df['gold']"
        raise ValueError(f"{name} is a DataFrame (columns {shown}); it needs one label per item: "
                         f"pass one column, e.g. {example}")
    if pandas is not None and isinstance(labels, (pandas.Series, pandas.Index, pandas.api.extensions.ExtensionArray)):
        arr = labels.to_numpy()
    elif isinstance(labels, np.ma.MaskedArray):
        # A masked item has no label (numpy's way of saying missing): refused like NaN, never
        # counted under the value that happens to sit behind the mask.
        masked = np.flatnonzero(np.ma.getmaskarray(labels).ravel()) if labels.ndim == 1 else np.empty(0)
        if masked.size:
            raise ValueError(f"{name} has {masked.size} masked label(s), first at position {int(masked[0])}; drop "
                             "or fill them first (labels.compressed() keeps the others: drop the same items from "
                             "both sides)")
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
    elif array_api.is_foreign_array(labels):
        return array_api.check_labels(labels, name)
    elif hasattr(labels, "__array__") and not isinstance(labels, (list, tuple)):
        arr = np.asarray(labels)  # xarray, pyarrow, polars, dask: numpy's own conversion
    elif not isinstance(labels, Iterable):
        raise ValueError(f"{name} must be a 1-D sequence of labels, one per item, got {type(labels).__name__}")
    else:
        labels = list(labels)
        # Tuples are hashable labels; lists, sets, dicts and arrays are not.
        containers = (list, AbstractSet, Mapping, np.ndarray) + ((pandas.Series,) if pandas is not None else ())
        nested = next((i for i, x in enumerate(labels) if isinstance(x, containers)), None)
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
            with contextlib.suppress(OverflowError):
                arr = np.asarray(labels, dtype=np.int64)
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


def factorize_labels(arr: np.ndarray, name: str, known_bounds=None) -> tuple[np.ndarray, np.ndarray]:
    """Codes 0..k-1 and the k distinct labels (codes may skip unused values), in the one label
    order (:func:`sorted_codes`).

    Compact non-negative integers (largest below 2n + 1024) are their own codes, their
    labels in increasing order (no pass over the data beyond min/max); anything else
    goes through :func:`sorted_codes`. Missing (NaN/None/NA) and infinite labels are refused,
    naming where.
    ``known_bounds``: (lo, hi) of an integer array already measured (lo exact when
    negative, else any lower bound ≥ 0).
    """
    if arr.dtype.kind in "iub" and arr.size:
        lo, hi = known_bounds or counting.bounds(arr)
        if lo >= 0 and hi < compact_limit(arr.size):
            return arr, own_labels(arr.dtype, hi + 1)
    try:
        codes, uniques = sorted_codes(arr)
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


def sorted_codes(values) -> tuple[np.ndarray, np.ndarray]:
    """Codes 0..k-1 of ``values`` (a 1-D array, Series or Index; missing values get −1) and its k
    distinct labels, in Partition Lab's one label order: sorted where the labels can be ordered
    (numbers by value, text by code point, numbers before text), else in order of first
    appearance. Every table built from labels — :meth:`Contingency.from_labels
    <metrics.core.contingency.Contingency.from_labels>`, the reader's engines
    (:mod:`metrics.io.cells`), many solutions (:mod:`metrics.solutions`), labels on a device —
    lists its classes and clusters in this order, so the same labels give the same table, cell
    for cell. One hash pass, then a sort of the k distinct labels only.

    Raises ``TypeError`` for an unhashable label (the caller words the refusal)."""
    try:
        return pd.factorize(values, sort=True, use_na_sentinel=True)
    except TypeError:  # labels that cannot be ordered (or hashed: raised again here)
        return pd.factorize(values, sort=False, use_na_sentinel=True)


def _infinite_positions(uniques: np.ndarray) -> np.ndarray:
    """Indices of the ±inf values among factorized labels (float, complex or object)."""
    if uniques.dtype.kind in "fc":
        return np.flatnonzero(np.isinf(uniques))
    if uniques.dtype == object:
        # Text, bytes, ints and booleans hold no infinity: told apart in C, where the loop below
        # spends ~0.3 µs a label (10^5 distinct strings a side: 30 ms each).
        if pd.api.types.infer_dtype(uniques, skipna=True) in ("string", "bytes", "integer", "boolean", "empty"):
            return np.empty(0, dtype=np.int64)
        return np.array([i for i, u in enumerate(uniques)
                         if isinstance(u, (float, complex, np.floating, np.complexfloating))
                         and u == u and cmath.isinf(u)], dtype=np.int64)
    return np.empty(0, dtype=np.int64)


def compact_limit(n_items: int) -> int:
    """Non-negative integer labels below this bound are their own codes."""
    return 2 * int(n_items) + 1024


def own_labels(dtype, k: int) -> np.ndarray:
    """The labels of codes 0..k-1 that are their own labels (booleans stay booleans)."""
    return np.array([False, True][:k], dtype=object) if dtype.kind == "b" else np.arange(k)


# ---------------------------------------------------------------------- noise items
#: How a table reads the noise items of a clustering (DBSCAN's and HDBSCAN's −1): as one cluster
#: (every peer's silent reading, and the table of the labels as they are), each item a cluster of
#: its own, or left out of the table (then the table's ``coverage`` is the share of items kept).
NOISE_READINGS = ("cluster", "singletons", "exclude")


def check_noise(noise, noise_as) -> None:
    """``ValueError`` unless ``noise`` is None or one label (a number or a text) and ``noise_as``
    is one of :data:`NOISE_READINGS` (a reading other than "cluster" needs a noise label)."""
    if noise_as not in NOISE_READINGS:
        raise ValueError(f"noise_as must be one of {', '.join(NOISE_READINGS)}, got {noise_as!r}")
    if noise is None:
        if noise_as != "cluster":
            raise ValueError(f"noise_as={noise_as!r} needs noise=, the label of the noise items (e.g. noise=-1)")
        return
    if isinstance(noise, (bool, np.bool_)) or not isinstance(noise, (str, int, float, np.integer, np.floating)):
        raise ValueError(f"noise must be one label, a number or a text (e.g. -1), got {type(noise).__name__}")
    if isinstance(noise, (float, np.floating)) and not np.isfinite(noise):
        raise ValueError(f"noise must be a label items can carry; {noise!r} is refused as a label")


def noise_mask(labels: np.ndarray, noise) -> np.ndarray:
    """Which items of one labeling (a 1-D numpy array) carry the label ``noise``."""
    mask = labels == noise
    return np.asarray(mask, dtype=bool) if np.ndim(mask) == 1 else np.zeros(labels.shape, dtype=bool)


def count_with_noise(labels_true, labels_pred, noise, noise_as, from_labels, from_codes):
    """The table of two labelings with ``labels_pred``'s noise items read as ``noise_as``: a
    preprocessing of the labels before they are counted (by ``from_labels(t, p)`` or, for
    singletons, ``from_codes(tc, tu, pc, pu)``: Contingency's own constructors). The table gets
    ``noise``, ``noise_as``, ``noise_count`` (items labelled ``noise``), ``noise_share`` (their
    share of all items) and ``coverage`` (the share of items in the table).

    "cluster" counts the labels as they are; "exclude" counts the other items only; "singletons"
    gives each noise item a cluster of its own, labelled ``(noise, position of the item)``, after
    the other clusters."""
    check_noise(noise, noise_as)
    t, p = as_1d_labels(labels_true, "labels_true"), as_1d_labels(labels_pred, "labels_pred")
    if not isinstance(t, np.ndarray):   # labels on a device: the noise is found on the host
        t = array_api.to_host(t.array)
    if not isinstance(p, np.ndarray):
        p = array_api.to_host(p.array)
    if t.size != p.size:
        raise ValueError(f"labels_true and labels_pred must have the same length, got {t.size} and {p.size}")
    mask = noise_mask(p, noise)
    count = int(np.count_nonzero(mask))
    if noise_as == "cluster" or count == 0:
        table = from_labels(t, p)
    elif noise_as == "exclude":
        if count == p.size:
            raise ValueError(f"every item of labels_pred is noise (label {noise!r}): leaving them out leaves "
                             "nothing to count; read them as one cluster or as singletons instead")
        table = from_labels(t[~mask], p[~mask])
    else:
        tc, tu = factorize_labels(t, "labels_true")
        pc, pu = factorize_labels(p, "labels_pred")
        where = np.flatnonzero(mask)
        pc = np.array(pc, dtype=np.int64)
        pc[where] = len(pu) + np.arange(count)
        labels = np.empty(len(pu) + count, dtype=object)
        labels[: len(pu)] = pu
        labels[len(pu):] = [(noise, int(i)) for i in where]
        table = from_codes(tc, tu, pc, labels)
    return _report(table, noise, noise_as, count, p.size)


def _report(table, noise, noise_as: str, count: float, total: float):
    table.noise, table.noise_as, table.noise_count = noise, noise_as, count
    table.noise_share = count / total if total else 0.0
    table.coverage = (total - count) / total if noise_as == "exclude" and total else 1.0
    return table


def table_with_noise(t, noise, noise_as: str):
    """A new table from the table ``t`` (a Contingency) whose cluster labelled ``noise`` holds the
    noise items, read as ``noise_as`` — what :func:`count_with_noise` does to the labels, done to
    the counts (for tables counted by the reader, :mod:`metrics.io`): "cluster" keeps the column,
    "exclude" drops it, "singletons" splits it into one column per item, labelled ``(noise, k)``
    for k = 0, 1, … (a table does not know the items' positions), after the other clusters.
    Reports ``noise_count``, ``noise_share`` and ``coverage`` as ``from_labels`` does."""
    check_noise(noise, noise_as)
    if noise is None:
        return t
    from scipy import sparse

    labels = list(t.col_labels)
    j = next((i for i, label in enumerate(labels) if type(label) is not tuple and label == noise), None)
    rows, cols, vals = t.rows, t.cols, t.values
    in_noise = cols == j if j is not None else np.zeros(cols.shape, dtype=bool)
    count = vals[in_noise].sum() if j is not None else 0
    if noise_as != "cluster" and count and not t.is_integer:
        raise ValueError("the noise cluster holds fractional counts: reading noise items as singletons or leaving "
                         "them out needs whole items")
    count = int(count) if t.is_integer else float(count)   # a mass, in a fractional table
    if noise_as == "exclude" and count:
        if count == t.n:
            raise ValueError(f"every item is noise (label {noise!r}): leaving them out leaves nothing to count")
        rows, cols, vals = rows[~in_noise], cols[~in_noise], vals[~in_noise]
    elif noise_as == "singletons" and count:
        items = int(count)  # whole items (a fractional table was refused above)
        item_rows = np.repeat(rows[in_noise], vals[in_noise].astype(np.int64))
        rows = np.concatenate([rows[~in_noise], item_rows])
        cols = np.concatenate([cols[~in_noise], len(labels) + np.arange(items)])
        vals = np.concatenate([vals[~in_noise], np.ones(items, dtype=vals.dtype)])
        labels = labels + [(noise, k) for k in range(items)]
    cells = sparse.coo_matrix((vals, (rows, cols)), shape=(t.shape[0], len(labels)))
    new = type(t).from_table(cells, list(t.row_labels), labels)
    return _report(new, noise, noise_as, count, float(t.n))


def find_noise_label(labels, token="-1"):
    """The label among ``labels`` (a sequence of distinct labels: a table's clusters, a column's
    values) that is the noise label ``token`` — the same text, or the same number (-1 and "-1"
    both name DBSCAN's noise, whether a file was read as text or numbers) — or None."""
    text = str(token).strip()
    try:
        number = float(text)
    except ValueError:
        number = None
    for label in labels:
        if isinstance(label, (bool, np.bool_, tuple)):
            continue
        if str(label) == text or (number is not None and isinstance(label, (int, float, np.integer, np.floating))
                                  and label == number):
            return label
    return None
