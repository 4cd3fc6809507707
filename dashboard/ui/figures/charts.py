"""Plotly figures of the dashboard. They draw numbers computed elsewhere (``metrics`` through
``tables.evaluate_cached``); nothing here computes a measure.

Figures are built from plain dicts with hand-placed axes rather than ``make_subplots``: that is
much faster to build (docs/performance.md), which keeps a slider rerun well inside its time budget. What a user reads
follows ``readout``: numbers through ``format_number`` (hovers get them as preformatted
``customdata``, never a ``%{y:.4f}``), labels through ``escape_label``, every font explicit and
at least 11 px (``readout.readable``).
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import metrics
from dashboard.ui.figures.colours import COUNT_BAR, COUNT_SCALE, QUALITATIVE
from dashboard.ui.readout import TEXT_FONT, escape_label, format_number, readable, wrap
from dashboard.ui.tables import display_frame, fingerprint

try:
    # Plotly ≥ 6 sends numpy arrays as typed arrays (base64); _encoded must do as go.Figure.to_dict
    # does, and these helpers are its own. They are private: pyproject.toml bounds plotly below 8
    # and tests/dashboard/test_private_apis.py fails, naming the version, if they move.
    from _plotly_utils.utils import is_homogeneous_array, is_skipped_key, to_typed_array_spec
    TYPED_ARRAYS = True
except ImportError:  # Plotly 5 sends arrays as they are
    TYPED_ARRAYS = False

# The dashboard's number format (``metrics.core.formatting.format_number``), under its old short name.
fmt = format_number

FAMILY_COLORS = dict(zip(("information", "matching", "pairs", "elementwise"), QUALITATIVE))
# No Plotly template: st.plotly_chart draws with Streamlit's theme, and Plotly's default
# template would be validated, copied and sent with every figure (two thirds of a small one).
NO_TEMPLATE = "none"
# Cell and size labels of a heatmap are drawn only where they fit at TEXT_FONT: a cell must be
# wide enough for its longest label in the narrowest heatmap the pages draw (half a 1280 px
# page less the sidebar, tick labels and the size strip: ~280 px of cells) and tall enough for one line.
HEAT_PLOT_WIDTH_PX = 280
SIZE_TEXT = {"color": "#1a1a1a"}
DIGIT_PX = 0.62 * TEXT_FONT
LINE_PX = TEXT_FONT + 4


class ReadOnlyFigure(go.Figure):
    """A figure from a spec of plain dicts that nothing changes once it is built — the caches
    share the dashboard's figures read-only across sessions.

    ``st.plotly_chart`` needs a figure's dict, and a ``go.Figure`` makes it the slow way: its
    constructor deep-copies the spec into Plotly's objects (even unvalidated), and its
    ``to_dict`` deep-copies them back and walks every array — the latter on every rerun that
    draws the chart, cached or not. Here the dict is made once, straight from the spec (the same
    JSON: the test suite compares the two for every chart of every page), and Plotly's objects
    are built only if something reads the figure's properties (``fig.data``, ``fig.layout``, …)."""

    def __init__(self, data: list[dict], layout: dict):
        # Nothing of go.Figure's state yet: __getattr__ builds it on first use.
        object.__setattr__(self, "_spec_args", (data, layout))
        object.__setattr__(self, "_spec", None)

    def __getattr__(self, name: str):
        # Only reached for attributes the instance lacks: go.Figure's state, before it is built.
        state = self.__dict__
        if name.startswith("__") or "_spec_args" not in state or state.get("_building") or "_data_objs" in state:
            raise AttributeError(name)
        object.__setattr__(self, "_building", True)
        try:
            go.Figure.__init__(self, data=self._spec_args[0], layout=self._spec_args[1], _validate=False)
        finally:
            object.__setattr__(self, "_building", False)
        return getattr(self, name)

    def to_dict(self) -> dict:
        # The same dict for every caller: st.plotly_chart only encodes it, nothing writes to it.
        if self._spec is None:
            data, layout = self._spec_args
            object.__setattr__(self, "_spec", {"data": _encoded(data), "layout": _encoded(layout)})
        return self._spec

    def to_plotly_json(self) -> dict:
        return self.to_dict()

    def __reduce__(self):
        # Pickled (st.cache_data, multiprocessing) as its spec, rebuilt the same way.
        return ReadOnlyFigure, self._spec_args


