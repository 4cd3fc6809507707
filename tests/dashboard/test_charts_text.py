"""What a user reads, on every page: every chart's text is set large enough (no font under 11 px,
no size left to a Plotly default that shrinks text to fit), every number in a chart or a table
is in the one format (``metrics.formatting.format_number``: no float noise, no ``-0``, counts with
thousands separators), and labels a user wrote are drawn as written (escaped for Plotly).

The pages run under ``AppTest`` in their default state and a few others; each chart's spec is
walked whole. The browser-level counterparts (rendered SVG text, overlapping labels) are in
``tests/e2e/test_e2e_charts.py``.
"""

from __future__ import annotations

import copy
import gc
import io
import pickle
import json
import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import pyarrow as pa
import pytest
from apptest_utils import chart, decoded, no_trouble, open_app
from streamlit.testing.v1 import AppTest

import metrics
from dashboard.components import charts
from dashboard.components import generator_views as gv
from dashboard.components import property_views as pv
from dashboard.components.compare import preference_table
from dashboard.components.readout import (
    MIN_FONT,
    as_text,
    escape_label,
    escape_markdown,
    readable,
    styled,
    wrap,
)
from dashboard.components.tables import encode_table
from metrics.formatting import format_number

LAB, COMPARE, HOME = "app_pages/table_lab.py", "app_pages/compare.py", "app_pages/home.py"
GEN, PC, FUZZY = "app_pages/generator_lab.py", "app_pages/property_checker.py", "app_pages/fuzzy_lab.py"
REAL, GALLERY, LESSON = "app_pages/real_data.py", "app_pages/gallery.py", "app_pages/lesson.py"
FUZZY_SMALL = {"fz_e1_max": "16", "fz_e1_rep": "5", "fz_e2_max": "20", "fz_e3_n": "50", "fz_e3_steps": "3",
               "fz_n": "30", "fz_classes": "30"}

# Labels a user might write that Plotly would read as markup, or as a template placeholder.
BOLD, LINK, PERCENT, STARS = "<b>bold</b>", '<a href="x">x</a>', "50%{x}", "K*1*"
HOSTILE = pd.DataFrame([[5, 1, 0], [2, 7, 1], [0, 1, 6]], index=[BOLD, LINK, "a & b"],
                       columns=[STARS, PERCENT, "<i>k</i>"])


def _lesson_steps() -> list[tuple[str, str, dict]]:
    try:
        from dashboard.components import lesson
    except ImportError:  # the lesson page is not part of this checkout
        return []
    return [(f"lesson-{i}", LESSON, {"step": str(i)}) for i in range(1, len(lesson.STEPS) + 1)]


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
    ("chance", "app_pages/chance.py", {}),
    ("chance-table", "app_pages/chance.py", {"ch_tab": "A table against chance", "ch_td": "200"}),
    ("chance-ami", "app_pages/chance.py", {"ch_tab": "AMI normalisations", "ch_sd": "50", "ch_td": "200"}),
    ("solutions", "app_pages/solutions.py", {}),
    ("solutions-figure2", "app_pages/solutions.py",
     {"sol_src": "preset", "sol_presets": ["rh_figure2_A", "rh_figure2_B"]}),
    ("gallery", GALLERY, {}),
    ("home", HOME, {}),
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


@pytest.mark.parametrize("state", STATE_IDS)
def test_every_chart_number_is_in_the_one_format(state):
    at = page(state)
    strict = not state.startswith("lesson")  # the lesson's own figures: noise and -0 only
    problems = {key[-40:]: chart_number_problems(key, spec, strict) for key, spec in specs(at).items()}
    assert not {k: v for k, v in problems.items() if v}, problems


def _arrow(raw: bytes) -> pd.DataFrame:
    try:
        return pa.ipc.open_stream(io.BytesIO(raw)).read_all().to_pandas()
    except pa.ArrowInvalid:
        return pa.ipc.open_file(io.BytesIO(raw)).read_all().to_pandas()


