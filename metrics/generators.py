"""Constructed clusterings of the papers, as contingency tables.

Every table generator returns a :class:`~metrics.Contingency` (rows gold classes,
columns clusters); the ambiguity generators (Utt et al. 2014) return membership
data — one tuple of labels per item — that :meth:`Contingency.from_memberships`
accepts. Bad parameters raise ``ValueError`` naming the parameter.

Families
--------
* :func:`dom` / :func:`dom_tables` — Dom's parametric family with Rosenberg &
  Hirschberg's noise classes ([Dom01] §5, [RH07] §4, Figure 3).
* :func:`perfect`, :func:`single_cluster`, :func:`singletons`, :func:`no_knowledge`
  — the extreme cases of [RR09] (defined in §2, scored in §3–4).
* :func:`solution_r` — Reichart & Rappoport's cyclic-noise solution R ([RR09] §5, Table 1).
* :func:`uniform_effect`, :func:`cv`, :func:`dcv` — Wu et al.'s K-means uniform
  effect and coefficient of variation ([Wu09] §3.1–3.2, Table 3).
* :func:`split`, :func:`merge`, :func:`scale` — refinement and scale.
* :func:`shuffle`, :func:`random_table`, :func:`random_tables` — controlled noise
  and chance tables with fixed margins (hypergeometric model).
* :func:`ambiguity_rates`, :func:`random_gold`, :func:`softening_steps`,
  :func:`dissimilarity`, :func:`dissimilarity_adjusted` — ambiguous data ([Utt14] §4–5).

References
----------
[Dom01] Dom (2001), An information-theoretic external cluster-validity measure. IBM RJ 10219.
[RH07] Rosenberg & Hirschberg (2007), V-Measure. EMNLP-CoNLL.
[RR09] Reichart & Rappoport (2009), The NVI clustering evaluation measure. CoNLL.
[Wu09] Wu, Xiong & Chen (2009), Adapting the right measures for K-means clustering. KDD.
[Utt14] Utt, Springorum, Köper & Schulte im Walde (2014), Fuzzy V-Measure. LREC.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.optimize import linear_sum_assignment

from .contingency import Contingency, _Memberships, _pair_positions, _plain_memberships
from .limits import check_generated_cells, check_generated_items

__all__ = [
    "dom_each",
    "dom", "dom_tables", "dom_matching", "dom_realizable",
    "perfect", "single_cluster", "singletons", "no_knowledge", "solution_r",
    "uniform_effect", "cv", "dcv",
    "split", "merge", "scale",
    "shuffle", "random_table", "random_tables",
    "ambiguity_rates", "random_gold", "softening_steps", "dissimilarity", "dissimilarity_adjusted",
    "largest_remainder",
]

#: Items of a Dom table when ``n`` is not given (any n gives the same value for an
#: n-invariant measure; pair-counting measures change slightly with n).
DOM_DEFAULT_N = 1000


# ---------------------------------------------------------------------- validation
def _count(value, name: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer():
            value = int(value)
        else:
            raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value


def _fraction(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must lie in [0, 1], got {value}")
    return float(value)


def _positive(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return value


def _sizes(sizes, name: str, *, integer: bool = False, min_len: int = 1) -> np.ndarray:
    """A 1-D array of positive finite sizes (int64 when all are whole numbers)."""
    if isinstance(sizes, (str, bytes)) or not isinstance(sizes, (Iterable, np.ndarray)):
        raise ValueError(f"{name} must be a sequence of sizes, got {type(sizes).__name__}")
    try:
        arr = np.asarray(list(sizes) if not isinstance(sizes, np.ndarray) else sizes, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must hold numbers") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {arr.shape}")
    if arr.size < min_len:
        raise ValueError(f"{name} needs at least {min_len} size(s), got {arr.size}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} has NaN or infinite sizes")
    if (arr <= 0).any():
        k = int(np.flatnonzero(arr <= 0)[0])
        raise ValueError(f"{name} must be positive: {name}[{k}] = {arr[k]:g}")
    whole = bool(np.all(arr == np.floor(arr)))
    if integer and not whole:
        raise ValueError(f"{name} must be whole numbers (item counts)")
    return arr.astype(np.int64) if whole else arr


def _rng(seed) -> np.random.Generator:
    """A numpy Generator from a seed, None, or a Generator (used as is)."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer, None or a numpy Generator, got {seed!r}")
    return np.random.default_rng(seed)


