"""metrics.chance and metrics.chance.models: expectations under the five random models.

Oracles, independent of the code under test:

* exhaustive enumeration — every table with the given margins and its exact
  hypergeometric probability (perm), every set partition of a small n (num, num1,
  all, all1) — gives the true expectation of every measure: the exact expectations
  must equal it to 1e-12 and the Monte Carlo means must lie within a few standard
  errors of it (seeded);
* exact integers for Stirling and Bell numbers;
* clusim (Gates & Ahn's own code) for the expected and adjusted Rand index under
  every model;
* the identities the issue names: adjusting NMI (or V, β = 1) under perm gives the
  matching AMI; E[ARI] = 0.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections import Counter
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import metrics
from metrics import chance

M = metrics.MEASURES
C = metrics.Contingency


def close(a, b, tol=1e-12):
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


# --------------------------------------------------------------------------- enumeration oracles
def _compositions(total, caps):
    """Every way to write ``total`` as a sum of len(caps) parts with part j ≤ caps[j]."""
    if len(caps) == 1:
        if total <= caps[0]:
            yield (total,)
        return
    for x in range(min(total, caps[0]) + 1):
        for rest in _compositions(total - x, caps[1:]):
            yield (x,) + rest


def tables_with_margins(a, b):
    """[(table, probability)] over every table with row sums a and column sums b, with
    P = Π a_i! Π b_j! / (n! Π n_ij!) as an exact Fraction (the permutation model)."""
    n = sum(a)
    out = []

    def rec(i, caps, rows):
        if i == len(a):
            if not any(caps):
                out.append(np.array(rows))
            return
        for row in _compositions(a[i], caps):
            rec(i + 1, tuple(c - x for c, x in zip(caps, row)), rows + [row])

    rec(0, tuple(b), [])
    top = math.prod(math.factorial(x) for x in a) * math.prod(math.factorial(x) for x in b)
    probs = [Fraction(top, math.factorial(n) * math.prod(math.factorial(int(x)) for x in t.ravel()))
             for t in out]
    assert sum(probs) == 1
    return list(zip(out, probs))


def set_partitions(n, k=None):
    """Every partition of range(n) as a label tuple (restricted growth strings)."""
    def rec(prefix, blocks):
        if len(prefix) == n:
            if k is None or blocks == k:
                yield tuple(prefix)
            return
        for label in range(blocks + 1):
            if k is not None and label == blocks and blocks == k:
                continue
            yield from rec(prefix + [label], max(blocks, label + 1))

    return list(rec([], 0))


def _table(labels_true, labels_pred):
    r, k = max(labels_true) + 1, max(labels_pred) + 1
    t = np.zeros((r, k), dtype=np.int64)
    np.add.at(t, (np.asarray(labels_true), np.asarray(labels_pred)), 1)
    return t


def model_distribution(t: metrics.Contingency, model):
    """[(table, probability)] of the random tables of ``model`` for table ``t``."""
    if model == "perm":
        return tables_with_margins([int(x) for x in t.row_sums], [int(x) for x in t.col_sums])
    n = int(t.n)
    gold_fixed = tuple(int(i) for i in np.repeat(np.arange(t.n_classes), t.row_sums))
    golds = [gold_fixed] if model in ("num1", "all1") else set_partitions(n, t.n_classes if model == "num" else None)
    preds = set_partitions(n, t.n_clusters if model.startswith("num") else None)
    counts, tables = Counter(), {}
    for g, p in itertools.product(golds, preds):
        tab = _table(g, p)
        key = (tab.shape, tab.tobytes())
        counts[key] += 1
        tables.setdefault(key, tab)
    total = len(golds) * len(preds)
    return [(tables[key], Fraction(c, total)) for key, c in counts.items()]


def true_expectations(t, model, keys):
    """{key: E[key]} by enumeration: every possible table scored (one padded batch;
    tests/test_new_measures.py checks batch = table by table) and weighted by its
    exact probability."""
    dist = model_distribution(t, model)
    r = max(tab.shape[0] for tab, _ in dist)
    c = max(tab.shape[1] for tab, _ in dist)
    batch = np.array([np.pad(tab, ((0, r - tab.shape[0]), (0, c - tab.shape[1]))) for tab, _ in dist])
    values = metrics.evaluate_batch(batch, keys)
    probs = np.array([float(p) for _, p in dist])
    with np.errstate(invalid="ignore"):  # 0 × ∞ never occurs: every listed table has p > 0
        return {k: float(np.sum(probs * values[k].to_numpy())) for k in keys}


SMALL_TABLES = {
    "3x3 mixed": [[2, 1, 0], [0, 2, 1], [1, 0, 2]],
    "2x3": [[3, 1, 0], [0, 1, 2]],
    "unequal": [[4, 0], [1, 1], [0, 1]],
    "2x2 equal": [[2, 1], [1, 2]],
}
# Small enough for every partition of n (n = 6: B(6) = 203).
PARTITION_TABLES = {
    "3x3, n=6": [[1, 1, 0], [0, 1, 1], [1, 0, 1]],
    "2x3, n=6": [[2, 1, 0], [0, 1, 2]],
    "3x2, n=5": [[2, 0], [1, 1], [0, 1]],
}
DEGENERATE_TABLES = {
    "one class": [[2, 3, 1]],
    "one cluster": [[2], [3], [1]],
    "singleton clusters": [[1, 1, 0, 0], [0, 0, 1, 1]],
    "singleton classes": [[1, 0], [1, 0], [0, 1]],
    "n=1": [[1]],
}


@pytest.mark.parametrize("name", list(SMALL_TABLES) + list(DEGENERATE_TABLES))
def test_perm_exact_expectations_equal_enumeration(name):
    t = C.from_table(SMALL_TABLES.get(name) or DEGENERATE_TABLES[name])
    keys = chance.exact_keys(t, "perm")
    truth = true_expectations(t, "perm", keys)
    ours = {k: chance.expectation(t, k, "perm", method="exact").value for k in keys}
    assert {k for k in keys if not close(ours[k], truth[k], 1e-11)} == set()


def test_perm_exact_keys_are_the_documented_ones():
    """Everything but the measures that are not affine in I, m or Σ n_ij²·w."""
    t = C.from_table(SMALL_TABLES["3x3 mixed"])
    not_exact = set(M) - set(chance.exact_keys(t, "perm"))
    # New measures added to the registry later land in the Monte Carlo set until proven affine.
    assert not_exact >= {"fuzzy_v_joint", "nmi_joint", "q2", "purity", "inverse_purity", "micro_avg_precision",
                         "goodman_kruskal", "f_measure", "f_n", "classification_error", "epsilon_n",
                         "van_dongen", "vd_n", "jaccard", "minkowski", "bcubed_f"}
    assert not_exact.isdisjoint({"v_measure", "ami", "ari", "rand", "bcubed_precision", "element_centric"})
    # Every key the module names exists (no silent typo in a list of keys).
    named = set(chance.AFFINE_IN_MI) | set(chance.AMI_KEYS) | set(chance.AFFINE_IN_PAIRS) | set(chance.CELL_SQUARES)
    assert named <= set(M) and set(chance.LINEAR_IN_PAIR_SUMS) <= set(M)


@pytest.mark.parametrize("model", ["num", "num1", "all", "all1"])
@pytest.mark.parametrize("name", list(PARTITION_TABLES))
def test_partition_models_exact_expectations_equal_enumeration(model, name):
    t = C.from_table(PARTITION_TABLES[name])
    keys = chance.exact_keys(t, model)
    assert "rand" in keys and "mirkin" in keys and "hubert_gamma_prime" in keys
    assert ("pair_recall" in keys) == (model in ("num1", "all1"))
    truth = true_expectations(t, model, keys)
    ours = {k: chance.expected(t, k, model) for k in keys}
    assert {k for k in keys if not close(ours[k], truth[k], 1e-11)} == set()


@pytest.mark.parametrize("model", chance.MODELS)
def test_monte_carlo_means_agree_with_the_truth(model):
    """Every measure (exact or not): the seeded Monte Carlo mean lies within 4.5
    standard errors of the enumerated expectation — a check of the samplers too."""
    t = C.from_table(PARTITION_TABLES["3x3, n=6"] if model != "perm" else SMALL_TABLES["3x3 mixed"])
    keys = list(M)
    truth = true_expectations(t, model, keys)
    draws = chance.null_distribution(t, keys, model, samples=4000, seed=11)
    far = {}
    for k in keys:
        x = draws[k].to_numpy()
        if math.isinf(truth[k]):  # Minkowski when the random classes can be all singletons
            assert k == "minkowski" and model in ("num", "all") and np.isinf(x).any()
            continue
        se = x.std(ddof=1) / math.sqrt(x.size)
        if abs(x.mean() - truth[k]) > 4.5 * se + 1e-12:
            far[k] = (x.mean(), truth[k], se)
    assert far == {}


@pytest.mark.parametrize("model", chance.MODELS)
def test_monte_carlo_agrees_with_exact_on_a_larger_table(model):
    """expectation(method='monte_carlo') vs the exact value, on a table too large to
    enumerate, for every measure with a closed form."""
    rng = np.random.default_rng(5)
    t = C.from_labels(rng.integers(0, 4, 60), rng.integers(0, 6, 60))
    far = {}
    for key in chance.exact_keys(t, model):
        exact = chance.expectation(t, key, model)
        if math.isinf(exact.value):
            # Minkowski under `all`: ∞ from tables of probability 1/B(60) no sample meets
            # (tests/chance/test_chance_infinite.py checks the rule against enumeration).
            assert key == "minkowski" and model == "all"
            continue
        mc = chance.expectation(t, key, model, samples=3000, seed=3, method="monte_carlo")
        assert exact.exact and exact.stderr == 0.0 and not mc.exact and mc.samples == 3000
        if abs(mc.value - exact.value) > 4.5 * mc.stderr + 1e-12:
            far[key] = (mc.value, exact.value, mc.stderr)
    assert far == {}


# --------------------------------------------------------------------------- identities
@st.composite
def int_tables(draw, max_side=5, max_cell=8):
    shape = (draw(st.integers(1, max_side)), draw(st.integers(1, max_side)))
    arr = draw(arrays(np.int64, shape, elements=st.integers(0, max_cell)))
    assume(arr.sum() > 0)
    return C.from_table(arr)


ADJUST_TO_AMI = {"nmi_arithmetic": "ami", "v_measure": "ami", "nmi_max": "ami_max", "nmi_min": "ami_min",
                 "nmi_geometric": "ami_geometric"}


@given(int_tables())
def test_adjusting_nmi_under_perm_gives_ami(t):
    """(NMI − E[NMI]) / (1 − E[NMI]) = AMI with the same normaliser, degenerate tables
    included; V_1 = NMI_arithmetic adjusts to AMI too."""
    for nmi, ami in ADJUST_TO_AMI.items():
        assert close(chance.adjusted(t, nmi), M[ami](t), 1e-9), (nmi, chance.adjusted(t, nmi), M[ami](t))


@given(int_tables())
def test_expected_ari_is_zero_under_perm(t):
    e = chance.expectation(t, "ari")
    assert e.exact
    forced = t.n_classes <= 1 or t.n_clusters <= 1 or t.n_classes == t.n or t.n_clusters == t.n
    # Where the margins allow one table only, E is that table's ARI (1 or 0 by the 0/0 rule).
    assert e.value == (M["ari"](t) if forced else 0.0) or close(e.value, 0.0)
    assert chance.expected(t, "ami") == (M["ami"](t) if forced else 0.0)


@given(int_tables(), st.randoms(use_true_random=False))
def test_perm_expectations_invariant_to_label_order(t, rnd):
    dense = t.to_dense()
    rows, cols = list(range(dense.shape[0])), list(range(dense.shape[1]))
    rnd.shuffle(rows), rnd.shuffle(cols)
    u = C.from_table(dense[np.ix_(rows, cols)])
    keys = chance.exact_keys(t, "perm")
    assert keys == chance.exact_keys(u, "perm")
    assert [k for k in keys if not close(chance.expected(t, k), chance.expected(u, k), 1e-10)] == []


@settings(max_examples=30)
@given(int_tables(), st.sampled_from(chance.MODELS))
def test_adjusted_is_at_most_one(t, model):
    """adjusted ≤ 1 for every measure with a finite best value, exact or sampled."""
    prof = chance.profile(t, model=model, samples=30, seed=0)
    finite = [k for k in prof.index if math.isfinite(chance.best_value(k))]
    assert (prof.loc[finite, "adjusted"] <= 1.0 + 1e-9).all()
    assert prof.loc[[k for k in prof.index if k not in finite], "adjusted"].isna().all()


def test_adjusted_perfect_clustering_is_one():
    t = C.from_labels([0, 0, 1, 1, 2, 2, 2], [5, 5, 3, 3, 1, 1, 1])
    for model in chance.MODELS:
        for key in ("rand", "v_measure", "vi", "mirkin", "ari"):
            assert close(chance.adjusted(t, key, model, samples=200, seed=1), 1.0, 1e-9), (model, key)


def test_adjusted_lower_is_better_measures():
    """VI, best 0: adjusted = (VI − E)/(0 − E), positive when VI is below chance."""
    t = C.from_labels([0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 1, 2, 2])
    e = chance.expected(t, "vi")
    assert close(chance.adjusted(t, "vi"), (M["vi"](t) - e) / (0.0 - e))
    assert chance.adjusted(t, "vi") > 0


def test_adjusted_mutual_info_is_refused():
    t = C.from_labels([0, 0, 1, 1], [0, 1, 1, 1])
    with pytest.raises(ValueError, match="no finite best value"):
        chance.adjusted(t, "mutual_info")
    assert math.isnan(chance.profile(t, ["mutual_info"], samples=10, seed=0).loc["mutual_info", "adjusted"])


def test_adjusted_when_chance_is_best():
    """One class and one cluster: every model gives the same table, E = best: 1."""
    t = C.from_table([[5]])
    for model in chance.MODELS:
        if model.startswith("all"):
            continue  # all partitions of 5 items: not forced
        assert chance.adjusted(t, "rand", model) == 1.0


# --------------------------------------------------------------------------- clusim
def _clusim():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from clusim import sim
        from clusim.clustering import Clustering
    return sim, Clustering


@settings(max_examples=40)
@given(st.integers(6, 40), st.integers(2, 5), st.integers(2, 8), st.integers(0, 10**6))
def test_rand_under_every_model_matches_clusim(n, k_true, k_pred, seed):
    """clusim's expected and adjusted Rand index (mpmath Stirling and Bell numbers).
    clusim's second clustering is the gold standard of the one-sided models."""
    sim, Clustering = _clusim()
    rng = np.random.default_rng(seed)
    true, pred = rng.integers(0, k_true, n), rng.integers(0, k_pred, n)
    t = C.from_labels(true, pred)
    gold = Clustering(elm2clu_dict={i: [int(x)] for i, x in enumerate(true)})
    clus = Clustering(elm2clu_dict={i: [int(x)] for i, x in enumerate(pred)})
    for model in chance.MODELS:
        theirs = sim.expected_rand_index(n, model, clus.n_clusters, gold.n_clusters, clus.clu_size_seq,
                                         gold.clu_size_seq)
        assert close(chance.expected(t, "rand", model), float(theirs), 1e-12), model
        expected_adj = sim.adjrand_index(clus, gold, random_model=model)
        if float(theirs) < 1:  # clusim returns 0 when E = 1; here the rule gives 1 (observed = best)
            assert close(chance.adjusted(t, "rand", model), float(expected_adj), 1e-9), model


