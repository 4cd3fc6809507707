"""Scenes for moving items between clusters by hand, and the moves themselves.

A scene is a few dozen to a few hundred items in the plane with gold classes and a starting
clustering, laid out to show one of the papers' situations:

* ``blobs`` — each item in the cluster of the class centre nearest to it: clusters as a
  centroid method would find them, wrong only where the classes overlap.
* ``singletons`` — every item a cluster of its own: Reichart & Rappoport's extreme solution
  ([RR09] §5; homogeneity 1, V and NMI high on many small classes, NVI above 1).
* ``matching`` — each class's matched cluster holds 3/5 of the class, its other 2/5 spread evenly
  over the other clusters: Rosenberg & Hirschberg's Figure 2, solution A ([RH07] §2, the problem of
  matching). Gather each class's spread items into one other cluster (solution B): F-measure and
  purity do not move, V does.
* ``noise`` — the gold classes as clusters, but a share of the items taken into one extra cluster
  of mixed items: the noise cluster of Rosenberg & Hirschberg's extension of Dom's family
  ([RH07] §4, Figure 3; [Dom01] §5). Moving them back is the repair.

A move takes items (by number 0…n−1) to a cluster — an existing one or a new one — and
:func:`replay` applies a list of moves to the starting clustering, checking each.

[Dom01] Dom (2001), An information-theoretic external cluster-validity measure. IBM RJ 10219.
[RH07] Rosenberg & Hirschberg (2007), V-Measure. EMNLP-CoNLL.
[RR09] Reichart & Rappoport (2009), The NVI clustering evaluation measure. CoNLL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.contingency import Contingency
from .generators.checks import _count, _rng, largest_remainder
from .generators.scatter import blobs, class_centres

#: The scenes, with the paper situation each one shows (titles for a reader).
SCENES = {
    "blobs": "Blobs: each item in its nearest class centre's cluster",
    "singletons": "Singletons: every item a cluster of its own (Reichart & Rappoport 2009, §5)",
    "matching": "The problem of matching: Rosenberg & Hirschberg 2007, Figure 2 A",
    "noise": "Noise: a cluster of mixed items (Rosenberg & Hirschberg 2007, §4)",
}
SCENE_CLASSES = 3          # three classes: three marker shapes a class can tell apart at a glance
SCENE_VARIANCE = 1.2       # enough overlap for the blobs scene to make a few mistakes
NOISE_SHARE = 0.2          # items taken into the noise cluster
MIN_ITEMS, MAX_ITEMS = 15, 600
NEW = None                 # the target of a move to a new cluster


@dataclass(frozen=True)
class Scene:
    """Items in the plane: ``points`` (n × 2), ``classes`` and ``clusters`` (n whole numbers each,
    0…k−1), the scene's key and its title."""

    key: str
    points: np.ndarray
    classes: np.ndarray
    clusters: np.ndarray
    title: str

    @property
    def n(self) -> int:
        return int(self.classes.size)