def _set_only(spec):
    """``spec`` without the properties set to None, at every depth. None is Plotly's "unset", the
    same as leaving the property out, but go.Figure drops it at some depths and sends it as null
    at others; without it, both ways of making the figure's dict give the same one."""
    if isinstance(spec, dict):
        return {k: _set_only(v) for k, v in spec.items() if v is not None}
    if isinstance(spec, list) and spec and isinstance(spec[0], dict):
        return [_set_only(v) for v in spec]
    return spec


def _encoded(spec):
    """A copy of a figure spec with its numpy arrays as Plotly's typed arrays (base64), as
    ``go.Figure.to_dict`` sends them (its ``convert_to_base64`` works in place; the spec itself
    stays as built, for ``__getattr__``)."""
    if isinstance(spec, dict):
        if not TYPED_ARRAYS:
            return {k: _encoded(v) for k, v in spec.items()}
        return {k: v if is_skipped_key(k) else to_typed_array_spec(v) if is_homogeneous_array(v) else _encoded(v)
                for k, v in spec.items()}
    if isinstance(spec, (list, tuple)):
        return [_encoded(v) for v in spec]
    return spec


def figure(data: list[dict], layout: dict) -> go.Figure:
    """The dashboard's figure of plain dicts: no template, fonts made readable (``readout.readable``).

    Built without Plotly's per-property validation, which costs ~4× the building itself on every
    rerun that draws the figure. The test suite validates instead: every spec that every page
    sends, in every state ``tests/dashboard/test_charts_text.py`` opens, must build a validated
    ``go.Figure``. Never changed once built (:class:`ReadOnlyFigure`)."""
    data, layout = readable(_set_only(data), _set_only({"template": NO_TEMPLATE, **layout}))
    return ReadOnlyFigure(data, layout)


def _cat_axis(**kw) -> dict:
    # Category axes: class names such as "1", "2" must not become numbers.
    return {"type": "category", **kw}


def _fits_across(texts: list[str], count: int) -> bool:
    return count > 0 and max(map(len, texts), default=0) * DIGIT_PX + 6 <= HEAT_PLOT_WIDTH_PX / count


def heatmap_figure(frame: pd.DataFrame, title: str = "", height: int | None = None) -> go.Figure:
    """The table as a heatmap, with cluster sizes above and class sizes to the right.

    Class and cluster names are drawn as written (escaped); counts in the one number format, in
    the cells where they fit at a readable size, and always in the hover.
    """
    xs, ys = [escape_label(c) for c in frame.columns], [escape_label(i) for i in frame.index]
    z = frame.to_numpy()
    col_sums, row_sums = z.sum(axis=0), z.sum(axis=1)
    cells = [[format_number(v) for v in row] for row in z.tolist()]
    col_text, row_text = [format_number(v) for v in col_sums.tolist()], [format_number(v) for v in row_sums.tolist()]
    if height is None:
        height = int(min(max(120 + 26 * len(ys), 280), 720))
    row_px = (height - 60) * 0.80 / max(len(ys), 1)
    show_cells = row_px >= LINE_PX and _fits_across([t for r in cells for t in r], len(xs))
    show_cols = _fits_across(col_text, len(xs))
    show_rows = row_px >= LINE_PX
    data = [
        {"type": "heatmap", "x": xs, "y": ys, "z": z, "zmin": 0, "colorscale": COUNT_SCALE, "showscale": False,
         "xaxis": "x", "yaxis": "y", "xgap": 1, "ygap": 1, "text": cells,
         "texttemplate": "%{text}" if show_cells else None,
         "hovertemplate": "class %{y}<br>cluster %{x}<br>count %{text}<extra></extra>"},
        {"type": "bar", "x": xs, "y": col_sums, "xaxis": "x", "yaxis": "y2", "marker": {"color": COUNT_BAR},
         "customdata": col_text, "hovertemplate": "cluster %{x}: %{customdata} items<extra></extra>",
         "showlegend": False},
        {"type": "bar", "x": row_sums, "y": ys, "orientation": "h", "xaxis": "x2", "yaxis": "y",
         "marker": {"color": COUNT_BAR}, "customdata": row_text,
         "hovertemplate": "class %{y}: %{customdata} items<extra></extra>", "showlegend": False},
    ]
    # Sizes as text at a fixed place (not inside the bars, where Plotly shrinks text to fit a
    # short bar — to 4 px for a small class).
    if show_cols:
        data.append({"type": "scatter", "mode": "text", "x": xs, "y": [0] * len(xs), "xaxis": "x", "yaxis": "y2",
                     "text": col_text, "textposition": "top center", "textfont": SIZE_TEXT, "cliponaxis": False,
                     "hoverinfo": "skip", "showlegend": False})
    if show_rows:
        data.append({"type": "scatter", "mode": "text", "x": [0] * len(ys), "y": ys, "xaxis": "x2", "yaxis": "y",
                     "text": row_text, "textposition": "middle right", "textfont": SIZE_TEXT, "cliponaxis": False,
                     "hoverinfo": "skip", "showlegend": False})
    layout = {
        "height": height, "margin": {"l": 10, "r": 10, "t": 40 if title else 10, "b": 10},
        "title": {"text": escape_label(title)} if title else None,
        "xaxis": _cat_axis(domain=[0, 0.82], anchor="y", side="bottom", tickangle=-45 if len(xs) > 12 else 0,
                           title={"text": "clusters"}),
        "yaxis": _cat_axis(domain=[0, 0.80], anchor="x", autorange="reversed", title={"text": "classes"}),
        "xaxis2": {"domain": [0.85, 1.0], "anchor": "y", "showticklabels": False, "showgrid": False,
                   "zeroline": False, "title": {"text": "class size"}},
        "yaxis2": {"domain": [0.83, 1.0], "anchor": "x", "showticklabels": False, "showgrid": False,
                   "zeroline": False, "title": {"text": "cluster<br>size"}},
        "bargap": 0.15, "showlegend": False,
    }
    return figure(data, layout)


