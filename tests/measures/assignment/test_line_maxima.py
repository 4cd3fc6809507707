"""The matching certified by the lines' maxima (metrics.core.kernels.line_maxima):
when every class (or cluster, the shorter side) has its best cell in a cluster of its own, those
cells are the maximum-weight matching of ε's counts, NCA's n_ij / a_i and PSI's n_ij / max(a_i, b_j);
so are tied best counts that match every line (test_tied_line_maxima.py), for ε and NCA by rows.
Checked against numpy's weights and argmax (the same cells, the same bits) and scipy's assignment
(the same value), on random grids of both orientations with ties, and through the measures."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

import metrics
from metrics.core.kernels import counting
from metrics.measures import matching, normalised_matching

line_maxima = pytest.importorskip("metrics.core.kernels.line_maxima",
                                  reason="numba (the `fast` extra) is not installed")
from metrics.core.kernels import float_assignment  # noqa: E402  (numba is there)

KINDS = {"count": line_maxima.COUNT, "share_of_class": line_maxima.SHARE_OF_CLASS,
         "share_of_larger": line_maxima.SHARE_OF_LARGER}


def numpy_weights(grid: np.ndarray, kind: str) -> np.ndarray:
    """The weights as normalised_matching.max_weight_matching makes them from a grid."""
    counts = grid.astype(np.float64)
    if kind == "count":
        return counts
    a = grid.sum(axis=1).astype(np.float64)[:, None]
    b = grid.sum(axis=0).astype(np.float64)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        w = counts / a if kind == "share_of_class" else counts / np.maximum(a, b)
    return np.where(counts > 0, w, 0.0)


def scipy_value(w: np.ndarray) -> float:
    r, c = linear_sum_assignment(w, maximize=True)
    return float(np.sort(w[r, c]).sum())


def dominant_grid(rng, n_r: int, n_c: int, top: int, boost: int) -> np.ndarray:
    """Random counts with a dominant cell in a random distinct column per row (rows ≤ columns)
    or row per column: a clustering whose classes each have their own cluster — or, with
    ``boost`` 0, plain noise, where lines usually share their best cell."""
    grid = rng.integers(0, top + 1, (n_r, n_c))
    k = min(n_r, n_c)
    rows, cols = rng.permutation(n_r)[:k], rng.permutation(n_c)[:k]
    grid[rows, cols] += boost
    return grid


@settings(max_examples=400, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 12), st.sampled_from([0, 1, 3, 50]),
       st.sampled_from(sorted(KINDS)), st.booleans(), st.integers(0, 2**32 - 1))
def test_the_best_cells_are_numpy_s_and_their_matching_scipy_s(n_r, n_c, top, boost, kind, known, seed):
    """Each line's best weight is numpy's maximum to the bit and lies where numpy's argmax puts
    it (the first), the cells are declared distinct exactly when they are, and then the value is
    scipy's optimum. Few distinct counts make ties everywhere (PSI's quotients of equal counts
    and equal sizes are equal: the candidates' exact division must keep the first). ``known``:
    the lines' largest counts handed in, as a grid's summary pass keeps them (the counts' pass
    then only finds where they lie)."""
    rng = np.random.default_rng(seed)
    grid = dominant_grid(rng, n_r, n_c, top, boost)
    w = numpy_weights(grid, kind)
    maxima = (grid.max(axis=1), grid.max(axis=0)) if known else None
    runner_up = np.full(min(n_r, n_c), -7, dtype=np.int64) if known else None
    best, at, distinct, by_row = line_maxima.line_best_cells(grid, grid.sum(axis=1), grid.sum(axis=0),
                                                                  KINDS[kind], maxima, runner_up)
    assert by_row == (n_r <= n_c)
    lines = w if by_row else w.T
    if known and kind == "count":  # each line's largest count but its best cell's (its top again if tied)
        ranked = -np.sort(-lines, axis=1)
        assert np.array_equal(runner_up, ranked[:, 1] if ranked.shape[1] > 1 else np.zeros(ranked.shape[0]))
    want_best = lines.max(axis=1)
    want_at = np.where(want_best > 0, lines.argmax(axis=1), -1)
    assert np.array_equal(best, want_best)
    assert np.array_equal(at, want_at)
    used = want_at[want_at >= 0]
    assert distinct == (np.unique(used).size == used.size)
    value = line_maxima.by_line_maxima(grid, grid.sum(axis=1), (best, at, distinct, by_row), KINDS[kind])
    if not distinct:
        assert value is None
    elif kind == "count":
        assert type(value) is int and value == int(scipy_value(w))
    else:
        assert value == pytest.approx(scipy_value(w), rel=1e-15)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6), st.integers(2, 60), st.integers(0, 2**32 - 1))
def test_psi_quotients_a_unit_of_rounding_apart_keep_numpy_s_best(n_r, n_c, seed):
    """PSI's quotients n_ij / b_j all within a few units of rounding of 1/3 (counts near 2^51,
    sizes three times them plus a few): the products the kernel ranks by first cannot tell them
    apart, the exact division must — the same best cell and value as numpy's, bit for bit."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(2**51, 2**51 + 64, (n_r, n_c))
    col_sums = (3 * counts.max(axis=0) + rng.integers(-3, 4, n_c)).astype(np.float64)
    row_sums = np.ones(n_r, dtype=np.int64)  # a_i below every b_j: the weight is n_ij / b_j
    best, at, _ = line_maxima.lines_best(counts, row_sums, col_sums, line_maxima.SHARE_OF_LARGER, True,
                                         np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64))
    w = counts / np.maximum(row_sums[:, None].astype(np.float64), col_sums[None, :])
    assert np.ptp(w) < 64 * np.finfo(float).eps  # near-ties indeed
    np.testing.assert_array_equal(best, w.max(axis=1))
    np.testing.assert_array_equal(at, w.argmax(axis=1))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 12), st.sampled_from([0, 1, 3, 50, 400]),
       st.integers(0, 2**32 - 1))
