"""Every page through Streamlit's AppTest: presets, edits, links, uploads good and bad.

Shown values are compared with ``metrics.evaluate`` of the same table — exactly, since the
page must show metrics' numbers, not recompute them.
"""

import io
import json
import math

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from dashboard.compare.view import prefers
from dashboard.lesson.scenarios import SCENARIOS
from dashboard.ui.presets import load_presets
from dashboard.ui.readout import escape_label
from dashboard.ui.safe_text import shown as shown_text
from dashboard.ui.tables import decode_table
from tests.dashboard.apptest_utils import chart, decoded, no_trouble, open_app, shown_measures

LAB, COMPARE, HOME = "app_pages/analyse/table_lab.py", "app_pages/analyse/compare.py", "app_pages/home.py"
PRESETS = load_presets()


def open_page(page: str, timeout: float = 60, **params) -> AppTest:
    return open_app(page, timeout, params)


def edit(at: AppTest, delta: dict) -> AppTest:
    key = at.session_state["lab_editor_key"]
    at.session_state[key] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [], **delta}
    return at.run()


# ---------------------------------------------------------------- every page
@pytest.mark.parametrize("page", [HOME, LAB, COMPARE])
def test_every_page_renders_without_error(page):
    at = open_page(page)
    no_trouble(at)
    assert at.title


def test_home_links_every_scenario():
    at = open_page(HOME)
    links = [el for el in at.main.get("page_link")]
    pages = {json.loads(json.dumps(link.proto.page)) for link in links}
    assert {"table_lab", "compare"} <= {p.rsplit("/", 1)[-1] for p in pages}
    assert len(links) >= len(SCENARIOS) + 2


@pytest.mark.parametrize("sc", SCENARIOS, ids=[s.title for s in SCENARIOS])
def test_each_scenario_opens_its_page_in_the_promised_state(sc):
    at = open_page(sc.page, **sc.params)
    no_trouble(at)
    # The only warning a scenario may show: A and B with different gold classes (none do).
    assert not at.warning, [w.value for w in at.warning]
    widgets = {"a": at.selectbox, "b": at.selectbox, "preset": at.selectbox, "m": at.multiselect,
               "sweep": at.segmented_control}
    for name, value in sc.params.items():
        if name in widgets:  # (pages of other issues check their own parameters)
            assert widgets[name](key=name).value == value


# ---------------------------------------------------------------- Table lab: presets
@pytest.mark.parametrize("key", list(PRESETS))
def test_table_lab_shows_metrics_values_for_every_preset(key):
    at = open_page(LAB, preset=key)
    no_trouble(at)
    assert shown_measures(at) == metrics.evaluate(PRESETS[key].contingency())
    heat = chart(at, "lab_heatmap")["data"][0]
    assert np.array(decoded(heat["z"])).reshape(len(PRESETS[key].classes), -1).tolist() == \
        [list(r) for r in PRESETS[key].table]


def test_log_base_beta_and_families():
    at = open_page(LAB, preset="rr_solution_r", log="bits", beta="2")
    no_trouble(at)
    assert shown_measures(at) == metrics.evaluate(PRESETS["rr_solution_r"].contingency(), log_base=2, beta=2.0)
    at = open_page(LAB, fam=["pairs", "elementwise"])
    keys = set(shown_measures(at))
    assert keys == {k for k, m in metrics.MEASURES.items() if m.family in ("pairs", "elementwise")}
    goodness = chart(at, "lab_goodness")
    assert {t["name"] for t in goodness["data"]} == {metrics.FAMILIES["pairs"], metrics.FAMILIES["elementwise"]}
    hover = [d[4] for t in goodness["data"] for d in t["customdata"]]
    # The description, escaped for Plotly and wrapped so that the hover box fits a narrow chart.
    assert {h.replace("<br>", " ") for h in hover} == {escape_label(metrics.MEASURES[k].description) for k in keys}
    values = shown_measures(at)
    for trace in goodness["data"]:
        ms = [next(m for m in metrics.MEASURES.values() if escape_label(m.symbol) == sym) for sym in trace["y"]]
        assert decoded(trace["x"]) == [m.goodness(values[m.key]) for m in ms]


