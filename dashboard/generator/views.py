"""The Generator lab's views: Dom's parametric family as sliders, one parameter swept against
every chosen measure, and Dom's / Rosenberg & Hirschberg's properties P1–P7 over the paper's
grid beside the printed Table 2.

Every table comes from ``metrics.papers.generators.dom`` ([Dom01] §5 with [RH07]'s noise classes, §4
and Figure 3); every value from ``metrics`` (``evaluate_batch``, ``properties.dom_property_rates``);
positions on the common scale from the registry's ``Measure.goodness``. Nothing here computes
a measure: this module picks parameters, calls ``metrics`` and draws.

References: [Dom01] Dom (2001), IBM RJ 10219. [RH07] Rosenberg & Hirschberg (2007), EMNLP-CoNLL.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import metrics
from dashboard.ui.figures.charts import figure as _figure
from dashboard.ui.figures.charts import fmt, panel_domains
from dashboard.ui.figures.colours import QUALITATIVE
from dashboard.ui.readout import escape_label, styled
from dashboard.ui.tables import settings_for
from metrics import properties
from metrics.papers import generators, resources

# A qualitative palette long enough that no two chosen measures share a colour: the colour-blind
# safe Okabe–Ito colours first (a few chosen measures never need more), then darker and paler
# tones with no red beside a green.
PALETTE = (*QUALITATIVE, "#4C78A8", "#B279A2", "#9D755D", "#72B7B2", "#EECA3B", "#393b79", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#7b4173", "#8c6d31", "#BAB0AC", "#FF9DA6", "#637939")


# ====================================================================== the sliders
@dataclass(frozen=True)
class Param:
    """One argument of ``generators.dom`` as a slider (``key`` is also the URL parameter)."""

    arg: str
    key: str
    symbol: str
    label: str
    default: float
    lo: float = 0
    hi: float = 0
    step: float = 1
    options: tuple = ()       # a select slider over these values instead of [lo, hi]
    help: str = ""

    @property
    def is_eps(self) -> bool:
        return self.arg.startswith("eps")

    def sweep_values(self) -> tuple:
        """The x values of a sweep over this parameter: the slider's whole range (ε's in
        steps of 0.025, so a sweep stays ~40 tables)."""
        if self.options:
            return tuple(self.options)
        if self.is_eps:
            return tuple(float(x) for x in np.round(np.arange(0, self.hi + 1e-9, 0.025), 3))
        return tuple(range(int(self.lo), int(self.hi) + 1))


N_OPTIONS = (10, 20, 30, 60, 100, 200, 500, 1000, 2000, 5000, 10_000, 100_000)

# Defaults: Rosenberg & Hirschberg's Figure 3 (n = 60, |C| = 3 useful classes + 1 noise class,
# |Ku| = 2 useful + 1 noise cluster, ε1 = .1, ε2 = .2, ε3 = .1), so the page opens on the
# printed table.
PARAMS: dict[str, Param] = {p.arg: p for p in (
    Param("n_classes", "g_C", "|C|", "|C| useful classes", 3, 1, 10,
          help="Gold classes that clusters can match ([RH07] §4; noise classes come on top)."),
    Param("n_useful_clusters", "g_Ku", "|Ku|", "|Ku| useful clusters", 2, 1, 15,
          help="Clusters matched to classes by Dom's ceiling rule: with |Ku| ≥ |C| each class gets "
               "⌈remaining clusters / remaining classes⌉ clusters, and the reverse with fewer clusters."),
    Param("n_noise_clusters", "g_Kn", "|Knoise|", "|Knoise| noise clusters", 1, 0, 10,
          help="Clusters that receive ε2, spread evenly over the (useful class, noise cluster) cells."),
    Param("n_noise_classes", "g_Cn", "|Cnoise|", "|Cnoise| noise classes", 1, 0, 10,
          help="Classes that hold ε3, spread evenly over the (noise class, useful cluster) cells."),
    Param("eps1", "g_e1", "ε1", "ε1 — mass on non-matching pairs", 0.1, 0.0, 1.0, 0.01,
          help="Error mass on the non-matching (useful class, useful cluster) pairs. ε1 + ε2 + ε3 ≤ 1."),
    Param("eps2", "g_e2", "ε2", "ε2 — mass in noise clusters", 0.2, 0.0, 1.0, 0.01,
          help="Error mass in the noise clusters. Needs |Knoise| ≥ 1."),
    Param("eps3", "g_e3", "ε3", "ε3 — mass of noise classes", 0.1, 0.0, 1.0, 0.01,
          help="Error mass of the noise classes. Needs |Cnoise| ≥ 1."),
    Param("n", "g_n", "n", "n items", 60, options=N_OPTIONS,
          help="Items in the table. Cells are expected counts n·p(class, cluster) unless rounded below; "
               "pair-counting measures need every non-empty cell to hold at least one item."),
)}
SYMBOLS = {p.arg: p.symbol for p in PARAMS.values()}
INTEGER_KEY = "g_int"
# The page's two tabs, bound to the URL parameter TAB_KEY (its value is the label).
TAB_KEY, LAB_TAB, PROPERTIES_TAB = "g_tab", "Build and sweep", "Properties P1–P7 (Table 2)"


def dom_sliders() -> tuple[dict[str, float], bool]:
    """Draw the sliders (bound to the URL); return ``generators.dom``'s keyword arguments and
    whether to round the table to whole items."""
    values = {}
    rows = (("n_classes", "n_useful_clusters", "n_noise_clusters", "n_noise_classes"),
            ("eps1", "eps2", "eps3", "n"))
    for row in rows:
        for col, arg in zip(st.columns(len(row)), row):
            p = PARAMS[arg]
            with col:
                if p.options:
                    # No format_func: a bound widget writes its label into the URL, and "1,000"
                    # would make links fragile.
                    v = st.select_slider(p.label, p.options, value=p.default, key=p.key, help=p.help,
                                         bind="query-params")
                else:
                    v = st.slider(p.label, p.lo, p.hi, p.default, p.step, key=p.key, help=p.help,
                                  bind="query-params")
            # A browser slider may send 0.30000000000000004 for 0.3: keep the value as shown.
            values[arg] = round(float(v), 3) if p.is_eps else int(v)
    integer = st.toggle("Whole items (round each cell by largest remainder, keeping n)", key=INTEGER_KEY,
                        bind="query-params",
                        help="Off: cells are expected counts n·p, as in the paper's Figure 3. On: "
                             "metrics.papers.generators.dom(…, integer=True), which AMI needs.")
    return values, bool(integer)


def explain(exc: Exception) -> str:
    """A generator's error in the sliders' symbols (``eps2`` → ε2, ``n_noise_clusters`` → |Knoise|)."""
    text = str(exc)
    for arg, symbol in SYMBOLS.items():
        if arg != "n":
            text = re.sub(rf"\b{arg}\b", symbol, text)
    return text


@st.cache_resource(max_entries=256, show_spinner=False)
def _dom(params: tuple[tuple[str, float], ...], integer: bool) -> metrics.Contingency:
    settings: dict[str, Any] = dict(params)  # numbers, each checked by the generator
    return generators.dom(**settings, integer=integer)


def realize(params: dict[str, float], integer: bool) -> tuple[metrics.Contingency | None, str | None]:
    """(table, None), or (None, what is wrong, naming the slider) for settings that cannot be built.

    A table is shared read-only (a Contingency is never mutated), hence ``cache_resource``.
    """
    try:
        return _dom(tuple(sorted(params.items())), integer), None
    except ValueError as exc:
        return None, explain(exc)


# ====================================================================== the sweep
def _evaluate(tables: list[metrics.Contingency], keys: tuple[str, ...], log_base: float,
              beta: float) -> pd.DataFrame:
    """Values of ``keys`` for every table (NaN where a measure is not defined for a table —
    AMI on fractional counts, pair counts on cells below one item). Tables that suit the
    same measures go through one ``metrics.evaluate_batch`` call."""
    out = pd.DataFrame(np.nan, index=range(len(tables)), columns=list(keys))
    groups: dict[tuple[int, ...], list[str]] = defaultdict(list)
    for k in keys:
        m = metrics.MEASURES[k]
        groups[tuple(i for i, t in enumerate(tables) if m.applies_to(t))].append(k)
    for idx, ks in groups.items():
        if idx:
            frame = metrics.evaluate_batch([tables[i].to_dense() for i in idx], ks, log_base=log_base, beta=beta)
            out.loc[list(idx), ks] = frame[ks].to_numpy()
    return out


@st.cache_data(max_entries=128, show_spinner=False)
def dom_sweep(axis: str, fixed: tuple[tuple[str, float], ...], keys: tuple[str, ...], integer: bool,
              log_base: float = math.e, beta: float = 1.0) -> tuple[pd.DataFrame, list[tuple[float, str]]]:
    """(curve, skipped): every chosen measure at each value of ``axis`` over its slider's range,
    the other parameters at ``fixed`` — a long table ``x, key, value, goodness`` — and the x
    values the generator cannot build, with the reason.

    ``fixed`` leaves the swept parameter out, so moving that slider only moves the marker.
    """
    xs, tables, skipped = sweep_tables(axis, fixed, integer)
    if not tables:
        return pd.DataFrame(columns=["x", "key", "value", "goodness"]), list(skipped)
    values = _evaluate(list(tables), keys, log_base, beta)
    raw = values.to_numpy().T                           # one row per measure, one column per x
    good = np.vstack([metrics.MEASURES[k].goodness(np.nan_to_num(v)) for k, v in zip(keys, raw)])
    curve = pd.DataFrame({"x": np.tile(np.asarray(xs), len(keys)),
                          "key": np.repeat(np.asarray(keys, dtype=object), len(xs)),
                          "value": raw.ravel(), "goodness": np.where(np.isnan(raw), np.nan, good).ravel()})
    return curve, list(skipped)


@st.cache_resource(max_entries=64, show_spinner=False)
def sweep_tables(axis: str, fixed: tuple[tuple[str, float], ...], integer: bool):
    """(xs, tables, skipped) of a sweep: the tables at every value of ``axis`` that can be built,
    and the values that cannot, with the reason. Built once per sweep and scored under any
    measures, β and unit (shared read-only)."""
    if axis not in PARAMS:
        raise KeyError(f"unknown sweep parameter {axis!r}; choose one of {', '.join(PARAMS)}")
    base = dict(fixed)
    xs: list[Any] = []
    tables: list[metrics.Contingency] = []
    skipped: list[tuple[Any, str]] = []
    values = PARAMS[axis].sweep_values()
    for x, built in zip(values, generators.dom_each([{**base, axis: x} for x in values], integer=integer)):
        if isinstance(built, ValueError):
            skipped.append((x, explain(built)))
        else:
            tables.append(built)
            xs.append(x)
    return tuple(xs), tuple(tables), tuple(skipped)


def colors(keys) -> dict[str, str]:
    return {k: PALETTE[i % len(PALETTE)] for i, k in enumerate(keys)}


def _axis_title(axis: str) -> str:
    return PARAMS[axis].label


def _hover_texts(curve: pd.DataFrame) -> dict[str, list[str]]:
    """The curve's x, value and goodness in the one number format, each distinct number formatted
    once (the x values repeat for every measure; both figures show x and the value)."""
    out = {}
    for col in ("x", "value", "goodness"):
        values = curve[col].tolist()
        shown = {v: fmt(v) for v in dict.fromkeys(values)} if col == "x" else None
        out[col] = [shown[v] for v in values] if shown else [fmt(v) for v in values]
    return out


def goodness_sweep_spec(curve: pd.DataFrame, keys: list[str], axis: str,
                        texts: dict[str, list[str]] | None = None) -> tuple[list[dict], dict]:
    """(data, layout) of all chosen measures on the registry's goodness scale (1 = best) along the
    sweep, one line each, without the slider's marker (:func:`goodness_sweep_figure` adds it)."""
    texts = texts or _hover_texts(curve)
    col = colors(keys)
    data = []
    rows = {k: idx for k, idx in curve.groupby("key", sort=False).indices.items()}
    for k in keys:
        idx = rows.get(k)
        if idx is None:
            continue
        m = metrics.MEASURES[k]
        data.append({"type": "scatter", "mode": "lines+markers", "name": escape_label(m.symbol), "legendgroup": k,
                     "x": curve["x"].iloc[idx].tolist(), "y": curve["goodness"].iloc[idx].tolist(),
                     "line": {"color": col[k]}, "marker": {"size": 5},
                     "customdata": [[texts["x"][i], texts["value"][i], texts["goodness"][i]] for i in idx],
                     "hovertemplate": f"<b>%{{fullData.name}}</b><br>{PARAMS[axis].symbol} = %{{customdata[0]}}"
                                      "<br>value %{customdata[1]}<br>goodness %{customdata[2]}<extra></extra>"})
    layout = {
        "height": 380, "margin": {"l": 10, "r": 10, "t": 30, "b": 50},
        "xaxis": {"title": {"text": _axis_title(axis)}, "type": "log" if axis == "n" else "linear"},
        "yaxis": {"title": {"text": "goodness (1 = best)"}, "range": [-0.03, 1.03]},
        "legend": {"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0},
        "hovermode": "closest",
    }
    return data, layout


def goodness_sweep_figure(curve: pd.DataFrame, keys: list[str], axis: str, current_x: float) -> go.Figure:
    """All chosen measures on the goodness scale along the sweep; the dashed line is the slider's position."""
    data, layout = goodness_sweep_spec(curve, keys, axis)
    return _with_marker(data, layout, current_x)


def _marker(x: float, xref: str, yref: str) -> dict:
    return {"type": "line", "xref": xref, "yref": yref, "x0": x, "x1": x, "y0": 0, "y1": 1,
            "line": {"color": "#444", "dash": "dash", "width": 1}, "name": "slider"}


def raw_sweep_spec(curve: pd.DataFrame, keys: list[str], axis: str, cols: int = 4,
                   texts: dict[str, list[str]] | None = None) -> tuple[list[dict], dict]:
    """(data, layout) of small multiples, one per measure: its raw value along the sweep on its own
    y axis (ranges differ by orders of magnitude: Mirkin counts pairs, V lies in [0, 1]); without
    the slider's markers (:func:`raw_sweep_figure` adds one per panel)."""
    texts = texts or _hover_texts(curve)
    col = colors(keys)
    rows = {k: idx for k, idx in curve.groupby("key", sort=False).indices.items()}
    n = len(keys)
    cols = max(1, min(cols, n))
    nrows = math.ceil(n / cols)
    gap_x, gap_y = 0.05, 0.30 / max(nrows, 1)
    data: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    layout: dict[str, Any] = {}
    for i, k in enumerate(keys):
        m = metrics.MEASURES[k]
        ax, (x0, x1), (y0, y1) = panel_domains(i, cols, nrows, gap_x, gap_y)
        layout[f"xaxis{ax}"] = {"domain": [x0, x1], "anchor": f"y{ax}", "type": "log" if axis == "n" else "linear"}
        layout[f"yaxis{ax}"] = {"domain": [y0, y1], "anchor": f"x{ax}"}
        idx = rows.get(k)
        if idx is not None:
            data.append({"type": "scatter", "mode": "lines+markers", "name": escape_label(m.symbol),
                         "showlegend": False, "x": curve["x"].iloc[idx].tolist(),
                         "y": curve["value"].iloc[idx].tolist(), "xaxis": f"x{ax}",
                         "yaxis": f"y{ax}", "line": {"color": col[k]}, "marker": {"size": 4},
                         "customdata": [[texts["x"][i], texts["value"][i]] for i in idx],
                         "hovertemplate": f"%{{fullData.name}}<br>{PARAMS[axis].symbol} = %{{customdata[0]}}"
                                          "<br>%{customdata[1]}<extra></extra>"})
        arrow = "↑" if m.higher_is_better else "↓"
        annotations.append({"text": f"<b>{escape_label(m.symbol)}</b> ({arrow} better)", "xref": f"x{ax} domain",
                            "yref": f"y{ax} domain", "x": 0.5, "y": 1.0, "yanchor": "bottom", "showarrow": False})
    annotations.append({"text": _axis_title(axis), "xref": "paper", "yref": "paper", "x": 0.5, "y": 0, "yshift": -40,
                        "showarrow": False, "xanchor": "center", "yanchor": "top"})
    layout.update({"height": int(60 + 200 * nrows), "annotations": annotations,
                   "margin": {"l": 10, "r": 10, "t": 30, "b": 55}, "showlegend": False})
    return data, layout


def raw_sweep_figure(curve: pd.DataFrame, keys: list[str], axis: str, current_x: float, cols: int = 4) -> go.Figure:
    """The raw values' small multiples; the dashed line in each panel is the slider's position."""
    data, layout = raw_sweep_spec(curve, keys, axis, cols)
    return _with_marker(data, layout, current_x)


def _with_marker(data: list[dict], layout: dict, current_x: float) -> go.Figure:
    """The figure of a sweep spec with the slider's dashed line: across the plot, or in every
    panel of small multiples (panels are the layout's ``xaxis``, ``xaxis2``, … with a domain)."""
    panels = sorted((a[5:] for a in layout if a.startswith("xaxis") and "domain" in layout[a]),
                    key=lambda suffix: int(suffix or 1))
    refs = [(f"x{p}", f"y{p} domain") for p in panels] or [("x", "paper")]
    return _figure(data, {**layout, "shapes": [_marker(current_x, xr, yr) for xr, yr in refs]})


def sweep_charts(axis: str, fixed: tuple[tuple[str, float], ...], keys: tuple[str, ...], integer: bool,
                 log_base: float, beta: float, current_x: float):
    """(goodness figure, raw figure, curve, skipped) at the sliders' position, per the log base
    and β the measures see (``tables.settings_for``: β or the unit rebuilds nothing for measures
    that ignore them). The curves and the figures' specs are built once per sweep (the swept
    slider's own position is not part of it); moving that slider only redraws the markers.
    Figures are shared read-only: ``st.plotly_chart`` copies before encoding."""
    return _sweep_charts(axis, fixed, keys, integer, *settings_for(keys, log_base, beta), current_x)


@st.cache_resource(max_entries=128, show_spinner=False)
def _sweep_specs(axis: str, fixed: tuple[tuple[str, float], ...], keys: tuple[str, ...], integer: bool,
                 log_base: float, beta: float):
    curve, skipped = dom_sweep(axis, fixed, keys, integer, log_base, beta)
    texts = _hover_texts(curve)
    return (goodness_sweep_spec(curve, list(keys), axis, texts), raw_sweep_spec(curve, list(keys), axis, texts=texts),
            curve, skipped)


@st.cache_resource(max_entries=256, show_spinner=False)
def _sweep_charts(axis: str, fixed: tuple[tuple[str, float], ...], keys: tuple[str, ...], integer: bool,
                  log_base: float, beta: float, current_x: float):
    good, raw, curve, skipped = _sweep_specs(axis, fixed, keys, integer, log_base, beta)
    return _with_marker(good[0], good[1], current_x), _with_marker(raw[0], raw[1], current_x), curve, skipped


@lru_cache(maxsize=1)
def table2() -> dict:
    """Rosenberg & Hirschberg's printed Table 2 with provenance and our explanation of the
    differences (``assets/paper_values/rh2007_table2.json``)."""
    return resources.read_json("paper_values", "rh2007_table2.json")


def rate_keys(family: str) -> list[str]:
    """The measures of ``family`` that the grid's expected-count tables suit (every one but
    the integer-only AMI — ``dom_property_rates``' own default)."""
    return [k for k, m in metrics.MEASURES.items() if m.family == family and m.domain != "integer"]


@st.cache_data(max_entries=32, show_spinner=False)
def family_rates(family: str, log_base: float = math.e, beta: float = 1.0) -> pd.DataFrame:
    """``metrics.properties.dom_property_rates`` for one family's measures (about a second)."""
    keys = rate_keys(family)
    if not keys:
        return pd.DataFrame(columns=["measure", "property", "satisfied", "steps", "rate"])
    return properties.dom_property_rates(keys, log_base=log_base, beta=beta)


def property_rates(log_base: float = math.e, beta: float = 1.0) -> pd.DataFrame:
    """P1–P7 rates of every measure, family by family under a progress bar (instant once cached)."""
    fams = list(metrics.FAMILIES)
    bar = st.progress(0.0, text="Building the grid's tables and checking P1–P7 …")
    frames = []
    for i, fam in enumerate(fams):
        bar.progress(i / len(fams), text=f"P1–P7 over the grid: {metrics.FAMILIES[fam]} measures "
                                         f"({i + 1}/{len(fams)}) …")
        frames.append(family_rates(fam, log_base, beta))
    bar.empty()
    return pd.concat(frames, ignore_index=True)


def rates_matrix(rates: pd.DataFrame) -> pd.DataFrame:
    """Measures as rows (registry order, with symbol and family), P1–P7 as columns."""
    wide = properties.rates_table(rates).T
    wide.columns = list(wide.columns)
    out = pd.DataFrame({"measure": [metrics.MEASURES[k].name for k in wide.index],
                        "symbol": [metrics.MEASURES[k].symbol for k in wide.index],
                        "family": [metrics.FAMILIES[metrics.MEASURES[k].family] for k in wide.index]},
                       index=wide.index)
    return pd.concat([out, wide[list(properties.PROPERTIES)]], axis=1)


@st.cache_data(max_entries=32, show_spinner=False)
def failures(key: str, prop: str, log_base: float = math.e, beta: float = 1.0) -> pd.DataFrame:
    """The grid steps where measure ``key`` violates ``prop`` (``dom_property_failures``)."""
    return properties.dom_property_failures(key, prop, log_base=log_base, beta=beta)


PRINTED_DECIMALS = 2


def table2_comparison(rates: pd.DataFrame) -> pd.DataFrame:
    """One row per printed cell of Table 2: ``measure`` (the paper's name), ``key``,
    ``property``, ``ours``, ``printed`` and ``agrees`` — our rate rounds to the printed value
    at its two printed decimals."""
    t2 = table2()
    ours = rates.set_index(["measure", "property"])["rate"]
    rows = []
    for name, printed in t2["rates"].items():
        key = t2["measure_keys"][name]
        for prop, p in printed.items():
            v = float(ours.get((key, prop), math.nan))
            rows.append({"measure": name, "key": key, "property": prop, "ours": v, "printed": float(p),
                         "agrees": bool(round(v, PRINTED_DECIMALS) == round(float(p), PRINTED_DECIMALS))})
    return pd.DataFrame(rows, columns=["measure", "key", "property", "ours", "printed", "agrees"])


def explanations(comparison: pd.DataFrame) -> list[tuple[str, list[str]]]:
    """(why, cells) for every explanation in the JSON that covers at least one differing cell;
    cells as "Rand P1". A differing cell no explanation names gets its own entry."""
    diff = comparison[~comparison["agrees"]]
    out, covered = [], set()
    for entry in table2()["differences"]["cells"]:
        cells = [f"{r.measure} {r.property}" for r in diff.itertuples()
                 if r.measure in entry["measures"] and r.property in entry["properties"]]
        covered.update(cells)
        if cells:
            out.append((entry["why"], cells))
    rest = [f"{r.measure} {r.property}" for r in diff.itertuples() if f"{r.measure} {r.property}" not in covered]
    if rest:
        out.append(("No specific explanation recorded for these cells; see the general note.", rest))
    return out


def comparison_frames(comparison: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(ours, printed, differs): Table 2's layout — the paper's measures as rows, P1–P7 as columns."""
    order = list(dict.fromkeys(comparison["measure"]))
    props = list(dict.fromkeys(comparison["property"]))

    def wide(col):
        return comparison.pivot(index="measure", columns="property", values=col).loc[order, props]

    return wide("ours"), wide("printed"), ~wide("agrees").astype(bool)


# ---------------------------------------------------------------- display (no numbers made here)
DIFF_STYLE = "background-color: #ffd54f; font-weight: bold"


def rates_column_config() -> dict:
    """Each property column, headed by its name with the statement as help (the numbers and
    shading come from :func:`styled_rates`)."""
    return {p: st.column_config.NumberColumn(p, help=text, width="small") for p, text in properties.PROPERTIES.items()}


def _shade(rate) -> str:
    # White (0) to green (1): a rate read at a glance, the number in the cell read exactly.
    if rate is None or pd.isna(rate):
        return ""
    r = min(max(float(rate), 0.0), 1.0)
    mix = [round(255 + (c - 255) * r) for c in (0x9C, 0xD3, 0x8C)]
    return "background-color: #{:02x}{:02x}{:02x}".format(*mix)


def styled_rates(matrix: pd.DataFrame):
    """The rates matrix in the one number format (``format_number``: a rate of 0.99993 reads
    "1.000", not a perfect-looking "1.00"), each rate cell shaded by its value."""
    props = [p for p in properties.PROPERTIES if p in matrix.columns]
    return styled(matrix, columns=props).map(_shade, subset=props)


def styled_comparison(values: pd.DataFrame, differs: pd.DataFrame):
    """A 9 × 7 Table 2 frame in the one number format, the cells that differ from the other side
    (at the printed two decimals) highlighted."""
    return styled(values).apply(lambda _: np.where(differs.to_numpy(), DIFF_STYLE, ""), axis=None)


def show_explanations(comparison: pd.DataFrame) -> None:
    """Why our rates differ from the printed ones: per explanation, the cells it covers."""
    d = table2()["differences"]
    n_diff = int((~comparison["agrees"]).sum())
    st.markdown(f"**{n_diff} of {len(comparison)} printed cells differ** at the printed precision. Why:")
    for why, cells in explanations(comparison):
        st.markdown(f"- **{', '.join(cells)}** — {why}")
    st.caption(f"{d['general']} {d['setup']} ({d['source']})")