def test_psi_s_cells_read_off_the_counts_are_its_own_pass_s(n_r, n_c, top, boost, seed):
    """Where the counts' best cells and runner-ups certify PSI's best cells (each weighs more than
    its line's runner-up over the line's size), they are the cells and bits of PSI's own pass; a
    clustering's dominant cells are certified in both orientations."""
    rng = np.random.default_rng(seed)
    grid = dominant_grid(rng, n_r, n_c, top, boost)
    a, b = grid.sum(axis=1), grid.sum(axis=0)
    runner_up = np.zeros(min(n_r, n_c), dtype=np.int64)
    counts = line_maxima.line_best_cells(grid, a, b, line_maxima.COUNT, (grid.max(axis=1), grid.max(axis=0)),
                                         runner_up)
    read = line_maxima.psi_from_count_cells(grid, a, b, counts, runner_up)
    own = line_maxima.line_best_cells(grid, a, b, line_maxima.SHARE_OF_LARGER)
    if boost == 400 and top <= 3:
        assert read is not None
    if read is not None:
        assert np.array_equal(read[0], own[0]) and np.array_equal(read[1], own[1]) and read[2:] == own[2:]


def test_psi_cells_are_not_read_off_counts_whose_runner_up_could_win():
    """A row whose best count lies in a big cluster while a smaller count sits in a cluster no
    larger than the class: the smaller count weighs more under PSI, and the counts' cells are not
    taken for PSI's."""
    grid = np.array([[50, 40, 0], [0, 5, 60], [1000, 0, 3]], dtype=np.int64)  # row 0: 50 / 1050 < 40 / 90
    a, b = grid.sum(axis=1), grid.sum(axis=0)
    runner_up = np.zeros(3, dtype=np.int64)
    counts = line_maxima.line_best_cells(grid, a, b, line_maxima.COUNT, (grid.max(axis=1), grid.max(axis=0)),
                                         runner_up)
    assert counts[1][0] == 0 and runner_up[0] == 40
    assert line_maxima.psi_from_count_cells(grid, a, b, counts, runner_up) is None
    assert line_maxima.line_best_cells(grid, a, b, line_maxima.SHARE_OF_LARGER)[1][0] == 1


def test_nca_by_rows_reads_the_count_s_cells():
    """By rows, n_ij / a_i has its best cells where the counts do: the value from the counts'
    cells equals the one from its own pass, to the bit."""
    rng = np.random.default_rng(4)
    grid = dominant_grid(rng, 70, 90, 9, 40)
    a, b = grid.sum(axis=1), grid.sum(axis=0)
    own = line_maxima.line_best_cells(grid, a, b, line_maxima.SHARE_OF_CLASS)
    counts = line_maxima.line_best_cells(grid, a, b, line_maxima.COUNT)
    assert own[2] and np.array_equal(own[1], counts[1])
    assert line_maxima.by_line_maxima(grid, a, counts, line_maxima.SHARE_OF_CLASS) == \
        line_maxima.by_line_maxima(grid, a, own, line_maxima.SHARE_OF_CLASS) == scipy_value(
            numpy_weights(grid, "share_of_class"))


