"""Utt et al.'s dissimilarity enhancement ([Utt14] §5.1): the adjusted table of ambiguous data.

[Utt14] Utt, Springorum, Köper & Schulte im Walde (2014), Fuzzy V-Measure. LREC.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment

from ...core.contingency import Contingency
from ...core.memberships import Memberships, plain_memberships
from .ambiguous import _labels_tuple, _shared_pairs


def dissimilarity_adjusted(gold: Sequence, clusters: Sequence, mode: str = "fuzzy") -> Contingency:
    """The dissimilarity enhancement of Utt et al. (2014, §5.1): an adjusted table.

    ``gold[i]`` and ``clusters[i]`` are item i's classes and clusters (a label or a
    collection of labels). The paper's figures are missing from our text; this is
    the reading implemented, step by step (the paper lays tables out clusters ×
    classes; ours are classes × clusters, so its "row of a cluster" is our column):

    1. Similarity S(g, c): the ordinary table of the memberships,
       :meth:`Contingency.from_memberships` with the same ``mode`` — the mass g and
       c share.
    2. Dissimilarity D(g, c) = ½ (missing + remaining): *missing* is the mass of
       the items of g that are not in c, *remaining* the mass of the items of c
       that are not in g, each item counted with the mass it puts into the table
       (fuzzy: an item's row mass in g is w_g·|K(item)| — its share of g times its
       clusters — and its column mass in c is 1; count mode: |K(item)| and
       |G(item)|). For hard data this is half the symmetric difference
       |g Δ c| / 2, which reproduces the paper's hard dissimilarity matrix of
       Figure 9a ([[0, 1], [1, 0]] for p1 ∈ g1, g2; p2 ∈ g1; p3 ∈ g2 clustered
       identically). Its soft matrix (Figure 9b, 0.5 off the diagonal) is *not*
       reproduced: the off-diagonal pairs differ only by the unambiguous p2 and p3,
       whose mass is 1 under any reading of the surviving text.
    3. The mapping: a one-to-one assignment of classes to clusters maximizing the
       total score S − D (the paper: "the highest value determines the mapping";
       an optimal assignment makes that one-to-one).
    4. The adjusted table: every cell whose class and cluster are both mapped is
       set to 0 except the mapped cells, which keep S ("removing unnecessary
       similarity caused by ambiguous elements"). Cells of unmapped classes or
       clusters (when their numbers differ) keep S: their mass is all error.
    5. The error mass e = D(g, c) of each mapped pair is spread evenly over the
       cells of cluster c that were non-zero in S besides (g, c) — the paper's
       "distributed equally among the non-zero entries in each row", which are the
       zero entries of the adjusted table it also mentions; if there are none, over
       all other cells of the cluster; with a single class, over the class's other
       clusters.

    A perfect clustering has D = 0 on its mapped pairs, so the adjusted table is a
    matching (one non-zero cell per row and column) and scores V = 1 — the paper's
    Figure 11 claim. Returns a :class:`Contingency` of fractional masses.
    """
    m = _checked_memberships(gold, clusters, mode)
    return _adjusted(m, Contingency._from_plain_memberships(m, mode), mode)


def _adjusted(m: Memberships, base: Contingency, mode: str) -> Contingency:
    """:func:`dissimilarity_adjusted` of memberships read by :func:`_checked_memberships`, whose
    ordinary table (``from_memberships``, same ``mode``) is ``base``.

    Only the cells that share an item are visited one by one: elsewhere S = 0 and D is a class's
    part plus a cluster's, so S − D is one outer sum (the one dense array, for the assignment)
    and the adjusted table is built from its non-zero cells. Every value is computed by the
    same operations in the same order as on dense arrays, so the table is the same to the last
    bit (tests/papers/test_dissimilarity_arrays.py keeps the dense computation as the
    reference), without the dense arrays' cost on the Fuzzy lab's sizes."""
    d = _dissimilarity_of(m, base, mode)
    n_rows, n_cols = d.shape
    score = d.dense()
    np.subtract(0.0, score, out=score)                # S − D where S = 0: −D (0.0 − x, not −x: no −0.0)
    score.flat[d.cells] = d.sim - d.diss              # … and where the cell shares items
    r_idx, c_idx = linear_sum_assignment(score, maximize=True)
    error = d.at(r_idx * n_cols + c_idx)
    # Step 4: a cell of a mapped class and a mapped cluster keeps S only if it is a mapped pair.
    mapped_col = np.full(n_rows, -1, dtype=np.int64)   # each class's cluster, −1 if unmapped
    mapped_col[r_idx] = c_idx
    col_mapped = np.zeros(n_cols, bool)
    col_mapped[c_idx] = True
    rows, cols = d.cells // n_cols, d.cells % n_cols
    kept = (mapped_col[rows] < 0) | ~col_mapped[cols] | (mapped_col[rows] == cols)
    values = np.where(kept, d.sim, 0.0)
    in_sim = d.sim > 0
    add_rows, add_cols, shares = _spread_error(rows[in_sim], cols[in_sim], (n_rows, n_cols), error, r_idx, c_idx)
    # Step 5 on top: each cell receives at most one share (the mapping is one to one).
    cells, where = np.unique(np.concatenate([d.cells, add_rows * n_cols + add_cols]), return_inverse=True)
    out = np.zeros(cells.size)
    out[where[: d.cells.size]] = values
    added = where[d.cells.size:]
    out[added] = out[added] + shares
    nonzero = out != 0
    cells, out = cells[nonzero], out[nonzero]
    return Contingency._from_cells(cells // n_cols, cells % n_cols, out, (n_rows, n_cols), d.g_labels, d.c_labels)


def _spread_error(sim_rows: np.ndarray, sim_cols: np.ndarray, shape: tuple[int, int], error: np.ndarray,
                  r_idx: np.ndarray, c_idx: np.ndarray):
    """Step 5 of :func:`dissimilarity_adjusted`: the error mass ``error[p]`` of the mapped pair
    (``r_idx[p]``, ``c_idx[p]``) split evenly over the other non-zero cells of its cluster in S
    (the cells ``sim_rows``, ``sim_cols``; none: over all its other cells; a single class: over
    the class's other clusters). Returns the cells that receive a share, as (rows, cols, shares).

    All mapped pairs at once: a mapping is one to one, so each cluster's cells receive the share of
    one pair only — every cell gets at most one addition, as it would pair by pair."""
    n_rows, n_cols = shape
    none = np.zeros(0, dtype=np.int64)
    pairs = np.flatnonzero(error > 0)
    if pairs.size == 0:
        return none, none, np.zeros(0)
    r, c, e = r_idx[pairs], c_idx[pairs], error[pairs]
    if n_rows == 1:                                   # one class (so one pair): its other clusters
        rest = np.flatnonzero(np.arange(n_cols) != c[0])
        if rest.size == 0:                            # one cell: the error has nowhere to go
            return none, none, np.zeros(0)
        return np.zeros(rest.size, dtype=np.int64), rest, np.full(rest.size, e[0] / rest.size)
    pair_of_col = np.full(n_cols, -1, dtype=np.int64)
    pair_of_col[c] = np.arange(pairs.size)
    p = pair_of_col[sim_cols]                         # the cluster's non-zero cells …
    other = (p >= 0) & (sim_rows != r[np.maximum(p, 0)])   # … besides the mapped one
    rows, p = sim_rows[other], p[other]
    count = np.bincount(p, minlength=pairs.size)
    alone = np.flatnonzero(count == 0)                # none: all the cluster's other cells
    if alone.size:
        every = np.tile(np.arange(n_rows), alone.size)
        owner = np.repeat(alone, n_rows)
        keep = every != r[owner]
        rows, p = np.concatenate([rows, every[keep]]), np.concatenate([p, owner[keep]])
        count[alone] = n_rows - 1
    return rows, c[p], (e / count)[p]


def dissimilarity(gold: Sequence, clusters: Sequence, mode: str = "fuzzy"):
    """Utt et al.'s dissimilarity of every (class, cluster) pair ([Utt14] §5.1, Figure 9),
    as a DataFrame with classes as rows and clusters as columns.

    D(g, c) = ½ (missing + remaining), read as in :func:`dissimilarity_adjusted`:
    the mass of g's items outside c plus the mass of c's items outside g, halved.
    """
    _, diss, g_labels, c_labels = _similarity_dissimilarity(gold, clusters, mode)
    return pd.DataFrame(diss, index=g_labels, columns=c_labels)


def _checked_memberships(gold, clusters, mode) -> Memberships:
    """The memberships of :func:`dissimilarity_adjusted`'s input as arrays, or its refusal."""
    if mode not in ("fuzzy", "count"):
        raise ValueError(f"mode must be 'fuzzy' or 'count', got {mode!r}")
    if isinstance(gold, (str, bytes)) or not isinstance(gold, Iterable):
        raise ValueError("gold must be a sequence with one entry (label or labels) per item")
    if isinstance(clusters, (str, bytes)) or not isinstance(clusters, Iterable):
        raise ValueError("clusters must be a sequence with one entry (label or labels) per item")
    gold, clusters = list(gold), list(clusters)
    m = plain_memberships(gold, clusters) if gold and len(gold) == len(clusters) else None
    if m is None:  # entries of other kinds, or bad input: read (or refused) item by item
        gold = [_labels_tuple(g, "gold", i) for i, g in enumerate(gold)]
        clusters = [_labels_tuple(k, "clusters", i) for i, k in enumerate(clusters)]
        if len(gold) != len(clusters):
            raise ValueError(f"gold and clusters must have the same length, got {len(gold)} and {len(clusters)}")
        if not gold:
            raise ValueError("empty input: gold and clusters hold no items")
        Contingency.from_memberships(gold, clusters, mode=mode)  # refuses a missing label (NaN/None)
        m = plain_memberships(gold, clusters)                 # tuples of good labels now: never None
        assert m is not None
    return m


def _similarity_dissimilarity(gold, clusters, mode):
    """(S, D, class labels, cluster labels) for :func:`dissimilarity_adjusted`, as dense arrays."""
    m = _checked_memberships(gold, clusters, mode)
    base = Contingency._from_plain_memberships(m, mode)
    d = _dissimilarity_of(m, base, mode)
    diss = d.dense()
    diss.flat[d.cells] = d.diss
    return base.to_dense().astype(np.float64), diss, d.g_labels, d.c_labels


class _Dissimilarity(NamedTuple):
    """D of every (class, cluster) pair, kept sparse. A pair that shares no item has
    D = ½ (row_part[g] + col_part[c]): the mass of the class plus that of the cluster, halved.
    ``cells`` (flat indices g·Q + c, sorted) are the pairs that share an item or have S > 0;
    ``diss`` and ``sim`` hold D and S there."""

    shape: tuple
    g_labels: list
    c_labels: list
    row_part: np.ndarray
    col_part: np.ndarray
    cells: np.ndarray
    diss: np.ndarray
    sim: np.ndarray

    def dense(self) -> np.ndarray:
        """½ (row_part[g] + col_part[c]) in every cell (a fresh array: the callers write in it)."""
        out = np.add.outer(self.row_part, self.col_part)
        out *= 0.5
        return out

    def at(self, flat: np.ndarray) -> np.ndarray:
        """D at the flat cell indices ``flat``."""
        out = 0.5 * (self.row_part[flat // self.shape[1]] + self.col_part[flat % self.shape[1]])
        pos = np.minimum(np.searchsorted(self.cells, flat), max(self.cells.size - 1, 0))
        hit = self.cells[pos] == flat if self.cells.size else np.zeros(flat.size, bool)
        out[hit] = self.diss[pos[hit]]
        return out


def _dissimilarity_of(m: Memberships, base: Contingency, mode: str) -> _Dissimilarity:
    """D (and S) of memberships read by :func:`_checked_memberships` whose table (S) is ``base``.

    missing(g, c) is the mass of g's items less that of those also in c; remaining(g, c) the same
    for c. An item puts |K(item)| into each of its classes' rows and |G(item)| into each of its
    clusters' columns (count mode), or |K(item)| / |G(item)| and 1 (fuzzy). Every sum is of whole
    numbers, so exact in any order; a fuzzy row mass is summed per denominator d = |G(item)| and
    divided once, no other rounding. Where a pair shares no item, the shared mass is 0 and
    missing − 0, remaining − 0 are the class's and the cluster's whole masses: the same
    numbers as a dense computation gives there, by the same operations."""
    g_labels, c_labels = list(base.row_labels), list(base.col_labels)
    R, Q, n_items = len(g_labels), len(c_labels), m.n_items
    g_items, g_labs, c_items, c_labs = m.g_items, m.g_codes, m.c_items, m.c_codes
    n_g = np.bincount(g_items, minlength=n_items)            # classes of each item
    n_c = np.bincount(c_items, minlength=n_items)            # clusters of each item
    items, g_of, c_of = _shared_pairs(m)
    pair_cells = g_of * Q + c_of
    cells, where = np.unique(np.concatenate([pair_cells, base.rows * Q + base.cols]), return_inverse=True)
    at_pair = where[: pair_cells.size]
    sim = np.zeros(cells.size)
    sim[where[pair_cells.size:]] = base.values
    g_cell, c_cell = cells // Q, cells % Q

    def per_class(w):   # Σ w(item) over the items of each class
        return np.bincount(g_labs, weights=w[g_items], minlength=R)

    def per_cluster(w):  # … of each cluster
        return np.bincount(c_labs, weights=w[c_items], minlength=Q)

    def shared(w, keep=slice(None)):  # Σ w(item) over the items in both g and c, per cell
        return np.bincount(at_pair[keep], weights=w[items[keep]], minlength=cells.size)

    if mode == "fuzzy":
        ones = np.ones(n_items)
        row_part, missing = np.zeros(R), np.zeros(cells.size)
        for d in np.unique(n_g):
            w = np.where(n_g == d, n_c, 0).astype(np.float64)
            whole = per_class(w)
            row_part += whole / d
            missing += (whole[g_cell] - shared(w, n_g[items] == d)) / d
        col_part = per_cluster(ones)
        remaining = col_part[c_cell] - shared(ones)
    else:
        row_part, col_part = per_class(n_c.astype(np.float64)), per_cluster(n_g.astype(np.float64))
        missing = row_part[g_cell] - shared(n_c.astype(np.float64))
        remaining = col_part[c_cell] - shared(n_g.astype(np.float64))
    return _Dissimilarity((R, Q), g_labels, c_labels, row_part, col_part, cells,
                          0.5 * (missing + remaining), sim)
