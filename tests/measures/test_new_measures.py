"""The measures added with metrics.chance: AMI with the min / geometric / max
normalisers, pair precision / recall / F, and element-centric similarity — against
scikit-learn, clusim, brute force and their identities; and every registered measure
in evaluate_batch equal to evaluate, table by table.
"""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.metrics import cluster as skc

import metrics
from metrics.measures.expected import expected_mi_batch, expected_mi_from_sizes, expected_mutual_information

M = metrics.MEASURES
C = metrics.Contingency
AMI_METHODS = {"ami": "arithmetic", "ami_min": "min", "ami_geometric": "geometric", "ami_max": "max"}


def close(a, b, tol=1e-10):
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


@st.composite
def label_pairs(draw, max_n=50):
    n = draw(st.integers(1, max_n))
    k_true, k_pred = draw(st.integers(1, 7)), draw(st.integers(1, 12))
    true = draw(st.lists(st.integers(0, k_true - 1), min_size=n, max_size=n))
    pred = draw(st.lists(st.integers(0, k_pred - 1), min_size=n, max_size=n))
    return true, pred


@st.composite
def int_tables(draw, max_side=6, max_cell=9):
    shape = (draw(st.integers(1, max_side)), draw(st.integers(1, max_side)))
    arr = draw(arrays(np.int64, shape, elements=st.integers(0, max_cell)))
    assume(arr.sum() > 0)
    return arr


# --------------------------------------------------------------------------- AMI variants
def _zero_over_zero(true, pred) -> bool:
    n = len(true)
    singles = (len(set(true)) == n, len(set(pred)) == n)
    return any(singles) and not all(singles)


@given(label_pairs())
def test_ami_variants_match_scikit_learn(pair):
    t = C.from_labels(*pair)
    for key, method in AMI_METHODS.items():
        if key == "ami_min" and _zero_over_zero(*pair):
            continue  # the documented 0/0 case, below
        theirs = skc.adjusted_mutual_info_score(*pair, average_method=method)
        assert close(M[key](t), theirs), (key, M[key](t), theirs)


@pytest.mark.parametrize("true,pred", [([0, 0, 1, 1], [0, 1, 2, 3]), ([0, 0, 1, 1, 1], [0, 1, 2, 3, 4]),
                                       ([0, 1, 2, 3, 4, 5], [0, 0, 0, 1, 1, 2])])
def test_ami_min_zero_over_zero_is_one(true, pred):
    """One side all singletons: every relabelling gives the same table, I = E[I] =
    min(H(C), H(K)) and AMI_min is 0/0. It takes NMI_min's value, 1 (one partition
    refines the other); scikit-learn returns a rounding residue (2/3 on the first)."""
    t = C.from_labels(true, pred)
    assert M["nmi_min"](t) == 1.0 and M["ami_min"](t) == 1.0
    assert skc.adjusted_mutual_info_score([0, 0, 1, 1], [0, 1, 2, 3], average_method="min") != 1.0
    # The other normalisers exceed I there: a clean 0 (scikit-learn: ±1e-16).
    for key in ("ami", "ami_geometric", "ami_max"):
        assert M[key](t) == 0.0


def test_ami_of_trivial_and_one_sided_trivial_partitions():
    assert {k: M[k](C.from_labels([0, 0, 0], [1, 1, 1])) for k in AMI_METHODS} == dict.fromkeys(AMI_METHODS, 1.0)
    one_cluster = C.from_labels([0, 0, 1, 1, 2], [0] * 5)
    assert {k: M[k](one_cluster) for k in AMI_METHODS} == dict.fromkeys(AMI_METHODS, 0.0)


@pytest.mark.parametrize("n", [6, 10, 30])
def test_ami_min_is_unbounded_below(n):
    """Classes (n−1, 1), clusters one pair and n−2 singletons, the lone item in the
    pair: AMI_min = −(n/2 − 1) (metrics/measures/information.py::ami_min); registered bounds
    (−∞, 1]."""
    true = [0] * (n - 1) + [1]
    pred = [0] + list(range(1, n - 1)) + [0]
    t = C.from_labels(true, pred)
    assert close(M["ami_min"](t), -(n / 2 - 1))
    assert close(skc.adjusted_mutual_info_score(true, pred, average_method="min"), -(n / 2 - 1), 1e-9)
    assert M["ami_min"].bounds == (-math.inf, 1.0)


