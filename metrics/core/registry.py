"""The one registry of measures: everything that lists, computes or charts measures
reads :data:`MEASURES`.

Adding a measure is one function decorated with :func:`register` in the module of
its family, one entry is made by that decorator, plus its tests.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from .contingency import Contingency

__all__ = ["DOMAINS", "FAMILIES", "MEASURES", "Measure", "evaluate", "register"]

FAMILIES = {
    "information": "Information-theoretic",
    "matching": "Set matching",
    "pairs": "Pair counting",
    "elementwise": "Element-wise (BCubed, element-centric)",
}


@dataclass(frozen=True)
class Measure:
    """A registered measure.

    ``direction`` is ``"higher"`` or ``"lower"`` (which values are better);
    ``bounds`` is the closed range values are clipped to (``math.inf`` where
    unbounded); ``uses_log_base`` marks values that change with the unit of
    information (nats, bits); ``uses_beta`` marks values that change with β (V_β:
    every other measure ignores ``beta``, so a cache may reuse its value across β);
    a measure that uses β declares ``beta_parts``, ``(parts, combine)``: ``parts(t)``, the
    quantities its value takes from the table, which do not depend on β (V_β: h and c), and
    ``combine(*parts, beta)``, its value from them — exactly ``func``'s arithmetic, so scoring many
    tables again for another β (``metrics.chance.score_tables``) needs only ``combine``;
    ``symmetric`` says whether swapping classes and
    clusters leaves the value unchanged; ``n_invariant`` whether multiplying every
    cell by λ does.

    A measure is called with a table, ``m(t)``, or with two label arrays, ``m(labels_true,
    labels_pred)`` (scikit-learn's way; the table is counted first). ``help(m)`` shows the
    measure's own documentation (:attr:`doc`), written from these fields by
    :mod:`metrics.measures.docs`.
    """

    key: str
    name: str
    symbol: str
    family: str
    direction: str
    bounds: tuple[float, float]
    reference: str
    formula: str
    description: str
    func: Callable = field(repr=False, compare=False)
    uses_log_base: bool = False
    symmetric: bool = False
    n_invariant: bool = True
    sklearn: str | None = None
    vectorized: bool = True
    domain: str = "any"
    goodness_range: tuple[float, float] | None = None
    limit: Callable | None = field(default=None, repr=False, compare=False)
    uses_beta: bool = False
    beta_parts: tuple[Callable, Callable] | None = field(default=None, repr=False, compare=False)
    # Other libraries computing the same number, {library: function} (scikit-learn has its own field).
    peers: dict[str, str] | None = field(default=None, repr=False, compare=False)
    # Where ``bounds`` alone misleads (VI: unbounded over all n, yet ≤ log n for n items): the one
    # statement that reconciles the ranges the papers print, shown wherever the range is.
    range_note: str | None = field(default=None, compare=False)

    def __call__(self, t, labels_pred=None, *, log_base: float = math.e, beta: float = 1.0) -> float:
        """The measure of table ``t`` — or, scikit-learn's way, of two label arrays
        ``(labels_true, labels_pred)``, counted into a table first (as :func:`metrics.score`)."""
        if labels_pred is not None:
            if isinstance(t, Contingency):
                raise TypeError(f"{self.key} takes a metrics.Contingency or two label arrays, not both")
            t = Contingency.from_labels(t, labels_pred)
        elif not isinstance(t, Contingency):
            raise TypeError(
                f"{self.key} takes a metrics.Contingency or two label arrays, got one {type(t).__name__}; "
                f"pass labels_true and labels_pred (or call metrics.score({self.key!r}, labels_true, "
                "labels_pred)), or build a table with Contingency.from_labels or Contingency.from_table"
            )
        check_log_base(log_base)
        check_beta(beta)
        reason = self.why_not(t)
        if reason:
            verb = "defined" if self._outside_domain(t) else "computed"
            raise ValueError(f"{self.key} is not {verb} for this table: {reason}")
        value = float(self.func(t, log_base=log_base, beta=beta))
        lo, hi = self.bounds
        # Rounding must never push a value out of its declared range (no NMI of 1+ε).
        return min(max(value, lo), hi)

    def why_not(self, t) -> str | None:
        """Why the measure is not computed for table (or batch) ``t``, or None.

        Either ``t`` is outside the measure's ``domain`` (see DOMAINS), or the
        measure's ``limit`` says the computation would be too costly."""
        if self._outside_domain(t):
            return DOMAINS[self.domain]
        return self.limit(t) if self.limit else None

    def _outside_domain(self, t) -> bool:
        if self.domain == "integer":
            return not t.is_integer
        if self.domain == "counts":
            return not t.min_cell >= 1
        return False

    def applies_to(self, t) -> bool:
        return self.why_not(t) is None

    def goodness(self, value):
        """Map values (a number or an array) onto a common "goodness" scale in [0, 1],
        1 best, so measures of different ranges and directions share one axis.

        The map is monotone, so it keeps every measure's preferences; magnitudes are
        comparable only loosely. Over the measure's range [lo, hi] (or its
        ``goodness_range`` where set — the chance-corrected measures use [0, 1],
        so worse-than-chance values map to 0) it is linear: (v − lo)/(hi − lo),
        flipped for lower-is-better measures. A range unbounded above maps through
        v/(1 + v) (higher is better) or 1/(1 + v) (lower is better).
        """
        lo, hi = self.goodness_range or self.bounds
        v = np.clip(np.asarray(value, dtype=np.float64), lo, hi)
        if math.isinf(hi):
            shifted = v - lo
            with np.errstate(invalid="ignore"):
                up = np.where(np.isinf(shifted), 1.0, shifted / (1.0 + shifted))
            g = up if self.higher_is_better else 1.0 - up
        else:
            g = (v - lo) / (hi - lo)
            if not self.higher_is_better:
                g = 1.0 - g
        return float(g) if g.ndim == 0 else g

    @property
    def doc(self) -> str:
        """This measure's documentation (numpydoc): what ``help()`` shows, made from the metadata
        by the writer :mod:`metrics.measures.docs` hands over (its description until then)."""
        return _doc_writer(self) if _doc_writer is not None else self.description

    @property
    def higher_is_better(self) -> bool:
        return self.direction == "higher"

    @property
    def range_text(self) -> str:
        lo, hi = self.bounds

        def fmt(x):
            return "∞" if x == math.inf else "−∞" if x == -math.inf else f"{x:g}"

        return f"[{fmt(lo)}, {fmt(hi)}]".replace("[−∞", "(−∞").replace("∞]", "∞)")


class _MeasureDoc:
    """``Measure.__doc__``: the class's docstring on the class, each measure's own documentation
    (:attr:`Measure.doc`) on an instance — so ``help(MEASURES["vi"])`` documents VI."""

    def __init__(self, class_doc: str | None) -> None:
        self.class_doc = class_doc

    def __get__(self, obj: Measure | None, objtype: type | None = None) -> str | None:
        return self.class_doc if obj is None else obj.doc


Measure.__doc__ = _MeasureDoc(Measure.__doc__)  # type: ignore[assignment]

# How a measure is documented belongs to the measures layer (metrics.measures.docs), which sets
# this hook when it is imported: the registry stays below it and imports nothing of it.
_doc_writer: Callable[[Measure], str] | None = None


def set_doc_writer(writer: Callable[[Measure], str]) -> None:
    """Make ``writer(measure)`` the text of :attr:`Measure.doc` (and of ``help(measure)``)."""
    global _doc_writer
    _doc_writer = writer

MEASURES: dict[str, Measure] = {}

# Where a measure is defined. Fractional tables come from ambiguous data (fuzzy
# masses) and from generators' expected counts.
DOMAINS = {
    "any": "every table",
    "integer": "it needs integer counts (a hypergeometric model); this table has fractional cells",
    "counts": "it counts item pairs, C(x, 2), which needs every non-zero cell ≥ 1 "
              "(integer counts, or expected counts of at least one item); this table has cells below 1",
}


def register(key: str, *, name: str, symbol: str, family: str, direction: str,
             bounds: tuple[float, float], reference: str, formula: str, description: str,
             uses_log_base: bool = False, symmetric: bool = False, n_invariant: bool = True,
             sklearn: str | None = None, vectorized: bool = True, domain: str = "any",
             goodness_range: tuple[float, float] | None = None, limit: Callable | None = None,
             uses_beta: bool = False, beta_parts: tuple[Callable, Callable] | None = None,
             peers: dict[str, str] | None = None, range_note: str | None = None):
    """Decorator adding ``func(t, *, log_base, beta)`` to :data:`MEASURES` under ``key``.

    ``func`` reads the shared quantities of ``t`` — a Contingency or, when
    ``vectorized``, also a TableBatch — through the helpers of ``metrics.core.arith``.
    """
    if domain not in DOMAINS:
        raise ValueError(f"unknown domain {domain!r}")
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}")
    if direction not in ("higher", "lower"):
        raise ValueError(f"direction must be 'higher' or 'lower', got {direction!r}")
    if beta_parts is not None and not uses_beta:
        raise ValueError(f"{key}: beta_parts are for measures that use β (uses_beta=True)")

    def deco(func):
        if key in MEASURES:
            raise ValueError(f"measure {key!r} registered twice")
        MEASURES[key] = Measure(key, name, symbol, family, direction, bounds, reference, formula,
                                description, func, uses_log_base, symmetric, n_invariant, sklearn,
                                vectorized, domain, goodness_range, limit, uses_beta, beta_parts, peers,
                                range_note)
        return func

    return deco