def shown_cells(element) -> tuple[pd.DataFrame, dict[str, pd.Series]]:
    """(values, shown): a table's values and, per visible column holding numbers, the text a
    reader sees there (the Styler's display values, or the column's "(shown)" text twin). A
    visible number column with neither maps to None (shown by Streamlit's own formatting)."""
    proto = element.proto
    values = element.value
    display = proto.arrow_data.styler.display_values
    shown_frame = _arrow(display) if display else None
    order = list(getattr(proto, "column_order", []) or []) or list(values.columns)
    out = {}
    for col in values.columns:
        if col not in order or str(col).endswith(" (shown)"):
            continue
        s = values[col]
        numeric = (pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s)) or (
            s.dtype == object and len(s) and all(v is None or isinstance(v, (int, float)) and not isinstance(v, bool)
                                                  for v in s))
        if not numeric:
            continue
        out[col] = shown_frame[col] if shown_frame is not None and col in shown_frame else None
    for col in values.columns:
        if str(col).endswith(" (shown)") and col in order:
            out[col] = values[col]
    return values, out


def table_number_problems(element, digits: int = 4) -> list[str]:
    _, shown = shown_cells(element)
    out = []
    for col, texts in shown.items():
        if texts is None:
            out.append(f"{col!r}: numbers shown without the one format")
            continue
        for text in texts.astype(str):
            if text not in ("—", "", "None", "nan") and not one_format(text.removesuffix(" %"), digits):
                out.append(f"{col!r}: {text!r}")
    return out


@pytest.mark.parametrize("state", STATE_IDS)
def test_every_table_number_is_in_the_one_format(state):
    at = page(state)
    problems = {}
    for i, element in enumerate(at.dataframe):
        if element.proto.editing_mode != 0:   # the Table lab's data editor: what the user types
            continue
        # Dom's failing steps show six digits: a step can move a value in its fifth digit.
        digits = 6 if "value_from" in element.value.columns else 4
        found = table_number_problems(element, digits)
        if found:
            problems[f"table {i}: {list(element.value.columns)[:4]}"] = found[:5]
    for element in at.table:
        frame = element.value
        bad = [tok for s in _strings(frame.astype(str).to_numpy().tolist()) for tok in NUMBER.findall(s) if noise(tok)]
        if bad:
            problems["st.table"] = bad[:5]
    assert not problems, problems


def test_the_states_show_what_they_are_meant_to():
    """The walk above covers the Generator lab's properties tab (its tables), the hostile labels
    and the lesson's every step."""
    assert any({"P1", "P7", "family"} <= set(e.value.columns) for e in page("generator_lab-properties").dataframe)
    assert any("value_from" in e.value.columns for e in page("generator_lab-failing-steps").dataframe)
    assert specs(page("table_lab-hostile-labels")) and specs(page("compare-hostile-labels"))
    assert len(specs(page("compare"))) == 4          # two heatmaps, the preference chart, the morph
    for state in STATE_IDS:
        if state.startswith("lesson"):
            assert len(specs(page(state))) == 1, state


def test_mirkin_of_rh_figure_3_reads_as_an_integer_with_separators():
    """R&H Figure 3 (the Table lab's default table): Mirkin is 1,334 pairs — in the table, beside
    its symbol in the goodness chart, never "1334.0000"."""
    at = page("table_lab")
    no_trouble(at)
    value = metrics.evaluate(metrics.Contingency.from_table(
        [[12, 2, 4], [12, 2, 4], [2, 12, 4], [3, 3, 0]]), ["mirkin"])["mirkin"]
    assert value == 1334
    rows = [e.value for e in at.dataframe if "value (shown)" in e.value.columns]
    mirkin = pd.concat(rows).set_index("key").loc["mirkin"]
    assert mirkin["value"] == 1334 and mirkin["value (shown)"] == "1,334"
    spec = chart(at, "lab_goodness")
    assert "M = 1,334" in spec["layout"]["yaxis"]["ticktext"]


