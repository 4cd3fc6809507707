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
from ._version import __version__
from .api import (
    adjusted_mutual_info_score,
    adjusted_rand_score,
    completeness_score,
    fowlkes_mallows_score,
    homogeneity_completeness_v_measure,
    homogeneity_score,
    mutual_info_score,
    normalized_mutual_info_score,
    rand_score,
    score,
    v_measure_score,
)
from .core.batch import TableBatch, evaluate_batch

__all__ = [
    "FAMILIES",
    "MEASURES",
    "Contingency",
    "Measure",
    "TableBatch",
    "__version__",
    "adjusted_mutual_info_score",
    "adjusted_rand_score",
    "changes_of_mind",
    "compare_solutions",
    "completeness_score",
    "evaluate",
    "evaluate_batch",
    "fowlkes_mallows_score",
    "homogeneity_completeness_v_measure",
    "homogeneity_score",
    "mutual_info_score",
    "normalized_mutual_info_score",
    "pair_counts",
    "rand_score",
    "rank_agreement",
    "rank_solutions",
    "score",
    "solution_matrix",
    "v_measure_score",
]

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


# Imported on first use, so that ``import metrics`` leaves pandas and scipy unimported (they cost
# more than the rest of the package; tests/test_start.py): name → the module that holds it.
_LAZY = {
    "io": "metrics.io",
    "properties": "metrics.properties",
    "papers": "metrics.papers",
    "cli": "metrics.cli",
    "chance": "metrics.chance",
    "solutions": "metrics.solutions",
    "compare_solutions": "metrics.solutions",
    "rank_solutions": "metrics.solutions",
    "rank_agreement": "metrics.solutions",
    "changes_of_mind": "metrics.solutions",
    "solution_matrix": "metrics.solutions",
    "bootstrap": "metrics.bootstrap",
    "paired_bootstrap": "metrics.bootstrap",
}


def __getattr__(name: str):
    """A name imported on first use (``_LAZY``), or an old module name (``_MOVED``)."""
    if name in _LAZY:
        module = importlib.import_module(_LAZY[name])
        value = module if module.__name__ == f"metrics.{name}" else getattr(module, name)
    elif name in _MOVED:
        value = importlib.import_module(_MOVED[name])
    else:
        raise AttributeError(f"module 'metrics' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_MOVED) | set(_LAZY))
