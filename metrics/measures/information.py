"""Entropy-based measures.

Notation: C the gold classes (rows), K the clusters (columns), n items,
H(C), H(K), H(C,K) the entropies of the row, column and cell distributions,
I(C;K) = H(C) + H(K) − H(C,K) the mutual information. The table computes these
once (in nats); measures whose value carries a unit divide by log(log_base).

References
----------
[RH07] Rosenberg & Hirschberg (2007), V-Measure: a conditional entropy-based
       external cluster evaluation measure. EMNLP-CoNLL.
[RR09] Reichart & Rappoport (2009), The NVI clustering evaluation measure. CoNLL.
[Dom01] Dom (2001), An information-theoretic external cluster-validity measure. IBM RJ 10219.
[Wu09] Wu, Xiong & Chen (2009), Adapting the right measures for K-means clustering. KDD.
[Utt14] Utt, Springorum, Köper & Schulte im Walde (2014), Fuzzy V-Measure. LREC.
[VEB10] Vinh, Epps & Bailey (2010), Information theoretic measures for clusterings
        comparison. JMLR 11.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .._lazy import lazy_function
from ..core.arith import both, div, is_batch, sqrt, where
from ..core.cells import distinct_sizes
from ..core.registry import register
from ..core.stats import TableStats
from .expected import emi_out_of_budget, expected_mi_batch, expected_mutual_information

if TYPE_CHECKING:
    from scipy.special import betaln, digamma, polygamma
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    betaln = lazy_function("scipy.special", "betaln")
    digamma = lazy_function("scipy.special", "digamma")
    polygamma = lazy_function("scipy.special", "polygamma")

INF = math.inf


def _unit(log_base: float) -> float:
    return math.log(log_base)


def homogeneity_completeness(t: TableStats):
    """(h, c) of [RH07] eqs. 1–2: h = 1 − H(C|K)/H(C), 1 when H(C) = 0;
    c = 1 − H(K|C)/H(K), 1 when H(K) = 0."""
    return 1.0 - div(t.h_c_given_k, t.h_c, 0.0), 1.0 - div(t.h_k_given_c, t.h_k, 0.0)


def _v_beta(h, c, beta: float):
    return div((1.0 + beta) * h * c, beta * h + c, 0.0)


@register("homogeneity", name="Homogeneity", symbol="h", family="information", direction="higher",
          bounds=(0.0, 1.0), reference="Rosenberg & Hirschberg 2007, eq. 1",
          formula=r"h = 1 - \frac{H(C\mid K)}{H(C)}\quad(1 \text{ if } H(C)=0)",
          description="How far each cluster holds members of a single class.",
          sklearn="homogeneity_score")
def homogeneity(t, *, log_base, beta):
    return homogeneity_completeness(t)[0]


@register("completeness", name="Completeness", symbol="c", family="information", direction="higher",
          bounds=(0.0, 1.0), reference="Rosenberg & Hirschberg 2007, eq. 2",
          formula=r"c = 1 - \frac{H(K\mid C)}{H(K)}\quad(1 \text{ if } H(K)=0)",
          description="How far each class is kept whole inside a single cluster.",
          sklearn="completeness_score")
def completeness(t, *, log_base, beta):
    return homogeneity_completeness(t)[1]


@register("v_measure", name="V-measure", symbol="V_β", family="information", direction="higher",
          bounds=(0.0, 1.0), reference="Rosenberg & Hirschberg 2007, §2",
          formula=r"V_\beta = \frac{(1+\beta)\,h\,c}{\beta h + c}",
          description="Weighted harmonic mean of homogeneity and completeness (β > 1 favours completeness).",
          symmetric=True, sklearn="v_measure_score", uses_beta=True,
          beta_parts=(homogeneity_completeness, _v_beta))
def v_measure(t, *, log_base, beta):
    # Symmetric only for β = 1; the registry flag describes the default.
    h, c = homogeneity_completeness(t)
    return _v_beta(h, c, beta)


def _joint_h_c(t: TableStats):
    """(h, c) normalised by the joint entropy (Utt et al. 2014): 1 − H(C|K)/H(C,K), 1 − H(K|C)/H(C,K)."""
    return 1.0 - div(t.h_c_given_k, t.h_ck, 0.0), 1.0 - div(t.h_k_given_c, t.h_ck, 0.0)


@register("fuzzy_v_joint", name="V-measure, joint-entropy normalisation", symbol="V_β^joint",
          family="information", direction="higher", bounds=(0.0, 1.0),
          reference="Utt et al. 2014, eqs. 2–3 and footnote 1",
          formula=r"h = 1 - \frac{H(C\mid K)}{H(C,K)},\ c = 1 - \frac{H(K\mid C)}{H(C,K)}",
          description="V with homogeneity and completeness normalised by the joint entropy, "
                      "as Utt et al. write it (their printed numbers use Rosenberg & Hirschberg's).",
          symmetric=True, uses_beta=True, beta_parts=(_joint_h_c, _v_beta))
def fuzzy_v_joint(t, *, log_base, beta):
    """V_β with h = 1 − H(C|K)/H(C,K) and c = 1 − H(K|C)/H(C,K) (1 when H(C,K) = 0).

    Finding: Utt et al. (2014, eqs. 2–3, footnote 1) state this joint-entropy
    normalisation as a correction of [RH07]. Their worked example (Tables 1–2) does
    not follow it: on the paper's fuzzy table (mass split over gold classes) it
    gives V = 0.4586, whereas the paper prints fuzzy V = .047. Rosenberg &
    Hirschberg's normalisation (h = 1 − H(C|K)/H(C)), i.e. ``v_measure`` on the
    same table, gives 0.04758 — the printed .047, truncated. So ``v_measure`` is
    the one that reproduces the paper and this key makes the stated variant
    available for comparison. The paper's "traditional V = .014" is reproduced by
    neither: counting every (class, cluster) membership pair gives 0.058 with
    ``v_measure`` and 0.4617 with this one (see tests/test_paper_values.py for the
    other countings tried). Swapping the roles only swaps h and c, so V_1 does not
    depend on the orientation.
    """
    h, c = _joint_h_c(t)
    return _v_beta(h, c, beta)  # H(C,K) = 0 gives h = c = 1, hence 1.


@register("mutual_info", name="Mutual information", symbol="I(C;K)", family="information",
          direction="higher", bounds=(0.0, INF), reference="Wu et al. 2009, Table 1 (MI)",
          formula=r"I(C;K) = \sum_{ij} p_{ij}\log\frac{p_{ij}}{p_i p_j}",
          description="Information the clustering carries about the classes, in units of the log base.",
          uses_log_base=True, symmetric=True, sklearn="mutual_info_score")
def mutual_info(t, *, log_base, beta):
    return t.mi / _unit(log_base)


def _nmi(t: TableStats, normalizer):
    # scikit-learn's convention: two trivial partitions (both entropies 0) agree
    # perfectly; otherwise no shared information scores 0 (I = 0 whenever the
    # normalizer is 0 with one entropy positive).
    return where(t.h_c + t.h_k <= 0, 1.0, div(t.mi, normalizer, 0.0))


def _register_nmi(key, symbol, name, formula, average, sklearn_method):
    @register(key, name=f"NMI ({name})", symbol=symbol, family="information",
              direction="higher", bounds=(0.0, 1.0),
              reference="Vinh, Epps & Bailey 2010, Table 2; scikit-learn normalized_mutual_info_score",
              formula=formula,
              description=f"Mutual information divided by the {name} of H(C) and H(K)."
              if key != "nmi_joint" else "Mutual information divided by the joint entropy H(C,K).",
              symmetric=True,
              sklearn=f"normalized_mutual_info_score:{sklearn_method}" if sklearn_method else None)
    def nmi(t, *, log_base, beta):
        return _nmi(t, average(t))

    nmi.__name__ = key
    return nmi


_register_nmi("nmi_arithmetic", "NMI_arith", "arithmetic mean", r"\frac{2I}{H(C)+H(K)}",
              lambda t: (t.h_c + t.h_k) / 2, "arithmetic")
_register_nmi("nmi_geometric", "NMI_sqrt", "geometric mean", r"\frac{I}{\sqrt{H(C)H(K)}}",
              lambda t: sqrt(t.h_c * t.h_k), "geometric")
_register_nmi("nmi_min", "NMI_min", "minimum", r"\frac{I}{\min(H(C),H(K))}", lambda t: np.minimum(t.h_c, t.h_k), "min")
_register_nmi("nmi_max", "NMI_max", "maximum", r"\frac{I}{\max(H(C),H(K))}", lambda t: np.maximum(t.h_c, t.h_k), "max")
_register_nmi("nmi_joint", "NMI_joint", "joint entropy", r"\frac{I}{H(C,K)}", lambda t: t.h_ck, None)


def expected_mi(t):
    """E[I(C;K)] in nats under the hypergeometric model, for t's margins: a number
    for a table, an array for a batch (tables sharing their margins share one
    computation). Computed once per table and shared by the four AMI variants."""
    if is_batch(t.n):
        return t.memo("expected_mi", lambda b: expected_mi_batch(b.row_sums, b.col_sums))
    return t.memo("expected_mi", expected_mutual_information)


def _forced_margins(t):
    """Every table with t's margins is t up to the order of rows and columns (one
    class or one cluster, or all singletons on one side): then I = E[I] exactly."""
    forced = [t.n_classes <= 1, t.n_clusters <= 1, t.n_classes == t.n, t.n_clusters == t.n]
    return np.logical_or.reduce(forced) if is_batch(*forced) else any(forced)


def _ami(t, normalizer):
    """(I − E[I]) / (normalizer − E[I]), scikit-learn's ``adjusted_mutual_info_score``.

    As in scikit-learn, two trivial partitions score 1 and a vanishing denominator
    keeps its sign at machine epsilon. Identical partitions score 1. Where the
    margins allow only one table up to relabelling (``_forced_margins``), I = E[I]
    and the formula is 0 — or 0/0 when I also reaches the normaliser; then it takes
    the NMI's value at that table: 1 when I = normaliser (one partition refines the
    other as far as the normaliser asks, e.g. all-singleton clusters under ``min``),
    0 otherwise. scikit-learn's result there depends on rounding (it gives 2/3 for
    classes [0, 0, 1, 1] and singleton clusters under ``min``).
    """
    emi = expected_mi(t)
    identical = both(t.n_cells == t.n_classes, t.n_cells == t.n_clusters)
    eps = np.finfo(np.float64).eps
    denom = normalizer - emi
    denom = where(denom < 0, np.minimum(denom, -eps), np.maximum(denom, eps))
    formula = (t.mi - emi) / denom
    forced_value = where(_nmi(t, normalizer) >= 1.0 - 1e-12, 1.0, 0.0)
    return where(identical, 1.0, where(_forced_margins(t), forced_value, formula))


_AMI_DOC = ("Mutual information corrected for chance under the hypergeometric model (0 = chance, "
            "1 = identical), normalised by the {} of H(C) and H(K).")


@register("ami", name="Adjusted mutual information", symbol="AMI", family="information",
          direction="higher", bounds=(-1.0, 1.0),
          reference="Vinh, Epps & Bailey 2010, eq. 24 (arithmetic mean)",
          formula=r"\frac{I - E[I]}{\tfrac12(H(C)+H(K)) - E[I]}",
          description="Mutual information corrected for chance under the hypergeometric model (0 = chance).",
          symmetric=True, n_invariant=False, sklearn="adjusted_mutual_info_score",
          domain="integer", limit=emi_out_of_budget,
          goodness_range=(0.0, 1.0))
def ami(t, *, log_base, beta):
    """AMI with the arithmetic-mean normaliser (scikit-learn's default).

    The expected mutual information is exact (see :mod:`metrics.measures.expected`); the
    degenerate cases are those of :func:`_ami`. Identical partitions score 1 — also
    when every relabelling is identical too (all singletons), where the formula is
    0/0 (I = E[I] = the normaliser) and scikit-learn's result depends on rounding.
    """
    return _ami(t, (t.h_c + t.h_k) / 2)


@register("ami_min", name="Adjusted mutual information (minimum)", symbol="AMI_min", family="information",
          direction="higher", bounds=(-INF, 1.0),
          reference="Vinh, Epps & Bailey 2010, Table 2 (AMI_min); scikit-learn average_method='min'",
          formula=r"\frac{I - E[I]}{\min(H(C),H(K)) - E[I]}",
          description=_AMI_DOC.format("minimum") + " Unbounded below.",
          symmetric=True, n_invariant=False, sklearn="adjusted_mutual_info_score:min",
          domain="integer", limit=emi_out_of_budget, goodness_range=(0.0, 1.0))
def ami_min(t, *, log_base, beta):
    """AMI normalised by min(H(C), H(K)): 1 as soon as one partition refines the
    other. It has no lower bound: classes of sizes (n−1, 1) against one pair and
    n−2 singletons score −(n/2 − 1) when the lone item sits in the pair, because
    E[I] is then within 2/n of the normaliser."""
    return _ami(t, np.minimum(t.h_c, t.h_k))


@register("ami_geometric", name="Adjusted mutual information (geometric mean)", symbol="AMI_sqrt",
          family="information", direction="higher", bounds=(-1.0, 1.0),
          reference="Vinh, Epps & Bailey 2010, Table 2 (AMI_sqrt); scikit-learn average_method='geometric'",
          formula=r"\frac{I - E[I]}{\sqrt{H(C)H(K)} - E[I]}",
          description=_AMI_DOC.format("geometric mean"),
          symmetric=True, n_invariant=False, sklearn="adjusted_mutual_info_score:geometric",
          domain="integer", limit=emi_out_of_budget, goodness_range=(0.0, 1.0))
def ami_geometric(t, *, log_base, beta):
    """AMI normalised by √(H(C)H(K)). The lower bound −1 is the one declared for
    ``ami``: not proved, but an exhaustive search of small tables
    (tests/test_new_measures.py) finds nothing below −0.55 for the arithmetic,
    geometric and max normalisers."""
    return _ami(t, sqrt(t.h_c * t.h_k))


@register("ami_max", name="Adjusted mutual information (maximum)", symbol="AMI_max", family="information",
          direction="higher", bounds=(-1.0, 1.0),
          reference="Vinh, Epps & Bailey 2010, Table 2 (AMI_max); scikit-learn average_method='max'",
          formula=r"\frac{I - E[I]}{\max(H(C),H(K)) - E[I]}",
          description=_AMI_DOC.format("maximum"),
          symmetric=True, n_invariant=False, sklearn="adjusted_mutual_info_score:max",
          domain="integer", limit=emi_out_of_budget, goodness_range=(0.0, 1.0))
def ami_max(t, *, log_base, beta):
    """AMI normalised by max(H(C), H(K)), the largest of the four normalisers, so
    the smallest adjusted values above chance; 1 − NMI_max is a true metric
    (Vinh et al. 2010, Table 2)."""
    return _ami(t, np.maximum(t.h_c, t.h_k))


@register("vi", name="Variation of information", symbol="VI", family="information", direction="lower",
          bounds=(0.0, INF), reference="Meilă 2007; Rosenberg & Hirschberg 2007 §3; Wu et al. 2009 Table 1",
          formula=r"VI = H(C\mid K) + H(K\mid C)",
          description="Information lost and gained going from classes to clusters; a metric, in units of the log base; "
                      "at most log n for n items (Meilă 2007).",
          uses_log_base=True, symmetric=True,
          range_note="[0, ∞) over all tables, because no bound holds for every n. For n items VI ≤ log n "
                     "(reached by one cluster against n singletons); when both partitions have at most K* ≤ √n "
                     "clusters, VI ≤ 2 log K* (Meilă 2007, §4). Reichart & Rappoport's [0, 2 log N] is true "
                     "but not tight.")
def vi(t, *, log_base, beta):
    return (t.h_c_given_k + t.h_k_given_c) / _unit(log_base)


@register("nvi", name="Normalized VI", symbol="NVI", family="information", direction="lower",
          bounds=(0.0, INF), reference="Reichart & Rappoport 2009, §4",
          formula=r"NVI = \frac{VI}{H(C)}\quad(H(K) \text{ if } H(C)=0)",
          description="VI divided by the class entropy: 0 perfect, 1 as bad as a single cluster.",
          uses_log_base=True)
def nvi(t, *, log_base, beta):
    """NVI = VI/H(C); H(K) when H(C) = 0 ([RR09] §4), so it is 0 only for a perfect
    match. The degenerate value is an entropy, hence in units of ``log_base``."""
    return where(t.h_c <= 0, t.h_k / _unit(log_base), div(t.h_c_given_k + t.h_k_given_c, t.h_c, 0.0))


@register("nvik", name="VI normalized by H(K)", symbol="NVIK", family="information", direction="lower",
          bounds=(0.0, INF), reference="Reichart & Rappoport 2009, §4 (H(K) normalization)",
          formula=r"NVIK = \frac{VI}{H(K)}\quad(H(C) \text{ if } H(K)=0)",
          description="VI divided by the cluster entropy; Reichart & Rappoport's rejected alternative to NVI.",
          uses_log_base=True)
def nvik(t, *, log_base, beta):
    return where(t.h_k <= 0, t.h_c / _unit(log_base), div(t.h_c_given_k + t.h_k_given_c, t.h_k, 0.0))


@register("vi_log_n", name="VI / log n", symbol="VI/log n", family="information", direction="lower",
          bounds=(0.0, 1.0), reference="Meilă 2007; Rosenberg & Hirschberg 2007 §3",
          formula=r"\frac{VI}{\log n}",
          description="VI scaled into [0, 1] by its upper bound log n (no longer n-invariant).",
          symmetric=True, n_invariant=False,
          domain="counts")
def vi_log_n(t, *, log_base, beta):
    # VI ≤ log n holds when every unit of mass is an item: hence the "counts" domain.
    return div(t.h_c_given_k + t.h_k_given_c, t.log_n, 0.0)  # n ≤ 1: log n = 0, VI = 0


@register("vi_n", name="Normalized VI (Wu)", symbol="VI_n", family="information", direction="lower",
          bounds=(0.0, 1.0), reference="Wu, Xiong & Chen 2009, Table 5 row 5, Lemma 4",
          formula=r"VI_n = \frac{VI}{H(C)+H(K)} = 1 + \frac{2\,I(C;K)}{-H(C)-H(K)}",
          description="VI divided by H(C)+H(K), Wu et al.'s bound (tighter than 2 log max(K, K′)); "
                      "VI_n + NMI_arithmetic = 1.",
          symmetric=True)
def vi_n(t, *, log_base, beta):
    # Fallback 1 makes VI_n = 0 when H(C) + H(K) = 0 (two trivial partitions).
    return 1.0 - div(2.0 * t.mi, t.h_c + t.h_k, 1.0)


@register("conditional_entropy", name="Conditional entropy", symbol="H(C|K)", family="information",
          direction="lower", bounds=(0.0, INF), reference="Wu et al. 2009, Table 1 (E) and §3.4",
          formula=r"H(C\mid K) = -\sum_{ij} p_{ij}\log\frac{p_{ij}}{p_j}",
          description="Uncertainty left about the class once the cluster is known (Wu et al.'s entropy E).",
          uses_log_base=True)
def conditional_entropy(t, *, log_base, beta):
    return t.h_c_given_k / _unit(log_base)


@register("entropy", name="Entropy (Zhao–Karypis)", symbol="E", family="information", direction="lower",
          bounds=(0.0, 1.0), reference="Zhao & Karypis 2001, as given by Rosenberg & Hirschberg 2007 §3",
          formula=r"E = \sum_r \frac{n_r}{n}\Big(-\frac{1}{\log q}\sum_i \frac{n_{ir}}{n_r}\log\frac{n_{ir}}{n_r}\Big)",
          description="Average class entropy inside the clusters, normalized by log of the number of classes.")
def zk_entropy(t, *, log_base, beta):
    """H(C|K) / log q with q the number of classes; 0 when q = 1."""
    return div(t.h_c_given_k, np.log(np.maximum(t.n_classes, 1)), 0.0)


# Stirling's error lgamma(m + 1) − (m log m − m + ½ log 2πm) at m = 0 … 15 (0 at m = 0, where
# log C takes no such term): past 15 its series below is exact to the last bit.
_STIRLING_ERROR = np.array([0.0] + [math.lgamma(m + 1) - (m * math.log(m) - m + 0.5 * math.log(2 * math.pi * m))
                                    for m in range(1, 16)])


def _stirling_error(m: np.ndarray) -> np.ndarray:
    """lgamma(m + 1) − (m log m − m + ½ log 2πm) for whole m ≥ 0 (Loader's stirlerr): the table
    up to 15, then 1/12m − 1/360m³ + 1/1260m⁵ − 1/1680m⁷ + 1/1188m⁹."""
    out = np.empty(m.shape)
    small = m <= 15
    out[small] = _STIRLING_ERROR[m[small].astype(np.int64)]
    r = 1.0 / m[~small]
    r2 = r * r
    out[~small] = r * (1 / 12 - r2 * (1 / 360 - r2 * (1 / 1260 - r2 * (1 / 1680 - r2 / 1188))))
    return out


def _log_binomial(s: np.ndarray, k: np.ndarray) -> np.ndarray:
    """log C(s + k, k) for whole s, k ≥ 1, through Stirling's formula with its error terms:
    k log1p(s/k) + s log1p(k/s) + ½ log((s + k) / (2π s k)) + E(s + k) − E(s) − E(k).

    Why: the two leading terms are positive and carry the value, so it keeps its relative
    precision at any size — within 8·10^-16 of 40-digit mpmath from C(2, 1) to sizes of 10^15,
    where scipy's betaln drifted to 10^-12 at sizes of 10^5–10^6 with 10^2–10^3 classes — and
    Q0 needs no scipy.special for whole sizes."""
    n = s + k
    return (k * np.log1p(s / k) + s * np.log1p(k / s) + 0.5 * np.log(n / (2 * np.pi * s * k))
            + _stirling_error(n) - _stirling_error(s) - _stirling_error(k))


def _model_cost(sizes: np.ndarray, n_classes, n):
    """(1/n) Σ log C(s + |C| − 1, |C| − 1) in nats: whole sizes by :func:`_log_binomial`,
    non-integer (fuzzy) sizes through the log-beta function. Empty (padded) sizes add
    log C(k, k) = 0, and a single class (k = 0) costs nothing.

    Why log-beta for fuzzy sizes: log C(s + k, k) = −log(s + k + 1) − log B(s + 1, k + 1), and scipy's betaln
    keeps its precision when s ≫ k, where log Γ(s + k + 1) − log Γ(s + 1) subtracts two numbers
    of size s log s (a cluster of 10^18 items lost every digit, and Q2 rose past 1).

    A fuzzy size s below 10^-3 takes the Taylor series Σ_{m=1..5} s^m/m! (ψ^(m−1)(k + 1) − ψ^(m−1)(1))
    (relative error of order s^5 ≤ 10^-15): betaln loses digits there (2·10^-10 at s = 10^-5), and
    below ~10^-16 its rounding is larger than the value (scipy 1.11 gives a cost ~10^-16 for
    s ~ 10^-290, which divided by n made Q0 ~10^274)."""
    shared = _costs_of_distinct_sizes(sizes, n_classes)
    if shared is not None:
        return div(float(shared.sum()), n, 0.0)
    whole = np.asarray(sizes)
    if whole.ndim == 1 and whole.dtype.kind in "iu" and whole.size and not np.ndim(n_classes) and n_classes > 1 \
            and whole.min() > 0:  # one table's sizes: the general path's terms, without its masks
        s = whole.astype(np.float64)
        return div(float(_log_binomial(s, np.full(s.size, float(n_classes) - 1.0)).sum()), n, 0.0)
    s = np.asarray(sizes, dtype=np.float64)
    k = np.asarray(n_classes, dtype=np.float64)[..., None] - 1.0
    k = np.maximum(k, 0.0)
    # log C(s + k, k) is exactly 0 when s = 0 (an empty, padded size) or k = 0 (one class).
    k = np.broadcast_to(k, s.shape)
    positive = (s > 0) & (k > 0)
    whole = positive & (s == np.floor(s))
    logs = np.zeros(s.shape)
    if whole.any():
        logs[whole] = _log_binomial(s[whole], k[whole])
    fuzzy = positive & ~whole
    if fuzzy.any():
        logs = np.where(fuzzy, -np.log(s + k + 1) - betaln(np.where(fuzzy, s, 1.0) + 1, k + 1), logs)
        tiny = fuzzy & (s < 1e-3)
        if np.any(tiny):
            series = s * (digamma(k + 1.0) - digamma(1.0))
            for m in range(2, 6):
                series = series + s ** m / math.factorial(m) * (polygamma(m - 1, k + 1.0) - polygamma(m - 1, 1.0))
            logs = np.where(tiny, series, logs)
    total = logs.sum(axis=-1)
    return div(total if np.ndim(total) else float(total), n, 0.0)


def _costs_of_distinct_sizes(sizes, n_classes) -> np.ndarray | None:
    """:func:`_model_cost`'s log C(s + k, k) of each whole size of one table, computed once per
    distinct size and gathered back into the sizes' order (so summed as before, to the last bit);
    None where that does not pay (fewer than four sizes a distinct one) or does not apply (fuzzy
    or batched sizes). Why: 10^5 clusters hold a few hundred distinct sizes, and Stirling's
    series over all of them was a quarter of evaluating every measure of such a table."""
    sizes = np.asarray(sizes)
    if sizes.ndim != 1 or sizes.dtype.kind not in "iu" or np.ndim(n_classes) or sizes.size < 64 \
            or sizes.max() > 4 * sizes.size + 1024:
        return None
    values = distinct_sizes(sizes)[0]
    # Gathered through a table indexed by size: only where it is no bigger than a few times the sizes.
    if 4 * values.size > sizes.size or values[-1] > 4 * sizes.size + 1024:
        return None
    k = max(float(n_classes) - 1.0, 0.0)
    s = values.astype(np.float64)
    logs = np.zeros(values.size)
    positive = s > 0
    if k > 0 and positive.any():
        logs[positive] = _log_binomial(s[positive], np.full(int(positive.sum()), k))
    by_size = np.zeros(int(values[-1]) + 1)
    by_size[values] = logs
    return by_size[sizes]


def _cluster_model_cost(t):
    """Q0's model cost of the clusters, once per table (Q0 and Q2 both read it); computed
    afresh for a stand-in table (metrics.chance's expected inputs), which keeps no memo."""
    def cost(t):
        return _model_cost(t.col_sums, t.n_classes, t.n)

    return t.memo("cluster_model_cost", cost) if isinstance(t, TableStats) else cost(t)


@register("q0", name="Dom's Q0", symbol="Q_0", family="information", direction="lower",
          bounds=(0.0, INF), reference="Dom 2001, §3; Rosenberg & Hirschberg 2007 §3",
          formula=r"Q_0 = H(C\mid K) + \frac1n\sum_{k}\log\binom{h(k)+|C|-1}{|C|-1}",
          description="Conditional entropy plus the cost of describing the clustering model (MDL).",
          uses_log_base=True,
          n_invariant=False)
def q0(t, *, log_base, beta):
    """Q0 = H(C|K) + (1/n) Σ_k log C(h(k)+|C|−1, |C|−1), h(k) the cluster sizes,
    |C| the number of (non-empty) classes. Dom reports bits (log_base=2)."""
    return (t.h_c_given_k + _cluster_model_cost(t)) / _unit(log_base)


@register("q2", name="Dom's Q2", symbol="Q_2", family="information", direction="higher",
          bounds=(0.0, 1.0), reference="Dom 2001, §3; Rosenberg & Hirschberg 2007 §3",
          formula=r"Q_2 = \frac{\frac1n\sum_{c}\log\binom{h(c)+|C|-1}{|C|-1}}{Q_0}",
          description="Q0 normalized into (0, 1]: the smallest possible Q0 (the classes themselves) over Q0.",
          n_invariant=False)
def q2(t, *, log_base, beta):
    """Q2 = [(1/n) Σ_c log C(h(c)+|C|−1, |C|−1)] / Q0: the numerator is Q0 of the
    perfect clustering, so Q2 ∈ (0, 1]; 1 when Q0 = 0 (a single class)."""
    q0_nats = t.h_c_given_k + _cluster_model_cost(t)
    return div(_model_cost(t.row_sums, t.n_classes, t.n), q0_nats, 1.0)
