"""ε's sparse matching by levels (metrics.core.kernels.augmenting_paths.levels_max_weight): cells of
at most LEVELS_MAX_WEIGHT items matched by one maximum-cardinality matching per unit of the largest
cell (Kao, Lam, Sung & Ting's decomposition), or where few cells hold more than one item by a bound
and a matching that reaches it, against scipy's dense assignment; the tables that go by levels, its
budget of steps, and its cost estimate."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse
from scipy.optimize import linear_sum_assignment

import metrics
from metrics.core.limits import COSTS
from metrics.measures import compiled_matching, matching

compiled = pytest.importorskip("metrics.core.kernels.compiled", reason="numba (the `fast` extra) is not installed")
from metrics.core.kernels import augmenting_paths  # noqa: E402  (numba is there: compiled imported it)


def csr(dense):
    rows, cols = np.nonzero(dense)
    indptr = np.concatenate(([0], np.cumsum(np.bincount(rows, minlength=dense.shape[0]))))
    return indptr, cols.astype(np.int64), dense[rows, cols].astype(np.int64)


def best(dense) -> int:
    r, c = linear_sum_assignment(dense, maximize=True)
    return int(dense[r, c].sum())


@settings(max_examples=400, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.floats(0.02, 1.0), st.integers(1, 12), st.integers(0, 2**32 - 1))
def test_levels_equal_scipy_s_dense_assignment(n_r, n_c, density, top, seed):
    """Any positive integer cells (the kernel takes any top; the measures send it at most 4),
    either way round, rows or columns without a cell included."""
    rng = np.random.default_rng(seed)
    dense = rng.integers(1, top + 1, (n_r, n_c)) * (rng.random((n_r, n_c)) < density)
    if not dense.any():
        return
    for grid in (dense, dense.T):
        total, complete, steps = compiled.levels_max_weight(*csr(grid), grid.shape[1], 10**7)
        assert complete and total == best(grid) and steps > 0


def test_levels_on_the_tables_that_need_many_augmentations():
    """Unit cells in a band (every row competes with its neighbours for the same columns: long
    alternating paths), and a table whose greedy first matching is as bad as it gets."""
    band = np.zeros((200, 200), dtype=np.int64)
    for i in range(200):
        band[i, max(0, i - 2):i + 1] = 1
    band[:, 0] = 2
    perm = np.random.default_rng(1).permutation(200)
    for grid in (band, band[perm], band[:, perm]):
        assert compiled.levels_max_weight(*csr(grid), 200, 10**7)[:2] == (best(grid), True)
    # Row i links to columns i and i + 1 (first to i + 1): greedy takes every i + 1, the last
    # row's only column is gone, and one path through every row fixes it.
    chain = np.zeros((300, 301), dtype=np.int64)
    chain[np.arange(300), np.arange(300)] = 1
    chain[np.arange(300), np.arange(1, 301)] = 1
    chain[299, 299:] = [1, 0]
    assert compiled.levels_max_weight(*csr(chain), 301, 10**7)[:2] == (best(chain), True)


def test_levels_stop_at_their_budget_of_steps():
    rng = np.random.default_rng(4)
    dense = rng.integers(1, 3, (300, 300)) * (rng.random((300, 300)) < 0.05)
    total, complete, steps = compiled.levels_max_weight(*csr(dense), 300, 10**7)
    assert complete and total == best(dense)
    stopped = compiled.levels_max_weight(*csr(dense), 300, steps // 4)
    assert not stopped[1] and stopped[2] <= steps


def random_table(k, n, seed):
    rng = np.random.default_rng(seed)
    return metrics.Contingency.from_labels(rng.integers(0, k, n), rng.integers(0, k, n))


def test_tables_of_few_items_a_cell_go_by_levels_and_others_by_the_searches(monkeypatch):
    calls = []
    for name in ("levels_max_weight", "held_max_weight", "sparse_max_weight_matching"):
        kernel = getattr(compiled, name)
        monkeypatch.setattr(compiled, name, lambda *a, kernel=kernel, name=name: calls.append(name) or kernel(*a))
    few = random_table(3000, 30000, 0)  # 9·10^6 possible cells: the sparse path; cells of 1–2 items
    assert few.values.max() <= compiled_matching.LEVELS_MAX_WEIGHT
    dense = few.to_dense()
    want = best(dense)
    assert matching.matched_mass(few) == want and calls == ["levels_max_weight"]
    calls.clear()
    shuffled = np.random.default_rng(2).permutation(few.n_cells)  # cells in no order: sorted first
    rows, cols, vals = few.rows[shuffled], few.cols[shuffled], few.values[shuffled]
    assert compiled_matching.compiled_sparse_matching(rows, cols, vals) == want
    calls.clear()
    more = metrics.Contingency.from_table(sparse.coo_matrix((few.values * 5, (few.rows, few.cols)), shape=few.shape))
    assert matching.matched_mass(more) == 5 * want and calls == ["held_max_weight", "sparse_max_weight_matching"]
    calls.clear()
    # Past 4 items but few cells over 1: the bound, certified, where the searches would tie everywhere.
    assert matching.matched_mass(few_heavy()) == best(few_heavy().to_dense()) and calls == ["held_max_weight"]


def few_heavy():
    """A random table of cells of 1–2 items with 30 cells raised to 9: past LEVELS_MAX_WEIGHT."""
    few = random_table(3000, 30000, 0)
    vals = few.values.copy()
    vals[np.random.default_rng(3).choice(vals.size, 30, replace=False)] = 9
    return metrics.Contingency.from_table(sparse.coo_matrix((vals, (few.rows, few.cols)), shape=few.shape))


def test_the_bound_past_the_levels_stops_at_the_budget_and_says_so(monkeypatch):
    t = few_heavy()
    assert t.values.max() > compiled_matching.LEVELS_MAX_WEIGHT and not metrics.MEASURES["epsilon_n"].why_not(t)
    monkeypatch.setitem(COSTS, "levels_step", 1.0)  # a budget of 5 cell reads
    with pytest.raises(ValueError, match=r"epsilon_n is not computed.*stopped after"):
        metrics.MEASURES["epsilon_n"](few_heavy())


def test_random_labels_of_many_classes_are_matched_within_the_estimate():
    """The table the searches were slowest on (10^5 random labels of 10^4 classes and clusters:
    cells of 1 or 2 items, every class sharing clusters with many): computed, the same value as
    the searches', and its estimate is cells × the largest cell at the levels' cost."""
    t = random_table(10**4, 10**5, 3)
    parts = t.memo("matching_components", matching.matching_components)
    hard = ~parts.star
    assert matching.sparse_matching_seconds(t) == pytest.approx(
        COSTS["levels_matching_cell"] * float(np.sum(parts.cells[hard] * parts.best[hard])))
    assert matching.sparse_matching_seconds(t, compiled=False) > matching.sparse_matching_seconds(t)
    indptr = np.concatenate(([0], np.cumsum(np.bincount(t.rows, minlength=t.shape[0]))))  # cells row by row
    searched, _, complete = compiled.sparse_max_weight_matching(indptr, t.cols, t.values, t.shape[1], 10**10)
    values = metrics.evaluate(t, ["classification_error", "epsilon_n"])
    assert complete and values["classification_error"] == pytest.approx(1 - int(searched) / t.n, abs=0)


def test_a_stopped_levels_matching_is_reported(monkeypatch):
    monkeypatch.setitem(COSTS, "levels_step", 1.0)  # a budget of 5 steps
    t = random_table(3000, 30000, 5)
    assert "classification_error" not in metrics.evaluate(t)
    with pytest.raises(ValueError, match=r"classification_error is not computed.*stopped after"):
        metrics.MEASURES["classification_error"](t)


def test_nca_and_psi_are_gated_by_their_own_searches_estimate_not_by_epsilon_s(monkeypatch):
    """ε by levels may be within the budget where NCA's and PSI's searches (fractional weights:
    no levels) are not: those are left out by their estimate at once, never run to their budget."""
    t = random_table(3000, 30000, 6)
    by_levels = matching.sparse_matching_seconds(t)
    searched = matching.sparse_matching_seconds(t, counts=False)
    assert by_levels < searched
    monkeypatch.setattr(matching, "MATCHING_BUDGET", (by_levels * searched) ** 0.5)
    monkeypatch.setitem(COSTS, "levels_step", 1e-15)  # the levels' budget of steps: never reached here
    ran = []
    kernel = compiled.sparse_max_weight_matching
    monkeypatch.setattr(compiled, "sparse_max_weight_matching", lambda *a: ran.append(1) or kernel(*a))
    values = metrics.evaluate(t)
    assert "classification_error" in values and "epsilon_n" in values and "npa" in values
    assert not {"nca", "psi", "psi_simplified"} & values.keys() and not ran
    with pytest.raises(ValueError, match=r"nca is not computed.*would take about .* s of one core"):
        metrics.MEASURES["nca"](t)


def test_a_table_of_read_only_arrays_is_matched_by_levels():
    t = random_table(3000, 30000, 7)
    want = matching.matched_mass(t)
    rows, cols, vals = (x.copy() for x in (t.rows, t.cols, t.values.astype(np.int32)))
    for x in (rows, cols, vals):
        x.flags.writeable = False
    assert compiled_matching.compiled_sparse_matching(rows, cols, vals) == want


def mostly_ones(rng, n_r, n_c, density, heavy_share, top):
    """Cells of one item at ``density``, a ``heavy_share`` of them holding 2 … ``top`` items."""
    ones = rng.random((n_r, n_c)) < density
    return ones * (1 + rng.integers(1, top, (n_r, n_c)) * (rng.random((n_r, n_c)) < heavy_share))


def held(grid, max_steps=10**7):
    """(weight, status) of the bound and its certificate (``_held_heavy``), called as
    levels_max_weight calls it: 1 certified, 0 refused, 2 stopped."""
    indptr, cols, w = csr(grid)
    weight, status, _ = augmenting_paths._held_heavy(indptr, cols, w, grid.shape[1], np.flatnonzero(w > 1), max_steps)
    return weight, status


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.floats(0.02, 0.6), st.floats(0.0, 0.15), st.integers(2, 5),
       st.integers(0, 2**32 - 1))
def test_the_bound_where_it_is_certified_and_the_levels_everywhere_equal_scipy(n_r, n_c, density, share, top, seed):
    grid = mostly_ones(np.random.default_rng(seed), n_r, n_c, density, share, top)
    if not (grid > 1).any():
        return
    for g in (grid, grid.T):
        weight, status = held(g)
        assert status in (0, 1)
        if status == 1:
            assert weight == best(g)
        assert compiled.levels_max_weight(*csr(g), g.shape[1], 10**7)[:2] == (best(g), True)


def test_the_certificate_on_either_side_and_where_it_is_refused():
    rng = np.random.default_rng(8)
    square = mostly_ones(rng, 40, 40, 0.3, 0.05, 4)
    tall = mostly_ones(rng, 60, 12, 0.5, 0.05, 3)  # every column matched, not every row: the columns count
    for grid in (square, tall, tall.T):
        assert (grid > 1).any() and held(grid) == (best(grid), 1)
    # Row 1's one cell lies in the column of row 0's heavy cell: the largest matching (10) needs
    # (0, 1) and (1, 0), so the bound ν + X = 11 is not reached (the best is 10). Refused; the
    # levels answer, the table large enough (11 cells, 1 heavy) for levels_max_weight to try first.
    blocked = np.zeros((10, 10), dtype=np.int64)
    blocked[0, 0], blocked[0, 1], blocked[1, 0] = 2, 1, 1
    blocked[np.arange(2, 10), np.arange(2, 10)] = 1
    assert held(blocked)[1] == 0 and best(blocked) == 10
    assert compiled.levels_max_weight(*csr(blocked), 10, 10**7)[:2] == (10, True)


def test_the_bound_stops_at_the_budget_of_steps():
    grid = mostly_ones(np.random.default_rng(9), 300, 300, 0.1, 0.02, 3)
    total, complete, steps = compiled.levels_max_weight(*csr(grid), 300, 10**7)
    assert complete and total == best(grid) and held(grid)[1] == 1
    assert held(grid, steps // 2)[1] == 2 and held(grid, 10)[1] == 2  # in the searches, in the heavy cells' matching
    stopped = compiled.levels_max_weight(*csr(grid), 300, steps // 2)
    assert not stopped[1] and stopped[2] <= steps


@pytest.mark.parametrize("keys, n_keys", [([0, 0, 1, 3, 3, 3], 4), ([2, 2, 5], 8), ([], 3), ([1], 2)])
def test_sorted_indptr_is_the_csr_pointer_of_sorted_keys(keys, n_keys):
    keys = np.array(keys, dtype=np.int64)
    want = np.concatenate(([0], np.cumsum(np.bincount(keys, minlength=n_keys))))
    assert np.array_equal(compiled.sorted_indptr(keys, n_keys), want)


@pytest.mark.parametrize("keys", [[1, 0], [0, 2, 2, 1], [3, 3, 0, 3]])
def test_sorted_indptr_is_empty_where_the_keys_are_not_sorted(keys):
    assert compiled.sorted_indptr(np.array(keys, dtype=np.int64), 4).size == 0


def test_a_table_without_a_star_matches_every_cell_without_gathering_their_components():
    """Random labels make one component and no star: the cells go to the matching as they are
    (no gather of each cell's component, which only a table with stars needs)."""
    t = random_table(3000, 30000, 8)
    parts = t.memo("matching_components", matching.matching_components)
    assert not parts.star.any()
    assert matching.matched_mass(t) == best(t.to_dense())
    assert "matching_cell_components" not in t.__dict__.get("_memo", {})


def test_a_counted_table_keeps_its_cells_offsets_by_row_and_makes_its_rows_only_when_read():
    """A sparse table counted by the two-level sort keeps each row's first cell instead of each
    cell's row: ε's matching and the components read the offsets, the cells' rows are made when
    something reads them, and they are the rows of the same cells given as a table (pickled,
    transposed, densified alike)."""
    import pickle

    rng = np.random.default_rng(12)
    a, b = rng.integers(0, 20_000, 200_000), rng.integers(0, 20_000, 200_000)
    t = metrics.Contingency.from_labels(a, b)
    assert "rows" not in t.__dict__ and "_row_offsets" in t.__dict__
    keys = ["classification_error", "epsilon_n", "v_measure", "ari", "bcubed_f", "f_measure", "vd_n"]
    got = metrics.evaluate(t, keys)
    assert "rows" not in t.__dict__  # nothing read the cells' rows
    assert not t.memo("matching_components", matching.matching_components).star.any()
    plain = metrics.Contingency.from_table(sparse.coo_matrix((np.ones(a.size, np.int64), (a, b))).tocsr())
    assert "_row_offsets" not in plain.__dict__ and plain.shape == t.shape
    np.testing.assert_array_equal(plain.values, t.values)
    assert metrics.evaluate(plain, keys) == got
    by_row = matching.kept_by_row(t, counts=True)
    assert by_row.offsets.tolist() == np.searchsorted(plain.rows, np.arange(t.shape[0] + 1)).tolist()
    np.testing.assert_array_equal(by_row.top, np.maximum.reduceat(plain.values, by_row.offsets[:-1]))
    again = pickle.loads(pickle.dumps(t))
    for table in (t, again):
        np.testing.assert_array_equal(table.rows, plain.rows)
        np.testing.assert_array_equal(table.T.cols, plain.rows)
    assert "rows" in t.__dict__  # made once, kept


def test_the_first_looks_and_the_components_ask_for_their_cache_lines_ahead():
    """The two loops whose reads the hardware cannot foresee — Hopcroft–Karp's first look into each
    row, the components' cluster of each cell — compile LLVM's prefetch (through numba's intrinsic
    API: a numba or llvmlite that stopped emitting it fails here instead of leaving them silently
    slower); and a prefetch changes nothing: asked at every index of an array, its reads are the same."""
    from numba import njit

    ptr, cols = np.array([0, 2, 3, 5], dtype=np.int64), np.array([0, 1, 1, 0, 2], dtype=np.int64)
    vals = np.ones(5, dtype=np.int64)
    for kernel, args in ((augmenting_paths._hopcroft_karp, lambda: (ptr, cols, *augmenting_paths._matching_arrays(3, 3),
                                                                     0, 100)),
                         (compiled.cell_components, lambda: (np.array([0, 0, 1, 2, 2]), cols, vals, 3, 3, True,
                                                             vals[:0], None))):
        fresh = njit(kernel.py_func)  # compiled here: code loaded from numba's disk cache cannot be inspected
        here, there = args(), args()
        # the same answer, and for the matching the same col_of and row_of it leaves
        assert all(map(np.array_equal, (*fresh(*here), *here[2:4]), (*kernel(*there), *there[2:4])))
        assert any("llvm.prefetch" in code for code in fresh.inspect_llvm().values()), kernel.__name__

    prefetch = augmenting_paths._prefetch

    @njit
    def asked_everywhere(a):
        for i in range(a.size):
            prefetch(a, i)
        return a.copy()

    a = np.random.default_rng(0).integers(0, 10**6, 10**5)
    assert np.array_equal(asked_everywhere(a), a)
