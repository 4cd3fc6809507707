"""The Fuzzy lab's views: Utt et al.'s worked example, a playground of ambiguous data and their
Experiments 1–3, all computed by ``metrics`` (``Contingency.from_memberships``,
``metrics.papers.generators``' ambiguity generators and dissimilarity step, ``metrics.papers.experiments``).

Heavy work is cached, across sessions: the playground's clusterings and their scores once per
setting (all of a setting's clusterings together: a few milliseconds), the experiments per unit —
one data size, one softness step — so that the page can show progress while new units are
computed. A rerun with settings seen before computes nothing.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import metrics
from dashboard.ui.figures.charts import figure, table_heatmap
from dashboard.ui.figures.colours import QUALITATIVE
from dashboard.ui.figures.lines import line_panels
from dashboard.ui.readout import escape_label, format_number
from metrics.papers import experiments, resources

VARIANT_LABELS = {
    "fuzzy": "fuzzy (mass split over classes)",
    "count": "counted (every membership once)",
    "fuzzy_diss": "fuzzy + dissimilarity step",
    "count_diss": "counted + dissimilarity step",
}
VARIANT_COLORS = {"fuzzy": QUALITATIVE[0], "count": QUALITATIVE[1], "fuzzy_diss": QUALITATIVE[0],
                  "count_diss": QUALITATIVE[1]}
VARIANT_DASH = {"fuzzy_diss": "dash", "count_diss": "dash"}
SCHEME_LABELS = {"halving": "Utt et al.'s halving scheme", "fixed": "same number of classes for every point",
                 "share": "a share of the points in 2 classes"}
SOFT_STEPS = 11  # softness 0 %, 10 %, …, 100 %


def fuzzy_measures() -> list[str]:
    """Registered measures defined on the fractional tables of ambiguous data (registry order)."""
    return [k for k, m in metrics.MEASURES.items() if m.domain == "any"]


# ---------------------------------------------------------------------- the worked example
@lru_cache(maxsize=1)
def example() -> dict:
    """The worked example's memberships and printed values (assets/paper_values/utt2014_example.json)."""
    data = resources.read_json("paper_values", "utt2014_example.json")
    points = list(data["gold"])
    return {"points": points, "gold": [tuple(data["gold"][p]) for p in points],
            "clusters": [tuple(data["clusters"][p]) for p in points], "printed": data["printed"],
            "provenance": data["provenance"]}


@st.cache_resource(max_entries=1, show_spinner=False)
def example_memberships() -> pd.DataFrame:
    ex = example()
    return pd.DataFrame({"point": ex["points"], "gold classes": [", ".join(g) for g in ex["gold"]],
                         "clusters": [", ".join(c) for c in ex["clusters"]]})


@st.cache_resource(max_entries=1, show_spinner=False)
def example_table1() -> pd.DataFrame:
    """Table 1: each point's mass over the classes — the fuzzy table with one cluster per point,
    shown with points as rows as the paper prints it."""
    ex = example()
    t = metrics.Contingency.from_memberships(ex["gold"], ex["points"], mode="fuzzy")
    return t.T.to_frame()


def example_tables() -> dict[str, metrics.Contingency]:
    ex = example()
    return {mode: metrics.Contingency.from_memberships(ex["gold"], ex["clusters"], mode=mode)
            for mode in ("fuzzy", "count")}


@st.cache_resource(max_entries=1, show_spinner=False)
def example_table2() -> pd.DataFrame:
    """Table 2 as printed (clusters as rows) with each cluster's mass Σ (the table's column sums)."""
    t = example_tables()["fuzzy"]
    frame = t.T.to_frame()
    frame["Σ"] = t.col_sums
    return frame


@st.cache_resource(max_entries=16, show_spinner=False)
def example_scores(log_base: float, beta: float) -> pd.DataFrame:
    """V under both countings and both normalisations, with h and c (``metrics.evaluate``)."""
    ex = example()
    printed = {"fuzzy": ex["printed"]["fuzzy_v"], "count": ex["printed"]["traditional_v"]}
    rows = []
    for mode, t in example_tables().items():
        v = metrics.evaluate(t, ["homogeneity", "completeness", "v_measure", "fuzzy_v_joint"],
                             log_base=log_base, beta=beta)
        rows.append({"counting": VARIANT_LABELS[mode], "printed V": printed[mode], "total mass": t.n,
                     "h": v["homogeneity"], "c": v["completeness"],
                     "V, R&H normalisation (H(C), H(K))": v["v_measure"],
                     "V, the paper's eqs. 2–3 (H(C,K))": v["fuzzy_v_joint"]})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------- the playground
