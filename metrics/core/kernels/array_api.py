"""Labels that live in another array library — on a GPU or not — counted where they live.

:meth:`Contingency.from_labels` hands every labeling that is an array of another
library to this module: anything with ``__array_namespace__`` (array-api-strict, JAX,
NumPy-2-style libraries), PyTorch tensors and CuPy arrays (neither has that method:
CuPy 14 refuses ``np.asarray`` outright), JAX arrays of versions without it, and any
other array that lives on a GPU and says so through DLPack (``__dlpack__``) or
``__cuda_array_interface__``. The work over the items — min/max, checks for NaN and
±inf, factorizing labels that are not compact integers, counting the cells — runs on
the array's own device through its own library; what comes back to the host is the
table, the distinct labels and a few scalars. A big dense table also gets its marginals,
maxima, non-zero cells and histogram of counts (:func:`device_summary`: integers, the
host's) and its per-cell sums (:func:`device_cell_pass`: the host's to within rounding) on
the device, so the host makes no pass over its cells but for the assignment measures. A
table with more possible cells than items comes back as its distinct cells, sorted on the
device, over which the host makes its own sparse count's pass (:func:`_sparse_on_device`).
The table is then an ordinary :class:`~metrics.Contingency` of int64 counts: every measure
applies exactly as for numpy input.

No array library is imported here: a library is recognized by duck typing and by the
module its array type comes from, and its functions are those of the array's own
namespace (``x.__array_namespace__()``), or of the library's module (``torch``,
``cupy``, ``jax.numpy``) found in ``sys.modules`` — loaded already, since one of its
arrays exists. An array of any other library on a GPU is handed to CuPy or PyTorch
through DLPack where one of them is loaded, else copied to the host; one on the CPU is
read by numpy (``np.from_dlpack``). The dense table is one bincount of the cell keys
where the namespace has one (CuPy, PyTorch, JAX; the array API standard has none), else
(array-api-strict) ``unique_counts`` gives the non-zero cells.

Order of the labels: compact non-negative integers (largest below 2n + 1024) are their
own codes and keep numeric order; other labels come in sorted order (the device's
``unique``) — the one label order of the host too (:func:`metrics.core.labels.sorted_codes`),
so labels on a device and the same labels in numpy give the same table.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import counting

__all__ = ["DeviceLabels", "Counted", "is_foreign_array", "check_labels", "count_on_device", "to_host",
           "device_summary", "device_cell_pass"]

# Rows of a grid taken at a time by device_cell_pass: each float temporary stays at 32 MiB.
_DEVICE_BLOCK_CELLS = 1 << 22

# Beyond this many cells, CuPy counts by atomic adds: its bincount (CUB's histogram) is slow for many bins.
_ATOMIC_BINCOUNT_CELLS = 10_000

# DLPack's device type of host memory (kDLCPU); every other type is a device's memory
# (kDLCUDA 2, kDLCUDAHost 3, kDLROCM 10, …), which numpy cannot read in place.
_DLPACK_CPU = 1


def _library(x) -> str:
    """The top-level module an array's type comes from ("torch", "cupy", "jaxlib", …)."""
    return type(x).__module__.split(".")[0]


def _loaded(name: str):
    """The module ``name`` if this process has imported it (never imports it)."""
    return sys.modules.get(name)


def _is_torch(x) -> bool:
    return _library(x) == "torch" and hasattr(x, "__dlpack__")


def _dlpack_device_type(x) -> int | None:
    try:
        return int(x.__dlpack_device__()[0])
    except Exception:  # no DLPack, or a producer that cannot say
        return None


def _on_gpu(x) -> bool:
    """Whether ``x`` says it lives in a device's memory (CUDA array interface, or DLPack)."""
    if hasattr(x, "__cuda_array_interface__"):
        return True
    device = _dlpack_device_type(x)
    return device is not None and device != _DLPACK_CPU