# ================================================================ the goodness chart
def test_goodness_chart_labels_are_the_goodness_and_the_raw_value_stands_beside_the_symbol():
    """Bar length and bar label agree (goodness); the raw value is in the tick label. So VI's
    1.943 (a distance) and V's 0.17 are both read on the same scale, and the hover gives both."""
    at = page("table_lab")
    spec = chart(at, "lab_goodness")
    values = metrics.evaluate(metrics.Contingency.from_table([[12, 2, 4], [12, 2, 4], [2, 12, 4], [3, 3, 0]]))
    by_symbol = {m.symbol: m for m in metrics.MEASURES.values()}
    ticks = dict(zip(spec["layout"]["yaxis"]["tickvals"], spec["layout"]["yaxis"]["ticktext"]))
    seen = 0
    for trace in spec["data"]:
        for sym, g, label, cd in zip(trace["y"], decoded(trace["x"]), trace["text"], trace["customdata"]):
            m = by_symbol[sym]
            assert g == pytest.approx(m.goodness(values[m.key]), abs=1e-12)
            assert label == format_number(g)                          # the bar's label is its length
            assert ticks[sym] == f"{sym} = {format_number(values[m.key])}"   # the raw value beside the name
            assert cd[1] == format_number(values[m.key]) and cd[5] == format_number(g)
            seen += 1
    assert seen == len([k for k in metrics.MEASURES if k in values])
    assert "goodness" in spec["layout"]["xaxis"]["title"]["text"] and "raw value" in spec["layout"]["xaxis"]["title"]["text"]
    # Hover lines are wrapped so that the box fits a narrow chart.
    longest = max(len(line) for t in spec["data"] for cd in t["customdata"] for line in cd[4].split("<br>"))
    assert longest <= 60


def test_goodness_hover_template_holds_no_label_or_number_format():
    fig = charts.goodness_figure({"vi": 1.9427, "mirkin": 1334.0}, ["vi", "mirkin"]).to_plotly_json()
    for t in fig["data"]:
        assert "%{x" not in t["hovertemplate"] and ":." not in t["hovertemplate"]


# ================================================================ labels as written
def _all_strings(at: AppTest) -> list[str]:
    return [s for spec in specs(at).values() for s in _strings(spec)]


@pytest.mark.parametrize("state", ["table_lab-hostile-labels", "compare-hostile-labels"])
def test_labels_are_drawn_as_written_in_ticks_and_hovers(state):
    at = page(state)
    no_trouble(at)
    key = "lab_heatmap" if state.startswith("table_lab") else "cmp_heatmap_a"
    heat = chart(at, key)
    cells = heat["data"][0]
    assert cells["y"] == [escape_label(x) for x in HOSTILE.index]
    assert cells["x"] == [escape_label(x) for x in HOSTILE.columns]
    assert cells["y"][:2] == ["&lt;b&gt;bold&lt;/b&gt;", "&lt;a href=\"x\"&gt;x&lt;/a&gt;"]
    # Hovers name the class and cluster through the (escaped) axis values; the size bars too.
    assert "%{y}" in cells["hovertemplate"] and "%{x}" in cells["hovertemplate"]
    for t in heat["data"][1:3]:
        assert ("%{x}" in t["hovertemplate"]) or ("%{y}" in t["hovertemplate"])
    # The raw markup appears nowhere in any chart of the page: not in a tick, legend, hover or text.
    strings = _all_strings(at)
    for raw in (BOLD, LINK, "<i>k</i>"):
        assert not any(raw in s for s in strings), raw
    # A label can never become a template placeholder.
    assert not any(PERCENT in s for s in strings)


def test_the_table_lab_s_measure_tables_and_values_stay_plain_with_hostile_labels():
    at = page("table_lab-hostile-labels")
    t = metrics.Contingency.from_table(HOSTILE)
    shown = {k: v for e in at.dataframe if "key" in e.value.columns for k, v in zip(e.value["key"], e.value["value"])}
    assert shown == metrics.evaluate(t)


