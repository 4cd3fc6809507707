"""The Property checker's "choose a measure" view: Gösgens, Tikhonov & Prokhorenkova's properties
(ICML 2021) of every measure, the measures that have the properties a task needs, and each
verdict's evidence — the counterexample's tables, or the proof reference, or the search that found
no counterexample (never shown as a proof).

Everything is read from ``metrics.properties`` (``gosgens_evidence``, ``gosgens_verdict``,
``gosgens_disagreements``): this module selects rows, lays out and draws.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

import metrics
from dashboard.ui.readout import escape_markdown, format_number
from metrics import properties

PROPERTIES = properties.GOSGENS_PROPERTIES
# Names on the page (the library's keys are snake_case).
PROPERTY_LABELS = {
    "max_agreement": "maximal agreement",
    "min_agreement": "minimal agreement",
    "symmetric": "symmetric",
    "distance": "a distance",
    "local_monotonicity": "local monotonicity",
    "strong_monotonicity": "strong monotonicity",
    "constant_baseline": "constant baseline",
    "asymptotic_constant_baseline": "asymptotic constant baseline",
}
# A verdict's state (metrics.properties.gosgens_evidence) → its mark in the tables.
MARKS = {"yes (proved)": "✓", "yes? (no counterexample)": "✓?", "no (counterexample)": "✗", "n/a": "—"}
DEFAULT_EVIDENCE = ("pair_correlation", "max_agreement")
RECONSTRUCTION_NOTE = (
    "The paper's own table could not be read when this was built: the column \"paper\" and every proof that "
    "cites Gösgens et al. come from a **reconstruction** (from the paper's abstract and introduction, the "
    "authors' code and well-known results — `metrics.properties.gosgens_paper`), not from the published table.")


@st.cache_resource(show_spinner="Searching every measure for Gösgens et al.'s properties (once per server) …")
def evidence() -> pd.DataFrame:
    """``metrics.properties.gosgens_evidence()`` of every measure: computed once per server (about ten
    seconds; the server's warm-up runs it). Shared: read it, never change it."""
    return properties.gosgens_evidence(budget=None)


@st.cache_resource(show_spinner=False)
def disagreements() -> pd.DataFrame:
    """``metrics.properties.gosgens_disagreements()``, read from the same run as :func:`evidence`."""
    evidence()
    return properties.gosgens_disagreements(budget=None)


def marks_of(key: str) -> dict[str, str]:
    """``{property: state}`` of one measure."""
    ev = evidence()
    rows = ev[ev["measure"] == key]
    return dict(zip(rows["property"], rows["state"]))


def summary_line(key: str) -> str:
    """One measure's Gösgens et al. properties in a sentence of the page."""
    states = marks_of(key)
    has = [PROPERTY_LABELS[p] + (" (no counterexample found, not proved)" if states[p].startswith("yes?") else "")
           for p in PROPERTIES if states[p].startswith("yes")]
    lacks = [PROPERTY_LABELS[p] for p in PROPERTIES if states[p].startswith("no")]
    m = metrics.MEASURES[key]
    return (f"**Gösgens et al.'s properties of {escape_markdown(m.symbol)}:** "
            + (", ".join(has) if has else "none") + (f"; it lacks {', '.join(lacks)}." if lacks else "."))


def choose(need: list[str], proved_only: bool) -> pd.DataFrame:
    """See :func:`_choose` (shared across sessions: it depends only on its arguments)."""
    return _choose(tuple(need), proved_only).copy()


@st.cache_data(max_entries=64, show_spinner=False)
def _choose(need: tuple[str, ...], proved_only: bool) -> pd.DataFrame:
    """The measures that have every property of ``need`` (all measures when it is empty): holding it
    by proof, or — unless ``proved_only`` — also with no counterexample found. One row per measure
    (registry order, most properties first): key, measure, how many of the eight it has, then a mark
    per property (✓ proved, ✓? no counterexample found, ✗ counterexample, — not applicable)."""
    ev = evidence()
    state = ev.pivot(index="measure", columns="property", values="state")
    kind = ev.pivot(index="measure", columns="property", values="kind")
    holds = ev.pivot(index="measure", columns="property", values="holds").astype(object)
    keys = [k for k in metrics.MEASURES if k in state.index]
    good = (kind == "proof") if proved_only else holds.eq(True)
    chosen = [k for k in keys if all(bool(good.at[k, p]) for p in need)]
    rows = []
    for k in chosen:
        m = metrics.MEASURES[k]
        row = {"key": k, "measure": f"{m.symbol} — {m.name}",
               "has": int(sum(bool(good.at[k, p]) for p in PROPERTIES))}
        row.update({PROPERTY_LABELS[p]: MARKS[state.at[k, p]] for p in PROPERTIES})
        rows.append(row)
    frame = pd.DataFrame(rows, columns=["key", "measure", "has", *PROPERTY_LABELS.values()])
    return frame.sort_values("has", ascending=False, kind="stable").reset_index(drop=True)


def show_verdict(key: str, prop: str) -> None:
    """One verdict and its evidence: the state, the reference or the search, the reconstructed paper's
    cell where it covers the measure, and the counterexample itself (tables with the values they give,
    labelings, margins with their exact expectations, pair counts, or the limits of each regime)."""
    v = properties.gosgens_verdict(key, prop)
    m = metrics.MEASURES[key]
    ev = evidence()
    paper = ev[(ev["measure"] == key) & (ev["property"] == prop)]["paper"].iloc[0]
    st.markdown(f"**{escape_markdown(m.symbol)} — {PROPERTY_LABELS[prop]}: {MARKS[v.state]} {v.state}.** "
                + escape_markdown(properties.PROPERTY_DEFINITIONS[prop]))
    st.markdown(("Proof: " if v.kind == "proof" else "Counterexample: " if v.kind == "counterexample"
                 else "Search: " if v.kind == "no_counterexample" else "") + escape_markdown(v.detail))
    if paper is not None:
        agree = "agrees" if bool(paper) == bool(v.holds) else "**disagrees**"
        st.caption(f"The reconstructed paper table says {'yes' if paper else 'no'}: our verdict {agree}.")
    example = v.example or {}
    tables, values = example.get("tables"), example.get("values")
    if tables:
        cols = st.columns(min(len(tables), 3))
        for i, table in enumerate(tables):
            with cols[i % len(cols)]:
                if values and i < len(values):
                    label = f"{m.symbol} = {format_number(values[i])}"
                elif "d" in example:  # the triangle: d(X, Y), d(Y, Z), d(X, Z) of the labelings below
                    label = f"{('X vs Y', 'Y vs Z', 'X vs Z')[i]}: d = {format_number(example['d'][i])}"
                else:
                    label = "table"
                st.caption(escape_markdown(label))
                st.dataframe(table, key=f"p_ev_table_{i}")
    if isinstance(example.get("labelings"), dict):
        st.dataframe(pd.DataFrame(example["labelings"]), key="p_ev_labelings")
    if "margins" in example:
        st.dataframe(pd.DataFrame({"class sizes": [str(a) for a, _ in example["margins"]],
                                   "cluster sizes": [str(b) for _, b in example["margins"]],
                                   f"E[{m.symbol}] (exact)": example["expected"]}), key="p_ev_margins")
    if "counts" in example:
        st.dataframe(pd.DataFrame(example["counts"], columns=["N11", "N10", "N01", "N00"]).assign(
            **{m.symbol: example["values"]}), key="p_ev_counts")
    if "points" in example:
        st.dataframe(pd.DataFrame([{"margin regime": k, "E (limit)": v_[0], "± error": v_[1]}
                                   for k, v_ in example["points"].items()]), key="p_ev_points")
