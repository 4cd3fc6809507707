"""The certified sparse assignment of fractional weights (metrics.core.kernels.float_assignment):
NCA's and PSI's matchings solved on each row's and column's best cells, certified on every cell
by duality, against scipy's dense ``linear_sum_assignment`` — random, sparse, tied, rectangular
and degenerate matrices, matrices whose best cells miss the optimum (the certificate must catch
them), the wiring into the measures, and the path without numba."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

import metrics
from metrics.core.kernels import counting
from metrics.measures import matching, normalised_matching

float_assignment = pytest.importorskip("metrics.core.kernels.float_assignment",
                                       reason="numba (the `fast` extra) is not installed")


def scipy_value(w: np.ndarray) -> float:
    """What matching._lsa_value returned before the fast path: scipy's matched weights, sorted."""
    r, c = linear_sum_assignment(w, maximize=True)
    return float(np.sort(w[r, c]).sum())


def psi_weights(table: np.ndarray) -> np.ndarray:
    a, b = table.sum(axis=1), table.sum(axis=0)
    return table / np.maximum(np.maximum(a[:, None], b[None, :]), 1)


def nca_weights(table: np.ndarray) -> np.ndarray:
    return table / np.maximum(table.sum(axis=1, keepdims=True), 1)


def assert_optimal(w: np.ndarray, **kwargs) -> float:
    value = float_assignment.max_weight_value(w, **kwargs)
    assert value is not None, "not certified"
    expected = scipy_value(w)
    assert value == pytest.approx(expected, rel=1e-12, abs=1e-300)
    return value


def no_limits(**extra):
    # Small matrices: every cell may become a candidate, and rounds enough for k = 1.
    return dict(max_share=1.0, rounds=200, **extra)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 25), st.integers(1, 25), st.floats(0.05, 1.0), st.integers(1, 20),
       st.sampled_from(["psi", "nca", "uniform"]), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_equals_scipy_on_random_tables(n_r, n_c, density, top, kind, k, seed):
    """Dense and sparse tables, both orientations, few distinct counts (ties) or continuous
    weights, with as few candidates per line as 1: always certified, always scipy's optimum."""
    rng = np.random.default_rng(seed)
    table = rng.integers(0, top + 1, (n_r, n_c)) * (rng.random((n_r, n_c)) < density)
    if kind == "psi":
        w = psi_weights(table)
    elif kind == "nca":
        w = nca_weights(table)
    else:
        w = rng.random((n_r, n_c)) * (table > 0)
    assert_optimal(w, **no_limits(best_per_line=k))


def test_the_certificate_catches_candidates_that_miss_the_optimum():
    """Each row's and column's single best cell do not hold the optimum (27: 6 + 3 + 9 + 9 over
    the cells (0,1), (1,0), (2,3), (3,2)); the solution on them is 26. The certificate names the
    missing cells, and the answer is the optimum — accepting the first round's solution fails."""
    w = np.array([[8., 6., 5., 2.], [3., 0., 0., 0.], [1., 8., 6., 9.], [5., 6., 9., 7.]]) / 10.0
    mask = np.zeros(w.shape, dtype=bool)
    float_assignment.mark_best(w, 1, mask)
    assert scipy_value(w * mask) == pytest.approx(2.6)  # the candidates alone fall short
    assert scipy_value(w) == pytest.approx(2.7)
    assert float_assignment.max_weight_value(w, **no_limits(best_per_line=1)) == pytest.approx(2.7, rel=1e-15)


def test_a_count_table_s_psi_weights_need_more_than_the_best_cells():
    """PSI's weights of a table of counts 0–19: its rows' and columns' five best cells miss the
    optimum (by 5e-5), the default settings still give scipy's value to the last bit."""
    table = np.random.default_rng(0).integers(0, 20, (80, 80))
    w = np.ascontiguousarray(psi_weights(table))
    mask = np.zeros(w.shape, dtype=bool)
    float_assignment.mark_best(w, float_assignment.BEST_PER_LINE, mask)
    assert scipy_value(w * mask) < scipy_value(w) - 1e-6
    assert float_assignment.max_weight_value(w) == scipy_value(w)


