"""The lesson (``lesson?step=N``) and the facts students check, through Streamlit's AppTest.

Every step renders its narrative and its one chart; Back/Next and the step links name
neighbouring steps; a bad ``step`` shows step 1 with a note; every "explore this" link, opened
alone in a fresh session, shows the state it names. Each chart's data is compared with
``metrics`` computed here, and every chart's type is at least 11 px.

Facts: Compare's printed-vs-computed notes (the printed value read from the paper-values asset,
the computed one from ``metrics``), Figure 2's C and D presets against the reconstruction, the
one statement of VI's range (and checks that it is true), Wu's properties shown as W1–W5,
Home's cards in the lesson's order.
"""

from __future__ import annotations

import math
import re
from urllib.parse import parse_qs

import numpy as np
import plotly.graph_objects as go
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from dashboard import page_scripts
from dashboard.chance import vocabulary as cvocab
from dashboard.fuzzy import views as fz
from dashboard.generator import views as gv
from dashboard.lesson import charts as lesson_charts
from dashboard.lesson import links as ls_links
from dashboard.lesson import steps as ls
from dashboard.papers import facts
from dashboard.properties import views as pv
from dashboard.ui.presets import load_presets
from dashboard.ui.safe_text import shown as shown_text
from metrics import properties
from metrics.core.formatting import format_number as num
from metrics.measures.matching import f_matches
from metrics.papers import experiments, generators, resources
from tests.dashboard.apptest_utils import chart, decoded, no_trouble, open_app

LESSON = "app_pages/learn/lesson.py"
# url path → page script: every page's url path is its file's name (Home is the default page, "").
SCRIPTS = page_scripts()  # this module's own copy
SCRIPTS[""] = SCRIPTS.pop("home")
N = len(ls.STEPS)
PRESETS = load_presets()
FIG2 = resources.read_json("paper_values", "rosenberg2007_figure2.json")
RR = resources.read_json("paper_values", "reichart2009_table1.json")
TABLE_2 = resources.read_json("paper_values", "rh2007_table2.json")


def open_lesson(step: str | None = None, **params) -> AppTest:
    """The lesson at ``step``, its answer revealed (``reveal=1``) unless ``params`` say otherwise."""
    return open_app(LESSON, 240, ({"step": step} if step is not None else {}) | {"reveal": "1"} | params)


@pytest.fixture(scope="module")
def steps() -> dict[int, AppTest]:
    """Every step, opened once by its URL, its answer revealed."""
    return {n: open_lesson(str(n)) for n in range(1, N + 1)}


def opened_state(page: str, params: dict) -> dict:
    """What a link opens: the page's defaults (``links.DEFAULTS``) overridden by the link's values."""
    defaults = {k: v if isinstance(v, list) else [v] for k, v in ls_links.DEFAULTS.get(SCRIPTS[page], {}).items()}
    return defaults | params


def links(at: AppTest) -> list[tuple[str, str, dict, bool]]:
    """(label, url path, query params, disabled) of every page link on the page."""
    return [(link.proto.label, link.proto.page, parse_qs(link.proto.query_string), link.proto.disabled)
            for link in at.get("page_link")]


def lesson_chart(at: AppTest, n: int) -> dict:
    return chart(at, f"lesson_chart_{ls.STEPS[n - 1].key}")


def narrative(at: AppTest) -> str:
    """The step's narrative: the page's longest Markdown block outside the expanders (notes, legend)."""
    inside = {m.value for e in at.expander for m in e.markdown}
    return max((m.value for m in at.markdown if m.value not in inside), key=len)


def traces(spec: dict, **match) -> list[dict]:
    return [t for t in spec["data"] if all(t.get(k) == v for k, v in match.items())]


# ====================================================================== every step
@pytest.mark.parametrize("n", range(1, N + 1))
def test_every_step_renders_its_narrative_and_chart(steps, n):
    at = steps[n]
    no_trouble(at)
    assert not at.warning, [w.value for w in at.warning]
    step = ls.STEPS[n - 1]
    assert at.header[0].value == f"{n}. {step.title}"
    spec = lesson_chart(at, n)
    assert spec["data"] and len(at.get("plotly_chart")) == 1           # the ONE chart of the step
    go.Figure(spec)                                                    # a valid Plotly figure
    text = narrative(at)
    sentences = [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(])", text) if s.strip()]
    assert 2 <= len(sentences) <= 5, sentences
    assert re.search(r"\d", text)                                      # numbers, computed (checked below)
    assert any(label.startswith(("Explore", "How")) for label, page, _, _ in links(at) if page != "lesson")


