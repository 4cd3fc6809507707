"""The exact expected mutual information (metrics.measures.expected): against exact rational
arithmetic, against 40-digit arithmetic for large n, against scikit-learn, compiled against numpy,
and a batch of bootstrap resamples against its tables one by one."""

from __future__ import annotations

import functools
import importlib.util
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import metrics
from metrics.core.kernels import counting
from metrics.measures import expected
from metrics.measures.expected import expected_mi_batch, expected_mi_from_sizes, pair_sums


def _exact_emi(class_sizes, cluster_sizes) -> float:
    """E[I] with every hypergeometric probability an exact fraction (math.comb), each term rounded
    once and the terms summed exactly (math.fsum)."""
    n = sum(class_sizes)
    terms = []
    for a in class_sizes:
        for b in cluster_sizes:
            for k in range(max(1, a + b - n), min(a, b) + 1):
                p = Fraction(math.comb(a, k) * math.comb(n - a, b - k), math.comb(n, b))
                terms.append(float(p * k / n) * math.log(n * k / (a * b)))
    return math.fsum(terms)


@functools.cache   # one oracle for both kernels
def _mpmath_emi(class_sizes: tuple, cluster_sizes: tuple) -> float:
    """E[I] in 30-digit arithmetic (log-gamma in mpmath), for n too large for exact fractions;
    k beyond 16 standard deviations of the mean is left out (its probability is below 10^-50)."""
    mpmath = pytest.importorskip("mpmath")
    mp = mpmath.mp.clone() if hasattr(mpmath.mp, "clone") else mpmath.mp
    mp.dps = 30
    n = sum(class_sizes)
    lg = mp.loggamma
    total = mp.mpf(0)
    for a in class_sizes:
        for b in cluster_sizes:
            mu, sd = a * b / n, math.sqrt(a * b / n) + 1
            const = lg(a + 1) + lg(b + 1) + lg(n - a + 1) + lg(n - b + 1) - lg(n + 1)
            for k in range(max(1, a + b - n, int(mu - 16 * sd)), min(a, b, int(mu + 16 * sd)) + 1):
                log_p = const - lg(k + 1) - lg(a - k + 1) - lg(b - k + 1) - lg(n - a - b + k + 1)
                total += mp.mpf(k) / n * mp.log(mp.mpf(n) * k / (mp.mpf(a) * b)) * mp.exp(log_p)
    return float(total)


@pytest.fixture(params=["numba", "numpy"])
def kernel(request, monkeypatch):
    """Each test once with the compiled walk and once with the numpy walk (the same switch for
    every example hypothesis draws: it is what the fixture is for)."""
    if request.param == "numba" and importlib.util.find_spec("numba") is None:
        pytest.skip("numba is not installed")
    monkeypatch.setattr(counting, "FORCE_KERNEL", request.param)
    return request.param


def _rel(ours: float, exact: float) -> float:
    return abs(ours - exact) / abs(exact) if exact else abs(ours)


margins = st.lists(st.integers(1, 25), min_size=1, max_size=5)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(margins, st.data())
def test_emi_equals_exact_rational_arithmetic(kernel, class_sizes, data):
    n = sum(class_sizes)
    cuts = sorted(data.draw(st.sets(st.integers(1, n - 1), max_size=5))) if n > 1 else []
    cluster_sizes = np.diff([0, *cuts, n]).tolist()
    exact = _exact_emi(class_sizes, cluster_sizes)
    ours = expected_mi_from_sizes(class_sizes, cluster_sizes)
    assert _rel(ours, exact) < 1e-13, (class_sizes, cluster_sizes, ours, exact)
    assert ours >= 0.0   # every term of the walk is non-negative


