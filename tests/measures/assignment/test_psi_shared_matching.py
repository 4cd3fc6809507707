"""PSI and its simplified form read one assignment per table (issue 26, item 3: psi_simplified must
not cost more than PSI): the float assignment of n_ij / max(a_i, b_j) is solved once, whichever of
the two asks first, in one evaluate or in two; NCA's weights are another assignment."""

from __future__ import annotations

import numpy as np
import pytest

import metrics
from metrics.measures import normalised_matching


@pytest.fixture
def solves(monkeypatch):
    calls = []
    real = normalised_matching.max_weight_matching

    def counted(t, weight):
        calls.append(weight.__name__)
        return real(t, weight)

    monkeypatch.setattr(normalised_matching, "max_weight_matching", counted)
    return calls


@pytest.mark.parametrize("shape", [(6, 5), (120, 130)])  # scipy's dense solver; the compiled-size table
def test_psi_and_psi_simplified_solve_one_assignment(solves, shape):
    grid = np.random.default_rng(4).integers(0, 9, shape)
    together = metrics.evaluate(metrics.Contingency.from_table(grid), ["psi", "psi_simplified", "nca"])
    assert sorted(solves) == ["_share_of_class", "_share_of_larger"]
    solves.clear()
    t = metrics.Contingency.from_table(grid)
    apart = {**metrics.evaluate(t, ["psi_simplified"]), **metrics.evaluate(t, ["psi"])}
    assert solves == ["_share_of_larger"]
    assert apart["psi"] == together["psi"] and apart["psi_simplified"] == together["psi_simplified"]
