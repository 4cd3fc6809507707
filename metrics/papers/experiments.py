"""The papers' experiments, re-run: Utt et al.'s Experiments 1–3 on ambiguous data, and the
measures of clusterings over a range of cluster counts (Rosenberg & Hirschberg Fig. 4/5,
Wu et al. Fig. 6).

Everything here is seeded and built from :mod:`metrics.papers.generators` (ambiguity rates,
random gold standards, softening steps, the dissimilarity step) and evaluated by the
registry. Random draws are seeded per unit of work — ``numpy.random.default_rng([seed,
size])`` for one data size — so that one size gives the same numbers whichever other
sizes are run with it: a caller may compute (and cache) sizes one at a time.

Ambiguous data ([Utt14])
------------------------
* :func:`ambiguity_profile`, :func:`ambiguous_gold` — how many classes each point has
  (Utt et al.'s halving scheme, a fixed rate, or a share of ambiguous points) and a
  random gold standard with that profile.
* :func:`soft_clusterings`, :func:`with_noise` — from the hard clustering to the perfect
  soft one (Experiment 3), and cluster memberships permuted among a share of the points.
* :func:`fuzzy_scores` — one measure under the four countings compared in the paper:
  mass split over the gold classes (``fuzzy``, §3), every membership pair counted once
  (``count``, the "traditional" V), and both after the dissimilarity step (§5.1).
* :func:`experiment1`, :func:`experiment2`, :func:`experiment3` — §4.1–4.3 at sizes the
  caller chooses (the paper: sizes 2 to ~1000, 100 gold standards per size; 500 points).
* :func:`ambiguity_sweep` — the four countings along the ambiguity rate (the share of
  ambiguous points, or the classes per point) with everything else fixed: the paper's
  "entropy-based measures … suffer when ambiguity increases" as one curve;
  :func:`closest_step` picks the clustering of a softening sequence nearest a softness.

Number of clusters
------------------
* :func:`cluster_count_sweep` — every chosen measure, the cluster count and Wu et al.'s
  CV_0, CV_1 and DCV = CV_1 − CV_0 ([Wu09] §3.1) for one labeling per k (the labelings come
  from any clustering algorithm; this package runs none).
* :func:`best_k` — the k each measure rates best.

References
----------
[Utt14] Utt, Springorum, Köper & Schulte im Walde (2014), Fuzzy V-Measure. LREC, §3–5.
[RH07] Rosenberg & Hirschberg (2007), V-Measure. EMNLP-CoNLL, §5, Figures 4–5.
[Wu09] Wu, Xiong & Chen (2009), Adapting the right measures for K-means clustering. KDD,
§3.1 and Figure 6.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..core.batch import evaluate_batch
from ..core.contingency import Contingency
from ..core.memberships import plain_memberships
from ..core.registry import MEASURES, resolve
from . import generators
from .generators.dissimilarity_enhancement import _adjusted

__all__ = [
    "SCHEMES", "VARIANTS", "ambiguity_profile", "ambiguous_gold", "soft_clusterings", "with_noise",
    "fuzzy_tables", "fuzzy_scores", "experiment1_size", "experiment1_runs", "experiment1", "summarize",
    "experiment2_size", "experiment2", "experiment3", "experiment3_setup", "experiment3_row", "default_sizes",
    "softness", "closest_step", "ambiguity_sweep",
    "cluster_count_sweep", "best_k",
]

#: Ambiguity schemes of :func:`ambiguity_profile` and what ``rate`` means in each.
SCHEMES = {
    "halving": "Utt et al. §4.1: half the points (rounded up) have 1 class, half of the rest 2, "
               "half of what is left 3, … (rate unused)",
    "fixed": "every point has exactly `rate` classes",
    "share": "a share `rate` (0–1) of the points has 2 classes, the others 1",
}

#: The four countings of :func:`fuzzy_scores`.
VARIANTS = {
    "fuzzy": "fuzzy: each point's mass 1 split over its gold classes (Utt et al. §3)",
    "count": "counted: every (class, cluster) membership pair counts 1 (the 'traditional' V)",
    "fuzzy_diss": "fuzzy + dissimilarity step (Utt et al. §5.1)",
    "count_diss": "counted + dissimilarity step (Utt et al. §5.1)",
}

Progress = Callable[[int, int], None] | None


def _int(value, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer():
            value = int(float(value))
        else:
            raise ValueError(f"{name} must be a whole number, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


def _seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


# ---------------------------------------------------------------------- ambiguous data
def ambiguity_profile(n_points: int, scheme: str = "halving", rate=None) -> np.ndarray:
    """How many gold classes each point belongs to, sorted from least to most ambiguous.

    * ``"halving"`` — :func:`metrics.papers.generators.ambiguity_rates` ([Utt14] §4.1: 7 points
      give 1, 1, 1, 1, 2, 2, 3); ``rate`` must be None.
    * ``"fixed"`` — every point has ``rate`` classes (a whole number ≥ 1).
    * ``"share"`` — round(``rate``·n) points (``rate`` in [0, 1]) have 2 classes, the rest 1.
    """
    n = _int(n_points, "n_points", 1)
    if scheme == "halving":
        if rate is not None:
            raise ValueError("the halving scheme fixes every point's rate; leave rate unset")
        return generators.ambiguity_rates(n)
    if scheme == "fixed":
        r = _int(rate, "rate", 1)
        return np.full(n, r, dtype=np.int64)
    if scheme == "share":
        if isinstance(rate, bool) or not isinstance(rate, numbers.Real) or not 0.0 <= float(rate) <= 1.0:
            raise ValueError(f"rate must be a share in [0, 1] for the share scheme, got {rate!r}")
        k = round(float(rate) * n)
        return np.concatenate([np.ones(n - k, dtype=np.int64), np.full(k, 2, dtype=np.int64)])
    raise ValueError(f"unknown ambiguity scheme {scheme!r}; choose one of {', '.join(SCHEMES)}")


def ambiguous_gold(n_points: int, scheme: str = "halving", rate=None, n_classes: int | None = None,
                   seed=None) -> list[tuple]:
    """A random ambiguous gold standard with the profile of :func:`ambiguity_profile`:
    point i belongs to ``rates[i]`` distinct classes out of ``n_classes`` (default: one class
    per point, as in [Utt14] Experiment 3), drawn by :func:`metrics.papers.generators.random_gold`."""
    rates = ambiguity_profile(n_points, scheme, rate)
    if n_classes is not None:
        n_classes = _int(n_classes, "n_classes", 1)
        if n_classes < int(rates.max()):
            raise ValueError(f"n_classes ({n_classes}) must be at least the largest number of classes of a "
                             f"point ({int(rates.max())})")
    return generators.random_gold(len(rates), n_classes, seed=seed, rates=rates)


def soft_clusterings(gold: Sequence, n_steps: int) -> list[list[tuple]]:
    """``n_steps`` clusterings evenly spaced from the hard one (each point in the cluster of its
    first class) to the perfect soft one (identical to ``gold``): [Utt14] Experiment 3, by
    :func:`metrics.papers.generators.softening_steps`. With fewer possible steps, all of them."""
    return generators.softening_steps(gold, _int(n_steps, "n_steps", 2))


def with_noise(clustering: Sequence, fraction: float, seed=None) -> list[tuple]:
    """``clustering`` with the cluster memberships of a random ``fraction`` of the points
    permuted among those points (:func:`metrics.papers.generators.shuffle` on the point indices):
    cluster sizes stay, the chosen points land in other points' clusters."""
    clustering = list(clustering)
    if not clustering:
        raise ValueError("clustering is empty: it needs at least one point")
    order = generators.shuffle(np.arange(len(clustering)), fraction, seed=seed)
    return [clustering[int(i)] for i in order]


