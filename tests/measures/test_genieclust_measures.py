"""Issue 27's measures — NCA, NPA, PSI, simplified PSI, AFM (genieclust), the pair-counting
correlation CC, Sokal & Sneath's first index and the correlation distance (Gösgens et al. 2021) —
against genieclust 1.3 (a test-time oracle), brute-force enumeration of item pairs, the
registry's existing formulas, exact big-count references, and their batches.

genieclust is handed consecutive label codes: its confusion matrix keeps empty classes (labels
that skip a value), which the project drops.
"""

from __future__ import annotations

import math
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics
from metrics import chance
from metrics.measures import matching, normalised_matching

gc = pytest.importorskip("genieclust.compare_partitions")

M = metrics.MEASURES
C = metrics.Contingency
NEW = ("nca", "npa", "psi", "psi_simplified", "afm", "pair_correlation", "sokal_sneath", "correlation_distance")


def _codes(v):
    return np.unique(np.asarray(v), return_inverse=True)[1]


def _dense(x, y):
    t = np.zeros((x.max() + 1, y.max() + 1), dtype=np.int64)
    np.add.at(t, (x, y), 1)
    return t


def _pad(t, r, c):
    out = np.zeros((r, c), dtype=t.dtype)
    out[: t.shape[0], : t.shape[1]] = t
    return out


def val(key, table):
    return M[key](C.from_table(np.asarray(table)))


def _pairs(seed, count, n_choices=(2, 3, 4, 5, 7, 10, 30, 100, 500), max_k=10):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.choice(n_choices))
        k = int(rng.integers(2, min(n, max_k) + 1)) if n > 1 else 1
        k_pred = int(rng.integers(2, min(n, max_k) + 1)) if n > 1 else 1
        yield _codes(rng.integers(0, k, n)), _codes(rng.integers(0, k_pred, n))


PAIRS = list(_pairs(1, 1200))


def test_all_eight_are_registered_with_their_metadata():
    assert set(NEW) <= set(M)
    assert not M["nca"].symmetric and all(M[k].symmetric for k in NEW if k != "nca")
    assert M["correlation_distance"].direction == "lower"
    assert all(M[k].direction == "higher" for k in NEW if k != "correlation_distance")
    assert {k for k in NEW if M[k].family == "pairs"} == {"afm", "pair_correlation", "sokal_sneath",
                                                          "correlation_distance"}


# ----------------------------------------------------------------------------- genieclust
def test_nca_matches_genieclust_square_and_padded():
    worst, seen = 0.0, {"eq": 0, "more_classes": 0, "more_clusters": 0}
    for x, y in PAIRS:
        t = _dense(x, y)
        k, n_clusters = t.shape
        if min(k, n_clusters) < 2:
            continue
        if k == n_clusters:
            theirs, kind = gc.normalized_clustering_accuracy(x, y), "eq"
        elif k > n_clusters:  # genieclust's stated intent: missing columns are zeros, K unchanged
            theirs, kind = gc.normalized_clustering_accuracy(_pad(t, k, k)), "more_classes"
        else:  # padding rows would make genieclust's K = L: rescale to K = the number of classes
            padded = gc.normalized_clustering_accuracy(_pad(t, n_clusters, n_clusters))
            theirs, kind = padded * (n_clusters - 1) / (k - 1), "more_clusters"
        seen[kind] += 1
        worst = max(worst, abs(M["nca"](x, y) - theirs))
    assert min(seen.values()) > 50
    assert worst < 1e-12


def test_npa_matches_genieclust_padded_to_max():
    worst = 0.0
    for x, y in PAIRS:
        t = _dense(x, y)
        m = max(t.shape)
        if m < 2:
            continue  # genieclust refuses a 1 × 1 table; ours is 1 (identical)
        worst = max(worst, abs(M["npa"](x, y) - gc.normalized_pivoted_accuracy(_pad(t, m, m))))
    assert worst < 1e-12


@pytest.mark.parametrize("key,simplified", [("psi", False), ("psi_simplified", True)])
def test_psi_matches_genieclust_including_k_neq_l(key, simplified):
    worst, unequal = 0.0, 0
    for x, y in PAIRS:
        unequal += len(set(x)) != len(set(y))
        worst = max(worst, abs(M[key](x, y) - gc.pair_sets_index(x, y, simplified=simplified)))
    assert unequal > 400
    assert worst < 1e-12


