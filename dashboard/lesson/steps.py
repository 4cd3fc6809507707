"""The lesson: the papers' arguments in an order a lecture can follow, one step per URL
(``lesson?step=N``).

A step is one entry of :data:`STEPS`: a title, its source, and a builder that turns the sidebar's
settings into a :class:`View` — a short narrative (every number in it computed here, by
``metrics``, never typed), the one chart that proves the claim, and "explore this" links that
open the full page in the same state (every parameter of that page named, so nothing is left to
what the session last did). Adding a step is adding an entry; the page, the Back/Next links, the
contents list and the tests follow :data:`STEPS`.

Charts reuse the other pages' figures through :func:`lesson_charts.readable` (type large enough
for the back of a room); their numbers come from the same cached computations as those pages.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import plotly.graph_objects as go

import metrics
from dashboard.chance import data as cdata
from dashboard.chance import views as cv
from dashboard.chance import vocabulary as cvocab
from dashboard.compare.charts import cached_preference_figure
from dashboard.compare.view import A, B, preference_table, verdict
from dashboard.fuzzy import views as fz
from dashboard.generator import views as gv
from dashboard.lesson import charts as lesson_charts
from dashboard.lesson import questions as q
from dashboard.lesson.links import (
    CHANCE,
    COMPARE,
    FUZZY_LAB,
    GALLERY,
    GENERATOR_LAB,
    PAGE,
    PROPERTY_CHECKER,
    TABLE_LAB,
    Link,
    compare_state,
    explore,
    fuzzy_lab_state,
    generator_lab_state,
    property_checker_state,
    shared_params,
    table_lab_state,
)
from dashboard.lesson.questions import Question
from dashboard.papers import facts
from dashboard.properties import views as pv
from dashboard.ui.controls import Settings
from dashboard.ui.figures.charts import cached_goodness_figure
from dashboard.ui.presets import load_presets
from dashboard.ui.tables import evaluate_cached
from metrics import properties
from metrics.core.formatting import format_number as num
from metrics.measures.matching import f_matches
from metrics.papers import generators


@dataclass(frozen=True)
class View:
    """What a step shows: narrative (Markdown), the chart, a caption under it, "explore this"
    links, presets whose printed-vs-computed notes follow the chart, an optional legend
    (term → statement) and notes ((title, Markdown), each in an expander), and the question it
    opens with (answered from the same numbers as the chart)."""

    narrative: str
    figure: go.Figure
    caption: str = ""
    explore: tuple[Link, ...] = ()
    facts: tuple[str, ...] = ()
    legend: dict[str, str] = field(default_factory=dict)
    question: Question | None = None
    notes: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Step:
    key: str
    title: str
    source: str
    build: Callable[[Settings], View]


# ---------------------------------------------------------------------- URLs
def parse_step(raw: str | None) -> tuple[int, str | None]:
    """(step number, note) for the URL's ``step``: missing → step 1, no note; anything that is not
    the number of a step (text, 0, past the last step, 2.5) → step 1 with a note naming it."""
    if raw is None:
        return 1, None
    text = str(raw).strip()
    if text.isdigit() and 1 <= int(text) <= len(STEPS):
        return int(text), None
    return 1, (f"There is no step {text!r} in this lesson — its steps are 1 to {len(STEPS)}. "
               "Showing step 1.")


_SWITCH = {"1": True, "true": True, "0": False, "false": False}


def parse_switch(raw: str | None, name: str) -> tuple[bool, str | None]:
    """(on, note) for a switch in the URL (``present``, ``reveal``): 1/true on, 0/false or missing
    off; anything else off, with a note naming it."""
    if raw is None:
        return False, None
    text = str(raw).strip().lower()
    if text in _SWITCH:
        return _SWITCH[text], None
    return False, f"The link's {name}={str(raw)!r} is not 1 or 0: showing the step without it."


def step_link(n: int, label: str, settings: Settings, present: bool = False) -> Link:
    """The link to step ``n`` (in the presenter view if ``present``), carrying the sidebar's settings."""
    params = {"step": str(n), **({"present": "1"} if present else {}), **shared_params(settings)}
    return Link(PAGE, label, params, help=f"{n}. {STEPS[n - 1].title}")


