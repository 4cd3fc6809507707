"""scikit-learn's clustering scores, drop-in (metrics/api.py): the installed scikit-learn is the oracle.

Same signatures (names, kinds, defaults), same values on random labels (hypothesis) and on
adversarial ones (one class, all singletons, one item, strings, mixed sparse integers, counts of
10^5 items), same refusals (2-D labels, different lengths, an unknown ``average_method``), apart
from the two conventions the module documents. Also :func:`metrics.score` for every registry
measure and the registry's measures called with two label arrays.
"""

from __future__ import annotations

import inspect
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import cluster as skc

import metrics
from metrics import api

TOL = 1e-10
NAMES = ["adjusted_rand_score", "rand_score", "adjusted_mutual_info_score", "normalized_mutual_info_score",
         "mutual_info_score", "homogeneity_score", "completeness_score", "v_measure_score",
         "homogeneity_completeness_v_measure", "fowlkes_mallows_score"]
METHODS = ["arithmetic", "geometric", "min", "max"]


def _sk(name, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. float labels read as "continuous"
        return getattr(skc, name)(*args, **kwargs)


def _n_distinct(labels) -> int:
    return len(set(labels))


def _convention(name: str, pair, kwargs) -> bool:
    """The two documented conventions (metrics/api.py): where Partition Lab differs on purpose."""
    n = len(pair[0])
    singles = (_n_distinct(pair[0]) == n, _n_distinct(pair[1]) == n)
    if name == "fowlkes_mallows_score":
        return all(singles)
    if name == "adjusted_mutual_info_score" and kwargs.get("average_method") == "min":
        # One side all singletons, the other not and with two classes or more: I = E[I] = min(H(C), H(K)) > 0.
        return any(singles) and not all(singles) and min(_n_distinct(pair[0]), _n_distinct(pair[1])) > 1
    return False


def _assert_same(name: str, pair, **kwargs):
    ours = getattr(metrics, name)(*pair, **kwargs)
    theirs = _sk(name, *pair, **kwargs)
    if isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs)
        assert all(type(x) is float for x in ours)
        assert np.allclose(ours, theirs, rtol=0, atol=TOL), (name, kwargs, ours, theirs)
        return
    assert type(ours) is float
    if _convention(name, pair, kwargs):
        assert ours == 1.0, (name, kwargs, ours)
        return
    assert abs(ours - theirs) <= TOL, f"{name}{kwargs}: metrics {ours!r} vs scikit-learn {theirs!r}"


def _all_calls():
    """(name, keyword arguments): every function with its defaults, and every option it has."""
    for name in NAMES:
        yield name, {}
    for name in ("adjusted_mutual_info_score", "normalized_mutual_info_score"):
        for method in METHODS:
            yield name, {"average_method": method}
    for name in ("v_measure_score", "homogeneity_completeness_v_measure"):
        for beta in (0.25, 0.5, 2.0, 3.7):
            yield name, {"beta": beta}


CALLS = list(_all_calls())


@st.composite
def label_pairs(draw):
    n = draw(st.integers(1, 80))
    k_true = draw(st.integers(1, 10))
    k_pred = draw(st.integers(1, 15))
    true = draw(st.lists(st.integers(0, k_true - 1), min_size=n, max_size=n))
    pred = draw(st.lists(st.integers(0, k_pred - 1), min_size=n, max_size=n))

    def recode(codes):
        kind = draw(st.sampled_from(["int", "sparse", "str", "array"]))
        if kind == "sparse":
            return [997 * c - 5000 for c in codes]
        if kind == "str":
            return [f"label-{c}" for c in codes]
        if kind == "array":
            return np.asarray(codes, dtype=np.int32)
        return codes

    return recode(true), recode(pred)


@pytest.mark.parametrize("name", NAMES)
def test_signature_is_scikit_learns(name):
    """Parameter names, kinds (keyword-only after ``*``) and defaults as in scikit-learn — less the
    parameters scikit-learn keeps only to warn that they are going (default ``"deprecated"``:
    ``fowlkes_mallows_score(sparse=)`` up to 1.8, the minimum being 1.7)."""
    ours = inspect.signature(getattr(metrics, name))
    theirs = inspect.signature(getattr(skc, name))
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values() if p.default != "deprecated"]


@pytest.mark.parametrize("name", NAMES)
def test_exported_from_metrics_and_thin(name):
    assert getattr(metrics, name) is getattr(api, name)
    assert name in metrics.__all__


@given(label_pairs())
def test_random_labels_every_call(pair):
    for name, kwargs in CALLS:
        _assert_same(name, pair, **kwargs)


