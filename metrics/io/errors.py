"""Errors of the reader that each interface words in its own terms.

A ``ValueError`` from :mod:`metrics.io` says what is wrong and what to do. Three problems have a
remedy that depends on where the user is — a keyword argument in Python, an option on the
command line, a control in the app — so they carry their facts as attributes and offer the
interface-neutral part of the message as :meth:`describe`. Their ``str()`` is the library's
wording (it may name keyword arguments); the command line and the app catch them and add their
own advice (``--dropna``; "Leave out rows with a missing label").
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["MissingLabelsError", "MissingSolutionLabelsError", "UnmatchedIdsError", "EmptyTableError", "NO_ITEMS",
           "rows_text"]

#: The one sentence for a table without items, in every interface.
NO_ITEMS = "the table holds no items"


def rows_text(rows: Sequence[int], total: int | None = None) -> str:
    """``data row 3`` / ``data rows 2, 5, 9`` (first few, 1-based), ``…`` when more exist."""
    rows = list(rows)
    if not rows:
        return ""
    more = total is not None and total > len(rows)
    shown = ", ".join(f"{r:,}" for r in rows) + (", …" if more else "")
    return f"data row{'s' if len(rows) > 1 or more else ''} {shown}"


def _what_is_missing(na_values: Sequence[str]) -> str:
    if not na_values:
        return "an empty cell"
    texts = ", ".join(repr(v) for v in na_values[:6]) + (", …" if len(na_values) > 6 else "")
    return f"an empty cell or a text treated as missing ({texts})"


class MissingLabelsError(ValueError):
    """Items whose gold or predicted label is missing, while they may not be dropped.

    Attributes
    ----------
    items : int
        Items with a missing label on either side.
    gold, pred : int
        Items whose gold (resp. predicted) label is missing.
    gold_rows, pred_rows : tuple[int, ...]
        The first few (at most :attr:`SHOWN`) 1-based data rows with a missing gold
        (resp. predicted) label, counted in the source of that label (header excluded,
        shards in order).
    gold_source, pred_source : str
        Where the labels come from (file names), for messages; equal for one file.
    na_values : tuple[str, ...]
        The texts that were treated as missing besides empty cells.
    """

    SHOWN = 5

    def __init__(self, *, items: int, gold: int, pred: int, gold_rows: Sequence[int] = (),
                 pred_rows: Sequence[int] = (), gold_source: str = "", pred_source: str = "",
                 na_values: Sequence[str] = ()):
        self.items, self.gold, self.pred = int(items), int(gold), int(pred)
        self.gold_rows = tuple(int(r) for r in gold_rows)[: self.SHOWN]
        self.pred_rows = tuple(int(r) for r in pred_rows)[: self.SHOWN]
        self.gold_source, self.pred_source = gold_source, pred_source
        self.na_values = tuple(na_values)
        super().__init__(self.describe() + ": pass dropna=True to leave those items out, or fill in the labels"
                         + (" (or pass fewer na_values)" if self.na_values else ""))

    def describe(self, gold_word: str = "gold", pred_word: str = "pred") -> str:
        """The facts, in words every interface can use: counts, what counted as missing, rows."""
        head = (f"{self.items:,} item(s) have a missing label ({gold_word}: {self.gold:,}, {pred_word}: {self.pred:,}"
                f"; {_what_is_missing(self.na_values)})")
        return f"{head}, first at {self.where(gold_word, pred_word)}" if self.gold_rows or self.pred_rows else head

    def where(self, gold_word: str = "gold", pred_word: str = "pred") -> str:
        """``data rows 2, 5 of x.csv`` — or, for two sources, the rows of each."""
        if self.gold_source == self.pred_source:
            rows = sorted(set(self.gold_rows) | set(self.pred_rows))[: self.SHOWN]
            text = rows_text(rows, self.items)
            return f"{text} of {self.gold_source}" if self.gold_source else text
        parts = []
        for word, side_rows, total, source in ((gold_word, self.gold_rows, self.gold, self.gold_source),
                                               (pred_word, self.pred_rows, self.pred, self.pred_source)):
            if side_rows:
                parts.append(f"{rows_text(side_rows, total)} of {source or 'the ' + word + ' labels'} ({word})")
        return " and ".join(parts)


class MissingSolutionLabelsError(MissingLabelsError):
    """Missing labels when several solutions are read at once (:func:`metrics.io.solution_columns`).

    A :class:`MissingLabelsError` (so every interface that words one words this one too), whose
    facts name each solution: ``gold``, ``gold_rows`` and ``gold_source`` as there, and
    ``solutions`` — for each solution with a missing label, by name, ``(items, first 1-based data
    rows of its own source, that source)``. ``items`` counts the items with a missing label in
    gold or in any solution; ``pred``/``pred_rows``/``pred_source`` repeat the first such solution's.
    """

    def __init__(self, *, items: int, gold: int, gold_rows: Sequence[int] = (), gold_source: str = "",
                 solutions: dict | None = None, na_values: Sequence[str] = ()):
        self.solutions = {str(name): (int(count), tuple(int(r) for r in rows)[: self.SHOWN], str(source))
                          for name, (count, rows, source) in (solutions or {}).items() if count}
        first = next(iter(self.solutions.values()), (0, (), gold_source))
        super().__init__(items=items, gold=gold, pred=first[0], gold_rows=gold_rows, pred_rows=first[1],
                         gold_source=gold_source, pred_source=first[2], na_values=na_values)

    def describe(self, gold_word: str = "gold", pred_word: str = "pred") -> str:
        """As :meth:`MissingLabelsError.describe`, with a count per solution (by its name) instead
        of one ``pred_word`` count: ``3 item(s) have a missing label (gold: 1, p2: 2; an empty cell),
        first at data rows 2, 5 of x.csv``."""
        counts = ", ".join([f"{gold_word}: {self.gold:,}"] + [f"{name}: {count:,}" for name, (count, _, _)
                                                               in self.solutions.items()])
        head = f"{self.items:,} item(s) have a missing label ({counts}; {_what_is_missing(self.na_values)})"
        where = self.where(gold_word)
        return f"{head}, first at {where}" if where else head

    def where(self, gold_word: str = "gold", pred_word: str = "pred") -> str:
        """``data rows 2, 5 of x.csv`` when every label comes from one file; else the rows of each
        source, named: ``data row 4 of gold.csv (gold) and data row 2 of p2.csv (p2)``."""
        parts = ([(gold_word, self.gold_rows, self.gold, self.gold_source)] if self.gold_rows else []) + [
            (name, rows, count, source) for name, (count, rows, source) in self.solutions.items() if rows]
        if not parts:
            return ""
        if len({source for _, _, _, source in parts}) == 1:
            rows = sorted({r for _, rs, _, _ in parts for r in rs})[: self.SHOWN]
            text = rows_text(rows, self.items)
            return f"{text} of {parts[0][3]}" if parts[0][3] else text
        return " and ".join(f"{rows_text(rows, count)} of {source or 'the labels'} ({name})"
                            for name, rows, count, source in parts)

class UnmatchedIdsError(ValueError):
    """Rows of two sources joined by an id that have no partner on the other side.

    ``gold``/``pred``: how many rows of each source have no partner (a missing id counts as no
    partner); ``id_col``: the id column; ``gold_source``/``pred_source``: names for messages.
    """

    def __init__(self, *, gold: int, pred: int, id_col: str, gold_source: str, pred_source: str):
        self.gold, self.pred, self.id_col = int(gold), int(pred), id_col
        self.gold_source, self.pred_source = gold_source, pred_source
        super().__init__(self.describe() + ": pass dropna=True to leave them out")

    def describe(self) -> str:
        return (f"{self.gold:,} row(s) of {self.gold_source} and {self.pred:,} row(s) of {self.pred_source} have no "
                f"partner with the same {self.id_col!r} (or a missing id)")


class EmptyTableError(ValueError):
    """A table without items: :data:`NO_ITEMS`, and why (``reason``) when known.

    Library code may still build such a table on purpose (``Contingency.from_table`` of zeros
    is allowed and every measure has a documented value for n = 0); the readers refuse it,
    because a file that yields no items is a mistake worth a clear message, not a perfect score.
    """

    def __init__(self, reason: str = "", source: str = ""):
        self.reason, self.source = reason, source
        text = f"{source}: {NO_ITEMS}" if source else NO_ITEMS
        super().__init__(f"{text} ({reason})" if reason else text)
