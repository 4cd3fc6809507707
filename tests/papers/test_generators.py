"""Generators of constructed clusterings (metrics.papers.generators) against the papers' printed
tables and numbers, plus property tests of the generators themselves."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import metrics
from metrics.papers import generators as g


def ev(t, *keys):
    out = metrics.evaluate(t, list(keys))
    return out[keys[0]] if len(keys) == 1 else out


def entropy(sizes) -> float:
    p = np.asarray(sizes, dtype=float)
    p = p[p > 0] / p.sum()
    return float(-(p * np.log(p)).sum())


# ------------------------------------------------------------------ Dom / R&H Figure 3
# Rosenberg & Hirschberg (2007), Figure 3: n = 60, 3 useful classes + 1 noise class,
# 2 useful + 1 noise clusters, ε1 = .1, ε2 = .2, ε3 = .1 (printed table, rows C1, C2,
# C3, Cnoise1; columns K1, K2, Knoise1).
RH_FIGURE_3 = [[12, 2, 4], [12, 2, 4], [2, 12, 4], [3, 3, 0]]


def test_dom_reproduces_rh_figure_3_exactly():
    t = g.dom(3, 2, n_noise_clusters=1, n_noise_classes=1, eps1=0.1, eps2=0.2, eps3=0.1, n=60)
    assert t.to_dense().tolist() == RH_FIGURE_3
    assert list(t.row_labels) == ["C1", "C2", "C3", "Cnoise1"]
    assert list(t.col_labels) == ["K1", "K2", "Knoise1"]
    assert t.is_integer and t.n == 60


def test_dom_integer_option_keeps_n_and_figure_3():
    t = g.dom(3, 2, 1, 1, 0.1, 0.2, 0.1, n=60, integer=True)
    assert t.to_dense().tolist() == RH_FIGURE_3
    t = g.dom(3, 2, 1, 1, 0.1, 0.2, 0.1, n=61, integer=True)
    assert t.is_integer and t.n == 61
    real = g.dom(3, 2, 1, 1, 0.1, 0.2, 0.1, n=61).to_dense()
    assert np.abs(t.to_dense() - real).max() < 1  # rounding moves no cell by a whole unit


def test_dom_default_counts_are_expected_values():
    t = g.dom(5, 3, 2, 1, 0.033, 0.066, 0.066, n=1000)
    assert not t.is_integer
    assert math.isclose(t.n, 1000.0)
    d = t.to_dense()
    # ε3 over |Cnoise|·|Ku| cells, ε2 over |C|·|Knoise| cells, 1 − ε over max(|C|, |Ku|) matches.
    assert np.allclose(d[5, :3], 66 / 3)
    assert np.allclose(d[:5, 3:], 66 / 10)
    assert math.isclose(d[:5, :3].max(), (1 - 0.165) * 1000 / 5)


@pytest.mark.parametrize("classes, clusters, blocks", [
    (5, 7, [2, 2, 1, 1, 1]),   # ⌈7/5⌉ = 2, ⌈5/4⌉ = 2, ⌈3/3⌉ = 1, …
    (3, 2, [2, 1]),            # more classes: C1, C2 → K1, C3 → K2 (Figure 3)
    (5, 3, [2, 2, 1]),
    (4, 4, [1, 1, 1, 1]),
    (2, 11, [6, 5]),
])
def test_dom_matching_is_the_ceiling_rule(classes, clusters, blocks):
    m = g.dom_matching(classes, clusters)
    assert m.shape == (classes, clusters)
    per = m.sum(axis=1) if clusters >= classes else m.sum(axis=0)
    assert per.tolist() == blocks
    # every class and every cluster is in exactly one... side: the larger side once each
    assert (m.sum(axis=0) >= 1).all() and (m.sum(axis=1) >= 1).all()
    assert m.sum() == max(classes, clusters)


def test_dom_tables_batch_equals_single_tables():
    params = [(5, 2, 0, 0, 0.0, 0.0, 0.0), (5, 11, 6, 6, 0.1, 0.2, 0.2), (3, 2, 1, 1, 0.1, 0.2, 0.1),
              (5, 7, 3, 0, 0.066, 0.133, 0.0)]
    batch = g.dom_tables(*np.array(params).T, n=60)
    for b, p in zip(batch, params):
        single = g.dom(*(int(x) for x in p[:4]), *p[4:], n=60).to_dense()
        assert np.allclose(b[b.sum(1) > 0][:, b.sum(0) > 0], single)
        assert math.isclose(b.sum(), 60)


@pytest.mark.parametrize("kwargs, name", [
    (dict(eps1=0.5, eps2=0.4, eps3=0.2, n_noise_clusters=1, n_noise_classes=1), "eps1 + eps2 + eps3"),
    (dict(n_noise_clusters=-1), "n_noise_clusters"),
    (dict(n_noise_classes=-2), "n_noise_classes"),
    (dict(eps2=0.1), "eps2"),            # noise mass without noise clusters
    (dict(eps3=0.1), "eps3"),            # noise mass without noise classes
    (dict(eps1=-0.1), "eps1"),
    (dict(n=0), "n"),
])
def test_dom_bad_parameters_name_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name.replace("+", r"\+")):
        g.dom(5, 3, **kwargs)


def test_dom_more_noise_clusters_than_clusters_is_refused():
    # R&H: |Knoise| < |K|, i.e. at least one useful cluster; and at least one useful class.
    with pytest.raises(ValueError, match="n_useful_clusters"):
        g.dom(5, 0, n_noise_clusters=3)
    with pytest.raises(ValueError, match="n_classes"):
        g.dom(0, 3)
    with pytest.raises(ValueError, match="eps1"):
        g.dom(5, 1, eps1=0.1)      # one useful cluster: no non-matching pair for ε1
    with pytest.raises(ValueError, match="n_useful_clusters"):
        g.dom_tables([5, 5], [3, 0], n=10)


@given(c=st.integers(1, 6), k=st.integers(1, 8), kn=st.integers(0, 4), cn=st.integers(0, 4),
       e=st.tuples(*[st.floats(0, 0.33) for _ in range(3)]), n=st.integers(1, 5000))
def test_dom_preserves_n(c, k, kn, cn, e, n):
    e1, e2, e3 = e
    e1 = e1 if min(c, k) >= 2 else 0.0
    e2 = e2 if kn else 0.0
    e3 = e3 if cn else 0.0
    t = g.dom(c, k, kn, cn, e1, e2, e3, n=n)
    assert math.isclose(float(t.n), n, rel_tol=1e-9)
    ti = g.dom(c, k, kn, cn, e1, e2, e3, n=n, integer=True)
    assert ti.is_integer and ti.n == n
    assert g.dom_realizable(c, k, kn, cn, e1, e2, e3)[0]


# ------------------------------------------------------------------ extreme cases (R&R §3)
def test_single_cluster_scores_zero_v_and_nvi_one():
    t = g.single_cluster([30, 2, 6, 10, 2])
    v = ev(t, "v_measure", "nvi", "vi", "homogeneity")
    assert v["v_measure"] == 0.0 and v["homogeneity"] == 0.0
    assert math.isclose(v["nvi"], 1.0)
    assert math.isclose(v["vi"], entropy([30, 2, 6, 10, 2]))          # VI = H(C)


def test_no_knowledge_scores_zero_v_and_vi_is_sum_of_entropies():
    a, b = [10, 20, 30], [12, 24, 24]
    t = g.no_knowledge(a, b)
    v = ev(t, "v_measure", "vi", "nvi", "mutual_info")
    assert v["v_measure"] == 0.0 and v["mutual_info"] == 0.0
    assert math.isclose(v["vi"], entropy(a) + entropy(b), rel_tol=1e-12)
    assert math.isclose(v["nvi"], 1 + entropy(b) / entropy(a), rel_tol=1e-12)   # R&R: 1 + H(K)/H(C)
    assert np.allclose(t.to_dense(), np.outer(a, b) / 60)


def test_perfect_scores_best_values():
    t = g.perfect([5, 1, 7])
    v = ev(t, "v_measure", "vi", "ari", "nvi", "f_measure")
    assert v == {"v_measure": 1.0, "vi": 0.0, "ari": 1.0, "nvi": 0.0, "f_measure": 1.0}


def test_singletons_is_sparse_and_homogeneous():
    t = g.singletons([3, 1, 4])
    assert t.shape == (3, 8) and t.n == 8
    v = ev(t, "homogeneity", "vi")
    assert v["homogeneity"] == 1.0
    assert math.isclose(v["vi"], math.log(8) - entropy([3, 1, 4]))       # VI = H(K|C)
    big = g.singletons([500_000, 500_000])
    assert big.n == 10**6 and big.values.size == 10**6


def test_extreme_cases_reject_bad_sizes():
    for fn in (g.perfect, g.single_cluster, g.singletons):
        with pytest.raises(ValueError, match="class_sizes"):
            fn([3, -1])
    with pytest.raises(ValueError, match="class_sizes"):
        g.singletons([2.5, 1])
    with pytest.raises(ValueError, match="cluster_sizes"):
        g.no_knowledge([1, 2], [1, 1])


# ------------------------------------------------------------------ solution R (R&R Table 1)
# Reichart & Rappoport (2009), Table 1 (top): the clustering matrix of solution R as
# printed (rows = classes, "the entries in row i sum to the number of elements in class i").
RR_SOLUTION_R = [
    [7, 1, 1, 1, 0, 0, 0, 0, 0, 0],
    [0, 7, 1, 1, 1, 0, 0, 0, 0, 0],
    [0, 0, 7, 1, 1, 1, 0, 0, 0, 0],
    [0, 0, 0, 7, 1, 1, 1, 0, 0, 0],
    [0, 0, 0, 0, 7, 1, 1, 1, 0, 0],
    [0, 0, 0, 0, 0, 7, 1, 1, 1, 0],
    [0, 0, 0, 0, 0, 0, 7, 1, 1, 1],
    [1, 0, 0, 0, 0, 0, 0, 7, 1, 1],
    [1, 1, 0, 0, 0, 0, 0, 0, 7, 1],
    [1, 1, 1, 0, 0, 0, 0, 0, 0, 7],
]
# Table 1 (bottom), printed scores: V, VI (nats), NVI, NVIK.
RR_TABLE_1 = {"singletons": {"v_measure": 0.667, "vi": 2.303, "nvi": 1.0, "nvik": 0.5},
              "solution_r": {"v_measure": 0.587, "vi": 1.88, "nvi": 0.81, "nvik": 0.81}}


def test_solution_r_reproduces_the_printed_matrix():
    assert g.solution_r(10, 10, 3).to_dense().tolist() == RR_SOLUTION_R
    assert g.solution_r().to_dense().tolist() == RR_SOLUTION_R


def test_singletons_reproduce_rr_table_1():
    v = ev(g.singletons([10] * 10), "v_measure", "vi", "nvi", "nvik")
    for k, printed in RR_TABLE_1["singletons"].items():
        assert round(v[k], 3) == printed, k


def test_solution_r_reproduces_rr_table_1_within_its_rounding():
    v = ev(g.solution_r(), "v_measure", "vi", "nvi", "nvik")
    printed = RR_TABLE_1["solution_r"]
    assert round(v["vi"], 2) == printed["vi"]
    # NVI = NVIK = 1.881/2.303 = 0.8169: the paper prints 0.81 (truncated, not rounded).
    assert math.floor(v["nvi"] * 100) / 100 == printed["nvi"]
    assert math.floor(v["nvik"] * 100) / 100 == printed["nvik"]
    # The printed V (0.587) and NVI (0.81) cannot both hold: solution R is symmetric
    # (h = c), so V = h = 1 − NVI/2 exactly; 0.81 ⇒ V ≈ 0.595, 0.587 ⇒ NVI ≈ 0.826.
    assert math.isclose(v["v_measure"], 1 - v["nvi"] / 2, rel_tol=1e-12)
    assert abs(v["v_measure"] - printed["v_measure"]) < 0.006
    # The paper's point survives: V prefers singletons, NVI prefers solution R.
    s = ev(g.singletons([10] * 10), "v_measure", "nvi")
    assert s["v_measure"] > v["v_measure"] and s["nvi"] > v["nvi"]


def test_solution_r_parameters():
    assert g.solution_r(6, 5, 0).to_dense().tolist() == (np.eye(6, dtype=int) * 5).tolist()
    t = g.solution_r(4, 3, 3)
    assert (t.row_sums == 3).all() and (t.col_sums == 3).all()
    with pytest.raises(ValueError, match="noise"):
        g.solution_r(3, 10, 3)           # noise must be < n_classes
    with pytest.raises(ValueError, match="noise"):
        g.solution_r(10, 2, 3)           # noise must be ≤ class_size
    with pytest.raises(ValueError, match="class_size"):
        g.solution_r(10, -1, 0)


# ------------------------------------------------------------------ Wu's uniform effect
WU_CLASS_SIZES = [30, 2, 6, 10, 2]
# Wu et al. (2009), Table 3, printed with clusters as rows; transposed here to rows = classes.
WU_TABLE_3_I = np.array([[10, 0, 0, 0, 0], [10, 0, 0, 0, 0], [10, 0, 0, 0, 0], [0, 0, 0, 10, 0],
                         [0, 2, 6, 0, 2]]).T
WU_TABLE_3_II = np.array([[27, 0, 0, 2, 0], [0, 2, 0, 0, 0], [0, 0, 6, 0, 0], [3, 0, 0, 8, 0],
                          [0, 0, 0, 0, 2]]).T


def test_cv_matches_wu_section_3_2():
    assert round(g.cv(WU_CLASS_SIZES), 3) == 1.166                              # CV0
    assert g.cv(WU_TABLE_3_I.sum(axis=0)) == 0.0                                # CV1 of clustering I
    assert round(g.cv(WU_TABLE_3_II.sum(axis=0)), 3) == 1.125                   # CV1 of clustering II
    t = metrics.Contingency.from_table(WU_TABLE_3_II)
    assert math.isclose(g.dcv(t), g.cv(WU_TABLE_3_II.sum(axis=0)) - g.cv(WU_CLASS_SIZES))


def test_cv_rejects_bad_input():
    with pytest.raises(ValueError, match="at least 2"):
        g.cv([3])
    with pytest.raises(ValueError):
        g.cv([1, -2])


def test_uniform_effect_reproduces_wu_table_3_clustering_i():
    t = g.uniform_effect(WU_CLASS_SIZES)
    assert t.to_dense().tolist() == WU_TABLE_3_I.tolist()
    assert g.cv(t.col_sums) == 0.0
    assert math.isclose(g.dcv(t), -g.cv(WU_CLASS_SIZES))


def test_uniform_effect_strength_interpolates_from_perfect():
    perfect = g.uniform_effect(WU_CLASS_SIZES, strength=0.0)
    assert ev(perfect, "v_measure") == 1.0
    cvs = [g.cv(g.uniform_effect(WU_CLASS_SIZES, strength=s).col_sums) for s in (0, 0.25, 0.5, 0.75, 1)]
    assert all(a > b for a, b in itertools.pairwise(cvs))          # more strength, more uniform clusters
    t = g.uniform_effect([100, 7, 13], n_clusters=4)
    assert t.n == 120 and sorted(t.col_sums.tolist()) == [30, 30, 30, 30]
    with pytest.raises(ValueError, match="strength"):
        g.uniform_effect(WU_CLASS_SIZES, n_clusters=3, strength=0.5)
    with pytest.raises(ValueError, match="strength"):
        g.uniform_effect(WU_CLASS_SIZES, strength=1.5)


# ------------------------------------------------------------------ split / merge / scale
def test_split_merge_scale():
    t = metrics.Contingency.from_table([[6, 1], [2, 5]], col_labels=["a", "b"])
    s = g.split(t, "a", 2)
    assert list(s.col_labels) == ["a.1", "a.2", "b"]
    assert s.is_integer and s.n == t.n and s.row_sums.tolist() == t.row_sums.tolist()
    assert s.to_dense()[:, :2].sum(axis=1).tolist() == [6, 2]
    back = g.merge(s, ["a.1", "a.2"])
    assert back.to_dense().tolist() == t.to_dense().tolist() and list(back.col_labels) == ["a.1+a.2", "b"]
    w = g.split(t, "b", [1, 4])
    assert w.to_dense()[:, 1:].tolist() == [[0, 1], [1, 4]]
    # Refining cannot hurt homogeneity; an even split leaves it equal, up to the rounding of
    # the per-cell sums H(C|K) is made of.
    assert ev(s, "homogeneity") >= ev(t, "homogeneity") - 1e-15
    big = g.scale(t, 3)
    assert big.is_integer and big.n == 3 * t.n
    assert math.isclose(ev(big, "v_measure"), ev(t, "v_measure"))
    with pytest.raises(ValueError, match="cluster 'z'"):
        g.split(t, "z", 2)
    with pytest.raises(ValueError, match="parts"):
        g.split(t, "a", 1)
    with pytest.raises(ValueError, match="at least two"):
        g.merge(t, ["a"])
    with pytest.raises(ValueError, match="factor"):
        g.scale(t, 0)


@given(st.lists(st.lists(st.integers(0, 9), min_size=3, max_size=3), min_size=2, max_size=4),
       st.integers(2, 5))
def test_split_keeps_class_sizes_and_n(rows, parts):
    arr = np.array(rows)
    if arr[:, 0].sum() == 0 or (arr.sum(axis=1) == 0).any():
        return
    t = metrics.Contingency.from_table(arr)
    s = g.split(t, t.col_labels[0], parts)
    assert s.n == t.n and s.row_sums.tolist() == t.row_sums.tolist()
    assert ev(s, "homogeneity") >= ev(t, "homogeneity") - 1e-12


# ------------------------------------------------------------------ random tables
def test_shuffle_fraction_zero_is_identity_and_margins_are_kept():
    labels = np.array([0, 0, 1, 1, 2, 2, 2, 3])
    assert (g.shuffle(labels, 0.0, seed=1) == labels).all()
    out = g.shuffle(labels, 1.0, seed=1)
    assert sorted(out.tolist()) == sorted(labels.tolist())
    t = g.solution_r()
    assert g.shuffle(t, 0.0, seed=3).to_dense().tolist() == t.to_dense().tolist()
    s = g.shuffle(t, 0.5, seed=3)
    assert s.col_sums.tolist() == t.col_sums.tolist() and s.row_sums.tolist() == t.row_sums.tolist()
    assert s.to_dense().tolist() != t.to_dense().tolist()
    assert g.shuffle(t, 0.5, seed=3).to_dense().tolist() == s.to_dense().tolist()   # seeded
    strings = g.shuffle(["a", "b", "c", "a"], 0.5, seed=np.random.default_rng(0))
    assert sorted(strings.tolist()) == ["a", "a", "b", "c"]


def test_shuffle_noise_lowers_agreement_on_average():
    t = g.perfect([50, 50, 50])
    v = [ev(g.shuffle(t, f, seed=7), "v_measure") for f in (0.0, 0.3, 0.6, 1.0)]
    assert v[0] == 1.0 and v[0] > v[1] > v[2] > v[3]


def test_shuffle_bad_input():
    with pytest.raises(ValueError, match="fraction"):
        g.shuffle([1, 2, 3], 1.5)
    with pytest.raises(ValueError, match="integer table"):
        g.shuffle(metrics.Contingency.from_table([[0.5, 1.0]]), 0.5)
    with pytest.raises(ValueError, match="seed"):
        g.shuffle([1, 2], 0.5, seed=-3)


@pytest.mark.parametrize("rows, cols", [([3, 2, 5], [4, 4, 2]),              # n ≤ R·C: permutations
                                        ([40, 25, 35], [30, 50, 20])])       # n > R·C: cell by cell
def test_random_tables_have_the_requested_margins(rows, cols):
    tabs = g.random_tables(rows, cols, size=300, seed=11)
    assert tabs.shape == (300, 3, 3)
    assert (tabs.sum(axis=2) == rows).all() and (tabs.sum(axis=1) == cols).all()
    assert (tabs >= 0).all()
    assert (g.random_tables(rows, cols, size=300, seed=11) == tabs).all()
    # The hypergeometric mean of a cell is a_i b_j / n; 300 draws put it within a few s.e.
    n = sum(rows)
    expected = np.outer(rows, cols) / n
    se = tabs.std(axis=0) / math.sqrt(300) + 1e-9
    assert (np.abs(tabs.mean(axis=0) - expected) < 5 * se + 0.05).all()


@given(st.lists(st.integers(1, 30), min_size=1, max_size=5), st.integers(0, 2**32 - 1))
def test_random_table_margins_property(rows, seed):
    rng = np.random.default_rng(seed)
    n = sum(rows)
    k = int(rng.integers(1, 5))
    cuts = np.sort(rng.choice(np.arange(1, n), size=min(k - 1, n - 1), replace=False)) if n > 1 else []
    cols = np.diff(np.concatenate([[0], cuts, [n]])).tolist()
    t = g.random_table(rows, cols, seed=seed)
    assert sorted(t.row_sums.tolist()) == sorted(rows) and t.n == n
    assert sorted(t.col_sums.tolist()) == sorted(cols)


def test_random_tables_bad_margins():
    with pytest.raises(ValueError, match="same total"):
        g.random_tables([3, 3], [5], size=2)
    with pytest.raises(ValueError, match="size"):
        g.random_tables([3], [3], size=0)


# ------------------------------------------------------------------ ambiguity (Utt et al.)
def test_ambiguity_rates_match_utt_example():
    assert g.ambiguity_rates(7).tolist() == [1, 1, 1, 1, 2, 2, 3]       # "for 7 points: 1,1,1,1,2,2,3"
    r = g.ambiguity_rates(500)
    assert r.size == 500 and (r == 1).sum() == 250 and (r > 1).sum() == 250   # Experiment 3: 250 ambiguous
    assert (np.diff(r) >= 0).all()
    with pytest.raises(ValueError, match="n_points"):
        g.ambiguity_rates(0)


def test_random_gold_standard():
    gold = g.random_gold(60, n_classes=12, seed=5)
    assert [len(x) for x in gold] == g.ambiguity_rates(60).tolist()
    assert all(len(set(x)) == len(x) and all(0 <= c < 12 for c in x) for x in gold)
    assert g.random_gold(60, n_classes=12, seed=5) == gold
    t = metrics.Contingency.from_memberships(gold, gold)
    assert math.isclose(t.n, sum(len(x) for x in gold))        # identical soft clustering: |K(item)| each
    with pytest.raises(ValueError, match="n_classes"):
        g.random_gold(100, n_classes=2)


@pytest.mark.parametrize("n_classes,rate", [(4, 3), (5, 2), (3, 3), (6, 1)])
def test_random_gold_classes_are_uniform_ordered_draws_without_replacement(n_classes, rate):
    """Each point's classes: every ordered choice of `rate` distinct classes equally likely
    (uniform sampling without replacement, in random order), points independent of each other."""
    from collections import Counter

    from scipy import stats

    rates = np.full(24_000, rate, dtype=np.int64)
    rates[::2] = 1  # points of another rate drawn alongside must not disturb these
    gold = g.random_gold(rates.size, n_classes=n_classes, seed=11, rates=rates)
    picked = [x for x, r in zip(gold, rates) if r == rate]
    support = list(itertools.permutations(range(n_classes), rate))
    counts = Counter(picked)
    assert set(counts) <= set(support)
    observed = np.array([counts.get(s, 0) for s in support])
    assert stats.chisquare(observed).pvalue > 1e-3
    pairs = Counter((a[0], b[0]) for a, b in zip(picked[::2], picked[1::2]))   # two points: independent
    assert stats.chisquare([pairs.get((i, j), 0) for i in range(n_classes) for j in range(n_classes)]).pvalue > 1e-3


def test_softening_steps_go_from_hard_to_the_gold_standard():
    gold = g.random_gold(40, seed=2)
    steps = g.softening_steps(gold)
    assert len(steps) == sum(len(x) - 1 for x in gold) + 1
    assert all(len(c) == 1 for c in steps[0])
    assert [set(c) for c in steps[-1]] == [set(x) for x in gold]
    sizes = [sum(len(c) for c in s) for s in steps]
    assert sizes == list(range(sizes[0], sizes[0] + len(steps)))
    assert all(set(c) <= set(x) for s in steps for c, x in zip(s, gold))
    few = g.softening_steps(gold, n_steps=5)
    assert len(few) == 5 and few[0] == steps[0] and few[-1] == steps[-1]


def test_experiment_3_plain_v_falls_and_dissimilarity_v_rises_to_one():
    # Utt et al. Figure 6: V drops as the clustering gets softer, even for the perfect
    # soft clustering; Figure 11: with the dissimilarity step both reach 1.
    gold = g.random_gold(200, seed=4)
    steps = g.softening_steps(gold, n_steps=6)
    for mode in ("fuzzy", "count"):
        plain = [ev(metrics.Contingency.from_memberships(gold, s, mode=mode), "v_measure") for s in steps]
        enhanced = [ev(g.dissimilarity_adjusted(gold, s, mode=mode), "v_measure") for s in steps]
        assert all(a > b for a, b in itertools.pairwise(plain)), mode
        assert all(a < b for a, b in itertools.pairwise(enhanced)), mode
        assert plain[-1] < 1
        assert math.isclose(enhanced[-1], 1.0)


def test_dissimilarity_reading_reproduces_figure_9a_and_perfect_scores_one():
    # Utt et al. §5.1 example: p1 ambiguous between g1 and g2, clustering identical to gold.
    gold = [("g1", "g2"), ("g1",), ("g2",)]
    assert g.dissimilarity(gold, gold, mode="count").to_numpy().tolist() == [[0, 1], [1, 0]]
    for mode in ("fuzzy", "count"):
        adj = g.dissimilarity_adjusted(gold, gold, mode=mode)
        assert ev(adj, "v_measure") == 1.0
        assert ev(metrics.Contingency.from_memberships(gold, gold, mode=mode), "v_measure") < 1
    big = g.random_gold(300, n_classes=40, seed=9)
    assert math.isclose(ev(g.dissimilarity_adjusted(big, big), "v_measure"), 1.0)


def test_dissimilarity_penalizes_a_wrong_clustering():
    gold = [("a",), ("a",), ("b",), ("b",), ("a", "b")]
    wrong = [("x",), ("y",), ("x",), ("y",), ("x",)]
    adj = g.dissimilarity_adjusted(gold, wrong)
    assert ev(adj, "v_measure") < 0.5
    with pytest.raises(ValueError, match="same length"):
        g.dissimilarity_adjusted(gold, wrong[:2])
    with pytest.raises(ValueError, match="mode"):
        g.dissimilarity_adjusted(gold, wrong, mode="soft")
    with pytest.raises(ValueError, match="empty"):
        g.dissimilarity_adjusted([(), ("a",)], [("x",), ("y",)])


def test_largest_remainder_keeps_totals():
    x = np.array([[0.5, 0.5, 2.0], [1.2, 1.3, 0.5]])
    r = g.largest_remainder(x, axis=1)
    assert r.sum(axis=1).tolist() == [3, 3]
    assert (np.abs(r - x) < 1).all()
    assert g.largest_remainder([1 / 3] * 3, total=1).sum() == 1


# ---------------------------------------------------------------- dom_each: dom, many at once
def _same_as_dom(setting: dict, built, integer: bool) -> None:
    try:
        expected = g.dom(**setting, integer=integer)
    except ValueError as exc:
        assert isinstance(built, ValueError) and str(built) == str(exc), (setting, built, exc)
        return
    assert not isinstance(built, ValueError), (setting, built)
    assert list(built.row_labels) == list(expected.row_labels) and list(built.col_labels) == list(expected.col_labels)
    np.testing.assert_array_equal(built.to_dense(), expected.to_dense())   # bit for bit


_counts = st.integers(0, 6)
_eps = st.sampled_from([0.0, 0.025, 0.1, 0.2, 0.3, 0.45, 0.7, 1.0])


@given(st.lists(st.fixed_dictionaries({
    "n_classes": _counts, "n_useful_clusters": _counts, "n_noise_clusters": _counts, "n_noise_classes": _counts,
    "eps1": _eps, "eps2": _eps, "eps3": _eps, "n": st.sampled_from([10, 60, 100.5, 1000, 10**5])}),
    min_size=1, max_size=12), st.booleans())
def test_dom_each_builds_what_dom_builds_or_raises_what_it_raises(settings, integer):
    """The batch builder behind the Generator lab's sweeps: every table identical to dom()'s, cell
    for cell and label for label, and for a setting dom() refuses, dom()'s own error."""
    for setting, built in zip(settings, g.dom_each(settings, integer=integer)):
        _same_as_dom(setting, built, integer)