def fuzzy_tables(gold: Sequence, clusters: Sequence, *, dissimilarity: bool = True) -> dict[str, Contingency]:
    """The tables of :data:`VARIANTS`: ``from_memberships`` in both modes and, when
    ``dissimilarity``, :func:`metrics.papers.generators.dissimilarity_adjusted` of each.

    Labels without weights are read once for all four tables (the same tables, to the last bit,
    as the four calls make); other entries go to each call, which reads or refuses them."""
    gold, clusters = list(gold), list(clusters)
    m = plain_memberships(gold, clusters) if gold and len(gold) == len(clusters) else None
    if m is None:
        out = {mode: Contingency.from_memberships(gold, clusters, mode=mode) for mode in ("fuzzy", "count")}
        if dissimilarity:
            for mode in ("fuzzy", "count"):
                out[f"{mode}_diss"] = generators.dissimilarity_adjusted(gold, clusters, mode=mode)
        return out
    out = {mode: Contingency._from_plain_memberships(m, mode) for mode in ("fuzzy", "count")}
    if dissimilarity:
        for mode in ("fuzzy", "count"):
            out[f"{mode}_diss"] = _adjusted(m, out[mode], mode)
    return out


def _check_measure(measure: str) -> str:
    if measure not in MEASURES:
        raise KeyError(f"unknown measure key {measure!r}; known keys: {', '.join(MEASURES)}")
    if MEASURES[measure].domain != "any":
        raise ValueError(f"{measure} is not defined for the fractional tables of ambiguous data: "
                         "choose a measure defined on every table (e.g. v_measure)")
    return measure


