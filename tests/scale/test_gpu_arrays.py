"""Every GPU array (issue 26, item 4): CuPy 14 arrays (no ``__array_namespace__``, no
``np.asarray``), JAX arrays, arrays of any library that speaks DLPack or the CUDA array
interface — recognised without importing their libraries and counted where they live; big
tables summarised on the device (item 3), only sums coming back.

No GPU here: the libraries are stand-ins (tests/scale/gpu_standins.py) that behave like each, put
in ``sys.modules`` under the library's name. Real GPUs: tests/scale/test_gpu.py.
"""

from __future__ import annotations

import builtins
import sys

import array_api_strict as xs
import numpy as np
import pytest

import metrics
from metrics import Contingency as C
from metrics.core import contingency as contingency_module
from metrics.core.kernels import array_api, cell_stats, counting
from metrics.core.stats import compiled_summary
from tests.scale import gpu_standins
from tests.scale.test_array_api import CASES, assert_same_table
from tests.scale.test_merge import assert_identical

# The stand-ins copy a device array to the host only as DLPack 1.0 allows it,
# numpy.from_dlpack(x, device="cpu", copy=True): numpy 2.1 and later. Older numpy cannot copy a
# device array at all (real JAX arrays then convert through __array__, which the stand-ins refuse).
needs_dlpack_copy = pytest.mark.skipif(np.lib.NumpyVersion(np.__version__) < "2.1.0",
                                       reason="numpy.from_dlpack(device=, copy=) needs numpy >= 2.1")


@pytest.fixture(autouse=True, scope="module")
def compiled_kernels_loaded():
    """Tables compared to the last bit are computed in one state of the compiled kernels: loaded
    (a process loads them once its work repays it, and their sums round as numpy's need not)."""
    getattr(counting, "load_compiled", counting.compiled_kernels)()


@pytest.fixture
def no_gpu_imports(monkeypatch):
    """Importing a GPU library fails: the code must find it in sys.modules or do without."""
    real = builtins.__import__

    def guarded(name, *args, **kwargs):
        if name.split(".")[0] in ("cupy", "torch", "jax", "jaxlib"):
            raise ImportError(f"the code under test imported {name}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", guarded)
    for name in ("torch", "cupy"):
        if name not in sys.modules:
            monkeypatch.setitem(sys.modules, name, None)


@pytest.fixture
def cupy(monkeypatch, no_gpu_imports):
    module, array_type = gpu_standins.cupy_like()
    monkeypatch.setitem(sys.modules, "cupy", module)
    return module, array_type


@pytest.fixture
def jax(monkeypatch, no_gpu_imports):
    module, array_type = gpu_standins.jax_like()
    monkeypatch.setitem(sys.modules, "jax.numpy", module)
    return module, array_type


def test_the_stand_ins_refuse_numpy_like_cupy(cupy):
    _, array = cupy
    with pytest.raises(TypeError, match="Implicit conversion to a NumPy array is not allowed"):
        np.asarray(array(np.arange(3)))
    assert not hasattr(array(np.arange(3)), "__array_namespace__")


@pytest.mark.parametrize("case", list(CASES))
def test_cupy_arrays_count_like_numpy(cupy, case):
    _, array = cupy
    a, b = CASES[case]
    assert array_api.is_foreign_array(array(a))
    assert_same_table(C.from_labels(array(a), array(b)), C.from_labels(a, b))


@pytest.mark.parametrize("case", list(CASES))
@needs_dlpack_copy
def test_jax_arrays_without_a_namespace_count_like_numpy(jax, case):
    module, array = jax
    a, b = CASES[case]
    t = C.from_labels(array(a), array(b))
    assert_same_table(t, C.from_labels(a, b))
    assert module.transfers  # the table came back through DLPack copies to the CPU


