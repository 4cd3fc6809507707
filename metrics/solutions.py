"""Many solutions at once: every measure's verdict on each, and where the measures disagree.

A user rarely has one clustering: five algorithms, k = 2…20, several seeds. This module scores
them all against one gold standard and compares the measures' verdicts:

- :func:`compare_solutions` — solutions × measures, the value of each measure on each
  solution's contingency table (rows gold classes, columns the solution's clusters);
- :func:`rank_solutions` — each solution's rank under each measure, 1 = best;
- :func:`rank_agreement` — measures × measures Kendall τ-b between their orderings of the
  solutions;
- :func:`changes_of_mind` — the pairs of solutions that two measures order oppositely;
- :func:`solution_matrix` — solutions × solutions for one symmetric measure, no gold needed
  (agreement between clusterings, e.g. runs with different seeds).

Orientation. Every ordering reads the registry's ``direction``: a measure where lower is
better (VI, Mirkin, …) ranks its smallest value first. So ``rand`` and ``mirkin``, whose values
move in opposite directions, order any set of solutions identically.

Ties. Two values within a relative ``TIE_RTOL`` (absolute ``TIE_ATOL`` near zero) of each other
are a tie (:func:`ties`; :func:`prefers` says which of two values a measure prefers) — the one rule
of every ordering here and of the dashboard's Compare page and Property checker. Mathematically equal
values computed from different tables (a relabelled solution, entropies summed in another
order) then stay equal instead of being ordered by a rounding residue; in the sorted values,
a run of values each within the tolerance of the next is one tie.

Missing values. A measure whose computation a table exceeds (its ``Measure.why_not``, e.g. the
exact matching of ε for ~10^5 classes and clusters sharing items) gets NaN for that solution;
the reason is kept in ``frame.attrs["why_not"]``. Orderings skip NaN: a pair of solutions with
a NaN under a measure is neither ranked nor counted by it.
"""

from __future__ import annotations

import cmath
import contextlib
import math
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

import numpy as np

from ._lazy import lazy_module
from .core.contingency import Contingency
from .core.labels import check_noise, sorted_codes
from .core.limits import COSTS, DEFAULT_BUDGET, Deadline, Progress, check_budget, checked_budget
from .core.registry import MEASURES, check_beta, check_log_base
from .measures.costs import evaluate_seconds

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    pd = lazy_module("pandas")

__all__ = ["compare_solutions", "rank_solutions", "rank_agreement", "changes_of_mind", "solution_matrix",
           "compare_seconds", "TIE_RTOL", "TIE_ATOL", "ties", "prefers"]

#: The tie rule: two values of a measure within this relative distance of each other are a tie …
TIE_RTOL = 1e-9
#: … or within this absolute distance, near zero.
TIE_ATOL = 1e-12

# Labels that are already compact non-negative integers are their own codes (the rule of
# Contingency.from_labels), so their rows keep the order from_labels would give them and
# the values equal metrics.evaluate(Contingency.from_labels(gold, s)) to the last digit.
_COMPACT_SLACK = 1024

# Solution pairs processed at once by rank_agreement: bounds its memory (measures × chunk).
_PAIR_CHUNK = 1 << 16

CHANGE_COLUMNS = ["measure_a", "measure_b", "solution_1", "solution_2",
                  "value_a_1", "value_a_2", "value_b_1", "value_b_2"]


# ---------------------------------------------------------------------- the tie rule
def ties(a: float, b: float) -> bool:
    """Whether two values of a measure are a tie: within a relative :data:`TIE_RTOL` of each other,
    or :data:`TIE_ATOL` near zero (equal infinities tie; NaN ties nothing)."""
    return math.isclose(a, b, rel_tol=TIE_RTOL, abs_tol=TIE_ATOL)


def prefers(measure: str, a: float, b: float) -> str | None:
    """Which of two values measure ``measure`` prefers, by its registered direction: ``"a"``,
    ``"b"``, ``"tie"`` (:func:`ties`), or None when either is NaN (not defined for that table)."""
    if math.isnan(a) or math.isnan(b):
        return None
    if ties(a, b):
        return "tie"
    return "a" if (a > b) == MEASURES[measure].higher_is_better else "b"


