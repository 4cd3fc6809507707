"""Line charts over a swept parameter: one panel per measure (small multiples) or one panel.

The Real data page (measures against k, one line per algorithm) and the Fuzzy lab (V under
four countings against softness or data size) draw their curves with :func:`line_panels`.
Input is a tidy frame of numbers computed by ``metrics``; nothing here computes a measure.
Like ``charts.py``, figures are plain dicts with hand-placed axes (fast to build), with series
names escaped, hover numbers in the one format and readable fonts (``readout``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from dashboard.ui.figures.charts import figure, panel_domains
from dashboard.ui.figures.colours import QUALITATIVE
from dashboard.ui.readout import escape_label, format_number

PALETTE = list(QUALITATIVE)


def line_panels(frame: pd.DataFrame, *, x: str, y: str, series: str, panel: str | None = None,
                panel_titles: dict | None = None, panel_order: Sequence | None = None,
                series_order: Sequence | None = None, colors: dict | None = None, dashes: dict | None = None,
                x_title: str = "", y_title: str = "", vlines: Sequence[tuple[float, str]] = (),
                log_x: bool = False, cols: int = 3, panel_height: int = 240, y_range=None,
                markers: bool = True) -> go.Figure:
    """Lines of ``y`` against ``x``, one per value of ``series``, in one panel per value of
    ``panel`` (or a single panel). ``vlines`` are dashed vertical markers (x, label) drawn in
    every panel, e.g. the true number of classes or a slider's position.

    Series names and ``vlines`` labels are data (escaped here); ``panel_titles``, ``x_title``
    and ``y_title`` are the caller's own text and may use Plotly's markup (``<b>``)."""
    panels = [None] if panel is None else list(panel_order if panel_order is not None
                                                 else dict.fromkeys(frame[panel]))
    names = list(series_order if series_order is not None else dict.fromkeys(frame[series]))
    colors = colors or {}
    dashes = dashes or {}
    n = len(panels)
    cols = max(1, min(cols, n))
    nrows = math.ceil(n / cols)
    gap_x, gap_y = 0.07, (0.30 / nrows if nrows > 1 else 0.0)
    # One stable sort by x, then each line's rows by position (groupby keeps the frame's order
    # within a group): no per-line frames, which cost more than the figure itself.
    frame = frame.sort_values(x, kind="stable")
    xv, yv = frame[x].to_numpy(), frame[y].to_numpy()
    groups = {(k if isinstance(k, tuple) else (k,)): idx
              for k, idx in frame.groupby([panel, series] if panel else [series], sort=False).indices.items()}
    shown_x: dict[Any, str] = {}   # x value → its format_number text (x values repeat across lines)

    def fmt_x(v) -> str:
        text = shown_x.get(v)
        if text is None:
            text = shown_x[v] = format_number(v)
        return text

    # The hover names x by the axis title's first line, y by its title (if any).
    hover_x = (x_title or x).split("<br>")[0].replace("%", "&#37;")
    hover_y = f"{y_title.replace('%', '&#37;')} = " if y_title else ""
    data: list[dict[str, Any]] = []
    shapes: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    layout: dict[str, Any] = {}
    for i, p in enumerate(panels):
        ax, (x0, x1), (y0, y1) = panel_domains(i, cols, nrows, gap_x, gap_y)
        layout[f"xaxis{ax}"] = {"domain": [x0, x1], "anchor": f"y{ax}", "type": "log" if log_x else "linear",
                                "title": {"text": x_title} if n == 1 else None}
        layout[f"yaxis{ax}"] = {"domain": [y0, y1], "anchor": f"x{ax}", "range": y_range,
                                "title": {"text": y_title} if n == 1 or i % cols == 0 else None}
        for j, name in enumerate(names):
            idx = groups.get((p, name) if panel else (name,))
            if idx is None or not len(idx):
                continue
            color = colors.get(name, PALETTE[j % len(PALETTE)])
            px, py = xv[idx], yv[idx]
            data.append({
                "type": "scatter", "mode": "lines+markers" if markers else "lines", "name": escape_label(name),
                "legendgroup": escape_label(name), "showlegend": i == 0, "x": px, "y": py,
                "xaxis": f"x{ax}", "yaxis": f"y{ax}",
                "line": {"color": color, "dash": dashes.get(name, "solid")}, "marker": {"size": 5},
                "customdata": [[fmt_x(a), format_number(b)] for a, b in zip(px.tolist(), py.tolist())],
                "hovertemplate": f"%{{fullData.name}}<br>{hover_x} = %{{customdata[0]}}<br>"
                                 f"{hover_y}%{{customdata[1]}}<extra></extra>"})
        if panel is not None:
            title = (panel_titles or {}).get(p, str(p))
            annotations.append({"text": title, "xref": f"x{ax} domain", "yref": f"y{ax} domain", "x": 0.5, "y": 1.0,
                                "yanchor": "bottom", "showarrow": False})
        for vx, label in vlines:
            shapes.append({"type": "line", "xref": f"x{ax}", "yref": f"y{ax} domain", "x0": vx, "x1": vx, "y0": 0,
                           "y1": 1, "line": {"color": "#444", "dash": "dash", "width": 1}})
            if i == 0 and label:
                # Annotations on a log axis take log10 of the position (shapes take the value itself).
                ax_x = math.log10(vx) if log_x and vx > 0 else vx
                annotations.append({"text": escape_label(label), "xref": f"x{ax}", "yref": f"y{ax} domain",
                                    "x": ax_x, "y": 1.0, "xanchor": "left", "yanchor": "top", "showarrow": False,
                                    "font": {"color": "#444"}})
    if n > 1 and x_title:
        annotations.append({"text": x_title, "xref": "paper", "yref": "paper", "x": 0.5, "y": 0, "yshift": -40,
                            "showarrow": False, "xanchor": "center", "yanchor": "top"})
    height = int(80 + panel_height * nrows + (40 if n > 1 else 0))
    layout.update({"height": height, "shapes": shapes, "annotations": annotations,
                   "margin": {"l": 10, "r": 10, "t": 60, "b": 60 if n > 1 else 40},
                   "legend": {"orientation": "h", "y": 1.0 + 30 / max(height - 120, 1), "yanchor": "bottom",
                              "x": 0}})
    return figure(data, layout)
