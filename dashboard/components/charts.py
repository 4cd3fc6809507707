"""Plotly figures of the dashboard. They draw numbers computed elsewhere (``metrics`` through
``tables.evaluate_cached``); nothing here computes a measure.

Figures are built from plain dicts with hand-placed axes rather than ``make_subplots``: that is
~20× faster to build, which keeps a slider rerun well inside its time budget.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import metrics

from .compare import NA, A, B, TIE
from .tables import display_frame, fingerprint

FAMILY_COLORS = {"information": "#4C78A8", "matching": "#F58518", "pairs": "#54A24B", "elementwise": "#B279A2"}
SIDE_COLORS = {A: "#1f77b4", B: "#ff7f0e", TIE: "#8c8c8c", NA: "#cccccc"}
DISAGREE_FILL = "rgba(214, 39, 40, 0.12)"
# No Plotly template: st.plotly_chart draws with Streamlit's theme, and Plotly's default
# template would be validated, copied and sent with every figure (two thirds of a small one).
NO_TEMPLATE = "none"
MAX_TEXT_CELLS = 400


def fmt(x: float) -> str:
    """A value as the tables print it: integers as integers, else 4 decimals (no float noise
    such as −1.3e−13 for a value that is 0 to the printed precision)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if isinstance(x, (int, np.integer)) or float(x).is_integer() and abs(x) < 1e15:
        return f"{int(x):,}"
    if abs(x) >= 1e4:
        return f"{x:.4g}"
    text = f"{x:.4f}"
    return "0.0000" if text == "-0.0000" else text


def _cat_axis(**kw) -> dict:
    # Category axes: class names such as "1", "2" must not become numbers.
    return {"type": "category", **kw}


def heatmap_figure(frame: pd.DataFrame, title: str = "", height: int | None = None) -> go.Figure:
    """The table as a heatmap, with cluster sizes above and class sizes to the right."""
    xs, ys = [str(c) for c in frame.columns], [str(i) for i in frame.index]
    z = frame.to_numpy()
    col_sums, row_sums = z.sum(axis=0), z.sum(axis=1)
    text = z.size <= MAX_TEXT_CELLS
    data = [
        {"type": "heatmap", "x": xs, "y": ys, "z": z, "colorscale": "Blues", "showscale": False,
         "xaxis": "x", "yaxis": "y", "xgap": 1, "ygap": 1,
         "texttemplate": "%{z}" if text else None,
         "hovertemplate": "class %{y}<br>cluster %{x}<br>count %{z}<extra></extra>"},
        {"type": "bar", "x": xs, "y": col_sums, "xaxis": "x", "yaxis": "y2", "marker": {"color": "#9ecae1"},
         "text": [fmt(v) for v in col_sums] if len(xs) <= 30 else None, "textposition": "inside",
         "textangle": 0, "insidetextanchor": "middle",
         "hovertemplate": "cluster %{x}: %{y} items<extra></extra>", "showlegend": False},
        {"type": "bar", "x": row_sums, "y": ys, "orientation": "h", "xaxis": "x2", "yaxis": "y",
         "text": [fmt(v) for v in row_sums] if len(ys) <= 40 else None, "textposition": "inside",
         "textangle": 0, "insidetextanchor": "middle",
         "marker": {"color": "#9ecae1"}, "hovertemplate": "class %{y}: %{x} items<extra></extra>", "showlegend": False},
    ]
    if height is None:
        height = int(min(max(120 + 26 * len(ys), 280), 720))
    layout = {
        "template": NO_TEMPLATE,
        "height": height, "margin": {"l": 10, "r": 10, "t": 40 if title else 10, "b": 10},
        "title": {"text": title} if title else None,
        "xaxis": _cat_axis(domain=[0, 0.82], anchor="y", side="bottom", tickangle=-45 if len(xs) > 12 else 0,
                           title={"text": "clusters"}),
        "yaxis": _cat_axis(domain=[0, 0.80], anchor="x", autorange="reversed", title={"text": "classes"}),
        "xaxis2": {"domain": [0.85, 1.0], "anchor": "y", "showticklabels": False, "showgrid": False,
                   "title": {"text": "class size"}},
        "yaxis2": {"domain": [0.83, 1.0], "anchor": "x", "showticklabels": False, "showgrid": False,
                   "title": {"text": "cluster<br>size"}},
        "bargap": 0.15,
    }
    return go.Figure(data=data, layout=layout)