def largest_remainder(values, total=None, axis: int = -1) -> np.ndarray:
    """Round non-negative ``values`` to integers summing to ``total`` along ``axis``.

    Hamilton's largest-remainder rule: take the floors, then give the missing units
    to the largest fractional parts (ties to the earlier position). ``total``
    defaults to the rounded sum, so a table of expected counts keeps its n.
    """
    x = np.moveaxis(np.asarray(values, dtype=np.float64), axis, -1)
    if (x < 0).any() or not np.isfinite(x).all():
        raise ValueError("values to round must be finite and non-negative")
    goal = np.rint(x.sum(axis=-1)) if total is None else np.broadcast_to(np.asarray(total, dtype=np.float64),
                                                                         x.shape[:-1])
    # Floors of values that are integers up to rounding noise must not lose a unit.
    x = np.where(np.abs(x - np.rint(x)) < 1e-9, np.rint(x), x)
    floors = np.floor(x)
    short = (goal - floors.sum(axis=-1)).astype(np.int64)
    if (short < 0).any() or (short > x.shape[-1]).any():
        raise ValueError("total is not reachable by rounding these values")
    order = np.argsort(-(x - floors), axis=-1, kind="stable")
    rank = np.argsort(order, axis=-1, kind="stable")  # position of each entry in that order
    out = floors + (rank < short[..., None])
    return np.moveaxis(out.astype(np.int64), -1, axis)


# ---------------------------------------------------------------------- Dom's family
def dom_matching(n_classes: int, n_useful_clusters: int) -> np.ndarray:
    """Dom's matching of useful classes to useful clusters: a boolean (|C|, |Ku|) array.

    Dom (2001, §5, the parametric family; the report text is stop-word stripped):
    when there are at least as many useful clusters as classes, "the number of
    clusters assigned to class i is the ceiling of the ratio of the number of
    unassigned clusters remaining to the number of unassigned classes remaining",
    clusters taken in order; with more classes than clusters the class-to-cluster
    assignment "proceeds in a manner exactly analogous". So class 1 gets
    ⌈|Ku|/|C|⌉ consecutive clusters, class 2 ⌈(|Ku| − ⌈|Ku|/|C|⌉)/(|C| − 1)⌉ …, i.e.
    with |Ku| = q|C| + r the first r classes get q + 1 clusters and the others q.
    Every cluster (every class) lies in exactly one matched pair: there are
    max(|C|, |Ku|) matches. 3 classes and 2 clusters give C1, C2 → K1 and C3 → K2,
    as in Rosenberg & Hirschberg's Figure 3.
    """
    c = _count(n_classes, "n_classes", 1)
    k = _count(n_useful_clusters, "n_useful_clusters", 1)
    return _matching_mask(np.array([c]), np.array([k]), c, k)[0]


def _block_of(index: np.ndarray, many: np.ndarray, few: np.ndarray) -> np.ndarray:
    """Which of ``few`` consecutive blocks (ceiling-first sizes) holds position ``index``
    among ``many`` positions: the closed form of Dom's ceiling rule."""
    q, r = np.divmod(many, few)
    boundary = (q + 1) * r
    first = index // (q + 1)
    rest = r + (index - boundary) // np.maximum(q, 1)
    return np.where(index < boundary, first, rest)


def _matching_mask(c: np.ndarray, k: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """(B, rows, cols) mask of matched useful pairs for per-table |C| = c, |Ku| = k."""
    c = c[:, None, None]
    k = k[:, None, None]
    i = np.arange(rows)[None, :, None]
    j = np.arange(cols)[None, None, :]
    clusters_per_class = k >= c
    # |Ku| ≥ |C|: cluster j belongs to the block of class i; otherwise class i to the block of cluster j.
    cls_of_cluster = _block_of(j, np.maximum(k, 1), np.maximum(c, 1))
    cl_of_class = _block_of(i, np.maximum(c, 1), np.maximum(k, 1))
    mask = np.where(clusters_per_class, cls_of_cluster == i, cl_of_class == j)
    return mask & (i < c) & (j < k)


def _as_param(x, name: str) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(x))
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a number or a 1-D array, got shape {arr.shape}")
    if arr.dtype.kind not in "iuf" or not np.isfinite(arr.astype(np.float64)).all():
        raise ValueError(f"{name} must hold finite numbers")
    return arr


