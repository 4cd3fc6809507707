"""All measures of a big table from one pass over its cells (issue 26, item 3).

``from_table`` of an integer array goes straight to the grid (no coordinate form on the
way); the per-cell sums every measure reads come from one compiled pass
(:mod:`metrics.core.kernels.cell_stats`) over a grid or over a coordinate table's non-zero
cells; the numpy path gives the same values (to rounding), and the fast path the same
table as the general one (to the last bit).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

import metrics
from metrics.core.contingency import Contingency
from metrics.core.kernels import counting

KEYS = [k for k in metrics.MEASURES if not k.startswith("ami")]
CELL_KEYS = ["homogeneity", "completeness", "v_measure", "vi", "nvi", "q0", "q2", "conditional_entropy", "entropy",
             "bcubed_precision", "bcubed_recall", "bcubed_f", "element_centric", "f_measure", "f_n"]


def _arrays():
    rng = np.random.default_rng(5)
    dense = rng.integers(0, 20, (300, 250))
    gaps = rng.poisson(2.0, (120, 90))
    gaps[[0, 7, 119]] = 0
    gaps[:, [3, 89]] = 0
    sparse_grid = np.zeros((200, 200), dtype=np.int64)
    sparse_grid[rng.integers(0, 200, 300), rng.integers(0, 200, 300)] = rng.integers(1, 9, 300)
    yield "dense int64", dense
    yield "dense uint16", dense.astype(np.uint16)
    yield "int8 with empty rows and columns", gaps.astype(np.int8)
    yield "uint64", gaps.astype(np.uint64)
    yield "sparse (coordinates)", sparse_grid
    yield "transposed view", dense.T
    yield "huge cells", np.array([[2**50, 1], [0, 2**50]])


@pytest.mark.parametrize("case", [name for name, _ in _arrays()])
def test_integer_array_fast_path_gives_the_general_paths_table(case):
    """from_table(ndarray) skips the coordinate form; the table — storage, labels, every
    cached quantity and every measure — equals the one of the same cells as nested lists
    (the general path), exactly."""
    arr = dict(_arrays())[case]
    fast = Contingency.from_table(arr)
    general = Contingency.from_table(arr.tolist())
    assert (fast.grid is None) == (general.grid is None)
    assert list(fast.row_labels) == list(general.row_labels)
    assert list(fast.col_labels) == list(general.col_labels)
    assert np.array_equal(fast.to_dense(), general.to_dense())
    assert fast.to_dense().dtype == general.to_dense().dtype == np.int64
    for attr in ("n", "n_cells", "pair_sums", "row_max_sum", "col_max_sum", "min_cell", "h_c", "h_k", "h_ck",
                 "h_c_given_k", "h_k_given_c"):
        assert getattr(fast, attr) == getattr(general, attr), attr
    assert metrics.evaluate(fast, KEYS) == metrics.evaluate(general, KEYS)


def test_fast_path_keeps_its_own_copy_and_labels():
    arr = np.array([[3, 0, 1], [0, 0, 0], [2, 5, 0]])
    t = Contingency.from_table(arr, row_labels=["x", "y", "z"], col_labels=["p", "q", "r"])
    before = metrics.evaluate(t, ["ari", "vi"])
    arr[0, 0] = 100  # the caller's array changes; the table does not
    assert t.to_dense().tolist() == [[3, 0, 1], [2, 5, 0]] and list(t.row_labels) == ["x", "z"]
    assert metrics.evaluate(t, ["ari", "vi"]) == before


def test_a_big_int64_array_is_copied_by_its_summary_pass():
    """An int64 array in C order past the compiled pass's size is copied by the summary pass itself
    (no pass of its own): the table holds its own copy — the caller's array may change —, the
    rows' and columns' maxima the pass kept are the grid's, and a negative cell is still refused."""
    pytest.importorskip("numba")
    rng = np.random.default_rng(12)
    arr = rng.integers(0, 30, (300, 400))
    arr[17] = 0  # an empty row: dropped, with its maximum
    t = Contingency.from_table(arr)
    kept = np.delete(arr, 17, axis=0)
    assert t.grid is not None and not np.shares_memory(t.grid, arr)
    assert np.array_equal(t.grid, kept)
    row_top, col_top = t.__dict__["_grid_line_maxima"]
    assert np.array_equal(row_top, kept.max(axis=1)) and np.array_equal(col_top, kept.max(axis=0))
    before = metrics.evaluate(t, CELL_KEYS)
    arr[:] = 1  # the caller's array changes; the table does not
    assert np.array_equal(t.grid, kept) and metrics.evaluate(t, CELL_KEYS) == before
    arr[250, 399] = -4
    with pytest.raises(ValueError, match="negative cells, first at row 250, column 399"):
        Contingency.from_table(arr)