def test_without_the_certificate_the_first_round_would_be_wrong(monkeypatch):
    """The certificate is what makes the answer right: with it replaced by one that finds every
    cell feasible (and the bound equal to the matching), the same matrix gives less than the
    optimum — so the tests above would fail without it."""
    w = np.array([[8., 6., 5., 2.], [3., 0., 0., 0.], [1., 8., 6., 9.], [5., 6., 9., 7.]]) / 10.0

    def trusting(w_, price, profit, delta, k, mask):
        return 0.0, 0

    monkeypatch.setattr(float_assignment, "gap_tolerance", lambda bound, n_r, n_c: np.inf)
    monkeypatch.setattr(float_assignment, "certify", trusting)
    assert float_assignment.max_weight_value(w, **no_limits(best_per_line=1)) == pytest.approx(2.6)


TIED = {
    "all_equal": lambda rng: np.full((120, 120), 0.25),
    "permutation": lambda rng: np.eye(150)[rng.permutation(150)],
    "blocks": lambda rng: np.kron(np.eye(6), np.ones((20, 20))) / 20.0,
    "blocks_shuffled": lambda rng: (np.kron(np.eye(6), np.ones((20, 20))) / 20.0)[rng.permutation(120)],
    "psi_counts_0_19": lambda rng: psi_weights(rng.integers(0, 20, (200, 200))),
    "psi_counts_0_2": lambda rng: psi_weights(rng.integers(0, 3, (150, 150))),
    "nca_counts_0_19": lambda rng: nca_weights(rng.integers(0, 20, (200, 200))),
    "sparse_uniform": lambda rng: rng.random((200, 200)) * (rng.random((200, 200)) < 0.02),
    "wide": lambda rng: psi_weights(rng.integers(0, 20, (70, 300))),
    "tall": lambda rng: psi_weights(rng.integers(0, 20, (300, 70))),
    "one_row": lambda rng: rng.random((1, 200)),
    "one_column": lambda rng: rng.random((200, 1)),
    "zeros": lambda rng: np.zeros((100, 100)),
    "single_cell": lambda rng: np.pad(np.ones((1, 1)), ((40, 40), (30, 50))),
}


@pytest.mark.parametrize("kind", sorted(TIED))
def test_ties_shapes_and_degenerate_matrices(kind):
    """Many ties (all cells equal, a permutation, blocks), rectangular either way, 1 × n and
    n × 1, nothing to match: scipy's value, with the default settings (no fallback needed)."""
    w = TIED[kind](np.random.default_rng(7))
    assert_optimal(w)


def test_same_matching_same_bits():
    """The value is summed as matching._lsa_value sums scipy's: bit-identical where the optimum
    is unique (continuous weights)."""
    rng = np.random.default_rng(3)
    for shape in [(300, 300), (200, 90), (90, 200)]:
        w = rng.random(shape) * (rng.random(shape) < 0.3)
        assert float_assignment.max_weight_value(w) == scipy_value(w)


