"""The Compare page's figures: which solution each measure prefers (a dumbbell per measure) and
solution R morphing into singletons (small multiples with the flips of each measure's preference).
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import metrics
from dashboard.compare.view import NA, TIE, A, B
from dashboard.ui.figures.charts import figure, panel_domains
from dashboard.ui.figures.colours import HIGHLIGHT, MISSING, NEUTRAL, QUALITATIVE, rgba
from dashboard.ui.readout import escape_label, format_number, wrap

SIDE_COLORS = {A: QUALITATIVE[0], B: QUALITATIVE[1], TIE: NEUTRAL, NA: MISSING}
FLIP_COLOR = HIGHLIGHT
SIDE_TINT = 0.10  # opacity of a row's tint in the colour of the solution its measure prefers


def preference_figure(df: pd.DataFrame, label_a: str, label_b: str) -> go.Figure:
    """A dumbbell per measure: A and B on the goodness scale, the line colored by the preferred
    solution, the preferred marker larger, the row tinted in the preferred solution's colour (a
    grouping, not a verdict: ``view.SIDES_HELP``; no tint for a tie or an undefined measure).

    Value labels (the raw values) sit above A's marker and below B's, so the two never overlap
    however close the values are; rows are tall enough that one row's labels clear the next's.
    """
    n = len(df)
    ys = list(range(n))
    shapes: list[dict] = []
    annotations: list[dict] = []
    for y, row in zip(ys, df.itertuples(index=False)):
        if row.prefers in (A, B):
            shapes.append({"type": "rect", "xref": "paper", "yref": "y", "x0": 0, "x1": 1, "y0": y - 0.45,
                           "y1": y + 0.45, "fillcolor": rgba(SIDE_COLORS[row.prefers], SIDE_TINT),
                           "line": {"width": 0}, "layer": "below", "name": f"prefers {row.prefers}"})
        ga, gb = row[df.columns.get_loc("goodness A")], row[df.columns.get_loc("goodness B")]
        shapes.append({"type": "line", "xref": "x", "yref": "y", "x0": ga, "x1": gb, "y0": y, "y1": y,
                       "line": {"color": SIDE_COLORS[row.prefers], "width": 4}, "layer": "below"})
    data = []
    for side, label, vcol, gcol, symbol, where in ((A, label_a, "A", "goodness A", "circle", "top center"),
                                                   (B, label_b, "B", "goodness B", "diamond", "bottom center")):
        name = escape_label(label)
        data.append({
            "type": "scatter", "mode": "markers+text", "name": f"{side}: {name}", "y": ys, "x": df[gcol].tolist(),
            "marker": {"color": SIDE_COLORS[side], "size": [16 if p == side else 9 for p in df["prefers"]],
                       "symbol": symbol},
            "text": [format_number(v) for v in df[vcol]], "textposition": where, "cliponaxis": False,
            "customdata": [[escape_label(r.measure), format_number(getattr(r, vcol)), r.better, r.prefers,
                            wrap(metrics.MEASURES[r.key].description), format_number(g)]
                           for r, g in zip(df.itertuples(index=False), df[gcol])],
            "hovertemplate": f"<b>%{{customdata[0]}}</b><br>{side} (%{{fullData.name}}): %{{customdata[1]}} "
                             "(%{customdata[2]} better; goodness %{customdata[5]})<br>prefers: %{customdata[3]}"
                             "<br><i>%{customdata[4]}</i><extra></extra>",
        })
    mark = {A: "✓A", B: "✓B", TIE: "=", NA: "n/a"}
    ticktext = [f"{escape_label(s)} {mark[p]}" for s, p in zip(df["symbol"], df["prefers"])]
    layout = {
        "height": int(140 + 62 * n), "margin": {"l": 10, "r": 20, "t": 50, "b": 60},
        "shapes": shapes, "annotations": annotations,
        "xaxis": {"range": [-0.03, 1.05], "title": {"text": "position: goodness (0 = worst, 1 = best)<br>"
                                                            "labels: each measure's raw value (A above, B below)"}},
        # Room above the first row for its value labels, below the legend.
        "yaxis": {"tickvals": ys, "ticktext": ticktext, "range": [n - 0.4, -0.8], "zeroline": False,
                  "showgrid": False},
        "legend": {"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0},
    }
    return figure(data, layout)


def morph_figure(curve: pd.DataFrame, keys: list[str], x_title: str, current_x: float,
                 flip_points: dict[str, list[float]], labels: tuple[str, str], cols: int = 3,
                 x_name: str = "x") -> go.Figure:
    """Small multiples, one per measure: both solutions' values along the sweep, the slider's
    position (dashed) and every flip of the measure's preference (orange-red band). ``x_name`` is the
    swept parameter's short name for the hover."""
    n = len(keys)
    cols = max(1, min(cols, n))
    nrows = math.ceil(n / cols)
    gap_x, gap_y = 0.06, 0.28 / max(nrows, 1)
    span = float(curve["x"].max() - curve["x"].min()) if len(curve) else 0.0
    groups = {k: g for k, g in curve.groupby(["key", "solution"], sort=False)}
    data, shapes, annotations = [], [], []
    layout: dict = {}
    x_name = escape_label(x_name)
    for i, key in enumerate(keys):
        m = metrics.MEASURES[key]
        symbol = escape_label(m.symbol)
        ax, (x0, x1), (y0, y1) = panel_domains(i, cols, nrows, gap_x, gap_y)
        layout[f"xaxis{ax}"] = {"domain": [x0, x1], "anchor": f"y{ax}", "dtick": 1 if span <= 12 else None}
        layout[f"yaxis{ax}"] = {"domain": [y0, y1], "anchor": f"x{ax}"}
        for label, color, dash in ((labels[0], SIDE_COLORS[B], "solid"), (labels[1], SIDE_COLORS[A], "dot")):
            pts = groups[(key, label)]
            name = escape_label(label)
            data.append({"type": "scatter", "mode": "lines+markers", "name": name, "legendgroup": name,
                         "showlegend": i == 0, "x": pts["x"].to_numpy(), "y": pts["value"].to_numpy(),
                         "xaxis": f"x{ax}", "yaxis": f"y{ax}", "line": {"color": color, "dash": dash},
                         "marker": {"size": 5},
                         "customdata": [[format_number(x), format_number(v)]
                                        for x, v in zip(pts["x"].tolist(), pts["value"].tolist())],
                         "hovertemplate": f"%{{fullData.name}}<br>{x_name} = %{{customdata[0]}}<br>"
                                          f"{symbol} = %{{customdata[1]}}<extra></extra>"})
        arrow = "↑" if m.higher_is_better else "↓"
        annotations.append({"text": f"<b>{symbol}</b> ({arrow} better)", "xref": f"x{ax} domain",
                            "yref": f"y{ax} domain", "x": 0.5, "y": 1.0, "yanchor": "bottom", "showarrow": False})
        shapes.append({"type": "line", "xref": f"x{ax}", "yref": f"y{ax} domain", "x0": current_x, "x1": current_x,
                       "y0": 0, "y1": 1, "line": {"color": "#444", "dash": "dash", "width": 1}})
        for fx in flip_points.get(key, []):
            shapes.append({"type": "rect", "xref": f"x{ax}", "yref": f"y{ax} domain", "x0": fx - 0.12,
                           "x1": fx + 0.12, "y0": 0, "y1": 1, "fillcolor": rgba(HIGHLIGHT, 0.35),
                           "line": {"width": 0}, "layer": "below", "name": f"flip {key}"})
            annotations.append({"text": "flip", "xref": f"x{ax}", "yref": f"y{ax} domain", "x": fx, "y": 0.02,
                                "showarrow": False, "font": {"color": FLIP_COLOR}, "yanchor": "bottom"})
    # One x title for all panels (per-panel titles would overlap).
    annotations.append({"text": escape_label(x_title), "xref": "paper", "yref": "paper", "x": 0.5, "y": 0,
                        "yshift": -42, "showarrow": False, "xanchor": "center", "yanchor": "top"})
    layout.update({"height": int(90 + 250 * nrows), "shapes": shapes, "annotations": annotations,
                   "margin": {"l": 10, "r": 10, "t": 70, "b": 60},
                   "legend": {"orientation": "h", "y": 1.0 + 26 / (250 * nrows - 20), "yanchor": "bottom", "x": 0}})
    return figure(data, layout)


def cached_preference_figure(df: pd.DataFrame, label_a: str, label_b: str) -> go.Figure:
    """:func:`preference_figure`, drawn once per comparison (keyed on the rows' plain values:
    hashing a tuple is far cheaper than hashing a DataFrame)."""
    rows = tuple(df.itertuples(index=False, name=None))
    return _preference_figure(rows, tuple(df.columns), label_a, label_b)


@st.cache_resource(max_entries=128, show_spinner=False)
def _preference_figure(rows: tuple, columns: tuple, label_a: str, label_b: str) -> go.Figure:
    return preference_figure(pd.DataFrame(list(rows), columns=list(columns)), label_a, label_b)
