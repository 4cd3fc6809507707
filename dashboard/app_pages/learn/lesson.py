"""Lesson — the papers' arguments step by step, one step per URL (``lesson?step=N``): a question
to answer first, then the short narrative, the one chart that proves the claim, and links into the
full page in the same state. ``present=1`` opens the presenter view (narrative and chart on one
projector screen, ←/→ and PageUp/PageDown move between steps); ``reveal=1`` opens a step with its
answer shown. The steps are ``dashboard.lesson.steps.STEPS``; the sidebar's Lesson link returns to
the step last seen."""

import streamlit as st

from dashboard.lesson import presenter
from dashboard.lesson import steps as ls
from dashboard.lesson.questions import Question
from dashboard.papers import facts
from dashboard.ui.controls import shared_controls
from dashboard.ui.figures.export import show_chart
from dashboard.ui.safe_text import md
from dashboard.ui.state import Param, entered, page_state

page_state("lesson", Param("step", None, what="step"), Param("present", None, what="presenter view"),
           Param("reveal", None, what="reveal"))  # Reset → step 1, out of the presenter view
settings = shared_controls()
ss = st.session_state
# A return (the sidebar's Lesson link names no step) brings back the step last seen in this session;
# a link that names none opens step 1 (page_state forgot the kept one).
raw_step = st.query_params.get("step", ss.get("step"))
n, note = ls.parse_step(raw_step)
present, present_note = ls.parse_switch(st.query_params.get("present", ss.get("present")), "present")
reveal, reveal_note = ls.parse_switch(st.query_params.get("reveal"), "reveal")
for text in (note, present_note, reveal_note):
    if text:
        st.warning(md(text))  # the note quotes the URL's text
for name, bad in (("present", present_note), ("reveal", reveal_note)):
    if bad and name in st.query_params:
        del st.query_params[name]
ss["step"], ss["present"] = str(n), "1" if present else None
# The address bar names the step shown. A page link to this same page (Back, Next) reruns it with
# the link's parameters but leaves the browser's address as it was until the page writes them:
# written even when unchanged there (the browser adds a history entry only when it differs from the
# address shown — one entry per step). Not on arrival from another page when the address already
# says it: the browser may still show the page the link was on, and a write then is a history
# entry under that page's path — Back twice (ui/state.py, "One history entry per link").
wanted = {"step": str(n), **({"present": "1"} if present else {})}
if not entered() or any(st.query_params.get(k) != v for k, v in wanted.items()):
    for k, v in wanted.items():
        st.query_params[k] = v
step = ls.STEPS[n - 1]
view = ls.build_view(n, settings)
shown_key = f"lesson_revealed_{step.key}"
revealed = reveal or bool(ss.get(shown_key)) or view.question is None


def _step_button(link, label: str, icon: str, end_note: str, key: str) -> None:
    """One of Back/Next in a container keyed ``key`` (the keys script finds it): the link to its
    step, or, past an end, the same button disabled."""
    with st.container(key=key):
        if link is None:
            st.page_link(ls.PAGE, label=label, icon=icon, disabled=True, help=end_note)
        else:
            st.page_link(link.page, label=link.label, icon=icon, query_params=link.params, help=link.help)


def navigation(suffix: str = "") -> None:
    """Back and Next as links (each names its step in the URL, and the presenter view where it is
    on); disabled at the ends."""
    back, ahead = ls.neighbours(n, settings, present=present)
    c1, c2, c3 = st.columns(3, vertical_alignment="center")
    with c1:
        _step_button(back, "Back", ":material/arrow_back:", "This is the first step.", presenter.BACK_KEY + suffix)
    with c2:
        st.markdown(f"**Step {n} of {len(ls.STEPS)}**", width="stretch", text_alignment="center")
    with c3:
        _step_button(ahead, "Next", ":material/arrow_forward:", "This is the last step.", presenter.NEXT_KEY + suffix)


def _reveal() -> None:
    ss[shown_key] = True  # kept for the session: Back to this step shows it revealed


def ask(question: Question) -> None:
    """The step's question before its chart: choose, then reveal (the teacher may reveal with no
    answer chosen); once revealed, the verdict and why, from the step's own numbers."""
    answer_key = f"lesson_answer_{step.key}"
    chosen = st.radio(f"**Predict:** {question.prompt}", question.options, index=None, key=answer_key,
                      disabled=revealed)
    if not revealed:
        st.button("Reveal the answer and the chart", key=f"lesson_reveal_{step.key}", type="primary",
                  icon=":material/visibility:", on_click=_reveal,
                  help="Shows why, and the chart. Works with no answer chosen: a teacher can reveal for the room.")
        return
    box = st.success if chosen == question.answer else st.info if chosen is None else st.warning
    box(f"{question.verdict(chosen)} {question.why}")  # our own text: its Markdown is meant


def chart(figure) -> None:
    show_chart(figure, key=f"lesson_chart_{step.key}", width="stretch")


def after_chart() -> None:
    """What follows the chart: its caption, the paper's printed numbers, notes, the legend, the
    "explore this" links."""
    if view.caption:
        st.caption(view.caption)
    for preset in view.facts:
        facts.show_printed_notes(preset)
    for title, text in view.notes:
        with st.expander(title):
            st.markdown(text)
    if view.legend:
        with st.expander("Legend"):
            st.table({"": list(view.legend), "statement": list(view.legend.values())})
    for link in view.explore:
        st.page_link(link.page, label=link.label, icon=":material/open_in_new:", query_params=link.params)


def switch_link() -> None:
    """Into or out of the presenter view, on this step."""
    link = ls.step_link(n, "Leave the presenter view" if present else "Presenter view", settings,
                        present=not present)
    st.page_link(link.page, label=link.label, query_params=link.params,
                 icon=":material/close_fullscreen:" if present else ":material/slideshow:",
                 help="The narrative and the chart on one projector screen, large type, no sidebar; "
                      "← → or PageUp/PageDown (a clicker) move between steps.")


def story() -> None:
    """The step's heading and source, its question, and once revealed its narrative (the presenter
    view puts them beside the chart, the page above it)."""
    st.header(f"{n}. {step.title}")
    st.caption(step.source)
    if view.question is not None:
        ask(view.question)
    if revealed:
        st.markdown(view.narrative)


if present:
    st.set_page_config(initial_sidebar_state="collapsed")
    st.html(presenter.PRESENTER_CSS)
    with st.container(key=presenter.PRESENT_KEY):
        top = st.columns([5, 2], vertical_alignment="center")
        with top[0]:
            navigation()
        with top[1]:
            switch_link()
        left, right = st.columns([2, 3], gap="medium")
        with left, st.container(key="lesson_story"):
            story()
        with right:
            if revealed:
                chart(presenter.presenter_figure(view.figure))
        if revealed:
            after_chart()
else:
    st.title("Lesson: why clustering measures disagree")
    navigation()
    switch_link()
    story()
    if revealed:
        chart(view.figure)
        after_chart()
    st.divider()
    navigation("_end")
    with st.expander("All steps"):
        for i, s in enumerate(ls.STEPS, start=1):
            link = ls.step_link(i, f"{i}. {s.title}", settings)
            st.page_link(link.page, label=link.label, query_params=link.params, disabled=i == n)
st.html(presenter.keys_script(n, present), unsafe_allow_javascript=True)