@pytest.mark.parametrize(("n_r", "n_c"), [(60, 60), (100, 100), (101, 100), (700, 900)])
def test_cupy_counts_many_cells_by_atomic_adds(cupy, monkeypatch, n_r, n_c):
    """CuPy's bincount is slow for many bins: a dense table of more than 10^4 cells is counted by
    ``cupy.add.at`` into zeros (and its class sizes too, where they are that many) — the table of
    the same labels in numpy; fewer cells by bincount."""
    module, array = cupy
    used = []
    real_at, real_bincount = module.add.at, module.bincount
    monkeypatch.setattr(module.add, "at", lambda *args: used.append(args[0].size) or real_at(*args))
    monkeypatch.setattr(module, "bincount", lambda x, minlength: used.append(-minlength) or real_bincount(
        x, minlength=minlength))
    rng = np.random.default_rng(n_r)
    a, b = rng.integers(0, n_r, 10**6), rng.integers(0, n_c, 10**6)
    assert_same_table(C.from_labels(array(a), array(b)), C.from_labels(a, b))
    cells, limit = n_r * n_c, 10**4
    assert (cells if cells > limit else -cells) in used
    assert not [size for size in used if 0 < size <= limit] and not [size for size in used if size < -limit]


def test_only_the_table_and_a_few_scalars_come_back(cupy):
    module, array = cupy
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 7, 50_000), rng.integers(0, 5, 50_000)
    t = C.from_labels(array(a), array(b))
    assert t.n == 50_000 and module.transfers and max(module.transfers) <= 35
    module.transfers.clear()
    C.from_labels(array(a * 0.5), array(b - 10))  # factorized on the device: the distinct labels come back too
    assert max(module.transfers) <= 35


def assert_same_table_within_rounding(got, want, rel=1e-13):
    """The same table — labels, cells, sizes and pair counts to the last bit — whose measures agree
    to within rounding: a device sums the cells' terms in another order than the host."""
    assert list(got.row_labels) == list(want.row_labels) and list(got.col_labels) == list(want.col_labels)
    assert (got.grid is None) == (want.grid is None)
    for name in ("rows", "cols", "values"):
        assert np.array_equal(getattr(got, name), getattr(want, name)), name
    assert got.n == want.n and metrics.pair_counts(got) == metrics.pair_counts(want)
    a, b = metrics.evaluate(got), metrics.evaluate(want)
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == pytest.approx(b[key], rel=rel, abs=1e-15, nan_ok=True), key


def test_a_big_table_is_summarised_on_the_device(cupy, monkeypatch):
    """A 400 × 300 table (≥ 2^16 cells): marginals, maxima, non-zero cells, histogram and the
    per-cell sums come back from the device; the host makes neither its summary pass nor its
    pass over the cells, and the table equals the host's (its integers to the last bit, its
    measures to within rounding)."""
    _, array = cupy
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 400, 300_000), rng.integers(0, 300, 300_000)
    host_passes = []
    monkeypatch.setattr(contingency_module, "compiled_summary", lambda g: host_passes.append(g) or compiled_summary(g))
    monkeypatch.setattr(cell_stats, "grid_cell_sums", lambda *args: host_passes.append(args) or 1 / 0)
    t = C.from_labels(array(a), array(b))
    metrics.evaluate(t)  # every measure, without a host pass over the cells
    assert not host_passes
    assert {"_cell_histogram", "row_max_sum", "_cell_pass"} <= t.__dict__.keys()
    monkeypatch.undo()
    assert_same_table_within_rounding(t, C.from_labels(a, b))


def _host_cell_pass(grid):
    """The host's pass over ``grid`` without its empty rows and columns (the kernel's contract),
    and the masks of the rows and columns kept."""
    keep_r, keep_c = grid.sum(axis=1) > 0, grid.sum(axis=0) > 0
    kept = np.ascontiguousarray(grid[keep_r][:, keep_c])
    return cell_stats.grid_cell_sums(kept, kept.sum(axis=1), kept.sum(axis=0), cell_stats.log_table()), keep_r, keep_c