@pytest.fixture
def no_solver(monkeypatch):
    """The assignment solvers refuse to run: what answers must come from the lines' maxima."""
    def refuse(*args, **kwargs):
        raise AssertionError("an assignment solver ran")

    monkeypatch.setattr(float_assignment, "max_weight_value", refuse)
    monkeypatch.setattr(matching, "linear_sum_assignment", refuse)
    monkeypatch.setattr(matching, "_dense_matching", refuse)


@pytest.mark.parametrize("grid_kind, shape, top", [("dominant", (300, 300), 15), ("dominant", (200, 260), 15),
                                                    ("dominant", (260, 200), 15), ("tied", (300, 300), 19),
                                                    ("tied", (200, 260), 2), ("tied", (260, 200), 9)])
def test_measures_of_certified_grids_need_no_assignment_solver(no_solver, monkeypatch, grid_kind, shape, top):
    """ε, ε_n, NPA, NCA, PSI and PSI_s of a big grid whose classes each have a dominant cluster
    ("dominant"), and ε, ε_n, NPA and NCA of one of uniform counts 0 … top ("tied": no line's best
    cell is its own, but the tied best cells match every line): no solver runs, and the values
    are those of the solvers, to the bit (solvers back, the line maxima refused). NCA by columns
    (more classes than clusters) reads its own weights' maxima, which do not tie: left out there."""
    counting.load_compiled()
    if grid_kind == "dominant":
        grid = dominant_grid(np.random.default_rng(sum(shape)), *shape, top, 200)
        keys = ["classification_error", "epsilon_n", "npa", "nca", "psi", "psi_simplified"]
    else:
        grid = np.random.default_rng(sum(shape) + top).integers(0, top + 1, shape)
        keys = ["classification_error", "epsilon_n", "npa"] + (["nca"] if shape[0] <= shape[1] else [])
        assert not line_maxima.line_best_cells(grid, grid.sum(axis=1), grid.sum(axis=0), line_maxima.COUNT)[2]
    fast = metrics.evaluate(metrics.Contingency.from_table(grid), keys)
    monkeypatch.undo()
    monkeypatch.setattr(matching, "line_maxima_matching", lambda t, kind: None)
    monkeypatch.setattr(normalised_matching, "line_maxima_matching", lambda t, kind: None)
    solved = metrics.evaluate(metrics.Contingency.from_table(grid), keys)
    assert fast == solved


def test_lines_that_share_their_best_cell_go_to_the_solver():
    """Two classes whose best cluster is the same (a merge): the lines' maxima do not certify,
    the solver answers, and its answer is scipy's."""
    counting.load_compiled()
    grid = dominant_grid(np.random.default_rng(9), 120, 120, 5, 100)
    grid[7] = grid[8]  # class 7's best cluster is class 8's
    t = metrics.Contingency.from_table(grid)
    for kind in KINDS:
        assert matching.line_maxima_matching(t, kind) is None
    got = metrics.evaluate(t, ["classification_error", "nca", "psi_simplified"])
    assert got["classification_error"] == pytest.approx(1 - scipy_value(grid.astype(float)) / grid.sum(), abs=1e-15)
    nca = (scipy_value(numpy_weights(grid, "share_of_class")) - 1) / (grid.shape[0] - 1)
    assert got["nca"] == pytest.approx(nca, rel=1e-14)


def test_fractional_and_small_grids_do_not_take_it():
    """Fractional masses (a float grid) and grids under the compiled matching's size go to the
    solvers: the kernel reads whole counts."""
    counting.load_compiled()
    rng = np.random.default_rng(2)
    small = metrics.Contingency.from_table(dominant_grid(rng, 20, 20, 5, 50))
    assert small.grid is not None and matching.line_maxima_matching(small, "count") is None
    fractional = metrics.Contingency.from_table(dominant_grid(rng, 100, 100, 5, 50) + 0.5)
    assert matching.line_maxima_matching(fractional, "share_of_larger") is None


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.sampled_from([(np.int64, 3), (np.int64, 2**50), (np.int32, 1000),
                                                                 (np.uint8, 255), (np.uint64, 2**40)]),
       st.sampled_from(["share_of_class", "share_of_larger"]), st.integers(0, 2**32 - 1))
