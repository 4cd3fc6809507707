"""Modules and functions imported on first use, so that ``import metrics`` stays fast.

pandas and scipy take longer to import than the whole of ``metrics`` (and ``partition-lab
--help`` needs neither): the modules that use them name them through these proxies, which import
the real thing the first time an attribute is read or the function is called. Type checkers see
the real imports (``if TYPE_CHECKING:``); ``tests/test_start.py`` checks that ``import metrics``
leaves pandas, scipy, duckdb and numba unimported.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["LazyModule", "extension_function", "lazy_function", "lazy_module"]


class LazyModule:
    """Stands for the module ``name``; the first attribute read imports it."""

    __slots__ = ("_module", "_name")

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_module", None)

    def __getattr__(self, attr: str) -> Any:
        module = self._module
        if module is None:
            module = importlib.import_module(self._name)
            object.__setattr__(self, "_module", module)
        return getattr(module, attr)

    def __repr__(self) -> str:
        state = "imported" if self._module is not None else "not imported yet"
        return f"<lazy module {self._name!r} ({state})>"


def lazy_module(name: str) -> Any:
    """A stand-in for ``import name`` that imports it on first attribute access."""
    return LazyModule(name)


def lazy_function(module: str, name: str) -> Callable[..., Any]:
    """A stand-in for ``from module import name`` (a function) that imports it on first call."""
    found: list[Callable[..., Any]] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if not found:
            found.append(getattr(importlib.import_module(module), name))
        return found[0](*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"``{module}.{name}``, imported on first call."
    return call


def extension_function(package: str, module: str, name: str) -> Callable[..., Any]:
    """A stand-in for ``from package import name`` where ``name`` is defined by the compiled
    extension ``package.module``, which needs nothing of ``package``'s ``__init__``: while
    ``package`` is not imported, the first call loads that one file (a fraction of a
    millisecond) rather than the package. Why: ``scipy.optimize.linear_sum_assignment`` is the
    C function of ``scipy/optimize/_lsap``, and ``import scipy.optimize`` (scipy.linalg, scipy.fft
    and more) costs a fresh process more than its whole first ``evaluate`` of a 1000 × 1000 table.

    ``package.module`` is private: where the file is not found, or does not define ``name``, the
    public ``package.name`` is imported instead — the same function, only slower to reach.
    ``tests/core/test_lazy_extension.py`` fails, naming the file, when scipy moves it."""
    found: list[Callable[..., Any]] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if not found:
            function = None if package in sys.modules else _function_of_extension(package, module, name)
            found.append(function if function is not None else getattr(importlib.import_module(package), name))
        return found[0](*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"``{package}.{name}`` (from the extension ``{module}``), loaded on first call."
    return call


def extension_path(package: str, module: str) -> Path | None:
    """The file of the compiled extension ``package.module``, found without importing ``package``
    (None: not there)."""
    top, _, rest = package.partition(".")
    spec = importlib.util.find_spec(top)
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        folder = Path(location, *rest.split(".")) if rest else Path(location)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = folder / f"{module}{suffix}"
            if path.is_file():
                return path
    return None


def _function_of_extension(package: str, module: str, name: str) -> Callable[..., Any] | None:
    """``name`` of the extension ``package.module`` loaded from its file alone, or None."""
    full = f"{package}.{module}"
    path = extension_path(package, module)
    if path is None:
        return None
    try:
        loader = importlib.machinery.ExtensionFileLoader(full, str(path))
        spec = importlib.util.spec_from_file_location(full, path, loader=loader)
        if spec is None:
            return None
        loaded = importlib.util.module_from_spec(spec)
        loader.exec_module(loaded)
    except (ImportError, OSError):
        return None
    finally:
        # Loading registers a single-phase extension in sys.modules; taken out again, the package's
        # own import later loads it as usual (the same functions: Python keeps the extension's
        # first state), with the package's attribute set.
        sys.modules.pop(full, None)
    function = getattr(loaded, name, None)
    return function if callable(function) else None
