"""Page state through Streamlit's AppTest (the rule is in ``dashboard/ui/state.py``):

* every link the app makes, opened after every other link in the same session — each page's
  controls moved away from their values in between — shows what it shows in a fresh session
  (widget values, measures, figures, texts);
* a return through the sidebar (no parameters) brings the page back as it was left;
* every segmented control and radio switched away and back restores the page;
* "Reset this page" restores the defaults, clears the page's URL parameters, leaves other pages;
* the issue's cases one by one, and URL-addressable (lazy) tabs.

A link is followed as the browser does it: the URL becomes exactly the link's query string and the
page switches. The sidebar sends no parameter of the page it opens.
"""

from __future__ import annotations

import hashlib
import math
import re
from urllib.parse import parse_qs

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from dashboard import page_scripts
from dashboard.lesson.scenarios import SCENARIOS
from dashboard.ui import state
from dashboard.ui.presets import load_presets
from dashboard.ui.tables import decode_table
from tests.dashboard.apptest_utils import APP, no_trouble, shown_measures

PRESETS = load_presets()
HOME, LAB, COMPARE = "app_pages/home.py", "app_pages/analyse/table_lab.py", "app_pages/analyse/compare.py"
FUZZY, GALLERY = "app_pages/explore/fuzzy_lab.py", "app_pages/learn/gallery.py"
PROPS, GEN = "app_pages/explore/property_checker.py", "app_pages/explore/generator_lab.py"
REAL = "app_pages/explore/real_data.py"
# Every page of the app (a new page is tested as soon as it exists); its state is declared under its
# URL path, the file's name. The lesson needs a step and is tested on its own.
EVERY_PAGE = {name: script for name, script in page_scripts().items() if name != "lesson"}
STATEFUL = {name: page for name, page in EVERY_PAGE.items() if name != "home"}
WIDGET_KINDS = ("slider", "select_slider", "selectbox", "multiselect", "radio", "toggle", "number_input",
                "segmented_control", "pills", "checkbox", "text_input")
TIMEOUT = 300


# ---------------------------------------------------------------- following links like a browser
def script(url_path: str) -> str:
    return page_scripts()["home" if url_path == "" else url_path]


def query(query_string: str) -> dict:
    return {k: v[0] if len(v) == 1 else v for k, v in parse_qs(query_string, keep_blank_values=True).items()}


def go(at: AppTest, page: str, params: dict | None = None) -> AppTest:
    """Open ``page`` with exactly ``params`` in the URL: a link; with none, the sidebar."""
    for name in list(at.query_params):
        del at.query_params[name]
    for name, value in (params or {}).items():
        at.query_params[name] = value
    return at.switch_page(page).run()


def fresh(page: str, params: dict | None = None) -> AppTest:
    return go(AppTest.from_file(APP, default_timeout=TIMEOUT), page, params)


def sidebar_to(at: AppTest, page: str) -> AppTest:
    return go(at, page)


# ---------------------------------------------------------------- what a page shows
def snapshot(at: AppTest) -> dict:
    """Everything a reader sees: each keyed control's value, the measures, every figure, the texts,
    the open tab. (The Reset buttons are left out: they are not state.)"""
    shot: dict = {}
    for kind in WIDGET_KINDS:
        for w in getattr(at, kind):
            if w.key and not w.key.startswith("reset_"):
                value = w.value
                # (the editor's widgets carry a version in their key: a new table, a new widget)
                shot[f"{kind}:{re.sub(r'_[0-9]+$', '_N', w.key)}"] = list(value) if isinstance(value, tuple) else value
    shot["measures"] = {k: repr(v) for k, v in shown_measures(at).items()}
    shot["figures"] = [hashlib.sha1(c.proto.spec.encode()).hexdigest() for c in at.get("plotly_chart")]
    shot["text"] = ([m.value for m in at.markdown] + [c.value for c in at.caption] + [i.value for i in at.info]
                    + [w.value for w in at.warning] + [e.value for e in at.error])
    shot["tabs"] = [t.label for t in at.tabs]
    return shot


def differences(a: dict, b: dict) -> list[str]:
    return [f"{k}: {a.get(k)!r} != {b.get(k)!r}" for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]


def declared(at: AppTest) -> state.PageState | None:
    return state.DECLARED.get(at.session_state["_state_page"]) if "_state_page" in at.session_state else None