def is_foreign_array(x) -> bool:
    """An array of a library other than numpy, whose labels are counted on its device (or,
    for an array on the CPU that only numpy's DLPack can read, on the host)."""
    if isinstance(x, (np.ndarray, np.generic)):
        return False
    if hasattr(x, "__array_namespace__") or _is_torch(x) or _library(x) in ("cupy", "jax", "jaxlib"):
        return True
    if _on_gpu(x):
        return True
    # On the CPU: numpy's own conversion where the array has one (pyarrow, polars, …), as before.
    return hasattr(x, "__dlpack__") and not hasattr(x, "__array__")


def to_host(x) -> np.ndarray:
    """A device array as a numpy array; every transfer to the host goes through here (the
    tests count what crosses). A tensor on a device is copied into an array numpy allocates,
    as CuPy's ``.get()`` does: numpy asks for huge pages, PyTorch's ``.cpu()`` does not."""
    if _is_torch(x):
        x = x.detach()
        if x.device.type == "cpu":
            return x.numpy()
        try:
            out = np.empty(tuple(x.shape), dtype=str(x.dtype).removeprefix("torch."))
        except TypeError:  # a dtype numpy lacks (bfloat16)
            return x.cpu().numpy()
        _loaded("torch").from_numpy(out).copy_(x)
        return out
    try:
        return np.from_dlpack(x)  # CPU arrays: no copy
    except Exception:  # a device numpy cannot read; try the library's own ways
        pass
    if hasattr(x, "get"):  # CuPy
        return np.asarray(x.get())
    try:
        return np.from_dlpack(x, device="cpu", copy=True)
    except Exception:
        return np.asarray(x)


class _ArrayApiOps:
    """The operations counting needs, through an array-API namespace."""

    def __init__(self, xp):
        self.xp = xp
        self.name = getattr(xp, "__name__", type(xp).__name__)

    def kind(self, x) -> str:
        if isinstance(x.dtype, np.dtype):
            return x.dtype.kind
        xp = self.xp
        for kind, name in (("b", "bool"), ("i", "signed integer"), ("u", "unsigned integer"),
                           ("f", "real floating"), ("c", "complex floating")):
            if xp.isdtype(x.dtype, name):
                return kind
        return "O"

    def scalar(self, x) -> int:
        return to_host(self.xp.reshape(x, (1,)))[0].item()

    def min(self, x) -> int:
        return int(self.scalar(self.xp.min(x)))

    def max(self, x) -> int:
        return int(self.scalar(self.xp.max(x)))

    def isnan(self, x):
        return self.xp.isnan(x)

    def isinf(self, x):
        return self.xp.isinf(x)

    def count_and_first(self, mask) -> tuple[int, int]:
        xp = self.xp
        count = int(self.scalar(xp.sum(self.int64(mask))))
        first = int(self.scalar(xp.argmax(self.int64(mask)))) if count else -1
        return count, first

    def int64(self, x, copy: bool = False):
        if hasattr(self.xp, "astype"):  # the standard's function (2022.12 on)
            return self.xp.astype(x, self.xp.int64, copy=copy)
        return x.astype(self.xp.int64, copy=copy)

    def keys(self, a, b, n_c: int):
        """a·n_c + b in int64, with one array of keys in memory (never ``a`` itself)."""
        keys = self.int64(a, copy=True)
        keys *= n_c
        keys += self.int64(b)
        return keys

    def bincount(self, keys, cells: int):
        xp = self.xp
        add_at = getattr(getattr(xp, "add", None), "at", None)
        if self.name == "cupy" and cells > _ATOMIC_BINCOUNT_CELLS and add_at is not None:
            counts = xp.zeros(cells, dtype=xp.int64)
            add_at(counts, keys, 1)
            return counts
        return xp.bincount(keys, minlength=cells) if hasattr(xp, "bincount") else None

    def unique_counts(self, keys):
        """The distinct keys in ascending order and their counts."""
        xp = self.xp
        if not hasattr(xp, "unique_counts"):  # a NumPy-1-style namespace: sorted, as numpy's
            return xp.unique(keys, return_counts=True)
        got = xp.unique_counts(keys)
        values, counts = got.values, got.counts
        # The standard leaves the order open (numpy's and CuPy's are sorted): one scalar comes
        # back to check it, where a wrong order would miscount the cells.
        if values.shape[0] > 1 and not bool(self.scalar(xp.all(values[1:] > values[:-1]))):
            order = xp.argsort(values)
            values, counts = xp.take(values, order), xp.take(counts, order)
        return values, counts

    def unique_inverse(self, x):
        if not hasattr(self.xp, "unique_inverse"):
            return self.xp.unique(x, return_inverse=True)
        got = self.xp.unique_inverse(x)
        return got.values, got.inverse_indices

    # The summary of a dense table on the device (device_summary).
    def grid(self, counts, n_r: int, n_c: int):
        return self.xp.reshape(counts, (n_r, n_c))

    def sums(self, grid, axis: int):
        return self.xp.sum(grid, axis=axis)

    def maxima(self, grid, axis: int):
        return self.xp.max(grid, axis=axis)

    def nonzero(self, grid) -> int:
        return int(self.scalar(self.xp.sum(self.int64(grid != 0))))

    def float64(self, x):
        return self.xp.astype(x, self.xp.float64) if hasattr(self.xp, "astype") else x.astype(self.xp.float64)

    def host_bincount(self, x, length: int):
        """How many of ``x``'s values (integers in 0..length − 1) are 0, 1, …: an int64 host array."""
        flat = self.xp.reshape(x, (-1,))
        counted = self.bincount(flat, length)
        if counted is not None:
            return to_host(counted).astype(np.int64, copy=False)
        values, counts = self.unique_counts(flat)
        hist = np.zeros(length, dtype=np.int64)
        hist[to_host(values).astype(np.int64)] = to_host(counts)
        return hist