def fuzzy_scores(gold: Sequence, clusters: Sequence, measure: str = "v_measure", *, dissimilarity: bool = True,
                 log_base: float = math.e, beta: float = 1.0,
                 tables: dict[str, Contingency] | None = None) -> dict[str, float]:
    """``measure`` of the clustering under each counting of :data:`VARIANTS` (the
    dissimilarity variants only when ``dissimilarity``). ``measure`` must be defined on
    fractional tables (``Measure.domain == "any"``). ``tables``: the clustering's
    :func:`fuzzy_tables`, where the caller keeps them (to score them again under another
    measure, β or unit without building them again)."""
    m = MEASURES[_check_measure(measure)]
    if tables is None:
        tables = fuzzy_tables(gold, clusters, dissimilarity=dissimilarity)
    return {name: m(t, log_base=log_base, beta=beta) for name, t in tables.items()}


def default_sizes(largest: int, count: int = 12) -> list[int]:
    """About ``count`` data sizes from 2 to ``largest``, evenly spaced on a log scale
    (the paper's Figure 4 runs from 2 to about 1000)."""
    largest = _int(largest, "largest", 2)
    count = _int(count, "count", 2)
    return sorted({round(float(x)) for x in np.geomspace(2, largest, count)})


def experiment1_size(size: int, repeats: int = 20, seed: int = 0, measure: str = "v_measure", *,
                     n_classes: int | None = None) -> pd.DataFrame:
    """[Utt14] Experiment 1 at one data size: ``repeats`` random gold standards with the
    halving ambiguity profile, each clustered perfectly (the clustering *is* the gold
    standard), scored fuzzy and counted. Rows: size, repeat, fuzzy, count.

    The paper: "none of the measures reach the maximum of value 1 … the values for fuzzy V
    are consistently higher than for V … with increasing data sizes, the variation for
    both decreases". (It uses 100 gold standards per size.)"""
    return _fuzzy_runs(size, repeats, seed, measure, n_classes, lambda gold, rng: gold)


RUN_COLUMNS = ["size", "repeat", "fuzzy", "count"]


def _fuzzy_runs(size, repeats, seed, measure, n_classes, clustering: Callable) -> pd.DataFrame:
    """Experiments 1 and 2 at one data size: ``repeats`` random ambiguous gold standards,
    each scored fuzzy and counted against ``clustering(gold, rng)``."""
    rows = _fuzzy_rows(size, seed, measure, n_classes, clustering)  # (checks size and measure first)
    repeats = _int(repeats, "repeats", 1)
    return pd.DataFrame([next(rows) for _ in range(repeats)], columns=RUN_COLUMNS)


def _fuzzy_rows(size, seed, measure, n_classes, clustering: Callable) -> Iterator[dict]:
    """The runs of :func:`_fuzzy_runs` one at a time, without end. One random stream per size:
    run r is the same whatever the number of runs asked for, so a caller holding this iterator
    adds runs without computing the earlier ones again."""
    size = _int(size, "size", 2)
    _check_measure(measure)
    rng = np.random.default_rng([_seed(seed), size])

    def runs() -> Iterator[dict]:
        for r in itertools.count():
            gold = ambiguous_gold(size, n_classes=n_classes, seed=rng)
            scores = fuzzy_scores(gold, clustering(gold, rng), measure, dissimilarity=False)
            yield {"size": size, "repeat": r, "fuzzy": scores["fuzzy"], "count": scores["count"]}

    return runs()


