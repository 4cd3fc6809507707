"""The Generator lab through Streamlit's AppTest: every control, the values shown against
``metrics`` computed directly, bad settings, links, and P1–P7 beside the printed Table 2.

Shown values are compared with ``metrics`` exactly (or to float rounding after a JSON round trip
of a chart): the page must show metrics' numbers, not recompute them.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from dashboard.generator import views as gv
from dashboard.ui.readout import escape_label
from dashboard.ui.safe_text import shown as shown_text
from metrics import properties
from metrics.papers import generators
from tests import ROOT
from tests.dashboard.apptest_utils import chart, decoded, no_trouble, open_app, shown_measures

PAGE = "app_pages/explore/generator_lab.py"
RH_TABLE_2 = json.loads((ROOT / "assets" / "paper_values" / "rh2007_table2.json")
                        .read_text(encoding="utf-8"))
# The sliders' defaults: Rosenberg & Hirschberg's Figure 3.
FIGURE_3 = dict(n_classes=3, n_useful_clusters=2, n_noise_clusters=1, n_noise_classes=1, eps1=0.1, eps2=0.2,
                eps3=0.1, n=60)
FIGURE_3_TABLE = [[12, 2, 4], [12, 2, 4], [2, 12, 4], [3, 3, 0]]   # as printed in the paper


# ---------------------------------------------------------------- helpers
def open_page(timeout: float = 180, **params) -> AppTest:
    return open_app(PAGE, timeout, params)


def has_chart(at: AppTest, key: str) -> bool:
    return any(key in c.proto.id for c in at.get("plotly_chart"))


def frames(at: AppTest, predicate) -> list[pd.DataFrame]:
    """The page's dataframes (in page order) that ``predicate`` accepts (dataframes carry no id)."""
    return [df.value for df in at.dataframe if predicate(df.value)]


def table2_frames(at: AppTest) -> list[pd.DataFrame]:
    """Ours and the printed Table 2: the frames whose rows are the paper's measures."""
    return frames(at, lambda f: list(f.index) == list(RH_TABLE_2["rates"]))


def texts(at: AppTest) -> str:
    return "\n".join(str(m.value) for m in list(at.markdown) + list(at.caption))


def expected(**changes) -> metrics.Contingency:
    return generators.dom(**{**FIGURE_3, **changes})


def assert_values_match(at: AppTest, t: metrics.Contingency, log_base: float = math.e) -> dict[str, float]:
    shown = shown_measures(at, drop_missing=True)
    direct = metrics.evaluate(t, log_base=log_base)
    assert shown.keys() == direct.keys()
    for k, v in direct.items():
        assert shown[k] == v, k          # the same numbers, not a recomputation
    return shown


@pytest.fixture(scope="module")
def default_page() -> AppTest:
    return open_page()


@pytest.fixture(scope="module")
def properties_page() -> AppTest:
    """The P1–P7 tab, opened by its URL parameter (as the lesson and Home link to it)."""
    return open_page(g_tab=gv.PROPERTIES_TAB)


# ---------------------------------------------------------------- the table and its measures
def test_defaults_build_figure_3_and_show_metrics_values(default_page):
    at = default_page
    no_trouble(at)
    assert at.title[0].value == "Generator lab"
    t = expected()
    assert t.to_dense().tolist() == FIGURE_3_TABLE
    heat = chart(at, "gen_heatmap")["data"][0]
    assert decoded(heat["z"]) == FIGURE_3_TABLE
    assert heat["x"] == ["K1", "K2", "Knoise1"] and heat["y"] == ["C1", "C2", "C3", "Cnoise1"]
    assert_values_match(at, t)
    # The goodness chart is the registry's goodness of the same values.
    bars = chart(at, "gen_goodness")["data"]
    values = metrics.evaluate(t)
    for trace in bars:
        for sym, g in zip(trace["y"], decoded(trace["x"])):
            key = next(k for k, m in metrics.MEASURES.items() if escape_label(m.symbol) == sym)  # as Plotly gets it
            assert g == pytest.approx(metrics.MEASURES[key].goodness(values[key]), abs=1e-12)