def test_ami_lower_bound_search_on_small_tables():
    """The −1 lower bound declared for ami, ami_geometric and ami_max is not proved;
    every table of shape 2×2 (cells ≤ 7), 2×3 (≤ 3) and 3×3 (≤ 2) stays above −0.55
    (the lowest, −0.5441, is also the lowest a random search of scikit-learn found)."""
    tables = []
    for shape, top in (((2, 2), 7), ((2, 3), 3), ((3, 3), 2)):
        for cells in itertools.product(range(top + 1), repeat=shape[0] * shape[1]):
            arr = np.array(cells).reshape(shape)
            if arr.sum() >= 2:
                tables.append(np.pad(arr, ((0, 3 - shape[0]), (0, 3 - shape[1]))))
    values = metrics.evaluate_batch(np.array(tables), ["ami", "ami_geometric", "ami_max"])
    assert values.min().min() >= -0.55


@given(int_tables())
def test_ami_variants_are_ordered_by_their_normalisers(arr):
    """min ≤ geometric ≤ arithmetic ≤ max normalisers, so above chance
    AMI_min ≥ AMI_sqrt ≥ AMI ≥ AMI_max, and below chance the reverse."""
    t = C.from_table(arr)
    assume(t.n_classes > 1 and t.n_clusters > 1 and t.n_classes < t.n and t.n_clusters < t.n)
    v = [M[k](t) for k in ("ami_min", "ami_geometric", "ami", "ami_max")]
    if M["ami"](t) >= 0:
        assert all(a >= b - 1e-12 for a, b in itertools.pairwise(v))
    else:
        assert all(a <= b + 1e-12 for a, b in itertools.pairwise(v))


def test_expected_mi_batch_shares_margins_and_equals_scalar():
    rng = np.random.default_rng(3)
    tables = rng.integers(0, 5, (40, 4, 5))
    tables[20:] = tables[20]  # the same margins 20 times
    batch = metrics.TableBatch(tables)
    ours = expected_mi_batch(batch.row_sums, batch.col_sums)
    for arr, e in zip(tables, ours):
        assert close(e, expected_mutual_information(C.from_table(arr)), 1e-13)


def test_expected_mi_batch_grid_and_distinct_pairs_paths_agree_with_scalar(monkeypatch):
    """Random-model samples (every table its own margins, padding zeros, several n in one
    batch) through the shared size grid and through the batch's distinct size pairs."""
    from metrics import chance
    from metrics.measures import expected
    t = C.from_table(np.array([[9, 1, 0], [2, 7, 3], [0, 4, 14]]))
    dense, _ = chance.draw_tables(t, "all", 60, 5).chunks[0]
    rows, cols = dense.sum(axis=2).astype(np.int64), dense.sum(axis=1).astype(np.int64)
    extra_r, extra_c = np.zeros((2, rows.shape[1]), np.int64), np.zeros((2, cols.shape[1]), np.int64)
    extra_r[0, 1:3], extra_c[0, [0, 2]] = (3, 1), (2, 2)  # another n, with padding zeros
    extra_r[1, 0], extra_c[1, 1] = 1, 1  # n = 1
    rows, cols = np.vstack([rows, extra_r]), np.vstack([cols, extra_c])
    scalar = [expected_mi_from_sizes(r, c) if r.sum() > 1 else 0.0 for r, c in zip(rows, cols)]
    results = {}
    for path in ("_emi_grid", "_emi_distinct_pairs"):
        calls = []
        real = getattr(expected, path)
        with monkeypatch.context() as m:  # every batch through this path
            m.setattr(expected, "_emi_grid", lambda *a, real=real, calls=calls: calls.append(1) or real(*a))
            m.setattr(expected, "_emi_distinct_pairs", lambda *a, real=real, calls=calls: calls.append(1) or real(*a))
            results[path] = expected_mi_batch(rows, cols)
        assert calls, f"{path} was not taken"
    for s, g, a in zip(scalar, results["_emi_grid"], results["_emi_distinct_pairs"]):
        assert close(g, s, 1e-13) and close(a, s, 1e-13)
    assert len(set(np.round(results["_emi_grid"], 12))) > 10  # the draws really had different margins


