"""The Chance page's figures, drawn from what :mod:`dashboard.chance.views` returns.

* :func:`sweep_figure` — one small panel per measure: its mean over random clusterings against
  the number of clusters k, with the band of the draws and the exact expectation where one
  exists. Each panel's y-axis comes from the registry: the measure's declared range where it is
  finite (ARI's flat line then sits visibly in the middle of [−1, 1], V's rise climbs its
  [0, 1]), the data where the range is unbounded (MI, Mirkin), and "↑/↓ better" from its
  direction.
* :func:`null_figure` — 40+ measures of different ranges and directions against their null
  distributions on one axis: the registry's goodness scale (``Measure.goodness``: 0 = worst,
  1 = best). Chance itself then has a place on the scale — Rand's random labelings score high
  on it, ARI's at 0 — and the raw values are in the hover and the table.
* :func:`closeup_figure` — one measure's draws as a histogram in its own units, with the
  observed value and the expectation.
* :func:`ami_sweep_figure`, :func:`ami_table_figure` — scikit-learn issue #20066: AMI's four
  normalisations against their NMI, along k under each sweep model, and for one table under
  every model.

Like ``charts.py``: plain dicts, hand-placed panels (``charts.panel_domains``), labels escaped,
numbers in hovers preformatted with ``format_number``, fonts ≥ 11 px (``charts.figure``).
"""

from __future__ import annotations

import math
from typing import Any, Final

import numpy as np
import pandas as pd
import plotly.graph_objects as go

import metrics
from dashboard.ui.figures.charts import figure, panel_domains
from dashboard.ui.figures.colours import BETTER, HIGHLIGHT, QUALITATIVE, WORSE, rgba
from dashboard.ui.readout import escape_label, format_number

# The band drawn around a mean, and the box of the null-distribution chart: these quantiles of
# the draws, each an actual draw (numpy's "inverted_cdf": an infinite draw — Minkowski against
# all-singleton random classes — never interpolates to NaN).
BAND = (0.05, 0.95)
BOX = (0.25, 0.75)
QUANTILE_METHOD: Final = "inverted_cdf"
# AMI's four normalisations (scikit-learn's average_method): (name, NMI key, AMI key).
NORMALISATIONS = (("min", "nmi_min", "ami_min"), ("geometric", "nmi_geometric", "ami_geometric"),
                  ("arithmetic", "nmi_arithmetic", "ami"), ("max", "nmi_max", "ami_max"))
NORMALISATION_KEYS = tuple(k for _, nmi, ami in NORMALISATIONS for k in (nmi, ami))

MEAN_COLOR, BAND_FILL = QUALITATIVE[0], rgba(QUALITATIVE[0], 0.22)
EXACT_COLOR = HIGHLIGHT
NMI_COLOR, NMI_FILL = QUALITATIVE[1], rgba(QUALITATIVE[1], 0.22)
MODEL_COLORS = dict(zip(("perm", "num", "num1", "all", "all1"), QUALITATIVE))
# Observed values: "better than chance" and "not better" at the diverging scale's two ends.
WITHIN = WORSE
# Error bars of Monte Carlo expectations: this many standard errors either side.
ERROR_BAR_SE = 2
# An observed value "beats chance" when its permutation-test p-value (chance.summarize) is at most this.
ALPHA = 0.05
# Type for the back of a room (the lesson's chart): nothing under 14 px.
LARGE = {"font": 16, "tick": 15, "note": 15}


def percent(q: float) -> str:
    """A share as a percentage: 0.05 → "5 %"."""
    return f"{format_number(100 * q)} %"


def band_text() -> str:
    """The band's name, from :data:`BAND`: "5–95 %"."""
    return f"{format_number(100 * BAND[0])}–{percent(BAND[1])}"


def arrow(m: metrics.core.registry.Measure) -> str:
    return "↑ better" if m.higher_is_better else "↓ better"


def _finite(values) -> np.ndarray:
    x = np.asarray(values, dtype=np.float64)
    return x[np.isfinite(x)]


