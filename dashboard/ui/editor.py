"""The Table lab's editor: a preset (or a table from a link) edited in ``st.data_editor``.

Session state (all under ``lab_*``):
``lab_base``     the editor frame passed to the data editor (edits are deltas on it)
``lab_version``  bumped whenever ``lab_base`` is replaced, so the editor starts fresh
``lab_current``  what the editor returned on the last run (kept even when invalid: nothing is lost)
``lab_valid``    the last valid numeric table — the one in use while the editor holds errors
``lab_editor_key``  the current data editor's key (tests write edit deltas there)
``lab_origin``   where a table not taken from the preset came from ("the uploaded labels", "the link"),
                 or None: the preset, perhaps edited — what the source line above the editor says

The page declares these (but not ``lab_version``: an editor key is never reused) as derived state,
dropped by a link or "Reset this page" (ui/state.py).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from dashboard.ui.presets import Preset
from dashboard.ui.safe_text import md
from dashboard.ui.state import set_param, url_commit, url_is_new, url_state
from dashboard.ui.tables import (
    CLASS_COL,
    decode_table,
    dropped_labels,
    editor_frame,
    encode_table,
    frame_from_editor,
    problems_text,
    to_contingency,
)
from metrics import io as mio
from metrics.core.formatting import format_number

DEFAULT_PRESET = "rh_figure3"
URL_PARAM = "table"


def _set_base(table: pd.DataFrame, preset_key: str, origin: str | None = None) -> None:
    ss = st.session_state
    ss["lab_origin"] = origin
    ss["lab_base"] = editor_frame(table)
    ss["lab_current"] = ss["lab_base"]
    ss["lab_valid"] = table.astype(np.float64)
    ss["lab_base_for"] = preset_key
    ss["lab_version"] = ss.get("lab_version", 0) + 1
    ss.pop("lab_names_error", None)
    ss.pop("lab_last_error", None)


def load_table(table: pd.DataFrame, preset_key: str, origin: str | None = None) -> None:
    """Put ``table`` into the editor (e.g. an uploaded table small enough to edit); ``origin`` says
    where it came from, for the source line (None: the preset ``preset_key``)."""
    _set_base(table, preset_key, origin)


def _on_preset_change() -> None:
    # A new preset replaces the edited table, in the session and in the URL.
    st.session_state.pop("lab_base", None)
    set_param(URL_PARAM, None)


def _renamed(current: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """The editor frame with cluster columns ``names``.

    Names that already exist keep their cells (so deleting or reordering names deletes or
    reorders columns); with as many names as columns and some new, columns are renamed in
    order; other new names add columns of zeros.
    """
    old = [c for c in current.columns if c != CLASS_COL]
    if all(n in old for n in names):
        cols = {n: current[n] for n in names}
    elif len(names) == len(old):
        cols = {n: current[o] for n, o in zip(names, old)}
    else:
        cols = {n: current[n] if n in old else pd.Series(0.0, index=current.index) for n in names}
    out = pd.DataFrame({CLASS_COL: current[CLASS_COL], **cols})
    return out.reset_index(drop=True)


def _on_names_change(names_key: str) -> None:
    ss = st.session_state
    names = [n.strip() for n in str(ss.get(names_key, "")).split(",")]
    names = [n for n in names if n]
    if not names:
        ss["lab_names_error"] = "Give at least one cluster name."
        return
    repeated = mio.repeated_labels(names)  # the rule of every table a user gives (metrics.io)
    if repeated:
        ss["lab_names_error"] = md(mio.repeated_labels_message("cluster", "column", repeated)) + "."
        return
    if CLASS_COL in names:
        ss["lab_names_error"] = f"A cluster cannot be named {CLASS_COL!r}: that is the column of class names."
        return
    ss.pop("lab_names_error", None)
    current = ss.get("lab_current", ss["lab_base"])
    ss["lab_base"] = _renamed(current, names)
    ss["lab_current"] = ss["lab_base"]
    ss["lab_version"] = ss.get("lab_version", 0) + 1


def _same_table(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    return (list(map(str, a.index)) == list(map(str, b.index))
            and list(map(str, a.columns)) == list(map(str, b.columns))
            and np.array_equal(a.to_numpy(dtype=np.float64), b.to_numpy(dtype=np.float64)))


def _source_text(preset: Preset, table: pd.DataFrame, origin: str | None) -> str:
    """The line above the editor: the preset's source and note only while the table is the preset's
    (the note states its n and shape); otherwise where the table came from."""
    n = float(table.to_numpy(dtype=np.float64).sum())
    shape = (f"n = {format_number(n)} items · {format_number(table.shape[0])} classes · "
             f"{format_number(table.shape[1])} clusters")
    if origin is None and _same_table(table, preset.frame()):
        return f"**Source:** {preset.provenance}. {preset.note}"
    if origin is None:
        return f"**Edited** from the preset *{preset.title}* ({preset.provenance}); now {shape}."
    return f"**Source:** {origin} ({shape}); not the preset named above. Pick a preset to start from it."


def table_editor(presets: dict[str, Preset]) -> metrics.Contingency:
    """Preset picker, data editor and cluster names; returns the Contingency of the last valid table."""
    ss = st.session_state
    keys = list(presets)
    url_state("preset", keys, DEFAULT_PRESET, "preset")
    preset_key = st.selectbox("Preset", keys, key="preset", on_change=_on_preset_change,
                              format_func=lambda k: f"{presets[k].group} · {presets[k].title}")
    url_commit("preset", DEFAULT_PRESET)
    preset = presets[preset_key]
    source_line = st.empty()  # filled once the table in use is known: the preset's, edited, or another

    if url_is_new(URL_PARAM):
        # A link (or the back button) brought a table: it replaces the preset's.
        text = st.query_params[URL_PARAM]
        try:
            _set_base(decode_table(text), preset_key, origin="the link that opened this page")
            set_param(URL_PARAM, text)
        except ValueError as exc:
            st.error(f"{md(exc)}. Showing the preset instead; edit it or pick another.")
            set_param(URL_PARAM, None)
    if "lab_base" not in ss or ss.get("lab_base_for") != preset_key:
        _set_base(preset.frame(), preset_key)

    if f"lab_editor_{ss['lab_version']}" not in ss and not ss["lab_current"].equals(ss["lab_base"]):
        # The editor's edits live in its widget state, which Streamlit drops while another page
        # is shown: coming back, start from what the editor last held, so nothing is lost.
        ss["lab_base"] = ss["lab_current"].reset_index(drop=True)
        ss["lab_version"] += 1
    version = ss["lab_version"]
    editor_key = ss["lab_editor_key"] = f"lab_editor_{version}"
    clusters = [c for c in ss["lab_base"].columns if c != CLASS_COL]
    config = {CLASS_COL: st.column_config.TextColumn("class", help="Gold class name", default="")}
    config.update({c: st.column_config.NumberColumn(c, default=0.0, format="plain",
                                                    help="Items of the row's class in this cluster (≥ 0, "
                                                         "fractions allowed)") for c in clusters})
    edited = st.data_editor(ss["lab_base"], key=editor_key, num_rows="dynamic", hide_index=True,
                            column_config=config, width="stretch")
    ss["lab_current"] = edited

    st.text_input("Cluster names (comma-separated)", value=", ".join(clusters), key=f"lab_names_{version}",
                  on_change=_on_names_change, args=(f"lab_names_{version}",),
                  help="Add a name to add a column of zeros; delete or reorder names to delete or reorder "
                       "columns; change names in place to rename. Rows: use the table's + and 🗑.")
    if ss.get("lab_names_error"):
        st.error(ss["lab_names_error"])

    table, problems = frame_from_editor(edited)
    if not problems:
        try:
            to_contingency(table)
        except ValueError as exc:  # metrics has the last word on what a table is
            problems = [str(exc)]
    if problems:
        st.error("The edited table has invalid cells; the last valid table stays in use until they are "
                 "fixed:\n" + problems_text(problems))
    else:
        ss["lab_valid"] = table
    valid = ss["lab_valid"]

    source_line.caption(_source_text(preset, valid, ss.get("lab_origin")))
    empty_rows, empty_cols = dropped_labels(valid)
    if empty_rows or empty_cols:
        st.info("Empty classes/clusters are ignored by every measure: " + ", ".join(map(md, empty_rows + empty_cols)))
    in_link = None if _same_table(valid, preset.frame()) else encode_table(valid)
    if in_link is None and not _same_table(valid, preset.frame()):
        st.caption("This table is too large to keep in the page's link.")
    set_param(URL_PARAM, in_link)
    return to_contingency(valid)
