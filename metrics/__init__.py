"""Partition Lab's measures of a clustering against gold classes.

>>> import metrics
>>> t = metrics.Contingency.from_labels([0, 0, 1, 1], [0, 0, 1, 2])
>>> round(metrics.evaluate(t, ["v_measure"])["v_measure"], 4)
0.8

The package in layers (see ``docs/architecture.md``): :mod:`metrics.core` (the table, the
registry, limits), :mod:`metrics.measures` (the families), :mod:`metrics.chance` (random models),
:mod:`metrics.properties` (properties of measures), :mod:`metrics.papers` (the papers' generators,
experiments and printed numbers), :mod:`metrics.io` (the reader), :mod:`metrics.solutions` (many
solutions) and :mod:`metrics.cli` (the ``partition-lab`` command).
"""

import importlib

from .core.contingency import Contingency, pair_counts
from .core.registry import FAMILIES, MEASURES, Measure, evaluate

from . import measures  # noqa: F401  isort: skip  (fills the registry, in display order)
from . import chance  # noqa: F401  (metrics.chance: measures against random labelings)
from .core.batch import TableBatch, evaluate_batch
from .solutions import changes_of_mind, compare_solutions, rank_agreement, rank_solutions, solution_matrix
from .api import (adjusted_mutual_info_score, adjusted_rand_score, completeness_score, fowlkes_mallows_score,
                  homogeneity_completeness_v_measure, homogeneity_score, mutual_info_score,
                  normalized_mutual_info_score, rand_score, score, v_measure_score)

__all__ = ["Contingency", "pair_counts", "evaluate", "evaluate_batch", "TableBatch", "MEASURES",
           "Measure", "FAMILIES", "compare_solutions", "rank_solutions", "rank_agreement", "changes_of_mind",
           "solution_matrix", "score", "adjusted_rand_score", "rand_score", "adjusted_mutual_info_score",
           "normalized_mutual_info_score", "mutual_info_score", "homogeneity_score", "completeness_score",
           "v_measure_score", "homogeneity_completeness_v_measure", "fowlkes_mallows_score"]

# Kept for compatibility: the module names of the flat package before its layers
# (``metrics.generators``, ``from metrics import formatting`` …) still name the modules that
# moved, imported on first use.
_MOVED = {
    "contingency": "metrics.core.contingency",
    "registry": "metrics.core.registry",
    "batch": "metrics.core.batch",
    "formatting": "metrics.core.formatting",
    "resources": "metrics.papers.resources",
    "limits": "metrics.core.limits",
    "information": "metrics.measures.information",
    "expected": "metrics.measures.expected",
    "pairs": "metrics.measures.pairs",
    "matching": "metrics.measures.matching",
    "elementwise": "metrics.measures.elementwise",
    "random_models": "metrics.chance.models",
    "generators": "metrics.papers.generators",
    "experiments": "metrics.papers.experiments",
    "gallery": "metrics.papers.gallery",
}


def __getattr__(name: str):
    """``metrics.<old module name>``: the module that now holds it (see ``_MOVED``)."""
    target = _MOVED.get(name)
    if target is None:
        raise AttributeError(f"module 'metrics' has no attribute {name!r}")
    module = importlib.import_module(target)
    globals()[name] = module
    return module


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_MOVED))
