"""Several solutions read at once: a gold column and one label column per solution, on the same items.

:func:`metrics.compare_solutions` wants the gold labels and every solution's labels of the same
items, in the same order. Files give them in two layouts, and :func:`solution_columns` turns
either into that form under the reader's one missing-value rule (:mod:`metrics.io.read`):

* **one file** with a gold column and one column per solution (``gold, p1, p2, p3``): the
  columns share their rows;
* **one file per solution** (each with its label column), aligned with the gold file by row
  (equal lengths) or by an id column (each id once per file; rows in any order).

The items are the gold file's rows, in its order. An item is scored only when it has a gold
label and a label in *every* solution — the solutions must be compared on the same items, so
with ``dropna=True`` an item missing a label anywhere (or, by id, without a partner row in some
solution's file) is left out of all of them; without it, such items raise
:class:`~metrics.io.MissingSolutionLabelsError` (counts per solution, first rows of each file)
or :class:`~metrics.io.UnmatchedIdsError`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._lazy import lazy_module
from .errors import EmptyTableError, MissingSolutionLabelsError, UnmatchedIdsError
from .read import LabelColumns, _check_columns, missing_mask

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    pd = lazy_module("pandas")

__all__ = ["SolutionColumns", "solution_columns"]


@dataclass(frozen=True, eq=False)
class SolutionColumns:
    """Gold labels and one labeling per solution, for the same items in the same order.

    ``gold``: a Series of the gold labels as read; ``solutions``: a DataFrame with one column
    per solution (named as the solution); ``rows``: each item's 1-based data row in the gold
    file; ``left_out``: gold rows not scored (``dropna``: a missing label somewhere, or no
    partner id). ``compare_solutions(sc.gold, sc.solutions)`` scores them.
    """

    gold: pd.Series
    solutions: pd.DataFrame
    rows: np.ndarray
    left_out: int = 0

    @property
    def names(self) -> list[str]:
        return list(self.solutions.columns)

    def __len__(self) -> int:
        return len(self.gold)


def _unique_ids(lc: LabelColumns, id_col: str) -> tuple[pd.Series, np.ndarray]:
    """The id column and its missing mask; ``ValueError`` when an id repeats."""
    ids = lc.raw[id_col]
    missing = missing_mask(ids, lc.na_values)
    repeated = ids[~missing][ids[~missing].duplicated()]
    if len(repeated):
        raise ValueError(f"id column {id_col!r} is not unique in {lc.name}: {len(repeated):,} row(s) repeat an id "
                         f"(first {repeated.iloc[0]!r}); each item needs its own id")
    return ids, missing


def _check_finite(values: pd.Series, rows: np.ndarray, what: str, source: str) -> None:
    """Refuse ±inf among the labels read (a Parquet float column): like NaN it names no group,
    but it is not missing by the rule, so it is an error naming the data row, not a dropped item."""
    if pd.api.types.is_float_dtype(values.dtype):
        bad = np.isinf(values.to_numpy(dtype=np.float64)[rows])
    elif values.dtype == object:
        bad = np.fromiter((isinstance(v, float) and math.isinf(v) for v in values.iloc[rows]), bool, len(rows))
    else:
        return
    if bad.any():
        first = int(rows[np.flatnonzero(bad)[0]])
        raise ValueError(f"{what}: {source} has an infinite label ({values.iloc[first]}) at data row {first + 1:,}: "
                         "labels must be finite numbers or text")


def solution_columns(gold: LabelColumns, gold_col: str, solutions: Iterable[tuple[str, LabelColumns, str]], *,
                     id_col: str | None = None, dropna: bool = False) -> SolutionColumns:
    """The gold column and every solution's labels, aligned item by item (the module's rules).

    Parameters
    ----------
    gold
        The gold file, read by :func:`~metrics.io.read_labels` (its ``na_values`` apply).
    gold_col
        Its gold-class column.
    solutions
        ``(name, labels, column)`` per solution, in order: the solution's name, the file its
        labels are in (``gold`` itself for the one-file layout) and their column there.
    id_col
        Align the files by this column (present in each) instead of by row.
    dropna
        Leave out items with a missing label in gold or in any solution, or (by id) without a
        partner row in some file; otherwise they raise the errors below.

    Raises
    ------
    ValueError
        No solution, a name given twice, a column a file does not have, files of different
        lengths (by row) or a repeated id.
    metrics.io.UnmatchedIdsError
        By id, an item without a partner row in some file (without ``dropna``).
    metrics.io.MissingSolutionLabelsError
        A missing label in gold or in a solution (without ``dropna``).
    metrics.io.EmptyTableError
        No item is left.
    """
    solutions = [(str(name), lc, col) for name, lc, col in solutions]
    if not solutions:
        raise ValueError("no solution given: name at least one column or file of predicted clusters")
    names = [name for name, _, _ in solutions]
    repeated = [n for n in dict.fromkeys(names) if names.count(n) > 1]
    if repeated:
        raise ValueError(f"the solution name {repeated[0]!r} is given twice: give each solution its own name")
    extra = [id_col] if id_col is not None else []
    _check_columns(gold.columns, [gold_col, *extra], gold.name)
    for name, lc, col in solutions:
        _check_columns(lc.columns, [col, *extra], lc.name)
        if lc is gold and col == gold_col:
            raise ValueError(f"solution {name!r} is the gold column {gold_col!r} itself: name another column")

    n = len(gold)
    if id_col is None:
        for name, lc, _ in solutions:
            if len(lc) != n:
                raise ValueError(f"solution {name!r}: {lc.name} has {len(lc):,} rows but {gold.name} has {n:,}: files "
                                 "aligned by row must have the same length (or join them with an id column)")
        keep = np.ones(n, dtype=bool)
        positions = [np.arange(n)] * len(solutions)
    else:
        gold_ids, gold_no_id = _unique_ids(gold, id_col)
        keep = ~gold_no_id
        positions = []
        for _name, lc, _ in solutions:
            if lc is gold:
                positions.append(np.arange(n))
                continue
            ids, no_id = _unique_ids(lc, id_col)
            with_id = np.flatnonzero(~no_id)
            found = pd.Index(ids[~no_id]).get_indexer(gold_ids)  # a missing gold id matches nothing
            pos = np.where((found >= 0) & ~gold_no_id, with_id[np.maximum(found, 0)], -1)
            partnerless_gold = int((pos < 0).sum())
            partnerless_own = len(lc) - int((pos >= 0).sum())
            if (partnerless_gold or partnerless_own) and not dropna:
                raise UnmatchedIdsError(gold=partnerless_gold, pred=partnerless_own, id_col=id_col,
                                        gold_source=gold.name, pred_source=lc.name)
            keep &= pos >= 0
            positions.append(pos)

    # The missing-value rule on the rows that have partners everywhere, each in its own file.
    rows = np.flatnonzero(keep)
    gold_missing = missing_mask(gold.raw[gold_col], gold.na_values)[rows]
    own = [pos[rows] for pos in positions]
    missing = [missing_mask(lc.raw[col], lc.na_values)[p] for (_, lc, col), p in zip(solutions, own)]
    anywhere = gold_missing.copy()
    for m in missing:
        anywhere |= m
    if anywhere.any() and not dropna:
        raise MissingSolutionLabelsError(
            items=int(anywhere.sum()), gold=int(gold_missing.sum()), gold_rows=tuple(rows[gold_missing][:5] + 1),
            gold_source=gold.name, na_values=gold.na_values,
            solutions={name: (int(m.sum()), tuple(p[m][:5] + 1), lc.name)
                       for (name, lc, _), m, p in zip(solutions, missing, own)})
    if anywhere.any():
        rows, own = rows[~anywhere], [p[~anywhere] for p in own]
    _check_finite(gold.raw[gold_col], rows, "gold", gold.name)
    for (name, lc, col), p in zip(solutions, own):
        _check_finite(lc.raw[col], p, f"solution {name!r}", lc.name)
    if rows.size == 0:
        raise EmptyTableError("every row has a missing label or no partner and was left out" if n
                              else "there are no rows")
    gold_labels = gold.raw[gold_col].iloc[rows].reset_index(drop=True)
    frame = pd.DataFrame({name: lc.raw[col].iloc[p].reset_index(drop=True)
                          for (name, lc, col), p in zip(solutions, own)}, columns=names)
    return SolutionColumns(gold_labels, frame, rows + 1, left_out=n - int(rows.size))
