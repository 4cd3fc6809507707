"""The symbols the app shows that are not measures: the table's counts and sums, entropies, pair
counts, matchings, the papers' size statistics and the app's own settings.

One row per symbol, written once here (the measures' own symbols, names and formulas are the
registry's: ``metrics.MEASURES``). Read by the Glossary page and by the formulas shown beside
each measure. This is text a user reads, not a computation: the numbers come from ``metrics``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Symbol:
    """A symbol as the app writes it (``text``), in LaTeX (``latex``), its meaning, and the
    group it belongs to (the Glossary's sections)."""

    text: str
    latex: str
    meaning: str
    group: str


TABLE, ENTROPY, PAIRS, MATCHING, SIZES, SETTINGS = (
    "The contingency table", "Entropies and information", "Pairs of items", "Matching classes and clusters",
    "Class and cluster sizes (Wu et al.)", "Settings of the app")

SYMBOLS: tuple[Symbol, ...] = (
    Symbol("C", r"C", "The gold classes (the reference partition): the table's rows.", TABLE),
    Symbol("K", r"K", "The clusters (the partition scored): the table's columns. In a formula that counts, "
           "K is also the number of classes and L the number of clusters (NCA, NPA, PSI).", TABLE),
    Symbol("n", r"n", "The number of items: the sum of every cell of the table. R&R write it N.", TABLE),
    Symbol("n_ij", r"n_{ij}", "The count of cell (i, j): items of class i put in cluster j.", TABLE),
    Symbol("a_i", r"a_i = \sum_j n_{ij}", "The size of class i (its row sum).", TABLE),
    Symbol("b_j", r"b_j = \sum_i n_{ij}", "The size of cluster j (its column sum).", TABLE),
    Symbol("|C|, |K|", r"|C|,\ |K|", "The number of classes and of clusters (rows and columns with items).", TABLE),
    Symbol("p_ij, p_i, p_j", r"p_{ij} = \frac{n_{ij}}{n},\ p_i = \frac{a_i}{n},\ p_j = \frac{b_j}{n}",
           "The table as proportions: a cell, a class and a cluster as shares of the n items.", TABLE),
    Symbol("H(C)", r"H(C) = -\sum_i p_i \log p_i", "The entropy of the classes: how evenly the items spread "
           "over them (0 for one class).", ENTROPY),
    Symbol("H(K)", r"H(K) = -\sum_j p_j \log p_j", "The entropy of the clusters.", ENTROPY),
    Symbol("H(C,K)", r"H(C,K) = -\sum_{ij} p_{ij} \log p_{ij}", "The joint entropy of the table's cells.", ENTROPY),
    Symbol("H(K|C)", r"H(K\mid C) = -\sum_{ij} p_{ij} \log \frac{p_{ij}}{p_i}",
           "The conditional entropy of the clusters given the classes: what remains unknown of an item's cluster "
           "once its class is known (0: every class lies in one cluster). H(C|K), the other way round, is a "
           "measure of its own; so is the mutual information I(C;K).", ENTROPY),
    Symbol("E[I]", r"E[I]", "The expected mutual information of two random partitions with the table's class "
           "and cluster sizes (the permutation model); AMI subtracts it. E[FM] likewise for AFM.", ENTROPY),
    Symbol("log", r"\log", "The logarithm in the sidebar's unit: natural (nats) by default, base 2 (bits) or "
           "10 (bans). Ratios of entropies (h, c, V_β, NMI, NVI …) do not depend on it.", ENTROPY),
    Symbol("M = C(n, 2)", r"M = \binom{n}{2}", "The number of pairs of items, in the pair-counting formulas. "
           "(The measure M is Mirkin's metric.)", PAIRS),
    Symbol("m", r"m = \sum_{ij} \binom{n_{ij}}{2}", "Pairs together in both partitions: same class and same "
           "cluster (N11).", PAIRS),
    Symbol("m_1", r"m_1 = \sum_i \binom{a_i}{2}", "Pairs in the same class (N11 + N10).", PAIRS),
    Symbol("m_2", r"m_2 = \sum_j \binom{b_j}{2}", "Pairs in the same cluster (N11 + N01).", PAIRS),
    Symbol("N11, N10, N01, N00", r"N_{11},\ N_{10},\ N_{01},\ N_{00}",
           "Pairs by agreement: together in both; same class but different clusters; same cluster but different "
           "classes; apart in both. N11 = m, N10 = m_1 − m, N01 = m_2 − m, N00 = M − m_1 − m_2 + m.", PAIRS),
    Symbol("σ", r"\sigma", "A one-to-one matching of classes and clusters; max over σ is the best such matching "
           "(the Hungarian algorithm finds it).", MATCHING),
    Symbol("F_−", r"F_-", "Wu et al.'s lower bound of the F-measure for the table's class sizes (their "
           "Procedure 1); F_n rescales F between it and 1.", MATCHING),
    Symbol("h(k), h(c)", r"h(k),\ h(c)", "In Dom's Q_0 and Q_2: the size of cluster k, of class c.", MATCHING),
    Symbol("CV", r"CV = \frac{s}{\bar x}", "The coefficient of variation of a list of sizes: their sample "
           "standard deviation over their mean (Wu et al. §3.1).", SIZES),
    Symbol("CV_0", r"CV_0", "The CV of the class sizes (the data's skew).", SIZES),
    Symbol("CV_1", r"CV_1", "The CV of the cluster sizes (the clustering's skew).", SIZES),
    Symbol("DCV", r"DCV = CV_1 - CV_0", "How much more uniform the clusters are than the classes: negative when "
           "the clustering evens out the sizes (K-means' uniform effect).", SIZES),
    Symbol("K*", r"K^*", "An upper bound on the number of clusters of both partitions (Meilă: VI ≤ 2 log K* when "
           "K* ≤ √n).", SIZES),
    Symbol("β", r"\beta", "V_β's weight: β > 1 weights completeness more, β < 1 homogeneity; β = 1 is the plain "
           "V-measure. Set in the sidebar.", SETTINGS),
    Symbol("↑, ↓", r"\uparrow,\ \downarrow", "The measure's better direction: ↑ higher is better (similarities), "
           "↓ lower is better (distances and errors).", SETTINGS),
    Symbol("goodness", r"\text{goodness} \in [0, 1]", "The app's common scale for every measure (1 = best): its "
           "value mapped over its range, distances flipped (the registry's Measure.goodness).", SETTINGS),
)