# ---------------------------------------------------------------------- input checks
def _measure_keys(measures) -> list[str]:
    if measures is None:
        return list(MEASURES)
    keys = [measures] if isinstance(measures, str) else list(measures)
    if not keys:
        raise ValueError("no measure chosen: pass measure keys (see metrics.MEASURES) or None for all")
    unknown = [k for k in keys if k not in MEASURES]
    if unknown:
        raise ValueError(f"unknown measure key(s) {unknown}; known keys: {', '.join(MEASURES)}")
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    if repeated:
        raise ValueError(f"measure key(s) {repeated} named more than once: name each measure once")
    return keys


def _collection(solutions) -> tuple[list, list]:
    """(names, labelings) of a mapping name → labels or a DataFrame of solution columns."""
    if isinstance(solutions, pd.DataFrame):
        names = list(solutions.columns)
        repeated = list(dict.fromkeys(solutions.columns[solutions.columns.duplicated()]))
        if repeated:
            raise ValueError(f"duplicate solution name(s) {repeated}: the DataFrame has several columns "
                             "with the same name; rename them so each solution has its own")
        labelings = [solutions.iloc[:, i] for i in range(solutions.shape[1])]
    elif isinstance(solutions, Mapping):
        names, labelings = list(solutions.keys()), list(solutions.values())
    else:
        raise ValueError(
            "solutions must be a mapping name → labels or a DataFrame whose columns are the solutions, "
            f"got {type(solutions).__name__}; name them, e.g. {{f'run {{i}}': labels for i, labels in "
            "enumerate(runs)}")
    if not names:
        raise ValueError("no solution given: pass at least one labeling (a mapping name → labels, "
                         "or a DataFrame with one column per solution)")
    return names, labelings


def _check_container(labels, what: str) -> None:
    """Refuse what cannot be one labeling, before any work (the items are checked later):
    containers whose iteration is not one label per item in item order."""
    if isinstance(labels, pd.DataFrame):
        raise ValueError(f"{what} must be one column of labels, got a DataFrame with {labels.shape[1]} "
                         "column(s): pass one of its columns")
    if isinstance(labels, np.ndarray) and labels.ndim != 1:
        raise ValueError(f"{what} must be 1-D labels, got an array of shape {labels.shape}")
    if isinstance(labels, (Mapping, AbstractSet)):
        raise ValueError(f"{what} is a {type(labels).__name__}, which has no one label per item in item "
                         "order: pass a list, array or Series of labels")
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
        raise ValueError(f"{what} must be a 1-D sequence of labels, got {type(labels).__name__}")


def _labels_array(labels, what: str) -> np.ndarray:
    _check_container(labels, what)
    if isinstance(labels, (pd.Series, pd.Index, pd.api.extensions.ExtensionArray)):
        arr = labels.to_numpy()
    elif isinstance(labels, np.ndarray):
        arr = labels
    elif hasattr(labels, "__array__") and not isinstance(labels, (list, tuple)):
        try:  # pyarrow, polars, xarray, CPU tensors: numpy's own conversion
            arr = np.asarray(labels)
        except (TypeError, ValueError, RuntimeError) as exc:
            raise ValueError(f"{what} could not be read as a numpy array ({exc}); pass labels in host "
                             "memory (a list, numpy array or Series)") from None
    else:
        seq = list(labels)
        if any(isinstance(x, (list, AbstractSet, Mapping, np.ndarray, pd.Series)) for x in seq):
            raise ValueError(f"{what} must be 1-D: it contains nested sequences (one label per item)")
        if seq and all(isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) for x in seq):
            try:
                return np.asarray(seq, dtype=np.int64)
            except OverflowError:
                pass
        return np.fromiter(seq, dtype=object, count=len(seq))
    if arr.ndim != 1:
        raise ValueError(f"{what} must be 1-D labels, got an array of shape {arr.shape}")
    return arr


