"""The Property checker's views: Wu et al.'s properties of one measure with their evidence, demos
that scale, transpose, split and merge a table, VI's range against NVI's, and the matrix of every
measure × property beside Wu et al.'s printed Table 12.

The checks are ``metrics.properties.check_properties`` / ``properties_table``; the tables of
the demos come from ``metrics.papers.generators`` (``scale``, ``split``, ``merge``, ``perfect``,
``solution_r``, ``singletons``, ``single_cluster``) and their values from ``metrics``. Nothing here
computes a measure or decides a property: this module calls ``metrics``, lays out and draws.

References: [Wu09] Wu, Xiong & Chen (2009), KDD, §5.2 and Table 12. [Mei07] Meilă (2007),
J. Multivariate Anal. 98. [RR09] Reichart & Rappoport (2009), CoNLL, §1 and §5.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import metrics
from dashboard.generator.views import DIFF_STYLE, PALETTE
from dashboard.ui.figures.charts import figure, fmt
from dashboard.ui.readout import escape_label, for_table
from dashboard.ui.tables import fingerprint, settings_for
from metrics import properties
from metrics.core.formatting import frame_csv
from metrics.papers import generators, resources

# check_properties' names → (label, title, statement). Statements paraphrase [Wu09] §5.2. Wu et al.
# number these P1–P5 (Table 12); Dom's and Rosenberg & Hirschberg's P1–P7 (the Generator lab) are
# different properties, so the app shows Wu's as W1–W5 and names the printed number beside them.
WU_PROPERTIES: dict[str, tuple[str, str, str]] = {
    "symmetry": ("W1", "Symmetry", "O(Mᵀ) = O(M): swapping classes and clusters changes nothing."),
    "n_invariance": ("W2", "n-invariance", "O(λM) = O(M) for a positive integer λ: only proportions matter."),
    "convex_additivity": ("W3", "Convex additivity",
                          "For a partition P and a refinement P′: O(M(P, P′)) = Σₗ (nₗ/n)·O(Mₗ), where Mₗ "
                          "compares block l of P, as one class, with its parts in P′ — the value is the "
                          "size-weighted mean over P's blocks (Meilă 2007)."),
    "left_domain_complete": ("W4", "Left-domain completeness",
                             "Statistically independent rows and columns get the worst value: 0 for a "
                             "higher-is-better measure, 1 for a lower-is-better one."),
    "right_domain_complete": ("W5", "Right-domain completeness",
                              "A perfect match gets the best value: 1 for a higher-is-better measure, 0 for a "
                              "lower-is-better one."),
}
METRIC_AXIOMS = {"identity": ("Identity", "d(X, X) = 0"),
                 "symmetry": ("Symmetry", "d(X, Y) = d(Y, X)"),
                 "triangle": ("Triangle inequality", "d(X, Z) ≤ d(X, Y) + d(Y, Z)")}
# Short column titles (the caption spells them out), so eight columns fit beside the names.
MATRIX_COLUMNS = {"symmetry": "W1 symm.", "n_invariance": "W2 n-inv.", "convex_additivity": "W3 convex",
                  "left_domain_complete": "W4 left", "right_domain_complete": "W5 right",
                  "metric_identity": "d(X,X)=0", "metric_symmetry": "d symm.", "metric_triangle": "triangle"}
# How evidence fields read on the page.
EVIDENCE_LABELS = {
    "value": "M(table)", "value_transposed": "M(tableᵀ)", "factor": "λ", "value_scaled": "M(λ·table)",
    "weighted_sum_of_blocks": "Σ_l (n_l/n)·M(block l)", "target": "the property's value", "orientation": "coarse side",
    "d(X,X)": "d(X, X)", "d(X,Y)": "d(X, Y)", "d(Y,X)": "d(Y, X)", "d(Y,Z)": "d(Y, Z)", "d(X,Z)": "d(X, Z)",
}
ORIENTATIONS = {"classes_coarse": "the classes are the coarse partition P", "clusters_coarse":
                "the clusters are the coarse partition P (transposed)"}
MARK = {True: "✓", False: "✗", None: "—"}


# ====================================================================== one measure, live
# The matrix's cases (seed 0, 200 per property): with these, a measure's live check is its
# family's entry of the matrix's own ``check_many`` (the same seeded cases, so the same result).
MATRIX_SEED, MATRIX_TRIALS = 0, 200


def checks(key: str, seed: int = 0, trials: int = 200) -> dict:
    """``metrics.properties.check_properties(key, seed=seed, trials=trials)``: at the matrix's
    seed and trials, read from the checks of the measure's family that the matrix below is built
    from (so choosing another measure computes nothing); at another seed, checked alone and
    cached per measure and seed. The entry is shared: read it, never change it."""
    if (seed, trials) == (MATRIX_SEED, MATRIX_TRIALS):
        return family_checks(metrics.MEASURES[key].family, seed, trials)[key]
    return _checks_alone(key, seed, trials)


@st.cache_data(max_entries=256, show_spinner=False)
def _checks_alone(key: str, seed: int, trials: int) -> dict:
    return properties.check_properties(key, seed=seed, trials=trials)


def _scalars(ev: dict) -> list[tuple[str, str]]:
    return [(EVIDENCE_LABELS.get(k, k), fmt(float(v)) if isinstance(v, float) else str(v))
            for k, v in ev.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]


def show_evidence(ev: dict) -> None:
    """A counterexample: its numbers, its labelings, and its table(s) (rows C, columns K), drawn
    whole with ``st.table`` (they are at most a few rows and columns)."""
    lead = [ORIENTATIONS.get(v, v) for v in ev.values() if isinstance(v, str)]
    scalars = _scalars(ev)
    if scalars:
        st.markdown((f"Here {lead[0]}: " if lead else "") + " · ".join(f"{name} = **{val}**" for name, val in scalars))
    if "labelings" in ev:
        st.markdown("Labelings: " + "; ".join(f"{name} = {lab}" for name, lab in ev["labelings"].items()))
    tables = {"counterexample": ev["table"]} if isinstance(ev.get("table"), pd.DataFrame) else {}
    tables.update(ev.get("tables") or {})
    cols = st.columns(max(1, len(tables)))
    for col, (name, frame) in zip(cols, tables.items()):
        with col:
            st.caption(f"Table {name}" if name != "counterexample" else "Counterexample table")
            st.table(for_table(frame))


def show_check(name: str, entry: dict) -> None:
    """One of Wu's properties for the measure: verdict, what was tried, the evidence."""
    number, title, statement = WU_PROPERTIES[name]
    with st.container(border=True):
        verdict = (f"holds on all {entry['checked']} seeded cases" if entry["holds"]
                   else f"fails — counterexample below ({entry['checked']} seeded cases)")
        st.markdown(f"{MARK[entry['holds']]} **{title}** ({number}: Wu et al.'s {WU_PRINTED[name]}) — {verdict}")
        st.caption(statement)
        notes = []
        if "registry" in entry:
            agree = entry["registry"] == entry["holds"]
            notes.append(f"The registry's flag says {'yes' if entry['registry'] else 'no'}"
                         + (" — agreed." if agree else " — **the check disagrees**."))
        if "range" in entry:
            lo, hi = entry["range"]
            notes.append(f"Expected {fmt(entry['target'])} on every case; values seen from {fmt(lo)} to {fmt(hi)}.")
        if "orientations" in entry:
            notes.append("; ".join(f"{ORIENTATIONS[o]}: {MARK[h]}" for o, h in entry["orientations"].items()) + ".")
        for note in notes:
            st.markdown(note)
        if entry.get("evidence"):
            show_evidence(entry["evidence"])


