"""The Property checker through Streamlit's AppTest: the live checks and their evidence against
``metrics.properties.check_properties``, every demo control against ``metrics`` computed
directly, bad input, links, and the measures × properties matrix beside Wu et al.'s Table 12.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from dashboard.properties import views as pv
from dashboard.ui.figures.charts import fmt
from dashboard.ui.presets import load_presets
from dashboard.ui.safe_text import shown as shown_text
from metrics import properties
from metrics.papers import generators
from tests import ROOT
from tests.dashboard.apptest_utils import chart, decoded, no_trouble, open_app

PAGE = "app_pages/explore/property_checker.py"
TABLE_12 = json.loads((ROOT / "assets" / "paper_values" / "wu2009_table12.json")
                      .read_text(encoding="utf-8"))
PRESETS = load_presets()


# ---------------------------------------------------------------- helpers
def open_page(timeout: float = 180, **params) -> AppTest:
    return open_app(PAGE, timeout, params)


def markdown(at: AppTest) -> str:
    return "\n".join(str(m.value) for m in at.markdown)


def frames(at: AppTest, predicate) -> list[pd.DataFrame]:
    """Dataframes and static tables of the page (in page order) that ``predicate`` accepts."""
    return [df.value for df in list(at.dataframe) + list(at.table) if predicate(df.value)]


def heat_z(at: AppTest, key: str) -> np.ndarray:
    return np.asarray(decoded(chart(at, key)["data"][0]["z"]), dtype=float)


@pytest.fixture(scope="module")
def default_page() -> AppTest:
    return open_page()


# ---------------------------------------------------------------- live checks
def test_defaults_check_vi_live(default_page):
    at = default_page
    no_trouble(at)
    assert at.title[0].value == "Property checker"
    assert at.selectbox(key="p_m").value == "vi"
    direct = properties.check_properties("vi")
    text = markdown(at)
    for name, (number, title, _) in pv.WU_PROPERTIES.items():
        mark = "✓" if direct[name]["holds"] else "✗"
        assert f"{mark} **{title}** ({number}: Wu et al.'s {pv.WU_PRINTED[name]})" in text, name
    # VI is a metric: the three axioms hold.
    assert "✓ **Metric axioms**" in text
    # VI is not left-domain complete in Wu's sense (it is 1 only for VI_n): the counterexample is shown.
    ev = direct["left_domain_complete"]["evidence"]
    shown = frames(at, lambda f: f.shape == ev["table"].shape and (f.to_numpy() == ev["table"].to_numpy()).all())
    assert shown
    assert f"M(table) = **{fmt(ev['value'])}**" in text


@pytest.mark.parametrize("key,prop", [("f_n", "symmetry"), ("r_n", "n_invariance"), ("nvi", "convex_additivity"),
                                      ("epsilon_n", "left_domain_complete")])
def test_a_failing_property_shows_its_counterexample(key, prop):
    at = open_page(p_m=key)
    no_trouble(at)
    entry = properties.check_properties(key)[prop]
    assert not entry["holds"]
    ev = entry["evidence"]
    table = ev["table"]
    assert frames(at, lambda f: f.shape == table.shape and (f.to_numpy() == table.to_numpy()).all())
    # The counterexample really is one: metrics on the shown table disagree as stated.
    t = metrics.Contingency.from_table(table.to_numpy())
    text = markdown(at)
    if prop == "symmetry":
        a, b = metrics.evaluate(t, [key])[key], metrics.evaluate(t.T, [key])[key]
        assert not math.isclose(a, b) and f"M(tableᵀ) = **{fmt(b)}**" in text
    elif prop == "n_invariance":
        b = metrics.evaluate(generators.scale(t, ev["factor"]), [key])[key]
        assert b == pytest.approx(ev["value_scaled"]) and f"M(λ·table) = **{fmt(b)}**" in text
    elif prop == "convex_additivity":
        assert f"Σ_l (n_l/n)·M(block l) = **{fmt(ev['weighted_sum_of_blocks'])}**" in text
    else:
        assert f"the property's value = **{fmt(ev['target'])}**" in text
    assert "fails — counterexample below" in text


def test_a_distance_that_breaks_the_triangle_inequality_shows_the_labelings():
    at = open_page(p_m="vi_n")
    no_trouble(at)
    metric = properties.check_properties("vi_n")["metric"]
    assert not metric["triangle"]["holds"]
    ev = metric["triangle"]["evidence"]
    text = markdown(at)
    assert "✗ Triangle inequality" in text and "Labelings: X = " in text
    assert f"d(X, Z) = **{fmt(ev['d(X,Z)'])}**" in text


def test_every_measure_can_be_checked():
    at = open_page()
    for key in metrics.MEASURES:
        at.selectbox(key="p_m").set_value(key).run()
        no_trouble(at)
        direct = properties.check_properties(key)
        text = markdown(at)
        for name, (_, title, _) in pv.WU_PROPERTIES.items():
            assert f"{'✓' if direct[name]['holds'] else '✗'} **{title}**" in text, (key, name)
        if metrics.MEASURES[key].higher_is_better:
            assert any("similarity" in str(c.value) for c in at.caption)


def test_the_seed_draws_other_cases():
    at = open_page(p_m="f_n")
    first = properties.check_properties("f_n", seed=0)["symmetry"]["evidence"]["table"]
    at.number_input(key="p_seed").set_value(7).run()
    no_trouble(at)
    other = properties.check_properties("f_n", seed=7)["symmetry"]["evidence"]["table"]
    assert not (first.shape == other.shape and (first.to_numpy() == other.to_numpy()).all())
    assert frames(at, lambda f: f.shape == other.shape and (f.to_numpy() == other.to_numpy()).all())


# ---------------------------------------------------------------- demos
def test_lambda_slider_scales_the_table():
    at = open_page(p_m="rand")
    t = PRESETS["rh_figure3"].contingency()
    for lam in (1, 5):
        at.slider(key="p_lam").set_value(lam).run()
        no_trouble(at)
        a = metrics.evaluate(t, ["rand"])["rand"]
        b = metrics.evaluate(generators.scale(t, lam), ["rand"])["rand"]
        (line,) = [str(m.value) for m in at.markdown if f"R({lam}·table)" in str(m.value)]
        assert line.startswith(f"R(table) = **{fmt(a)}**, R({lam}·table) = **{fmt(b)}**")
        assert line.endswith("**equal**.") == (lam == 1)        # Rand is not n-invariant
        spec = chart(at, "pc_scale_chart")
        assert spec["layout"]["shapes"][0]["x0"] == lam
    ys = decoded(spec["data"][0]["y"])
    for lam, y in zip(decoded(spec["data"][0]["x"]), ys):
        assert y == pytest.approx(metrics.evaluate(generators.scale(t, lam), ["rand"])["rand"], rel=1e-12)


def test_lambda_leaves_an_n_invariant_measure_alone():
    at = open_page(p_m="vi", p_lam="7")
    no_trouble(at)
    (line,) = [str(m.value) for m in at.markdown if "VI(7·table)" in str(m.value)]
    assert line.endswith("**equal**.")
    ys = decoded(chart(at, "pc_scale_chart")["data"][0]["y"])
    assert max(ys) - min(ys) < 1e-9


def test_the_unit_of_information_reaches_the_demos():
    at = open_page(p_m="vi")
    at.radio(key="log").set_value("bits").run()
    no_trouble(at)
    t = PRESETS["rh_figure3"].contingency()
    bits = metrics.evaluate(t, ["vi"], log_base=2)["vi"]
    assert bits != metrics.evaluate(t, ["vi"])["vi"]
    (line,) = [str(m.value) for m in at.markdown if "VI(2·table)" in str(m.value)]
    assert line.startswith(f"VI(table) = **{fmt(bits)}**")
    at = open_page(p_m="vi", p_tab=pv.RANGE_TAB)
    at.radio(key="log").set_value("bits").run()
    no_trouble(at)
    ys = decoded(chart(at, "pc_range_chart")["data"][0]["y"])
    single = generators.single_cluster([pv.CLASS_SIZE] * pv.RANGE_CLASSES[0])
    assert ys[0] == pytest.approx(metrics.evaluate(single, ["vi"], log_base=2)["vi"], rel=1e-12)


def test_transpose_toggle():
    at = open_page(p_m="f_n", p_t="wu_table3_I", p_tab=pv.TRANSPOSE_TAB)
    t = PRESETS["wu_table3_I"].contingency()
    assert np.array_equal(heat_z(at, "pc_transpose_heatmap"), t.to_dense())
    at.toggle(key="p_T").set_value(True).run()
    no_trouble(at)
    assert np.array_equal(heat_z(at, "pc_transpose_heatmap"), t.T.to_dense())
    a, b = metrics.evaluate(t, ["f_n"])["f_n"], metrics.evaluate(t.T, ["f_n"])["f_n"]
    assert not math.isclose(a, b)
    # The symbol reaches Markdown escaped (F\_n renders F_n; unescaped, two of them italicise the text between).
    (line,) = [str(m.value) for m in at.markdown if "F\\_n(tableᵀ) = " in str(m.value)]
    assert f"F\\_n(table) = **{fmt(a)}**, F\\_n(tableᵀ) = **{fmt(b)}**: **different**" in line


def test_split_and_merge_a_cluster():
    at = open_page(p_m="vi", p_tab=pv.SPLIT_TAB)
    t = PRESETS["rh_figure3"].contingency()
    at.selectbox(key="p_sc").set_value("K2").run()
    at.slider(key="p_parts").set_value(3).run()
    no_trouble(at)
    after = generators.split(t, "K2", 3)
    assert np.array_equal(heat_z(at, "pc_after_heatmap"), after.to_dense())
    v = metrics.evaluate(after, ["vi"])["vi"]
    assert f"after = **{fmt(v)}**" in markdown(at)
    spec = chart(at, "pc_split_chart")
    for k, y in zip(decoded(spec["data"][0]["x"]), decoded(spec["data"][0]["y"])):
        assert y == pytest.approx(metrics.evaluate(generators.split(t, "K2", k), ["vi"])["vi"], rel=1e-12)
    assert spec["layout"]["shapes"][0]["x0"] == 3

    at.segmented_control(key="p_op").set_value("merge").run()
    no_trouble(at)
    merged = generators.merge(t, ["K1", "K2"])             # the default choice: the first two clusters
    assert np.array_equal(heat_z(at, "pc_after_heatmap"), merged.to_dense())
    assert f"after = **{fmt(metrics.evaluate(merged, ['vi'])['vi'])}**" in markdown(at)
    at.multiselect(key="p_mc").set_value(["K1"]).run()
    assert not at.exception
    assert any("at least two clusters" in w.value for w in at.warning)


def test_a_new_table_drops_cluster_choices_it_does_not_have():
    at = open_page(p_tab=pv.SPLIT_TAB)
    at.selectbox(key="p_sc").set_value("Knoise1").run()
    at.selectbox(key="p_t").set_value("wu_table3_I").run()
    no_trouble(at)
    assert at.selectbox(key="p_sc").value == "P1"
    at.segmented_control(key="p_op").set_value("merge").run()
    at.selectbox(key="p_t").set_value("extreme_single_cluster").run()
    assert not at.exception
    assert any("only one cluster" in w.value for w in at.warning)


def test_vi_range_grows_with_n_and_nvi_does_not():
    at = open_page(p_tab=pv.RANGE_TAB)
    spec = chart(at, "pc_range_chart")
    curves = {(d["name"], d["yaxis"]): d for d in spec["data"]}
    vi_single = curves[("single cluster", "y")]
    nvi_single = curves[("single cluster", "y2")]
    ns = decoded(vi_single["x"])
    for n, vi, nvi in zip(ns, decoded(vi_single["y"]), decoded(nvi_single["y"])):
        t = generators.single_cluster([pv.CLASS_SIZE] * int(n // pv.CLASS_SIZE))
        assert t.n == n
        assert vi == pytest.approx(metrics.evaluate(t, ["vi"])["vi"], rel=1e-12)
        assert nvi == pytest.approx(metrics.evaluate(t, ["nvi"])["nvi"], rel=1e-12)
    assert np.all(np.diff(decoded(vi_single["y"])) > 0)        # VI's scale grows with n …
    assert np.allclose(decoded(nvi_single["y"]), 1.0)             # … NVI's single cluster stays at 1
    # A third panel for the chosen measure when it is neither VI nor NVI.
    at.selectbox(key="p_m").set_value("v_measure").run()
    no_trouble(at)
    assert {d["yaxis"] for d in chart(at, "pc_range_chart")["data"]} == {"y", "y2", "y3"}


# ---------------------------------------------------------------- links
LINK = dict(p_m="nvi", p_t="wu_table10_I", p_lam="3", p_T="true", p_op="merge", p_mc=["P1", "P3"])


def test_a_link_reproduces_the_page():
    """The link names every demo's state; each tab it opens shows its part (only the open tab runs)."""
    at = open_page(**LINK, p_tab=pv.SPLIT_TAB)
    no_trouble(at)
    assert at.selectbox(key="p_m").value == "nvi" and at.selectbox(key="p_t").value == "wu_table10_I"
    assert at.multiselect(key="p_mc").value == ["P1", "P3"]
    t = PRESETS["wu_table10_I"].contingency()
    assert np.array_equal(heat_z(at, "pc_after_heatmap"), generators.merge(t, ["P1", "P3"]).to_dense())
    assert at.query_params["p_m"] == "nvi"
    with pytest.raises(KeyError):      # the scale demo's tab is closed
        chart(at, "pc_scale_chart")
    at = open_page(**LINK, p_tab=pv.SCALE_TAB)
    assert at.slider(key="p_lam").value == 3
    at = open_page(**LINK, p_tab=pv.TRANSPOSE_TAB)
    assert at.toggle(key="p_T").value is True
    assert np.array_equal(heat_z(at, "pc_transpose_heatmap"), t.T.to_dense())


