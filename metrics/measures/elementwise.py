"""Element-wise measures: BCubed precision, recall and F (Bagga & Baldwin 1998;
Amigó, Gonzalo, Artiles & Verdejo 2009, "A comparison of extrinsic clustering
evaluation metrics based on formal constraints", Inf. Retrieval 12), and the
element-centric similarity (Gates, Wood, Hetrick & Ahn 2019).

For item e, precision is the fraction of e's cluster that shares e's class and
recall the fraction of e's class that shares e's cluster; both are averaged over
items. On the table: P = (1/n) Σ_ij n_ij² / b_j and R = (1/n) Σ_ij n_ij² / a_i.
"""

from __future__ import annotations

import numpy as np

from ..core.arith import div
from ..core.registry import register


def bcubed(t):
    """(precision, recall); both 1 for an empty table. Computed once per table."""
    p_sum, r_sum, _ = square_sums(t)
    return div(p_sum, t.n, 1.0), div(r_sum, t.n, 1.0)


def square_sums(t):
    """(Σ n_ij²/b_j, Σ n_ij²/a_i, Σ n_ij²/max(a_i, b_j)): BCubed's and the
    element-centric similarity's sums, in one pass over the cells."""
    return t.memo("square_sums", _square_sums)


def _square_sums(t):
    fast = t.compiled_cell_stats  # a big grid table, with numba
    return fast[:3] if fast is not None else t.cell_sums(_square_terms)


def _square_terms(n, a, b):
    sq = n * n
    return div(sq, b, 0.0), div(sq, a, 0.0), div(sq, np.maximum(a, b), 0.0)


@register("bcubed_precision", name="BCubed precision", symbol="P_B³", family="elementwise",
          direction="higher", bounds=(0.0, 1.0), reference="Bagga & Baldwin 1998; Amigó et al. 2009",
          formula=r"P_{B^3} = \frac1n\sum_{ij}\frac{n_{ij}^2}{b_j}",
          description="Average over items of the share of their cluster that is in their class.")
def bcubed_precision(t, *, log_base, beta):
    return bcubed(t)[0]


@register("bcubed_recall", name="BCubed recall", symbol="R_B³", family="elementwise",
          direction="higher", bounds=(0.0, 1.0), reference="Bagga & Baldwin 1998; Amigó et al. 2009",
          formula=r"R_{B^3} = \frac1n\sum_{ij}\frac{n_{ij}^2}{a_i}",
          description="Average over items of the share of their class that is in their cluster.")
def bcubed_recall(t, *, log_base, beta):
    return bcubed(t)[1]


@register("bcubed_f", name="BCubed F", symbol="F_B³", family="elementwise", direction="higher",
          bounds=(0.0, 1.0), reference="Amigó et al. 2009",
          formula=r"F_{B^3} = \frac{2 P_{B^3} R_{B^3}}{P_{B^3} + R_{B^3}}",
          description="Harmonic mean of BCubed precision and recall.", symmetric=True)
def bcubed_f(t, *, log_base, beta):
    p, r = bcubed(t)
    return div(2 * p * r, p + r, 0.0)


@register("element_centric", name="Element-centric similarity", symbol="S_EC", family="elementwise",
          direction="higher", bounds=(0.0, 1.0),
          reference="Gates, Wood, Hetrick & Ahn 2019, Element-centric clustering comparison "
                    "unifies overlaps and hierarchy, Scientific Reports 9:8574",
          formula=r"S = \frac1n\sum_{ij}\frac{n_{ij}^2}{\max(a_i, b_j)}",
          description="Average over items of how alike their class and their cluster look from the item: "
                      "1 − half the L1 distance between uniform affinities over the two.",
          symmetric=True)
def element_centric(t, *, log_base, beta):
    """Element-centric similarity of two hard partitions, on the table's cells.

    Gates et al. give item e the affinity vectors p_e (from the classes) and q_e
    (from the clusters) — personalised PageRank on the clustering graph, which for a
    partition is (1 − α) at e plus α spread evenly over e's block — and score it
    S_e = 1 − ‖p_e − q_e‖₁ / (2α); S is the mean of S_e. The (1 − α) terms cancel, so
    for partitions α drops out. For e in cell (i, j) the uniform vectors differ by
    |1/a_i − 1/b_j| on the n_ij shared items, 1/a_i on the a_i − n_ij class-only
    ones and 1/b_j on the b_j − n_ij cluster-only ones:
    ‖·‖₁ = n_ij|1/a_i − 1/b_j| + 2 − n_ij(1/a_i + 1/b_j) = 2 − 2 n_ij / max(a_i, b_j),
    so S_e = n_ij / max(a_i, b_j), and summing over the n_ij items of each cell,
    S = (1/n) Σ_ij n_ij² / max(a_i, b_j). Between BCubed precision (÷ b_j) and recall
    (÷ a_i), it takes the stricter of the two per cell. 1 for an empty table.
    Fractional (fuzzy) tables use the same cell formula, as BCubed does.
    """
    return div(square_sums(t)[2], t.n, 1.0)
