"""What every measure reads from a table: the entropies, shared by one table and a batch.

:class:`TableStats` makes exact the zeros a table's structure implies (one class, one cluster,
pure clusters, whole classes), over Python numbers (:class:`~metrics.core.contingency.Contingency`)
and arrays (:class:`~metrics.core.batch.TableBatch`) alike. The pair sums Σ C(x, 2) are exact
integers for integer cells.
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from .arith import is_batch, where

__all__ = ["TableStats", "exact_sum_comb2", "comb2_from_histogram", "histogram_pays", "INT64_SAFE_TOTAL"]

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


def comb2_from_histogram(hist: np.ndarray, n: int) -> int:
    """Σ C(x, 2) over cells given as a histogram of their counts, exactly."""
    if n < INT64_SAFE_TOTAL:  # every term, and the sum, is at most C(n, 2) < 2^62
        v = np.arange(hist.size, dtype=np.int64)
        return int(np.dot(hist, v * (v - 1) // 2))
    return sum(int(h) * math.comb(int(v), 2) for v, h in zip(np.flatnonzero(hist), hist[hist > 0]))


def histogram_pays(top: float, n_cells: int) -> bool:
    """Whether whole-count cells with largest value ``top`` are better summed by a histogram
    of the values 0 … top (one pass, then one term per distinct value) than cell by cell:
    it bounds the histogram to a few times the cells, however large one count is."""
    return top <= 4 * n_cells + 1024