@pytest.mark.parametrize("n,k", [(700, 30), (1500, 200), (3000, 12)])
def test_large_rand_expectations_match_clusim(n, k):
    """Past the exact-integer threshold (n·k > 2·10^6 uses the float series or the
    log-space recurrence): still clusim's mpmath value to 1e-12."""
    sim, _ = _clusim()
    sizes = np.full(k, n // k)
    sizes[: n - sizes.sum()] += 1
    t = C.from_table(np.diag(sizes))
    for model in ("num", "all"):
        theirs = float(sim.expected_rand_index(n, model, k, k, list(sizes), list(sizes)))
        assert close(chance.expected(t, "rand", model), theirs, 1e-12), model


# --------------------------------------------------------------------------- the API
T = C.from_labels([0, 0, 0, 1, 1, 1, 2, 2, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2, 0, 3])


def test_models():
    assert chance.MODELS == ("perm", "num", "num1", "all", "all1")


@pytest.mark.parametrize("model", chance.MODELS)
def test_null_distribution_shape_seed_and_progress(model):
    calls = []
    d1 = chance.null_distribution(T, ["rand", "v_measure", "purity"], model, samples=50, seed=4,
                                  progress=lambda done, total: calls.append((done, total)))
    d2 = chance.null_distribution(T, ["rand", "v_measure", "purity"], model, samples=50, seed=4)
    d3 = chance.null_distribution(T, ["rand", "v_measure", "purity"], model, samples=50, seed=5)
    assert list(d1.columns) == ["rand", "v_measure", "purity"] and len(d1) == 50 and d1.index.name == "draw"
    pd.testing.assert_frame_equal(d1, d2)
    assert not d1.equals(d3)
    assert calls[-1] == (50, 50) and [c[0] for c in calls] == sorted(c[0] for c in calls)
    assert np.isfinite(d1.to_numpy()).all()


def test_null_distribution_defaults_to_every_measure():
    d = chance.null_distribution(T, samples=5, seed=0)
    assert list(d.columns) == list(M)


def test_chunks_and_both_evaluation_paths(monkeypatch):
    """In chunks of 7 draws (the last one shorter), the one-by-one path for large
    sparse tables gives the same values as the dense batch path for the same random
    tables (the same seed draws the same tables for the same chunking)."""
    monkeypatch.setattr(chance.draws, "_CHUNK_LABELS", 7 * int(T.n))
    calls = []
    dense = chance.null_distribution(T, ["ari", "v_measure", "element_centric"], "num1", samples=40, seed=2,
                                     progress=lambda done, total: calls.append(done))
    assert calls == [7, 14, 21, 28, 35, 40]
    monkeypatch.setattr(chance.draws, "_DENSE_TABLE_CELLS", 0)
    sparse_path = chance.null_distribution(T, ["ari", "v_measure", "element_centric"], "num1", samples=40, seed=2)
    np.testing.assert_allclose(sparse_path.to_numpy(), dense.to_numpy(), rtol=1e-12, atol=1e-12)


def test_perm_sparse_path_mean_matches_exact(monkeypatch):
    monkeypatch.setattr(chance.draws, "_DENSE_TABLE_CELLS", 0)
    mc = chance.expectation(T, "ari", samples=2000, seed=6, method="monte_carlo")
    assert abs(mc.value) < 4.5 * mc.stderr


def test_profile_columns_and_meaning():
    p = chance.profile(T, ["rand", "ari", "vi", "purity", "mutual_info"], "perm", samples=300, seed=1)
    assert list(p.columns) == list(chance.PROFILE_COLUMNS) and p.index.name == "measure"
    assert list(p.index) == ["rand", "ari", "vi", "purity", "mutual_info"]
    assert p.loc["ari", "expected"] == 0.0 and p.loc["ari", "exact"] and p.loc["ari", "stderr"] == 0.0
    assert not p.loc["purity", "exact"] and p.loc["purity", "stderr"] > 0
    for key in p.index:
        row = p.loc[key]
        assert close(row["z"], (row["observed"] - row["expected"]) / row["std"])
        assert 0 <= row["percentile"] <= 100 and 0 < row["p_value"] <= 1
    # Same draws through summarize.
    draws = chance.null_distribution(T, ["rand", "ari", "vi", "purity", "mutual_info"], "perm", samples=300, seed=1)
    pd.testing.assert_frame_equal(chance.summarize(T, draws, "perm"), p)


def test_profile_percentile_and_p_value_by_hand():
    draws = chance.null_distribution(T, ["ari", "vi"], "num", samples=200, seed=3)
    p = chance.summarize(T, draws, "num")
    for key, better in (("ari", np.greater), ("vi", np.less)):
        x, obs = draws[key].to_numpy(), p.loc[key, "observed"]
        tie = np.isclose(x, obs, rtol=1e-12, atol=1e-12)
        assert close(p.loc[key, "percentile"], 100 * (np.sum((x < obs) & ~tie) + 0.5 * tie.sum()) / x.size)
        assert close(p.loc[key, "p_value"], (1 + np.sum(tie | better(x, obs))) / (1 + x.size))


def test_profile_of_a_forced_table():
    """One cluster: every random table is the same up to relabelling. All draws tie
    with the observed value: percentile 50, z 0, std 0, p-value 1."""
    t = C.from_table([[3], [2], [4]])
    p = chance.profile(t, ["v_measure", "rand", "purity"], "perm", samples=20, seed=0)
    assert (p["std"] == 0).all() and (p["z"] == 0).all()
    assert (p["percentile"] == 50).all() and (p["p_value"] == 1).all() and p["exact"].all()


def test_array_tables_are_accepted():
    dense = T.to_dense()
    assert chance.expected(dense, "rand") == chance.expected(T, "rand")
    assert chance.expected(dense.tolist(), "ari", "num", samples=50, seed=1) == \
        chance.expected(T, "ari", "num", samples=50, seed=1)


@pytest.mark.parametrize("call,match", [
    (lambda: chance.expected(T, "rand", "hypergeometric"), "unknown random model"),
    (lambda: chance.expected(C.from_table([[0.5, 1.0], [1.0, 2.0]]), "rand"), "integer counts"),
    (lambda: chance.expected(C.from_table([[0, 0]]), "rand"), "no item"),
    (lambda: chance.null_distribution(T, ["rand"], samples=0), "samples"),
    (lambda: chance.null_distribution(T, ["rand"], samples=2.5), "samples"),
    (lambda: chance.expectation(T, "purity", method="exact"), "no closed-form"),
    (lambda: chance.expectation(T, "purity", method="fast"), "method"),
    (lambda: chance.expected(T, "rand", seed="abc"), "seed"),
    (lambda: chance.expected(T, "rand", log_base=1), "log_base"),
    (lambda: chance.cluster_sweep(100, [2, 3], model="all"), "num1, num or perm"),
    (lambda: chance.cluster_sweep(100, [0, 3]), "between 1 and n"),
    (lambda: chance.cluster_sweep(10, [2], class_sizes=[3, 3]), "adding up to n"),
])
def test_bad_input_is_a_clear_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_unknown_measure_is_a_key_error():
    with pytest.raises(KeyError, match="unknown measure"):
        chance.expected(T, "nope")


def test_is_exact():
    assert chance.is_exact(T, "v_measure", "perm") and not chance.is_exact(T, "v_measure", "num")
    assert chance.is_exact(T, "rand", "all1") and chance.is_exact(T, "pair_recall", "num1")
    assert not chance.is_exact(T, "pair_recall", "num") and not chance.is_exact(T, "purity", "perm")


def test_cluster_sweep_reproduces_the_scikit_learn_lesson():
    """Random clusterings against 10 fixed classes: V and NMI rise with the number of
    clusters, ARI and AMI stay at 0."""
    sweep = chance.cluster_sweep(300, [2, 10, 50, 150], ["v_measure", "ari", "ami"], samples=30, seed=0)
    assert list(sweep.columns) == ["k", "draw", "v_measure", "ari", "ami"] and len(sweep) == 120
    means = sweep.groupby("k").mean()
    assert means["v_measure"].is_monotonic_increasing and means.loc[150, "v_measure"] > 0.3
    assert (means[["ari", "ami"]].abs() < 0.02).all().all()
    again = chance.cluster_sweep(300, [2, 10, 50, 150], ["v_measure", "ari", "ami"], samples=30, seed=0)
    pd.testing.assert_frame_equal(sweep, again)


def test_benchmark_size_runs_quickly_enough_to_be_usable():
    """Not a timing test: the 100 × 100, n = 10^4 case runs (dense batch path) and its
    ARI draws centre on the exact 0."""
    rng = np.random.default_rng(0)
    t = C.from_labels(rng.integers(0, 100, 10_000), rng.integers(0, 100, 10_000))
    d = chance.null_distribution(t, ["ari", "ami"], samples=40, seed=1)
    assert abs(d["ari"].mean()) < 4.5 * d["ari"].std() / math.sqrt(40)
    assert abs(d["ami"].mean()) < 4.5 * d["ami"].std() / math.sqrt(40)
