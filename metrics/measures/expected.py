"""Expected mutual information under the hypergeometric (permutation) model.

E[I] = Σ_i Σ_j Σ_k (k/n) log(n k / (a_i b_j)) · P(k; a_i, b_j, n)        [VEB10, eq. 24a]

with P the hypergeometric probability that a class of size a and a cluster of size
b share k items, k from max(1, a+b−n) to min(a, b).

Why this is fast and exact (scikit-learn's loop takes about a minute for 10^6 labels in
1000 × 1000 classes × clusters):

* The inner sum depends on (a_i, b_j) only through their values, so it is computed
  once per *distinct* pair of sizes and weighted by how often that pair occurs; a batch
  of tables (a Monte Carlo sample, the resamples of a bootstrap) computes each distinct
  pair once for the whole batch.
* k is summed only where P(k) can matter. The hypergeometric distribution is
  dominated by the binomial in convex order (Hoeffding 1963, Thm. 4), so
  Bernstein's inequality bounds both tails: P(|X − μ| ≥ t) ≤ 2·10^-30 outside
  the window computed in :func:`_window`. The dropped terms change the sum by
  less than 10^-30 · log n, far below double precision: the result is exact to
  rounding.
* P(k) is not computed from log-gamma functions of numbers near n (each rounded to
  about 10^-16 · n log n, so 10^-10 relative for n = 10^5 and worse as n grows) but
  from the ratio of consecutive probabilities, walked from the mode, and normalised by
  its sum over the window (which holds all but 2·10^-30 of the mass): a handful of
  roundings per step, so the terms that matter are exact to a few ulps times their
  distance from the mode (:func:`pair_sums`).
* The walk is compiled where numba is installed (the ``fast`` extra:
  :mod:`metrics.measures.emi_compiled`); without it, numpy walks every pair one step
  at a time with the same arithmetic.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.cells import distinct_sizes
from ..core.contingency import Contingency
from ..core.limits import EMI_TERM_BUDGET

__all__ = ["expected_mutual_information", "expected_mi_from_sizes", "expected_mi_batch", "pair_sums", "emi_terms",
           "EMI_TERM_BUDGET", "emi_out_of_budget"]

# EMI_TERM_BUDGET (metrics.core.limits): a few seconds of terms (docs/performance.md); beyond, AMI is left out
# rather than stall a session (n ≳ 10^8 per class and cluster: the window grows like √n).

_LOG_DELTA = 30 * math.log(10)  # tail mass ignored on each side: 1e-30


def _window(a: np.ndarray, b: np.ndarray, n: int, first: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The k of P(k; a, b, n) that can matter, from ``first`` up (k = 0 adds no term)."""
    lo = np.maximum(first, a + b - n)
    hi = np.minimum(a, b)
    mu = a * b / n
    lower_t = np.sqrt(2 * _LOG_DELTA * mu)
    upper_t = _LOG_DELTA / 3 + np.sqrt((_LOG_DELTA / 3) ** 2 + 2 * _LOG_DELTA * mu)
    lo = np.maximum(lo, np.floor(mu - lower_t)).astype(np.int64)
    hi = np.minimum(hi, np.ceil(mu + upper_t)).astype(np.int64)
    return lo, hi


def _pairs_of_sizes(n: int, row_sums, col_sums):
    """Distinct (class size, cluster size) pairs, their multiplicities and windows."""
    ua, ca = distinct_sizes(np.asarray(row_sums, dtype=np.int64))
    ub, cb = distinct_sizes(np.asarray(col_sums, dtype=np.int64))
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
    a_at, b_at = a_at.reshape(rows.shape), b_at.reshape(cols.shape)
    nonzero_pairs = int(np.sum(np.count_nonzero(rows, axis=1) * np.count_nonzero(cols, axis=1)))
    path = _emi_grid if ua.size * ub.size <= nonzero_pairs else _emi_distinct_pairs
    return path(n, rows, cols, ua, a_at, ub, b_at)


