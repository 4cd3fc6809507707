"""The compiled kernel of the expected mutual information (numba, the optional ``fast`` extra).

Reached only through :func:`metrics.measures.expected.pair_sums`, and only when numba is
installed and the compiled kernels are not switched off
(:func:`metrics.core.kernels.counting.compiled_kernels`). Its pure-numpy counterpart,
``expected._pair_sums_numpy``, walks the same recurrence with the same arithmetic in the same
order, one step for every pair at a time; the tests run the two against each other. Compiled
code is cached on disk (``cache=True``): the first call on a machine compiles it (about a
second), later processes load it.
"""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True, nogil=True)
def pair_sums(n, a, b, lo, hi, mode, out):
    """``out[p] = Σ_k (k/n) log(n k / (a_p b_p)) P(k; a_p, b_p, n)`` over k in [lo_p, hi_p].

    The hypergeometric probabilities come from the ratio of consecutive ones,

        P(k+1) / P(k) = (a − k)(b − k) / ((k + 1)(n − a − b + k + 1)),

    walked up and down from the mode, where q = P / P(mode) = 1, and normalised by their sum
    over the window (the window holds all but 10^-30 of the mass: expected._window), so no
    log-gamma of numbers near n is needed (their rounding, about 10^-16 · n log n, is what
    limits the log-gamma formula's precision). Each term is k log(k/μ) − (k − μ) (μ = ab/n):
    the added terms sum to 0 (μ is the mean of k), and they make every term non-negative, so
    the sum does not cancel (E[I] is about (R−1)(K−1)/2n while single terms are about √μ/n).
    """
    for p in range(a.shape[0]):
        ap = a[p]
        bp = b[p]
        c = n - ap - bp
        mu = ap * bp / n
        m = mode[p]
        s0 = 1.0
        s1 = _term(m, mu)
        q = 1.0
        for k in range(m, hi[p]):
            q = q * (((ap - k) * (bp - k)) / ((k + 1.0) * (c + k + 1.0)))
            s0 += q
            s1 += q * _term(k + 1, mu)
        q = 1.0
        for k in range(m, lo[p], -1):
            q = q * ((k * (c + k)) / ((ap - k + 1.0) * (bp - k + 1.0)))
            s0 += q
            s1 += q * _term(k - 1, mu)
        out[p] = s1 / (s0 * n)


@njit(cache=True, nogil=True, inline="always")
def _term(k, mu):
    """k log(k/μ) − (k − μ), ≥ 0 (μ at k = 0)."""
    if k == 0:
        return mu
    d = k - mu
    return k * math.log1p(d / mu) - d
