"""Normalised set-matching measures of genieclust (Gagolewski) and Rezaei & Fränti: each needs the
best one-to-one matching of classes to clusters, like ε (:mod:`metrics.measures.matching`), but
weighs the matched cells differently.

Notation: K classes (non-empty rows), L clusters (non-empty columns), a_i class sizes, b_j cluster
sizes, n items, σ an injective map of the classes into the clusters (or of the clusters into the
classes when there are fewer), M = max(K, L).

* NCA = (max_σ Σ_i n_{iσ(i)}/a_i − 1)/(K − 1) — asymmetric: the classes are the reference.
* NPA = (M·t/n − 1)/(M − 1), t = max_σ Σ n_{iσ(i)} — the same number as 1 − ε_n.
* PSI = max(0, (S − E)/(M − E)), S = max_σ Σ n_{iσ(i)}/max(a_i, b_σ(i)), E = Σ_r min(a_(r), b_(r))/n
  over the sizes sorted in decreasing order; the simplified PSI takes E = 1.

K ≠ L: genieclust 1.3's NCA and NPA refuse unequal numbers of classes and clusters; their source
describes the intended padding with empty rows or columns, which is what these are (NCA keeps K,
the number of classes, in its denominator, so with more clusters than classes it can be negative,
down to −(1 − K/L)/(K − 1)). Degenerate tables, where genieclust returns NaN: one class and one
cluster (including n = 0 and 1) score 1, identical partitions; NCA with one class and several
clusters scores 0, its chance value.

References
----------
[G25]  Gagolewski (2025), Normalised clustering accuracy: an asymmetric external cluster validity
       measure. J. Classification 42, 2–30.
[RF16] Rezaei & Fränti (2016), Set matching measures for external cluster validity. IEEE TKDE
       28(8), eqs. 18 and 20.
"""

from __future__ import annotations

import numpy as np

from ..core.arith import div
from ..core.batch import TableBatch
from ..core.registry import register
from .matching import (
    _DENSE_MATCHING_CELLS,
    MatchingStopped,
    _lsa_value,
    _sparse_matching,
    compiled_grid_weights,
    epsilon_n,
    kept_by_row,
    line_maxima_matching,
    matching_cell_components,
    matching_components,
    matching_out_of_budget,
    max_assignment_batch,
    tied_best_counts,
)

# A nearly square table (sides within _NEARLY_SQUARE of each other: the dense kernel pads to a
# square) whose class or cluster sizes spread past this coefficient of variation — random
# clusterings of imbalanced classes, gamma-distributed sizes: 0.7–1.5; uniform and Poisson tables
# under 0.07 — goes to the dense kernel before the certified rounds: their candidates, each line's
# few best cells, are mostly the big lines' there. On 20 of 24 such tables measured the rounds took
# 1.7 to 4.6 times the kernel's time, on the other 4 up to half (836 against 389 ms in all;
# docs/performance.md, session 46).
SKEWED_SIZES = 0.5
_NEARLY_SQUARE = 1.25


# Rows holding at least this many tied best counts on average (uniform counts 0–12 and fewer
# values at 1000 × 1000, 0–6 and fewer at 500 × 500), in a nearly square table: PSI's rounds start
# from those cells besides each line's best. There, each row's best cells by PSI's weights lie in
# the columns of the smallest sizes (each column's in the rows of the smallest), the same few for
# every line, while the optimum pairs big classes with big clusters: the rounds took 110–180 ms
# adding those cells at 1000 × 1000, 27–53 ms from the tied cells; with fewer ties the rounds were
# quicker without them (docs/performance.md, session 47).
TIED_CANDIDATES = 70


def _psi_candidates(t):
    """PSI's extra first candidates (:data:`TIED_CANDIDATES`): the counts' tied best cells by row
    (:func:`metrics.measures.matching.tied_best_counts`), or None."""
    n_r, n_c = t.shape
    if n_r > n_c or n_c > _NEARLY_SQUARE * n_r:
        return None
    tied = tied_best_counts(t)
    if tied is None or tied[2] < TIED_CANDIDATES:
        return None
    return tied[0], tied[1]


def _dense_first(t) -> bool:
    n_r, n_c = t.shape
    if max(n_r, n_c) > _NEARLY_SQUARE * min(n_r, n_c):
        return False
    return any(float(np.std(s)) > SKEWED_SIZES * float(np.mean(s)) for s in (t.row_sums, t.col_sums))