def _plain(values) -> list:
    """Numbers for a Plotly array: non-finite values become gaps (JSON has no infinity)."""
    return [float(v) if v is not None and math.isfinite(v) else None for v in values]


def y_range(m: metrics.core.registry.Measure, values) -> list[float]:
    """A panel's y-range from the registry: the measure's declared bounds where finite, the data
    (with a margin) where a bound is infinite."""
    lo, hi = m.bounds
    data = _finite(values)
    d_lo, d_hi = (float(data.min()), float(data.max())) if data.size else (0.0, 1.0)
    low = lo if math.isfinite(lo) else min(d_lo, hi if math.isfinite(hi) else d_lo)
    high = hi if math.isfinite(hi) else max(d_hi, low)
    span = (high - low) or 1.0
    return [low - 0.04 * span, high + 0.04 * span]


def _sizes(large: bool) -> tuple[dict, dict, dict]:
    """(layout font, tick font, annotation font) for the lesson's large type; {} otherwise
    (``charts.figure`` then sets the dashboard's sizes)."""
    if not large:
        return {}, {}, {}
    return {"size": LARGE["font"]}, {"size": LARGE["tick"]}, {"size": LARGE["note"]}


# ---------------------------------------------------------------- against the number of clusters
def _band_trace(ks, low, high, ax: str, name: str, fill: str, legend: bool, group: str) -> dict:
    """The band between ``low`` and ``high`` as one closed polygon."""
    return {"type": "scatter", "mode": "lines", "x": list(ks) + list(ks)[::-1],
            "y": _plain(list(high) + list(low)[::-1]), "fill": "toself", "fillcolor": fill,
            "line": {"width": 0}, "xaxis": f"x{ax}", "yaxis": f"y{ax}", "hoverinfo": "skip", "name": name,
            "legendgroup": group, "showlegend": legend}


def _mean_trace(g: pd.DataFrame, m, ax: str, name: str, color: str, legend: bool, group: str) -> dict:
    custom = [[escape_label(m.symbol), format_number(int(k)), format_number(mean), format_number(lo),
               format_number(hi), (f"<br>exact expectation {format_number(e)}" if exact else "")]
              for k, mean, lo, hi, e, exact in zip(g["k"], g["mean"], g["low"], g["high"], g["expected"], g["exact"])]
    return {"type": "scatter", "mode": "lines+markers", "x": g["k"].tolist(), "y": _plain(g["mean"]),
            "xaxis": f"x{ax}", "yaxis": f"y{ax}", "line": {"color": color, "width": 2.5}, "marker": {"size": 6},
            "name": name, "legendgroup": group, "showlegend": legend, "customdata": custom,
            "hovertemplate": "<b>%{customdata[0]}</b>, k = %{customdata[1]}<br>mean %{customdata[2]}<br>"
                             f"{band_text()}: " "%{customdata[3]} to %{customdata[4]}%{customdata[5]}<extra></extra>"}


