"""Predict, then reveal: the question each lesson step opens with.

A :class:`Question` holds the prompt, the choices, the right choice and why it is right. The
builders here take the numbers the step's chart draws (a preference table, a series along a
sweep, two values) and *derive* the right choice and its explanation from them, so the answer
can never disagree with the chart: change the data and the answer follows. Nothing here computes
a measure; the numbers come from ``metrics`` through the step.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

import metrics
from dashboard.compare.view import NA, TIE, A, B
from metrics.core.formatting import format_number as num

# The words of a trend along a sweep; "stays" within the tolerance of a float's residue.
RISES, STAYS, FALLS = "it grows", "it stays the same", "it falls"
TREND_TOL = 1e-9


@dataclass(frozen=True)
class Question:
    """What a step asks before it shows its chart.

    ``options`` are the choices (in the order shown), ``answer`` is one of them — the one the
    step's own numbers make right — and ``why`` (Markdown) says why, quoting those numbers.
    """

    prompt: str
    options: tuple[str, ...]
    answer: str
    why: str

    def __post_init__(self) -> None:
        if self.answer not in self.options:
            raise ValueError(f"the answer {self.answer!r} is not among the options {self.options!r}")

    def verdict(self, chosen: str | None) -> str:
        """One line on ``chosen`` (None: nobody answered — the teacher revealed)."""
        if chosen is None:
            return f"The answer: **{self.answer}**."
        if chosen == self.answer:
            return f"Right: **{self.answer}**."
        return f"Not quite — you chose *{chosen}*; the answer is **{self.answer}**."


def side_question(pref: pd.DataFrame, key: str, labels: dict[str, str], prompt: str) -> Question:
    """Which of two solutions the measure ``key`` prefers, answered by the preference table the
    step's chart draws (``dashboard.compare.view.preference_table``: the registry's direction,
    ties by ``metrics.solutions``). ``labels`` name the sides A and B."""
    row = pref.set_index("key").loc[key]
    symbol = metrics.MEASURES[key].symbol
    tie = "neither: a tie"
    options = (labels[A], labels[B], tie)
    better = "higher" if metrics.MEASURES[key].higher_is_better else "lower"
    values = f"{symbol} = {num(row['A'])} for {labels[A]}, {num(row['B'])} for {labels[B]} ({better} is better)"
    side = row["prefers"]
    if side in (A, B):
        return Question(prompt, options, labels[side], f"{values}: {symbol} prefers {labels[side]}.")
    if side == TIE:
        return Question(prompt, options, tie, f"{values}: {symbol} cannot tell them apart.")
    raise ValueError(f"{symbol} is not defined for one of the tables ({NA}); ask another question")


def trend(first: float, last: float, tol: float = TREND_TOL) -> str:
    """:data:`RISES`, :data:`STAYS` or :data:`FALLS` from the first to the last value of a sweep."""
    if math.isclose(first, last, rel_tol=tol, abs_tol=tol):
        return STAYS
    return RISES if last > first else FALLS


def trend_question(prompt: str, first: float, last: float, what: str) -> Question:
    """Whether a quantity grows, stays or falls along the step's sweep, from its first and last
    values (``what`` names the quantity and the sweep in the explanation)."""
    answer = trend(first, last)
    return Question(prompt, (RISES, STAYS, FALLS), answer,
                    f"{what}: from {num(first)} to {num(last)} — {answer.removeprefix('it ')}.")


def pick_question(prompt: str, values: dict[str, float], best: str, unit: str = "") -> Question:
    """Which of a few measures (symbol → value on the step's chart) scores highest (``best="max"``)
    or lowest (``"min"``); a tie for first place names all of them in one option."""
    if best not in ("max", "min"):
        raise ValueError(f"best must be 'max' or 'min', not {best!r}")
    target = max(values.values()) if best == "max" else min(values.values())
    winners = [s for s, v in values.items() if math.isclose(v, target, rel_tol=0, abs_tol=1e-12)]
    options = list(values)
    answer = winners[0] if len(winners) == 1 else " and ".join(winners)
    if len(winners) > 1:
        options = [s for s in options if s not in winners] + [answer]
    listed = "; ".join(f"{s} = {num(v)}{unit}" for s, v in values.items())
    return Question(prompt, tuple(options), answer,
                    f"{listed}: the {'highest' if best == 'max' else 'lowest'} is {answer}.")


def count_question(prompt: str, count: int, names: Sequence[str], what: str) -> Question:
    """How many of something there are (none, one, two, three, four or more), from the names found."""
    options = ("none", "one", "two", "three", "four or more")
    answer = options[min(count, len(options) - 1)]
    listed = f": {', '.join(names)}" if names else ""
    return Question(prompt, options, answer, f"{what} — {num(count)}{listed}.")
