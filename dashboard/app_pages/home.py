"""Home: what Partition Lab is for, and guided scenarios that open a page with the right preset."""

import streamlit as st

from dashboard.components.controls import shared_controls
from dashboard.components.scenarios import SCENARIOS

shared_controls()
st.title("Partition Lab")
st.markdown(
    "How good is a clustering, measured against gold classes? Dozens of **external measures** answer — "
    "V-measure, NVI, VI, ARI, purity, F, van Dongen, BCubed … — and they often **disagree**. "
    "This lab lets you see how and why: edit a contingency table (rows = gold classes, columns = clusters) "
    "or upload labels and watch every measure, or put two solutions side by side and find the measures that "
    "change their minds. Every number is computed by the `metrics` package; the worked examples come from "
    "the papers that argue about these measures."
)
c1, c2 = st.columns(2)
with c1:
    st.page_link("app_pages/table_lab.py", label="**Table lab** — edit a table or upload labels", icon=":material/grid_on:")
with c2:
    st.page_link("app_pages/compare.py", label="**Compare** — the divergence explorer", icon=":material/compare_arrows:")

st.subheader("Guided scenarios")
cols = st.columns(2)
for i, sc in enumerate(SCENARIOS):
    with cols[i % 2].container(border=True):
        st.markdown(f"**{sc.title}**")
        st.markdown(sc.story)
        st.page_link(sc.page, label=f"Open · {sc.source}", icon=":material/play_arrow:", query_params=sc.params)
