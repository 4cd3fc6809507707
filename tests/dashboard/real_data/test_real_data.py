"""The Real data page through AppTest: the values shown for every k are metrics' values of the
clusterings (re-run here with scikit-learn and SciPy directly), controls and links work, and
nothing the user can set ends in a traceback."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.cluster.hierarchy import cut_tree, linkage
from sklearn import datasets
from sklearn.cluster import KMeans
from sklearn.preprocessing import StandardScaler
from streamlit.testing.v1 import AppTest

import metrics
from dashboard.real_data import views as rd
from metrics.core.formatting import format_number
from metrics.papers import experiments, generators
from tests.dashboard.apptest_utils import APP, chart, decoded, no_trouble

PAGE = "app_pages/explore/real_data.py"
SMALL = {"rd_k": ["2", "5"]}


def open_page(timeout: float = 180, **params) -> AppTest:
    """The page with its "All values" expander open (drawn only while open)."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    for k, v in {**SMALL, **params}.items():
        at.query_params[k] = v
    at.session_state["rd_values_box"] = True
    return at.switch_page(PAGE).run()


def values(at: AppTest) -> pd.DataFrame:
    for df in at.dataframe:
        if "dcv" in df.value.columns:
            return df.value
    raise KeyError("values")


def direct_labels(name: str, algorithm: str, k: int, seed: int = 0, standardize: bool = True) -> np.ndarray:
    """The clustering, re-run here without the dashboard."""
    x = getattr(datasets, f"load_{name}")().data
    x = StandardScaler().fit_transform(x) if standardize else x
    if algorithm == "kmeans":
        return KMeans(n_clusters=k, n_init=rd.KMEANS_RESTARTS, random_state=seed).fit_predict(x)
    if algorithm == "ward":
        return cut_tree(linkage(x, method="ward"), n_clusters=[k]).ravel()
    return np.random.default_rng([seed, k]).integers(0, k, size=x.shape[0])


def expected(name, algorithms, ks, keys, seed=0, standardize=True, log_base=np.e, beta=1.0) -> pd.DataFrame:
    gold = getattr(datasets, f"load_{name}")().target
    frames = []
    for a in algorithms:
        f = experiments.cluster_count_sweep(gold, {k: direct_labels(name, a, k, seed, standardize) for k in ks},
                                            keys, log_base=log_base, beta=beta)
        f.insert(0, "algorithm", rd.ALGORITHMS[a])
        frames.append(f)
    return pd.concat(frames, ignore_index=True)


def test_default_page_shows_metrics_values():
    at = open_page()
    no_trouble(at)
    shown = values(at)
    want = expected("iris", ["kmeans", "ward"], range(2, 6), rd.DEFAULT_MEASURES)
    pd.testing.assert_frame_equal(shown.reset_index(drop=True), want, check_dtype=False, rtol=0, atol=1e-12)
    # The measure chart draws the same numbers: one panel per measure, one line per algorithm.
    traces = chart(at, "rd_measures")["data"]
    vi_kmeans = next(t for t in traces if t["name"] == "K-means" and t["yaxis"] == "y2")
    assert decoded(vi_kmeans["y"]) == want.loc[want["algorithm"] == "K-means", "vi"].tolist()
    # CV_0 and the DCV at the true k (3 classes).
    at3 = want[(want["k"] == 3) & (want["algorithm"] == "K-means")].iloc[0]
    text = " ".join(m.value for m in at.markdown)
    assert f"DCV = CV_1 − CV_0 = **{format_number(at3['dcv'])}**" in text
    assert f"CV_0 = {format_number(generators.cv([50, 50, 50]))}" in text
    csv = [b for b in at.get("download_button") if "rd_dl" in b.proto.id]
    assert len(csv) == 1


