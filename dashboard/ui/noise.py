"""Noise items (DBSCAN's and HDBSCAN's −1) in uploaded clusterings: the question the upload panels
ask when a cluster column holds −1, and the three readings side by side.

The readings are :mod:`metrics`' (``Contingency.from_labels(noise=, noise_as=)``,
``metrics.core.labels.table_with_noise``, ``compare_solutions(noise=, noise_as=)``): this module
only asks and shows.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

import metrics
from dashboard.ui.readout import format_number
from metrics.core.labels import NOISE_READINGS, find_noise_label, table_with_noise

NOISE_TOKEN = -1
READING_NAMES = {"cluster": "one cluster", "singletons": "each its own cluster", "exclude": "left out"}
READING_HELP = ("How a measure should count items a clustering leaves unclustered (label −1). "
                "One cluster: the labels as they are — what every other tool does, silently: the noise items "
                "form one big cluster. Each its own cluster: every noise item is a singleton (no pair of noise "
                "items is put together). Left out: the noise items are not scored; the coverage (share of items "
                "scored) then matters as much as the measures.")


def noise_label(labels) -> object | None:
    """The label among ``labels`` (distinct labels) that is −1, as text or number, or None."""
    return find_noise_label(labels, NOISE_TOKEN)


def reading_control(key: str, what: str, restore=None, keep=None) -> str:
    """The question: how to read the −1 items ``what`` describes (``restore``/``keep``: the upload
    panel's way of keeping a widget's value while it is not drawn). Returns the reading."""
    if restore is not None:
        restore(key, "cluster", list(NOISE_READINGS))
    elif st.session_state.get(key) not in NOISE_READINGS:
        st.session_state[key] = "cluster"
    reading = st.radio(f"{what} labelled −1, as DBSCAN and HDBSCAN label noise. Read them as",
                       list(NOISE_READINGS), key=key, horizontal=True, format_func=READING_NAMES.__getitem__,
                       help=READING_HELP)
    if keep is not None:
        keep(key)
    return str(reading)


def noise_caption(t: metrics.Contingency) -> str:
    """What a table's noise reading did, in words."""
    text = (f"{format_number(t.noise_count)} noise item(s) ({t.noise_share:.1%} of the items), read as "
            f"{READING_NAMES[t.noise_as]}")
    if t.noise_as == "exclude":
        text += f": {t.coverage:.1%} of the items are scored (the coverage)"
    return text + "."


def table_readings(t: metrics.Contingency, label) -> dict[str, metrics.Contingency]:
    """The three readings of table ``t`` (its −1 cluster ``label`` as it is): reading → table.
    A reading that leaves nothing (every item noise, left out) is missing."""
    out = {}
    for reading in NOISE_READINGS:
        try:
            out[reading] = table_with_noise(t, label, reading)
        except ValueError:
            continue
    return out


def readings_frame(values: dict[str, dict[str, float]], keys: list[str]) -> pd.DataFrame:
    """Measures × readings: ``values[reading][key]`` side by side, one row per measure."""
    rows = []
    for k in keys:
        m = metrics.MEASURES[k]
        rows.append({"measure": m.name, "symbol": m.symbol, "better": "↑" if m.higher_is_better else "↓",
                     **{READING_NAMES[r]: values[r].get(k, float("nan")) for r in NOISE_READINGS if r in values}})
    return pd.DataFrame(rows)
