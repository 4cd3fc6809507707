"""The caches behind the Real data and Chance pages' speed: what they serve is what the
uncached computation gives (to the last bit), figures built without Plotly's validation are
valid Plotly, and shared clusterings cannot be changed by a caller."""

from __future__ import annotations

import logging
import math
import threading

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

import metrics
from dashboard.chance import data as cdata
from dashboard.chance import vocabulary as cvocab
from dashboard.real_data import views as rd
from metrics import chance
from tests.dashboard.apptest_utils import chart, no_trouble, open_app

logging.getLogger("streamlit").setLevel(logging.ERROR)


@pytest.mark.parametrize("n, n_classes, model, samples, seed, log_base, beta", [
    (100, 10, "num1", 50, 0, math.e, 1.0), (100, 5, "perm", 50, 2, 2.0, 2.5), (100, 2, "num", 50, 1, math.e, 0.3)])
def test_sweep_summary_is_the_summary_of_a_fresh_sweep(n, n_classes, model, samples, seed, log_base, beta):
    want = cdata.summarize_sweep(chance.cluster_sweep(n, cvocab.KS, None, model=model, n_classes=n_classes,
                                                   samples=samples, seed=seed, log_base=log_base, beta=beta),
                              n, n_classes, model, log_base, beta)
    # A page's few measures first (scored alone, kept), then every measure (the rest scored):
    # both are the fresh sweep's rows, to the last bit, in its order.
    few = ["vi", "ami", "v_measure", "rand"]
    got = cdata.sweep_summary(n, n_classes, model, samples, seed, log_base, beta, few)
    pd.testing.assert_frame_equal(got, want[want["key"].isin(few)].reset_index(drop=True), check_exact=True)
    got = cdata.sweep_summary(n, n_classes, model, samples, seed, log_base, beta)
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    # Another β on the same draws: V_β's rows change, the others are the same objects' values.
    other = cdata.sweep_summary(n, n_classes, model, samples, seed, log_base, beta + 1.0)
    v = other["key"].isin(["v_measure", "fuzzy_v_joint"])
    pd.testing.assert_frame_equal(other[~v].reset_index(drop=True), got[~v].reset_index(drop=True), check_exact=True)


def test_another_unit_rescores_only_the_sweep_s_measures_that_have_one(monkeypatch):
    """Switching nats to bits on the sweep scores its random tables again only for the measures
    whose value has a unit (VI, the entropies, I…) and for V_β (from its kept β-free parts, as on
    every miss): the others, the AMI variants among them, are the same for every unit. The result
    is still exactly a fresh sweep's summary in bits."""
    args = (100, 5, "num", 50, 4)
    cdata.sweep_summary(*args, math.e, 1.0)
    scored = []
    real = chance.score_sweep
    monkeypatch.setattr(chance, "score_sweep", lambda tables, keys, **kw: scored.append(list(keys)) or
                        real(tables, keys, **kw))
    got = cdata.sweep_summary(*args, 2.0, 1.0)
    rescored = [k for keys in scored for k in keys]
    assert all(metrics.MEASURES[k].uses_log_base or metrics.MEASURES[k].uses_beta for k in rescored), scored
    assert "vi" in rescored and not any(k.startswith("ami") for k in rescored)
    monkeypatch.undo()
    sweep = chance.cluster_sweep(100, cvocab.KS, None, model="num", n_classes=5, samples=50, seed=4, log_base=2.0)
    want = cdata.summarize_sweep(sweep, 100, 5, "num", 2.0, 1.0)
    pd.testing.assert_frame_equal(got, want, check_exact=True)


