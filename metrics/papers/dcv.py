"""Wu et al.'s DCV criterion, re-run on any clustering algorithm's results ([Wu09] §3.1, §4.2–4.3).

K-means makes clusters of similar sizes (the uniform effect): on data whose class sizes vary a
lot (a large CV₀) its clusters vary less (CV₁ < CV₀), and DCV = CV₁ − CV₀ falls as CV₀ grows. A
measure that can judge K-means must then rate its results worse as DCV falls; Wu et al. check it
with Kendall's rank correlation κ between each measure and DCV over data sets of growing CV₀
(Table 7) and call the measures with κ below "strong consistency" unfit (Criterion 1, §3.3).

* :func:`run_summary` — CV₀, CV₁ and DCV of one clustering of one data set.
* :func:`dcv_sweep` — every chosen measure and DCV for many runs (several data sets per CV₀),
  averaged per data-set setting as the paper averages its 10 samples.
* :func:`dcv_kappa` — κ of each measure against DCV (the measure oriented so that better is up,
  as the paper prints it), and whether it is *fooled*: κ below the paper's strong consistency.
* :func:`wu_printed` — the paper's printed figures: K-means' CV₁ interval, Table 7's κ.

This package runs no clustering: the caller gives the labels (the dashboard runs scikit-learn's
K-means on :func:`~metrics.papers.generators.skewed_blobs`).

[Wu09] Wu, Xiong & Chen (2009), Adapting the right measures for K-means clustering. KDD.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import stats

from ..core.contingency import Contingency
from ..core.registry import MEASURES, evaluate, resolve
from .generators.uniform_effect import cv
from .resources import read_json

TABLE7 = "wu2009_table7.json"


def run_summary(classes, clusters) -> dict[str, float]:
    """``{"cv0", "cv1", "dcv", "classes", "clusters"}`` of one clustering: the CV of the class sizes,
    of the cluster sizes, their difference CV₁ − CV₀ ([Wu09] §3.1) and how many of each."""
    t = Contingency.from_labels(classes, clusters)
    cv0 = cv(t.row_sums) if t.shape[0] > 1 else 0.0
    cv1 = cv(t.col_sums) if t.shape[1] > 1 else 0.0
    return {"cv0": cv0, "cv1": cv1, "dcv": cv1 - cv0, "classes": t.shape[0], "clusters": t.shape[1]}


def dcv_sweep(runs: Iterable[tuple[float, object, object]], keys: Sequence[str], log_base: float = math.e,
              beta: float = 1.0) -> pd.DataFrame:
    """One row per setting: ``runs`` gives ``(setting, classes, clusters)`` — the setting is the
    data set's nominal CV₀ (or any label of its group), the labels one run on one sample. Columns:
    ``setting``, ``runs``, the mean ``cv0``, ``cv1``, ``dcv`` and of every measure in ``keys``
    (registry keys or aliases), in order of setting. ``ValueError`` for no runs."""
    keys = [m.key for m in resolve(list(keys))]
    rows = []
    for setting, classes, clusters in runs:
        t = Contingency.from_labels(classes, clusters)
        rows.append({"setting": float(setting), **run_summary(classes, clusters),
                     **evaluate(t, keys, log_base=log_base, beta=beta)})
    if not rows:
        raise ValueError("dcv_sweep needs at least one run")
    frame = pd.DataFrame(rows)
    out = frame.groupby("setting", sort=True).mean(numeric_only=True)
    out.insert(0, "runs", frame.groupby("setting", sort=True).size())
    return out.reset_index()[["setting", "runs", "cv0", "cv1", "dcv", *keys]]


def dcv_kappa(sweep: pd.DataFrame, keys: Sequence[str] | None = None, strong: float | None = None) -> pd.DataFrame:
    """Kendall's κ (τ-b) of each measure against DCV over the rows of :func:`dcv_sweep`, the
    measure oriented so that better is up (a distance negated), as [Wu09] Table 7 prints it.

    Columns: ``key``, ``kappa`` (NaN where it is undefined: fewer than two settings, or DCV
    constant), ``moves`` (whether the measure changed at all), ``fooled`` — κ below ``strong``
    (default: the paper's strong consistency, :func:`wu_printed`), or the measure did not move while
    DCV did (it cannot see the uniform effect); None where κ is undefined because DCV is."""
    strong = wu_printed()["strong"] if strong is None else float(strong)
    keys = [c for c in sweep.columns if c not in ("setting", "runs", "cv0", "cv1", "dcv")] if keys is None \
        else [m.key for m in resolve(list(keys))]
    dcv_values = sweep["dcv"].to_numpy(dtype=np.float64)
    dcv_moves = len(dcv_values) > 1 and np.ptp(dcv_values) > 1e-12
    rows = []
    for k in keys:
        v = sweep[k].to_numpy(dtype=np.float64)
        oriented = v if MEASURES[k].higher_is_better else -v
        moves = len(v) > 1 and bool(np.ptp(v) > 1e-12)
        if not dcv_moves:
            kappa, fooled = math.nan, None
        elif not moves:
            kappa, fooled = math.nan, True
        else:
            kappa = float(stats.kendalltau(oriented, dcv_values).statistic)
            fooled = bool(kappa < strong)
        rows.append({"key": k, "kappa": kappa, "moves": moves, "fooled": fooled})
    return pd.DataFrame(rows, columns=["key", "kappa", "moves", "fooled"])


@lru_cache(maxsize=1)
def _table7() -> dict:
    return read_json("paper_values", TABLE7)


def wu_printed() -> dict:
    """The paper's printed figures: ``cv1_low``, ``cv1_high`` (K-means' 95% interval of CV₁, §3.1),
    ``strong`` (the κ the paper calls strong consistency, §4.3), and ``table7`` — a frame of
    Table 7: ``symbol``, ``key`` (missing where no registered measure is the paper's), ``simulated``
    and ``sampled`` κ as printed (text; missing where the extraction lost it), and ``fooled``: a
    printed κ below ``strong``, or named inconsistent by §4.3's text where the row is lost."""
    data = _table7()
    keys = data["measure_keys"]
    symbols = list(dict.fromkeys([*data["kappa"]["simulated"], *data["kappa"]["sampled"]]))
    table7 = pd.DataFrame({"symbol": symbols, "key": [keys.get(s) for s in symbols],
                           "simulated": [data["kappa"]["simulated"].get(s) for s in symbols],
                           "sampled": [data["kappa"]["sampled"].get(s) for s in symbols]})
    strong = float(data["strong_kappa"])
    by_text = set(data["inconsistent_by_text"]["symbols"])
    table7["fooled"] = [s in by_text or any(float(v) < strong for v in (data["kappa"]["simulated"].get(s),
                                                                         data["kappa"]["sampled"].get(s)) if v)
                        for s in symbols]
    return {"cv1_low": float(data["cv1_interval"]["low"]), "cv1_high": float(data["cv1_interval"]["high"]),
            "strong": strong, "table7": table7}
