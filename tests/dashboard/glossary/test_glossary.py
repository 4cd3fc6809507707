"""The Glossary page and the formulas beside the measures (issue 25, item 8): every measure of the
registry with its own formula, range and reference, every other symbol the formulas use defined
once, a search and a measure opened by link; the formulas expander of the Solutions page from
the same source."""

from __future__ import annotations

import pytest

import metrics
from dashboard.glossary import views as gv
from dashboard.glossary.symbols import SYMBOLS
from tests.dashboard.apptest_utils import no_trouble, open_app

PAGE = "app_pages/learn/glossary.py"


def latex(at) -> list[str]:
    return [el.proto.body.removeprefix("$$\n").removesuffix("\n$$") for el in at.get("latex")]


def headers(at) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith("#### ")]


@pytest.fixture(scope="module")
def default_page():
    at = open_app(PAGE, 120)
    no_trouble(at)
    return at


def test_every_measure_is_shown_with_the_registry_s_formula_range_and_reference(default_page):
    at = default_page
    shown = latex(at)
    for m in metrics.MEASURES.values():
        assert m.formula in shown, m.key
    assert len(headers(at)) == len(metrics.MEASURES)
    text = " ".join(m.value for m in at.markdown)
    for m in metrics.MEASURES.values():
        assert gv.escape_markdown(m.name) in text and gv.escape_markdown(m.reference) in text, m.key
    notes = " ".join(c.value for c in at.caption)
    for m in metrics.MEASURES.values():
        if m.range_note:
            assert gv.escape_markdown(m.range_note) in notes, m.key   # VI's range, reconciled, in one place


def test_every_other_symbol_is_defined_once_and_none_shadows_a_measure(default_page):
    shown = latex(default_page)
    for s in SYMBOLS:
        assert s.latex in shown, s.text
    texts = [s.text for s in SYMBOLS]
    assert len(texts) == len(set(texts))
    measure_symbols = {m.symbol for m in metrics.MEASURES.values()}
    assert not measure_symbols & set(texts)


# Notation the registry's formulas use (LaTeX as written there) → a glossary entry must define it.
NOTATION = ["n_{ij}", "a_i", "b_j", "p_{ij}", "p_i", "p_j", "H(C)", "H(K)", "H(C,K)", "H(K\\mid C)", "E[I]",
            "m_1", "m_2", "N_{11}", "N_{10}", "N_{01}", "N_{00}", "\\sigma", "F_-", "h(k)", "\\beta", "|C|",
            "\\binom"]


def test_the_notation_of_every_registered_formula_is_in_the_glossary():
    used = [tok for tok in NOTATION if any(tok in m.formula for m in metrics.MEASURES.values())]
    assert len(used) >= 15   # the list describes the registry, not an empty set
    defined = " ".join(s.latex + " " + s.text for s in SYMBOLS)
    missing = [tok for tok in used if tok.replace("\\mid ", "|").replace("\\mid", "|") not in defined
               and tok not in defined]
    assert not missing, missing


@pytest.mark.parametrize(("query", "expected"), [
    ("vbeta", {"v_measure", "fuzzy_v_joint"}), ("V_β^joint", {"fuzzy_v_joint"}), ("NVI", {"nvi"}),
    ("VD_n", {"vd_n"}), ("MS'_n", {"ms_prime_n"}), ("Γ'", {"hubert_gamma_prime"}),
])
def test_a_search_finds_the_symbols_the_issue_names(query, expected):
    assert expected <= set(gv.measures_for(query))


def test_the_search_filters_the_page_and_says_when_nothing_matches():
    at = open_app(PAGE, 120, {"gl_q": "pairs"})
    no_trouble(at)
    shown = latex(at)
    pair_keys = [k for k, m in metrics.MEASURES.items() if m.family == "pairs"]
    assert all(metrics.MEASURES[k].formula in shown for k in pair_keys)
    assert metrics.MEASURES["vi"].formula not in shown
    assert any("m_1" in s for s in shown)                       # the pair counts, among the other symbols
    assert not any("H(C) = " in s for s in shown)               # the entropies are not
    at.text_input(key="gl_q").set_value("zzz no such symbol").run()
    no_trouble(at)
    assert not latex(at)
    assert [i.value for i in at.info] == ["No measure matches “zzz no such symbol”.",
                                          "No other symbol matches “zzz no such symbol”."]


def test_a_link_opens_one_measure_first_and_a_bad_one_says_so():
    at = open_app(PAGE, 120, {"gl_m": "vi"})
    no_trouble(at)
    assert headers(at)[0] == f"#### VI — {gv.escape_markdown(metrics.MEASURES['vi'].name)}"
    assert sum(h.startswith("#### VI — ") for h in headers(at)) == 1   # not twice
    assert at.selectbox(key="gl_m").value == "vi"
    at.selectbox(key="gl_m").set_value("nvi").run()
    assert headers(at)[0].startswith("#### NVI — ") and at.query_params["gl_m"] == "nvi"
    bad = open_app(PAGE, 120, {"gl_m": "no_such_measure"})
    assert not bad.exception
    assert any("measure" in w.value and "does not exist" in w.value for w in bad.warning)
    assert bad.selectbox(key="gl_m").value is None


def test_the_formulas_beside_the_solutions_measures_come_from_the_registry():
    at = open_app("app_pages/analyse/solutions.py", 120, {"sol_m": ["vi", "ari", "purity"]})
    no_trouble(at)
    assert not latex(at)                                        # closed: nothing drawn
    at.session_state["sol_formulas"] = True
    at.run()
    no_trouble(at)
    assert sorted(latex(at)) == sorted(metrics.MEASURES[k].formula for k in ("vi", "ari", "purity"))
    links = [el.proto for el in at.get("page_link") if "glossary" in el.proto.page]
    assert sorted(el.query_string.split("&")[0] for el in links) == ["gl_m=ari", "gl_m=purity", "gl_m=vi"]
