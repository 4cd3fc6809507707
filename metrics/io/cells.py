"""One canonical table, whichever engine counted: labels in the one label order, cells in
(row, column) order.

A table read from files lists its classes and clusters in Partition Lab's one label order
(:func:`metrics.core.labels.sorted_codes`: text by code point, numbers by value; a column mixing
unorderable types keeps the order of first appearance) — the order of
:meth:`Contingency.from_labels <metrics.Contingency.from_labels>` too — and stores its cells row
by row. pandas counts items (through ``Contingency._from_codes``, the one count of labels into a
table), DuckDB and Dask count (gold, pred) groups in whatever order their hash tables give;
putting every result in this one order makes the command line and the app, the library, pandas,
DuckDB and Dask give the same table — and, since every sum then runs in the same order, the same
numbers to the last digit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._lazy import lazy_module
from ..core.contingency import Contingency
from ..core.labels import sorted_codes

if TYPE_CHECKING:
    import pandas as pd
    from scipy import sparse
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    pd = lazy_module("pandas")
    sparse = lazy_module("scipy.sparse")


def factorize_sorted(values) -> tuple[np.ndarray, list]:
    """Codes and distinct labels, labels sorted when they can be (one type per column)."""
    # A Series is factorized as it is: converting pandas' Arrow-backed text to objects first
    # would cost more than the factorization itself.
    values = values if isinstance(values, (pd.Series, pd.Index)) else np.asarray(values)
    try:
        codes, uniques = sorted_codes(values)
    except TypeError as exc:  # an unhashable label (a list from a Parquet column)
        raise ValueError(f"labels must be plain text or numbers, one per row ({exc})") from None
    labels = list(uniques.tolist() if hasattr(uniques, "tolist") else uniques)
    bad = [x for x in labels if isinstance(x, float) and np.isinf(x)]
    if bad:
        raise ValueError(f"a label is {bad[0]}: labels must be finite numbers or text")
    return codes, labels


def table_from_codes(r: np.ndarray, row_labels: list, c: np.ndarray, col_labels: list,
                     counts: np.ndarray) -> Contingency:
    """The table of cells (r, c) → count, each pair at most once, stored in (row, column) order."""
    order = np.lexsort((c, r))
    table = sparse.coo_matrix((np.asarray(counts, dtype=np.int64)[order], (r[order], c[order])),
                              shape=(len(row_labels), len(col_labels)))
    return Contingency.from_table(table, row_labels=row_labels, col_labels=col_labels)


def table_from_cells(gold_values, pred_values, counts) -> Contingency:
    """A table from a group-by result: one (gold, pred, count) per non-zero cell."""
    r, row_labels = factorize_sorted(gold_values)
    c, col_labels = factorize_sorted(pred_values)
    # Each (gold, pred) pair is one cell already: DuckDB groups typed values (0.0 and -0.0
    # together), pandas/Dask with the hash table pd.factorize uses, so no pair repeats.
    return table_from_codes(r, row_labels, c, col_labels, counts)


def table_from_labels(gold, pred) -> Contingency:
    """A table from two aligned label columns without missing values (items → cells): the table
    ``Contingency.from_labels(gold, pred)`` gives, refusals in the reader's words."""
    r, row_labels = factorize_sorted(gold)
    c, col_labels = factorize_sorted(pred)
    return Contingency._from_codes(r, row_labels, c, col_labels)