def _codes(labels, what: str) -> np.ndarray:
    """One labeling as integer codes 0..k-1, factorized once in the one label order
    (:func:`metrics.core.labels.sorted_codes`); compact non-negative integers are their own codes,
    as in from_labels."""
    arr = _labels_array(labels, what)
    if arr.size == 0:
        raise ValueError(f"{what} holds no items")
    if arr.dtype.kind == "b":
        return arr.astype(np.int64)
    if arr.dtype.kind in "iu":
        lo, hi = int(arr.min()), int(arr.max())
        if lo >= 0 and hi < 2 * arr.size + _COMPACT_SLACK:
            return arr.astype(np.int64, copy=False)
    try:
        codes, uniques = sorted_codes(arr)
    except TypeError:
        raise ValueError(f"{what} has an unhashable label (labels must be hashable: tuples, not lists)") from None
    if codes.min() < 0:
        missing = np.flatnonzero(codes < 0)
        raise ValueError(f"{what} has {missing.size} missing label(s) (NaN/None), first at position "
                         f"{int(missing[0])}: drop or fill those items in gold and every solution")
    uniques = np.asarray(uniques)
    if uniques.dtype.kind in "fc":
        infinite = bool(np.isinf(uniques).any())
    else:
        infinite = uniques.dtype == object and any(
            isinstance(u, (float, complex, np.floating, np.complexfloating)) and cmath.isinf(u)
            for u in uniques)
    if infinite:
        raise ValueError(f"{what} has an infinite label (±inf), which names no group: drop or replace "
                         "those items in gold and every solution")
    return codes.astype(np.int64, copy=False)


def _length_mismatch(name, size: int, reference: str, ref_size: int) -> ValueError:
    return ValueError(f"solution {name!r} has {size:,} labels but {reference} has {ref_size:,}: every "
                      "solution must label the same items, in the same order")


def _check_lengths(names, labelings, reference: str, ref_size: int) -> list:
    """The labelings as sized sequences (iterators listed once), all of length ``ref_size``."""
    sized = []
    for name, labels in zip(names, labelings):
        _check_container(labels, f"solution {name!r}")
        labels = labels if hasattr(labels, "__len__") else list(labels)
        if len(labels) != ref_size:
            raise _length_mismatch(name, len(labels), reference, ref_size)
        sized.append(labels)
    return sized


def _frame_values(frame) -> tuple[list[str], np.ndarray]:
    """Measure keys and the float values of a solutions × measures frame."""
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"expected the DataFrame of compare_solutions (solutions × measures), "
                         f"got {type(frame).__name__}")
    keys = list(frame.columns)
    unknown = [k for k in keys if k not in MEASURES]
    if unknown:
        raise ValueError(f"column(s) {unknown} are not measure keys: pass the frame of compare_solutions "
                         "(columns are keys of metrics.MEASURES)")
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    if repeated:
        raise ValueError(f"measure column(s) {repeated} appear more than once")
    if frame.index.has_duplicates:
        repeated = list(dict.fromkeys(frame.index[frame.index.duplicated()]))
        raise ValueError(f"solution name(s) {repeated} appear more than once in the frame's index")
    try:
        values = frame.to_numpy(dtype=np.float64, na_value=np.nan)
    except (TypeError, ValueError):
        raise ValueError("the frame's values must be numbers (NaN where a measure is missing)") from None
    return keys, values


# ---------------------------------------------------------------------- cost guard
def _per_table_seconds(n: int, tables: list[Contingency], keys: list[str]) -> float:
    """Estimated seconds of one more table: counting n labels and the measures that apply to it
    (the mean over the sample ``tables``: the first, middle and last of the solutions)."""
    per = [evaluate_seconds(t, [k for k in keys if not MEASURES[k].why_not(t)]) for t in tables]
    return COSTS["label_item"] * n + (sum(per) / len(per) if per else 0.0)


