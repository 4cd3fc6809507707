"""Real data and the number of clusters: bundled data sets, clustered for every k of a range.

The data sets ship with scikit-learn (``sklearn.datasets.load_*``: no download). This module
only *runs* clustering algorithms — scikit-learn's K-means, SciPy's Ward hierarchy, uniform
random labels as the chance baseline — and hands the labels to
``metrics.papers.experiments.cluster_count_sweep``, which computes every measure, CV_0, CV_1 and
DCV. Each (data set, algorithm, k) is cached on its own, so widening the range of k only
clusters the new k's, and the page can show progress while it does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from dashboard.ui.figures.colours import NEUTRAL, QUALITATIVE
from dashboard.ui.figures.lines import line_panels
from dashboard.ui.readout import escape_label
from metrics.core.formatting import frame_csv
from metrics.papers import experiments

DATASETS = {
    "iris": "Iris — 150 flowers, 3 species of 50",
    "wine": "Wine — 178 wines, 3 cultivars (59, 71, 48)",
    "breast_cancer": "Breast cancer — 569 tumours, 2 classes (212, 357)",
    "digits": "Digits — 1,797 8×8 images of 10 digits",
}
ALGORITHMS = {
    "kmeans": "K-means",
    "ward": "Ward (agglomerative)",
    "random": "Random labels",
}
ALGO_COLORS = {"kmeans": QUALITATIVE[0], "ward": QUALITATIVE[1], "random": NEUTRAL}
KMEANS_RESTARTS = 3
K_MIN, K_MAX = 2, 50
# Rosenberg & Hirschberg's Figures 4–5 (V, VI, Q2) and Wu et al.'s Figure 6 (VI_n, VD_n, R_n and
# the unnormalized VI, VD, R): quick picks for the measure list.
MEASURE_SETS = {
    "R&H Fig. 4/5": ["v_measure", "vi", "q2"],
    "Wu Fig. 6": ["vi_n", "vd_n", "r_n", "vi", "van_dongen", "rand"],
}
DEFAULT_MEASURES = ["v_measure", "vi", "q2", "vi_n", "vd_n", "r_n"]


@dataclass(frozen=True)
class Dataset:
    key: str
    features: np.ndarray
    target: np.ndarray
    class_names: tuple[str, ...]

    @property
    def n(self) -> int:
        return int(self.target.size)

    @property
    def n_classes(self) -> int:
        return len(self.class_names)


@st.cache_resource(show_spinner=False)
def load_dataset(key: str) -> Dataset:
    """A bundled scikit-learn data set (shared read-only)."""
    if key not in DATASETS:
        raise ValueError(f"unknown data set {key!r}; choose one of {', '.join(DATASETS)}")
    from sklearn import datasets

    bunch = getattr(datasets, f"load_{key}")()
    names = tuple(str(x) for x in getattr(bunch, "target_names", np.unique(bunch.target)))
    return Dataset(key, np.asarray(bunch.data, dtype=np.float64), np.asarray(bunch.target), names)


@st.cache_resource(show_spinner=False)
def _features(key: str, standardize: bool) -> np.ndarray:
    x = load_dataset(key).features
    if not standardize:
        return x
    from sklearn.preprocessing import StandardScaler

    return StandardScaler().fit_transform(x)


@st.cache_resource(show_spinner=False)
def _ward_tree(key: str, standardize: bool) -> np.ndarray:
    from scipy.cluster.hierarchy import linkage

    return linkage(_features(key, standardize), method="ward")


@st.cache_resource(show_spinner=False)
def _ward_cuts(key: str, standardize: bool) -> np.ndarray:
    """Ward's clusters for every k of ``K_MIN..K_MAX``, one column per k: ``cut_tree`` walks all
    the merges whatever the number of cuts, so cutting them all costs what cutting one costs."""
    from scipy.cluster.hierarchy import cut_tree

    cuts = cut_tree(_ward_tree(key, standardize), n_clusters=list(range(K_MIN, K_MAX + 1)))
    cuts.flags.writeable = False
    return cuts


@st.cache_resource(show_spinner=False)
def _threads():
    """scikit-learn's thread pools (``threadpoolctl``), found once. K-means runs its Lloyd
    iterations on one OpenMP thread: on data this small the pool's threads mostly spin-wait,
    which costs several times the CPU of one thread (docs/performance.md), and one thread
    adds the chunks' sums in a fixed order, so the labels no longer depend on the server's
    number of cores."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def _cluster(key: str, algorithm: str, k: int, standardize: bool, seed: int) -> np.ndarray:
    if algorithm == "kmeans":
        from sklearn.cluster import KMeans

        with _threads().limit(limits=1, user_api="openmp"):
            return KMeans(n_clusters=k, n_init=KMEANS_RESTARTS, random_state=seed).fit_predict(
                _features(key, standardize))
    if algorithm == "ward":
        if K_MIN <= k <= K_MAX:
            return _ward_cuts(key, standardize)[:, k - K_MIN].copy()
        from scipy.cluster.hierarchy import cut_tree

        return cut_tree(_ward_tree(key, standardize), n_clusters=[k]).ravel()
    if algorithm == "random":
        return np.random.default_rng([seed, k]).integers(0, k, size=load_dataset(key).n)
    raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")


