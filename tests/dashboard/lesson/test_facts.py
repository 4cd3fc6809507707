"""The facts students check against the papers, stated once and true where the app states them: the
Compare page's notes on printed numbers and reconstructed tables, VI's range, Wu's properties as
W1–W5 beside Dom's P1–P7, and Home's scenario cards in the lesson's order."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import metrics
from dashboard.generator import views as gv
from dashboard.lesson import steps as ls
from dashboard.lesson.scenarios import SCENARIOS
from dashboard.papers import facts
from dashboard.papers.gallery import _escape
from dashboard.properties import views as pv
from metrics.core.formatting import format_number as num
from metrics.papers import gallery, generators
from tests.dashboard.apptest_utils import ROOT, no_trouble, open_app
from tests.dashboard.lesson.test_lesson import FIG2, PRESETS, RR, SMALL_EXPERIMENTS, N, links, same, widget_value

COMPARE = "app_pages/analyse/compare.py"


def test_compare_notes_for_reichart_rappoport_presets():
    at = open_app(COMPARE, 120, {"a": "rr_singletons", "b": "rr_solution_r"})
    no_trouble(at)
    r = metrics.evaluate(PRESETS["rr_solution_r"].contingency())
    s = metrics.evaluate(PRESETS["rr_singletons"].contingency())
    (note_r,) = [i.value for i in at.info if "Printed in the paper" in i.value]
    printed = RR["printed"]["solution_R"]
    assert f"V printed {printed['V']}, computed {num(r['v_measure'])} ✗" in note_r
    assert f"NVI printed {printed['NVI']}, computed {num(r['nvi'])} ≈ truncated" in note_r
    assert f"VI printed {printed['VI']}, computed {num(r['vi'])} ✓" in note_r
    # Singletons: every printed value agrees, said in a caption.
    assert any(f"V printed {RR['printed']['singletons']['V']}, computed {num(s['v_measure'])} ✓" in c.value
               for c in at.caption)
    # The explanation, as the Paper gallery gives it, under the note.
    rows = gallery.gallery_frame(papers=["rr2009"]).set_index("item")
    shown = " ".join(" ".join(map(str, t.value.to_numpy().ravel())) for t in at.table)
    assert _escape(rows.loc["Solution R: V", "explanation"]) in shown
    assert _escape(rows.loc["Solution R: NVI", "explanation"]) in shown


@pytest.mark.parametrize("sol", "ABCD")
def test_compare_says_figure_2_tables_are_reconstructions(sol):
    other = {"A": "B", "B": "A", "C": "D", "D": "C"}[sol]
    at = open_app(COMPARE, 120, {"a": f"rh_figure2_{sol}", "b": f"rh_figure2_{other}"})
    no_trouble(at)
    infos = [i.value for i in at.info]
    assert sum("Reconstructed table" in i for i in infos) == 2
    v = metrics.evaluate(PRESETS[f"rh_figure2_{sol}"].contingency())
    printed = FIG2["printed"][sol]
    assert any(f"V-measure printed {printed['v_measure']}, computed {num(v['v_measure'])} ✓" in i for i in infos)
    assert any(f"F-measure printed {printed['f_measure']}, computed {num(v['f_measure'])} ✓" in i for i in infos)


def test_no_note_for_a_preset_without_printed_numbers():
    at = open_app(COMPARE, 120, {"a": "extreme_perfect", "b": "rh_figure3"})
    no_trouble(at)
    assert not any("Printed in the paper" in str(x.value) for x in list(at.info) + list(at.caption))
    assert not any("Reconstructed" in i.value for i in at.info)


@pytest.mark.parametrize("sol", "CD")
def test_figure2_c_and_d_presets_are_the_reconstruction(sol):
    p = PRESETS[f"rh_figure2_{sol}"]
    assert [list(r) for r in p.table] == FIG2["reconstructions"][sol]
    assert list(p.classes) == ["C1", "C2", "C3"] and len(p.clusters) == len(FIG2["reconstructions"][sol][0])
    assert "RECONSTRUCTED" in p.note and p.source["file"].endswith(".txt")
    t = p.contingency()
    assert t.row_sums.tolist() == [7, 7, 7]                             # classes of 7 (precision 3/5, recall 3/7)
    values = metrics.evaluate(t)
    for key, text in FIG2["printed"][sol].items():
        assert p.printed[key]["value"] == float(text)
        assert round(values[key], len(text.split(".")[1])) == float(text), key
    # The gallery's reconstruction and the preset give the same numbers.
    rows = gallery.gallery_frame(papers=["rh2007"]).set_index("item")
    assert rows.loc[f"Solution {sol}: V-measure", "value"] == values["v_measure"]
    # The Table lab opens it (a preset like any other).
    at = open_app("app_pages/analyse/table_lab.py", 120, {"preset": p.key})
    no_trouble(at)
    assert at.selectbox(key="preset").value == p.key


def test_printed_rows_cover_every_mapped_preset():
    for key in facts.PRINTED_FACTS:
        rows = facts.printed_rows(key)
        assert len(rows) >= 2 and key in PRESETS, key
        assert rows["short"].map(bool).all()


# ---------------------------------------------------------------- VI's range: one statement, and true
def test_vi_range_is_stated_once_in_the_app():
    assert "log n" in facts.VI_RANGE and "2 log K*" in facts.VI_RANGE and "Meilă 2007" in facts.VI_RANGE
    loose = re.compile(r"\[0,\s*2\s*log|2\s*log\s*[nN]\b|1/2 log")
    offenders = []
    for path in list((ROOT / "dashboard").rglob("*.py")) + list((ROOT / "metrics").glob("*.py")):
        if path.name == "facts.py":                                     # quotes the papers, to explain the choice
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if loose.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not offenders, offenders
    assert "at most log n" in metrics.MEASURES["vi"].description
    assert "log n" in metrics.MEASURES["vi_log_n"].description


def test_property_checker_range_caption_says_the_same():
    at = open_app("app_pages/explore/property_checker.py", 180, {"p_tab": pv.RANGE_TAB})
    no_trouble(at)
    caption = next(c.value for c in at.caption if facts.VI_RANGE in c.value)
    assert facts.nvi_reference_text(pv.CLASS_SIZE) in caption


@given(st.lists(st.integers(0, 5), min_size=2, max_size=40), st.data())
def test_the_stated_vi_bounds_hold(a, data):
    b = data.draw(st.lists(st.integers(0, 5), min_size=len(a), max_size=len(a)))
    n = len(a)
    vi = metrics.evaluate(metrics.Contingency.from_labels(a, b), ["vi"])["vi"]
    assert vi <= math.log(n) + 1e-12
    k_star = max(len(set(a)), len(set(b)))
    if k_star <= math.sqrt(n):
        assert vi <= 2 * math.log(k_star) + 1e-12
    # Equality for one cluster against singletons.
    assert metrics.evaluate(metrics.Contingency.from_labels([0] * n, list(range(n))), ["vi"])["vi"] == \
        pytest.approx(math.log(n))


@pytest.mark.parametrize("c, m", [(10, 2), (10, 10), (10, 50), (3, 7), (25, 4)])
def test_the_stated_nvi_of_singletons_and_the_single_cluster(c, m):
    assert metrics.evaluate(generators.singletons([c] * m), ["nvi"])["nvi"] == pytest.approx(math.log(c) / math.log(m))
    assert metrics.evaluate(generators.single_cluster([c] * m), ["nvi"])["nvi"] == pytest.approx(1.0)


# ---------------------------------------------------------------- Wu's properties as W1–W5
def test_wu_properties_are_w1_to_w5_and_dom_keeps_p1_to_p7():
    pc = open_app("app_pages/explore/property_checker.py", 180)
    no_trouble(pc)
    (matrix,) = [df.value for df in pc.dataframe if "W1 symm." in df.value.columns]
    assert [c for c in matrix.columns if c[:1] in "PW"] == ["W1 symm.", "W2 n-inv.", "W3 convex", "W4 left",
                                                             "W5 right"]
    shown = " ".join(m.value for m in list(pc.markdown) + list(pc.caption))
    assert "(W1: Wu et al.'s P1)" in shown and "W1–W5" in shown and "not Dom's P1–P7" in shown
    assert not re.search(r"Wu et al\.'s P\d (symmetry|n-invariance)", shown)
    gen = open_app("app_pages/explore/generator_lab.py", 180, {"g_tab": gv.PROPERTIES_TAB})
    no_trouble(gen)
    gen_text = " ".join(c.value for c in gen.caption)
    assert "P1–P5" in gen_text and "P6–P7" in gen_text and "W1–W5" in gen_text
    t12 = [r for r in gallery.gallery_rows(papers=["wu2009"]) if r["section"].startswith("Table 12")]
    assert t12 and all(re.search(r": W[1-5] ", r["item"]) for r in t12)


def test_the_gallery_links_table_2_to_the_p1_p7_tab():
    rows = [r for r in gallery.gallery_rows(papers=["rh2007"]) if r["section"].startswith("Table 2")]
    assert rows and all(r["link"]["params"] == {"g_tab": gv.PROPERTIES_TAB} for r in rows)


# ---------------------------------------------------------------- Home: the cards in the lesson's order
def test_home_cards_follow_the_lesson_and_link_their_step():
    order = [ls.step_number(sc.lesson) for sc in SCENARIOS]
    assert order == sorted(order) and set(order) == set(range(1, N + 1))   # every step has a card
    at = open_app("app_pages/home.py", 120)
    no_trouble(at)
    nexts = [(lbl, q) for lbl, page, q, _ in links(at) if page == "lesson" and lbl.startswith("Next step")]
    assert [q["step"] for _, q in nexts] == [[str(n)] for n in order]
    for (lbl, _), n in zip(nexts, order):
        assert ls.STEPS[n - 1].title in lbl
    assert any(page == "lesson" and q.get("step") == ["1"] and "Lesson" in lbl for lbl, page, q, _ in links(at))


@pytest.mark.parametrize("sc", [s for s in SCENARIOS if s.page not in ("app_pages/analyse/compare.py",
                                                                       "app_pages/analyse/table_lab.py")],
                         ids=lambda s: s.title)
def test_new_scenarios_open_their_page_in_the_promised_state(sc):
    at = open_app(sc.page, 240, SMALL_EXPERIMENTS | sc.params if "fuzzy" in sc.page else sc.params)
    no_trouble(at)
    for key, value in sc.params.items():
        assert same(widget_value(at, key), [value] if isinstance(value, str) else list(value)), key
