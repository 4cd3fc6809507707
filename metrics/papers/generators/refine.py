"""Refinement and scale (split, merge, scale), controlled noise (shuffle) and chance tables with
fixed margins (random_table, random_tables: the hypergeometric model).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable

import numpy as np
from scipy import sparse

from ...core.contingency import Contingency
from ...core.limits import check_generated_cells, check_generated_items
from .checks import _class_labels, _cluster_labels, _count, _fraction, _positive, _rng, _sizes, largest_remainder


def _column_index(t: Contingency, label) -> int:
    labels = list(t.col_labels)
    for j, lab in enumerate(labels):
        if lab == label or (isinstance(lab, np.generic) and lab.item() == label):
            return j
    raise ValueError(f"cluster {label!r} is not a column of the table; columns: {labels[:20]}"
                     + (" …" if len(labels) > 20 else ""))


def _check_table(t, name: str = "t") -> Contingency:
    if not isinstance(t, Contingency):
        raise ValueError(f"{name} must be a metrics.Contingency, got {type(t).__name__}")
    return t


def split(t: Contingency, cluster, parts) -> Contingency:
    """Split cluster ``cluster`` (a column label) into several clusters.

    ``parts`` is a number k ≥ 2 (equal shares) or a sequence of positive weights
    (shares in proportion). Each cell of the column is divided by the shares —
    every class keeps its proportion in every part; integer tables stay integer
    (largest remainder per cell). The new columns, labelled ``"<label>.1"``,
    ``"<label>.2"``, …, take the old column's place. A split is a refinement: the
    classes' homogeneity cannot drop ([RH07] §3, [Wu09] Property 3).
    """
    t = _check_table(t)
    if isinstance(parts, numbers.Integral) and not isinstance(parts, bool):
        weights = np.ones(_count(parts, "parts", 2))
    else:
        weights = _sizes(parts, "parts", min_len=2).astype(np.float64)
    j = _column_index(t, cluster)
    dense = t.to_dense()
    col = dense[:, j].astype(np.float64)
    shares = col[:, None] * weights[None, :] / weights.sum()
    if t.is_integer:
        shares = largest_remainder(shares, total=col, axis=1)
    new = np.concatenate([dense[:, :j], shares, dense[:, j + 1:]], axis=1)
    label = t.col_labels[j]
    labels = list(t.col_labels[:j]) + [f"{label}.{p + 1}" for p in range(weights.size)] + list(t.col_labels[j + 1:])
    return Contingency.from_table(new, list(t.row_labels), labels)


def merge(t: Contingency, clusters) -> Contingency:
    """Merge the listed clusters (column labels) into one, placed where the first was.

    The merged column is labelled by joining the labels with ``+``.
    """
    t = _check_table(t)
    if isinstance(clusters, (str, bytes)) or not isinstance(clusters, Iterable):
        raise ValueError("clusters must be a sequence of at least two column labels")
    clusters = list(clusters)
    if len(clusters) < 2:
        raise ValueError(f"clusters must name at least two columns to merge, got {clusters!r}")
    idx = [_column_index(t, c) for c in clusters]
    if len(set(idx)) != len(idx):
        raise ValueError(f"clusters lists a column twice: {clusters!r}")
    dense = t.to_dense()
    merged = dense[:, idx].sum(axis=1)
    keep = [j for j in range(dense.shape[1]) if j not in idx[1:]]
    out = dense[:, keep].copy()
    pos = keep.index(idx[0])
    out[:, pos] = merged
    labels = [t.col_labels[j] for j in keep]
    labels[pos] = "+".join(str(t.col_labels[j]) for j in idx)
    return Contingency.from_table(out, list(t.row_labels), labels)


def scale(t: Contingency, factor) -> Contingency:
    """Every cell times ``factor`` > 0 (an integer factor keeps an integer table).

    Scaling is how n-invariance is tested ([Wu09] Property 2: O(λM) = O(M)).
    """
    t = _check_table(t)
    f = _positive(factor, "factor")
    dense = t.to_dense()
    out = dense * int(f) if (t.is_integer and float(f).is_integer()) else dense.astype(np.float64) * float(f)
    return Contingency.from_table(out, list(t.row_labels), list(t.col_labels))


# ---------------------------------------------------------------------- random tables
def _fraction_count(fraction: float, n: int) -> int:
    return round(float(_fraction(fraction, "fraction")) * n)


def shuffle(t_or_labels, fraction: float, seed=None):
    """Noise at a controlled rate: the labels of a random ``fraction`` of the items
    are permuted among those items.

    * Given labels (a 1-D sequence), returns a numpy array of the same labels with
      round(fraction·n) randomly chosen positions permuted among themselves.
    * Given an integer :class:`Contingency`, shuffles the *cluster* labels of that
      fraction of the items and returns the new table (gold classes untouched).

    A permutation keeps every label's count, so the cluster sizes (the table's
    column margins) never change; fraction 0 returns the input unchanged, fraction 1
    a uniformly random relabelling with the same sizes (a chance table). Some chosen
    items may draw their own label back, so the share of changed labels is at most
    ``fraction``. ``seed``: an int, None or a ``numpy.random.Generator``.
    """
    rng = _rng(seed)
    if isinstance(t_or_labels, Contingency):
        t = t_or_labels
        if not t.is_integer:
            raise ValueError("shuffle needs an integer table (items to move); this one has fractional cells")
        check_generated_items(t.n, "shuffle")
        counts = t.values.astype(np.int64)
        gold = np.repeat(t.rows, counts)
        pred = np.repeat(t.cols, counts)
        pred = _shuffle_codes(pred, fraction, rng)
        n_r, n_c = t.shape
        table = sparse.coo_matrix((np.ones(gold.size, dtype=np.int64), (gold, pred)), shape=(n_r, n_c)).tocsr()
        return Contingency.from_table(table, list(t.row_labels), list(t.col_labels))
    if isinstance(t_or_labels, (str, bytes)) or not isinstance(t_or_labels, (Iterable, np.ndarray)):
        raise ValueError("shuffle takes a 1-D sequence of labels or a metrics.Contingency")
    labels = (np.asarray(t_or_labels) if isinstance(t_or_labels, np.ndarray)
              else np.asarray(list(t_or_labels), dtype=object))
    if labels.ndim != 1:
        raise ValueError(f"labels must be 1-D, got shape {labels.shape}")
    if labels.dtype == object and labels.size and all(isinstance(x, (int, np.integer)) for x in labels):
        labels = labels.astype(np.int64)
    return _shuffle_codes(labels, fraction, rng)


def _shuffle_codes(labels: np.ndarray, fraction: float, rng: np.random.Generator) -> np.ndarray:
    m = _fraction_count(fraction, labels.size)
    out = labels.copy()
    if m >= 2:
        chosen = rng.choice(labels.size, size=m, replace=False)
        out[chosen] = labels[rng.permutation(chosen)]
    return out


def _margins(row_sums, col_sums) -> tuple[np.ndarray, np.ndarray]:
    a = _sizes(row_sums, "row_sums", integer=True)
    b = _sizes(col_sums, "col_sums", integer=True)
    if int(a.sum()) != int(b.sum()):
        raise ValueError(f"row_sums and col_sums must have the same total, got {int(a.sum())} and {int(b.sum())}")
    return a, b


def random_tables(row_sums, col_sums, size: int, seed=None) -> np.ndarray:
    """``size`` random integer tables with the given margins: a (size, R, C) array.

    The hypergeometric (permutation) model of Hubert & Arabie (1985) used for
    chance baselines ([Wu09] §4.1): the classes and cluster sizes are fixed and items
    are assigned to clusters by a uniformly random permutation. Sampled exactly,
    vectorized over the batch — cell by cell from the conditional hypergeometric
    laws (n_ij given what rows 1..i−1 and columns 1..j−1 took) when the table has
    fewer cells than items, by permuting item labels otherwise.
    """
    a, b = _margins(row_sums, col_sums)
    size = _count(size, "size", 1)
    rng = _rng(seed)
    n = int(a.sum())
    r, c = a.size, b.size
    check_generated_cells(size * r * c, f"random_tables ({size:,} tables of {r:,} × {c:,})")
    if n <= r * c:
        out = np.zeros((size, r, c), dtype=np.int64)
        gold = np.repeat(np.arange(r), a)
        pred = np.repeat(np.arange(c), b)
        chunk = max(1, 10**7 // max(n, 1))
        for start in range(0, size, chunk):
            stop = min(size, start + chunk)
            perm = rng.permuted(np.broadcast_to(pred, (stop - start, n)), axis=1)
            flat = (np.arange(stop - start)[:, None] * (r * c) + gold[None, :] * c + perm).ravel()
            out[start:stop] = np.bincount(flat, minlength=(stop - start) * r * c).reshape(stop - start, r, c)
        return out
    if n >= 10**9:
        raise ValueError("random tables need fewer than 10^9 items (numpy's hypergeometric sampler)")
    out = np.zeros((size, r, c), dtype=np.int64)
    col_left = np.broadcast_to(b, (size, c)).copy()
    for i in range(r):
        row_left = np.full(size, a[i], dtype=np.int64)
        rest = col_left.sum(axis=1)  # items not yet placed in columns j..C of the remaining rows
        for j in range(c - 1):
            rest = rest - col_left[:, j]
            draw = rng.hypergeometric(col_left[:, j], rest, np.maximum(row_left, 0)) if i < r - 1 \
                else col_left[:, j].copy()
            draw = np.where(row_left > 0, draw, 0)
            out[:, i, j] = draw
            row_left -= draw
            col_left[:, j] -= draw
        out[:, i, c - 1] = row_left
        col_left[:, c - 1] -= row_left
    return out


def random_table(row_sums, col_sums, seed=None) -> Contingency:
    """One random table with the given margins (see :func:`random_tables`)."""
    a, b = _margins(row_sums, col_sums)
    table = random_tables(a, b, 1, seed)[0]
    return Contingency.from_table(table, _class_labels(a.size), _cluster_labels(b.size))