@pytest.mark.parametrize("key,arg,value", [
    ("g_C", "n_classes", 5), ("g_Ku", "n_useful_clusters", 7), ("g_Kn", "n_noise_clusters", 3),
    ("g_Cn", "n_noise_classes", 4), ("g_e1", "eps1", 0.25), ("g_e2", "eps2", 0.05), ("g_e3", "eps3", 0.3),
])
def test_every_slider_changes_the_table_and_the_values(key, arg, value):
    at = open_page()
    before = shown_measures(at, drop_missing=True)
    at.slider(key=key).set_value(value).run()
    no_trouble(at)
    t = expected(**{arg: value})
    heat = chart(at, "gen_heatmap")["data"][0]
    assert np.allclose(decoded(heat["z"]), t.to_frame().to_numpy())
    after = assert_values_match(at, t)
    assert any(after[k] != before.get(k) for k in after)
    # (Bound sliders write the URL in the browser: tests/e2e checks it; links are read in
    # test_a_link_reproduces_the_settings.)


def test_n_select_slider_and_whole_items_toggle():
    at = open_page()
    at.select_slider(key="g_n").set_value(1000).run()
    no_trouble(at)
    t = expected(n=1000)
    assert not t.is_integer                       # 0.1·1000/2 noise-class cells … expected counts
    shown = assert_values_match(at, t)
    assert "ami" not in shown                      # AMI needs whole items …
    assert any("AMI" in str(c.value) for c in at.caption)
    at.toggle(key="g_int").set_value(True).run()
    no_trouble(at)
    ti = generators.dom(**{**FIGURE_3, "n": 1000}, integer=True)
    assert ti.is_integer and ti.n == 1000
    shown = assert_values_match(at, ti)
    assert "ami" in shown                          # … which the rounded table has


def test_log_base_from_the_sidebar_reaches_every_value():
    at = open_page()
    at.radio(key="log").set_value("bits").run()
    no_trouble(at)
    assert_values_match(at, expected(), log_base=2.0)


@pytest.mark.parametrize("changes,words", [
    ({"g_Kn": 0}, ["ε2", "|Knoise|"]),                              # ε2 = .2 without noise clusters
    ({"g_Cn": 0}, ["ε3", "|Cnoise|"]),                              # ε3 = .1 without noise classes
    ({"g_Ku": 1}, ["ε1", "non-matching"]),                           # ε1 = .1 with one useful cluster
    ({"g_e1": 0.8}, ["ε1 + ε2 + ε3", "exceed 1"]),                   # ε = 1.1
])
def test_unrealizable_settings_name_the_parameter_and_keep_the_sliders(changes, words):
    at = open_page()
    for key, value in changes.items():
        at.slider(key=key).set_value(value).run()
    assert not at.exception
    assert len(at.error) == 1
    message = at.error[0].value
    for w in words:
        assert w in message, (w, message)
    assert "eps" not in message and "n_noise" not in message      # the sliders' symbols, not argument names
    assert not has_chart(at, "gen_heatmap")
    # Nothing the user set is lost: every slider keeps its value.
    for key, value in changes.items():
        assert at.slider(key=key).value == value
    assert at.slider(key="g_e2").value == pytest.approx(changes.get("g_e2", 0.2))
    # Moving the offending slider back recovers the table.
    for key in changes:
        default = {"g_Kn": 1, "g_Cn": 1, "g_Ku": 2, "g_e1": 0.1}[key]
        at.slider(key=key).set_value(default).run()
    no_trouble(at)
    assert_values_match(at, expected())


# ---------------------------------------------------------------- the sweep
def sweep_traces(at: AppTest) -> tuple[dict, dict]:
    good = {t["name"]: t for t in chart(at, "gen_sweep_goodness")["data"]}
    raw = {t["name"]: t for t in chart(at, "gen_sweep_raw")["data"]}
    return good, raw


def test_sweep_over_eps1_shows_metrics_values_raw_and_as_goodness(default_page):
    at = default_page
    keys = at.multiselect(key="g_m").value
    assert keys == ["v_measure", "vi", "nvi", "q0", "f_measure", "rand", "ari", "jaccard", "fowlkes_mallows",
                    "hubert_gamma", "bcubed_f"]
    good, raw = sweep_traces(at)
    spec = chart(at, "gen_sweep_goodness")
    marker = next(s for s in spec["layout"]["shapes"] if s.get("name") == "slider")
    assert marker["x0"] == pytest.approx(0.1)
    for key in keys:
        m = metrics.MEASURES[key]
        xs, ys, gs = good[m.symbol]["x"], decoded(raw[m.symbol]["y"]), decoded(good[m.symbol]["y"])
        assert xs == decoded(raw[m.symbol]["x"])
        for x, y, g in zip(xs, ys, gs):
            t = expected(eps1=x)
            if not m.applies_to(t):
                assert y is None or math.isnan(y)       # a gap, not a made-up value
                continue
            v = metrics.evaluate(t, [key])[key]
            assert y == pytest.approx(v, rel=1e-12, abs=1e-12), (key, x)
            assert g == pytest.approx(m.goodness(v), abs=1e-12), (key, x)
    # ε1 beyond 1 − ε2 − ε3 = 0.7 cannot be built: left out and said so.
    assert max(good["V_β"]["x"]) == pytest.approx(0.7)
    assert "Left out" in texts(at) and "must not exceed 1" in texts(at)