@pytest.mark.parametrize("n", range(1, N + 1))
def test_every_step_renders_in_bits_and_with_another_beta(n):
    at = open_lesson(str(n), log="bits", beta="2")
    no_trouble(at)
    assert lesson_chart(at, n)["data"]
    if n in (2, 5):                                                    # V is V_β: the narrative says so
        assert "β = 2" in narrative(at)


def test_a_missing_step_is_step_one_without_a_note():
    at = open_lesson()
    no_trouble(at)
    assert at.header[0].value.startswith("1. ") and not at.warning


@pytest.mark.parametrize("raw", ["0", str(N + 1), "abc", "2.5", "-1", "", " 3x"])
def test_a_bad_step_shows_step_one_with_a_note(raw):
    at = open_lesson(raw)
    no_trouble(at)
    assert at.header[0].value.startswith("1. ")
    (note,) = at.warning
    assert repr(raw.strip()) in shown_text(note.value) and f"1 to {N}" in shown_text(note.value)
    assert at.query_params["step"] == "1"                              # the address bar names the step shown


@pytest.mark.parametrize("n", range(1, N + 1))
def test_back_and_next_go_to_the_neighbouring_steps(steps, n):
    found = links(steps[n])
    backs = [(lbl, q, off) for lbl, page, q, off in found if page == "lesson" and lbl.startswith("Back")]
    nexts = [(lbl, q, off) for lbl, page, q, off in found if page == "lesson" and lbl.startswith("Next")]
    assert len(backs) == len(nexts) == 2                               # above and below the step
    for group, target in ((backs, n - 1), (nexts, n + 1)):
        for lbl, q, off in group:
            if 1 <= target <= N:
                assert not off and q["step"] == [str(target)] and lbl.endswith(f"step {target}")
            else:                                                      # the ends: disabled, going nowhere
                assert off and "step" not in q
    helps = [link.proto.help for link in steps[n].get("page_link")
             if link.proto.page == "lesson" and not link.proto.disabled
             and link.proto.label.startswith(("Back", "Next"))]
    assert helps == [f"{t}. {ls.STEPS[t - 1].title}" for t in (n - 1, n + 1, n - 1, n + 1) if 1 <= t <= N]
    if n < N:                                                          # following Next shows the next step
        (_, q, _), _ = nexts
        assert open_lesson(q["step"][0]).header[0].value == f"{n + 1}. {ls.STEPS[n].title}"


def test_the_step_list_links_every_step(steps):
    at = steps[3]
    listed = [(lbl, q, off) for lbl, page, q, off in links(at) if page == "lesson" and lbl[:1].isdigit()]
    assert [q["step"] for _, q, _ in listed] == [[str(i)] for i in range(1, N + 1)]
    assert [off for _, _, off in listed] == [i == 3 for i in range(1, N + 1)]


def test_links_carry_the_sidebar_settings():
    at = open_lesson("3", log="bits", beta="2")
    no_trouble(at)
    for _, page, q, off in links(at):
        if not off:
            assert q.get("log") == ["bits"] and q.get("beta") == ["2"], (page, q)
    # and the narrative follows the unit: the single cluster's VI is log2(m) bits.
    curve = pv.range_curve(("vi", "nvi"), 2.0, 2.0)
    vi = curve[(curve["solution"] == "single cluster") & (curve["key"] == "vi")]["value"]
    assert f"from {num(vi.iloc[0])} to {num(vi.iloc[-1])} bits" in narrative(at)
    assert vi.iloc[0] == pytest.approx(1.0)                            # log2 of 2 classes


# ====================================================================== explore links: the full state
WIDGET_KINDS = ("selectbox", "multiselect", "slider", "select_slider", "number_input", "toggle",
                "segmented_control", "pills", "radio")


def widget_value(at: AppTest, key: str):
    for kind in WIDGET_KINDS:
        try:
            return getattr(at, kind)(key=key).value
        except KeyError:
            continue
    if key in at.session_state:                                        # tabs bound to the URL
        return at.session_state[key]
    raise KeyError(key)