def test_only_the_open_demo_runs():
    keys = {pv.SCALE_TAB: {"pc_scale_chart"}, pv.TRANSPOSE_TAB: {"pc_transpose_heatmap"},
            pv.SPLIT_TAB: {"pc_before_heatmap", "pc_after_heatmap", "pc_split_chart"}, pv.RANGE_TAB: {"pc_range_chart"}}
    for tab in keys:
        at = open_page(p_tab=tab)
        no_trouble(at)
        for other, theirs in keys.items():
            for key in theirs:
                if other == tab:
                    assert chart(at, key)["data"], (tab, key)
                else:
                    with pytest.raises(KeyError):
                        chart(at, key)


def test_bad_links_are_reported():
    at = open_page(p_m="no_such_measure", p_t="no_such_table", p_sc="K99", p_tab=pv.SPLIT_TAB)
    assert not at.exception
    warnings = shown_text(" ".join(w.value for w in at.warning))
    assert "no_such_measure" in warnings and "no_such_table" in warnings and "K99" in warnings
    assert at.selectbox(key="p_m").value == "vi" and at.selectbox(key="p_sc").value == "K1"


# ---------------------------------------------------------------- the matrix
@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return properties.properties_table()


def matrix(at: AppTest) -> pd.DataFrame:
    (frame,) = frames(at, lambda f: "W1 symm." in f.columns)
    return frame