@pytest.mark.parametrize("n, rows, cols", [(10**5, 4, 5), (10**6, 3, 3)])
def test_emi_equals_30_digit_arithmetic_for_large_n(kernel, n, rows, cols):
    """Where the log-gamma formula loses digits (its terms are rounded near n log n): the walk
    keeps about 14 of them. E[I] is about (R−1)(K−1)/2n here, far below any single term."""
    rng = np.random.default_rng(n + rows)
    a = np.bincount(rng.integers(0, rows, n), minlength=rows).tolist()
    b = np.bincount(rng.integers(0, cols, n), minlength=cols).tolist()
    exact = _mpmath_emi(tuple(a), tuple(b))
    assert _rel(expected_mi_from_sizes(a, b), exact) < 1e-13


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32 - 1))
def test_emi_agrees_with_scikit_learn(kernel, seed):
    from sklearn.metrics.cluster._expected_mutual_info_fast import expected_mutual_information as sk_emi

    rng = np.random.default_rng(seed)
    table = rng.integers(0, rng.integers(1, 400), (rng.integers(1, 7), rng.integers(1, 7)))
    table[0, 0] += 2
    t = metrics.Contingency.from_table(table)
    # scikit-learn's own log-gamma terms are rounded to about 10^-16 · n log n each.
    assert math.isclose(expected.expected_mutual_information(t), sk_emi(table, int(table.sum())),
                        rel_tol=1e-9, abs_tol=1e-15)


def test_compiled_and_numpy_walks_agree(monkeypatch):
    if importlib.util.find_spec("numba") is None:
        pytest.skip("numba is not installed")
    rng = np.random.default_rng(7)
    n = 200_000
    a = np.concatenate([rng.integers(1, n, 3000), [n, 1, 1, n // 2], rng.integers(1, 50, 500)])
    b = np.concatenate([rng.integers(1, n, 3000), [3, 1, n, n // 2], rng.integers(1, 50, 500)])
    monkeypatch.setattr(counting, "FORCE_KERNEL", "numba")
    compiled = pair_sums(n, a, b)
    monkeypatch.setattr(counting, "FORCE_KERNEL", "numpy")
    walked = pair_sums(n, a, b)
    np.testing.assert_allclose(compiled, walked, rtol=1e-12, atol=1e-300)
    assert compiled[3000] == 0.0 and compiled[3002] == 0.0   # a class or a cluster of all n items


def test_pair_sums_of_empty_sizes_are_zero():
    assert pair_sums(10, [0, 3, 0], [4, 0, 0]).tolist() == [0.0, 0.0, 0.0]


def test_batch_of_bootstrap_resamples_equals_each_table(kernel):
    """Resamples have margins that differ from table to table (the distinct-pairs path): each
    E[I] of the batch is the table's own."""
    rng = np.random.default_rng(11)
    n = 5000
    gold = rng.integers(0, 6, n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, 8, n))
    tables = []
    for _ in range(25):
        pick = rng.integers(0, n, n)
        tables.append(np.bincount(gold[pick] * 8 + pred[pick], minlength=48).reshape(6, 8))
    batch = np.stack(tables)
    ours = expected_mi_batch(batch.sum(axis=2), batch.sum(axis=1))
    for table, e in zip(batch, ours):
        exact = expected_mi_from_sizes(table.sum(axis=1), table.sum(axis=0))
        assert _rel(e, exact) < 1e-13


def test_ami_of_resampled_tables_matches_scikit_learn():
    """The AMI that the paired bootstrap scores (a batch) against scikit-learn's, table by table."""
    from sklearn.metrics import adjusted_mutual_info_score

    rng = np.random.default_rng(5)
    n = 3000
    gold = rng.integers(0, 5, n)
    pred = np.where(rng.random(n) < 0.6, gold, rng.integers(0, 7, n))
    picks = rng.integers(0, n, (8, n))
    batch = np.stack([np.bincount(gold[p] * 7 + pred[p], minlength=35).reshape(5, 7) for p in picks])
    ours = metrics.evaluate_batch(batch, ["ami"])["ami"].to_numpy()
    theirs = [adjusted_mutual_info_score(gold[p], pred[p]) for p in picks]
    np.testing.assert_allclose(ours, theirs, rtol=1e-8)


def test_emi_of_sizes_near_n_equals_30_digit_arithmetic(kernel):
    """A class and a cluster of nearly all items: k barely moves from μ, so k log(k/μ) and k − μ
    cancel to 10^-5 of themselves (the walk's series and its exact k − μ keep the digits)."""
    sizes = ((198_091, 1_909), (196_269, 3_731))
    assert _rel(expected_mi_from_sizes(*sizes), _mpmath_emi(*sizes)) < 1e-13
