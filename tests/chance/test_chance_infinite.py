"""Infinite expectations and Monte Carlo draws that never vary (issue 27, item 5).

Oracle: exhaustive enumeration of every outcome of every random model for small n
(tests/chance/test_chance.py's ``true_expectations``), independent of the rule under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import metrics
from metrics import chance
from tests.chance.test_chance import C, M, _table, set_partitions, true_expectations


def _all_tables(n_max: int):
    """Every table of 1 ≤ n ≤ n_max items, up to relabelling of rows and columns (sorted)."""
    seen, out = set(), []
    for n in range(1, n_max + 1):
        parts = set_partitions(n)
        for x in parts:
            for y in parts:
                t = _table(x, y)
                t = t[np.lexsort(t.T[::-1])][:, np.lexsort(t[::-1])]
                key = (t.shape, t.tobytes())
                if key not in seen:
                    seen.add(key)
                    out.append(t)
    return out


SMALL = _all_tables(4)


def test_the_rule_equals_enumeration_for_every_measure_and_model():
    keys = list(M)
    infinite = set()
    for table in SMALL:
        t = C.from_table(table)
        for model in chance.MODELS:
            truth = true_expectations(t, model, keys)
            for k in keys:
                assert chance.infinite_expectation(t, k, model) == math.isinf(truth[k]), (table.tolist(), model, k)
                if math.isinf(truth[k]):
                    infinite.add((k, model))
                    assert truth[k] > 0  # never −∞
    # The search is not vacuous: Minkowski is +∞ under every model for some table, nothing else ever.
    assert infinite == {("minkowski", model) for model in chance.MODELS}
    assert set(chance.CAN_BE_INFINITE) == {"minkowski"}


def test_no_other_measure_takes_infinity_on_any_small_table():
    tables = _all_tables(5)
    side = max(max(t.shape) for t in tables)
    batch = np.array([np.pad(t, ((0, side - t.shape[0]), (0, side - t.shape[1]))) for t in tables])
    scored = metrics.evaluate_batch(batch)
    assert {k for k in scored.columns if np.isinf(scored[k].to_numpy()).any()} == set(chance.CAN_BE_INFINITE)


@pytest.mark.parametrize("table,model,infinite", [
    ([[3, 1], [1, 3]], "all", True),   # the issue's case: a Monte Carlo mean of 1.32 before
    ([[3, 1], [1, 3]], "all1", False),
    ([[3, 1], [1, 3]], "num", False),
    ([[1, 0], [1, 0], [0, 1], [0, 1]], "num", True),   # R = n, K < n: every draw is +∞
    ([[1, 0], [1, 0], [0, 1], [0, 1]], "num1", True),
    ([[1, 0], [1, 0], [0, 1], [0, 1]], "all1", True),
    ([[1, 0], [1, 0], [0, 1], [0, 1]], "perm", True),
    (np.eye(4, dtype=int).tolist(), "num", False),      # K = n too: identical singletons, 0
    (np.eye(4, dtype=int).tolist(), "all1", True),
])
def test_infinite_expectations_are_exact(table, model, infinite):
    t = C.from_table(table)
    e = chance.expectation(t, "minkowski", model, samples=200, seed=0)
    assert chance.infinite_expectation(t, "minkowski", model) is infinite
    assert math.isinf(e.value) is infinite
    if infinite:
        assert (e.value, e.stderr, e.exact, e.samples, e.all_draws_equal) == (math.inf, 0.0, True, 0, False)
        assert chance.is_exact(t, "minkowski", model) and "minkowski" in chance.exact_keys(t, model)
    if t.n <= 6:
        assert math.isinf(true_expectations(t, model, ["minkowski"])["minkowski"]) is infinite


def test_the_issues_case_is_no_longer_a_finite_monte_carlo_mean():
    # 1/B(8) = 1/4140 of the draws are +∞: 300 seeded draws never meet one, yet E = +∞.
    t = C.from_table([[3, 1], [1, 3]])
    draws = chance.null_distribution(t, ["minkowski"], "all", samples=300, seed=0)["minkowski"]
    assert np.isfinite(draws).all()
    prof = chance.summarize(t, draws.to_frame(), "all")
    row = prof.loc["minkowski"]
    assert row["expected"] == math.inf and row["exact"] and row["stderr"] == 0.0
    assert math.isnan(row["z"]) and row["adjusted"] == 1.0  # a finite value is infinitely better than chance
    assert chance.expected(t, "minkowski", "all") == math.inf


def test_monte_carlo_draws_that_never_vary_say_so():
    # Margins (2, 2) × (3, 1) leave one table up to relabelling, which metrics.chance does not know
    # in advance: purity is the same in every draw.
    t = C.from_table([[2, 0], [1, 1]])
    assert not chance.is_exact(t, "purity")
    e = chance.expectation(t, "purity", samples=50, seed=0)
    assert e.all_draws_equal and math.isnan(e.stderr) and not e.exact and e.samples == 50
    assert e.value == M["purity"](t)
    prof = chance.profile(t, ["purity", "ari"], samples=50, seed=0)
    assert bool(prof.at["purity", "all_draws_equal"]) and math.isnan(prof.at["purity", "stderr"])
    assert not prof.at["ari", "all_draws_equal"]  # exact: its stderr is the 0 of a closed form
    assert prof.at["ari", "stderr"] == 0.0


def test_varying_draws_keep_their_standard_error():
    t = C.from_table([[3, 1, 0], [0, 2, 2], [1, 0, 3]])
    e = chance.expectation(t, "purity", samples=200, seed=1)
    assert not e.all_draws_equal and e.stderr > 0
    prof = chance.profile(t, ["purity"], samples=200, seed=1)
    assert not prof.at["purity", "all_draws_equal"] and prof.at["purity", "stderr"] > 0
    assert list(prof.columns) == list(chance.PROFILE_COLUMNS)


def test_a_value_that_cannot_vary_is_exactly_constant_across_random_tables():
    # Singleton clusters stay singletons under the permutation model: completeness is
    # 1 − log 10 / log 100 = 1/2 for every draw. Summing the padded grid grouped the terms by where
    # the empty cells fell, and draws differed in the last bit, which looked like variation.
    t = metrics.Contingency.from_labels(np.repeat(np.arange(10), 10), np.arange(100))
    draws = chance.score_tables(chance.draw_tables(t, model="perm", samples=300, seed=1),
                                ["completeness", "v_measure", "vi", "nmi_joint"])
    for key in draws.columns:
        assert np.unique(draws[key].to_numpy()).size == 1, key
    assert draws["completeness"].iloc[0] == metrics.score("completeness", np.repeat(np.arange(10), 10),
                                                          np.arange(100))