def scene(key: str, n_items: int = 90, seed=0) -> Scene:
    """The scene ``key`` (one of :data:`SCENES`) with ``n_items`` items in three classes of sizes
    as equal as whole numbers allow; ``seed`` fixes the positions (and the noise scene's items)."""
    if key not in SCENES:
        raise ValueError(f"unknown scene {key!r}; choose one of {', '.join(SCENES)}")
    n = _count(n_items, "n_items", MIN_ITEMS)
    if n > MAX_ITEMS:
        raise ValueError(f"n_items must be at most {MAX_ITEMS}, got {n}")
    rng = _rng(seed)
    sizes = largest_remainder(np.full(SCENE_CLASSES, n / SCENE_CLASSES), total=n)
    points, classes = blobs(sizes, SCENE_VARIANCE, rng)
    centres = class_centres(SCENE_CLASSES)
    if key == "blobs":
        clusters = ((points[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
    elif key == "singletons":
        clusters = np.arange(n)
    elif key == "matching":
        clusters = _matching_a(points, classes, centres)
    else:
        clusters = classes.copy()
        taken = rng.choice(n, size=max(1, round(NOISE_SHARE * n)), replace=False)
        clusters[taken] = SCENE_CLASSES
    return Scene(key, points, classes, compact(clusters), SCENES[key])


def _matching_a(points: np.ndarray, classes: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Rosenberg & Hirschberg's solution A at this size: in class i, the 3/5 of its items nearest
    its own centre stay in cluster i; the other 2/5 go in equal parts to every other cluster, each
    to the one whose centre is nearest (a balanced round robin, so the parts are equal)."""
    k = centres.shape[0]
    clusters = classes.copy()
    for i in range(k):
        members = np.flatnonzero(classes == i)
        order = members[np.argsort(((points[members] - centres[i]) ** 2).sum(axis=1), kind="stable")]
        kept = round(0.6 * members.size)
        others = [j for j in range(k) if j != i]
        rest = order[kept:]
        # Each leftover item to the other cluster it is nearest to, while that cluster has room.
        room = dict(zip(others, largest_remainder(np.full(len(others), rest.size / len(others)), total=rest.size)))
        for item in rest:
            near = sorted(others, key=lambda j: float(((points[item] - centres[j]) ** 2).sum()))
            target = next(j for j in near if room[j] > 0)
            room[target] -= 1
            clusters[item] = target
    return clusters


def compact(clusters) -> np.ndarray:
    """Cluster numbers renumbered 0, 1, … in the order of their current numbers, with no gaps:
    the numbering a scene starts with."""
    _, inverse = np.unique(np.asarray(clusters), return_inverse=True)
    return inverse.astype(np.int64)


@dataclass(frozen=True)
class Move:
    """Items (their numbers) taken to ``target``: a cluster number, or :data:`NEW` for a new one."""

    items: tuple[int, ...]
    target: int | None


def move(clusters, items: Sequence[int], target: int | None) -> tuple[np.ndarray, int]:
    """``(clusters after, the target's number)``: ``items`` put in cluster ``target``, or in a new
    cluster numbered one above the largest in use when ``target`` is :data:`NEW`. The input is not
    changed. A cluster every item leaves is gone (its number is not reused by a later new one
    unless it is the largest). ``ValueError`` for an empty move, an item out of range, or a target
    no item is in."""
    before = np.asarray(clusters)
    chosen = np.asarray(sorted(set(int(i) for i in items)), dtype=np.int64)
    if chosen.size == 0:
        raise ValueError("a move needs at least one item")
    outside = chosen[(chosen < 0) | (chosen >= before.size)]
    if outside.size:
        raise ValueError(f"items are numbered 0 to {before.size - 1}; got {int(outside[0])}")
    if target is NEW:
        to = int(before.max()) + 1
    else:
        to = int(target)
        if not (before == to).any():
            raise ValueError(f"there is no cluster {to} to move items to")
    after = before.copy()
    after[chosen] = to
    return after, to


def replay(start, moves: Sequence[Move]) -> list[np.ndarray]:
    """The clusterings along ``moves``: ``[start, after move 1, …]`` (each move checked by
    :func:`move`; its ``ValueError`` says which move failed)."""
    states, problem = replay_valid(start, moves)
    if problem:
        raise ValueError(problem)
    return states


def replay_valid(start, moves: Sequence[Move]) -> tuple[list[np.ndarray], str | None]:
    """Like :func:`replay`, but stops at the first move that cannot be made: ``(the clusterings up
    to it, why it failed)`` — ``None`` when every move was made. For moves read from a link."""
    states = [np.asarray(start)]
    for i, m in enumerate(moves, start=1):
        try:
            states.append(move(states[-1], m.items, m.target)[0])
        except ValueError as exc:
            return states, f"move {i}: {exc}"
    return states, None


def table(classes, clusters) -> Contingency:
    """The contingency table of a scene's clustering, classes named C1, C2, … and clusters K1, K2, …
    by their numbers (0 → C1, K1), as the playground names them (the number order, not the text
    order: K10 after K9)."""
    t = Contingency.from_labels(np.asarray(classes), np.asarray(clusters))
    rows = [f"C{int(i) + 1}" for i in t.row_labels]
    cols = [f"K{int(j) + 1}" for j in t.col_labels]
    return Contingency.from_table(t.to_dense(), rows, cols)


def moved_from(before, items: Sequence[int]) -> dict[int, int]:
    """How many of ``items`` each cluster held before a move: ``{cluster: count}``, by cluster."""
    values, counts = np.unique(np.asarray(before)[np.asarray(list(items), dtype=np.int64)], return_counts=True)
    return {int(v): int(c) for v, c in zip(values, counts)}
