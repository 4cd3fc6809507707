"""Dom's desirable properties P1–P5 and Rosenberg & Hirschberg's P6–P7 ([RH07] §4, Table 1) over
their grid of Dom tables, as satisfaction rates (their Table 2), and the steps where they fail.

[RH07] Rosenberg & Hirschberg (2007), V-Measure. EMNLP-CoNLL, §4 and Tables 1–2.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache

import numpy as np
import pandas as pd

from ..core.batch import evaluate_batch
from ..core.limits import DEFAULT_BUDGET, check_budget, checked_budget
from ..core.registry import MEASURES, resolve
from ..papers import generators
from ..papers.generators.checks import _positive

#: Rosenberg & Hirschberg's grid (§4): |C| = 5 fixed, the others varied.
RH_GRID: dict[str, tuple] = {
    "n_classes": (5,),
    "n_useful_clusters": tuple(range(2, 12)),
    "n_noise_clusters": tuple(range(7)),
    "n_noise_classes": tuple(range(7)),
    "eps1": (0.0, 0.033, 0.066, 0.1),
    "eps2": (0.0, 0.066, 0.133, 0.2),
    "eps3": (0.0, 0.066, 0.133, 0.2),
}
_PARAMS = tuple(RH_GRID)

#: [RH07] Table 1, for a measure M where higher is better (inverted for distances).
PROPERTIES: dict[str, str] = {
    "P1": "|Ku| < |C|: one more useful cluster, up to |C|, raises M (ΔM/Δ|Ku| > 0)",
    "P2": "|Ku| ≥ |C|: one more useful cluster lowers M (ΔM/Δ|Ku| < 0)",
    "P3": "ε2 > 0: one more noise cluster lowers M (ΔM/Δ|Knoise| < 0)",
    "P4": "more ε1 lowers M (δM/δε1 ≤ 0, equality only if |Ku| = 1)",
    "P5": "more ε2 lowers M (δM/δε2 ≤ 0, equality only if |Knoise| = 0)",
    "P6": "ε3 > 0: one more noise class lowers M (ΔM/Δ|Cnoise| < 0)",
    "P7": "more ε3 lowers M (δM/δε3 ≤ 0, equality only if |Cnoise| = 0)",
}
# Property → the grid parameter it steps.
_AXIS = {"P1": "n_useful_clusters", "P2": "n_useful_clusters", "P3": "n_noise_clusters", "P4": "eps1",
         "P5": "eps2", "P6": "n_noise_classes", "P7": "eps3"}


# ====================================================================== P1–P7 over Dom's grid
# Items per generated table on the P1–P7 grid. Rosenberg & Hirschberg do not state
# it. It must be large enough that every non-zero expected count is ≥ 1, where
# pair counts C(x, 2) are meaningful (the thinnest cell of the grid, ε1 = .033
# over 44 useless pairs, holds 7.5 items at n = 10^4; it would be 0.75 at 10^3).
PROPERTY_GRID_N = 10_000

def _normalize_grid(grid: Mapping | None) -> tuple[tuple[str, tuple], ...]:
    g = dict(RH_GRID)
    if grid is not None:
        if not isinstance(grid, Mapping):
            raise ValueError("grid must be a mapping from parameter name to values")
        unknown = set(grid) - set(_PARAMS)
        if unknown:
            raise ValueError(f"unknown grid parameter(s) {sorted(unknown)}; known: {', '.join(_PARAMS)}")
        g.update(grid)
    out = []
    for name in _PARAMS:
        vals = g[name]
        vals = (vals,) if isinstance(vals, (int, float, np.number)) else tuple(vals)
        if not vals:
            raise ValueError(f"grid[{name!r}] is empty")
        try:
            arr = np.asarray(vals, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"grid[{name!r}] must hold numbers") from None
        if not np.isfinite(arr).all():
            raise ValueError(f"grid[{name!r}] has NaN or infinite values")
        if np.any(np.diff(np.sort(arr)) == 0):
            raise ValueError(f"grid[{name!r}] repeats a value")
        out.append((name, tuple(float(v) for v in np.sort(arr))))
    return tuple(out)


@lru_cache(maxsize=8)
def _grid_values(keys: tuple[str, ...], n: float, grid: tuple, log_base: float, beta: float):
    """Measure values over the whole grid: (params dict of grid-shaped arrays, values of
    shape grid + (len(keys),), NaN where the setting is unrealizable)."""
    values = [np.asarray(v) for _, v in grid]
    mesh = np.meshgrid(*values, indexing="ij")
    params = {name: m for (name, _), m in zip(grid, mesh)}
    flat = {k: v.ravel() for k, v in params.items()}
    # Generator errors (negative counts, ε out of range, ε > 1) are the caller's mistake.
    probe = np.column_stack([flat[k] for k in _PARAMS])
    realizable = generators.dom_realizable(*(flat[k] for k in _PARAMS)) & (
        flat["eps1"] + flat["eps2"] + flat["eps3"] <= 1 + 1e-12)
    if not realizable.any():
        raise ValueError("no setting of the grid can be realized (every error mass lacks cells to go to)")
    # Empty noise clusters (ε2 = 0) or classes (ε3 = 0) change no measure: collapse
    # those settings onto |Knoise| = 0 / |Cnoise| = 0 and build each distinct table once.
    canon = probe[realizable].copy()
    canon[canon[:, _PARAMS.index("eps2")] == 0, _PARAMS.index("n_noise_clusters")] = 0
    canon[canon[:, _PARAMS.index("eps3")] == 0, _PARAMS.index("n_noise_classes")] = 0
    # One integer key per row (mixed radix over each column's distinct values):
    # a 1-D unique is far cheaper than np.unique(axis=0) on float rows.
    key = np.zeros(canon.shape[0], dtype=np.int64)
    for col in canon.T:
        levels, codes = np.unique(col, return_inverse=True)
        key = key * levels.size + codes.ravel()
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    unique = canon[first]
    tables = generators.dom_tables(**dict(zip(_PARAMS, unique.T)), n=n)
    frame = evaluate_batch(tables, list(keys), log_base=log_base, beta=beta)
    out = np.full((probe.shape[0], len(keys)), np.nan)
    out[realizable] = frame.to_numpy()[inverse.ravel()]
    shape = mesh[0].shape
    return params, out.reshape(shape + (len(keys),)), realizable.reshape(shape)


# ====================================================================== cost guards
# Seconds of one core per unit of work, fitted to benchmarks/bench_cost_model.py's timings of the
# paper's grid (31,360 settings) and of check_many, with 2 and with every measure.
_GRID_CELL = 2.5e-8           # each cell of each setting of the grid
_GRID_CELL_MEASURE = 2e-9     # … for each measure


def rates_seconds(measures=None, grid: Mapping | None = None) -> float:
    """Estimated seconds of one core of :func:`dom_property_rates` over ``grid`` (default
    :data:`RH_GRID`): every setting's table, scored by every measure."""
    grid_t = _normalize_grid(grid)
    return _rates_seconds(len(_keys(measures)), grid_t)