def max_weight_matching(t, weight) -> float:
    """max over one-to-one maps σ of Σ_i weight(n_{iσ(i)}, a_i, b_σ(i)) for one table, on the
    non-zero cells (``weight`` is 0 on empty cells). Small tables are solved dense; big ones by
    connected components of the class–cluster graph (:func:`metrics.measures.matching._sparse_matching`)."""
    if t.n_cells == 0:
        return 0.0
    n_r, n_c = t.shape
    if t.grid is not None and n_r * n_c <= _DENSE_MATCHING_CELLS:
        # A grid table's weights straight from its grid: gathering a 1000 × 1000 grid's
        # coordinates first cost more than NCA's assignment. The same float operations on the
        # same numbers: the same weights.
        kind = "share_of_larger" if weight is _share_of_larger else "share_of_class"
        value = line_maxima_matching(t, kind)
        if value is not None:
            return value
        weights = compiled_grid_weights(t, kind)
        if weights is None:
            # A table keeps no empty row or column, so every size is positive and an empty cell's
            # weight is 0 / size = 0: the counts divide as they are (numpy widens them to float64).
            a, b = t.row_sums.astype(np.float64)[:, None], t.col_sums.astype(np.float64)[None, :]
            weights = weight(t.grid, a, b)
        dense_first = _dense_first(t)
        candidates = _psi_candidates(t) if kind == "share_of_larger" and not dense_first else None
        return _lsa_value(weights, dense_first, candidates)
    rows, cols, vals = t.rows, t.cols, t.values
    w = weight(vals.astype(np.float64), t.row_sums[rows].astype(np.float64), t.col_sums[cols].astype(np.float64))
    if n_r * n_c <= _DENSE_MATCHING_CELLS:
        dense = np.zeros((n_r, n_c))
        dense[rows, cols] = w
        return _lsa_value(dense, _dense_first(t))
    comp = t.memo("matching_cell_components", matching_cell_components)
    parts = t.memo("matching_components", matching_components).weighted(comp, w)
    return float(_sparse_matching(rows, cols, w, n_r, n_c, parts, comp, kept_by_row(t)))


def _share_of_class(n, a, b):
    return n / a


def _share_of_larger(n, a, b):
    return n / np.maximum(a, b)


def _matched(t, weight) -> float:
    """:func:`max_weight_matching` of ``t`` once per table and weight; a big table's sparse
    assignment that ran past its budget raises (its measure's limit said so first)."""
    def compute(table):
        try:
            return max_weight_matching(table, weight)
        except MatchingStopped as stopped:
            return stopped

    value = t.memo(f"max_weight_matching:{weight.__name__}", compute)
    if isinstance(value, MatchingStopped):
        raise value
    return value


def _out_of_budget(weight):
    """The limit of a measure matching ``weight``: the searches' estimate (not ε's by levels), then
    whether its own sparse assignment finished within the budget (run here once, kept)."""
    def why_not(t) -> str | None:
        reason = matching_out_of_budget(t, counts=False)
        if reason or isinstance(t, TableBatch) or t.shape[0] * t.shape[1] <= _DENSE_MATCHING_CELLS:
            return reason
        try:
            _matched(t, weight)
        except MatchingStopped as stopped:
            return str(stopped)
        return None

    return why_not


# ------------------------------------------------------------------------------ one table


def _nca_table(t) -> float:
    k, n_clusters = t.n_classes, t.n_clusters
    if k <= 1:
        return 1.0 if n_clusters <= 1 else 0.0  # identical, or one class spread over clusters: chance
    return (_matched(t, _share_of_class) - 1.0) / (k - 1.0)


