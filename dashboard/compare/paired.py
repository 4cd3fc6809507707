"""Is A really better than B? On the Compare page, the paired bootstrap (``metrics.paired_bootstrap``)
beside each measure's verdict, where both sides are uploaded labels of the same items; otherwise
one line on why there is no interval, and how to get one.

A bootstrap resamples items, so it needs each item's cluster in A and in B: two contingency tables
(presets, the Table lab's table, an uploaded table) do not say which item is in which cell. Two
uploads are paired row by row when their gold columns agree row by row (the same file uploaded on
both sides, A's column on one and B's on the other, or two files listing the same items in the
same order). Computed by ``metrics``, cached by parameters (the labels as integer codes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from dashboard.solutions.significance import BUDGET, CONFIDENCE, RESAMPLES, SEED
from dashboard.ui.noise import READING_NAMES
from dashboard.ui.readout import escape_markdown, format_number, show_frame
from dashboard.ui.sources import Solution
from metrics.core.labels import noise_mask
from metrics.core.limits import CostError

NOISE_CODE = -1
HOW = ("To get one, choose \"Upload labels…\" on both sides with the same items: one file holding a gold column and "
       "A's and B's cluster columns (upload it on both sides, A's column on one, B's on the other), or two files "
       "whose gold columns list the same items in the same order.")


@dataclass(frozen=True)
class Paired:
    """Both solutions' clusters of the same items, as integer codes (noise items ``NOISE_CODE``
    where they are read as singletons), with the reading to pass to the bootstrap."""

    gold: np.ndarray
    a: np.ndarray
    b: np.ndarray
    noise: int | None
    noise_as: str


def _values(labels) -> np.ndarray:
    return pd.Series(labels).astype(object).to_numpy()


def _codes(labels, noise, reading: str) -> np.ndarray:
    values = _values(labels)
    codes = pd.factorize(values)[0].astype(np.int64)
    if noise is not None and reading == "singletons":
        codes[noise_mask(values, noise)] = NOISE_CODE
    return codes


def pairing(a: Solution, b: Solution) -> Paired | str:
    """The two solutions' labels of the same items, or why they cannot be paired (Markdown, one
    line, with what to do)."""
    tables = [side for side, sol in (("A", a), ("B", b)) if sol.items is None]
    if tables:
        which = ("A and B are contingency tables, which do" if len(tables) == 2
                 else f"{tables[0]} is a contingency table, which does")
        return (f"No bootstrap interval: {which} not say which item is in which cell, so A's and B's clusters of "
                f"the same item cannot be paired. {HOW}")
    ia, ib = a.items, b.items
    assert ia is not None and ib is not None
    for side, items in (("A", ia), ("B", ib)):
        if items.left_out:
            return (f"No bootstrap interval: {format_number(items.left_out)} row(s) of {side}'s file with a missing "
                    "label were left out, so A and B may not hold the same items. Fill in the missing labels, or "
                    "untick 'Leave out rows with a missing label' and fix the rows it names.")
    if len(ia.gold) != len(ib.gold):
        return (f"No bootstrap interval: A's labels have {format_number(len(ia.gold))} rows and B's "
                f"{format_number(len(ib.gold))}, so they are not the same items. {HOW}")
    differ = np.flatnonzero(_values(ia.gold) != _values(ib.gold))
    if differ.size:
        return (f"No bootstrap interval: A's and B's gold columns differ in {format_number(differ.size)} row(s), "
                f"first at data row {format_number(differ[0] + 1)}, so their rows are not the same items. {HOW}")
    readings = {side: items.noise_as for side, items in (("A", ia), ("B", ib)) if items.noise is not None}
    if "exclude" in readings.values():
        return ("No bootstrap interval: with noise items left out, A and B are scored on different items, so their "
                "difference cannot be resampled item by item. Read the noise as one cluster or as singletons.")
    if len(set(readings.values())) > 1:
        return (f"No bootstrap interval: A's noise items are read as {READING_NAMES[readings['A']]} and B's as "
                f"{READING_NAMES[readings['B']]}; a paired bootstrap reads both alike: choose the same reading.")
    reading = next(iter(readings.values()), "cluster")
    return Paired(_codes(ia.gold, None, reading), _codes(ia.pred, ia.noise, reading),
                  _codes(ib.pred, ib.noise, reading), NOISE_CODE if reading == "singletons" else None, reading)


@st.cache_data(max_entries=16, show_spinner="Resampling the items …")
def bootstrap(gold: np.ndarray, a: np.ndarray, b: np.ndarray, keys: tuple[str, ...], log_base: float, beta: float,
              noise: int | None, noise_as: str) -> pd.DataFrame | str:
    """``metrics.paired_bootstrap`` of the paired labels, or why it is not computed, in the page's words."""
    try:
        return metrics.paired_bootstrap(gold, a, b, list(keys), n_resamples=RESAMPLES, confidence=CONFIDENCE,
                                        seed=SEED, log_base=log_base, beta=beta, noise=noise, noise_as=noise_as,
                                        budget=BUDGET)
    except CostError as exc:
        return (f"The bootstrap of these two solutions would take about {exc.seconds:.2g} s of computing, over this "
                f"server's limit of {BUDGET:g} s: choose fewer measures (the AMI family costs the most).")
    except ValueError as exc:
        return f"The bootstrap is not computed: {exc}."


def interval_frame(pref: pd.DataFrame, boot: pd.DataFrame) -> pd.DataFrame:
    """The preference table's verdicts with, beside each, the bootstrap's difference (A − B, positive
    when A is better), interval, p-value and whether the difference is real (n/a: not computed)."""
    out = pref[["key", "symbol", "better", "A", "B", "prefers"]].copy()
    rows = boot.reindex(out["key"])
    for column, source in (("difference", "difference"), ("low", "low"), ("high", "high"), ("p-value", "p_value")):
        out[column] = rows[source].to_numpy(dtype=float)
    out["real?"] = ["n/a" if pd.isna(s) else ("yes" if s else "no") for s in rows["significant"]]
    return out.drop(columns="key")


def show_intervals(a: Solution, b: Solution, pref: pd.DataFrame, log_base: float, beta: float) -> None:
    """The verdicts with their bootstrap intervals, or one line on why there are none."""
    st.markdown("**Is the difference real?** Each verdict with its paired bootstrap interval")
    paired = pairing(a, b)
    if isinstance(paired, str):
        st.info(paired)
        return
    keys = tuple(k for k in pref["key"] if metrics.MEASURES[k].applies_to(a.table)
                 and metrics.MEASURES[k].applies_to(b.table))
    boot = bootstrap(paired.gold, paired.a, paired.b, keys, log_base, beta, paired.noise, paired.noise_as)
    if isinstance(boot, str):
        st.warning(escape_markdown(boot))
        return
    show_frame(interval_frame(pref, boot), key="cmp_boot", columns=["A", "B", "difference", "low", "high", "p-value"],
               sortable=False, hide_index=True, width="stretch")
    st.caption(f"Paired row by row: {escape_markdown(a.items.source if a.items else '')} (A) and "
               f"{escape_markdown(b.items.source if b.items else '')} (B). *difference*: A − B, turned so that "
               f"positive means A is better (B − A for ↓ measures); *low*–*high*: the {CONFIDENCE:.0%} percentile "
               f"interval of the difference over {format_number(RESAMPLES)} resamples of the "
               f"{format_number(len(paired.gold))} items (seed {SEED}); *p-value*: two-sided, for 'no difference'; "
               "*real?*: yes when the interval leaves out 0. The bootstrap sees the uncertainty of the sample of "
               "items, not of the algorithm's own randomness.")
