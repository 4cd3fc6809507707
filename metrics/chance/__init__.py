"""Every measure against random labelings, under each random model.

"Is this score better than chance?" depends on what chance is. The five random
models of Gates & Ahn (2017) (see :mod:`metrics.chance.models`)::

    perm   both random, the table's class and cluster sizes kept (hypergeometric model)
    num    both uniform over the partitions with the table's numbers of classes / clusters
    num1   the gold classes kept, the clustering uniform with the table's number of clusters
    all    both uniform over all partitions of the n items
    all1   the gold classes kept, the clustering uniform over all partitions

>>> import metrics
>>> from metrics import chance
>>> t = metrics.Contingency.from_labels([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 2, 2])
>>> round(chance.expected(t, "ari"), 12)          # exact: E[ARI] = 0 under perm
0.0
>>> round(chance.adjusted(t, "nmi_max"), 10) == round(metrics.evaluate(t, ["ami_max"])["ami_max"], 10)
True

Functions (all pure: the same arguments and seed give the same result):

* :func:`expected` / :func:`expectation` — E[measure] under a model; exact where a
  closed form exists (:func:`is_exact` says where), else Monte Carlo with its
  standard error.
* :func:`null_distribution` — the measures of many random labelings (one row each).
* :func:`profile` (or :func:`summarize` on a null distribution already drawn) —
  observed value, expectation, spread, z, percentile, p-value and adjusted value per
  measure.
* :func:`adjusted` — (observed − E) / (best − E).
* :func:`cluster_sweep` — scikit-learn's "adjustment for chance" experiment: random
  clusterings with k = 2, 3, … clusters against fixed or random classes.

Exact expectations. Under ``perm`` the margins, hence H(C), H(K), Σ C(a_i, 2),
Σ C(b_j, 2) and C(n, 2), are the same for every random table; only the mutual
information I and the pair count m = Σ C(n_ij, 2) vary. So every measure that is an
affine function of I given the margins (MI, h, c, V_β for every β, NMI with the
arithmetic/geometric/min/max normaliser, VI, NVI, NVIK, VI/log n, VI_n, H(C|K), the
Zhao–Karypis entropy, Dom's Q0, and the four AMI, whose expectation is 0) has the
exact expectation f(E[I]), E[I] the exact expected mutual information of
:mod:`metrics.measures.expected`; every measure affine in m given the margins (Rand, ARI,
R_n, Mirkin, Fowlkes–Mallows, Γ, Γ_n, Γ', J'_n, MS'_n, FM_n, pair precision, recall
and F, AFM, the pair-counting correlation CC and Sokal & Sneath's first index) has
f(E[m]) with E[m] = m1·m2/M, in exact rationals; and the measures that
sum n_ij² / g(a_i, b_j) over the cells (BCubed precision and recall, element-centric
similarity) have the exact cell moments E[n_ij²] = (a b/n)(1 + (a−1)(b−1)/(n−1)) of
the hypergeometric distribution. Each such expectation is the measure's own
formula (from the registry) applied to these expected inputs, so its degenerate
cases are the measure's. Under ``num``, ``num1``, ``all`` and ``all1`` a pair of
items shares a block of the random partition with probability S(n−1, k)/S(n, k)
(k blocks) or B(n−1)/B(n) (any number) [GA17, §4], and independently in the two
partitions, so the measures linear in (m, m1, m2) — Rand, Mirkin, Γ' = 2R − 1 — are
exact; with the gold classes kept (``num1``, ``all1``) so is pair recall m/m1.
Where the margins leave only one table up to relabelling (one class or cluster, or
all singletons on a side, under perm; partitions into 1 or n blocks under num),
every measure's expectation is its observed value.

Infinite expectations. Every model draws from finitely many tables, so E is +∞ exactly
when a table of positive probability scores +∞ — among the measures only Minkowski, against
gold classes that are all singletons: under ``all`` always (probability 1/B(n)), under the
other models when the table's classes are singletons and a pair can be joined.
:func:`infinite_expectation` is that rule (:data:`CAN_BE_INFINITE`), and such an expectation
is exact +∞, never a finite Monte Carlo mean of draws that missed the rare table.

Everything else is Monte Carlo over exact random draws, with standard error
std/√samples. Draws that never vary get a NaN standard error and ``all_draws_equal``
(:class:`Expectation`, :func:`summarize`): equal draws do not prove their value is the
expectation, so no "± 0" is claimed.

References
----------
[GA17] Gates & Ahn (2017), The impact of random models on clustering similarity. JMLR 18.
[HA85] Hubert & Arabie (1985), Comparing partitions. J. Classification 2.
[VEB10] Vinh, Epps & Bailey (2010), Information theoretic measures for clusterings comparison. JMLR 11.

Where it lives: :mod:`~metrics.chance.models` (the five models and their exact samplers),
:mod:`~metrics.chance.draws` (a table's random tables, chunk by chunk),
:mod:`~metrics.chance.expectations` (the closed forms), :mod:`~metrics.chance.costs` (the cost
model and its guard), :mod:`~metrics.chance.null` (null distributions, expectations, profiles)
and :mod:`~metrics.chance.sweep` (the cluster sweep). This package's face is the same as
``metrics.chance`` always was.
"""

from ..core.limits import DEFAULT_BUDGET
from .costs import estimate_seconds, fitting_samples
from .draws import DEFAULT_SAMPLES, MODELS
from .expectations import (
                           AFFINE_IN_MI,
                           AFFINE_IN_PAIRS,
                           AMI_KEYS,
                           CAN_BE_INFINITE,
                           CELL_SQUARES,
                           LINEAR_IN_PAIR_SUMS,
                           Expectation,
                           best_value,
                           exact_keys,
                           infinite_expectation,
                           is_exact,
)
from .null import (
                           PROFILE_COLUMNS,
                           RandomTables,
                           adjusted,
                           draw_tables,
                           expectation,
                           expected,
                           null_distribution,
                           profile,
                           score_tables,
                           summarize,
)
from .sweep import balanced_sizes, cluster_sweep, score_sweep, sweep_seconds, sweep_table, sweep_tables

__all__ = ["MODELS", "DEFAULT_SAMPLES", "DEFAULT_BUDGET", "Expectation", "expected", "expectation", "is_exact",
           "exact_keys", "null_distribution", "profile", "summarize", "adjusted", "best_value", "cluster_sweep",
           "RandomTables", "draw_tables", "score_tables", "sweep_tables", "score_sweep", "estimate_seconds",
           "sweep_seconds", "fitting_samples", "balanced_sizes", "sweep_table", "PROFILE_COLUMNS", "AFFINE_IN_MI",
           "AMI_KEYS", "AFFINE_IN_PAIRS", "CELL_SQUARES", "LINEAR_IN_PAIR_SUMS", "CAN_BE_INFINITE",
           "infinite_expectation"]
