"""The Chance page's data: random labelings drawn by :mod:`metrics.chance`, cached across sessions.

Everything here calls the library and arranges its output for the charts of
:mod:`dashboard.chance.charts`; no measure and no expectation is computed here.

* :func:`sweep_summary` — scikit-learn's "adjustment for chance" experiment
  (``chance.cluster_sweep``): for each number of clusters k of :data:`KS`, the mean and the
  5–95 % band of every measure over the random labelings, and the exact expectation where a
  closed form exists (``chance.summarize``).
* :func:`table_null` — a table against its null distribution under one model
  (``chance.null_distribution`` + ``chance.summarize``), with the quantiles the chart draws.
* :func:`lesson_figure` / :func:`lesson_params` — the page's key chart for the lesson, and the
  query parameters that open the page in the same state.

Caching, shared by every session and keyed only on parameters: the table's cells (not its
labels: relabelling changes no random labeling), the model, the number of draws, the seed, the
log base and β. The random tables are drawn once per parameters and kept (:func:`sweep_tables`,
:func:`table_draws`). A table's null distribution (``st.cache_data``) scores *every* measure that
applies, whatever the page shows: choosing other measures is then a filter. The sweep (ten
tables' worth of draws) scores each measure the first time a page shows it and keeps it
(:func:`sweep_summary`): a new sweep costs the measures on show, and another measure costs that
measure. On a miss a progress bar, fed by the library's ``progress`` callback, shows how far the
scoring is; in :func:`table_null` it is created inside the cached function, so that Streamlit
replays it (already emptied) on a hit instead of failing on a bar created outside.

Cost guards (:func:`sweep_problem`, :func:`table_problem`). The page holds no cost formula:
it asks the library what a request would cost (``chance.sweep_seconds``,
``chance.estimate_seconds``: the measured cost model of ``metrics.core.limits``) and refuses what
exceeds :data:`APP_BUDGET` — the app's own budget, much smaller than the library's default,
since thirty students share the server — with a message naming the largest number of draws
that fits, rather than leaving a class waiting. Draws beyond the library's hard limits (a table
of 10^12 items under perm) are refused with the library's reason. The library calls themselves
run with the same budget (``budget=APP_BUDGET``), so a request whose estimate was off is stopped
by the library's own deadline rather than holding the server.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from dashboard.chance.charts import BAND, BOX, QUANTILE_METHOD
from dashboard.chance.vocabulary import (
    APP_BUDGET,
    CLASS_OPTIONS,
    DEFAULT_SEED,
    DEFAULT_TABLE,
    KS,
    N_OPTIONS,
    SWEEP_DRAWS,
    TABLE_DRAWS,
)
from dashboard.ui.presets import Preset
from dashboard.ui.readout import escape_markdown
from metrics import chance
from metrics.chance import models as random_models
from metrics.core import limits
from metrics.core.digest import table_digest
from metrics.core.formatting import format_number


# ---------------------------------------------------------------- progress on a cache miss
def _progress(text: str):
    """A progress bar and the library callback ``progress(done, total)`` that feeds it, updating
    at most every 2 % (each update is a message to the browser)."""
    bar = st.progress(0.0, text=text)
    shown = [0.0]

    def step(done: int, total: int) -> None:
        f = done / total if total else 1.0
        if f - shown[0] >= 0.02 or done >= total:
            shown[0] = f
            bar.progress(min(f, 1.0), text=f"{text} {format_number(done)} of {format_number(total)}")

    return bar, step


# ---------------------------------------------------------------- the sweep
def band(x: np.ndarray) -> tuple[float, float]:
    lo, hi = np.quantile(x, BAND, method=QUANTILE_METHOD)
    return float(lo), float(hi)


SUMMARY_COLUMNS = ["k", "key", "mean", "low", "high", "expected", "exact", "stderr"]


def summarize_sweep(draws: pd.DataFrame, n: int, n_classes: int, model: str, log_base: float = math.e,
                    beta: float = 1.0) -> pd.DataFrame:
    """The long summary of a ``chance.cluster_sweep`` output: one row per (k, measure) with the
    mean of the draws, their band (:data:`BAND`), and the expectation of ``chance.summarize``
    (exact where a closed form exists — then ``exact`` is True — else the Monte Carlo mean, with
    its standard error).

    The table handed to ``summarize`` for each k is the sweep's own (``chance.sweep_table``: its
    balanced classes and clusters), whose margins are all an expectation under these models
    depends on.
    """
    rows = []
    keys = [c for c in draws.columns if c not in ("k", "draw")]
    ks = draws["k"].to_numpy()
    values = draws[keys].to_numpy(dtype=np.float64)
    for k in np.unique(ks).tolist():
        at = ks == k
        t = chance.sweep_table(n, int(k), n_classes)
        expected = chance.summarize(t, pd.DataFrame(values[at], columns=keys), model, log_base, beta)
        e, exact, stderr = (expected[c].tolist() for c in ("expected", "exact", "stderr"))
        for j, key in enumerate(keys):
            x = values[at, j]
            lo, hi = band(x)
            rows.append({"k": int(k), "key": key, "mean": float(x.mean()), "low": lo, "high": hi,
                         "expected": float(e[j]), "exact": bool(exact[j]), "stderr": float(stderr[j])})
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def sweep_seconds(n: int, n_classes: int, models, samples: int, keys) -> float:
    """The library's estimate of the sweeps of ``models`` (their drawing and the scoring of ``keys``)."""
    return sum(chance.sweep_seconds(n, KS, keys, m, n_classes, None, samples) for m in models)


