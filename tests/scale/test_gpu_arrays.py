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
from metrics.core.kernels import array_api, counting
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


def test_only_the_table_and_a_few_scalars_come_back(cupy):
    module, array = cupy
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 7, 50_000), rng.integers(0, 5, 50_000)
    t = C.from_labels(array(a), array(b))
    assert t.n == 50_000 and module.transfers and max(module.transfers) <= 35
    module.transfers.clear()
    C.from_labels(array(a * 0.5), array(b - 10))  # factorized on the device: the distinct labels come back too
    assert max(module.transfers) <= 35


def test_a_big_table_is_summarised_on_the_device(cupy, monkeypatch):
    """A 400 × 300 table (≥ 2^16 cells): marginals, maxima, non-zero cells and histogram come back
    from the device; the host makes no summary pass, and the table equals the host's to the last
    bit (the summary's integers are the host's)."""
    _, array = cupy
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 400, 300_000), rng.integers(0, 300, 300_000)
    host_passes = []
    monkeypatch.setattr(contingency_module, "compiled_summary", lambda g: host_passes.append(g) or compiled_summary(g))
    t = C.from_labels(array(a), array(b))
    assert not host_passes
    assert "_cell_histogram" in t.__dict__ and "row_max_sum" in t.__dict__
    monkeypatch.undo()
    assert_identical(t, C.from_labels(a, b))


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
