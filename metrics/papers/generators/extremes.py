"""The extreme cases of Reichart & Rappoport ([RR09] §2–4) and their cyclic-noise solution R
([RR09] §5, Table 1).

[RR09] Reichart & Rappoport (2009), The NVI clustering evaluation measure. CoNLL.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import sparse

from ...core.contingency import Contingency
from ...core.limits import check_generated_cells, check_generated_items
from .checks import _class_labels, _cluster_labels, _count, _sizes


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
        raise ValueError(f"cluster_sizes must hold as many items as class_sizes: {float(b.sum()):g} ≠ "
                         f"{float(a.sum()):g}")
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