def same(shown, wanted: list[str]) -> bool:
    if isinstance(shown, (list, tuple)):
        return [str(x) for x in shown] == wanted
    (w,) = wanted
    if isinstance(shown, bool):
        return w == str(shown).lower()
    if isinstance(shown, (int, float)):
        return math.isclose(float(shown), float(w))
    return str(shown) == w


@pytest.mark.parametrize("n", range(1, N + 1))
def test_every_explore_link_opens_its_page_in_the_state_it_names(steps, n):
    outward = [(lbl, page, q) for lbl, page, q, _ in links(steps[n]) if page != "lesson"]
    assert outward
    for label, page, params in outward:
        check_target(label, page, params)


def check_target(label: str, page: str, params: dict) -> None:
    at = open_app(SCRIPTS[page], 240, params)                          # a fresh session, these params only
    no_trouble(at)
    assert not at.warning, [w.value for w in at.warning]
    checked = 0
    opened = opened_state(page, params)
    for key, wanted in opened.items():                                  # named, or the page's default
        if key == "link":
            continue
        try:
            shown = widget_value(at, key)
        except KeyError:                                               # not drawn (a closed tab): kept for it
            kept = at.query_params.get(key)
            if key not in params:                                      # a default: out of the address bar
                assert kept is None, (page, key, kept)
                continue
            assert (kept if isinstance(kept, list) else [kept]) == wanted, (page, key, kept, wanted)
            continue
        assert same(shown, wanted), (page, key, shown, wanted)
        checked += 1
    assert checked >= 2, (page, params)
    # What the link promises is on the page it opens.
    if page == "compare":
        for side in ("a", "b"):
            z = np.array(decoded(chart(at, f"cmp_heatmap_{side}")["data"][0]["z"]))
            assert z.reshape(len(PRESETS[opened[side][0]].classes), -1).tolist() == \
                [list(r) for r in PRESETS[opened[side][0]].table]
    elif page == "property_checker":
        assert at.session_state[pv.TAB_KEY] == pv.RANGE_TAB
        assert {d["yaxis"] for d in chart(at, "pc_range_chart")["data"]} == {"y", "y2"}   # VI and NVI
    elif page == "generator_lab":
        assert at.session_state[gv.TAB_KEY] == gv.PROPERTIES_TAB
        assert any(list(df.value.index) == list(TABLE_2["rates"]) for df in at.dataframe)
    elif page == "fuzzy_lab":
        assert chart(at, "fz_sweep")["data"]
    elif page == "table_lab":
        assert at.selectbox(key="preset").value == opened["preset"][0]
    elif page == "chance":
        shown = {d.get("legendgroup") or d.get("name") for d in chart(at, "ch_sweep")["data"]}
        assert shown and at.session_state[cvocab.TAB_KEY] == opened[cvocab.TAB_KEY][0]


def test_the_explore_links_of_each_step_name_its_tables(steps):
    pages = {n: [(page, opened_state(page, q)) for _, page, q, _ in links(steps[n]) if page != "lesson"]
             for n in steps}
    as_query = {k: v if isinstance(v, list) else [v] for k, v in ls.table_lab_state("rr_singletons").items()}
    assert pages[1] == [("table_lab", as_query)]
    assert (pages[2][0][1]["a"], pages[2][0][1]["b"]) == (["rr_singletons"], ["rr_solution_r"])
    assert pages[3][0][1]["p_tab"] == [pv.RANGE_TAB] and pages[3][0][1]["p_m"] == ["nvi"]
    assert (pages[4][0][1]["a"], pages[4][0][1]["b"]) == (["wu_table3_I"], ["wu_table3_II"])
    assert [(q["a"], q["b"]) for p, q in pages[5] if p == "compare"] == \
        [(["rh_figure2_A"], ["rh_figure2_B"]), (["rh_figure2_C"], ["rh_figure2_D"])]
    assert pages[6][0][1]["g_tab"] == [gv.PROPERTIES_TAB]
    assert pages[7][0][1]["fz_scheme"] == ["share"] and pages[7][0][1]["fz_soft"] == ["100"]