def sweep_figure(summary: pd.DataFrame, keys: list[str], *, n_classes: int, large: bool = False,
                 cols: int = 3) -> go.Figure:
    """One panel per measure of ``keys``: the mean of the random labelings against k (line), the
    band of :data:`BAND` quantiles, the exact expectation where one exists (×), and a dashed
    line at k = the number of classes. ``summary`` is ``chance_views.sweep_summary``'s."""
    # Each measure's rows as arrays (by k): pandas selections per panel cost more than the panel.
    arrays = {c: summary[c].to_numpy() for c in ("key", "k", "mean", "low", "high", "expected", "exact")}
    present = set(arrays["key"].tolist())
    keys = [k for k in keys if k in present]
    groups = {}
    for key in keys:
        rows = np.flatnonzero(arrays["key"] == key)
        rows = rows[np.argsort(arrays["k"][rows], kind="stable")]
        groups[key] = {c: v[rows] for c, v in arrays.items()}
    n = len(keys)
    cols = max(1, min(cols, n))
    nrows = max(1, math.ceil(n / cols))
    font, tick, note = _sizes(large)
    gap_x, gap_y = 0.08, (0.36 / nrows if nrows > 1 else 0.0)
    data: list[dict[str, Any]] = []
    shapes: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    layout: dict[str, Any] = {}
    exact_in_legend = False
    for i, key in enumerate(keys):
        m, g = metrics.MEASURES[key], groups[key]
        ax, (x0, x1), (y0, y1) = panel_domains(i, cols, nrows, gap_x, gap_y)
        first = i == 0
        data.append(_band_trace(g["k"].tolist(), g["low"].tolist(), g["high"].tolist(), ax,
                                f"{band_text()} of the random labelings", BAND_FILL, first, "band"))
        data.append(_mean_trace(g, m, ax, "mean of the random labelings", MEAN_COLOR, first, "mean"))
        exact = g["exact"].astype(bool)
        if exact.any():
            data.append({"type": "scatter", "mode": "markers", "x": g["k"][exact].tolist(),
                         "y": _plain(g["expected"][exact]), "xaxis": f"x{ax}", "yaxis": f"y{ax}",
                         "marker": {"symbol": "x-thin", "size": 11, "line": {"width": 2, "color": EXACT_COLOR},
                                    "color": EXACT_COLOR},
                         "name": "exact expectation", "legendgroup": "exact", "showlegend": not exact_in_legend,
                         "hoverinfo": "skip"})
            exact_in_legend = True
        bottom = i + cols >= n
        layout[f"xaxis{ax}"] = {"domain": [x0, x1], "anchor": f"y{ax}", "range": [0, int(g["k"].max()) + 3],
                                "title": {"text": "number of clusters k", "font": font} if bottom else None,
                                "tickfont": tick}
        layout[f"yaxis{ax}"] = {"domain": [y0, y1], "anchor": f"x{ax}", "tickfont": tick, "zeroline": True,
                                "zerolinecolor": "#999",
                                "range": y_range(m, g["low"].tolist() + g["high"].tolist() + g["expected"].tolist())}
        annotations.append({"text": f"<b>{escape_label(m.symbol)}</b> — {arrow(m)}", "xref": f"x{ax} domain",
                            "yref": f"y{ax} domain", "x": 0.5, "y": 1.0, "yanchor": "bottom", "showarrow": False,
                            "font": note})
        shapes.append({"type": "line", "xref": f"x{ax}", "yref": f"y{ax} domain", "x0": n_classes, "x1": n_classes,
                       "y0": 0, "y1": 1, "line": {"color": "#555", "dash": "dash", "width": 1}})
        if first:
            annotations.append({"text": f"{format_number(n_classes)} classes", "xref": f"x{ax}",
                                "yref": f"y{ax} domain", "x": n_classes, "y": 1.0, "xanchor": "left",
                                "yanchor": "top", "showarrow": False, "font": {**note, "color": "#555"}})
    panel_h = 250 if large else 215
    height = int(110 + panel_h * nrows)
    layout.update({"height": height, "shapes": shapes, "annotations": annotations, "hovermode": "closest",
                   "margin": {"l": 10, "r": 10, "t": 70, "b": 50}, "font": font, "hoverlabel": {"font": note},
                   "legend": {"orientation": "h", "x": 0, "y": 1.0 + 36 / max(height - 120, 1), "yanchor": "bottom",
                              "font": tick}})
    return figure(data, layout)