def test_best_k_table_and_goodness_chart():
    at = open_page()
    want = expected("iris", ["kmeans", "ward"], range(2, 6), rd.DEFAULT_MEASURES)
    best = next(df.value for df in at.dataframe if "measure" in df.value.columns)
    for algo in ("kmeans", "ward"):
        name = rd.ALGORITHMS[algo]
        picks = experiments.best_k(want[want["algorithm"] == name], rd.DEFAULT_MEASURES)
        assert best[name].tolist() == [picks[k] for k in rd.DEFAULT_MEASURES]
    good = chart(at, "rd_goodness")["data"]
    vi = next(t for t in good if t["name"] == metrics.MEASURES["vi"].symbol and t["xaxis"] == "x")
    assert decoded(vi["y"]) == pytest.approx(
        metrics.MEASURES["vi"].goodness(want.loc[want["algorithm"] == "K-means", "vi"].to_numpy()).tolist())


@pytest.mark.parametrize("name", list(rd.DATASETS))
def test_every_data_set(name):
    at = open_page(rd_data=name, rd_k=["2", "3"], rd_algo=["ward", "random"], rd_m=["v_measure", "ari"])
    no_trouble(at)
    want = expected(name, ["ward", "random"], [2, 3], ["v_measure", "ari"])
    pd.testing.assert_frame_equal(values(at).reset_index(drop=True), want, check_dtype=False, rtol=0, atol=1e-12)


def test_units_beta_seed_and_raw_features():
    at = open_page(log="bits", beta="2", rd_seed="5", rd_std="false", rd_algo=["kmeans"], rd_k=["3", "4"],
                   rd_m=["vi", "v_measure"])
    no_trouble(at)
    want = expected("iris", ["kmeans"], [3, 4], ["vi", "v_measure"], seed=5, standardize=False, log_base=2,
                    beta=2.0)
    pd.testing.assert_frame_equal(values(at).reset_index(drop=True), want, check_dtype=False, rtol=0, atol=1e-12)


def test_quick_picks_log_scale_and_range():
    at = open_page()
    at.button(key="rd_pick_Wu Fig. 6").click().run()
    no_trouble(at)
    assert at.multiselect(key="rd_m").value == rd.MEASURE_SETS["Wu Fig. 6"]
    titles = [a["text"] for a in chart(at, "rd_measures")["layout"]["annotations"]]
    assert all(any(metrics.MEASURES[k].symbol in t for t in titles) for k in rd.MEASURE_SETS["Wu Fig. 6"])
    at.button(key="rd_pick_R&H Fig. 4/5").click().run()
    assert at.multiselect(key="rd_m").value == rd.MEASURE_SETS["R&H Fig. 4/5"]
    assert list(values(at).columns[-3:]) == rd.MEASURE_SETS["R&H Fig. 4/5"]
    at.toggle(key="rd_logx").set_value(True).run()
    assert chart(at, "rd_measures")["layout"]["xaxis"]["type"] == "log"
    at.slider(key="rd_k").set_value((4, 6)).run()
    no_trouble(at)
    assert sorted(values(at)["k"].unique().tolist()) == [4, 5, 6]
    assert any("outside the range" in c.value for c in at.caption)


def test_empty_choices_ask_for_one():
    at = open_page()
    at.pills(key="rd_algo").set_value([]).run()
    assert not at.exception and any("at least one algorithm" in i.value for i in at.info)
    at = open_page()
    at.multiselect(key="rd_m").set_value([]).run()
    assert not at.exception and any("at least one measure" in i.value for i in at.info)


def test_unknown_link_values_are_named():
    at = open_page(rd_data="mnist", rd_algo=["dbscan", "ward"], rd_m=["nope", "vi"])
    assert not at.exception and not at.error
    warned = " ".join(w.value for w in at.warning)
    assert "mnist" in warned and "dbscan" in warned and "nope" in warned
    assert at.selectbox(key="rd_data").value == "iris"
    assert at.pills(key="rd_algo").value == ["ward"] and at.multiselect(key="rd_m").value == ["vi"]


def test_a_failing_clustering_ends_in_st_error(monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("the clustering failed")

    monkeypatch.setattr(experiments, "cluster_count_sweep", broken)
    rd.sweep.clear()
    rd.sweep_view.clear()
    try:
        at = open_page(rd_k=["2", "3"], rd_seed="11")
        assert not at.exception
        assert len(at.error) == 1 and "the clustering failed" in at.error[0].value
    finally:
        rd.sweep.clear()
