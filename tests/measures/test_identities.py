"""Identities between measures, on random tables (hypothesis).

Entropies on the test side are computed directly from the table's margins with
numpy, independently of ``metrics``' cached quantities.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import metrics

M = metrics.MEASURES
TOL = 1e-9


@st.composite
def int_tables(draw, max_side=6, max_cell=15):
    shape = (draw(st.integers(1, max_side)), draw(st.integers(1, max_side)))
    arr = draw(arrays(np.int64, shape, elements=st.integers(0, max_cell)))
    assume(arr.sum() > 0)
    return metrics.Contingency.from_table(arr)


@st.composite
def float_tables(draw, max_side=5):
    """Fractional (ambiguous-data) tables: the information identities hold for them too."""
    shape = (draw(st.integers(1, max_side)), draw(st.integers(1, max_side)))
    arr = draw(arrays(np.float64, shape, elements=st.sampled_from([0.0, 0.25, 1 / 3, 0.5, 1.0, 1.5, 2.75, 7.0])))
    assume(arr.sum() > 0)
    return metrics.Contingency.from_table(arr)


any_tables = st.one_of(int_tables(), float_tables())


def entropy(counts) -> float:
    p = np.asarray(counts, dtype=float)
    p = p[p > 0] / p.sum()
    return float(-(p * np.log(p)).sum())


def close(a, b, tol=TOL):
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


@given(any_tables)
def test_mutual_info_is_class_entropy_minus_conditional_entropy(t):
    """MI = H(C) − H(C|K) (Wu Lemma 1)."""
    h_c = entropy(t.row_sums)
    assert close(M["mutual_info"](t), h_c - M["conditional_entropy"](t))


@given(any_tables)
def test_vi_is_entropies_minus_twice_mi(t):
    """VI = H(C) + H(K) − 2 MI (Wu Lemma 2)."""
    h_c, h_k = entropy(t.row_sums), entropy(t.col_sums)
    assert close(M["vi"](t), h_c + h_k - 2 * M["mutual_info"](t))


@given(int_tables())
def test_mirkin_and_rand(t):
    """M / 2·C(n, 2) + R = 1 (Wu §2)."""
    assume(t.n >= 2)
    assert close(M["mirkin"](t) / (2 * math.comb(t.n, 2)) + M["rand"](t), 1.0, 1e-12)


@given(int_tables())
def test_mirkin_is_wu_table1_formula(t):
    """Wu Table 1 row 16: Σ a_i² + Σ b_j² − 2 Σ n_ij², in exact integers."""
    dense = t.to_dense().astype(object)
    expected = int((dense.sum(axis=1) ** 2).sum() + (dense.sum(axis=0) ** 2).sum() - 2 * (dense**2).sum())
    assert M["mirkin"](t) == expected


@given(int_tables())
def test_wu_proposition_1(t):
    """Γ_n = Γ; R_n = ARI; J'_n = MS'_n = 1 − R_n; Γ' = 2R − 1 (Wu Prop. 1, Table 1)."""
    v = metrics.evaluate(t)
    assert close(v["gamma_n"], v["hubert_gamma"])
    assert close(v["r_n"], v["ari"])
    assert close(v["j_prime_n"], 1 - v["r_n"])
    assert close(v["ms_prime_n"], v["j_prime_n"])
    assert close(v["hubert_gamma_prime"], 2 * v["rand"] - 1)


@given(int_tables())
def test_r_n_equals_normalized_gamma_prime(t):
    """R_n = Γ'_n (Wu Prop. 1 (1)): Γ' = 2R − 1 normalized by Eq. (1),
    (Γ' − E Γ')/(1 − E Γ'), with E[m] = m1·m2/M under the hypergeometric model (Eq. 2).
    Computed here in exact rationals from the pair counts."""
    n11, n10, n01, n00 = metrics.pair_counts(t)
    m, m1, m2 = n11, n11 + n10, n11 + n01
    big = n11 + n10 + n01 + n00
    assume(big > 0)
    expected_m = Fraction(m1 * m2, big)
    gamma_prime = Fraction(big - 2 * m1 - 2 * m2 + 4 * m, big)
    e_gamma_prime = (big - 2 * m1 - 2 * m2 + 4 * expected_m) / big
    assume(e_gamma_prime != 1)  # 0/0: both partitions trivial
    normalized = (gamma_prime - e_gamma_prime) / (1 - e_gamma_prime)
    assert close(M["r_n"](t), float(normalized))


