"""Wu et al.'s K-means uniform effect and coefficient of variation ([Wu09] §3.1–3.2, Table 3).

[Wu09] Wu, Xiong & Chen (2009), Adapting the right measures for K-means clustering. KDD.
"""

from __future__ import annotations

import numpy as np

from ...core.contingency import Contingency
from .checks import _class_labels, _count, _fraction, _sizes, largest_remainder


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
    table = np.clip(np.minimum(class_end[:, None], cl_end[None, :])
                    - np.maximum(class_start[:, None], cl_start[None, :]), 0.0, None)
    table = np.where(np.abs(table - np.rint(table)) < 1e-9, np.rint(table), table)
    return Contingency.from_table(table, _class_labels(a.size), [f"P{j + 1}" for j in range(k)])