def test_psi_is_clipped_where_genieclust_unclipped_goes_negative():
    negative = 0
    for x, y in PAIRS:
        if max(len(set(x)), len(set(y))) < 2:
            continue
        raw = gc.pair_sets_index(x, y, clipped=False)
        if raw < 0:
            negative += 1
            assert M["psi"](x, y) == 0.0
    assert negative > 0  # the clipping is not vacuous


def test_afm_matches_genieclust_where_genieclust_is_finite():
    compared = 0
    for x, y in PAIRS:
        theirs = gc.adjusted_fm_score(x, y)
        if math.isnan(theirs):
            continue
        compared += 1
        assert M["afm"](x, y) == pytest.approx(theirs, abs=1e-12)
    assert compared > 1000


def test_labels_that_skip_values_score_as_consecutive_codes():
    # genieclust counts the empty class of [0, 0, 2, 2] (PSI 0.5 for identical partitions); we drop it.
    x = np.array([0, 0, 2, 2])
    assert M["psi"](x, x) == 1.0 and M["nca"](x, x) == 1.0


# ----------------------------------------------------------------------------- degenerate cases
@pytest.mark.parametrize("table,expected", [
    ([[3]], {"nca": 1.0, "npa": 1.0, "psi": 1.0, "psi_simplified": 1.0}),  # genieclust: NaN
    ([[1]], {"nca": 1.0, "npa": 1.0, "psi": 1.0, "psi_simplified": 1.0}),  # n = 1: NaN
    ([[1, 2, 1]], {"nca": 0.0}),                                          # one class: genieclust raises
    ([[1], [2], [1]], {"nca": 0.0}),                                      # one cluster: (1 − 1)/(3 − 1)
    ([[1, 1, 1, 1], [1, 1, 1, 1]], {"nca": -0.5}),                       # (1/4 + 1/4 − 1)/(2 − 1)
])
def test_degenerate_matching_values(table, expected):
    for key, v in expected.items():
        assert val(key, table) == pytest.approx(v, abs=1e-15), key


def test_empty_table_scores_identical():
    t = C.from_table(np.zeros((1, 1), dtype=np.int64))  # n = 0: every row and column empty
    assert [M[k](t) for k in ("nca", "npa", "psi", "psi_simplified")] == [1.0] * 4
    assert (M["pair_correlation"](t), M["sokal_sneath"](t), M["correlation_distance"](t)) == (1.0, 1.0, 0.0)


@pytest.mark.parametrize("table,cc,ss1,cd", [
    ([[3]], 1.0, 1.0, 0.0),                               # one class, one cluster
    ([[1, 1, 1]], -1.0, 0.0, 1.0),                        # one class, singleton clusters
    ([[1], [1], [1]], -1.0, 0.0, 1.0),                    # the transpose
    ([[1, 0], [0, 1]], 1.0, 1.0, 0.0),                    # singletons on both sides
    ([[2, 1]], 0.0, (1 / 3 + 1) / 4, 0.5),                # one class, a real clustering: CC 0/0 → 0
    ([[1, 0, 0], [0, 1, 1]], 0.0, (2 / 3 + 1) / 4, 0.5),  # singleton classes except one pair
])
def test_degenerate_pair_values(table, cc, ss1, cd):
    assert val("pair_correlation", table) == cc
    assert val("sokal_sneath", table) == pytest.approx(ss1, abs=1e-15)
    assert val("correlation_distance", table) == pytest.approx(cd, abs=1e-15)


def test_cc_differs_from_hubert_gamma_only_at_one_cluster_against_singletons():
    t = C.from_table([[1, 1, 1, 1]])
    assert M["hubert_gamma"](t) == 0.0 and M["pair_correlation"](t) == -1.0
    # the minimum is reached there alone: a 2 × 2 table scores −0.5, above it
    assert val("pair_correlation", [[1, 1], [1, 0]]) == pytest.approx(-0.5)


# ----------------------------------------------------------------------------- brute-force oracle
def _indicators(x, y):
    i, j = np.triu_indices(len(x), 1)
    return (x[i] == x[j]).astype(float), (y[i] == y[j]).astype(float)