def show_metric(entry: dict | None) -> None:
    """The metric axioms of a distance (None for higher-is-better measures)."""
    if entry is None:
        st.caption("The metric axioms apply to distances only (lower is better); this measure is a similarity.")
        return
    with st.container(border=True):
        st.markdown(f"{MARK[entry['holds']]} **Metric axioms** — on {entry['checked']} random triples of "
                    "labelings (3–10 items, 1–4 labels), every ordering")
        for ax, (title, statement) in METRIC_AXIOMS.items():
            e = entry[ax]
            st.markdown(f"{MARK[e['holds']]} {title}: {statement}")
            if e.get("evidence"):
                show_evidence(e["evidence"])


# ====================================================================== demos
# The curves and charts below are cached under the log base and β their measures see
# (``tables.settings_for``): moving β or the unit recomputes only what depends on it.
def scale_curve(t: metrics.Contingency, key: str, factors: tuple[int, ...], log_base: float,
                beta: float) -> pd.DataFrame:
    """M(λ·table) for each λ (``properties.sweep`` over ``generators.scale``)."""
    return _scale_curve(t, key, factors, *settings_for([key], log_base, beta))


@st.cache_data(max_entries=128, show_spinner=False, hash_funcs={metrics.Contingency: fingerprint})
def _scale_curve(t: metrics.Contingency, key: str, factors: tuple[int, ...], log_base: float,
                 beta: float) -> pd.DataFrame:
    return properties.sweep(generators.scale, "factor", list(factors), [key], log_base=log_base, beta=beta, t=t)


