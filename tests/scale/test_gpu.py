"""Labels on a real GPU, through CuPy and through PyTorch, each skipped where it is not installed
or finds no GPU. What runs here on the CPU with stand-ins (tests/scale/test_gpu_arrays.py) runs
here on the device: counting equals counting on the host, big tables are summarised on the device,
tables of device batches add up, arrays of one library are read by the other through DLPack."""

from __future__ import annotations

import numpy as np
import pytest

import metrics
from metrics import Contingency as C
from metrics.core import contingency as contingency_module
from metrics.core.kernels import array_api, cell_stats
from tests.scale.test_array_api import CASES, assert_same_table
from tests.scale.test_gpu_arrays import assert_same_table_within_rounding
from tests.scale.test_merge import assert_identical


def _cupy():
    try:
        import cupy

        return cupy if cupy.cuda.runtime.getDeviceCount() > 0 else None
    except Exception:  # not installed, or no CUDA device
        return None


def _torch_cuda():
    try:
        import torch

        return torch if torch.cuda.is_available() else None
    except Exception:
        return None


def _devices():
    found = []
    cp = _cupy()
    if cp is not None:
        found.append(pytest.param(cp.asarray, id="cupy"))
    else:
        found.append(pytest.param(None, id="cupy", marks=pytest.mark.skip(reason="needs CuPy and a GPU")))
    torch = _torch_cuda()
    if torch is not None:
        found.append(pytest.param(lambda x: torch.as_tensor(x, device="cuda"), id="torch"))
    else:
        found.append(pytest.param(None, id="torch", marks=pytest.mark.skip(reason="needs PyTorch with CUDA")))
    return found


@pytest.mark.parametrize("to_gpu", _devices())
@pytest.mark.parametrize("case", list(CASES))
def test_gpu_counts_like_numpy(to_gpu, case):
    a, b = CASES[case]
    assert array_api.is_foreign_array(to_gpu(a))
    assert_same_table(C.from_labels(to_gpu(a), to_gpu(b)), C.from_labels(a, b))


@pytest.mark.parametrize("to_gpu", _devices())
def test_a_big_gpu_table_is_summarised_on_the_device_and_equals_the_host_table(to_gpu, monkeypatch):
    """Summary and per-cell sums computed on the device: the host makes no pass over the cells
    for any measure; integers equal the host's to the last bit, measures to within rounding."""
    rng = np.random.default_rng(11)
    a, b = rng.integers(0, 1000, 10**7).astype(np.int32), rng.integers(0, 1000, 10**7)
    host_passes = []
    real = contingency_module.compiled_summary
    monkeypatch.setattr(contingency_module, "compiled_summary", lambda g: host_passes.append(1) or real(g))
    monkeypatch.setattr(cell_stats, "grid_cell_sums", lambda *args: host_passes.append(args) or 1 / 0)
    t = C.from_labels(to_gpu(a), to_gpu(b))
    metrics.evaluate(t)
    assert not host_passes and {"_cell_histogram", "_cell_pass"} <= t.__dict__.keys()
    monkeypatch.undo()
    assert_same_table_within_rounding(t, C.from_labels(a, b))


@pytest.mark.parametrize("to_gpu", _devices())
def test_a_sparse_gpu_table_is_the_host_table_to_the_last_bit(to_gpu):
    """10^5 × 10^5 possible cells from 10^6 labels: sorted and counted on the device, then the
    host's own pass over the sorted cells — every measure equal to the host's to the last bit,
    with the sums the host count keeps beside the cells."""
    rng = np.random.default_rng(14)
    a = rng.integers(0, 10**5, 10**6)
    b = np.where(rng.random(10**6) < 0.5, a * 3 % 10**5, rng.integers(0, 10**5, 10**6))
    t, want = C.from_labels(to_gpu(a), to_gpu(b)), C.from_labels(a, b)
    assert t.grid is None and {"_coo_summary", "_coo_squares", "_cell_histogram"} <= t.__dict__.keys()
    assert_identical(t, want)


@pytest.mark.parametrize("to_gpu", _devices())
def test_tables_of_gpu_batches_add_up(to_gpu):
    rng = np.random.default_rng(12)
    a, b = rng.integers(0, 300, 10**6), rng.integers(0, 40, 10**6) * 7
    t = C.from_labels(to_gpu(a[:400_000]), to_gpu(b[:400_000]))
    t.update(to_gpu(a[400_000:]), to_gpu(b[400_000:]))
    assert_identical(t, C.from_labels(a, b))


@pytest.mark.parametrize("to_gpu", _devices())
def test_v_measure_of_gpu_labels(to_gpu):
    rng = np.random.default_rng(13)
    a, b = rng.integers(0, 50, 10**6), rng.integers(0, 60, 10**6)
    assert metrics.score("v_measure", to_gpu(a), to_gpu(b)) == metrics.score("v_measure", a, b)


@pytest.mark.skipif(_cupy() is None or _torch_cuda() is None, reason="needs CuPy and PyTorch with CUDA")
def test_labels_of_one_gpu_library_with_the_other_loaded():
    """A tensor and a CuPy array are never mixed silently: each labeling stays with its library."""
    cp, torch = _cupy(), _torch_cuda()
    a, b = CASES["compact int64"]
    with pytest.raises(ValueError, match="live in different places"):
        C.from_labels(cp.asarray(a), torch.as_tensor(b, device="cuda"))
    moved = cp.from_dlpack(torch.as_tensor(b, device="cuda"))
    assert_same_table(C.from_labels(cp.asarray(a), moved), C.from_labels(a, b))


@pytest.mark.skipif(_torch_cuda() is None, reason="needs PyTorch with CUDA")
def test_a_tensor_comes_to_the_host_in_an_array_numpy_allocated():
    """to_host copies a CUDA tensor into an array numpy allocates (huge pages where the system
    gives them): its own array, PyTorch's values and dtype; bfloat16, which numpy lacks, through
    PyTorch; a tensor already on the CPU shares its memory."""
    torch = _torch_cuda()
    for dtype in (torch.int64, torch.int32, torch.uint8, torch.float64, torch.bool):
        x = (torch.arange(2 * 10**6, device="cuda") % 7).to(dtype).reshape(1000, -1)
        got = array_api.to_host(x)
        assert type(got) is np.ndarray and got.base is None and got.flags.writeable
        assert got.dtype == x.cpu().numpy().dtype and np.array_equal(got, x.cpu().numpy())
    with pytest.raises(TypeError):  # numpy has no bfloat16: PyTorch's own copy, which numpy cannot hold
        array_api.to_host(torch.ones(3, device="cuda", dtype=torch.bfloat16))
    on_cpu = torch.arange(5)
    assert np.shares_memory(array_api.to_host(on_cpu), on_cpu.numpy())