def test_dom_each_along_a_sweep_and_with_odd_settings():
    figure3 = {"n_classes": 3, "n_useful_clusters": 2, "n_noise_clusters": 1, "n_noise_classes": 1,
               "eps2": 0.2, "eps3": 0.1, "n": 60}
    sweep = [{**figure3, "eps1": x} for x in np.round(np.arange(0, 1.0001, 0.025), 3).tolist()]
    built = g.dom_each(sweep)
    assert sum(isinstance(b, ValueError) for b in built) == 12      # ε1 > 0.7 makes ε > 1
    for setting, b in zip(sweep, built):
        _same_as_dom(setting, b, False)
    odd = [{"n_classes": 3, "n_useful_clusters": 2}, {"n_classes": "3", "n_useful_clusters": 2},
           {"n_classes": 2.0, "n_useful_clusters": 2, "eps1": 0.5},
           {"n_classes": 1, "n_useful_clusters": 1, "eps1": 0.1},
           {"n_classes": 3, "n_useful_clusters": 2, "n": 60.5}, {**figure3, "eps1": True}]
    for setting, b in zip(odd, g.dom_each(odd, integer=True)):
        _same_as_dom(setting, b, True)
    with pytest.raises(TypeError):                                    # as dom(): an unknown argument
        g.dom_each([{"n_classes": 3, "n_useful_clusters": 2, "colour": 1}])
