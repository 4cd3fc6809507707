"""The Chance page's views: its vocabulary for links, choosing the table, the lesson's chart, reading
the page's state, the figures (built once per state) and what the page writes. The data they show —
random labelings drawn by :mod:`metrics.chance`, cached across sessions — is :mod:`dashboard.chance.data`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd
import streamlit as st

import metrics
from dashboard.chance import charts as chance_charts
from dashboard.chance.data import NullResult, sweep_summary
from dashboard.chance.vocabulary import (
    DEFAULT_SEED,
    DEFAULT_SWEEP,
    DEFAULT_SWEEP_KEYS,
    DEFAULT_TABLE,
    LAB,
    SWEEP_TAB,
    TAB_KEY,
    UPLOAD,
)
from dashboard.ui.presets import Preset
from dashboard.ui.readout import escape_markdown
from dashboard.ui.sources import lab_table
from dashboard.ui.state import kept, set_param, url_commit, url_state
from dashboard.ui.tables import to_contingency
from dashboard.ui.upload import upload_panel
from metrics.core.formatting import format_number


# ---------------------------------------------------------------- choosing the table
@dataclass(frozen=True)
class Picked:
    table: metrics.Contingency
    label: str


def table_picker(presets: dict[str, Preset]) -> Picked | None:
    """A preset, the Table lab's table or uploaded labels; the chosen table, or None with the
    reason shown. The choice is the URL's ``ch_t``; the Table lab's table travels in ``ch_table``
    (small tables only); an upload stays in this session."""
    options = list(presets) + [LAB, UPLOAD]
    names = {LAB: "The Table lab's table", UPLOAD: "Upload labels…"}
    url_state("ch_t", options, DEFAULT_TABLE["ch_t"], "table")
    choice = st.selectbox("Table", options, key="ch_t", format_func=lambda k: names.get(k) or presets[k].title,
                          help="Rows are gold classes, columns clusters: a preset from the papers, the table "
                               "you edited in the Table lab, or your own labels.")
    url_commit("ch_t", DEFAULT_TABLE["ch_t"])
    if choice == UPLOAD:
        set_param("ch_table", None)
        st.info("An uploaded file stays in this browser session: a link to this page does not carry it "
                "(opened elsewhere, the link asks for the file again).", icon=":material/link_off:")
        t = upload_panel("ch_upload")
        return Picked(t, "the uploaded labels") if t is not None else None
    if choice == LAB:
        table = lab_table("ch_table")
        if table is None:
            return None
        try:
            return Picked(to_contingency(table), "the Table lab's table")
        except ValueError as exc:
            st.error(f"The Table lab's table cannot be used: {escape_markdown(str(exc))}.")
            return None
    set_param("ch_table", None)
    p = presets[choice]
    st.caption(f"{escape_markdown(p.provenance)}.")
    return Picked(p.contingency(), p.title)


# ---------------------------------------------------------------- the lesson's chart
def lesson_figure(model: str = DEFAULT_SWEEP["ch_sm"], keys: tuple[str, ...] = tuple(DEFAULT_SWEEP_KEYS),
                  n: int = int(DEFAULT_SWEEP["ch_n"]), n_classes: int = int(DEFAULT_SWEEP["ch_r"]),
                  samples: int = int(DEFAULT_SWEEP["ch_sd"]), seed: int = DEFAULT_SEED, log_base: float = math.e,
                  beta: float = 1.0):
    """The page's key chart — scikit-learn's experiment: each measure of random clusterings
    against the number of clusters k, mean and band over ``samples`` draws per k — with type for
    the back of a room (nothing under 14 px). The data are the page's cached
    :func:`sweep_summary`, so the lesson and the page share one sampling run.
    :func:`lesson_params` with the same arguments gives the link that opens the page on it."""
    summary = sweep_summary(n, n_classes, model, samples, seed, log_base, beta, keys)
    return chance_charts.sweep_figure(summary, list(keys), n_classes=n_classes, large=True)


def lesson_params(model: str = DEFAULT_SWEEP["ch_sm"], keys: tuple[str, ...] = tuple(DEFAULT_SWEEP_KEYS),
                  n: int = int(DEFAULT_SWEEP["ch_n"]), n_classes: int = int(DEFAULT_SWEEP["ch_r"]),
                  samples: int = int(DEFAULT_SWEEP["ch_sd"]), seed: int = DEFAULT_SEED) -> dict:
    """The Chance page's query parameters for the state :func:`lesson_figure` draws (every one
    named, so the link determines the page; the sidebar's log base and β travel separately)."""
    return {TAB_KEY: SWEEP_TAB, "ch_sm": model, "ch_n": str(n), "ch_r": str(n_classes), "ch_sd": str(samples),
            "ch_seed": str(seed), "ch_m": list(keys)}