# ====================================================================== each chart against metrics
def test_step1_one_table_every_family(steps):
    at = steps[1]
    values = metrics.evaluate(PRESETS["rr_singletons"].contingency())
    spec = lesson_chart(at, 1)
    shown = {}
    for t in spec["data"]:
        for sym, g in zip(t["y"], decoded(t["x"])):
            shown[sym] = g
    keys = [k for k in ls.DISAGREE_KEYS if k in values]
    assert {metrics.FAMILIES[metrics.MEASURES[k].family] for k in keys} == set(metrics.FAMILIES.values())
    assert {t["name"] for t in spec["data"]} == set(metrics.FAMILIES.values())
    for k in keys:
        assert shown[metrics.MEASURES[k].symbol] == metrics.MEASURES[k].goodness(values[k])
    text = narrative(at)
    for k in ("homogeneity", "purity", "completeness", "inverse_purity", "ari"):
        assert f"= {num(values[k])}" in text or f"gives {num(values[k])}" in text, k


def test_step2_v_prefers_singletons(steps):
    at = steps[2]
    s = metrics.evaluate(PRESETS["rr_singletons"].contingency())
    r = metrics.evaluate(PRESETS["rr_solution_r"].contingency())
    text = narrative(at)
    assert f"({num(s['v_measure'])} against {num(r['v_measure'])})" in text
    assert s["v_measure"] > r["v_measure"]
    others = [metrics.MEASURES[k].symbol for k in ls.SINGLETONS_KEYS[1:]]
    assert all(sym in text for sym in others)
    spec = lesson_chart(at, 2)
    a, b = (decoded(t["x"]) for t in spec["data"])
    assert a == [metrics.MEASURES[k].goodness(s[k]) for k in ls.SINGLETONS_KEYS]
    assert b == [metrics.MEASURES[k].goodness(r[k]) for k in ls.SINGLETONS_KEYS]
    # The printed-vs-computed note follows the chart (R&R print V(R) = .587).
    assert any(f"V printed {RR['printed']['solution_R']['V']}, computed {num(r['v_measure'])}" in i.value
               for i in at.info)


def test_step3_vi_grows_with_n_and_nvi_single_cluster_stays_at_one(steps):
    at = steps[3]
    spec = lesson_chart(at, 3)
    by = {(t["name"], t["yaxis"]): t for t in spec["data"]}
    c = pv.CLASS_SIZE
    for name, make in (("single cluster", generators.single_cluster), ("singletons", generators.singletons)):
        ns = decoded(by[(name, "y")]["x"])
        for n, vi, nvi in zip(ns, decoded(by[(name, "y")]["y"]), decoded(by[(name, "y2")]["y"])):
            m = int(n) // c
            direct = metrics.evaluate(make([c] * m), ["vi", "nvi"])
            assert vi == pytest.approx(direct["vi"], rel=1e-12) and nvi == pytest.approx(direct["nvi"], rel=1e-12)
            if name == "single cluster":
                assert vi == pytest.approx(math.log(m)) and nvi == pytest.approx(1.0)
            else:                                                      # the narrative's formula
                assert nvi == pytest.approx(math.log(c) / math.log(m))
    text = narrative(at)
    assert facts.VI_RANGE in text and "2 log n" not in text
    singletons = decoded(by[("singletons", "y2")]["y"])
    assert f"falls from {num(singletons[0])} to {num(singletons[-1])}" in text
    assert np.all(np.diff(singletons) < 0)


def test_step4_uniform_effect_with_cv_and_dcv(steps):
    at = steps[4]
    t1, t2 = PRESETS["wu_table3_I"].contingency(), PRESETS["wu_table3_II"].contingency()
    text = narrative(at)
    assert f"CV₀ = {num(generators.cv(t1.row_sums))}" in text
    assert f"DCV = CV₁ − CV₀ = {num(generators.dcv(t1))}" in text and f"DCV = {num(generators.dcv(t2))}" in text
    # Wu et al.: purity, entropy and MI prefer I; the normalized VD_n and VI_n prefer II.
    v1, v2 = metrics.evaluate(t1), metrics.evaluate(t2)
    for k in ("purity", "conditional_entropy", "mutual_info"):
        better_i = v1[k] > v2[k] if metrics.MEASURES[k].higher_is_better else v1[k] < v2[k]
        assert better_i, k
    assert "P, H(C|K) and I(C;K) rate the uniform clustering I higher" in text
    assert "VD_n and VI_n" in text