GOODNESS_AXIS = "bar and label: goodness (1 = best)<br>beside each symbol: its raw value"


def goodness_figure(values: dict[str, float], keys: list[str]) -> go.Figure:
    """Every chosen measure on the registry's common goodness scale (``Measure.goodness``,
    1 = best), grouped by family; measures missing from ``values`` (not defined for the table)
    are left out.

    The bar's length and its label are the goodness; the measure's raw value is printed beside
    its symbol ("VI = 1.94"), so a long bar never reads as a large raw value (VI's 1.94 is a
    short distance, Mirkin's 1,334 a poor score). The hover gives both, with the measure's
    direction, range and description (wrapped, so the box fits a narrow chart).
    """
    ms = [metrics.MEASURES[k] for k in keys if k in values]
    data = []
    for fam, label in metrics.FAMILIES.items():
        sub = [m for m in ms if m.family == fam]
        if not sub:
            continue
        good = [m.goodness(values[m.key]) for m in sub]
        data.append({
            "type": "bar", "orientation": "h", "name": escape_label(label), "marker": {"color": FAMILY_COLORS.get(fam)},
            "y": [escape_label(m.symbol) for m in sub], "x": good,
            "text": [format_number(g) for g in good], "textposition": "outside", "cliponaxis": False,
            "customdata": [[escape_label(m.name), format_number(values[m.key]),
                            "higher" if m.higher_is_better else "lower", escape_label(m.range_text),
                            wrap(m.description), format_number(g)] for m, g in zip(sub, good)],
            "hovertemplate": "<b>%{customdata[0]}</b> (%{y})<br>value %{customdata[1]} — %{customdata[2]} is better"
                             "<br>range %{customdata[3]}<br>goodness %{customdata[5]}"
                             "<br><i>%{customdata[4]}</i><extra></extra>",
        })
    symbols = [escape_label(m.symbol) for m in ms]
    layout = {
        "height": int(120 + 24 * len(ms)), "barmode": "relative", "bargap": 0.25,
        "margin": {"l": 10, "r": 20, "t": 30, "b": 60},
        "xaxis": {"range": [0, 1.2], "title": {"text": GOODNESS_AXIS}, "tickvals": [0, 0.25, 0.5, 0.75, 1],
                  "ticktext": ["0", "0.25", "0.5", "0.75", "1"]},
        "yaxis": _cat_axis(autorange="reversed", categoryorder="array", categoryarray=symbols, tickvals=symbols,
                           ticktext=[f"{s} = {format_number(values[m.key])}" for s, m in zip(symbols, ms)]),
        "legend": {"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0},
        "hovermode": "closest",
    }
    return figure(data, layout)


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