# ---------------------------------------------------------------- moving every control away
def _other(value, options):
    others = [o for o in options if o != value]
    return others[-1] if others else None


def perturb(at: AppTest, sidebar: bool = True) -> AppTest:
    """Move every control of the page (and, with ``sidebar``, the measure settings) away from its
    value, edit the Table lab's table, and run once."""
    decl = declared(at)
    params = {p.name: p for p in decl.params} if decl else {}
    root = at if sidebar else at.main
    for w in root.slider:
        if isinstance(w.value, tuple):
            w.set_value((w.min, w.max) if w.value != (w.min, w.max) else (w.min, w.min + w.step))
        else:
            w.set_value(w.max if w.value != w.max else w.min)
    for w in root.select_slider:
        options = [type(w.value)(o) for o in w.options]
        w.set_value(_other(w.value, options))
    for w in root.toggle:
        w.set_value(not w.value)
    for w in root.number_input:
        w.set_value(w.value + 1)
    for kind in ("selectbox", "segmented_control", "radio", "multiselect", "pills"):
        for w in getattr(root, kind):
            p = params.get(w.key)
            if w.key == "log":
                w.set_value(_other(w.value, ["nats", "bits"]))
            elif p is not None and p.allowed():
                allowed = p.allowed()
                if isinstance(w.value, list):
                    w.set_value(allowed[:1] if w.value != allowed[:1] else allowed[1:2])
                else:
                    w.set_value(_other(w.value, allowed))
            elif kind == "selectbox" and w.key and w.key.startswith("g_fp"):
                w.select_index(len(w.options) - 1)
    labels = [t.label for t in at.tabs]
    for p in params.values():
        if p.bound and isinstance(p.default, str) and p.default in labels:
            at.session_state[p.name] = labels[-1]
    if "lab_editor_key" in at.session_state and any(w.key == "preset" for w in at.selectbox):
        at.session_state[at.session_state["lab_editor_key"]] = {
            "edited_rows": {0: {at.session_state["lab_base"].columns[1]: 7}}, "added_rows": [], "deleted_rows": []}
    return at.run()


# ---------------------------------------------------------------- every link the app makes
def app_links() -> list[tuple[str, dict | None, str, str]]:
    """(source page, its parameters, target url path, query string) of every enabled page link on
    every page, the lesson's steps included."""
    from dashboard.lesson.steps import STEPS

    sources = [(page, None) for page in EVERY_PAGE.values()]
    # reveal=1: a step shows its explore links with its chart, once the answer is revealed
    sources += [("app_pages/learn/lesson.py", {"step": str(n), "reveal": "1"}) for n in range(1, len(STEPS) + 1)]
    links: dict[tuple[str, str], tuple] = {}
    for page, params in sources:
        at = fresh(page, params)
        no_trouble(at)
        for link in at.get("page_link"):
            if not link.proto.disabled and not link.proto.external:
                links.setdefault((link.proto.page, link.proto.query_string),
                                 (page, params, link.proto.page, link.proto.query_string))
    return list(links.values())


def follow(at: AppTest, link: tuple) -> AppTest:
    """Go to the page that shows ``link`` as a reader would (the sidebar, or the lesson step's own
    link), then click it."""
    source, source_params, target, query_string = link
    go(at, source, source_params)
    return go(at, script(target), query(query_string))


def as_kept(link: tuple) -> dict:
    """The address ``link`` should leave after opening its page: its own, less a bound widget's
    default, which Streamlit's server drops from its copy without writing the browser's address."""
    wanted = query(link[3])
    decl = state.DECLARED.get(link[2])
    for name in list(wanted):
        p = decl.param(name) if decl else None
        raw = wanted[name] if isinstance(wanted[name], list) else [wanted[name]]
        if p is not None and p.bound and state._is_default(p, raw):
            del wanted[name]
    return wanted


def test_no_link_names_a_bound_widget_at_its_default():
    """Streamlit drops a slider's or switch's default from the address as its page opens, and in
    chromium under load that write lands as a second history entry under the page the link was on
    (CI: the gallery's Real data link named rd_k=2&rd_k=15, the slider's default). So no link the
    app makes names one: what a link does not name takes its default anyway."""
    links = app_links()  # opens every page: each declares its parameters
    named = [f"{link[0]} → {link[2]}?{link[3]}" for link in links if as_kept(link) != query(link[3])]
    assert not named, named


