"""Dom's parametric family with Rosenberg & Hirschberg's noise classes ([Dom01] §5, [RH07] §4, Figure 3).

[Dom01] Dom (2001), An information-theoretic external cluster-validity measure. IBM RJ 10219.
[RH07] Rosenberg & Hirschberg (2007), V-Measure. EMNLP-CoNLL.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

import numpy as np

from ...core.contingency import Contingency
from ...core.limits import check_generated_cells
from .checks import _count, _fraction, _positive, largest_remainder

#: Items of a Dom table when ``n`` is not given (any n gives the same value for an
#: n-invariant measure; pair-counting measures change slightly with n).
DOM_DEFAULT_N = 1000


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
                             "needs a non-matching useful class/cluster pair (at least 2 useful classes and 2 "
                             "useful clusters)"),
                            ((e2 > 0) & (kn == 0), "eps2", "needs n_noise_clusters ≥ 1"),
                            ((e3 > 0) & (cn == 0), "eps3", "needs n_noise_classes ≥ 1")):
        if cond.any():
            raise ValueError(f"{name} > 0 {why}{_first_bad(cond, size)}")

    rows = int((c + cn).max()) if shape is None else int(shape[0])
    cols = int((k + kn).max()) if shape is None else int(shape[1])
    if rows < int((c + cn).max()) or cols < int((k + kn).max()):
        raise ValueError(f"shape {shape} is smaller than the largest table ({int((c + cn).max())}, "
                         f"{int((k + kn).max())})")
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
                out[batch[j]] = _dom_contingency(tables[b], int(r[0]), int(r[1]), int(r[2]), int(r[3]), r[7],
                                                 integer)
    for i, setting in enumerate(settings):
        if out[i] is None:
            try:
                out[i] = dom(**setting, integer=integer)
            except ValueError as exc:
                out[i] = exc
    return cast(list[Contingency | ValueError], out)  # every slot is filled now
