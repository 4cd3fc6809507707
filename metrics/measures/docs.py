"""Each measure's documentation, written from the registry's metadata: what ``help(MEASURES[key])``
shows, and what the documentation site's measures reference and the app's formula panels read.

One source: the text is made from the fields :func:`metrics.core.registry.register` was given
(name, symbol, description, formula, range, direction, properties, reference, scikit-learn's
name) and from the measure itself — its degenerate cases and its example are *computed* by the
measure on small tables, never written by hand, so the documentation cannot disagree with the
numbers. The registered function's own docstring (its conventions and findings) closes the Notes.
Made on first use (``import metrics`` computes nothing) and kept.
"""

from __future__ import annotations

import inspect
import math
from functools import cache
from typing import TYPE_CHECKING

from ..core.contingency import Contingency
from ..core.registry import FAMILIES, set_doc_writer

if TYPE_CHECKING:
    from ..core.registry import Measure

__all__ = ["DEGENERATE_CASES", "EXAMPLE_LABELS", "degenerate_values", "example_value", "measure_doc"]

#: Label pairs (gold classes, clusters) of the degenerate cases every measure's documentation shows.
DEGENERATE_CASES: dict[str, tuple[list[int], list[int]]] = {
    "one item": ([0], [0]),
    "one class, one cluster (4 items)": ([0, 0, 0, 0], [0, 0, 0, 0]),
    "one class, 4 singleton clusters": ([0, 0, 0, 0], [0, 1, 2, 3]),
    "4 singleton classes, one cluster": ([0, 1, 2, 3], [0, 0, 0, 0]),
    "both all singletons (4 items)": ([0, 1, 2, 3], [0, 1, 2, 3]),
}

#: The labels of every measure's example (gold classes, clusters).
EXAMPLE_LABELS: tuple[list[int], list[int]] = ([0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2])


def _number(value: float) -> str:
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:.6g}"


def degenerate_values(m: Measure) -> dict[str, str]:
    """Case → the measure's value (natural log, β = 1) on :data:`DEGENERATE_CASES`, or why it has none."""
    out = {}
    for case, labels in DEGENERATE_CASES.items():
        try:
            out[case] = _number(m(Contingency.from_labels(*labels)))
        except ValueError as exc:
            out[case] = f"not defined ({exc})"
    return out


def example_value(m: Measure) -> float:
    """The measure of :data:`EXAMPLE_LABELS`, rounded as its documentation's example prints it."""
    return round(m(Contingency.from_labels(*EXAMPLE_LABELS)), 4)


# The registry's domains (metrics.core.registry.DOMAINS) as the documentation says them.
_DEFINED_FOR = {
    "any": "every table, fractional counts (ambiguous data) included",
    "integer": "tables of integer counts only (a hypergeometric model)",
    "counts": "tables whose non-zero cells are at least 1 (it counts item pairs, C(x, 2))",
}


def _properties(m: Measure) -> list[str]:
    yes = {True: "yes", False: "no"}
    lines = [
        f"symmetric (swapping classes and clusters keeps the value): {yes[m.symmetric]}",
        f"unchanged when every count is multiplied by the same factor: {yes[m.n_invariant]}",
        f"defined for: {_DEFINED_FOR[m.domain]}",
    ]
    if m.uses_log_base:
        lines.append("carries a unit: divide by log(log_base) (log_base=e: nats, 2: bits)")
    if m.uses_beta:
        lines.append("depends on beta (weight of completeness against homogeneity), default 1")
    return lines


@cache
def measure_doc(m: Measure) -> str:
    """The numpydoc docstring of measure ``m``: what ``help(metrics.MEASURES[m.key])`` shows."""
    direction = "higher is better" if m.higher_is_better else "lower is better"
    labels_true, labels_pred = EXAMPLE_LABELS
    sklearn_line = []
    if m.sklearn:
        name, _, method = m.sklearn.partition(":")
        call = f"{name}(labels_true, labels_pred{f', average_method={method!r}' if method else ''})"
        sklearn_line = ["", f"scikit-learn: ``sklearn.metrics.{call}``; the drop-in ``metrics.{call}``."]
    notes = inspect.cleandoc(m.func.__doc__) if m.func.__doc__ else ""
    lines = [
        f"{m.name} ({m.symbol}), registry key ``{m.key!r}``: {FAMILIES[m.family].lower()} family.",
        "",
        m.description,
        "",
        f"Formula: {m.formula}",
        f"Range: {m.range_text}, {direction}.",
        *sklearn_line,
        "",
        "Call it with a table, ``MEASURES[key](t, *, log_base=e, beta=1.0)``, with two label arrays,",
        "``MEASURES[key](labels_true, labels_pred)``, or as ``metrics.score(key, labels_true, labels_pred)``.",
        "",
        "Notes",
        "-----",
        "Properties:",
        "",
        *[f"- {line}" for line in _properties(m)],
        "",
        "Degenerate cases (computed by this measure; natural log, beta = 1):",
        "",
        *[f"- {case}: {value}" for case, value in degenerate_values(m).items()],
    ]
    if notes:
        lines += ["", notes]
    lines += [
        "",
        "References",
        "----------",
        m.reference,
        "",
        "Examples",
        "--------",
        ">>> import metrics",
        f">>> round(metrics.score({m.key!r}, {labels_true}, {labels_pred}), 4)",
        repr(example_value(m)),
    ]
    return "\n".join(lines)


# The registry keeps only a hook for this writer (the core imports nothing of the measures layer).
set_doc_writer(measure_doc)