def _first_bad(mask: np.ndarray, size: int) -> str:
    if size == 1:
        return ""
    return f" (setting {int(np.flatnonzero(mask)[0])})"


def dom_realizable(n_classes, n_useful_clusters, n_noise_clusters=0, n_noise_classes=0,
                   eps1=0.0, eps2=0.0, eps3=0.0) -> np.ndarray:
    """Which parameter settings :func:`dom_tables` can build (broadcast arrays in, bools out).

    A setting is unrealizable when an error mass has no cells to go to: ε1 > 0
    without a non-matching useful pair (one useful class or one useful cluster),
    ε2 > 0 without noise clusters, ε3 > 0 without noise classes. Counts and ε's
    out of range are errors, not unrealizable settings (see :func:`dom_tables`).
    """
    c, k, kn, cn, e1, e2, e3 = np.broadcast_arrays(*(np.atleast_1d(np.asarray(v)) for v in (
        n_classes, n_useful_clusters, n_noise_clusters, n_noise_classes, eps1, eps2, eps3)))
    nonmatching = c * k - np.maximum(c, k)
    return ~(((e1 > 0) & (nonmatching == 0)) | ((e2 > 0) & (kn == 0)) | ((e3 > 0) & (cn == 0)))


def dom_tables(n_classes, n_useful_clusters, n_noise_clusters=0, n_noise_classes=0,
               eps1=0.0, eps2=0.0, eps3=0.0, n=DOM_DEFAULT_N, *, shape=None) -> np.ndarray:
    """Expected-count tables of Dom's family for many settings at once: a (B, R, C) array.

    Every argument is a number or a 1-D array; they broadcast to B settings. Table b
    has rows ``C1..C|C|`` (useful classes) then the noise classes, columns
    ``K1..K|Ku|`` then the noise clusters, padded with empty rows/columns to a
    common shape (``shape`` = (R, C) to fix it). See :func:`dom` for the
    construction. Raises ``ValueError`` naming the parameter (and the setting) when
    a count is negative or not whole, an ε is outside [0, 1], ε1 + ε2 + ε3 > 1, or a
    setting is unrealizable (:func:`dom_realizable`).
    """
    names = ("n_classes", "n_useful_clusters", "n_noise_clusters", "n_noise_classes", "eps1", "eps2", "eps3", "n")
    raw = [_as_param(v, name) for v, name in zip(
        (n_classes, n_useful_clusters, n_noise_clusters, n_noise_classes, eps1, eps2, eps3, n), names)]
    try:
        c, k, kn, cn, e1, e2, e3, nn = np.broadcast_arrays(*raw)
    except ValueError:
        raise ValueError("the parameters of dom_tables must broadcast to one length: "
                         + ", ".join(f"{nm}={a.size}" for nm, a in zip(names, raw))) from None
    size = c.size
    for arr, name, minimum in ((c, "n_classes", 1), (k, "n_useful_clusters", 1),
                               (kn, "n_noise_clusters", 0), (cn, "n_noise_classes", 0)):
        bad = (arr != np.floor(arr)) | (arr < minimum)
        if bad.any():
            hint = " (Rosenberg & Hirschberg: |Knoise| < |K|, so at least one useful cluster)" \
                if name == "n_useful_clusters" else ""
            raise ValueError(f"{name} must be a whole number ≥ {minimum}{hint}, got "
                             f"{arr[bad][0]:g}{_first_bad(bad, size)}")
    c, k, kn, cn = (a.astype(np.int64) for a in (c, k, kn, cn))
    for arr, name in ((e1, "eps1"), (e2, "eps2"), (e3, "eps3")):
        bad = (arr < 0) | (arr > 1)
        if bad.any():
            raise ValueError(f"{name} must lie in [0, 1], got {arr[bad][0]:g}{_first_bad(bad, size)}")
    total = e1 + e2 + e3
    bad = total > 1 + 1e-12
    if bad.any():
        raise ValueError(f"eps1 + eps2 + eps3 = ε must not exceed 1, got {total[bad][0]:g}{_first_bad(bad, size)}")
    bad = nn <= 0
    if bad.any():
        raise ValueError(f"n must be positive, got {nn[bad][0]:g}{_first_bad(bad, size)}")
    nonmatching = c * k - np.maximum(c, k)
    for cond, name, why in (((e1 > 0) & (nonmatching == 0), "eps1",
                             "needs a non-matching useful class/cluster pair (at least 2 useful classes and 2 useful clusters)"),
                            ((e2 > 0) & (kn == 0), "eps2", "needs n_noise_clusters ≥ 1"),
                            ((e3 > 0) & (cn == 0), "eps3", "needs n_noise_classes ≥ 1")):
        if cond.any():
            raise ValueError(f"{name} > 0 {why}{_first_bad(cond, size)}")

    rows = int((c + cn).max()) if shape is None else int(shape[0])
    cols = int((k + kn).max()) if shape is None else int(shape[1])
    if rows < int((c + cn).max()) or cols < int((k + kn).max()):
        raise ValueError(f"shape {shape} is smaller than the largest table ({int((c + cn).max())}, {int((k + kn).max())})")
    check_generated_cells(size * rows * cols, f"dom_tables ({size:,} settings of {rows:,} × {cols:,})")
    matched = _matching_mask(c, k, rows, cols)
    i = np.arange(rows)[None, :, None]
    j = np.arange(cols)[None, None, :]
    cb, kb, knb, cnb = (a[:, None, None] for a in (c, k, kn, cn))
    useful_row = i < cb
    noise_row = (i >= cb) & (i < cb + cnb)
    useful_col = j < kb
    noise_col = (j >= kb) & (j < kb + knb)
    # Masses in items first (n·ε1 etc.), then shares: with decimal ε's and a round n
    # this keeps whole counts whole (Figure 3's 0.6·60/3 is 11.999… the other way round).
    nb = nn[:, None, None].astype(np.float64)
    m1, m2, m3 = (nb * e[:, None, None] for e in (e1, e2, e3))
    per_match = np.maximum(nb - m1 - m2 - m3, 0.0) / np.maximum(cb, kb)
    per_nonmatch = m1 / np.maximum(nonmatching, 1)[:, None, None]
    per_noise_cluster = m2 / np.maximum(cb * knb, 1)
    per_noise_class = m3 / np.maximum(cnb * kb, 1)
    x = np.where(useful_row & useful_col, np.where(matched, per_match, per_nonmatch), 0.0)
    x = np.where(useful_row & noise_col, per_noise_cluster, x)
    x = np.where(noise_row & useful_col, per_noise_class, x)
    # Counts within rounding of a whole number are that number (exact integer tables).
    whole = np.rint(x)
    return np.where(np.abs(x - whole) <= 1e-12 * np.maximum(whole, 1.0), whole, x)


