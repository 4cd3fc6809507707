"""Which of two solutions each measure prefers, and which measures disagree with the rest.

A preference reads the registry's ``direction`` only (higher or lower is better) through
:func:`metrics.solutions.prefers`, whose tie rule (:func:`metrics.solutions.ties`) keeps a printed
"0.6 = 0.6" a tie after floating-point rounding. A measure not defined for one of the tables (AMI on fractional
counts) prefers neither ("n/a"). Positions on the common scale come from ``Measure.goodness``.
"""

from __future__ import annotations

import math
from collections import Counter

import pandas as pd

import metrics
from dashboard.ui.readout import escape_markdown
from metrics import solutions

A, B, TIE, NA = "A", "B", "tie", "n/a"
# What "against the majority" (the shaded rows of the Compare chart) means, where it is shown.
DISAGREES_HELP = ("Against the majority: this measure prefers A where most of the measures you chose prefer B, or "
                  "the reverse (ties and measures not defined for a table do not vote). When the vote is split "
                  "evenly there is no majority, and every measure that takes a side is marked.")


_SIDES = {"a": A, "b": B, "tie": TIE, None: NA}


def prefers(key: str, a: float, b: float) -> str:
    """``"A"``, ``"B"``, ``"tie"``, or ``"n/a"`` when a value is missing (NaN)."""
    return _SIDES[solutions.prefers(key, a, b)]


def preference_table(values_a: dict[str, float], values_b: dict[str, float], keys: list[str]) -> pd.DataFrame:
    """One row per measure: values, goodness, the preferred solution, and whether the measure
    disagrees with the majority of the chosen measures (ties count for neither side)."""
    rows = []
    for k in keys:
        m = metrics.MEASURES[k]
        a, b = values_a.get(k, math.nan), values_b.get(k, math.nan)
        rows.append({"key": k, "measure": m.name, "symbol": m.symbol,
                     "better": "↑" if m.higher_is_better else "↓", "A": a, "B": b,
                     "goodness A": m.goodness(a), "goodness B": m.goodness(b), "prefers": prefers(k, a, b)})
    df = pd.DataFrame(rows, columns=["key", "measure", "symbol", "better", "A", "B", "goodness A", "goodness B",
                                     "prefers"])
    side, votes = majority(df), Counter(p for p in df["prefers"] if p in (A, B))
    # With no majority (a split vote) every side-taking measure is in dispute.
    df["disagrees"] = [p in (A, B) and ((side is None and len(votes) > 1) or (side is not None and p != side))
                       for p in df["prefers"]]
    return df


def majority(df: pd.DataFrame) -> str | None:
    """The side (A or B) most of the chosen measures prefer; None on a tie of votes or no vote.
    Ties and measures not defined for a table vote for neither side."""
    votes = Counter(p for p in df["prefers"] if p in (A, B))
    if not votes or votes[A] == votes[B]:
        return None
    return A if votes[A] > votes[B] else B


def verdict(df: pd.DataFrame, label_a: str, label_b: str) -> str:
    """A one-line Markdown summary: who prefers what."""
    by_side: dict[str, list[str]] = {A: [], B: [], TIE: [], NA: []}
    for symbol, side in zip(df["symbol"], df["prefers"]):
        by_side[side].append(symbol)
    names = {A: escape_markdown(label_a), B: escape_markdown(label_b)}
    by_side = {side: [escape_markdown(s) for s in symbols] for side, symbols in by_side.items()}
    parts = [f"**{', '.join(by_side[side])}** prefer{'s' if len(by_side[side]) == 1 else ''} {side} ({names[side]})"
             for side in (A, B) if by_side[side]]
    if by_side[TIE]:
        parts.append(f"**{', '.join(by_side[TIE])}** cannot tell them apart")
    if by_side[NA]:
        parts.append(f"**{', '.join(by_side[NA])}** is not defined for one of them")
    return "; ".join(parts) + "." if parts else "No measure chosen."