def _rates_seconds(m: int, grid_t) -> float:
    sizes = dict(grid_t)
    settings = math.prod(len(v) for v in sizes.values())
    cells = ((max(sizes["n_classes"]) + max(sizes["n_noise_classes"]))
             * (max(sizes["n_useful_clusters"]) + max(sizes["n_noise_clusters"])))
    return settings * cells * (_GRID_CELL + _GRID_CELL_MEASURE * m)


def _grid_guard(m: int, grid_t, budget) -> None:
    budget = checked_budget(budget)
    if budget is not None:
        settings = math.prod(len(v) for _, v in grid_t)
        check_budget(f"Dom's property rates over {settings:,} grid settings and {m} measures",
                     _rates_seconds(m, grid_t), budget, "a smaller grid (fewer values of each parameter)")


def _keys(measures, tables=None) -> tuple[str, ...]:
    """Named measures, or (None) every measure defined on all ``tables`` — without
    tables, every measure but the integer-only AMI (optional on the grid)."""
    if measures is None:
        if tables is None:
            return tuple(m.key for m in resolve(None) if m.domain != "integer")
        return tuple(m.key for m in resolve(None) if all(m.applies_to(t) for t in tables))
    return tuple(m.key for m in resolve(measures))


def _property_steps(prop: str, params: dict, values: np.ndarray, realizable: np.ndarray,
                    signs: np.ndarray, tol: float):
    """For one property: the grid steps it applies to and whether each holds.

    Returns (applies, holds, index_from, index_to): ``applies`` over the step grid,
    ``holds`` over steps × measures (meaningful where ``applies``)."""
    names = list(params)
    axis = names.index(_AXIS[prop])
    lo = tuple(slice(0, -1) if d == axis else slice(None) for d in range(len(names)))
    hi = tuple(slice(1, None) if d == axis else slice(None) for d in range(len(names)))
    p0 = {k: v[lo] for k, v in params.items()}
    p1 = {k: v[hi] for k, v in params.items()}
    applies = realizable[lo] & realizable[hi]
    c, ku = p0["n_classes"], p0["n_useful_clusters"]
    if prop == "P1":
        applies &= (ku < c) & (p1["n_useful_clusters"] - ku <= c - ku)
    elif prop == "P2":
        applies &= ku >= c
    elif prop == "P3":
        applies &= p0["eps2"] > 0
    elif prop == "P6":
        applies &= p0["eps3"] > 0
    v0, v1 = values[lo], values[hi]
    delta = (v1 - v0) * signs                     # > 0: M got better
    scale = 1.0 + np.maximum(np.abs(v0), np.abs(v1))
    with np.errstate(invalid="ignore"):
        tie = np.abs(v1 - v0) <= tol * scale
        better = (delta > 0) & ~tie
        worse = (delta < 0) & ~tie
    if prop == "P1":
        holds = better
    elif prop in ("P2", "P3", "P6"):
        holds = worse
    else:
        exempt = {"P4": ku == 1, "P5": p0["n_noise_clusters"] == 0, "P7": p0["n_noise_classes"] == 0}[prop]
        holds = worse | (tie & exempt[..., None])
    idx = np.indices(realizable.shape)
    axes = range(idx.shape[0])
    return applies, holds, tuple(idx[d][lo] for d in axes), tuple(idx[d][hi] for d in axes)


