"""Many small tables at once: the shared quantities as arrays over a batch.

Parameter sweeps and property grids evaluate tens of thousands of small tables.
A :class:`TableBatch` stacks them into one (B, R, C) array (smaller tables padded
with empty rows and columns, which change no measure) and computes every shared
quantity as an array of length B, so each registered measure — written once, with
the helpers of :mod:`metrics.core.arith` — runs vectorized over the batch.
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from .._lazy import lazy_module
from .contingency import Contingency
from .registry import check_beta, check_log_base, resolve
from .stats import TableStats, histogram_pays, x_log_ratio

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    pd = lazy_module("pandas")

__all__ = ["TableBatch", "evaluate_batch"]


def _stack(tables) -> np.ndarray:
    if isinstance(tables, np.ndarray):
        arr = tables
    else:
        tables = [t.to_dense() if isinstance(t, Contingency) else np.asarray(t) for t in tables]
        if not tables:
            raise ValueError("empty batch: no tables given")
        if any(t.ndim != 2 for t in tables):
            raise ValueError("every table of a batch must be 2-D")
        r = max(t.shape[0] for t in tables)
        c = max(t.shape[1] for t in tables)
        arr = np.zeros((len(tables), r, c))
        for i, t in enumerate(tables):
            arr[i, : t.shape[0], : t.shape[1]] = t
    if arr.ndim != 3:
        raise ValueError(f"a batch must be a (B, R, C) array, got shape {arr.shape}")
    if arr.dtype.kind not in "iufb":
        raise ValueError(f"table cells must be numbers, got dtype {arr.dtype}")
    arr = arr.astype(np.float64, copy=False)
    if not np.isfinite(arr).all():
        raise ValueError("a table of the batch has NaN or infinite cells")
    if (arr < 0).any():
        raise ValueError(f"a table of the batch has negative cells (table {int(np.argwhere(arr < 0)[0][0])})")
    return arr


class TableBatch(TableStats):
    """B contingency tables (rows gold classes, columns clusters) as one array."""

    def __init__(self, tables):
        self.tables = _stack(tables)

    def __len__(self) -> int:
        return self.tables.shape[0]

    def __getitem__(self, i: int) -> Contingency:
        return Contingency.from_table(self.tables[i])

    @cached_property
    def is_integer(self) -> bool:
        return bool(np.all(self.tables == np.floor(self.tables)))

    @cached_property
    def min_cell(self) -> float:
        """Smallest non-zero cell of the whole batch (inf when all are empty)."""
        pos = self.tables[self.tables > 0]
        return float(pos.min()) if pos.size else math.inf

    @cached_property
    def row_sums(self) -> np.ndarray:
        return self.tables.sum(axis=2)

    @cached_property
    def col_sums(self) -> np.ndarray:
        return self.tables.sum(axis=1)

    @cached_property
    def n(self) -> np.ndarray:
        return self.row_sums.sum(axis=1)

    @cached_property
    def log_n(self) -> np.ndarray:
        return np.log(np.maximum(self.n, 1.0))

    @cached_property
    def n_classes(self) -> np.ndarray:
        return np.count_nonzero(self.row_sums, axis=1)

    @cached_property
    def n_clusters(self) -> np.ndarray:
        return np.count_nonzero(self.col_sums, axis=1)

    @cached_property
    def _log_cells(self) -> np.ndarray | None:
        """log n_ij per cell from a table of the values 0 … max, for whole counts (every random
        table of metrics.chance): most cells of a batch are padding or small counts, and a
        lookup costs a fraction of a logarithm. None: the cells take their own logarithm."""
        v = self.tables
        top = float(v.max()) if v.size else 0.0
        if not (self.is_integer and histogram_pays(top, v.size)):
            return None
        return np.log(np.maximum(np.arange(int(top) + 1, dtype=np.float64), 1.0))[v.astype(np.intp)]

    @cached_property
    def _entropy_sums(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per table, n·H(C), n·H(K), n·H(C, K) as Σ x log(n / x) over class sizes, cluster sizes
        and cells: Contingency's sums (metrics.core.stats.x_log_ratio), what all four entropies
        share."""
        n = self.n
        return (x_log_ratio(self.row_sums, n[:, None]).sum(axis=1), x_log_ratio(self.col_sums, n[:, None]).sum(axis=1),
                self._sum_over_cells(x_log_ratio(self.tables, n[:, None, None], self._log_cells)))

    @cached_property
    def _occupied(self) -> tuple[np.ndarray, np.ndarray]:
        """The non-empty cells of every table (a mask) and where each table's begin among them."""
        mask = self.tables != 0
        counts = mask.reshape(mask.shape[0], -1).sum(axis=1)
        return mask, np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.intp)

    def _sum_over_cells(self, terms: np.ndarray) -> np.ndarray:
        """Per table, the sum of ``terms`` (zero on empty cells) over its non-empty cells only, in
        row-major order. Summing the whole padded grid would group the terms by where the empty
        cells fall, so two random tables holding the same counts in other places (every draw of a
        table of singletons, say) would differ in the last bit, and a value that cannot vary
        across draws would seem to."""
        mask, starts = self._occupied
        out = np.zeros(terms.shape[0])
        if not mask.any():
            return out
        flat = terms[mask]
        filled = np.count_nonzero(mask.reshape(mask.shape[0], -1), axis=1) > 0
        out[filled] = np.add.reduceat(flat, starts[filled])
        return out

    def _per_item(self, total: np.ndarray) -> np.ndarray:
        return np.maximum(total / np.maximum(self.n, 1.0), 0.0)

    @cached_property
    def n_cells(self) -> np.ndarray:
        return np.count_nonzero(self.tables, axis=(1, 2))

    @cached_property
    def _h_c_raw(self) -> np.ndarray:
        return self._per_item(self._entropy_sums[0])

    @cached_property
    def _h_k_raw(self) -> np.ndarray:
        return self._per_item(self._entropy_sums[1])

    @cached_property
    def _h_ck_raw(self) -> np.ndarray:
        return self._per_item(self._entropy_sums[2])

    @cached_property
    def _mi_raw(self) -> np.ndarray:
        # I = H(C) + H(K) − H(C,K), from the sums the entropies share: Contingency's formula, with
        # no pass over the cells of its own (the ratio n n_ij / (a_i b_j) cell by cell cost as much
        # as the three entropies).
        rows, cols, cells = self._entropy_sums
        return (rows + cols - cells) / np.maximum(self.n, 1.0)

    @cached_property
    def _conditional_sums(self) -> tuple[np.ndarray, np.ndarray]:
        """Per table, (Σ n_ij log(b_j / n_ij), Σ n_ij log(a_i / n_ij)): n·H(C|K) and n·H(K|C)
        summed directly over the cells, as Contingency sums them (metrics.core.stats.x_log_ratio):
        a near-perfect table keeps its relative precision."""
        v, log_v = self.tables, self._log_cells
        by_col = self._sum_over_cells(x_log_ratio(v, self.col_sums[:, None, :], log_v))
        by_row = self._sum_over_cells(x_log_ratio(v, self.row_sums[:, :, None], log_v))
        return by_col, by_row

    @cached_property
    def _h_c_given_k_raw(self) -> np.ndarray:
        return self._conditional_sums[0] / np.maximum(self.n, 1.0)

    @cached_property
    def _h_k_given_c_raw(self) -> np.ndarray:
        return self._conditional_sums[1] / np.maximum(self.n, 1.0)

    @cached_property
    def pair_sums(self):
        def comb2(x, axes):
            return (x * (x - 1.0) / 2.0).sum(axis=axes)

        return (comb2(self.tables, (1, 2)), comb2(self.row_sums, 1), comb2(self.col_sums, 1),
                self.n * (self.n - 1.0) / 2.0)

    @cached_property
    def row_max_sum(self) -> np.ndarray:
        return self.tables.max(axis=2).sum(axis=1)

    @cached_property
    def col_max_sum(self) -> np.ndarray:
        return self.tables.max(axis=1).sum(axis=1)

    @cached_property
    def max_class_size(self) -> np.ndarray:
        return self.row_sums.max(axis=1)

    @cached_property
    def max_cluster_size(self) -> np.ndarray:
        return self.col_sums.max(axis=1)

    # Cell-level work (see Contingency.cell_sums): one (B, R, C) block.
    def cell_sums(self, per_cell) -> tuple[np.ndarray, ...]:
        n, a, b = self.tables, self.row_sums[:, :, None], self.col_sums[:, None, :]
        return tuple(np.asarray(x).sum(axis=(1, 2)) for x in per_cell(n, a, b))

    def row_max_of(self, per_cell) -> np.ndarray:
        n, a, b = self.tables, self.row_sums[:, :, None], self.col_sums[:, None, :]
        return np.broadcast_to(per_cell(n, a, b), n.shape).max(axis=2)

    @staticmethod
    def row_total(row_array: np.ndarray) -> np.ndarray:
        return row_array.sum(axis=-1)


def evaluate_batch(tables, measures=None, *, log_base: float = math.e, beta: float = 1.0) -> pd.DataFrame:
    """Measures of many tables: one row per table, one column per measure key.

    ``tables`` is a (B, R, C) array, a list of 2-D arrays (padded to a common shape
    with empty rows/columns) or a :class:`TableBatch`. Values equal those of
    :func:`metrics.evaluate` table by table; measures that cannot be vectorized
    (``ami``) are computed table by table. Measures that do not apply to every
    table (``Measure.domain``) are left out unless named (then ``ValueError``).
    """
    check_log_base(log_base)
    check_beta(beta)
    batch = tables if isinstance(tables, TableBatch) else TableBatch(tables)
    out = {}
    for m in resolve(measures, batch):
        if not m.applies_to(batch):
            raise ValueError(f"{m.key} is not defined for every table of the batch: {m.why_not(batch)}")
        if m.vectorized:
            values = m.func(batch, log_base=log_base, beta=beta)
        else:
            values = [m(batch[i], log_base=log_base, beta=beta) for i in range(len(batch))]
        values = np.broadcast_to(np.asarray(values, dtype=np.float64), (len(batch),))
        out[m.key] = np.clip(values, *m.bounds)
    return pd.DataFrame(out)
