"""Arithmetic that works the same on one table's scalars and on a batch's arrays.

A measure is written once. Given a :class:`~metrics.core.contingency.Contingency` its
inputs are Python numbers (exact integers for pair counts), and these helpers use
plain Python arithmetic; given a :class:`~metrics.core.batch.TableBatch` its inputs are
arrays over the batch, and the same helpers vectorize. Degenerate cases (0/0) are
resolved by an explicit fallback, never by NaN or a warning.
"""

from __future__ import annotations

import math

import numpy as np


def is_batch(*xs) -> bool:
    return any(isinstance(x, np.ndarray) and x.ndim > 0 for x in xs)


def div(num, den, fallback):
    """num / den, and ``fallback`` wherever den == 0."""
    if is_batch(num, den, fallback):
        num = np.asarray(num, dtype=np.float64)
        den = np.asarray(den, dtype=np.float64)
        fb = np.asarray(fallback, dtype=np.float64)
        shape = np.broadcast_shapes(num.shape, den.shape, fb.shape)
        # Checked before broadcasting (den is often a row or column of sizes): where no
        # denominator is 0 the quotient is the answer, one array, no mask, no fallback copy —
        # which matters on a 10^6-cell table, where every fresh array costs page faults.
        if np.all(den != 0) and np.broadcast_shapes(num.shape, den.shape) == shape:
            return np.divide(num, den)
        num, den, fb = np.broadcast_arrays(num, den, fb)
        out = fb.copy()
        np.divide(num, den, out=out, where=den != 0)
        return out
    return fallback if den == 0 else num / den


def where(cond, x, y):
    """x where cond holds, else y (both already computed, so both must be safe)."""
    if is_batch(cond, x, y):
        return np.where(cond, x, y)
    return x if cond else y


def both(a, b):
    return np.logical_and(a, b) if is_batch(a, b) else bool(a and b)


def sqrt(x):
    # math.sqrt accepts Python integers of any size; np.sqrt does not.
    return np.sqrt(x) if is_batch(x) else math.sqrt(x)


def maximum(x, y):
    return np.maximum(x, y) if is_batch(x, y) else max(x, y)
