"""Expected mutual information under the hypergeometric (permutation) model.

E[I] = Σ_i Σ_j Σ_k (k/n) log(n k / (a_i b_j)) · P(k; a_i, b_j, n)        [VEB10, eq. 24a]

with P the hypergeometric probability that a class of size a and a cluster of size
b share k items, k from max(1, a+b−n) to min(a, b).

Why this is fast (scikit-learn's loop takes about a minute for 10^6 labels in
1000 × 1000 classes × clusters):

* The inner sum depends on (a_i, b_j) only through their values, so it is computed
  once per *distinct* pair of sizes and weighted by how often that pair occurs.
* k is summed only where P(k) can matter. The hypergeometric distribution is
  dominated by the binomial in convex order (Hoeffding 1963, Thm. 4), so
  Bernstein's inequality bounds both tails: P(|X − μ| ≥ t) ≤ 2·10^-30 outside
  the window computed in :func:`_window`. The dropped terms change the sum by
  less than 10^-30 · log n, far below double precision: the result is exact to
  rounding.
* Everything is vectorized over (pair, k) in chunks of bounded memory.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .._lazy import lazy_function
from ..core.contingency import Contingency
from ..core.limits import EMI_TERM_BUDGET

if TYPE_CHECKING:
    from scipy.special import gammaln
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    gammaln = lazy_function("scipy.special", "gammaln")

__all__ = ["expected_mutual_information", "expected_mi_from_sizes", "expected_mi_batch", "emi_terms",
           "EMI_TERM_BUDGET", "emi_out_of_budget"]

# EMI_TERM_BUDGET (metrics.core.limits): a few seconds of terms (docs/performance.md); beyond, AMI is left out
# rather than stall a session (n ≳ 10^8 per class and cluster: the window grows like √n).

_LOG_DELTA = 30 * math.log(10)  # tail mass ignored on each side: 1e-30
_CHUNK_TERMS = 1 << 22


def _window(a: np.ndarray, b: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    lo = np.maximum(1, a + b - n)
    hi = np.minimum(a, b)
    mu = a * b / n
    lower_t = np.sqrt(2 * _LOG_DELTA * mu)
    upper_t = _LOG_DELTA / 3 + np.sqrt((_LOG_DELTA / 3) ** 2 + 2 * _LOG_DELTA * mu)
    lo = np.maximum(lo, np.floor(mu - lower_t)).astype(np.int64)
    hi = np.minimum(hi, np.ceil(mu + upper_t)).astype(np.int64)
    return lo, hi


def _pairs_of_sizes(n: int, row_sums, col_sums):
    """Distinct (class size, cluster size) pairs, their multiplicities and windows."""
    ua, ca = np.unique(np.asarray(row_sums, dtype=np.int64), return_counts=True)
    ub, cb = np.unique(np.asarray(col_sums, dtype=np.int64), return_counts=True)
    mult = np.repeat(ca, ub.size).astype(np.float64) * np.tile(cb, ua.size)
    a, b, lo, length = _size_grid(n, ua, ub)
    return n, a, b, mult, lo, length


def _size_grid(n: int, ua: np.ndarray, ub: np.ndarray):
    """Every (class size, cluster size) pair of the distinct sizes, row-major, with its window of k."""
    a = np.repeat(ua, ub.size).astype(np.float64)
    b = np.tile(ub, ua.size).astype(np.float64)
    lo, hi = _window(a, b, n)
    return a, b, lo, np.maximum(hi - lo + 1, 0)


def _size_pairs(t: Contingency):
    return _pairs_of_sizes(int(t.n), t.row_sums, t.col_sums)


def emi_terms(t: Contingency) -> int:
    """How many hypergeometric terms :func:`expected_mutual_information` would sum."""
    if t.n <= 1:
        return 0
    return int(t.memo("emi_pairs", _size_pairs)[-1].sum())


def emi_out_of_budget(t) -> str | None:
    """Why AMI is not computed for ``t`` (None when it is within the budget)."""
    if not isinstance(t, Contingency) or not t.is_integer:
        return None
    terms = emi_terms(t)
    if terms <= EMI_TERM_BUDGET:
        return None
    return (f"its exact expected mutual information would sum {terms:.1e} terms for these margins "
            f"(budget {EMI_TERM_BUDGET:.0e}; the cost grows like √n)")


def expected_mutual_information(t: Contingency) -> float:
    """E[I(C;K)] in nats for the margins of ``t`` (integer tables only)."""
    if not t.is_integer:
        raise ValueError("expected mutual information needs integer counts (a hypergeometric model)")
    if int(t.n) <= 1:
        return 0.0
    return _emi_sum(*t.memo("emi_pairs", _size_pairs))


def expected_mi_from_sizes(class_sizes, cluster_sizes) -> float:
    """E[I(C;K)] in nats over the tables with these class and cluster sizes (integers)."""
    a = np.asarray(class_sizes, dtype=np.int64)
    b = np.asarray(cluster_sizes, dtype=np.int64)
    a, b = a[a > 0], b[b > 0]
    n = int(a.sum())
    if n != int(b.sum()):
        raise ValueError(f"class sizes add up to {n} items, cluster sizes to {int(b.sum())}")
    if n <= 1:
        return 0.0
    return _emi_sum(*_pairs_of_sizes(n, a, b))


def expected_mi_batch(row_sums: np.ndarray, col_sums: np.ndarray) -> np.ndarray:
    """E[I] for each table of a batch, from its (B, R) row and (B, C) column sums.

    E[I] is a sum over (class size, cluster size) pairs, so the tables of a batch
    with one n share their inner sums: those are computed once for every pair of a
    size seen among the batch's rows and a size seen among its columns, and each
    table's E[I] is its size counts times that grid (a Monte Carlo sample under a
    random model has a few dozen distinct sizes, and 1,000 tables cost about what
    one does). Where the grid would sum more terms than the tables one by one, each
    table is computed alone, tables sharing their margins as multisets once."""
    rows = np.asarray(row_sums, dtype=np.int64)
    cols = np.asarray(col_sums, dtype=np.int64)
    out = np.zeros(rows.shape[0])
    n_of = rows.sum(axis=1)
    for n in np.unique(n_of):
        idx = np.flatnonzero(n_of == n)
        if n > 1:
            out[idx] = _emi_same_n(int(n), rows[idx], cols[idx])
    return out


def _emi_same_n(n: int, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    ua, a_at = np.unique(rows, return_inverse=True)
    ub, b_at = np.unique(cols, return_inverse=True)
    a, b, lo, length = _size_grid(n, ua, ub)
    # Size 0 (padding) gets an empty window, so it adds nothing.
    grid_terms = int(length.sum())
    one_by_one_terms = np.count_nonzero(rows) * np.count_nonzero(cols) / rows.shape[0] * length.mean()
    if grid_terms > max(one_by_one_terms, _CHUNK_TERMS):
        return _emi_one_by_one(rows, cols)
    inner = _emi_pair_sums(n, a, b, lo, length).reshape(ua.size, ub.size)
    a_counts = _counts_per_row(a_at.reshape(rows.shape), ua.size)
    b_counts = _counts_per_row(b_at.reshape(cols.shape), ub.size)
    return np.einsum("ij,jk,ik->i", a_counts, inner, b_counts)


def _counts_per_row(codes: np.ndarray, size: int) -> np.ndarray:
    """(B, size) matrix: how often each code occurs in each row of ``codes``."""
    flat = codes + size * np.arange(codes.shape[0])[:, None]
    return np.bincount(flat.ravel(), minlength=codes.shape[0] * size).reshape(codes.shape[0], size).astype(np.float64)


def _emi_one_by_one(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    out = np.empty(rows.shape[0])
    seen: dict = {}
    for i, (r, c) in enumerate(zip(rows, cols)):
        r, c = np.sort(r[r > 0]), np.sort(c[c > 0])
        key = (r.tobytes(), c.tobytes())
        if key not in seen:
            seen[key] = expected_mi_from_sizes(r, c)
        out[i] = seen[key]
    return out


def _emi_terms_in_chunks(n, a, b, lo, length):
    """Yield (pair index, term) arrays, chunk by chunk, of
    (k/n) log(n k/(a b)) P(k; a, b, n) over each pair's window of k."""
    # log P(k) = const(a, b) − lnΓ(k+1) − lnΓ(a−k+1) − lnΓ(b−k+1) − lnΓ(n−a−b+k+1)
    const = (gammaln(a + 1) + gammaln(b + 1) + gammaln(n - a + 1) + gammaln(n - b + 1)
             - gammaln(n + 1))
    log_n = math.log(n)
    ends = np.cumsum(length)
    start = 0
    while start < a.size:
        # A chunk of consecutive size pairs holding about _CHUNK_TERMS terms.
        stop = int(np.searchsorted(ends, (ends[start - 1] if start else 0) + _CHUNK_TERMS, side="right"))
        stop = max(stop, start + 1)
        seg = slice(start, stop)
        lens = length[seg]
        pair = np.repeat(np.arange(stop - start), lens)
        offsets = np.cumsum(lens) - lens
        k = (lo[seg][pair] + np.arange(pair.size) - offsets[pair]).astype(np.float64)
        aa, bb = a[seg][pair], b[seg][pair]
        log_p = (const[seg][pair] - gammaln(k + 1) - gammaln(aa - k + 1) - gammaln(bb - k + 1)
                 - gammaln(n - aa - bb + k + 1))
        yield start + pair, (k / n) * (log_n + np.log(k) - np.log(aa) - np.log(bb)) * np.exp(log_p)
        start = stop


def _emi_sum(n, a, b, mult, lo, length) -> float:
    """Σ over the (a, b) pairs of mult · Σ_k (k/n) log(n k/(a b)) P(k; a, b, n)."""
    keep = length > 0
    a, b, mult, lo, length = a[keep], b[keep], mult[keep], lo[keep], length[keep]
    chunks = _emi_terms_in_chunks(n, a, b, lo, length)
    return sum((float(np.sum(term * mult[pair])) for pair, term in chunks), 0.0)


def _emi_pair_sums(n, a, b, lo, length) -> np.ndarray:
    """Σ_k (k/n) log(n k/(a b)) P(k; a, b, n) for each (a, b) pair (0 where the window is empty)."""
    out = np.zeros(a.size)
    keep = np.flatnonzero(length > 0)
    for pair, term in _emi_terms_in_chunks(n, a[keep], b[keep], lo[keep], length[keep]):
        out[keep] += np.bincount(pair, weights=term, minlength=keep.size)
    return out