# ---------------------------------------------------------------- a table against its null distribution
def null_figure(profile: pd.DataFrame, spread: pd.DataFrame, keys: list[str], *, model: str,
                samples: int) -> go.Figure:
    """One row per measure of ``keys`` (those drawn), on the goodness scale: the band and box of
    the draws, the expectation (exact: black; Monte Carlo: grey), and the observed value (a
    diamond, purple when its permutation p-value is at most :data:`ALPHA`, orange otherwise). Raw
    values, z, percentile and adjusted value in the hover."""
    ms = [metrics.MEASURES[k] for k in keys if k in spread.index]
    ys = list(range(len(ms)))

    def segments(lo_col: str, hi_col: str) -> tuple[list, list]:
        xs: list[float | None] = []
        yy: list[int | None] = []
        for y, m in zip(ys, ms):
            xs += [float(spread.at[m.key, lo_col]), float(spread.at[m.key, hi_col]), None]
            yy += [y, y, None]
        return xs, yy

    wx, wy = segments("g_low", "g_high")
    bx, by = segments("g_q1", "g_q3")
    data = [
        {"type": "scatter", "mode": "lines", "x": wx, "y": wy, "line": {"color": "#8c8c8c", "width": 2},
         "name": f"{band_text()} of the random labelings", "hoverinfo": "skip", "connectgaps": False},
        {"type": "scatter", "mode": "lines", "x": bx, "y": by,
         "line": {"color": rgba(MEAN_COLOR, 0.45), "width": 10},
         "name": f"{format_number(100 * BOX[0])}–{percent(BOX[1])}", "hoverinfo": "skip", "connectgaps": False},
    ]
    for exact, name, color in ((True, "expectation (exact)", "#1a1a1a"),
                               (False, "expectation (Monte Carlo)", "#8c8c8c")):
        pts = [(y, m) for y, m in zip(ys, ms) if bool(profile.at[m.key, "exact"]) == exact]
        if pts:
            data.append({"type": "scatter", "mode": "markers", "name": name,
                         "x": [float(m.goodness(profile.at[m.key, "expected"])) for _, m in pts],
                         "y": [y for y, _ in pts], "hoverinfo": "skip",
                         "marker": {"symbol": "line-ns", "size": 16, "line": {"width": 3, "color": color}}})
    for beats, name, color in ((True, f"observed: better than chance (p ≤ {format_number(ALPHA)})", BETTER),
                               (False, "observed: not better than chance", WITHIN)):
        pts = [(y, m) for y, m in zip(ys, ms) if (profile.at[m.key, "p_value"] <= ALPHA) == beats]
        if pts:
            data.append({"type": "scatter", "mode": "markers", "name": name,
                         "x": [float(m.goodness(profile.at[m.key, "observed"])) for _, m in pts],
                         "y": [y for y, _ in pts],
                         "marker": {"symbol": "diamond", "size": 12, "color": color,
                                    "line": {"width": 1, "color": "#1a1a1a"}},
                         "customdata": [_observed_hover(m, profile.loc[m.key], spread.loc[m.key], samples)
                                        for _, m in pts],
                         "hovertemplate": "%{customdata}<extra></extra>"})
    height = int(150 + 26 * len(ms))
    layout = {
        "height": height, "margin": {"l": 10, "r": 20, "t": 70, "b": 60}, "hovermode": "closest",
        "xaxis": {"range": [-0.03, 1.03], "tickvals": [0, 0.25, 0.5, 0.75, 1],
                  "ticktext": [format_number(v) for v in (0, 0.25, 0.5, 0.75, 1)],
                  "title": {"text": "goodness (0 = worst, 1 = best): each measure's values mapped by its range and "
                                    "direction"}},
        "yaxis": {"tickvals": ys, "ticktext": [escape_label(m.symbol) for m in ms],
                  "range": [len(ms) - 0.5, -0.5], "showgrid": False, "zeroline": False},
        "legend": {"orientation": "h", "x": 0, "y": 1.0 + 40 / max(height - 130, 1), "yanchor": "bottom"},
    }
    return figure(data, layout)


def expectation_text(row: pd.Series) -> str:
    """E in the page's words: "0.2438 (exact)", "∞ (exact: …)", "0.2438 ± 0.0011 (Monte Carlo, 1 standard
    error)" or "0.75 (Monte Carlo: every random labeling scored the same …)"."""
    if bool(row["exact"]):
        if math.isinf(row["expected"]):
            return (f"{format_number(row['expected'])} (exact: some random labeling the model can draw "
                    "scores ∞)")
        return f"{format_number(row['expected'])} (exact)"
    if bool(row.get("all_draws_equal", False)):
        return (f"{format_number(row['expected'])} (Monte Carlo: every random labeling scored the same, so "
                "there is no standard error; a rarer value would change it)")
    return f"{format_number(row['expected'])} ± {format_number(row['stderr'])} (Monte Carlo, ± 1 standard error)"


