"""Memberships of ambiguous data (Utt et al. 2014): items with several classes or clusters.

:meth:`Contingency.from_memberships <metrics.core.contingency.Contingency.from_memberships>`
reads entries that are plain labels or collections of labels as arrays
(:func:`plain_memberships`, :func:`plain_cells`), and anything else — weights included — item
by item (:func:`weighted_cells`); both give the same cells, in the same order, with the same sums.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from itertools import chain
from typing import NamedTuple

import numpy as np

from .cells import normalize_counts

__all__ = ["Memberships", "membership_weights", "plain_memberships", "pair_positions", "plain_cells",
           "weighted_cells"]


def membership_weights(entry, name: str, i: int) -> dict:
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
# generator, another object — goes item by item (``membership_weights``), which also words every refusal.
_LABEL_COLLECTIONS = frozenset({tuple, list, set, frozenset})
_SINGLE_LABELS = frozenset({int, float, str, bytes, bool, np.int64, np.int32, np.float64, np.str_})


class Memberships(NamedTuple):
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


def plain_memberships(gold: list, clusters: list) -> Memberships | None:
    """The memberships of two equally long, non-empty lists of entries as arrays, or None when
    an entry is not a plain label or collection of labels, is empty, or holds a missing label
    (NaN/None): the caller then goes item by item, which refuses the bad entry in its words."""
    g, c = _label_codes(gold), _label_codes(clusters)
    if g is None or c is None:
        return None
    return Memberships(*g, *c, len(gold))


def _label_codes(entries: list) -> tuple[np.ndarray, np.ndarray, list] | None:
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


def pair_positions(g_items: np.ndarray, c_items: np.ndarray, n_items: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions in the class and the cluster memberships of every (class, cluster) pair of an
    item, item by item, each class with each of the item's clusters in turn (|G|·|K| per item)."""
    c_count = np.bincount(c_items, minlength=n_items)
    c_start = np.cumsum(c_count) - c_count
    reps = c_count[g_items]                             # each class membership, once per cluster
    g_pos = np.repeat(np.arange(g_items.size), reps)
    block = np.repeat(np.cumsum(reps) - reps, reps)     # where each repeated block starts
    c_pos = c_start[g_items[g_pos]] + np.arange(g_pos.size) - block
    return g_pos, c_pos


def plain_cells(m: Memberships, mode: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, list, list]:
    """The cells (rows, cols, values, row labels, column labels) of memberships without weights,
    in arrays: the same cells, in the same order, with the same sums as the per-item loop of
    :func:`weighted_cells` (a cell's additions run in item order in both: ``np.bincount`` adds its
    weights in input order), at a fraction of its cost."""
    g_pos, c_pos = pair_positions(m.g_items, m.c_items, m.n_items)
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
    return key // n_q, key % n_q, normalize_counts(vals), list(m.g_labels), list(m.c_labels)


def weighted_cells(gold: list, clusters: list, mode: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, list, list]:
    """The cells of any memberships, weights included, item by item (the reference the array
    path of :func:`plain_cells` matches exactly)."""
    cells: dict[tuple[Hashable, Hashable], float] = {}
    for i, (g, k) in enumerate(zip(gold, clusters, strict=True)):
        gw, kw = membership_weights(g, "gold", i), membership_weights(k, "clusters", i)
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
    vals = normalize_counts(np.fromiter(cells.values(), dtype=np.float64, count=len(cells)))
    return rows, cols, vals, row_labels, col_labels
