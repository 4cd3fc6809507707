"""The Uniform effect page through AppTest: CV₀, CV₁ and DCV are those of scikit-learn's K-means
on the generated data (re-run here directly), the κ table is metrics' DCV criterion with Wu et
al.'s printed κ beside it, and impossible settings give a message, not a traceback."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.cluster import KMeans

from dashboard.playground import uniform as ue
from metrics.papers import dcv
from metrics.papers import generators as g
from tests.dashboard.apptest_utils import chart, decoded, no_trouble, open_app

PAGE = "app_pages/learn/uniform_effect.py"
SMALL = {"ue_n": "300", "ue_cv0": "1.2", "ue_m": ["purity", "vi_n", "vi", "f_n", "r_n"]}


def verdicts(at) -> pd.DataFrame:
    for df in at.dataframe:
        if "wu_simulated" in df.value.columns:
            return df.value.set_index("symbol")
    raise KeyError("verdicts")


def metric_values(at) -> dict[str, float]:
    return {m.label: float(m.value) for m in at.metric}


def test_cv_values_are_kmeans_on_the_generated_data():
    at = open_app(PAGE, params=SMALL)
    no_trouble(at)
    points, classes = g.skewed_blobs(1.2, 3, 300, 2.5, 0, min_size=ue.MIN_SIZE)
    labels = KMeans(n_clusters=3, n_init=1, random_state=0).fit_predict(points)
    direct = dcv.run_summary(classes, labels)
    shown = metric_values(at)
    assert shown["CV₀ (classes)"] == pytest.approx(direct["cv0"], abs=6e-4)
    assert shown["CV₁ (clusters)"] == pytest.approx(direct["cv1"], abs=6e-4)
    assert shown["DCV = CV₁ − CV₀"] == pytest.approx(direct["dcv"], abs=6e-4) and direct["dcv"] < 0
    # The sweep figure: DCV per setting, falling as CV₀ grows (Wu et al.'s Figure 2).
    spec = chart(at, "ue_dcv")
    dcv_line = next(t for t in spec["data"] if t["name"].startswith("DCV"))
    y = np.array(decoded(dcv_line["y"]), dtype=float)
    assert len(y) == ue.SETTINGS and y[-1] < y[0]


def test_kappa_table_is_the_dcv_criterion_beside_wu_table7():
    at = open_app(PAGE, params=SMALL)
    table = verdicts(at)
    runs = []
    for setting in np.linspace(0, 1.2, ue.SETTINGS):
        for r in range(ue.REPEATS):
            points, classes = g.skewed_blobs(float(setting), 3, 300, 2.5, r, min_size=ue.MIN_SIZE)
            runs.append((setting, classes, KMeans(n_clusters=3, n_init=1, random_state=r).fit_predict(points)))
    kappa = dcv.dcv_kappa(dcv.dcv_sweep(runs, SMALL["ue_m"])).set_index("key")
    for key, sym in (("purity", "P"), ("vi_n", "VI_n"), ("vi", "VI"), ("f_n", "F_n"), ("r_n", "R_n")):
        assert table.loc[sym, "kappa"] == pytest.approx(kappa.loc[key, "kappa"])
        assert table.loc[sym, "here"] == ("fooled" if kappa.loc[key, "fooled"] else "sees it")
    assert table.loc["VI", "wu_sampled"] == "-0.93" and table.loc["VI", "wu"] == "fooled"
    assert table.loc["R_n", "wu"] == "sees it" and table.loc["F_n", "wu"] == "fooled"
    assert table.loc["P", "wu"] == "fooled (Table 4)"
    fooled = [s for s in table.index if table.loc[s, "here"] == "fooled"]
    sentence = next(m.value for m in at.markdown if "fooled by the uniform effect" in m.value)
    assert all(s.replace("_", "\\_") in sentence for s in fooled)


def test_impossible_skew_and_no_measures():
    at = open_app(PAGE, params={"ue_k": "6", "ue_n": "300", "ue_cv0": "2.5"})
    assert not at.exception
    assert any("cannot vary more than" in e.value for e in at.error)
    at = open_app(PAGE, params={**SMALL, "ue_m": []})
    at.multiselect(key="ue_m").set_value([]).run()
    assert any("Choose at least one measure" in i.value for i in at.info) and not at.exception


def test_controls_change_the_run():
    at = open_app(PAGE, params=SMALL)
    first = metric_values(at)["CV₀ (classes)"]
    at.slider(key="ue_cv0").set_value(0.5).run()
    no_trouble(at)
    assert metric_values(at)["CV₀ (classes)"] == pytest.approx(0.5, abs=0.01) != first
    at.slider(key="ue_k").set_value(4).run()
    at.select_slider(key="ue_var").set_value(5.0).run()
    at.number_input(key="ue_seed").set_value(3).run()
    at.select_slider(key="ue_n").set_value(1200).run()
    no_trouble(at)
    assert len(verdicts(at)) == len(SMALL["ue_m"])
    points, classes = g.skewed_blobs(0.5, 4, 1200, 5.0, 3000, min_size=ue.MIN_SIZE)
    direct = dcv.run_summary(classes, KMeans(n_clusters=4, n_init=1, random_state=3000).fit_predict(points))
    assert metric_values(at)["CV₁ (clusters)"] == pytest.approx(direct["cv1"], abs=6e-4)