def _observed_hover(m, row: pd.Series, spread: pd.Series, samples: int) -> str:
    return (f"<b>{escape_label(m.name)}</b> ({escape_label(m.symbol)}), {arrow(m)}<br>"
            f"observed {format_number(row['observed'])}<br>"
            f"expected under chance {expectation_text(row)}<br>"
            f"{band_text()} of {format_number(samples)} random labelings: {format_number(spread['low'])} to "
            f"{format_number(spread['high'])}<br>"
            f"z {format_number(row['z'])} · percentile {format_number(row['percentile'])} % · "
            f"p {format_number(row['p_value'])}<br>adjusted {format_number(row['adjusted'])}")


def closeup_figure(key: str, draws: pd.Series, row: pd.Series) -> go.Figure:
    """One measure's random labelings as a histogram in its own units; the observed value (solid
    line) and the expectation (dashed)."""
    m = metrics.MEASURES[key]
    x = _finite(draws)
    bins = int(min(40, max(1, np.unique(x).size)))
    counts, edges = np.histogram(x, bins=bins) if x.size else (np.zeros(0, dtype=int), np.zeros(1))
    lefts, rights = edges[:-1], edges[1:]
    data = [{"type": "bar", "x": ((lefts + rights) / 2).tolist(), "y": counts.tolist(),
             "width": (rights - lefts).tolist(),
             "marker": {"color": BAND_FILL, "line": {"color": MEAN_COLOR, "width": 1}},
             "name": "random labelings",
             "customdata": [[format_number(a), format_number(b), format_number(int(c))]
                            for a, b, c in zip(lefts, rights, counts)],
             "hovertemplate": "%{customdata[0]} to %{customdata[1]}: %{customdata[2]} random labelings<extra></extra>"}]
    shapes: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    for value, label, dash, color, anchor in (
            (row["observed"], f"observed {format_number(row['observed'])}", "solid", WITHIN, 1.0),
            (row["expected"], f"expected {expectation_text(row).split(' (')[0]}", "dash", "#1a1a1a", 0.86)):
        if value is not None and math.isfinite(value):
            shapes.append({"type": "line", "xref": "x", "yref": "y domain", "x0": value, "x1": value, "y0": 0,
                           "y1": 1, "line": {"color": color, "dash": dash, "width": 2}})
            annotations.append({"text": escape_label(label), "xref": "x", "yref": "y domain", "x": value,
                                "y": anchor, "xanchor": "left", "yanchor": "top", "showarrow": False,
                                "font": {"color": color}, "bgcolor": "rgba(255, 255, 255, 0.8)"})
    layout = {"height": 330, "margin": {"l": 10, "r": 10, "t": 20, "b": 60}, "bargap": 0, "showlegend": False,
              "shapes": shapes, "annotations": annotations,
              "xaxis": {"title": {"text": f"{escape_label(m.name)} ({escape_label(m.symbol)}) — {arrow(m)}"}},
              "yaxis": {"title": {"text": "random labelings"}, "rangemode": "tozero"}}
    return figure(data, layout)