def dom(n_classes: int, n_useful_clusters: int, n_noise_clusters: int = 0, n_noise_classes: int = 0,
        eps1: float = 0.0, eps2: float = 0.0, eps3: float = 0.0, n=DOM_DEFAULT_N, *,
        integer: bool = False) -> Contingency:
    """Dom's parametric clustering family with Rosenberg & Hirschberg's noise classes.

    Parameters (names of [RH07] §4):

    * ``n_classes`` = |C|, the *useful* classes; ``n_noise_classes`` = |Cnoise| more.
    * ``n_useful_clusters`` = |Ku|; ``n_noise_clusters`` = |Knoise| more, so
      |K| = |Ku| + |Knoise| and |Knoise| < |K| always (|Ku| ≥ 1).
    * ``eps1``, ``eps2``, ``eps3``: error mass on non-matching useful pairs, in noise
      clusters, in noise classes; ε = ε1 + ε2 + ε3 ≤ 1.
    * ``n``: number of items. Cells are expected counts n·p(c, k) (real-valued);
      ``integer=True`` rounds them by largest remainder, keeping n.

    Construction (probabilities, then times n):

    * useful classes are matched to useful clusters by Dom's ceiling rule
      (:func:`dom_matching`): max(|C|, |Ku|) matched pairs share 1 − ε evenly;
    * ε1 is spread evenly over the |C|·|Ku| − max(|C|, |Ku|) non-matching useful pairs;
    * ε2 evenly over the |C|·|Knoise| (useful class, noise cluster) cells;
    * ε3 evenly over the |Cnoise|·|Ku| (noise class, useful cluster) cells;
    * noise-class/noise-cluster cells are empty.

    The reading. [RH07]'s text defines |Cu| = |C| − |Cnoise| (|C| counting the noise
    classes), but its Figure 3 caption — n = 60, |K| = 3, |Knoise| = 1, |C| = 3,
    |Cnoise| = 1 — counts |K| with its noise cluster and |C| without its noise
    class: the table has 3 useful classes, 1 noise class, 2 useful and 1 noise
    cluster. The caption's counting is the one that reproduces the figure and the
    one their grid needs (|C| = 5 fixed while |Cnoise| runs to 6, impossible if
    |Cnoise| < |C| counted the noise classes), so ``n_classes`` counts useful
    classes only. With these rules ``dom(3, 2, 1, 1, .1, .2, .1, n=60)`` is exactly
    Figure 3 (rows C1, C2, C3, Cnoise1; columns K1, K2, Knoise1)::

        [[12, 2, 4], [12, 2, 4], [2, 12, 4], [3, 3, 0]]

    since 0.6·60/3 = 12 per match (C1, C2 → K1 by the ceiling rule, C3 → K2),
    0.1·60/3 = 2 per non-matching pair, 0.2·60/3 = 4 per noise-cluster cell and
    0.1·60/2 = 3 per noise-class cell.

    Settings whose error mass has nowhere to go (ε1 > 0 with one useful class or
    cluster, ε2 > 0 without noise clusters, ε3 > 0 without noise classes) raise
    ``ValueError``, as do negative counts, ε outside [0, 1] and ε > 1. Empty rows and
    columns (a noise class with ε3 = 0) are dropped by :class:`Contingency`.
    """
    c = _count(n_classes, "n_classes", 1)
    k = _count(n_useful_clusters, "n_useful_clusters", 1)
    kn = _count(n_noise_clusters, "n_noise_clusters", 0)
    cn = _count(n_noise_classes, "n_noise_classes", 0)
    e1, e2, e3 = (_fraction(e, name) for e, name in ((eps1, "eps1"), (eps2, "eps2"), (eps3, "eps3")))
    n = _positive(n, "n")
    if integer and not float(n).is_integer():
        raise ValueError(f"n must be a whole number for integer=True, got {n!r}")
    return _dom_contingency(dom_tables(c, k, kn, cn, e1, e2, e3, n)[0], c, k, kn, cn, n, integer)