def test_sweep_axis_measures_and_marker_follow_the_controls():
    at = open_page()
    at.segmented_control(key="g_x").set_value("n_useful_clusters").run()
    at.multiselect(key="g_m").set_value(["vi", "nvi"]).run()
    no_trouble(at)
    good, raw = sweep_traces(at)
    assert set(good) == {"VI", "NVI"}
    # |Ku| = 1 cannot carry ε1 = .1 (no non-matching pair): the sweep starts at 2.
    assert good["VI"]["x"] == list(range(2, 16))
    ys = decoded(raw["NVI"]["y"])
    for x, y in zip(good["NVI"]["x"], ys):
        assert y == pytest.approx(metrics.evaluate(expected(n_useful_clusters=x), ["nvi"])["nvi"], rel=1e-12)
    at.slider(key="g_Ku").set_value(6).run()
    spec = chart(at, "gen_sweep_goodness")
    assert next(s for s in spec["layout"]["shapes"] if s.get("name") == "slider")["x0"] == 6
    assert at.query_params["g_x"] == "n_useful_clusters" and at.query_params["g_m"] == ["vi", "nvi"]
    # The number of items on a log axis.
    at.segmented_control(key="g_x").set_value("n").run()
    no_trouble(at)
    spec = chart(at, "gen_sweep_goodness")
    assert spec["layout"]["xaxis"]["type"] == "log"
    assert spec["data"][0]["x"] == list(gv.N_OPTIONS)


def test_no_measure_chosen_asks_for_one():
    at = open_page()
    at.multiselect(key="g_m").set_value([]).run()
    no_trouble(at)
    assert any("at least one measure" in i.value for i in at.info)
    assert not has_chart(at, "gen_sweep_goodness")


def test_a_sweep_with_no_buildable_value_warns_instead_of_failing():
    at = open_page()
    at.slider(key="g_Kn").set_value(0).run()      # ε2 = .2 now lacks noise clusters, whatever ε1 is
    assert not at.exception
    assert any("No value of ε1 can be built" in w.value for w in at.warning)
    # Sweeping |Knoise| itself shows where the setting becomes buildable again.
    at.segmented_control(key="g_x").set_value("n_noise_clusters").run()
    assert not at.exception
    good, _ = sweep_traces(at)
    assert good["VI"]["x"][0] == 1


# ---------------------------------------------------------------- links
def test_a_link_reproduces_the_settings():
    at = open_page(g_C="4", g_Ku="6", g_e1="0.05", g_n="200", g_x="eps3", g_m=["vi", "v_measure"])
    no_trouble(at)
    assert at.slider(key="g_C").value == 4 and at.slider(key="g_Ku").value == 6
    assert at.select_slider(key="g_n").value == 200
    assert at.segmented_control(key="g_x").value == "eps3"
    assert at.multiselect(key="g_m").value == ["vi", "v_measure"]
    assert_values_match(at, expected(n_classes=4, n_useful_clusters=6, eps1=0.05, n=200))


def test_bad_links_are_reported_not_crashed():
    at = open_page(g_x="nonsense", g_m=["vi", "no_such_measure"], g_C="99")
    assert not at.exception
    warnings = shown_text(" ".join(w.value for w in at.warning))
    assert "nonsense" in warnings and "no_such_measure" in warnings
    assert at.segmented_control(key="g_x").value == "eps1"
    assert at.multiselect(key="g_m").value == ["vi"]
    assert at.slider(key="g_C").value == 3      # an out-of-range value is ignored (Streamlit's binding)


# ---------------------------------------------------------------- P1–P7 and Table 2
@pytest.fixture(scope="module")
def rates() -> pd.DataFrame:
    return properties.dom_property_rates()