def _sorted_overlap(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Σ_r min(a_(r), b_(r)) over the sizes sorted decreasingly, along the last axis (the
    unmatched sizes of the longer side pair with padding: min 0)."""
    k = min(a.shape[-1], b.shape[-1])
    a_sorted = -np.sort(-a, axis=-1)[..., :k]
    b_sorted = -np.sort(-b, axis=-1)[..., :k]
    return np.sort(np.minimum(a_sorted, b_sorted), axis=-1).sum(axis=-1)


def _psi_table(t, simplified: bool) -> float:
    m = max(t.n_classes, t.n_clusters)
    if m <= 1:
        return 1.0
    s = _matched(t, _share_of_larger)
    if simplified:
        return max((s - 1.0) / (m - 1.0), 0.0)
    e = float(_sorted_overlap(t.row_sums.astype(np.float64), t.col_sums.astype(np.float64))) / float(t.n)
    return max((s - e) / (m - e), 0.0)  # E ≤ 1 < M: never 0/0


# ------------------------------------------------------------------------------ batches


def _batch_parts(t: TableBatch):
    tables = np.asarray(t.tables, dtype=np.float64)
    a, b = tables.sum(axis=2), tables.sum(axis=1)
    return tables, a, b, np.count_nonzero(a, axis=1), np.count_nonzero(b, axis=1)


def _nca_batch(t: TableBatch) -> np.ndarray:
    tables, a, _, k, n_clusters = _batch_parts(t)
    best = max_assignment_batch(div(tables, a[:, :, None], 0.0))
    value = div(best - 1.0, k - 1.0, 0.0)
    return np.where(k <= 1, np.where(n_clusters <= 1, 1.0, 0.0), value)


def _psi_batch(t: TableBatch, simplified: bool) -> np.ndarray:
    tables, a, b, k, n_clusters = _batch_parts(t)
    s = max_assignment_batch(div(tables, np.maximum(a[:, :, None], b[:, None, :]), 0.0))
    m = np.maximum(k, n_clusters).astype(np.float64)
    e = np.ones(len(m)) if simplified else div(_sorted_overlap(a, b), a.sum(axis=1), 1.0)
    return np.maximum(div(s - e, m - e, 1.0), 0.0)  # M − E = 0 only for M ≤ 1: identical, 1


def _either(t, one, batch):
    return batch(t) if isinstance(t, TableBatch) else one(t)


@register("nca",
          peers={"genieclust": "genieclust.compare_partitions.normalized_clustering_accuracy"},
          name="Normalised clustering accuracy", symbol="NCA", family="matching", direction="higher",
          bounds=(-1.0, 1.0), goodness_range=(0.0, 1.0),
          reference="Gagolewski 2025, Normalised clustering accuracy: an asymmetric external cluster validity "
                    "measure, J. Classification 42:2–30; genieclust normalized_clustering_accuracy",
          formula=r"NCA = \frac{\max_\sigma \sum_{i=1}^K n_{i\sigma(i)}/a_i - 1}{K - 1}",
          description="Mean share of each class in its matched cluster (best one-to-one matching), rescaled so "
                      "that 0 is a uniform spread and 1 a perfect match. Asymmetric: the classes are the "
                      "reference. More clusters than classes: the classes are matched into them (K stays the "
                      "denominator), so it can be negative; one class scores 1 against one cluster, else 0.",
          limit=_out_of_budget(_share_of_class))
def nca(t, *, log_base, beta):
    return _either(t, _nca_table, _nca_batch)


@register("npa",
          peers={"genieclust": "genieclust.compare_partitions.normalized_pivoted_accuracy"},
          name="Normalised pivoted accuracy", symbol="NPA", family="matching", direction="higher",
          bounds=(0.0, 1.0), symmetric=True,
          reference="genieclust normalized_pivoted_accuracy (Gagolewski 2025); Meilă & Heckerman 2001",
          formula=r"NPA = \frac{\max(K,L)\,\max_\sigma\sum_i n_{i\sigma(i)}/n - 1}{\max(K,L) - 1}",
          description="Accuracy under the best one-to-one matching, rescaled so that 0 is its 1/max(K, L) "
                      "floor: the same number as 1 − ε_n. One class and one cluster score 1.",
          limit=matching_out_of_budget)
def npa(t, *, log_base, beta):
    # The same number as 1 − ε_n (M·t/n − 1)/(M − 1) = 1 − (1 − t/n)/(1 − 1/M): one matching, ε_n's.
    return 1.0 - epsilon_n(t, log_base=log_base, beta=beta)


@register("psi",
          peers={"genieclust": "genieclust.compare_partitions.pair_sets_index"},
          name="Pair sets index", symbol="PSI", family="matching", direction="higher",
          bounds=(0.0, 1.0), symmetric=True,
          reference="Rezaei & Fränti 2016, Set matching measures for external cluster validity, IEEE TKDE "
                    "28(8), eq. 18; genieclust pair_sets_index",
          formula=r"PSI = \max\Big(0, \frac{S - E}{\max(K,L) - E}\Big),\ "
                  r"S = \max_\sigma \sum_i \frac{n_{i\sigma(i)}}{\max(a_i, b_{\sigma(i)})},\ "
                  r"E = \frac1n\sum_r \min(a_{(r)}, b_{(r)})",
          description="Similarity n_ij/max(a_i, b_j) summed over the best one-to-one matching, corrected by "
                      "its expectation E under chance (sizes sorted decreasingly) and clipped at 0. One class "
                      "and one cluster score 1.",
          limit=_out_of_budget(_share_of_larger))
def psi(t, *, log_base, beta):
    return _either(t, lambda x: _psi_table(x, False), lambda x: _psi_batch(x, False))


@register("psi_simplified",
          peers={"genieclust": "genieclust.compare_partitions.pair_sets_index(simplified=True)"},
          name="Pair sets index (simplified)", symbol="PSI_s", family="matching",
          direction="higher", bounds=(0.0, 1.0), symmetric=True,
          reference="Rezaei & Fränti 2016, eq. 20 (E = 1); genieclust pair_sets_index(simplified=True)",
          formula=r"PSI_s = \max\Big(0, \frac{S - 1}{\max(K,L) - 1}\Big)",
          description="The pair sets index with its chance term E replaced by 1. One class and one cluster "
                      "score 1.",
          limit=_out_of_budget(_share_of_larger))
def psi_simplified(t, *, log_base, beta):
    return _either(t, lambda x: _psi_table(x, True), lambda x: _psi_batch(x, True))
