"""Hostile links against every page (issue 28): a link is how students share state, so nothing a
link carries may raise, crash or reach a widget unchecked.

Links are built from every page's declared parameters (``state.DECLARED``, filled by opening each
page) and the sidebar's settings, with hostile values: ±inf, NaN, 1e308, negatives, 10^12, empty,
long and control-character text, a script tag, path traversal, and malformed and extreme JSON
tables (deep nesting, NaN and negative cells, 2^62 items, the issue's 5·10^11 table). Each link is
opened under AppTest; the page must show no exception; every value its parameter's ``Param``
refuses must be gone from the URL and named in the page's note; a valid table of 10^12 items
must get the library's refusal in the page's words. Hypothesis picks the links (the ``ci``
profile decides their order: 150 links), and the worst links of the issue are always among them.

Also checked: every bound widget's range is the range its ``Param`` declares (``lo``/``hi``,
``options``), so what the link check lets through is what the widget accepts.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dashboard import page_scripts
from dashboard.ui import state
from dashboard.ui.safe_text import shown as shown_text
from tests.dashboard.apptest_utils import open_app

PAGES = sorted(page_scripts())
TIMEOUT = 120

NUMBERS = ["inf", "-inf", "nan", "NaN", "1e308", "-1e308", "-1", "1000000000000", "-1000000000000", "1e-320",
           "0x10", "", " ", "5.5", "9" * 400, "１２", "1_000", "+inf", "infinity"]
TEXTS = ["x" * 5000, "\x00\x1b[31mred", "<script>alert(1)</script>", "../../../etc/passwd", "**bold** _it_ $x$ `c`",
         "\u202egnp.exe", "a\nb", "🙂" * 60, "%00", "[link](javascript:alert(1))"]
BIG = 5 * 10**11
def _table(cells, classes=None, clusters=None, **extra) -> str:
    classes = classes or [f"c{i}" for i in range(len(cells))]
    clusters = clusters or [f"k{j}" for j in range(len(cells[0]))]
    return json.dumps({"classes": classes, "clusters": clusters, "cells": cells, **extra})


# Tables a link may carry: the refused ones (not the URL form of a table, or beyond its limits) …
BAD_TABLES = {
    "not json": "{not json", "deep nesting": "[" * 5000, "null": "null", "a list": "[]", "empty object": "{}",
    "a text": '"text"', "a huge number": "1e999",
    "2^62 items": _table([[2**62]]), "2^62 items in two cells": _table([[2**61], [2**61]]),
    "a negative cell": _table([[-1, 2]]), "a NaN cell": '{"classes": ["a"], "clusters": ["x"], "cells": [[NaN]]}',
    "an infinite cell": '{"classes": ["a"], "clusters": ["x"], "cells": [[1e400]]}',
    "a boolean cell": _table([[True]]), "a text cell": _table([["3"]]),
    "ragged": json.dumps({"classes": ["a", "b"], "clusters": ["x"], "cells": [[1]]}),
    "control characters in names": _table([[1], [2]], ["<script>x</script>", "a\x00"], ["x"]),
    "900 cells": _table([[10**15] * 30] * 30), "another key": _table([[1, 2], [3, 4]], more=1),
}
# … and the valid ones whose size or cells a page must refuse in its own words.
GOOD_TABLES = {
    "the issue's 5e11 table": _table([[BIG, 1], [1, BIG]]),
    "400 cells of 10^12": _table([[10**12] * 20] * 20),
    "fractional": _table([[0.5, 1.5], [2, 0]]),
}
TABLES = list(BAD_TABLES.values()) + list(GOOD_TABLES.values())


@pytest.fixture(scope="module")
def declared() -> dict[str, state.PageState]:
    """Every page's declaration, filled by opening each page once."""
    for page in PAGES:
        at = open_app(page_scripts()[page], TIMEOUT)
        assert not at.exception, (page, [e.value for e in at.exception])
    assert set(PAGES) <= set(state.DECLARED), set(PAGES) - set(state.DECLARED)
    return {page: state.DECLARED[page] for page in PAGES}


def hostile(p: state.Param):
    """Hostile values for a parameter, by what it holds."""
    if p.table:
        return st.sampled_from(TABLES)
    if p.bound and isinstance(p.default, (bool, int, float, tuple, list)):
        return st.one_of(st.sampled_from(NUMBERS), st.sampled_from(TEXTS[:4]))
    return st.one_of(st.sampled_from(TEXTS), st.sampled_from(NUMBERS))


def check_link(page: str, link: dict, decl: state.PageState) -> None:
    """Open ``link`` on ``page``: no exception; every refused value gone and named in the note."""
    at = open_app(page_scripts()[page], TIMEOUT, link)
    shown = [e.value for e in at.exception]
    assert not shown, (page, link, shown)
    notes = " ".join(w.value for w in at.warning)
    for name, value in link.items():
        p = decl.param(name)
        raw = value if isinstance(value, list) else [value]
        if p is not None and p.problem(raw):
            assert f"`{name}`" in notes, (page, name, value, notes)
            assert at.query_params.get(name) not in (value, raw), (page, name, value)


@st.composite
def links(draw, declared):
    page = draw(st.sampled_from(PAGES))
    decl = declared[page]
    params = list(decl.params) + list(state.SETTINGS)
    chosen = draw(st.lists(st.sampled_from(params), min_size=1, max_size=4, unique_by=lambda p: p.name))
    link = {}
    for p in chosen:
        value = draw(hostile(p))
        link[p.name] = [value, value] if p.bound and isinstance(p.default, tuple) else value
    return page, link


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_links_on_every_page(declared, data):
    page, link = data.draw(links(declared))
    check_link(page, link, declared[page])


