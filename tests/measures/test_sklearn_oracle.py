"""scikit-learn as an independent oracle for every measure it implements.

Random pairs of labelings (hypothesis): 1 to 60 items, small alphabets, integer,
sparse-integer and string labels. Every comparison is to 1e-10.

Known, documented difference: when *both* partitions are all singletons, no pair is
joined by either, and ``fowlkes_mallows`` returns 1 (identical partitions) where
scikit-learn returns 0 (see metrics/measures/pairs.py::fowlkes_mallows).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import cluster as skc

import metrics

TOL = 1e-10


def _sk_entropy(labels) -> float:
    """scikit-learn's labeling entropy (nats). ``entropy`` is public but deprecated
    since 1.8 (removal planned for 1.10); fall back to the private helper after that."""
    fn = getattr(skc, "entropy", None)
    if fn is None:  # pragma: no cover - depends on the installed scikit-learn
        from sklearn.metrics.cluster._supervised import _entropy as fn
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return float(fn(np.asarray(labels)))


@st.composite
def label_pairs(draw):
    """(labels_true, labels_pred) of equal length 1..60 over small alphabets.

    Labels are plain small integers (no factorization needed), sparse/negative
    integers (hash factorization) or strings, chosen independently for each side.
    """
    n = draw(st.integers(1, 60))
    k_true = draw(st.integers(1, 8))
    k_pred = draw(st.integers(1, 12))
    true = draw(st.lists(st.integers(0, k_true - 1), min_size=n, max_size=n))
    pred = draw(st.lists(st.integers(0, k_pred - 1), min_size=n, max_size=n))

    def recode(codes):
        kind = draw(st.sampled_from(["int", "sparse", "str"]))
        if kind == "sparse":
            return [997 * c - 5000 for c in codes]
        if kind == "str":
            return [f"label-{c}" for c in codes]
        return codes

    return recode(true), recode(pred)


def _table(pair):
    return metrics.Contingency.from_labels(*pair)


def _both_all_singletons(pair) -> bool:
    n = len(pair[0])
    return len(set(pair[0])) == n and len(set(pair[1])) == n


def _ami_min_is_zero_over_zero(pair) -> bool:
    """One side all singletons, the other not: I = E[I] = min(H(C), H(K)), so AMI_min is
    0/0; metrics gives 1 (metrics/measures/information.py::_ami), scikit-learn a rounding residue."""
    n = len(pair[0])
    singles = (len(set(pair[0])) == n, len(set(pair[1])) == n)
    return any(singles) and not all(singles)


def _close(ours, theirs, what="", tol=TOL):
    assert math.isfinite(ours), what
    assert abs(ours - theirs) <= tol, f"{what}: metrics {ours!r} vs scikit-learn {theirs!r}"


@given(label_pairs(), st.sampled_from([0.25, 0.5, 1.0, 2.0, 3.7]))
def test_homogeneity_completeness_v_measure(pair, beta):
    h, c, v = skc.homogeneity_completeness_v_measure(*pair, beta=beta)
    r = metrics.evaluate(_table(pair), ["homogeneity", "completeness", "v_measure"], beta=beta)
    _close(r["homogeneity"], h, "homogeneity")
    _close(r["completeness"], c, "completeness")
    _close(r["v_measure"], v, f"v_measure beta={beta}")


@given(label_pairs())
def test_wu_normalized_rand_is_adjusted_rand(pair):
    """R_n (Wu Table 5 row 1) is Hubert & Arabie's ARI: scikit-learn's adjusted_rand_score."""
    _close(metrics.MEASURES["r_n"](_table(pair)), skc.adjusted_rand_score(*pair), "r_n")


@given(label_pairs())
def test_fowlkes_mallows(pair):
    ours = metrics.MEASURES["fowlkes_mallows"](_table(pair))
    theirs = skc.fowlkes_mallows_score(*pair)
    if _both_all_singletons(pair):
        # Documented difference: both all singletons = identical partitions; 1 here, 0 in scikit-learn.
        assert (ours, theirs) == (1.0, 0.0)
    else:
        _close(ours, theirs, "fowlkes_mallows")


def test_fowlkes_mallows_documented_difference():
    """The one case where the two libraries disagree, shown explicitly."""
    t = metrics.Contingency.from_labels([0, 1, 2, 3], [7, 6, 5, 4])
    assert metrics.MEASURES["fowlkes_mallows"](t) == 1.0
    assert skc.fowlkes_mallows_score([0, 1, 2, 3], [7, 6, 5, 4]) == 0.0


@pytest.mark.parametrize("n", range(1, 13))
def test_ami_of_identical_singleton_partitions(n):
    """Identical all-singleton partitions: every permutation has the same MI, so
    E[I] = I = H and AMI is 0/0. scikit-learn resolves it as a perfect match (1) by
    keeping numerator and denominator at ±machine epsilon; so must we."""
    labels = list(range(n))
    expected = skc.adjusted_mutual_info_score(labels, labels)
    assert expected == 1.0
    _close(metrics.MEASURES["ami"](_table((labels, labels))), expected, f"ami n={n}")


@given(label_pairs())
def test_pair_counts(pair):
    """scikit-learn counts ordered pairs: its matrix is 2 × [[N00, N01], [N10, N11]]."""
    n11, n10, n01, n00 = metrics.pair_counts(_table(pair))
    assert all(type(x) is int for x in (n11, n10, n01, n00))
    c = skc.pair_confusion_matrix(*pair)
    assert [[2 * n00, 2 * n01], [2 * n10, 2 * n11]] == c.tolist()


@given(label_pairs())
def test_conditional_entropy(pair):
    """H(C|K) = H(C, K) − H(K), both from scikit-learn's labeling entropy (nats)."""
    joint = [f"{a!r}|{b!r}" for a, b in zip(*pair)]
    expected = _sk_entropy(joint) - _sk_entropy(pair[1])
    _close(metrics.MEASURES["conditional_entropy"](_table(pair)), max(expected, 0.0), "conditional_entropy")


