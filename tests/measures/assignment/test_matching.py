"""The best one-to-one matching behind ε and ε_n: the sparse, component-wise solver
against the dense assignment, and its cost limit."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import metrics
from metrics.measures import matching


@given(st.integers(1, 20), st.integers(1, 20), st.floats(0.02, 1.0), st.integers(0, 2**32 - 1))
def test_component_wise_matching_equals_the_dense_assignment(n_r, n_c, density, seed):
    rng = np.random.default_rng(seed)
    table = rng.integers(1, 6, (n_r, n_c)) * (rng.random((n_r, n_c)) < density)
    t = metrics.Contingency.from_table(table)
    if t.n == 0:
        return
    dense = matching._dense_matching(t.to_dense())
    # Every component through the sparse solver, and through dense blocks.
    for structure in (None, matching.matching_components(t)):
        assert matching._sparse_matching(t.rows, t.cols, t.values, *t.shape, structure) == dense
    assert matching._min_cost_matching(t.rows, t.cols, t.values, *t.shape) == dense


def test_a_relabelled_million_items_match_in_a_moment():
    n = 10**6
    ids = np.arange(n)
    t = metrics.Contingency.from_labels(ids, (ids * 7919) % n)
    assert metrics.evaluate(t, ["classification_error", "epsilon_n"]) == {"classification_error": 0.0,
                                                                          "epsilon_n": 0.0}


def test_epsilon_is_left_out_when_the_matching_is_over_budget(monkeypatch):
    """Beyond its budget (seconds of one core, estimated) ε is left out of evaluate, and asking
    for it names the estimate and the budget."""
    rng = np.random.default_rng(0)
    k = 2000
    t = metrics.Contingency.from_labels(rng.integers(0, k, 8 * k), rng.integers(0, k, 8 * k))
    assert t.shape[0] * t.shape[1] > matching._DENSE_MATCHING_CELLS
    estimate = matching.sparse_matching_seconds(t)
    assert 0 < estimate < matching.MATCHING_BUDGET
    assert "classification_error" in metrics.evaluate(t)
    monkeypatch.setattr(matching, "MATCHING_BUDGET", estimate / 2)
    t = metrics.Contingency.from_labels(rng.integers(0, k, 8 * k), rng.integers(0, k, 8 * k))
    values = metrics.evaluate(t)
    assert "classification_error" not in values and "epsilon_n" not in values and "vd_n" in values
    with pytest.raises(ValueError, match=r"classification_error is not computed.*one-to-one matching.*"
                                         r"would take about [0-9.e-]+ s of one core.*over the budget"):
        metrics.MEASURES["classification_error"](t)
