"""Modules and functions imported on first use, so that ``import metrics`` stays fast.

pandas and scipy take longer to import than the whole of ``metrics`` (and ``partition-lab
--help`` needs neither): the modules that use them name them through these proxies, which import
the real thing the first time an attribute is read or the function is called. Type checkers see
the real imports (``if TYPE_CHECKING:``); ``tests/test_start.py`` checks that ``import metrics``
leaves pandas, scipy, duckdb and numba unimported.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["LazyModule", "lazy_function", "lazy_module"]


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