def neighbours(n: int, settings: Settings, present: bool = False) -> tuple[Link | None, Link | None]:
    """(Back, Next) links of step ``n`` (the step's title as their tooltip); None at the ends."""
    back = step_link(n - 1, f"Back to step {n - 1}", settings, present) if n > 1 else None
    ahead = step_link(n + 1, f"Next: step {n + 1}", settings, present) if n < len(STEPS) else None
    return back, ahead


def build_view(n: int, settings: Settings) -> View:
    """What step ``n`` (1-based) shows under the sidebar's settings."""
    return STEPS[n - 1].build(settings)


# ---------------------------------------------------------------------- helpers
def _symbols(keys) -> str:
    keys = list(keys)
    names = [metrics.MEASURES[k].symbol for k in keys]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _classes_text(t: metrics.Contingency) -> str:
    sizes = set(np.asarray(t.row_sums).tolist())
    m = t.shape[0]
    return f"{m} classes of {num(sizes.pop())} items" if len(sizes) == 1 else f"{m} classes"


def _values(preset: str, settings: Settings) -> tuple[metrics.Contingency, dict[str, float]]:
    t = load_presets()[preset].contingency()
    return t, evaluate_cached(t, settings.log_base, settings.beta)


def _comparison(a: str, b: str, keys: list[str], settings: Settings):
    presets = load_presets()
    ta, va = _values(a, settings)
    tb, vb = _values(b, settings)
    pref = preference_table(va, vb, keys)
    fig = cached_preference_figure(pref, presets[a].title, presets[b].title)
    return (ta, va), (tb, vb), pref, fig


def _by_side(pref, side: str) -> list[str]:
    return [k for k, p in zip(pref["key"], pref["prefers"]) if p == side]


# ---------------------------------------------------------------------- 1. disagreement
DISAGREE_PRESET = "rr_singletons"
# A few well-known measures of each family (the Table lab shows all of them).
DISAGREE_KEYS = ["homogeneity", "completeness", "v_measure", "nmi_arithmetic", "ami", "vi", "nvi",
                 "purity", "inverse_purity", "f_measure", "vd_n",
                 "rand", "ari", "jaccard", "fowlkes_mallows",
                 "bcubed_precision", "bcubed_recall", "bcubed_f"]


def _disagree(settings: Settings) -> View:
    t, v = _values(DISAGREE_PRESET, settings)
    keys = [k for k in DISAGREE_KEYS if k in v]
    good = {k: metrics.MEASURES[k].goodness(v[k]) for k in keys}
    lo, hi = min(good.values()), max(good.values())
    at = lambda x: _symbols(k for k in keys if math.isclose(good[k], x, abs_tol=1e-12))  # noqa: E731
    fig = cached_goodness_figure(tuple((k, v[k]) for k in keys), tuple(keys))
    narrative = (
        f"Singletons put each of the {num(t.n)} items of Reichart & Rappoport's data ({_classes_text(t)}) in a "
        f"cluster of its own, and {len(keys)} measures of all four families score this one table. Every cluster "
        f"is pure, so homogeneity h = {num(v['homogeneity'])} and purity P = {num(v['purity'])}; no class stays "
        f"together, so completeness c = {num(v['completeness'])} and inverse purity IP = "
        f"{num(v['inverse_purity'])}. ARI, which counts pairs of items and corrects for chance, gives "
        f"{num(v['ari'])}. On the common goodness scale (1 = best) the verdicts run from {num(lo)} ({at(lo)}) to "
        f"{num(hi)} ({at(hi)}): each family asks its own question — what a cluster tells about the class "
        "(information), how well each class or cluster matches its best counterpart (matching), which pairs of "
        "items are kept together (pairs), how each item's cluster resembles its class (BCubed).")
    asked = {metrics.MEASURES[k].symbol: good[k] for k in ("homogeneity", "completeness", "v_measure", "ari")}
    question = q.pick_question(
        f"Singletons put each of the {num(t.n)} items in a cluster of its own. Which of these measures rates them "
        "best on the common goodness scale (1 = best)?", asked, "max")
    return View(narrative, lesson_charts.readable(fig, height=int(140 + 30 * len(keys))), question=question,
                caption="Every measure of the table on the registry's common goodness scale (1 = best), grouped by "
                        "family; values from `metrics.evaluate`.",
                explore=(explore(TABLE_LAB, "Explore this table and all measures in the Table lab",
                                 table_lab_state(DISAGREE_PRESET), settings),))


