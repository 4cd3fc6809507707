"""Is A really better than B? A paired bootstrap of two solutions against the same gold classes.

:func:`paired_bootstrap` resamples the items with replacement, ``n_resamples`` times, counts the
two tables (gold × A, gold × B) of every resample and scores them with every measure, so that
each measure's difference between A and B comes with a confidence interval and a p-value.

How the resamples are made. Items that share their gold class, their cluster in A and their
cluster in B are interchangeable: a resample is fully described by how many of each of the J
distinct (class, A-cluster, B-cluster) triples it holds. Drawing n items with replacement puts
Multinomial(n, m / n) items on the triples (m: the triples' counts in the data), so the counts are
drawn that way where J is small against n (few classes and clusters), and as n item indices per
resample (counted into the triples with one ``bincount``) where J is large — the same distribution
both ways. From the (B, J) counts, the tables of A and of B of every resample are one weighted
``bincount`` each: a dense (B, R, K) batch scored by :func:`metrics.evaluate_batch` (every measure
vectorized over the batch), or, for tables of more than 2^18 cells, one sparse table a resample
scored by :func:`metrics.evaluate`. No Python loop runs per resample and measure.

The difference, the interval and the p-value. For each measure, ``difference`` is A's value minus
B's on the data, oriented so that a positive difference means A is better: for a measure where
lower is better (VI, Mirkin, …) it is B − A. The same oriented difference is computed on every
resample; ``low`` and ``high`` are its (1 − confidence)/2 and (1 + confidence)/2 quantiles (the
percentile interval, Efron & Tibshirani 1993, ch. 13). The two-sided ``p_value`` is the smallest
α at which the equal-tailed percentile interval of level 1 − α leaves out 0,

    p = min(1, 2 · min(1 + #{d* ≤ 0}, 1 + #{d* ≥ 0}) / (B + 1)),

with d* the resampled differences and B the resamples whose difference is defined; the + 1 (Davison
& Hinkley 1997, §4.4) keeps a p-value from being 0 with finitely many resamples, so the smallest
p-value B resamples can give is 2 / (B + 1). A difference of exactly 0 counts on both sides: two
identical solutions get p = 1. The interval and the p-value agree: 0 lies outside [low, high]
roughly when p < 1 − confidence. A measure that resampling biases (a resample repeats items,
which some measures read as more structure) can put the data's own difference outside its
percentile interval: the interval still says how far resampling moves the difference. The
bootstrap measures the uncertainty that comes from the sample of items, not from the clustering
algorithm's own randomness (run it with other seeds for that).
"""

from __future__ import annotations

import importlib.util
import math
import numbers
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from ._lazy import lazy_module
from .chance.draws import _rng
from .core.contingency import Contingency
from .core.kernels import array_api
from .core.labels import as_1d_labels, check_noise, factorize_labels, noise_mask
from .core.limits import COSTS, DEFAULT_BUDGET, Deadline, Progress, check_budget, checked_budget
from .core.registry import Measure, check_beta, check_log_base, evaluate, resolve

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    pd = lazy_module("pandas")

__all__ = ["paired_bootstrap", "bootstrap_seconds", "COLUMNS"]

#: The columns of :func:`paired_bootstrap`'s frame, one row per measure.
COLUMNS = ["score_a", "score_b", "difference", "low", "high", "p_value", "significant", "resamples"]

# Tables of at most this many cells are scored as dense batches (metrics.core.batch), larger ones
# one sparse table a resample; a chunk of resamples holds at most _CHUNK_CELLS cells or labels.
_DENSE_TABLE_CELLS = 1 << 18
_CHUNK_CELLS = 1 << 22
# Counts of the triples are drawn as a multinomial when there are fewer than n / _MULTINOMIAL_RATIO
# triples: a multinomial costs about as much per triple as eight item draws with their counting.
_MULTINOMIAL_RATIO = 8


