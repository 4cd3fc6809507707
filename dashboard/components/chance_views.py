"""The Chance page's data: random labelings drawn by :mod:`metrics.chance`, cached across sessions.

Everything here calls the library and arranges its output for the charts of
:mod:`dashboard.components.chance_charts`; no measure and no expectation is computed here.

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
``chance.estimate_seconds``: the measured cost model of ``metrics.limits``) and refuses what
exceeds :data:`APP_BUDGET` — the app's own budget, much smaller than the library's default,
since thirty students share the server — with a message naming the largest number of draws
that fits, rather than leaving a class waiting. Draws beyond the library's hard limits (a table
of 10^12 items under perm) are refused with the library's reason. The library calls themselves
run with the same budget (``budget=APP_BUDGET``), so a request whose estimate was off is stopped
by the library's own deadline rather than holding the server.
"""

from __future__ import annotations

import hashlib
import math
import threading
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from metrics import chance, limits, random_models
from metrics.formatting import format_number

from . import chance_charts
from .chance_charts import BAND, BOX, QUANTILE_METHOD
from .presets import Preset
from .readout import escape_markdown
from .sources import lab_table
from .state import kept, set_param, url_commit, url_state
from .tables import to_contingency
from .upload import upload_panel

# ---------------------------------------------------------------- the page's vocabulary
PAGE = "app_pages/chance.py"   # for links to the page (st.page_link / state.page_link)
TAB_KEY = "ch_tab"
SWEEP_TAB, TABLE_TAB, AMI_TAB = "Number of clusters", "A table against chance", "AMI normalisations"
TABS = (SWEEP_TAB, TABLE_TAB, AMI_TAB)

MODEL_TEXT = {
    "perm": "both labelings random with the table's class sizes and cluster sizes kept (the permutation, or "
            "hypergeometric, model that ARI and AMI assume)",
    "num": "both labelings uniform over the partitions with the table's numbers of classes and of clusters",
    "num1": "the gold classes kept as they are; the clustering uniform over the partitions into the table's "
            "number of clusters",
    "all": "both labelings uniform over all partitions of the n items (any number of blocks)",
    "all1": "the gold classes kept as they are; the clustering uniform over all partitions of the n items",
}
# cluster_sweep varies k, which all/all1 draw at random.
SWEEP_MODELS = ("num1", "num", "perm")
SWEEP_MODEL_TEXT = {
    "num1": "the gold classes fixed; each clustering uniform over the partitions into exactly k clusters "
            "(scikit-learn's \"fixed ground truth\" experiment)",
    "num": "the gold classes random too, uniform over the partitions into exactly that many classes (as in its "
           "\"varying ground truth\" experiment, whose classes number k too)",
    "perm": "both labelings shuffled, the balanced class sizes and cluster sizes kept (the model ARI and AMI "
            "adjust for)",
}

# scikit-learn's gallery example: k = linspace(2, 100, 10) clusters (its n_clusters_range).
KS = tuple(int(k) for k in np.linspace(2, 100, 10))
# Discrete choices (strings: they are the URL's values): few values, so a class's first visits
# fill the cache and every later step is a hit.
N_OPTIONS = ("100", "1000", "10000")
CLASS_OPTIONS = ("2", "5", "10", "20", "50")
SWEEP_DRAWS = ("50", "100", "200", "500")
TABLE_DRAWS = ("200", "500", "1000", "2000", "5000")
# The six measures of scikit-learn's example: V, NMI and MI rise with k, Rand too; ARI and AMI stay at 0.
DEFAULT_SWEEP_KEYS = ["v_measure", "nmi_arithmetic", "mutual_info", "rand", "ari", "ami"]
DEFAULT_SWEEP = {"ch_sm": "num1", "ch_n": "100", "ch_r": "10", "ch_sd": "200"}
DEFAULT_TABLE = {"ch_t": "rr_solution_r", "ch_model": "perm", "ch_td": "1000", "ch_look": "v_measure"}
DEFAULT_SEED = 0
LAB, UPLOAD = "lab", "upload"