def test_cc_ss1_cd_against_pair_enumeration():
    checked = 0
    for x, y in _pairs(7, 500, n_choices=(3, 4, 5, 8, 13, 40), max_k=6):
        u, v = _indicators(x, y)
        if u.std() == 0 or v.std() == 0:
            continue
        checked += 1
        t = C.from_labels(x, y)
        cc = np.corrcoef(u, v)[0, 1]
        assert M["pair_correlation"](t) == pytest.approx(cc, abs=1e-12)
        assert M["correlation_distance"](t) == pytest.approx(np.arccos(np.clip(cc, -1, 1)) / np.pi, abs=1e-7)
        n11, n10 = np.sum(u * v), np.sum(u * (1 - v))
        n01, n00 = np.sum((1 - u) * v), np.sum((1 - u) * (1 - v))
        ss1 = (n11 / (n11 + n10) + n11 / (n11 + n01) + n00 / (n00 + n10) + n00 / (n00 + n01)) / 4
        assert M["sokal_sneath"](t) == pytest.approx(ss1, abs=1e-12)
    assert checked > 300


# ----------------------------------------------------------------------------- identities
def test_identities_with_existing_measures():
    for x, y in PAIRS[:500]:
        t = C.from_labels(x, y)
        v = metrics.evaluate(t, ["hubert_gamma", "fm_n", "epsilon_n", *NEW])
        assert v["npa"] == pytest.approx(1.0 - v["epsilon_n"], abs=1e-12)
        assert v["afm"] == v["fm_n"]
        n11, _, _, n00 = metrics.pair_counts(t)
        if not (n11 == 0 and n00 == 0):  # CC differs from Γ only at N11 = N00 = 0
            assert v["pair_correlation"] == pytest.approx(v["hubert_gamma"], abs=1e-12)
        assert v["correlation_distance"] == pytest.approx(math.acos(v["pair_correlation"]) / math.pi, abs=1e-7)


# ----------------------------------------------------------------------------- batches
def test_batches_equal_single_tables():
    rng = np.random.default_rng(3)
    tables = rng.integers(0, 5, size=(300, 5, 4)) * (rng.random((300, 5, 4)) < 0.6)
    tables[tables.sum(axis=(1, 2)) == 0, 0, 0] = 1
    batch = metrics.evaluate_batch(tables, list(NEW))
    single = [metrics.evaluate(C.from_table(t), list(NEW)) for t in tables]
    for key in NEW:
        np.testing.assert_allclose(batch[key], [s[key] for s in single], atol=1e-12, err_msg=key)


def test_batches_above_the_permutation_side_use_assignments():
    rng = np.random.default_rng(4)
    tables = rng.integers(0, 4, size=(60, 7, 6))
    batch = metrics.evaluate_batch(tables, ["nca", "npa", "psi", "psi_simplified"])
    for i, t in enumerate(tables):
        single = metrics.evaluate(C.from_table(t), ["nca", "npa", "psi", "psi_simplified"])
        for key, v in single.items():
            assert batch[key][i] == pytest.approx(v, abs=1e-12), key


def test_permutation_gather_and_assignment_agree(monkeypatch):
    w = np.random.default_rng(5).random((200, 6, 5))
    monkeypatch.setattr(matching, "BRUTE_FORCE_SIDE", 6)
    brute = matching.max_assignment_batch(w)
    monkeypatch.setattr(matching, "BRUTE_FORCE_SIDE", 0)
    np.testing.assert_allclose(brute, matching.max_assignment_batch(w), atol=1e-12)


def test_sparse_matching_path_equals_dense(monkeypatch):
    rng = np.random.default_rng(6)
    x = rng.integers(0, 40, 3000)
    y = (x + rng.integers(0, 3, 3000) * (rng.random(3000) < 0.3)) % 45
    keys = ["nca", "npa", "psi", "psi_simplified"]
    dense = metrics.evaluate(C.from_labels(x, y), keys)
    # every component through the sparse minimum-cost matcher, with float weights
    monkeypatch.setattr(normalised_matching, "_DENSE_MATCHING_CELLS", 0)
    monkeypatch.setattr(matching, "_DENSE_MATCHING_CELLS", 0)
    sparse = metrics.evaluate(C.from_labels(x, y), keys)
    for key in keys:
        assert sparse[key] == pytest.approx(dense[key], abs=1e-12), key


def test_fractional_tables():
    t = C.from_table(np.array([[1.5, 0.5], [0.25, 2.0]]))
    d = t.to_dense()
    share = d / d.sum(axis=1, keepdims=True)
    assert M["nca"](t) == pytest.approx(share[0, 0] + share[1, 1] - 1.0)
    assert M["npa"](t) == pytest.approx(2 * 3.5 / 4.25 - 1)


