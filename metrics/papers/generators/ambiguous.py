"""Ambiguous data (Utt et al. 2014, §4): gold standards with several classes per item, and the
softening of a hard clustering towards the perfect soft one.

[Utt14] Utt, Springorum, Köper & Schulte im Walde (2014), Fuzzy V-Measure. LREC.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from ...core.memberships import Memberships, pair_positions
from .checks import _count, _rng


def ambiguity_rates(n_points: int) -> np.ndarray:
    """Utt et al.'s ambiguity-rate scheme ([Utt14] §4.1): how many classes each point has.

    Half of the points (rounded up) get rate 1; of the rest, half (rounded up)
    get rate 2, and so on, one higher for each halving: 7 points give
    1, 1, 1, 1, 2, 2, 3 — the paper's example.
    """
    remaining = _count(n_points, "n_points", 1)
    out = []
    rate = 1
    while remaining:
        take = (remaining + 1) // 2
        out.extend([rate] * take)
        remaining -= take
        rate += 1
    return np.asarray(out, dtype=np.int64)


def random_gold(n_points: int, n_classes: int | None = None, seed=None, rates=None) -> list[tuple]:
    """A random ambiguous gold standard: point i belongs to ``rates[i]`` distinct classes
    drawn uniformly from ``n_classes`` ([Utt14] §4.1, Experiments 1–3).

    ``rates`` defaults to :func:`ambiguity_rates` and ``n_classes`` to ``n_points``
    (Experiment 3: 500 classes for 500 items, half of them ambiguous). Classes are
    the integers 0..n_classes−1; each point's tuple lists its classes in random
    order (its first class is the one a hard clustering keeps in
    :func:`softening_steps`). Returns one tuple per point.
    """
    n_points = _count(n_points, "n_points", 1)
    n_classes = n_points if n_classes is None else _count(n_classes, "n_classes", 1)
    if rates is None:
        rates = ambiguity_rates(n_points)
    else:
        rates = np.asarray(list(rates))
        if rates.shape != (n_points,) or rates.dtype.kind not in "iu" or (rates < 1).any():
            raise ValueError(f"rates must hold {n_points} integers ≥ 1, one per point")
    if int(rates.max()) > n_classes:
        raise ValueError(f"n_classes ({n_classes}) is smaller than the largest ambiguity rate ({int(rates.max())})")
    rng = _rng(seed)
    return [tuple(row[:r]) for row, r in zip(_distinct_draws(n_classes, rates, rng).tolist(), rates.tolist())]


def _distinct_draws(n_classes: int, rates: np.ndarray, rng) -> np.ndarray:
    """(points, max rate): row i starts with rates[i] distinct classes of 0..n_classes−1, drawn
    one after the other uniformly from those not drawn yet (so in uniformly random order).

    All points at once, column by column: draw c takes u uniform on 0..n−1−c and steps it past
    each class the point already drew, in increasing order (u ≥ v: u + 1), which maps it onto
    the n − c classes left. Points whose rate is below c draw on as well and ignore the rest of
    their row: no Python loop over the points, as a point-by-point
    ``rng.choice(n, r, replace=False)`` would be."""
    width = int(rates.max())
    out = np.empty((rates.size, width), dtype=np.int64)
    for c in range(width):
        u = rng.integers(0, n_classes - c, rates.size)
        for v in np.sort(out[:, :c], axis=1).T:   # the classes drawn so far, smallest first
            u += u >= v
        out[:, c] = u
    return out


def softening_steps(gold: Sequence, n_steps: int | None = None) -> list[list[tuple]]:
    """Experiment 3 of [Utt14] §4.3: clusterings from hard to the perfect soft one.

    Step 0 puts every point in one cluster, the cluster of its first gold class
    (cluster labels are the class labels: each cluster "correctly associated with
    one gold standard class"). Each following step adds one more correct cluster
    assignment — the points' further classes, point by point in the gold
    standard's order — until every point is in the clusters of all its classes,
    the clustering identical to the gold standard. ``n_steps`` keeps that many
    clusterings evenly spaced over this sequence (first and last included);
    None keeps every step. Each clustering is a list of tuples, one per point.
    """
    gold = [_labels_tuple(g, "gold", i) for i, g in enumerate(gold)]
    if not gold:
        raise ValueError("gold is empty: it needs at least one point")
    extra = [(i, lab) for i, g in enumerate(gold) for lab in g[1:]]
    total = len(extra) + 1
    if n_steps is None:
        keep = np.arange(total)
    else:
        n_steps = _count(n_steps, "n_steps", 1)
        keep = np.unique(np.rint(np.linspace(0, total - 1, min(n_steps, total))).astype(int))
    out = []
    for s in keep:
        current = [[g[0]] for g in gold]
        for i, lab in extra[:s]:
            current[i].append(lab)
        out.append([tuple(c) for c in current])
    return out


def _labels_tuple(entry, name: str, i: int) -> tuple:
    if isinstance(entry, Mapping):
        raise ValueError(f"{name}[{i}]: weighted memberships are not supported here; give a label or labels")
    if isinstance(entry, (str, bytes)) or not isinstance(entry, Iterable):
        return (entry,)
    t = tuple(dict.fromkeys(entry))
    if not t:
        raise ValueError(f"{name}[{i}] is empty: every item needs at least one label")
    return t


def _shared_pairs(m: Memberships):
    """Every (item, class, cluster) the item belongs to both of, as three arrays: the pairs of an
    item's class and cluster memberships (|G(item)|·|K(item)| per item, few)."""
    g_pos, c_pos = pair_positions(m.g_items, m.c_items, m.n_items)
    return m.g_items[g_pos], m.g_codes[g_pos], m.c_codes[c_pos]
