"""What a user reads, on every page: every chart's text is set large enough (no font under 11 px,
no size left to a Plotly default that shrinks text to fit), every number in a chart or a table
is in the one format (``metrics.core.formatting.format_number``: no float noise, no ``-0``, counts with
thousands separators), and labels a user wrote are drawn as written (escaped for Plotly).

The pages run under ``AppTest`` in their default state and a few others; each chart's spec is
walked whole. The browser-level counterparts (rendered SVG text, overlapping labels) are in
``tests/e2e/test_e2e_charts.py``.
"""

from __future__ import annotations

import copy
import gc
import json
import pickle
import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.generator import views as gv
from dashboard.properties import views as pv
from dashboard.ui.figures import charts
from dashboard.ui.readout import (
    MIN_FONT,
    readable,
)
from dashboard.ui.tables import encode_table
from metrics.core.formatting import format_number
from tests.dashboard.apptest_utils import open_app

LAB, COMPARE, HOME = "app_pages/analyse/table_lab.py", "app_pages/analyse/compare.py", "app_pages/home.py"
GEN, PC = "app_pages/explore/generator_lab.py", "app_pages/explore/property_checker.py"
FUZZY = "app_pages/explore/fuzzy_lab.py"
REAL, GALLERY, LESSON = "app_pages/explore/real_data.py", "app_pages/learn/gallery.py", "app_pages/learn/lesson.py"
FUZZY_SMALL = {"fz_e1_max": "16", "fz_e1_rep": "5", "fz_e2_max": "20", "fz_e3_n": "50", "fz_e3_steps": "3",
               "fz_n": "30", "fz_classes": "30"}

# Labels a user might write that Plotly would read as markup, or as a template placeholder.
BOLD, LINK, PERCENT, STARS = "<b>bold</b>", '<a href="x">x</a>', "50%{x}", "K*1*"
HOSTILE = pd.DataFrame([[5, 1, 0], [2, 7, 1], [0, 1, 6]], index=[BOLD, LINK, "a & b"],
                       columns=[STARS, PERCENT, "<i>k</i>"])


def _lesson_steps() -> list[tuple[str, str, dict]]:
    try:
        from dashboard.lesson import steps as lesson
    except ImportError:  # the lesson page is not part of this checkout
        return []
    # reveal=1: each step opens with its question, the chart shown once the answer is revealed
    return [(f"lesson-{i}", LESSON, {"step": str(i), "reveal": "1"}) for i in range(1, len(lesson.STEPS) + 1)]


STATES = [
    ("table_lab", LAB, {}),
    ("table_lab-bits-beta2", LAB, {"preset": "rr_solution_r", "log": "bits", "beta": "2"}),
    ("table_lab-hostile-labels", LAB, {"table": encode_table(HOSTILE)}),
    ("compare", COMPARE, {}),
    ("compare-many-measures-classes", COMPARE, {"a": "rh_figure3", "b": "rr_solution_r", "sweep": "classes",
                                                "m": ["v_measure", "vi", "nvi", "ari", "mirkin", "purity",
                                                      "bcubed_f", "vd_n"]}),
    ("compare-hostile-labels", COMPARE, {"a": "lab", "a_table": encode_table(HOSTILE)}),
    ("generator_lab", GEN, {}),
    ("generator_lab-sweep-n", GEN, {"g_x": "n", "g_m": ["vi", "mirkin", "ari"]}),
    ("generator_lab-properties", GEN, {gv.TAB_KEY: gv.PROPERTIES_TAB}),
    ("generator_lab-failing-steps", GEN, {gv.TAB_KEY: gv.PROPERTIES_TAB, "g_fail": "true", "g_fm": "rand",
                                          "g_fp": "P2"}),
    ("property_checker", PC, {}),
    # (the demos' tabs are bound to the URL, and only the open one runs)
    ("property_checker-transpose", PC, {pv.TAB_KEY: pv.TRANSPOSE_TAB}),
    ("property_checker-mirkin-merge", PC, {"p_m": "mirkin", "p_op": "merge", pv.TAB_KEY: pv.SPLIT_TAB}),
    ("property_checker-split", PC, {pv.TAB_KEY: pv.SPLIT_TAB}),
    ("property_checker-range", PC, {pv.TAB_KEY: pv.RANGE_TAB}),
    ("fuzzy_lab", FUZZY, FUZZY_SMALL),
    ("fuzzy_lab-share", FUZZY, {**FUZZY_SMALL, "fz_scheme": "share"}),
    # (the experiments' tabs are bound to the URL, and only the open one runs)
    ("fuzzy_lab-experiment-2", FUZZY, {**FUZZY_SMALL, "fz_tab": "Experiment 2: random clusterings"}),
    ("fuzzy_lab-experiment-3", FUZZY, {**FUZZY_SMALL, "fz_tab": "Experiment 3: softness"}),
    ("real_data", REAL, {}),
    ("chance", "app_pages/explore/chance.py", {}),
    ("chance-table", "app_pages/explore/chance.py", {"ch_tab": "A table against chance", "ch_td": "200"}),
    ("chance-ami", "app_pages/explore/chance.py", {"ch_tab": "AMI normalisations", "ch_sd": "50", "ch_td": "200"}),
    ("solutions", "app_pages/analyse/solutions.py", {}),
    ("solutions-figure2", "app_pages/analyse/solutions.py",
     {"sol_src": "preset", "sol_presets": ["rh_figure2_A", "rh_figure2_B"]}),
    ("gallery", GALLERY, {}),
    ("home", HOME, {}),
    ("playground", "app_pages/learn/playground.py", {}),
    ("playground-singletons-moved", "app_pages/learn/playground.py",
     {"pg_scene": "singletons", "pg_n": "60", "pg_mv": ["0-19_n", "20-39_0"]}),
    ("uniform_effect", "app_pages/learn/uniform_effect.py", {"ue_n": "300"}),
    *_lesson_steps(),
]
STATE_IDS = [s[0] for s in STATES]
_RUNS: dict[str, AppTest] = {}