def test_matrix_shows_properties_table_for_every_measure(default_page, table):
    frame = matrix(default_page)
    assert list(frame.index) == [m.symbol for m in metrics.MEASURES.values()]
    assert list(frame["measure"]) == [m.name for m in metrics.MEASURES.values()]
    for r in table.itertuples():
        cell = frame.at[metrics.MEASURES[r.measure].symbol, pv.MATRIX_COLUMNS[r.property]]
        assert cell.startswith({True: "✓", False: "✗", None: "—"}[r.holds]), (r.measure, r.property, cell)


def test_wu_printed_cells_are_marked_and_disagreements_explained(default_page, table):
    frame = matrix(default_page)
    holds = table.set_index(["measure", "property"])["holds"]
    column = {"P1": "symmetry", "P2": "n_invariance", "P3": "convex_additivity", "P4": "left_domain_complete",
              "P5": "right_domain_complete"}
    disagreements = []
    for name, row in TABLE_12["table"].items():
        key = TABLE_12["measure_keys"][name]
        for p, printed in row.items():
            cell = frame.at[metrics.MEASURES[key].symbol, pv.MATRIX_COLUMNS[column[p]]]
            assert cell.endswith(f"(Wu: {printed})"), (name, p, cell)
            says = printed == "Yes"        # Yes*: no for the normalized measure; Yes**: only when K = K′
            if bool(holds[(key, column[p])]) != says:
                disagreements.append(f"{name} {p}")
            if printed == "Yes*":
                unnorm = TABLE_12["unnormalized_keys"][name]
                assert frame.at[metrics.MEASURES[unnorm].symbol, pv.MATRIX_COLUMNS[column[p]]] == "✓ (Wu: Yes*)"
    _, _, dis = pv.matrix_frames(table)
    flagged = [(i, c) for i in dis.index for c in dis.columns if dis.at[i, c]]
    assert len(flagged) == len(disagreements) == 1 and disagreements == ["ε_n P1"]
    found = pv.wu_explanations(table)
    assert [where for _, where in found] == [["ε_n W1"]]      # Wu's P1, shown as W1 (Dom's P1 is another)
    assert not found[0][0].startswith("No explanation")
    assert found[0][0] in markdown(default_page)


@pytest.mark.parametrize("tab, keys", [
    (pv.SCALE_TAB, ("pc_scale_chart",)), (pv.TRANSPOSE_TAB, ("pc_transpose_heatmap",)),
    (pv.SPLIT_TAB, ("pc_before_heatmap", "pc_after_heatmap", "pc_split_chart")), (pv.RANGE_TAB, ("pc_range_chart",))])
def test_every_chart_the_page_sends_is_valid_plotly(tab, keys):
    # The demos' figures are built without Plotly's validation (speed); validate what was sent.
    import plotly.graph_objects as go

    at = open_page(p_tab=tab)
    for key in keys:
        go.Figure(chart(at, key))          # raises on an invalid property
