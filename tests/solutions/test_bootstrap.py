"""The paired bootstrap (metrics.bootstrap): calibration (identical solutions, a clearly better one,
exchangeable ones), orientation, determinism, agreement with a naive loop over resamples (both ways
of drawing the resamples, dense batches and sparse tables), the cost guard and bad input."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics
from metrics import bootstrap as boot
from metrics.core.limits import CostError

M = metrics.MEASURES


def noisy(gold: np.ndarray, share: float, rng: np.random.Generator, k: int) -> np.ndarray:
    """``gold`` with a ``share`` of its items moved to a random cluster of ``k``."""
    moved = rng.random(gold.size) < share
    return np.where(moved, rng.integers(0, k, gold.size), gold)


def naive(labels_true, pred_a, pred_b, keys, n_resamples, confidence, seed):
    """The bootstrap written out: each resample's items expanded to labels, counted with
    from_labels and scored with evaluate, one resample and one measure at a time."""
    gold, a, b = (boot._codes(x, name) for x, name in ((labels_true, "t"), (pred_a, "a"), (pred_b, "b")))
    triples = boot._Triples(gold, a, b)
    rng = np.random.default_rng(seed)
    chunk, done, draws = boot._chunk_size(triples), 0, []
    while done < n_resamples:
        size = min(chunk, n_resamples - done)
        for counts in triples.resample_counts(size, rng):
            items = np.repeat(np.arange(triples.size), counts)
            row = []
            ta = metrics.Contingency.from_labels(triples.gold[items], triples.a[items])
            tb = metrics.Contingency.from_labels(triples.gold[items], triples.b[items])
            for k in keys:
                va, vb = M[k](ta), M[k](tb)
                row.append(va - vb if M[k].higher_is_better else vb - va)
            draws.append(row)
        done += size
    draws = np.array(draws)
    out = {}
    for j, k in enumerate(keys):
        d = draws[:, j]
        low, high = np.quantile(d, [(1 - confidence) / 2, (1 + confidence) / 2])
        p = min(1.0, 2 * (1 + min((d <= 0).sum(), (d >= 0).sum())) / (d.size + 1))
        out[k] = (low, high, p)
    return out


def test_identical_solutions_differ_by_nothing():
    rng = np.random.default_rng(3)
    gold = rng.integers(0, 4, 300)
    pred = noisy(gold, 0.3, rng, 5)
    r = metrics.paired_bootstrap(gold, pred, pred.copy(), n_resamples=200, seed=0)
    assert list(r.columns) == boot.COLUMNS
    assert set(r.index) == {m.key for m in metrics.core.registry.resolve(None) if m.applies_to(
        metrics.Contingency.from_labels(gold, pred))}
    assert (r["difference"] == 0).all() and (r["low"] == 0).all() and (r["high"] == 0).all()
    assert (r["p_value"] == 1).all() and (r["resamples"] == 200).all()
    assert not r["significant"].any()


def test_relabelled_twin_is_not_better():
    """B is A with its clusters renamed: every measure (all are invariant to renaming) finds no difference."""
    rng = np.random.default_rng(4)
    gold = rng.integers(0, 3, 200)
    a = noisy(gold, 0.4, rng, 4)
    b = np.array(["x", "y", "z", "w"])[a]
    r = metrics.paired_bootstrap(gold, a, b, ["ari", "vi", "nmi_arithmetic", "epsilon_n", "bcubed_f"],
                                 n_resamples=100, seed=1)
    np.testing.assert_allclose(r[["difference", "low", "high"]].to_numpy(), 0, atol=1e-12)
    assert (r["p_value"] == 1).all()


@pytest.mark.parametrize("keys", [["ari", "vi", "mirkin", "nmi_arithmetic", "purity", "epsilon_n"]])
def test_clearly_better_a_gets_a_small_p_value_whatever_the_direction(keys):
    rng = np.random.default_rng(5)
    gold = rng.integers(0, 4, 2000)
    good, bad = noisy(gold, 0.1, rng, 4), noisy(gold, 0.5, rng, 4)
    r = metrics.paired_bootstrap(gold, good, bad, keys, n_resamples=400, seed=2)
    assert (r["difference"] > 0).all(), "positive = A better, for vi and mirkin (lower is better) too"
    assert (r["low"] > 0).all() and (r["p_value"] <= 2 / 401 + 1e-12).all() and r["significant"].all()
    flipped = metrics.paired_bootstrap(gold, bad, good, keys, n_resamples=400, seed=2)
    assert (flipped["high"] < 0).all() and (flipped["p_value"] < 0.01).all() and flipped["significant"].all()
    for k in keys:
        va, vb = M[k](gold, good), M[k](gold, bad)
        assert r.loc[k, "score_a"] == pytest.approx(va) and r.loc[k, "score_b"] == pytest.approx(vb)
        assert r.loc[k, "difference"] == pytest.approx(va - vb if M[k].higher_is_better else vb - va)


def test_exchangeable_solutions_rarely_look_different():
    """A and B equally good (each the gold with 30% of items moved): p < 0.05 in about 5% of data sets
    (a calibrated test), never in most of them."""
    ps = []
    for seed in range(40):
        rng = np.random.default_rng(100 + seed)
        gold = rng.integers(0, 3, 300)
        a, b = noisy(gold, 0.3, rng, 3), noisy(gold, 0.3, rng, 3)
        ps.append(metrics.paired_bootstrap(gold, a, b, ["ari"], n_resamples=199, seed=seed).loc["ari", "p_value"])
    ps = np.array(ps)
    assert (ps < 0.05).mean() <= 0.15
    assert np.median(ps) > 0.2


def test_seed_makes_it_deterministic():
    rng = np.random.default_rng(6)
    gold = rng.integers(0, 5, 500)
    a, b = noisy(gold, 0.2, rng, 5), noisy(gold, 0.25, rng, 6)
    one = metrics.paired_bootstrap(gold, a, b, ["ari", "vi", "f_measure"], n_resamples=150, seed=42)
    two = metrics.paired_bootstrap(gold, a, b, ["ari", "vi", "f_measure"], n_resamples=150, seed=42)
    other = metrics.paired_bootstrap(gold, a, b, ["ari", "vi", "f_measure"], n_resamples=150, seed=43)
    pd.testing.assert_frame_equal(one, two)
    assert not one[["low", "high"]].equals(other[["low", "high"]])
    assert one.attrs == {"n_resamples": 150, "confidence": 0.95, "seed": 42, "n": 500}
    # numpy's own numbers are numbers: an np.int64 seed is kept, an np.float32 confidence accepted
    three = metrics.paired_bootstrap(gold, a, b, ["ari"], n_resamples=50, seed=np.int64(42),
                                     confidence=np.float32(0.9))
    assert three.attrs["seed"] == 42 and three.attrs["confidence"] == pytest.approx(0.9)
    # significant is exactly "0 lies outside [low, high]"
    assert (one["significant"] == ((one["low"] > 0) | (one["high"] < 0))).all()


@pytest.mark.parametrize("n, k", [(400, 3), (60, 12)])
def test_agrees_with_a_naive_loop(n, k):
    """(400, 3): few triples, counts drawn as a multinomial; (60, 12): nearly one triple an item,
    counts drawn as item indices."""
    rng = np.random.default_rng(n)
    gold = rng.integers(0, k, n)
    a, b = noisy(gold, 0.3, rng, k), noisy(gold, 0.5, rng, k + 1)
    triples = boot._Triples(*(boot._codes(x, "x") for x in (gold, a, b)))
    assert triples.by_multinomial == (n == 400)
    keys = ["ari", "vi", "ami", "nmi_max", "mirkin", "epsilon_n", "bcubed_f", "element_centric", "q0"]
    r = metrics.paired_bootstrap(gold, a, b, keys, n_resamples=120, confidence=0.9, seed=7)
    expected = naive(gold, a, b, keys, 120, 0.9, 7)
    for key in keys:
        np.testing.assert_allclose(r.loc[key, ["low", "high", "p_value"]].to_numpy(dtype=float), expected[key],
                                   rtol=1e-9, atol=1e-12, err_msg=key)


def test_big_tables_are_scored_one_sparse_table_a_resample():
    """600 classes × 600 clusters: beyond a dense batch; the same values as the naive loop."""
    rng = np.random.default_rng(8)
    gold = np.arange(1200) % 600
    a = np.where(rng.random(1200) < 0.9, gold, rng.integers(0, 600, 1200))
    b = np.where(rng.random(1200) < 0.6, gold, rng.integers(0, 600, 1200))
    keys = ["ari", "vi", "f_measure"]
    r = metrics.paired_bootstrap(gold, a, b, keys, n_resamples=6, seed=9, budget=None)
    expected = naive(gold, a, b, keys, 6, 0.95, 9)
    for key in keys:
        np.testing.assert_allclose(r.loc[key, ["low", "high", "p_value"]].to_numpy(dtype=float), expected[key],
                                   rtol=1e-9, err_msg=key)


def test_resampled_counts_are_resamples_of_the_items():
    """Both ways of drawing give n items a resample, each triple m_j / n of them on average."""
    rng = np.random.default_rng(10)
    for n, k in ((5000, 3), (300, 40)):
        gold = rng.integers(0, k, n)
        triples = boot._Triples(gold, noisy(gold, 0.3, rng, k), noisy(gold, 0.3, rng, k))
        counts = triples.resample_counts(400, np.random.default_rng(0))
        assert (counts.sum(axis=1) == n).all()
        mean, expected = counts.mean(axis=0), triples.counts
        se = np.sqrt(expected * (1 - expected / n) / 400)
        assert np.all(np.abs(mean - expected) <= 5 * se + 1e-9)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4), st.integers(0, 4)), min_size=2, max_size=40),
       st.integers(0, 2**31))
def test_swapping_a_and_b_mirrors_the_result(items, seed):
    gold, a, b = (np.array(x) for x in zip(*items))
    keys = ["ari", "vi", "purity", "bcubed_f"]
    ab = metrics.paired_bootstrap(gold, a, b, keys, n_resamples=30, seed=seed)
    ba = metrics.paired_bootstrap(gold, b, a, keys, n_resamples=30, seed=seed)
    np.testing.assert_allclose(ab["difference"], -ba["difference"], atol=1e-12)
    np.testing.assert_allclose(ab["low"], -ba["high"], atol=1e-9)
    np.testing.assert_allclose(ab["p_value"], ba["p_value"])
    assert ((ab["p_value"] > 0) & (ab["p_value"] <= 1)).all()
    same = metrics.paired_bootstrap(gold, a, a, keys, n_resamples=30, seed=seed)
    assert (same["difference"] == 0).all() and (same["p_value"] == 1).all()


def test_progress_and_the_cost_guard():
    rng = np.random.default_rng(11)
    gold = rng.integers(0, 4, 20000)
    a, b = noisy(gold, 0.2, rng, 4), noisy(gold, 0.3, rng, 4)
    calls = []
    metrics.paired_bootstrap(gold, a, b, ["ari"], n_resamples=50, seed=0, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (50, 50) and all(t == 50 for _, t in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    estimate = boot.bootstrap_seconds(gold, a, b, None, 10**6)
    assert estimate > 1
    with pytest.raises(CostError, match="bootstrap resamples"):
        metrics.paired_bootstrap(gold, a, b, n_resamples=10**6, budget=1)
    assert boot.bootstrap_seconds(gold, a, b, ["ari"], 100) < boot.bootstrap_seconds(gold, a, b, None, 100)


@pytest.mark.parametrize("kwargs, message", [
    ({"pred_b": [0, 1]}, "same length"),
    ({"n_resamples": 0}, "n_resamples"),
    ({"n_resamples": 2.5}, "n_resamples"),
    ({"confidence": 1.0}, "confidence"),
    ({"confidence": 0}, "confidence"),
    ({"seed": "x"}, "seed"),
    ({"budget": -1}, "budget"),
    ({"labels_true": [0, None, 1]}, "NaN or None"),
])
def test_bad_input_is_refused_in_words(kwargs, message):
    args = {"labels_true": [0, 0, 1], "pred_a": [0, 0, 1], "pred_b": [0, 1, 1], **kwargs}
    with pytest.raises(ValueError, match=message):
        metrics.paired_bootstrap(**args)


def test_too_few_items_and_unknown_measures():
    with pytest.raises(ValueError, match="at least 2 items"):
        metrics.paired_bootstrap([0], [0], [0])
    with pytest.raises(KeyError, match="unknown measure"):
        metrics.paired_bootstrap([0, 1], [0, 1], [1, 0], ["not_a_measure"])


def test_labels_of_any_kind():
    gold = ["a", "a", "b", "b", "c", "c"] * 10
    a = [("x", 1), ("x", 1), ("y", 2), ("y", 2), ("z", 3), ("z", 3)] * 10
    b = pd.Series([1.5, 2.5] * 30)
    r = metrics.paired_bootstrap(gold, a, b, ["ari"], n_resamples=50, seed=0)
    assert r.loc["ari", "score_a"] == 1.0 and r.loc["ari", "difference"] > 0
    assert math.isfinite(r.loc["ari", "low"])


def test_noise_read_as_singletons_or_one_cluster():
    rng = np.random.default_rng(12)
    gold = rng.integers(0, 3, 300)
    a = np.where(rng.random(300) < 0.3, -1, gold)
    b = noisy(gold, 0.3, rng, 3)
    for reading in ("cluster", "singletons"):
        r = metrics.paired_bootstrap(gold, a, b, ["ari", "vi"], n_resamples=50, seed=0, noise=-1, noise_as=reading)
        t = metrics.Contingency.from_labels(gold, a, noise=-1, noise_as=reading)
        assert r.loc["ari", "score_a"] == pytest.approx(M["ari"](t), rel=1e-12)
        assert r.loc["vi", "score_a"] == pytest.approx(M["vi"](t), rel=1e-12)
    plain = metrics.paired_bootstrap(gold, a, b, ["ari"], n_resamples=50, seed=0)
    assert plain.loc["ari", "score_a"] == pytest.approx(M["ari"](gold, a), rel=1e-12)
    with pytest.raises(ValueError, match="different items"):
        metrics.paired_bootstrap(gold, a, b, ["ari"], noise=-1, noise_as="exclude")