def sweep_problem(n: int, samples: int, n_classes: int, models, keys) -> str | None:
    """Why a sweep of ``samples`` draws per k over ``n`` items under ``models`` (one, or the AMI
    tab's three) scoring ``keys`` is refused (too long for the app's budget), or None."""
    try:
        if sweep_seconds(n, n_classes, models, samples, keys) <= APP_BUDGET:
            return None
    except ValueError as exc:
        return f"These random clusterings cannot be drawn: {escape_markdown(str(exc))}."
    fits = [s for s in SWEEP_DRAWS if sweep_seconds(n, n_classes, models, int(s), keys) <= APP_BUDGET]
    advice = (f"choose at most {format_number(int(fits[-1]))} draws per k for {format_number(n)} items"
              if fits else "choose fewer items")
    which = f"under {models[0]}" if len(models) == 1 else f"under {', '.join(models)}"
    return (f"{format_number(samples)} random labelings per k of {format_number(n)} items {which}, for "
            f"{format_number(len(KS))} values of k, would keep the server busy for too long: {advice}.")


@st.cache_resource(max_entries=6, show_spinner=False)
def sweep_tables(n: int, n_classes: int, model: str, samples: int, seed: int):
    """``chance.sweep_tables(n, KS, model, n_classes, samples, seed)``: the sweep's random
    tables, drawn once per server and shared read-only, so that another β or unit scores them
    again without drawing them again (at most a few MB each: ``RandomTables.nbytes``)."""
    return chance.sweep_tables(n, KS, model=model, n_classes=n_classes, samples=samples, seed=seed, budget=APP_BUDGET)


def _sweep_keys(n: int, n_classes: int, model: str, samples: int, seed: int) -> list[str]:
    """The sweep's measures: every one that applies, in registry order (``cluster_sweep``'s columns)."""
    first = sweep_tables(n, n_classes, model, samples, seed)[0][1].table
    return [k for k, m in metrics.MEASURES.items() if m.applies_to(first)]


def _score_summary(n: int, n_classes: int, model: str, samples: int, seed: int, keys: list[str],
                   log_base: float, beta: float) -> pd.DataFrame:
    tables = sweep_tables(n, n_classes, model, samples, seed)
    bar, step = _progress(f"Scoring random clusterings ({model}, k = {KS[0]} to {KS[-1]}):")
    try:
        draws = chance.score_sweep(tables, keys, log_base=log_base, beta=beta, progress=step, budget=APP_BUDGET)
        return summarize_sweep(draws, n, n_classes, model, log_base, beta)
    finally:
        bar.empty()