class _TorchOps:
    """The same operations through PyTorch (which has no ``__array_namespace__``)."""

    name = "torch"

    def __init__(self, torch):
        self.torch = torch
        self.xp = torch  # log, log1p, where: the array API's names and meanings

    def kind(self, x) -> str:
        t = self.torch
        if x.dtype == t.bool:
            return "b"
        if x.dtype.is_complex:
            return "c"
        if x.dtype.is_floating_point:
            return "f"
        return "u" if x.dtype in (t.uint8, getattr(t, "uint16", t.uint8), getattr(t, "uint32", t.uint8),
                                  getattr(t, "uint64", t.uint8)) else "i"

    def _reducible(self, x):
        # PyTorch reduces few ops over uint16/32/64 (its "limited support" dtypes).
        return x if x.dtype in (self.torch.uint8, self.torch.bool) or x.is_signed() else self.int64(x)

    def min(self, x) -> int:
        return int(self._reducible(x).min().item())

    def max(self, x) -> int:
        return int(self._reducible(x).max().item())

    def isnan(self, x):
        return self.torch.isnan(x)

    def isinf(self, x):
        return self.torch.isinf(x)

    def count_and_first(self, mask) -> tuple[int, int]:
        count = int(mask.sum().item())
        first = int(self.torch.argmax(mask.to(self.torch.uint8)).item()) if count else -1
        return count, first

    def int64(self, x):
        return x.to(self.torch.int64)

    def keys(self, a, b, n_c: int):
        """a·n_c + b in int64, computed in place in one fresh array (never in ``a``)."""
        keys = a.to(self.torch.int64, copy=True)
        keys.mul_(n_c)
        keys.add_(b)
        return keys

    def bincount(self, keys, cells: int):
        return self.torch.bincount(keys, minlength=cells)

    def unique_counts(self, keys):
        return self.torch.unique(keys, sorted=True, return_counts=True)

    def unique_inverse(self, x):
        return self.torch.unique(x, sorted=True, return_inverse=True)

    def grid(self, counts, n_r: int, n_c: int):
        return counts.reshape(n_r, n_c)

    def sums(self, grid, axis: int):
        return grid.sum(dim=axis)

    def maxima(self, grid, axis: int):
        return grid.amax(dim=axis)

    def nonzero(self, grid) -> int:
        return int(self.torch.count_nonzero(grid).item())

    def float64(self, x):
        return x.to(self.torch.float64)

    def host_bincount(self, x, length: int):
        return to_host(self.torch.bincount(x.reshape(-1), minlength=length)).astype(np.int64, copy=False)