# The app's budget of one request (seconds of one core; see the module docstring).
APP_BUDGET = 5.0


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

    The table handed to ``summarize`` for each k has the sweep's margins (balanced classes and
    clusters, as ``cluster_sweep`` builds them), which are all an expectation under these models
    depends on.
    """
    rows = []
    keys = [c for c in draws.columns if c not in ("k", "draw")]
    classes = np.arange(n) % n_classes   # class i has n // R (+1 for the first n % R) items
    ks = draws["k"].to_numpy()
    values = draws[keys].to_numpy(dtype=np.float64)
    for k in np.unique(ks).tolist():
        at = ks == k
        t = metrics.Contingency.from_labels(classes, np.arange(n) % int(k))
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
    show, not all forty (0.06 against 0.15 s of scoring at n = 10^4), and choosing another measure
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
    """The cache key of a table's null distribution: its shape and cells, not its labels."""
    h = hashlib.blake2b(digest_size=16)
    h.update(repr(t.shape).encode())
    for arr in (t.rows, t.cols, t.values):
        h.update(np.ascontiguousarray(arr).tobytes())
    return h.hexdigest()


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
    measure: 0.1–0.3 s). Called by ``dashboard/warm.py`` at the server's start; returns how many
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
    ``dashboard/warm.py``; returns how many ratios it computed."""
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


# ---------------------------------------------------------------- choosing the table
@dataclass(frozen=True)
class Picked:
    table: metrics.Contingency
    label: str


def table_picker(presets: dict[str, Preset]) -> Picked | None:
    """A preset, the Table lab's table or uploaded labels; the chosen table, or None with the
    reason shown. The choice is the URL's ``ch_t``; the Table lab's table travels in ``ch_table``
    (small tables only); an upload stays in this session."""
    options = list(presets) + [LAB, UPLOAD]
    names = {LAB: "The Table lab's table", UPLOAD: "Upload labels…"}
    url_state("ch_t", options, DEFAULT_TABLE["ch_t"], "table")
    choice = st.selectbox("Table", options, key="ch_t", format_func=lambda k: names.get(k) or presets[k].title,
                          help="Rows are gold classes, columns clusters: a preset from the papers, the table "
                               "you edited in the Table lab, or your own labels.")
    url_commit("ch_t", DEFAULT_TABLE["ch_t"])
    if choice == UPLOAD:
        set_param("ch_table", None)
        st.info("An uploaded file stays in this browser session: a link to this page does not carry it "
                "(opened elsewhere, the link asks for the file again).", icon=":material/link_off:")
        t = upload_panel("ch_upload")
        return Picked(t, "the uploaded labels") if t is not None else None
    if choice == LAB:
        table = lab_table("ch_table")
        if table is None:
            return None
        try:
            return Picked(to_contingency(table), "the Table lab's table")
        except ValueError as exc:
            st.error(f"The Table lab's table cannot be used: {escape_markdown(str(exc))}.")
            return None
    set_param("ch_table", None)
    p = presets[choice]
    st.caption(f"{escape_markdown(p.provenance)}.")
    return Picked(p.contingency(), p.title)


# ---------------------------------------------------------------- the lesson's chart
def lesson_figure(model: str = DEFAULT_SWEEP["ch_sm"], keys: tuple[str, ...] = tuple(DEFAULT_SWEEP_KEYS),
                  n: int = int(DEFAULT_SWEEP["ch_n"]), n_classes: int = int(DEFAULT_SWEEP["ch_r"]),
                  samples: int = int(DEFAULT_SWEEP["ch_sd"]), seed: int = DEFAULT_SEED, log_base: float = math.e,
                  beta: float = 1.0):
    """The page's key chart — scikit-learn's experiment: each measure of random clusterings
    against the number of clusters k, mean and band over ``samples`` draws per k — with type for
    the back of a room (nothing under 14 px). The data are the page's cached
    :func:`sweep_summary`, so the lesson and the page share one sampling run.
    :func:`lesson_params` with the same arguments gives the link that opens the page on it."""
    summary = sweep_summary(n, n_classes, model, samples, seed, log_base, beta, keys)
    return chance_charts.sweep_figure(summary, list(keys), n_classes=n_classes, large=True)


def lesson_params(model: str = DEFAULT_SWEEP["ch_sm"], keys: tuple[str, ...] = tuple(DEFAULT_SWEEP_KEYS),
                  n: int = int(DEFAULT_SWEEP["ch_n"]), n_classes: int = int(DEFAULT_SWEEP["ch_r"]),
                  samples: int = int(DEFAULT_SWEEP["ch_sd"]), seed: int = DEFAULT_SEED) -> dict:
    """The Chance page's query parameters for the state :func:`lesson_figure` draws (every one
    named, so the link determines the page; the sidebar's log base and β travel separately)."""
    return {TAB_KEY: SWEEP_TAB, "ch_sm": model, "ch_n": str(n), "ch_r": str(n_classes), "ch_sd": str(samples),
            "ch_seed": str(seed), "ch_m": list(keys)}