# Every measure scikit-learn has, by registry key; the registry's ``sklearn`` field
# must name exactly these (no oracle silently dropped or claimed).
SKLEARN_ORACLES = {
    "homogeneity": "homogeneity_score",
    "completeness": "completeness_score",
    "v_measure": "v_measure_score",
    "mutual_info": "mutual_info_score",
    "nmi_arithmetic": "normalized_mutual_info_score:arithmetic",
    "nmi_geometric": "normalized_mutual_info_score:geometric",
    "nmi_min": "normalized_mutual_info_score:min",
    "nmi_max": "normalized_mutual_info_score:max",
    "ami": "adjusted_mutual_info_score",
    "ami_min": "adjusted_mutual_info_score:min",
    "ami_geometric": "adjusted_mutual_info_score:geometric",
    "ami_max": "adjusted_mutual_info_score:max",
    "rand": "rand_score",
    "ari": "adjusted_rand_score",
    "fowlkes_mallows": "fowlkes_mallows_score",
}


def test_registry_names_its_sklearn_oracles():
    named = {k: m.sklearn for k, m in metrics.MEASURES.items() if m.sklearn}
    assert named == SKLEARN_ORACLES


@given(label_pairs())
def test_every_sklearn_measure(pair):
    """One sweep over the registry (natural log, β = 1): each measure that names a
    scikit-learn function equals it. Sharing the drawn labels keeps this fast."""
    t = _table(pair)
    mismatches = {}
    for key, oracle in SKLEARN_ORACLES.items():
        name, _, method = oracle.partition(":")
        fn = getattr(skc, name)
        expected = fn(*pair, average_method=method) if method else fn(*pair)
        ours = metrics.MEASURES[key](t)
        if key == "fowlkes_mallows" and _both_all_singletons(pair):
            continue  # the documented difference, asserted in test_fowlkes_mallows
        if key == "ami_min" and _ami_min_is_zero_over_zero(pair):
            continue  # the documented difference, asserted in tests/test_new_measures.py
        if not (math.isfinite(ours) and abs(ours - expected) <= TOL):
            mismatches[key] = (ours, expected)
    assert mismatches == {}, "metrics vs scikit-learn"