@dataclass(eq=False)
class _SweepScores:
    """The summaries of one sweep's measures computed so far, one frame (its rows of
    :func:`summarize_sweep`) per measure and, for a measure with a unit or a β, per unit or β."""

    frames: dict = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


@st.cache_resource(max_entries=12, show_spinner=False)
def _sweep_scores(n: int, n_classes: int, model: str, samples: int, seed: int) -> _SweepScores:
    return _SweepScores()


def _score_key(key: str, log_base: float, beta: float) -> tuple:
    """What a measure's summary depends on besides the draws: its unit only if it has one
    (``uses_log_base``), β only if it uses β."""
    m = metrics.MEASURES[key]
    return key, log_base if m.uses_log_base else None, beta if m.uses_beta else None


def sweep_summary(n: int, n_classes: int, model: str, samples: int, seed: int, log_base: float = math.e,
                  beta: float = 1.0, keys=None) -> pd.DataFrame:
    """:func:`summarize_sweep` of ``chance.cluster_sweep(n, KS, keys, model, n_classes, samples,
    seed, log_base, beta)`` for the measures ``keys`` that apply (None: every one), with progress
    on a miss; shared by every session.

    The random tables are drawn once (:func:`sweep_tables`), and each measure is scored the first
    time a page asks for it, then kept (:func:`_sweep_scores`): a new sweep costs the measures on
    show, not all forty (a fraction of the scoring: docs/performance.md), and choosing another measure
    scores that one alone. A measure without a unit or a β is scored once for every unit and β;
    a new β scores only V_β's columns, from their kept β-free parts. The rows come out as
    ``cluster_sweep`` gives them: by k, then in registry order."""
    applicable = _sweep_keys(n, n_classes, model, samples, seed)
    chosen = applicable if keys is None else set(keys)
    wanted = [k for k in applicable if k in chosen]
    if not wanted:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    scores = _sweep_scores(n, n_classes, model, samples, seed)
    with scores.lock:  # thirty students asking for one new sweep at once: it is scored once
        missing = [k for k in wanted if _score_key(k, log_base, beta) not in scores.frames]
        if missing:
            summary = _score_summary(n, n_classes, model, samples, seed, missing, log_base, beta)
            for key, rows in summary.groupby("key", sort=False):
                scores.frames[_score_key(key, log_base, beta)] = rows
        parts = [scores.frames[_score_key(k, log_base, beta)] for k in wanted]
    # The parts are in registry order, each by k: a stable sort by k gives cluster_sweep's order.
    return pd.concat(parts, ignore_index=True).sort_values("k", kind="stable").reset_index(drop=True)


# ---------------------------------------------------------------- a table against chance
def cells_key(t: metrics.Contingency) -> str:
    """The cache key of a table's null distribution: its shape and cells, not its labels
    (:func:`metrics.core.digest.table_digest`)."""
    return table_digest(t, labels=False)


@dataclass(frozen=True)
class NullResult:
    """A table's null distribution under one model: ``draws`` (one row per random labeling,
    one column per measure), ``profile`` (``chance.summarize``: observed, expected, exact,
    stderr, std, z, percentile, p_value, adjusted) and ``spread`` (per measure: the raw
    quantiles of the draws and of their goodness, for the chart)."""

    draws: pd.DataFrame
    profile: pd.DataFrame
    spread: pd.DataFrame


def spread_frame(draws: pd.DataFrame) -> pd.DataFrame:
    """Per measure: the raw band (:data:`BAND`) of the draws and the goodness (the registry's
    ``Measure.goodness``, 1 = best) of their band and box (:data:`BOX`) quantiles. Goodness is
    monotone, so these are the quantiles of the draws' goodness."""
    qs = (BAND[0], BOX[0], 0.5, BOX[1], BAND[1])
    rows = {}
    for key in draws.columns:
        x = draws[key].to_numpy(dtype=np.float64)
        raw_lo, raw_hi = band(x)
        g = np.quantile(np.asarray(metrics.MEASURES[key].goodness(x), dtype=np.float64), qs, method=QUANTILE_METHOD)
        rows[key] = {"low": raw_lo, "high": raw_hi, "g_low": g[0], "g_q1": g[1], "g_median": g[2], "g_q3": g[3],
                     "g_high": g[4]}
    return pd.DataFrame.from_dict(rows, orient="index")