def _dom_contingency(table: np.ndarray, c: int, k: int, kn: int, cn: int, n, integer: bool) -> Contingency:
    """One table of :func:`dom_tables` (cut to its own shape) as :func:`dom` returns it."""
    table = table[: c + cn, : k + kn]
    if integer:
        table = largest_remainder(table.ravel(), total=n).reshape(table.shape)
    rows = [f"C{i + 1}" for i in range(c)] + [f"Cnoise{i + 1}" for i in range(cn)]
    cols = [f"K{j + 1}" for j in range(k)] + [f"Knoise{j + 1}" for j in range(kn)]
    return Contingency.from_table(table, row_labels=rows, col_labels=cols)


def dom_each(settings: Sequence[Mapping], *, integer: bool = False) -> list[Contingency | ValueError]:
    """:func:`dom` of each setting (a mapping of its keyword arguments), built with one
    :func:`dom_tables` call: per setting, the same table ``dom(**setting, integer=integer)``
    returns, or the ``ValueError`` it raises (a sweep shows why a value cannot be built).

    Tables are identical to :func:`dom`'s (each cell is the same elementwise arithmetic);
    ``tests/test_generators.py`` checks it cell for cell.
    """
    out: list[Contingency | ValueError | None] = [None] * len(settings)
    known = {"n_classes", "n_useful_clusters", "n_noise_clusters", "n_noise_classes", "eps1", "eps2", "eps3", "n"}
    batch, rows = [], []
    for i, s in enumerate(settings):
        # dom()'s own scalar checks; a setting that fails one is left to dom(), to raise its error.
        try:
            if not set(s) <= known:
                continue
            counts = (_count(s["n_classes"], "n_classes", 1), _count(s["n_useful_clusters"], "n_useful_clusters", 1),
                      _count(s.get("n_noise_clusters", 0), "n_noise_clusters"),
                      _count(s.get("n_noise_classes", 0), "n_noise_classes"))
            eps = tuple(_fraction(s.get(e, 0.0), e) for e in ("eps1", "eps2", "eps3"))
            n = _positive(s.get("n", DOM_DEFAULT_N), "n")
        except (KeyError, TypeError, ValueError):
            continue
        if sum(eps) <= 1 + 1e-12 and not (integer and not float(n).is_integer()):
            batch.append(i)
            rows.append((*counts, *eps, n))
    if rows:
        c, k, kn, cn = (np.array([r[j] for r in rows], dtype=np.int64) for j in range(4))
        e1, e2, e3 = (np.array([r[j] for r in rows], dtype=np.float64) for j in range(4, 7))
        realizable = dom_realizable(c, k, kn, cn, e1, e2, e3)
        keep = np.flatnonzero(realizable)
        if keep.size:
            ns = np.array([rows[j][7] for j in keep], dtype=np.float64)
            tables = dom_tables(c[keep], k[keep], kn[keep], cn[keep], e1[keep], e2[keep], e3[keep], ns)
            for b, j in enumerate(keep.tolist()):
                r = rows[j]
                out[batch[j]] = _dom_contingency(tables[b], r[0], r[1], r[2], r[3], r[7], integer)
    for i, setting in enumerate(settings):
        if out[i] is None:
            try:
                out[i] = dom(**setting, integer=integer)
            except ValueError as exc:
                out[i] = exc
    return out