# ---------------------------------------------------------------- AMI's normalisations (#20066)
def ami_sweep_figure(summaries: dict[str, pd.DataFrame], n_classes: int) -> go.Figure:
    """Rows: the sweep models; columns: the four normalisations. In each panel NMI_x (orange)
    and AMI_x (blue) of random clusterings against k, mean and band; one y-range for all panels."""
    models = list(summaries)
    cols, nrows = len(NORMALISATIONS), len(models)
    gap_x, gap_y = 0.05, (0.40 / nrows if nrows > 1 else 0.0)
    keys = list(NORMALISATION_KEYS)
    every = pd.concat([s[s["key"].isin(keys)] for s in summaries.values()]) if summaries else pd.DataFrame()
    values = _finite(list(every.get("low", [])) + list(every.get("high", [])) + [0.0])
    span = (values.max() - values.min()) or 1.0
    shared = [float(values.min() - 0.05 * span), float(values.max() + 0.05 * span)]
    data: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    shapes: list[dict[str, Any]] = []
    layout: dict[str, Any] = {}
    for r, model in enumerate(models):
        s = summaries[model]
        for c, (_name, nmi_key, ami_key) in enumerate(NORMALISATIONS):
            i = r * cols + c
            ax, (x0, x1), (y0, y1) = panel_domains(i, cols, nrows, gap_x, gap_y)
            for key, color, fill, group in ((nmi_key, NMI_COLOR, NMI_FILL, "nmi"),
                                            (ami_key, MEAN_COLOR, BAND_FILL, "ami")):
                g = s[s["key"] == key].sort_values("k")
                if g.empty:
                    continue
                m = metrics.MEASURES[key]
                label = "NMI (unadjusted)" if group == "nmi" else "AMI (adjusted under perm)"
                data.append(_band_trace(g["k"], g["low"], g["high"], ax, f"{label}: {band_text()}", fill, i == 0,
                                        f"{group}_band"))
                data.append(_mean_trace(g, m, ax, f"{label}: mean", color, i == 0, group))
            layout[f"xaxis{ax}"] = {"domain": [x0, x1], "anchor": f"y{ax}", "range": [0, max(s["k"]) + 3],
                                    "title": {"text": "k"} if r == nrows - 1 else None}
            layout[f"yaxis{ax}"] = {"domain": [y0, y1], "anchor": f"x{ax}", "range": shared, "zeroline": True,
                                    "zerolinecolor": "#999", "showticklabels": c == 0}
            ami_symbol, nmi_symbol = metrics.MEASURES[ami_key].symbol, metrics.MEASURES[nmi_key].symbol
            annotations.append({"text": f"<b>{escape_label(model)}</b> · {escape_label(ami_symbol)} "
                                        f"vs {escape_label(nmi_symbol)}",
                                "xref": f"x{ax} domain", "yref": f"y{ax} domain", "x": 0.5, "y": 1.0,
                                "yanchor": "bottom", "showarrow": False})
            shapes.append({"type": "line", "xref": f"x{ax}", "yref": f"y{ax} domain", "x0": n_classes,
                           "x1": n_classes, "y0": 0, "y1": 1, "line": {"color": "#555", "dash": "dash", "width": 1}})
    height = int(120 + 220 * nrows)
    layout.update({"height": height, "annotations": annotations, "shapes": shapes, "hovermode": "closest",
                   "margin": {"l": 10, "r": 10, "t": 70, "b": 50},
                   "legend": {"orientation": "h", "x": 0, "y": 1.0 + 36 / max(height - 120, 1), "yanchor": "bottom"}})
    return figure(data, layout)