@pytest.mark.parametrize("shape", [(300, 250), (1, 70_000), (70_000, 1), (256, 300)])
def test_the_device_cell_pass_is_the_host_pass(shape, monkeypatch):
    """device_cell_pass through the array API (array-api-strict) against the compiled host pass,
    on grids with empty rows and columns, with cells past half their row or column (the log1p
    branch), one big cell past the logarithm table, and across the device's row blocks."""
    monkeypatch.setattr(array_api, "_DEVICE_BLOCK_CELLS", 1 << 14)  # several blocks per grid
    rng = np.random.default_rng(sum(shape))
    grid = rng.integers(0, 9, shape) * (rng.random((shape[0], 1)) < 0.8) * (rng.random((1, shape[1])) < 0.9)
    grid[0, 0] = 10**6
    grid[-1, -1] += 5_000
    want, keep_r, keep_c = _host_cell_pass(grid)
    a, b = grid.sum(axis=1), grid.sum(axis=0)
    ops = array_api._ArrayApiOps(xs)
    got = array_api.device_cell_pass(ops, xs.asarray(grid.reshape(-1)), *grid.shape, a, b)
    assert min(shape) == 1 or (not keep_r.all() and not keep_c.all())  # empty rows and columns: sums 0
    assert not np.any(got[2][~keep_r]) and not np.any(got[4][~keep_c]) and not np.any(got[6][~keep_r])
    got = (*got[:2], got[2][keep_r], got[3][keep_r], got[4][keep_c], got[5][keep_c], got[6][keep_r])
    # The host adds a row's terms one by one; the device's partial sums lose less (a 70,000-cell
    # row: 2e-13 apart, the device's the correctly rounded one), so both are held to mpmath too.
    assert got[0] == pytest.approx(want[0], rel=1e-12) and got[1] == pytest.approx(want[1], rel=1e-12)
    assert got[0] == pytest.approx(_exact_conditional_sum(grid, b, axis=0), rel=1e-15)
    assert got[1] == pytest.approx(_exact_conditional_sum(grid, a, axis=1), rel=1e-15)
    for w, g in zip(want[2:], got[2:]):
        assert g.shape == w.shape and np.allclose(g, w, rtol=1e-14, atol=0)


def test_no_device_cell_pass_in_32_bit_floats(monkeypatch):
    """A library whose float64 is 32-bit (JAX without x64) leaves the sums to the host."""
    monkeypatch.setattr(array_api._ArrayApiOps, "float64", lambda self, x: xs.astype(x, xs.float32))
    grid = np.random.default_rng(1).integers(0, 5, (300, 300))
    ops = array_api._ArrayApiOps(xs)
    assert array_api.device_cell_pass(ops, xs.asarray(grid.reshape(-1)), 300, 300, grid.sum(1), grid.sum(0)) is None


def _exact_conditional_sum(grid, whole, axis):
    """Σ x log(whole / x) over the non-zero cells, ``whole`` the cell's column (axis 0) or row
    sum, in 30-digit mpmath."""
    mpmath = pytest.importorskip("mpmath")
    rows, cols = np.nonzero(grid)
    with mpmath.workdps(30):
        return float(mpmath.fsum(int(grid[i, j]) * mpmath.log(mpmath.mpf(int(whole[j if axis == 0 else i]))
                                                            / int(grid[i, j])) for i, j in zip(rows, cols)))


def test_the_device_cell_pass_keeps_a_near_perfect_table_exact():
    """Σ x log(b_j / x) of a diagonal of 2^40 with one stray item per row is a sum of tiny
    terms: the device's pass keeps every digit (against 40-digit mpmath)."""
    mpmath = pytest.importorskip("mpmath")
    k = 300
    grid = np.zeros((k, k), dtype=np.int64)
    np.fill_diagonal(grid, 1 << 40)
    grid[np.arange(k), (np.arange(k) + 1) % k] = 1
    a, b = grid.sum(axis=1), grid.sum(axis=0)
    got = array_api.device_cell_pass(array_api._ArrayApiOps(xs), xs.asarray(grid.reshape(-1)), k, k, a, b)
    with mpmath.workdps(40):
        big, whole = mpmath.mpf(1 << 40), mpmath.mpf((1 << 40) + 1)
        exact = k * (big * mpmath.log(whole / big) + mpmath.log(whole))
    assert got[0] == pytest.approx(float(exact), rel=4e-16) and got[1] == pytest.approx(float(exact), rel=4e-16)


def test_the_device_summary_is_the_host_summary():
    """device_summary through the array API (array-api-strict: no bincount, histogram from
    unique_counts) against the compiled host pass, on grids with empty rows, a big cell (no
    histogram) and both."""
    rng = np.random.default_rng(9)
    ops = array_api._ArrayApiOps(xs)
    grids = [rng.integers(0, 9, (300, 250)), rng.integers(0, 3, (256, 300)) * (rng.random((256, 1)) < 0.7)]
    big = rng.integers(0, 50, (300, 300))
    big[7, 3] = 10**6
    grids.append(big)
    for grid in grids:
        want = compiled_summary(grid)
        got = array_api.device_summary(ops, xs.asarray(grid.reshape(-1)), *grid.shape)
        assert want is not None and got is not None
        for w, g in zip(want[:4], got[:4]):
            assert np.array_equal(w, g)
        assert want[4] == got[4]
        assert (want[5] is None) == (got[5] is None)
        if want[5] is not None:
            assert np.array_equal(want[5][: int(grid.max()) + 1], got[5][: int(grid.max()) + 1])