def goodness_figure(values: dict[str, float], keys: list[str]) -> go.Figure:
    """Every chosen measure on the registry's common goodness scale (``Measure.goodness``,
    1 = best), grouped by family; measures missing from ``values`` (not defined for the table)
    are left out."""
    ms = [metrics.MEASURES[k] for k in keys if k in values]
    data = []
    for fam, label in metrics.FAMILIES.items():
        sub = [m for m in ms if m.family == fam]
        if not sub:
            continue
        data.append({
            "type": "bar", "orientation": "h", "name": label, "marker": {"color": FAMILY_COLORS.get(fam)},
            "y": [m.symbol for m in sub], "x": [m.goodness(values[m.key]) for m in sub],
            "text": [fmt(values[m.key]) for m in sub], "textposition": "outside", "cliponaxis": False,
            "customdata": [[m.name, fmt(values[m.key]), "higher" if m.higher_is_better else "lower", m.range_text,
                            m.description] for m in sub],
            "hovertemplate": "<b>%{customdata[0]}</b> (%{y})<br>value %{customdata[1]} — %{customdata[2]} is better, "
                             "range %{customdata[3]}<br>goodness %{x:.3f}<br><i>%{customdata[4]}</i><extra></extra>",
        })
    layout = {
        "template": NO_TEMPLATE,
        "height": int(90 + 21 * len(ms)), "barmode": "relative", "bargap": 0.25,
        "margin": {"l": 10, "r": 50, "t": 30, "b": 40},
        "xaxis": {"range": [0, 1.12], "title": {"text": "goodness (1 = best possible; label = raw value)"},
                  "tickvals": [0, 0.25, 0.5, 0.75, 1]},
        "yaxis": _cat_axis(autorange="reversed", categoryorder="array", categoryarray=[m.symbol for m in ms]),
        "legend": {"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0},
    }
    return go.Figure(data=data, layout=layout)


def preference_figure(df: pd.DataFrame, label_a: str, label_b: str) -> go.Figure:
    """A dumbbell per measure: A and B on the goodness scale, the line colored by the preferred
    solution, the preferred marker larger; measures that go against the others shaded red."""
    n = len(df)
    ys = list(range(n))
    shapes, annotations = [], []
    for y, row in zip(ys, df.itertuples(index=False)):
        if row.disagrees:
            shapes.append({"type": "rect", "xref": "paper", "yref": "y", "x0": 0, "x1": 1, "y0": y - 0.45,
                           "y1": y + 0.45, "fillcolor": DISAGREE_FILL, "line": {"width": 0}, "layer": "below"})
            annotations.append({"xref": "paper", "yref": "y", "x": 1.0, "y": y, "xanchor": "right",
                                "text": "disagrees", "showarrow": False, "font": {"color": "#d62728", "size": 11}})
        ga, gb = row[df.columns.get_loc("goodness A")], row[df.columns.get_loc("goodness B")]
        shapes.append({"type": "line", "xref": "x", "yref": "y", "x0": ga, "x1": gb, "y0": y, "y1": y,
                       "line": {"color": SIDE_COLORS[row.prefers], "width": 4}, "layer": "below"})
    sizes = {A: lambda p: 16 if p == A else 9, B: lambda p: 16 if p == B else 9}
    data = []
    for side, label, vcol, gcol, symbol in ((A, label_a, "A", "goodness A", "circle"),
                                            (B, label_b, "B", "goodness B", "diamond")):
        data.append({
            "type": "scatter", "mode": "markers+text", "name": f"{side}: {label}", "y": ys, "x": df[gcol].tolist(),
            "marker": {"color": SIDE_COLORS[side], "size": [sizes[side](p) for p in df["prefers"]], "symbol": symbol},
            "text": [fmt(v) for v in df[vcol]], "textposition": "top center", "cliponaxis": False,
            "customdata": [[r.measure, fmt(getattr(r, vcol)), r.better, r.prefers,
                            metrics.MEASURES[r.key].description] for r in df.itertuples(index=False)],
            "hovertemplate": f"<b>%{{customdata[0]}}</b><br>{side} ({label}): %{{customdata[1]}} "
                             "(%{customdata[2]} better)<br>prefers: %{customdata[3]}"
                             "<br><i>%{customdata[4]}</i><extra></extra>",
        })
    mark = {A: "✓A", B: "✓B", TIE: "=", NA: "n/a"}
    ticktext = [f"{s} {mark[p]}" for s, p in zip(df["symbol"], df["prefers"])]
    layout = {
        "template": NO_TEMPLATE,
        "height": int(130 + 46 * n), "margin": {"l": 10, "r": 10, "t": 50, "b": 40},
        "shapes": shapes, "annotations": annotations,
        "xaxis": {"range": [-0.02, 1.05], "title": {"text": "goodness (1 = best; labels = raw values)"}},
        # Room above the first row for its value labels, below the legend.
        "yaxis": {"tickvals": ys, "ticktext": ticktext, "range": [n - 0.5, -0.9]},
        "legend": {"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0},
    }
    return go.Figure(data=data, layout=layout)


def morph_figure(curve: pd.DataFrame, keys: list[str], x_title: str, current_x: float,
                 flip_points: dict[str, list[float]], labels: tuple[str, str], cols: int = 3) -> go.Figure:
    """Small multiples, one per measure: both solutions' values along the sweep, the slider's
    position (dashed) and every flip of the measure's preference (red band)."""
    n = len(keys)
    cols = max(1, min(cols, n))
    nrows = math.ceil(n / cols)
    gap_x, gap_y = 0.06, 0.28 / max(nrows, 1)
    span = float(curve["x"].max() - curve["x"].min()) if len(curve) else 0.0
    groups = {k: g for k, g in curve.groupby(["key", "solution"], sort=False)}
    data, shapes, annotations = [], [], []
    layout: dict = {}
    for i, key in enumerate(keys):
        m = metrics.MEASURES[key]
        ax, (x0, x1), (y0, y1) = panel_domains(i, cols, nrows, gap_x, gap_y)
        layout[f"xaxis{ax}"] = {"domain": [x0, x1], "anchor": f"y{ax}", "dtick": 1 if span <= 12 else None}
        layout[f"yaxis{ax}"] = {"domain": [y0, y1], "anchor": f"x{ax}"}
        for label, color, dash in ((labels[0], SIDE_COLORS[B], "solid"), (labels[1], SIDE_COLORS[A], "dot")):
            pts = groups.get((key, label))
            data.append({"type": "scatter", "mode": "lines+markers", "name": label, "legendgroup": label,
                         "showlegend": i == 0, "x": pts["x"].to_numpy(), "y": pts["value"].to_numpy(),
                         "xaxis": f"x{ax}", "yaxis": f"y{ax}", "line": {"color": color, "dash": dash},
                         "marker": {"size": 5},
                         "hovertemplate": f"{label}<br>x = %{{x}}<br>{m.symbol} = %{{y:.4f}}<extra></extra>"})
        arrow = "↑" if m.higher_is_better else "↓"
        annotations.append({"text": f"<b>{m.symbol}</b> ({arrow} better)", "xref": f"x{ax} domain",
                            "yref": f"y{ax} domain", "x": 0.5, "y": 1.0, "yanchor": "bottom", "showarrow": False})
        shapes.append({"type": "line", "xref": f"x{ax}", "yref": f"y{ax} domain", "x0": current_x, "x1": current_x,
                       "y0": 0, "y1": 1, "line": {"color": "#444", "dash": "dash", "width": 1}})
        for fx in flip_points.get(key, []):
            shapes.append({"type": "rect", "xref": f"x{ax}", "yref": f"y{ax} domain", "x0": fx - 0.12,
                           "x1": fx + 0.12, "y0": 0, "y1": 1, "fillcolor": "rgba(214, 39, 40, 0.35)",
                           "line": {"width": 0}, "layer": "below", "name": f"flip {key}"})
            annotations.append({"text": "flip", "xref": f"x{ax}", "yref": f"y{ax} domain", "x": fx, "y": 0.02,
                                "showarrow": False, "font": {"color": "#d62728", "size": 10}, "yanchor": "bottom"})
    # One x title for all panels (per-panel titles would overlap).
    annotations.append({"text": x_title, "xref": "paper", "yref": "paper", "x": 0.5, "y": 0, "yshift": -42,
                        "showarrow": False, "xanchor": "center", "yanchor": "top"})
    layout.update({"template": NO_TEMPLATE, "height": int(90 + 250 * nrows), "shapes": shapes,
                   "annotations": annotations,
                   "margin": {"l": 10, "r": 10, "t": 70, "b": 60},
                   "legend": {"orientation": "h", "y": 1.0 + 26 / (250 * nrows - 20), "yanchor": "bottom", "x": 0}})
    return go.Figure(data=data, layout=layout)


# ---------------------------------------------------------------- cached figures
# Figures are shared read-only (st.plotly_chart copies before encoding), so st.cache_resource
# serves them without the pickle round trip st.cache_data would add: a rerun that changes only
# one chart rebuilds only that chart.
@st.cache_resource(max_entries=128, show_spinner=False, hash_funcs={metrics.Contingency: fingerprint})
def table_heatmap(t: metrics.Contingency, max_rows: int = 40, max_cols: int = 120,
                  height: int | None = None) -> tuple[go.Figure, str | None]:
    """(heatmap figure, summary or None) of a table, drawn once per table (see ``display_frame``)."""
    frame, summary = display_frame(t, max_rows, max_cols)
    return heatmap_figure(frame, height=height), summary


def cached_preference_figure(df: pd.DataFrame, label_a: str, label_b: str) -> go.Figure:
    """:func:`preference_figure`, drawn once per comparison (keyed on the rows' plain values:
    hashing a tuple is far cheaper than hashing a DataFrame)."""
    rows = tuple(df.itertuples(index=False, name=None))
    return _preference_figure(rows, tuple(df.columns), label_a, label_b)


@st.cache_resource(max_entries=128, show_spinner=False)
def _preference_figure(rows: tuple, columns: tuple, label_a: str, label_b: str) -> go.Figure:
    return preference_figure(pd.DataFrame(list(rows), columns=list(columns)), label_a, label_b)


@st.cache_resource(max_entries=128, show_spinner=False)
def cached_goodness_figure(values: tuple[tuple[str, float], ...], keys: tuple[str, ...]) -> go.Figure:
    return goodness_figure(dict(values), list(keys))


def panel_domains(i: int, cols: int, nrows: int, gap_x: float, gap_y: float):
    """Small multiples: the axis suffix ("", "2", …) and the x and y domains (paper
    coordinates) of panel ``i`` in a grid of ``cols`` columns and ``nrows`` rows."""
    r, c = divmod(i, cols)
    ax = "" if i == 0 else str(i + 1)
    x = (c / cols + (gap_x / 2 if c else 0), (c + 1) / cols - (gap_x / 2 if c < cols - 1 else 0))
    y = (1 - (r + 1) / nrows + (gap_y / 2 if r < nrows - 1 else 0), 1 - r / nrows - (gap_y / 2 if r else 0))
    return ax, x, y