def test_p1_p7_has_its_own_tab_that_a_link_opens(default_page, properties_page):
    # The default tab builds and sweeps; P1–P7 is not computed there (only the open tab runs) ...
    assert default_page.session_state[gv.TAB_KEY] == gv.LAB_TAB
    assert not table2_frames(default_page) and has_chart(default_page, "gen_heatmap")
    # ... and the link's tab shows Table 2 at the top of the page, without the sliders' work.
    no_trouble(properties_page)
    assert properties_page.session_state[gv.TAB_KEY] == gv.PROPERTIES_TAB
    assert len(table2_frames(properties_page)) == 2 and not properties_page.get("plotly_chart")
    assert [t.label for t in properties_page.tabs] == [gv.LAB_TAB, gv.PROPERTIES_TAB]


def test_table_2_beside_ours_with_differences_highlighted(properties_page, rates):
    at = properties_page
    ours, printed = table2_frames(at)
    direct = rates.set_index(["measure", "property"])["rate"]
    assert list(ours.index) == list(RH_TABLE_2["rates"]) == list(printed.index)
    for name, row in RH_TABLE_2["rates"].items():
        key = RH_TABLE_2["measure_keys"][name]
        for prop, p in row.items():
            assert ours.at[name, prop] == direct[(key, prop)]
            assert printed.at[name, prop] == p
    # The highlighting marks exactly the cells that differ at the printed two decimals.
    comparison = gv.table2_comparison(rates)
    _, _, differs = gv.comparison_frames(comparison)
    for name, row in RH_TABLE_2["rates"].items():
        for prop, p in row.items():
            assert differs.at[name, prop] == (round(float(ours.at[name, prop]), 2) != p), (name, prop)
    # The paper's headline reproduces: V, VI and Q0 satisfy every property.
    assert not differs.loc[["Q0", "VI", "V-Measure"]].any().any()
    assert differs.loc["Rand", "P1"] and not differs.loc["Rand", "P3"]


def test_every_differing_cell_has_its_own_explanation(properties_page, rates):
    comparison = gv.table2_comparison(rates)
    found = gv.explanations(comparison)
    cells = [c for _, where in found for c in where]
    differing = {f"{r.measure} {r.property}" for r in comparison.itertuples() if not r.agrees}
    assert differing and set(cells) == differing
    whys = [why for why, _ in found]
    assert not any(w.startswith("No specific explanation") for w in whys), found   # the JSON names each one
    shown = texts(properties_page)
    for why, where in found:
        assert why in shown and ", ".join(where) in shown
    assert RH_TABLE_2["differences"]["general"] in shown


def test_every_measure_rates_table_equals_dom_property_rates(properties_page, rates):
    (frame,) = frames(properties_page, lambda f: "symbol" in f.columns and "P1" in f.columns)
    assert list(frame.index) == list(dict.fromkeys(rates["measure"]))
    for r in rates.itertuples():
        assert frame.at[r.measure, r.property] == r.rate, (r.measure, r.property)
    assert "ami" not in frame.index


def test_failing_steps_on_demand():
    at = open_page(g_tab=gv.PROPERTIES_TAB)
    at.toggle(key="g_fail").set_value(True).run()
    no_trouble(at)
    assert at.selectbox(key="g_fm").value == "rand" and at.selectbox(key="g_fp").value == "P1"
    assert "0 steps" in texts(at)                 # Rand never fails P1 on our grid
    at.selectbox(key="g_fp").set_value("P2").run()
    no_trouble(at)
    (shown,) = frames(at, lambda f: "value_from" in f.columns)
    direct = properties.dom_property_failures("rand", "P2")
    assert len(shown) == len(direct) > 0
    assert np.array_equal(shown["value_to"].to_numpy(), direct["value_to"].to_numpy())
    assert set(shown["n_useful_clusters"]) == {6, 7, 8, 9}
    at.selectbox(key="g_fm").set_value("jaccard").run()
    at.selectbox(key="g_fp").set_value("P3").run()
    no_trouble(at)
    (shown,) = frames(at, lambda f: "value_from" in f.columns)
    direct = properties.dom_property_failures("jaccard", "P3")
    assert len(shown) == len(direct) > 0 and (shown["property"] == "P3").all()
    assert at.query_params["g_fm"] == "jaccard"


def test_every_chart_the_page_sends_is_valid_plotly(default_page):
    # The sweep figures are built without Plotly's validation (speed); validate what was sent.
    import plotly.graph_objects as go

    ids = [c.proto.id for c in default_page.get("plotly_chart")]
    for key in ("gen_heatmap", "gen_goodness", "gen_sweep_goodness", "gen_sweep_raw"):
        assert any(key in i for i in ids), key
        go.Figure(chart(default_page, key))          # raises on an invalid property
