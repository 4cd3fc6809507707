"""One generator parameter against every measure, as a tidy table for charts.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence

import pandas as pd

from ..core.batch import evaluate_batch
from ..core.contingency import Contingency
from ..core.limits import DEFAULT_BUDGET, Deadline, Progress, check_budget, checked_budget
from ..core.registry import evaluate
from ..measures.costs import evaluate_seconds
from ..papers import generators
from .dom_grid import _keys

# ====================================================================== sweeps
_DENSE_SWEEP_CELLS = 5_000_000


def sweep(generator: Callable | str, parameter: str, values: Sequence, measures=None, *,
          log_base: float = math.e, beta: float = 1.0, progress: Progress | None = None, budget=DEFAULT_BUDGET,
          **fixed) -> pd.DataFrame:
    """Every measure along one parameter of a generator: a tidy table for charts.

    ``generator`` is a function returning a :class:`Contingency` (or the name of one
    in :mod:`metrics.papers.generators`, e.g. ``"solution_r"``); it is called as
    ``generator(**fixed, **{parameter: value})`` for each of ``values``. Returns
    one row per (value, measure): columns ``<parameter>``, ``measure``, ``value``.
    ``measures=None`` takes every registered measure that applies (AMI only when
    every table is integer). Errors of a generator name the offending value.

    Cost: the first value's table is built and timed, and the whole sweep estimated from it (its
    generator's time and :func:`metrics.core.limits.evaluate_seconds`, times the number of values);
    beyond ``budget`` seconds of one core (default 30; None: no limit) it is refused with a
    ``limits.CostError``. ``progress(done, total)`` after each value's table.
    """
    if isinstance(generator, str):
        if generator not in generators.__all__ or not callable(getattr(generators, generator, None)):
            raise ValueError(f"unknown generator {generator!r}; known: {', '.join(generators.__all__)}")
        generator = getattr(generators, generator)
    if not callable(generator):
        raise ValueError("generator must be a function returning a Contingency, or a generator name")
    if not isinstance(parameter, str) or not parameter:
        raise ValueError("parameter must be the name of one of the generator's arguments")
    if parameter in ("measure", "value"):
        raise ValueError(f"parameter may not be called {parameter!r} (a column of the result)")
    if parameter in fixed:
        raise ValueError(f"{parameter!r} is both swept and fixed")
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ValueError("values must be a sequence of parameter values")
    values = list(values)
    if not values:
        raise ValueError("values is empty: give at least one parameter value")
    budget = checked_budget(budget)
    tables, deadline = [], Deadline(budget)
    for i, v in enumerate(values):
        start = time.thread_time()
        try:
            t = generator(**fixed, **{parameter: v})
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{parameter} = {v!r}: {exc}") from None
        if not isinstance(t, Contingency):
            raise ValueError(f"the generator returned {type(t).__name__}, not a Contingency "
                             "(membership data: build the table with Contingency.from_memberships first)")
        tables.append(t)
        if i == 0 and budget is not None:
            per = time.thread_time() - start + evaluate_seconds(t, _keys(measures, tables))
            check_budget(f"a sweep of {parameter} over {len(values):,} values", len(values) * per, budget,
                         "fewer values")
        if progress is not None:
            progress(i + 1, len(values))
        deadline.check(f"the sweep of {parameter}")
    keys = _keys(measures, tables)
    if sum(t.shape[0] * t.shape[1] for t in tables) <= _DENSE_SWEEP_CELLS:
        frame = evaluate_batch([t.to_dense() for t in tables], list(keys), log_base=log_base, beta=beta)
    else:
        frame = pd.DataFrame([evaluate(t, list(keys), log_base=log_base, beta=beta) for t in tables])
    frame.insert(0, parameter, values)
    long = frame.melt(id_vars=[parameter], var_name="measure", value_name="value")
    return long