def test_every_link_opens_its_page_as_in_a_fresh_session():
    links = app_links()
    assert len(links) >= len(SCENARIOS) + 4  # scenarios, gallery entries, lesson steps, Table lab → Compare
    expected = {link[2:]: snapshot(fresh(script(link[2]), query(link[3]))) for link in links}
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    problems = []
    # The second pass opens every link after every other one, each page's controls moved in between.
    for round_ in (1, 2):
        for link in links:
            follow(at, link)
            no_trouble(at)
            if dict(at.query_params) != as_kept(link):
                # A write as the page opens is a second history entry in the browser (ui/state.py).
                problems.append(f"{link[2:]}: the address became {dict(at.query_params)}")
            if round_ == 2:
                problems += [f"{link[2:]}: {d}" for d in differences(snapshot(at), expected[link[2:]])]
            perturb(at, sidebar=False)  # (the sidebar's settings are the reader's: links keep them)
    assert not problems, "\n".join(problems[:40])


def test_links_made_by_the_app_carry_the_sidebar_settings_and_the_mark_only_where_they_name_nothing():
    """The reader's unit travels with the app's links (so a copied link reproduces it); a link that
    names its page's parameters needs no mark, one that names nothing carries it; and the page
    opened keeps the address the link wrote (a change would be a second history entry)."""
    at = fresh(HOME, {"log": "bits", "beta": "2"})
    links = [(link.proto.page, query(link.proto.query_string)) for link in at.get("page_link")]
    scenario_links = [q for page, q in links if page == "compare" and set(q) - {"log", "beta", state.LINK_MARK}]
    assert scenario_links and all(state.LINK_MARK not in q and q["log"] == "bits" and q["beta"] == "2"
                                  for q in scenario_links)
    card = [q for page, q in links if page == "compare" and not set(q) - {"log", "beta", state.LINK_MARK}]
    assert card == [{state.LINK_MARK: "1", "log": "bits", "beta": "2"}]   # Home's "Compare" card
    for q in (scenario_links[-1], card[0]):
        at = go(at, COMPARE, q)
        assert dict(at.query_params) == q and at.radio(key="log").value == "bits"
        # Opened in a new browser (a fresh session), the same link gives the same page.
        again = fresh(COMPARE, q)
        assert again.radio(key="log").value == "bits" and differences(snapshot(again), snapshot(at)) == []
        at = sidebar_to(at, HOME)


def test_a_link_that_names_no_parameter_opens_the_defaults():
    """A gallery entry or Home's "Table lab" card names nothing but the mark: the page's defaults."""
    expected = snapshot(fresh(LAB))
    at = fresh(LAB, {"preset": "wu_table3_I", "src": "upload"})
    at = sidebar_to(at, HOME)
    at = go(at, LAB, {state.LINK_MARK: "1"})
    assert differences(snapshot(at), expected) == []


def test_a_link_naming_only_defaults_opens_them_and_keeps_its_address():
    """A link to a page's defaults that names one of them (the lesson's explore links do:
    ``links.ANCHORS``) is a link, not a return: after a visit that moved the controls the page shows
    its defaults; and its address stays as the link wrote it — a write would be a second history
    entry (Back twice to leave the page). Once a control moves, the address follows the widgets."""
    expected = snapshot(fresh(COMPARE))
    at = fresh(COMPARE, {"a": "wu_table3_I", "m": ["purity", "vi"]})
    at.slider(key="noise").set_value(6).run()
    at = sidebar_to(at, HOME)
    at = go(at, COMPARE, {"a": "rr_singletons"})
    no_trouble(at)
    assert differences(snapshot(at), expected) == []
    assert dict(at.query_params) == {"a": "rr_singletons"}
    at.run()                                                            # a rerun on the page keeps it
    assert dict(at.query_params) == {"a": "rr_singletons"}
    at.selectbox(key="a").set_value("wu_table3_I").run()
    assert dict(at.query_params) == {"a": "wu_table3_I"}
    at.selectbox(key="a").set_value("rr_singletons").run()
    assert dict(at.query_params) == {}                                  # the default left out again
    # Beside a value that is not a default, a named default stays too: the address as the link wrote it.
    at = sidebar_to(at, HOME)
    at = go(at, COMPARE, {"a": "rr_singletons", "b": "wu_table3_I"})
    assert dict(at.query_params) == {"a": "rr_singletons", "b": "wu_table3_I"}
    assert at.selectbox(key="a").value == "rr_singletons" and at.selectbox(key="b").value == "wu_table3_I"