def test_a_sweep_scores_the_measures_asked_for_once_each(monkeypatch):
    """A new sweep scores the measures on show, not every measure; another measure is scored
    alone; measures already scored (in any earlier request, by any session) are not scored
    again; and sessions asking for the same new sweep at once score it once."""
    scored = []
    real = chance.score_sweep
    monkeypatch.setattr(chance, "score_sweep", lambda tables, keys, **kw: scored.append(list(keys)) or
                        real(tables, keys, **kw))
    args = (100, 20, "num1", 50, 9)
    cdata.sweep_summary(*args, math.e, 1.0, ["ari", "v_measure"])
    cdata.sweep_summary(*args, math.e, 1.0, ["v_measure", "ari", "ami"])
    cdata.sweep_summary(*args, math.e, 1.0, ["ami", "ari"])
    assert scored == [["v_measure", "ari"], ["ami"]]
    scored.clear()
    threads = [threading.Thread(target=cdata.sweep_summary, args=(*args, math.e, 1.0, ["rand", "nmi_max"]))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [sorted(keys) for keys in scored] == [["nmi_max", "rand"]]
    empty = cdata.sweep_summary(*args, math.e, 1.0, [])
    assert empty.empty and list(empty.columns) == cdata.SUMMARY_COLUMNS


@pytest.mark.parametrize("model", ["perm", "num1"])
def test_table_null_is_the_library_s_null_distribution_and_another_beta_draws_nothing(model, monkeypatch):
    t = metrics.Contingency.from_table(np.array([[5, 1, 0, 2], [2, 7, 3, 0], [0, 1, 4, 6]]))
    cdata.table_null(t, model, 120, 5, math.e, 1.0)
    # Drawn and scored once: another β draws nothing and scores only V_β (from its kept h and c).
    monkeypatch.setattr(chance, "draw_tables", lambda *a, **k: pytest.fail("drew again"))
    monkeypatch.setattr(chance.null, "_unstored", lambda chunk: pytest.fail("read a table again"))
    for log_base, beta in ((math.e, 2.5), (math.e, 0.3), (math.e, 1.0)):
        got = cdata.table_null(t, model, 120, 5, log_base, beta)
        monkeypatch.undo()
        draws = chance.null_distribution(t, None, model, 120, 5, log_base, beta)
        pd.testing.assert_frame_equal(got.draws, draws, check_exact=True)
        pd.testing.assert_frame_equal(got.profile, chance.summarize(t, draws, model, log_base, beta), check_exact=True)
        pd.testing.assert_frame_equal(got.spread, cdata.spread_frame(draws), check_exact=True)
        monkeypatch.setattr(chance, "draw_tables", lambda *a, **k: pytest.fail("drew again"))
        monkeypatch.setattr(chance.null, "_unstored", lambda chunk: pytest.fail("read a table again"))


def test_experiment1_adds_gold_standards_without_computing_the_earlier_ones(monkeypatch):
    from dashboard.fuzzy import views as fz
    from metrics.papers import experiments

    fz._experiment1_runs.clear()
    fz.experiment1_size.clear()
    calls = []
    scores = experiments.fuzzy_scores
    monkeypatch.setattr(experiments, "fuzzy_scores", lambda *a, **k: calls.append(1) or scores(*a, **k))
    for repeats, new in ((3, 3), (5, 2), (2, 0), (6, 1)):      # more runs cost only the new ones
        calls.clear()
        got = fz.experiment1_size(31, repeats, 8)
        assert len(calls) == new, (repeats, len(calls))
        pd.testing.assert_frame_equal(got, experiments.experiment1_size(31, repeats, 8), check_exact=True)


def test_clusterings_are_shared_read_only_and_match_a_fresh_run():
    from scipy.cluster.hierarchy import cut_tree, linkage
    from sklearn.cluster import KMeans
    from sklearn.preprocessing import StandardScaler

    data = rd.load_dataset("wine")
    x = StandardScaler().fit_transform(data.features)
    for k in (2, 7, rd.K_MAX):
        ward = rd.cluster_labels("wine", "ward", k, True, 0)
        assert np.array_equal(ward, cut_tree(linkage(x, method="ward"), n_clusters=[k]).ravel())
        km = rd.cluster_labels("wine", "kmeans", k, True, 3)
        assert np.array_equal(km, KMeans(n_clusters=k, n_init=rd.KMEANS_RESTARTS, random_state=3).fit_predict(x))
        assert rd.cluster_labels("wine", "kmeans", k, True, 3) is km      # computed once, shared
        with pytest.raises(ValueError):
            km[0] = 99                                                    # read-only
    with pytest.raises(ValueError, match="unknown algorithm"):
        rd.cluster_labels("wine", "dbscan", 3, True, 0)


@pytest.mark.parametrize("log_x", [False, True])
def test_real_data_figures_are_valid_plotly(log_x):
    # The line panels are built without Plotly's validation (speed); validate what the page sends.
    at = open_app("app_pages/explore/real_data.py", 180, {"rd_k": ["2", "6"], "rd_algo": ["kmeans", "ward", "random"],
                                                  "rd_logx": "true" if log_x else "false"})
    no_trouble(at)
    for key in ("rd_measures", "rd_goodness", "rd_cv"):
        spec = chart(at, key)
        go.Figure(spec)                                                   # raises on an invalid property
        assert all(ax.get("type") == ("log" if log_x else "linear")
                   for name, ax in spec["layout"].items() if name.startswith("xaxis"))


def test_log_scale_reuses_the_cached_view():
    args = ("iris", ("kmeans",), (2, 3, 4), True, 0, ("vi", "ari"), math.e, 1.0)
    view = rd.sweep_view(*args)
    assert rd.sweep_view(*args) is view
    linear = view.figures(False)
    assert view.figures(False) is linear and view.figures(True) is not linear


# ---------------------------------------------------------------- tables sent once per frame
def test_a_shared_frame_is_formatted_and_converted_once_and_sends_the_same_bytes(monkeypatch):
    """show_frame's text path keeps what it made of a frame object for as long as that object
    lives: the frame a cache shares is converted once, whatever the reruns; another frame, even
    an equal one, is converted anew; the Arrow table is the one st.dataframe makes of the frame."""
    from streamlit import dataframe_util

    from dashboard.ui import readout

    made = []
    real = readout._sendable
    monkeypatch.setattr(readout, "_sendable", lambda *a: made.append(id(a[0])) or real(*a))
    shared = pd.DataFrame({"size": [2, 4], "share": [0.5, 0.25], "name": ["a", "b"]})
    drawn = []
    monkeypatch.setattr(readout.st, "dataframe", lambda data, **kw: drawn.append((data, kw)))
    for _ in range(3):
        readout.show_frame(shared, key="t", percent=["share"], sortable=False)
    assert len(made) == 1 and len(drawn) == 3 and drawn[0][0] is drawn[2][0]
    readout.show_frame(shared, key="t", percent=["share"], digits=6, sortable=False)   # other settings
    readout.show_frame(shared.copy(), key="t", percent=["share"], sortable=False)      # another object
    assert len(made) == 3
    text, config, order = readout.as_text(shared, percent=["share"])
    assert (dataframe_util.convert_arrow_table_to_arrow_bytes(drawn[0][0])
            == dataframe_util.convert_pandas_df_to_arrow_bytes(text))
    assert drawn[0][1]["column_config"] == config and drawn[0][1]["column_order"] == order
    # The entry goes with its frame.
    gone = pd.DataFrame({"v": [1.0]})
    readout.show_frame(gone, key="g", sortable=False)
    frame_id = id(gone)
    assert frame_id in readout._MADE
    del gone
    assert frame_id not in readout._MADE