def test_no_family_chosen_asks_for_one():
    at = open_page(LAB)
    at.pills(key="fam").set_value([]).run()
    assert not at.exception and any("at least one family" in i.value for i in at.info)


def test_formulas_on_demand():
    at = open_page(LAB, fam=["matching"])
    assert not at.get("latex")
    at.toggle(key="lab_formulas").set_value(True).run()
    shown = [el.proto.body.removeprefix("$$\n").removesuffix("\n$$") for el in at.get("latex")]
    assert shown == [m.formula for m in metrics.MEASURES.values() if m.family == "matching"]


def test_downloads_are_csv_of_measures_and_table():
    at = open_page(LAB, preset="wu_table10_I")
    buttons = {b.proto.id: b for b in at.get("download_button")}
    # The measures and the table as CSV; beside them each chart's SVG and PNG for slides.
    csv = [b for b in buttons.values() if not b.key.endswith(("_slide_svg", "_slide_png"))]
    assert len(csv) == 2
    assert len(buttons) - len(csv) == 2 * len(at.get("plotly_chart"))


# ---------------------------------------------------------------- Table lab: the editor
def test_a_valid_edit_is_used_and_kept_in_the_url():
    at = open_page(LAB, preset="rh_figure3")
    edit(at, {"edited_rows": {0: {"K1": 20}}})
    no_trouble(at)
    expected = [[20, 2, 4], [12, 2, 4], [2, 12, 4], [3, 3, 0]]
    t = metrics.Contingency.from_table(expected)
    assert shown_measures(at) == metrics.evaluate(t)
    linked = decode_table(at.query_params["table"])
    assert linked.to_numpy().tolist() == expected and linked.index.tolist() == ["C1", "C2", "C3", "Cnoise1"]
    # The link reproduces the table in a fresh session.
    again = open_page(LAB, preset="rh_figure3", table=at.query_params["table"])
    no_trouble(again)
    assert shown_measures(again) == shown_measures(at)


@pytest.mark.parametrize("cell, words", [(-3, "negative"), ("abc", "empty"), (None, "empty")])
def test_invalid_cells_show_an_error_and_keep_the_last_valid_table(cell, words):
    at = open_page(LAB, preset="rh_figure3")
    edit(at, {"edited_rows": {0: {"K1": 20}}})
    good = shown_measures(at)
    edit(at, {"edited_rows": {0: {"K1": 20}, 1: {"K2": cell}}})
    assert not at.exception
    assert len(at.error) == 1 and words in at.error[0].value and "last valid table" in at.error[0].value
    assert "'C2'" in shown_text(at.error[0].value) and "'K2'" in shown_text(at.error[0].value)
    assert shown_measures(at) == good
    # Fixing the cell brings the table back into use.
    edit(at, {"edited_rows": {0: {"K1": 20}, 1: {"K2": 5}}})
    no_trouble(at)
    assert shown_measures(at) == metrics.evaluate(
        metrics.Contingency.from_table([[20, 2, 4], [12, 5, 4], [2, 12, 4], [3, 3, 0]]))


def test_rows_can_be_added_named_and_deleted():
    at = open_page(LAB, preset="rh_figure3")
    edit(at, {"added_rows": [{"class": "C9", "K1": 1, "K2": 0, "Knoise1": 2}], "deleted_rows": [3]})
    no_trouble(at)
    assert shown_measures(at) == metrics.evaluate(
        metrics.Contingency.from_table([[12, 2, 4], [12, 2, 4], [2, 12, 4], [1, 0, 2]]))
    assert decode_table(at.query_params["table"]).index.tolist() == ["C1", "C2", "C3", "C9"]


