"""Every measure against random labelings, under each random model.

"Is this score better than chance?" depends on what chance is. The five random
models of Gates & Ahn (2017) (see :mod:`metrics.random_models`)::

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
:mod:`metrics.expected`; every measure affine in m given the margins (Rand, ARI,
R_n, Mirkin, Fowlkes–Mallows, Γ, Γ_n, Γ', J'_n, MS'_n, FM_n, pair precision, recall
and F) has f(E[m]) with E[m] = m1·m2/M, in exact rationals; and the measures that
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

Everything else is Monte Carlo over exact random draws, with standard error
std/√samples.

References
----------
[GA17] Gates & Ahn (2017), The impact of random models on clustering similarity. JMLR 18.
[HA85] Hubert & Arabie (1985), Comparing partitions. J. Classification 2.
[VEB10] Vinh, Epps & Bailey (2010), Information theoretic measures for clusterings comparison. JMLR 11.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import sparse

from . import random_models as rm
from .batch import TableBatch, evaluate_batch
from .chance_costs import null_seconds
from .contingency import Contingency
from .expected import emi_out_of_budget
from .limits import DEFAULT_BUDGET, PERM_DENSE_CELLS, Deadline, check_budget, checked_budget
from .information import expected_mi
from .registry import MEASURES, Measure, _check_beta, _check_log_base, evaluate, resolve

__all__ = ["MODELS", "DEFAULT_SAMPLES", "DEFAULT_BUDGET", "Expectation", "expected", "expectation", "is_exact",
           "exact_keys", "null_distribution", "profile", "summarize", "adjusted", "best_value", "cluster_sweep",
           "RandomTables", "draw_tables", "score_tables", "sweep_tables", "score_sweep", "estimate_seconds",
           "sweep_seconds", "fitting_samples"]

MODELS = rm.MODELS
DEFAULT_SAMPLES = 1000
Progress = Callable[[int, int], None]

# Tables of at most this many cells are evaluated as one dense batch (metrics.batch);
# larger ones (sparse: many classes and clusters, few items) one by one.
_DENSE_TABLE_CELLS = 1 << 18
# Memory of one chunk of draws: dense cells, or item labels.
_CHUNK_CELLS = 1 << 22
_CHUNK_LABELS = 1 << 22
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
                   "pair_f")
# (1/n) Σ_ij n_ij² / g(a_i, b_j).
CELL_SQUARES = {
    "bcubed_precision": lambda a, b: 1.0 / b,
    "bcubed_recall": lambda a, b: 1.0 / a,
    "element_centric": lambda a, b: 1.0 / np.maximum(a, b),
}
# Linear in (m, m1, m2) with coefficients that depend on n only: exact under every model.
LINEAR_IN_PAIR_SUMS = ("rand", "mirkin", "hubert_gamma_prime")


class Expectation(NamedTuple):
    """An expected value: ``stderr`` is 0 and ``samples`` 0 when it is ``exact``."""

    value: float
    stderr: float
    exact: bool
    samples: int


# --------------------------------------------------------------------------- input
def _as_table(t) -> Contingency:
    if not isinstance(t, Contingency):
        if isinstance(t, (str, bytes)) or not hasattr(t, "__len__"):
            raise TypeError(f"chance functions take a metrics.Contingency or a 2-D table, got {type(t).__name__}")
        t = Contingency.from_table(t)
    if not t.is_integer:
        raise ValueError("random models move whole items between classes and clusters: the table needs "
                         "integer counts (this one has fractional cells)")
    if t.n < 1:
        raise ValueError("the table holds no item: there is nothing to compare with chance")
    return t


def _measures(t: Contingency, measures) -> list[Measure]:
    ms = resolve(measures, t)
    for m in ms:
        reason = m.why_not(t)
        if reason:
            raise ValueError(f"{m.key} is not computed for this table: {reason}")
    return ms


def _check_samples(samples, minimum: int = 1) -> int:
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < minimum:
        raise ValueError(f"samples must be an integer of at least {minimum}, got {samples!r}")
    return int(samples)


def _rng(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    try:
        return np.random.default_rng(seed)
    except (TypeError, ValueError):
        raise ValueError(f"seed must be None, a non-negative integer or a numpy Generator, got {seed!r}") from None


def _check(t, model, log_base, beta):
    rm.check_model(model)
    _check_log_base(log_base)
    _check_beta(beta)
    return _as_table(t)


# --------------------------------------------------------------------------- exact expectations
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
    ua, ca = np.unique(t.row_sums, return_counts=True)
    ub, cb = np.unique(t.col_sums, return_counts=True)
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
    if _forced(t, model):
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


# --------------------------------------------------------------------------- sampling
def _draw(t: Contingency, model: str, size: int, rng: np.random.Generator):
    """``size`` random tables under ``model``: a (size, R, K) array when small enough
    to evaluate as a dense batch, else a list of Contingency."""
    n = int(t.n)
    if model == "perm":
        path = _perm_path(t)
        if path == "batch":
            return rm.random_tables_perm(t.row_sums, t.col_sums, size, rng)
        if path == "tables":
            return [Contingency.from_table(x) for x in rm.random_tables_perm(t.row_sums, t.col_sums, size, rng)]
        rows = np.repeat(np.arange(t.n_classes), t.row_sums)
        cols = rm.shuffled_labels(t.col_sums, size, rng)
        return [Contingency.from_labels(rows, c) for c in cols]
    if model.startswith("num") and _draws_tables(n, t.n_classes, t.n_clusters):
        sizes = (np.broadcast_to(t.row_sums, (size, t.n_classes)) if model == "num1"
                 else rm.random_block_sizes(n, t.n_classes, size, rng))
        return rm.random_tables_num(sizes, t.n_clusters, rng)
    if model in rm.ONE_SIDED:
        rows = np.repeat(np.arange(t.n_classes), t.row_sums)
        n_rows = t.n_classes
    else:
        rows = rm.random_partitions(n, t.n_classes if model == "num" else None, size, rng)
        n_rows = int(rows.max()) + 1
    cols = rm.random_partitions(n, t.n_clusters if model.startswith("num") else None, size, rng)
    n_cols = int(cols.max()) + 1
    if n_rows * n_cols <= _DENSE_TABLE_CELLS:
        return rm._count_tables(rows, cols, n_rows, n_cols)
    rows = np.broadcast_to(rows, cols.shape)
    return [Contingency.from_labels(r, c) for r, c in zip(rows, cols)]


def _perm_path(t: Contingency) -> str:
    """How perm draws ``t``'s random tables: ``"batch"`` (dense batches from scipy's sampler, for
    tables of at most 2^18 cells), ``"labels"`` (shuffled labels counted into one table a draw, up
    to 10^7 items), ``"tables"`` (one dense table a draw from scipy's sampler, up to 2^22 cells);
    ``ValueError`` beyond (and beyond the sampler's own limit of items, ``rm.check_perm_items``)."""
    cells = t.n_classes * t.n_clusters
    if t.n_classes > 1 and t.n_clusters > 1:
        rm.check_perm_items(int(t.n))
    if cells <= _DENSE_TABLE_CELLS:
        return "batch"
    if t.n <= rm.MAX_SAMPLED_ITEMS:
        return "labels"
    if cells <= PERM_DENSE_CELLS:
        return "tables"
    raise ValueError(f"random tables of {t.n_classes:,} × {t.n_clusters:,} classes and clusters with {int(t.n):,} "
                     f"items are not drawn: at most {rm.MAX_SAMPLED_ITEMS:,} items (drawn as labels) or "
                     f"{PERM_DENSE_CELLS:,} cells (drawn as tables); the exact expectations (chance.expected of "
                     "the measures chance.exact_keys(t) lists) need no sampling")


def _draws_tables(n: int, n_classes: int, n_clusters: int) -> bool:
    """Whether num/num1 draws come as tables straight away (``random_models.random_tables_num``:
    each throw counted into its table, or drawn as multinomial rows, with no partition labels
    kept) rather than as labels counted afterwards: for dense batches, whenever a throw is likely
    to fill the K clusters (else the labels are drawn sequentially). num1's tables are those of
    the labels it drew before, throw for throw; n = 10^4, 10 classes, k = 2…100, 200 draws of
    each k: 0.07 s instead of 0.26."""
    return n_classes * n_clusters <= _DENSE_TABLE_CELLS and rm._surjection_is_likely(n, n_clusters)


def _chunk_size(t: Contingency, model: str) -> int:
    if model == "perm":
        cells = t.n_classes * t.n_clusters
        if cells <= _DENSE_TABLE_CELLS or t.n > rm.MAX_SAMPLED_ITEMS:  # dense tables, batched or one a draw
            return max(1, _CHUNK_CELLS // cells)
        return max(1, _CHUNK_LABELS // int(t.n))
    return max(1, _CHUNK_LABELS // int(t.n))


def _evaluate_draws(draws, keys: list[str], log_base: float, beta: float) -> pd.DataFrame:
    if isinstance(draws, (np.ndarray, TableBatch)):
        return evaluate_batch(draws, keys, log_base=log_base, beta=beta)
    return pd.DataFrame([evaluate(d, keys, log_base=log_base, beta=beta) for d in draws], columns=keys)


def _chunks(t: Contingency, model: str, samples: int, rng: np.random.Generator) -> Iterator:
    """The random tables of :func:`null_distribution`, chunk by chunk, in the order they are drawn."""
    chunk = _chunk_size(t, model)
    done = 0
    while done < samples:
        size = min(chunk, samples - done)
        yield _draw(t, model, size, rng)
        done += size


# --------------------------------------------------------------------------- cost guards
def estimate_seconds(t, measures: Iterable[str] | str | None = None, model: str = "perm",
                     samples: int = DEFAULT_SAMPLES, part: str = "both") -> float:
    """Estimated seconds of one core that :func:`null_distribution` (``part="both"``), its
    drawing (:func:`draw_tables`, ``"draw"``) or its scoring (:func:`score_tables`, ``"score"``)
    of ``samples`` random labelings of ``t`` under ``model`` would take (the cost model of
    :mod:`metrics.limits`). Raises ``ValueError`` where the draws are beyond a hard limit."""
    t = _check(t, model, math.e, 1.0)
    samples = _check_samples(samples)
    if part not in ("both", "draw", "score"):
        raise ValueError(f"part must be 'both', 'draw' or 'score', got {part!r}")
    return null_seconds(t, [m.key for m in _measures(t, measures)], model, samples, part)


def fitting_samples(cost: Callable[[int], float], budget: float, most: int = 10**9) -> int:
    """The largest number of samples s ≤ ``most`` with ``cost(s) ≤ budget`` (0 if none): a
    binary search over a cost that does not fall as s grows."""
    if cost(1) > budget:
        return 0
    lo, hi = 1, most
    if cost(hi) <= budget:
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if cost(mid) <= budget else (lo, mid)
    return lo


def _what(t: Contingency, model: str, samples: int, part: str = "both") -> str:
    verb = {"both": "", "draw": "drawing ", "score": "scoring "}[part]
    return (f"{verb}{samples:,} random labelings of a {t.n_classes:,} × {t.n_clusters:,} table of {int(t.n):,} items "
            f"under {model}")


def _advice(t: Contingency, keys: list[str], model: str, budget: float, samples: int, part: str) -> str:
    """What fits the budget instead: fewer samples, the perm model, AMI left out, the exact expectations."""
    fits = fitting_samples(lambda s: null_seconds(t, keys, model, s, part), budget)
    out = [f"at most {fits:,} samples fit" if fits >= 2 else "no number of samples fits"]
    if model != "perm" and t.n_classes * t.n_clusters <= _DENSE_TABLE_CELLS:
        try:
            if null_seconds(t, keys, "perm", samples, part) <= budget:
                out.append("the perm model fits (its draws cost the table's cells, not its items)")
        except ValueError:
            pass
    cheap = [k for k in keys if not k.startswith("ami")]
    if cheap and len(cheap) < len(keys) and null_seconds(t, cheap, model, samples, part) <= budget:
        out.append("so do the measures without AMI (its exact expected mutual information is the costly part)")
    if model == "perm":
        out.append("chance.expected gives exact expectations without sampling for chance.exact_keys(t)")
    return "; ".join(out)


def _guard(t: Contingency, keys: list[str], model: str, samples: int, budget, part: str = "both") -> Deadline:
    """Refuse the draws beyond ``budget`` (a CostError saying what fits instead), or beyond a hard
    limit (the samplers' ValueError, raised here before any work); the run's :class:`Deadline`."""
    budget = checked_budget(budget)
    _check_drawable(t, model)
    if budget is not None:
        seconds = null_seconds(t, keys, model, samples, part)
        if seconds > budget:
            check_budget(_what(t, model, samples, part), seconds, budget,
                         _advice(t, keys, model, budget, samples, part))
    return Deadline(budget)


def _check_drawable(t: Contingency, model: str) -> None:
    """Raise the samplers' ``ValueError`` for draws beyond a hard limit, before any work."""
    n = int(t.n)
    if model == "perm":
        _perm_path(t)
        return
    if model == "num1" and _draws_tables(n, t.n_classes, t.n_clusters):
        return
    if model == "num":
        rm.check_partition_draws(n, t.n_classes)
    if model.startswith("num"):
        if not _draws_tables(n, t.n_classes, t.n_clusters):
            rm.check_partition_draws(n, t.n_clusters)
    else:
        rm.check_partition_draws(n, None)


def null_distribution(t, measures: Iterable[str] | str | None = None, model: str = "perm",
                      samples: int = DEFAULT_SAMPLES, seed=None, log_base: float = math.e, beta: float = 1.0,
                      progress: Progress | None = None, *, budget=DEFAULT_BUDGET) -> pd.DataFrame:
    """The measures of ``samples`` random labelings drawn under ``model``.

    One row per random labeling (index ``draw``), one column per measure key
    (``measures=None``: every measure that applies to ``t``). ``t`` is a Contingency
    or a 2-D table of integer counts; rows are gold classes, columns clusters.
    ``seed`` (an int, or a numpy Generator) makes the draws reproducible.
    ``progress(done, total)`` is called after each chunk of draws.

    Cost: perm draws tables with fixed margins (scipy's random_table: O(n) or
    O(R·K) per table); num/all draw random partitions item by item, O(n) each (or, for
    num and num1, O(R·K) multinomial rows where a cell has many items), and are refused
    beyond 10^7 items. Each table is then scored by every measure: a
    dense batch of small tables (metrics.evaluate_batch, about 1 ms per 100×100 table
    for all measures), one by one for tables of more than 262,144 cells. The AMI
    variants need one exact E[I] per distinct margins: once in all under perm, once
    per draw under the other models (tens of ms each for n = 10^4).

    Refused before any draw (a ``limits.CostError``, a ``ValueError``) when the estimated cost
    (:func:`estimate_seconds`) exceeds ``budget`` seconds of one core (default 30; None: no
    limit), and stopped when the run itself passes three times its budget; refused beyond the
    samplers' hard limits (:mod:`metrics.limits`).

    ``score_tables(draw_tables(t, model, samples, seed), measures, log_base, beta)`` is
    the same distribution, with the tables kept to be scored again (another β, other
    measures); this function scores each chunk as it is drawn and keeps none.
    """
    t = _check(t, model, log_base, beta)
    samples = _check_samples(samples)
    keys = [m.key for m in _measures(t, measures)]
    rng = _rng(seed)
    deadline = _guard(t, keys, model, samples, budget)
    return _null_frame(t, keys, model, samples, rng, log_base, beta, progress, deadline)


def _null_frame(t: Contingency, keys: list[str], model: str, samples: int, rng: np.random.Generator,
                log_base: float, beta: float, progress: Progress | None, deadline: Deadline) -> pd.DataFrame:
    frames, done = [], 0
    for draws in _chunks(t, model, samples, rng):
        frames.append(_evaluate_draws(draws, keys, log_base, beta))
        done += len(draws)
        if progress is not None:
            progress(done, samples)
        if done < samples:
            deadline.check("these random labelings")
    return _draw_frame(frames, keys)


def _draw_frame(frames: list[pd.DataFrame], keys: list[str]) -> pd.DataFrame:
    out = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    out.index.name = "draw"
    return out[keys]


@dataclass(frozen=True, eq=False)
class RandomTables:
    """The random labelings of :func:`null_distribution` as tables, drawn and not yet scored
    (:func:`draw_tables`): scoring them again for another β, log base or set of measures
    (:func:`score_tables`) gives exactly what ``null_distribution`` gives with the same seed,
    without drawing them again.

    ``table`` is the table whose margins (and model) the draws follow; ``chunks`` holds the
    draws in the order they were drawn: dense batches stored in the smallest unsigned integer
    type that holds ``n`` (with the type they are scored in) or lists of Contingency tables.
    Read-only: share it, do not change it.

    Scoring keeps, per chunk, the β-free parts of the measures that use β (the registry's
    ``beta_parts``: V_β's h and c, two numbers per draw), so that scoring again for another β
    only combines them: a β slider rescores a thousand draws in microseconds.
    """

    table: Contingency
    model: str
    samples: int
    chunks: tuple
    _beta_parts: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def nbytes(self) -> int:
        """Memory held by the dense batches (the Contingency tables' not counted)."""
        return sum(c[0].nbytes for c in self.chunks if isinstance(c, tuple) and isinstance(c[0], np.ndarray))


def _stored(draws):
    """A chunk as :class:`RandomTables` keeps it: a dense batch as (compact counts, their type)."""
    if isinstance(draws, np.ndarray):
        small = draws.astype(np.min_scalar_type(int(draws.max())) if draws.size else np.uint8)
        small.flags.writeable = False
        return (small, draws.dtype)
    return list(draws)


def _unstored(chunk):
    if isinstance(chunk, tuple):
        small, dtype = chunk
        return small.astype(dtype)   # counts ≤ n: exact in either type
    return chunk


def draw_tables(t, model: str = "perm", samples: int = DEFAULT_SAMPLES, seed=None, *,
                progress: Progress | None = None, budget=DEFAULT_BUDGET) -> RandomTables:
    """``samples`` random labelings of ``t`` under ``model`` as tables, for
    :func:`score_tables`; the same draws as :func:`null_distribution` with the same seed.
    ``progress(done, total)`` after each chunk; ``budget`` as in :func:`null_distribution`
    (the drawing's cost)."""
    t = _check(t, model, math.e, 1.0)
    samples = _check_samples(samples)
    rng = _rng(seed)
    deadline = _guard(t, [], model, samples, budget, "draw")
    return RandomTables(t, model, samples, _drawn(t, model, samples, rng, progress, deadline))


def _drawn(t: Contingency, model: str, samples: int, rng: np.random.Generator, progress: Progress | None,
           deadline: Deadline, offset: int = 0, total: int | None = None) -> tuple:
    """The stored chunks of ``samples`` draws, reporting ``offset + done`` of ``total`` after each."""
    chunks, done = [], 0
    for d in _chunks(t, model, samples, rng):
        chunks.append(_stored(d))
        done += len(d)
        if progress is not None:
            progress(offset + done, samples if total is None else total)
        deadline.check("drawing these random labelings")
    return tuple(chunks)


def score_tables(tables: RandomTables, measures: Iterable[str] | str | None = None, log_base: float = math.e,
                 beta: float = 1.0, progress: Progress | None = None, *, budget=DEFAULT_BUDGET) -> pd.DataFrame:
    """The measures of the random labelings ``tables`` (from :func:`draw_tables`): the frame of
    :func:`null_distribution` — identical values for the same table, model, samples and seed.
    ``budget`` as in :func:`null_distribution` (the scoring's cost)."""
    if not isinstance(tables, RandomTables):
        raise ValueError("tables must be the random tables of draw_tables (or sweep_tables)")
    t = _check(tables.table, tables.model, log_base, beta)
    keys = [m.key for m in _measures(t, measures)]
    deadline = _guard(t, keys, tables.model, tables.samples, budget, "score")
    keys, columns = _score_columns(tables, measures, log_base, beta, progress, deadline)
    return pd.DataFrame(columns, index=pd.RangeIndex(tables.samples, name="draw"), columns=keys)


def _score_columns(tables: RandomTables, measures, log_base: float, beta: float, progress: Progress | None,
                   deadline: Deadline) -> tuple[list[str], dict[str, np.ndarray]]:
    """(keys, {key: one value per draw}) of :func:`score_tables`. V_β and the like come from the
    β-free parts kept per chunk (computed on first need); every other measure from the draws."""
    t = _check(tables.table, tables.model, log_base, beta)
    keys = [m.key for m in _measures(t, measures)]
    by_parts = [k for k in keys if MEASURES[k].beta_parts is not None]
    others = [k for k in keys if k not in by_parts]
    pieces: dict[str, list[np.ndarray]] = {k: [] for k in keys}
    done = 0
    for i, chunk in enumerate(tables.chunks):
        missing = [k for k in by_parts if (i, k) not in tables._beta_parts]
        draws = _unstored(chunk) if others or missing else None
        if isinstance(draws, np.ndarray):
            # One batch for the β-free parts and the other measures: their shared
            # quantities (entropies, pair sums, E[I]) are computed once per chunk.
            draws = TableBatch(draws)
        if missing:
            tables._beta_parts.update(((i, k), p) for k, p in zip(missing, _parts(draws, missing)))
        if others:
            frame = _evaluate_draws(draws, others, log_base, beta)
            for k in others:
                pieces[k].append(frame[k].to_numpy(dtype=np.float64))
        for k in by_parts:
            pieces[k].append(_combine(MEASURES[k], tables._beta_parts[(i, k)], beta))
        done += len(chunk[0]) if isinstance(chunk, tuple) else len(chunk)
        if progress is not None:
            progress(done, tables.samples)
        if done < tables.samples:
            deadline.check("scoring these random labelings")
    return keys, {k: np.concatenate(v) for k, v in pieces.items()}


def _parts(draws, keys: list[str]) -> list[tuple[np.ndarray, ...]]:
    """The β-free parts (``Measure.beta_parts``) of measures ``keys`` for a chunk of draws: one
    array per part, one value per draw — from the chunk's TableBatch when it is dense, as
    ``evaluate_batch`` computes them, or table by table (a list of tables), as ``evaluate`` does."""
    if isinstance(draws, TableBatch):
        return [tuple(np.broadcast_to(np.asarray(p, dtype=np.float64), (len(draws),))
                      for p in MEASURES[k].beta_parts[0](draws)) for k in keys]
    out = []
    for k in keys:
        per_draw = [MEASURES[k].beta_parts[0](d) for d in draws]
        out.append(tuple(np.array([float(p[j]) for p in per_draw], dtype=np.float64)
                         for j in range(len(per_draw[0]))))
    return out


def _combine(m, parts: tuple[np.ndarray, ...], beta: float) -> np.ndarray:
    """``m``'s values from its β-free parts, clipped into its bounds as every evaluation clips."""
    values = np.broadcast_to(np.asarray(m.beta_parts[1](*parts, beta), dtype=np.float64), parts[0].shape)
    return np.clip(values, *m.bounds)


# --------------------------------------------------------------------------- expectations
def expectation(t, key: str, model: str = "perm", samples: int | None = None, seed=None,
                log_base: float = math.e, beta: float = 1.0, method: str = "auto", *,
                progress: Progress | None = None, budget=DEFAULT_BUDGET) -> Expectation:
    """E[key] under ``model``, with how it was obtained.

    ``method="auto"``: exact where a closed form exists (see the module docstring and
    :func:`is_exact`), else the mean of ``samples`` random labelings (default
    1000) with its standard error; ``"exact"`` raises ValueError where there is no
    closed form; ``"monte_carlo"`` always samples (to check an exact value). Sampling reports
    ``progress`` and keeps to ``budget`` as :func:`null_distribution` does.
    """
    t = _check(t, model, log_base, beta)
    checked_budget(budget)
    if method not in ("auto", "exact", "monte_carlo"):
        raise ValueError(f"method must be 'auto', 'exact' or 'monte_carlo', got {method!r}")
    (m,) = _measures(t, [key])
    rng = _rng(seed)  # checked even when the exact value makes no use of it
    if method != "monte_carlo":
        value = _exact_value(t, m, model, log_base, beta)
        if value is not None:
            return Expectation(value, 0.0, True, 0)
        if method == "exact":
            raise ValueError(f"{key} has no closed-form expectation under the {model} model; "
                             "use method='auto' or 'monte_carlo' (sampling)")
    samples = DEFAULT_SAMPLES if samples is None else _check_samples(samples, 2)
    draws = null_distribution(t, [key], model, samples, rng, log_base, beta, progress, budget=budget)[key].to_numpy()
    # A measure that can be +∞ (minkowski) has an infinite mean; its standard error is NaN.
    return Expectation(float(draws.mean()), _std(draws) / math.sqrt(samples), False, samples)


def expected(t, key: str, model: str = "perm", samples: int | None = None, seed=None,
             log_base: float = math.e, beta: float = 1.0, *, progress: Progress | None = None,
             budget=DEFAULT_BUDGET) -> float:
    """E[key] under ``model``: exact where a closed form exists, else Monte Carlo over
    ``samples`` random labelings (default 1000; reproducible with ``seed``; ``progress`` and
    ``budget`` as in :func:`null_distribution`).
    :func:`expectation` also says which, with the standard error."""
    return expectation(t, key, model, samples, seed, log_base, beta, progress=progress, budget=budget).value


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
        # (the 0/0 rule of metrics.pairs: the best value or the chance value).
        return 1.0 if _close(observed, best) else 0.0
    return (observed - expected_value) / (best - expected_value)


def adjusted(t, key: str, model: str = "perm", samples: int | None = None, seed=None,
             log_base: float = math.e, beta: float = 1.0, *, progress: Progress | None = None,
             budget=DEFAULT_BUDGET) -> float:
    """(observed − E) / (M − E), M the measure's best declared value: 1 at the best
    value, 0 at chance, negative below chance, whatever the measure's direction.

    E as in :func:`expected` (exact or Monte Carlo). When M equals E (chance always
    scores the best) the result is 1 if the observed value is M, else 0; when E is
    infinite (a Monte Carlo mean of Minkowski with +∞ draws) it is the limit 1 for a
    finite observed value, 0 for an infinite one. Measures
    without a finite best value (``mutual_info``: unbounded above) raise ValueError:
    adjust a normalised form instead (e.g. ``nmi_max``, whose adjusted value under
    perm is ``ami_max``).
    """
    t = _check(t, model, log_base, beta)
    best = best_value(key)
    if math.isinf(best):
        raise ValueError(f"{key} has no finite best value (range {MEASURES[key].range_text}), so it cannot be "
                         "adjusted as (observed − E)/(best − E); adjust a normalised form (nmi_*, ami_*)")
    observed = MEASURES[key](t, log_base=log_base, beta=beta)
    return _adjust(observed, expected(t, key, model, samples, seed, log_base, beta, progress=progress,
                                      budget=budget), best)


def _close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= _TIE * max(1.0, abs(a), abs(b))


def _std(x: np.ndarray) -> float:
    """Sample standard deviation; NaN for one draw or when a draw is infinite."""
    if x.size < 2 or not np.isfinite(x).all():
        return math.nan
    if x.min() == x.max():
        return 0.0  # numpy's mean of equal values may round off them, leaving a 1e-17 spread
    return float(x.std(ddof=1))


# --------------------------------------------------------------------------- profile
PROFILE_COLUMNS = ("observed", "expected", "exact", "stderr", "std", "z", "percentile", "p_value", "adjusted")


def summarize(t, draws: pd.DataFrame, model: str = "perm", log_base: float = math.e,
              beta: float = 1.0) -> pd.DataFrame:
    """The profile of :func:`profile` from a null distribution already drawn (the
    output of :func:`null_distribution` for the same table, model, log base and β).

    Index: measure keys (the columns of ``draws``). Columns:

    * ``observed`` — the measure of ``t``;
    * ``expected`` — exact where a closed form exists (``exact`` True, ``stderr`` 0),
      else the mean of the draws (``stderr`` = std/√draws);
    * ``std`` — the spread of the measure over the draws (sample standard deviation;
      NaN when a draw is infinite: Minkowski is +∞ against all-singleton classes,
      which random classes under num or all can be, and its expectation is then +∞);
    * ``z`` — (observed − expected)/std; 0 when std = 0 and observed = expected,
      NaN when std = 0 otherwise;
    * ``percentile`` — 100 × the share of draws below the observed value, ties
      (within 10^-12, relative) counted half (the mid-rank percentile); in the
      measure's own units, so for lower-is-better measures a small percentile is good;
    * ``p_value`` — (1 + draws at least as good as observed, in the measure's
      direction, ties included) / (1 + draws): the permutation-test p-value of
      "better than chance";
    * ``adjusted`` — (observed − expected)/(best − expected) as in :func:`adjusted`;
      NaN for measures without a finite best value (``mutual_info``).
    """
    t = _check(t, model, log_base, beta)
    if not isinstance(draws, pd.DataFrame) or len(draws) < 1:
        raise ValueError("draws must be a non-empty DataFrame from null_distribution")
    keys = list(draws.columns)
    observed = evaluate(t, keys, log_base=log_base, beta=beta)
    rows = []
    for key in keys:
        m = MEASURES[key]
        x = draws[key].to_numpy(dtype=np.float64)
        obs = observed[key]
        exact = _exact_value(t, m, model, log_base, beta)
        std = _std(x)
        if exact is None:
            e, stderr = float(x.mean()), (std / math.sqrt(x.size) if x.size > 1 else math.nan)
        else:
            e, stderr = exact, 0.0
        if std > 0 and math.isfinite(std):
            z = (obs - e) / std
        else:
            z = 0.0 if std == 0 and _close(obs, e) else math.nan
        with np.errstate(invalid="ignore"):  # ∞ − ∞: an infinite value ties with itself
            tie = (x == obs) | (np.abs(x - obs) <= _TIE * np.maximum(1.0, np.maximum(np.abs(x), abs(obs))))
        below = np.count_nonzero((x < obs) & ~tie)
        percentile = 100.0 * (below + 0.5 * np.count_nonzero(tie)) / x.size
        as_good = np.count_nonzero(tie | ((x > obs) if m.higher_is_better else (x < obs)))
        rows.append({"observed": obs, "expected": e, "exact": exact is not None, "stderr": stderr, "std": std,
                     "z": z, "percentile": percentile, "p_value": (1 + as_good) / (1 + x.size),
                     "adjusted": _adjust(obs, e, best_value(key))})
    # Built column by column, in their final types (float64, and bool for ``exact``): pandas'
    # record-wise construction and astype cost ~5 ms a call, and the Chance page calls this per k.
    columns = {c: np.array([r[c] for r in rows], dtype=bool if c == "exact" else np.float64)
               for c in PROFILE_COLUMNS}
    return pd.DataFrame(columns, index=pd.Index(keys, name="measure"), columns=list(PROFILE_COLUMNS))


def profile(t, measures: Iterable[str] | str | None = None, model: str = "perm", samples: int = DEFAULT_SAMPLES,
            seed=None, log_base: float = math.e, beta: float = 1.0,
            progress: Progress | None = None, *, budget=DEFAULT_BUDGET) -> pd.DataFrame:
    """Each measure of ``t`` against its null distribution under ``model``.

    Index: measure keys; columns ``observed, expected, exact, stderr, std, z,
    percentile, p_value, adjusted`` (see :func:`summarize`). Draws ``samples``
    random labelings (:func:`null_distribution`, same cost, same ``budget``). To show the draws
    too, draw them once and call :func:`summarize`.
    """
    draws = null_distribution(t, measures, model, _check_samples(samples, 2), seed, log_base, beta, progress,
                              budget=budget)
    return summarize(t, draws, model, log_base, beta)


# --------------------------------------------------------------------------- the sweep
def _balanced(n: int, k: int) -> np.ndarray:
    return np.full(k, n // k, dtype=np.int64) + (np.arange(k) < n % k)


def _table_with_margins(a: np.ndarray, b: np.ndarray) -> Contingency:
    """Some table with row sums a and column sums b (the north-west corner rule)."""
    rows, cols, vals = [], [], []
    a, b = a.copy(), b.copy()
    i = j = 0
    while i < a.size and j < b.size:
        x = min(a[i], b[j])
        rows.append(i), cols.append(j), vals.append(x)
        a[i] -= x
        b[j] -= x
        if a[i] == 0:
            i += 1
        if j < b.size and b[j] == 0:
            j += 1
    return Contingency.from_table(sparse.coo_matrix((vals, (rows, cols)), shape=(a.size, b.size)))


def _sweep_margins(n, ks, model, n_classes, class_sizes):
    """(class sizes, ks) of a sweep, checked (see :func:`cluster_sweep`)."""
    if model not in ("num1", "num", "perm"):
        rm.check_model(model)
        raise ValueError(f"cluster_sweep varies the number of clusters, which the {model} model draws at "
                         "random: use num1, num or perm")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a positive number of items, got {n!r}")
    if class_sizes is None:
        if not isinstance(n_classes, (int, np.integer)) or not 1 <= n_classes <= n:
            raise ValueError(f"n_classes must be between 1 and n = {n}, got {n_classes!r}")
        a = _balanced(int(n), int(n_classes))
    else:
        a = np.asarray(class_sizes, dtype=np.int64)
        if a.ndim != 1 or (a < 1).any() or int(a.sum()) != n:
            raise ValueError(f"class_sizes must be positive integers adding up to n = {n}")
    ks = [int(k) for k in ks]
    bad = [k for k in ks if not 1 <= k <= n]
    if not ks or bad:
        raise ValueError(f"every k must be between 1 and n = {n}; got {bad or 'none'}")
    return a, ks


# A sweep's cost is estimated on at most this many of its k (evenly spread), scaled to all of them.
_SWEEP_ESTIMATE_KS = 48


def sweep_seconds(n: int, ks: Iterable[int], measures: Iterable[str] | str | None = None, model: str = "num1",
                  n_classes: int = 10, class_sizes=None, samples: int = 100, part: str = "both") -> float:
    """Estimated seconds of one core of :func:`cluster_sweep` with these arguments (``part``:
    "draw" for :func:`sweep_tables`, "score" for :func:`score_sweep`)."""
    a, ks = _sweep_margins(n, ks, model, n_classes, class_sizes)
    return _sweep_cost(int(n), a, ks, measures, model, _check_samples(samples), part)


def _sweep_cost(n: int, a: np.ndarray, ks: list[int], measures, model: str, samples: int, part: str) -> float:
    picked = ks if len(ks) <= _SWEEP_ESTIMATE_KS else [ks[i] for i in np.linspace(0, len(ks) - 1,
                                                                                      _SWEEP_ESTIMATE_KS).astype(int)]
    total = 0.0
    for k in picked:
        t = _table_with_margins(a, _balanced(n, k))
        keys = [] if part == "draw" else [m.key for m in resolve(measures, t)]
        total += null_seconds(t, keys, model, samples, part)
    return total * len(ks) / len(picked)


def _sweep_guard(n: int, a: np.ndarray, ks: list[int], measures, model: str, samples: int, budget,
                 part: str = "both") -> Deadline:
    budget = checked_budget(budget)
    for k in sorted(set(ks))[:: max(1, len(set(ks)) // _SWEEP_ESTIMATE_KS)] + [max(ks)]:
        _check_drawable(_table_with_margins(a, _balanced(n, k)), model)
    if budget is not None:
        seconds = _sweep_cost(n, a, ks, measures, model, samples, part)
        if seconds > budget:
            fits = fitting_samples(lambda s: _sweep_cost(n, a, ks, measures, model, s, part), budget)
            check_budget(f"{'drawing ' if part == 'draw' else 'scoring ' if part == 'score' else ''}{samples:,} "
                         f"random labelings of {n:,} items for each of {len(ks):,} values of k under {model}",
                         seconds, budget, f"at most {fits:,} samples per k fit" if fits else "choose fewer values of k")
    return Deadline(budget)


def cluster_sweep(n: int, ks: Iterable[int], measures: Iterable[str] | str | None = None, model: str = "num1",
                  n_classes: int = 10, class_sizes=None, samples: int = 100, seed=None,
                  log_base: float = math.e, beta: float = 1.0,
                  progress: Progress | None = None, *, budget=DEFAULT_BUDGET) -> pd.DataFrame:
    """scikit-learn's "adjustment for chance" experiment under a random model:
    random clusterings of ``n`` items into k clusters, for each k in ``ks``, scored
    against gold classes.

    The classes: ``class_sizes`` if given, else ``n_classes`` balanced classes. Under
    ``num1`` they stay fixed and the clusterings are uniform over the partitions into
    k blocks; under ``num`` the classes are random too (uniform with that many
    blocks); under ``perm`` both are shuffled with balanced cluster sizes. (``all``
    and ``all1`` draw the number of clusters at random, so k means nothing there.)

    Returns a long DataFrame: columns ``k``, ``draw`` and one per measure key;
    ``samples`` rows per k. ``progress(done, total)`` counts draws over all k.
    ``score_sweep(sweep_tables(...), measures, log_base, beta)`` gives the same frame
    with the random tables kept (to score them again for another β or log base).
    ``budget`` (seconds of one core; None: no limit) as in :func:`null_distribution`, for the
    whole sweep (:func:`sweep_seconds`).
    """
    a, ks = _sweep_margins(n, ks, model, n_classes, class_sizes)
    samples = _check_samples(samples)
    rng = _rng(seed)
    _check_log_base(log_base)
    _check_beta(beta)
    deadline = _sweep_guard(int(n), a, ks, measures, model, samples, budget)
    total, frames = samples * len(ks), []
    for i, k in enumerate(ks):
        t = _table_with_margins(a, _balanced(int(n), k))

        def step(done, _, offset=i * samples):
            if progress is not None:
                progress(offset + done, total)

        keys = [m.key for m in _measures(t, measures)]
        draws = _null_frame(t, keys, model, samples, rng, log_base, beta, step, deadline)
        frames.append(_sweep_rows(k, {c: draws[c].to_numpy() for c in draws.columns}, list(draws.columns), len(draws)))
    return pd.concat(frames, ignore_index=True)


def _sweep_rows(k: int, columns: dict[str, np.ndarray], keys: list[str], size: int) -> pd.DataFrame:
    """One k's rows of the sweep's frame: k, draw, then the measures' values (built in one go:
    pandas' column inserts cost more than the values of a β step)."""
    return pd.DataFrame({"k": np.full(size, int(k), dtype=np.int64), "draw": np.arange(size), **columns},
                        columns=["k", "draw", *keys])


def sweep_tables(n: int, ks: Iterable[int], model: str = "num1", n_classes: int = 10, class_sizes=None,
                 samples: int = 100, seed=None, *, progress: Progress | None = None,
                 budget=DEFAULT_BUDGET) -> tuple[tuple[int, RandomTables], ...]:
    """The random tables of :func:`cluster_sweep` (same arguments, same seed: the same draws),
    as ``((k, RandomTables), ...)`` in the order of ``ks``, for :func:`score_sweep`.
    ``progress(done, total)`` counts draws over all k; ``budget`` bounds the drawing's cost."""
    a, ks = _sweep_margins(n, ks, model, n_classes, class_sizes)
    samples = _check_samples(samples)
    rng = _rng(seed)
    deadline = _sweep_guard(int(n), a, ks, None, model, samples, budget, "draw")
    out = []
    for i, k in enumerate(ks):
        t = _table_with_margins(a, _balanced(int(n), k))
        chunks = _drawn(t, model, samples, rng, progress, deadline, i * samples, samples * len(ks))
        out.append((k, RandomTables(t, model, samples, chunks)))
    return tuple(out)


def score_sweep(tables: Sequence[tuple[int, RandomTables]], measures: Iterable[str] | str | None = None,
                log_base: float = math.e, beta: float = 1.0, progress: Progress | None = None, *,
                budget=DEFAULT_BUDGET) -> pd.DataFrame:
    """:func:`cluster_sweep`'s frame from the tables of :func:`sweep_tables`: identical values
    for the same arguments and seed. ``progress(done, total)`` counts scored draws over all k;
    ``budget`` bounds the scoring's cost."""
    tables = list(tables)
    if not tables or not all(isinstance(x, tuple) and len(x) == 2 and isinstance(x[1], RandomTables)
                             for x in tables):
        raise ValueError("tables must be the (k, random tables) pairs of sweep_tables")
    budget = checked_budget(budget)
    if budget is not None:
        picked = tables if len(tables) <= _SWEEP_ESTIMATE_KS else [
            tables[i] for i in np.linspace(0, len(tables) - 1, _SWEEP_ESTIMATE_KS).astype(int)]
        seconds = sum(null_seconds(r.table, [m.key for m in resolve(measures, r.table)], r.model, r.samples, "score")
                      for _, r in picked) * len(tables) / len(picked)
        check_budget(f"scoring the random labelings of {len(tables):,} values of k", seconds, budget,
                     "fewer measures, or fewer samples per k")
    deadline = Deadline(budget)
    total, frames, offset = sum(r.samples for _, r in tables), [], 0
    for k, r in tables:
        def step(done, _, offset=offset):
            if progress is not None:
                progress(offset + done, total)

        keys, columns = _score_columns(r, measures, log_base, beta, step, deadline)
        frames.append(_sweep_rows(k, columns, keys, r.samples))
        offset += r.samples
    return pd.concat(frames, ignore_index=True)
