"""Partition Lab's measures of a clustering against gold classes.

>>> import metrics
>>> t = metrics.Contingency.from_labels([0, 0, 1, 1], [0, 0, 1, 2])
>>> round(metrics.evaluate(t, ["v_measure"])["v_measure"], 4)
0.8
"""

from .contingency import Contingency, pair_counts
from .registry import FAMILIES, MEASURES, Measure, evaluate

# Importing the family modules fills the registry, in this (display) order.
from . import information, matching, pairs, elementwise  # noqa: E402,F401  isort: skip
from .batch import TableBatch, evaluate_batch  # noqa: E402
from . import chance  # noqa: E402,F401  (metrics.chance: measures against random labelings)
from .solutions import (changes_of_mind, compare_solutions, rank_agreement, rank_solutions,  # noqa: E402
                        solution_matrix)

__all__ = ["Contingency", "pair_counts", "evaluate", "evaluate_batch", "TableBatch", "MEASURES",
           "Measure", "FAMILIES", "compare_solutions", "rank_solutions", "rank_agreement", "changes_of_mind",
           "solution_matrix"]
