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
def pair_sums(n, a, b, lo, hi, mode, k0, log_step, step_gain, resync, out):
    """``out[p] = Σ_k (k/n) log(n k / (a_p b_p)) P(k; a_p, b_p, n)`` over k in [lo_p, hi_p].

    The hypergeometric probabilities come from the ratio of consecutive ones,

        P(k+1) / P(k) = (a − k)(b − k) / ((k + 1)(n − a − b + k + 1)),

    walked up and down from the mode, where q = P / P(mode) = 1, and normalised by their sum
    over the window (the window holds all but 10^-30 of the mass: expected._window), so no
    log-gamma of numbers near n is needed (their rounding, about 10^-16 · n log n, is what
    limits the log-gamma formula's precision). Each term is g(k) = k log(k/μ) − (k − μ)
    (μ = ab/n): the added terms sum to 0 (μ is the mean of k), and they make every term
    non-negative, so the sum does not cancel (E[I] is about (R−1)(K−1)/2n while single terms
    are about √μ/n).

    g is walked too, without a logarithm a step: with L(k) = log(k/μ),
    L(k+1) = L(k) + log_step[k − k0] and g(k+1) = g(k) + L(k+1) + step_gain[k − k0]
    (``log_step[i] = log(1 + 1/k)``, ``step_gain[i] = k log(1 + 1/k) − 1`` for k = k0 + i,
    tables shared by every pair). Every ``resync`` steps, and everywhere when the tables are
    empty, L and g are computed afresh (log1p), so rounding never builds up over more than
    ``resync`` steps.
    """
    tables = log_step.shape[0] > 0
    for p in range(a.shape[0]):
        ap = a[p]
        bp = b[p]
        c = n - ap - bp
        mu = ap * bp / n
        ab = ap * bp
        m = mode[p]
        log_m, g_m = _fresh(m, mu, ab, n)
        s0 = 1.0
        s1 = g_m
        q = 1.0
        log_k = log_m
        g = g_m
        left = resync   # steps until L and g are computed afresh
        for k in range(m, hi[p]):
            q = q * (((ap - k) * (bp - k)) / ((k + 1.0) * (c + k + 1.0)))
            s0 += q
            j = k + 1
            left -= 1
            if tables and k > 0 and left > 0:
                log_k = log_k + log_step[k - k0]
                g = g + log_k + step_gain[k - k0]
            else:
                log_k, g = _fresh(j, mu, ab, n)
                left = resync
            s1 += q * g
        q = 1.0
        log_k = log_m
        g = g_m
        left = resync
        for k in range(m, lo[p], -1):
            q = q * ((k * (c + k)) / ((ap - k + 1.0) * (bp - k + 1.0)))
            s0 += q
            j = k - 1
            left -= 1
            if j == 0:
                g = mu
            elif tables and left > 0:
                g = g - (log_k + step_gain[j - k0])
                log_k = log_k - log_step[j - k0]
            else:
                log_k, g = _fresh(j, mu, ab, n)
                left = resync
            s1 += q * g
        out[p] = s1 / (s0 * n)


@njit(cache=True, nogil=True, inline="always")
def _fresh(k, mu, ab, n):
    """(log(k/μ), g(k)) computed afresh; g(k) = k log(k/μ) − (k − μ) ≥ 0 (μ at k = 0).

    k − μ is (k n − a b) / n, exact to one rounding (k n − a b is an integer, exact in a double
    below 2^53), and near μ (|x| < 1/16, x = (k − μ)/μ), where k log(1 + x) and k − μ
    cancel, g = μ Σ_{j≥2} (−x)^j / (j (j − 1)) (sixteen terms reach 10^-17 of it)."""
    if k == 0:
        return 0.0, mu
    d = (k * n - ab) / n
    x = d / mu
    log_ratio = math.log1p(x)
    if abs(x) >= 0.0625:
        return log_ratio, k * log_ratio - d
    series = 0.0
    for j in range(17, 1, -1):
        series = series * x + (1.0 if j % 2 == 0 else -1.0) / (j * (j - 1.0))
    return log_ratio, mu * (series * x * x)