def test_grid_weights_are_numpy_s_to_the_bit(n_r, n_c, dtype_top, kind, seed):
    """NCA's and PSI's weights of a count grid in one compiled pass: every cell numpy's
    quotient bit for bit (the counts widened to float64 as numpy widens them, near 2^50 too,
    where the widening rounds), in every integer dtype a table keeps."""
    dtype, top = dtype_top
    rng = np.random.default_rng(seed)
    grid = rng.integers(0, top, (n_r, n_c), endpoint=True, dtype=np.int64)
    grid = grid[grid.sum(axis=1) > 0][:, grid.sum(axis=0) > 0].astype(dtype)  # a table keeps no empty line
    a, b = grid.sum(axis=1, dtype=np.int64), grid.sum(axis=0, dtype=np.int64)
    got = np.full(grid.shape, np.nan)
    line_maxima.grid_weights(grid, a.astype(np.float64), b.astype(np.float64), KINDS[kind], got)
    want = numpy_weights(grid, kind)
    assert got.shape == want.shape and np.array_equal(got.view(np.int64), want.view(np.int64))


@pytest.mark.parametrize("shape", [(150, 150), (90, 130), (130, 90)])
def test_nca_and_psi_of_compiled_weights_are_those_of_numpy_s(monkeypatch, shape):
    """A big grid of noise (no dominant clusters: the assignment solvers run): NCA, PSI and
    PSI_s from the compiled weights equal those from numpy's division, to the bit — and the
    compiled weights were used."""
    counting.load_compiled()
    grid = np.random.default_rng(sum(shape)).integers(0, 6, shape)
    grid[1] = grid[0]  # two classes whose only best cluster is the same: the counts' ties match no
    grid[:2, 0] = 7    # class to a cluster of its own, NCA goes to the solver too
    keys = ["nca", "psi", "psi_simplified"]
    used = []
    real = matching.compiled_grid_weights

    def spy(t, kind):
        weights = real(t, kind)
        used.append(kind if weights is not None else None)
        return weights

    monkeypatch.setattr(normalised_matching, "compiled_grid_weights", spy)
    compiled = metrics.evaluate(metrics.Contingency.from_table(grid), keys)
    assert sorted(used) == ["share_of_class", "share_of_larger"]
    monkeypatch.setattr(normalised_matching, "compiled_grid_weights", lambda t, kind: None)
    assert metrics.evaluate(metrics.Contingency.from_table(grid), keys) == compiled


@pytest.mark.parametrize("shape", [(300, 300), (260, 400), (400, 260)])
def test_a_clustering_s_psi_reads_the_counts_cells_without_a_pass_of_its_own(monkeypatch, shape):
    """A big clustering's table, every class with its own dominant cluster (both orientations): PSI
    and PSI_s read their cells off the counts' (no PSI pass over the grid), with the values of
    PSI's own pass and of scipy's assignment."""
    counting.load_compiled()
    grid = dominant_grid(np.random.default_rng(sum(shape)), *shape, 6, 300)
    passes = []
    real = line_maxima.line_best_cells

    def spy(counts, row_sums, col_sums, kind, *known):
        passes.append(kind)
        return real(counts, row_sums, col_sums, kind, *known)

    monkeypatch.setattr(line_maxima, "line_best_cells", spy)
    read = metrics.evaluate(metrics.Contingency.from_table(grid), ["psi", "psi_simplified"])
    assert passes == [line_maxima.COUNT]
    monkeypatch.setattr(line_maxima, "psi_from_count_cells", lambda *args: None)
    own = metrics.evaluate(metrics.Contingency.from_table(grid), ["psi", "psi_simplified"])
    assert passes == [line_maxima.COUNT, line_maxima.COUNT, line_maxima.SHARE_OF_LARGER]
    assert read == own
    monkeypatch.setattr(matching, "line_maxima_matching", lambda t, kind: None)
    monkeypatch.setattr(normalised_matching, "line_maxima_matching", lambda t, kind: None)
    solved = metrics.evaluate(metrics.Contingency.from_table(grid), ["psi", "psi_simplified"])
    assert read == pytest.approx(solved, rel=1e-14, abs=0)
