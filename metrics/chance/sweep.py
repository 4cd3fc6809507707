"""scikit-learn's "adjustment for chance" experiment: random clusterings into k clusters, for
each k, against balanced (or given) gold classes — and the one rule of a sweep's margins.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
from scipy import sparse

from ..core.contingency import Contingency
from ..core.limits import DEFAULT_BUDGET, Deadline, check_budget, checked_budget
from ..core.registry import check_beta, check_log_base, resolve
from . import models as rm
from .costs import fitting_samples, null_seconds
from .draws import Progress, _check_drawable, _check_samples, _measures, _rng
from .null import RandomTables, _drawn, _null_frame, _score_columns

__all__ = ["balanced_sizes", "sweep_table", "cluster_sweep", "sweep_tables", "score_sweep", "sweep_seconds"]


def balanced_sizes(n: int, k: int) -> np.ndarray:
    """The sizes of ``k`` balanced blocks of ``n`` items: n // k each, one more for the first
    n % k. A sweep's balanced classes and its clusterings into k clusters have these sizes."""
    return np.full(k, n // k, dtype=np.int64) + (np.arange(k) < n % k)


def _table_with_margins(a: np.ndarray, b: np.ndarray) -> Contingency:
    """Some table with row sums a and column sums b (the north-west corner rule)."""
    rows, cols, vals = [], [], []
    a, b = a.copy(), b.copy()
    i = j = 0
    while i < a.size and j < b.size:
        x = min(a[i], b[j])
        rows.append(i)
        cols.append(j)
        vals.append(x)
        a[i] -= x
        b[j] -= x
        if a[i] == 0:
            i += 1
        if j < b.size and b[j] == 0:
            j += 1
    return Contingency.from_table(sparse.coo_matrix((vals, (rows, cols)), shape=(a.size, b.size)))


def sweep_table(n: int, k: int, n_classes: int = 10, class_sizes=None) -> Contingency:
    """A table with the margins :func:`cluster_sweep` draws under for ``k`` clusters: the classes
    (``class_sizes``, else ``n_classes`` balanced ones) against ``k`` balanced clusters. Its margins
    are all an expectation under num1, num and perm depends on (:func:`metrics.chance.summarize`
    of a sweep's draws for k reads its expectations from this table)."""
    a, (k,) = _sweep_margins(n, [k], "num1", n_classes, class_sizes)
    return _table_with_margins(a, balanced_sizes(int(n), k))


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
        a = balanced_sizes(int(n), int(n_classes))
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
    a, k_list = _sweep_margins(n, ks, model, n_classes, class_sizes)
    return _sweep_cost(int(n), a, k_list, measures, model, _check_samples(samples), part)


def _sweep_cost(n: int, a: np.ndarray, ks: list[int], measures, model: str, samples: int, part: str) -> float:
    picked = ks if len(ks) <= _SWEEP_ESTIMATE_KS else [ks[i] for i in np.linspace(0, len(ks) - 1,
                                                                                      _SWEEP_ESTIMATE_KS).astype(int)]
    total = 0.0
    for k in picked:
        t = _table_with_margins(a, balanced_sizes(n, k))
        keys = [] if part == "draw" else [m.key for m in resolve(measures, t)]
        total += null_seconds(t, keys, model, samples, part)
    return total * len(ks) / len(picked)


def _sweep_guard(n: int, a: np.ndarray, ks: list[int], measures, model: str, samples: int, budget,
                 part: str = "both") -> Deadline:
    budget = checked_budget(budget)
    for k in sorted(set(ks))[:: max(1, len(set(ks)) // _SWEEP_ESTIMATE_KS)] + [max(ks)]:
        _check_drawable(_table_with_margins(a, balanced_sizes(n, k)), model)
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
    a, k_list = _sweep_margins(n, ks, model, n_classes, class_sizes)
    samples = _check_samples(samples)
    rng = _rng(seed)
    check_log_base(log_base)
    check_beta(beta)
    deadline = _sweep_guard(int(n), a, k_list, measures, model, samples, budget)
    total, frames = samples * len(k_list), []
    for i, k in enumerate(k_list):
        t = _table_with_margins(a, balanced_sizes(int(n), k))

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
    a, k_list = _sweep_margins(n, ks, model, n_classes, class_sizes)
    samples = _check_samples(samples)
    rng = _rng(seed)
    deadline = _sweep_guard(int(n), a, k_list, None, model, samples, budget, "draw")
    out = []
    for i, k in enumerate(k_list):
        t = _table_with_margins(a, balanced_sizes(int(n), k))
        chunks = _drawn(t, model, samples, rng, progress, deadline, i * samples, samples * len(k_list))
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
