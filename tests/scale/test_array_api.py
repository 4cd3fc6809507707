"""Labels of another array library, counted on their own device (metrics/core/kernels/array_api.py).

CI has no GPU, so the array-API path runs here on the CPU through array-api-strict (a
strict, minimal implementation of the standard, with two fake devices besides the
CPU) and, where installed, PyTorch's CPU build. A last test runs only where a GPU is
present (CuPy, or PyTorch with CUDA) and compares counting on the GPU with counting
on the host.
"""

from __future__ import annotations

import math
import subprocess
import sys
from collections import Counter

import array_api_strict as xs
import numpy as np
import pytest

import metrics
from metrics.core.contingency import Contingency
from metrics.core.kernels import array_api

C = Contingency


def cells(t) -> dict:
    """The table as {(class label, cluster label): count}: independent of label order."""
    return {(t.row_labels[r], t.col_labels[c]): int(v) for r, c, v in zip(t.rows, t.cols, t.values)}


def assert_same_table(device_table, host_table):
    assert cells(device_table) == cells(host_table)
    assert device_table.is_integer and type(device_table.n) is int
    assert metrics.pair_counts(device_table) == metrics.pair_counts(host_table)
    assert all(type(x) is int for x in metrics.pair_counts(device_table))
    a, b = metrics.evaluate(device_table), metrics.evaluate(host_table)
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == pytest.approx(b[key], rel=1e-12, abs=1e-14), key