# ---------------------------------------------------------------------- extreme cases
def _class_labels(count: int) -> list[str]:
    return [f"C{i + 1}" for i in range(count)]


def _cluster_labels(count: int) -> list[str]:
    return [f"K{j + 1}" for j in range(count)]


def perfect(class_sizes) -> Contingency:
    """One cluster per class holding exactly that class (a diagonal table)."""
    a = _sizes(class_sizes, "class_sizes")
    check_generated_cells(a.size * a.size, f"perfect ({a.size:,} classes)")
    return Contingency.from_table(np.diag(a), _class_labels(a.size), _cluster_labels(a.size))


def single_cluster(class_sizes) -> Contingency:
    """Every item in one cluster ([RR09] §3: H(C|K) = H(C), V = 0, NVI = 1)."""
    a = _sizes(class_sizes, "class_sizes")
    return Contingency.from_table(a[:, None], _class_labels(a.size), ["K1"])


def singletons(class_sizes) -> Contingency:
    """Every item in a cluster of its own ([RR09] §3: H(C|K) = 0, VI = H(K|C)).

    Built sparse (|C| × n non-zero cells only), so n = 10^6 items are fine.
    """
    a = _sizes(class_sizes, "class_sizes", integer=True)
    n = int(a.sum())
    check_generated_items(n, "singletons")
    rows = np.repeat(np.arange(a.size), a)
    table = sparse.coo_matrix((np.ones(n, dtype=np.int64), (rows, np.arange(n))), shape=(a.size, n))
    return Contingency.from_table(table, _class_labels(a.size), _cluster_labels(n))


def no_knowledge(class_sizes, cluster_sizes=None) -> Contingency:
    """Rows and columns statistically independent: n_ij = a_i b_j / n.

    The clustering carries no information about the classes: I(C;K) = 0, so V = 0 and
    VI = H(C) + H(K) ([RR09] §3). ``cluster_sizes`` (default: the class sizes)
    must hold as many items as the classes. Cells are expected counts (they are
    whole numbers when every a_i b_j is divisible by n).
    """
    a = _sizes(class_sizes, "class_sizes")
    b = a if cluster_sizes is None else _sizes(cluster_sizes, "cluster_sizes")
    if not math.isclose(float(a.sum()), float(b.sum()), rel_tol=1e-12):
        raise ValueError(f"cluster_sizes must hold as many items as class_sizes: {float(b.sum()):g} ≠ {float(a.sum()):g}")
    check_generated_cells(a.size * b.size, f"no_knowledge ({a.size:,} × {b.size:,})")
    table = np.outer(a.astype(np.float64), b.astype(np.float64)) / float(a.sum())
    return Contingency.from_table(table, _class_labels(a.size), _cluster_labels(b.size))


