"""The paper gallery: every number this project can recompute from the five papers, beside
the printed value.

:func:`gallery_rows` reads the printed values and their provenance from
``assets/paper_values/*.json`` and recomputes each with :mod:`metrics` (measures,
generators, property checks, experiments). One row per printed number or claim::

    paper        key of PAPERS
    section      where in the paper (a table, a figure, a section)
    item         what the number is
    printed      the printed value, as printed
    computed     what metrics computes (text), None when the data is not available
    value        the computed number when there is one
    status       "agrees" | "truncated" | "differs" | "not recomputable"
    agrees       True for "agrees", False for "truncated"/"differs", None otherwise
    explanation  why a value does not agree (empty when it does)
    note         how the number was obtained (the reading of the table, the units)
    link         where the app explores it: {"page", "params", "label"} and, for a table
                 no preset holds, "table" {"classes", "clusters", "cells"}

Agreement is judged at the printed precision, as in ``tests/test_paper_values.py``: a
value printed with d decimals agrees when |computed − printed| ≤ ½·10^−d (the printed
number is the computed one rounded); a whole number ("1", "0") claims an exact value
(1e-12). A printed value that is the computed one cut, not rounded, to d decimals is
"truncated" (the papers do this), which does not count as agreeing. Claims printed as
words ("only E, P and MI …") agree when the computed facts say the same.

Links name pages by their URL path (``table_lab``, ``compare``, ``generator_lab``,
``property_checker``, ``fuzzy_lab``, ``real_data``); the dashboard turns them into page links.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from . import experiments, generators, properties, resources
from .contingency import Contingency
from .formatting import format_number
from .registry import MEASURES, evaluate

__all__ = ["PAPERS", "ASSET_DIR", "STATUSES", "gallery_rows", "gallery_frame", "judge", "decimals"]

# The installed paper values (package data; see metrics.resources). A Traversable: `/` and
# read_text work on it as on a Path.
ASSET_DIR = resources.folder("paper_values")

PAPERS = {
    "rh2007": "Rosenberg & Hirschberg (2007), V-Measure: a conditional entropy-based external cluster "
              "evaluation measure",
    "rr2009": "Reichart & Rappoport (2009), The NVI clustering evaluation measure",
    "dom2001": "Dom (2001), An information-theoretic external cluster-validity measure",
    "utt2014": "Utt, Springorum, Köper & Schulte im Walde (2014), Fuzzy V-Measure",
    "wu2009": "Wu, Xiong & Chen (2009), Adapting the right measures for K-means clustering",
}

STATUSES = ("agrees", "truncated", "differs", "not recomputable")

COLUMNS = ["paper", "section", "item", "printed", "computed", "value", "status", "agrees", "explanation", "note",
           "link"]

# Experiment sizes for the gallery: small enough for a page to recompute in about a second.
_EXP1_SIZES, _EXP1_REPEATS = (4, 8, 16, 32, 64, 128), 10
_EXP3_POINTS, _EXP3_STEPS = 120, 6


# ---------------------------------------------------------------------- judging a number
def decimals(printed: str) -> int:
    """Decimals printed: ".047" → 3, "0.50" → 2, "1" → 0."""
    text = str(printed).strip()
    return len(text.split(".")[1]) if "." in text else 0


def judge(value: float, printed: str) -> str:
    """"agrees", "truncated" or "differs": ``value`` against ``printed`` at its precision."""
    p = float(printed)
    d = decimals(printed)
    if not math.isfinite(value):
        return "differs"
    if d == 0:
        return "agrees" if abs(value - p) <= 1e-12 else "differs"
    if abs(value - p) <= 0.5 * 10.0 ** -d + 1e-12:
        return "agrees"
    scale = 10**d
    if math.floor(abs(value) * scale + 1e-9) / scale == abs(p) and (value >= 0) == (p >= 0):
        return "truncated"
    return "differs"


def _fmt(value: float, printed: str | None = None) -> str:
    """The computed value in the app's one number format, with at least one significant digit
    more than the printed value, so that rounding and truncation can be told apart."""
    shown = len(str(printed).strip().lstrip("-0.").replace(".", "")) if printed is not None else 0
    return format_number(value, max(4, shown + 1))


def _row(paper: str, section: str, item: str, printed: str, *, value: float | None = None,
         computed: str | None = None, status: str | None = None, explanation: str = "", note: str = "",
         link: dict | None = None) -> dict:
    """One gallery row; a numeric ``value`` is judged against ``printed`` unless ``status`` is given."""
    if status is None:
        if value is None:
            raise ValueError(f"{paper} / {item}: give a value or a status")
        status = judge(value, printed)
    if status not in STATUSES:
        raise ValueError(f"unknown status {status!r}")
    if computed is None and value is not None:
        computed = _fmt(value, printed)
    agrees = {"agrees": True, "truncated": False, "differs": False}.get(status)
    if status == "agrees":
        explanation = ""  # the reason a value would not agree; moot when it does
    elif not explanation:
        raise ValueError(f"{paper} / {item}: a row that does not agree needs an explanation")
    return {"paper": paper, "section": section, "item": item, "printed": str(printed), "computed": computed,
            "value": None if value is None else float(value), "status": status, "agrees": agrees,
            "explanation": explanation, "note": note, "link": link}


def _claim(paper: str, section: str, item: str, printed: str, computed: str, holds: bool, *,
           explanation: str = "", note: str = "", link: dict | None = None) -> dict:
    """A claim printed in words: it agrees when the computed facts say the same."""
    return _row(paper, section, item, printed, computed=computed, status="agrees" if holds else "differs",
                explanation="" if holds else explanation, note=note, link=link)


def _link(page: str, label: str, fallback: dict | None = None, **params) -> dict:
    """A link to ``page`` with URL ``params``; ``fallback`` is the link to use while the page
    is not part of the app."""
    out = {"page": page, "params": {k: v for k, v in params.items() if v is not None}, "label": label}
    if fallback is not None:
        out["fallback"] = fallback
    return out


def _table_link(label: str, cells, classes=None, clusters=None) -> dict:
    """A link that opens the Table lab with a table no preset holds."""
    cells = [[float(x) if not float(x).is_integer() else int(x) for x in row] for row in np.asarray(cells).tolist()]
    classes = classes or [f"C{i + 1}" for i in range(len(cells))]
    clusters = clusters or [f"K{j + 1}" for j in range(len(cells[0]))]
    return {"page": "table_lab", "params": {}, "label": label,
            "table": {"classes": [str(c) for c in classes], "clusters": [str(c) for c in clusters], "cells": cells}}


def _load(directory, name: str) -> dict:
    path = directory / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"paper values file {path} is not readable: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"paper values file {path} is not valid JSON: {exc}") from None


def _value(key: str, t: Contingency, log_base: float = math.e) -> float:
    return MEASURES[key](t, log_base=log_base)


# ---------------------------------------------------------------------- Rosenberg & Hirschberg 2007
def _differences(data: dict, symbol: str, prop: str) -> str:
    """The explanations a paper-values file gives for a cell that does not reproduce
    (its ``differences.cells`` naming the measure and the property), joined; else its
    general note."""
    diff = data.get("differences") or {}
    why = [c["why"] for c in diff.get("cells", [])
           if symbol in c.get("measures", ()) and prop in c.get("properties", ())]
    if why:
        return " ".join(why)
    return diff.get("general") or ("The paper does not state its setup fully (n, expected or sampled counts, the "
                                   "steps); the value depends on that reading.")


def _rh_rows(directory: Path) -> list[dict]:
    paper = "rh2007"
    rows = []
    fig2 = _load(directory, "rosenberg2007_figure2.json")
    compare_ab = _link("compare", "Compare A and B", a="rh_figure2_A", b="rh_figure2_B",
                       m=["f_measure", "purity", "v_measure", "vi", "ari"])
    note2 = ("Figure 2 is a picture lost in the text extraction: the tables are reconstructions, found by an "
             "exhaustive search that the printed F and V make unique up to relabelling "
             "(assets/paper_values/rosenberg2007_figure2.json).")
    tables = {s: Contingency.from_table(np.asarray(c)) for s, c in fig2["reconstructions"].items()}
    for sol in ("A", "B", "C", "D"):
        link = compare_ab if sol in "AB" else _table_link(f"Solution {sol} in the Table lab",
                                                          fig2["reconstructions"][sol])
        for key, label in (("f_measure", "F-measure"), ("v_measure", "V-measure")):
            rows.append(_row(paper, "Figure 2 and §3 (the problem of matching)", f"Solution {sol}: {label}",
                             fig2["printed"][sol][key], value=_value(key, tables[sol]), note=note2, link=link))
    labels = re.findall(r"([A-D]): F=([\d.]+), V=([\d.]+)", fig2["printed_text"]["figure_labels_in_extraction"])
    if len(labels) != 4:
        raise ValueError("rosenberg2007_figure2.json: figure_labels_in_extraction must label A, B, C and D")
    for sol, f_label, v_label in labels:
        link = compare_ab if sol in "AB" else _table_link(f"Solution {sol} in the Table lab",
                                                          fig2["reconstructions"][sol])
        f = _value("f_measure", tables[sol])
        rows.append(_row(paper, "Figure 2 (the figure's own labels)", f"Label of solution {sol}: F-Measure",
                         f_label, value=f,
                         explanation="The figure labels A and B with F = 0.5 and C and D with F = 0.6, the "
                                     "other way round from the text (A, B: 'precision and recall for each class "
                                     "is 3/5', F = 0.6; C, D: 'the harmonic mean of 3/5 and 3/7', F = 0.5). "
                                     "The reconstructions follow the text — the only assignment the search can "
                                     "satisfy — so the caption's labels are swapped.",
                         note=note2, link=link))
        rows.append(_row(paper, "Figure 2 (the figure's own labels)", f"Label of solution {sol}: V-Measure",
                         v_label, value=_value("v_measure", tables[sol]), note=note2, link=link))

    fig3 = _load(directory, "rosenberg2007_figure3.json")
    p = fig3["parameters"]
    built = generators.dom(p["C"], p["K"] - p["K_noise"], p["K_noise"], p["C_noise"], p["eps1"], p["eps2"],
                           p["eps3"], n=p["n"])
    printed = np.asarray(fig3["table"])
    same = built.shape == printed.shape and np.allclose(built.to_dense(), printed)
    rows.append(_row(paper, "Figure 3 (Dom's family with noise)",
                     f"Table for n = {p['n']}, |K| = {p['K']} (|Knoise| = {p['K_noise']}), |C| = {p['C']}, "
                     f"|Cnoise| = {p['C_noise']}, ε1 = {p['eps1']}, ε2 = {p['eps2']}, ε3 = {p['eps3']}",
                     "; ".join(" ".join(str(x) for x in r) for r in printed.tolist()),
                     computed="; ".join(" ".join(f"{x:g}" for x in r) for r in built.to_dense().tolist()),
                     status="agrees" if same else "differs",
                     explanation="" if same else "metrics.generators.dom does not build the printed table.",
                     note="Built by metrics.generators.dom with the caption's parameters: |K| counts the noise "
                          "cluster, |C| does not count the noise class (the reading that reproduces the figure).",
                     link=_link("generator_lab", "Explore Dom's generator",
                                fallback=_link("table_lab", "Figure 3 in the Table lab", preset="rh_figure3"))))

    t2 = _load(directory, "rh2007_table2.json")
    setup = (t2.get("differences") or {}).get("setup", "")
    keys = list(t2["measure_keys"].values())
    rates = properties.rates_table(properties.dom_property_rates(keys))
    # g_tab: the Generator lab's P1–P7 tab, named by its label (the page binds its tabs to the URL).
    link = _link("generator_lab", "Explore P1–P7 in the generator lab", g_tab="Properties P1–P7 (Table 2)",
                 fallback=_link("table_lab", "Figure 3's table in the Table lab", preset="rh_figure3"))
    for sym, key in t2["measure_keys"].items():
        for prop, pr in t2["rates"][sym].items():
            printed_text = f"{pr:.1f}" if float(pr).is_integer() else f"{pr:.2f}"
            c = float(rates.loc[prop, key])
            status = judge(c, printed_text)
            why = "" if status == "agrees" else _differences(t2, sym, prop)
            rows.append(_row(paper, "Table 2 (rates of satisfaction of P1–P7)", f"{sym}: {prop}", printed_text,
                             value=c, computed=format_number(c), status=status, explanation=why,
                             note=setup or "metrics.properties.dom_property_rates over the paper's grid.",
                             link=link))

    rows.append(_row(paper, "Figures 4–5 (document and pitch-accent clustering)",
                     "V, VI and Q2 against the number of clusters (V and Q2 peak at 35 clusters; Q2 at k = 10)",
                     "curves", status="not recomputable",
                     explanation="The TDT-4 documents and the Boston Directions Corpus are not available here; "
                                 "the Real data page draws the same curves for bundled data sets.",
                     link=_link("real_data", "The same curves on bundled data", rd_m=["v_measure", "vi", "q2"])))
    return rows


# ---------------------------------------------------------------------- Reichart & Rappoport 2009
def _rr_rows(directory: Path) -> list[dict]:
    paper = "rr2009"
    rr = _load(directory, "reichart2009_table1.json")
    rows = []
    r = Contingency.from_table(np.asarray(rr["solution_R"]))
    same = np.array_equal(r.to_dense(), generators.solution_r(10, 10, 3).to_dense())
    link = _link("compare", "Compare singletons and solution R", a="rr_singletons", b="rr_solution_r",
                 m=list(rr["measure_keys"].values()))
    rows.append(_row(paper, "Table 1 (top): solution R", "The printed 10 × 10 matrix is cyclic noise "
                     "(7 on the diagonal, three 1s to its right, wrapping round)", "matrix",
                     computed="equal to metrics.generators.solution_r(10, 10, 3)" if same else "different",
                     status="agrees" if same else "differs",
                     explanation="" if same else "The generator does not build the printed matrix.", link=link))
    tables = {"singletons": generators.singletons([10] * 10), "solution_R": r}
    why = {
        ("solution_R", "V"): rr["reproduction"]["solution_R"]["V"],
        ("solution_R", "NVI"): rr["reproduction"]["solution_R"]["NVI"],
        ("solution_R", "NVIK"): rr["reproduction"]["solution_R"]["NVIK"],
    }
    for sol, label in (("singletons", "Singletons"), ("solution_R", "Solution R")):
        for sym, key in rr["measure_keys"].items():
            v = _value(key, tables[sol])
            rows.append(_row(paper, "Table 1 (bottom): scores", f"{label}: {sym}", rr["printed"][sol][sym], value=v,
                             explanation=why.get((sol, sym), ""), note="Natural logarithms (VI in nats).",
                             link=link))

    # §3–4 extreme cases, on the app's extreme presets (classes of 6, 3 and 3).
    sizes = [6, 3, 3]
    cases = {
        "single cluster": (generators.single_cluster(sizes), "extreme_single_cluster"),
        "singletons": (generators.singletons(sizes), "extreme_singletons"),
        "no knowledge": (generators.no_knowledge(sizes, [4, 4, 4]), "extreme_no_knowledge"),
        "perfect": (generators.perfect(sizes), "extreme_perfect"),
    }
    note = ("Checked on 12 items in classes of 6, 3 and 3 (the app's extreme-case presets); "
            "H(C), H(K), H(C|K), H(K|C) from the table, in nats.")
    for case, printed, symbol, fn in (
        ("single cluster", "V = 0", "V", lambda t, v: (v["v_measure"], 0.0)),
        ("single cluster", "VI = H(C)", "VI", lambda t, v: (v["vi"], t.h_c)),
        ("single cluster", "NVI = 1", "NVI", lambda t, v: (v["nvi"], 1.0)),
        ("singletons", "H(C|K) = 0 and VI = H(K|C)", "VI", lambda t, v: (v["vi"], t.h_k_given_c)),
        ("singletons", "NVI = H(K|C) / H(C)", "NVI", lambda t, v: (v["nvi"], t.h_k_given_c / t.h_c)),
        ("no knowledge", "V = 0", "V", lambda t, v: (v["v_measure"], 0.0)),
        ("no knowledge", "VI = H(C) + H(K)", "VI", lambda t, v: (v["vi"], t.h_c + t.h_k)),
        ("no knowledge", "NVI = 1 + H(K)/H(C)", "NVI", lambda t, v: (v["nvi"], 1.0 + t.h_k / t.h_c)),
        ("perfect", "NVI = 0", "NVI", lambda t, v: (v["nvi"], 0.0)),
    ):
        t, preset = cases[case]
        values = evaluate(t, ["v_measure", "vi", "nvi"])
        got, expected = fn(t, values)
        extra = f"; H(C|K) = {format_number(t.h_c_given_k)}" if case == "singletons" else ""
        holds = math.isclose(got, expected, rel_tol=1e-12, abs_tol=1e-12) and (
            case != "singletons" or abs(t.h_c_given_k) <= 1e-12)
        rows.append(_claim(paper, "§3–4: the extreme cases", f"{case.capitalize()}: {printed}", printed,
                           f"{symbol} = {format_number(got)}; the right-hand side = "
                           f"{format_number(expected)}{extra}", holds,
                           explanation="The identity does not hold on this table.", note=note,
                           link=_link("table_lab", f"The {case} case in the Table lab", preset=preset)))
    rows.append(_row(paper, "Tables 2–3 (grammar induction)", "V, VI, NVI and NVIK of the induced labelings",
                     "tables", status="not recomputable",
                     explanation="The labeled parse-tree induction output (WSJ10, NEGRA10, CTB10) is not available."))
    return rows


# ---------------------------------------------------------------------- Dom 2001
def _dom_rows() -> list[dict]:
    paper = "dom2001"
    sizes = [6, 3, 3]
    tables = {"perfect": generators.perfect(sizes), "single cluster": generators.single_cluster(sizes),
              "singletons": generators.singletons(sizes), "no knowledge": generators.no_knowledge(sizes, [4, 4, 4])}
    q0 = {name: _value("q0", t) for name, t in tables.items()}
    best = min(q0, key=q0.get)
    note = "On 12 items in classes of 6, 3 and 3 (the app's extreme-case presets), in nats."
    link = _link("table_lab", "The perfect clustering in the Table lab", preset="extreme_perfect")
    rows = [
        _claim(paper, "§3: extreme cases of Q0", "Q0 is smallest for the perfect clustering (clusters and classes "
               "in one-to-one correspondence), where H(C|K) = 0 and only the model cost remains",
               "minimum at the perfect clustering",
               "; ".join(f"{k}: {format_number(v)}" for k, v in q0.items())
               + "; H(C|K) of the perfect clustering = "
               + format_number(_value('conditional_entropy', tables['perfect'])),
               best == "perfect" and abs(_value("conditional_entropy", tables["perfect"])) <= 1e-12,
               explanation="Another extreme case has a smaller Q0.", note=note, link=link),
        _row(paper, "§3: the normalized form", "Q2 of the perfect clustering (its best possible value)", "1",
             value=_value("q2", tables["perfect"]), note=note, link=link,
             explanation="Q2 of the perfect clustering is not 1."),
        _row(paper, "§5: the parametric family", "Measures on Dom's family of class/cluster distributions",
             "figures", status="not recomputable",
             explanation="Dom's own figures are not in the (stop-word stripped) text; his family, as Rosenberg & "
                         "Hirschberg extend it, is re-run in their Figure 3 and Table 2 above.",
             link=_link("generator_lab", "Explore Dom's generator",
                        fallback=_link("table_lab", "Figure 3's table in the Table lab", preset="rh_figure3"))),
    ]
    return rows


# ---------------------------------------------------------------------- Utt et al. 2014
def _utt_rows(directory: Path) -> list[dict]:
    paper = "utt2014"
    utt = _load(directory, "utt2014_example.json")
    more = _load(directory, "utt2014_section4_5.json")
    points = list(utt["gold"])
    gold = [utt["gold"][p] for p in points]
    clusters = [utt["clusters"][p] for p in points]
    fuzzy = Contingency.from_memberships(gold, clusters, mode="fuzzy")
    count = Contingency.from_memberships(gold, clusters, mode="count")
    link = _link("fuzzy_lab", "The worked example in the Fuzzy lab")
    rows = []

    per_point = Contingency.from_memberships(gold, points, mode="fuzzy").to_frame()
    t1 = utt["table1_printed"]
    for p in points:
        cells = [float(per_point.loc[g, p]) if g in per_point.index else 0.0 for g in t1["columns"]]
        statuses = [judge(v, s) for v, s in zip(cells, t1[p])]
        status = "agrees" if all(s == "agrees" for s in statuses) else "differs"
        rows.append(_row(paper, "Table 1 (mass of each point over g1–g4)", f"{p}", " ".join(t1[p]),
                         computed=" ".join(format_number(v) for v in cells), status=status,
                         explanation="" if status == "agrees" else "A cell does not agree.",
                         note="Each point's mass 1 split evenly over its gold classes "
                              "(Contingency.from_memberships, mode='fuzzy', one cluster per point).", link=link))
    frame = fuzzy.to_frame()
    t2 = utt["table2_printed"]
    for c in ("c1", "c2"):
        *cells_printed, total_printed = t2[c]
        cells = [float(frame.loc[g, c]) for g in t2["columns"][:4]]
        total = float(frame[c].sum())
        statuses = [judge(v, s) for v, s in zip(cells + [total], cells_printed + [total_printed])]
        status = "agrees" if all(s == "agrees" for s in statuses) else "differs"
        rows.append(_row(paper, "Table 2 (fuzzy contingency table; clusters as rows)", f"{c}: g1 g2 g3 g4 Σ",
                         " ".join(t2[c]), computed=" ".join(format_number(v) for v in cells + [total]), status=status,
                         explanation="" if status == "agrees" else "A cell does not agree.",
                         note="Exact masses 5/6, 1/2, 1/3, … (the project's tables are the transpose).", link=link))

    rep = utt["reproduction"]
    v_fuzzy, joint = _value("v_measure", fuzzy), _value("fuzzy_v_joint", fuzzy)
    rows.append(_row(paper, "§3: the worked example's scores", "Fuzzy V (mass split over the gold classes)",
                     utt["printed"]["fuzzy_v"], value=v_fuzzy,
                     explanation=f"Truncated, not rounded: V = {format_number(v_fuzzy)} (Rosenberg & Hirschberg's "
                                 f"normalisation by H(C) and H(K)) rounds to {v_fuzzy:.3f}. The paper's own "
                                 f"joint-entropy normalisation (eqs. 2–3) gives {format_number(joint)} instead, so the "
                                 "printed numbers follow Rosenberg & Hirschberg's.",
                     note="v_measure of Contingency.from_memberships(mode='fuzzy').", link=link))
    rows.append(_row(paper, "§3: the worked example's scores",
                     "Fuzzy V with the paper's own eqs. 2–3 (normalised by the joint entropy, footnote 1)",
                     utt["printed"]["fuzzy_v"], value=joint,
                     explanation="The normalisation finding: the paper defines h = 1 − H(C|G)/H(C,G) (eqs. 2–3, "
                                 "'typos' in Rosenberg & Hirschberg, footnote 1) but its printed .047 follows "
                                 "Rosenberg & Hirschberg's H(C) and H(K): the joint-entropy form gives "
                                 f"{format_number(joint)}, ten times more.",
                     note="fuzzy_v_joint of the same table.", link=link))
    rows.append(_row(paper, "§3: the worked example's scores", "Traditional V",
                     utt["printed"]["traditional_v"], value=_value("v_measure", count),
                     explanation=rep["traditional_v"],
                     note="v_measure of Contingency.from_memberships(mode='count'): every (class, cluster) "
                          "membership pair counted once (11 in all).", link=link))

    ar = more["ambiguity_rates"]
    example = sorted(len(g) for g in gold)
    rows.append(_claim(paper, "§4.1: ambiguity rates", "The worked example's ambiguity rates",
                       ", ".join(map(str, ar["example"]["printed"])), ", ".join(map(str, example)),
                       example == ar["example"]["printed"], explanation="The example's gold memberships differ.",
                       link=link))
    seven = generators.ambiguity_rates(len(ar["scheme_7_points"]["printed"])).tolist()
    link_lab = _link("fuzzy_lab", "Ambiguity schemes in the Fuzzy lab")
    rows.append(_claim(paper, "§4.1: ambiguity rates", "The automatic scheme for 7 points",
                       ", ".join(map(str, ar["scheme_7_points"]["printed"])), ", ".join(map(str, seven)),
                       seven == ar["scheme_7_points"]["printed"],
                       explanation="metrics.generators.ambiguity_rates gives other rates.", link=link_lab))
    e3 = ar["experiment3"]
    ambiguous = int((generators.ambiguity_rates(e3["points"]) > 1).sum())
    rows.append(_row(paper, "§4.3: Experiment 3's gold standard", f"Ambiguous points among {e3['points']}",
                     str(e3["printed_ambiguous"]), value=float(ambiguous), computed=str(ambiguous),
                     explanation="The halving scheme gives another count.", link=link_lab))

    fig9 = more["figure9"]
    g9 = [fig9["gold"][p] for p in fig9["gold"]]
    for which, mode, printed_key in (("hard", "count", "printed_hard"), ("soft", "fuzzy", "printed_soft")):
        d = generators.dissimilarity(g9, g9, mode=mode).to_numpy()
        printed = np.asarray(fig9[printed_key], dtype=float)
        ok = d.shape == printed.shape and bool(np.allclose(d, printed))
        rows.append(_row(paper, "§5.1: Figure 9 (dissimilarity of the 3-point example)",
                         f"{which.capitalize()} dissimilarity matrix",
                         "; ".join(" ".join(r) for r in fig9[printed_key]),
                         computed="; ".join(" ".join(f"{x:g}" for x in r) for r in d.tolist()),
                         status="agrees" if ok else "differs",
                         explanation="" if ok else (
                             "Not reproduced under our reading of the dissimilarity (half the mass of g's items "
                             "outside c plus c's items outside g): the off-diagonal pairs differ only by the "
                             "unambiguous p2 and p3, whose mass is 1 under any reading of the surviving text; the "
                             "paper's definition of the soft masses is in figures missing from the text "
                             "(metrics.generators.dissimilarity_adjusted)."),
                         note=f"metrics.generators.dissimilarity, mode='{mode}'.", link=link))

    # Experiments, re-run at modest sizes: the claims of Figures 4, 6 and 11.
    e1 = experiments.experiment1(_EXP1_SIZES, _EXP1_REPEATS, seed=0)
    higher = float((e1["fuzzy"] > e1["count"]).mean())
    link_exp = _link("fuzzy_lab", "Re-run the experiments in the Fuzzy lab")
    note1 = (f"Experiment 1 re-run: sizes {', '.join(map(str, _EXP1_SIZES))}, {_EXP1_REPEATS} gold standards each "
             "(the paper: 2 to ~1000, 100 each), perfect clusterings, seed 0.")
    rows.append(_claim(paper, "§4.1: Experiment 1 (Figure 4)", "Fuzzy V is consistently higher than V",
                       "consistently higher", f"fuzzy V > V for {higher:.0%} of the gold standards", higher == 1.0,
                       explanation="Some gold standards score higher with counted V.", note=note1, link=link_exp))
    top = float(e1[["fuzzy", "count"]].to_numpy().max())
    rows.append(_claim(paper, "§4.1: Experiment 1 (Figure 4)", "No measure reaches 1 on the perfect clusterings",
                       "none reach 1", f"largest value {format_number(top)}", top < 1.0,
                       explanation="A perfect clustering scored 1.", note=note1, link=link_exp))
    summary = experiments.summarize(e1)
    first, last = summary.iloc[0], summary.iloc[-1]
    falls = bool(last["fuzzy_std"] < first["fuzzy_std"] and last["count_std"] < first["count_std"])
    rows.append(_claim(paper, "§4.1: Experiment 1 (Figure 4)", "The variation of both decreases as the data grow",
                       "decreases", f"standard deviation at {format_number(first['size'])} points: "
                       f"fuzzy {format_number(first['fuzzy_std'])}, "
                       f"V {format_number(first['count_std'])}; at {format_number(last['size'])}: "
                       f"fuzzy {format_number(last['fuzzy_std'])}, "
                       f"V {format_number(last['count_std'])}", falls,
                       explanation="The spread does not shrink with size.", note=note1, link=link_exp))
    wider = int((summary["fuzzy_std"] > summary["count_std"]).sum())
    pooled_f, pooled_c = float(e1["fuzzy"].std()), float(e1["count"].std())
    rows.append(_claim(paper, "§4.1: Experiment 1 (Figure 4)", "The overall variance of fuzzy V is greater than "
                       "that of traditional V", "greater",
                       f"larger spread at {wider} of {len(summary)} sizes; pooled over all sizes "
                       f"{format_number(pooled_f)} vs {format_number(pooled_c)}",
                       wider == len(summary) and pooled_f > pooled_c,
                       explanation="Within a data size fuzzy V varies less than counted V here; only pooled over "
                                   "all sizes (where the mean changes with size) is its spread the larger. The "
                                   "sentence does not say which it means, and its 'traditional V' is the "
                                   "counting we cannot pin down (see the worked example's .014).",
                       note=note1, link=link_exp))
    e3_frame = experiments.experiment3(_EXP3_POINTS, _EXP3_STEPS, seed=0)
    note3 = (f"Experiment 3 re-run on {_EXP3_POINTS} points (the paper: 500), {_EXP3_STEPS} evenly spaced "
             "clusterings from hard to the perfect soft one, seed 0.")
    for col, label in (("fuzzy", "Fuzzy V"), ("count", "V")):
        vals = e3_frame[col].to_numpy()
        falls = bool(np.all(np.diff(vals) < 0))
        rows.append(_claim(paper, "§4.3: Experiment 3 (Figure 6)",
                           f"{label} decreases with each softer clustering, also at the perfect one",
                           "decreases", " → ".join(format_number(v) for v in vals), falls and vals[-1] < 1,
                           explanation="The values do not fall at every step.", note=note3, link=link_exp))
    for col, label in (("fuzzy_diss", "fuzzy V"), ("count_diss", "V")):
        vals = e3_frame[col].to_numpy()
        ok = math.isclose(vals[-1], 1.0, abs_tol=1e-9)
        rows.append(_claim(paper, "§5.1: Figure 11 (dissimilarity)",
                           f"With the dissimilarity step, {label} converges to 1 for the perfect soft clustering",
                           "converges to 1", " → ".join(format_number(v) for v in vals), ok,
                           explanation="The perfect soft clustering does not score 1.", note=note3, link=link_exp))
    return rows


# ---------------------------------------------------------------------- Wu et al. 2009
_WU_PROPS = {"P1": "symmetry", "P2": "n-invariance", "P3": "convex additivity", "P4": "left-domain-complete",
             "P5": "right-domain-complete"}

def _wu_rows(directory: Path) -> list[dict]:
    paper = "wu2009"
    wu = _load(directory, "wu2009_tables3_4.json")
    base = wu["log_base"]
    tables = {c: Contingency.from_table(np.asarray(wu["tables"][c])) for c in ("I", "II")}
    keys13 = list(wu["measure_keys"].values())
    link = _link("compare", "Compare clusterings I and II", a="wu_table3_I", b="wu_table3_II", m=keys13)
    rows = []
    note = ("Table 3 stored transposed (rows = classes); E, MI and VI in bits. "
            + wu["provenance"]["column_order_note"])
    for c in ("I", "II"):
        values = evaluate(tables[c], keys13, log_base=base)
        for sym, key in wu["measure_keys"].items():
            rows.append(_row(paper, "Table 4 (13 measures on Table 3)", f"Clustering {c}: {sym}",
                             wu["printed"][c][sym], value=values[key], note=note, link=link,
                             explanation="Does not reproduce at the printed precision."))
    misled = []
    for sym, key in wu["measure_keys"].items():
        m = MEASURES[key]
        v1, v2 = (m(tables[c], log_base=base) for c in ("I", "II"))
        if (v1 > v2) == m.higher_is_better and v1 != v2:
            misled.append(sym)
    rows.append(_claim(paper, "§3.3 (on Table 4)", "Only E, P and MI rate the uniform clustering I better",
                       "E, P, MI", ", ".join(misled), set(misled) == {"E", "P", "MI"},
                       explanation="Other measures also prefer clustering I.", link=link))

    cv = wu["cv"]
    link_cv = _link("real_data", "CV and DCV on bundled data")
    rows.append(_row(paper, "§3.2: the uniform effect", "CV_0 of the class sizes 30, 2, 6, 10, 2", cv["CV0"],
                     value=generators.cv(cv["class_sizes"]), link=link_cv,
                     explanation="metrics.generators.cv does not give the printed value."))
    for c in ("I", "II"):
        rows.append(_row(paper, "§3.2: the uniform effect", f"CV_1 of clustering {c}", cv["CV1"][c],
                         value=generators.cv(tables[c].col_sums), link=link_cv,
                         explanation="metrics.generators.cv does not give the printed value."))

    sizes = _load(directory, "wu2009_class_sizes.json")
    t6 = sizes["table6"]
    cv6 = {}
    for ds, cls in t6["class_sizes"].items():
        cv6[ds] = generators.cv(cls)
        rows.append(_row(paper, "Table 6 (sampled hitech data sets)", f"Data set {ds}: CV_0 of "
                         f"{', '.join(map(str, cls))}", t6["printed_cv0"][ds], value=cv6[ds], link=link_cv,
                         explanation="Does not reproduce at the printed precision."))
    lo, hi = t6["text_range"]["low"], t6["text_range"]["high"]
    rows.append(_row(paper, "§4.2 (text on Table 6)", "Smallest CV_0 of the sampled data sets", lo,
                     value=min(cv6.values()), link=link_cv, explanation="Does not reproduce."))
    rows.append(_row(paper, "§4.2 (text on Table 6)", "Largest CV_0 of the sampled data sets", hi,
                     value=max(cv6.values()), link=link_cv, explanation="Does not reproduce."))
    sim = sizes["simulated"]
    sim_cv = {n1: generators.cv([n1, sim["total"] - n1]) for n1 in sim["n1"]}
    rows.append(_row(paper, "§4.2: simulated data sets", "CV_0 for n_1 = 200, n_2 = 5800",
                     sim["printed_cv0_n1_200"], value=sim_cv[200], link=link_cv, explanation="Does not reproduce."))
    rows.append(_row(paper, "§4.2: simulated data sets", "Smallest CV_0 over n_1 ∈ {3000, …, 200}",
                     sim["printed_cv0_range"]["low"], value=min(sim_cv.values()), link=link_cv,
                     explanation="Does not reproduce."))
    hit = sizes["hitech"]
    rows.append(_row(paper, "Table 8 (benchmark data sets): hitech", "#Case = the sum of the class sizes",
                     hit["printed_cases"], value=float(sum(hit["class_sizes"])), computed=str(sum(hit["class_sizes"])),
                     link=link_cv, explanation="The class sizes do not add up to the printed count."))
    rows.append(_row(paper, "Table 8 (benchmark data sets): hitech", "CV_0 of 485, 116, 429, 603, 481, 187",
                     hit["printed_cv0"], value=generators.cv(hit["class_sizes"]), link=link_cv,
                     explanation="Does not reproduce at the printed precision."))

    w10 = _load(directory, "wu2009_table10.json")
    t10 = {c: Contingency.from_table(np.asarray(w10["tables"][c])) for c in ("I", "II")}
    sums = sizes["table10_sums"]
    link10 = _link("compare", "Compare Table 10's I and II", a="wu_table10_I", b="wu_table10_II",
                   m=list(w10["normalized_measures"].values()))
    for c in ("I", "II"):
        t = t10[c]
        got = (", ".join(f"{x:g}" for x in t.col_sums) + " | " + ", ".join(f"{x:g}" for x in t.row_sums)
               + f" | {t.n:g}")
        printed = ", ".join(sums["clusters"]) + " | " + ", ".join(sums["classes"]) + " | " + sums["total"]
        ok = got == printed
        rows.append(_row(paper, "Table 10 (sensitivity)", f"Clustering {c}: cluster sums | class sums | n", printed,
                         computed=got, status="agrees" if ok else "differs",
                         explanation="" if ok else "The stored table's margins differ from the printed sums.",
                         note="Stored transposed: the paper's cluster rows are our columns.", link=link10))
    v10 = {c: evaluate(t10[c]) for c in ("I", "II")}
    norm = w10["normalized_measures"]
    same = [s for s, k in norm.items() if math.isclose(v10["I"][k], v10["II"][k], abs_tol=1e-12)]
    same_all = [MEASURES[k].symbol for k in MEASURES if k in v10["I"] and k in v10["II"]
                and math.isclose(v10["I"][k], v10["II"][k], abs_tol=1e-12)]
    rows.append(_claim(paper, "§5.2 (Table 11, not in the extracted text)",
                       "All measures differ on I and II except VD_n and F_n", "VD_n, F_n",
                       ", ".join(same), set(same) == {"VD_n", "F_n"},
                       explanation="Other normalized measures do not tell the two apart either.",
                       note="Among the seven normalized measures. Over every registered measure the unnormalized "
                            "max-based ones are unchanged too: " + ", ".join(same_all) + " — as Wu et al.'s "
                            "explanation ('both use maximum functions') predicts.", link=link10))
    diffs = {s: abs(v10["I"][k] - v10["II"][k]) for s, k in norm.items()}
    most = max(diffs, key=diffs.get)
    rows.append(_claim(paper, "§5.2 (Table 11, not in the extracted text)",
                       "VI_n is the most sensitive measure (largest difference between I and II)", "VI_n",
                       f"{most}: |Δ| = {format_number(diffs[most])} (next: "
                       + ", ".join(f"{s} {format_number(d)}"
                                   for s, d in sorted(diffs.items(), key=lambda x: -x[1])[1:3]) + ")",
                       most == "VI_n", explanation="Another normalized measure changes more.", link=link10))

    # Table 5 / Proposition 1 / Lemma 4: identities between the normalized measures.
    link5 = _link("compare", "Compare Table 3's I and II", a="wu_table3_I", b="wu_table3_II",
                  m=["gamma_n", "hubert_gamma", "r_n", "j_prime_n", "ms_prime_n", "vi_n", "nmi_arithmetic"])
    all_tables = list(tables.values()) + list(t10.values())
    vals = [evaluate(t) for t in all_tables]
    note5 = "Checked on the four tables of Tables 3 and 10."
    for item, printed, pairs in (
        ("Proposition 1 (2): Γ_n ≡ Γ", "Γ_n = Γ", [(v["gamma_n"], v["hubert_gamma"]) for v in vals]),
        ("Proposition 1 (1): J'_n ≡ MS'_n", "J'_n = MS'_n", [(v["j_prime_n"], v["ms_prime_n"]) for v in vals]),
        ("Proposition 1 (1): R_n ⇔ J'_n (R_n = 1 − J'_n)", "R_n ⇔ J'_n",
         [(v["r_n"], 1.0 - v["j_prime_n"]) for v in vals]),
        ("§4.1 after Lemma 4: VI_n + MI_n = 1 with MI_n = MI / ((H(C) + H(P))/2)", "VI_n + MI_n = 1",
         [(v["vi_n"] + v["nmi_arithmetic"], 1.0) for v in vals]),
    ):
        holds = all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) for a, b in pairs)
        rows.append(_claim(paper, "Table 5 and Proposition 1 (normalized measures)", item, printed,
                           "; ".join(f"{format_number(a)} vs {format_number(b)}" for a, b in pairs), holds,
                           explanation="The identity fails on one of the tables.", note=note5, link=link5))

    t12 = _load(directory, "wu2009_table12.json")
    keys12 = list(t12["measure_keys"].values()) + list(t12["unnormalized_keys"].values())
    checks = properties.properties_table(keys12).set_index(["measure", "property"])["holds"]
    prop_names = {"P1": "symmetry", "P2": "n_invariance", "P3": "convex_additivity", "P4": "left_domain_complete",
                  "P5": "right_domain_complete"}
    link12 = _link("property_checker", "Check the properties live",
                   fallback=_link("compare", "Compare Table 10's I and II", a="wu_table10_I", b="wu_table10_II",
                                  m=list(t12["measure_keys"].values())))
    for sym, key in t12["measure_keys"].items():
        for prop, printed in t12["table"][sym].items():
            holds = bool(checks[(key, prop_names[prop])])
            un_key = t12["unnormalized_keys"].get(sym)
            un_holds = bool(checks[(un_key, prop_names[prop])]) if un_key else None
            computed = "Yes" if holds else ("Yes*" if un_holds else "No")
            status = "agrees" if computed == printed else "differs"
            expl = _differences(t12, sym, prop) if status == "differs" else ""
            detail = {"Yes": "holds", "No": "fails", "Yes*": f"fails; holds for the unnormalized "
                                                              f"{MEASURES[un_key].symbol if un_key else ''}"}[computed]
            # Wu's P1–P5 shown as W1–W5: the app's P1–P7 are Dom's (Rosenberg & Hirschberg's Table 2).
            rows.append(_row(paper, "Table 12 (math properties; Wu et al.'s P1–P5, shown as W1–W5)",
                             f"{sym}: W{prop[1:]} {_WU_PROPS[prop]}",
                             printed, computed=f"{computed} ({detail})", status=status, explanation=expl,
                             note="metrics.properties.check_properties: seeded random tables (200 per property). "
                                  + (t12.get("differences") or {}).get("reading", t12.get("note", "")),
                             link=link12))

    rows.append(_row(paper, "Figure 6 (the number of clusters on la2)",
                     "VI_n, VD_n and R_n find the optimal cluster number 5 as k runs from 2 to 15", "figure",
                     status="not recomputable",
                     explanation="The la2 documents are not bundled; the Real data page runs the same sweep "
                                 "(k = 2–15) on bundled data sets.",
                     link=_link("real_data", "The same sweep on bundled data",
                                rd_m=["vi_n", "vd_n", "r_n", "vi", "van_dongen", "rand"], rd_k=["2", "15"])))
    rows.append(_row(paper, "Tables 7–9 (benchmark data sets)", "Rank correlations between DCV and the measures",
                     "tables", status="not recomputable",
                     explanation="The 29 benchmark data sets and the CLUTO clusterings are not available.",
                     link=_link("real_data", "DCV on bundled data")))
    return rows


# ---------------------------------------------------------------------- all
def gallery_rows(directory: str | Path | None = None, papers: Iterable[str] | None = None) -> list[dict]:
    """Every row of the gallery, paper by paper (order of :data:`PAPERS`).

    ``directory`` holds the ``*.json`` paper values (default :data:`ASSET_DIR`); ``papers``
    limits the rows to some of :data:`PAPERS`. Raises ``ValueError`` naming a file that is
    missing or malformed, ``KeyError`` for an unknown paper.
    """
    directory = ASSET_DIR if directory is None else Path(directory)
    chosen = list(PAPERS) if papers is None else list(papers)
    unknown = [p for p in chosen if p not in PAPERS]
    if unknown:
        raise KeyError(f"unknown paper(s) {unknown}; known: {', '.join(PAPERS)}")
    builders = {"rh2007": lambda: _rh_rows(directory), "rr2009": lambda: _rr_rows(directory),
                "dom2001": _dom_rows, "utt2014": lambda: _utt_rows(directory), "wu2009": lambda: _wu_rows(directory)}
    rows = []
    for p in PAPERS:
        if p in chosen:
            rows.extend(builders[p]())
    return rows


def gallery_frame(directory: str | Path | None = None, papers: Iterable[str] | None = None) -> pd.DataFrame:
    """:func:`gallery_rows` as a DataFrame (columns as listed in the module docstring)."""
    return pd.DataFrame(gallery_rows(directory, papers), columns=COLUMNS)
