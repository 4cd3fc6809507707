"""Labels that live in another array library — on a GPU or not — counted where they live.

:meth:`Contingency.from_labels` hands every labeling that is an array of another
library (CuPy, PyTorch, JAX, array-api-strict: anything with ``__array_namespace__``,
and PyTorch tensors, which have no such method) to this module. The work over the
items — min/max, checks for NaN and ±inf, factorizing labels that are not compact
integers, counting the cells — runs on the array's own device through its own
library; what comes back to the host is the table (the counts of its possible
cells, or of its non-zero cells when there are more possible cells than items), the
distinct labels, and a few scalars. The table then becomes an ordinary
:class:`~metrics.Contingency` of int64 counts, so every measure applies exactly as
for numpy input (exact pair counts at any n).

No array library is imported here: a library is recognized by duck typing, and its
functions are those of the array's own namespace (``x.__array_namespace__()``), or
of ``torch`` for a tensor (found through the tensor's type, never imported). The
array API standard has no ``bincount``: where the namespace has one (CuPy, PyTorch,
JAX) the dense table is one bincount of the cell keys; elsewhere (array-api-strict)
``unique_counts`` gives the non-zero cells.

Order of the labels: compact non-negative integers (largest below 2n + 1024) are their
own codes and keep numeric order; other labels come in sorted order (the device's
``unique``) — the one label order of the host too (:func:`metrics.core.labels.sorted_codes`),
so labels on a device and the same labels in numpy give the same table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .counting import dense_cell_limit

__all__ = ["DeviceLabels", "Counted", "is_foreign_array", "check_labels", "count_on_device", "to_host"]


def _is_torch(x) -> bool:
    return type(x).__module__.split(".")[0] == "torch" and hasattr(x, "__dlpack__")


def is_foreign_array(x) -> bool:
    """An array of a library other than numpy, whose labels are counted on its device."""
    if isinstance(x, (np.ndarray, np.generic)):
        return False
    return hasattr(x, "__array_namespace__") or _is_torch(x)


def to_host(x) -> np.ndarray:
    """A (small) device array as a numpy array. Every transfer to the host goes
    through here (the tests count what crosses)."""
    if _is_torch(x):
        return x.detach().cpu().numpy()
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
        return self.xp.bincount(keys, minlength=cells) if hasattr(self.xp, "bincount") else None

    def unique_counts(self, keys):
        got = self.xp.unique_counts(keys)
        return got.values, got.counts

    def unique_inverse(self, x):
        got = self.xp.unique_inverse(x)
        return got.values, got.inverse_indices


class _TorchOps:
    """The same operations through PyTorch (which has no ``__array_namespace__``)."""

    name = "torch"

    def __init__(self, torch):
        self.torch = torch

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
    or the non-zero cells ``rows``, ``cols``, ``values``; and both sides' labels."""

    row_labels: np.ndarray
    col_labels: np.ndarray
    grid: np.ndarray | None = None
    rows: np.ndarray | None = None
    cols: np.ndarray | None = None
    values: np.ndarray | None = None


def check_labels(x, name: str) -> DeviceLabels:
    """``x`` as a labeling to count on its device; ``ValueError`` if it is not 1-D."""
    ops: _TorchOps | _ArrayApiOps
    if _is_torch(x):
        import sys

        ops = _TorchOps(sys.modules[type(x).__module__.split(".")[0]])
    else:
        ops = _ArrayApiOps(x.__array_namespace__())
    shape = tuple(x.shape)
    if len(shape) != 1:
        hint = ("a single label is not a labeling; pass one label per item" if not shape else
                "pass it flattened, e.g. x.reshape(-1)" if len(shape) == 2 and 1 in shape else
                "pass one column, e.g. x[:, 0]")
        raise ValueError(f"{name} must be 1-D (one label per item), got an array of shape {shape} "
                         f"({ops.name}): {hint}")
    return DeviceLabels(x, ops, name)


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
    if cells >= 1 << 63:
        raise ValueError(f"{n_r:,} classes × {n_c:,} clusters is too many possible cells to key on the "
                         "device (at most 2^63): count on the host (pass numpy arrays)")
    keys = ops.keys(tc, pc, n_c)
    dense = cells <= dense_cell_limit(n)
    counts = ops.bincount(keys, cells) if dense else None
    if counts is not None:
        grid = to_host(counts).astype(np.int64, copy=False).reshape(n_r, n_c)
        return Counted(row_labels, col_labels, grid=grid)
    values, counts = ops.unique_counts(keys)
    values = to_host(values).astype(np.int64, copy=False)
    counts = to_host(counts).astype(np.int64, copy=False)
    if dense:
        grid = np.zeros(cells, dtype=np.int64)
        grid[values] = counts
        return Counted(row_labels, col_labels, grid=grid.reshape(n_r, n_c))
    return Counted(row_labels, col_labels, rows=values // n_c, cols=values % n_c, values=counts)
