"""``generators.dissimilarity_adjusted``: the array paths (memberships read once as arrays, the
error mass of every mapped pair spread at once) against the implementation they replaced, kept
here verbatim as the reference (entries normalised item by item, ``from_memberships``, and one
mapped pair at a time). Both must give the same table to the last bit and refuse bad input with
the same words."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from metrics import Contingency
from metrics.papers import experiments
from metrics.papers import generators as g
from metrics.papers.generators import ambiguous as g_ambiguous
from metrics.papers.generators import dissimilarity_enhancement as g_dissimilarity


def _memberships(entries, labels):
    index = {lab: k for k, lab in enumerate(labels)}
    items = np.repeat(np.arange(len(entries), dtype=np.int64), [len(e) for e in entries])
    labs = np.fromiter((index[lab] for e in entries for lab in e), dtype=np.int64, count=items.size)
    return items, labs


def _shared_pairs(g_items, g_labs, c_items, c_labs, n_items):
    c_count = np.bincount(c_items, minlength=n_items)
    c_start = np.concatenate(([0], np.cumsum(c_count)[:-1]))
    reps = c_count[g_items]
    which = np.repeat(np.arange(g_items.size), reps)
    first = np.repeat(np.cumsum(reps) - reps, reps)
    c_pos = c_start[g_items[which]] + np.arange(which.size) - first
    return g_items[which], g_labs[which], c_labs[c_pos]


def reference_similarity_dissimilarity(gold, clusters, mode):
    if mode not in ("fuzzy", "count"):
        raise ValueError(f"mode must be 'fuzzy' or 'count', got {mode!r}")
    gold = [g_ambiguous._labels_tuple(x, "gold", i) for i, x in enumerate(gold)]
    clusters = [g_ambiguous._labels_tuple(k, "clusters", i) for i, k in enumerate(clusters)]
    if len(gold) != len(clusters):
        raise ValueError(f"gold and clusters must have the same length, got {len(gold)} and {len(clusters)}")
    if not gold:
        raise ValueError("empty input: gold and clusters hold no items")
    base = Contingency.from_memberships(gold, clusters, mode=mode)
    g_labels, c_labels = list(base.row_labels), list(base.col_labels)
    sim = base.to_dense().astype(np.float64)
    R, Q, n_items = len(g_labels), len(c_labels), len(gold)
    g_items, g_labs = _memberships(gold, g_labels)
    c_items, c_labs = _memberships(clusters, c_labels)
    n_g = np.bincount(g_items, minlength=n_items)
    n_c = np.bincount(c_items, minlength=n_items)
    items, g_of, c_of = _shared_pairs(g_items, g_labs, c_items, c_labs, n_items)
    cell = g_of * Q + c_of

    def per_class(w):
        return np.bincount(g_labs, weights=w[g_items], minlength=R)[:, None]

    def per_cluster(w):
        return np.bincount(c_labs, weights=w[c_items], minlength=Q)[None, :]

    def shared(w, keep=slice(None)):
        return np.bincount(cell[keep], weights=w[items[keep]], minlength=R * Q).reshape(R, Q)

    if mode == "fuzzy":
        ones = np.ones(n_items)
        missing = np.zeros((R, Q))
        for d in np.unique(n_g):
            w = np.where(n_g == d, n_c, 0).astype(np.float64)
            missing += (per_class(w) - shared(w, n_g[items] == d)) / d
        remaining = per_cluster(ones) - shared(ones)
    else:
        missing = per_class(n_c.astype(np.float64)) - shared(n_c.astype(np.float64))
        remaining = per_cluster(n_g.astype(np.float64)) - shared(n_g.astype(np.float64))
    return sim, 0.5 * (missing + remaining), g_labels, c_labels


def reference_adjusted(gold, clusters, mode="fuzzy"):
    sim, diss, g_labels, c_labels = reference_similarity_dissimilarity(gold, clusters, mode)
    r_idx, c_idx = linear_sum_assignment(sim - diss, maximize=True)
    adjusted = sim.copy()
    row_mapped = np.zeros(sim.shape[0], bool)
    col_mapped = np.zeros(sim.shape[1], bool)
    row_mapped[r_idx] = True
    col_mapped[c_idx] = True
    adjusted[np.ix_(row_mapped, col_mapped)] = 0.0
    adjusted[r_idx, c_idx] = sim[r_idx, c_idx]
    for gi, c in zip(r_idx, c_idx):
        e = diss[gi, c]
        if e <= 0:
            continue
        others = np.flatnonzero(sim[:, c] > 0)
        others = others[others != gi]
        if others.size:
            adjusted[others, c] += e / others.size
        elif sim.shape[0] > 1:
            rest = np.flatnonzero(np.arange(sim.shape[0]) != gi)
            adjusted[rest, c] += e / rest.size
        elif sim.shape[1] > 1:
            rest = np.flatnonzero(np.arange(sim.shape[1]) != c)
            adjusted[gi, rest] += e / rest.size
    return Contingency.from_table(adjusted, g_labels, c_labels)


def assert_identical(got: Contingency, want: Contingency):
    assert got.is_integer == want.is_integer
    assert list(got.row_labels) == list(want.row_labels)
    assert list(got.col_labels) == list(want.col_labels)
    assert got.to_dense().tobytes() == want.to_dense().tobytes()
    assert got.rows.tolist() == want.rows.tolist() and got.cols.tolist() == want.cols.tolist()


def check(gold, clusters):
    for mode in ("fuzzy", "count"):
        assert_identical(g.dissimilarity_adjusted(gold, clusters, mode), reference_adjusted(gold, clusters, mode))
        sim, diss, gl, cl = g_dissimilarity._similarity_dissimilarity(gold, clusters, mode)
        r_sim, r_diss, r_gl, r_cl = reference_similarity_dissimilarity(gold, clusters, mode)
        assert (gl, cl) == (r_gl, r_cl)
        assert sim.tobytes() == r_sim.tobytes() and diss.tobytes() == r_diss.tobytes()


ints = st.integers(0, 6)
texts = st.sampled_from(["a", "b", "c", "d", "e"])


def entry(labels):
    return st.one_of(labels, st.lists(labels, min_size=1, max_size=4).map(tuple),
                     st.lists(labels, min_size=1, max_size=4))


def memberships(gold_labels, cluster_labels):
    return st.integers(1, 30).flatmap(lambda n: st.tuples(st.lists(entry(gold_labels), min_size=n, max_size=n),
                                                          st.lists(entry(cluster_labels), min_size=n, max_size=n)))


@settings(max_examples=300, deadline=None)
@given(st.one_of(memberships(texts, ints), memberships(ints, ints), memberships(st.just("only"), ints),
                 memberships(ints, st.just(0)), memberships(st.one_of(ints, texts), st.one_of(ints, texts))))
def test_matches_the_reference_on_any_memberships(data):
    check(*data)


@pytest.mark.parametrize("n, scheme, rate, classes", [
    (40, "halving", None, 40), (100, "share", 0.5, 100), (200, "fixed", 3, 12), (300, "halving", None, 300),
    (60, "share", 1.0, 5), (30, "fixed", 2, 2),
])
def test_matches_the_reference_along_the_playgrounds_clusterings(n, scheme, rate, classes):
    gold = experiments.ambiguous_gold(n, scheme, rate, classes, seed=3)
    for clusters in experiments.soft_clusterings(gold, 6):
        check(gold, clusters)
        check(gold, experiments.with_noise(clusters, 0.3, seed=1))


def test_each_branch_of_the_error_spread():
    check([("a", "b"), "a", "b"], [(1, 2), 1, 2])                # the paper's Figure 9: no error to spread
    check([("a", "b"), "a", "b"], [1, (1, 2), 2])                # error over the cluster's other non-zero cells
    check(["a", "b", "c"], [1, 1, 1])                            # one cluster, several classes
    check(["a", "a", "a"], [1, 2, (2, 3)])                       # one class: over its other clusters
    check([("a", "b"), "c"], [(1,), (1,)])                       # a mapped cluster with no other non-zero cell
    check([("a",), ("a",)], [(1,), (1,)])                        # one cell


def outcome(f, *args):
    try:
        f(*args)
    except Exception as exc:  # the exception itself is compared
        return type(exc), str(exc)
    return None


@pytest.mark.parametrize("gold, clusters", [
    ([("a",), ()], [(1,), (2,)]),
    ([("a",), ("b",)], [(1,), ()]),
    ([{"a": 1.0}], [(1,)]),
    ([("a",)], [{1: 1.0}]),
    ([("a", None)], [(1,)]),
    ([("a",)], [(math.nan,)]),
    ([("a",), ("b",)], [(1,)]),
    ([], []),
    ([(["a"],)], [(1,)]),
    ([np.array([1, 2]), range(2)], [(1,), frozenset({1, 2})]),   # other collections go item by item
])
def test_refusals_and_odd_entries_as_before(gold, clusters):
    for mode in ("fuzzy", "count"):
        want = outcome(reference_adjusted, gold, clusters, mode)
        assert outcome(g.dissimilarity_adjusted, gold, clusters, mode) == want
        if want is None:
            assert_identical(g.dissimilarity_adjusted(gold, clusters, mode), reference_adjusted(gold, clusters, mode))


def test_refusals_of_what_is_no_sequence():
    for gold, clusters in (("abc", [1, 2, 3]), ([1], 5)):
        with pytest.raises(ValueError, match="must be a sequence with one entry"):
            g.dissimilarity_adjusted(gold, clusters)
    with pytest.raises(ValueError, match="mode must be 'fuzzy' or 'count'"):
        g.dissimilarity_adjusted([1], [1], mode="soft")


# ---------------------------------------------------------------- experiments.fuzzy_tables
def four_calls(gold, clusters):
    out = {mode: Contingency.from_memberships(gold, clusters, mode=mode) for mode in ("fuzzy", "count")}
    for mode in ("fuzzy", "count"):
        out[f"{mode}_diss"] = g.dissimilarity_adjusted(gold, clusters, mode=mode)
    return out


@settings(max_examples=150, deadline=None)
@given(st.one_of(memberships(texts, ints), memberships(st.one_of(ints, texts), ints)))
def test_fuzzy_tables_reads_once_what_four_calls_read(data):
    got, want = experiments.fuzzy_tables(*data), four_calls(*data)
    assert list(got) == list(want)
    for name in want:
        assert_identical(got[name], want[name])


@pytest.mark.parametrize("gold, clusters", [
    ([{"a": 2.0, "b": 1.0}], [(1,)]),          # weights: the tables, then the dissimilarity step's refusal
    ([{"a": -1.0}], [(1,)]),                   # a negative weight: from_memberships' refusal comes first
    ([("a",), ()], [(1,), (2,)]),
    ([("a",)], [(None,)]),
    ([("a",), ("b",)], [(1,)]),
    ([np.array(["a", "b"]), range(1)], [(1,), (2,)]),
])
def test_fuzzy_tables_refuses_as_the_four_calls_do(gold, clusters):
    assert outcome(experiments.fuzzy_tables, gold, clusters) == outcome(four_calls, gold, clusters)


def test_fuzzy_tables_without_the_step_takes_weights():
    gold, clusters = [{"a": 2.0, "b": 1.0}, "a"], [(1, 2), 2]
    got = experiments.fuzzy_tables(gold, clusters, dissimilarity=False)
    assert list(got) == ["fuzzy", "count"]
    for mode in ("fuzzy", "count"):
        assert_identical(got[mode], Contingency.from_memberships(gold, clusters, mode=mode))