@st.cache_resource(max_entries=256, show_spinner=False)
def _clusterings(key: str, algorithm: str, standardize: bool, seed: int) -> dict[int, np.ndarray]:
    """The shared store of one (data set, algorithm, standardization, seed)'s clusterings by k,
    filled by :func:`cluster_labels` as k's are asked for: one cache look-up per algorithm and
    rerun, not one per k. Two sessions may cluster the same k at once and store the same labels."""
    return {}


def cluster_labels(key: str, algorithm: str, k: int, standardize: bool, seed: int) -> np.ndarray:
    """Labels of one clustering into ``k`` clusters (seeded; Ward needs no seed), computed once
    per server and shared read-only."""
    return _stored_labels(_clusterings(key, algorithm, standardize, seed), key, algorithm, k, standardize, seed)


def _stored_labels(store: dict[int, np.ndarray], key: str, algorithm: str, k: int, standardize: bool,
                   seed: int) -> np.ndarray:
    labels = store.get(k)
    if labels is None:
        labels = np.asarray(_cluster(key, algorithm, k, standardize, seed))
        labels.flags.writeable = False
        store[k] = labels
    return labels


def run_clusterings(key: str, algorithms: list[str], ks: list[int], standardize: bool,
                    seed: int) -> dict[str, dict[int, np.ndarray]]:
    """Every (algorithm, k)'s labels, ``{algorithm: {k: labels}}``; the clusterings not yet in
    the store run with a progress bar."""
    stores = {a: _clusterings(key, a, standardize, seed) for a in algorithms}
    jobs = [(a, k) for a in algorithms for k in ks if k not in stores[a]]
    if jobs:
        bar = st.progress(0.0, text="Clustering…")
        for i, (a, k) in enumerate(jobs):
            _stored_labels(stores[a], key, a, k, standardize, seed)
            bar.progress((i + 1) / len(jobs), text=f"Clustering: {ALGORITHMS[a]}, k = {k} ({i + 1}/{len(jobs)})")
        bar.empty()
    # From the stores in hand: a cache look-up per (algorithm, k) costs more than the rest of a rerun.
    return {a: {k: _stored_labels(stores[a], key, a, k, standardize, seed) for k in ks} for a in algorithms}


@st.cache_data(max_entries=256, show_spinner=False)
def sweep(key: str, algorithm: str, ks: tuple[int, ...], standardize: bool, seed: int, keys: tuple[str, ...],
          log_base: float, beta: float, _labelings: dict[int, np.ndarray] | None = None) -> pd.DataFrame:
    """``metrics.papers.experiments.cluster_count_sweep`` of one algorithm over ``ks``: one row per k
    (k, clusters, cv0, cv1, dcv and the chosen measures) plus the algorithm's key.
    ``_labelings`` (``{k: labels}`` of these parameters, from :func:`run_clusterings`) saves the
    look-ups; it is not part of the cache key, which the other parameters determine."""
    data = load_dataset(key)
    labelings = _labelings or {k: cluster_labels(key, algorithm, k, standardize, seed) for k in ks}
    frame = experiments.cluster_count_sweep(data.target, labelings, list(keys), log_base=log_base, beta=beta)
    frame.insert(0, "algorithm", algorithm)
    return frame


@dataclass(frozen=True)
class SweepView:
    """What the page shows of one state (data set, algorithms, k's, standardization, seed,
    measures, log base, β): the sweep's rows (``frame``), their long form with goodness, the best
    k per measure, the table of every value and its CSV. Built once per state by
    :func:`sweep_view` and shared read-only by every session; its figures are built on first
    use per log-scale setting (:meth:`figures`)."""

    key: str
    algorithms: tuple[str, ...]
    keys: tuple[str, ...]
    true_k: int
    frame: pd.DataFrame
    long: pd.DataFrame
    best: pd.DataFrame
    shown: pd.DataFrame
    csv: bytes
    _figures: dict = field(default_factory=dict, repr=False, compare=False)

    def figures(self, log_x: bool) -> tuple:
        """(measures, goodness, CV) figures for a linear or log k axis, built on first use; two
        sessions asking at once may both build them (the same figures), which is harmless."""
        if log_x not in self._figures:
            keys, algorithms = list(self.keys), list(self.algorithms)
            cv0 = float(self.frame["cv0"].iloc[0])
            self._figures[log_x] = (measures_figure(self.long, keys, self.true_k, log_x),
                                    goodness_figure(self.long, keys, algorithms, self.true_k, log_x),
                                    cv_figure(self.frame, cv0, self.true_k, log_x))
        return self._figures[log_x]


