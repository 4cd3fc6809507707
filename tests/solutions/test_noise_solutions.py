"""compare_solutions with noise items (noise=, noise_as=): each reading equals scoring the table
from_labels reads, the noise count, share and coverage per solution, the default unchanged."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import metrics
from metrics.core.labels import NOISE_READINGS


def data():
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 4, 300)
    dbscan = np.where(rng.random(300) < 0.25, -1, gold)
    kmeans = np.where(rng.random(300) < 0.2, rng.integers(0, 4, 300), gold)
    return gold, {"dbscan": dbscan, "kmeans": kmeans}


@pytest.mark.parametrize("reading", NOISE_READINGS)
def test_each_reading_scores_the_table_from_labels_reads(reading):
    gold, sols = data()
    keys = ["ari", "vi", "nmi_arithmetic", "bcubed_f"]
    frame = metrics.compare_solutions(gold, sols, keys, noise=-1, noise_as=reading)
    for name, labels in sols.items():
        t = metrics.Contingency.from_labels(gold, labels, noise=-1, noise_as=reading)
        for k in keys:
            assert frame.loc[name, k] == pytest.approx(metrics.MEASURES[k](t), rel=1e-12, abs=1e-12)
    info = frame.attrs["noise"]
    count = int((sols["dbscan"] == -1).sum())
    assert info["dbscan"]["count"] == count and info["dbscan"]["share"] == count / 300
    assert info["dbscan"]["coverage"] == ((300 - count) / 300 if reading == "exclude" else 1.0)
    assert info["kmeans"] == {"count": 0, "share": 0.0, "coverage": 1.0}


def test_the_readings_disagree_and_the_default_is_one_cluster():
    gold, sols = data()
    frames = {r: metrics.compare_solutions(gold, sols, ["ari"], noise=-1, noise_as=r) for r in NOISE_READINGS}
    dbscan = {r: f.loc["dbscan", "ari"] for r, f in frames.items()}
    assert dbscan["exclude"] == 1.0 and len(set(dbscan.values())) == 3
    default = metrics.compare_solutions(gold, sols, ["ari"])
    pd.testing.assert_frame_equal(default, frames["cluster"], check_like=False)
    assert "noise" not in default.attrs


def test_bad_noise_arguments_before_any_work():
    gold, sols = data()
    with pytest.raises(ValueError, match="noise_as must be one of"):
        metrics.compare_solutions(gold, sols, ["ari"], noise=-1, noise_as="drop")
    with pytest.raises(ValueError, match="needs noise="):
        metrics.compare_solutions(gold, sols, ["ari"], noise_as="exclude")
    with pytest.raises(ValueError, match=r"solution 'allnoise'.*every item of labels_pred is noise"):
        metrics.compare_solutions(gold, {"allnoise": np.full(300, -1)}, ["ari"], noise=-1, noise_as="exclude")