def test_gives_up_rather_than_guess():
    """Past its share of candidates, its rounds or its budget of steps it answers None (the
    caller's dense solve takes over) — never an uncertified value."""
    w = psi_weights(np.random.default_rng(0).integers(0, 20, (100, 100)))
    assert float_assignment.max_weight_value(w, max_share=0.01, best_per_line=1) is None
    assert float_assignment.max_weight_value(w, best_per_line=1, rounds=1) is None


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.5, 2.0]))
def test_certify_s_bound_is_the_float_maximum_s(n_r, n_c, seed, shift):
    """certify takes each row's largest w_ij − p_j among their bit patterns as integers: the
    same bound, to the last bit, as the float maximum of max(0, ·) — whether the reduced weights
    are all positive, mixed, all negative (prices above every weight) or exactly zero — and the
    same cells marked as a plain loop marks."""
    rng = np.random.default_rng(seed)
    w = np.ascontiguousarray(rng.random((n_r, n_c)) * (rng.random((n_r, n_c)) < 0.7))
    price = rng.random(n_c) * shift
    price[: n_c // 3] = w[0, : n_c // 3]  # reduced weights of exactly 0 in row 0
    profit = rng.random(n_r) * 0.2
    mask = float_assignment.new_mask(n_r, n_c)
    bound, added = float_assignment.certify(w, price, profit, 0.0, 2, mask)
    expected = 0.0
    for i in range(n_r):
        expected += max(0.0, *(w[i, j] - price[j] for j in range(n_c)))
    for j in range(n_c):
        expected += price[j]
    assert bound == expected
    plain = np.zeros((n_r, n_c), dtype=bool)
    for i in range(n_r):
        r = w[i] - price - profit[i]
        if np.max(np.maximum(w[i] - price, 0.0)) > profit[i]:
            for j in np.argsort(-r, kind="stable")[:2]:
                plain[i, j] = r[j] > 0
    assert np.array_equal(mask[:, :n_c], plain) and added == plain.sum()
    assert not mask[:, n_c:].any()


def reference_marks(w: np.ndarray, k: int) -> np.ndarray:
    """mark_best's rule written plainly: rows in order, each scanned from its offset
    (i·n_c) // n_r round to it; a row keeps its k largest positive cells (earlier cells win
    ties), a column its k largest cells as the rows go by (a tie with its k-th replaces it where
    the cell's hash says so)."""
    n_r, n_c = w.shape
    kr, kc = min(k, n_c), min(k, n_r)
    cols: list[list[tuple[float, int]]] = [[(0.0, -1)] * kc for _ in range(n_c)]
    mask = np.zeros((n_r, n_c), dtype=bool)

    def insert(best, x, at):
        p = len(best) - 1
        while p > 0 and best[p - 1][0] < x:
            p -= 1
        best.insert(p, (x, at))
        best.pop()

    for i in range(n_r):
        row: list[tuple[float, int]] = [(0.0, -1)] * kr
        start = (i * n_c) // n_r
        for j in [*range(start, n_c), *range(start)]:
            x = w[i, j]
            if x > row[-1][0]:
                insert(row, x, j)
            last = cols[j][-1][0]
            if x > last or (x == last and x > 0.0 and ((i * 40503 + j * 9973) >> 3) & 3 == 0):
                insert(cols[j], x, i)
        for _, j in row:
            if j >= 0:
                mask[i, j] = True
    for j in range(n_c):
        for _, i in cols[j]:
            if i >= 0:
                mask[i, j] = True
    return mask


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.integers(1, 5), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_mark_best_marks_what_its_rule_says(n_r, n_c, k, top, seed):
    """The candidates of count tables' PSI weights (ties across rows and within them) and of
    continuous weights: the kernel's marks are the plain rule's, cell for cell."""
    rng = np.random.default_rng(seed)
    table = rng.integers(0, top + 1, (n_r, n_c))
    for w in (psi_weights(table), rng.random((n_r, n_c)) * (table > 0)):
        w = np.ascontiguousarray(w)
        mask = float_assignment.new_mask(n_r, n_c)
        marked = float_assignment.mark_best(w, k, mask)
        expected = reference_marks(w, k)
        assert np.array_equal(mask[:, :n_c], expected) and marked == expected.sum()


@pytest.mark.parametrize("n_c", [1, 7, 8, 9, 64, 203])
def test_csr_of_a_padded_mask_is_the_csr_of_the_mask(n_c):
    """csr_of_mask reads new_mask's padded rows a word at a time: the same CSR as an unpadded
    mask of the same marks, read a cell at a time."""
    rng = np.random.default_rng(n_c)
    w = rng.random((30, n_c))
    padded = float_assignment.new_mask(30, n_c)
    assert padded.shape[1] % 8 == 0 and padded.shape[1] - n_c < 8
    marks = rng.random((30, n_c)) < 0.1
    padded[:, :n_c] = marks
    plain = np.ascontiguousarray(marks)
    ones = float_assignment.csr_of_mask(w, padded, int(marks.sum()))
    other = float_assignment.csr_of_mask(w, plain, int(marks.sum()))
    for x, y in zip(ones, other):
        assert np.array_equal(x, y)
    rows, cols = np.nonzero(marks)
    assert np.array_equal(ones[1], cols) and np.array_equal(ones[2], w[rows, cols])


def test_gap_tolerance_is_rounding_only():
    """(rows + columns)·ε·bound: below 1e-12 relative up to 1000 × 1000 (the argument in the
    module docstring allows three times it)."""
    assert float_assignment.gap_tolerance(2.0, 1000, 1000) / 2.0 < 1e-12 / 2
    assert float_assignment.gap_tolerance(0.0, 1000, 1000) == 0.0


# ------------------------------------------------------------------------------ wiring


@pytest.fixture
def spy(monkeypatch):
    calls = []
    real = float_assignment.max_weight_value

    def counted(weights, *args, **kwargs):
        calls.append(weights.shape)
        return real(weights, *args, **kwargs)

    monkeypatch.setattr(float_assignment, "max_weight_value", counted)
    return calls


@pytest.mark.parametrize("key", ["nca", "psi", "psi_simplified"])
def test_measures_of_a_big_table_use_it_and_agree_with_the_numpy_path(spy, key):
    """NCA, PSI and PSI_s of a 200 × 200 count table: through the certified path with numba,
    through scipy with the numpy kernel forced (the path without numba), the same values. Two
    classes share their only best cluster, so that the counts' best cells match no class to a
    cluster of its own (line_maxima would answer NCA without this path)."""
    counting.load_compiled()
    table = np.random.default_rng(5).integers(0, 20, (200, 200))
    table[1] = table[0]
    table[:2, 0] = 40
    fast = metrics.evaluate(metrics.Contingency.from_table(table), [key])[key]
    assert spy, "the certified path was not taken"
    spy.clear()
    counting.FORCE_KERNEL = "numpy"
    try:
        slow = metrics.evaluate(metrics.Contingency.from_table(table), [key])[key]
    finally:
        counting.FORCE_KERNEL = None
    assert not spy, "the numpy path must not load the compiled kernels"
    assert fast == pytest.approx(slow, rel=1e-12)


def test_small_tables_stay_with_scipy_and_the_fallback_is_the_dense_kernel(spy, monkeypatch):
    """Below the compiled matching's size the dense solve is scipy's; where the certified path
    gives up, the dense Jonker–Volgenant kernel's (scipy's optimum, summed as scipy's is), for
    either side the shorter."""
    counting.load_compiled()
    rng = np.random.default_rng(1)
    small = rng.random((10, 10))
    assert matching._lsa_value(small) == scipy_value(small)
    assert not spy
    monkeypatch.setattr(float_assignment, "max_weight_value", lambda w, **_: spy.append(w.shape))  # gives up: None
    table = rng.integers(0, 20, (100, 160))
    big = [psi_weights(table), nca_weights(table), psi_weights(table.T), nca_weights(table.T), rng.random((90, 90))]
    expected = [scipy_value(w) for w in big]

    def no_scipy(*args, **kwargs):
        raise AssertionError("scipy's solve was called")

    monkeypatch.setattr(matching, "linear_sum_assignment", no_scipy)
    assert [matching._lsa_value(w) for w in big] == pytest.approx(expected, rel=1e-13)
    assert spy == [w.shape for w in big]


def test_skewed_sizes_of_a_nearly_square_table_go_to_the_dense_kernel_first(spy):
    """Class and cluster sizes spread past SKEWED_SIZES (coefficient of variation) in a nearly
    square table: NCA and PSI skip the certified rounds for the dense kernel; the same tables
    made uniform, or far from square, keep the rounds. scipy's optimum either way."""
    from metrics.measures import normalised_matching

    counting.load_compiled()
    rng = np.random.default_rng(46)
    skewed = rng.poisson(np.outer(rng.gamma(0.5, 2, 150), rng.gamma(0.5, 2, 140)) * 3)
    skewed = skewed[skewed.sum(1) > 0][:, skewed.sum(0) > 0]
    wide = rng.poisson(np.outer(rng.gamma(0.5, 2, 90), rng.gamma(0.5, 2, 400)) * 3)
    wide = wide[wide.sum(1) > 0][:, wide.sum(0) > 0]
    uniform = rng.integers(0, 20, (150, 140))
    for table, rounds in ((skewed, False), (wide, True), (uniform, True)):
        spread = max(np.std(x) / np.mean(x) for x in (table.sum(1), table.sum(0)))
        assert (spread > normalised_matching.SKEWED_SIZES) == (table is not uniform)
        t = metrics.Contingency.from_table(table)
        got = metrics.evaluate(t, ["nca", "psi"])
        assert bool(spy) == rounds, (table.shape, spy)
        spy.clear()
        a, b = table.sum(1, keepdims=True), table.sum(0, keepdims=True)
        k, m = t.n_classes, max(t.shape)
        nca = (scipy_value(table / a) - 1) / (k - 1)
        assert got["nca"] == pytest.approx(nca, rel=1e-12)
        e = np.sort(np.minimum(-np.sort(-a[:, 0])[:min(t.shape)], -np.sort(-b[0])[:min(t.shape)])).sum() / table.sum()
        assert got["psi"] == pytest.approx(max((scipy_value(table / np.maximum(a, b)) - e) / (m - e), 0.0), rel=1e-12)


@pytest.mark.parametrize("key", ["nca", "psi", "psi_simplified"])
@pytest.mark.parametrize("numpy_path", [False, True])
def test_a_grid_table_s_weights_come_from_its_grid(key, numpy_path):
    """normalised_matching reads a grid table's weights from the grid (not from its gathered
    coordinates): the same value, to the last bit, as the coordinate table of the same cells —
    for a grid and its transpose (a strided view), with both kernels."""
    rng = np.random.default_rng(11)
    grid = rng.integers(0, 6, (90, 120)) * (rng.random((90, 120)) < 0.5)
    counting.FORCE_KERNEL = "numpy" if numpy_path else None
    try:
        for by_grid in (metrics.Contingency.from_table(grid), metrics.Contingency.from_table(grid).T):
            by_cells = metrics.Contingency(by_grid.rows, by_grid.cols, by_grid.values, by_grid.row_labels,
                                           by_grid.col_labels)
            assert by_grid.grid is not None and by_cells.grid is None
            assert metrics.evaluate(by_grid, [key])[key] == metrics.evaluate(by_cells, [key])[key]
    finally:
        counting.FORCE_KERNEL = None


def test_a_fresh_process_loads_its_kernels_from_the_disk_cache(tmp_path):
    """Item 6 of issue 26 (no compile wait) for these kernels too: a second fresh process running
    NCA and PSI of a big table compiles nothing, every kernel of this module and of the weights'
    (line_maxima) a cache hit."""
    import json
    import os
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent("""
        import json
        import numpy as np
        import metrics
        from metrics.core.kernels import counting, float_assignment, line_maxima
        counting.load_compiled()
        grid = np.random.default_rng(0).integers(0, 20, (120, 120))
        metrics.evaluate(metrics.Contingency.from_table(grid), ["nca", "psi"])
        big = np.random.default_rng(0).integers(0, 20, (600, 600))  # PSI's solve starts with an auction
        metrics.evaluate(metrics.Contingency.from_table(big), ["psi"])
        out = {}
        for module in (float_assignment, line_maxima):
            for name in dir(module):
                kernel = getattr(module, name)
                if hasattr(kernel, "stats") and kernel.signatures:
                    out[name] = [sum(kernel.stats.cache_hits.values()), sum(kernel.stats.cache_misses.values())]
        print(json.dumps(out))
    """)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def run() -> dict:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout.strip().splitlines()[-1])

    first = run()
    second = run()
    assert {"mark_best", "csr_of_mask", "sparse_assignment", "certify", "auction", "lines_best",
            "grid_weights"} <= set(second), sorted(second)
    assert any(misses for _, misses in first.values())
    for name, (hits, misses) in second.items():
        assert misses == 0 and hits >= 1, (name, hits, misses)


