"""CPU stand-ins for arrays of GPU libraries: numpy arrays behind the interfaces that CuPy,
JAX, PyTorch-free DLPack producers show — and nothing more — so that counting on a device
(metrics/core/kernels/array_api.py) is tested on a machine without a GPU.

Each stand-in refuses ``np.asarray`` (as CuPy 14 does: "Implicit conversion to a NumPy array is
not allowed"), is not iterable, and logs every array that leaves it for the host (``.get()`` or
a DLPack copy to the CPU) in its library's ``transfers``. A library's functions live in a module
object that a test puts in ``sys.modules`` under the library's name — what the code under test
finds there (it never imports a GPU library).
"""

from __future__ import annotations

import types
from collections import namedtuple

import numpy as np

_UniqueCounts = namedtuple("_UniqueCounts", "values counts")
_UniqueInverse = namedtuple("_UniqueInverse", "values inverse_indices")


class StandInArray:
    """A numpy array held as if in a device's memory. Subclasses set ``__module__`` (the library
    the type comes from) and the interfaces of that library's arrays."""

    library: types.SimpleNamespace  # set per library: its transfers log
    mutable = True

    def __init__(self, a):
        self._a = np.asarray(a)

    # what every array library has
    @property
    def shape(self):
        return self._a.shape

    @property
    def ndim(self):
        return self._a.ndim

    @property
    def size(self):
        return self._a.size

    @property
    def dtype(self):
        return self._a.dtype

    @property
    def device(self):
        return "cuda:0"

    def __len__(self):
        return len(self._a)

    def __array__(self, *args, **kwargs):
        raise TypeError("Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct a "
                        "NumPy array explicitly.")

    def __iter__(self):
        raise TypeError("iterating over a device array item by item is not what the code should do")

    def __dlpack_device__(self):
        return (2, 0)  # kDLCUDA

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if dl_device is not None and int(dl_device[0]) == 1 and copy:
            self.library.transfers.append(self._a.size)
            return self._a.copy().__dlpack__(max_version=max_version)
        raise BufferError("the array is in GPU memory: numpy cannot read it in place")

    def astype(self, dtype, copy=True):
        return self._wrap(self._a.astype(self.library.dtype(dtype), copy=copy))

    def _wrap(self, a):
        return type(self)(a) if isinstance(a, np.ndarray) else type(self)(np.asarray(a))

    def __getitem__(self, key):
        return self._wrap(self._a[_unwrap(key)])

    def _binary(op):
        def method(self, other):
            return self._wrap(getattr(self._a, op)(_unwrap(other)))
        return method

    __add__, __mul__, __ne__, __eq__ = _binary("__add__"), _binary("__mul__"), _binary("__ne__"), _binary("__eq__")
    __radd__, __rmul__ = _binary("__radd__"), _binary("__rmul__")
    __sub__, __truediv__, __gt__ = _binary("__sub__"), _binary("__truediv__"), _binary("__gt__")

    def __iadd__(self, other):
        if not self.mutable:
            return NotImplemented
        self._a += _unwrap(other)
        return self

    def __imul__(self, other):
        if not self.mutable:
            return NotImplemented
        self._a *= _unwrap(other)
        return self

    __hash__ = None  # type: ignore[assignment]


def _unwrap(x):
    if isinstance(x, StandInArray):
        return x._a
    if isinstance(x, tuple):
        return tuple(_unwrap(v) for v in x)
    return x


def _function(f, array_type):
    def call(*args, **kwargs):
        out = f(*(_unwrap(a) for a in args), **{k: _unwrap(v) for k, v in kwargs.items()})
        return _rewrap(out, array_type)
    return call


def _rewrap(out, array_type):
    if isinstance(out, tuple):
        return type(out)(*(_rewrap(o, array_type) for o in out)) if hasattr(out, "_fields") else \
            tuple(_rewrap(o, array_type) for o in out)
    if isinstance(out, (np.ndarray, np.generic)):
        return array_type(np.asarray(out))
    return out


_NUMPY_FUNCTIONS = ("min", "max", "sum", "argmax", "isnan", "isinf", "reshape", "bincount", "unique",
                    "count_nonzero", "log", "log1p", "where", "all", "argsort", "take")


