"""Glossary: every symbol the app shows — each measure of the registry with its formula, range,
direction and reference, and the other symbols of the formulas (n, a_i, b_j, H(C), m_1, CV, DCV …)."""

import streamlit as st

import metrics
from dashboard.glossary import views as gv
from dashboard.ui.controls import shared_controls
from dashboard.ui.readout import escape_markdown
from dashboard.ui.state import Param, page_state, url_commit, url_state

# The page's state (ui/state.py): a search (gl_q) and one measure opened first (gl_m), as the
# formulas beside every measure link here.
page_state("glossary", Param("gl_q", "", bound=True, what="search", max_len=80),
           Param("gl_m", None, options=metrics.MEASURES, what="measure"))
shared_controls()  # the sidebar's unit: "log" in the formulas is in it
st.title("Glossary")
st.caption("Every symbol the app shows. The measures' symbols, names, formulas, ranges and references are the "
           "registry's own (`metrics.MEASURES`, the source of every table and chart); the other symbols are those "
           "their formulas and the pages use. Natural log unless the sidebar says otherwise.")

c1, c2 = st.columns([3, 2])
with c1:
    query = st.text_input("Search", key="gl_q", bind="query-params", max_chars=80,
                          placeholder="a symbol or a word: VI, V_β, NMI, pairs, entropy, matching …")
with c2:
    url_state("gl_m", list(metrics.MEASURES), None, "measure")
    focus = st.selectbox("Open a measure first", list(metrics.MEASURES), key="gl_m", index=None,
                         format_func=lambda k: f"{metrics.MEASURES[k].symbol} — {metrics.MEASURES[k].name}",
                         placeholder="any measure")
    url_commit("gl_m", None)

if focus:
    with st.container(border=True):
        gv.show_measure(focus)

keys = [k for k in gv.measures_for(query) if k != focus]
symbols = gv.symbols_for(query)
st.header("Measures")
if not keys:
    st.info(f"No measure matches “{escape_markdown(query)}”." if query else "No other measure.")
for fam, label in metrics.FAMILIES.items():
    fam_keys = [k for k in keys if metrics.MEASURES[k].family == fam]
    if fam_keys:
        st.subheader(label)
        for k in fam_keys:
            gv.show_measure(k)
st.header("Other symbols")
if symbols:
    gv.show_symbols(symbols)
else:
    st.info(f"No other symbol matches “{escape_markdown(query)}”.")
