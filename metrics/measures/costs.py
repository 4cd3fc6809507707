"""What :func:`metrics.evaluate` costs: the cost model of the measures, for the cost guards.

The per-operation costs are :data:`metrics.core.limits.COSTS`; this module adds what only the
measure families know: the terms of AMI's exact E[I] (:mod:`metrics.measures.expected`) and the
components of the one-to-one matching of ε (:mod:`metrics.measures.matching`).
"""

from __future__ import annotations

import math

from ..core.limits import COSTS, MATCHING_BUDGET
from .expected import emi_out_of_budget, emi_terms
from .matching import sparse_matching_seconds

__all__ = ["evaluate_seconds", "matching_seconds"]


def evaluate_seconds(t, keys) -> float:
    """Estimated seconds of ``metrics.evaluate(t, keys)`` for a Contingency ``t``."""
    keys = list(keys)
    c = COSTS
    seconds = c["table"] + c["table_measure"] * len(keys) + c["table_cell"] * len(t.values)
    if any(k.startswith("ami") for k in keys) and t.is_integer and not emi_out_of_budget(t):
        seconds += c["emi_term"] * emi_terms(t)
    if any(k in ("classification_error", "epsilon_n") for k in keys):
        seconds += matching_seconds(t)
    return seconds


def matching_seconds(t) -> float:
    """Estimated seconds of the exact one-to-one matching of ε: dense up to 2^20 cells; beyond,
    the sparse assignment's estimate (:func:`metrics.measures.matching.sparse_matching_seconds`)
    where ``t`` is a Contingency, else the worst its shape allows (every cell filled, one
    component). A table whose matching is over budget is not matched: 0."""
    r, k = t.shape
    if r * k <= 1 << 20:
        return COSTS["dense_matching_cell"] * r * k
    if not hasattr(t, "memo"):
        return COSTS["sparse_matching_cell"] * min(r, k) * math.sqrt(r * k)
    seconds = sparse_matching_seconds(t)
    return seconds if seconds <= MATCHING_BUDGET else 0.0  # beyond, ε is left out (matching_out_of_budget)
