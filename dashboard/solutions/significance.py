"""The Solutions page's two "how sure" views: whether two solutions' difference survives resampling
the items (``metrics.paired_bootstrap``), and an upload's noise items under the three readings
(``metrics.compare_solutions(noise=, noise_as=)``). Computed by ``metrics``, cached by parameters.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from dashboard.compare.view import prefers
from dashboard.solutions.views import HASH, SolutionSet, symbol
from dashboard.ui.noise import READING_NAMES
from metrics.core.labels import NOISE_READINGS, noise_mask
from metrics.core.limits import CostError

RESAMPLES = 1000
CONFIDENCE = 0.95
# Seconds of one core a bootstrap may cost on the shared server (metrics.core.limits' budget).
BUDGET = 10.0
SEED = 0


@st.cache_resource(max_entries=32, show_spinner="Resampling the items …", hash_funcs=HASH)
def bootstrap(sset: SolutionSet, keys: tuple[str, ...], a: str, b: str, log_base: float,
              beta: float) -> pd.DataFrame | str:
    """``metrics.paired_bootstrap`` of solutions ``a`` and ``b`` (the set's noise reading applied),
    or why it is not computed, in the page's words."""
    if sset.noise is not None and sset.noise_as == "exclude":
        return ("With noise items left out, A and B are scored on different items, so their difference cannot be "
                "resampled item by item: read the noise as one cluster or as singletons to bootstrap it.")
    try:
        return metrics.paired_bootstrap(sset.gold, sset.solutions[a], sset.solutions[b], list(keys),
                                        n_resamples=RESAMPLES, confidence=CONFIDENCE, seed=SEED, log_base=log_base,
                                        beta=beta, noise=sset.noise, noise_as=sset.noise_as, budget=BUDGET)
    except CostError as exc:
        return (f"The bootstrap of these two solutions would take about {exc.seconds:.2g} s of computing, over this "
                f"server's limit of {BUDGET:g} s: choose fewer measures (the AMI family costs the most).")
    except ValueError as exc:
        return f"The bootstrap is not computed: {exc}."


def verdict_frame(boot: pd.DataFrame) -> pd.DataFrame:
    """One row per measure: its verdict (which solution it prefers) and, beside it, the bootstrap's
    difference, interval and p-value, and whether the difference is real at that confidence."""
    rows = []
    for key, r in boot.iterrows():
        m = metrics.MEASURES[key]
        side = prefers(key, r["score_a"], r["score_b"])
        real = None if pd.isna(r["significant"]) else bool(r["significant"])
        rows.append({"measure": symbol(key), "better": "↑" if m.higher_is_better else "↓",
                     "A": r["score_a"], "B": r["score_b"], "prefers": side, "difference": r["difference"],
                     "low": r["low"], "high": r["high"], "p-value": r["p_value"],
                     "real?": "n/a" if real is None else ("yes" if real else "no")})
    return pd.DataFrame(rows)


@st.cache_resource(max_entries=32, show_spinner="Scoring the three readings …", hash_funcs=HASH)
def noise_readings(sset: SolutionSet, keys: tuple[str, ...], log_base: float, beta: float) -> pd.DataFrame:
    """Solutions × (measure, reading): each measure under the three readings side by side, and
    the coverage of "left out" (a solution that is all noise has no "left out" values)."""
    frames, coverage = {}, {}
    for reading in NOISE_READINGS:
        solutions = sset.solutions
        if reading == "exclude":  # a solution that is all noise cannot be left out: no values there
            solutions = {n: s for n, s in solutions.items()
                         if not noise_mask(np.asarray(s, dtype=object), sset.noise).all()}
        frame = metrics.compare_solutions(sset.gold, solutions, list(keys), log_base=log_base, beta=beta,
                                          noise=sset.noise, noise_as=reading) if solutions else None
        frames[reading] = frame.reindex(sset.names) if frame is not None else pd.DataFrame(index=sset.names)
        if reading == "exclude" and frame is not None:
            coverage = {n: v["coverage"] for n, v in frame.attrs["noise"].items()}
    out = pd.DataFrame(index=pd.Index(sset.names, name="solution"))
    for key in keys:
        for reading in NOISE_READINGS:
            out[f"{symbol(key)} · {READING_NAMES[reading]}"] = frames[reading].get(key, np.nan)
    out["coverage (left out)"] = [coverage.get(n, np.nan) for n in sset.names]
    return out