# ----------------------------------------------------------------------------- exactness at big n
def test_small_angle_of_near_identical_huge_partitions():
    # Two blocks of 10^17 items; the clustering moves one item across.
    big = 10**17
    t = C.from_table(np.array([[big - 1, 1], [0, big]], dtype=np.int64))
    a, b, c, d = metrics.pair_counts(t)
    getcontext().prec = 80
    num = Decimal(a * d - b * c)
    den = Decimal((a + b) * (c + d) * (a + c) * (b + d)).sqrt()
    reference = 2 * math.asin(float(((1 - num / den) / 2).sqrt())) / math.pi
    naive = math.acos(min(1.0, M["pair_correlation"](t))) / math.pi
    assert M["correlation_distance"](t) == pytest.approx(reference, rel=1e-12)
    assert reference > 1e-9 and naive == 0.0  # the naive arccos(CC) loses the whole angle


def test_batch_keeps_the_small_angle_while_its_float_pair_counts_are_exact():
    # A batch forms N10 = m1 − m in floats (exact below 2^53: here n = 2·10^6); G, a sum of
    # non-negative terms, then keeps the angle that arccos(1 − δ) would round away.
    table = np.array([[10**6 - 1, 1], [0, 10**6]])
    exact = M["correlation_distance"](C.from_table(table))
    batch = metrics.evaluate_batch(table[None].astype(np.float64), ["correlation_distance"])
    assert batch["correlation_distance"][0] == pytest.approx(exact, rel=1e-12)
    assert exact > 0


def test_ss1_is_one_rounding_of_the_exact_rational():
    big = 10**9
    t = C.from_table(np.array([[big, 3], [5, big + 7]], dtype=np.int64))
    a, b, c, d = metrics.pair_counts(t)
    exact = (Fraction(a, a + b) + Fraction(a, a + c) + Fraction(d, d + b) + Fraction(d, d + c)) / 4
    assert M["sokal_sneath"](t) == float(exact)


# ----------------------------------------------------------------------------- chance
def test_affine_pair_measures_have_exact_perm_expectations():
    t = C.from_table([[2, 1, 0], [0, 2, 1], [1, 0, 2]])
    keys = set(chance.exact_keys(t, "perm"))
    assert {"afm", "pair_correlation", "sokal_sneath"} <= keys
    assert "correlation_distance" not in keys and "nca" not in keys
    assert chance.expected(t, "pair_correlation") == pytest.approx(0.0, abs=1e-15)
    assert chance.expected(t, "afm") == pytest.approx(0.0, abs=1e-15)
    assert chance.expected(t, "sokal_sneath") == pytest.approx(0.5, abs=1e-15)


# ----------------------------------------------------------------------------- properties
tables = st.lists(st.lists(st.integers(0, 6), min_size=1, max_size=5), min_size=1, max_size=5).map(
    lambda rows: np.array([r + [0] * (5 - len(r)) for r in rows], dtype=np.int64)).filter(lambda t: t.sum() >= 2)


@settings(max_examples=150, deadline=None)
@given(tables)
def test_symmetric_measures_are_symmetric_and_bounded(t):
    table, transposed = C.from_table(t), C.from_table(t.T)
    for key in NEW:
        v = M[key](table)
        lo, hi = M[key].bounds
        assert lo <= v <= hi, key
        if key != "nca":
            assert v == pytest.approx(M[key](transposed), abs=1e-12), key


def test_nca_is_asymmetric():
    t = np.array([[5, 0], [3, 2]])
    assert val("nca", t) != pytest.approx(val("nca", t.T))


def test_every_count_of_measures_the_guides_state_is_the_registrys():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    stated = {}
    for page in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        for number in re.findall(r"\b(\d+)\s+measures\b", page.read_text(encoding="utf-8")):
            stated.setdefault(page.name, set()).add(int(number))
    assert stated, "no page states how many measures there are: this test would check nothing"
    assert {page: numbers for page, numbers in stated.items() if numbers != {len(M)}} == {}


def test_the_registry_names_genieclust_as_a_peer_with_functions_that_exist():
    named = {k: m.peers["genieclust"] for k, m in M.items() if m.peers and "genieclust" in m.peers}
    assert set(named) == {"nca", "npa", "psi", "psi_simplified", "afm"}
    for function in named.values():
        module, _, name = function.partition("(")[0].rpartition(".")
        assert module == "genieclust.compare_partitions" and callable(getattr(gc, name))