# ---------------------------------------------------------------------- 2. V and singletons
SINGLETONS_KEYS = ["v_measure", "nvi", "vi", "ari", "vd_n"]


def _v_singletons(settings: Settings) -> View:
    a, b = "rr_singletons", "rr_solution_r"
    (ta, va), (tb, vb), pref, fig = _comparison(a, b, SINGLETONS_KEYS, settings)
    kept = np.asarray(tb.to_dense()).max(axis=1)
    size = int(tb.row_sums[0])
    how = (f"keeps {num(int(kept[0]))} of each class's {num(size)} items in the class's own cluster and sends the "
           f"other {num(size - int(kept[0]))} to as many other clusters" if len(set(kept.tolist())) == 1
           else "keeps most of each class in the class's own cluster")
    v_side = pref.set_index("key").loc["v_measure", "prefers"]
    sentence = (f"V rates singletons higher ({num(va['v_measure'])} against {num(vb['v_measure'])})"
                if v_side == A else f"V rates them {num(va['v_measure'])} and {num(vb['v_measure'])}")
    why = (f" V is the harmonic mean of homogeneity and completeness, and singletons' perfect homogeneity "
           f"({num(va['homogeneity'])}) outweighs their poor completeness ({num(va['completeness'])})."
           if v_side == A else "")
    others = _by_side(pref, B)
    narrative = (
        f"On the same {num(ta.n)} items ({_classes_text(ta)}), solution R {how}; singletons put every item "
        f"alone. {sentence}, while {_symbols(others) or 'no other measure'} prefer solution R." + why
        + " The note under the chart sets these numbers beside the ones Reichart & Rappoport print.")
    if settings.beta != 1:
        narrative += f" (V here is V_β with β = {settings.beta:g}, from the sidebar; the paper's β is 1.)"
    question = q.side_question(
        pref, "v_measure", {A: "singletons", B: "solution R"},
        f"Solution R keeps most of each of the {_classes_text(ta)} together; singletons put every item alone. "
        "Which will V prefer?")
    return View(narrative, lesson_charts.readable(fig), question=question,
                caption=f"A = singletons, B = solution R, each measure on the common goodness scale. "
                        f"{verdict(pref, 'singletons', 'solution R')}",
                explore=(explore(COMPARE, "Explore this in Compare — with the morph from solution R to singletons",
                                 compare_state(a, b, SINGLETONS_KEYS), settings),),
                facts=(b, a))


