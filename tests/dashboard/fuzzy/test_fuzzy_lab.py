"""The Fuzzy lab through AppTest: the worked example, the playground and Experiments 1–3 show
exactly what metrics computes for the same settings; bad settings end in st.error."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from dashboard.fuzzy import views as fz
from metrics.core.formatting import format_number
from metrics.papers import experiments
from tests.dashboard.apptest_utils import chart, decoded, no_trouble, open_app

PAGE = "app_pages/explore/fuzzy_lab.py"
# Small experiments, so that each test stays quick.
SMALL = {"fz_e1_max": "16", "fz_e1_rep": "5", "fz_e2_max": "20", "fz_e3_n": "50", "fz_e3_steps": "3",
         "fz_n": "30", "fz_classes": "30"}


def open_page(timeout: float = 180, **params) -> AppTest:
    return open_app(PAGE, timeout, {**SMALL, **params})


def frame_with(at: AppTest, column: str) -> pd.DataFrame:
    for df in at.dataframe:
        if column in df.value.columns:
            return df.value
    raise KeyError(column)


def example_tables():
    ex = fz.example()
    return {mode: metrics.Contingency.from_memberships(ex["gold"], ex["clusters"], mode=mode)
            for mode in ("fuzzy", "count")}, ex


def expected_playground(n=30, scheme="halving", rate=None, classes=30, seed=0, noise=0.0, soft=50,
                        measure="v_measure", log_base=np.e, beta=1.0):
    """The playground's numbers computed straight from metrics."""
    gold = experiments.ambiguous_gold(n, scheme, rate, classes, seed=seed)
    steps = experiments.soft_clusterings(gold, fz.SOFT_STEPS)
    if noise:
        steps = [experiments.with_noise(c, noise, seed=seed) for c in steps]
    rows = [experiments.experiment3_row(gold, c, i, len(steps), measure, log_base=log_base, beta=beta)
            for i, c in enumerate(steps)]
    here = min(range(len(rows)), key=lambda i: abs(100 * rows[i]["softness"] - soft))
    return rows, here


# ---------------------------------------------------------------- the worked example
def test_worked_example_shows_metrics_values():
    at = open_page()
    no_trouble(at)
    tables, ex = example_tables()
    scores = frame_with(at, "printed V")
    for row, mode in zip(scores.to_dict("records"), ("fuzzy", "count")):
        v = metrics.evaluate(tables[mode], ["homogeneity", "completeness", "v_measure", "fuzzy_v_joint"])
        assert row["h"] == v["homogeneity"] and row["c"] == v["completeness"]
        assert row["V, R&H normalisation (H(C), H(K))"] == v["v_measure"]
        assert row["V, the paper's eqs. 2–3 (H(C,K))"] == v["fuzzy_v_joint"]
        assert row["total mass"] == tables[mode].n
    assert scores["printed V"].tolist() == [ex["printed"]["fuzzy_v"], ex["printed"]["traditional_v"]]
    table1 = frame_with(at, "g3")
    per_point = metrics.Contingency.from_memberships(ex["gold"], ex["points"], mode="fuzzy").T.to_frame()
    assert np.allclose(table1.loc[per_point.index, per_point.columns].to_numpy(), per_point.to_numpy())
    table2 = frame_with(at, "Σ")
    assert table2["Σ"].tolist() == tables["fuzzy"].col_sums.tolist()
    finding = next(i.value for i in at.info if "normalisation finding" in i.value)
    assert f"**{format_number(metrics.MEASURES['fuzzy_v_joint'](tables['fuzzy']))}**" in finding
    assert f"**{format_number(metrics.MEASURES['v_measure'](tables['fuzzy']))}**" in finding
    assert any(link.proto.page == "gallery" for link in at.page_link)


def test_worked_example_follows_log_base_and_beta():
    at = open_page(log="bits", beta="2")
    no_trouble(at)
    tables, _ = example_tables()
    scores = frame_with(at, "printed V")
    assert scores.loc[0, "V, R&H normalisation (H(C), H(K))"] == metrics.MEASURES["v_measure"](
        tables["fuzzy"], log_base=2, beta=2.0)
    assert any("β = 2" in i.value for i in at.info)


# ---------------------------------------------------------------- the playground
def test_playground_shows_metrics_values_and_follows_the_softness_slider():
    at = open_page()
    no_trouble(at)
    rows, here = expected_playground()
    bars = chart(at, "fz_variants")["data"][0]
    assert decoded(bars["x"]) == [rows[here][v] for v in fz.VARIANT_LABELS]
    curve = chart(at, "fz_curve")
    for trace in curve["data"]:
        variant = next(v for v, label in fz.VARIANT_LABELS.items() if label == trace["name"])
        assert decoded(trace["y"]) == [r[variant] for r in rows]
    assert curve["layout"]["shapes"][0]["x0"] == pytest.approx(100 * rows[here]["softness"])

    at.slider(key="fz_soft").set_value(100).run()
    no_trouble(at)
    rows, here = expected_playground(soft=100)
    assert here == len(rows) - 1
    assert decoded(chart(at, "fz_variants")["data"][0]["x"]) == [rows[here][v] for v in fz.VARIANT_LABELS]
    # The perfect soft clustering: below 1 without the dissimilarity step, 1 with it (Figures 6 and 11).
    assert rows[here]["fuzzy"] < 1 and rows[here]["fuzzy_diss"] == pytest.approx(1.0)