def solution_r(n_classes: int = 10, class_size: int = 10, noise: int = 3) -> Contingency:
    """Reichart & Rappoport's solution R: cyclic noise ([RR09] §5, Table 1).

    ``n_classes`` classes of ``class_size`` items and as many clusters. In the
    paper's matrix (rows classes, columns clusters: "the entries in row i sum to the
    number of elements in class i"), row i holds ``class_size − noise`` items in
    cluster i and one item in each of clusters i+1, …, i+noise (mod |C|). So every
    cluster has ``class_size`` items: ``class_size − noise`` of its own class and one
    from each of the ``noise`` preceding classes. The defaults give the printed
    10 × 10 matrix (7 on the diagonal, three 1s to its right, wrapping round).
    Needs noise ≤ class_size and noise < n_classes (the noise items of a class
    go to distinct other clusters).
    """
    c = _count(n_classes, "n_classes", 1)
    s = _count(class_size, "class_size", 1)
    z = _count(noise, "noise", 0)
    if z > s:
        raise ValueError(f"noise must not exceed class_size ({s}), got {z}")
    if z >= c:
        raise ValueError(f"noise must be smaller than n_classes ({c}): each noise item goes to a different "
                         f"other cluster, got {z}")
    check_generated_cells(c * c, f"solution_r ({c:,} classes)")
    table = np.diag(np.full(c, s - z, dtype=np.int64))
    i = np.arange(c)
    for step in range(1, z + 1):
        table[i, (i + step) % c] += 1
    return Contingency.from_table(table, _class_labels(c), _cluster_labels(c))