# ---------------------------------------------------------------------- 3. VI's range
def _vi_range(settings: Settings) -> View:
    curve = pv.range_curve(("vi", "nvi"), settings.log_base, settings.beta)
    fig = pv.range_figure(curve, ["vi", "nvi"])

    def series(solution: str, key: str):
        g = curve[(curve["solution"] == solution) & (curve["key"] == key)].sort_values("n")
        return g["n"].to_numpy(), g["classes"].to_numpy(), g["value"].to_numpy()

    n, _, vi_single = series("single cluster", "vi")
    _, _, nvi_single = series("single cluster", "nvi")
    _ns, ms, nvi_singletons = series("singletons", "nvi")
    c = pv.CLASS_SIZE
    flat = bool(np.allclose(nvi_single, nvi_single[0], rtol=0, atol=1e-12))
    at_c = nvi_singletons[ms == c]
    single = (f"its NVI is {num(nvi_single[0])} at every n" if flat
              else f"its NVI moves from {num(nvi_single[0])} to {num(nvi_single[-1])}")
    narrative = (
        f"{facts.VI_RANGE} Here m classes of {c} items, n = {c}m from {num(int(n[0]))} to {num(int(n[-1]))}: the "
        f"single cluster — knowing nothing — has VI = H(C) = log m, from {num(vi_single[0])} to "
        f"{num(vi_single[-1])} {settings.unit}, so a VI value means nothing without n; {single}. Singletons' NVI = "
        f"H(K|C)/H(C) = log {c} / log m falls from {num(nvi_singletons[0])} to {num(nvi_singletons[-1])} as classes "
        "are added"
        + (f", passing {num(at_c[0])} at m = {c}" if len(at_c) else "")
        + ": NVI's 1 marks a solution as bad as one cluster, and singletons fall below it only when there are more "
          "classes than items per class.")
    question = q.trend_question(
        f"Add classes of {c} items, so n grows. What happens to the VI of the single cluster — the solution that "
        "knows nothing?", float(vi_single[0]), float(vi_single[-1]),
        f"VI of the single cluster ({settings.unit}) as n grows from {num(int(n[0]))} to {num(int(n[-1]))}")
    return View(narrative, lesson_charts.readable(fig, height=460), question=question,
                caption=f"Reichart & Rappoport's reference solutions on m classes of {c} items, against n (log axis); "
                        f"values in {settings.unit} from `metrics.evaluate`.",
                explore=(explore(PROPERTY_CHECKER, "Explore this in the Property checker",
                                 property_checker_state(p_m="nvi", p_tab=pv.RANGE_TAB), settings),))


# ---------------------------------------------------------------------- 4. uniform effect
UNIFORM_KEYS = ["purity", "conditional_entropy", "mutual_info", "vd_n", "vi_n"]


def _uniform(settings: Settings) -> View:
    a, b = "wu_table3_I", "wu_table3_II"
    (ta, _), (tb, _), pref, fig = _comparison(a, b, UNIFORM_KEYS, settings)
    cv0 = generators.cv(ta.row_sums)
    cv1 = {s: generators.cv(t.col_sums) for s, t in (("I", ta), ("II", tb))}
    dcv = {s: generators.dcv(t) for s, t in (("I", ta), ("II", tb))}
    for_i, for_ii = _by_side(pref, A), _by_side(pref, B)
    narrative = (
        f"{num(ta.n)} documents in {ta.shape[0]} classes of very different sizes (CV₀ = {num(cv0)}, the "
        f"coefficient of variation of the class sizes). Clustering I is what K-means tends to produce — clusters of "
        f"{'equal' if cv1['I'] == 0 else 'near-equal'} size (CV₁ = {num(cv1['I'])}, so DCV = CV₁ − CV₀ = "
        f"{num(dcv['I'])}), splitting the large class "
        f"and merging small ones; clustering II follows the classes (CV₁ = {num(cv1['II'])}, DCV = "
        f"{num(dcv['II'])}). "
        + (f"{_symbols(for_i)} rate the uniform clustering I higher" if for_i else "No measure here prefers I")
        + (f", while {_symbols(for_ii)}, normalized by Wu et al., prefer II." if for_ii else ".")
        + " A strongly negative DCV is the warning sign that a measure may be rewarding the uniform effect.")
    question = q.side_question(
        pref, "purity", {A: "I (clusters of equal size)", B: "II (follows the classes)"},
        f"Classes of very different sizes (CV₀ = {num(cv0)}). Clustering I makes clusters of equal size, as "
        "K-means tends to; clustering II follows the classes. Which will purity prefer?")
    return View(narrative, lesson_charts.readable(fig), question=question,
                caption=f"A = clustering I, B = clustering II (Wu et al.'s Table 3, stored classes × clusters). "
                        f"{verdict(pref, 'I', 'II')} CV and DCV from `metrics.papers.generators.cv` / `dcv`.",
                explore=(explore(COMPARE, "Explore this in Compare", compare_state(a, b, UNIFORM_KEYS), settings),))