def _emi_grid(n, rows, cols, ua, a_at, ub, b_at) -> np.ndarray:
    """Few distinct sizes (a Monte Carlo sample under a random model): every pair of a size seen
    among the rows and one seen among the columns, and each table's E[I] is its size counts
    times that grid. Size 0 (padding) gets a sum of 0."""
    inner = _size_grid_sums(n, ua, ub).reshape(ua.size, ub.size)
    return np.einsum("ij,jk,ik->i", _counts_per_row(a_at, ua.size), inner, _counts_per_row(b_at, ub.size))


def _emi_distinct_pairs(n, rows, cols, ua, a_at, ub, b_at) -> np.ndarray:
    """Sizes that differ from table to table (the resamples of a bootstrap): the distinct
    (class size, cluster size) pairs that occur, each computed once for the whole batch."""
    table, i, j = np.nonzero((rows[:, :, None] > 0) & (cols[:, None, :] > 0))
    key = a_at[table, i] * np.int64(ub.size) + b_at[table, j]
    distinct, where = np.unique(key, return_inverse=True)
    sums = pair_sums(n, ua[distinct // ub.size], ub[distinct % ub.size])
    return np.bincount(table, weights=sums[where.reshape(-1)], minlength=rows.shape[0])


def _counts_per_row(codes: np.ndarray, size: int) -> np.ndarray:
    """(B, size) matrix: how often each code occurs in each row of ``codes``."""
    flat = codes + size * np.arange(codes.shape[0])[:, None]
    return np.bincount(flat.ravel(), minlength=codes.shape[0] * size).reshape(codes.shape[0], size).astype(np.float64)


def _size_grid_sums(n: int, ua: np.ndarray, ub: np.ndarray) -> np.ndarray:
    """:func:`pair_sums` of every (class size, cluster size) pair of the distinct sizes, row-major."""
    return pair_sums(n, np.repeat(ua, ub.size), np.tile(ub, ua.size))


def _emi_sum(n, a, b, mult, lo, length) -> float:
    """Σ over the (a, b) pairs of mult · Σ_k (k/n) log(n k/(a b)) P(k; a, b, n)."""
    keep = length > 0
    return float(np.sum(pair_sums(n, a[keep], b[keep]) * mult[keep]))


# Pairs walked together by the numpy walk: its arrays stay in the cache between steps.
_NUMPY_PAIRS = 1 << 16
# The compiled walk's shared tables of log(1 + 1/k) cover at most this many k (else a log1p a step),
# and it computes log(k/μ) afresh every _RESYNC steps (rounding builds up over no more).
_TABLE_SIZE = 1 << 21
_RESYNC = 16


def pair_sums(n: int, a, b) -> np.ndarray:
    """Σ_k (k/n) log(n k/(a b)) P(k; a, b, n) for each pair of a class of size a and a cluster
    of size b among n items (0 where a or b is 0): each pair's share of E[I].

    P(k; a, b, n) is the hypergeometric probability that they share k items. The walk
    (:func:`metrics.measures.emi_compiled.pair_sums`, or its numpy counterpart) goes from the
    mode over :func:`_window`, widened down to k = 0 where the window reaches it (k = 0 adds
    no term but its probability belongs to the normalisation).
    """
    from ..core.kernels.counting import compiled_kernels

    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    out = np.zeros(a.shape)
    keep = np.flatnonzero((a > 0) & (b > 0))
    if keep.size == 0:
        return out
    a, b = a[keep], b[keep]
    lo, hi = _window(a, b, n, first=0)
    # The mode of the hypergeometric distribution (always inside the window).
    mode = np.clip(np.floor((a + 1) * (b + 1) / (n + 2)).astype(np.int64), lo, hi)
    # The walk's terms are the work that decides whether loading numba repays (counting's rule).
    if compiled_kernels(float(np.sum(hi - lo + 1))) is not None:
        from .emi_compiled import pair_sums as compiled

        sums = np.empty(a.size)
        k0, top = int(lo.min()), int(hi.max())
        log_step, step_gain = _step_tables(k0, top) if top - k0 < _TABLE_SIZE else (np.empty(0), np.empty(0))
        compiled(float(n), a, b, lo, hi, mode, k0, log_step, step_gain, _RESYNC, sums)
    else:
        sums = np.concatenate([_pair_sums_numpy(n, a[s], b[s], lo[s], hi[s], mode[s])
                               for s in (slice(i, i + _NUMPY_PAIRS) for i in range(0, a.size, _NUMPY_PAIRS))])
    out[keep] = sums
    return out


def _step_tables(k0: int, top: int) -> tuple[np.ndarray, np.ndarray]:
    """log(1 + 1/k) and k log(1 + 1/k) − 1 for k = k0 … top (0 at k = 0, never read), each to
    within an ulp or two: the second, about −1/2k, cancels in double precision, so below k = 64 it
    is computed in extended precision and above by its series −y/2 + y²/3 − y³/4 + … (y = 1/k ≤ 1/64,
    twelve terms reach 10^-22 of it)."""
    k = np.arange(max(k0, 1), top + 1, dtype=np.float64)
    y = 1.0 / k
    log_step = np.log1p(y)
    series = np.zeros_like(y)
    for power in range(12, 0, -1):   # Horner: Σ_{m≥1} (−1)^m y^m / (m + 1)
        series = y * ((-1) ** power / (power + 1) + series)
    small = k < 64
    ks = k[small].astype(np.longdouble)
    series[small] = (ks * np.log1p(1 / ks) - 1).astype(np.float64)
    pad = max(k0, 1) - k0
    return np.concatenate([np.zeros(pad), log_step]), np.concatenate([np.zeros(pad), series])


def _pair_sums_numpy(n: int, a, b, lo, hi, mode) -> np.ndarray:
    """The compiled walk's numpy counterpart: the same arithmetic in the same order, every
    pair one step at a time (pairs sorted by their number of steps, so that the pairs still
    walking are a prefix)."""
    c = n - a - b
    mu = a * b / n
    s0 = np.ones(a.size)
    s1 = _term(mode.astype(np.float64), mu, a * b, n)
    for steps, up in ((hi - mode, True), (mode - lo, False)):
        order = np.argsort(-steps, kind="stable")
        # walking[s]: how many pairs take a step s + 1 (a prefix of ``order``).
        walking = steps.size - np.searchsorted(np.sort(steps), np.arange(int(steps.max(initial=0))), side="right")
        aa, bb, cc, mm, kk = a[order], b[order], c[order], mu[order], mode[order].astype(np.float64)
        ab = aa * bb
        q, t0, t1 = np.ones(a.size), s0[order], s1[order]
        for step, w in enumerate(walking):
            k = kk[:w] + step if up else kk[:w] - step
            if up:
                q[:w] = q[:w] * (((aa[:w] - k) * (bb[:w] - k)) / ((k + 1.0) * (cc[:w] + k + 1.0)))
                t0[:w] += q[:w]
                t1[:w] += q[:w] * _term(k + 1.0, mm[:w], ab[:w], n)
            else:
                q[:w] = q[:w] * ((k * (cc[:w] + k)) / ((aa[:w] - k + 1.0) * (bb[:w] - k + 1.0)))
                t0[:w] += q[:w]
                t1[:w] += q[:w] * _term(k - 1.0, mm[:w], ab[:w], n)
        s0[order], s1[order] = t0, t1
    return s1 / (s0 * n)


def _term(k: np.ndarray, mu: np.ndarray, ab: np.ndarray, n: int) -> np.ndarray:
    """k log(k/μ) − (k − μ), μ at k = 0, as emi_compiled._fresh computes it."""
    d = (k * n - ab) / n
    with np.errstate(divide="ignore", invalid="ignore"):
        x = d / mu
        direct = k * np.log1p(x) - d
    near = np.flatnonzero(np.abs(x) < 0.0625)
    if near.size:
        xs, series = x[near], np.zeros(near.size)
        for j in range(17, 1, -1):
            series = series * xs + (1.0 if j % 2 == 0 else -1.0) / (j * (j - 1.0))
        direct[near] = mu[near] * (series * xs * xs)
    return np.where(k == 0, mu, direct)
