"""Wu et al.'s DCV criterion (metrics.papers.dcv): CV0/CV1/DCV of runs, κ against DCV, the
printed thresholds — checked on constructed runs whose answer is known, and on K-means."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from metrics.papers import dcv
from metrics.papers import generators as g


def test_run_summary_on_wu_table3_clustering_i():
    # Wu et al. §3.2: class sizes 30, 2, 6, 10, 2 (CV0 = 1.166), clustering I five clusters of 10 (CV1 = 0).
    t = g.uniform_effect([30, 2, 6, 10, 2])
    classes, clusters = [], []
    for (i, j), c in np.ndenumerate(t.to_dense()):
        classes += [i] * int(c)
        clusters += [j] * int(c)
    s = dcv.run_summary(classes, clusters)
    assert s["cv0"] == pytest.approx(1.166, abs=5e-4) and s["cv1"] == pytest.approx(0.0)
    assert s["dcv"] == pytest.approx(-s["cv0"]) and (s["classes"], s["clusters"]) == (5, 5)


def uniform_runs(cv0s, n=300, k=3):
    """For each CV0: the gold classes, clustered by cutting the items into k equal runs (the
    strongest uniform effect: CV1 = 0 whatever CV0)."""
    for cv0 in cv0s:
        sizes = g.skewed_sizes(cv0, k, n)
        classes = np.repeat(np.arange(k), sizes)
        clusters = np.arange(n) * k // n
        yield cv0, classes, clusters


def test_sweep_averages_runs_per_setting():
    runs = list(uniform_runs([0.0, 0.5, 0.5, 1.0]))
    sweep = dcv.dcv_sweep(runs, ["purity", "vi_n"])
    assert sweep["setting"].tolist() == [0.0, 0.5, 1.0] and sweep["runs"].tolist() == [1, 2, 1]
    assert sweep["cv1"].abs().max() < 1e-12
    assert np.allclose(sweep["dcv"], -sweep["cv0"]) and list(sweep.columns[-2:]) == ["purity", "vi_n"]
    with pytest.raises(ValueError, match="at least one run"):
        dcv.dcv_sweep([], ["purity"])
    with pytest.raises(KeyError):
        dcv.dcv_sweep(runs, ["no_such_measure"])


def test_kappa_flags_a_measure_that_improves_as_dcv_falls():
    # Wu et al. Table 4's pattern: purity rates the more uniform clustering better (it rises while
    # DCV falls) and is fooled; VI_n (a distance) rises too, i.e. gets worse: consistent.
    frame = pd.DataFrame({"setting": [0.0, 0.5, 1.0, 1.5], "runs": 1, "cv0": [0, 0.5, 1, 1.5],
                          "cv1": [0.1, 0.3, 0.4, 0.4], "dcv": [0.1, -0.2, -0.6, -1.1],
                          "purity": [0.80, 0.85, 0.90, 0.92], "vi_n": [0.2, 0.4, 0.5, 0.9],
                          "vd_n": [0.1, 0.3, 0.2, 0.6]})
    k = dcv.dcv_kappa(frame).set_index("key")
    assert k.loc["purity", "kappa"] == pytest.approx(-1.0) and k.loc["purity", "fooled"]
    assert k.loc["vi_n", "kappa"] == pytest.approx(1.0) and not k.loc["vi_n", "fooled"]
    # One pair out of order: τ = (5 − 1)/6 — below the paper's strong consistency.
    assert k.loc["vd_n", "kappa"] == pytest.approx(4 / 6) and k.loc["vd_n", "fooled"]
    assert not dcv.dcv_kappa(frame, strong=0.5).set_index("key").loc["vd_n", "fooled"]
    assert dcv.dcv_kappa(frame, ["vi_n"])["key"].tolist() == ["vi_n"]


def test_kappa_orients_distances():
    frame = pd.DataFrame({"setting": [0, 1, 2], "runs": [1, 1, 1], "cv0": [0, 1, 2], "cv1": [0, 0, 0],
                          "dcv": [0.0, -1.0, -2.0], "vi": [0.1, 0.5, 0.9], "purity": [0.5, 0.5, 0.5]})
    k = dcv.dcv_kappa(frame).set_index("key")
    # VI (lower is better) grows as DCV falls: consistent, κ = +1 once oriented.
    assert k.loc["vi", "kappa"] == pytest.approx(1.0) and not k.loc["vi", "fooled"]
    # A measure that does not move cannot see the uniform effect.
    assert math.isnan(k.loc["purity", "kappa"]) and k.loc["purity", "fooled"] and not k.loc["purity", "moves"]
    flat = frame.assign(dcv=0.0)
    assert dcv.dcv_kappa(flat)["fooled"].isna().all()


def test_wu_printed_figures():
    p = dcv.wu_printed()
    assert (p["cv1_low"], p["cv1_high"], p["strong"]) == (0.09, 0.85, 0.9)
    t7 = p["table7"].set_index("symbol")
    assert t7.loc["VI", "sampled"] == "-0.93" and t7.loc["R", "simulated"] == "1.00"
    assert t7.loc["VI_n", "key"] == "vi_n" and pd.isna(t7.loc["VI_n", "sampled"])
    # §4.3: on both groups only R, Γ and Γ' are strongly consistent among the unnormalized measures.
    strong = [s for s in ["VI", "VD", "MS", "ε", "F", "R", "J", "FM", "Γ", "Γ'"]
              if min(float(t7.loc[s, "simulated"]), float(t7.loc[s, "sampled"])) >= p["strong"]]
    assert strong == ["R", "Γ", "Γ'"]
    fooled = t7.index[t7["fooled"]].tolist()
    assert fooled == ["VI", "VD", "MS", "ε", "F", "J", "FM", "ε_n", "F_n"]


def test_kmeans_shows_the_uniform_effect():
    KMeans = pytest.importorskip("sklearn.cluster").KMeans
    runs = []
    for cv0 in (0.0, 0.5, 1.0, 1.5):
        for seed in range(3):
            points, classes = g.skewed_blobs(cv0, 3, 450, variance=2.5, seed=seed)
            runs.append((cv0, classes, KMeans(3, n_init=1, random_state=seed).fit_predict(points)))
    sweep = dcv.dcv_sweep(runs, ["vi_n", "purity"])
    assert sweep["dcv"].is_monotonic_decreasing and sweep["dcv"].iloc[-1] < -0.5
    assert (sweep["cv1"].iloc[-1] < sweep["cv0"].iloc[-1])