def split_curve(t: metrics.Contingency, cluster: str, key: str, parts: tuple[int, ...], log_base: float,
                beta: float) -> pd.DataFrame:
    """M after splitting ``cluster`` into k equal parts, for each k (``generators.split``)."""
    return _split_curve(t, cluster, key, parts, *settings_for([key], log_base, beta))


@st.cache_data(max_entries=128, show_spinner=False, hash_funcs={metrics.Contingency: fingerprint})
def _split_curve(t: metrics.Contingency, cluster: str, key: str, parts: tuple[int, ...], log_base: float,
                 beta: float) -> pd.DataFrame:
    return properties.sweep(generators.split, "parts", list(parts), [key], log_base=log_base, beta=beta, t=t,
                            cluster=cluster)


def line_figure(x, y, x_title: str, y_title: str, current_x=None, name: str = "", log_x: bool = False,
                height: int = 260) -> go.Figure:
    """One measure along one parameter, the chosen value dashed."""
    y = [float(v) for v in y]
    finite = [v for v in y if math.isfinite(v)]
    # Plotly would zoom a flat line into its floating-point noise (1.9427000000000001 …): keep a
    # visible span around the values.
    lo, hi = (min(finite), max(finite)) if finite else (0.0, 1.0)
    pad = max(0.1 * (hi - lo), 0.02 * max(abs(lo), abs(hi)), 1e-3)
    x_title, y_title, x = escape_label(x_title), escape_label(y_title), list(x)
    # Six significant digits in the hover: this chart shows whether a value moves (n-invariance,
    # a split), and a move can sit in the fifth digit.
    data = [{"type": "scatter", "mode": "lines+markers", "x": x, "y": y, "name": escape_label(name),
             "line": {"color": PALETTE[0]},
             "customdata": [[fmt(a), fmt(b, 6)] for a, b in zip(x, y)],
             "hovertemplate": f"{x_title} = %{{customdata[0]}}<br>{y_title} = %{{customdata[1]}}<extra></extra>"}]
    shapes = []
    if current_x is not None:
        shapes.append({"type": "line", "xref": "x", "yref": "paper", "x0": current_x, "x1": current_x, "y0": 0,
                       "y1": 1, "line": {"color": "#444", "dash": "dash", "width": 1}})
    layout = {"height": height, "margin": {"l": 10, "r": 10, "t": 20, "b": 40}, "shapes": shapes,
              "xaxis": {"title": {"text": x_title}, "type": "log" if log_x else "linear"},
              "yaxis": {"title": {"text": y_title}, "range": [lo - pad, hi + pad]},
              "showlegend": False}
    return figure(data, layout)


