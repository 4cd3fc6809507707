"""Degenerate tables for every registered measure.

n = 0 (an all-zero table), n = 1, one class, one cluster, all singletons, gold
classes all singletons, and perfect clusterings: every measure gives a finite value
(Minkowski may be +∞ against all-singleton gold classes, documented) inside its
bounds, with no warning (warnings are errors here), and the values the papers define:

* h = 1 when H(C) = 0; c = 1 when H(K) = 0 (Rosenberg & Hirschberg eqs. 1–2);
* NVI = H(K) when H(C) = 0; NVIK = H(C) when H(K) = 0 (Reichart & Rappoport §4);
* a single cluster: V = 0 and NVI = 1 (Reichart & Rappoport §3–4);
* a perfect clustering: every measure at its best value.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import metrics

M = metrics.MEASURES
ALL = list(M)

C = metrics.Contingency
CASES = {
    "n=0 (all-zero table)": lambda: C.from_table(np.zeros((3, 2), dtype=int)),
    "n=0 (all-zero float table)": lambda: C.from_table(np.zeros((2, 2))),
    "n=1": lambda: C.from_labels(["a"], ["x"]),
    "one class": lambda: C.from_labels([0] * 7, [0, 0, 1, 1, 1, 2, 3]),
    "one class, n=23": lambda: C.from_table([[20, 2, 1]]),
    "one cluster": lambda: C.from_labels([0, 0, 1, 1, 1, 2, 3], [0] * 7),
    "one cluster, n=23": lambda: C.from_table([[20], [2], [1]]),
    "one class and one cluster": lambda: C.from_labels(["a"] * 5, ["x"] * 5),
    "clusters all singletons": lambda: C.from_labels([0, 0, 1, 1, 2, 2], range(6)),
    "gold classes all singletons": lambda: C.from_labels(range(6), [0, 0, 1, 1, 1, 2]),
    "both all singletons": lambda: C.from_labels(range(6), range(6)),
    "both all singletons, n=2": lambda: C.from_labels([0, 1], ["a", "b"]),
    "both all singletons, n=3": lambda: C.from_labels([0, 1, 2], [2, 0, 1]),
    "perfect": lambda: C.from_labels([0, 0, 0, 1, 1, 2], ["b", "b", "b", "a", "a", "c"]),
}


def entropy(counts) -> float:
    p = np.asarray(counts, dtype=float)
    p = p[p > 0] / p.sum()
    return float(-(p * np.log(p)).sum())


def evaluate_strict(t):
    """All applicable measures, with every warning raised as an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return metrics.evaluate(t)


@pytest.mark.parametrize("case", list(CASES))
def test_finite_in_bounds_without_warnings(case):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = CASES[case]()
    values = evaluate_strict(t)
    assert set(values) == set(ALL)  # integer tables: every measure applies
    bad = {}
    for key, v in values.items():
        lo, hi = M[key].bounds
        infinite_allowed = key == "minkowski" and case == "gold classes all singletons"
        if math.isnan(v) or not (lo <= v <= hi) or (math.isinf(v) and not infinite_allowed):
            bad[key] = v
    assert bad == {}


def test_minkowski_infinite_case_is_the_documented_one():
    """Gold classes all singletons join no pair, so MS = √(disagreements / 0): +∞ as
    soon as the clustering joins a pair (metrics/measures/pairs.py::minkowski)."""
    assert M["minkowski"](CASES["gold classes all singletons"]()) == math.inf
    assert M["minkowski"](CASES["both all singletons"]()) == 0.0


@pytest.mark.parametrize("case", ["one class", "one class, n=23", "one class and one cluster", "n=1",
                                  "n=0 (all-zero table)"])
def test_homogeneity_is_one_when_class_entropy_is_zero(case):
    t = CASES[case]()
    assert M["homogeneity"](t) == 1.0


@pytest.mark.parametrize("case", ["one cluster", "one cluster, n=23", "one class and one cluster", "n=1",
                                  "n=0 (all-zero table)"])
def test_completeness_is_one_when_cluster_entropy_is_zero(case):
    t = CASES[case]()
    assert M["completeness"](t) == 1.0