# ---------------------------------------------------------------------- 5. matching
MATCHING_KEYS = ["f_measure", "purity", "v_measure", "vi", "ari"]


def _matching(settings: Settings) -> View:
    presets = load_presets()
    sols = {s: f"rh_figure2_{s}" for s in "ABCD"}
    tables, titles, v = {}, {}, {}
    for s, key in sols.items():
        t, values = _values(key, settings)
        tables[s], v[s] = t.to_frame(), values
        titles[s] = f"{s}\nF = {num(values['f_measure'])}\nV = {num(values['v_measure'])}"
    note = ("Reconstructed tables (the figure is lost in the text extraction;<br>the printed F and V make them "
            "unique). Outlined: the cells F reads.")
    fig = lesson_charts.matching_figure(tables, titles, note)
    ta = presets[sols["A"]].contingency()
    matched = [int(ta.to_dense()[i, j]) for i, j in f_matches(ta)]
    tc = presets[sols["C"]].contingency()
    narrative = (
        "The F-measure scores each class by its best cluster only — the outlined cells. In A and B every matched "
        f"cell holds {num(matched[0])} of its class's {num(int(ta.row_sums[0]))} items, so F = "
        f"{num(v['A']['f_measure'])} for both, yet A spreads each class's other items over two clusters and B "
        f"over one: V sees B as the better clustering ({num(v['B']['v_measure'])} against "
        f"{num(v['A']['v_measure'])}). C and D have the same {tc.shape[0]} matched cells, F = "
        f"{num(v['C']['f_measure'])} for both, but D keeps the leftover items in pure small clusters where C mixes "
        f"them: V = {num(v['D']['v_measure'])} against {num(v['C']['v_measure'])}. F cannot tell either pair "
        "apart — the unmatched cells reach it only through the cluster sizes.")
    if settings.beta != 1:
        narrative += f" (V here is V_β with β = {settings.beta:g}, from the sidebar.)"
    question = q.side_question(
        preference_table(v["A"], v["B"], ["f_measure"]), "f_measure", {A: "A", B: "B"},
        "In A each class's items outside its matched cluster are spread over two clusters, in B they stay in one. "
        "Which will the F-measure prefer?")
    return View(narrative, fig, question=question,
                caption="Rosenberg & Hirschberg 2007, Figure 2 and §3, reconstructed (rows = classes, columns = "
                        "clusters). F and V computed by `metrics`; outlines from "
                        "`metrics.measures.matching.f_matches`.",
                explore=(explore(COMPARE, "Explore A against B in Compare",
                                 compare_state(sols["A"], sols["B"], MATCHING_KEYS), settings),
                         explore(COMPARE, "Explore C against D in Compare",
                                 compare_state(sols["C"], sols["D"], MATCHING_KEYS), settings),
                         explore(GALLERY, "How the tables were reconstructed: the Paper gallery",
                                 {"gal_p": ["rh2007"], "gal_open": "false"}, settings)))