def experiment1_runs(size: int, seed: int = 0, measure: str = "v_measure", *,
                     n_classes: int | None = None) -> Iterator[dict]:
    """The rows of :func:`experiment1_size` one run at a time, without end: the first
    ``repeats`` are its rows for any ``repeats`` (one random stream per size), so a caller can
    add gold standards to a size without computing the earlier ones again."""
    return _fuzzy_rows(size, seed, measure, n_classes, lambda gold, rng: gold)


def _run(parts: Iterable, total: int, progress: Progress, work: Callable) -> list:
    out = []
    for i, part in enumerate(parts):
        out.append(work(part))
        if progress is not None:
            progress(i + 1, total)
    return out


def experiment1(sizes: Sequence[int], repeats: int = 20, seed: int = 0, measure: str = "v_measure", *,
                n_classes: int | None = None, progress: Progress = None) -> pd.DataFrame:
    """:func:`experiment1_size` for every size; ``progress(done, total)`` after each."""
    return _over_sizes(sizes, progress, lambda s: experiment1_size(s, repeats, seed, measure, n_classes=n_classes))


def _over_sizes(sizes: Sequence[int], progress: Progress, one_size: Callable) -> pd.DataFrame:
    """Experiments 1 and 2: ``one_size(size)`` for every data size, as one frame."""
    sizes = list(sizes)
    if not sizes:
        raise ValueError("sizes is empty: give at least one data size")
    return pd.concat(_run(sizes, len(sizes), progress, one_size), ignore_index=True)


def summarize(frame: pd.DataFrame) -> pd.DataFrame:
    """Per data size of :func:`experiment1`/:func:`experiment2`: the mean and (sample)
    standard deviation of fuzzy and counted scores, and the share of runs in which the fuzzy
    score is the higher. Columns: size, runs, fuzzy_mean, fuzzy_std, count_mean, count_std,
    fuzzy_higher."""
    if not {"size", "fuzzy", "count"} <= set(frame.columns):
        raise ValueError("frame must have the columns size, fuzzy and count (from experiment1 or experiment2)")
    g = frame.groupby("size", sort=True)
    out = pd.DataFrame({
        "runs": g.size(),
        "fuzzy_mean": g["fuzzy"].mean(), "fuzzy_std": g["fuzzy"].std(),
        "count_mean": g["count"].mean(), "count_std": g["count"].std(),
        "fuzzy_higher": g.apply(lambda d: float((d["fuzzy"] > d["count"]).mean()), include_groups=False),
    })
    return out.reset_index()


def experiment2_size(size: int, repeats: int = 1, seed: int = 0, measure: str = "v_measure", *,
                     n_classes: int | None = None) -> pd.DataFrame:
    """[Utt14] Experiment 2 at one data size: a random ambiguous gold standard against an
    independent random soft clustering with the same ambiguity profile ("two clusterings
    with random object assignments are evaluated against each other, keeping the ambiguity
    rate constant"). Rows: size, repeat, fuzzy, count."""
    return _fuzzy_runs(size, repeats, seed, measure, n_classes,
                       lambda gold, rng: ambiguous_gold(size, n_classes=n_classes, seed=rng))


def experiment2(sizes: Sequence[int], repeats: int = 1, seed: int = 0, measure: str = "v_measure", *,
                n_classes: int | None = None, progress: Progress = None) -> pd.DataFrame:
    """:func:`experiment2_size` for every size (the paper: every size from 2 to 500)."""
    return _over_sizes(sizes, progress, lambda s: experiment2_size(s, repeats, seed, measure, n_classes=n_classes))


def experiment3_row(gold: Sequence, clustering: Sequence, step: int, n_steps: int, measure: str = "v_measure",
                    *, log_base: float = math.e, beta: float = 1.0,
                    tables: dict[str, Contingency] | None = None) -> dict:
    """One step of :func:`experiment3`: the softness (share of the extra assignments made,
    0 = hard, 1 = identical to the gold standard) and the four scores (of ``tables``, the
    clustering's :func:`fuzzy_tables`, where the caller has them)."""
    scores = fuzzy_scores(gold, clustering, measure, log_base=log_base, beta=beta, tables=tables)
    return {"step": step, "steps": n_steps, "softness": softness(gold, clustering),
            "assignments": sum(len(c) for c in clustering), **scores}