# ---------------------------------------------------------------- reading the page's state
def param_value(name: str, options, default: str) -> str:
    """The value of a page parameter whose widget this run does not draw (it sits on another
    tab): the URL's when it names an allowed one (the URL mirrors the page: each drawn widget
    writes its value there), else the session's kept value, else ``default``."""
    allowed = list(options)
    raw = st.query_params.get(name)
    if raw in allowed:
        return raw
    value = kept(name, default)
    return value if value in allowed else default


# ---------------------------------------------------------------- figures, built once per state
@st.cache_resource(max_entries=64, show_spinner=False)
def sweep_chart(n: int, n_classes: int, model: str, samples: int, seed: int, log_base: float, beta: float,
                keys: tuple[str, ...], _summary: pd.DataFrame):
    """``chance_charts.sweep_figure`` of ``_summary`` (= ``sweep_summary`` of the same
    parameters, which the key names), built once per state and shared read-only."""
    return chance_charts.sweep_figure(_summary, list(keys), n_classes=n_classes)


@st.cache_resource(max_entries=64, show_spinner=False)
def null_chart(cells: str, model: str, samples: int, seed: int, log_base: float, beta: float,
               keys: tuple[str, ...], _result: NullResult):
    """``chance_charts.null_figure`` of ``_result`` (= ``table_null`` of the table whose
    :func:`cells_key` is ``cells`` and the same parameters)."""
    return chance_charts.null_figure(_result.profile, _result.spread, list(keys), model=model, samples=samples)


@st.cache_resource(max_entries=32, show_spinner=False)
def ami_sweep_chart(n: int, n_classes: int, samples: int, seed: int, log_base: float, beta: float,
                    _summaries: dict[str, pd.DataFrame]):
    return chance_charts.ami_sweep_figure(_summaries, n_classes)


# ---------------------------------------------------------------- what the page writes
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
                     "expected": r["expected"], "how": "exact" if r["exact"] else "Monte Carlo",
                     "stderr": r["stderr"], "std": r["std"], "z": r["z"], "percentile": r["percentile"] / 100,
                     "p_value": r["p_value"], "adjusted": r["adjusted"]})
    return pd.DataFrame(rows)


PROFILE_LABELS = {"expected": "expected (E)", "how": "E is", "stderr": "± std. error", "std": "spread (std)",
                  "p_value": "p-value"}
PROFILE_HELP = {
    "observed": "The measure of the chosen table.",
    "expected": "The measure's expectation under the random model: exact where a closed form exists, "
                "else the mean of the random labelings.",
    "how": "Exact (a closed form) or Monte Carlo (the mean of the random labelings drawn).",
    "stderr": "Standard error of a Monte Carlo expectation (0 when exact).",
    "std": "Spread of the measure over the random labelings (sample standard deviation).",
    "z": "(observed − expected) / std.",
    "percentile": "Share of the random labelings below the observed value (ties count half), in the measure's "
                  "own units: for a lower-is-better measure a small percentile is good.",
    "p_value": "Share of the random labelings at least as good as the observed value (the permutation-test "
               "p-value of 'better than chance').",
    "adjusted": "(observed − expected) / (best − expected): 1 at the best value, 0 at chance, negative below it; "
                "— for measures without a finite best value (I).",
}