@dataclass
class DeviceLabels:
    """A 1-D labeling in another array library, with the operations to count it."""

    array: Any
    ops: _TorchOps | _ArrayApiOps
    name: str

    @property
    def size(self) -> int:
        return int(self.array.shape[0])

    @property
    def device(self):
        return getattr(self.array, "device", None)


@dataclass
class Counted:
    """A table counted on a device, now on the host: a dense count ``grid`` (int64),
    or the non-zero cells ``rows``, ``cols``, ``values``; and both sides' labels.
    ``summary``: what :func:`metrics.core.stats.compiled_summary` gives for ``grid``,
    computed on the device (:func:`device_summary`), or None; ``cell_pass``: what
    :func:`metrics.core.kernels.cell_stats.grid_cell_sums` gives for it, computed on the
    device (:func:`device_cell_pass`), or None."""

    row_labels: np.ndarray
    col_labels: np.ndarray
    grid: np.ndarray | None = None
    rows: np.ndarray | None = None
    cols: np.ndarray | None = None
    values: np.ndarray | None = None
    summary: tuple | None = None
    cell_pass: tuple | None = None
    row_sums: np.ndarray | None = None
    col_sums: np.ndarray | None = None
    maxima: tuple | None = None


def _ops_of(x) -> _TorchOps | _ArrayApiOps | None:
    """The operations of the library ``x`` belongs to, or None for an array of a library
    this module does not know (handed over through DLPack by :func:`_adopt`)."""
    if _is_torch(x):
        return _TorchOps(_loaded(_library(x)))
    if hasattr(x, "__array_namespace__"):
        return _ArrayApiOps(x.__array_namespace__())
    lib = _library(x)
    if lib == "cupy" and _loaded("cupy") is not None:   # CuPy 14: no __array_namespace__
        return _ArrayApiOps(_loaded("cupy"))
    if lib in ("jax", "jaxlib") and _loaded("jax.numpy") is not None:   # JAX before 0.4.32
        return _ArrayApiOps(_loaded("jax.numpy"))
    return None


def _adopt(x, name: str):
    """An array of an unknown library as one this module can count: on a GPU, a CuPy
    array or a PyTorch tensor viewing the same memory (whichever is loaded), else a
    numpy copy; on the CPU, a numpy array viewing it."""
    if not _on_gpu(x):
        return np.from_dlpack(x)
    for lib, take in (("cupy", lambda m: m.from_dlpack(x) if hasattr(x, "__dlpack__") else m.asarray(x)),
                      ("torch", lambda m: m.from_dlpack(x) if hasattr(x, "__dlpack__") else m.as_tensor(x))):
        module = _loaded(lib)
        if module is not None:
            try:
                return take(module)
            except Exception:  # that library cannot take this array: try the next way
                pass
    for copy in (lambda: np.from_dlpack(x, device="cpu", copy=True), lambda: np.asarray(x.copy_to_host()),
                 lambda: np.asarray(x.get())):
        try:
            return copy()
        except Exception:
            pass
    raise ValueError(f"{name} is an array of {_library(x)} on a GPU that neither CuPy nor PyTorch (not loaded) nor "
                     "numpy can read: pass a CuPy array or a PyTorch tensor, or move the labels to the host")


def _one_dimensional(shape, name: str, library: str) -> None:
    if len(shape) != 1:
        hint = ("a single label is not a labeling; pass one label per item" if not shape else
                "pass it flattened, e.g. x.reshape(-1)" if len(shape) == 2 and 1 in shape else
                "pass one column, e.g. x[:, 0]")
        raise ValueError(f"{name} must be 1-D (one label per item), got an array of shape {shape} "
                         f"({library}): {hint}")


