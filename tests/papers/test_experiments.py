"""metrics.papers.experiments: Utt et al.'s Experiments 1–3 and the sweep over the number of clusters."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

import metrics
from metrics.papers import experiments as E
from metrics.papers import generators
from tests import ROOT

UTT = json.loads((ROOT / "assets" / "paper_values" / "utt2014_example.json")
                 .read_text())


def test_ambiguity_profiles():
    assert E.ambiguity_profile(7).tolist() == [1, 1, 1, 1, 2, 2, 3]
    assert E.ambiguity_profile(4, "fixed", 3).tolist() == [3, 3, 3, 3]
    assert E.ambiguity_profile(10, "share", 0.3).tolist() == [1] * 7 + [2] * 3
    assert E.ambiguity_profile(5, "share", 0).tolist() == [1] * 5


@pytest.mark.parametrize("args, match", [
    ((5, "triangle"), "unknown ambiguity scheme"),
    ((5, "halving", 2), "leave rate unset"),
    ((5, "fixed", 0), "rate must be at least 1"),
    ((5, "fixed", 1.5), "whole number"),
    ((5, "share", 1.5), r"share in \[0, 1\]"),
    ((0, "halving"), "n_points"),
])
def test_bad_profiles(args, match):
    with pytest.raises(ValueError, match=match):
        E.ambiguity_profile(*args)


def test_ambiguous_gold_has_the_profile_and_is_seeded():
    gold = E.ambiguous_gold(40, "fixed", 3, n_classes=5, seed=1)
    assert all(len(g) == 3 and len(set(g)) == 3 and all(0 <= c < 5 for c in g) for g in gold)
    assert gold == E.ambiguous_gold(40, "fixed", 3, n_classes=5, seed=1)
    with pytest.raises(ValueError, match="n_classes"):
        E.ambiguous_gold(40, "fixed", 3, n_classes=2)


def test_with_noise_keeps_the_memberships_and_moves_some():
    gold = E.ambiguous_gold(50, seed=2)
    assert E.with_noise(gold, 0.0, seed=1) == gold
    noisy = E.with_noise(gold, 0.5, seed=1)
    assert sorted(noisy) == sorted(gold) and noisy != gold
    with pytest.raises(ValueError, match="empty"):
        E.with_noise([], 0.5)


def test_fuzzy_scores_on_the_worked_example():
    points = list(UTT["gold"])
    gold = [UTT["gold"][p] for p in points]
    clusters = [UTT["clusters"][p] for p in points]
    scores = E.fuzzy_scores(gold, clusters)
    v = metrics.MEASURES["v_measure"]
    assert scores["fuzzy"] == v(metrics.Contingency.from_memberships(gold, clusters, mode="fuzzy"))
    assert scores["count"] == v(metrics.Contingency.from_memberships(gold, clusters, mode="count"))
    assert scores["fuzzy_diss"] == v(generators.dissimilarity_adjusted(gold, clusters, mode="fuzzy"))
    assert set(E.fuzzy_scores(gold, clusters, dissimilarity=False)) == {"fuzzy", "count"}
    with pytest.raises(ValueError, match="fractional"):
        E.fuzzy_scores(gold, clusters, "ami")
    with pytest.raises(KeyError, match="unknown measure"):
        E.fuzzy_scores(gold, clusters, "nope")


def test_experiment1_sizes_are_independent_of_each_other():
    both = E.experiment1([4, 8], repeats=5, seed=3)
    alone = E.experiment1_size(8, repeats=5, seed=3)
    pd.testing.assert_frame_equal(both[both["size"] == 8].reset_index(drop=True), alone)
    # Perfect clusterings: fuzzy V above counted V, neither reaching 1 (Utt et al. Figure 4).
    assert (both["fuzzy"] > both["count"]).all() and (both[["fuzzy", "count"]] < 1).all().all()
    summary = E.summarize(both)
    assert summary["size"].tolist() == [4, 8] and summary["runs"].tolist() == [5, 5]
    assert summary["fuzzy_higher"].tolist() == [1.0, 1.0]
    assert summary.loc[1, "fuzzy_mean"] == pytest.approx(alone["fuzzy"].mean())


def test_experiment1_progress_and_bad_input():
    calls = []
    E.experiment1([4, 6, 8], repeats=2, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]
    with pytest.raises(ValueError, match="sizes is empty"):
        E.experiment1([])
    with pytest.raises(ValueError, match="size must be at least 2"):
        E.experiment1_size(1)
    with pytest.raises(ValueError, match="seed"):
        E.experiment1_size(4, seed=-1)
    with pytest.raises(ValueError, match="columns"):
        E.summarize(pd.DataFrame({"x": [1]}))


def test_experiment2_scores_independent_random_clusterings():
    frame = E.experiment2([10, 20], repeats=2, seed=0)
    assert frame.shape == (4, 4) and frame["size"].tolist() == [10, 10, 20, 20]
    rng = np.random.default_rng([0, 10])
    gold = E.ambiguous_gold(10, seed=rng)
    clusters = E.ambiguous_gold(10, seed=rng)
    assert frame.loc[0, "fuzzy"] == E.fuzzy_scores(gold, clusters, dissimilarity=False)["fuzzy"]


def test_experiment3_from_hard_to_the_gold_standard():
    frame = E.experiment3(60, 5, seed=1)
    assert frame["softness"].iloc[0] == 0 and frame["softness"].iloc[-1] == 1
    assert (np.diff(frame["fuzzy"]) < 0).all() and (np.diff(frame["count"]) < 0).all()
    assert frame["fuzzy_diss"].iloc[-1] == pytest.approx(1.0) and frame["count_diss"].iloc[-1] == pytest.approx(1.0)
    gold, steps = E.experiment3_setup(60, 5, seed=1)
    assert [set(c) for c in steps[-1]] == [set(g) for g in gold] and all(len(c) == 1 for c in steps[0])
    assert E.experiment3_row(gold, steps[2], 2, 5) == frame.iloc[2].to_dict() | {"step": 2, "steps": 5}


def test_cluster_count_sweep_equals_the_registry():
    gold = np.repeat([0, 1, 2], [30, 10, 5])
    rng = np.random.default_rng(0)
    labelings = {k: rng.integers(0, k, size=gold.size) for k in (2, 3, 5)}
    frame = E.cluster_count_sweep(gold, labelings, ["v_measure", "vi", "ari"], log_base=2)
    assert frame["k"].tolist() == [2, 3, 5]
    for row in frame.itertuples(index=False):
        t = metrics.Contingency.from_labels(gold, labelings[row.k])
        values = metrics.evaluate(t, ["v_measure", "vi", "ari"], log_base=2)
        assert row.v_measure == pytest.approx(values["v_measure"], abs=1e-12)
        assert row.vi == pytest.approx(values["vi"], abs=1e-12)
        assert row.ari == pytest.approx(values["ari"], abs=1e-12)
        assert row.clusters == t.shape[1]
        assert row.cv0 == generators.cv([30, 10, 5]) and row.cv1 == generators.cv(t.col_sums)
        assert row.dcv == pytest.approx(generators.dcv(t))


def test_cluster_count_sweep_bad_input_and_one_cluster():
    gold = np.array([0, 0, 1, 1])
    one = E.cluster_count_sweep(gold, {1: [0, 0, 0, 0]}, ["v_measure"])
    assert math.isnan(one.loc[0, "cv1"]) and math.isnan(one.loc[0, "dcv"]) and one.loc[0, "cv0"] == 0
    with pytest.raises(ValueError, match="3 cluster labels for 4 items"):
        E.cluster_count_sweep(gold, {2: [0, 1, 1]})
    with pytest.raises(ValueError, match="labelings"):
        E.cluster_count_sweep(gold, {})
    with pytest.raises(KeyError, match="unknown measure"):
        E.cluster_count_sweep(gold, {2: [0, 1, 0, 1]}, ["nope"])


def test_best_k_follows_each_measures_direction():
    frame = pd.DataFrame({"k": [2, 3, 4], "v_measure": [0.5, 0.9, 0.9], "vi": [1.0, 0.2, 0.5]})
    assert E.best_k(frame, ["v_measure", "vi"]) == {"v_measure": 3, "vi": 3}
    with pytest.raises(KeyError, match="not a column"):
        E.best_k(frame, ["ari"])
    with pytest.raises(ValueError, match="'k'"):
        E.best_k(frame.drop(columns="k"), ["vi"])


def test_default_sizes():
    sizes = E.default_sizes(128, 8)
    assert sizes[0] == 2 and sizes[-1] == 128 and sizes == sorted(set(sizes))


def test_experiment1_runs_are_the_rows_of_experiment1_size_for_any_number_of_repeats():
    """One random stream per size: run r does not depend on how many runs are asked for, so the
    dashboard extends a size by one gold standard at the cost of one run."""
    runs = E.experiment1_runs(24, seed=3)
    first = pd.DataFrame([next(runs) for _ in range(7)], columns=E.RUN_COLUMNS)
    for repeats in (1, 4, 7):
        pd.testing.assert_frame_equal(first.iloc[:repeats], E.experiment1_size(24, repeats, 3), check_exact=True)
    with pytest.raises(ValueError, match="size"):
        E.experiment1_runs(1)
    with pytest.raises(KeyError, match="nope"):          # checked when asked, not at the first run
        E.experiment1_runs(24, measure="nope")