@needs_dlpack_copy
def test_any_dlpack_array_on_a_gpu_is_copied_to_the_host_when_no_gpu_library_is_loaded(no_gpu_imports):
    module, array = gpu_standins.dlpack_only()
    a, b = CASES["floats"]
    assert array_api.is_foreign_array(array(a))
    t = C.from_labels(array(a), array(b))
    assert_same_table(t, C.from_labels(a, b))
    assert sorted(module.transfers) == [a.size, b.size]


@needs_dlpack_copy
def test_any_dlpack_array_on_a_gpu_is_handed_to_a_loaded_gpu_library(cupy):
    cp, _ = cupy
    _, array = gpu_standins.dlpack_only()
    a, b = CASES["large integers"]
    counted = []
    real = cp.bincount
    cp.bincount = lambda *args, **kw: counted.append(1) or real(*args, **kw)
    assert_same_table(C.from_labels(array(a), array(b)), C.from_labels(a, b))
    assert counted  # counted by the (stand-in) CuPy, on the device


def test_a_dlpack_array_on_the_cpu_is_read_by_numpy():
    _, array = gpu_standins.dlpack_only(gpu=False)
    a, b = CASES["compact int64"]
    assert array_api.is_foreign_array(array(a))
    assert_identical(C.from_labels(array(a), array(b)), C.from_labels(a, b))
    with pytest.raises(ValueError, match=r"labels_true must be 1-D.*\(numpy\).*reshape"):
        C.from_labels(array(np.zeros((4, 1), dtype=np.int64)), np.arange(4))


def test_a_gpu_array_nobody_can_read_is_refused_with_what_to_do(no_gpu_imports):
    _, array = gpu_standins.dlpack_only()

    def refuse(self, **kw):
        raise BufferError("no")

    array.__dlpack__ = refuse
    with pytest.raises(ValueError, match=r"labels_true is an array of weirdlib on a GPU.*CuPy.*PyTorch"):
        C.from_labels(array(np.arange(3)), array(np.arange(3)))


def test_cupy_refusals_name_the_library(cupy):
    _, array = cupy
    with pytest.raises(ValueError, match=r"labels_true must be 1-D.*\(cupy\)"):
        C.from_labels(array(np.zeros((3, 2), dtype=np.int64)), array(np.arange(3)))
    with pytest.raises(ValueError, match=r"labels_pred contains NaN.*first at position 1"):
        C.from_labels(array(np.arange(3)), array(np.array([0.0, np.nan, 1.0])))
    with pytest.raises(ValueError, match="labels_true is an array of cupy but labels_pred is not"):
        C.from_labels(array(np.arange(3)), np.arange(3))


@needs_dlpack_copy
def test_jax_without_64_bit_integers_is_refused_where_keys_would_overflow(monkeypatch, no_gpu_imports):
    module, array = gpu_standins.jax_like(x64=False)
    monkeypatch.setitem(sys.modules, "jax.numpy", module)
    t = C.from_labels(array(np.arange(6) % 3), array(np.arange(6) % 2))   # small: 32-bit keys suffice
    assert t.to_dense().tolist() == [[1, 1], [1, 1], [1, 1]]
    n = 50_000  # 50,000 × 50,000 possible cells: past 2^31
    with pytest.raises(ValueError, match=r"32-bit integers.*jax_enable_x64"):
        C.from_labels(array(np.arange(n)), array(np.arange(n)[::-1].copy()))


def test_device_tables_merge(cupy):
    _, array = cupy
    a, b = CASES["compact int32 / uint8"]
    t = C.from_labels(array(a[:1000]), array(b[:1000]))
    t.update(array(a[1000:]), array(b[1000:]))
    assert_identical(t, C.from_labels(a, b))
    assert_identical(sum([C.from_labels(array(a[:10]), array(b[:10])), C.from_labels(a[10:], b[10:])]),
                     C.from_labels(a, b))