@st.cache_resource(max_entries=64, show_spinner=False)
def sweep_view(key: str, algorithms: tuple[str, ...], ks: tuple[int, ...], standardize: bool, seed: int,
               keys: tuple[str, ...], log_base: float, beta: float) -> SweepView:
    """The page's :class:`SweepView` of one state, shared across sessions: on a miss the
    clusterings run (with a progress bar, :func:`run_clusterings`) and :func:`sweep` evaluates
    them; a rerun that changes nothing the page computes (the log scale, a return to a state
    seen before) then costs no computation. Raises ``ValueError``/``KeyError`` as
    :func:`sweep` does (not cached)."""
    data = load_dataset(key)
    labels = run_clusterings(key, list(algorithms), list(ks), standardize, seed)
    frame = pd.concat([sweep(key, a, ks, standardize, seed, keys, log_base, beta, labels[a]) for a in algorithms],
                      ignore_index=True)
    best = {a: experiments.best_k(frame[frame["algorithm"] == a], list(keys)) for a in algorithms}
    table = pd.DataFrame({"measure": [f"{metrics.MEASURES[k].symbol} — {metrics.MEASURES[k].name}" for k in keys],
                          **{ALGORITHMS[a]: [best[a].get(k) for k in keys] for a in algorithms}})
    shown = frame.assign(algorithm=frame["algorithm"].map(ALGORITHMS))
    return SweepView(key, algorithms, keys, data.n_classes, frame, long_values(frame, list(keys)), table, shown,
                     frame_csv(shown, index=False))


def long_values(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The sweep as (algorithm, k, measure, value, goodness) rows; goodness from the registry."""
    long = frame.melt(id_vars=["algorithm", "k"], value_vars=keys, var_name="measure", value_name="value")
    # melt stacks the measures' columns one after the other: map each column at once.
    long["goodness"] = np.concatenate([np.asarray(metrics.MEASURES[m].goodness(frame[m].to_numpy(dtype=np.float64)),
                                                  dtype=np.float64).ravel() for m in keys])
    long["algorithm_name"] = long["algorithm"].map(ALGORITHMS)
    return long


def measures_figure(long: pd.DataFrame, keys: list[str], true_k: int, log_x: bool):
    """Every chosen measure against k, one panel per measure, one line per algorithm."""
    titles = {k: f"<b>{escape_label(metrics.MEASURES[k].symbol)}</b> "
                 f"({'↑' if metrics.MEASURES[k].higher_is_better else '↓'} better)" for k in keys}
    return line_panels(long, x="k", y="value", series="algorithm_name", panel="measure", panel_titles=titles,
                       panel_order=keys, series_order=[ALGORITHMS[a] for a in ALGORITHMS],
                       colors={ALGORITHMS[a]: c for a, c in ALGO_COLORS.items()},
                       dashes={ALGORITHMS["random"]: "dot"}, x_title="number of clusters k",
                       vlines=[(true_k, f" {true_k} classes")], log_x=log_x)


def goodness_figure(long: pd.DataFrame, keys: list[str], algorithms: list[str], true_k: int, log_x: bool):
    """All chosen measures on the registry's goodness scale (1 = best), one panel per algorithm:
    where each measure puts its best k."""
    names = {k: metrics.MEASURES[k].symbol for k in keys}
    sub = long.assign(symbol=long["measure"].map(names))
    return line_panels(sub, x="k", y="goodness", series="symbol", panel="algorithm", panel_order=algorithms,
                       panel_titles={a: escape_label(t) for a, t in ALGORITHMS.items()},
                       series_order=[names[k] for k in keys], x_title="number of clusters k",
                       y_title="goodness (1 = best)", vlines=[(true_k, f" {true_k} classes")], log_x=log_x,
                       cols=min(len(algorithms), 3), y_range=[-0.02, 1.02])


def cv_figure(frame: pd.DataFrame, cv0: float, true_k: int, log_x: bool):
    """CV_1 of the cluster sizes against k, per algorithm, with the classes' CV_0 as a reference."""
    sub = frame[["algorithm", "k", "cv1"]].assign(name=frame["algorithm"].map(ALGORITHMS))
    ref = pd.DataFrame({"k": sorted(frame["k"].unique())}).assign(cv1=cv0, name="CV_0 (classes)")
    both = pd.concat([sub[["k", "cv1", "name"]], ref], ignore_index=True)
    return line_panels(both, x="k", y="cv1", series="name",
                       series_order=[ALGORITHMS[a] for a in ALGORITHMS] + ["CV_0 (classes)"],
                       colors={**{ALGORITHMS[a]: c for a, c in ALGO_COLORS.items()}, "CV_0 (classes)": "#000000"},
                       dashes={"CV_0 (classes)": "dash", ALGORITHMS["random"]: "dot"},
                       x_title="number of clusters k", y_title="CV of the sizes", vlines=[(true_k, "")],
                       log_x=log_x, panel_height=300)


def class_cv(data: Dataset) -> float:
    """CV_0 of the data set's class sizes (``metrics.papers.generators.cv``); NaN for one class."""
    sizes = np.unique(data.target, return_counts=True)[1]
    return metrics.papers.generators.cv(sizes) if sizes.size > 1 else math.nan


def class_sizes(data: Dataset) -> list[int]:
    return np.unique(data.target, return_counts=True)[1].tolist()