def dom_property_rates(measures=None, n: float = PROPERTY_GRID_N, grid: Mapping | None = None, *,
                       tol: float = 1e-9, log_base: float = math.e, beta: float = 1.0,
                       budget=DEFAULT_BUDGET) -> pd.DataFrame:
    """Rates at which each measure satisfies P1–P7 over Dom's parametric grid.

    Tidy table, one row per (measure, property): ``measure``, ``property``,
    ``satisfied`` (steps where it holds), ``steps`` (steps it applies to) and
    ``rate`` = satisfied / steps.

    Method. Every setting of ``grid`` (default :data:`RH_GRID`, [RH07] §4: |C| = 5,
    |Ku| = 2…11, |Knoise| and |Cnoise| = 0…6, ε1 ∈ {0, .033, .066, .1},
    ε2, ε3 ∈ {0, .066, .133, .2}) becomes the expected-count table
    :func:`metrics.papers.generators.dom` with ``n`` items. A *step* moves one parameter
    to its next grid value with all others fixed; a property is tested on the steps
    of its parameter (P1, P2: |Ku|; P3: |Knoise|; P4–P5, P7: ε1–ε3; P6: |Cnoise|)
    where its condition holds (P1: |Ku| < |C| and the step does not pass |C|;
    P2: |Ku| ≥ |C|; P3: ε2 > 0; P6: ε3 > 0). Strict inequalities must hold
    strictly; a change within ``tol``·(1 + |M|) counts as equality, which only P4,
    P5 and P7 allow, and only in their exempt case. For measures whose registry
    ``direction`` is ``"lower"`` the inequalities are inverted ([RH07] footnote 4).
    Settings the generator cannot realize (ε2 > 0 without noise clusters, ε3 > 0
    without noise classes, ε1 > 0 without a non-matching pair) are skipped, with
    every step into or out of them. ``measures=None`` takes every registered
    measure but AMI (integer counts only). ``n`` (default 10^4) must keep every
    non-zero expected count ≥ 1 for the pair-counting measures, which otherwise
    raise ``ValueError``.

    What comes out against the printed Table 2 (``assets/paper_values/rh2007_table2.json``;
    ours at n = 10^4, printed in brackets; other n move the failing cells by at
    most a few hundredths)::

                 P1          P2          P3          P4   P5          P6          P7
      Rand       1.00 (.18)  0.73 (1)    0    (0)    1    0.86 (.50)  0    (.20)  0.80 (1)
      Mirkin     1.00 (.22)  0.73 (1)    0    (0)    1    0.86 (.57)  0    (.20)  0.80 (1)
      Fowlkes    1           1.00 (.76)  0.18 (.30)  1    1           0.17 (.41)  1
      Γ          1           1           0.08 (.19)  1    1           0.05 (.26)  1
      Jaccard    1           1.00 (.89)  0.23 (.21)  1    1           0.23 (.52)  1
      F-measure  1           1.00 (.98)  0    (0)    1    1           1.00 (.87)  1
      Q0, VI, V  1 everywhere, as printed

    * The paper's headline reproduces: V, VI and Q0 satisfy all seven properties
      (and so do NMI (arithmetic, geometric, joint), VI/log n, VI_n and BCubed F).
      P4 holds for every measure, as printed. P3 is never satisfied by Rand,
      Mirkin and F-measure, and only sometimes by Fowlkes–Mallows, Γ and Jaccard,
      as printed.
    * Rand and Mirkin must have equal rates: at a fixed n, Mirkin = 2·C(n,2)·(1 − Rand),
      so every step moves them oppositely by the same relative amount. The printed
      0.18 vs 0.22 (P1) and 0.50 vs 0.57 (P5) cannot come from one set of tables;
      their Rand/Mirkin column was computed some other way, so we cannot follow it.
    * Mechanisms behind our failing cells (see :func:`dom_property_failures`):
      Rand counts pairs apart in both partitions, so cutting clusters finer keeps
      paying off — P2 fails at |Ku| = 6–9, P7 at |Ku| ≥ 7, P5 at |Ku| = 2–3 (there
      moving mass from over-merged clusters into noise clusters separates pairs
      that belong apart). Fowlkes–Mallows, Γ and Jaccard reward spreading noise:
      one more noise cluster (class) shrinks the pairs together in the clusters
      (classes) faster than the pairs together in both, so P3/P6 mostly fail.
      F-measure scores each class by its best cluster, which is never a noise
      cluster: more noise clusters change nothing (P3 = 0, equality is not
      allowed), more noise classes add poorly matched classes (P6 = 1).
    * Why other cells differ, without tuning to match: the paper does not state n,
      whether tables hold expected or sampled counts, what a step is (here: adjacent
      grid values, all other parameters fixed; P1 would also allow larger Δ|Ku|), or
      how equality is judged. Expected counts are the only reading under which the
      printed perfect rows of V, VI and Q0 survive: rounding the same tables to
      integers (largest remainder) drops V to P2 = 0.90, P3 = 0.89, P6 = 0.88 at
      n = 1000 and to about 0.6–0.7 at n = 60–100, because rounding makes steps
      non-monotone. So the paper's Rand/Fowlkes/Jaccard/F rates below 1 where ours
      are 1 (P2) and its P1 of 0.18 for Rand are not explained by sampling
      noise; we leave them as printed and unexplained.

    ``tol`` sets the equality tolerance; ``log_base`` and ``beta`` go to the
    measures. The grid's values are cached (a repeated call is instant). A grid whose
    estimated cost (:func:`rates_seconds`) exceeds ``budget`` seconds of one core (default 30;
    None: no limit) is refused with a ``limits.CostError``.
    """
    grid_t = _normalize_grid(grid)
    n = float(_positive(n, "n"))
    keys = _keys(measures)
    _grid_guard(len(keys), grid_t, budget)
    params, values, realizable = _grid_values(keys, n, grid_t, float(log_base), float(beta))
    signs = np.array([1.0 if MEASURES[k].direction == "higher" else -1.0 for k in keys])
    rows = []
    per_prop = {}
    for prop in PROPERTIES:
        applies, holds, _, _ = _property_steps(prop, params, values, realizable, signs, tol)
        steps = int(applies.sum())
        satisfied = holds[applies].sum(axis=0) if steps else np.zeros(len(keys), dtype=int)
        per_prop[prop] = (steps, satisfied)
    for j, key in enumerate(keys):
        for prop in PROPERTIES:
            steps, satisfied = per_prop[prop]
            rows.append({"measure": key, "property": prop, "satisfied": int(satisfied[j]), "steps": steps,
                         "rate": float(satisfied[j]) / steps if steps else float("nan")})
    return pd.DataFrame(rows, columns=["measure", "property", "satisfied", "steps", "rate"])