# A slider step of the playground asks for a new data set (or a new measure) and with it every
# clustering's four tables: computed together, once per setting, and shared read-only across
# sessions (st.cache_resource: no copy on each read). Nothing below mutates what it is given.
@st.cache_resource(max_entries=64, show_spinner=False)
def gold_standard(n: int, scheme: str, rate, n_classes: int, seed: int) -> list[tuple]:
    """``experiments.ambiguous_gold`` (ValueError passes through for the page to show)."""
    return experiments.ambiguous_gold(n, scheme, rate, n_classes, seed=seed)


@st.cache_resource(max_entries=32, show_spinner=False)
def clusterings(n: int, scheme: str, rate, n_classes: int, seed: int, noise: float) -> list[list[tuple]]:
    """Up to :data:`SOFT_STEPS` clusterings from hard to the perfect soft one; with ``noise``, the
    cluster memberships of that share of the points permuted (the same points at every step)."""
    gold = gold_standard(n, scheme, rate, n_classes, seed)
    steps = experiments.soft_clusterings(gold, SOFT_STEPS)
    if noise > 0:
        steps = [experiments.with_noise(c, noise, seed=seed) for c in steps]
    return steps


class Curve(NamedTuple):
    """The playground's clusterings scored: ``rows[i]`` is ``experiments.experiment3_row`` of
    clustering i, ``softness[i]`` its softness in percent, ``long`` the rows as
    :func:`tidy_steps` gives them (for :func:`steps_figure`)."""

    rows: tuple[dict, ...]
    softness: tuple[float, ...]
    long: pd.DataFrame


@st.cache_resource(max_entries=32, show_spinner="Counting the clusterings…")
def curve_tables(n: int, scheme: str, rate, n_classes: int, seed: int, noise: float) -> tuple[dict, ...]:
    """The four tables of every clustering of :func:`clusterings` (``experiments.fuzzy_tables``):
    built once per data set, then scored under any measure, β and unit (shared read-only)."""
    gold = gold_standard(n, scheme, rate, n_classes, seed)
    return tuple(experiments.fuzzy_tables(gold, c) for c in clusterings(n, scheme, rate, n_classes, seed, noise))


@st.cache_resource(max_entries=256, show_spinner="Scoring the clusterings…")
def softness_curve(n: int, scheme: str, rate, n_classes: int, seed: int, noise: float, measure: str,
                   log_base: float, beta: float) -> Curve:
    """Every clustering of :func:`clusterings` scored under the four countings."""
    gold = gold_standard(n, scheme, rate, n_classes, seed)
    steps = clusterings(n, scheme, rate, n_classes, seed, noise)
    tables = curve_tables(n, scheme, rate, n_classes, seed, noise)
    rows = tuple(experiments.experiment3_row(gold, c, i, len(steps), measure, log_base=log_base, beta=beta,
                                             tables=tables[i])
                 for i, c in enumerate(steps))
    long = tidy_steps(pd.DataFrame(list(rows)))
    return Curve(rows, tuple(100.0 * r["softness"] for r in rows), long)


@st.cache_resource(max_entries=256, show_spinner=False)
def curve_figures(n: int, scheme: str, rate, n_classes: int, seed: int, noise: float, measure: str,
                  log_base: float, beta: float, step: int) -> tuple[go.Figure, go.Figure]:
    """(:func:`variants_figure` at clustering ``step``, :func:`steps_figure` with the slider's
    position there) of :func:`softness_curve`, drawn once per setting (shared read-only:
    ``st.plotly_chart`` copies a figure before encoding it)."""
    curve = softness_curve(n, scheme, rate, n_classes, seed, noise, measure, log_base, beta)
    symbol = metrics.MEASURES[measure].symbol
    return (variants_figure(curve.rows[step], symbol),
            steps_figure(curve.long, symbol, curve.softness[step]))


@st.cache_resource(max_entries=32, show_spinner=False)
def step_heatmaps(n: int, scheme: str, rate, n_classes: int, seed: int, noise: float, step: int,
                  variants: tuple[str, ...]) -> dict[str, tuple]:
    """``charts.table_heatmap`` of the tables of :func:`curve_tables` at ``step`` named in ``variants``, with the
    caption under each: (figure, caption) by variant, drawn once per clustering (shared read-only:
    ``st.plotly_chart`` copies a figure before encoding it)."""
    tables = curve_tables(n, scheme, rate, n_classes, seed, noise)[step]
    out = {}
    for variant in variants:
        t = tables[variant]
        fig, summary = table_heatmap(t, max_rows=30, max_cols=30, height=420)
        out[variant] = (fig, summary or f"{t.shape[0]} classes × {t.shape[1]} clusters, total mass "
                                        f"{format_number(t.n)}")
    return out