def page(state_id: str) -> AppTest:
    """The page of ``state_id``, run once per test session."""
    if state_id not in _RUNS:
        _, script, params = next(s for s in STATES if s[0] == state_id)
        _RUNS[state_id] = open_app(script, 300, params)
    return _RUNS[state_id]


def specs(at: AppTest) -> dict[str, dict]:
    """Every Plotly chart of the page: element id → spec."""
    return {c.proto.id: json.loads(c.proto.spec) for c in at.get("plotly_chart")}


# ================================================================ fonts
def _sizes(node, where: str = ""):
    """(path, size) for every font size anywhere in a spec (``font``, ``tickfont``, ``textfont`` …)."""
    if isinstance(node, dict):
        for k, v in node.items():
            path = f"{where}.{k}"
            if k.endswith("font") and isinstance(v, dict) and "size" in v:
                sizes = v["size"] if isinstance(v["size"], list) else [v["size"]]
                for s in sizes:
                    yield path, s
            yield from _sizes(v, path)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _sizes(v, f"{where}[{i}]")


def _size(d: dict | None, *path: str):
    for p in path:
        d = (d or {}).get(p) if isinstance(d, dict) else None
    return d


def _has_text(trace: dict) -> bool:
    text = trace.get("text")
    filled = text is not None and text != [] and text != ""
    return bool(trace.get("texttemplate")) or (filled and trace.get("textposition") != "none"
                                               and trace.get("type") not in ("heatmap",))


def font_problems(spec: dict) -> list[str]:
    """Why a chart's text may be drawn under MIN_FONT px: a size below it, or a size left unset
    where Plotly's default would be smaller (shrink-to-fit bar text, auto-sized cell text) or
    where Streamlit's theme would set its own."""
    out = [f"{p} = {s}" for p, s in _sizes(spec) if not isinstance(s, (int, float)) or s < MIN_FONT]
    layout, data = spec.get("layout", {}), spec.get("data", [])
    for path in (("font", "size"), ("hoverlabel", "font", "size")):
        if _size(layout, *path) is None:
            out.append("layout." + ".".join(path) + " not set")
    for name, axis in layout.items():
        if not (name.startswith(("xaxis", "yaxis")) and isinstance(axis, dict)):
            continue
        if axis.get("showticklabels") is not False and axis.get("visible") is not False \
                and _size(axis, "tickfont", "size") is None:
            out.append(f"{name}.tickfont.size not set")
        title = axis.get("title")
        if isinstance(title, dict) and title.get("text") and _size(title, "font", "size") is None:
            out.append(f"{name}.title.font.size not set")
    in_legend = layout.get("showlegend") is not False and any(t.get("showlegend") is not False for t in data)
    if in_legend and _size(layout, "legend", "font", "size") is None:
        out.append("legend.font.size not set")
    for i, a in enumerate(layout.get("annotations") or []):
        if a.get("text") and _size(a, "font", "size") is None:
            out.append(f"annotations[{i}].font.size not set ({a.get('text')!r})")
    for i, t in enumerate(data):
        if _has_text(t) or t.get("texttemplate"):
            if _size(t, "textfont", "size") is None:
                out.append(f"data[{i}] ({t.get('type')}) has text without textfont.size")
            if t.get("type") == "bar" and t.get("constraintext") != "none":
                out.append(f"data[{i}] bar text may be shrunk to fit (constraintext not 'none')")
    return out


