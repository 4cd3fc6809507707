"""The generators' argument checks, and the labels of their classes and clusters.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import cast

import numpy as np


def _count(value, name: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer():
            value = int(float(value))
        else:
            raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value


def _fraction(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
    if not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"{name} must lie in [0, 1], got {value}")
    return float(value)


def _positive(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return cast(float, value)  # as given: an integer n stays an integer


def _sizes(sizes, name: str, *, integer: bool = False, min_len: int = 1) -> np.ndarray:
    """A 1-D array of positive finite sizes (int64 when all are whole numbers)."""
    if isinstance(sizes, (str, bytes)) or not isinstance(sizes, (Iterable, np.ndarray)):
        raise ValueError(f"{name} must be a sequence of sizes, got {type(sizes).__name__}")
    try:
        arr = np.asarray(list(sizes) if not isinstance(sizes, np.ndarray) else sizes, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must hold numbers") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {arr.shape}")
    if arr.size < min_len:
        raise ValueError(f"{name} needs at least {min_len} size(s), got {arr.size}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} has NaN or infinite sizes")
    if (arr <= 0).any():
        k = int(np.flatnonzero(arr <= 0)[0])
        raise ValueError(f"{name} must be positive: {name}[{k}] = {arr[k]:g}")
    whole = bool(np.all(arr == np.floor(arr)))
    if integer and not whole:
        raise ValueError(f"{name} must be whole numbers (item counts)")
    return arr.astype(np.int64) if whole else arr


def _rng(seed) -> np.random.Generator:
    """A numpy Generator from a seed, None, or a Generator (used as is)."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer, None or a numpy Generator, got {seed!r}")
    return np.random.default_rng(None if seed is None else int(seed))


def largest_remainder(values, total=None, axis: int = -1) -> np.ndarray:
    """Round non-negative ``values`` to integers summing to ``total`` along ``axis``.

    Hamilton's largest-remainder rule: take the floors, then give the missing units
    to the largest fractional parts (ties to the earlier position). ``total``
    defaults to the rounded sum, so a table of expected counts keeps its n.
    """
    x = np.moveaxis(np.asarray(values, dtype=np.float64), axis, -1)
    if (x < 0).any() or not np.isfinite(x).all():
        raise ValueError("values to round must be finite and non-negative")
    goal = np.rint(x.sum(axis=-1)) if total is None else np.broadcast_to(np.asarray(total, dtype=np.float64),
                                                                         x.shape[:-1])
    # Floors of values that are integers up to rounding noise must not lose a unit.
    x = np.where(np.abs(x - np.rint(x)) < 1e-9, np.rint(x), x)
    floors = np.floor(x)
    short = (goal - floors.sum(axis=-1)).astype(np.int64)
    if (short < 0).any() or (short > x.shape[-1]).any():
        raise ValueError("total is not reachable by rounding these values")
    order = np.argsort(-(x - floors), axis=-1, kind="stable")
    rank = np.argsort(order, axis=-1, kind="stable")  # position of each entry in that order
    out = floors + (rank < short[..., None])
    return np.moveaxis(out.astype(np.int64), -1, axis)


def _class_labels(count: int) -> list[str]:
    return [f"C{i + 1}" for i in range(count)]


def _cluster_labels(count: int) -> list[str]:
    return [f"K{j + 1}" for j in range(count)]
