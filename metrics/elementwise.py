"""Element-wise measures: BCubed precision, recall and F (Bagga & Baldwin 1998;
Amigó, Gonzalo, Artiles & Verdejo 2009, "A comparison of extrinsic clustering
evaluation metrics based on formal constraints", Inf. Retrieval 12).

For item e, precision is the fraction of e's cluster that shares e's class and
recall the fraction of e's class that shares e's cluster; both are averaged over
items. On the table: P = (1/n) Σ_ij n_ij² / b_j and R = (1/n) Σ_ij n_ij² / a_i.
"""

from __future__ import annotations

from ._arith import div
from .registry import register


def bcubed(t):
    """(precision, recall); both 1 for an empty table. Computed once per table."""
    return t.memo("bcubed", _bcubed)


def _bcubed(t):
    sq = t.cell_values * t.cell_values
    precision = div(t.cell_total(div(sq, t.cell_cluster_sizes, 0.0)), t.n, 1.0)
    recall = div(t.cell_total(div(sq, t.cell_class_sizes, 0.0)), t.n, 1.0)
    return precision, recall


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
