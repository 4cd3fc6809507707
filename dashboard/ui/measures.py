"""The measure table (grouped by family, from the registry), formulas on demand, CSV downloads."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import streamlit as st

import metrics
from dashboard.ui.readout import SHOWN_SUFFIX, escape_markdown, text_twin
from dashboard.ui.state import page_link
from metrics.core.formatting import format_number, frame_csv

COLUMNS = ["family", "key", "measure", "symbol", "value", "better", "range", "reference", "about"]


def keys_for(families) -> list[str]:
    """Registered measure keys of the chosen families, in registry (display) order."""
    fams = set(families)
    return [k for k, m in metrics.MEASURES.items() if m.family in fams]


def measures_frame(values: dict[str, float], keys: list[str]) -> pd.DataFrame:
    """One row per measure: family, name, symbol, value, direction, bounds, reference, description.

    A measure missing from ``values`` (``metrics.evaluate`` leaves out those not defined for
    the table, e.g. AMI on fractional counts) gets no value and the reason instead.
    """
    rows = []
    for k in keys:
        m = metrics.MEASURES[k]
        about = (m.description if k in values
                 else f"Not defined for this table: {metrics.core.registry.DOMAINS[m.domain]}.")
        rows.append({"family": metrics.FAMILIES[m.family], "key": k, "measure": m.name, "symbol": m.symbol,
                     "value": values.get(k), "better": "↑ higher" if m.higher_is_better else "↓ lower",
                     "range": m.range_text, "reference": m.reference, "about": about})
    return pd.DataFrame(rows, columns=COLUMNS)


# The description ("What it measures") right after the value, where it is read, not past the
# right edge of a narrow column; the reference, the longest and least read, last.
SHOWN_COLUMNS = ["measure", "symbol", "value", "about", "better", "range", "reference"]


def show_measures(frame: pd.DataFrame, key: str) -> None:
    """The measure table of :func:`measures_frame`, one block per family (registry order): name,
    symbol, the value in the one number format, what the measure measures (the registry's
    one-sentence description, also the goodness chart's hover), direction, range and reference.
    A cell shows its whole text when clicked.

    One measure per row, each on its own scale: sorting by value is moot, so the value is sent as
    text (``readout.as_text``'s layout: the number hidden, its text shown under its header). The
    block is sent as Arrow, its text columns made once per set of measures (:func:`_text_block`),
    so a slider step converts only the values."""
    config = {
        "measure": st.column_config.TextColumn("Measure", width="medium"),
        "symbol": st.column_config.TextColumn("Symbol", width="small"),
        "value": st.column_config.NumberColumn("Value", width="small", help="Computed by metrics.evaluate"),
        "about": st.column_config.TextColumn("What it measures", width="large",
                                             help="The registry's one-sentence description; click a cell to read "
                                                  "all of it"),
        "better": st.column_config.TextColumn("Better", width="small", help="Which direction is better"),
        "range": st.column_config.TextColumn("Range", width="small", help="Bounds declared in the registry"),
        "reference": st.column_config.TextColumn("Reference", width="medium"),
    }
    shown, config[f"value{SHOWN_SUFFIX}"] = text_twin("value", config["value"])
    order = [shown if c == "value" else c for c in SHOWN_COLUMNS]
    keys, families = frame["key"].tolist(), frame["family"].tolist()
    values, abouts = frame["value"].tolist(), frame["about"].tolist()
    for family in dict.fromkeys(families):
        rows = [i for i, f in enumerate(families) if f == family]
        block = _text_block(tuple(keys[i] for i in rows), tuple(abouts[i] for i in rows))
        numbers = [None if values[i] is None or pd.isna(values[i]) else float(values[i]) for i in rows]
        table = (block.add_column(block.schema.get_field_index("better"), "value", pa.array(numbers, pa.float64()))
                 .append_column(shown, pa.array([format_number(v) for v in numbers], pa.string())))
        st.markdown(f"**{family}**")
        st.dataframe(table, key=f"{key}_{family}", hide_index=True, width="stretch", row_height=30,
                     height=38 + 30 * len(rows), column_config=config, column_order=order)


@st.cache_resource(max_entries=256, show_spinner=False)
def _text_block(keys: tuple[str, ...], abouts: tuple[str, ...]) -> pa.Table:
    """The columns of :func:`measures_frame` but the value, for these measures (``abouts``: each
    one's description, or why it is not defined for the table), as Arrow (shared read-only)."""
    frame = measures_frame(dict.fromkeys(keys, 0.0), list(keys)).drop(columns="value")
    frame["about"] = list(abouts)
    return pa.Table.from_pandas(frame, preserve_index=False)


GLOSSARY = "app_pages/learn/glossary.py"


def show_formulas(keys: list[str]) -> None:
    """Each measure's formula (``st.latex`` of the registry's ``formula``) with its description,
    range (and the registry's note on it) and reference, and a link to its Glossary entry, where
    every other symbol of the formula is defined."""
    for fam, label in metrics.FAMILIES.items():
        fam_keys = [k for k in keys if metrics.MEASURES[k].family == fam]
        if not fam_keys:
            continue
        st.markdown(f"**{label}**")
        for k in fam_keys:
            m = metrics.MEASURES[k]
            st.markdown(f"{escape_markdown(m.name)} ({escape_markdown(m.symbol)}) — {escape_markdown(m.description)} "
                        f"*{escape_markdown(m.reference)}*")
            st.latex(m.formula)
            note = f" {escape_markdown(m.range_note)}" if m.range_note else ""
            st.caption(f"Range {escape_markdown(m.range_text)}, "
                       f"{'higher' if m.higher_is_better else 'lower'} is better.{note}")
            page_link(GLOSSARY, f"{escape_markdown(m.symbol)} and its symbols in the glossary", {"gl_m": k},
                      icon=":material/menu_book:")


def formulas_expander(keys: list[str], key: str) -> None:
    """The chosen measures' formulas (:func:`show_formulas`) in an expander beside a measure table
    or chart; drawn only while open, so a closed one costs a rerun nothing."""
    box = st.expander("Formulas of these measures (from the registry)", key=key, on_change="rerun")
    if box.open:
        with box:
            show_formulas(keys)


def download_buttons(frame: pd.DataFrame, table_csv: bytes | None, stem: str, key: str) -> None:
    """Download buttons for the measures and the table (``tables.table_csv``)."""
    c1, c2 = st.columns(2)
    with c1:
        st.download_button("Measures (CSV)", frame_csv(frame, index=False),
                           file_name=f"{stem}-measures.csv", mime="text/csv", key=f"{key}_dl_measures",
                           on_click="ignore")
    with c2:
        if table_csv is not None:
            st.download_button("Table (CSV)", table_csv,
                               file_name=f"{stem}-table.csv", mime="text/csv", key=f"{key}_dl_table",
                               on_click="ignore")