def experiment3_setup(n_points: int = 500, n_steps: int = 11, seed: int = 0, *,
                      n_classes: int | None = None) -> tuple[list[tuple], list[list[tuple]]]:
    """(gold standard, clusterings) of :func:`experiment3`, so that a caller can score (and
    cache) the steps one at a time with :func:`experiment3_row`."""
    n_points = _int(n_points, "n_points", 2)
    gold = ambiguous_gold(n_points, n_classes=n_classes, seed=np.random.default_rng([_seed(seed), n_points]))
    return gold, soft_clusterings(gold, n_steps)


def experiment3(n_points: int = 500, n_steps: int = 11, seed: int = 0, measure: str = "v_measure", *,
                n_classes: int | None = None, progress: Progress = None) -> pd.DataFrame:
    """[Utt14] Experiment 3 (Figures 6 and 11): a gold standard of ``n_points`` points with the
    halving profile (500 points: 250 ambiguous) and ``n_points`` classes unless
    ``n_classes``; clusterings from hard (each point in the cluster of its first class) to
    the perfect soft one, ``n_steps`` of them evenly spaced; each scored fuzzy and counted,
    with and without the dissimilarity step.

    The paper: both V's *decrease* as the clustering gets closer to the gold standard, and
    the perfect soft clustering scores below 1 (Figure 6); with the dissimilarity step both
    "converge toward the desired score of 1" (Figure 11)."""
    gold, steps = experiment3_setup(n_points, n_steps, seed, n_classes=n_classes)
    rows = _run(list(enumerate(steps)), len(steps), progress,
                lambda item: experiment3_row(gold, item[1], item[0], len(steps), measure))
    return pd.DataFrame(rows)


def softness(gold: Sequence, clustering: Sequence) -> float:
    """Share of the gold standard's extra memberships (beyond each point's first class) that
    ``clustering`` assigns: 0 = hard, 1 = every membership (1 when there are none to assign)."""
    extra_total = sum(len(g) - 1 for g in gold)
    return sum(len(c) - 1 for c in clustering) / extra_total if extra_total else 1.0


def closest_step(softnesses: Sequence[float], target: float) -> int:
    """Index of the softness nearest ``target`` (shares in [0, 1]), the first one on a tie.

    Compared in percent rounded to 1e-9, so that a tie (0.4 and 0.6 around 0.5) is a tie
    whatever the floating-point residue, and the Fuzzy lab's slider (percent) and
    :func:`ambiguity_sweep` pick the same clustering."""
    if len(softnesses) == 0:
        raise ValueError("softnesses is empty: give the softness of at least one clustering")
    distance = np.round(np.abs(100.0 * np.asarray(softnesses, dtype=np.float64) - 100.0 * float(target)), 9)
    return int(np.argmin(distance))


def ambiguity_sweep(n_points: int, rates: Sequence, scheme: str = "share", n_classes: int | None = None, *,
                    softness_target: float = 1.0, noise: float = 0.0, seed: int = 0, n_steps: int = 11,
                    measure: str = "v_measure", log_base: float = math.e, beta: float = 1.0,
                    progress: Progress = None) -> pd.DataFrame:
    """The four countings of :func:`fuzzy_scores` along the ambiguity rate ([Utt14] §4: "entropy-based
    measures in general tend to suffer when ambiguity increases"), everything else fixed.

    For each ``rate`` (of ``scheme``: ``"share"`` — the share of points in two classes, or
    ``"fixed"`` — classes per point; see :func:`ambiguity_profile`): a gold standard
    ``ambiguous_gold(n_points, scheme, rate, n_classes, seed=seed)`` — the same seed at every
    rate, so the sweep shows the rate's effect and not a new draw —, its ``n_steps`` clusterings
    from hard to the perfect soft one (:func:`soft_clusterings`; with ``noise``, each passed
    through :func:`with_noise` with the same seed), and of those the one whose softness is
    :func:`closest_step` to ``softness_target`` (1 = the perfect soft clustering, identical to
    the gold standard), scored by :func:`experiment3_row`. This is the Fuzzy lab playground's
    computation at each position of its rate slider. ``progress(done, total)`` after each rate.

    Rows: rate, ambiguous (points with more than one class), step, steps, softness,
    assignments, fuzzy, count, fuzzy_diss, count_diss.
    """
    if scheme not in ("share", "fixed"):
        raise ValueError(f"an ambiguity sweep varies the rate of the 'share' or 'fixed' scheme, not {scheme!r} "
                         "(the halving scheme has no rate)")
    rates = list(rates)
    if not rates:
        raise ValueError("rates is empty: give at least one ambiguity rate")
    _fraction_arg(softness_target, "softness_target")
    _fraction_arg(noise, "noise")
    _check_measure(measure)

    def one(rate) -> dict:
        gold = ambiguous_gold(n_points, scheme, rate, n_classes, seed=seed)
        steps = soft_clusterings(gold, n_steps)
        if noise > 0:
            steps = [with_noise(c, noise, seed=seed) for c in steps]
        i = closest_step([softness(gold, c) for c in steps], softness_target)
        row = experiment3_row(gold, steps[i], i, len(steps), measure, log_base=log_base, beta=beta)
        return {"rate": rate, "ambiguous": sum(len(g) > 1 for g in gold), **row}

    rows = _run(rates, len(rates), progress, one)
    return pd.DataFrame(rows, columns=["rate", "ambiguous", "step", "steps", "softness", "assignments",
                                       *VARIANTS])