# ---------------------------------------------------------------------- 6. Dom's P1–P7
def _dom(settings: Settings) -> View:
    rates = gv.property_rates(settings.log_base, settings.beta)
    comparison = gv.table2_comparison(rates)
    ours, printed, differs = gv.comparison_frames(comparison)
    all_ours = [m for m in ours.index if bool((ours.loc[m] == 1).all())]
    all_printed = [m for m in printed.index if bool((printed.loc[m] == 1).all())]
    n_diff = int(differs.to_numpy().sum())
    titles = (f"Ours — metrics, n = {num(properties.PROPERTY_GRID_N)}",
              f"Printed — {gv.table2()['source'].split(',')[0]}")
    fig = lesson_charts.table2_figure(ours, printed, differs, titles)
    listed = _names(all_ours)
    narrative = (
        "Dom's properties P1–P5 and Rosenberg & Hirschberg's P6–P7 say how a measure should move when one parameter "
        "of Dom's generator moves: one more useful cluster, more error mass, a noise cluster or a noise class "
        "(legend below). A rate is the share of the grid's steps where the measure moves the right way. "
        + (f"On our grid {listed} satisfy all seven on every step"
           + (", as in the printed table" if all_ours == all_printed else
              f"; the printed table says so of {', '.join(all_printed) or 'none'}") + ". " if all_ours else
           "On our grid no measure satisfies all seven on every step. ")
        + _table2_summary(comparison, n_diff, ours.size))
    if settings.beta != 1:
        narrative += f" (V-Measure here is V_β with β = {settings.beta:g}; the paper's is β = 1.)"
    question = q.count_question(
        "Dom's seven properties P1–P7 say how a measure should move as the clustering gets better or worse. How "
        f"many of the {len(ours.index)} measures of Rosenberg & Hirschberg's Table 2 satisfy all seven on every "
        "step of the grid?", len(all_ours), all_ours, "Measures at rate 1 in all seven columns on our grid")
    return View(narrative, fig, question=question, notes=(_table2_differences(comparison),),
                caption="Rows: Table 2's measures; columns: P1–P7; colour and label: the rate (two decimals, as "
                        "printed). Ours from `metrics.properties.dom_property_rates` over the paper's grid (cached).",
                explore=(explore(GENERATOR_LAB, "Explore this in the Generator lab (every measure, the failing "
                                                "steps, the reasons)",
                                 generator_lab_state(g_tab=gv.PROPERTIES_TAB), settings),),
                legend=dict(properties.PROPERTIES))


def _table2_summary(comparison, n_diff: int, cells: int) -> str:
    """Where ours and the printed Table 2 differ, counted from the comparison: how many cells, in
    which measures, and the reason they share."""
    if not n_diff:
        return f"All {num(cells)} printed cells agree with ours at the printed precision."
    off = comparison[~comparison["agrees"]]
    by_measure = off.groupby("measure", sort=False).size()
    exact = [m for m in dict.fromkeys(comparison["measure"]) if m not in by_measure.index]
    return (f"{num(n_diff)} of the {num(cells)} printed cells differ from ours at the printed precision (outlined): "
            + ", ".join(f"{m} {num(int(c))}" for m, c in by_measure.items())
            + (f"; {_names(exact)} agree everywhere" if exact else "")
            + ". The paper does not state n, whether its tables hold expected or sampled counts, what a step is, "
              "or how equality is judged, so those cells depend on a reading — the note below says why each "
              "differs.")


