"""The exact expectations: every measure whose expectation under a model has a closed form.

See :mod:`metrics.chance` for which measures, under which models, and why.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from ..core.cells import distinct_sizes
from ..core.contingency import Contingency
from ..core.registry import Measure, resolve
from ..measures.expected import emi_out_of_budget
from ..measures.information import expected_mi
from . import models as rm
from .draws import _check

# Values this close (relative) to the observed one count as ties: a batch and a
# single table round the same formula differently in the last bits.
_TIE = 1e-12

# Measures that are affine functions of I(C;K) once the margins are fixed.
AFFINE_IN_MI = ("homogeneity", "completeness", "v_measure", "mutual_info", "nmi_arithmetic", "nmi_geometric",
                "nmi_min", "nmi_max", "vi", "nvi", "nvik", "vi_log_n", "vi_n", "conditional_entropy",
                "entropy", "q0")
# (I − E[I]) / (normaliser − E[I]): expectation 0 under perm.
AMI_KEYS = ("ami", "ami_min", "ami_geometric", "ami_max")
# Affine functions of m = Σ C(n_ij, 2) once m1, m2 and M are fixed.
AFFINE_IN_PAIRS = ("rand", "ari", "r_n", "mirkin", "fowlkes_mallows", "hubert_gamma", "gamma_n",
                   "hubert_gamma_prime", "j_prime_n", "ms_prime_n", "fm_n", "pair_precision", "pair_recall",
                   "pair_f", "afm", "pair_correlation", "sokal_sneath")
# (1/n) Σ_ij n_ij² / g(a_i, b_j).
CELL_SQUARES = {
    "bcubed_precision": lambda a, b: 1.0 / b,
    "bcubed_recall": lambda a, b: 1.0 / a,
    "element_centric": lambda a, b: 1.0 / np.maximum(a, b),
}
# Linear in (m, m1, m2) with coefficients that depend on n only: exact under every model.
LINEAR_IN_PAIR_SUMS = ("rand", "mirkin", "hubert_gamma_prime")


class Expectation(NamedTuple):
    """An expected value: ``stderr`` is 0 and ``samples`` 0 when it is ``exact`` (``value`` may then
    be ``math.inf``: :func:`infinite_expectation`).

    ``all_draws_equal``: a Monte Carlo estimate whose draws never varied. Its ``stderr`` is NaN,
    not 0: equal draws do not prove the expectation is their value — a rare value the draws
    never met (Minkowski's +∞ once in 1/B(n) draws under ``all``) would change it.
    """

    value: float
    stderr: float
    exact: bool
    samples: int
    all_draws_equal: bool = False


def _minkowski_can_be_infinite(t: Contingency, model: str) -> bool:
    # Minkowski is +∞ where the gold classes join no pair (all singletons) and the clustering
    # joins one (metrics.measures.pairs.minkowski). Both halves per model, n ≥ 2 items:
    #   all singleton classes possible: perm/num/num1/all1 only when the table's classes are
    #   singletons (R = n: kept, or drawn with n blocks); all always (probability 1/B(n)).
    #   a joined pair possible: perm/num/num1 when K < n; all/all1 always (1 − 1/B(n)).
    n = int(t.n)
    if n < 2:
        return False
    singleton_classes = model == "all" or t.n_classes == n
    joined_pair = model in ("all", "all1") or t.n_clusters < n
    return singleton_classes and joined_pair


# Measures that take the value +∞ on some tables, with the rule saying under which models a table
# of positive probability does. Every model draws from finitely many tables, so E = +∞ exactly
# there (and −∞ never: no measure takes it). Every other measure maps its 0/0 cases to finite
# values; a measure added with a +∞ rule must be added here (tests/chance/test_chance_infinite.py
# enumerates every outcome of every model for small n to check this list).
CAN_BE_INFINITE = {"minkowski": _minkowski_can_be_infinite}


def infinite_expectation(t, key: str, model: str = "perm") -> bool:
    """Whether E[key] under ``model`` is exactly +∞ for table ``t``: some table the model draws
    with positive probability scores +∞ (:data:`CAN_BE_INFINITE`)."""
    rule = CAN_BE_INFINITE.get(key)
    return rule is not None and rule(t, model)


def _forced(t: Contingency, model: str) -> bool:
    """Does the model leave a single table up to relabelling (so E = the observed value)?"""
    if t.n <= 1:
        return True
    if model == "perm":
        return t.n_classes <= 1 or t.n_clusters <= 1 or t.n_classes == t.n or t.n_clusters == t.n
    fixed_clustering = t.n_clusters in (1, t.n) and model in ("num", "num1")
    if model == "num1":
        return fixed_clustering
    if model == "num":
        return fixed_clustering and t.n_classes in (1, t.n)
    return False


class _ExpectedInputs:
    """A stand-in table whose I or pair count is replaced by its expectation.

    A measure that is affine in that quantity (its other inputs fixed by the model)
    evaluated on it gives its exact expectation, with its own formula and degenerate
    cases. Only the inputs such measures read are present: any other read fails
    loudly (AttributeError) rather than give a wrong number."""

    def __init__(self, t: Contingency, *, mi=None, pair_sums=None):
        self.n, self.log_n = t.n, t.log_n
        self.row_sums, self.col_sums = t.row_sums, t.col_sums
        self.n_classes, self.n_clusters = t.n_classes, t.n_clusters
        self.h_c, self.h_k = t.h_c, t.h_k
        if mi is not None:
            self.mi = mi
            self.h_c_given_k = max(t.h_c - mi, 0.0)
            self.h_k_given_c = max(t.h_k - mi, 0.0)
        if pair_sums is not None:
            self.pair_sums = pair_sums


def _pair_probability(t: Contingency, model: str, side: str):
    """P(two given items share a block) of the classes (side "c") or clusters ("k")."""
    if side == "c" and model in rm.ONE_SIDED:
        m1, big_m = t.pair_sums[1], t.pair_sums[3]
        return Fraction(m1, big_m)
    if model.startswith("all"):
        return rm.bell_pair_probability(int(t.n))
    return rm.stirling_pair_probability(int(t.n), t.n_classes if side == "c" else t.n_clusters)


def _exact_value(t: Contingency, m: Measure, model: str, log_base: float, beta: float) -> float | None:
    """E[m] under ``model`` where a closed form exists (None otherwise)."""
    key = m.key
    if infinite_expectation(t, key, model):
        return math.inf
    if _forced(t, model):
        return m(t, log_base=log_base, beta=beta)
    if model == "perm":
        if key in AMI_KEYS:
            return 0.0
        if key in AFFINE_IN_MI:
            if emi_out_of_budget(t):
                return None  # E[I] would take minutes: sample instead
            stand_in = _ExpectedInputs(t, mi=min(expected_mi(t), t.h_c, t.h_k))
        elif key in AFFINE_IN_PAIRS:
            _, m1, m2, big_m = t.pair_sums
            stand_in = _ExpectedInputs(t, pair_sums=(Fraction(m1 * m2, big_m), m1, m2, big_m))
        elif key in CELL_SQUARES:
            return _expected_cell_squares(t, CELL_SQUARES[key])
        else:
            return None
    else:
        recall = key == "pair_recall" and model in rm.ONE_SIDED and t.pair_sums[1] > 0
        if key not in LINEAR_IN_PAIR_SUMS and not recall:
            return None
        big_m = t.pair_sums[3]
        q_c, q_k = _pair_probability(t, model, "c"), _pair_probability(t, model, "k")
        q_k = float(q_k)
        q_c = q_c if isinstance(q_c, Fraction) else float(q_c)
        stand_in = _ExpectedInputs(t, pair_sums=(big_m * q_c * q_k, big_m * q_c, big_m * q_k, big_m))
    value = float(m.func(stand_in, log_base=log_base, beta=beta))
    return min(max(value, m.bounds[0]), m.bounds[1])


def _expected_cell_squares(t: Contingency, weight) -> float:
    """E[(1/n) Σ_ij n_ij² w(a_i, b_j)] under perm, over the distinct (a, b) size pairs:
    n_ij is hypergeometric with E[n_ij²] = (a b / n)(1 + (a − 1)(b − 1)/(n − 1))."""
    n = float(t.n)
    ua, ca = distinct_sizes(t.row_sums)
    ub, cb = distinct_sizes(t.col_sums)
    a = np.repeat(ua, ub.size).astype(np.float64)
    b = np.tile(ub, ua.size).astype(np.float64)
    mult = np.repeat(ca, ub.size).astype(np.float64) * np.tile(cb, ua.size)
    second_moment = a * b / n * (1.0 + (a - 1.0) * (b - 1.0) / (n - 1.0))
    return float(np.sum(mult * weight(a, b) * second_moment) / n)


def exact_keys(t, model: str = "perm") -> list[str]:
    """The registered measures whose expectation under ``model`` is exact for table ``t``."""
    t = _check(t, model, math.e, 1.0)
    return [m.key for m in resolve(None, t) if _has_closed_form(t, m.key, model)]


def _has_closed_form(t: Contingency, key: str, model: str) -> bool:
    if _forced(t, model) or infinite_expectation(t, key, model):
        return True
    if model == "perm":
        if key in AFFINE_IN_MI and emi_out_of_budget(t):
            return False
        return key in AMI_KEYS or key in AFFINE_IN_MI or key in AFFINE_IN_PAIRS or key in CELL_SQUARES
    return key in LINEAR_IN_PAIR_SUMS or (key == "pair_recall" and model in rm.ONE_SIDED
                                         and t.pair_sums[1] > 0)


def is_exact(t, key: str, model: str = "perm") -> bool:
    """Whether :func:`expected` of ``key`` under ``model`` is exact for table ``t``
    (else it is a Monte Carlo estimate)."""
    t = _check(t, model, math.e, 1.0)
    resolve([key])
    return _has_closed_form(t, key, model)


def best_value(key: str) -> float:
    """The measure's best declared value: its upper bound if higher is better, else
    its lower bound (may be infinite: mutual_info)."""
    (m,) = resolve([key])
    return m.bounds[1] if m.higher_is_better else m.bounds[0]


def _adjust(observed: float, expected_value: float, best: float) -> float:
    if math.isinf(best):
        return math.nan
    if math.isinf(expected_value):
        # Chance is infinitely bad (Minkowski against possibly all-singleton random
        # classes): a finite value is the limit 1, an infinite one chance itself, 0.
        return 0.0 if math.isinf(observed) else 1.0
    if best == expected_value:
        # Chance already scores the best value; 1 if the observed one does too, else 0
        # (the 0/0 rule of metrics.measures.pairs: the best value or the chance value).
        return 1.0 if _close(observed, best) else 0.0
    return (observed - expected_value) / (best - expected_value)


def _close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= _TIE * max(1.0, abs(a), abs(b))


def _std(x: np.ndarray) -> float:
    """Sample standard deviation; NaN for one draw or when a draw is infinite."""
    if x.size < 2 or not np.isfinite(x).all():
        return math.nan
    if x.min() == x.max():
        return 0.0  # numpy's mean of equal values may round off them, leaving a 1e-17 spread
    return float(x.std(ddof=1))