RNG = np.random.default_rng(2024)
N = 4000
CASES = {
    "compact int64": (RNG.integers(0, 9, N), RNG.integers(0, 6, N)),
    "compact int32 / uint8": (RNG.integers(0, 9, N).astype(np.int32), RNG.integers(0, 6, N).astype(np.uint8)),
    "int8 with negatives": (RNG.integers(-4, 4, N).astype(np.int8), RNG.integers(0, 3, N).astype(np.int16)),
    "large integers": (RNG.integers(0, 5, N) * 10**12, RNG.integers(0, 4, N) - 7),
    "booleans": (RNG.integers(0, 2, N).astype(bool), RNG.integers(0, 3, N)),
    "floats": (RNG.integers(0, 5, N) * 0.5 - 1.0, RNG.integers(0, 4, N).astype(np.float32)),
    # Too many possible cells for a dense grid: the non-zero cells come back instead.
    "sparse": (RNG.permutation(N), RNG.permutation(N) // 2),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("device", ["CPU_DEVICE", "device1"])
def test_array_api_strict_counts_like_numpy(case, device):
    a, b = CASES[case]
    on = xs.Device(device)
    t = C.from_labels(xs.asarray(a, device=on), xs.asarray(b, device=on))
    assert_same_table(t, C.from_labels(a, b))


def test_compact_labels_keep_numeric_order_and_others_sorted_order():
    t = C.from_labels(xs.asarray([2, 0, 2, 1]), xs.asarray([5.0, -1.0, 5.0, 3.5]))
    assert list(t.row_labels) == [0, 1, 2]
    assert list(t.col_labels) == [-1.0, 3.5, 5.0]
    assert C.from_labels(xs.asarray([True, False]), xs.asarray([0, 1])).row_labels.tolist() == [False, True]


def test_only_the_table_comes_back_to_the_host(monkeypatch):
    """50,000 items, 7 × 5 labels: what crosses to the host is the 35 counts and a few
    scalars, never an array the size of the labels."""
    crossed = []
    real = array_api.to_host

    def spy(x):
        out = real(x)
        crossed.append(out.size)
        return out

    monkeypatch.setattr(array_api, "to_host", spy)
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 7, 50_000), rng.integers(0, 5, 50_000)
    t = C.from_labels(xs.asarray(a), xs.asarray(b))
    assert t.n == 50_000 and crossed and max(crossed) <= 35
    crossed.clear()
    # Labels that must be factorized send back their distinct values too, no more.
    C.from_labels(xs.asarray(a * 0.5), xs.asarray(b - 10))
    assert max(crossed) <= 35


def test_nan_and_infinity_on_the_device_are_refused_with_their_position():
    with pytest.raises(ValueError, match=r"labels_true contains NaN.*2 missing.*first at position 1"):
        C.from_labels(xs.asarray([0.0, math.nan, 1.0, math.nan]), xs.asarray([0, 1, 2, 3]))
    with pytest.raises(ValueError, match=r"labels_pred contains infinity.*first at position 2"):
        C.from_labels(xs.asarray([0, 1, 2]), xs.asarray([0.0, 1.0, -math.inf]))


@pytest.mark.parametrize("shape,hint", [((3, 1), r"reshape\(-1\)"), ((3, 2), r"x\[:, 0\]"), ((), "single label")])
def test_device_arrays_must_be_one_dimensional(shape, hint):
    bad = xs.reshape(xs.arange(math.prod(shape)), shape)
    with pytest.raises(ValueError, match=rf"labels_true must be 1-D.*{hint}"):
        C.from_labels(bad, xs.arange(3))


def test_device_inputs_checked_like_host_inputs():
    with pytest.raises(ValueError, match="same length, got 3 and 2"):
        C.from_labels(xs.arange(3), xs.arange(2))
    with pytest.raises(ValueError, match="empty"):
        C.from_labels(xs.arange(0), xs.arange(0))
    with pytest.raises(ValueError, match=r"labels_true is an array of array_api_strict but labels_pred is not"):
        C.from_labels(xs.arange(3), np.arange(3))
    with pytest.raises(ValueError, match=r"labels_pred is an array of .* but labels_true is not"):
        C.from_labels([0, 1, 2], xs.arange(3))
    with pytest.raises(ValueError, match="different places"):
        C.from_labels(xs.arange(3), xs.asarray([0, 1, 2], device=xs.Device("device1")))
    with pytest.raises(ValueError, match="integers, booleans or real numbers"):
        C.from_labels(xs.asarray([1 + 0j, 2j]), xs.arange(2))


def test_import_loads_no_array_library_and_works_without_them():
    code = (
        "import sys\nimport metrics, numpy as np\nloaded = {'torch', 'cupy', 'jax', 'array_api_strict', "
        "'array_api_compat'} & set(sys.modules)\nassert not loaded, loaded\nfor name in ('torch', 'cupy', "
        "'array_api_strict'): sys.modules[name] = None\nt = metrics.Contingency.from_labels(np.arange(10) % 3, "
        "np.arange(10) % 2)\nassert t.n == 10\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --------------------------------------------------------------------------- PyTorch (CPU build)
@pytest.mark.parametrize("case", list(CASES))
def test_torch_tensors_count_like_numpy(case):
    torch = pytest.importorskip("torch")
    a, b = CASES[case]
    t = C.from_labels(torch.as_tensor(a), torch.as_tensor(b))
    assert_same_table(t, C.from_labels(a, b))


def test_torch_errors():
    torch = pytest.importorskip("torch")
    with pytest.raises(ValueError, match=r"labels_true must be 1-D.*\(torch\)"):
        C.from_labels(torch.zeros((4, 1), dtype=torch.int64), torch.arange(4))
    with pytest.raises(ValueError, match=r"labels_pred contains NaN"):
        C.from_labels(torch.arange(3), torch.tensor([0.0, float("nan"), 1.0]))
    with pytest.raises(ValueError, match="but labels_pred is not"):
        C.from_labels(torch.arange(3), [0, 1, 2])


# --------------------------------------------------------------------------- a real GPU
def _gpu_arrays():
    """A function moving numpy arrays to a GPU, or None where there is none."""
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() > 0:
            return cupy.asarray
    except Exception:  # no CuPy, or no CUDA device
        pass
    try:
        import torch

        if torch.cuda.is_available():
            return lambda x: torch.as_tensor(x, device="cuda")
    except Exception:
        pass
    return None


@pytest.mark.skipif(_gpu_arrays() is None, reason="needs a GPU (CuPy, or PyTorch with CUDA)")
@pytest.mark.parametrize("n,k", [(10**6, 10), (10**7, 1000), (2 * 10**6, 3000)])
def test_gpu_counting_equals_host_counting(n, k):
    to_gpu = _gpu_arrays()
    rng = np.random.default_rng(n + k)
    a = rng.integers(0, k, n).astype(np.int32)
    b = rng.integers(0, k, n)
    assert_same_table(C.from_labels(to_gpu(a), to_gpu(b)), C.from_labels(a, b))
    floats = a * 0.25
    assert_same_table(C.from_labels(to_gpu(floats), to_gpu(b)), C.from_labels(floats, b))


@pytest.mark.skipif(_gpu_arrays() is None, reason="needs a GPU (CuPy, or PyTorch with CUDA)")
def test_gpu_exact_pair_counts_at_a_billion_items():
    """10^9 uint8 labels on the GPU: integer counts and exact pair counts (C(n, 2) is
    about 5·10^17), equal to counts made on the host from the same labels."""
    to_gpu = _gpu_arrays()
    n = 10**9
    a = (np.arange(n, dtype=np.int64) % 7).astype(np.uint8)
    b = ((np.arange(n, dtype=np.int64) * 5) % 11).astype(np.uint8)
    t = C.from_labels(to_gpu(a), to_gpu(b))
    assert t.n == n and type(t.n) is int
    expected = Counter()
    # Items repeat with period 77: count one period and scale.
    for x, y in zip(a[:77].tolist(), b[:77].tolist()):
        expected[(x, y)] += n // 77
    for x, y in zip(a[n - n % 77:].tolist(), b[n - n % 77:].tolist()):
        expected[(x, y)] += 1
    assert cells(t) == dict(expected)
    m = sum(math.comb(c, 2) for c in expected.values())
    rows, cols = Counter(), Counter()
    for (x, y), c in expected.items():
        rows[x] += c
        cols[y] += c
    m1 = sum(math.comb(c, 2) for c in rows.values())
    m2 = sum(math.comb(c, 2) for c in cols.values())
    assert metrics.pair_counts(t) == (m, m1 - m, m2 - m, math.comb(n, 2) - m1 - m2 + m)