# ---------------------------------------------------------------- VI's range against NVI's
# The demos' tabs are bound to the URL parameter TAB_KEY (its value is the label); links to the
# range demo (the lesson, Home) name RANGE_TAB. Only the open tab runs.
TAB_KEY, RANGE_TAB = "p_tab", "VI's range grows with n"
SCALE_TAB, TRANSPOSE_TAB, SPLIT_TAB = "n-invariance: scale", "Symmetry: transpose", "Convex additivity: split / merge"
DEMO_TABS = [SCALE_TAB, TRANSPOSE_TAB, SPLIT_TAB, RANGE_TAB]
CLASS_SIZE = 10       # [RR09] §5: classes of 10 items
R_NOISE = 3           # solution R's noise in [RR09] Table 1
RANGE_CLASSES = (2, 3, 4, 5, 10, 20, 50, 100, 200)
REFERENCE_SOLUTIONS = {
    "single cluster": lambda m: generators.single_cluster([CLASS_SIZE] * m),
    "singletons": lambda m: generators.singletons([CLASS_SIZE] * m),
    f"solution R ({R_NOISE} noise items per class)": lambda m: generators.solution_r(m, CLASS_SIZE, R_NOISE),
    "perfect": lambda m: generators.perfect([CLASS_SIZE] * m),
}


def range_curve(keys: tuple[str, ...], log_base: float = math.e, beta: float = 1.0) -> pd.DataFrame:
    """Reichart & Rappoport's reference solutions on m classes of 10 items for growing m (n = 10m):
    a long table ``solution, classes, n, key, value``. Solution R needs more classes than noise
    items per class, so it starts at m = 4."""
    return _range_curve(keys, *settings_for(keys, log_base, beta))


@st.cache_data(max_entries=64, show_spinner=False)
def _range_curve(keys: tuple[str, ...], log_base: float, beta: float) -> pd.DataFrame:
    rows: list[dict] = []
    for label, make in REFERENCE_SOLUTIONS.items():
        for m in RANGE_CLASSES:
            try:
                t = make(m)
            except ValueError:
                continue
            values = metrics.evaluate(t, list(keys), log_base=log_base, beta=beta)
            rows.extend({"solution": label, "classes": m, "n": t.n, "key": k, "value": values.get(k, math.nan)}
                        for k in keys)
    return pd.DataFrame(rows, columns=["solution", "classes", "n", "key", "value"])


def range_chart(keys: tuple[str, ...], log_base: float = math.e, beta: float = 1.0) -> go.Figure:
    """:func:`range_figure` of :func:`range_curve`, built once per measures and settings they see."""
    return _range_chart(keys, *settings_for(keys, log_base, beta))


# Shared read-only: st.plotly_chart copies a figure before encoding it.
@st.cache_resource(max_entries=64, show_spinner=False)
def _range_chart(keys: tuple[str, ...], log_base: float, beta: float) -> go.Figure:
    return range_figure(_range_curve(keys, log_base, beta), list(keys))