def test_fractional_counts_are_accepted():
    at = open_page(LAB, preset="rh_figure2_A")
    edit(at, {"edited_rows": {0: {"K1": 2.5}}})
    no_trouble(at)
    t = metrics.Contingency.from_table([[2.5, 1, 1], [1, 3, 1], [1, 1, 3]])
    shown = shown_measures(at)
    assert {k: v for k, v in shown.items() if not pd.isna(v)} == metrics.evaluate(t)
    # AMI needs integer counts: listed, without a value, with the reason.
    undefined = [k for k, v in shown.items() if pd.isna(v)]
    assert undefined == [k for k, m in metrics.MEASURES.items() if not m.applies_to(t)] and undefined
    about = pd.concat([df.value for df in at.dataframe if "about" in df.value.columns]).set_index("key")["about"]
    assert all(about[k].startswith("Not defined for this table") for k in undefined)


def test_columns_are_added_renamed_and_removed_through_their_names():
    at = open_page(LAB, preset="rh_figure2_A")
    edit(at, {"edited_rows": {0: {"K1": 4}}})
    names = at.text_input(key=f"lab_names_{at.session_state['lab_version']}")
    names.set_value("K1, K2, K3, K4").run()
    no_trouble(at)
    assert any("K4" in i.value for i in at.info)  # an empty cluster is ignored, and said so
    base = at.session_state["lab_base"]
    assert base.columns.tolist() == ["class", "K1", "K2", "K3", "K4"] and base["K1"].tolist()[0] == 4  # edit kept
    at.text_input(key=f"lab_names_{at.session_state['lab_version']}").set_value("A, B, C, D").run()
    assert at.session_state["lab_base"].columns.tolist() == ["class", "A", "B", "C", "D"]
    at.text_input(key=f"lab_names_{at.session_state['lab_version']}").set_value("C, A").run()
    no_trouble(at)
    assert shown_measures(at) == metrics.evaluate(metrics.Contingency.from_table([[1, 4], [1, 1], [3, 1]]))
    at.text_input(key=f"lab_names_{at.session_state['lab_version']}").set_value("C, C").run()
    assert any("give each cluster its own name" in e.value for e in at.error)


def test_edits_survive_a_visit_to_another_page():
    at = open_page(LAB, preset="wu_table10_II")
    edit(at, {"edited_rows": {2: {"P3": 7}}})
    edited = shown_measures(at)
    at.switch_page(COMPARE).run()
    for name in list(at.query_params):  # navigation drops the page's own parameters
        del at.query_params[name]
    at.switch_page(LAB).run()
    no_trouble(at)
    assert at.selectbox(key="preset").value == "wu_table10_II"
    assert shown_measures(at) == edited


def test_changing_the_preset_replaces_the_edits():
    at = open_page(LAB, preset="rh_figure3")
    edit(at, {"edited_rows": {0: {"K1": 20}}})
    assert "table" in at.query_params
    at.selectbox(key="preset").set_value("wu_table3_II").run()
    no_trouble(at)
    assert "table" not in at.query_params and at.query_params["preset"] == "wu_table3_II"
    assert shown_measures(at) == metrics.evaluate(PRESETS["wu_table3_II"].contingency())


def test_bad_links_are_reported():
    at = open_page(LAB, preset="no_such_preset")
    assert not at.exception and any("no_such_preset" in shown_text(w.value) for w in at.warning)
    assert shown_measures(at) == metrics.evaluate(PRESETS["rh_figure3"].contingency())
    at = open_page(LAB, table="{broken")
    # Checked before any widget (ui/state.py): a note naming the parameter and what is wrong,
    # the default table instead, and the broken value out of the URL.
    assert not at.exception and not at.error
    assert any("`table`" in w.value and "{classes, clusters, cells}" in w.value and "not valid" in w.value
               for w in at.warning)
    assert shown_measures(at) == metrics.evaluate(PRESETS["rh_figure3"].contingency())
    assert "table" not in at.query_params


