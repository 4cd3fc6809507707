"""Null distributions: the measures of many random labelings, kept as tables or scored as drawn;
the expectations they estimate where no closed form exists, and each measure's profile against them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.batch import TableBatch
from ..core.contingency import Contingency
from ..core.limits import DEFAULT_BUDGET, Deadline, checked_budget
from ..core.registry import MEASURES, evaluate
from .costs import _guard
from .draws import DEFAULT_SAMPLES, Progress, _check, _check_samples, _chunks, _evaluate_draws, _measures, _rng
from .expectations import _TIE, Expectation, _adjust, _close, _exact_value, _std, best_value


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
    samplers' hard limits (:mod:`metrics.core.limits`).

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
                      for p in _parts_of(k)(draws)) for k in keys]
    out = []
    for k in keys:
        per_draw = [_parts_of(k)(d) for d in draws]
        out.append(tuple(np.array([float(p[j]) for p in per_draw], dtype=np.float64)
                         for j in range(len(per_draw[0]))))
    return out


def _parts_of(key: str):
    """The function giving measure ``key``'s β-free parts (only measures that declare them come here)."""
    beta_parts = MEASURES[key].beta_parts
    if beta_parts is None:
        raise ValueError(f"{key} has no β-free parts")
    return beta_parts[0]


def _combine(m, parts: tuple[np.ndarray, ...], beta: float) -> np.ndarray:
    """``m``'s values from its β-free parts, clipped into its bounds as every evaluation clips."""
    values = np.broadcast_to(np.asarray(m.beta_parts[1](*parts, beta), dtype=np.float64), parts[0].shape)
    return np.clip(values, *m.bounds)


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
    # A measure that can be +∞ (minkowski) has an infinite mean; its standard error is NaN. Draws
    # that never vary have no standard error to give: NaN, and said so (all_draws_equal).
    constant = _all_equal(draws)
    stderr = math.nan if constant else _std(draws) / math.sqrt(samples)
    return Expectation(float(draws[0]) if constant else float(draws.mean()), stderr, False, samples, constant)


def _all_equal(draws: np.ndarray) -> bool:
    return draws.size > 1 and bool(np.isfinite(draws[0])) and bool((draws == draws[0]).all())


def expected(t, key: str, model: str = "perm", samples: int | None = None, seed=None,
             log_base: float = math.e, beta: float = 1.0, *, progress: Progress | None = None,
             budget=DEFAULT_BUDGET) -> float:
    """E[key] under ``model``: exact where a closed form exists, else Monte Carlo over
    ``samples`` random labelings (default 1000; reproducible with ``seed``; ``progress`` and
    ``budget`` as in :func:`null_distribution`).
    :func:`expectation` also says which, with the standard error."""
    return expectation(t, key, model, samples, seed, log_base, beta, progress=progress, budget=budget).value


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


PROFILE_COLUMNS = ("observed", "expected", "exact", "stderr", "std", "z", "percentile", "p_value", "adjusted",
                   "all_draws_equal")


def summarize(t, draws: pd.DataFrame, model: str = "perm", log_base: float = math.e,
              beta: float = 1.0) -> pd.DataFrame:
    """The profile of :func:`profile` from a null distribution already drawn (the
    output of :func:`null_distribution` for the same table, model, log base and β).

    Index: measure keys (the columns of ``draws``). Columns:

    * ``observed`` — the measure of ``t``;
    * ``expected`` — exact where a closed form exists (``exact`` True, ``stderr`` 0; +∞ where
      :func:`~metrics.chance.infinite_expectation` says a table of positive probability scores
      +∞), else the mean of the draws (``stderr`` = std/√draws, NaN when the draws never vary);
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
      NaN for measures without a finite best value (``mutual_info``);
    * ``all_draws_equal`` — the expectation is a Monte Carlo mean of draws that never varied: no
      standard error (NaN), and no proof that a rarer value would not change it.
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
        constant = exact is None and _all_equal(x)
        if exact is None:
            e = float(x[0]) if constant else float(x.mean())
            stderr = std / math.sqrt(x.size) if x.size > 1 and not constant else math.nan
        else:
            e, stderr = exact, 0.0
        if math.isinf(e):
            z = math.nan  # no distance in standard deviations from an infinite expectation
        elif std > 0 and math.isfinite(std):
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
                     "adjusted": _adjust(obs, e, best_value(key)), "all_draws_equal": constant})
    # Built column by column, in their final types (float64, and bool for ``exact``): pandas'
    # record-wise construction and astype cost ~5 ms a call, and the Chance page calls this per k.
    columns = {c: np.array([r[c] for r in rows], dtype=bool if c in ("exact", "all_draws_equal") else np.float64)
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