def sweep_sentence(summary: pd.DataFrame, keys: list[str]) -> str:
    """The chart in one computed line: each measure's mean at the smallest and the largest k."""
    first, last = int(summary["k"].min()), int(summary["k"].max())
    ends = summary[summary["k"].isin([first, last])].pivot(index="key", columns="k", values="mean")
    parts = [f"{escape_markdown(metrics.MEASURES[key].symbol)} {format_number(ends.at[key, first])} → "
             f"{format_number(ends.at[key, last])}" for key in keys if key in ends.index]
    return (f"Mean over the random labelings from k = {format_number(first)} to k = {format_number(last)}: "
            + " · ".join(parts) + ".")


def ami_sweep_sentence(summaries: dict[str, pd.DataFrame], n: int) -> str:
    """Per sweep model, for k < n: how far the AMI variants' means stray from 0, and where the
    NMI variants' means reach at the largest such k; then the values at k = n, if swept."""
    ami_keys = [a for _, _, a in chance_charts.NORMALISATIONS]
    nmi_keys = [b for _, b, _ in chance_charts.NORMALISATIONS]
    parts, at_n = [], None
    for model, s in summaries.items():
        inner = s[s["k"] < n]
        if inner.empty:
            continue
        stray = inner[inner["key"].isin(ami_keys)]["mean"].abs().max()
        top = inner[inner["k"] == inner["k"].max()]
        nmi = top[top["key"].isin(nmi_keys)].set_index("key")["mean"]
        parts.append(f"under {model} every AMI variant's mean stays within ±{format_number(stray)} of 0, while at "
                     f"k = {format_number(int(top['k'].iloc[0]))} the NMI variants reach {format_number(nmi.min())} "
                     f"({escape_markdown(metrics.MEASURES[nmi.idxmin()].symbol)}) to {format_number(nmi.max())} "
                     f"({escape_markdown(metrics.MEASURES[nmi.idxmax()].symbol)})")
        edge = s[(s["k"] >= n) & s["key"].isin(ami_keys)]
        if at_n is None and len(edge):
            at_n = edge.set_index("key")["mean"]
    text = "For k < n: " + "; ".join(parts) + "." if parts else ""
    if at_n is not None:
        text += (f" At k = n = {format_number(n)} every clustering puts each item alone — a single possible "
                 "clustering, nothing left to chance — and the AMI variants take their 0/0 values: "
                 + " · ".join(f"{escape_markdown(metrics.MEASURES[k].symbol)} {format_number(at_n[k])}"
                              for k in ami_keys if k in at_n.index) + ".")
    return text


def ami_table_sentence(rows: pd.DataFrame) -> str:
    """The per-table chart in computed words: the perm identity (adjusted NMI_x = AMI_x), and
    the arithmetic variant's chance level and adjusted NMI under each model."""
    if rows.empty:
        return ""
    out = []
    perm = rows[rows["model"] == "perm"]
    if len(perm):
        gap = (perm["adjusted_nmi"] - perm["ami"]).abs().max()
        out.append(f"Under perm, NMI\\_x adjusted for chance is AMI\\_x (largest difference over the four: "
                   f"{format_number(gap)}).")
    arith = rows[rows["normalisation"] == "arithmetic"]
    out.append("Arithmetic normalisation (scikit-learn's default), by model — chance's score on AMI: "
               + " · ".join(f"{m} {format_number(e)}" + (" (exact)" if ex else f" ± {format_number(se)}")
                            for m, e, ex, se in zip(arith["model"], arith["expected_ami"],
                                                    arith["expected_ami_exact"], arith["expected_ami_stderr"]))
               + "; NMI adjusted: " + " · ".join(f"{m} {format_number(v)}"
                                                 for m, v in zip(arith["model"], arith["adjusted_nmi"])) + ".")
    return " ".join(out)