def test_measures_of_labels_on_a_device(cupy):
    _, array = cupy
    a, b = CASES["compact int64"]
    assert metrics.score("v_measure", array(a), array(b)) == metrics.score("v_measure", a, b)


def _sparse_labels(kind: str, rng):
    """Labels with more possible cells than items, each a case of the host's sparse count."""
    n = 6000
    if kind == "own codes with gaps":   # codes below 2n + 1024, many unused: renumbered on the host
        return rng.integers(0, 12_000, n), rng.integers(0, 13_000, n)
    if kind == "cells of several items":   # 600 × 1200: cells up to tens of items, maxima, histogram
        a = rng.integers(0, 600, n)
        return a, (a * 7 + rng.integers(0, 3, n)) % 1200
    if kind == "every code in use":
        return rng.permutation(n) % 4000, rng.permutation(n) % 5000
    a, b = rng.integers(0, 3000, n), rng.integers(0, 3500, n)   # factorised on the device
    return a * 0.5 - 7.0, b + 10**12


SPARSE = ["own codes with gaps", "cells of several items", "every code in use", "floats and big integers"]


@pytest.mark.parametrize("force", ["numba", "numpy"])
@pytest.mark.parametrize("kind", SPARSE)
def test_a_sparse_device_table_is_the_host_table_to_the_last_bit(cupy, monkeypatch, kind, force):
    """More possible cells than items: the device sorts the cell keys and counts them; the host
    makes over them the pass its own sparse count makes over its sorted keys — the same table,
    the same sums kept beside it (maxima, histogram, square sums) and every measure to the
    last bit, with either kernel."""
    _, array = cupy
    monkeypatch.setattr(counting, "FORCE_KERNEL", force)
    a, b = _sparse_labels(kind, np.random.default_rng(len(kind)))
    got, want = C.from_labels(array(a), array(b)), C.from_labels(a, b)
    assert got.grid is None and want.grid is None   # kept as cells, as the host keeps them
    kept = ("row_sums", "col_sums", "_coo_summary", "_coo_squares", "_cell_histogram", "_row_offsets")
    assert [key in got.__dict__ for key in kept] == [key in want.__dict__ for key in kept]
    if force == "numba":
        assert set(kept) <= got.__dict__.keys()
    for key in set(kept) & want.__dict__.keys():
        for x, y in zip(*(v if isinstance(v, tuple) else (v,) for v in (got.__dict__[key], want.__dict__[key]))):
            assert (x is None and y is None) or (x.dtype == y.dtype and np.array_equal(x, y)), key
    assert_identical(got, want)


def test_a_sparse_device_table_makes_no_host_pass_for_its_sums(cupy, monkeypatch):
    """Its maxima, histogram and square sums come with its cells: no measure sums the cells again."""
    _, array = cupy
    monkeypatch.setattr(counting, "FORCE_KERNEL", "numba")
    a, b = _sparse_labels("cells of several items", np.random.default_rng(1))
    t = C.from_labels(array(a), array(b))
    passes = []
    for name in ("coo_summary", "coo_square_sums"):
        monkeypatch.setattr(cell_stats, name, lambda *args, name=name: passes.append(name) or 1 / 0)
    metrics.evaluate(t, [k for k in metrics.MEASURES if not k.startswith("ami")])
    assert not passes


def test_only_the_cells_and_the_marginals_of_a_sparse_table_come_back(cupy):
    module, array = cupy
    rng = np.random.default_rng(4)
    a = rng.integers(0, 3000, 20_000)
    b = (a * 7 + rng.integers(0, 3, 20_000)) % 5000
    t = C.from_labels(array(a), array(b))
    assert t.grid is None and module.transfers
    assert max(module.transfers) == max(t.n_cells, 3000, 5000) < 20_000


@needs_dlpack_copy
def test_distinct_keys_in_any_order_are_sorted_on_the_device(monkeypatch, no_gpu_imports):
    """The array API leaves ``unique_counts``' order open: keys given in another order are sorted
    there before the host's pass, which reads them in ascending order."""
    module, array = gpu_standins.jax_like(unsorted_unique=True)
    monkeypatch.setitem(sys.modules, "jax.numpy", module)
    for kind in ("cells of several items", "floats and big integers"):
        a, b = _sparse_labels(kind, np.random.default_rng(2))
        assert_identical(C.from_labels(array(a), array(b)), C.from_labels(a, b))