@pytest.mark.parametrize("state", STATE_IDS)
def test_every_chart_sets_every_font_at_11_px_or_more(state):
    at = page(state)
    assert not at.exception, [e.value for e in at.exception]
    problems = {key[-40:]: font_problems(spec) for key, spec in specs(at).items()}
    assert not {k: v for k, v in problems.items() if v}, problems


def test_the_font_check_catches_what_plotly_would_shrink():
    """The check itself: a bar's inside text (shrunk to fit by default), an annotation at 10 px and
    a heatmap's auto-sized cell text are all reported; ``readable`` fixes each."""
    fig = {"data": [{"type": "bar", "x": [1], "y": ["a"], "text": ["1"], "textposition": "inside"},
                    {"type": "heatmap", "z": [[1]], "texttemplate": "%{z}"}],
           "layout": {"annotations": [{"text": "flip", "font": {"size": 10}}], "xaxis": {}}}
    problems = " ".join(font_problems(fig))
    for words in (".layout.annotations[0].font = 10", "constraintext", "data[1] (heatmap) has text",
                  "layout.font.size not set", "xaxis.tickfont.size not set"):
        assert words in problems
    data, layout = readable(fig["data"], fig["layout"])
    assert font_problems({"data": data, "layout": layout}) == []


# ================================================================ numbers
NUMBER = re.compile(r"(?<![\w.,&#])[-−]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?(?![\w.])")
WHOLE_NUMBER = re.compile(r"^[-−]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?$")


def one_format(token: str, digits: int = 4) -> bool:
    """Whether ``token`` is a number as ``format_number`` writes it (with ``digits``
    significant digits): thousands separators, no float noise, no negative zero, no
    fraction once the integer part holds the digits, scientific only below 10^-4."""
    t = token.replace("−", "-")
    neg = t.startswith("-")
    t = t.lstrip("-")
    if "e" in t:
        mantissa, _, exp = t.partition("e")
        return len(mantissa.replace(".", "").lstrip("0")) <= digits and int(exp) <= -5
    whole, _, frac = t.partition(".")
    if not re.fullmatch(r"\d{1,3}(,\d{3})*", whole):
        return False
    value = float(t.replace(",", ""))
    if neg and value == 0:
        return False
    if not frac:
        return True
    int_digits = len(whole.replace(",", "").lstrip("0"))
    return int_digits < digits and len((whole.replace(",", "") + frac).lstrip("0")) <= digits and value >= 1e-4


def noise(token: str) -> bool:
    """Float noise or a negative zero anywhere in text: more than 6 significant digits after a
    decimal point (0.30000000000000004), a whole number written with 4+ zero decimals
    (1334.0000), or −0."""
    t = token.replace("−", "-").lstrip("-")
    whole, _, frac = t.partition(".")
    if token.replace("−", "-").startswith("-") and float(t.replace(",", "").split("e")[0] or 0) == 0:
        return True
    if frac and "e" not in frac:
        if len((whole.replace(",", "") + frac).lstrip("0")) > 6:
            return True
        if len(frac) >= 4 and set(frac) == {"0"}:
            return True
    return False


def test_format_number_keeps_four_digits_when_rounding_carries():
    """0.99996 rounds to a new leading digit: four significant digits are "1.000" (rounded, so the
    zeros stay), not "1.0000"."""
    assert [format_number(v) for v in (0.99996, 9.99996, 99.9996, 0.099996, -0.99996, 999.96, 0.9999)] == \
        ["1.000", "10.00", "100.0", "0.1000", "-1.000", "1,000", "0.9999"]


def test_the_number_checks_accept_format_number_and_catch_the_issue_s_examples():
    for v in (1334.0, 210.5, 60.5, 0.59163, -1.3e-13, 2**40, 0.99996, 3.2e-07, 12345.6, -0.25, 0.09516):
        assert one_format(format_number(v)), (v, format_number(v))
        assert not noise(format_number(v))
    for bad in ("210.5000", "1334.0000", "-0.0000", "-0", "1334", "0.59163", "12345.6", "0.30000000000000004"):
        assert not one_format(bad), bad
    for bad in ("1334.0000", "-0.0000", "-0", "0.30000000000000004", "1.9427000000000001"):
        assert noise(bad), bad


def _strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


def _value_strings(spec: dict):
    """The strings of a chart that are values by themselves, or a label's value ("V = 0.59"):
    mark texts, hover data, tick texts."""
    for t in spec.get("data", []):
        for field in ("text", "customdata"):
            yield from _strings(t.get(field))
    for name, axis in spec.get("layout", {}).items():
        if name.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
            yield from _strings(axis.get("ticktext"))