@pytest.mark.parametrize("params, expected", [
    ({"fz_scheme": "fixed", "fz_rate": "3"}, {"scheme": "fixed", "rate": 3}),
    ({"fz_scheme": "share", "fz_share": "30", "fz_noise": "20"}, {"scheme": "share", "rate": 0.3, "noise": 0.2}),
    ({"fz_m": "nmi_arithmetic", "fz_seed": "7", "fz_soft": "20"}, {"measure": "nmi_arithmetic", "seed": 7, "soft": 20}),
])
def test_playground_controls(params, expected):
    at = open_page(**params)
    no_trouble(at)
    rows, here = expected_playground(**expected)
    shown = decoded(chart(at, "fz_variants")["data"][0]["x"])
    assert shown == [rows[here][v] for v in fz.VARIANT_LABELS]
    assert chart(at, "fz_variants")["layout"]["xaxis"]["title"]["text"] == \
        metrics.MEASURES[expected.get("measure", "v_measure")].symbol


def test_tables_at_the_sliders():
    at = open_page()
    # Closed, the expander runs nothing; opened (a rerun), it draws the tables at the sliders.
    assert not any("fz_heat" in c.proto.id for c in at.get("plotly_chart"))
    at.session_state["fz_tables"] = True
    at.run()
    no_trouble(at)
    heat = chart(at, "fz_heat_fuzzy")
    gold = experiments.ambiguous_gold(30, "halving", None, 30, seed=0)
    _rows, here = expected_playground()
    t = experiments.fuzzy_tables(gold, experiments.soft_clusterings(gold, fz.SOFT_STEPS)[here])["fuzzy"]
    z = np.asarray(decoded(heat["data"][0]["z"])).reshape(-1)
    assert np.isclose(z.sum(), t.n)


def test_impossible_settings_show_an_error_and_recover():
    at = open_page(fz_scheme="fixed", fz_rate="6", fz_classes="3")
    assert not at.exception
    assert len(at.error) == 1 and "n_classes" in at.error[0].value
    at.slider(key="fz_classes").set_value(10).run()
    no_trouble(at)


def test_unknown_link_values_are_named():
    at = open_page(fz_scheme="spiral", fz_m="ami")
    assert not at.exception and not at.error
    warned = " ".join(w.value for w in at.warning)
    assert "spiral" in warned and "ami" in warned
    assert at.selectbox(key="fz_scheme").value == "halving" and at.selectbox(key="fz_m").value == "v_measure"


# ---------------------------------------------------------------- the experiments
EXP2, EXP3 = "Experiment 2: random clusterings", "Experiment 3: softness"


def test_experiments_show_metrics_reruns():
    """Each experiment in its tab, opened by the URL (?fz_tab=…); only the open tab runs."""
    at = open_page()
    no_trouble(at)
    ids = " ".join(c.proto.id for c in at.get("plotly_chart"))
    assert "fz_exp1" in ids and "fz_exp2" not in ids and "fz_exp3" not in ids
    e1 = experiments.experiment1(fz.sizes_up_to(16, 8), 5, 0)
    summary = frame_with(at, "fuzzy_higher")  # its numbers, beside the text they are shown as
    shown = summary[[c for c in summary.columns if c.endswith(" (shown)")]]
    values = summary.drop(columns=shown.columns).reset_index(drop=True)
    pd.testing.assert_frame_equal(values, experiments.summarize(e1), check_dtype=False)
    assert shown["fuzzy_higher (shown)"].tolist() == [f"{format_number(100 * v)} %" for v in values["fuzzy_higher"]]
    boxes = [t for t in chart(at, "fz_exp1")["data"] if t["type"] == "box"]
    assert decoded(boxes[0]["y"]) == e1["fuzzy"].tolist() and decoded(boxes[1]["y"]) == e1["count"].tolist()

    at = open_page(fz_tab=EXP2)
    no_trouble(at)
    e2 = experiments.experiment2(fz.even_sizes(20), 1, 0)
    lines = {t["name"]: decoded(t["y"]) for t in chart(at, "fz_exp2")["data"]}
    assert lines[fz.VARIANT_LABELS["fuzzy"]] == e2["fuzzy"].tolist()

    at = open_page(fz_tab=EXP3)
    no_trouble(at)
    e3 = experiments.experiment3(50, 3, 0)
    shown = frame_with(at, "fuzzy_diss")
    assert shown[["fuzzy", "count", "fuzzy_diss", "count_diss"]].to_numpy().tolist() == \
        e3[["fuzzy", "count", "fuzzy_diss", "count_diss"]].to_numpy().tolist()


def test_experiment_controls_rerun_with_new_settings():
    at = open_page(fz_tab=EXP3)
    at.number_input(key="fz_eseed").set_value(3).run()
    at.slider(key="fz_e3_steps").set_value(5).run()
    no_trouble(at)
    e3 = experiments.experiment3(50, 5, 3)
    assert frame_with(at, "fuzzy_diss")["fuzzy"].tolist() == e3["fuzzy"].tolist()