@pytest.mark.parametrize("case", ["one class", "one class, n=23"])
@pytest.mark.parametrize("log_base", [math.e, 2])
def test_nvi_is_cluster_entropy_when_class_entropy_is_zero(case, log_base):
    """NVI = H(K) when H(C) = 0, in the unit of the log base (n = 23 is a size where
    log n − Σ x log x / n does not cancel to exactly 0 in floating point)."""
    t = CASES[case]()
    h_k = entropy(t.col_sums) / math.log(log_base)
    assert M["nvi"](t, log_base=log_base) == pytest.approx(h_k, rel=1e-12)


@pytest.mark.parametrize("case", ["one cluster", "one cluster, n=23"])
@pytest.mark.parametrize("log_base", [math.e, 2])
def test_nvik_is_class_entropy_when_cluster_entropy_is_zero(case, log_base):
    t = CASES[case]()
    h_c = entropy(t.row_sums) / math.log(log_base)
    assert M["nvik"](t, log_base=log_base) == pytest.approx(h_c, rel=1e-12)


@pytest.mark.parametrize("case", ["one cluster", "one cluster, n=23"])
def test_single_cluster(case):
    """One cluster for several classes: V = 0 (h = 0, c = 1) and NVI = 1 (VI = H(C))."""
    t = CASES[case]()
    assert M["v_measure"](t) == 0.0
    assert M["homogeneity"](t) == 0.0
    assert M["nvi"](t) == pytest.approx(1.0, abs=1e-12)
    assert M["vi"](t) == pytest.approx(entropy(t.row_sums), rel=1e-12)


@pytest.mark.parametrize("case", ["one class", "one class, n=23"])
def test_single_class(case):
    """One class split over several clusters: h = 1, c = 0, V = 0; VI = H(K)."""
    t = CASES[case]()
    assert M["completeness"](t) == 0.0
    assert M["v_measure"](t) == 0.0
    assert M["vi"](t) == pytest.approx(entropy(t.col_sums), rel=1e-12)


def test_singletons_homogeneous():
    """All-singleton clusters are perfectly homogeneous: h = 1, H(C|K) = 0, purity 1."""
    t = CASES["clusters all singletons"]()
    assert M["homogeneity"](t) == 1.0
    assert M["conditional_entropy"](t) == 0.0
    assert M["purity"](t) == 1.0


# A perfect clustering: where the best value is not a bound, what it is instead.
BEST_IS_NOT_A_BOUND = {
    # MI is at its maximum for the given classes: H(C) = H(K).
    "mutual_info": lambda t: entropy(t.row_sums),
    # Dom's Q0 keeps its model cost (1/n) Σ_c log C(h(c) + |C| − 1, |C| − 1) > 0; Q2 = 1 says
    # it is the smallest Q0 for these classes.
    "q0": lambda t: M["q0"](t) * M["q2"](t),
}


@pytest.mark.parametrize("case", ["perfect", "both all singletons", "both all singletons, n=2",
                                  "both all singletons, n=3", "one class and one cluster", "n=1"])
def test_perfect_clustering_gets_every_best_value(case):
    t = CASES[case]()
    values = evaluate_strict(t)
    off = {}
    for key, v in values.items():
        m = M[key]
        if key in BEST_IS_NOT_A_BOUND:
            best = BEST_IS_NOT_A_BOUND[key](t)
        else:
            best = m.bounds[1] if m.higher_is_better else m.bounds[0]
        if not math.isclose(v, best, rel_tol=1e-12, abs_tol=1e-12):
            off[key] = (v, best)
    assert off == {}


def test_all_zero_table_is_empty():
    """An all-zero table keeps no cell: n = 0, no classes, no clusters."""
    t = C.from_table(np.zeros((3, 2), dtype=int))
    assert t.n == 0 and t.shape == (0, 0)
    assert metrics.pair_counts(t) == (0, 0, 0, 0)


def test_empty_rows_and_columns_are_ignored():
    """Empty rows and columns change no measure."""
    dense = np.array([[3, 1], [0, 4]])
    padded = np.zeros((4, 5), dtype=int)
    padded[np.ix_([0, 2], [1, 3])] = dense
    a, b = evaluate_strict(C.from_table(dense)), evaluate_strict(C.from_table(padded))
    assert {k for k in a if not math.isclose(a[k], b[k], rel_tol=1e-12, abs_tol=1e-12)} == set()