def _adversarial():
    rng = np.random.default_rng(7)
    big_true = rng.integers(0, 6, 100_000)
    big_pred = np.where(rng.random(100_000) < 0.7, big_true, rng.integers(0, 9, 100_000))
    return {
        "one item": ([0], [0]),
        "one item, other labels": (["a"], [9]),
        "two items, one class each side": ([1, 1], [5, 5]),
        "one class": ([0] * 10, list(range(10))),
        "one cluster": (list(range(10)), [3] * 10),
        "both all singletons": (list(range(12)), list(range(12))[::-1]),
        "truth all singletons": (list(range(12)), [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]),
        "prediction all singletons": ([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3], list(range(12))),
        "identical": ([0, 1, 1, 2, 2, 2], [0, 1, 1, 2, 2, 2]),
        "renamed": ([0, 1, 1, 2, 2, 2], ["c", "a", "a", "b", "b", "b"]),
        "strings": (["cat", "dog", "dog", "eel", "cat"], ["x", "x", "y", "y", "z"]),
        "negative sparse integers": ([-10**9, 5, 5, 10**12, -10**9], [3, 3, -7, -7, 3]),
        "floats": ([0.5, 0.5, 1.5, 2.5], [1.0, 2.0, 2.0, 2.0]),
        "booleans": ([True, False, True, False, True], [True, True, False, False, True]),
        "independent": ([0, 0, 1, 1] * 5, [0, 1, 0, 1] * 5),
        "100000 items": (big_true, big_pred),
    }


ADVERSARIAL = _adversarial()


@pytest.mark.parametrize("case", list(ADVERSARIAL))
@pytest.mark.parametrize(("name", "kwargs"), CALLS, ids=[f"{n}{k or ''}" for n, k in CALLS])
def test_adversarial_labels(case, name, kwargs):
    _assert_same(name, ADVERSARIAL[case], **kwargs)


def test_the_two_conventions_shown_explicitly():
    singles = (list(range(6)), list(range(6))[::-1])
    assert metrics.fowlkes_mallows_score(*singles) == 1.0 and _sk("fowlkes_mallows_score", *singles) == 0.0
    one_side = (list(range(6)), [0, 0, 0, 1, 1, 1])
    assert metrics.adjusted_mutual_info_score(*one_side, average_method="min") == 1.0


def test_mutual_info_from_a_contingency_matrix():
    true, pred = [0, 0, 1, 1, 2, 2, 2], [1, 1, 1, 0, 0, 2, 2]
    table = skc.contingency_matrix(true, pred)
    expected = skc.mutual_info_score(None, None, contingency=table)
    assert abs(metrics.mutual_info_score(None, None, contingency=table) - expected) <= TOL
    assert abs(metrics.mutual_info_score(true, pred) - expected) <= TOL
    from scipy import sparse

    assert abs(metrics.mutual_info_score(None, None, contingency=sparse.csr_matrix(table)) - expected) <= TOL


BAD_SHAPES = [(np.zeros((2, 2)), np.zeros((2, 2))), ([[0, 1]], [[0, 1]]), ([0, 1, 1], [0, 1]),
              ([0, 1, 0], [[1, 1], [0, 0]]), ([[0, 1], [1, 0]], [1, 1, 1]), (np.zeros((3, 1)), [0, 1, 2]),
              ([0, 1], np.arange(3)), ((0, 1, 1), (0, 1))]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bad", range(len(BAD_SHAPES)))
def test_refuses_what_scikit_learn_refuses_in_its_words(name, bad):
    """The same ValueError, its message starting with scikit-learn's own (which code written
    against scikit-learn may match); ours goes on to say what to pass instead."""
    with pytest.raises(ValueError) as theirs:
        _sk(name, *BAD_SHAPES[bad])
    with pytest.raises(ValueError) as ours:
        getattr(metrics, name)(*BAD_SHAPES[bad])
    assert str(ours.value).startswith(str(theirs.value)), (str(ours.value), str(theirs.value))


@pytest.mark.parametrize(("name", "kwargs"), CALLS, ids=[f"{n}{k or ''}" for n, k in CALLS])
def test_empty_labelings_score_as_scikit_learn_scores_them(name, kwargs):
    """Two empty labelings are the same partition: scikit-learn's 1.0 (its own tests assert it for
    ARI, Rand, h, c, V, NMI and AMI with every mean); mutual information raises as scikit-learn's
    does; Fowlkes–Mallows keeps the documented convention (1.0 where scikit-learn gives 0.0)."""
    if name == "mutual_info_score":
        with pytest.raises(ValueError):
            _sk(name, [], [], **kwargs)
        with pytest.raises(ValueError, match="empty"):
            metrics.mutual_info_score([], [], **kwargs)
        return
    ours = getattr(metrics, name)([], [], **kwargs)
    expected = (1.0, 1.0, 1.0) if name == "homogeneity_completeness_v_measure" else 1.0
    assert ours == expected
    if name != "fowlkes_mallows_score":
        assert ours == _sk(name, [], [], **kwargs)
    assert getattr(metrics, name)(np.array([], dtype=np.int64), np.array([]), **kwargs) == expected


