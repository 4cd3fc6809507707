"""Figures of the lesson that no other page draws, and the lesson's type sizes.

* :func:`readable` — a copy of any figure with every piece of text at the projector's sizes
  (``readout.PROJECTOR_SIZES``, nothing under :data:`MIN_FONT_PX`): the lesson shows the other
  pages' figures through it.
* :func:`matching_figure` — Rosenberg & Hirschberg's Figure 2 (A–D) as heatmaps with the
  cells the F-measure reads outlined (``metrics.measures.matching.f_matches``).
* :func:`table2_figure` — P1–P7 rates over Dom's grid, ours beside the printed Table 2,
  differing cells outlined (numbers from ``generator_views.table2_comparison``).

Numbers come from ``metrics``; this module lays out and draws.
"""

from __future__ import annotations

import copy
import html
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

import metrics
from dashboard.ui import readout
from dashboard.ui.figures.charts import NO_TEMPLATE
from dashboard.ui.figures.colours import COUNT_SCALE, DIVERGING_SCALE, HIGHLIGHT
from dashboard.ui.readout import PROJECTOR_SIZES
from metrics.measures.matching import f_matches

MIN_FONT_PX = readout.MIN_FONT
TICK_PX = PROJECTOR_SIZES.tick   # value labels drawn in cells
NOTE_PX = PROJECTOR_SIZES.hover  # panel titles (one up) and markers; raised to the text size by readable
OUTLINE = HIGHLIGHT
DIFFER = "#000000"   # on the orange-white-purple cells, black stands out


def readable(fig: go.Figure, height: int | None = None) -> go.Figure:
    """A copy of ``fig`` with every piece of text at the projector's sizes
    (``readout.readable`` with :data:`readout.PROJECTOR_SIZES`), ``height`` if given. ``fig``
    itself is not changed (cached figures are shared). A figure without axes of its own gets
    explicit tick sizes all the same: Streamlit's theme would set smaller ones."""
    spec = fig.to_plotly_json()
    layout = copy.deepcopy(spec.get("layout", {}))
    for axis in ("xaxis", "yaxis"):
        if not any(name.startswith(axis) for name in layout):
            layout[axis] = {}
    if height is not None:
        layout["height"] = height
    data, layout = readout.readable(copy.deepcopy(spec.get("data", [])), layout, PROJECTOR_SIZES)
    return go.Figure(data=data, layout=layout)


# ---------------------------------------------------------------------- Figure 2
def matching_figure(tables: dict[str, pd.DataFrame], titles: dict[str, str], note: str) -> go.Figure:
    """One heatmap per solution (rows = classes, columns = clusters), side by side, each with
    the cells F reads — each class's best cluster by F (``metrics.measures.matching.f_matches``) —
    outlined. ``titles`` label the panels (with their computed F and V; a newline breaks a title's line);
    ``note`` (Plotly markup, our own
    text) goes above them."""
    names = list(tables)
    widths = [tables[s].shape[1] for s in names]
    gap = 0.04
    total = 1 - gap * (len(names) - 1)
    data: list[dict[str, Any]] = []
    shapes: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    layout: dict[str, Any] = {}
    x0 = 0.0
    zmax = max(float(np.max(f.to_numpy())) for f in tables.values())
    for i, s in enumerate(names):
        frame = tables[s]
        ax = "" if i == 0 else str(i + 1)
        x1 = x0 + total * widths[i] / sum(widths)
        xs, ys = [str(c) for c in frame.columns], [str(r) for r in frame.index]
        z = frame.to_numpy()
        layout[f"xaxis{ax}"] = {"domain": [x0, x1], "anchor": f"y{ax}", "type": "category",
                                "title": {"text": "clusters"}}
        layout[f"yaxis{ax}"] = {"domain": [0, 0.7], "anchor": f"x{ax}", "type": "category", "autorange": "reversed",
                                "showticklabels": i == 0, "title": {"text": "classes" if i == 0 else ""}}
        data.append({"type": "heatmap", "x": xs, "y": ys, "z": z, "xaxis": f"x{ax}", "yaxis": f"y{ax}",
                     "colorscale": COUNT_SCALE, "zmin": 0, "zmax": zmax, "showscale": False, "xgap": 2, "ygap": 2,
                     "texttemplate": "%{z}", "textfont": {"size": TICK_PX},
                     "hovertemplate": f"{s}<br>class %{{y}}, cluster %{{x}}: %{{z}} items<extra></extra>"})
        for r, c in f_matches(metrics.Contingency.from_table(frame)):
            shapes.append({"type": "rect", "xref": f"x{ax}", "yref": f"y{ax}", "x0": c - 0.5, "x1": c + 0.5,
                           "y0": r - 0.5, "y1": r + 0.5, "line": {"color": OUTLINE, "width": 4}})
        # One line per line of the title: four panels side by side leave each a quarter of the width.
        title = "<br>".join(html.escape(line) for line in titles[s].split("\n"))
        annotations.append({"text": title, "xref": "paper", "yref": "paper", "x": (x0 + x1) / 2,
                            "y": 0.72, "xanchor": "center", "yanchor": "bottom", "showarrow": False,
                            "font": {"size": NOTE_PX + 1}})
        x0 = x1 + gap
    annotations.append({"text": note, "xref": "paper", "yref": "paper", "x": 0, "y": 1.0, "align": "left",
                        "xanchor": "left", "yanchor": "bottom", "showarrow": False,
                        "font": {"size": NOTE_PX, "color": "#6b4c00"}})
    layout.update({"template": NO_TEMPLATE, "height": 420, "shapes": shapes, "annotations": annotations,
                   "margin": {"l": 10, "r": 10, "t": 60, "b": 10}, "showlegend": False})
    return readable(go.Figure(data=data, layout=layout))