def range_figure(curve: pd.DataFrame, keys: list[str]) -> go.Figure:
    """One panel per measure: each reference solution's value against n (log axis)."""
    n = len(keys)
    gap = 0.06
    data: list[dict] = []
    layout: dict[str, Any] = {}
    annotations: list[dict] = []
    sols = list(dict.fromkeys(curve["solution"]))
    groups = {ks: (g["n"].tolist(), g["classes"].tolist(), g["value"].tolist())
              for ks, g in curve.groupby(["key", "solution"], sort=False)}
    for i, k in enumerate(keys):
        m = metrics.MEASURES[k]
        ax = "" if i == 0 else str(i + 1)
        x0, x1 = i / n + (gap / 2 if i else 0), (i + 1) / n - (gap / 2 if i < n - 1 else 0)
        layout[f"xaxis{ax}"] = {"domain": [x0, x1], "anchor": f"y{ax}", "type": "log", "dtick": 1,
                                 "title": {"text": "n items"}}
        layout[f"yaxis{ax}"] = {"domain": [0, 0.88], "anchor": f"x{ax}", "rangemode": "tozero"}
        for j, sol in enumerate(sols):
            ns, classes, values = groups.get((k, sol), ([], [], []))
            data.append({"type": "scatter", "mode": "lines+markers", "name": escape_label(sol),
                         "legendgroup": escape_label(sol), "showlegend": i == 0, "x": ns,
                         "y": values, "xaxis": f"x{ax}", "yaxis": f"y{ax}",
                         "line": {"color": PALETTE[j % len(PALETTE)]},
                         "customdata": [[fmt(n), fmt(c), fmt(v)] for n, c, v in zip(ns, classes, values)],
                         "hovertemplate": f"%{{fullData.name}}<br>n = %{{customdata[0]}} (%{{customdata[1]}} "
                                          f"classes)<br>{escape_label(m.symbol)} = %{{customdata[2]}}<extra></extra>"})
        arrow = "↑" if m.higher_is_better else "↓"
        annotations.append({"text": f"<b>{escape_label(m.symbol)}</b> ({arrow} better)", "xref": f"x{ax} domain",
                            "yref": "paper", "x": 0.5, "y": 0.9, "yanchor": "bottom", "showarrow": False})
    layout.update({"height": 380, "annotations": annotations, "margin": {"l": 10, "r": 10, "t": 40, "b": 40},
                   "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0}})
    return figure(data, layout)


# ====================================================================== the matrix
@lru_cache(maxsize=1)
def table12() -> dict:
    """Wu et al.'s printed Table 12 with provenance and our explanation of the differences
    (``assets/paper_values/wu2009_table12.json``)."""
    return resources.read_json("paper_values", "wu2009_table12.json")


# check_properties' names → the number Wu et al. print (Table 12's columns P1–P5), and back.
WU_PRINTED = {k: "P" + v[0].removeprefix("W") for k, v in WU_PROPERTIES.items()}
WU_COLUMN = {printed: k for k, printed in WU_PRINTED.items()}


def printed_cells() -> dict[tuple[str, str], tuple[str, str, bool]]:
    """(measure key, property) → (Wu's name, printed text, whether the print says the property
    holds on the check's tables), read as the JSON's ``differences.reading`` says: Yes* means
    yes for the un-normalized measure and no for the normalized one; Yes** (only for K = K′) is
    a no on tables with K ≠ K′."""
    t = table12()
    out = {}
    for name, row in t["table"].items():
        key = t["measure_keys"][name]
        for col, text in row.items():
            prop = WU_COLUMN[col]
            out[(key, prop)] = (name, text, text == "Yes")
            if text == "Yes*":
                out[(t["unnormalized_keys"][name], prop)] = (name, text, True)
    return out


def family_keys(family: str) -> list[str]:
    return [k for k, m in metrics.MEASURES.items() if m.family == family]


# Shared read-only (st.cache_resource): the checks hold each counterexample's tables, which
# st.cache_data would unpickle on every rerun.
@st.cache_resource(max_entries=16, show_spinner=False)
def family_checks(family: str, seed: int = 0, trials: int = 200) -> dict[str, dict]:
    """``metrics.properties.check_many`` of one family's measures (up to half a second)."""
    return properties.check_many(family_keys(family), seed=seed, trials=trials)


@st.cache_data(max_entries=16, show_spinner=False)
def family_properties(family: str, seed: int = 0, trials: int = 200) -> pd.DataFrame:
    """``metrics.properties.properties_table`` for one family, from :func:`family_checks`."""
    return properties.properties_frame(family_checks(family, seed, trials))


# Shared read-only (only show_matrix reads it), not copied out of st.cache_data and joined
# from five cached frames on every rerun of the page. The spinner shows only on a miss, which the
# server's start takes (dashboard/server/warm.py computes the families' checks).
@st.cache_resource(max_entries=4, show_spinner="Checking every measure's properties (once per server) …")
def properties_matrix_long(seed: int = MATRIX_SEED, trials: int = MATRIX_TRIALS) -> pd.DataFrame:
    """``properties_table`` of every measure, family by family."""
    return pd.concat([family_properties(fam, seed, trials) for fam in metrics.FAMILIES], ignore_index=True)


def matrix_frames(long: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(cells, printed, disagrees): measures as rows (symbol — name), properties as columns.

    ``cells`` holds ✓/✗/— and, where Wu et al. printed the cell, their entry ("✓ · Wu: Yes");
    ``printed`` whether a cell was printed; ``disagrees`` where the print and the check differ.
    """
    printed = printed_cells()
    wide = long.pivot(index="measure", columns="property", values="holds")
    order = list(dict.fromkeys(long["measure"]))
    wide = wide.loc[order, list(MATRIX_COLUMNS)]
    cells = wide.copy().astype(object)
    was_printed = pd.DataFrame(False, index=wide.index, columns=wide.columns)
    disagrees = pd.DataFrame(False, index=wide.index, columns=wide.columns)
    for key in wide.index:
        for prop in wide.columns:
            v = wide.at[key, prop]
            holds = None if v is None or (isinstance(v, float) and math.isnan(v)) else bool(v)
            text = MARK[holds]
            if (key, prop) in printed:
                _, ptext, pholds = printed[(key, prop)]
                text += f" (Wu: {ptext})"
                was_printed.at[key, prop] = True
                disagrees.at[key, prop] = holds is not None and holds != pholds
            cells.at[key, prop] = text
    for f in (cells, was_printed, disagrees):
        f.index = [metrics.MEASURES[k].symbol for k in wide.index]
        f.columns = [MATRIX_COLUMNS[c] for c in wide.columns]
    # The measure's name as the first column (unstyled, never printed by Wu).
    names = [metrics.MEASURES[k].name for k in wide.index]
    cells.insert(0, "measure", names)
    was_printed.insert(0, "measure", False)
    disagrees.insert(0, "measure", False)
    return cells, was_printed, disagrees


PRINTED_STYLE = "background-color: #e3f2fd"
MATRIX_CONFIG = {"measure": st.column_config.TextColumn("Measure", width="medium")}


@st.cache_data(max_entries=4, show_spinner=False)
def show_matrix(seed: int, trials: int, _long: pd.DataFrame) -> tuple[list[tuple[str, list[str]]], bytes]:
    """Draw the matrix of ``_long`` (:func:`properties_matrix_long` of ``seed`` and ``trials``)
    and return :func:`wu_explanations` and the matrix as CSV. Cached with the element it draws: Streamlit replays
    the drawn table on later reruns instead of rendering ~500 styled cells again (the matrix
    depends on nothing a reader changes)."""
    cells, was_printed, disagrees = matrix_frames(_long)
    st.dataframe(styled_matrix(cells, was_printed, disagrees), key="pc_matrix", width="stretch",
                 height=38 + 35 * min(len(cells), 18), column_config=MATRIX_CONFIG)
    return wu_explanations(_long), frame_csv(_long, index=False)


def styled_matrix(cells: pd.DataFrame, was_printed: pd.DataFrame, disagrees: pd.DataFrame):
    def style(_):
        return np.where(disagrees.to_numpy(), DIFF_STYLE, np.where(was_printed.to_numpy(), PRINTED_STYLE, ""))
    return cells.style.apply(style, axis=None)


def wu_explanations(long: pd.DataFrame) -> list[tuple[str, list[str]]]:
    """(why, cells) for the JSON's explanations that cover a disagreeing cell, plus any
    disagreeing cell no explanation names."""
    t = table12()
    printed = printed_cells()
    holds = long.set_index(["measure", "property"])["holds"]
    bad = [(key, prop) for (key, prop), (_, _, p) in printed.items()
           if holds.get((key, prop)) is not None and bool(holds[(key, prop)]) != p]
    out, covered = [], set()
    for entry in t["differences"]["cells"]:
        cells = [(k, p) for k, p in bad
                 if printed[(k, p)][0] in entry["measures"] and WU_PRINTED[p] in entry["properties"]]
        covered.update(cells)
        if cells:
            out.append((entry["why"], [f"{printed[c][0]} {WU_PROPERTIES[c[1]][0]}" for c in cells]))
    rest = [c for c in bad if c not in covered]
    if rest:
        out.append(("No explanation recorded for these cells.", [f"{printed[c][0]} {WU_PROPERTIES[c[1]][0]}"
                                                                 for c in rest]))
    return out
