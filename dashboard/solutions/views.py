"""The Solutions page's data: where a set of solutions comes from, and what ``metrics`` says of it.

A :class:`SolutionSet` is gold labels and several solutions' labels of the same items, from one
of three sources:

* **Paper presets** (:func:`preset_solutions`). A preset is a contingency table, not labels; a
  table holds all any measure reads, so each table is spelled out as labels of items — the gold
  classes are the table's rows, and each class's items go to the table's clusters in column
  order (cell by cell). Presets become solutions *of the same items* only when their tables
  have the same classes, with the same names and sizes: then every table spells out the same
  gold labels, item for item, and each solution's table is the preset's own table. Rosenberg &
  Hirschberg's Figure 2 therefore gives two sets, not one: A and B cluster 15 items (three
  classes of 5), C and D 21 items (three classes of 7). :func:`preset_groups` lists the sets the
  presets form. (The items' order inside a class is an artefact of the spelling-out; only
  tables are compared, never items, so nothing depends on it.)
* **Real data runs** (:func:`real_solutions`): a bundled data set clustered for every k of a
  range by the Real data page's cached functions (``real_data_views.cluster_labels``), so a link
  from that page — data set, algorithms, k range, standardization, seed — recomputes exactly
  its runs.
* **Uploads** (:func:`upload_solutions`): one file with a gold column and a column per
  solution, or a gold file and one file per solution, read and aligned by ``metrics.io``
  (``read_labels``, ``solution_columns``). Uploads live in the session only.

Everything that depends only on parameters is cached across sessions (``st.cache_resource``,
keyed by :attr:`SolutionSet.key`); this module computes no measure itself — the values, ranks,
Kendall τ and changes of mind are ``metrics.compare_solutions`` and its companions.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st
from scipy import sparse

import metrics
from dashboard.real_data import views as rd
from dashboard.solutions import charts as sc
from dashboard.ui.presets import Preset, load_presets
from dashboard.ui.readout import escape_markdown, format_number
from dashboard.ui.tables import MAX_URL_CELLS, encode_table

SOURCES = {"preset": "Paper presets", "real": "Real data runs", "upload": "Your files"}
# A mix of the four families: the papers' measures that disagree most often.
DEFAULT_KEYS = ["v_measure", "nvi", "vi", "ari", "rand", "purity", "f_measure", "vd_n", "bcubed_f"]
DEFAULT_PRESETS = ["extreme_perfect", "extreme_single_cluster", "extreme_singletons", "extreme_no_knowledge"]
DEFAULT_REAL: dict[str, Any] = {"sol_data": "iris", "sol_algo": ["kmeans", "ward"], "sol_k": (2, 10), "sol_std": True,
                "sol_seed": 0}
RUN_NAMES = {"kmeans": "K-means", "ward": "Ward", "random": "random"}
# A link (Compare) carries at most this many characters of tables; the tables' own limit is
# tables.MAX_URL_CELLS cells each.
MAX_LINK_CHARS = 6000


@dataclass(frozen=True, eq=False)
class SolutionSet:
    """Gold labels and named solutions of the same items, and where they come from.

    ``key`` identifies the set for every cache (the parameters it is a function of, or the
    uploads' file ids and choices); ``presets`` maps a solution to its preset, where it is one
    (Compare opens presets by name); ``left_out`` counts items an upload's options left out.
    ``titles`` maps a solution to the name a user reads (a preset's title); the solution's own
    name (a preset's key) stays its identity in links and caches.
    """

    key: tuple
    gold: Any  # a sequence of labels (list, array or Series)
    solutions: dict
    description: str
    presets: dict = field(default_factory=dict)
    left_out: int = 0
    noise: Any = None          # the solutions' noise label (−1), where an upload has one …
    noise_as: str = "cluster"  # … and how it is read (metrics.core.labels.NOISE_READINGS)
    titles: dict = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return list(self.solutions)

    def title(self, name: str) -> str:
        """What the page calls solution ``name`` (a preset by its title, any other by its name)."""
        return self.titles.get(name, name)

    def titled(self, frame: pd.DataFrame) -> pd.DataFrame:
        """``frame`` (solutions as its index) with the solutions' titles as the index."""
        return frame.rename(index=self.title) if self.titles else frame

    @property
    def n(self) -> int:
        return len(self.gold)


def _set_key(s: SolutionSet) -> tuple:
    return s.key


HASH: dict[Any, Callable[[Any], Any]] = {SolutionSet: _set_key}


# ---------------------------------------------------------------- paper presets
def _gold_of(p: Preset) -> tuple:
    """What a preset's gold classes are: names and sizes, in order."""
    return tuple(p.classes), tuple(float(sum(row)) for row in p.table)


def preset_groups(presets: dict[str, Preset] | None = None) -> dict[str, tuple[list[str], str]]:
    """Label → (preset keys, description), for every set of two or more presets with the same gold
    classes (names and sizes), in display order. The label is the titles' common start and what
    differs ("R&H Figure 2, solution A · B"); the description names the gold classes."""
    presets = load_presets() if presets is None else presets
    groups: dict[tuple, list[str]] = {}
    for key, p in presets.items():
        groups.setdefault(_gold_of(p), []).append(key)
    out = {}
    for keys in groups.values():
        if len(keys) < 2 or preset_problem(keys, presets):
            continue
        titles = [re.sub(r"\s*\([^)]*\)", "", presets[k].title) for k in keys]  # parentheticals off
        prefix = _common_words(titles)
        out[prefix + " · ".join(t[len(prefix):] for t in titles)] = (keys, _gold_text(presets[keys[0]]))
    return out


def _common_words(texts: list[str]) -> str:
    """The longest common start of ``texts`` that ends at a word boundary (after a space)."""
    prefix = texts[0]
    for t in texts[1:]:
        while not t.startswith(prefix):
            prefix = prefix[:-1]
    return prefix[: prefix.rfind(" ") + 1] if " " in prefix else ""


def preset_problem(keys: list[str], presets: dict[str, Preset] | None = None) -> str | None:
    """Why ``keys`` cannot be compared as solutions of the same items (in the page's words), or None."""
    presets = load_presets() if presets is None else presets
    if len(keys) < 2:
        return "Choose at least two presets to compare."
    fractional = [k for k in keys if not presets[k].contingency().is_integer]
    if fractional:
        return (f"*{escape_markdown(presets[fractional[0]].title)}* has fractional counts, which are not items: only "
                "tables of whole counts can be spelled out as solutions of the same items.")
    first = presets[keys[0]]
    for k in keys[1:]:
        p = presets[k]
        if _gold_of(p) != _gold_of(first):
            return (f"{_gold_text(first)} in *{escape_markdown(first.title)}*, but {_gold_text(p)} in "
                    f"*{escape_markdown(p.title)}*: solutions must cluster the same items (the same classes, "
                    "with the same sizes). Choose presets from one group — the buttons above list them.")
    return None


def _gold_text(p: Preset) -> str:
    names, sizes = _gold_of(p)
    return (f"{format_number(sum(sizes))} items in the classes "
            + ", ".join(f"{escape_markdown(c)} ({format_number(s)})" for c, s in zip(names, sizes)))


@st.cache_resource(max_entries=64, show_spinner=False)
def preset_solutions(keys: tuple[str, ...]) -> SolutionSet:
    """The presets ``keys`` as solutions of the same items (see the module docstring).

    ``ValueError`` (:func:`preset_problem`'s words) when their gold classes differ.
    """
    presets = load_presets()
    problem = preset_problem(list(keys), presets)
    if problem:
        raise ValueError(problem)
    gold = None
    solutions = {}
    for key in keys:
        p = presets[key]
        t = p.contingency()
        counts = np.asarray(t.values, dtype=np.int64)
        rows, cols = np.asarray(t.rows), np.asarray(t.cols)
        order = np.lexsort((cols, rows))  # cell by cell, class by class
        labels_gold = np.asarray(t.row_labels, dtype=object)[np.repeat(rows[order], counts[order])]
        gold = labels_gold if gold is None else gold
        solutions[key] = np.asarray(t.col_labels, dtype=object)[np.repeat(cols[order], counts[order])]
    first = presets[keys[0]]
    description = (f"{len(keys)} paper presets on the same {_gold_text(first)}: each table spelled out as "
                   "labels of those items.")
    return SolutionSet(("preset", keys), gold, solutions, description, presets={k: k for k in keys},
                       titles={k: presets[k].title for k in keys})


# ---------------------------------------------------------------- real data runs
def run_name(algorithm: str, k: int) -> str:
    return f"{RUN_NAMES[algorithm]} k={k}"


@st.cache_resource(max_entries=32, show_spinner="Clustering the data set for every k …")
def real_solutions(data: str, algorithms: tuple[str, ...], k_lo: int, k_hi: int, standardize: bool,
                   seed: int) -> SolutionSet:
    """The Real data page's runs: ``algorithms`` × k in [k_lo, k_hi], from its cached clusterings."""
    dataset = rd.load_dataset(data)
    gold = np.asarray(dataset.class_names, dtype=object)[dataset.target]
    solutions = {run_name(a, k): rd.cluster_labels(data, a, k, standardize, seed)
                 for a in algorithms for k in range(k_lo, k_hi + 1)}
    description = (f"{rd.DATASETS[data]}: {', '.join(rd.ALGORITHMS[a] for a in algorithms)} for k = {k_lo}…{k_hi}, "
                   f"{'standardized' if standardize else 'raw'} features, seed {seed} — the Real data page's runs.")
    return SolutionSet(("real", data, algorithms, k_lo, k_hi, standardize, seed), gold, solutions, description)


def real_data_link_params(data: str, algorithms: list[str], k_range: tuple[int, int], standardize: bool, seed: int,
                          keys: list[str]) -> dict:
    """The Solutions page's parameters that reproduce the Real data page's runs (its link). The
    values at the Solutions page's defaults (:data:`DEFAULT_REAL`) are left out: the link opens the
    page at them anyway, and the address it writes is the one the page keeps."""
    state = {"sol_data": data, "sol_algo": list(algorithms), "sol_k": (int(k_range[0]), int(k_range[1])),
             "sol_std": bool(standardize), "sol_seed": int(seed)}
    named = {k: v for k, v in state.items() if v != DEFAULT_REAL[k]}
    text = {k: [str(x) for x in v] if isinstance(v, (list, tuple))
            else str(v).lower() if isinstance(v, bool) else str(v)
            for k, v in named.items()}
    return {"sol_src": "real", **text, "sol_m": list(keys)}


# ---------------------------------------------------------------- uploads
def upload_solutions(key: tuple, columns, description: str, noise=None, noise_as: str = "cluster") -> SolutionSet:
    """An upload's aligned labels (``metrics.io.SolutionColumns``) as a set; ``key`` names the
    files and the choices that produced them; ``noise`` the solutions' noise label, read as ``noise_as``."""
    return SolutionSet(("upload", *key, noise, noise_as), columns.gold,
                       {name: columns.solutions[name] for name in columns.names}, description,
                       left_out=columns.left_out, noise=noise, noise_as=noise_as)


# ---------------------------------------------------------------- what metrics says
@dataclass(frozen=True)
class Analysis:
    """``compare_solutions`` of a set and its companions, for the chosen measures."""

    values: pd.DataFrame        # solutions × measures
    why_not: dict               # measure → solution → why it is not computed
    ranks: pd.DataFrame         # 1 = best, per measure
    tau: pd.DataFrame           # measures × measures Kendall τ-b
    why_undefined: dict         # (a, b) → why τ is undefined


@st.cache_resource(max_entries=64, show_spinner="Scoring every solution …", hash_funcs=HASH)
def analysis(sset: SolutionSet, keys: tuple[str, ...], log_base: float, beta: float) -> Analysis:
    values = metrics.compare_solutions(sset.gold, sset.solutions, list(keys), log_base=log_base, beta=beta,
                                       noise=sset.noise, noise_as=sset.noise_as)
    tau = metrics.rank_agreement(values)
    return Analysis(values, values.attrs.get("why_not", {}), metrics.rank_solutions(values), tau,
                    tau.attrs.get("why_undefined", {}))


@st.cache_resource(max_entries=64, show_spinner=False, hash_funcs=HASH)
def changes(sset: SolutionSet, keys: tuple[str, ...], log_base: float, beta: float, a: str, b: str) -> pd.DataFrame:
    """``metrics.changes_of_mind`` for the measures ``a`` and ``b``."""
    return metrics.changes_of_mind(analysis(sset, keys, log_base, beta).values, [a, b])


@st.cache_resource(max_entries=64, show_spinner=False, hash_funcs=HASH)
def solution_table(sset: SolutionSet, name: str) -> metrics.Contingency:
    """The contingency table of one solution against the gold classes."""
    return metrics.Contingency.from_labels(sset.gold, sset.solutions[name], noise=sset.noise, noise_as=sset.noise_as)


def _as_written(t: metrics.Contingency, gold, pred) -> metrics.Contingency:
    """``t`` with text labels in the order the data first names them (C1, C2, …, C10 as a file lists
    them, not the library's sorted C1, C10, C2); integer labels keep their numeric order. Only the
    order of rows and columns changes: the Sankey reads as the upload."""
    def order(labels, values) -> np.ndarray | None:
        if np.asarray(labels).dtype.kind in "iub":
            return None
        seen = pd.unique(pd.Series(np.asarray(values, dtype=object)))
        where = pd.Index(np.asarray(labels, dtype=object)).get_indexer(seen)
        where = where[where >= 0]
        # Labels the data does not name (a noise reading's singletons) keep their place after the others.
        where = np.concatenate([where, np.setdiff1d(np.arange(len(labels)), where)])
        return None if np.array_equal(where, np.arange(len(labels))) else where

    r_order, c_order = order(t.row_labels, gold), order(t.col_labels, pred)
    if r_order is None and c_order is None:
        return t
    n_r, n_c = t.shape
    r_order = np.arange(n_r) if r_order is None else r_order
    c_order = np.arange(n_c) if c_order is None else c_order
    r_new, c_new = np.empty(n_r, dtype=np.int64), np.empty(n_c, dtype=np.int64)
    r_new[r_order], c_new[c_order] = np.arange(n_r), np.arange(n_c)
    cells = sparse.coo_matrix((np.asarray(t.values), (r_new[np.asarray(t.rows)], c_new[np.asarray(t.cols)])),
                              shape=(n_r, n_c))
    return metrics.Contingency.from_table(cells, row_labels=list(np.asarray(t.row_labels, dtype=object)[r_order]),
                                          col_labels=list(np.asarray(t.col_labels, dtype=object)[c_order]))


@st.cache_resource(max_entries=64, show_spinner=False, hash_funcs=HASH)
def scores_figure(sset: SolutionSet, keys: tuple[str, ...], log_base: float, beta: float):
    r = analysis(sset, keys, log_base, beta)
    why_not = {k: {sset.title(name): why for name, why in per.items()} for k, per in r.why_not.items()}
    return sc.scores_heatmap(sset.titled(r.values), sset.titled(r.ranks), why_not)


@st.cache_resource(max_entries=64, show_spinner=False, hash_funcs=HASH)
def agreement_figure(sset: SolutionSet, keys: tuple[str, ...], log_base: float, beta: float):
    r = analysis(sset, keys, log_base, beta)
    return sc.agreement_heatmap(r.tau, r.why_undefined, len(sset.names))


@st.cache_resource(max_entries=64, show_spinner=False, hash_funcs=HASH)
def sankey(sset: SolutionSet, name: str):
    """(figure, note) of :func:`solutions_charts.sankey_figure` for one solution."""
    return sc.sankey_figure(_as_written(solution_table(sset, name), sset.gold, sset.solutions[name]),
                            sset.title(name))


def symbol(key: str) -> str:
    return metrics.MEASURES[key].symbol


def symbol_name(key: str) -> str:
    m = metrics.MEASURES[key]
    return f"{m.symbol} — {m.name}"


def first_places(ranks: pd.DataFrame) -> list[tuple[list[str], list[str]]]:
    """(solutions ranked first, measures) — the measures grouped by the solution(s) each rates
    best, in the order of the solutions; ties (several solutions ranked first) are a group."""
    groups: dict[tuple, list[str]] = {}
    for key in ranks.columns:
        best = tuple(ranks.index[ranks[key] == 1])
        if best:
            groups.setdefault(best, []).append(key)
    order = {name: i for i, name in enumerate(ranks.index)}
    return [(list(best), keys) for best, keys in sorted(groups.items(), key=lambda g: (order[g[0][0]], len(g[0])))]


def first_places_markdown(ranks: pd.DataFrame) -> str:
    """The ranking in words: one line per solution (or tie) that some measure ranks first."""
    lines = []
    for best, keys in first_places(ranks):
        who = " = ".join(f"**{escape_markdown(b)}**" for b in best) + (" (tied)" if len(best) > 1 else "")
        lines.append(f"- {who}: {', '.join(escape_markdown(symbol(k)) for k in keys)}")
    unranked = [k for k in ranks.columns if not (ranks[k] == 1).any()]
    if unranked:
        lines.append(f"- not computed for any solution: {', '.join(escape_markdown(symbol(k)) for k in unranked)}")
    return "\n".join(lines)


def most_divided_pair(tau: pd.DataFrame) -> tuple[str, str]:
    """The two measures whose orderings agree least (lowest defined τ; the first two if none)."""
    keys = list(tau.columns)
    best, pair = math.inf, (keys[0], keys[1])
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            t = tau.at[a, b]
            if not math.isnan(t) and t < best:
                best, pair = t, (a, b)
    return pair


def changes_frame(found: pd.DataFrame, a: str, b: str, title: Callable[[str], str] = str) -> pd.DataFrame:
    """``changes_of_mind`` rows as a table to read: each measure's pick (by ``title``) and both values."""
    sa, sb = symbol(a), symbol(b)
    return pd.DataFrame({
        f"{sa} prefers": [title(x) for x in found["solution_1"].astype(str)],
        f"{sb} prefers": [title(x) for x in found["solution_2"].astype(str)],
        f"{sa} of {sa}'s pick": found["value_a_1"].tolist(), f"{sa} of {sb}'s pick": found["value_a_2"].tolist(),
        f"{sb} of {sa}'s pick": found["value_b_1"].tolist(), f"{sb} of {sb}'s pick": found["value_b_2"].tolist(),
    })


# ---------------------------------------------------------------- the Compare link
@st.cache_resource(max_entries=128, show_spinner=False, hash_funcs=HASH)
def compare_params(sset: SolutionSet, a: str, b: str) -> dict | str:
    """Compare's parameters showing solutions ``a`` and ``b`` (a link determines Compare's state),
    or why no link can carry them.

    A preset travels by name (``a=<preset>``); any other solution as its table, under the
    source ``link`` that Compare's picker reads (``a=link&a_table=…&a_name=…``,
    ``ui/sources.py``), while it fits in a link (``tables.MAX_URL_CELLS`` cells).
    """
    params: dict = {}
    for side, name in (("a", a), ("b", b)):
        if name in sset.presets:
            params[side] = sset.presets[name]
            continue
        t = solution_table(sset, name)
        cells = t.shape[0] * t.shape[1]
        text = encode_table(t.to_frame()) if cells <= MAX_URL_CELLS else None
        if text is None:
            return (f"{escape_markdown(name)}'s table has {format_number(t.shape[0])} classes × "
                    f"{format_number(t.shape[1])} clusters = {format_number(cells)} cells, more than a link carries "
                    f"({format_number(MAX_URL_CELLS)}): in Compare, upload its labels instead.")
        params.update({side: "link", f"{side}_table": text, f"{side}_name": name})
    if sum(len(str(v)) for v in params.values()) > MAX_LINK_CHARS:
        return "These two tables together are too long for a link: in Compare, upload their labels instead."
    return params