def _names(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _table2_differences(comparison) -> tuple[str, str]:
    """(title, Markdown): every differing cell of Table 2, grouped by its explanation
    (``generator.views.explanations`` over ``assets/paper_values/rh2007_table2.json``)."""
    notes = gv.table2()["differences"]
    groups = gv.explanations(comparison)
    lines = [f"{notes['general']}", "", f"*How ours is computed:* {notes['setup']}", ""]
    lines += [f"- **{', '.join(cells)}** ({num(len(cells))}): {why}" for why, cells in groups]
    return "Where and why ours differs from the printed Table 2", "\n".join(lines)


# ---------------------------------------------------------------------- 7. ambiguous data
FUZZY: dict[str, Any] = {"n": 100, "scheme": "share", "classes": 100, "soft": 100, "noise": 0, "seed": 0,
                         "measure": "v_measure"}


def _fuzzy(settings: Settings) -> View:
    f = FUZZY
    fig, frame = fz.ambiguity_chart(f["n"], f["scheme"], f["classes"], f["soft"] / 100, f["noise"] / 100, f["seed"],
                                    f["measure"], settings.log_base, settings.beta, None)
    first, last = frame.iloc[0], frame.iloc[-1]
    inner = frame.iloc[1:-1]
    mid = frame.iloc[len(frame) // 2]
    above = bool((inner["fuzzy"] > inner["count"]).all())
    ends_equal = math.isclose(first["fuzzy"], first["count"]) and math.isclose(last["fuzzy"], last["count"])
    diss = sorted({num(x) for x in frame[["fuzzy_diss", "count_diss"]].to_numpy().ravel()})
    fall = (f"fuzzy V from {num(first['fuzzy'])} to {num(last['fuzzy'])}, counted V from {num(first['count'])} to "
            f"{num(last['count'])}")
    if ends_equal:
        fall = (f"from {num(first['fuzzy'])} with no ambiguous point to {num(last['fuzzy'])} when every point is "
                "ambiguous")
    narrative = (
        f"Utt et al.'s ambiguous data: a point may belong to several gold classes. Here {num(f['n'])} points, a "
        f"growing share of them in two of {num(f['classes'])} classes, and the clustering is the gold standard "
        f"itself — the perfect soft clustering. Still both V's fall as ambiguity grows, {fall}. "
        + (f"In between, fuzzy V — each point's mass split over its classes — stays above counted V (with "
           f"{num(100 * mid['rate'])} % of the points ambiguous: {num(mid['fuzzy'])} against {num(mid['count'])})"
           + ("; at the ends, where every point has as many classes as every other, the two coincide. "
              if ends_equal else ". ") if above else "Fuzzy V and counted V cross along the sweep. ")
        + (f"With Utt et al.'s dissimilarity step both score {diss[0]} at every rate." if len(diss) == 1
           else f"With Utt et al.'s dissimilarity step they range over {diss[0]}–{diss[-1]}."))
    state = fuzzy_lab_state(fz_n=str(f["n"]), fz_scheme=f["scheme"], fz_share="50", fz_classes=str(f["classes"]),
                            fz_soft=str(f["soft"]), fz_noise=str(f["noise"]), fz_m=f["measure"],
                            fz_seed=str(f["seed"]))
    question = q.trend_question(
        f"{num(f['n'])} points, a growing share of them in two gold classes at once, clustered by the gold standard "
        "itself — a perfect soft clustering. As more points become ambiguous, what happens to fuzzy V?",
        float(first["fuzzy"]), float(last["fuzzy"]), "Fuzzy V as the share of ambiguous points grows")
    return View(narrative, lesson_charts.readable(lesson_charts.unhidden_lines(fig), height=460), question=question,
                caption="`metrics.papers.experiments.ambiguity_sweep`: one seeded gold standard per rate, clustered "
                        "perfectly, scored under the four countings (dashed: after the dissimilarity step; a line "
                        "that coincides with another is dotted, its open markers around the other's, and its legend "
                        "entry names the other). The Fuzzy lab draws the same sweep for any setting of its "
                        "playground.",
                explore=(explore(FUZZY_LAB, "Explore this in the Fuzzy lab's playground", state, settings),))


def _chance(settings: Settings) -> View:
    keys = list(cvocab.DEFAULT_SWEEP_KEYS)
    n, r, draws = (int(cvocab.DEFAULT_SWEEP[k]) for k in ("ch_n", "ch_r", "ch_sd"))
    model = cvocab.DEFAULT_SWEEP["ch_sm"]
    summary = cdata.sweep_summary(n, r, model, draws, cvocab.DEFAULT_SEED, settings.log_base, settings.beta, keys)
    ks = sorted(int(k) for k in summary["k"].unique())
    first, last = ks[0], ks[-1]
    mean = summary.pivot(index="key", columns="k", values="mean")

    def rise(key: str) -> str:
        return f"{metrics.MEASURES[key].symbol} from {num(mean.at[key, first])} to {num(mean.at[key, last])}"

    adjusted = [k for k in ("ari", "ami") if k in mean.index]
    worst = max(float(mean.loc[k].abs().max()) for k in adjusted)
    narrative = (
        f"Score clusterings that know nothing: {num(n)} items in {num(r)} gold classes, split at random into k "
        f"clusters for k = {', '.join(num(k) for k in ks)} ({num(len(ks))} values"
        + (f", {num(r)} — the number of classes — among them" if r in ks else "")
        + f"), {num(draws)} random splits for each k. The "
        f"unadjusted measures climb with k although every split is pure chance — "
        + ", ".join(rise(k) for k in ("v_measure", "nmi_arithmetic", "mutual_info") if k in mean.index)
        + f" ({settings.unit} for I). {_symbols(adjusted)}, corrected for chance, stay at 0 on average (no mean "
        f"further from 0 than {num(worst)}). So a V or an NMI says little until it is set beside what chance "
        "gives for the same numbers of classes and clusters — and what chance means is a choice of random model "
        "(Gates & Ahn 2017), which the Chance page lets you vary.")
    question = q.trend_question(
        f"Split {num(n)} items of {num(r)} gold classes at random into k clusters: pure chance. As k grows from "
        f"{num(first)} to {num(last)}, what happens to the V of these random clusterings (on average)?",
        float(mean.at["v_measure", first]), float(mean.at["v_measure", last]),
        "V of random clusterings, the mean over the draws, from the smallest to the largest k")
    return View(narrative, cv.lesson_figure(log_base=settings.log_base, beta=settings.beta), question=question,
                caption="`metrics.chance.cluster_sweep` under the one-sided model num1 (gold classes fixed, the "
                        "clustering uniform over the partitions into k clusters): mean and 5–95 % band of each "
                        "measure over the draws; × marks an exact expectation. " + cv.sweep_sentence(summary, keys),
                explore=(explore(CHANCE, "Explore this on the Chance page", cv.lesson_params(), settings),))


STEPS: list[Step] = [
    Step("disagree", "One table, many verdicts: why measures disagree", "Reichart & Rappoport 2009; all families",
         _disagree),
    Step("v_singletons", "V prefers singletons to a good solution", "Reichart & Rappoport 2009, §5 and Table 1",
         _v_singletons),
    Step("vi_range", "VI's range grows with n; NVI's baseline does not",
         "Meilă 2007; Reichart & Rappoport 2009, §3–4", _vi_range),
    Step("uniform", "The uniform effect: measures that reward equal-size clusters",
         "Wu, Xiong & Chen 2009, §3 and Tables 3–4", _uniform),
    Step("matching", "The problem of matching: F reads only the matched cells",
         "Rosenberg & Hirschberg 2007, §3 and Figure 2", _matching),
    Step("dom", "Dom's properties P1–P7: which measures satisfy them",
         "Dom 2001; Rosenberg & Hirschberg 2007, Tables 1–2", _dom),
    Step("fuzzy", "Ambiguous data: fuzzy and counted V as ambiguity grows", "Utt et al. 2014, §3–5", _fuzzy),
    Step("chance", "Chance: random labelings score too", "Vinh, Epps & Bailey 2010; Gates & Ahn 2017", _chance),
]


def step_number(key: str) -> int:
    """The number (1-based) of the step with ``key`` (for links from elsewhere, e.g. Home)."""
    for i, s in enumerate(STEPS, start=1):
        if s.key == key:
            return i
    raise KeyError(f"no lesson step {key!r}; steps: {', '.join(s.key for s in STEPS)}")