def tidy_steps(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows of ``experiment3_row`` as (step, softness %, variant, value, label): one block of rows
    per variant, as ``frame.melt`` gives them (built from the columns directly: a fifth of its cost)."""
    variants = [v for v in VARIANT_LABELS if v in frame]
    k = len(variants)
    return pd.DataFrame({
        "step": np.tile(frame["step"].to_numpy(), k),
        "softness": 100.0 * np.tile(frame["softness"].to_numpy(), k),
        "variant": pd.array(np.repeat(variants, len(frame)).tolist(), dtype="str"),
        "value": np.concatenate([frame[v].to_numpy() for v in variants]),
        "label": pd.array(np.repeat([VARIANT_LABELS[v] for v in variants], len(frame)).tolist(), dtype="str"),
    })


def variants_figure(values: dict[str, float], symbol: str) -> go.Figure:
    """The four countings at the sliders, as horizontal bars labelled with their values."""
    names = list(VARIANT_LABELS)
    shown = [format_number(values[v]) for v in names]
    data = [{"type": "bar", "orientation": "h", "y": [escape_label(VARIANT_LABELS[v]) for v in names],
             "x": [values[v] for v in names], "text": shown, "textposition": "outside",
             "cliponaxis": False, "marker": {"color": [VARIANT_COLORS[v] for v in names],
                                             "pattern": {"shape": ["", "", "/", "/"]}},
             "customdata": shown,
             "hovertemplate": f"%{{y}}<br>{escape_label(symbol)} = %{{customdata}}<extra></extra>"}]
    layout = {"height": 230, "margin": {"l": 10, "r": 60, "t": 10, "b": 40}, "bargap": 0.3,
              "xaxis": {"title": {"text": escape_label(symbol)}, "rangemode": "tozero"},
              "yaxis": {"type": "category", "autorange": "reversed"}}
    return figure(data, layout)


def steps_figure(long: pd.DataFrame, symbol: str, current: float | None = None) -> go.Figure:
    """The four countings along softness (Utt et al. Figures 6 and 11)."""
    return line_panels(long, x="softness", y="value", series="label",
                       series_order=[VARIANT_LABELS[v] for v in VARIANT_LABELS],
                       colors={VARIANT_LABELS[v]: c for v, c in VARIANT_COLORS.items()},
                       dashes={VARIANT_LABELS[v]: d for v, d in VARIANT_DASH.items()},
                       x_title="softness: share of the extra gold memberships assigned (%)", y_title=symbol,
                       vlines=[(current, " sliders")] if current is not None else (), panel_height=320)


# ---------------------------------------------------------------------- the ambiguity sweep
# The rates a sweep visits: the share slider's range in steps of 10 % (eleven data sets), every
# number of classes per point the fixed-rate slider offers. The halving scheme has no rate.
SWEEP_RATES = {"share": tuple(s / 100 for s in range(0, 101, 10)), "fixed": (1, 2, 3, 4, 5, 6)}
SWEEP_AXIS = {"share": "ambiguous points (%): the share of the points in two gold classes",
              "fixed": "gold classes per point"}


def sweep_rates(scheme: str, n_classes: int) -> tuple:
    """The rates of :data:`SWEEP_RATES` that ``n_classes`` admits (a point cannot have more
    classes than there are)."""
    return tuple(r for r in SWEEP_RATES[scheme] if scheme != "fixed" or r <= n_classes)


def sweep_x(scheme: str, rate) -> float:
    """A rate as the slider shows it: percent for the share scheme, classes per point for fixed."""
    return 100.0 * rate if scheme == "share" else float(rate)


@st.cache_data(max_entries=64, show_spinner="Sweeping the ambiguity rate…")
def ambiguity_sweep(n: int, scheme: str, n_classes: int, softness: float, noise: float, seed: int, measure: str,
                    log_base: float, beta: float) -> pd.DataFrame:
    """``metrics.papers.experiments.ambiguity_sweep`` over :func:`sweep_rates` with the playground's other
    settings (``softness`` and ``noise`` as shares): the playground's scores at every position of
    its rate slider, cached across sessions (the rate slider only moves the marker)."""
    return experiments.ambiguity_sweep(n, sweep_rates(scheme, n_classes), scheme, n_classes,
                                       softness_target=softness, noise=noise, seed=seed, n_steps=SOFT_STEPS,
                                       measure=measure, log_base=log_base, beta=beta)


def ambiguity_figure(frame: pd.DataFrame, scheme: str, symbol: str, current: float | None = None) -> go.Figure:
    """The four countings along the ambiguity rate (one line each; dashed: with the dissimilarity
    step), the slider's position dashed."""
    long = frame.melt(id_vars=["rate"], value_vars=list(VARIANT_LABELS), var_name="variant", value_name="value")
    long["x"] = [sweep_x(scheme, r) for r in long["rate"]]
    long["label"] = long["variant"].map(VARIANT_LABELS)
    return line_panels(long, x="x", y="value", series="label",
                       series_order=[VARIANT_LABELS[v] for v in VARIANT_LABELS],
                       colors={VARIANT_LABELS[v]: c for v, c in VARIANT_COLORS.items()},
                       dashes={VARIANT_LABELS[v]: d for v, d in VARIANT_DASH.items()},
                       x_title=SWEEP_AXIS[scheme], y_title=symbol,
                       vlines=[(current, " sliders")] if current is not None else (), panel_height=320)


@st.cache_resource(max_entries=128, show_spinner=False)
def ambiguity_chart(n: int, scheme: str, n_classes: int, softness: float, noise: float, seed: int, measure: str,
                    log_base: float, beta: float, current: float | None):
    """(figure, sweep) at the slider's position, built once per position (the figure is shared
    read-only: ``st.plotly_chart`` copies it before encoding)."""
    frame = ambiguity_sweep(n, scheme, n_classes, softness, noise, seed, measure, log_base, beta)
    return ambiguity_figure(frame, scheme, metrics.MEASURES[measure].symbol, current), frame


# ---------------------------------------------------------------------- the experiments
class _Runs:
    """Experiment 1's runs at one size computed so far, extended on demand: one more gold
    standard per size costs one run, not all of them again (``experiments.experiment1_runs``)."""

    def __init__(self, size: int, seed: int):
        self._next, self._lock = experiments.experiment1_runs(size, seed), threading.Lock()
        self._rows: list[dict] = []

    def first(self, repeats: int) -> list[dict]:
        with self._lock:  # sessions share it; one extends at a time
            while len(self._rows) < repeats:
                self._rows.append(next(self._next))
            return self._rows[:repeats]


@st.cache_resource(max_entries=512, show_spinner=False)
def _experiment1_runs(size: int, seed: int) -> _Runs:
    return _Runs(size, seed)


@st.cache_data(max_entries=512, show_spinner=False)
def experiment1_size(size: int, repeats: int, seed: int) -> pd.DataFrame:
    """``experiments.experiment1_size(size, repeats, seed)``, the same frame, from the runs of
    this size already computed for any number of repeats plus the new ones."""
    return pd.DataFrame(_experiment1_runs(size, seed).first(repeats), columns=experiments.RUN_COLUMNS)


@st.cache_data(max_entries=2048, show_spinner=False)
def experiment2_size(size: int, seed: int) -> pd.DataFrame:
    return experiments.experiment2_size(size, 1, seed)


@st.cache_resource(max_entries=16, show_spinner=False)
def experiment3_setup(n_points: int, n_steps: int, seed: int):
    return experiments.experiment3_setup(n_points, n_steps, seed)


@st.cache_data(max_entries=1024, show_spinner=False)
def experiment3_step(n_points: int, n_steps: int, seed: int, step: int) -> dict:
    gold, steps = experiment3_setup(n_points, n_steps, seed)
    return experiments.experiment3_row(gold, steps[step], step, len(steps))


def run_units(label: str, units: list, work) -> list:
    """``work(unit)`` for every unit with a progress bar (cached units pass at once)."""
    bar = st.progress(0.0, text=label)
    out = []
    for i, u in enumerate(units):
        out.append(work(u))
        bar.progress((i + 1) / len(units), text=f"{label} {i + 1}/{len(units)}")
    bar.empty()
    return out


def experiment1(sizes: list[int], repeats: int, seed: int) -> pd.DataFrame:
    frames = run_units("Experiment 1: data size", sizes, lambda s: experiment1_size(s, repeats, seed))
    return pd.concat(frames, ignore_index=True)


class Experiment1View(NamedTuple):
    """Experiment 1 at the tab's settings: the runs, their summary and the figure."""

    frame: pd.DataFrame
    summary: pd.DataFrame
    figure: go.Figure


@st.cache_resource(max_entries=64, show_spinner=False)
def experiment1_view(largest: int, repeats: int, seed: int) -> Experiment1View:
    """:func:`experiment1` over ``sizes_up_to(largest, 8)`` with its summary and figure, put
    together once per setting (shared read-only; a rerun with the same settings, e.g. a playground
    slider's, reads them). New sizes show their progress as they are computed."""
    frame = experiment1(sizes_up_to(largest, 8), repeats, seed)
    return Experiment1View(frame, experiments.summarize(frame), experiment1_figure(frame))


def experiment2(sizes: list[int], seed: int) -> pd.DataFrame:
    frames = run_units("Experiment 2: data size", sizes, lambda s: experiment2_size(s, seed))
    return pd.concat(frames, ignore_index=True)


def experiment3(n_points: int, n_steps: int, seed: int) -> pd.DataFrame:
    _, steps = experiment3_setup(n_points, n_steps, seed)
    rows = run_units("Experiment 3: clustering", list(range(len(steps))),
                     lambda i: experiment3_step(n_points, n_steps, seed, i))
    return pd.DataFrame(rows)


class Experiment3View(NamedTuple):
    """Experiment 3 at the tab's settings: the steps' scores and their figure."""

    frame: pd.DataFrame
    figure: go.Figure


@st.cache_resource(max_entries=64, show_spinner=False)
def experiment3_view(n_points: int, n_steps: int, seed: int) -> Experiment3View:
    """:func:`experiment3` with its figure, put together once per setting and shared read-only, as
    :func:`experiment1_view` (its values table is then formatted once, not per rerun)."""
    frame = experiment3(n_points, n_steps, seed)
    return Experiment3View(frame, steps_figure(tidy_steps(frame), "V"))


def experiment1_figure(frame: pd.DataFrame) -> go.Figure:
    """Figure 4's re-run: the spread of fuzzy and counted V at each data size (box plots).

    Plotly writes a box's own hover numbers (quartiles, fences) in its format, not ours, so the
    boxes take no hover; an invisible marker at each box's mean carries the numbers instead, in
    the one format: runs, mean, median, lowest and highest V."""
    data = []
    sizes = frame["size"].astype(str).to_numpy()
    for variant in ("fuzzy", "count"):
        name = escape_label(VARIANT_LABELS[variant])
        data.append({"type": "box", "name": name, "legendgroup": name, "x": sizes, "y": frame[variant].to_numpy(),
                     "marker": {"color": VARIANT_COLORS[variant], "size": 3}, "boxmean": True,
                     "boxpoints": "outliers", "hoverinfo": "skip"})
        stats = frame.groupby("size", sort=True)[variant].agg(["count", "mean", "median", "min", "max"])
        data.append({"type": "scatter", "mode": "markers", "name": name, "legendgroup": name, "showlegend": False,
                     "x": [str(s) for s in stats.index], "y": stats["mean"].tolist(),
                     "offsetgroup": name, "marker": {"color": VARIANT_COLORS[variant], "size": 10, "opacity": 0},
                     "customdata": [[format_number(v) for v in row] for row in stats.itertuples(index=False)],
                     "hovertemplate": "%{fullData.name}<br>%{x} points, %{customdata[0]} gold standards<br>"
                                      "V: mean %{customdata[1]}, median %{customdata[2]}<br>"
                                      "lowest %{customdata[3]}, highest %{customdata[4]}<extra></extra>"})
    layout = {"height": 380, "boxmode": "group", "scattermode": "group",
              "margin": {"l": 10, "r": 10, "t": 40, "b": 40},
              "xaxis": {"type": "category", "title": {"text": "data size (points), each clustered perfectly"}},
              "yaxis": {"title": {"text": "V"}, "range": [0, 1.02]},
              "legend": {"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0}}
    return figure(data, layout)


def experiment2_figure(frame: pd.DataFrame) -> go.Figure:
    long = frame.melt(id_vars=["size"], value_vars=["fuzzy", "count"], var_name="variant", value_name="value")
    long["label"] = long["variant"].map(VARIANT_LABELS)
    return line_panels(long, x="size", y="value", series="label",
                       series_order=[VARIANT_LABELS["fuzzy"], VARIANT_LABELS["count"]],
                       colors={VARIANT_LABELS[v]: VARIANT_COLORS[v] for v in ("fuzzy", "count")},
                       x_title="data size (points): a random gold standard against a random soft clustering",
                       y_title="V", panel_height=320, markers=False)


def sizes_up_to(largest: int, count: int) -> list[int]:
    return experiments.default_sizes(largest, count)


def even_sizes(largest: int, points: int = 60) -> list[int]:
    """About ``points`` evenly spaced sizes from 2 to ``largest`` (the paper: every size to 500)."""
    step = max(1, int(np.ceil((largest - 1) / points)))
    return list(range(2, largest + 1, step))