# Hover values shown with more digits on purpose: the Property checker's line charts show whether a
# value moves at all (n-invariance, a split), which can happen in the fifth digit.
SIX_DIGIT_CHARTS = ("pc_scale_chart", "pc_split_chart")


def chart_number_problems(key: str, spec: dict, strict: bool = True) -> list[str]:
    out = []
    digits = 6 if any(k in key for k in SIX_DIGIT_CHARTS) else 4
    for s in _strings(spec):
        out += [f"noise {tok!r} in {s[:60]!r}" for tok in NUMBER.findall(s) if noise(tok)]
    for t in spec.get("data", []):
        for field in ("hovertemplate", "texttemplate"):
            for s in _strings(t.get(field)):
                out += [f"{field} formats a number itself: {m}" for m in re.findall(r"%\{[^}]*:[^}]*\}", s)]
    if strict:
        for s in _value_strings(spec):
            value = s.rsplit(" = ", 1)[-1].strip()
            if WHOLE_NUMBER.match(value) and not one_format(value, digits):
                out.append(f"not in the one format: {value!r} (in {s[:60]!r})")
    return out


@pytest.mark.parametrize("state", STATE_IDS)
def test_every_chart_a_page_sends_is_a_valid_plotly_figure(state):
    """The dashboard builds its figures without Plotly's validation (``charts.figure``: it costs ~4×
    the building on every rerun); this is where every property of every spec sent is validated."""
    for spec in specs(page(state)).values():   # (some states draw no chart: Home, the gallery)
        go.Figure(spec)                        # raises ValueError on any invalid property or value
    with pytest.raises(ValueError):            # … as it does for a property Plotly does not know
        go.Figure({"data": [{"type": "scatter", "colour": "red"}]})


def _plotly_json(spec: dict) -> dict:
    return json.loads(pio.to_json(spec, validate=False))


def test_a_read_only_figure_sends_what_a_plotly_figure_of_its_spec_sends():
    """``charts.ReadOnlyFigure`` makes the dict ``st.plotly_chart`` sends from its spec, once,
    without Plotly's objects: the same JSON as ``go.Figure(...).to_dict()`` — numpy arrays as
    typed arrays (int64 narrowed), except under keys Plotly leaves alone (``range``) — the spec
    left as built, and Plotly's objects there all the same for whoever reads the figure."""
    x = np.arange(5, dtype=np.int64)
    data = [{"type": "scatter", "x": x, "y": np.linspace(0.0, 1.0, 5), "customdata": [[1, "a"], [2, "b"]],
             "marker": {"size": 5, "color": ("red", "blue")}},
            {"type": "heatmap", "z": np.eye(3), "text": [["1", "0", "0"]] * 3}]
    layout = {"template": charts.NO_TEMPLATE, "height": 300, "xaxis": {"range": np.array([0.0, 4.0])},
              "shapes": [{"type": "line", "x0": 1, "x1": 1, "y0": 0, "y1": 1}]}
    fig = charts.ReadOnlyFigure(data, layout)
    sent = fig.to_dict()
    assert fig.to_dict() is sent                                   # made once
    assert sent["data"][0]["x"] == {"dtype": "i1", "bdata": "AAECAwQ="}
    assert isinstance(sent["layout"]["xaxis"]["range"], np.ndarray)  # as Plotly leaves it
    assert _plotly_json(sent) == _plotly_json(go.Figure(data=data, layout=layout, _validate=False).to_dict())
    assert data[0]["x"] is x and isinstance(data[1]["z"], np.ndarray)  # the spec is not changed
    assert len(fig.data) == 2 and fig.layout.height == 300 and fig.data[1].type == "heatmap"
    assert json.loads(fig.to_json())["layout"]["height"] == 300
    again = pickle.loads(pickle.dumps(charts.ReadOnlyFigure(data, layout)))
    assert type(again) is charts.ReadOnlyFigure and _plotly_json(again.to_dict()) == _plotly_json(sent)
    assert _plotly_json(copy.deepcopy(fig).to_dict()) == _plotly_json(sent)


def test_every_read_only_figure_the_pages_drew_sends_what_plotly_would():
    """Every figure the pages of this module drew (they stay in the caches): the dict sent is
    the one ``go.Figure`` makes of the same spec."""
    for state in STATE_IDS:
        page(state)
    figures = [o for o in gc.get_objects() if isinstance(o, charts.ReadOnlyFigure)]
    assert len(figures) >= 20
    for fig in figures:
        data, layout = fig._spec_args
        assert _plotly_json(fig.to_dict()) == _plotly_json(
            go.Figure(data=data, layout=layout, _validate=False).to_dict())