# ---------------------------------------------------------------- reading the page's state
def param_value(name: str, options, default: str) -> str:
    """The value of a page parameter whose widget this run does not draw (it sits on another
    tab): the URL's when it names an allowed one (the URL mirrors the page: each drawn widget
    writes its value there), else the session's kept value, else ``default``."""
    allowed = list(options)
    raw = st.query_params.get(name)
    if raw is not None and raw in allowed:
        return raw
    value = kept(name, default)
    return value if value in allowed else default


# ---------------------------------------------------------------- figures, built once per state
@st.cache_resource(max_entries=64, show_spinner=False)
def sweep_chart(n: int, n_classes: int, model: str, samples: int, seed: int, log_base: float, beta: float,
                keys: tuple[str, ...], _summary: pd.DataFrame):
    """``chance_charts.sweep_figure`` of ``_summary`` (= ``sweep_summary`` of the same
    parameters, which the key names), built once per state and shared read-only."""
    return chance_charts.sweep_figure(_summary, list(keys), n_classes=n_classes)


@st.cache_resource(max_entries=64, show_spinner=False)
def null_chart(cells: str, model: str, samples: int, seed: int, log_base: float, beta: float,
               keys: tuple[str, ...], _result: NullResult):
    """``chance_charts.null_figure`` of ``_result`` (= ``table_null`` of the table whose
    :func:`cells_key` is ``cells`` and the same parameters)."""
    return chance_charts.null_figure(_result.profile, _result.spread, list(keys), model=model, samples=samples)


@st.cache_resource(max_entries=32, show_spinner=False)
def ami_sweep_chart(n: int, n_classes: int, samples: int, seed: int, log_base: float, beta: float,
                    _summaries: dict[str, pd.DataFrame]):
    return chance_charts.ami_sweep_figure(_summaries, n_classes)


PROFILE_LABELS = {"expected": "expected (E)", "how": "E is", "stderr": "± std. error", "std": "spread (std)",
                  "p_value": "p-value"}
PROFILE_HELP = {
    "observed": "The measure of the chosen table.",
    "expected": "The measure's expectation under the random model: exact where a closed form exists, "
                "else the mean of the random labelings.",
    "how": "Exact (a closed form; ∞ when a random labeling the model can draw scores ∞) or Monte Carlo "
           "(the mean of the random labelings drawn; 'all draws equal' when every one scored the same).",
    "stderr": "Standard error of a Monte Carlo expectation (0 when exact; — when all draws were equal: equal "
              "draws give no error estimate).",
    "std": "Spread of the measure over the random labelings (sample standard deviation).",
    "z": "(observed − expected) / std.",
    "percentile": "Share of the random labelings below the observed value (ties count half), in the measure's "
                  "own units: for a lower-is-better measure a small percentile is good.",
    "p_value": "Share of the random labelings at least as good as the observed value (the permutation-test "
               "p-value of 'better than chance').",
    "adjusted": "(observed − expected) / (best − expected): 1 at the best value, 0 at chance, negative below it; "
                "— for measures without a finite best value (I).",
}