def test_escape_label_and_escape_markdown():
    assert escape_label(BOLD) == "&lt;b&gt;bold&lt;/b&gt;"
    assert escape_label("R&amp;D") == "R&amp;amp;D"       # an entity typed by the user stays as typed
    assert escape_label(PERCENT) == "50&#37;{x}"
    assert escape_label('say "hi"') == 'say "hi"'           # Plotly does not decode &quot;: keep quotes
    assert escape_label("V_β") == "V_β"
    # The app's one helper for user text (dashboard.components.safe_text.md): every mark escaped,
    # a word joiner after a colon before a name (emoji shortcodes are matched after escapes are resolved).
    assert escape_markdown("a*b* [x](y) $x$ :red[z]") == "a\\*b\\* \\[x\\]\\(y\\) \\$x\\$ \\:\u2060red\\[z\\]"
    assert wrap("one two three four", 9) == "one two<br>three<br>four"
    assert wrap(BOLD + " x", 100) == "&lt;b&gt;bold&lt;/b&gt; x"


# ================================================================ the heatmap's sizes
def test_heatmap_size_labels_are_text_at_a_fixed_size_drawn_only_where_they_fit():
    """Class and cluster sizes are text marks at TEXT_FONT (not bar text Plotly shrinks to fit a
    short bar); cell and cluster-size labels are left out where a column is too narrow for them."""
    small = charts.heatmap_figure(pd.DataFrame([[12, 2], [1, 1]], index=["C1", "C2"], columns=["K1", "K2"]))
    spec = small.to_plotly_json()
    texts = [t for t in spec["data"] if t["type"] == "scatter" and t.get("mode") == "text"]
    assert [t["text"] for t in texts] == [["13", "3"], ["14", "2"]]
    assert all(t["textfont"]["size"] >= MIN_FONT for t in texts)
    assert spec["data"][0]["texttemplate"] == "%{text}" and spec["data"][0]["textfont"]["size"] >= MIN_FONT
    assert all(t.get("text") is None for t in spec["data"][1:3])      # the size bars carry no text
    wide = charts.heatmap_figure(pd.DataFrame([[1] * 100], index=["C1"], columns=[f"K{i}" for i in range(100)]))
    wspec = wide.to_plotly_json()
    assert wspec["data"][0].get("texttemplate") is None               # 100 columns: no cell text
    assert [t["yaxis"] for t in wspec["data"] if t.get("mode") == "text"] == ["y"]   # class sizes only
    assert font_problems(spec) == [] and font_problems(wspec) == []


def test_heatmap_counts_of_a_fractional_table_are_in_the_one_format():
    frame = pd.DataFrame([[1 / 3, 2 / 3], [1334.0, -0.0]], index=["a", "b"], columns=["x", "y"])
    cells = charts.heatmap_figure(frame).to_plotly_json()["data"][0]["text"]
    assert cells == [["0.3333", "0.6667"], ["1,334", "0"]]


# ================================================================ Compare's preference chart
def test_preference_labels_sit_above_a_and_below_b_and_against_the_majority_says_what_it_means():
    va = {"v_measure": 0.6667, "vi": 2.303, "ari": 0.0}
    vb = {"v_measure": 0.5916, "vi": 1.881, "ari": 0.4133}
    df = preference_table(va, vb, list(va))
    spec = charts.preference_figure(df, "<b>A</b>", "B & co").to_plotly_json()
    a, b = spec["data"]
    assert a["textposition"] == "top center" and b["textposition"] == "bottom center"
    assert a["text"] == [format_number(v) for v in va.values()]
    assert a["name"] == "A: &lt;b&gt;A&lt;/b&gt;" and b["name"] == "B: B &amp; co"
    notes = [n for n in spec["layout"]["annotations"] if n["text"] == "against the majority"]
    assert len(notes) == 1 and notes[0]["x"] == 1.0 and notes[0]["xanchor"] == "left"     # in the margin
    assert "prefer the other solution" in notes[0]["hovertext"]
    assert spec["layout"]["margin"]["r"] >= 150
    # Rows are tall enough that a row's lower label clears the next row's upper label.
    plot_px = spec["layout"]["height"] - spec["layout"]["margin"]["t"] - spec["layout"]["margin"]["b"]
    lo, hi = spec["layout"]["yaxis"]["range"]
    assert plot_px / abs(lo - hi) >= 56
    # A split vote has no majority, and the chart says that instead.
    split = preference_table({"v_measure": 1.0, "vi": 1.0}, {"v_measure": 0.0, "vi": 0.0}, ["v_measure", "vi"])
    texts = {n["text"] for n in charts.preference_figure(split, "a", "b").to_plotly_json()["layout"]["annotations"]}
    assert texts == {"no majority"}