def test_step5_matching_cells_outlined_on_the_reconstructed_tables(steps):
    spec = lesson_chart(steps[5], 5)
    heat = traces(spec, type="heatmap")
    assert len(heat) == 4
    rects = [s for s in spec["layout"]["shapes"] if s["type"] == "rect"]
    for i, (sol, trace) in enumerate(zip("ABCD", heat)):
        table = FIG2["reconstructions"][sol]
        assert np.array(decoded(trace["z"])).reshape(len(table), -1).tolist() == table
        ax = "" if i == 0 else str(i + 1)
        outlined = sorted((round((s["y0"] + s["y1"]) / 2), round((s["x0"] + s["x1"]) / 2)) for s in rects
                          if s["xref"] == f"x{ax}")
        assert outlined == sorted(f_matches(metrics.Contingency.from_table(table)))
        v = metrics.evaluate(PRESETS[f"rh_figure2_{sol}"].contingency())
        title = f"{sol}<br>F = {num(v['f_measure'])}<br>V = {num(v['v_measure'])}"    # one line each
        assert any(a["text"] == title for a in spec["layout"]["annotations"])
    assert any("Reconstructed" in a["text"] for a in spec["layout"]["annotations"])


def test_f_matches_are_the_cells_f_reads():
    for sol, table in FIG2["reconstructions"].items():
        t = metrics.Contingency.from_table(table)
        dense = np.asarray(table, dtype=float)
        a, b = dense.sum(axis=1), dense.sum(axis=0)
        f = sum(a[i] / dense.sum() * 2 * dense[i, j] / (a[i] + b[j]) for i, j in f_matches(t))
        assert f == pytest.approx(metrics.evaluate(t, ["f_measure"])["f_measure"], rel=1e-12), sol
        assert f == pytest.approx(float(FIG2["printed"][sol]["f_measure"]), abs=5e-3)


def test_step6_table2_beside_ours(steps):
    at = steps[6]
    spec = lesson_chart(at, 6)
    ours_t, printed_t = traces(spec, type="heatmap")
    rates = properties.dom_property_rates(list(TABLE_2["measure_keys"].values()))
    direct = rates.set_index(["measure", "property"])["rate"]
    names, props = list(TABLE_2["rates"]), list(properties.PROPERTIES)
    assert ours_t["y"] == names and ours_t["x"] == props
    ours = np.array(decoded(ours_t["z"])).reshape(len(names), -1)
    printed = np.array(decoded(printed_t["z"])).reshape(len(names), -1)
    differ = set()
    for r, name in enumerate(names):
        for c, prop in enumerate(props):
            assert ours[r, c] == pytest.approx(direct[(TABLE_2["measure_keys"][name], prop)], abs=1e-12)
            assert printed[r, c] == TABLE_2["rates"][name][prop]
            if round(ours[r, c], 2) != printed[r, c]:
                differ.add((r, c))
    outlined = {(round((s["y0"] + s["y1"]) / 2), round((s["x0"] + s["x1"]) / 2))
                for s in spec["layout"]["shapes"] if s["xref"] == "x"}
    assert outlined == differ and f"{num(len(differ))} of the {num(ours.size)} printed cells" in narrative(at)
    assert "Q0, VI and V-Measure satisfy all seven" in narrative(at)


def sweep_expected(**kw):
    base = dict(n_points=100, rates=fz.SWEEP_RATES["share"], scheme="share", n_classes=100, softness_target=1.0,
                noise=0.0, seed=0, n_steps=fz.SOFT_STEPS)
    base.update(kw)
    return experiments.ambiguity_sweep(**base)