def sweep_sentence(summary: pd.DataFrame, keys: list[str]) -> str:
    """The chart in one computed line: each measure's mean at the smallest and the largest k."""
    first, last = int(summary["k"].min()), int(summary["k"].max())
    ends = summary[summary["k"].isin([first, last])].pivot(index="key", columns="k", values="mean")
    parts = [f"{escape_markdown(metrics.MEASURES[key].symbol)} {format_number(ends.at[key, first])} → "
             f"{format_number(ends.at[key, last])}" for key in keys if key in ends.index]
    return (f"Mean over the random labelings from k = {format_number(first)} to k = {format_number(last)}: "
            + " · ".join(parts) + ".")


def ami_sweep_sentence(summaries: dict[str, pd.DataFrame], n: int) -> str:
    """Per sweep model, for k < n: how far the AMI variants' means stray from 0, and where the
    NMI variants' means reach at the largest such k; then the values at k = n, if swept."""
    ami_keys = [a for _, _, a in chance_charts.NORMALISATIONS]
    nmi_keys = [b for _, b, _ in chance_charts.NORMALISATIONS]
    parts, at_n = [], None
    for model, s in summaries.items():
        inner = s[s["k"] < n]
        if inner.empty:
            continue
        stray = inner[inner["key"].isin(ami_keys)]["mean"].abs().max()
        top = inner[inner["k"] == inner["k"].max()]
        nmi = top[top["key"].isin(nmi_keys)].set_index("key")["mean"]
        parts.append(f"under {model} every AMI variant's mean stays within ±{format_number(stray)} of 0, while at "
                     f"k = {format_number(int(top['k'].iloc[0]))} the NMI variants reach {format_number(nmi.min())} "
                     f"({escape_markdown(metrics.MEASURES[nmi.idxmin()].symbol)}) to {format_number(nmi.max())} "
                     f"({escape_markdown(metrics.MEASURES[nmi.idxmax()].symbol)})")
        edge = s[(s["k"] >= n) & s["key"].isin(ami_keys)]
        if at_n is None and len(edge):
            at_n = edge.set_index("key")["mean"]
    text = "For k < n: " + "; ".join(parts) + "." if parts else ""
    if at_n is not None:
        text += (f" At k = n = {format_number(n)} every clustering puts each item alone — a single possible "
                 "clustering, nothing left to chance — and the AMI variants take their 0/0 values: "
                 + " · ".join(f"{escape_markdown(metrics.MEASURES[k].symbol)} {format_number(at_n[k])}"
                              for k in ami_keys if k in at_n.index) + ".")
    return text


def ami_table_sentence(rows: pd.DataFrame) -> str:
    """The per-table chart in computed words: the perm identity (adjusted NMI_x = AMI_x), and
    the arithmetic variant's chance level and adjusted NMI under each model."""
    if rows.empty:
        return ""
    out = []
    perm = rows[rows["model"] == "perm"]
    if len(perm):
        gap = (perm["adjusted_nmi"] - perm["ami"]).abs().max()
        out.append(f"Under perm, NMI\\_x adjusted for chance is AMI\\_x (largest difference over the four: "
                   f"{format_number(gap)}).")
    arith = rows[rows["normalisation"] == "arithmetic"]
    out.append("Arithmetic normalisation (scikit-learn's default), by model — chance's score on AMI: "
               + " · ".join(f"{m} {format_number(e)}" + (" (exact)" if ex else f" ± {format_number(se)}")
                            for m, e, ex, se in zip(arith["model"], arith["expected_ami"],
                                                    arith["expected_ami_exact"], arith["expected_ami_stderr"]))
               + "; NMI adjusted: " + " · ".join(f"{m} {format_number(v)}"
                                                 for m, v in zip(arith["model"], arith["adjusted_nmi"])) + ".")
    return " ".join(out)
