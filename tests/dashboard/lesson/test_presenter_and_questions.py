"""The lesson's new controls through AppTest: predict-then-reveal questions, the presenter view,
its place in the session (the sidebar's Lesson link returns to the step last seen) and its links
(explore links leave the target page's defaults out, so that the page adds one history entry).

The questions' answers are checked against numbers computed here by ``metrics`` and against the
builders' own rule (change the numbers, the answer follows) — never against typed answers.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from dashboard.compare.view import preference_table
from dashboard.lesson import links as ls_links
from dashboard.lesson import presenter
from dashboard.lesson import questions as q
from dashboard.lesson import steps as ls
from dashboard.ui import state
from dashboard.ui.presets import load_presets
from dashboard.ui.safe_text import shown as shown_text
from metrics.core.formatting import format_number as num
from tests.dashboard.apptest_utils import chart, no_trouble, open_app
from tests.dashboard.ui.test_state import differences, snapshot
from tests.dashboard.ui.test_state import go as follow

LESSON = "app_pages/learn/lesson.py"
N = len(ls.STEPS)
PRESETS = load_presets()


def go(at: AppTest, page: str, params: dict | None = None) -> AppTest:
    """Open ``page`` with exactly ``params`` in the URL (none: the sidebar's link)."""
    for name in list(at.query_params):
        del at.query_params[name]
    for name, value in (params or {}).items():
        at.query_params[name] = value
    return at.switch_page(page).run()


def fonts(node: Any) -> list[float]:
    """Every font size in a figure's JSON."""
    out: list[float] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith("font") and isinstance(value, dict) and "size" in value:
                size = value["size"]
                out += [float(s) for s in size] if isinstance(size, list) else [float(size)]
            out += fonts(value)
    elif isinstance(node, list):
        for x in node:
            out += fonts(x)
    return out


# ====================================================================== predict, then reveal
@pytest.mark.parametrize("n", range(1, N + 1))
def test_each_step_asks_first_and_reveals_the_chart_and_the_answer(n):
    step = ls.STEPS[n - 1]
    at = open_app(LESSON, 240, {"step": str(n)})
    no_trouble(at)
    radio = at.radio(key=f"lesson_answer_{step.key}")
    assert radio.value is None and len(radio.options) >= 3                  # nothing chosen for the student
    assert not at.get("plotly_chart")                                        # no chart before the reveal
    view = ls.build_view(n, ls_settings())
    assert view.question is not None and view.question.answer in radio.options
    assert all(view.narrative not in m.value for m in at.markdown)          # the narrative would give it away
    # The teacher reveals with no answer chosen: the answer, why, and the chart.
    at.button(key=f"lesson_reveal_{step.key}").click().run()
    no_trouble(at)
    assert chart(at, f"lesson_chart_{step.key}")["data"]
    (box,) = [i for i in at.info if i.value.startswith("The answer:")]
    assert f"**{view.question.answer}**" in box.value and view.question.why in box.value
    assert at.radio(key=f"lesson_answer_{step.key}").disabled


@pytest.mark.parametrize("right", [True, False])
def test_a_student_answer_is_judged(right):
    at = open_app(LESSON, 240, {"step": "2"})
    question = ls.build_view(2, ls_settings()).question
    chosen = question.answer if right else next(o for o in question.options if o != question.answer)
    at.radio(key="lesson_answer_v_singletons").set_value(chosen).run()
    assert not at.get("plotly_chart")                                        # choosing does not reveal
    at.button(key="lesson_reveal_v_singletons").click().run()
    no_trouble(at)
    if right:
        assert at.success and at.success[0].value.startswith("Right:")
    else:
        (w,) = at.warning
        assert f"you chose *{chosen}*" in w.value and f"**{question.answer}**" in w.value


def test_a_revealed_step_stays_revealed_in_the_session_and_reveal_1_opens_it_revealed():
    at = open_app(LESSON, 240, {"step": "3"})
    at.button(key="lesson_reveal_vi_range").click().run()
    at = go(at, LESSON, {"step": "4"})
    assert not at.get("plotly_chart")
    at = go(at, LESSON, {"step": "3"})                                      # Back to it: still revealed
    assert chart(at, "lesson_chart_vi_range")["data"]
    assert open_app(LESSON, 240, {"step": "4", "reveal": "1"}).get("plotly_chart")


def test_the_answers_are_the_ones_metrics_gives():
    s = metrics.evaluate(PRESETS["rr_singletons"].contingency())
    r = metrics.evaluate(PRESETS["rr_solution_r"].contingency())
    assert ls.build_view(2, ls_settings()).question.answer == ("singletons" if s["v_measure"] > r["v_measure"]
                                                              else "solution R")
    i, ii = (metrics.evaluate(PRESETS[p].contingency()) for p in ("wu_table3_I", "wu_table3_II"))
    assert ls.build_view(4, ls_settings()).question.answer.startswith("I " if i["purity"] > ii["purity"] else "II")
    a, b = (metrics.evaluate(PRESETS[f"rh_figure2_{x}"].contingency()) for x in "AB")
    assert math.isclose(a["f_measure"], b["f_measure"]) and ls.build_view(5, ls_settings()).question.answer == \
        "neither: a tie"


def ls_settings():
    from dashboard.ui.controls import Settings
    return Settings(math.e, 1.0, "nats")


# ---------------------------------------------------------------------- the builders follow their numbers
def prefs(a: float, b: float, key: str = "v_measure") -> pd.DataFrame:
    return preference_table({key: a}, {key: b}, [key])


def test_side_question_follows_the_values_and_the_direction():
    labels = {"A": "one", "B": "other"}
    assert q.side_question(prefs(0.7, 0.6), "v_measure", labels, "?").answer == "one"
    assert q.side_question(prefs(0.6, 0.7), "v_measure", labels, "?").answer == "other"
    assert q.side_question(prefs(0.5, 0.5), "v_measure", labels, "?").answer == "neither: a tie"
    assert q.side_question(prefs(1.0, 2.0, "vi"), "vi", labels, "?").answer == "one"        # lower is better
    why = q.side_question(prefs(0.7, 0.6), "v_measure", labels, "?").why
    assert f"= {num(0.7)} for one, {num(0.6)} for other" in why
    with pytest.raises(ValueError, match="not defined"):
        q.side_question(prefs(float("nan"), 0.5), "v_measure", labels, "?")


def test_trend_pick_and_count_questions():
    assert q.trend_question("?", 1.0, 2.0, "x").answer == q.RISES
    assert q.trend_question("?", 2.0, 1.0, "x").answer == q.FALLS
    assert q.trend_question("?", 1.0, 1.0 + 1e-13, "x").answer == q.STAYS
    pick = q.pick_question("?", {"h": 1.0, "c": 0.5, "ARI": 0.0}, "max")
    assert pick.answer == "h" and pick.options == ("h", "c", "ARI")
    assert q.pick_question("?", {"h": 1.0, "c": 0.5, "ARI": 0.0}, "min").answer == "ARI"
    tied = q.pick_question("?", {"h": 1.0, "P": 1.0, "c": 0.5}, "max")
    assert tied.answer == "h and P" and tied.answer in tied.options
    assert q.count_question("?", 3, ["Q0", "VI", "V"], "x").answer == "three"
    assert q.count_question("?", 9, list("abcdefghi"), "x").answer == "four or more"
    with pytest.raises(ValueError):
        q.Question("?", ("a", "b"), "c", "why")


# ====================================================================== presenter view
@pytest.mark.parametrize("n", range(1, N + 1))
def test_presenter_view_draws_every_chart_at_16_px_or_more(n):
    step = ls.STEPS[n - 1]
    at = open_app(LESSON, 240, {"step": str(n), "present": "1", "reveal": "1"})
    no_trouble(at)
    spec = chart(at, f"lesson_chart_{step.key}")
    sizes = fonts(spec)
    assert sizes and min(sizes) >= presenter.PRESENTER_MIN_PX, sorted(sizes)[:5]
    assert spec["layout"]["height"] == presenter.PRESENTER_HEIGHT
    assert at.query_params["present"] == "1" and at.query_params["step"] == str(n)
    assert any("stSidebar" in h.proto.body for h in at.get("html"))           # the sidebar hidden
    # Back/Next stay in the presenter view; one link leaves it, on this step.
    pages = [(lk.proto.label, lk.proto.query_string) for lk in at.get("page_link") if lk.proto.page == "lesson"
             and not lk.proto.disabled]
    assert all("present=1" in qs for label, qs in pages if label.startswith(("Back", "Next")))
    (leave,) = [qs for label, qs in pages if label == "Leave the presenter view"]
    assert f"step={n}" in leave and "present" not in leave


def test_the_presenter_figure_leaves_the_shared_figure_alone():
    view = ls.build_view(1, ls_settings())
    before = view.figure.to_plotly_json()
    shown = presenter.presenter_figure(view.figure)
    assert view.figure.to_plotly_json() == before and min(fonts(shown.to_plotly_json())) >= 16


def test_a_bad_present_value_is_named_and_ignored():
    at = open_app(LESSON, 240, {"step": "2", "present": "yes"})
    no_trouble(at)
    assert any("present='yes'" in shown_text(w.value) for w in at.warning)
    assert "present" not in at.query_params


def test_the_keys_script_clicks_only_the_lesson_links():
    js = presenter.keys_script(3, True)
    for key in (presenter.BACK_KEY, presenter.NEXT_KEY, presenter.PRESENT_KEY):
        assert key in js
    assert "PageDown" in js and "ArrowRight" in js and '"3"' in js
    at = open_app(LESSON, 240, {"step": "3"})
    assert any("__partitionLabLessonKeys" in h.proto.body for h in at.get("html"))


# ====================================================================== the lesson keeps its place
def test_the_sidebar_returns_to_the_step_last_seen_and_a_link_to_step_one():
    at = open_app(LESSON, 240, {"step": "5"})
    at = go(at, "app_pages/analyse/compare.py")
    at = go(at, LESSON)                                                     # the sidebar: no parameters
    no_trouble(at)
    assert at.header[0].value.startswith("5. ") and at.query_params["step"] == "5"
    at = go(at, LESSON, {"step": "2", state.LINK_MARK: "1"})
    assert at.header[0].value.startswith("2. ")
    at = go(at, "app_pages/analyse/compare.py")
    at = go(at, LESSON, {state.LINK_MARK: "1"})                             # a link naming no step: step 1
    assert at.header[0].value.startswith("1. ")


def test_explore_links_name_no_default_and_the_defaults_are_the_pages_own():
    """``links.DEFAULTS`` are the target pages' declared defaults (the pages run once here)."""
    for page, defaults in ls_links.DEFAULTS.items():
        open_app(page, 240, {})
        name = next(n for n, d in state.DECLARED.items() if page.endswith(f"/{n}.py"))
        decl = state.DECLARED[name]
        for key, value in defaults.items():
            p = decl.param(key)
            assert p is not None, (page, key)
            raw = value if isinstance(value, list) else [value]
            assert state._is_default(p, raw), (page, key, value, p.default)
    for n in range(1, N + 1):
        for link in ls.build_view(n, ls_settings()).explore:
            defaults = ls_links.DEFAULTS[link.page]
            at_default = {k for k, v in link.params.items() if ls_links._text(v) == ls_links._text(defaults.get(k))}
            named = set(link.params) & set(defaults)
            # No default named; a link whose whole state is the defaults names nothing but the mark
            # (which the page keeps: ui/state.py, "One history entry per link").
            assert not at_default, (n, link.params)
            assert bool(named) != (link.params.get(state.LINK_MARK) == "1"), (n, link.params)


@pytest.mark.parametrize("n", range(1, N + 1))
def test_every_explore_link_keeps_its_address_and_determines_the_page(n):
    """Followed from the lesson in the same session — after a visit to the target page that moved its
    controls — every explore link opens its page with exactly the address the link wrote (no write
    on arrival: a write would be a second history entry, and Back would need two presses) and in
    the state the link names, as in a fresh session (``test_lesson`` checks that state in detail)."""
    for link in ls.build_view(n, ls_settings()).explore:
        at = open_app(link.page, 240, {})
        moved = next(p for p in state.DECLARED.values() if link.page.endswith(f"/{p.page}.py")).params
        for p in moved:                                   # every keyed option with choices away from its default
            other = next((o for o in p.allowed() or [] if o != p.default and [o] != p.default), None)
            if other is not None and not p.bound:
                at.session_state[p.name] = [other] if p.multi else other
        at.run()
        at = follow(at, LESSON, {"step": str(n), "reveal": "1"})
        at = follow(at, link.page, link.params)
        no_trouble(at)
        as_written = {k: v if isinstance(v, list) and len(v) > 1 else v[0] if isinstance(v, list) else v
                      for k, v in link.params.items()}
        assert dict(at.query_params) == as_written, (n, link.label)
        assert differences(snapshot(at), snapshot(open_app(link.page, 240, link.params))) == [], (n, link.label)


def test_a_link_arriving_with_defaults_keeps_its_address():
    """No write on arrival (each would be a history entry): the keyed options' defaults a link names
    stay in the address until a control moves, and the page shows them."""
    link = {"a": "rh_figure2_A", "b": "rh_figure2_B", "classes": "10", "noise": "3", "sweep": "noise"}
    at = open_app("app_pages/analyse/compare.py", 240, link)
    no_trouble(at)
    # (Streamlit itself drops a bound widget's default — the sliders' — so the app's links name none.)
    assert dict(at.query_params) == {k: v for k, v in link.items() if k not in ("classes", "noise")}
    assert at.slider(key="noise").value == 3 and at.segmented_control(key="sweep").value == "noise"
    at.segmented_control(key="sweep").set_value("classes").run()
    at.segmented_control(key="sweep").set_value("noise").run()
    assert "sweep" not in at.query_params                      # moved and back: the default left out