WORST = [
    ("chance", {"ch_tab": "A table against chance", "ch_t": "lab", "ch_table": GOOD_TABLES["the issue's 5e11 table"]}),
    ("chance", {"ch_tab": "AMI normalisations", "ch_t": "lab", "ch_table": GOOD_TABLES["the issue's 5e11 table"]}),
    ("chance", {"ch_seed": "inf", "beta": "nan", "log": "\x00"}),
    ("chance", {"ch_tab": "A table against chance", "ch_t": "lab", "ch_table": GOOD_TABLES["400 cells of 10^12"],
                "ch_model": "all"}),
    ("fuzzy_lab", {"fz_seed": "-inf", "fz_n": "1e308", "fz_e1_max": "inf", "fz_tab": "x" * 5000}),
    ("real_data", {"rd_k": ["inf", "-inf"], "rd_seed": "1e308"}),
    ("solutions", {"sol_k": ["50", "2"], "sol_seed": "nan"}),
    ("compare", {"classes": "inf", "noise": "-1", "a": "lab", "a_table": "[" * 5000}),
    ("generator_lab", {"g_n": "inf", "g_e1": "nan", "g_C": "1000000000000", "g_tab": "<script>"}),
    ("property_checker", {"p_seed": "inf", "p_lam": "1e308", "p_parts": "-1", "p_tab": "../../x"}),
    ("table_lab", {"table": BAD_TABLES["2^62 items"], "lab_formulas": "maybe"}),
    ("table_lab", {"table": GOOD_TABLES["the issue's 5e11 table"]}),
    ("compare", {"a": "lab", "a_table": GOOD_TABLES["400 cells of 10^12"], "b": "lab",
                 "b_table": GOOD_TABLES["fractional"]}),
    ("gallery", {"gal_open": "inf", "gal_p": "\x1b[2J"}),
    ("lesson", {"step": "99999999999999999999"}),
    ("home", {"beta": "-inf", "log": "bits"}),
]


@pytest.mark.parametrize("page,link", WORST, ids=[f"{p}-{'-'.join(sorted(link))}" for p, link in WORST])
def test_the_worst_links(declared, page, link):
    check_link(page, link, declared[page])


def test_a_table_of_10_12_items_gets_the_library_s_refusal_in_the_page_s_words(declared):
    at = open_app("app_pages/explore/chance.py", TIMEOUT, {"ch_tab": "A table against chance", "ch_t": "lab",
                                                   "ch_table": GOOD_TABLES["the issue's 5e11 table"]})
    assert not at.exception
    assert at.error and "at most 3,037,000,499 items" in shown_text(at.error[0].value)
    assert "cannot be set against chance under perm" in shown_text(at.error[0].value)


# Widgets drawn only under another choice of a keyed option.
MORE_STATES = {"solutions": [{"sol_src": "real"}], "fuzzy_lab": [{"fz_scheme": "fixed"}, {"fz_scheme": "share"}]}


def test_every_bound_widget_s_range_is_its_param_s(declared):
    """Open each page (and each of its tabs); for each bound slider, number input and select slider
    drawn, the widget's min/max (or choices) are the declared Param's."""
    seen = set()
    for page, decl in declared.items():
        tabs = [p for p in decl.params if p.bound and isinstance(p.default, str) and p.allowed()]
        states = ([{}] + [{t.name: option} for t in tabs for option in t.allowed()[1:]]
                  + MORE_STATES.get(page, []))
        for link in states:
            at = open_app(page_scripts()[page], TIMEOUT, link)
            for w in list(at.slider) + list(at.number_input):
                p = decl.param(w.key)
                if p is None or not p.bound:
                    continue
                assert (p.lo, p.hi) == (w.min, w.max), (page, w.key, (p.lo, p.hi), (w.min, w.max))
                seen.add(w.key)
            for w in at.select_slider:
                p = decl.param(w.key)
                if p is not None and p.bound:
                    assert [str(x) for x in p.allowed()] == list(w.options), (page, w.key)
                    seen.add(w.key)
    # Every bound numeric Param of every page declares its range (and was drawn by some state).
    for page, decl in declared.items():
        for p in decl.params + state.SETTINGS:
            if p.bound and isinstance(p.default, (int, float, tuple)) and not isinstance(p.default, bool):
                assert (p.lo is not None and p.hi is not None) or p.allowed(), (page, p.name)
    assert {"ch_seed", "fz_seed", "fz_rate", "fz_share", "beta", "rd_k", "sol_k", "classes", "p_lam",
            "g_C"} <= seen, seen


def test_param_checks_quote_no_value():
    """The note's reasons are the app's words: they never repeat what the link sent."""
    p = state.Param("n", 3, bound=True, lo=0, hi=10)
    for value in NUMBERS + TEXTS:
        reason = p.problem([value])
        if reason:
            assert value.strip() == "" or value not in reason
    assert p.problem(["7"]) is None and p.problem(["7.0"]) is None
    assert p.problem(["11"]) == "above 10" and p.problem(["inf"]) == "not a finite number"
    table = state.Param("t", table=True)
    for name, text in GOOD_TABLES.items():
        assert table.problem([text]) is None, name  # valid: the pages refuse their size in their own words
    for name, text in BAD_TABLES.items():
        assert table.problem([text]), name
    assert table.problem([BAD_TABLES["2^62 items"]]) == "more than 2^62 items"
    assert state.MAX_URL_CELLS == 400