def _fraction_arg(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"{name} must be a share in [0, 1], got {value!r}")
    return float(value)


# ---------------------------------------------------------------------- number of clusters
def cluster_count_sweep(gold: ArrayLike, labelings: Mapping[int, ArrayLike], measures=None, *,
                        log_base: float = math.e, beta: float = 1.0) -> pd.DataFrame:
    """Measures of one clustering per k against the gold labels: one row per k.

    ``labelings`` maps k (the number of clusters asked for) to the cluster labels of the
    items, in the order of ``gold``. Columns: ``k``, ``clusters`` (non-empty clusters found),
    ``cv0``, ``cv1``, ``dcv`` (:func:`metrics.papers.generators.cv`/:func:`~metrics.papers.generators.dcv`
    on the class and cluster sizes; NaN where a side has a single group) and one column per
    measure (``measures=None``: every registered measure). The tables are evaluated as one
    batch (:func:`metrics.evaluate_batch`).
    """
    if not isinstance(labelings, Mapping) or not labelings:
        raise ValueError("labelings must map each k to the cluster labels of the items (at least one k)")
    items = np.asarray(gold)
    tables, rows = [], []
    for k in sorted(labelings):
        labels = np.asarray(labelings[k])
        if labels.shape != items.shape:
            raise ValueError(f"k = {k}: {labels.size} cluster labels for {items.size} items")
        t = Contingency.from_labels(items, labels)
        tables.append(t)
        cv0 = generators.cv(t.row_sums) if t.shape[0] > 1 else math.nan
        cv1 = generators.cv(t.col_sums) if t.shape[1] > 1 else math.nan
        rows.append({"k": int(k), "clusters": t.shape[1], "cv0": cv0, "cv1": cv1,
                     "dcv": generators.dcv(t) if t.shape[0] > 1 and t.shape[1] > 1 else math.nan})
    keys = [m.key for m in resolve(measures)]
    values = evaluate_batch([t.to_dense() for t in tables], keys, log_base=log_base, beta=beta)
    return pd.concat([pd.DataFrame(rows), values.reset_index(drop=True)], axis=1)


def best_k(sweep: pd.DataFrame, measures: Sequence[str]) -> dict[str, int]:
    """For each measure, the k of :func:`cluster_count_sweep` it rates best (its registry
    direction; the smallest such k on ties)."""
    if "k" not in sweep.columns:
        raise ValueError("sweep must have a 'k' column (from cluster_count_sweep)")
    out: dict[str, int] = {}
    for key in measures:
        if key not in sweep.columns:
            raise KeyError(f"measure {key!r} is not a column of the sweep")
        v = sweep[key].to_numpy(dtype=np.float64)
        if np.isnan(v).all():
            continue
        v = v if MEASURES[key].higher_is_better else -v
        best = np.nanmax(v)
        out[key] = int(sweep["k"].to_numpy()[np.flatnonzero(v == best)[0]])
    return out