def test_compare_page_says_what_against_the_majority_means_and_what_the_morph_compares():
    at = page("compare")
    captions = " ".join(c.value for c in at.caption)
    assert "against the majority of the measures you chose" in captions
    assert "does not use the solutions A and B" in captions
    assert any("not A and B above" in h.value for h in at.subheader)
    values = next(e for e in at.dataframe if "A (shown)" in e.value.columns)
    assert json.loads(values.proto.columns)["disagrees"]["label"] == "Against the majority"


# ================================================================ tables
def test_styled_keeps_numbers_and_shows_the_one_format():
    frame = pd.DataFrame({"k": [2, 1500], "v": [0.30000000000000004, -1e-13], "name": ["a", "b"]})
    s = styled(frame)
    html_text = s.to_html()
    assert "1,500" in html_text and "0.3" in html_text and "-0" not in html_text
    assert s.data["v"].tolist() == frame["v"].tolist()
    text_frame, config, order = as_text(frame)
    assert order == ["k (shown)", "v (shown)", "name"]
    assert text_frame["v (shown)"].tolist() == ["0.3", "0"] and text_frame["k"].tolist() == [2, 1500]
    assert config["v (shown)"]["label"] == "v"


def test_p1_p7_rates_near_one_do_not_read_as_one():
    matrix = pd.DataFrame({"measure": ["x"], "symbol": ["x"], "family": ["f"],
                           **{p: [29999 / 30000] for p in gv.properties.PROPERTIES}})
    html_text = gv.styled_rates(matrix).to_html()
    # Rounded to 1 at four digits, but not a perfect 1: the trailing zeros say so (the old
    # "%.2f" printed a perfect-looking "1.00").
    assert ">1.000<" in html_text and ">1.00<" not in html_text and ">1<" not in html_text


def test_range_chart_hover_carries_formatted_numbers():
    curve = pv.range_curve(("vi", "nvi"))
    spec = pv.range_figure(curve, ["vi", "nvi"]).to_plotly_json()
    for t in spec["data"]:
        assert ":." not in t["hovertemplate"]
        assert all(c[2] == "—" or one_format(c[2]) for c in t["customdata"])


def _raw_table():
    import pandas as pd
    import streamlit as st

    st.dataframe(pd.DataFrame({"v": [210.5, 60.5, 1334.0, -1e-13], "name": list("abcd")}))


def _formatted_tables():
    import pandas as pd

    from dashboard.components.readout import show_frame

    frame = pd.DataFrame({"v": [210.5, 60.5, 1334.0, -1e-13], "name": list("abcd")})
    show_frame(frame, key="sorted")
    show_frame(frame, key="text", sortable=False)


def test_the_table_check_catches_numbers_left_to_streamlit_and_passes_show_frame():
    raw = AppTest.from_function(_raw_table).run()
    assert table_number_problems(raw.dataframe[0]) == ["'v': numbers shown without the one format"]
    shown = AppTest.from_function(_formatted_tables).run()
    assert [table_number_problems(e) for e in shown.dataframe] == [[], []]
    styled_cells = shown_cells(shown.dataframe[0])[1]["v"].tolist()
    text_cells = shown_cells(shown.dataframe[1])[1]["v (shown)"].tolist()
    assert styled_cells == text_cells == ["210.5", "60.5", "1,334", "0"]
    assert shown.dataframe[0].value["v"].tolist() == [210.5, 60.5, 1334.0, -1e-13]   # sorts as numbers


def test_what_it_measures_comes_right_after_the_value():
    """The description column sits beside the value, not past the right edge of the table."""
    at = page("table_lab")
    orders = [list(e.proto.column_order) for e in at.dataframe if "key" in e.value.columns]
    assert orders and all(o[:4] == ["measure", "symbol", "value (shown)", "about"] for o in orders), orders
    labels = json.loads(next(e for e in at.dataframe if "key" in e.value.columns).proto.columns)
    assert labels["about"]["label"] == "What it measures" and labels["value (shown)"]["label"] == "Value"
