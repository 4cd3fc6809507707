"""Points in the plane for the classroom: Gaussian blobs, and blobs whose class sizes have a chosen
coefficient of variation CV₀ (Wu et al.'s skewed data, [Wu09] §3.1 and §4.2).

These return items, not tables: ``(points, classes)`` with ``points`` an ``(n, 2)`` float array and
``classes`` an ``(n,)`` array of class indices 0…k−1, for a clustering algorithm to run on (the
dashboard runs scikit-learn's K-means; this package runs none) and for
:meth:`~metrics.Contingency.from_labels` to count.

[Wu09] Wu, Xiong & Chen (2009), Adapting the right measures for K-means clustering. KDD.
"""

from __future__ import annotations

import math

import numpy as np

from .checks import _count, _rng, largest_remainder
from .uniform_effect import cv

#: Distance between the centres of neighbouring classes: Wu et al.'s two Gaussians have their
#: means at (−2, 0) and (2, 0) ([Wu09] §4.2), 4 apart.
CENTRE_GAP = 4.0


def max_cv(n_classes: int, n_items: int, min_size: int = 1) -> float:
    """The largest CV₀ of ``n_classes`` class sizes summing to ``n_items`` with each class at least
    ``min_size``: one class holds all but ``min_size`` items of every other class."""
    k = _count(n_classes, "n_classes", 2)
    n = _count(n_items, "n_items", 1)
    m = _count(min_size, "min_size", 1)
    if n < k * m:
        raise ValueError(f"n_items ({n}) must be at least n_classes × min_size ({k} × {m})")
    return cv([n - (k - 1) * m] + [m] * (k - 1))


def skewed_sizes(cv0: float, n_classes: int, n_items: int, min_size: int = 1) -> np.ndarray:
    """Whole class sizes summing to ``n_items`` whose coefficient of variation is ``cv0`` (as near
    as whole numbers allow): one large class and ``n_classes − 1`` equal small ones, the shape of
    Wu et al.'s sampled data sets ([Wu09] Table 6: 100, 100, 100, 250, 100, 100 … 30, 30, 30,
    600, 30, 30) and of their two Gaussians (n₁ small, n₂ = 6000 − n₁).

    The sizes move linearly from equal (CV = 0) to the most skewed allowed by ``min_size``
    (:func:`max_cv`); the mean stays n/k, so CV grows linearly along the way and the fraction
    ``cv0 / max_cv`` is exact before rounding. The large class comes first. ``ValueError`` when
    ``cv0`` is negative or above :func:`max_cv`.
    """
    if isinstance(cv0, bool) or not isinstance(cv0, (int, float, np.floating, np.integer)) or not math.isfinite(cv0):
        raise ValueError(f"cv0 must be a finite number, got {cv0!r}")
    top = max_cv(n_classes, n_items, min_size)
    if cv0 < 0 or cv0 > top + 1e-12:
        raise ValueError(f"cv0 must lie in [0, {top:.3f}] for {n_classes} classes of at least {min_size} "
                         f"among {n_items} items, got {cv0:g}")
    k, n = int(n_classes), int(n_items)
    equal = np.full(k, n / k)
    extreme = np.array([n - (k - 1) * min_size] + [min_size] * (k - 1), dtype=np.float64)
    share = 0.0 if top == 0 else min(float(cv0) / top, 1.0)
    return largest_remainder(equal + share * (extreme - equal), total=n)


def class_centres(n_classes: int, gap: float = CENTRE_GAP) -> np.ndarray:
    """``(k, 2)`` centres on a circle, neighbours ``gap`` apart (k = 2: (−gap/2, 0) and (gap/2, 0))."""
    k = _count(n_classes, "n_classes", 1)
    if k == 1:
        return np.zeros((1, 2))
    radius = gap / (2.0 * math.sin(math.pi / k))
    angle = math.pi + 2.0 * math.pi * np.arange(k) / k
    return np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])


def blobs(class_sizes, variance: float = 1.0, seed=0, gap: float = CENTRE_GAP) -> tuple[np.ndarray, np.ndarray]:
    """``(points, classes)``: class i's items drawn from a Gaussian with covariance
    ``variance`` · I around :func:`class_centres` (Wu et al.'s σ², [Wu09] §4.2: 0.5 to 5; larger
    is more overlap). Items are listed class by class; ``seed`` fixes the draw."""
    sizes = np.asarray(class_sizes)
    if sizes.ndim != 1 or sizes.size < 1 or not np.issubdtype(sizes.dtype, np.integer) or (sizes < 0).any():
        raise ValueError("class_sizes must be a sequence of whole numbers ≥ 0")
    if isinstance(variance, bool) or not isinstance(variance, (int, float)) or not (0 < variance < math.inf):
        raise ValueError(f"variance must be a positive finite number, got {variance!r}")
    rng = _rng(seed)
    classes = np.repeat(np.arange(sizes.size), sizes)
    centres = class_centres(sizes.size, gap)
    points = centres[classes] + rng.normal(scale=math.sqrt(variance), size=(classes.size, 2))
    return points, classes


def skewed_blobs(cv0: float, n_classes: int, n_items: int, variance: float = 1.0, seed=0,
                 min_size: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """:func:`blobs` with the class sizes of :func:`skewed_sizes` — data on which K-means shows
    Wu et al.'s uniform effect as ``cv0`` grows ([Wu09] §3.1: K-means' CV₁ mostly lies in
    [0.09, 0.85], so data with CV₀ above 0.85 come out more uniform than they are)."""
    return blobs(skewed_sizes(cv0, n_classes, n_items, min_size), variance, seed)
