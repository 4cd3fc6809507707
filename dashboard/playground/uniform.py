"""The uniform effect live: scikit-learn's K-means on blobs whose class sizes have a chosen CV₀
(:func:`metrics.papers.generators.skewed_blobs`), CV₁ and DCV of its clusters, and which measures
Wu et al.'s DCV criterion finds fooled (:mod:`metrics.papers.dcv`) beside the paper's Table 7.

The data sets follow Wu et al. §4.2: CV₀ from 0 up to the chosen value in ``SETTINGS`` steps,
``REPEATS`` samples of each (the paper: 8 data sets, 10 samples), K-means with as many clusters
as classes. The runs are cached across sessions by their parameters.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import metrics
from dashboard.playground.charts import SHAPES, class_name, cluster_colour
from dashboard.ui.figures.charts import figure
from dashboard.ui.figures.colours import HIGHLIGHT, NEUTRAL, QUALITATIVE
from metrics.papers import dcv
from metrics.papers import generators as g

SETTINGS, REPEATS = 8, 5
VARIANCES = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0)   # Wu et al.'s σ² (§4.2)
SIZES = (300, 600, 1200)
MIN_SIZE = 5              # the smallest class: K-means needs a few items to find it at all
# Wu et al.'s Table 7 measures (those registered) and Table 4's three defective ones (E, P, MI).
TABLE4_FOOLED = ["conditional_entropy", "purity", "mutual_info"]
SHOWN_POINTS = 600        # the scatter draws at most this many items (a sample, the same each time)


@st.cache_resource(show_spinner=False)
def _threads():
    """scikit-learn's thread pools, found once: K-means on a few hundred items runs on one thread
    (more only spin-wait, and one thread sums in a fixed order: labels independent of the cores)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def kmeans(points: np.ndarray, k: int, seed: int) -> np.ndarray:
    from sklearn.cluster import KMeans

    with _threads().limit(limits=1, user_api="openmp"):
        return KMeans(n_clusters=k, n_init=1, random_state=seed).fit_predict(points)


def settings_grid(cv0: float) -> np.ndarray:
    """The CV₀ of the sweep's data sets: 0 to ``cv0`` in ``SETTINGS`` steps."""
    return np.linspace(0.0, float(cv0), SETTINGS)


