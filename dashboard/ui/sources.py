"""Choosing one solution of a comparison: a preset, the Table lab's table, or uploaded labels."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

import metrics
from dashboard.ui.presets import Preset
from dashboard.ui.safe_text import md
from dashboard.ui.state import set_param, url_commit, url_state
from dashboard.ui.tables import decode_table, encode_table, to_contingency
from dashboard.ui.upload import ItemLabels, item_labels, upload_panel

LAB, UPLOAD, LINK = "lab", "upload", "link"
_LINKED = "_link_tables"  # side → (table text, name) of the last table a link sent (kept for a return)


@dataclass(frozen=True)
class Solution:
    """A chosen solution: its table, its name, and for uploaded labels the labels of its items
    (None for a preset, the Table lab's table, a linked or an uploaded contingency table)."""

    table: metrics.Contingency
    label: str
    items: ItemLabels | None = None


def lab_table(param: str) -> pd.DataFrame | None:
    """The Table lab's table for a page that offers it as a source, kept in the URL parameter
    ``param``; None with the reason shown.

    The URL's table first: a link's (the Table lab's "compare this table") or the one this page
    wrote on its last run. Without one — entered through the sidebar, or a table too large for a
    link — the Table lab's current table of this session (a caption says it cannot travel).
    """
    table = None
    if param in st.query_params:
        try:
            table = decode_table(st.query_params[param])
        except ValueError as exc:
            reason = md(str(exc))
            st.error(f"{reason[:1].upper()}{reason[1:]}. Edit a table in the Table lab, or choose a preset.")
            return None
    if table is None:
        table = st.session_state.get("lab_valid")
    if table is None:
        st.info("No table edited yet: open the Table lab, edit a table, and come back.")
        return None
    text = encode_table(table)
    set_param(param, text)
    if text is None:
        st.caption("This table is too large to travel in a link: a link opens the Table lab's table of the "
                   "session that opens it.")
    return table


def solution_picker(side: str, presets: dict[str, Preset], default: str) -> Solution | None:
    """The picker for solution ``side`` ("a" or "b"); the chosen table, or None with the reason shown.

    The choice is kept in the URL parameter ``side``; the Table lab's table is written to
    ``<side>_table`` so that a link reproduces it in a fresh session (the page declares both, and
    ``<side>_upload_*`` as derived state: ui/state.py).
    """
    # LINK: any table a link sends (the Solutions page's "open in Compare": ?a=link&a_table=…&a_name=…),
    # offered while a link or this session holds one; it never falls back to another table.
    linked = st.session_state.setdefault(_LINKED, {})
    if st.query_params.get(side) == LINK and f"{side}_table" in st.query_params:
        linked[side] = (st.query_params[f"{side}_table"], st.query_params.get(f"{side}_name") or "table from a link")
    sent = side in linked and LINK in (st.query_params.get(side), st.session_state.get(side))
    options = list(presets) + [LAB, UPLOAD] + ([LINK] if sent else [])
    names = {LAB: "The Table lab's table", UPLOAD: "Upload labels…",
             LINK: f"{linked[side][1]} (sent by a link)" if sent else ""}
    url_state(side, options, default, "table")
    choice = st.selectbox(f"Solution {side.upper()}", options, key=side,
                          format_func=lambda k: names.get(k) or presets[k].title)
    url_commit(side, default)
    param = f"{side}_table"
    if choice == LINK:
        text, label = linked[side]
        try:
            table = decode_table(text)
        except ValueError as exc:
            st.error(f"{md(exc)}. Pick a preset or upload labels.")
            return None
        set_param(param, text)
        set_param(f"{side}_name", label)
        return Solution(to_contingency(table), label)
    set_param(f"{side}_name", None)
    if choice == UPLOAD:
        set_param(param, None)
        t = upload_panel(f"{side}_upload")
        return Solution(t, "uploaded labels", item_labels(f"{side}_upload")) if t is not None else None
    if choice == LAB:
        table = lab_table(param)
        return Solution(to_contingency(table), "Table lab's table") if table is not None else None
    set_param(param, None)
    p = presets[choice]
    st.caption(f"{p.provenance}.")
    return Solution(p.contingency(), p.title)