def test_the_link_mark_stays_on_arrival_and_is_no_link_on_the_pages_later_runs():
    """A link that names nothing (``link=1``) opens the defaults and keeps the mark in the address
    (removing it would be a second history entry); a control moved after it is kept over reruns —
    the mark left in the address does not reopen the link — and an old shared link that names
    parameters beside the mark opens them."""
    expected = snapshot(fresh(COMPARE))
    at = fresh(COMPARE, {"a": "wu_table3_I"})
    at.slider(key="noise").set_value(6).run()
    at = sidebar_to(at, HOME)
    at = go(at, COMPARE, {state.LINK_MARK: "1"})
    no_trouble(at)
    assert differences(snapshot(at), expected) == [] and dict(at.query_params) == {state.LINK_MARK: "1"}
    at.selectbox(key="a").set_value("wu_table3_II").run()
    at.slider(key="noise").set_value(5).run()
    at.run()
    assert at.selectbox(key="a").value == "wu_table3_II" and at.slider(key="noise").value == 5
    assert at.query_params.get(state.LINK_MARK) == "1" and at.query_params.get("a") == "wu_table3_II"
    # An old shared link: parameters and the mark.
    at = sidebar_to(at, HOME)
    at = go(at, COMPARE, {"b": "wu_table10_I", state.LINK_MARK: "1"})
    assert differences(snapshot(at), snapshot(fresh(COMPARE, {"b": "wu_table10_I"}))) == []


# ---------------------------------------------------------------- the cases
def scenario(words: str):
    return next(s for s in SCENARIOS if words in s.title)


def test_a_scenario_after_another_shows_its_own_measures_and_the_morph_defaults():
    uniform, singletons = scenario("uniform effect"), scenario("V prefers singletons")
    at = fresh(uniform.page, uniform.params)
    assert at.multiselect(key="m").value == uniform.params["m"]
    at.slider(key="classes").set_value(20).run()
    at.segmented_control(key="sweep").set_value("classes").run()
    at = sidebar_to(at, HOME)
    at = go(at, singletons.page, {**singletons.params, state.LINK_MARK: "1"})
    no_trouble(at)
    assert at.multiselect(key="m").value == ["v_measure", "nvi", "vi", "ari", "vd_n"]
    assert at.slider(key="classes").value == 10 and at.segmented_control(key="sweep").value == "noise"
    assert differences(snapshot(at), snapshot(fresh(singletons.page, singletons.params))) == []


def test_a_table_lab_link_opens_the_table_after_a_visit_in_upload_mode():
    at = fresh(LAB, {"src": "upload"})
    assert at.segmented_control(key="src").value == "upload"
    at = sidebar_to(at, HOME)
    at = go(at, LAB, {"preset": "extreme_single_cluster", state.LINK_MARK: "1"})
    assert at.segmented_control(key="src").value == "table"
    assert shown_measures(at) == metrics.evaluate(PRESETS["extreme_single_cluster"].contingency())


