"""Paper gallery: every number the project can recompute from the papers, beside the printed one."""

import streamlit as st

from dashboard.papers import gallery as gv
from dashboard.ui.controls import shared_controls
from dashboard.ui.readout import show_frame
from dashboard.ui.state import Param, page_state, url_commit, url_state
from metrics.papers import gallery

# The page's state (ui/state.py): a link names some of these, the rest take their defaults.
page_state("gallery", Param("gal_p", list(gallery.PAPERS), options=gallery.PAPERS, what="paper"),
           Param("gal_open", False, bound=True))
shared_controls()
st.title("Paper gallery")
st.caption("Every number this project can recompute from the five papers — tables, worked examples, values read "
           "off figures, claims in the text — beside the printed value. ✓: agrees to the printed precision (the "
           "printed number is ours rounded); ≈ truncated: the printed number is ours cut, not rounded; ✗: differs, "
           "with the reason; —: the paper's data is not available here. Each section links to the page that "
           "explores it. The papers' own units are used here, whatever the sidebar says.")

try:
    with st.spinner("Recomputing every number of the papers (once per server)…"):
        frame = gv.gallery_frame()
except (ValueError, KeyError) as exc:
    st.error(f"The paper values could not be read: {exc}. Check the files in assets/paper_values/.")
    st.stop()

show_frame(gv.summary_table(), key="gal_summary", sortable=False, width="stretch")

c1, c2 = st.columns([3, 1])
with c1:
    url_state("gal_p", gallery.PAPERS, list(gallery.PAPERS), "paper", multi=True)
    papers = st.pills("Papers", list(gallery.PAPERS), selection_mode="multi", key="gal_p",
                      format_func=lambda p: gallery.PAPERS[p].split(",")[0].split(" (")[0] + " " + p[-4:])
    url_commit("gal_p", list(gallery.PAPERS))
with c2:
    only_open = st.toggle("Only what does not agree", False, key="gal_open", bind="query-params")
if not papers:
    st.info("Choose at least one paper.")
    st.stop()

shown = frame[frame["status"] != "agrees"] if only_open else frame
for paper in [p for p in gallery.PAPERS if p in papers]:
    st.header(gallery.PAPERS[paper])
    if not (shown["paper"] == paper).any():
        st.caption("Every number of this paper agrees.")
        continue
    gv.show_paper(paper, only_open)  # built once per server for every (paper, filter)