def library(name: str, type_module: str, *, namespace_functions=(), cuda_array_interface=False, get=False,
            mutable=True, int64=np.int64, array_namespace=False, unsorted_unique=False, ufunc_at=False):
    """(module, array type, asarray) of a stand-in GPU library called ``name``. ``unsorted_unique``:
    its ``unique_counts`` gives the distinct values in reverse order (the standard leaves the order
    open). ``ufunc_at``: ``zeros`` and ``add.at`` (an unbuffered add at each index, in place)."""
    lib = types.SimpleNamespace(transfers=[], dtype=lambda d: int64 if d in (np.int64, "int64") else d)
    attrs = {"__module__": type_module, "library": lib, "mutable": mutable}
    if cuda_array_interface:
        attrs["__cuda_array_interface__"] = property(
            lambda self: {"shape": self.shape, "typestr": self.dtype.str, "data": (0xDEAD0000, False), "version": 3})
    if get:
        def _get(self):
            lib.transfers.append(self._a.size)
            return self._a.copy()
        attrs["get"] = _get
    array_type = type(f"{name}_array", (StandInArray,), attrs)
    module = types.ModuleType(name)
    for f in _NUMPY_FUNCTIONS:
        setattr(module, f, _function(getattr(np, f), array_type))
    module.int64 = int64
    module.float64 = np.float64
    module.bool = np.bool_
    module.astype = lambda x, dtype, copy=True: x.astype(dtype, copy=copy)
    if "unique_counts" in namespace_functions:
        order = slice(None, None, -1 if unsorted_unique else 1)
        module.unique_counts = lambda x: _UniqueCounts(
            *_rewrap(tuple(v[order] for v in np.unique(x._a, return_counts=True)), array_type))
        module.unique_inverse = lambda x: _UniqueInverse(
            *_rewrap(np.unique(x._a, return_inverse=True), array_type))
    if ufunc_at:
        module.zeros = lambda shape, dtype=np.float64: array_type(np.zeros(shape, dtype=dtype))
        module.add = types.SimpleNamespace(at=lambda a, index, value: np.add.at(a._a, _unwrap(index), value))
    module.from_dlpack = lambda x: array_type(np.from_dlpack(x, device="cpu", copy=True))
    module.asarray = lambda x: array_type(np.asarray(x))
    if array_namespace:
        array_type.__array_namespace__ = lambda self, api_version=None: module
    module.transfers = lib.transfers
    return module, array_type


def cupy_like():
    """CuPy 14: no ``__array_namespace__``, ``__cuda_array_interface__``, ``.get()``, NumPy-style
    ``unique(return_counts=...)`` and ufuncs with ``.at``, arrays of type ``cupy._core.core.ndarray``."""
    return library("cupy", "cupy._core.core", cuda_array_interface=True, get=True, ufunc_at=True)


def jax_like(x64: bool = True, unsorted_unique: bool = False):
    """JAX before ``__array_namespace__``: immutable arrays of type ``jaxlib.xla_extension.ArrayImpl``
    on a GPU, ``jax.numpy`` with ``unique_counts``; without x64, int64 becomes int32."""
    return library("jax.numpy", "jaxlib.xla_extension", namespace_functions=("unique_counts",), mutable=False,
                   int64=np.int64 if x64 else np.int32, unsorted_unique=unsorted_unique)


def _no_attribute(self):
    raise AttributeError("__array__")


def dlpack_only(gpu: bool = True):
    """An array of a library nobody knows: ``__dlpack__`` and ``__dlpack_device__`` only."""
    module, array_type = library("weirdlib", "weirdlib.arrays")
    if not gpu:  # on the CPU, with no __array__ (only DLPack says what it holds)
        array_type.__array__ = property(_no_attribute)
        array_type.__dlpack_device__ = lambda self: (1, 0)
        array_type.__dlpack__ = lambda self, **kw: self._a.__dlpack__(
            **{k: v for k, v in kw.items() if k in ("max_version", "dl_device", "copy")})
    return module, array_type