@pytest.mark.parametrize("name", ["adjusted_mutual_info_score", "normalized_mutual_info_score",
                                  "v_measure_score", "homogeneity_completeness_v_measure"])
def test_options_are_keyword_only(name):
    option = 1.0 if "v_measure" in name else "max"
    with pytest.raises(TypeError):
        getattr(metrics, name)([0, 1], [0, 1], option)


@pytest.mark.parametrize("name", ["adjusted_mutual_info_score", "normalized_mutual_info_score"])
def test_unknown_average_method(name):
    with pytest.raises(ValueError, match="arithmetic"):
        getattr(metrics, name)([0, 1], [0, 1], average_method="harmonic")


@pytest.mark.parametrize("beta", [0.0, -1.0, math.inf, math.nan])
def test_bad_beta(beta):
    with pytest.raises(ValueError, match="beta"):
        metrics.v_measure_score([0, 1], [0, 1], beta=beta)


def test_options_of_empty_labelings_are_still_checked():
    with pytest.raises(ValueError, match="beta"):
        metrics.v_measure_score([], [], beta=-1.0)
    with pytest.raises(ValueError, match="beta"):
        metrics.homogeneity_completeness_v_measure([], [], beta=0.0)
    with pytest.raises(ValueError, match="arithmetic"):
        metrics.adjusted_mutual_info_score([], [], average_method="harmonic")
    with pytest.raises(ValueError, match="inconsistent numbers of samples: \\[0, 1\\]"):
        metrics.adjusted_rand_score([], [1])


def test_missing_labels_are_refused_and_empty_ones_outside_the_drop_ins():
    with pytest.raises(ValueError, match="empty"):
        metrics.score("ari", [], [])
    with pytest.raises(ValueError, match="empty"):
        metrics.Contingency.from_labels([], [])
    with pytest.raises(ValueError):
        metrics.adjusted_rand_score([0, None, 1], [0, 1, 1])
    with pytest.raises(ValueError):
        metrics.adjusted_rand_score(np.array([0.0, np.nan]), [0, 1])


@given(label_pairs(), st.sampled_from([2.0, math.e, 10.0]), st.sampled_from([0.5, 1.0, 2.0]))
def test_score_is_the_registry_measure_of_the_labels(pair, log_base, beta):
    """metrics.score(key, …) for every registry measure equals evaluating the table of the labels."""
    t = metrics.Contingency.from_labels(*pair)
    expected = metrics.evaluate(t, log_base=log_base, beta=beta)
    for key in metrics.MEASURES:
        if key not in expected:
            continue
        assert metrics.score(key, *pair, log_base=log_base, beta=beta) == expected[key], key


def test_score_of_sklearn_measures_matches_sklearn():
    pair = ([0, 0, 1, 1, 2, 2, 2, 3], ["a", "b", "b", "b", "c", "c", "a", "a"])
    for key, m in metrics.MEASURES.items():
        if m.sklearn:
            name, _, method = m.sklearn.partition(":")
            theirs = _sk(name, *pair, **({"average_method": method} if method else {}))
            assert abs(metrics.score(key, *pair) - theirs) <= TOL, key


def test_score_unknown_key_and_parameter():
    with pytest.raises(KeyError, match="known keys: homogeneity, completeness"):
        metrics.score("adjusted_rand", [0, 1], [0, 1])
    with pytest.raises(TypeError):
        metrics.score("ari", [0, 1], [0, 1], average_method="max")  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="log_base"):
        metrics.score("vi", [0, 1], [0, 1], log_base=1.0)


def test_registry_measure_takes_two_label_arrays():
    """MEASURES[key](labels_true, labels_pred): the table is counted first (documented on Measure)."""
    a, b = [0, 0, 1, 1, 2, 2], [0, 0, 1, 2, 2, 2]
    assert metrics.MEASURES["ari"](a, b) == metrics.adjusted_rand_score(a, b)
    assert abs(metrics.MEASURES["ari"](a, b) - _sk("adjusted_rand_score", a, b)) <= TOL
    assert metrics.MEASURES["vi"](a, b, log_base=2) == metrics.score("vi", a, b, log_base=2)
    assert metrics.MEASURES["v_measure"](a, b, beta=2.0) == metrics.v_measure_score(a, b, beta=2.0)


def test_registry_measure_with_one_label_array_names_score():
    with pytest.raises(TypeError, match=r"metrics\.score\('ari', labels_true, labels_pred\)"):
        metrics.MEASURES["ari"]([0, 0, 1, 1])
    t = metrics.Contingency.from_labels([0, 1], [0, 1])
    with pytest.raises(TypeError, match="not both"):
        metrics.MEASURES["ari"](t, [0, 1])
