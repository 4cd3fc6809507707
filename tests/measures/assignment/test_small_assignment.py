"""The numpy assignment of small tables (metrics/core/kernels/small_assignment.py) against scipy's
linear_sum_assignment, and the dispatch that lets a fresh process score a small table without
importing scipy.optimize."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.optimize import linear_sum_assignment as scipy_lsa

from metrics.core.kernels.small_assignment import SMALL_SIDE, max_weight_assignment_small
from metrics.measures import matching

shapes = st.tuples(st.integers(1, SMALL_SIDE), st.integers(1, SMALL_SIDE))
counts = shapes.flatmap(lambda s: arrays(np.int64, s, elements=st.integers(0, 6)))
masses = shapes.flatmap(lambda s: arrays(np.float64, s, elements=st.floats(0, 1e6, allow_subnormal=False)))


def _check(w):
    rows, cols = max_weight_assignment_small(w)
    want_r, want_c = scipy_lsa(w, maximize=True)
    assert len(rows) == min(w.shape) and len(set(rows.tolist())) == len(rows) and len(set(cols.tolist())) == len(cols)
    assert np.all(np.diff(rows) > 0)
    got, want = w[rows, cols].sum(), w[want_r, want_c].sum()
    if w.dtype.kind == "i":
        assert got == want  # integer weights: exact
    else:
        assert got == pytest.approx(want, rel=1e-12, abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(counts)
def test_counts_give_scipys_optimum_exactly(w):
    _check(w)


@settings(max_examples=200, deadline=None)
@given(masses)
def test_masses_give_scipys_optimum(w):
    _check(w)


@pytest.mark.parametrize("w", [np.zeros((3, 5)), np.ones((7, 7)), np.eye(9)[::-1] * 4, np.ones((1, 6)),
                               np.arange(6.0)[:, None], np.kron(np.eye(3), np.ones((2, 2)))])
def test_ties_and_degenerate_shapes(w):
    _check(w)


def test_the_dispatch_solves_a_fresh_process_s_first_small_tables_in_numpy(monkeypatch):
    calls = []

    def counted(w, maximize):
        calls.append(w.shape)
        return scipy_lsa(w, maximize=maximize)

    monkeypatch.setattr(matching, "scipy_assignment", counted)
    monkeypatch.delitem(__import__("sys").modules, "scipy.optimize")
    monkeypatch.setattr(matching, "_numpy_assignments_done", 0)
    w = np.random.default_rng(2).integers(0, 9, (6, 8))
    for maximize in (True, False):
        r, c = matching.linear_sum_assignment(w, maximize=maximize)
        want_r, want_c = scipy_lsa(w, maximize=maximize)
        assert w[r, c].sum() == w[want_r, want_c].sum()
    assert not calls
    big = np.random.default_rng(3).integers(0, 9, (SMALL_SIDE + 1, 3))
    matching.linear_sum_assignment(big, maximize=True)
    assert calls == [big.shape]  # a table past the side goes to scipy
    monkeypatch.setattr(matching, "_numpy_assignments_done", matching._NUMPY_ASSIGNMENTS)
    matching.linear_sum_assignment(w, maximize=True)
    assert calls[-1] == w.shape  # a process that has solved many pays scipy's import once