class _Triples:
    """The items of three labelings as the distinct (class, A-cluster, B-cluster) triples."""

    def __init__(self, gold: np.ndarray, a: np.ndarray, b: np.ndarray):
        self.n = gold.size
        self.n_classes, self.k_a, self.k_b = int(gold.max()) + 1, int(a.max()) + 1, int(b.max()) + 1
        # Two steps of at most n distinct keys each: no product of three label counts in int64.
        pair_key = np.multiply(gold, self.k_a, dtype=np.int64) + a
        pair_codes, pairs = pd.factorize(pair_key, sort=False)
        triple_codes, triples = pd.factorize(np.multiply(pair_codes, self.k_b, dtype=np.int64) + b, sort=False)
        self.item_triple = triple_codes.astype(np.int64, copy=False)
        pair_of, self.b = np.divmod(np.asarray(triples, dtype=np.int64), self.k_b)
        pair_values = np.asarray(pairs, dtype=np.int64)[pair_of]
        self.gold, self.a = np.divmod(pair_values, self.k_a)
        self.counts = np.bincount(self.item_triple, minlength=triples.size)

    @property
    def size(self) -> int:
        return int(self.counts.size)

    @property
    def by_multinomial(self) -> bool:
        return self.size * _MULTINOMIAL_RATIO <= self.n

    def cells(self, side: str) -> tuple[np.ndarray, int, int]:
        """Each triple's cell in side ``"a"`` or ``"b"``'s table (row-major), and that table's shape."""
        k = self.k_a if side == "a" else self.k_b
        return self.gold * k + (self.a if side == "a" else self.b), self.n_classes, k

    def resample_counts(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """(size, J) counts of the triples in ``size`` resamples of n items with replacement."""
        if self.by_multinomial:
            return rng.multinomial(self.n, self.counts / self.n, size=size)
        items = self.item_triple[rng.integers(0, self.n, (size, self.n))]
        items += np.arange(0, size * self.size, self.size)[:, None]
        return np.bincount(items.reshape(-1), minlength=size * self.size).reshape(size, self.size)


def _codes(labels, name: str, noise=None) -> np.ndarray:
    """Codes 0..k−1 of one labeling, every code used (the reader's checks and words); with a
    ``noise`` label, each noise item gets a code of its own (the "singletons" reading)."""
    arr = as_1d_labels(labels, name)
    if isinstance(arr, array_api.DeviceLabels):
        arr = array_api.to_host(arr.array)
    codes, uniques = factorize_labels(arr, name)
    if noise is not None:
        where = np.flatnonzero(noise_mask(arr, noise))
        codes = np.array(codes, dtype=np.int64)
        codes[where] = len(uniques) + np.arange(where.size)
        uniques = np.arange(len(uniques) + where.size)
    used = np.bincount(codes, minlength=len(uniques)) > 0
    if not used.all():
        codes = (np.cumsum(used) - 1)[codes]
    return np.asarray(codes, dtype=np.int64)


def _check_resamples(n_resamples) -> int:
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise ValueError(f"n_resamples must be a positive integer, got {n_resamples!r}")
    return int(n_resamples)


def _check_confidence(confidence) -> float:
    if (isinstance(confidence, (bool, np.bool_)) or not isinstance(confidence, numbers.Real)
            or not 0 < float(confidence) < 1):
        raise ValueError(f"confidence must be a number strictly between 0 and 1 (e.g. 0.95), got {confidence!r}")
    return float(confidence)


def _prepare(labels_true, pred_a, pred_b, measures, noise=None, noise_as: str = "cluster"):
    check_noise(noise, noise_as)
    if noise_as == "exclude":
        raise ValueError("noise_as='exclude' scores A and B on different items (each leaves out its own noise), "
                         "so their difference cannot be resampled item by item: use 'cluster' or 'singletons'")
    split = noise if noise_as == "singletons" else None
    gold, a, b = _codes(labels_true, "labels_true"), _codes(pred_a, "pred_a", split), _codes(pred_b, "pred_b", split)
    if not gold.size == a.size == b.size:
        raise ValueError(f"labels_true, pred_a and pred_b must have the same length, got {gold.size}, {a.size} "
                         f"and {b.size}")
    if gold.size < 2:
        raise ValueError("a bootstrap resamples items: it needs at least 2 items")
    table_a, table_b = Contingency.from_labels(gold, a), Contingency.from_labels(gold, b)
    if measures is None:
        ms = [m for m in resolve(None) if m.applies_to(table_a) and m.applies_to(table_b)]
    else:
        ms = resolve(measures)
        for m in ms:
            for side, t in (("A", table_a), ("B", table_b)):
                reason = m.why_not(t)
                if reason:
                    raise ValueError(f"{m.key} is not computed for solution {side}'s table: {reason}")
    return _Triples(gold, a, b), table_a, table_b, ms


def _chunk_size(triples: _Triples) -> int:
    widest = max(triples.size, triples.n_classes * max(triples.k_a, triples.k_b))
    if not triples.by_multinomial:
        widest = max(widest, triples.n)
    return max(1, _CHUNK_CELLS // widest)


def _seconds(triples: _Triples, table_a: Contingency, table_b: Contingency, keys: list[str], n_resamples: int) -> float:
    from .chance.costs import _batch_score
    from .measures.costs import evaluate_seconds
    from .measures.expected import emi_out_of_budget, emi_terms

    c = COSTS
    # E[I]'s walk, compiled where numba can run (a resample's tables are large enough to load it).
    from .core.kernels import counting

    compiled = counting.FORCE_KERNEL != "numpy" and importlib.util.find_spec("numba") is not None
    emi_term = c["emi_walk_term"] if compiled else c["emi_term"]
    draw = (c["multinomial_cell"] * triples.size if triples.by_multinomial
            else c["throw_item"] * triples.n + c["batch_cell"] * triples.size)
    per_resample, once = draw, 0.0
    ami = any(k.startswith("ami") for k in keys)
    for t in (table_a, table_b):
        cells = t.n_classes * t.n_clusters
        per_resample += c["batch_cell"] * triples.size   # the weighted count of its tables
        if cells <= _DENSE_TABLE_CELLS:
            per_resample += _batch_score(cells, len(keys))
            if ami and not emi_out_of_budget(t):
                per_resample += emi_term * emi_terms(t)
            once += math.ceil(n_resamples / _chunk_size(triples)) * c["batch"]
        else:
            per_resample += evaluate_seconds(t, keys)
    return n_resamples * per_resample + once


def bootstrap_seconds(labels_true, pred_a, pred_b, measures: Iterable[str] | str | None = None,
                      n_resamples: int = 1000, *, noise=None, noise_as: str = "cluster") -> float:
    """Estimated seconds of one core of :func:`paired_bootstrap` with these arguments (the cost
    model of :mod:`metrics.core.limits`)."""
    triples, table_a, table_b, ms = _prepare(labels_true, pred_a, pred_b, measures, noise, noise_as)
    return _seconds(triples, table_a, table_b, [m.key for m in ms], _check_resamples(n_resamples))


def _scores(counts: np.ndarray, triples: _Triples, side: str, keys: list[str], log_base: float,
            beta: float) -> pd.DataFrame:
    """The measures of side ``side``'s table in each resample of ``counts`` (size, J)."""
    from .core.batch import evaluate_batch

    cell, rows, cols = triples.cells(side)
    size = counts.shape[0]
    if rows * cols <= _DENSE_TABLE_CELLS:
        flat = cell[None, :] + np.arange(0, size * rows * cols, rows * cols)[:, None]
        tables = np.bincount(flat.reshape(-1), weights=counts.reshape(-1), minlength=size * rows * cols)
        return evaluate_batch(tables.reshape(size, rows, cols), keys, log_base=log_base, beta=beta)
    from scipy import sparse

    values = []
    for row in counts:   # tables too large for a dense batch: one sparse table a resample
        kept = row > 0
        t = sparse.coo_matrix((row[kept], (triples.gold[kept], cell[kept] % cols)), shape=(rows, cols))
        values.append(evaluate(Contingency.from_table(t), keys, log_base=log_base, beta=beta))
    return pd.DataFrame(values, columns=keys)


def _summary(point: float, draws: np.ndarray, confidence: float) -> tuple:
    """(low, high, p_value, significant, resamples) of the oriented resampled differences ``draws``."""
    draws = draws[~np.isnan(draws)]
    if draws.size == 0 or math.isnan(point):
        return math.nan, math.nan, math.nan, pd.NA, int(draws.size)
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(draws, [tail, 1.0 - tail])
    below, above = int(np.count_nonzero(draws <= 0)), int(np.count_nonzero(draws >= 0))
    p = min(1.0, 2.0 * (1 + min(below, above)) / (draws.size + 1))
    return float(low), float(high), p, bool(low > 0 or high < 0), int(draws.size)


def _oriented(m: Measure, a, b):
    with np.errstate(invalid="ignore"):
        return np.subtract(a, b) if m.higher_is_better else np.subtract(b, a)


def paired_bootstrap(labels_true, pred_a, pred_b, measures: Iterable[str] | str | None = None,
                     n_resamples: int = 1000, confidence: float = 0.95, seed=None, *,
                     log_base: float = math.e, beta: float = 1.0, noise=None, noise_as: str = "cluster",
                     progress: Progress | None = None, budget=DEFAULT_BUDGET) -> pd.DataFrame:
    """Whether solution A is better than solution B under each measure, beyond resampling the items.

    Parameters
    ----------
    labels_true, pred_a, pred_b : array-like of length n
        Each item's gold class and its clusters in solutions A and B (any hashable labels, as
        :meth:`Contingency.from_labels <metrics.core.contingency.Contingency.from_labels>` takes).
    measures : str, list of str or None
        Measure keys (default: every registered measure that is computed for both tables).
    n_resamples : int
        Resamples of the n items with replacement (default 1,000).
    confidence : float
        Level of the percentile interval (default 0.95).
    seed : None, int or numpy Generator
        The resamples' seed: the same seed gives the same frame.
    log_base, beta
        As in :func:`metrics.evaluate`.
    noise, noise_as
        The solutions' noise label (DBSCAN's −1) and its reading, as in
        :meth:`Contingency.from_labels <metrics.core.contingency.Contingency.from_labels>`:
        "cluster" (the labels as they are) or "singletons" (each noise item a cluster of its own;
        a resample that draws one twice puts both copies together, as it does any item). "exclude"
        is refused: A and B would be scored on different items.
    progress : callable, optional
        ``progress(done, total)`` after each chunk of resamples.
    budget : float or None
        Seconds of one core (default 30; None: no limit): beyond its estimate (:func:`bootstrap_seconds`)
        the bootstrap is refused with a :class:`~metrics.core.limits.CostError`, and a run that passes
        three times its budget is stopped.

    Returns
    -------
    pandas.DataFrame
        One row per measure key (the index), columns ``score_a`` and ``score_b`` (the measure on
        the data), ``difference`` (A − B oriented so that positive means A is better: B − A for a
        measure where lower is better), ``low`` and ``high`` (the percentile interval of the
        resampled differences at ``confidence``), ``p_value`` (two-sided, for "no difference"),
        ``significant`` (0 lies outside [low, high]: the difference survives resampling at
        ``confidence``; NA where no resample defines it) and ``resamples`` (the resamples whose
        difference is defined). ``frame.attrs`` keeps
        ``n_resamples``, ``confidence``, ``seed`` and ``n``. The method is the module's docstring.

    Raises
    ------
    ValueError
        On labelings of different lengths, fewer than 2 items, bad labels (as ``from_labels``), an
        unknown measure (``KeyError``), a measure not computed for one of the tables, a bad
        ``n_resamples``, ``confidence``, ``seed``, ``log_base`` or ``beta``.
    metrics.core.limits.CostError
        When the estimate exceeds ``budget``.

    Examples
    --------
    >>> import metrics
    >>> gold = [0] * 50 + [1] * 50
    >>> good, poor = gold[:], [0] * 40 + [1] * 20 + [0] * 40
    >>> r = metrics.paired_bootstrap(gold, good, poor, ["ari", "vi"], n_resamples=200, seed=1)
    >>> bool((r["difference"] > 0).all() and (r["low"] > 0).all() and (r["p_value"] < 0.05).all())
    True
    """
    n_resamples = _check_resamples(n_resamples)
    confidence = _check_confidence(confidence)
    check_log_base(log_base)
    check_beta(beta)
    budget = checked_budget(budget)
    rng = _rng(seed)
    triples, table_a, table_b, ms = _prepare(labels_true, pred_a, pred_b, measures, noise, noise_as)
    keys = [m.key for m in ms]
    if budget is not None:
        check_budget(f"{n_resamples:,} bootstrap resamples of n = {triples.n:,} items for {len(keys)} measure(s)",
                     _seconds(triples, table_a, table_b, keys, n_resamples), budget, "fewer resamples or measures")
    deadline = Deadline(budget)
    score_a = evaluate(table_a, keys, log_base=log_base, beta=beta)
    score_b = evaluate(table_b, keys, log_base=log_base, beta=beta)
    chunk, done, parts = _chunk_size(triples), 0, []
    while done < n_resamples:
        size = min(chunk, n_resamples - done)
        counts = triples.resample_counts(size, rng)
        a = _scores(counts, triples, "a", keys, log_base, beta)
        b = _scores(counts, triples, "b", keys, log_base, beta)
        parts.append(np.column_stack([_oriented(m, a[m.key].to_numpy(), b[m.key].to_numpy()) for m in ms])
                     if ms else np.empty((size, 0)))
        done += size
        deadline.check("the paired bootstrap")
        if progress is not None:
            progress(done, n_resamples)
    draws = np.concatenate(parts) if parts else np.empty((0, len(ms)))
    rows = []
    for j, m in enumerate(ms):
        point = float(_oriented(m, score_a[m.key], score_b[m.key]))
        rows.append((score_a[m.key], score_b[m.key], point, *_summary(point, draws[:, j], confidence)))
    frame = pd.DataFrame(rows, index=pd.Index(keys, name="measure"), columns=COLUMNS)
    frame["resamples"] = frame["resamples"].astype(np.int64)
    frame["significant"] = frame["significant"].astype("boolean")
    frame.attrs.update(n_resamples=n_resamples, confidence=confidence,
                       seed=int(seed) if isinstance(seed, (int, np.integer)) else None, n=triples.n)
    return frame
