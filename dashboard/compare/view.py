"""Which of two solutions each measure prefers.

A preference reads the registry's ``direction`` only (higher or lower is better) through
:func:`metrics.solutions.prefers`, whose tie rule (:func:`metrics.solutions.ties`) keeps a printed
"0.6 = 0.6" a tie after floating-point rounding. A measure not defined for one of the tables (AMI on fractional
counts) prefers neither ("n/a"). Positions on the common scale come from ``Measure.goodness``.
"""

from __future__ import annotations

import math

import pandas as pd

import metrics
from dashboard.ui.readout import escape_markdown
from metrics import solutions

A, B, TIE, NA = "A", "B", "tie", "n/a"
# What the tinted rows of the Compare chart mean, where they are shown. No vote: a count of measures on each
# side is not a verdict (Wu et al. show VD_n and VI_n right about the uniform effect where most measures are
# wrong), so the chart groups the measures by their side and marks none of them as the odd one out.
SIDES_HELP = ("Each row is tinted by the solution its measure prefers (none: a tie, or a measure not defined for "
              "one of the tables). The tint groups the measures; it does not judge them: how many measures side "
              "with A or with B says nothing about which is right — the papers argue that case by case (the "
              "lesson's step 4: on the uniform effect VD_n and VI_n are right, and purity, entropy and mutual "
              "information, the larger group there, are fooled).")


_SIDES = {"a": A, "b": B, "tie": TIE, None: NA}


def prefers(key: str, a: float, b: float) -> str:
    """``"A"``, ``"B"``, ``"tie"``, or ``"n/a"`` when a value is missing (NaN)."""
    return _SIDES[solutions.prefers(key, a, b)]


def preference_table(values_a: dict[str, float], values_b: dict[str, float], keys: list[str]) -> pd.DataFrame:
    """One row per measure: values, goodness and the preferred solution (:func:`prefers`)."""
    rows = []
    for k in keys:
        m = metrics.MEASURES[k]
        a, b = values_a.get(k, math.nan), values_b.get(k, math.nan)
        rows.append({"key": k, "measure": m.name, "symbol": m.symbol,
                     "better": "↑" if m.higher_is_better else "↓", "A": a, "B": b,
                     "goodness A": m.goodness(a), "goodness B": m.goodness(b), "prefers": prefers(k, a, b)})
    return pd.DataFrame(rows, columns=["key", "measure", "symbol", "better", "A", "B", "goodness A", "goodness B",
                                       "prefers"])


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