@pytest.mark.parametrize("arr, message", [
    (np.array([[1, -2], [3, 4]]), "negative cells, first at row 0, column 1"),
    (np.zeros((2, 3), dtype=np.int64), None),
    (np.array([[2**61, 2**61], [2**61, 1]], dtype=np.int64), "too large"),
])
def test_fast_path_leaves_refusals_to_the_general_path(arr, message):
    if message is None:  # all-zero: the empty table, as the general path makes it
        t = Contingency.from_table(arr)
        assert t.shape == (0, 0) and t.n == 0
        return
    with pytest.raises(ValueError, match=message):
        Contingency.from_table(arr)


def test_fast_path_label_length_error():
    with pytest.raises(ValueError, match="2 row and 2 column labels for a 3×2 table"):
        Contingency.from_table(np.ones((3, 2), dtype=np.int64), row_labels=["a", "b"], col_labels=["c", "d"])


def _sparse_tables():
    rng = np.random.default_rng(8)
    k, cells = 40_000, 200_000
    rows, cols = rng.integers(0, k, cells), rng.integers(0, k, cells)
    yield "integer", sparse.coo_matrix((rng.integers(1, 50, cells), (rows, cols)), shape=(k, k))
    yield "fractional", sparse.coo_matrix((rng.random(cells) * 3 + 0.1, (rows, cols)), shape=(k, k))
    a, b = rng.integers(0, 30_000, 400_000), rng.integers(0, 30_000, 400_000)
    yield "counted from labels", (a, b)


@pytest.mark.parametrize("case", [name for name, _ in _sparse_tables()])
def test_coordinate_tables_take_one_compiled_pass(case):
    """A coordinate table of 2^16 cells or more reads its cell sums from one compiled pass
    (no per-measure walk over 10^5–10^7 cells); the numpy walk gives the same measures."""
    pytest.importorskip("numba")
    source = dict(_sparse_tables())[case]

    def build():
        return Contingency.from_labels(*source) if isinstance(source, tuple) else Contingency.from_table(source)

    fast = build()
    assert fast.grid is None and fast.n_cells >= 1 << 16
    assert fast._cell_pass is not None and fast.compiled_cell_stats is not None
    fast_values = metrics.evaluate(fast, CELL_KEYS)
    counting.FORCE_KERNEL = "numpy"
    try:
        slow = build()
        assert slow._cell_pass is None and slow.compiled_cell_stats is None
        slow_values = metrics.evaluate(slow, CELL_KEYS)
    finally:
        counting.FORCE_KERNEL = None
    for key in CELL_KEYS:
        assert fast_values[key] == pytest.approx(slow_values[key], rel=1e-11, abs=1e-14), key


def test_grid_pass_handles_cells_past_the_log_table_and_past_half_a_row():
    """Cells beyond the kernel's table of small logarithms, and cells holding more than half
    of their row or column (the log1p terms added after the row), in a big grid: the compiled
    pass against the numpy terms."""
    pytest.importorskip("numba")
    rng = np.random.default_rng(9)
    grid = rng.integers(0, 3, (400, 400))
    grid[np.arange(400), np.arange(400)] = rng.integers(5_000, 10**7, 400)  # > half of row and column
    grid[5, 9] = 123_456
    fast = Contingency.from_table(grid)
    assert fast.grid is not None and fast._cell_pass is not None
    counting.FORCE_KERNEL = "numpy"
    try:
        slow = Contingency.from_table(grid)
        slow_values = metrics.evaluate(slow, CELL_KEYS)
    finally:
        counting.FORCE_KERNEL = None
    fast_values = metrics.evaluate(fast, CELL_KEYS)
    for key in CELL_KEYS:
        assert fast_values[key] == pytest.approx(slow_values[key], rel=1e-12, abs=1e-15), key