def check_labels(x, name: str) -> DeviceLabels | np.ndarray:
    """``x`` as a labeling to count on its device — or, for an array on the CPU that numpy
    reads through DLPack, as a numpy array; ``ValueError`` if it is not 1-D."""
    ops = _ops_of(x)
    if ops is None:
        x = _adopt(x, name)
        if isinstance(x, np.ndarray):
            _one_dimensional(x.shape, name, "numpy")
            return x
        ops = _ops_of(x)
        assert ops is not None  # _adopt gives CuPy, PyTorch or numpy
    _one_dimensional(tuple(x.shape), name, ops.name)
    return DeviceLabels(x, ops, name)


def device_summary(ops, counts, n_r: int, n_c: int):
    """What :func:`metrics.core.stats.compiled_summary` gives for the grid of ``counts`` (a
    device array of n_r·n_c counts) — row sums, row maxima, column sums, column maxima, the
    number of non-zero cells and the histogram of counts below the summary's cap (None when
    a cell reaches it) — computed on the device: only n_r + n_c sums and maxima and the
    histogram come back. None for a grid too small for the host to make that summary: the
    table then comes back whole. Where the host makes its compiled summary too (numba loaded),
    the same table gives the same numbers to the last bit; without it the host sums the cells
    itself, with its own rounding."""
    from ..stats import _COMPILED_CELLS, _SUMMARY_HIST_CAP

    if n_r * n_c < _COMPILED_CELLS:
        return None
    grid = ops.grid(counts, n_r, n_c)
    row_sums = to_host(ops.sums(grid, 1)).astype(np.int64, copy=False)
    col_sums = to_host(ops.sums(grid, 0)).astype(np.int64, copy=False)
    row_max = to_host(ops.maxima(grid, 1)).astype(np.int64, copy=False)
    col_max = to_host(ops.maxima(grid, 0)).astype(np.int64, copy=False)
    hist = ops.host_bincount(grid, _SUMMARY_HIST_CAP) if int(row_max.max()) < _SUMMARY_HIST_CAP else None
    n_cells = n_r * n_c - int(hist[0]) if hist is not None else ops.nonzero(grid)
    return row_sums, row_max, col_sums, col_max, n_cells, hist


