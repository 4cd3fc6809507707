"""Gösgens, Tikhonov & Prokhorenkova's properties (ICML 2021) — what a cluster similarity index
should have — decided for every registered measure, each verdict with its evidence.

A is the gold classes (rows), B the clustering (columns), as in the authors' code
(``score(gt, candidate)``). A value v is read as an agreement g = v (higher is better) or g = −v
(lower is better). The properties, as decided here:

``max_agreement``
    ∃ c_max: g(A, B) ≤ c_max for all A, B, with equality iff A = B.
``min_agreement``
    ∃ c_min: g(A, B) ≥ c_min for all A, B, with equality iff one of A, B is one cluster and the other
    n singletons (n ≥ 2). (Where only the weaker reading holds — the opposite pairs share the minimum,
    other pairs reach it too — the verdict is no, and its detail says so.)
``symmetric``
    v(A, B) = v(B, A).
``distance``
    d = k·(c_max − g), for some k > 0, is a metric on the partitions of a set: maximal agreement,
    symmetry and the triangle inequality.
``local_monotonicity``
    A perfect split (a cluster divided without cutting a class) or a perfect merge (two clusters
    inside one class) strictly raises g — judged against non-trivial classes (1 < K < n), where the
    pair-counting indices are not 0/0 (this restriction is our reading of the paper's conventions).
``strong_monotonicity``
    For measures of the four pair counts only (else not applicable): g strictly increases with N11
    and N00 and strictly decreases with N10 and N01, the counts varied freely — judged where every
    count is at least 1 (a count at 0 meets each measure's 0/0 rule; the detail reports it).
``constant_baseline``
    ∃ c_base: E[v(A, B)] = c_base when B is drawn uniformly among the labelings with given cluster
    sizes (the permutation model), for all A and sizes with 1 < K, L < n.
``asymptotic_constant_baseline``
    E[v] under the permutation model tends to one value as n → ∞ along every sequence of
    non-trivial margins.

How each verdict is decided (:class:`~metrics.properties.gosgens_search.Verdict`, three kinds):

* ``"counterexample"`` — a search found one, and it is kept (``example``: the tables or labelings,
  margins or pair counts, and the values they give), so anyone can recompute it;
* ``"no_counterexample"`` — an exhaustive search over small cases (named in ``detail``: every pair of
  partitions of n ≤ 7 items, every triple of partitions of 5 items, every perfect split and merge,
  exact expectations for every non-trivial margin pair of n ≤ 7, four margin regimes for the
  asymptotic baseline) found none. **Not a proof**: shown as "yes?";
* ``"proof"`` — a reference or a written argument proves what the search could only fail to refute:
  :data:`~metrics.properties.gosgens_paper.PROOFS`, the affine-in-m argument for constant baselines,
  or the paper's table — **which is a reconstruction** (the paper's tables could not be read; see
  :mod:`~metrics.properties.gosgens_paper`). A reference never overrides a counterexample.

:func:`gosgens_disagreements` lists every cell where the searches disagree with that reconstructed
table, with the evidence.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pandas as pd

from ..core.limits import DEFAULT_BUDGET, check_budget, checked_budget
from ..core.registry import MEASURES, resolve
from . import gosgens_paper as paper
from .gosgens_baseline import asymptotic_checks, constant_baseline_checks
from .gosgens_search import (
    N_BASELINE,
    N_TRIANGLE,
    Verdict,
    agreement_checks,
    is_pair_counting,
    monotonicity_checks,
    strong_monotonicity_checks,
    triangle_checks,
)

__all__ = ["GOSGENS_PROPERTIES", "PROPERTY_DEFINITIONS", "Verdict", "gosgens_verdicts", "gosgens_properties",
           "gosgens_evidence", "gosgens_verdict", "gosgens_disagreements", "gosgens_seconds", "is_pair_counting"]

GOSGENS_PROPERTIES = ("max_agreement", "min_agreement", "symmetric", "distance", "local_monotonicity",
                      "strong_monotonicity", "constant_baseline", "asymptotic_constant_baseline")

#: Each property in one sentence, for tables and the app (the module docstring has the details).
PROPERTY_DEFINITIONS = {
    "max_agreement": "The best value is reached exactly when the two partitions are identical.",
    "min_agreement": "The worst value is reached exactly when one partition is a single cluster and the other "
                     "all singletons.",
    "symmetric": "Swapping classes and clusters leaves the value unchanged.",
    "distance": "Some positive multiple of (best value − value) is a metric: the triangle inequality holds.",
    "local_monotonicity": "Splitting a cluster without cutting a class, or merging two clusters of one class, "
                          "strictly improves the value.",
    "strong_monotonicity": "(Pair-counting measures) more pairs on which the partitions agree, or fewer on which "
                           "they disagree, strictly improve the value.",
    "constant_baseline": "The expected value against random labelings with the same sizes is one constant, "
                         "whatever the sizes.",
    "asymptotic_constant_baseline": "That expected value tends to one constant as the number of items grows.",
}

# The stages of a run, for progress(done, total).
_STAGES = ("agreement and symmetry", "triangle inequality", "local monotonicity", "strong monotonicity",
           "constant baseline", "asymptotic baseline")
# Seconds of one core: the exhaustive sets, then per measure (measured on the 61-measure registry:
# about 8 s in all on a shared 2-core machine).
_FIXED_SECONDS = 2.0
_PER_MEASURE_SECONDS = 0.15


def gosgens_seconds(measures: int) -> float:
    """Estimated seconds of one core of :func:`gosgens_verdicts` for ``measures`` measures (a count),
    the first time (the result is cached)."""
    return _FIXED_SECONDS + _PER_MEASURE_SECONDS * measures


def gosgens_verdicts(measures=None, *, budget=DEFAULT_BUDGET,
                     progress: Callable[[int, int], None] | None = None) -> dict[str, dict[str, Verdict]]:
    """``{key: {property: Verdict}}`` for the measures named (None: every registered one).

    Computed once per set of measures and kept for the process (the searches are deterministic: the
    Monte Carlo part of the asymptotic baseline is seeded). A first run estimated above ``budget``
    seconds of one core (default 30; None: no limit; :func:`gosgens_seconds`) is refused with a
    ``limits.CostError``; ``progress(done, total)`` is called after each of its six stages (a kept
    result reports all six at once). The Verdicts are frozen; the tables in their ``example`` are
    shared by every caller: copy one before changing it.
    """
    keys = tuple(m.key for m in resolve(measures))
    checked_budget(budget)
    with _LOCK:  # one search per set of measures, however many sessions ask at once
        if keys not in _RESULTS:
            check_budget(f"Gösgens et al.'s property searches for {len(keys)} measure(s)",
                         gosgens_seconds(len(keys)), budget, "fewer measures")
            _RESULTS[keys] = _search(keys, progress)
        elif progress is not None:
            progress(len(_STAGES), len(_STAGES))
        return _RESULTS[keys]


_LOCK = threading.Lock()
_RESULTS: dict[tuple[str, ...], dict[str, dict[str, Verdict]]] = {}


def _search(keys: tuple[str, ...], progress) -> dict[str, dict[str, Verdict]]:
    total = len(_STAGES)

    def step(done: int) -> None:
        if progress is not None:
            progress(done, total)

    agreement = agreement_checks(keys)
    step(1)
    distance = triangle_checks(keys, agreement, N_TRIANGLE)
    step(2)
    mono = monotonicity_checks(keys)
    step(3)
    strong = strong_monotonicity_checks(keys)
    step(4)
    baseline = constant_baseline_checks(keys, N_BASELINE)
    step(5)
    asymptotic = asymptotic_checks(keys, baseline)
    step(6)
    out = {k: {**agreement[k], "distance": distance[k], "local_monotonicity": mono[k],
               "strong_monotonicity": strong[k], "constant_baseline": baseline[k],
               "asymptotic_constant_baseline": asymptotic[k]} for k in keys}
    return {k: {p: _with_reference(k, p, v) for p, v in props.items()} for k, props in out.items()}


def _with_reference(key: str, prop: str, v: Verdict) -> Verdict:
    """A "no counterexample" upgraded to a proof only where a real reference proves it
    (:data:`gosgens_paper.PROOFS`). The reconstructed paper table is not a proof (its published
    version was never read): where it agrees, the verdict stays "no counterexample" and says so."""
    if v.kind != "no_counterexample":
        return v
    ref = paper.PROOFS.get((key, prop))
    if prop == "symmetric" and MEASURES[key].symmetric:
        ref = ref or "by its formula: swapping classes and clusters maps it to itself"
    if ref:
        return Verdict(True, "proof", f"{ref}; search: {v.detail}", v.example)
    rows = [row for row in paper.paper_rows_of(key)
            if paper.PAPER_TABLE[row][0][paper.PROPS.index(prop)] is True and prop not in paper.PAPER_TABLE[row][1]]
    if rows:
        return Verdict(v.holds, v.kind, f"{v.detail}; {paper.GOSGENS} agrees (row {', '.join(rows)}), "
                       "which is not a proof", v.example)
    return v


def _paper_cells(key: str) -> dict:
    """The reconstructed paper table's verdict per property for ``key``: a value only where every
    paper row mapped to ``key`` gives the same one (else None)."""
    cells: dict = {}
    for p in paper.PROPS:
        values = {paper.PAPER_TABLE[row][0][paper.PROPS.index(p)] for row in paper.paper_rows_of(key)}
        cells[p] = values.pop() if len(values) == 1 else None
    return cells


def gosgens_properties(measures=None, *, budget=DEFAULT_BUDGET,
                       progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """Measures × Gösgens et al.'s properties: pandas' nullable booleans (True, False, NA = not
    applicable), index the registry keys, columns :data:`GOSGENS_PROPERTIES`.

    True covers both "proved" and "no counterexample found by the exhaustive small-case search": the
    evidence (:func:`gosgens_evidence`) tells them apart. ``budget`` and ``progress`` as in
    :func:`gosgens_verdicts`."""
    verdicts = gosgens_verdicts(measures, budget=budget, progress=progress)
    frame = pd.DataFrame({p: [verdicts[k][p].holds for k in verdicts] for p in GOSGENS_PROPERTIES},
                         index=pd.Index(list(verdicts), name="measure"))
    return frame.astype("boolean")


def gosgens_evidence(measures=None, *, budget=DEFAULT_BUDGET,
                     progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """One row per measure and property: ``measure``, ``property``, ``holds`` (True/False/None),
    ``state`` ("yes (proved)", "yes? (no counterexample)", "no (counterexample)", "n/a"), ``kind``
    ("proof", "no_counterexample", "counterexample", "not_applicable"), ``detail`` (the reference or
    the search and what it found) and ``paper`` (the reconstructed paper table's verdict where it
    covers the measure, else None). The counterexamples' tables: :func:`gosgens_verdict`."""
    verdicts = gosgens_verdicts(measures, budget=budget, progress=progress)
    rows = []
    for key, props in verdicts.items():
        paper_cells = _paper_cells(key)
        for p in GOSGENS_PROPERTIES:
            v = props[p]
            rows.append({"measure": key, "property": p, "holds": v.holds, "state": v.state, "kind": v.kind,
                         "detail": v.detail, "paper": paper_cells.get(p)})
    return pd.DataFrame(rows, columns=["measure", "property", "holds", "state", "kind", "detail", "paper"])


def gosgens_verdict(key: str, prop: str) -> Verdict:
    """One verdict with its evidence, from the cached run over every registered measure."""
    if prop not in GOSGENS_PROPERTIES:
        raise ValueError(f"unknown property {prop!r}; known: {', '.join(GOSGENS_PROPERTIES)}")
    resolve([key])
    return gosgens_verdicts(None, budget=None)[key][prop]


def gosgens_disagreements(measures=None, *, budget=DEFAULT_BUDGET) -> pd.DataFrame:
    """Every cell where the searches disagree with the reconstructed paper table
    (:mod:`~metrics.properties.gosgens_paper`): ``row`` (the paper's index), ``measure``,
    ``property``, ``paper``, ``ours``, ``paper_unsure`` (a cell the reconstruction is least sure of)
    and ``detail`` (our evidence)."""
    verdicts = gosgens_verdicts(measures, budget=budget)
    return pd.DataFrame(paper.paper_disagreements(verdicts),
                        columns=["row", "measure", "property", "paper", "ours", "paper_unsure", "detail"])