@st.cache_resource(max_entries=64, show_spinner=False)
def run(cv0: float, k: int, n: int, variance: float, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One data set at ``cv0`` and K-means' clusters of it: ``(points, classes, clusters)``
    (shared read-only)."""
    points, classes = g.skewed_blobs(cv0, k, n, variance, seed, min_size=MIN_SIZE)
    clusters = kmeans(points, k, seed)
    for a in (points, classes, clusters):
        a.flags.writeable = False
    return points, classes, clusters


@st.cache_data(max_entries=64, show_spinner=False)
def sweep(cv0: float, k: int, n: int, variance: float, seed: int, log_base: float, beta: float) -> pd.DataFrame:
    """:func:`metrics.papers.dcv.dcv_sweep` over the grid, ``REPEATS`` samples per setting, for
    every registered measure that applies to these tables (all of them: whole counts), so that
    choosing other measures costs no new evaluation."""
    runs = []
    for setting in settings_grid(cv0):
        for r in range(REPEATS):
            _, classes, clusters = run(float(setting), k, n, variance, seed * 1000 + r)
            runs.append((setting, classes, clusters))
    return dcv.dcv_sweep(runs, list(metrics.MEASURES), log_base=log_base, beta=beta)


def verdicts(sw: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per measure: κ against DCV here and whether it is fooled here, beside Wu et al.'s printed κ
    (simulated and sampled data) and the paper's verdict."""
    live = dcv.dcv_kappa(sw, keys).set_index("key")
    printed = dcv.wu_printed()["table7"].dropna(subset=["key"]).set_index("key")
    rows = []
    for k in keys:
        m = metrics.MEASURES[k]
        fooled = live.loc[k, "fooled"]
        rows.append({
            "measure": m.name, "symbol": m.symbol, "kappa": live.loc[k, "kappa"],
            "here": "—" if fooled is None else ("fooled" if fooled else "sees it"),
            "wu_simulated": _printed(printed, k, "simulated"),
            "wu_sampled": _printed(printed, k, "sampled"),
            "wu": ("fooled" if printed.loc[k, "fooled"] else "sees it") if k in printed.index
            else ("fooled (Table 4)" if k in TABLE4_FOOLED else "not in Table 7"),
        })
    return pd.DataFrame(rows)


def _printed(printed: pd.DataFrame, key: str, column: str) -> str:
    """Wu et al.'s printed κ as printed, or a dash where the paper has none for the measure."""
    value = printed.loc[key, column] if key in printed.index else None
    return "—" if value is None or pd.isna(value) else str(value)


def scatter(points: np.ndarray, classes: np.ndarray, clusters: np.ndarray) -> go.Figure:
    """The run's items: shape by class, colour by K-means cluster (at most ``SHOWN_POINTS``)."""
    shown = np.arange(classes.size)
    if shown.size > SHOWN_POINTS:
        shown = np.sort(np.random.default_rng(0).choice(shown, SHOWN_POINTS, replace=False))
    data = []
    for i in range(int(classes.max()) + 1):
        members = shown[classes[shown] == i]
        name = f"{class_name(i)} ({int((classes == i).sum())} items)"
        data.append({"type": "scattergl" if members.size > 300 else "scatter", "mode": "markers", "name": name,
                     "x": points[members, 0], "y": points[members, 1], "hoverinfo": "name", "showlegend": False,
                     "marker": {"symbol": SHAPES[i % len(SHAPES)][0], "size": 8,
                                "color": [cluster_colour(c) for c in clusters[members]]}})
        # The legend shows the class's shape in grey: a class has no colour (colours are clusters).
        data.append({"type": "scatter", "mode": "markers", "name": name[2:], "x": [None], "y": [None],
                     "hoverinfo": "skip", "marker": {"symbol": SHAPES[i % len(SHAPES)][0], "size": 8,
                                                     "color": NEUTRAL}})
    layout = {"height": 380, "margin": {"l": 10, "r": 10, "t": 10, "b": 10},
              "xaxis": {"visible": False}, "yaxis": {"visible": False, "scaleanchor": "x"},
              "legend": {"title": {"text": "Class (shape); colour = K-means cluster"}}}
    return figure(data, layout)


def dcv_figure(sw: pd.DataFrame, low: float, high: float) -> go.Figure:
    """CV₁ and DCV against CV₀ (Wu et al.'s Figure 2), with K-means' printed CV₁ interval as a band."""
    x = sw["cv0"].to_numpy()
    data = [
        {"type": "scatter", "mode": "lines+markers", "name": "CV₁ (clusters)", "x": x, "y": sw["cv1"].to_numpy(),
         "line": {"color": QUALITATIVE[0]}, "marker": {"symbol": "circle", "size": 8}},
        {"type": "scatter", "mode": "lines+markers", "name": "DCV = CV₁ − CV₀", "x": x, "y": sw["dcv"].to_numpy(),
         "line": {"color": QUALITATIVE[1], "dash": "dash"}, "marker": {"symbol": "diamond", "size": 8}},
        {"type": "scatter", "mode": "lines", "name": "CV₁ = CV₀ (no uniform effect)", "x": x, "y": x,
         "line": {"color": NEUTRAL, "dash": "dot"}},
    ]
    layout = {"height": 340, "margin": {"l": 60, "r": 10, "t": 30, "b": 50},
              "xaxis": {"title": {"text": "CV₀ of the classes (mean of the samples)"}},
              "yaxis": {"title": {"text": "CV₁ and DCV"}, "zeroline": True},
              "shapes": [{"type": "rect", "xref": "paper", "x0": 0, "x1": 1, "y0": low, "y1": high,
                          "fillcolor": HIGHLIGHT, "opacity": 0.08, "line": {"width": 0}, "layer": "below"}],
              "annotations": [{"xref": "paper", "x": 0.01, "y": high, "yanchor": "bottom", "showarrow": False,
                               "xanchor": "left",
                               "text": f"K-means' CV₁ in 95% of Wu et al.'s runs: [{low:g}, {high:g}]"}],
              "legend": {"orientation": "h", "y": 1.12}}
    return figure(data, layout)
