"""The auction that starts the certified assignment's solves where every weight is nearly equal
(metrics.core.kernels.auction, used by float_assignment): its state on its own (a matching, each
row within ε of its best, no price on a dummy no row holds, its budget), the path that takes it
(PSI's weights of count tables without a dominant cluster) against scipy, and the fallback to
the searches alone where it does not certify (ties everywhere)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

# float_assignment is skipped without numba (the `fast` extra), and so is this module.
from .test_float_assignment import float_assignment, psi_weights, scipy_value

auction = float_assignment.auction  # metrics.core.kernels.auction's


def csr(w: np.ndarray):
    mask = w > 0
    return float_assignment.csr_of_mask(np.ascontiguousarray(w), mask, int(mask.sum()))


def run_auction(w, eps_end, max_steps=10**9):
    indptr, indices, vals = csr(w)
    n_r, n_c = w.shape
    top = float(w.max())
    v = np.zeros(n_c + n_r)
    col_of = np.full(n_r, -1, dtype=np.int64)
    own_cost = np.zeros(n_r)
    done, steps = auction(indptr, indices, vals, n_c, top, v, col_of, own_cost, 1e-2 * top, eps_end * top, False,
                          max_steps)
    return done, steps, v, col_of, own_cost, top


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.integers(0, 2**32 - 1))
def test_the_auction_leaves_a_matching_each_row_within_eps_of_its_best(n, seed):
    """Square matrices of positive continuous weights: the rows hold distinct columns at the
    costs of their cells; each is within ε of the best value w + v among the columns held (whose
    prices the end's clean-up leaves alone); no held dummy but a row's own; every dummy no row
    holds has no price, and a real column keeps one only where its row was freed for its dummy."""
    rng = np.random.default_rng(seed)
    w = rng.random((n, n)) + 0.01
    done, _, v, col_of, own_cost, top = run_auction(w, 1e-6)
    assert done
    held = col_of[col_of >= 0]
    assert len(held) == len(set(held.tolist()))
    assert np.all(v <= 0)
    is_held = np.zeros(v.size, dtype=bool)
    is_held[held] = True
    assert np.all(v[n:][~is_held[n:]] == 0)
    assert np.count_nonzero(v[:n][~is_held[:n]]) <= np.count_nonzero(col_of < 0)
    for i in np.flatnonzero(col_of >= 0):
        j = col_of[i]
        assert j < n or j == n + i
        value = w[i, j] + v[j] if j < n else v[j]
        assert value >= v[n + i], "a row held where its dummy (free, at no price) is worth more"
        assert own_cost[i] == pytest.approx(top - (w[i, j] if j < n else 0.0), abs=1e-15)
        options = [w[i, k] + v[k] for k in range(n) if is_held[k]] + ([v[n + i]] if is_held[n + i] else [])
        assert value >= max(options) - 1e-6 * top * (1 + 1e-9)


def test_the_auction_stops_at_its_budget():
    """A matrix of equal weights makes every bid a price war: the auction gives up past its
    budget of cell reads (by at most one row's reads), it never loops on."""
    w = np.full((60, 60), 0.5)
    done, steps, *_ = run_auction(w, 1e-12, max_steps=5000)
    assert not done
    assert 5000 < steps <= 5000 + 61


@pytest.fixture
def spy(monkeypatch):
    calls = {"auction": [], "rounds": []}
    real_auction, real_rounds = float_assignment.auction, float_assignment._rounds

    def counted_auction(*args):
        calls["auction"].append(args[10])  # keep: a warm start
        return real_auction(*args)

    def counted_rounds(*args, **kwargs):
        value = real_rounds(*args, **kwargs)
        calls["rounds"].append(value)
        return value

    monkeypatch.setattr(float_assignment, "auction", counted_auction)
    monkeypatch.setattr(float_assignment, "_rounds", counted_rounds)
    return calls


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_nearly_equal_weights_go_through_the_auction_and_give_scipy_s_optimum(spy, seed):
    """PSI's weights of a 600 × 600 table of counts 0–19 (no class with a dominant cluster): the
    searches from nothing run past their budget a row, the auction starts the solve, and the
    rounds with it certify (no rerun) — scipy's value to the last bit."""
    w = psi_weights(np.random.default_rng(seed).integers(0, 20, (600, 600)))
    assert float_assignment.max_weight_value(w) == scipy_value(w)
    assert False in spy["auction"], "no cold auction"
    assert len(spy["rounds"]) == 1 and spy["rounds"][0] == (scipy_value(w), True)


def test_small_matrices_do_not_try_it(spy):
    """Below AUCTION_MIN_ROWS rows (on the shorter side) the rounds run once, without it."""
    w = psi_weights(np.random.default_rng(0).integers(0, 20, (300, 900)))
    assert float_assignment.max_weight_value(w) == scipy_value(w)
    assert spy["auction"] == [] and [auctioned for _, auctioned in spy["rounds"]] == [False]


def test_ties_everywhere_fall_back_to_the_searches_alone(spy):
    """PSI's weights of a table of counts 0–2: where the rounds with the auction do not certify
    (its answer leaves prices that ties do not recover from), the rounds run again without it,
    and the answer is still certified and scipy's."""
    w = psi_weights(np.random.default_rng(0).integers(0, 3, (600, 600)))
    assert float_assignment.max_weight_value(w) == pytest.approx(scipy_value(w), rel=1e-12)
    assert spy["auction"], "the auction was not tried"
    assert [auctioned for _, auctioned in spy["rounds"]] == [True, False]
    assert spy["rounds"][0][0] is None


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.integers(1, 20), st.sampled_from(["psi", "uniform"]),
       st.integers(0, 2**32 - 1))
def test_with_the_auction_on_every_solve_the_answer_is_scipy_s(n_r, n_c, top, kind, seed):
    """The auction forced into every cold solve and every warm round: the certificate (or the
    rerun without the auction) keeps every answer scipy's."""
    rng = np.random.default_rng(seed)
    table = rng.integers(0, top + 1, (n_r, n_c))
    w = psi_weights(table) if kind == "psi" else rng.random((n_r, n_c)) * (table > 0)
    names = ("COLD_STEPS_PER_ROW", "AUCTION_WHEN_ADDED", "AUCTION_MIN_ROWS")
    saved = [getattr(float_assignment, name) for name in names]
    for name, forced in zip(names, (0, 10**9, 0)):
        setattr(float_assignment, name, forced)
    try:
        value = float_assignment.max_weight_value(w, max_share=1.0, rounds=200)
    finally:
        for name, kept in zip(names, saved):
            setattr(float_assignment, name, kept)
    assert value is not None
    assert value == pytest.approx(scipy_value(w), rel=1e-12, abs=1e-300)