def test_step7_chart_is_the_ambiguity_sweep(steps):
    at = steps[7]
    spec = lesson_chart(at, 7)
    expected = sweep_expected()
    for variant, label in fz.VARIANT_LABELS.items():
        (t,) = [t for t in spec["data"] if t["name"].split(" (= ")[0] == label]
        assert decoded(t["x"]) == pytest.approx([100 * r for r in expected["rate"]])
        assert decoded(t["y"]) == expected[variant].tolist()
    # No line hides another: each its own marker; the dissimilarity lines coincide, and the second says so.
    lines = [t for t in spec["data"] if "lines" in t.get("mode", "")]
    assert len({t["marker"]["symbol"] for t in lines}) == len(lines)
    (twin,) = [t for t in lines if " (= " in t["name"]]
    assert twin["name"] == f"{fz.VARIANT_LABELS['count_diss']} (= {fz.VARIANT_LABELS['fuzzy_diss']})"
    assert twin["line"]["dash"] == "dot" and twin["marker"]["symbol"] == "circle-open"
    text = narrative(at)
    mid = expected.iloc[len(expected) // 2]
    assert f"{num(mid['fuzzy'])} against {num(mid['count'])}" in text
    assert (expected["fuzzy_diss"] == 1).all() and "both score 1 at every rate" in text
    # Utt et al.'s claim as the narrative states it: both fall; fuzzy above counted in between.
    assert expected["fuzzy"].is_monotonic_decreasing and expected["count"].iloc[-1] < 1
    assert (expected["fuzzy"].iloc[1:-1] > expected["count"].iloc[1:-1]).all()


# ====================================================================== the fuzzy sweep on the Fuzzy lab
FUZZY = "app_pages/explore/fuzzy_lab.py"
SMALL_EXPERIMENTS = {"fz_e1_max": "16", "fz_e1_rep": "5", "fz_e2_max": "20", "fz_e3_n": "50", "fz_e3_steps": "3"}


def test_fuzzy_lab_sweep_equals_metrics_and_passes_through_the_playground():
    at = open_app(FUZZY, 240, SMALL_EXPERIMENTS | dict(fz_scheme="share", fz_share="30", fz_soft="60", fz_noise="10",
                                                        fz_n="80", fz_classes="40", fz_seed="3"))
    no_trouble(at)
    spec = chart(at, "fz_sweep")
    expected = sweep_expected(n_points=80, n_classes=40, softness_target=0.6, noise=0.1, seed=3)
    for variant, label in fz.VARIANT_LABELS.items():
        (t,) = [t for t in spec["data"] if t["name"] == label]
        assert decoded(t["x"]) == pytest.approx([100 * r for r in expected["rate"]])
        assert decoded(t["y"]) == expected[variant].tolist()
    assert [s["x0"] for s in spec["layout"]["shapes"]] == [30]          # the slider's position
    # At the slider's rate the sweep is exactly what the playground shows.
    bars = chart(at, "fz_variants")["data"][0]
    row = expected[np.isclose(expected["rate"], 0.3)].iloc[0]
    assert decoded(bars["x"]) == [row[v] for v in fz.VARIANT_LABELS]


def test_fuzzy_lab_sweep_over_classes_per_point_and_none_for_halving():
    at = open_app(FUZZY, 240, SMALL_EXPERIMENTS | dict(fz_scheme="fixed", fz_rate="2", fz_n="30", fz_classes="4"))
    no_trouble(at)
    spec = chart(at, "fz_sweep")
    expected = experiments.ambiguity_sweep(30, [1, 2, 3, 4], "fixed", 4, softness_target=0.5, seed=0,
                                           n_steps=fz.SOFT_STEPS)
    (t,) = [t for t in spec["data"] if t["name"] == fz.VARIANT_LABELS["fuzzy"]]
    assert decoded(t["x"]) == [1, 2, 3, 4]                             # no more classes per point than classes
    assert decoded(t["y"]) == expected["fuzzy"].tolist()
    halving = open_app(FUZZY, 240, SMALL_EXPERIMENTS | dict(fz_n="30", fz_classes="30"))
    no_trouble(halving)
    with pytest.raises(KeyError):
        chart(halving, "fz_sweep")
    assert any("no rate to sweep" in c.value for c in halving.caption)


@pytest.mark.parametrize("scheme, rates, target, noise", [("share", [0.0, 0.25, 1.0], 1.0, 0.0),
                                                           ("share", [0.5], 0.3, 0.2), ("fixed", [1, 3], 0.5, 0.0)])
def test_ambiguity_sweep_rows_are_experiment3_rows(scheme, rates, target, noise):
    frame = experiments.ambiguity_sweep(40, rates, scheme, 12, softness_target=target, noise=noise, seed=5,
                                        n_steps=6)
    assert frame["rate"].tolist() == rates
    for row, rate in zip(frame.to_dict("records"), rates):
        gold = experiments.ambiguous_gold(40, scheme, rate, 12, seed=5)
        steps = experiments.soft_clusterings(gold, 6)
        if noise:
            steps = [experiments.with_noise(c, noise, seed=5) for c in steps]
        soft = [experiments.experiment3_row(gold, c, i, len(steps)) for i, c in enumerate(steps)]
        best = min(abs(r["softness"] - target) for r in soft)
        nearest = next(r for r in soft if math.isclose(abs(r["softness"] - target), best, abs_tol=1e-12))
        assert {k: row[k] for k in nearest} == nearest
        assert row["ambiguous"] == sum(len(g) > 1 for g in gold)


def test_ambiguity_sweep_rejects_what_it_cannot_sweep():
    with pytest.raises(ValueError, match="halving"):
        experiments.ambiguity_sweep(20, [0.5], "halving")
    with pytest.raises(ValueError, match="empty"):
        experiments.ambiguity_sweep(20, [], "share")
    with pytest.raises(ValueError, match="softness_target"):
        experiments.ambiguity_sweep(20, [0.5], "share", softness_target=1.5)
    with pytest.raises(ValueError, match="fractional"):
        experiments.ambiguity_sweep(20, [0.5], "share", measure="ami")


def test_closest_step_breaks_ties_toward_the_first_and_ignores_float_residue():
    assert experiments.closest_step([0.0, 0.4, 0.6, 1.0], 0.5) == 1
    assert experiments.closest_step([0.0, 100 * 0.6 / 100, 0.4], 0.5) == 1   # 0.6 first, a tie with 0.4
    assert experiments.closest_step([0.3 * 3, 0.9], 0.9) == 0
    with pytest.raises(ValueError):
        experiments.closest_step([], 0.5)


# ====================================================================== readable from the back of a room
FONT_KEYS = re.compile(r"(^|_)?(font|tickfont|textfont|insidetextfont|outsidetextfont)$")


def font_sizes(node, path="") -> list[tuple[str, float]]:
    """Every font size in a Plotly spec: (path, size)."""
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            p = f"{path}.{k}"
            if FONT_KEYS.search(k) and isinstance(v, dict) and "size" in v:
                sizes = v["size"] if isinstance(v["size"], list) else [v["size"]]
                out.extend((p, s) for s in sizes)
            out.extend(font_sizes(v, p))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(font_sizes(v, f"{path}[{i}]"))
    return out


@pytest.mark.parametrize("n", range(1, N + 1))
def test_every_lesson_chart_sets_all_its_type_at_11px_or_more(steps, n):
    spec = lesson_chart(steps[n], n)
    layout = spec["layout"]
    sizes = font_sizes(spec)
    assert sizes and all(s >= lesson_charts.MIN_FONT_PX for _, s in sizes), [x for x in sizes if x[1] < 11]
    # Set explicitly wherever text is drawn (Streamlit's theme would otherwise use its own sizes).
    assert layout["font"]["size"] >= 11
    assert layout.get("showlegend") is False or layout["legend"]["font"]["size"] >= 11  # no legend, no font
    assert layout["hoverlabel"]["font"]["size"] >= 11
    axes = [k for k in layout if k.startswith(("xaxis", "yaxis"))]
    assert axes and all(layout[a]["tickfont"]["size"] >= 11 for a in axes)
    for a in axes:
        title = layout[a].get("title")
        if isinstance(title, dict) and title.get("text"):
            assert title["font"]["size"] >= 11, a
    for ann in layout.get("annotations", []):
        assert ann["font"]["size"] >= 11, ann["text"]
    for t in spec["data"]:
        if t.get("text") is not None or t.get("texttemplate"):
            assert t["textfont"]["size"] >= 11, t.get("name")


def test_readable_leaves_the_shared_figure_alone():
    fig = go.Figure(data=[{"type": "bar", "x": [1, 2], "y": ["a", "b"], "text": ["1", "2"], "orientation": "h"}],
                    layout={"annotations": [{"text": "x", "font": {"size": 9}}], "xaxis": {"tickfont": {"size": 8}}})
    before = fig.to_plotly_json()
    out = lesson_charts.readable(fig)
    assert fig.to_plotly_json() == before
    assert out.layout.annotations[0].font.size >= 11 and out.layout.xaxis.tickfont.size >= 11
    assert min(s for _, s in font_sizes(out.to_plotly_json())) >= 11


# ====================================================================== facts students check
