"""Utt et al.'s dissimilarity (metrics.papers.generators): the sparse, exact computation against the
dense reference it replaced.

The dense reference builds items × labels membership matrices and takes two products over all
items (as the first implementation did). The sparse one sums, per (class, cluster) pair, only over
the items holding both, in whole numbers (per denominator |G(item)| for the fuzzy row mass). Both
are the same formula; count-mode masses are whole numbers, so the two agree exactly there, and to
rounding in fuzzy mode — with the exact zeros (pairs where one side holds all the other's items)
exactly zero in both.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics import Contingency
from metrics.papers import experiments
from metrics.papers.generators import ambiguous as g_ambiguous
from metrics.papers.generators import dissimilarity_enhancement as g_dissimilarity


def dense_reference(gold, clusters, mode):
    """The dissimilarity D as first implemented: dense membership matrices and two products."""
    gold = [g_ambiguous._labels_tuple(x, "gold", i) for i, x in enumerate(gold)]
    clusters = [g_ambiguous._labels_tuple(x, "clusters", i) for i, x in enumerate(clusters)]
    base = Contingency.from_memberships(gold, clusters, mode=mode)
    g_labels, c_labels = list(base.row_labels), list(base.col_labels)

    def membership(entries, labels):
        index = {lab: k for k, lab in enumerate(labels)}
        m = np.zeros((len(entries), len(labels)))
        for i, e in enumerate(entries):
            for lab in e:
                m[i, index[lab]] = 1.0
        return m

    in_g, in_c = membership(gold, g_labels), membership(clusters, c_labels)
    n_g, n_c = in_g.sum(axis=1), in_c.sum(axis=1)
    if mode == "fuzzy":
        row_mass, col_mass = in_g * (n_c / n_g)[:, None], in_c
    else:
        row_mass, col_mass = in_g * n_c[:, None], in_c * n_g[:, None]
    missing = row_mass.T @ (1.0 - in_c)
    remaining = (1.0 - in_g).T @ col_mass
    return 0.5 * (missing + remaining), g_labels, c_labels


def check_against_reference(gold, clusters):
    for mode in ("fuzzy", "count"):
        sim, diss, g_labels, c_labels = g_dissimilarity._similarity_dissimilarity(gold, clusters, mode)
        ref, ref_g, ref_c = dense_reference(gold, clusters, mode)
        assert (g_labels, c_labels) == (ref_g, ref_c)
        assert diss.shape == sim.shape == ref.shape
        assert np.array_equal(diss == 0, ref == 0), "exact zeros differ"
        if mode == "count":
            assert np.array_equal(diss, ref)
        else:
            np.testing.assert_allclose(diss, ref, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("n, scheme, rate, classes", [
    (40, "halving", None, 40), (100, "share", 0.5, 100), (200, "fixed", 3, 12), (300, "halving", None, 300),
    (60, "share", 1.0, 5),
])
def test_matches_the_dense_reference_along_the_playgrounds_clusterings(n, scheme, rate, classes):
    gold = experiments.ambiguous_gold(n, scheme, rate, classes, seed=3)
    for clusters in experiments.soft_clusterings(gold, 6):
        check_against_reference(gold, clusters)
        check_against_reference(gold, experiments.with_noise(clusters, 0.3, seed=1))


labels = st.lists(st.sampled_from("abcdef"), min_size=1, max_size=4)
clusterings = st.lists(st.sampled_from([0, 1, 2, 3, 4, 5, 6]), min_size=1, max_size=4)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 30).flatmap(lambda n: st.tuples(st.lists(labels, min_size=n, max_size=n),
                                                      st.lists(clusterings, min_size=n, max_size=n))))
def test_matches_the_dense_reference_on_any_memberships(data):
    gold, clusters = data
    check_against_reference(gold, clusters)


def test_single_labels_and_hard_data_give_half_the_symmetric_difference():
    # Hard data: D(g, c) = |g Δ c| / 2 in both modes (the paper's Figure 9a reading).
    gold = ["x", "x", "y", "y", "y", "z"]
    clusters = [1, 2, 2, 2, 3, 3]
    for mode in ("fuzzy", "count"):
        _, diss, g_labels, c_labels = g_dissimilarity._similarity_dissimilarity(gold, clusters, mode)
        for r, gl in enumerate(g_labels):
            for q, cl in enumerate(c_labels):
                in_g = {i for i, x in enumerate(gold) if x == gl}
                in_c = {i for i, x in enumerate(clusters) if x == cl}
                assert diss[r, q] == len(in_g ^ in_c) / 2
