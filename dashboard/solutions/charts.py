"""The Solutions page's figures: solutions × measures on the goodness scale, the measures' agreement
(Kendall τ), and a Sankey diagram of one solution against the gold classes.

They draw numbers computed by ``metrics`` (``compare_solutions``, ``rank_solutions``,
``rank_agreement``, a solution's ``Contingency``); nothing here computes a measure. As in
``charts.py``: plain-dict figures, labels escaped (``escape_label``), every number a user reads
through ``format_number`` (hovers get preformatted ``customdata``), fonts ≥ 11 px (``readable``).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

import metrics
from dashboard.ui.figures.charts import DIGIT_PX, LINE_PX, _cat_axis, figure
from dashboard.ui.figures.colours import DIVERGING_SCALE, NEUTRAL, QUALITATIVE, rgba
from dashboard.ui.readout import TEXT_FONT, escape_label, format_number, wrap

# Cell text (ranks, τ) is drawn only where it fits at TEXT_FONT in the narrowest layout the page
# has (a 1280 px window less the sidebar: ~700 px of cells); the hover always has it.
PLOT_WIDTH_PX = 700
ROW_PX = 26
MAX_HEIGHT = 2400
# Nodes per side of the Sankey diagram; smaller classes or clusters are drawn as one node.
SANKEY_NODES = 30
CLASS_COLORS = list(QUALITATIVE)


def _fits(texts: list[str], count: int, width_px: float = PLOT_WIDTH_PX) -> bool:
    return count > 0 and max(map(len, texts), default=0) * DIGIT_PX + 6 <= width_px / count


def _percent(share: float) -> str:
    return f"{format_number(100 * share)} %"


def _height(rows: int, extra: int = 150) -> int:
    return int(min(max(extra + ROW_PX * rows, 260), MAX_HEIGHT))


# ---------------------------------------------------------------- solutions × measures
def scores_heatmap(values: pd.DataFrame, ranks: pd.DataFrame, why_not: dict) -> go.Figure:
    """One row per solution, one column per measure: the colour is the measure's goodness
    (``Measure.goodness``: 0 worst … 1 best, direction applied), the cell text the solution's rank
    under that measure (1 = best), the hover the raw value, rank and goodness."""
    names, keys = list(values.index), list(values.columns)
    ms = [metrics.MEASURES[k] for k in keys]
    ys, xs = [escape_label(n) for n in names], [escape_label(m.symbol) for m in ms]
    raw = values.to_numpy(dtype=np.float64)
    good = np.column_stack([np.asarray(m.goodness(raw[:, j]), dtype=np.float64) for j, m in enumerate(ms)])
    good[np.isnan(raw)] = np.nan
    counted = (~np.isnan(raw)).sum(axis=0)
    rank_text = [["—" if math.isnan(r) else format_number(int(r)) for r in row] for row in ranks.to_numpy().tolist()]
    custom = []
    for i, name in enumerate(names):
        row = []
        for j, m in enumerate(ms):
            reason = why_not.get(m.key, {}).get(name)
            row.append([escape_label(m.name), format_number(raw[i, j]), rank_text[i][j], format_number(int(counted[j])),
                        "higher" if m.higher_is_better else "lower", format_number(good[i, j]),
                        f"<br>not computed: {wrap(reason)}" if reason else ""])
        custom.append(row)
    height = _height(len(names), 170)
    show_text = (height - 170) / max(len(names), 1) >= LINE_PX and _fits([t for r in rank_text for t in r], len(keys))
    data = [{
        "type": "heatmap", "x": xs, "y": ys,
        "z": [[None if math.isnan(v) else v for v in row] for row in good.tolist()],
        "zmin": 0, "zmax": 1, "colorscale": DIVERGING_SCALE, "xgap": 1, "ygap": 1, "text": rank_text,
        "texttemplate": "%{text}" if show_text else None, "customdata": custom,
        "colorbar": {"title": {"text": "goodness<br>(1 = best)", "font": {"size": 12}}, "tickfont": {"size": 12},
                     "tickvals": [0, 0.25, 0.5, 0.75, 1], "ticktext": ["0", "0.25", "0.5", "0.75", "1"]},
        "hovertemplate": "<b>%{y}</b><br>%{customdata[0]} (%{x}): %{customdata[1]}<br>rank %{customdata[2]} of "
                         "%{customdata[3]} (%{customdata[4]} is better)<br>goodness %{customdata[5]}%{customdata[6]}"
                         "<extra></extra>",
    }]
    layout = {
        "height": height, "margin": {"l": 10, "r": 10, "t": 10, "b": 10},
        "xaxis": _cat_axis(side="top", tickangle=-45 if len(keys) > 10 else 0, title={"text": "measure"}),
        "yaxis": _cat_axis(autorange="reversed", title={"text": "solution"}),
        "showlegend": False,
    }
    return figure(data, layout)


# ---------------------------------------------------------------- measures × measures
def agreement_heatmap(tau: pd.DataFrame, why_undefined: dict, n_solutions: int) -> go.Figure:
    """Kendall τ-b between every two measures' orderings of the solutions: 1 (purple) the same
    preferences, −1 (orange) the opposite ones, — undefined (the reason in the hover)."""
    keys = list(tau.columns)
    xs = [escape_label(metrics.MEASURES[k].symbol) for k in keys]
    z = tau.to_numpy(dtype=np.float64)
    text = [["—" if math.isnan(v) else format_number(v) for v in row] for row in z.tolist()]
    custom = [[[escape_label(metrics.MEASURES[a].name), escape_label(metrics.MEASURES[b].name),
                wrap(why_undefined[(a, b)]) if (a, b) in why_undefined else _tau_words(z[i, j])]
               for j, b in enumerate(keys)] for i, a in enumerate(keys)]
    height = _height(len(keys), 190)
    show_text = (height - 190) / max(len(keys), 1) >= LINE_PX and _fits([t for r in text for t in r], len(keys), 560)
    data = [{
        "type": "heatmap", "x": xs, "y": xs, "z": [[None if math.isnan(v) else v for v in row] for row in z.tolist()],
        "zmin": -1, "zmax": 1, "zmid": 0, "colorscale": DIVERGING_SCALE, "xgap": 1, "ygap": 1, "text": text,
        "texttemplate": "%{text}" if show_text else None, "customdata": custom,
        "colorbar": {"title": {"text": "Kendall τ", "font": {"size": 12}}, "tickfont": {"size": 12},
                     "tickvals": [-1, -0.5, 0, 0.5, 1], "ticktext": ["−1", "−0.5", "0", "0.5", "1"]},
        "hovertemplate": f"<b>%{{y}}</b> and <b>%{{x}}</b> over {format_number(n_solutions)} solutions<br>"
                         "τ = %{text}: %{customdata[2]}<extra></extra>",
    }]
    layout = {
        "height": height, "margin": {"l": 10, "r": 10, "t": 10, "b": 10},
        "xaxis": _cat_axis(side="top", tickangle=-45 if len(keys) > 10 else 0),
        "yaxis": _cat_axis(autorange="reversed"),
        "showlegend": False,
    }
    return figure(data, layout)


def _tau_words(t: float) -> str:
    if t >= 1 - 1e-12:
        return "they order every pair of solutions alike"
    if t <= -1 + 1e-12:
        return "they order every pair of solutions oppositely"
    return "more pairs ordered alike than oppositely" if t > 0 else (
        "more pairs ordered oppositely than alike" if t < 0 else "as many pairs ordered alike as oppositely")


# ---------------------------------------------------------------- Sankey
def _keep(sizes: np.ndarray, limit: int) -> np.ndarray:
    """Node of each class (or cluster): itself for the ``limit - 1`` largest when there are more
    than ``limit``, the last node ("others") for the rest; in table order."""
    count = sizes.size
    if count <= limit:
        return np.arange(count)
    largest = np.sort(np.argsort(-sizes, kind="stable")[: limit - 1])
    node = np.full(count, limit - 1)
    node[largest] = np.arange(limit - 1)
    return node


def sankey_figure(t: metrics.Contingency, solution: str, limit: int = SANKEY_NODES) -> tuple[go.Figure, str | None]:
    """(figure, note): the gold classes (left) flowing into the clusters of ``solution`` (right),
    band widths the items in each cell; with more than ``limit`` classes or clusters, the smaller
    ones are drawn as one node each side (the note says so)."""
    rows, cols, cells = np.asarray(t.rows), np.asarray(t.cols), np.asarray(t.values, dtype=np.float64)
    a, b = np.asarray(t.row_sums, dtype=np.float64), np.asarray(t.col_sums, dtype=np.float64)
    r_node, c_node = _keep(a, limit), _keep(b, limit)
    n_r, n_c = int(r_node.max()) + 1, int(c_node.max()) + 1
    flow = np.zeros((n_r, n_c))
    np.add.at(flow, (r_node[rows], c_node[cols]), cells)
    r_size, c_size = np.bincount(r_node, weights=a, minlength=n_r), np.bincount(c_node, weights=b, minlength=n_c)
    r_names = [str(x) for x in t.row_labels]
    c_names = [str(x) for x in t.col_labels]
    others_r = a.size - (n_r - 1) if a.size > limit else 0
    others_c = b.size - (n_c - 1) if b.size > limit else 0
    c_label = [escape_label(c_names[j]) for j in range(b.size) if others_c == 0 or c_node[j] < n_c - 1]
    r_label = [escape_label(r_names[i]) for i in range(a.size) if others_r == 0 or r_node[i] < n_r - 1]
    if others_r:
        r_label.append(f"{format_number(others_r)} other classes")
    if others_c:
        c_label.append(f"{format_number(others_c)} other clusters")
    labels = r_label + c_label
    colors = [CLASS_COLORS[i % len(CLASS_COLORS)] for i in range(n_r)] + [NEUTRAL] * n_c
    src, dst = np.nonzero(flow)
    link_colors = [rgba(CLASS_COLORS[i % len(CLASS_COLORS)], 0.45) for i in src]
    link_custom = [[r_label[i], c_label[j], format_number(flow[i, j]), _percent(flow[i, j] / r_size[i]),
                    _percent(flow[i, j] / c_size[j])] for i, j in zip(src.tolist(), dst.tolist())]
    node_custom = [format_number(v) for v in r_size.tolist()] + [format_number(v) for v in c_size.tolist()]
    data = [{
        "type": "sankey", "arrangement": "snap", "textfont": {"size": TEXT_FONT, "color": "#1a1a1a"},
        "node": {"label": labels, "color": colors, "pad": 8, "thickness": 16, "customdata": node_custom,
                 "hovertemplate": "%{label}: %{customdata} items<extra></extra>"},
        "link": {"source": src.tolist(), "target": (dst + n_r).tolist(), "value": flow[src, dst].tolist(),
                 "color": link_colors, "customdata": link_custom,
                 "hovertemplate": "class %{customdata[0]} → cluster %{customdata[1]}<br>%{customdata[2]} items: "
                                  "%{customdata[3]} of the class, %{customdata[4]} of the cluster<extra></extra>"},
    }]
    layout = {
        "height": int(min(max(140 + 22 * max(n_r, n_c), 320), 900)), "margin": {"l": 10, "r": 10, "t": 40, "b": 10},
        "annotations": [
            {"text": "<b>gold classes</b>", "xref": "paper", "yref": "paper", "x": 0, "y": 1.0, "yanchor": "bottom",
             "xanchor": "left", "yshift": 8, "showarrow": False},
            {"text": f"<b>clusters of {escape_label(solution)}</b>", "xref": "paper", "yref": "paper", "x": 1,
             "y": 1.0, "yanchor": "bottom", "xanchor": "right", "yshift": 8, "showarrow": False},
        ],
        "showlegend": False,
    }
    note = None
    if others_r or others_c:
        parts = ([f"the {format_number(others_r)} smallest classes"] if others_r else []) + (
            [f"the {format_number(others_c)} smallest clusters"] if others_c else [])
        note = (f"{' and '.join(parts)} are drawn as one node each side (the diagram shows at most {limit} a side); "
                "every measure uses the whole table.")
    return figure(data, layout), note