def _sample_tables(rows, cols_of, count: int) -> list[Contingency]:
    """The tables of the first, middle and last of ``count`` pairs (``cols_of(i)`` the i-th's labels);
    a pair whose labels are refused is left out here (the loop over every pair names it)."""
    out = []
    for i in sorted({0, count // 2, count - 1}):
        with contextlib.suppress(ValueError):
            out.append(Contingency.from_labels(rows, cols_of(i)))
    return out


def compare_seconds(gold, solutions, measures=None) -> float:
    """Estimated seconds of one core of :func:`compare_solutions` with these arguments (the
    cost model of :mod:`metrics.core.limits`, applied to three of the solutions' tables)."""
    keys = _measure_keys(measures)
    names, labelings = _collection(solutions)
    gold_codes = _codes(gold, "gold")
    labelings = _check_lengths(names, labelings, "gold", gold_codes.size)
    tables = _sample_tables(gold_codes, lambda i: labelings[i], len(names))
    return len(names) * _per_table_seconds(gold_codes.size, tables, keys)


def _guard(what: str, count: int, n: int, tables: list[Contingency], keys: list[str], budget, advice: str) -> Deadline:
    budget = checked_budget(budget)
    if budget is not None:
        check_budget(what, count * _per_table_seconds(n, tables, keys), budget, advice)
    return Deadline(budget)


# ---------------------------------------------------------------------- scoring
def compare_solutions(gold, solutions, measures=None, log_base: float = math.e, beta: float = 1.0, *,
                      noise=None, noise_as: str = "cluster", progress: Progress | None = None,
                      budget=DEFAULT_BUDGET) -> pd.DataFrame:
    """Every measure of every solution against ``gold``: one row per solution, one column per measure.

    Parameters
    ----------
    gold : 1-D labels (array, Series, list) — each item's gold class.
    solutions : mapping name → labels, or a DataFrame whose columns are the solutions. Each
        labels the same items as ``gold``, in the same order.
    measures : measure keys (a key, a list of keys), or None for every registered measure.
    log_base, beta : as in :func:`metrics.evaluate`.
    noise, noise_as : the solutions' noise label (DBSCAN's −1) and its reading, as in
        ``Contingency.from_labels``; ``frame.attrs["noise"][solution]`` then holds each solution's
        ``{"count", "share", "coverage"}``.

    Returns
    -------
    DataFrame of floats, index the solution names in the given order (named ``"solution"``),
    columns the measure keys in the given (or registry) order (named ``"measure"``). Cell
    ``[s, k]`` is ``metrics.evaluate(Contingency.from_labels(gold, solutions[s]), [k])[k]``.

    A measure that is not computed for some solution's table (``Measure.why_not``: e.g. the
    exact matching of ε, or AMI's expected mutual information, beyond their budgets) gives
    NaN there rather than failing the whole comparison — named or not — and
    ``frame.attrs["why_not"][key][solution]`` says why. (Hard labels always give integer
    tables with cells ≥ 1, so every measure is *defined*.)

    ``gold`` is factorized once (its codes are what every table is built from); each solution
    is factorized by ``Contingency.from_labels``, whose checks it passes, and its table computes
    its shared quantities once for all measures.

    Raises ``ValueError`` for no solution, duplicate names, solutions whose length differs from
    gold's (naming the solution and both lengths), labels that are not 1-D, missing (NaN/None)
    or infinite labels, unknown or repeated measure keys, a bad ``log_base`` or ``beta``.

    Cost: each solution is counted (O(n)) and scored. The whole comparison's cost is estimated
    from three of the solutions' tables before the rest are scored (:func:`compare_seconds`);
    beyond ``budget`` seconds of one core (default 30; None: no limit) it is refused with a
    ``limits.CostError``, and a run that passes three times its budget is stopped.
    ``progress(done, total)`` is called after each solution.
    """
    keys = _measure_keys(measures)
    check_log_base(log_base)
    check_beta(beta)
    checked_budget(budget)
    check_noise(noise, noise_as)
    names, labelings = _collection(solutions)
    gold_codes = _codes(gold, "gold")
    labelings = _check_lengths(names, labelings, "gold", gold_codes.size)
    chosen = [MEASURES[k] for k in keys]
    noise_of: dict = {}
    values = np.full((len(names), len(keys)), np.nan)
    why_not: dict[str, dict] = {}
    deadline = None
    for i, (name, labels) in enumerate(zip(names, labelings)):
        try:  # from_labels checks the solution's labels (missing, infinite, nested, ...)
            table = Contingency.from_labels(gold_codes, labels, noise=noise, noise_as=noise_as)
            if noise is not None:
                noise_of[name] = {"count": table.noise_count, "share": table.noise_share, "coverage": table.coverage}
        except ValueError as exc:
            raise ValueError(f"solution {name!r}: {exc}") from None
        if deadline is None:  # the first table is counted: estimate the whole comparison
            sample = [table] + _sample_tables(gold_codes, lambda j: labelings[j], len(names))
            deadline = _guard(f"{len(names):,} solutions of {gold_codes.size:,} items, {len(keys)} measures",
                              len(names), gold_codes.size, sample, keys, budget,
                              "fewer solutions or measures (AMI and ε cost the most on large tables)")
        for j, m in enumerate(chosen):
            reason = m.why_not(table)
            if reason:
                why_not.setdefault(m.key, {})[name] = reason
            else:
                values[i, j] = m(table, log_base=log_base, beta=beta)
        if progress is not None:
            progress(i + 1, len(names))
        if i + 1 < len(names):
            deadline.check(f"comparing {len(names):,} solutions")
    frame = pd.DataFrame(values, index=pd.Index(names, name="solution", tupleize_cols=False),
                         columns=pd.Index(keys, name="measure"))
    frame.attrs["why_not"] = why_not
    if noise is not None:
        frame.attrs["noise"] = noise_of
    return frame


# ---------------------------------------------------------------------- orderings
def _tie_ranks(oriented: np.ndarray) -> np.ndarray:
    """Dense ranks (0 = best) of one measure's oriented values (larger = better), equal for
    values within the tie tolerance of each other; NaN stays NaN."""
    ranks = np.full(oriented.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(oriented))
    if ok.size == 0:
        return ranks
    order = ok[np.argsort(-oriented[ok], kind="stable")]
    x = oriented[order]
    scale = np.maximum(np.abs(x[1:]), np.abs(x[:-1]))
    with np.errstate(invalid="ignore"):  # inf − inf is NaN: equal infinities tie by ==
        gap = x[:-1] - x[1:]
        close = np.isfinite(gap) & (gap <= np.maximum(TIE_RTOL * scale, TIE_ATOL))
    new_group = ~(close | (x[:-1] == x[1:]))
    ranks[order] = np.concatenate([[0], np.cumsum(new_group)])
    return ranks


def _oriented_ranks(keys, values) -> np.ndarray:
    """(solutions, measures) dense tie-aware ranks, 0 = best under each measure's direction."""
    ranks = np.empty_like(values)
    for j, k in enumerate(keys):
        sign = 1.0 if MEASURES[k].higher_is_better else -1.0
        ranks[:, j] = _tie_ranks(sign * values[:, j])
    return ranks


def rank_solutions(frame: pd.DataFrame) -> pd.DataFrame:
    """Each solution's rank under each measure of a :func:`compare_solutions` frame.

    1 is best (the measure's registry ``direction`` decides which values are better); tied
    solutions (values within the tie tolerance) share the best rank of their group and the next
    group's rank skips past them (1, 2, 2, 4: "competition" ranking); NaN values stay NaN and
    rank nothing. Same index and columns as ``frame``, float values.
    """
    keys, values = _frame_values(frame)
    dense = _oriented_ranks(keys, values)
    out = np.full(values.shape, np.nan)
    for j in range(values.shape[1]):
        col = dense[:, j]
        ok = ~np.isnan(col)
        # Competition rank = 1 + number of solutions strictly better.
        out[ok, j] = 1 + (col[ok][None, :] < col[ok][:, None]).sum(axis=1)
    return pd.DataFrame(out, index=frame.index.copy(), columns=frame.columns.copy())


def _pair_signs(ranks: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """(measures, pairs): +1 where solution i is better than j, −1 worse, 0 tied or NaN."""
    with np.errstate(invalid="ignore"):
        s = np.sign(ranks[j, :] - ranks[i, :]).T
    return np.nan_to_num(s, nan=0.0)


def rank_agreement(frame: pd.DataFrame) -> pd.DataFrame:
    """Measures × measures Kendall τ-b between the orderings of the solutions in ``frame``.

    ``frame`` is a :func:`compare_solutions` result (columns measure keys). Each measure is
    oriented by its registry ``direction`` first, so τ = 1 means "prefers the same solutions",
    τ = −1 "exactly the opposite preferences", whatever the measures' scales.

    For measures a and b, over the solutions where both are defined (not NaN)::

        τ_b = (n_c − n_d) / √((n_0 − n_a)(n_0 − n_b))

    n_c, n_d: pairs of solutions ordered alike / oppositely; n_0: all pairs; n_a, n_b: pairs
    tied under a, under b (values within the tie tolerance are tied). A pair tied under one
    measure counts as neither concordant nor discordant. This is ``scipy.stats.kendalltau``'s
    τ-b on the oriented values.

    τ is undefined — NaN — when one of the two measures gives every solution (where both are
    defined) the same value, or when fewer than two solutions have both values; the diagonal
    is 1 for every measure that separates at least two solutions and NaN otherwise.
    ``result.attrs["why_undefined"][(a, b)]`` says why for each NaN (both orders).
    """
    keys, values = _frame_values(frame)
    ranks = _oriented_ranks(keys, values)
    valid = (~np.isnan(values)).astype(np.float64)
    n_sol, n_mes = values.shape
    num = np.zeros((n_mes, n_mes))
    untied = np.zeros((n_mes, n_mes))  # [a, b]: pairs untied under a, both solutions valid under b
    i_all, j_all = np.triu_indices(n_sol, k=1)
    for start in range(0, i_all.size, _PAIR_CHUNK):
        i, j = i_all[start:start + _PAIR_CHUNK], j_all[start:start + _PAIR_CHUNK]
        signs = _pair_signs(ranks, i, j)
        both_valid = (valid[i, :] * valid[j, :]).T
        num += signs @ signs.T
        untied += np.abs(signs) @ both_valid.T
    den = untied * untied.T
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = np.where(den > 0, num / np.sqrt(den), np.nan)
    tau = np.clip(tau, -1.0, 1.0)
    np.fill_diagonal(tau, np.where(np.diag(den) > 0, 1.0, np.nan))
    why: dict[tuple[str, str], str] = {}
    common = valid.T @ valid  # [a, b]: solutions defined under both
    for a, b in zip(*np.nonzero(np.isnan(tau))):
        ka, kb = keys[a], keys[b]
        if common[a, b] < 2:
            why[(ka, kb)] = f"fewer than two solutions have both {ka} and {kb}"
        else:
            flat = ka if untied[a, b] == 0 else kb
            why[(ka, kb)] = f"{flat} gives every solution the same value (no ordering to compare)"
    result = pd.DataFrame(tau, index=pd.Index(keys), columns=pd.Index(keys))
    result.attrs["why_undefined"] = why
    return result


def _measure_pairs(keys, measures) -> list[tuple[int, int]]:
    if measures is None:
        chosen = list(range(len(keys)))
    else:
        wanted = [measures] if isinstance(measures, str) else list(measures)
        if len(wanted) < 2:
            raise ValueError("name at least two measures to compare (a pair, or a list), or None for all")
        missing = [k for k in wanted if k not in keys]
        if missing:
            raise ValueError(f"measure(s) {missing} are not columns of the frame; its measures: {', '.join(keys)}")
        if len(set(wanted)) != len(wanted):
            raise ValueError(f"a measure is named more than once in {wanted}")
        chosen = [keys.index(k) for k in wanted]
    return [(a, b) for x, a in enumerate(chosen) for b in chosen[x + 1:]]


def changes_of_mind(frame: pd.DataFrame, measures=None) -> pd.DataFrame:
    """The pairs of solutions that two measures order oppositely ("where they change their minds").

    ``frame`` is a :func:`compare_solutions` result. ``measures``: None for every pair of its
    measures, or two (or more) keys for the pairs among them, taken in the given order.

    One row per (measure pair, solution pair) where ``measure_a`` rates ``solution_1`` better
    than ``solution_2`` and ``measure_b`` rates ``solution_2`` better than ``solution_1``
    (each by its registry direction), with both measures' values on both solutions:
    columns ``measure_a, measure_b, solution_1, solution_2, value_a_1, value_a_2, value_b_1,
    value_b_2`` (the first four ordered categoricals, categories in the frame's order, so
    sorting keeps it). These are exactly the discordant pairs of :func:`rank_agreement`: a
    pair tied under either measure (values within the tie tolerance), or NaN under either, is
    no change of mind. Rows follow the measure pairs' order, then the solutions' order in
    ``frame``.
    """
    keys, values = _frame_values(frame)
    pairs = _measure_pairs(keys, measures)
    ranks = _oriented_ranks(keys, values)
    i_all, j_all = np.triu_indices(len(frame.index), k=1)
    signs = _pair_signs(ranks, i_all, j_all)  # (measures, solution pairs)
    a_idx, b_idx, firsts, seconds = [], [], [], []
    for a, b in pairs:
        found = np.flatnonzero(signs[a] * signs[b] < 0)
        a_prefers_i = signs[a, found] > 0  # name measure a's favourite first
        firsts.append(np.where(a_prefers_i, i_all[found], j_all[found]))
        seconds.append(np.where(a_prefers_i, j_all[found], i_all[found]))
        a_idx.append(np.full(found.size, a))
        b_idx.append(np.full(found.size, b))
    a_at, b_at, first, second = (np.concatenate(x) if x else np.zeros(0, dtype=np.intp)
                                 for x in (a_idx, b_idx, firsts, seconds))
    # Categoricals (categories in the frame's order): cheap for millions of rows, and they
    # sort in the frame's order of measures and solutions.
    measure_cat = pd.CategoricalDtype(keys, ordered=True)
    solution_cat = pd.CategoricalDtype(list(frame.index), ordered=True)
    columns = (pd.Categorical.from_codes(a_at, dtype=measure_cat),
               pd.Categorical.from_codes(b_at, dtype=measure_cat),
               pd.Categorical.from_codes(first, dtype=solution_cat),
               pd.Categorical.from_codes(second, dtype=solution_cat),
               values[first, a_at], values[second, a_at], values[first, b_at], values[second, b_at])
    return pd.DataFrame(dict(zip(CHANGE_COLUMNS, columns)), columns=CHANGE_COLUMNS)


# ---------------------------------------------------------------------- solution vs solution
def solution_matrix(solutions, measure: str, *, log_base: float = math.e, beta: float = 1.0,
                    progress: Progress | None = None, budget=DEFAULT_BUDGET) -> pd.DataFrame:
    """Solutions × solutions: ``measure`` between every two solutions, no gold needed.

    How much clusterings agree with each other — e.g. the same algorithm over several seeds.
    ``measure`` must be symmetric (registry ``symmetric``: the same value whichever of the two
    plays gold, e.g. ``ari``, ``nmi_arithmetic``, ``vi``); a direction-dependent measure such as
    homogeneity would need an arbitrary choice of which solution is the reference, so it is
    refused with a ``ValueError`` listing the symmetric ones.

    Cell ``[r, c]`` is the measure of ``Contingency.from_labels(solutions[r], solutions[c])``,
    computed once for r ≤ c (the earlier solution as rows) and mirrored, so the matrix is
    exactly symmetric. The diagonal (each solution against itself) is computed like every
    other cell; it is the best value of its row and column (1 for the normalized measures, 0
    for the distances; for mutual information the solution's entropy H, which bounds its row).
    Each solution is factorized once. NaN where the table is beyond the measure's budget,
    with the reason in ``result.attrs["why_not"][r][c]``.

    Raises ``ValueError`` for no solution, duplicate names, different lengths, bad labels,
    an unknown or non-symmetric measure, a bad ``log_base`` or ``beta``. ``budget`` and
    ``progress`` (after each row) as in :func:`compare_solutions`, for the S(S + 1)/2 tables.
    """
    if not isinstance(measure, str) or measure not in MEASURES:
        raise ValueError(f"unknown measure {measure!r}; known keys: {', '.join(MEASURES)}")
    m = MEASURES[measure]
    if not m.symmetric:
        symmetric = [k for k, x in MEASURES.items() if x.symmetric]
        raise ValueError(f"{measure} is not symmetric (its value changes when the two solutions swap roles), "
                         f"so a solution-vs-solution matrix has no single value per cell; symmetric measures: "
                         f"{', '.join(symmetric)}")
    check_log_base(log_base)
    check_beta(beta)
    checked_budget(budget)
    names, labelings = _collection(solutions)
    _check_container(labelings[0], f"solution {names[0]!r}")
    if not hasattr(labelings[0], "__len__"):
        labelings[0] = list(labelings[0])
    labelings = _check_lengths(names, labelings, f"solution {names[0]!r}", len(labelings[0]))
    codes = [_codes(x, f"solution {name!r}") for name, x in zip(names, labelings)]
    size = len(names)
    pairs = size * (size + 1) // 2
    deadline = _guard(f"a {size:,} × {size:,} matrix of {measure} ({pairs:,} tables of {len(codes[0]):,} items)",
                      pairs, len(codes[0]), _sample_tables(codes[0], lambda i: codes[i], size), [measure], budget,
                      "fewer solutions")
    values = np.full((size, size), np.nan)
    why_not: dict = {}
    for r in range(size):
        if progress is not None:
            progress(r, size)
        if r:
            deadline.check(f"the {size:,} × {size:,} matrix of {measure}")
        for c in range(r, size):
            table = Contingency.from_labels(codes[r], codes[c])
            reason = m.why_not(table)
            if reason:
                why_not.setdefault(names[r], {})[names[c]] = reason
                why_not.setdefault(names[c], {})[names[r]] = reason
            else:
                values[r, c] = values[c, r] = m(table, log_base=log_base, beta=beta)
    if progress is not None:
        progress(size, size)
    index = pd.Index(names, tupleize_cols=False)
    result = pd.DataFrame(values, index=index, columns=index.copy())
    result.attrs["why_not"] = why_not
    return result