def device_cell_pass(ops, counts, n_r: int, n_c: int, row_sums: np.ndarray, col_sums: np.ndarray):
    """What :func:`metrics.core.kernels.cell_stats.grid_cell_sums` gives for the grid of
    ``counts`` — (Σ x log(b_j/x), Σ x log(a_i/x), per-row Σ x², per-row Σ x² over cells with
    b_j ≤ a_i, per-column Σ x², per-column Σ x² over cells with b_j > a_i, each row's
    max_j 2x/(a_i + b_j)) — computed on the device, so that a big table's entropies, BCubed,
    F and the element-centric similarity make no pass over its cells on the host. ``row_sums``,
    ``col_sums``: the grid's marginals (from :func:`device_summary`), sent to the device.

    The same formulas as the host's pass (a cell past half its row or column takes
    log1p((whole − x)/x) with whole − x exact in integers), summed in another order: the
    values equal the host's to within rounding (a few ulps), and the two conditional-entropy
    sums are added on the host from per-row partial sums with ``math.fsum``. Empty rows and
    columns are kept (the caller drops them); their sums are 0. None where the library's
    floats are not 64-bit (JAX without ``jax_enable_x64``): the host then sums the cells."""
    import math

    xp = ops.xp
    grid = ops.grid(counts, n_r, n_c)
    a_dev = _like(ops, row_sums, grid)
    b_dev = _like(ops, col_sums, grid)
    fb = ops.float64(b_dev)
    if "64" not in str(fb.dtype):
        return None
    fb = xp.reshape(fb, (1, n_c))
    log_b = xp.log(xp.where(fb > 0, fb, fb + 1))
    ck_rows, kc_rows, row_sq, row_le, best_f = [], [], [], [], []
    col_sq = col_gt = None
    step = max(1, _DEVICE_BLOCK_CELLS // max(n_c, 1))
    for start in range(0, n_r, step):
        stop = min(start + step, n_r)   # the array API leaves stops past the end unspecified
        x = grid[start:stop, :]
        a = xp.reshape(a_dev[start:stop], (-1, 1))
        fx, fa = ops.float64(x), ops.float64(a)
        occupied = x > 0
        safe_x = xp.where(occupied, fx, fx + 1)          # 1 where the cell is empty
        log_x = xp.log(safe_x)
        log_a = xp.log(xp.where(fa > 0, fa, fa + 1))

        def x_log_ratio(whole, log_whole, x=x, fx=fx, safe_x=safe_x, log_x=log_x):
            near = (x + x) > whole                      # past half: log1p of the exact difference
            return xp.where(near, fx * xp.log1p(ops.float64(whole - x) / safe_x), fx * (log_whole - log_x))

        ck_rows.append(to_host(ops.sums(x_log_ratio(b_dev, log_b), 1)))
        kc_rows.append(to_host(ops.sums(x_log_ratio(a, log_a), 1)))
        sq = fx * fx
        zero = sq - sq
        larger_b = fb > fa
        row_sq.append(to_host(ops.sums(sq, 1)))
        row_le.append(to_host(ops.sums(xp.where(larger_b, zero, sq), 1)))
        block_col_sq = to_host(ops.sums(sq, 0))
        block_col_gt = to_host(ops.sums(xp.where(larger_b, sq, zero), 0))
        col_sq = block_col_sq if col_sq is None else col_sq + block_col_sq
        col_gt = block_col_gt if col_gt is None else col_gt + block_col_gt
        both = fa + fb
        best_f.append(to_host(ops.maxima((fx + fx) / xp.where(both > 0, both, both + 1), 1)))
    ck, kc = np.concatenate(ck_rows), np.concatenate(kc_rows)
    return (math.fsum(ck.tolist()), math.fsum(kc.tolist()), np.concatenate(row_sq), np.concatenate(row_le),
            col_sq, col_gt, np.concatenate(best_f))


def _like(ops, values: np.ndarray, device_array):
    """A host int64 vector as an array of ``device_array``'s library on its device."""
    if isinstance(ops, _TorchOps):
        return ops.torch.as_tensor(values, device=device_array.device)
    xp = ops.xp
    try:
        return xp.asarray(values, device=device_array.device)
    except TypeError:  # a namespace whose asarray takes no device (CuPy: the current device)
        return xp.asarray(values)


def _codes(labels: DeviceLabels, n: int):
    """(codes on the device, labels on the host, number of codes) of one labeling."""
    ops, x, name = labels.ops, labels.array, labels.name
    kind = ops.kind(x)
    if kind in "biu":
        x = ops.int64(x) if kind == "b" else x
        lo, hi = ops.min(x), ops.max(x)
        if lo >= 0 and hi < 2 * n + 1024:
            own = np.array([False, True][: hi + 1], dtype=object) if kind == "b" else np.arange(hi + 1)
            return x, own, hi + 1
    elif kind == "f":
        count, first = ops.count_and_first(ops.isnan(x))
        if count:
            raise ValueError(f"{name} contains NaN or None: {count} missing label(s), first at position "
                             f"{first}; drop or fill them first")
        count, first = ops.count_and_first(ops.isinf(x))
        if count:
            raise ValueError(f"{name} contains infinity: {count} infinite label(s) (±inf), first at position "
                             f"{first}; like NaN, ±inf names no group: drop or replace them first")
    else:
        raise ValueError(f"{name} holds {x.dtype} labels, which are counted on the host only: labels on a "
                         "device must be integers, booleans or real numbers (move others to numpy first)")
    values, inverse = ops.unique_inverse(x)
    uniques = to_host(values)
    return inverse, np.asarray(uniques.tolist(), dtype=object), int(uniques.size)


def count_on_device(t, p) -> Counted:
    """The table of two labelings, at least one of them a device array (both must be)."""
    if not (isinstance(t, DeviceLabels) and isinstance(p, DeviceLabels)):
        dev, host = (t, "labels_pred") if isinstance(t, DeviceLabels) else (p, "labels_true")
        raise ValueError(f"{dev.name} is an array of {dev.ops.name} but {host} is not: pass both labelings "
                         f"from the same library and device (e.g. move {host} there too)")
    if t.ops.name != p.ops.name or str(t.device) != str(p.device):
        raise ValueError(f"labels_true ({t.ops.name} on {t.device}) and labels_pred ({p.ops.name} on "
                         f"{p.device}) live in different places: put both on one device")
    if t.size != p.size:
        raise ValueError(f"labels_true and labels_pred must have the same length, got {t.size} and {p.size}")
    n = t.size
    if n == 0:
        raise ValueError("empty input: labels_true and labels_pred hold no items")
    ops = t.ops
    tc, row_labels, n_r = _codes(t, n)
    pc, col_labels, n_c = _codes(p, n)
    cells = n_r * n_c
    if cells > counting.dense_cell_limit(n):
        return _sparse_on_device(ops, tc, pc, n_r, n_c, row_labels, col_labels)
    keys = ops.keys(tc, pc, n_c)
    _check_key_width(ops, keys, cells, n_r, n_c)
    counts = ops.bincount(keys, cells)
    if counts is not None:
        summary = device_summary(ops, counts, n_r, n_c)
        cell_pass = None if summary is None else device_cell_pass(ops, counts, n_r, n_c, summary[0], summary[2])
        grid = to_host(counts).astype(np.int64, copy=False).reshape(n_r, n_c)
        return Counted(row_labels, col_labels, grid=grid, summary=summary, cell_pass=cell_pass)
    values, counts = ops.unique_counts(keys)   # a namespace without bincount
    grid = np.zeros(cells, dtype=np.int64)
    grid[to_host(values).astype(np.int64, copy=False)] = to_host(counts)
    return Counted(row_labels, col_labels, grid=grid.reshape(n_r, n_c))


def _check_key_width(ops, keys, key_range: int, n_r: int, n_c: int) -> None:
    """Refuse keys of 32 bits (JAX without jax_enable_x64 makes every int64 an int32) where
    they would have to reach ``key_range``."""
    if "64" not in str(keys.dtype) and key_range > 1 << 31:
        raise ValueError(f"{ops.name} gives 32-bit integers here ({keys.dtype}), too narrow to key {n_r:,} classes × "
                         f"{n_c:,} clusters: enable 64-bit integers (JAX: jax.config.update('jax_enable_x64', True)) "
                         "or pass numpy arrays")


def _sparse_on_device(ops, tc, pc, n_r: int, n_c: int, row_labels, col_labels) -> Counted:
    """A table with more possible cells than items: its distinct cells and their counts from the
    device's sort, the marginals from its bincounts; on the host, the pass the host's own
    sparse count makes over its sorted keys (:func:`counting.cells_of_sorted_keys`), so that
    the table and every sum it keeps are those of the same labels counted on the host."""
    col_bits = max((n_c - 1).bit_length(), 0)
    if n_r << col_bits > 1 << 63:
        raise ValueError(f"{n_r:,} classes × {n_c:,} clusters is too many possible cells to key on the "
                         "device (at most 2^63): count on the host (pass numpy arrays)")
    keys = ops.keys(tc, pc, 1 << col_bits)     # row << col_bits | col, as the host keys its cells
    _check_key_width(ops, keys, n_r << col_bits, n_r, n_c)
    values, counts = ops.unique_counts(keys)
    del keys
    row_sums, col_sums = ops.host_bincount(tc, n_r), ops.host_bincount(pc, n_c)
    values = to_host(values).astype(np.int64, copy=False)
    counts = to_host(counts).astype(np.int64, copy=False)
    rows, cols, vals, row_sums, col_sums, maxima = counting.cells_of_sorted_keys(
        values, counts, n_r, n_c, row_sums, col_sums, maxima=True)
    return Counted(row_labels, col_labels, rows=rows, cols=cols, values=vals, row_sums=row_sums, col_sums=col_sums,
                   maxima=maxima)