# ---------------------------------------------------------------- Table lab: uploads
def upload_page(files: dict, **params) -> AppTest:
    """The Table lab in upload mode with ``files`` = {uploader key: (name, bytes)}."""
    at = open_page(LAB, src="upload", **params)
    if "two" in params.values():
        at.radio(key="lab_upload_layout").set_value("two").run()
    for key, (name, data) in files.items():
        at.file_uploader(key=key).set_value((name, data, "application/octet-stream"))
    return at.run()


def csv_bytes(**cols) -> bytes:
    return pd.DataFrame(cols).to_csv(index=False).encode()


def test_upload_one_file_with_two_columns():
    gold, pred = ["a", "a", "b", "b", "c"], [1, 1, 1, 2, 2]
    at = upload_page({"lab_upload_file": ("labels.csv", csv_bytes(extra=range(5), gold=gold, cluster=pred))})
    no_trouble(at)
    # Columns are chosen: the first two are the defaults, here "extra" and "gold".
    at.selectbox(key="lab_upload_gold_col").set_value("gold")
    at.selectbox(key="lab_upload_pred_col").set_value("cluster").run()
    no_trouble(at)
    expected = metrics.evaluate(metrics.Contingency.from_labels(gold, [str(p) for p in pred]))
    assert shown_measures(at) == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_upload_two_files_and_parquet():
    at = open_page(LAB, src="upload")
    at.radio(key="lab_upload_layout").set_value("two").run()
    buf = io.BytesIO()
    pd.DataFrame({"k": [0, 0, 1, 1, 1, 2]}).to_parquet(buf)
    at.file_uploader(key="lab_upload_file_gold").set_value(("gold.tsv", b"g\nx\nx\nx\ny\ny\ny\n", "text/plain"))
    at.file_uploader(key="lab_upload_file_pred").set_value(("pred.parquet", buf.getvalue(), "application/octet-stream"))
    at.run()
    no_trouble(at)
    expected = metrics.evaluate(metrics.Contingency.from_labels(list("xxxyyy"), [0, 0, 1, 1, 1, 2]))
    assert shown_measures(at) == pytest.approx(expected, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("name, data, words", [
    ("empty.csv", b"", "empty"),
    ("garbage.csv", bytes(range(256)) * 64, "binary"),
    ("ragged.csv", b"gold,cluster\na,1\nb,2,9\nc,3\n", "ragged"),
    ("header.csv", b"gold,cluster\n", "no data rows"),
    ("single.csv", b"gold\na\nb\n", "one column"),
    ("fake.parquet", b"PAR1gold,cluster\na,1\n", "Parquet"),  # the PAR1 signature, then no Parquet
])
def test_bad_uploads_end_in_an_error_message(name, data, words):
    at = upload_page({"lab_upload_file": (name, data)})
    assert not at.exception
    assert any(words in e.value for e in at.error), [e.value for e in at.error]
    assert not shown_measures(at)


def test_mismatched_files_end_in_an_error_message():
    at = open_page(LAB, src="upload")
    at.radio(key="lab_upload_layout").set_value("two").run()
    at.file_uploader(key="lab_upload_file_gold").set_value(("g.csv", b"g\na\nb\nc\n", "text/csv"))
    at.file_uploader(key="lab_upload_file_pred").set_value(("k.csv", b"k\n1\n2\n", "text/csv"))
    at.run()
    assert not at.exception and any("same items" in e.value for e in at.error)


def test_missing_labels_are_counted_and_dropped_or_refused():
    data = b"gold,cluster\na,1\n,1\nb,\nb,2\nc,2\n"
    at = upload_page({"lab_upload_file": ("nan.csv", data)})
    # Refused by default (as on the command line), naming the counts, the rows and the control.
    assert not at.exception
    assert [shown_text(e.value) for e in at.error] == [
        "2 item(s) have a missing label (gold: 1, cluster: 1; an empty cell), first at data rows 2, 3 of nan.csv. "
        "Tick 'Leave out rows with a missing label' to score the other rows, or fill in the labels in the file."]
    at.checkbox(key="lab_upload_dropna").check().run()
    no_trouble(at)
    assert shown_measures(at) == pytest.approx(
        metrics.evaluate(metrics.Contingency.from_labels(["a", "b", "c"], ["1", "2", "2"])), rel=1e-12)
    assert any("2 row(s) with a missing label left out, first at data rows 2, 3" in c.value for c in at.caption)


def test_a_single_row_is_a_warning_not_a_crash():
    at = upload_page({"lab_upload_file": ("one.csv", b"gold,cluster\na,1\n")})
    assert not at.exception and any("one item" in w.value.lower() for w in at.warning)


def test_an_uploaded_table_can_be_copied_into_the_editor():
    at = open_page(LAB, preset="wu_table10_I")  # a preset chosen before switching to uploads
    at.segmented_control(key="src").set_value("upload").run()
    at.file_uploader(key="lab_upload_file").set_value(("labels.csv", csv_bytes(g=list("aabb"), k=[1, 2, 2, 2]),
                                                       "text/csv"))
    at.run()
    at.button(key="lab_edit_upload").click().run()
    no_trouble(at)
    assert at.segmented_control(key="src").value == "table"
    assert at.selectbox(key="preset").value == "wu_table10_I"
    assert decode_table(at.query_params["table"]).to_numpy().tolist() == [[1, 1], [0, 2]]
    at.run()  # and it stays
    assert shown_measures(at) == metrics.evaluate(metrics.Contingency.from_table([[1, 1], [0, 2]]))


def test_a_million_rows_upload_is_summarized():
    rng = np.random.default_rng(7)
    n = 10**6
    gold = rng.integers(0, 60, n)
    pred = (gold * 13 + rng.integers(0, 200, n)) % 1500
    data = csv_bytes(gold=gold, cluster=pred)
    at = upload_page({"lab_upload_file": ("big.csv", data)}, timeout=300)
    no_trouble(at)
    t = metrics.Contingency.from_labels(gold.astype(str), pred.astype(str))
    assert shown_measures(at) == pytest.approx(metrics.evaluate(t), rel=1e-9, abs=1e-12)
    assert any("1,000,000 items" in c.value for c in at.caption)
    assert any("largest" in c.value and "of the items" in c.value for c in at.caption)  # summarized


# ---------------------------------------------------------------- Compare
def compare_values(at: AppTest) -> pd.DataFrame:
    for df in at.dataframe:
        if {"A", "B", "prefers"} <= set(df.value.columns):
            return df.value
    raise AssertionError("no comparison table")


def test_compare_defaults_to_singletons_against_solution_r():
    at = open_page(COMPARE)
    no_trouble(at)
    assert at.selectbox(key="a").value == "rr_singletons" and at.selectbox(key="b").value == "rr_solution_r"
    assert at.multiselect(key="m").value == ["v_measure", "nvi", "vi", "ari", "vd_n"]
    df = compare_values(at)
    va = metrics.evaluate(PRESETS["rr_singletons"].contingency())
    vb = metrics.evaluate(PRESETS["rr_solution_r"].contingency())
    keys = ["v_measure", "nvi", "vi", "ari", "vd_n"]
    assert df["A"].tolist() == [va[k] for k in keys] and df["B"].tolist() == [vb[k] for k in keys]
    assert df["prefers"].tolist() == [prefers(k, va[k], vb[k]) for k in keys]
    # V stands alone on singletons' side — the divergence the page is about — tinted like the others by its side,
    # never marked as the odd one out (a majority is not a verdict).
    spec = chart(at, "cmp_preference")
    tints = [s["name"] for s in spec["layout"]["shapes"] if s.get("name", "").startswith("prefers")]
    assert tints == [f"prefers {p}" for p in df["prefers"]] and tints[0] == "prefers A"
    assert not any("majority" in a.get("text", "") for a in spec["layout"]["annotations"])


@pytest.mark.parametrize("key", list(PRESETS))
def test_compare_every_preset(key):
    at = open_page(COMPARE, a=key, b="rh_figure3", m=["v_measure", "purity", "ari", "bcubed_f"])
    assert not at.exception
    df = compare_values(at)
    va = metrics.evaluate(PRESETS[key].contingency())
    assert df["A"].tolist() == [va[k] for k in ("v_measure", "purity", "ari", "bcubed_f")]


def test_compare_with_the_table_lab_table_and_an_upload():
    at = open_page(LAB, preset="rh_figure3")
    edit(at, {"edited_rows": {0: {"K1": 30}}})
    lab_table = [[30, 2, 4], [12, 2, 4], [2, 12, 4], [3, 3, 0]]
    at.switch_page(COMPARE)
    at.query_params["a"] = "lab"
    at.query_params["b"] = "upload"
    at.run()
    assert not at.exception
    assert decode_table(at.query_params["a_table"]).to_numpy().tolist() == lab_table
    assert any("Upload a file" in i.value for i in at.info)
    at.file_uploader(key="b_upload_file").set_value(("b.csv", csv_bytes(g=list("aabbc"), k=[1, 1, 2, 2, 2]),
                                                     "text/csv"))
    at.run()
    no_trouble(at)
    df = compare_values(at)
    assert df["A"].tolist() == [metrics.evaluate(metrics.Contingency.from_table(lab_table))[k]
                                for k in ("v_measure", "nvi", "vi", "ari", "vd_n")]
    # The link alone reproduces A in a fresh session.
    fresh = open_page(COMPARE, a="lab", a_table=at.query_params["a_table"])
    assert compare_values(fresh)["A"].tolist() == df["A"].tolist()


def test_compare_without_a_lab_table_explains_what_to_do():
    at = open_page(COMPARE, a="lab")
    assert not at.exception and any("Table lab" in i.value for i in at.info)


def test_unknown_measures_and_tables_in_links_are_reported():
    at = open_page(COMPARE, a="nope", m=["v_measure", "bogus"])
    assert not at.exception
    text = " ".join(w.value for w in at.warning)
    assert "nope" in text and "bogus" in text
    assert at.multiselect(key="m").value == ["v_measure"]


# ---------------------------------------------------------------- Compare: the morph
def morph_spec(at):
    return chart(at, "cmp_morph")


def test_morph_slider_moves_the_marker_and_changes_the_curves():
    at = open_page(COMPARE)
    spec = morph_spec(at)
    marker = [s for s in spec["layout"]["shapes"] if s["type"] == "line"]
    assert {s["x0"] for s in marker} == {3}
    at.slider(key="noise").set_value(6).run()
    assert {s["x0"] for s in morph_spec(at)["layout"]["shapes"] if s["type"] == "line"} == {6}
    before = decoded(morph_spec(at)["data"][0]["y"])
    at.slider(key="classes").set_value(5).run()
    assert not at.exception
    after = morph_spec(at)
    assert decoded(after["data"][0]["y"]) != before  # solution R's V over the noise, for 5 classes
    assert max(decoded(after["data"][0]["x"])) == 4  # noise ≤ classes − 1
    assert any("at most 4" in c.value for c in at.caption)


def test_morph_marks_flips_and_sweeps_classes():
    at = open_page(COMPARE, sweep="classes")
    no_trouble(at)
    spec = morph_spec(at)
    xs = decoded(spec["data"][0]["x"])
    assert min(xs) == 4 and max(xs) == 30
    at = open_page(COMPARE)
    flips = [s for s in morph_spec(at)["layout"]["shapes"] if s["type"] == "rect"]
    assert len({s["xref"] for s in flips}) == 5  # every default measure flips somewhere on the noise sweep
    text = at.markdown[-1].value
    assert "prefers A (Singletons)" in text


def test_log_base_changes_the_morph_and_the_comparison():
    nats = compare_values(open_page(COMPARE))
    bits = compare_values(open_page(COMPARE, log="bits"))
    vi = nats["symbol"].tolist().index("VI")
    assert bits["A"][vi] == pytest.approx(nats["A"][vi] / math.log(2))