# ---------------------------------------------------------------------- Wu's uniform effect
def cv(sizes) -> float:
    """Coefficient of variation s / x̄ with the sample standard deviation (ddof = 1).

    Wu et al. (2009, §3.1): CV = s/x̄, s = √(Σ(x_i − x̄)²/(n − 1)). Their §3.2
    class sizes 30, 2, 6, 10, 2 give CV0 = 1.166. Needs at least two sizes.
    """
    if isinstance(sizes, Contingency):
        raise ValueError("cv takes a sequence of sizes; for a table use dcv(t) or cv(t.col_sums)")
    try:
        x = np.asarray(sizes, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("sizes must be a sequence of numbers") from None
    if x.ndim != 1 or x.size < 2:
        raise ValueError(f"sizes must be a 1-D sequence of at least 2 numbers, got shape {x.shape}")
    if not np.isfinite(x).all() or (x < 0).any():
        raise ValueError("sizes must be finite and non-negative")
    mean = x.mean()
    if mean <= 0:
        raise ValueError("sizes must not all be zero")
    return float(x.std(ddof=1) / mean)


def dcv(t: Contingency) -> float:
    """DCV = CV1 − CV0: CV of the cluster sizes minus CV of the class sizes ([Wu09] §3.1).

    Negative values mean the clustering is more uniform than the classes (the
    K-means uniform effect). Empty clusters are not counted (the table drops them).
    """
    if not isinstance(t, Contingency):
        raise ValueError(f"dcv takes a metrics.Contingency, got {type(t).__name__}")
    return cv(t.col_sums) - cv(t.row_sums)


def uniform_effect(class_sizes, n_clusters: int | None = None, strength: float = 1.0) -> Contingency:
    """A K-means-like clustering with Wu et al.'s uniform effect ([Wu09] §3.1–3.2).

    Items are laid out class by class, largest class first (ties in the given
    order), and cut into ``n_clusters`` consecutive clusters. With ``strength`` = 1
    the clusters are as equal as possible (sizes n/k, largest-remainder rounded for
    whole-number classes): large classes are split into balanced sub-clusters and
    small classes are swallowed together. Smaller strengths interpolate the target
    cluster sizes linearly between the sorted class sizes (strength 0: the perfect
    clustering) and the uniform sizes; this needs ``n_clusters`` = number of
    classes (the default).

    Class sizes 30, 2, 6, 10, 2 with strength 1 give Wu et al.'s Table 3 clustering
    I (transposed to rows = classes): clusters of 10 = C1, C1, C1, C4, and
    C3 + C2 + C5 — CV1 = 0 against CV0 = 1.166.
    """
    a = _sizes(class_sizes, "class_sizes")
    k = a.size if n_clusters is None else _count(n_clusters, "n_clusters", 1)
    s = _fraction(strength, "strength")
    n = float(a.sum())
    order = np.argsort(-a, kind="stable")
    sorted_sizes = a[order].astype(np.float64)
    if s < 1.0 and k != a.size:
        raise ValueError(f"strength < 1 needs n_clusters equal to the number of classes ({a.size}); "
                         f"got n_clusters = {k}")
    uniform = np.full(k, n / k)
    target = uniform if s == 1.0 else (1 - s) * sorted_sizes + s * uniform
    if a.dtype.kind == "i":
        if k > n:
            raise ValueError(f"n_clusters must not exceed the number of items ({int(n)}), got {k}")
        target = largest_remainder(target, total=n).astype(np.float64)
    # Cell (class, cluster) = overlap of the class's run of items with the cluster's run.
    class_start = np.empty(a.size)
    class_start[order] = np.concatenate([[0.0], np.cumsum(sorted_sizes)[:-1]])
    class_end = class_start + a
    cl_end = np.cumsum(target)
    cl_start = cl_end - target
    table = np.clip(np.minimum(class_end[:, None], cl_end[None, :]) - np.maximum(class_start[:, None], cl_start[None, :]),
                    0.0, None)
    table = np.where(np.abs(table - np.rint(table)) < 1e-9, np.rint(table), table)
    return Contingency.from_table(table, _class_labels(a.size), [f"P{j + 1}" for j in range(k)])


# ---------------------------------------------------------------------- refinement and scale
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
    return int(round(_fraction(fraction, "fraction") * n))


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
    labels = np.asarray(t_or_labels) if isinstance(t_or_labels, np.ndarray) else np.asarray(list(t_or_labels), dtype=object)
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


# ---------------------------------------------------------------------- ambiguous data (Utt et al.)
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
    their row. A point-by-point ``rng.choice(n, r, replace=False)`` cost 17 µs a point."""
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


def _shared_pairs(m: _Memberships):
    """Every (item, class, cluster) the item belongs to both of, as three arrays: the pairs of an
    item's class and cluster memberships (|G(item)|·|K(item)| per item, few)."""
    g_pos, c_pos = _pair_positions(m.g_items, m.c_items, m.n_items)
    return m.g_items[g_pos], m.g_codes[g_pos], m.c_codes[c_pos]


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


def _adjusted(m: _Memberships, base: Contingency, mode: str) -> Contingency:
    """:func:`dissimilarity_adjusted` of memberships read by :func:`_checked_memberships`, whose
    ordinary table (``from_memberships``, same ``mode``) is ``base``.

    Only the cells that share an item are visited one by one: elsewhere S = 0 and D is a class's
    part plus a cluster's, so S − D is one outer sum (the one dense array, for the assignment)
    and the adjusted table is built from its non-zero cells. Every value is computed by the
    same operations in the same order as on dense arrays, so the table is the same to the last
    bit (tests/test_dissimilarity_arrays.py keeps the dense computation as the reference); a
    500-point Experiment 3 takes 0.13 s of CPU instead of 0.32 s."""
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


def _checked_memberships(gold, clusters, mode) -> _Memberships:
    """The memberships of :func:`dissimilarity_adjusted`'s input as arrays, or its refusal."""
    if mode not in ("fuzzy", "count"):
        raise ValueError(f"mode must be 'fuzzy' or 'count', got {mode!r}")
    if isinstance(gold, (str, bytes)) or not isinstance(gold, Iterable):
        raise ValueError("gold must be a sequence with one entry (label or labels) per item")
    if isinstance(clusters, (str, bytes)) or not isinstance(clusters, Iterable):
        raise ValueError("clusters must be a sequence with one entry (label or labels) per item")
    gold, clusters = list(gold), list(clusters)
    m = _plain_memberships(gold, clusters) if gold and len(gold) == len(clusters) else None
    if m is None:  # entries of other kinds, or bad input: read (or refused) item by item
        gold = [_labels_tuple(g, "gold", i) for i, g in enumerate(gold)]
        clusters = [_labels_tuple(k, "clusters", i) for i, k in enumerate(clusters)]
        if len(gold) != len(clusters):
            raise ValueError(f"gold and clusters must have the same length, got {len(gold)} and {len(clusters)}")
        if not gold:
            raise ValueError("empty input: gold and clusters hold no items")
        Contingency.from_memberships(gold, clusters, mode=mode)  # refuses a missing label (NaN/None)
        m = _plain_memberships(gold, clusters)                 # tuples of good labels now: never None
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


def _dissimilarity_of(m: _Memberships, base: Contingency, mode: str) -> _Dissimilarity:
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
