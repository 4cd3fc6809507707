"""Pair-counting measures and Wu et al.'s normalized forms.

Every measure here is a function of four pair sums, computed once per table:

    m  = Σ_ij C(n_ij, 2)   pairs together in both partitions   (N11)
    m1 = Σ_i  C(a_i, 2)    pairs in the same class             (N11 + N10)
    m2 = Σ_j  C(b_j, 2)    pairs in the same cluster           (N11 + N01)
    M  = C(n, 2)           all pairs

For integer tables these are exact Python integers, so the combinations below are
exact until the final division (n = 10^9 and cells of 10^12 included).

Degenerate tables: when a formula is 0/0 the two partitions are either identical in
their pairs (N10 = N01 = 0: the best value) or not (the chance value 0). This is
scikit-learn's rule for ARI, applied uniformly.

References
----------
[Wu09] Wu, Xiong & Chen (2009), Adapting the right measures for K-means clustering,
       Tables 1 and 5.
[HA85] Hubert & Arabie (1985), Comparing partitions. J. Classification 2.
[GTP21] Gösgens, Tikhonov & Prokhorenkova (2021), Systematic analysis of cluster similarity
        indices: how to validate validation measures. ICML.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..core.arith import both, div, is_batch, sqrt, where
from ..core.registry import register

INF = math.inf


def _sums(t):
    return t.pair_sums


def _identical_pairs(m, m1, m2):
    """No pair is split by one partition and joined by the other (N10 = N01 = 0)."""
    return both(m1 == m, m2 == m)


@register("rand", name="Rand index", symbol="R", family="pairs", domain="counts", direction="higher", bounds=(0.0, 1.0),
          reference="Rand 1971; Wu et al. 2009 Table 1 row 6",
          formula=r"R = \frac{M - m_1 - m_2 + 2m}{M}",
          description="Fraction of item pairs on which the two partitions agree (together or apart).",
          symmetric=True, sklearn="rand_score",
          n_invariant=False)
def rand(t, *, log_base, beta):
    m, m1, m2, big_m = _sums(t)
    return div(big_m - m1 - m2 + 2 * m, big_m, 1.0)  # n ≤ 1: no pair to disagree on


def _ari(t):
    m, m1, m2, big_m = _sums(t)
    # (m − m1·m2/M) / ((m1 + m2)/2 − m1·m2/M), multiplied through by 2M to stay in
    # integers until the last step. The denominator vanishes only for pair-identical
    # partitions, which score 1.
    num = 2 * (m * big_m - m1 * m2)
    den = (m1 + m2) * big_m - 2 * m1 * m2
    return where(_identical_pairs(m, m1, m2), 1.0, div(num, den, 0.0))


@register("ari", name="Adjusted Rand index", symbol="ARI", family="pairs", domain="counts", direction="higher",
          bounds=(-1.0, 1.0), reference="Hubert & Arabie 1985",
          formula=r"ARI = \frac{m - m_1 m_2/M}{\tfrac12(m_1+m_2) - m_1 m_2/M}",
          description="Rand index corrected for chance under fixed margins (0 = chance, 1 = identical).",
          symmetric=True, n_invariant=False, sklearn="adjusted_rand_score",
          goodness_range=(0.0, 1.0))
def ari(t, *, log_base, beta):
    return _ari(t)


@register("r_n", name="Normalized Rand (Wu)", symbol="R_n", family="pairs", domain="counts", direction="higher",
          bounds=(-1.0, 1.0), reference="Wu et al. 2009, Table 5 row 1",
          formula=r"R_n = \frac{m - m_1 m_2/M}{m_1/2 + m_2/2 - m_1 m_2/M}",
          description="Rand normalized by its hypergeometric expectation; algebraically Hubert & Arabie's ARI, "
                      "and equal to Wu's normalized Γ' (Proposition 1).",
          symmetric=True, n_invariant=False,
          goodness_range=(0.0, 1.0))
def r_n(t, *, log_base, beta):
    return _ari(t)


@register("mirkin", name="Mirkin metric", symbol="M", family="pairs", domain="counts", direction="lower",
          bounds=(0.0, INF), reference="Mirkin 1996; Wu et al. 2009 Table 1 row 16",
          formula=r"M = \sum_i a_i^2 + \sum_j b_j^2 - 2\sum_{ij} n_{ij}^2",
          description="Twice the number of disagreeing pairs; M / 2C(n,2) + R = 1.",
          symmetric=True, n_invariant=False)
def mirkin(t, *, log_base, beta):
    m, m1, m2, _ = _sums(t)
    # Σx² = 2·C(x,2) + Σx and the three Σx equal n, so M = 2(m1 + m2 − 2m).
    return 2 * (m1 + m2 - 2 * m)


@register("jaccard", name="Jaccard coefficient", symbol="J", family="pairs", domain="counts", direction="higher",
          bounds=(0.0, 1.0), reference="Milligan et al. 1983; Wu et al. 2009 Table 1 row 7",
          formula=r"J = \frac{m}{m_1 + m_2 - m}",
          description="Pairs together in both over pairs together in either.",
          symmetric=True,
          n_invariant=False)
def jaccard(t, *, log_base, beta):
    m, m1, m2, _ = _sums(t)
    return div(m, m1 + m2 - m, 1.0)  # 0/0 only when neither partition joins a pair


@register("fowlkes_mallows", name="Fowlkes–Mallows index", symbol="FM", family="pairs", domain="counts",
          direction="higher", bounds=(0.0, 1.0),
          reference="Fowlkes & Mallows 1983; Wu et al. 2009 Table 1 row 8",
          formula=r"FM = \frac{m}{\sqrt{m_1 m_2}}",
          description="Geometric mean of pair precision and pair recall.",
          symmetric=True, sklearn="fowlkes_mallows_score",
          n_invariant=False)
def fowlkes_mallows(t, *, log_base, beta):
    """m/√(m1·m2). Where m1·m2 = 0: 1 if neither partition joins any pair (identical
    all-singleton partitions), else 0. scikit-learn returns 0 in the first case: one of
    the two documented conventions (metrics.api)."""
    m, m1, m2, _ = _sums(t)
    # √(m/m1)·√(m/m2) rather than m/√(m1 m2): no overflow of m1·m2 as a float.
    # m1 = 0 or m2 = 0 forces m = 0, hence 0 — unless both are 0.
    value = sqrt(div(m, m1, 0.0)) * sqrt(div(m, m2, 0.0))
    return where(m1 + m2 == 0, 1.0, value)


def _gamma(t):
    m, m1, m2, big_m = _sums(t)
    num = m * big_m - m1 * m2  # exact for integer tables
    # Product of square roots: the 4-fold product itself could overflow a float.
    root = sqrt(m1) * sqrt(m2) * sqrt(big_m - m1) * sqrt(big_m - m2)
    # A constant same-group indicator (no pair joined, or all pairs joined) has no
    # correlation: 1 if the other partition matches it, else 0.
    return where(root == 0, where(_identical_pairs(m, m1, m2), 1.0, 0.0), div(num, root, 0.0))


@register("hubert_gamma", name="Hubert Γ statistic", symbol="Γ", family="pairs", domain="counts", direction="higher",
          bounds=(-1.0, 1.0), reference="Hubert & Schultz 1976; Wu et al. 2009 Table 1 row 9",
          formula=r"\Gamma = \frac{M m - m_1 m_2}{\sqrt{m_1 m_2 (M-m_1)(M-m_2)}}",
          description="Correlation between the two partitions' same-group indicators over all pairs.",
          symmetric=True, n_invariant=False)
def hubert_gamma(t, *, log_base, beta):
    return _gamma(t)


@register("gamma_n", name="Normalized Hubert Γ (Wu)", symbol="Γ_n", family="pairs", domain="counts", direction="higher",
          bounds=(-1.0, 1.0), reference="Wu et al. 2009, Table 5 row 4, Prop. 1",
          formula=r"\Gamma_n = \frac{mM - m_1 m_2}{\sqrt{m_1 m_2 (M-m_1)(M-m_2)}}",
          description="Γ normalized by its expectation; Wu's Proposition 1: Γ_n = Γ.",
          symmetric=True, n_invariant=False)
def gamma_n(t, *, log_base, beta):
    # Table 5 row 4 is literally Table 1 row 9: Γ already has expectation 0 and
    # maximum 1, so (Γ − E Γ)/(1 − E Γ) = Γ.
    return _gamma(t)


@register("hubert_gamma_prime", name="Hubert Γ' statistic", symbol="Γ'", family="pairs", domain="counts",
          direction="higher", bounds=(-1.0, 1.0), reference="Wu et al. 2009, Table 1 row 10",
          formula=r"\Gamma' = \frac{M - 2m_1 - 2m_2 + 4m}{M} = 2R - 1",
          description="Agreements minus disagreements over all pairs: 2R − 1.",
          symmetric=True, n_invariant=False)
def hubert_gamma_prime(t, *, log_base, beta):
    # The extracted Table 1 lost this row's formula; Table 4 confirms Γ' = 2R − 1
    # (Table 3's clustering I: R = 0.732, Γ' = 0.464).
    m, m1, m2, big_m = _sums(t)
    return div(big_m - 2 * m1 - 2 * m2 + 4 * m, big_m, 1.0)


@register("minkowski", name="Minkowski score", symbol="MS", family="pairs", domain="counts", direction="lower",
          bounds=(0.0, INF), reference="Ben-Hur & Guyon 2003; Wu et al. 2009 Table 1 row 11",
          formula=r"MS = \sqrt{\frac{m_1 + m_2 - 2m}{m_1}}",
          description="Disagreeing pairs relative to the pairs the gold classes join, under a square root.",
          n_invariant=False)
def minkowski(t, *, log_base, beta):
    """√((m1 + m2 − 2m)/m1), normalized by the gold classes' pairs m1.

    When no two items share a class (m1 = 0): 0 if the clustering joins none either,
    else +∞ (every joined pair is an error relative to an empty reference)."""
    m, m1, m2, _ = _sums(t)
    disagreements = m1 + m2 - 2 * m
    empty_reference = where(disagreements == 0, 0.0, INF)
    return where(m1 == 0, empty_reference, sqrt(div(disagreements, m1, 0.0)))


def _j_prime_n(t):
    # Wu's Table 5 row 2: (m1 + m2 − 2m)/(m1 + m2 − 2 m1 m2/M), which is 1 − R_n.
    m, m1, m2, big_m = _sums(t)
    num = (m1 + m2 - 2 * m) * big_m
    den = (m1 + m2) * big_m - 2 * m1 * m2
    return where(_identical_pairs(m, m1, m2), 0.0, div(num, den, 1.0))


@register("j_prime_n", name="Normalized J' (Wu)", symbol="J'_n", family="pairs", domain="counts", direction="lower",
          bounds=(0.0, 2.0), reference="Wu et al. 2009, Table 5 row 2 (J' = (1−J)/(1+J))",
          formula=r"J'_n = \frac{m_1 + m_2 - 2m}{m_1 + m_2 - 2 m_1 m_2/M}",
          description="Jaccard's equivalent J' normalized by its expectation: 0 perfect, 1 chance (= 1 − R_n).",
          symmetric=True, n_invariant=False,
          goodness_range=(0.0, 1.0))
def j_prime_n(t, *, log_base, beta):
    return _j_prime_n(t)


@register("ms_prime_n", name="Normalized MS' (Wu)", symbol="MS'_n", family="pairs", domain="counts", direction="lower",
          bounds=(0.0, 2.0), reference="Wu et al. 2009, Table 5 row 2 (MS' = MS²)",
          formula=r"MS'_n = \frac{m_1 + m_2 - 2m}{m_1 + m_2 - 2 m_1 m_2/M}",
          description="Minkowski's equivalent MS² normalized by its expectation; same formula as J'_n.",
          symmetric=True, n_invariant=False,
          goodness_range=(0.0, 1.0))
def ms_prime_n(t, *, log_base, beta):
    return _j_prime_n(t)


@register("fm_n", name="Normalized Fowlkes–Mallows (Wu)", symbol="FM_n", family="pairs", domain="counts",
          direction="higher", bounds=(-1.0, 1.0), reference="Wu et al. 2009, Table 5 row 3",
          formula=r"FM_n = \frac{m - m_1 m_2/M}{\sqrt{m_1 m_2} - m_1 m_2/M}",
          description="Fowlkes–Mallows normalized by its hypergeometric expectation (0 = chance).",
          symmetric=True, n_invariant=False,
          goodness_range=(0.0, 1.0))
def fm_n(t, *, log_base, beta):
    m, m1, m2, big_m = _sums(t)
    expected = div(m1 * m2, big_m, 0.0)
    den = sqrt(m1) * sqrt(m2) - expected
    value = where(den > 0, div(m - expected, den, 0.0), 0.0)
    return where(_identical_pairs(m, m1, m2), 1.0, value)


def _pair_ratio(m, part, other):
    """m / part: the share of the pairs one partition joins that the other joins too.

    0/0 (``part`` joins no pair) follows this module's rule: 1 when the partitions
    are identical in their pairs (``other`` joins none either), else 0."""
    return where(part == 0, where(other == 0, 1.0, 0.0), div(m, part, 0.0))


@register("pair_precision", name="Pair precision", symbol="P_pair", family="pairs", domain="counts",
          direction="higher", bounds=(0.0, 1.0),
          reference="Manning, Raghavan & Schütze 2008, Introduction to Information Retrieval §16.3",
          formula=r"P_{pair} = \frac{m}{m_2} = \frac{\sum_{ij}\binom{n_{ij}}{2}}{\sum_j\binom{b_j}{2}}",
          description="Of the item pairs a cluster joins, the share that also share a class (TP / (TP + FP)).",
          n_invariant=False)
def pair_precision(t, *, log_base, beta):
    """m/m2. When the clustering joins no pair (all singletons): 1 if the classes join
    none either, else 0 — the rule of this module, so that FM² = P·R everywhere."""
    m, m1, m2, _ = _sums(t)
    return _pair_ratio(m, m2, m1)


@register("pair_recall", name="Pair recall", symbol="R_pair", family="pairs", domain="counts",
          direction="higher", bounds=(0.0, 1.0),
          reference="Manning, Raghavan & Schütze 2008, Introduction to Information Retrieval §16.3",
          formula=r"R_{pair} = \frac{m}{m_1} = \frac{\sum_{ij}\binom{n_{ij}}{2}}{\sum_i\binom{a_i}{2}}",
          description="Of the item pairs a class joins, the share that the clustering joins too (TP / (TP + FN)).",
          n_invariant=False)
def pair_recall(t, *, log_base, beta):
    """m/m1; pair_recall(t) = pair_precision(t.T). When the classes join no pair: 1 if
    the clustering joins none either, else 0."""
    m, m1, m2, _ = _sums(t)
    return _pair_ratio(m, m1, m2)


@register("pair_f", name="Pair F-measure", symbol="F_pair", family="pairs", domain="counts",
          direction="higher", bounds=(0.0, 1.0),
          reference="Manning, Raghavan & Schütze 2008, Introduction to Information Retrieval §16.3 (F_1)",
          formula=r"F_{pair} = \frac{2 P_{pair} R_{pair}}{P_{pair} + R_{pair}} = \frac{2m}{m_1 + m_2}",
          description="Harmonic mean of pair precision and pair recall (Dice's coefficient on joined pairs).",
          symmetric=True, n_invariant=False)
def pair_f(t, *, log_base, beta):
    """2m/(m1 + m2), the harmonic mean of m/m2 and m/m1 in exact integers until the
    division; 1 when neither partition joins a pair (the 0/0 rule of this module)."""
    m, m1, m2, _ = _sums(t)
    return div(2 * m, m1 + m2, 1.0)


# ---------------------------------------------------------------------------------------------
# Gösgens, Tikhonov & Prokhorenkova (2021) and genieclust's adjusted FM, in the four pair counts
# (N11, N10, N01, N00) = (m, m1 − m, m2 − m, M − m1 − m2 + m). On one integer table the sums are
# exact integers (or exact rationals: the chance module's stand-ins) until one final rounding;
# on a TableBatch or a fractional table they are floats.


def _exact(*xs) -> bool:
    return all(isinstance(x, (int, Fraction)) for x in xs)


def _on_sums(t, exact, floats):
    """``exact(m, m1, m2, M)`` on integer (or rational) pair sums, else ``floats`` on float arrays."""
    sums = _sums(t)
    if is_batch(*sums):
        return floats(*(np.asarray(x, dtype=np.float64) for x in sums))
    if _exact(*sums):
        return exact(*sums)
    return float(floats(*(np.asarray([x], dtype=np.float64) for x in sums))[0])


def _cc_terms(m, m1, m2, big_m):
    """(num, D, G): num = N11·N00 − N10·N01 = M·m − m1·m2, D = m1·m2·(M − m1)·(M − m2) (the four
    margins of the 2 × 2 pair table, each read from the sums, so a constant indicator gives an
    exact 0, as in Γ), and G = D − num² written as a sum of non-negative products of the counts
    (a, b, c, d) = (N11, N10, N01, N00), so that it never cancels, in integers or in floats:
    G = 4abcd + (ad + bc)(ab + ac + bd + cd) + (ac + bd)(ab + cd)."""
    a, b, c, d = m, m1 - m, m2 - m, big_m - m1 - m2 + m
    num = big_m * m - m1 * m2
    big_d = m1 * m2 * (big_m - m1) * (big_m - m2)
    g = 4 * a * b * c * d + (a * d + b * c) * (a * b + a * c + b * d + c * d) + (a * c + b * d) * (a * b + c * d)
    return num, big_d, g


def _cc_degenerate(m, m1, m2, big_m):
    """CC where a pair indicator is constant (D = 0): 1 if the partitions agree on every pair,
    −1 if they disagree on every pair (N11 = N00 = 0: one cluster against n singletons,
    [GTP21]'s minimal agreement), else 0 (no correlation)."""
    opposite = both(m == 0, m1 + m2 == big_m)
    return where(_identical_pairs(m, m1, m2), 1.0, where(opposite, -1.0, 0.0))


def _cc_exact(m, m1, m2, big_m) -> float:
    # Γ's formula, but one correctly rounded step on exact pair sums: identical partitions give
    # exactly 1 here, where Γ's product of four roots gives 0.9999999999999998 ([[2, 0], [0, 2]]).
    num, big_d, _ = _cc_terms(m, m1, m2, big_m)
    if big_d == 0:
        return _cc_degenerate(m, m1, m2, big_m)
    # sign(num)·√(num²/D): one correctly rounded division of exact numbers, one square root.
    return math.copysign(math.sqrt(num * num / big_d), num) if num else 0.0


def _cc_floats(m, m1, m2, big_m):
    num, _, _ = _cc_terms(m, m1, m2, big_m)
    # The product of square roots: D itself could overflow a float.
    root = np.sqrt(m1) * np.sqrt(m2) * np.sqrt(big_m - m1) * np.sqrt(big_m - m2)
    value = np.clip(div(num, root, 0.0), -1.0, 1.0)
    return np.where(root > 0, value, _cc_degenerate(m, m1, m2, big_m))


def _cd_exact(m, m1, m2, big_m) -> float:
    num, big_d, g = _cc_terms(m, m1, m2, big_m)
    if big_d == 0:
        return math.acos(_cc_degenerate(m, m1, m2, big_m)) / math.pi
    # arccos(num/√D) = 2·atan2(√(√D − num), √(√D + num)); the factor that would cancel is G/(the
    # other), since (√D − num)(√D + num) = G: no small angle lost (arccos(1 − δ) would be).
    root = math.sqrt(big_d)
    if num >= 0:
        w = root + float(num)
        u = float(g / w)
    else:
        u = root - float(num)
        w = float(g / u)
    return 2.0 * math.atan2(math.sqrt(u), math.sqrt(w)) / math.pi


def _cd_floats(m, m1, m2, big_m):
    num, _, g = _cc_terms(m, m1, m2, big_m)
    root = np.sqrt(m1) * np.sqrt(m2) * np.sqrt(big_m - m1) * np.sqrt(big_m - m2)
    positive = num >= 0
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(positive, root + num, 0.0)
        u = np.where(positive, g / w, root - num)
        w = np.where(positive, w, g / u)
        theta = 2.0 * np.arctan2(np.sqrt(u), np.sqrt(w)) / np.pi
    return np.where(root > 0, theta, np.arccos(_cc_degenerate(m, m1, m2, big_m)) / np.pi)


def _ss1_exact(m, m1, m2, big_m) -> float:
    def ratio(x, part, other):  # this module's 0/0 rule, ratio by ratio
        return Fraction(1 if other == 0 else 0) if part == 0 else Fraction(x) / part

    apart = big_m - m1 - m2 + m  # N00
    total = ratio(m, m1, m2) + ratio(m, m2, m1) + ratio(apart, big_m - m2, big_m - m1) + ratio(
        apart, big_m - m1, big_m - m2)
    return float(total / 4)  # one rounding of the exact rational


def _ss1_floats(m, m1, m2, big_m):
    apart = big_m - m1 - m2 + m
    return (_pair_ratio(m, m1, m2) + _pair_ratio(m, m2, m1) + _pair_ratio(apart, big_m - m2, big_m - m1)
            + _pair_ratio(apart, big_m - m1, big_m - m2)) / 4.0


@register("afm",
          peers={"genieclust": "genieclust.compare_partitions.adjusted_fm_score"},
          name="Adjusted Fowlkes–Mallows index", symbol="AFM", family="pairs", domain="counts",
          direction="higher", bounds=(-1.0, 1.0),
          reference="Hubert & Arabie 1985, eq. 4; genieclust adjusted_fm_score (Gagolewski)",
          formula=r"AFM = \frac{FM - E[FM]}{1 - E[FM]},\ E[FM] = \frac{\sqrt{m_1 m_2}}{M}",
          description="Fowlkes–Mallows corrected for chance under fixed margins (0 = chance, 1 = identical "
                      "pairs); the same number as Wu's FM_n. One side all singletons (genieclust: NaN) "
                      "scores 0, or 1 when both are.",
          symmetric=True, n_invariant=False, goodness_range=(0.0, 1.0))
def afm(t, *, log_base, beta):
    # (m − m1 m2/M)/(√(m1 m2) − m1 m2/M) is fm_n's formula: one implementation, two names.
    return fm_n(t, log_base=log_base, beta=beta)


@register("pair_correlation", name="Pair-counting correlation coefficient", symbol="CC", family="pairs",
          domain="counts", direction="higher", bounds=(-1.0, 1.0),
          reference="Gösgens, Tikhonov & Prokhorenkova 2021, Systematic analysis of cluster similarity "
                    "indices, ICML (a recommended index)",
          formula=r"CC = \frac{N_{11}N_{00} - N_{10}N_{01}}"
                  r"{\sqrt{(N_{11}+N_{10})(N_{11}+N_{01})(N_{00}+N_{10})(N_{00}+N_{01})}}",
          description="Pearson correlation of the two partitions' same-block indicators over all item pairs: "
                      "the same number as Hubert's Γ, except −1 (Γ: 0) for one cluster against singletons, "
                      "so that this pair alone scores the minimum.",
          symmetric=True, n_invariant=False, goodness_range=(0.0, 1.0))
def pair_correlation(t, *, log_base, beta):
    return _on_sums(t, _cc_exact, _cc_floats)


@register("sokal_sneath", name="Sokal & Sneath's first index", symbol="S&S₁", family="pairs",
          domain="counts", direction="higher", bounds=(0.0, 1.0),
          reference="Sokal & Sneath 1963; Gösgens, Tikhonov & Prokhorenkova 2021 (a recommended index)",
          formula=r"S\&S_1 = \tfrac14\Big(\frac{N_{11}}{N_{11}+N_{10}} + \frac{N_{11}}{N_{11}+N_{01}}"
                  r" + \frac{N_{00}}{N_{00}+N_{10}} + \frac{N_{00}}{N_{00}+N_{01}}\Big)",
          description="Mean of pair recall, pair precision and their two counterparts on separated pairs; "
                      "½ in expectation under fixed margins. A 0/0 ratio counts 1 when the other partition "
                      "is degenerate the same way, else 0.",
          symmetric=True, n_invariant=False)
def sokal_sneath(t, *, log_base, beta):
    return _on_sums(t, _ss1_exact, _ss1_floats)


@register("correlation_distance", name="Correlation distance", symbol="CD", family="pairs",
          domain="counts", direction="lower", bounds=(0.0, 1.0),
          reference="Gösgens, Tikhonov & Prokhorenkova 2021 (arccos of CC: a metric)",
          formula=r"CD = \frac{\arccos CC}{\pi}",
          description="The angle between the two partitions' centred pair indicators, over π: 0 identical, "
                      "½ uncorrelated, 1 one cluster against singletons. A distance (triangle inequality).",
          symmetric=True, n_invariant=False)
def correlation_distance(t, *, log_base, beta):
    return _on_sums(t, _cd_exact, _cd_floats)