@given(any_tables)
def test_vi_n_plus_nmi_arithmetic_is_one(t):
    """VI_n + MI_n = 1 with MI_n = 2 MI / (H(C) + H(K)) (Wu §4, after Lemma 4)."""
    assert close(M["vi_n"](t) + M["nmi_arithmetic"](t), 1.0)
    h = entropy(t.row_sums) + entropy(t.col_sums)
    if h > 0:
        assert close(M["nmi_arithmetic"](t), 2 * M["mutual_info"](t) / h)


@given(int_tables())
def test_purity_equivalents(t):
    """MAP = P and GK = 1 − P (Wu §2 and §5.3)."""
    p = M["purity"](t)
    assert close(M["micro_avg_precision"](t), p)
    assert close(M["goodman_kruskal"](t), 1 - p)


@given(any_tables)
def test_v_measure_is_nmi_arithmetic(t):
    """V_1 = 2hc/(h + c) = 2 MI/(H(C) + H(K)): scikit-learn's documented equivalence."""
    assert close(M["v_measure"](t), M["nmi_arithmetic"](t))


@st.composite
def gold_and_two_clusterings(draw):
    n = draw(st.integers(2, 40))
    gold = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    assume(len(set(gold)) > 1)  # H(C) > 0: NVI is VI / H(C)
    k1 = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    k2 = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    return gold, k1, k2


@given(gold_and_two_clusterings())
def test_nvi_preserves_vi_order(case):
    """R&R §4: for a fixed gold standard, VI(C, K1) > VI(C, K2) iff NVI(C, K1) > NVI(C, K2)."""
    gold, k1, k2 = case
    t1, t2 = metrics.Contingency.from_labels(gold, k1), metrics.Contingency.from_labels(gold, k2)
    vi1, vi2 = M["vi"](t1), M["vi"](t2)
    nvi1, nvi2 = M["nvi"](t1), M["nvi"](t2)
    if abs(vi1 - vi2) > 1e-9:
        assert (vi1 > vi2) == (nvi1 > nvi2)
    else:
        assert close(nvi1, nvi2)


# log_base: the unnormalized information measures carry a unit. NVI and NVIK are
# ratios (unit-free) except in their degenerate branch (NVI = H(K) when H(C) = 0,
# NVIK = H(C) when H(K) = 0, [RR09] §4), where they are an entropy and scale.
ALWAYS_SCALES = {"mutual_info", "vi", "conditional_entropy", "q0"}
SCALES_WHEN_DEGENERATE = {"nvi": lambda t: entropy(t.row_sums) == 0,
                          "nvik": lambda t: entropy(t.col_sums) == 0}


def test_log_base_flags_are_the_expected_ones():
    flagged = {k for k, m in M.items() if m.uses_log_base}
    assert flagged == ALWAYS_SCALES | set(SCALES_WHEN_DEGENERATE)


def _check_log_base_scaling(t, base, keys):
    nats = metrics.evaluate(t, keys)
    other = metrics.evaluate(t, keys, log_base=base)
    for key in keys:
        if key in ALWAYS_SCALES or (key in SCALES_WHEN_DEGENERATE and SCALES_WHEN_DEGENERATE[key](t)):
            assert close(other[key], nats[key] / math.log(base)), key
        else:
            assert close(other[key], nats[key]), key


@given(int_tables(), st.sampled_from([2, 10, 1.5]))
def test_log_base_scaling(t, base):
    """In base b a unit-carrying value is its value in nats divided by ln b; every
    other measure does not depend on the log base at all."""
    _check_log_base_scaling(t, base, list(M))


@given(float_tables(), st.sampled_from([2, 10, 1.5]))
def test_log_base_scaling_fractional_tables(t, base):
    """The same for ambiguous-data tables, every measure defined for them (AMI needs
    integer counts, the pair-counting measures cells of at least 1)."""
    keys = [k for k, m in M.items() if m.applies_to(t)]
    _check_log_base_scaling(t, base, keys)


def test_log_base_scaling_degenerate_nvi():
    """One class, four clusters: NVI = H(K) = log 4, i.e. 2 bits; NVIK = VI/H(K) = 1."""
    t = metrics.Contingency.from_labels([0, 0, 0, 0], [0, 1, 2, 3])
    assert close(M["nvi"](t), math.log(4))
    assert close(M["nvi"](t, log_base=2), 2.0)
    assert close(M["nvik"](t, log_base=2), 1.0)
