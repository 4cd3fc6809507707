"""Lesson — the papers' arguments step by step, one step per URL (``lesson?step=N``): a short
narrative, the one chart that proves the claim, and links into the full page in the same state.
The steps are ``dashboard.lesson.steps.STEPS``."""

import streamlit as st

from dashboard.lesson import steps as ls
from dashboard.papers import facts
from dashboard.ui.controls import shared_controls
from dashboard.ui.safe_text import md
from dashboard.ui.state import Param, page_state

page_state("lesson", Param("step", "1", what="step"))  # the URL's step (read below); Reset → step 1
settings = shared_controls()
n, note = ls.parse_step(st.query_params.get("step"))
if note:
    st.warning(md(note))  # the note quotes the URL's text
# The address bar names the step shown, on every run: a page link to this same page (Back, Next)
# reruns it with the link's parameters but leaves the browser's address as it was.
st.query_params["step"] = str(n)
step = ls.STEPS[n - 1]


def _step_button(link, label: str, icon: str, end_note: str) -> None:
    """One of Back/Next: the link to its step, or, past an end, the same button disabled."""
    if link is None:
        st.page_link(ls.PAGE, label=label, icon=icon, disabled=True, help=end_note)
    else:
        st.page_link(link.page, label=link.label, icon=icon, query_params=link.params, help=link.help)


def navigation() -> None:
    """Back and Next as links (each names its step in the URL); disabled at the ends."""
    back, ahead = ls.neighbours(n, settings)
    c1, c2, c3 = st.columns(3, vertical_alignment="center")
    with c1:
        _step_button(back, "Back", ":material/arrow_back:", "This is the first step.")
    with c2:
        st.markdown(f"**Step {n} of {len(ls.STEPS)}**", width="stretch", text_alignment="center")
    with c3:
        _step_button(ahead, "Next", ":material/arrow_forward:", "This is the last step.")


st.title("Lesson: why clustering measures disagree")
navigation()
st.header(f"{n}. {step.title}")
st.caption(step.source)
view = step.build(settings)
st.markdown(view.narrative)
st.plotly_chart(view.figure, key=f"lesson_chart_{step.key}", width="stretch")
if view.caption:
    st.caption(view.caption)
for preset in view.facts:
    facts.show_printed_notes(preset)
if view.legend:
    with st.expander("Legend"):
        st.table({"": list(view.legend), "statement": list(view.legend.values())})
for link in view.explore:
    st.page_link(link.page, label=link.label, icon=":material/open_in_new:", query_params=link.params)
st.divider()
navigation()
with st.expander("All steps"):
    for i, s in enumerate(ls.STEPS, start=1):
        link = ls.step_link(i, f"{i}. {s.title}", settings)
        st.page_link(link.page, label=link.label, query_params=link.params, disabled=i == n)