def ami_table_rows(profiles: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Per (model, normalisation): E[AMI_x] under the model (with how it was obtained), NMI_x
    adjusted under the model, and AMI_x itself — all read from ``chance.summarize`` profiles."""
    rows = []
    for model, prof in profiles.items():
        for name, nmi_key, ami_key in NORMALISATIONS:
            if nmi_key not in prof.index or ami_key not in prof.index:
                continue
            rows.append({"model": model, "normalisation": name, "ami_key": ami_key, "nmi_key": nmi_key,
                         "ami": float(prof.at[ami_key, "observed"]),
                         "expected_ami": float(prof.at[ami_key, "expected"]),
                         "expected_ami_exact": bool(prof.at[ami_key, "exact"]),
                         "expected_ami_stderr": float(prof.at[ami_key, "stderr"]),
                         "nmi": float(prof.at[nmi_key, "observed"]),
                         "adjusted_nmi": float(prof.at[nmi_key, "adjusted"])})
    return pd.DataFrame(rows)


def ami_table_figure(rows: pd.DataFrame) -> go.Figure:
    """Two panels over the four normalisations: left, what chance scores on AMI_x under each
    model (E[AMI_x], ± :data:`ERROR_BAR_SE` standard errors where sampled); right, NMI_x adjusted under each model,
    beside AMI_x itself (black). Under perm the two agree exactly."""
    names = [n for n, _, _ in NORMALISATIONS]
    data = []
    for model, g in rows.groupby("model", sort=False):
        g = g.set_index("normalisation").reindex(names)
        color = MODEL_COLORS.get(model, "#555")
        err = [0.0 if ex else ERROR_BAR_SE * se for ex, se in zip(g["expected_ami_exact"], g["expected_ami_stderr"])]
        data.append({"type": "bar", "x": names, "y": _plain(g["expected_ami"]), "name": escape_label(model),
                     "legendgroup": model, "marker": {"color": color}, "xaxis": "x", "yaxis": "y",
                     "error_y": {"type": "data", "array": _plain(err), "visible": True, "color": "#333"},
                     "customdata": [[escape_label(model), escape_label(metrics.MEASURES[k].symbol),
                                     format_number(v) + (" (exact)" if ex
                                                         else f" ± {format_number(se)} (Monte Carlo)")]
                                    for k, v, ex, se in zip(g["ami_key"], g["expected_ami"], g["expected_ami_exact"],
                                                            g["expected_ami_stderr"])],
                     "hovertemplate": "%{customdata[0]}: E[%{customdata[1]}] = %{customdata[2]}<extra></extra>"})
        data.append({"type": "bar", "x": names, "y": _plain(g["adjusted_nmi"]), "name": escape_label(model),
                     "legendgroup": model, "showlegend": False, "marker": {"color": color}, "xaxis": "x2",
                     "yaxis": "y2",
                     "customdata": [[escape_label(model), escape_label(metrics.MEASURES[k].symbol), format_number(v)]
                                    for k, v in zip(g["nmi_key"], g["adjusted_nmi"])],
                     "hovertemplate": "%{customdata[1]} adjusted under %{customdata[0]}: %{customdata[2]}"
                                      "<extra></extra>"})
    if len(rows):
        first = rows.drop_duplicates("normalisation").set_index("normalisation").reindex(names)
        data.append({"type": "bar", "x": names, "y": _plain(first["ami"]), "name": "AMI_x itself",
                     "marker": {"color": "#1a1a1a"}, "xaxis": "x2", "yaxis": "y2",
                     "customdata": [[escape_label(metrics.MEASURES[k].symbol), format_number(v)]
                                    for k, v in zip(first["ami_key"], first["ami"])],
                     "hovertemplate": "%{customdata[0]} = %{customdata[1]}<extra></extra>"})
    layout = {
        "height": 420, "barmode": "group", "bargap": 0.2, "hovermode": "closest",
        "margin": {"l": 10, "r": 10, "t": 90, "b": 50},
        "xaxis": {"domain": [0, 0.46], "anchor": "y", "type": "category", "title": {"text": "normalisation"}},
        "yaxis": {"anchor": "x", "zeroline": True, "zerolinecolor": "#555",
                  "title": {"text": "expected AMI under the model"}},
        "xaxis2": {"domain": [0.54, 1], "anchor": "y2", "type": "category", "title": {"text": "normalisation"}},
        "yaxis2": {"anchor": "x2", "zeroline": True, "zerolinecolor": "#555", "matches": "y",
                   "title": {"text": "NMI adjusted under the model"}},
        "annotations": [
            {"text": "<b>What chance scores on AMI</b>", "xref": "x domain", "yref": "y domain", "x": 0.5, "y": 1.0,
             "yanchor": "bottom", "showarrow": False},
            {"text": "<b>NMI adjusted for chance under each model</b>", "xref": "x2 domain", "yref": "y2 domain",
             "x": 0.5, "y": 1.0, "yanchor": "bottom", "showarrow": False}],
        "legend": {"orientation": "h", "x": 0, "y": 1.14, "yanchor": "bottom", "title": {"text": "model"}},
    }
    return figure(data, layout)