def dom_property_failures(measure: str, prop: str | None = None, n: float = PROPERTY_GRID_N,
                          grid: Mapping | None = None, *, tol: float = 1e-9, log_base: float = math.e,
                          beta: float = 1.0, budget=DEFAULT_BUDGET) -> pd.DataFrame:
    """The grid steps where ``measure`` violates a property: the evidence behind a rate.

    One row per failing step: ``property``, the parameters of the setting stepped
    from, ``parameter`` (the one that moves), ``from``/``to`` (its values) and the
    measure's values ``value_from``/``value_to``. ``prop`` limits it to one of P1–P7.
    ``budget`` as in :func:`dom_property_rates`.
    """
    props = list(PROPERTIES) if prop is None else [prop]
    for p in props:
        if p not in PROPERTIES:
            raise ValueError(f"prop must be one of {', '.join(PROPERTIES)}, got {p!r}")
    grid_t = _normalize_grid(grid)
    n = float(_positive(n, "n"))
    keys = _keys([measure])
    _grid_guard(len(keys), grid_t, budget)
    params, values, realizable = _grid_values(keys, n, grid_t, float(log_base), float(beta))
    signs = np.array([1.0 if MEASURES[measure].direction == "higher" else -1.0])
    frames = []
    for p in props:
        applies, holds, i0, i1 = _property_steps(p, params, values, realizable, signs, tol)
        bad = applies & ~holds[..., 0]
        if not bad.any():
            continue
        sel0 = tuple(ix[bad] for ix in i0)
        sel1 = tuple(ix[bad] for ix in i1)
        frame = pd.DataFrame({name: params[name][sel0] for name in _PARAMS})
        frame.insert(0, "property", p)
        frame["parameter"] = _AXIS[p]
        frame["from"] = params[_AXIS[p]][sel0]
        frame["to"] = params[_AXIS[p]][sel1]
        frame["value_from"] = values[sel0][:, 0]
        frame["value_to"] = values[sel1][:, 0]
        frames.append(frame)
    cols = ["property", *_PARAMS, "parameter", "from", "to", "value_from", "value_to"]
    if not frames:
        return pd.DataFrame(columns=cols)
    out = pd.concat(frames, ignore_index=True)
    for name in ("n_classes", "n_useful_clusters", "n_noise_clusters", "n_noise_classes"):
        out[name] = out[name].astype(int)
    return out[cols]


def rates_table(rates: pd.DataFrame) -> pd.DataFrame:
    """The tidy rates of :func:`dom_property_rates` as Table 2 lays them out:
    properties as rows, measures as columns."""
    if not {"measure", "property", "rate"} <= set(rates.columns):
        raise ValueError("rates must have the columns measure, property and rate (from dom_property_rates)")
    order = list(dict.fromkeys(rates["measure"]))
    return rates.pivot(index="property", columns="measure", values="rate")[order]
