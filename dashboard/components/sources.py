"""Choosing one solution of a comparison: a preset, the Table lab's table, or uploaded labels."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

import metrics

from .presets import Preset
from .state import set_param, url_commit, url_state
from .tables import decode_table, encode_table, to_contingency
from .upload import upload_panel

LAB, UPLOAD = "lab", "upload"


@dataclass(frozen=True)
class Solution:
    table: metrics.Contingency
    label: str


def solution_picker(side: str, presets: dict[str, Preset], default: str) -> Solution | None:
    """The picker for solution ``side`` ("a" or "b"); the chosen table, or None with the reason shown.

    The choice is kept in the URL parameter ``side``; the Table lab's table is written to
    ``<side>_table`` so that a link reproduces it in a fresh session.
    """
    options = list(presets) + [LAB, UPLOAD]
    names = {LAB: "The Table lab's table", UPLOAD: "Upload labels…"}
    url_state(side, options, default, "table")
    choice = st.selectbox(f"Solution {side.upper()}", options, key=side,
                          format_func=lambda k: names.get(k) or presets[k].title)
    url_commit(side, default)
    param = f"{side}_table"
    if choice == UPLOAD:
        set_param(param, None)
        t = upload_panel(f"{side}_upload")
        return Solution(t, "uploaded labels") if t is not None else None
    if choice == LAB:
        table = st.session_state.get("lab_valid")
        if table is None and param in st.query_params:
            try:
                table = decode_table(st.query_params[param])
            except ValueError as exc:
                st.error(f"{exc}. Edit a table in the Table lab, or pick a preset.")
                return None
        if table is None:
            st.info("No table edited yet: open the Table lab, edit a table, and come back.")
            return None
        set_param(param, encode_table(table))
        return Solution(to_contingency(table), "Table lab's table")
    set_param(param, None)
    p = presets[choice]
    st.caption(f"{p.provenance}.")
    return Solution(p.contingency(), p.title)