@st.cache_resource(max_entries=16, show_spinner=False, hash_funcs={metrics.Contingency: cells_key})
def table_draws(t: metrics.Contingency, model: str, samples: int, seed: int) -> chance.RandomTables:
    """``chance.draw_tables(t, model, samples, seed)``: a table's random labelings, drawn once per
    server and shared read-only, so that another unit or β scores them without drawing them again
    (and V_β, from the h and c they keep, without reading them again)."""
    return chance.draw_tables(t, model, samples, seed, budget=APP_BUDGET)


def _null_part(t: metrics.Contingency, model: str, samples: int, seed: int, keys: list[str], log_base: float,
               beta: float) -> NullResult:
    bar, step = _progress(f"Scoring random labelings ({model}):")
    try:
        draws = chance.score_tables(table_draws(t, model, samples, seed), keys, log_base, beta, progress=step,
                                    budget=APP_BUDGET)
        profile = chance.summarize(t, draws, model, log_base, beta)
    finally:
        bar.empty()
    return NullResult(draws, profile, spread_frame(draws))


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={metrics.Contingency: cells_key})
def _null_without_beta(t: metrics.Contingency, model: str, samples: int, seed: int,
                       log_base: float) -> NullResult:
    """:func:`table_null` of the measures that ignore β (AMI among them: the costly ones), once per unit."""
    keys = [k for k, m in metrics.MEASURES.items() if m.applies_to(t) and not m.uses_beta]
    return _null_part(t, model, samples, seed, keys, log_base, 1.0)


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={metrics.Contingency: cells_key})
def table_null(t: metrics.Contingency, model: str, samples: int, seed: int, log_base: float = math.e,
               beta: float = 1.0) -> NullResult:
    """``chance.null_distribution`` of every applicable measure of ``t`` under ``model`` and its
    ``chance.summarize`` (the same values: ``chance.score_tables`` of ``chance.draw_tables``),
    cached across sessions on the table's cells and the parameters. The draws are drawn once
    (:func:`table_draws`) and the measures that ignore β scored once per unit; a new β scores
    V_β's columns only."""
    keys = [k for k, m in metrics.MEASURES.items() if m.applies_to(t)]
    parts = [_null_without_beta(t, model, samples, seed, log_base)]
    with_beta = [k for k in keys if metrics.MEASURES[k].uses_beta]
    if with_beta:
        parts.append(_null_part(t, model, samples, seed, with_beta, log_base, beta))
    draws = pd.concat([p.draws for p in parts], axis=1)[keys]
    profile = pd.concat([p.profile for p in parts]).loc[keys]
    spread = pd.concat([p.spread for p in parts]).loc[keys]
    return NullResult(draws, profile, spread)


@st.cache_resource(max_entries=64, show_spinner=False, hash_funcs={metrics.Contingency: cells_key})
def profile_table(t: metrics.Contingency, model: str, samples: int, seed: int, log_base: float, beta: float,
                  keys: tuple[str, ...]) -> pd.DataFrame:
    """:func:`profile_frame` of :func:`table_null`'s profile for the measures ``keys``, shared
    read-only: ``readout.show_frame`` then formats and converts it once, not on every rerun (the
    frame and its text were half of what choosing a table whose null distribution is cached cost)."""
    return profile_frame(table_null(t, model, samples, seed, log_base, beta).profile, list(keys))


def warm_tables(presets: dict[str, Preset]) -> int:
    """Fill :func:`table_null`'s cache for every preset in the table tab's default state (its
    model and draws, the default seed, nats, β = 1), with the arguments the page passes: choosing
    a preset then costs a class nothing (a new table draws 1,000 labelings and scores every
    measure: 0.1–0.3 s). Called by ``dashboard/server/warm.py`` at the server's start; returns how many
    tables it filled."""
    model, samples = DEFAULT_TABLE["ch_model"], int(DEFAULT_TABLE["ch_td"])
    done = 0
    for p in presets.values():
        t = p.contingency()
        if table_problem(t, model, samples) is None:
            table_null(t, model, samples, DEFAULT_SEED, math.e, 1.0)
            done += 1
    return done


