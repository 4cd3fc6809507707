"""Scenes and moves of the playground (metrics.papers.playground) and the skewed blobs
(metrics.papers.generators.scatter): each scene is the paper situation it names, measured."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics
from metrics.papers import generators as g
from metrics.papers import playground as pg


@pytest.mark.parametrize("cv0", [0.0, 0.3, 0.85, 1.0, 1.32, 1.5, 1.9])
def test_skewed_sizes_reach_the_asked_cv(cv0):
    sizes = g.skewed_sizes(cv0, 4, 600)
    assert sizes.sum() == 600 and (sizes >= 1).all()
    assert abs(g.cv(sizes) - cv0) < 0.01
    # One large class first, the others equal up to rounding (Wu et al.'s Table 6 shape).
    assert sizes[0] == sizes.max() and np.ptp(sizes[1:]) <= 1


def test_skewed_sizes_reproduce_wu_table6_cv():
    # Wu et al. Table 6, sample 8: 30, 30, 30, 600, 30, 30 — CV0 printed 1.86.
    sizes = g.skewed_sizes(g.cv([30, 30, 30, 600, 30, 30]), 6, 750, min_size=30)
    assert sorted(sizes.tolist()) == [30, 30, 30, 30, 30, 600]


def test_skewed_sizes_refuse_an_unreachable_cv():
    top = g.max_cv(3, 300)
    with pytest.raises(ValueError, match="cv0 must lie in"):
        g.skewed_sizes(top + 0.1, 3, 300)
    with pytest.raises(ValueError, match="cv0 must lie in"):
        g.skewed_sizes(-0.1, 3, 300)
    with pytest.raises(ValueError, match="finite"):
        g.skewed_sizes(float("nan"), 3, 300)


def test_blobs_follow_wu_two_gaussians():
    points, classes = g.blobs(np.array([2000, 2000]), variance=0.5, seed=1)
    assert points.shape == (4000, 2) and np.bincount(classes).tolist() == [2000, 2000]
    means = np.array([points[classes == i].mean(axis=0) for i in range(2)])
    assert np.allclose(means, [[-2, 0], [2, 0]], atol=0.1)
    assert np.allclose(points[classes == 0].var(axis=0), 0.5, rtol=0.1)
    again, _ = g.blobs(np.array([2000, 2000]), variance=0.5, seed=1)
    assert np.array_equal(points, again)


def scores(scene_or_states, classes, keys):
    return metrics.evaluate(metrics.Contingency.from_labels(classes, scene_or_states), keys)


def test_singletons_scene_is_rr_extreme():
    s = pg.scene("singletons", 90, seed=0)
    assert len(np.unique(s.clusters)) == 90
    v = scores(s.clusters, s.classes, ["homogeneity", "nvi"])
    assert v["homogeneity"] == pytest.approx(1.0) and v["nvi"] > 1.0


def test_matching_scene_is_rh_solution_a_and_b_keeps_f():
    s = pg.scene("matching", 90, seed=3)
    t = metrics.Contingency.from_labels(s.classes, s.clusters).to_dense()
    # 30 items per class: 18 in the matched cluster, 6 in each other one (R&H Figure 2 A, ×6).
    assert sorted(np.diag(t).tolist()) == [18, 18, 18]
    assert np.array_equal(t, t.T) and sorted(t[0].tolist()) == [6, 6, 18]
    a = scores(s.clusters, s.classes, ["f_measure", "purity", "v_measure"])
    assert a["f_measure"] == pytest.approx(0.6)
    # Solution B: each class's leftover items gathered in one other cluster (i → i + 1).
    states = [s.clusters]
    for i in range(3):
        spread = np.flatnonzero((s.classes == i) & (states[-1] != i))
        states.append(pg.move(states[-1], spread.tolist(), (i + 1) % 3)[0])
    b = scores(states[-1], s.classes, ["f_measure", "purity", "v_measure"])
    assert b["f_measure"] == pytest.approx(a["f_measure"]) and b["purity"] == pytest.approx(a["purity"])
    assert b["v_measure"] > a["v_measure"] + 0.1


def test_noise_scene_and_its_repair():
    s = pg.scene("noise", 120, seed=2)
    noise = int(s.clusters.max())
    taken = np.flatnonzero(s.clusters == noise)
    assert taken.size == round(0.2 * 120) and len(np.unique(s.classes[taken])) > 1
    states = [s.clusters]
    for i in range(3):
        states.append(pg.move(states[-1], taken[s.classes[taken] == i].tolist(), i)[0])
    assert np.array_equal(states[-1], s.classes)
    assert scores(states[-1], s.classes, ["ari"])["ari"] == pytest.approx(1.0)
    assert scores(s.clusters, s.classes, ["ari"])["ari"] < 0.9


def test_blobs_scene_is_nearest_centre():
    s = pg.scene("blobs", 150, seed=0)
    centres = g.class_centres(3)
    d = ((s.points[:, None] - centres[None]) ** 2).sum(axis=2)
    assert np.array_equal(s.clusters, d.argmin(axis=1))
    assert 0 < (s.clusters != s.classes).sum() < 40


def test_move_to_new_and_existing_and_its_errors():
    start = np.array([0, 0, 1, 1, 2])
    after, to = pg.move(start, [0, 4], pg.NEW)
    assert to == 3 and after.tolist() == [3, 0, 1, 1, 3] and start.tolist() == [0, 0, 1, 1, 2]
    after, to = pg.move(start, [4, 4], 0)
    assert to == 0 and after.tolist() == [0, 0, 1, 1, 0]
    with pytest.raises(ValueError, match="at least one item"):
        pg.move(start, [], 0)
    with pytest.raises(ValueError, match="numbered 0 to 4"):
        pg.move(start, [5], 0)
    with pytest.raises(ValueError, match="no cluster 7"):
        pg.move(start, [1], 7)
    with pytest.raises(ValueError, match="move 2: there is no cluster 9"):
        pg.replay(start, [pg.Move((1,), 2), pg.Move((1,), 9)])
    states, problem = pg.replay_valid(start, [pg.Move((1,), 2), pg.Move((1,), 9), pg.Move((0,), 0)])
    assert len(states) == 2 and problem == "move 2: there is no cluster 9 to move items to"
    assert pg.replay_valid(start, [pg.Move((1,), 2)])[1] is None
    assert pg.moved_from(start, [0, 2, 3]) == {0: 1, 1: 2}


def test_scene_arguments_checked():
    with pytest.raises(ValueError, match="unknown scene"):
        pg.scene("nope")
    with pytest.raises(ValueError, match="at least 15"):
        pg.scene("blobs", 3)
    with pytest.raises(ValueError, match="at most 600"):
        pg.scene("blobs", 601)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 29), min_size=1, max_size=8), st.integers(-1, 5)),
                max_size=8))
def test_replay_matches_moves_one_by_one(raw):
    start = pg.scene("blobs", 30, seed=0).clusters
    state, expected = start, [start]
    moves = []
    for items, target in raw:
        t = pg.NEW if target < 0 else target
        if t is not pg.NEW and not (state == t).any():
            continue
        state = pg.move(state, items, t)[0]
        expected.append(state)
        moves.append(pg.Move(tuple(items), t))
        assert (state[items] == state[items[0]]).all()
    got = pg.replay(start, moves)
    assert len(got) == len(expected) and all(np.array_equal(a, b) for a, b in zip(got, expected))
