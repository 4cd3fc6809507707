"""The playground's scatter: items in the plane, gold classes as marker shapes, clusters as colours.

One trace per gold class (its legend entry shows the class's shape), the items' colours by their
cluster from the dashboard's qualitative palette (``ui/figures/colours``); legend-only entries
name the colour of each cluster. The item's number is its ``customdata``: a selection (box,
lasso, click) hands the page the items' numbers, whatever trace they are in.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from dashboard.ui.figures.charts import figure
from dashboard.ui.figures.colours import NEUTRAL, QUALITATIVE, palette

#: A marker shape per gold class, and the glyph that names it in text.
SHAPES = (("circle", "●"), ("square", "■"), ("diamond", "◆"), ("triangle-up", "▲"), ("cross", "✚"),
          ("star", "★"))
#: The words for the palette's colours (Okabe–Ito), so that "Move to" can say which colour a cluster has.
COLOUR_NAMES = dict(zip(QUALITATIVE, ("blue", "orange", "green", "vermillion", "pink", "sky blue", "yellow",
                                      "black")))
MAX_LEGEND_CLUSTERS = 12   # beyond this (the singletons scene) the legend names the first ones only
HEIGHT = 460


def class_name(i: int) -> str:
    """A gold class as the page writes it: its glyph and name, ``● C1``."""
    return f"{SHAPES[i % len(SHAPES)][1]} C{i + 1}"


def cluster_colour(j: int) -> str:
    return QUALITATIVE[j % len(QUALITATIVE)]


def cluster_name(j: int, colour: bool = False) -> str:
    """A cluster as the page writes it: ``K3``, or ``K3 (green)``."""
    name = f"K{j + 1}"
    return f"{name} ({COLOUR_NAMES.get(cluster_colour(j), cluster_colour(j))})" if colour else name


@st.cache_resource(max_entries=256, show_spinner=False)
def scatter_figure(points_key: tuple, _points: np.ndarray, _classes: np.ndarray,
                   clusters: tuple[int, ...]) -> go.Figure:
    """The scene's scatter for one clustering (cached by the scene's key and the clustering: a
    move draws a new one, an unrelated rerun reuses it; never changed once built)."""
    cl = np.asarray(clusters)
    data = []
    n_classes = int(_classes.max()) + 1
    for i in range(n_classes):
        members = np.flatnonzero(_classes == i)
        data.append({
            "type": "scatter", "mode": "markers", "name": class_name(i), "showlegend": False,
            "x": _points[members, 0], "y": _points[members, 1],
            "customdata": members,
            "hovertext": [f"item {m + 1} · class C{i + 1} · cluster K{cl[m] + 1}" for m in members],
            "hoverinfo": "text",
            "marker": {"symbol": SHAPES[i % len(SHAPES)][0], "size": 11,
                       "color": [cluster_colour(c) for c in cl[members]],
                       "line": {"width": 1, "color": "#ffffff"}},
        })
    # The legend: the classes' shapes in a neutral grey (a class has no colour), then the clusters'
    # colours — entries without points, so that a selection only ever holds items.
    for i in range(n_classes):
        data.append({
            "type": "scatter", "mode": "markers", "x": [None], "y": [None], "legendgroup": "classes",
            "legendgrouptitle": {"text": "Gold class (shape)"} if i == 0 else None,
            "name": class_name(i)[2:], "hoverinfo": "skip",
            "marker": {"symbol": SHAPES[i % len(SHAPES)][0], "size": 11, "color": NEUTRAL},
        })
    used = sorted(set(cl.tolist()))
    for n, j in enumerate(used[:MAX_LEGEND_CLUSTERS]):
        data.append({
            "type": "scatter", "mode": "markers", "x": [None], "y": [None], "legendgroup": "clusters",
            "legendgrouptitle": {"text": "Cluster (colour)"} if n == 0 else None,
            "name": cluster_name(j), "hoverinfo": "skip",
            "marker": {"symbol": "square", "size": 11, "color": cluster_colour(j)},
        })
    if len(used) > MAX_LEGEND_CLUSTERS:
        data.append({"type": "scatter", "mode": "markers", "x": [None], "y": [None], "legendgroup": "clusters",
                     "name": f"… {len(used) - MAX_LEGEND_CLUSTERS} more (colours repeat)", "hoverinfo": "skip",
                     "marker": {"symbol": "square", "size": 11, "color": palette(1)[0], "opacity": 0}})
    layout = {
        "height": HEIGHT, "margin": {"l": 10, "r": 10, "t": 30, "b": 10},
        "dragmode": "select", "clickmode": "event+select",
        "xaxis": {"visible": False}, "yaxis": {"visible": False, "scaleanchor": "x"},
        "legend": {"orientation": "h", "y": -0.02, "yanchor": "top", "groupclick": "toggleitem"},
    }
    return figure(data, layout)