def warm_sweep_expectations() -> int:
    """Compute every Stirling ratio S(n−1, k)/S(n, k) that the sweep's exact expectations under
    num and num1 can ask for: each n of :data:`N_OPTIONS` with each k of :data:`KS` (clusters) and
    of :data:`CLASS_OPTIONS` (classes). They depend on n and k alone and the library keeps them
    (``random_models.stirling_pair_probability``), so the whole finite set, 42 ratios, costs about
    0.15 s once at the server's start; else a class's first sweep of 10^4 items paid it. Called by
    ``dashboard/server/warm.py``; returns how many ratios it computed."""
    ks = sorted(set(KS) | {int(r) for r in CLASS_OPTIONS})
    pairs = [(int(n), k) for n in N_OPTIONS for k in ks if k <= int(n)]
    for n, k in pairs:
        random_models.stirling_pair_probability(n, k)
    return len(pairs)


def library_reason(exc: ValueError) -> str:
    """The library's reason for refusing, in the app's words: a cost refusal without the library's
    advice to raise its ``budget=`` keyword, which the app does not offer."""
    return exc.describe("") if isinstance(exc, limits.CostError) else str(exc)


def _table_seconds(t: metrics.Contingency, model: str, samples: int) -> float:
    """The library's estimate of :func:`table_null` (every measure that applies)."""
    return chance.estimate_seconds(t, None, model, samples)


def table_problem(t: metrics.Contingency, model: str, samples: int, what: str = "this table") -> str | None:
    """Why ``t`` cannot be set against chance under ``model`` with ``samples`` draws, in the
    page's words (fractional cells; beyond what the library draws; too long for the app's
    budget), or None."""
    if not t.is_integer:
        return (f"Random labelings move whole items between classes and clusters, so the table needs whole "
                f"counts: {what} has fractional cells. Round them (in the Table lab), or choose a preset.")
    try:
        seconds = _table_seconds(t, model, samples)
    except ValueError as exc:
        return f"{what[:1].upper()}{what[1:]} cannot be set against chance under {model}: {escape_markdown(str(exc))}."
    if seconds <= APP_BUDGET:
        return None
    fits = [s for s in TABLE_DRAWS if _table_seconds(t, model, int(s)) <= APP_BUDGET]
    advice = (f"choose at most {format_number(int(fits[-1]))} random labelings" if fits
              else "this table is too large to sample here; the library does it without the app's time limit "
                   "(`metrics.chance.profile(t, budget=None)`)")
    other = ""
    if model != "perm":
        try:
            if _table_seconds(t, "perm", samples) <= APP_BUDGET:
                other = " — or the perm model, whose draws cost the table's cells rather than its items"
        except ValueError:
            pass
    return (f"{format_number(samples)} random labelings of a table with {format_number(int(t.n))} items "
            f"({format_number(t.n_classes)} × {format_number(t.n_clusters)}) under {model} would keep the server "
            f"busy for too long: {advice}{other}.")


def _how(row: pd.Series) -> str:
    if row["exact"]:
        return "exact"
    return "Monte Carlo, all draws equal" if row.get("all_draws_equal", False) else "Monte Carlo"


def profile_frame(profile: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The profile of the measures ``keys`` for the page's table: names, direction, and
    ``chance.summarize``'s numbers (percentile as a share, shown as a percentage)."""
    rows = []
    for key in keys:
        if key not in profile.index:
            continue
        m, r = metrics.MEASURES[key], profile.loc[key]
        rows.append({"key": key, "measure": m.name, "symbol": m.symbol,
                     "better": "higher" if m.higher_is_better else "lower", "observed": r["observed"],
                     "expected": r["expected"], "how": _how(r),
                     "stderr": r["stderr"], "std": r["std"], "z": r["z"], "percentile": r["percentile"] / 100,
                     "p_value": r["p_value"], "adjusted": r["adjusted"]})
    return pd.DataFrame(rows)
