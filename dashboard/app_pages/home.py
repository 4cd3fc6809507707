"""Home: what Partition Lab is for, and guided scenarios that open a page with the right preset."""

import streamlit as st

from dashboard.lesson.scenarios import SCENARIOS
from dashboard.lesson.steps import STEPS, step_number
from dashboard.ui.controls import shared_controls
from dashboard.ui.state import page_link, page_state

page_state("home")  # no controls of its own; its links carry the sidebar's settings
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
    page_link("app_pages/analyse/table_lab.py", "**Table lab** — edit a table or upload labels",
              icon=":material/grid_on:")
with c2:
    page_link("app_pages/analyse/compare.py", "**Compare** — the divergence explorer", icon=":material/compare_arrows:")

st.page_link("app_pages/learn/lesson.py",
             label=f"**Lesson** — the papers' arguments in {len(STEPS)} steps, one chart each",
             icon=":material/school:", query_params={"step": "1"})

st.subheader("Guided scenarios")
st.caption("In the lesson's order; each card's last link is the lesson step that explains it.")
# Row by row, so that reading order (left to right, then down) is the lesson's order.
for row in range(0, len(SCENARIOS), 2):
    for col, sc in zip(st.columns(2), SCENARIOS[row:row + 2]):
        with col.container(border=True):
            st.markdown(f"**{sc.title}**")
            st.markdown(sc.story)
            page_link(sc.page, f"Open · {sc.source}", sc.params, icon=":material/play_arrow:")
            n = step_number(sc.lesson)
            st.page_link("app_pages/learn/lesson.py", label=f"Next step: lesson {n}. {STEPS[n - 1].title}",
                         icon=":material/school:", query_params={"step": str(n)})