# ---------------------------------------------------------------------- Table 2
def table2_figure(ours: pd.DataFrame, printed: pd.DataFrame, differs: pd.DataFrame,
                  titles: tuple[str, str]) -> go.Figure:
    """Two heatmaps of rates in [0, 1] — the paper's measures as rows, P1–P7 as columns — ours
    (left) and the printed Table 2 (right), each cell labelled with two decimals as the paper
    prints them, the cells that differ at that precision outlined (black) on both sides."""
    data: list[dict[str, Any]] = []
    shapes: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    layout: dict[str, Any] = {}
    rows, cols = [str(r) for r in ours.index], [str(c) for c in ours.columns]
    for i, (frame, title, x0, x1) in enumerate(((ours, titles[0], 0.0, 0.48), (printed, titles[1], 0.52, 1.0))):
        ax = "" if i == 0 else "2"
        z = frame.loc[ours.index, ours.columns].to_numpy(dtype=float)
        layout[f"xaxis{ax}"] = {"domain": [x0, x1], "anchor": f"y{ax}", "type": "category", "side": "top"}
        layout[f"yaxis{ax}"] = {"domain": [0, 0.86], "anchor": f"x{ax}", "type": "category", "autorange": "reversed",
                                "showticklabels": i == 0}
        data.append({"type": "heatmap", "x": cols, "y": rows, "z": z, "xaxis": f"x{ax}", "yaxis": f"y{ax}",
                     "zmin": 0, "zmax": 1, "colorscale": DIVERGING_SCALE, "showscale": False, "xgap": 2, "ygap": 2,
                     "text": [[f"{v:.2f}" for v in row] for row in z], "texttemplate": "%{text}",
                     "textfont": {"size": TICK_PX},
                     "hovertemplate": f"{html.escape(title)}<br>%{{y}}, %{{x}}: %{{text}}<extra></extra>"})
        for r, name in enumerate(ours.index):
            for c, prop in enumerate(ours.columns):
                if bool(differs.loc[name, prop]):
                    shapes.append({"type": "rect", "xref": f"x{ax}", "yref": f"y{ax}", "x0": c - 0.45, "x1": c + 0.45,
                                   "y0": r - 0.45, "y1": r + 0.45, "line": {"color": DIFFER, "width": 4}})
        annotations.append({"text": html.escape(title), "xref": "paper", "yref": "paper", "x": (x0 + x1) / 2,
                            "y": 1.0, "xanchor": "center", "yanchor": "bottom", "showarrow": False,
                            "font": {"size": NOTE_PX + 1}})
    layout.update({"template": NO_TEMPLATE, "height": 120 + 40 * len(rows), "shapes": shapes,
                   "annotations": annotations, "margin": {"l": 10, "r": 10, "t": 60, "b": 10}, "showlegend": False})
    return readable(go.Figure(data=data, layout=layout))


# ---------------------------------------------------------------------- lines drawn on top of each other
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "star")


def unhidden_lines(fig: go.Figure, tol: float = 1e-9) -> go.Figure:
    """A copy of ``fig`` where no line hides another: each line trace gets its own marker symbol,
    and a trace that coincides with an earlier one at every point (same x, y within ``tol``) is
    drawn dotted with large open markers around the other's and says so in its legend name
    ("= <the other's name>"). ``fig`` itself is not changed."""
    data = [t.to_plotly_json() for t in fig.data]
    lines = [i for i, t in enumerate(data) if t.get("type") == "scatter" and "lines" in str(t.get("mode", ""))]
    for rank, i in enumerate(lines):
        t = data[i]
        marker = dict(t.get("marker") or {})
        marker["symbol"] = SYMBOLS[rank % len(SYMBOLS)]
        twin = next((data[j] for j in lines[:rank] if _same_points(data[j], t, tol)), None)
        if twin is not None:
            marker.update({"symbol": "circle-open", "size": 14, "line": {"width": 2}})
            t["line"] = {**(t.get("line") or {}), "dash": "dot", "width": 3}
            t["name"] = f"{t.get('name', '')} (= {twin.get('name', '')})"
        t["marker"] = marker
    return go.Figure(data=data, layout=fig.layout)


def _same_points(a: dict, b: dict, tol: float) -> bool:
    xa, xb = np.asarray(a.get("x"), dtype=object), np.asarray(b.get("x"), dtype=object)
    ya, yb = np.asarray(a.get("y"), dtype=float), np.asarray(b.get("y"), dtype=float)
    if xa.shape != xb.shape or ya.shape != yb.shape or a.get("xaxis") != b.get("xaxis") \
            or a.get("yaxis") != b.get("yaxis"):
        return False
    return bool((xa == xb).all() and np.allclose(ya, yb, rtol=0, atol=tol, equal_nan=True))
