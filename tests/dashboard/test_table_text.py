"""What a user reads in tables and beside charts, on every page: every table number in the one format,
labels drawn as written (markup escaped), and the text of particular charts (goodness, heatmap,
preference, P1–P7 rates, the range chart)."""

from __future__ import annotations

import io
import json

import pandas as pd
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from dashboard.compare import charts as compare_charts
from dashboard.compare.view import preference_table
from dashboard.generator import views as gv
from dashboard.properties import views as pv
from dashboard.ui.figures import charts
from dashboard.ui.readout import (
    MIN_FONT,
    as_text,
    escape_label,
    escape_markdown,
    styled,
    wrap,
)
from metrics.core.formatting import format_number
from tests.dashboard.apptest_utils import chart, decoded, no_trouble
from tests.dashboard.test_charts_text import (
    BOLD,
    HOSTILE,
    LINK,
    NUMBER,
    PERCENT,
    STATE_IDS,
    _strings,
    chart_number_problems,
    font_problems,
    noise,
    one_format,
    page,
    specs,
)


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
            s.dtype == object and len(s) and all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))
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
    by_symbol = {escape_label(m.symbol): m for m in metrics.MEASURES.values()}  # as Plotly gets it (S&S₁: S&amp;S₁)
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
    x_title = spec["layout"]["xaxis"]["title"]["text"]
    assert "goodness" in x_title and "raw value" in x_title
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
    # The app's one helper for user text (dashboard.ui.safe_text.md): every mark escaped,
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
def test_preference_labels_sit_above_a_and_below_b_and_rows_are_tinted_by_their_side():
    va = {"v_measure": 0.6667, "vi": 2.303, "ari": 0.0}
    vb = {"v_measure": 0.5916, "vi": 1.881, "ari": 0.4133}
    df = preference_table(va, vb, list(va))
    spec = compare_charts.preference_figure(df, "<b>A</b>", "B & co").to_plotly_json()
    a, b = spec["data"]
    assert a["textposition"] == "top center" and b["textposition"] == "bottom center"
    assert a["text"] == [format_number(v) for v in va.values()]
    assert a["name"] == "A: &lt;b&gt;A&lt;/b&gt;" and b["name"] == "B: B &amp; co"
    tints = [s for s in spec["layout"]["shapes"] if s.get("name", "").startswith("prefers")]
    assert [s["name"] for s in tints] == ["prefers A", "prefers B", "prefers B"]
    assert tints[0]["fillcolor"] != tints[1]["fillcolor"] == tints[2]["fillcolor"]
    assert not spec["layout"]["annotations"]                                  # no row is marked as the odd one
    # Rows are tall enough that a row's lower label clears the next row's upper label.
    plot_px = spec["layout"]["height"] - spec["layout"]["margin"]["t"] - spec["layout"]["margin"]["b"]
    lo, hi = spec["layout"]["yaxis"]["range"]
    assert plot_px / abs(lo - hi) >= 56
    # A tie gets no tint.
    tie = preference_table({"v_measure": 0.5}, {"v_measure": 0.5}, ["v_measure"])
    shapes = compare_charts.preference_figure(tie, "a", "b").to_plotly_json()["layout"]["shapes"]
    assert not [s for s in shapes if s.get("name", "").startswith("prefers")]


def test_compare_page_says_what_the_tint_means_and_what_the_morph_compares():
    at = page("compare")
    captions = " ".join(c.value for c in at.caption)
    assert "a grouping, not a verdict" in captions and "VD_n and VI_n are right" in captions
    assert "majority" not in captions
    assert "does not use the solutions A and B" in captions
    assert any("not A and B above" in h.value for h in at.subheader)
    values = next(e for e in at.dataframe if "A (shown)" in e.value.columns)
    assert "disagrees" not in json.loads(values.proto.columns)


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

    from dashboard.ui.readout import show_frame

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