# --------------------------------------------------------------------------- pair counting
@given(label_pairs())
def test_pair_precision_recall_f_against_scikit_learn_pair_counts(pair):
    """scikit-learn's pair confusion matrix counts ordered pairs: C = 2 [[TN, FP], [FN, TP]]."""
    (_, fp), (fn, tp) = (skc.pair_confusion_matrix(*pair) // 2).tolist()
    t = C.from_labels(*pair)
    p, r, f = (M[k](t) for k in ("pair_precision", "pair_recall", "pair_f"))
    if tp + fp:
        assert close(p, tp / (tp + fp))
    if tp + fn:
        assert close(r, tp / (tp + fn))
    if 2 * tp + fp + fn:
        assert close(f, 2 * tp / (2 * tp + fp + fn))


@given(int_tables())
def test_pair_identities(arr):
    """FM² = P·R; F = 2PR/(P + R); P(t) = R(t.T); F symmetric; all three ≤ 1."""
    t = C.from_table(arr)
    p, r, f = (M[k](t) for k in ("pair_precision", "pair_recall", "pair_f"))
    assert close(M["fowlkes_mallows"](t) ** 2, p * r)
    assert close(f, 2 * p * r / (p + r) if p + r else 0.0) or (p == r == 1.0 and f == 1.0)
    assert M["pair_precision"](t.T) == r and M["pair_recall"](t.T) == p and M["pair_f"](t.T) == f


@pytest.mark.parametrize("labels,expected", [
    (([0, 1, 2], [0, 1, 2]), (1.0, 1.0, 1.0)),  # neither joins a pair: identical in pairs
    (([0, 0, 1], [0, 1, 2]), (0.0, 0.0, 0.0)),  # clustering joins none, classes one: P = 0/0 → 0
    (([0, 1, 2], [0, 0, 1]), (0.0, 0.0, 0.0)),  # classes join none: R = 0/0 → 0
    (([0], [0]), (1.0, 1.0, 1.0)),
])
def test_pair_zero_over_zero(labels, expected):
    """The rule of metrics/measures/pairs.py: 0/0 is the best value when the partitions agree on
    every pair, else the chance value 0."""
    t = C.from_labels(*labels)
    assert tuple(M[k](t) for k in ("pair_precision", "pair_recall", "pair_f")) == expected


def test_pair_measures_exact_for_huge_counts():
    """Cells of 10^9: m, m1, m2 are exact Python integers, so the ratios are the
    correctly rounded quotients."""
    arr = np.array([[10**9 + 7, 3], [5, 10**9 + 11]], dtype=np.int64)
    t = C.from_table(arr)
    a = [int(x) for x in arr.ravel()]
    m = sum(math.comb(x, 2) for x in a)
    m1 = math.comb(a[0] + a[1], 2) + math.comb(a[2] + a[3], 2)
    m2 = math.comb(a[0] + a[2], 2) + math.comb(a[1] + a[3], 2)
    assert M["pair_precision"](t) == float(Fraction(m, m2))
    assert M["pair_recall"](t) == float(Fraction(m, m1))
    assert M["pair_f"](t) == float(Fraction(2 * m, m1 + m2))


# --------------------------------------------------------------------------- element-centric
def element_centric_brute_force(true, pred) -> float:
    """Gates et al. (2019) item by item: uniform affinities over the item's class and
    over its cluster, S_e = 1 − ½‖p_e − q_e‖₁, averaged over items."""
    true, pred = np.asarray(true), np.asarray(pred)
    scores = []
    for e in range(true.size):
        p = (true == true[e]) / np.sum(true == true[e])
        q = (pred == pred[e]) / np.sum(pred == pred[e])
        scores.append(1.0 - 0.5 * np.abs(p - q).sum())
    return float(np.mean(scores))


@given(label_pairs(max_n=40))
def test_element_centric_is_the_per_item_definition(pair):
    assert close(M["element_centric"](C.from_labels(*pair)), element_centric_brute_force(*pair), 1e-12)


@settings(max_examples=15)
@given(label_pairs(max_n=30))
def test_element_centric_matches_clusim(pair):
    """clusim's element_sim with its default α = 0.9 (α drops out for partitions)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from clusim import sim
        from clusim.clustering import Clustering
    true, pred = pair
    gold = Clustering(elm2clu_dict={i: [x] for i, x in enumerate(true)})
    clus = Clustering(elm2clu_dict={i: [x] for i, x in enumerate(pred)})
    assert close(M["element_centric"](C.from_labels(true, pred)), sim.element_sim(clus, gold), 1e-12)


@given(int_tables())
def test_element_centric_against_bcubed(arr):
    """Per cell it divides by max(a, b): at most both BCubed precision and recall; 1
    exactly when the table is a matching."""
    t = C.from_table(arr)
    ec = M["element_centric"](t)
    assert ec <= min(M["bcubed_precision"](t), M["bcubed_recall"](t)) + 1e-12
    assert (ec == 1.0) == (t.n_cells == t.n_classes == t.n_clusters)


def test_element_centric_fuzzy_table():
    """Fractional tables use the same cell formula (as BCubed does)."""
    t = C.from_table([[0.5, 1.5], [2.0, 0.0]])
    # a = (2, 2), b = (2.5, 1.5): (0.25/2.5 + 2.25/2 + 4/2.5) / 4
    assert close(M["element_centric"](t), (0.25 / 2.5 + 2.25 / 2 + 4 / 2.5) / 4, 1e-14)


# --------------------------------------------------------------------------- batch = scalar
def _batch_equals_scalar(tables):
    batch = metrics.evaluate_batch(np.array(tables, dtype=float))
    off = {}
    for i, arr in enumerate(tables):
        scalar = metrics.evaluate(C.from_table(arr), list(batch.columns))
        for key, value in scalar.items():
            b = batch.loc[i, key]
            if not (b == value or close(b, value, 1e-9)):
                off[(i, key)] = (b, value)
    return off


@settings(max_examples=40)
@given(st.lists(int_tables(max_side=4), min_size=1, max_size=6))
def test_every_measure_in_evaluate_batch_equals_evaluate(tables):
    """Padded to a common shape, tables of different margins in one batch: every
    registered measure (AMI variants included) as table by table."""
    r = max(a.shape[0] for a in tables)
    c = max(a.shape[1] for a in tables)
    padded = [np.pad(a, ((0, r - a.shape[0]), (0, c - a.shape[1]))) for a in tables]
    assert _batch_equals_scalar(padded) == {}


@pytest.mark.parametrize("kind", ["whole counts (x log x looked up)", "fractional cells (x log x computed)",
                                  "a count past the lookup's reach"])
def test_batch_entropies_by_lookup_and_by_logarithm_equal_evaluate(kind):
    """A batch of whole counts reads x log x from a table of the values 0 … max; fractional
    cells, and counts too large for such a table, take the logarithm cell by cell. Each way,
    every entropy-based measure of the batch equals evaluate's, table by table."""
    rng = np.random.default_rng(8)
    tables = rng.integers(0, 6, (12, 4, 5)).astype(float)
    if kind.startswith("fractional"):
        tables = tables * rng.uniform(0.2, 1.0, tables.shape)
    elif kind.startswith("a count"):
        tables[3, 1, 2] = 10**6  # far above 4 × the batch's 240 cells + 1024
    batch = metrics.TableBatch(tables)
    assert batch.is_integer == (not kind.startswith("fractional"))
    keys = ["v_measure", "vi", "nvi", "mutual_info", "nmi_joint", "homogeneity", "completeness"]
    assert all(M[k].applies_to(batch) for k in keys)
    assert _batch_equals_scalar(list(tables)) == {}
    frame = metrics.evaluate_batch(tables, keys)
    for i, arr in enumerate(tables):
        scalar = metrics.evaluate(C.from_table(arr), keys)
        for key in keys:
            assert frame.loc[i, key] == pytest.approx(scalar[key], rel=1e-12, abs=1e-13), (i, key)


def test_new_measures_registered_with_their_flags():
    assert M["pair_f"].symmetric and not M["pair_precision"].symmetric and not M["pair_recall"].symmetric
    assert M["element_centric"].symmetric and M["element_centric"].n_invariant
    assert all(M[k].domain == "counts" for k in ("pair_precision", "pair_recall", "pair_f"))
    assert all(M[k].domain == "integer" and not M[k].n_invariant and M[k].symmetric for k in AMI_METHODS)
    assert all(M[k].vectorized for k in M)