# ------------------------------------------------------------------------------ candidates given


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 30), st.integers(0, 15), st.floats(0.0, 0.5), st.integers(0, 2**32 - 1))
def test_any_candidates_given_leave_the_optimum(n_r, extra_cols, share, seed):
    """Cells given as first candidates, whichever (a random share of the matrix, none, every
    cell): the value is still scipy's optimum — the certificate reads every cell — and
    ``mark_cells`` marks each given cell once, counting only those not marked before."""
    rng = np.random.default_rng(seed)
    n_c = n_r + extra_cols
    w = psi_weights(rng.integers(0, 4, (n_r, n_c)))
    given = rng.random((n_r, n_c)) < share
    ptr = np.concatenate([[0], np.cumsum(given.sum(axis=1))]).astype(np.int64)
    across = np.flatnonzero(given.ravel()) % n_c
    mask = float_assignment.new_mask(n_r, n_c)
    mask[0, : n_c // 2] = True  # marked before: not counted again
    before = mask.copy()
    assert float_assignment.mark_cells(mask, ptr, across) == int((given & ~before[:, :n_c]).sum())
    assert np.array_equal(mask[:, :n_c], before[:, :n_c] | given) and not mask[:, n_c:].any()
    assert_optimal(w, candidates=(ptr, across), **no_limits())


def test_candidates_given_are_marked_before_the_first_round(monkeypatch):
    """The optimum's own cells given as candidates with one best cell a line: the first round
    starts from all of them besides the lines' best (and counts them), and the value is scipy's.
    Candidates for a matrix of more rows than columns (searched transposed) are refused, not
    misread."""
    w = psi_weights(np.random.default_rng(0).integers(0, 20, (100, 100)))
    rows, cols = linear_sum_assignment(w, maximize=True)
    ptr, across = np.arange(101, dtype=np.int64), cols[np.argsort(rows)].astype(np.int64)
    starts = []
    real = float_assignment._rounds

    def spy(w_, mask, marked, *args, **kwargs):
        starts.append((mask[:, :100].copy(), marked))
        return real(w_, mask, marked, *args, **kwargs)

    monkeypatch.setattr(float_assignment, "_rounds", spy)
    assert float_assignment.max_weight_value(w, best_per_line=1, candidates=(ptr, across)) == scipy_value(w)
    assert float_assignment.max_weight_value(w, best_per_line=1) == scipy_value(w)
    (given, given_marked), (plain, plain_marked) = starts[0], starts[-1]
    assert given[rows, cols].all() and given_marked == given.sum()
    assert not plain[rows, cols].all() and plain_marked == plain.sum()
    assert not (plain & ~given).any()
    with pytest.raises(ValueError, match="no more rows than columns"):
        float_assignment.max_weight_value(w[:, :90], candidates=(ptr, across))


@pytest.mark.parametrize("shape, top, given", [((300, 300), 2, True), ((300, 360), 3, True), ((300, 300), 19, False),
                                               ((200, 300), 1, False), ((300, 200), 2, False)])
def test_psi_of_tied_counts_starts_from_the_tied_cells(monkeypatch, shape, top, given):
    """PSI of a nearly square grid whose rows hold many tied best counts (counts 0 … top: about
    columns / (top + 1) a row, past normalised_matching.TIED_CANDIDATES) starts its rounds from
    those cells; fewer ties, a wide grid or more classes than clusters do not. Either way the
    value is the one without them, to the bit, and scipy's optimum."""
    counting.load_compiled()
    grid = np.random.default_rng(sum(shape) + top).integers(0, top + 1, shape)
    seen = []
    real = float_assignment.max_weight_value

    def spy(weights, **kwargs):
        seen.append(kwargs.get("candidates"))
        return real(weights, **kwargs)

    monkeypatch.setattr(float_assignment, "max_weight_value", spy)
    with_them = metrics.evaluate(metrics.Contingency.from_table(grid), ["psi"])["psi"]
    assert len(seen) == 1 and (seen[0] is not None) == given
    if given:
        ptr, across = seen[0]
        assert ptr.size == shape[0] + 1 and np.all(grid[np.repeat(np.arange(shape[0]), np.diff(ptr)), across]
                                                    == grid.max(axis=1).repeat(np.diff(ptr)))
    monkeypatch.setattr(normalised_matching, "TIED_CANDIDATES", np.inf)
    assert metrics.evaluate(metrics.Contingency.from_table(grid), ["psi"])["psi"] == with_them
    a, b = grid.sum(axis=1), grid.sum(axis=0)
    s = scipy_value(psi_weights(grid))
    m = max(shape)
    e = float(np.minimum(-np.sort(-a)[: min(shape)], -np.sort(-b)[: min(shape)]).sum()) / grid.sum()
    assert with_them == pytest.approx(max((s - e) / (m - e), 0.0), rel=1e-12)