def check_log_base(log_base) -> None:
    # Bases in (0, 1) are logarithms too, but make every information negative.
    if not (isinstance(log_base, (int, float)) and math.isfinite(log_base) and log_base > 1):
        raise ValueError(f"log_base must be a number above 1 (e.g. 2 for bits, e for nats), got {log_base!r}")


def check_beta(beta) -> None:
    if not (isinstance(beta, (int, float)) and math.isfinite(beta) and beta > 0):
        raise ValueError(f"beta must be a positive finite number, got {beta!r}")


def resolve(measures: Iterable[str] | str | None, t=None) -> list[Measure]:
    """The Measure objects for ``measures``; KeyError names unknown keys.

    ``None`` means every measure that applies to table ``t`` (all when t is None):
    fractional tables leave out AMI (integer counts only) and, when some cell is
    below 1, the pair-counting measures.
    """
    if measures is None:
        return [m for m in MEASURES.values() if t is None or m.applies_to(t)]
    if isinstance(measures, str):
        measures = [measures]
    keys = list(measures)
    unknown = [k for k in keys if k not in MEASURES]
    if unknown:
        raise KeyError(f"unknown measure key(s) {unknown}; known keys: {', '.join(MEASURES)}")
    return [MEASURES[k] for k in keys]


def evaluate(t: Contingency, measures: Iterable[str] | str | None = None, *,
             log_base: float = math.e, beta: float = 1.0) -> dict[str, float]:
    """Every measure (or the named ones) of table ``t``, as ``{key: value}``.

    The table's shared quantities are computed once and reused by every measure.
    With ``measures=None`` the measures that do not apply to ``t`` (see
    ``Measure.domain``: AMI on fractional tables, pair counts on cells below 1) are
    left out; naming one raises ``ValueError``.
    ``log_base`` sets the unit of the unnormalized information measures (e for nats,
    2 for bits); ``beta`` weighs completeness against homogeneity in V_β.
    """
    if not isinstance(t, Contingency):
        raise TypeError(f"evaluate takes a metrics.Contingency, got {type(t).__name__}; "
                        "build one with Contingency.from_labels or Contingency.from_table")
    check_log_base(log_base)
    check_beta(beta)
    return {m.key: m(t, log_base=log_base, beta=beta) for m in resolve(measures, t)}