def test_a_preset_link_replaces_an_edited_table():
    at = fresh(LAB, {"preset": "rh_figure3"})
    key = at.session_state["lab_editor_key"]
    at.session_state[key] = {"edited_rows": {0: {"K1": 40}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert "table" in at.query_params
    at = sidebar_to(at, HOME)
    at = go(at, LAB, {"preset": "rh_figure3", state.LINK_MARK: "1"})
    assert "table" not in at.query_params
    assert shown_measures(at) == metrics.evaluate(PRESETS["rh_figure3"].contingency())


def test_a_return_through_the_sidebar_brings_the_page_back():
    at = fresh(COMPARE, {"a": "wu_table3_I", "m": ["purity", "vi"]})
    at.slider(key="noise").set_value(6).run()
    at.segmented_control(key="sweep").set_value("classes").run()
    before = snapshot(at)
    at = sidebar_to(at, HOME)
    at = sidebar_to(at, COMPARE)
    assert differences(snapshot(at), before) == []
    assert at.query_params["a"] == "wu_table3_I" and at.query_params["sweep"] == "classes"


def test_the_edited_table_is_described_as_edited_not_as_the_preset():
    at = fresh(LAB, {"preset": "rh_figure3"})
    note = PRESETS["rh_figure3"].note
    assert any(note in c.value for c in at.caption)
    key = at.session_state["lab_editor_key"]
    at.session_state[key] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [0]}  # drop C1: n = 42
    at.run()
    no_trouble(at)
    text = " ".join(c.value for c in at.caption)
    assert note not in text and "Edited" in text and "n = 42 items" in text


def test_a_table_copied_from_an_upload_is_described_as_the_upload():
    at = fresh(LAB, {"preset": "wu_table10_I"})
    at.segmented_control(key="src").set_value("upload").run()
    data = pd.DataFrame({"g": list("aabbb"), "k": [1, 2, 2, 2, 2]}).to_csv(index=False).encode()
    at.file_uploader(key="lab_upload_file").set_value(("labels.csv", data, "text/csv"))
    at.run()
    at.button(key="lab_edit_upload").click().run()
    no_trouble(at)
    text = " ".join(c.value for c in at.caption)
    assert "uploaded labels" in text and PRESETS["wu_table10_I"].note not in text


def test_the_table_lab_sends_its_table_to_compare_and_the_link_wins_over_the_session():
    at = fresh(LAB, {"preset": "rh_figure3"})
    key = at.session_state["lab_editor_key"]
    at.session_state[key] = {"edited_rows": {0: {"K1": 30}}, "added_rows": [], "deleted_rows": []}
    at.run()
    link = next(link for link in at.get("page_link") if link.proto.page == "compare")
    params = query(link.proto.query_string)
    sent = decode_table(params["a_table"])
    assert params["a"] == "lab" and sent.to_numpy().tolist()[0] == [30, 2, 4]
    # Edit the lab's table again, then open the link made before: Compare shows the link's table.
    key = at.session_state["lab_editor_key"]
    at.session_state[key] = {"edited_rows": {0: {"K1": 99}}, "added_rows": [], "deleted_rows": []}
    at.run()
    at = go(at, COMPARE, params)
    values = next(df.value for df in at.dataframe if {"A", "B"} <= set(df.value.columns))
    assert values["A"].tolist() == [metrics.evaluate(metrics.Contingency.from_table(sent))[k]
                                    for k in ("v_measure", "nvi", "vi", "ari", "vd_n")]
    # A link without the table (or the sidebar): Compare takes the lab's current table instead.
    at = sidebar_to(at, HOME)
    at = go(at, COMPARE, {"a": "lab"})
    assert decode_table(at.query_params["a_table"]).to_numpy().tolist()[0] == [99, 2, 4]


# ---------------------------------------------------------------- switching a choice away and back
def choices(at: AppTest) -> list[tuple[str, str, list]]:
    """(kind, key, options) of every segmented control and radio the page declares (and the unit)."""
    decl = declared(at)
    out = []
    for kind in ("segmented_control", "radio"):
        for w in getattr(at, kind):
            p = decl.param(w.key) if decl else None
            if w.key == "log":
                out.append((kind, w.key, ["nats", "bits"]))
            elif p is not None and p.allowed():
                out.append((kind, w.key, p.allowed()))
    return out


@pytest.mark.parametrize("name", list(STATEFUL))
def test_every_choice_switched_away_and_back_restores_the_page(name):
    at = fresh(STATEFUL[name])
    checked = 0
    for kind, key, options in choices(at):
        before = snapshot(at)
        original = getattr(at, kind)(key=key).value
        for option in options:
            if option == original:
                continue
            getattr(at, kind)(key=key).set_value(option).run()
            no_trouble(at)
            getattr(at, kind)(key=key).set_value(original).run()
            assert differences(snapshot(at), before) == [], (key, option)
            checked += 1
    assert checked >= 1  # the unit radio at least


def test_table_lab_upload_and_back_keeps_families_preset_and_table():
    at = fresh(LAB, {"preset": "wu_table3_I", "fam": ["pairs", "matching"]})
    before = snapshot(at)
    at.segmented_control(key="src").set_value("upload").run()
    data = pd.DataFrame({"g": list("aabb"), "k": [1, 1, 2, 2]}).to_csv(index=False).encode()
    at.file_uploader(key="lab_upload_file").set_value(("labels.csv", data, "text/csv"))
    at.run()
    no_trouble(at)
    at.segmented_control(key="src").set_value("table").run()
    assert differences(snapshot(at), before) == []
    assert at.pills(key="fam").value == ["pairs", "matching"] and at.selectbox(key="preset").value == "wu_table3_I"


# ---------------------------------------------------------------- reset
@pytest.mark.parametrize("name", list(STATEFUL))
def test_reset_restores_the_defaults_and_clears_the_url(name):
    expected = snapshot(fresh(STATEFUL[name]))
    at = fresh(STATEFUL[name])
    perturb(at, sidebar=False)
    assert differences(snapshot(at), expected), "the controls did not move"
    at.sidebar.button(key=f"reset_{name}").click().run()
    no_trouble(at)
    assert differences(snapshot(at), expected) == []
    own = {p.name for p in state.DECLARED[name].params}
    assert not own & set(at.query_params), dict(at.query_params)


def test_reset_leaves_other_pages_and_the_settings_alone():
    at = fresh(COMPARE, {"log": "bits"})
    at.slider(key="noise").set_value(7).run()
    at = sidebar_to(at, LAB)
    at.selectbox(key="preset").set_value("wu_table10_II").run()
    at.sidebar.button(key="reset_table_lab").click().run()
    assert at.selectbox(key="preset").value == "rh_figure3" and at.radio(key="log").value == "bits"
    at = sidebar_to(at, COMPARE)
    assert at.slider(key="noise").value == 7


def test_reset_on_the_lesson_returns_to_its_first_step():
    at = fresh("app_pages/learn/lesson.py", {"step": "3"})
    assert at.query_params["step"] == "3"
    at.sidebar.button(key="reset_lesson").click().run()
    no_trouble(at)
    assert at.query_params["step"] == "1" and at.header[0].value.startswith("1.")


def test_home_has_nothing_to_reset():
    at = fresh(HOME)
    assert at.sidebar.button(key="reset_home").disabled


# ---------------------------------------------------------------- tabs in the URL
def test_a_link_opens_the_tab_it_names_and_only_that_tab_runs():
    at = fresh(FUZZY, {"fz_tab": "Experiment 2: random clusterings"})
    no_trouble(at)
    ids = [c.proto.id for c in at.get("plotly_chart")]
    assert any("fz_exp2" in i for i in ids) and not any("fz_exp1" in i or "fz_exp3" in i for i in ids)
    at = sidebar_to(at, HOME)
    at = go(at, FUZZY, {state.LINK_MARK: "1"})   # a link that names no tab: the first one
    assert at.session_state["fz_tab"] == "Experiment 1: data size"


def test_property_checker_tab_from_a_link_and_back_to_the_first_from_another():
    from dashboard.properties import views as pv

    at = fresh(PROPS, {pv.TAB_KEY: pv.RANGE_TAB, "p_m": "nvi"})
    assert at.session_state[pv.TAB_KEY] == pv.RANGE_TAB
    at = sidebar_to(at, HOME)
    at = go(at, PROPS, {"p_m": "nvi"})
    assert at.session_state[pv.TAB_KEY] != pv.RANGE_TAB


# ---------------------------------------------------------------- the declarations
def test_every_page_declares_its_url_parameters():
    """Every page declares its state under its URL path, and every widget key it writes into the
    URL is a declared parameter (or a setting)."""
    assert {"home", "table_lab", "compare", "generator_lab", "property_checker", "fuzzy_lab", "real_data",
            "gallery"} <= set(EVERY_PAGE)
    for name, page in EVERY_PAGE.items():
        at = fresh(page)
        no_trouble(at)
        assert at.session_state["_state_declared"] == name
        perturb(at)
        decl = state.DECLARED[name]
        undeclared = [k for k in at.query_params if decl.param(k) is None]
        assert not undeclared, (name, undeclared)


def test_params_parse_what_bound_widgets_write():
    assert state.Param("x", 3, bound=True).parse(["7"]) == 7
    assert state.Param("x", 0.1, bound=True).parse(["0.25"]) == 0.25
    assert state.Param("x", False, bound=True).parse(["true"]) is True
    assert state.Param("x", (2, 15), bound=True).parse(["3", "9"]) == (3, 9)
    assert state.Param("x", 3, bound=True).parse(["many"]) == 3   # unreadable: the default
    assert math.isclose(state.Param("x", 1.0, bound=True).parse(["2"]), 2.0)
