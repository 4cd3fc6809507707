"""The Solutions page through AppTest: every number it shows is ``metrics.compare_solutions`` (and its
companions) of the solutions it names, each source and control works, its links reproduce what
they promise (the Real data page's runs here, two solutions in Compare), and bad uploads end in an
error message in the page's words.

Expected values are recomputed here without the dashboard: presets spelled out as labels by a
loop of this file, clusterings re-run with scikit-learn and SciPy.
"""

from __future__ import annotations

import io
import json
import math
import urllib.parse

import numpy as np
import pandas as pd
import pytest
from sklearn import datasets
from streamlit.testing.v1 import AppTest

import metrics
from dashboard.solutions import views as sv
from dashboard.ui.presets import load_presets
from dashboard.ui.readout import escape_label, escape_markdown
from dashboard.ui.safe_text import shown as shown_text
from metrics.core.formatting import format_number
from tests.dashboard.apptest_utils import chart, decoded, no_trouble, open_app
from tests.dashboard.real_data.test_real_data import direct_labels
from tests.dashboard.test_charts_text import font_problems

PAGE, COMPARE, REAL = "app_pages/analyse/solutions.py", "app_pages/analyse/compare.py", "app_pages/explore/real_data.py"
PRESETS = load_presets()
KEYS = ["v_measure", "vi", "ari", "purity"]


def open_page(timeout: float = 120, **params) -> AppTest:
    return open_app(PAGE, timeout, params)


def spelled_out(keys: list[str]) -> tuple[list, dict]:
    """The presets as labels of the same items, written out cell by cell (independently of the page)."""
    gold, sols = None, {}
    for key in keys:
        p = PRESETS[key]
        g, s = [], []
        for cls, row in zip(p.classes, p.table):
            for cluster, count in zip(p.clusters, row):
                g += [cls] * int(count)
                s += [cluster] * int(count)
        gold = g if gold is None else gold
        assert g == gold  # the same classes, names and sizes
        sols[key] = s
    return gold, sols


def heat(at: AppTest) -> dict:
    return chart(at, "sol_scores")["data"][0]


def shown_frame(at: AppTest) -> tuple[list[str], list[str], np.ndarray, list[list[str]], list]:
    """(solutions, measure symbols, goodness, rank texts, hover data) of the verdict heatmap."""
    h = heat(at)
    z = np.array([[np.nan if v is None else v for v in row] for row in decoded(h["z"])], dtype=float)
    return h["y"], h["x"], z, h["text"], h["customdata"]


def title(name: str) -> str:
    """What the page calls a solution: a preset by its title (never its key), any other by its name."""
    return PRESETS[name].title if name in PRESETS else name


def check_verdict(at: AppTest, frame: pd.DataFrame) -> None:
    """The heatmap and the 'Ranked first' list show exactly ``frame`` (compare_solutions), each
    solution by its name."""
    ys, xs, z, text, custom = shown_frame(at)
    assert ys == [escape_label(title(n)) for n in frame.index]
    assert xs == [escape_label(metrics.MEASURES[k].symbol) for k in frame.columns]
    good = np.column_stack([np.asarray(metrics.MEASURES[k].goodness(frame[k].to_numpy()), dtype=float)
                            for k in frame.columns])
    np.testing.assert_array_equal(z, good)
    ranks = metrics.rank_solutions(frame)
    assert text == [[format_number(int(r)) for r in row] for row in ranks.to_numpy().tolist()]
    assert [[cell[1] for cell in row] for row in custom] == [[format_number(v) for v in row]
                                                             for row in frame.to_numpy().tolist()]
    listed = [m.value for m in at.markdown if m.value.startswith("- ")]
    assert listed and listed[0] == sv.first_places_markdown(ranks.rename(index=title))
    assert not any(key in m.value for m in at.markdown for key in frame.index if key in PRESETS)
    for best, keys in sv.first_places(ranks):
        for key in keys:
            assert set(ranks.index[ranks[key] == 1]) == set(best)


# ---------------------------------------------------------------- paper presets
def test_default_presets_show_compare_solutions_of_the_tables():
    at = open_page()
    no_trouble(at)
    assert not [df for df in at.dataframe if "solution" in df.value.columns]   # the values' box is closed …
    at.session_state["sol_values_box"] = True                                  # … and drawn once opened
    at.run()
    gold, sols = spelled_out(sv.DEFAULT_PRESETS)
    frame = metrics.compare_solutions(gold, sols, sv.DEFAULT_KEYS)
    check_verdict(at, frame)
    # Each solution's table is the preset's own: its values are the preset's (Compare shows the same).
    for key in sv.DEFAULT_PRESETS:
        own = metrics.evaluate(PRESETS[key].contingency(), sv.DEFAULT_KEYS)
        assert all(math.isclose(frame.at[key, k], v, rel_tol=1e-12, abs_tol=1e-12) for k, v in own.items())
    # The perfect clustering is ranked first by every measure.
    first = f"- **{escape_markdown('Extreme case: perfect clustering')}**: "
    assert any(m.value.startswith(first) for m in at.markdown)
    # Agreement: Kendall τ of rank_agreement, undefined cells as "—".
    tau = metrics.rank_agreement(frame)
    a = chart(at, "sol_agreement")["data"][0]
    z = np.array([[np.nan if v is None else v for v in row] for row in decoded(a["z"])], dtype=float)
    np.testing.assert_array_equal(z, tau.to_numpy())
    assert a["text"] == [["—" if math.isnan(v) else format_number(v) for v in row] for row in tau.to_numpy().tolist()]
    # Values and ranks in the expander, with the full-precision CSV.
    values = [df.value for df in at.dataframe if "solution" in df.value.columns]
    assert values[0]["solution"].tolist() == [title(k) for k in sv.DEFAULT_PRESETS]
    csv = [b for b in at.get("download_button") if "sol_dl_values" in b.proto.id]
    assert len(csv) == 1


def test_a_group_button_chooses_presets_on_the_same_gold_classes():
    at = open_page()
    groups = sv.preset_groups(PRESETS)
    label = next(lb for lb, (keys, _) in groups.items() if keys == ["rh_figure2_C", "rh_figure2_D"])
    assert label == "R&H Figure 2, solution C · D"
    at.button(key="sol_group_rh_figure2_C").click().run()
    no_trouble(at)
    assert at.multiselect(key="sol_presets").value == ["rh_figure2_C", "rh_figure2_D"]
    assert at.query_params["sol_presets"] == ["rh_figure2_C", "rh_figure2_D"]
    gold, sols = spelled_out(["rh_figure2_C", "rh_figure2_D"])
    check_verdict(at, metrics.compare_solutions(gold, sols, sv.DEFAULT_KEYS))
    # Every group is a set of presets with the same classes and sizes, and every such set is a group.
    for keys, _ in groups.values():
        spelled_out(keys)
    assert sorted(k for keys, _ in groups.values() for k in keys) == sorted(
        k for k in PRESETS if k not in ("rh_figure3",))


def test_presets_on_different_items_are_an_error_and_one_preset_asks_for_more():
    at = open_page(sol_presets=["rh_figure2_A", "rh_figure2_C"])
    assert not at.exception
    assert len(at.error) == 1
    text = at.error[0].value
    assert "15 items in the classes C1 (5), C2 (5), C3 (5)" in text and "21 items" in text
    assert "solutions must cluster the same items" in text
    assert not at.get("plotly_chart")
    at = open_page(sol_presets=["wu_table3_I"])
    no_trouble(at)
    assert any("at least two presets" in i.value for i in at.info)


def test_switching_source_away_and_back_keeps_the_presets():
    at = open_page(sol_presets=["wu_table3_I", "wu_table3_II"])
    at.segmented_control(key="sol_src").set_value("real").run()
    no_trouble(at)
    at.segmented_control(key="sol_src").set_value("preset").run()
    no_trouble(at)
    assert at.multiselect(key="sol_presets").value == ["wu_table3_I", "wu_table3_II"]
    assert shown_frame(at)[0] == [escape_label(PRESETS[k].title) for k in ("wu_table3_I", "wu_table3_II")]


def test_choices_kept_from_another_set_give_way_to_the_defaults():
    at = open_page(sol_m=["vi", "ari", "purity"])
    at.selectbox(key="sol_ma").set_value("purity")
    at.selectbox(key="sol_sankey").set_value("extreme_singletons")
    at.selectbox(key="sol_b").set_value("extreme_no_knowledge").run()
    at.multiselect(key="sol_m").set_value(["vi", "ari"]).run()
    no_trouble(at)
    assert (at.selectbox(key="sol_ma").value, at.selectbox(key="sol_mb").value) == ("vi", "ari")
    at.button(key="sol_group_rr_solution_r").click().run()
    no_trouble(at)
    assert at.selectbox(key="sol_sankey").value == "rr_solution_r"
    assert (at.selectbox(key="sol_a").value, at.selectbox(key="sol_b").value) == ("rr_solution_r", "rr_singletons")
    assert len(link_params(at, "compare")["a"]) == 1


# ---------------------------------------------------------------- measures, changes of mind, Sankey
def test_measures_choice_and_quick_picks():
    at = open_page(sol_m=KEYS, log="bits", beta="2")
    no_trouble(at)
    gold, sols = spelled_out(sv.DEFAULT_PRESETS)
    check_verdict(at, metrics.compare_solutions(gold, sols, KEYS, log_base=2.0, beta=2.0))
    at.button(key="sol_pick_all").click().run()
    no_trouble(at)
    assert shown_frame(at)[1] == [escape_label(m.symbol) for m in metrics.MEASURES.values()]
    at.multiselect(key="sol_m").set_value([]).run()
    assert not at.exception and any("at least one measure" in i.value for i in at.info)
    at.button(key="sol_pick_default").click().run()
    assert at.multiselect(key="sol_m").value == sv.DEFAULT_KEYS


def test_changes_of_mind_for_a_chosen_pair():
    at = open_page(sol_m=KEYS)
    gold, sols = spelled_out(sv.DEFAULT_PRESETS)
    frame = metrics.compare_solutions(gold, sols, KEYS)
    # Preselected: the pair that agrees least.
    tau = metrics.rank_agreement(frame)
    pairs = [(tau.at[a, b], a, b) for i, a in enumerate(KEYS) for b in KEYS[i + 1:] if not math.isnan(tau.at[a, b])]
    low = min(pairs, key=lambda x: x[0])
    assert (at.selectbox(key="sol_ma").value, at.selectbox(key="sol_mb").value) == low[1:]
    assert low[1:] == ("vi", "purity") and "sol_ma" not in at.query_params  # (defaults stay out of the URL)
    at.selectbox(key="sol_ma").set_value("v_measure")
    at.selectbox(key="sol_mb").set_value("vi").run()
    no_trouble(at)
    assert at.query_params["sol_ma"] == "v_measure" and at.query_params["sol_mb"] == "vi"
    found = metrics.changes_of_mind(frame, ["v_measure", "vi"])
    assert len(found) == 1
    table = next(df.value for df in at.dataframe if "VI prefers" in df.value.columns)
    assert found["solution_1"].tolist() == ["extreme_singletons"]
    assert found["solution_2"].tolist() == ["extreme_single_cluster"]
    # shown by their names, not their keys
    assert table["V_β prefers"].tolist() == ["Extreme case: singletons"] == [title("extreme_singletons")]
    assert table["VI prefers"].tolist() == ["Extreme case: single cluster"]
    assert table["V_β of V_β's pick"].tolist() == found["value_a_1"].tolist()
    assert table["VI of VI's pick"].tolist() == found["value_b_2"].tolist()
    assert any("order **1** of the 6 pairs" in m.value for m in at.markdown)
    at.selectbox(key="sol_ma").set_value("vi").run()
    assert any("two different measures" in i.value for i in at.info)


def test_sankey_of_the_chosen_solution():
    at = open_page(sol_presets=["rr_solution_r", "rr_singletons"])
    no_trouble(at)
    assert at.selectbox(key="sol_sankey").value == "rr_solution_r" and "sol_sankey" not in at.query_params
    at.selectbox(key="sol_sankey").set_value("rr_singletons").run()
    assert at.query_params["sol_sankey"] == "rr_singletons"
    at.selectbox(key="sol_sankey").set_value("rr_solution_r").run()
    no_trouble(at)
    s = chart(at, "sol_sankey_chart")["data"][0]
    t = PRESETS["rr_solution_r"].frame()
    labels = s["node"]["label"]
    assert labels == list(t.index) + list(t.columns)
    flows = {(labels[i], labels[j]): v for i, j, v in zip(decoded(s["link"]["source"]), decoded(s["link"]["target"]),
                                                           decoded(s["link"]["value"]))}
    assert flows == {(c, k): t.at[c, k] for c in t.index for k in t.columns if t.at[c, k]}
    # Singletons: 100 clusters, drawn as the 29 largest and one node for the rest; the note says so.
    at.selectbox(key="sol_sankey").set_value("rr_singletons").run()
    no_trouble(at)
    s = chart(at, "sol_sankey_chart")["data"][0]
    assert len(s["node"]["label"]) == 10 + 30 and s["node"]["label"][-1] == "71 other clusters"
    assert sum(decoded(s["link"]["value"])) == 100
    assert any("the 71 smallest clusters are drawn as one node" in c.value for c in at.caption)


# ---------------------------------------------------------------- links: Compare, Real data
def link_params(at: AppTest, page: str) -> dict:
    link = [lk for lk in at.get("page_link") if lk.proto.page.endswith(page)]
    assert len(link) == 1, [lk.proto.page for lk in at.get("page_link")]
    return urllib.parse.parse_qs(link[0].proto.query_string)


def compare_tables(at: AppTest) -> list[pd.DataFrame]:
    out = []
    for side in ("a", "b"):
        h = chart(at, f"cmp_heatmap_{side}")["data"][0]
        out.append(pd.DataFrame(decoded(h["z"]), index=h["y"], columns=h["x"]))
    return out


def test_compare_link_opens_two_presets_by_name():
    at = open_page(sol_m=KEYS)
    at.selectbox(key="sol_a").set_value("extreme_singletons")
    at.selectbox(key="sol_b").set_value("extreme_no_knowledge").run()
    params = link_params(at, "compare")
    assert params["a"] == ["extreme_singletons"] and params["b"] == ["extreme_no_knowledge"]
    assert params["m"] == KEYS and "link" not in params   # it names Compare's parameters: no mark needed
    cmp = open_app(COMPARE, 60, params)
    no_trouble(cmp)
    assert (cmp.selectbox(key="a").value, cmp.selectbox(key="b").value) == ("extreme_singletons",
                                                                           "extreme_no_knowledge")
    assert cmp.multiselect(key="m").value == KEYS


def test_compare_link_carries_uploaded_tables_that_compare_reproduces():
    gold = ["x"] * 4 + ["y"] * 4 + ["<b>z</b>"] * 4
    p1 = ["k1"] * 3 + ["k2"] * 5 + ["k3"] * 4
    p2 = ["a", "b"] * 6
    at = upload(("three.csv", csv_bytes(gold=gold, p1=p1, p2=p2, p3=["one"] * 12)))
    no_trouble(at)
    at.selectbox(key="sol_a").set_value("p1")
    at.selectbox(key="sol_b").set_value("p2").run()
    params = link_params(at, "compare")
    assert params["a"] == ["link"] and params["a_name"] == ["p1"] and params["b_name"] == ["p2"]
    cmp = open_app(COMPARE, 60, params)  # a fresh session: the link alone determines Compare
    no_trouble(cmp)
    for shown, labels in zip(compare_tables(cmp), (p1, p2)):
        want = metrics.Contingency.from_labels(gold, labels).to_frame()
        assert shown.index.tolist() == [escape_label(c) for c in want.index]
        assert shown.columns.tolist() == [escape_label(c) for c in want.columns]
        np.testing.assert_array_equal(shown.to_numpy(), want.to_numpy())
    verdict = next(m.value for m in cmp.markdown if "prefer" in m.value)
    assert verdict.endswith("prefer A (p1).")  # every measure prefers p1 to p2
    assert [t["name"] for t in chart(cmp, "cmp_preference")["data"]] == ["A: p1", "B: p2"]
    values = next(df.value for df in cmp.dataframe if {"A", "B"} <= set(df.value.columns))
    va = metrics.evaluate(metrics.Contingency.from_labels(gold, p1), sv.DEFAULT_KEYS)
    assert values["A"].tolist() == pytest.approx([va[k] for k in sv.DEFAULT_KEYS], rel=1e-12, abs=1e-12)
    # The link's table, not some other table, after a rerun too; choosing another table drops it.
    cmp.run()
    assert cmp.selectbox(key="a").value == "link"
    cmp.selectbox(key="a").set_value("rr_solution_r").run()
    no_trouble(cmp)
    assert "a_table" not in cmp.query_params and "a_name" not in cmp.query_params


def test_a_table_too_large_for_a_link_gets_a_message():
    at = open_page(sol_src="real", sol_data="digits", sol_algo=["ward"], sol_k=["45", "46"], sol_m=["ari", "vi"])
    no_trouble(at)
    assert not [lk for lk in at.get("page_link") if lk.proto.page.endswith("compare")]
    assert any("more than a link carries" in w.value and "10 classes × 45 clusters" in w.value for w in at.warning)


def test_the_real_data_link_reproduces_its_runs():
    real = open_app(REAL, 180, {"rd_data": "wine", "rd_algo": ["kmeans", "random"], "rd_k": ["3", "5"],
                                "rd_std": "false", "rd_seed": "7", "rd_m": ["vi", "ari", "v_measure"]})
    no_trouble(real)
    params = link_params(real, "solutions")
    assert params == {"sol_src": ["real"], "sol_data": ["wine"], "sol_algo": ["kmeans", "random"],
                      "sol_k": ["3", "5"], "sol_std": ["false"], "sol_seed": ["7"], "sol_m": ["vi", "ari", "v_measure"]}
    at = open_app(PAGE, 180, params)
    no_trouble(at)
    bunch = datasets.load_wine()
    gold = np.asarray(bunch.target_names)[bunch.target]
    runs = {f"{sv.RUN_NAMES[a]} k={k}": direct_labels("wine", a, k, 7, False) for a in ("kmeans", "random")
            for k in (3, 4, 5)}
    check_verdict(at, metrics.compare_solutions(gold, runs, ["vi", "ari", "v_measure"]))
    assert at.slider(key="sol_k").value == (3, 5) and at.toggle(key="sol_std").value is False
    assert at.number_input(key="sol_seed").value == 7


def test_the_real_data_link_names_no_default_of_the_solutions_page():
    """At the Real data page's own defaults, the link leaves out what are the Solutions page's
    defaults too, opens the same runs, and the page keeps the address the link wrote."""
    real = open_app(REAL, 180, {"rd_k": ["2", "10"], "rd_m": ["vi", "ari"]})
    params = link_params(real, "solutions")
    assert params == {"sol_src": ["real"], "sol_m": ["vi", "ari"]}
    at = open_app(PAGE, 180, params)
    no_trouble(at)
    assert dict(at.query_params) == {"sol_src": "real", "sol_m": ["vi", "ari"]}     # kept as the link wrote it
    assert at.slider(key="sol_k").value == sv.DEFAULT_REAL["sol_k"] and at.toggle(key="sol_std").value is True


def test_a_link_determines_the_page_whatever_the_session_held():
    at = open_page(sol_presets=["wu_table10_I", "wu_table10_II"], sol_m=["vi", "ari"], sol_sankey="wu_table10_II")
    at.segmented_control(key="sol_src").set_value("real").run()
    # A link naming only the source: everything else takes its default.
    at.query_params.clear()
    at.query_params["sol_src"] = "preset"
    at.query_params["link"] = "1"
    at.switch_page("app_pages/home.py").run()
    at.switch_page(PAGE).run()
    no_trouble(at)
    assert at.multiselect(key="sol_presets").value == sv.DEFAULT_PRESETS
    assert at.multiselect(key="sol_m").value == sv.DEFAULT_KEYS
    assert at.selectbox(key="sol_sankey").value == sv.DEFAULT_PRESETS[0]


# ---------------------------------------------------------------- uploads
def csv_bytes(**cols) -> bytes:
    return pd.DataFrame(cols).to_csv(index=False).encode()


def upload(*files, layout: str = "one", **params) -> AppTest:
    at = open_page(sol_src="upload", **params)
    files = [f if len(f) == 3 else (*f, "text/csv") for f in files]
    if layout != "one":
        at.radio(key="sol_upload_layout").set_value(layout).run()
    if layout == "one":
        at.file_uploader(key="sol_upload_file").set_value(files[0])
    else:
        at.file_uploader(key="sol_upload_gold_file").set_value(files[0])
        at.file_uploader(key="sol_upload_files").set_value(list(files[1:]))
    return at.run()


def three(n: int = 60, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    gold = rng.choice(["a", "b", "c"], size=n)
    return pd.DataFrame({"id": [f"i{i}" for i in range(n)], "gold": gold,
                         "p1": np.where(rng.random(n) < 0.9, gold, "x"), "p2": rng.choice(["u", "v"], size=n),
                         "p3": rng.choice(list("qrstuvw"), size=n)})


def test_upload_one_file_with_three_solutions():
    df = three()
    at = upload(("runs.csv", df.to_csv(index=False).encode()))
    no_trouble(at)
    assert any("do not travel in a link" in i.value for i in at.info)
    # The id column is not offered as a solution by default.
    assert at.multiselect(key="sol_upload_cols").value == ["p1", "p2", "p3"]
    check_verdict(at, metrics.compare_solutions(df["gold"], df[["p1", "p2", "p3"]], sv.DEFAULT_KEYS))
    at.multiselect(key="sol_upload_cols").set_value(["p3", "p1"]).run()
    no_trouble(at)
    check_verdict(at, metrics.compare_solutions(df["gold"], df[["p3", "p1"]], sv.DEFAULT_KEYS))
    # Uploads never travel in the URL.
    assert at.query_params["sol_src"] == "upload"
    assert not [k for k in at.query_params if k.startswith("sol_upload")]


def test_upload_several_files_aligned_by_id():
    df = three(seed=4)
    files = [("gold.csv", df[["id", "gold"]].to_csv(index=False).encode(), "text/csv")]
    for i, name in enumerate(["p1", "p2", "p3"]):
        part = df[["id", name]].rename(columns={name: "pred"}).sample(frac=1.0, random_state=i)
        files.append((f"{name}.csv", part.to_csv(index=False).encode(), "text/csv"))
    at = upload(*files, layout="files")
    no_trouble(at)
    assert at.selectbox(key="sol_upload_align").value == "id"
    check_verdict(at, metrics.compare_solutions(df["gold"], df[["p1", "p2", "p3"]], sv.DEFAULT_KEYS))
    # By row the shuffled files are other solutions (and the page says nothing is wrong: same length).
    at.selectbox(key="sol_upload_align").set_value(sv_by_row()).run()
    assert not at.exception


def sv_by_row() -> str:
    from dashboard.solutions.upload import BY_ROW

    return BY_ROW


def test_upload_several_parquet_files_by_row():
    df = three(seed=6)
    gold = io.BytesIO()
    df[["gold"]].to_parquet(gold)
    files = [("gold.parquet", gold.getvalue(), "application/octet-stream")]
    for name in ("p1", "p2"):
        buf = io.BytesIO()
        df[[name]].rename(columns={name: "pred"}).to_parquet(buf)
        files.append((f"{name}.parquet", buf.getvalue(), "application/octet-stream"))
    at = upload(*files, layout="files")
    no_trouble(at)
    check_verdict(at, metrics.compare_solutions(df["gold"], df[["p1", "p2"]], sv.DEFAULT_KEYS))


def test_missing_labels_are_refused_naming_the_solution_then_left_out_everywhere():
    df = three(seed=2)
    df.loc[4, "p2"] = ""
    at = upload(("holes.csv", df.to_csv(index=False).encode()))
    assert not at.exception
    assert [shown_text(e.value) for e in at.error] == [
        ("1 item(s) have a missing label (gold: 0, p2: 1; an empty cell), first at data row 5 of holes.csv. "
        "Tick 'Leave out rows with a missing label' to score the other rows, or fill in the labels in the file.")]
    at.checkbox(key="sol_upload_dropna").check().run()
    no_trouble(at)
    kept = df.drop(index=4)
    check_verdict(at, metrics.compare_solutions(kept["gold"], kept[["p1", "p2", "p3"]], sv.DEFAULT_KEYS))
    assert any("1 row(s) left out (a missing label)" in m.value for m in at.markdown)


@pytest.mark.parametrize("files, words", [
    ([("g.csv", b"gold\na\nb\nc\n"), ("p1.csv", b"pred\n1\n2\n3\n"), ("p2.csv", b"pred\n1\n2\n")],
     "p2.csv has 2 rows but g.csv has 3"),
    ([("g.csv", b"gold\na\nb\n"), ("p.csv", b"pred\n1\n2\n"), ("p.tsv", b"pred\n1\n2\n")], None),
    ([("g.csv", b"id,gold\n1,a\n2,b\n"), ("p1.csv", b"id,pred\n1,x\n2,y\n"), ("p2.csv", b"id,pred\n1,x\n3,y\n")],
     "1 row(s) of g.csv and 1 row(s) of p2.csv have no partner with the same 'id'"),
    ([("g.csv", b"gold\na\nb\n"), ("p1.csv", b"pred\n1\n2\n"), ("p2.csv", b"other\n1\n2\n")],
     "no label column in common"),
    ([("g.csv", b""), ("p1.csv", b"pred\n1\n"), ("p2.csv", b"pred\n1\n")], "empty"),
])
def test_bad_file_sets_end_in_an_error_message(files, words):
    at = upload(*[(n, b, "text/csv") for n, b in files], layout="files")
    assert not at.exception
    if words is None:  # p.csv and p.tsv: distinct names, kept in full
        no_trouble(at)
        assert shown_frame(at)[0] == ["p.csv", "p.tsv"]
        return
    assert any(words in shown_text(e.value) for e in at.error), [e.value for e in at.error]
    assert not at.get("plotly_chart")


@pytest.mark.parametrize("name, data, words", [
    ("empty.csv", b"", "empty"),
    ("two.csv", b"gold,p1\na,1\nb,2\n", "it needs a gold column and at least two solution columns"),
    ("ragged.csv", b"gold,p1,p2\na,1,1\nb,2\n", "ragged"),
    ("inf.parquet", None, "infinite"),
])
def test_bad_single_files_end_in_an_error_message(name, data, words):
    if data is None:
        buf = io.BytesIO()
        pd.DataFrame({"gold": [1.0, 2.0, 3.0], "p1": [1.0, float("inf"), 2.0], "p2": [1.0, 1.0, 2.0]}).to_parquet(buf)
        data = buf.getvalue()
    at = upload((name, data, "application/octet-stream"))
    assert not at.exception
    assert any(words in e.value for e in at.error), [e.value for e in at.error]


def test_labels_are_drawn_as_written_and_every_chart_is_readable():
    hostile = ["<b>bold</b>", "50%{x}", "a & b"]
    df = pd.DataFrame({"gold": hostile * 4, "<i>p1</i>": ["k*1*", "k2", "k2"] * 4, "p%2": list("xyzw") * 3,
                       "p3": ["u"] * 12})
    at = upload(("hostile.csv", df.to_csv(index=False).encode()))
    no_trouble(at)
    assert shown_frame(at)[0] == [escape_label(c) for c in ["<i>p1</i>", "p%2", "p3"]]
    at.selectbox(key="sol_sankey").set_value("<i>p1</i>").run()
    labels = chart(at, "sol_sankey_chart")["data"][0]["node"]["label"]
    assert labels == [escape_label(x) for x in hostile] + ["k*1*", "k2"]
    assert any(escape_markdown("<i>p1</i>") in m.value for m in at.markdown)
    for state in (at, open_page(), open_page(sol_src="real", sol_k=["2", "12"], sol_m=list(metrics.MEASURES))):
        problems = {c.proto.id[-30:]: font_problems(json.loads(c.proto.spec)) for c in state.get("plotly_chart")}
        assert len(problems) == 3 and not any(problems.values()), problems


# ---------------------------------------------------------------- the pair follows the solutions (issue 25, item 10)
def lowest_tau_pair(presets: list[str], keys: list[str]) -> tuple[str, str]:
    """The two measures whose orderings of these presets agree least, recomputed here."""
    gold, sols = spelled_out(presets)
    tau = metrics.rank_agreement(metrics.compare_solutions(gold, sols, keys))
    pairs = [(tau.at[a, b], a, b) for i, a in enumerate(keys) for b in keys[i + 1:] if not math.isnan(tau.at[a, b])]
    return min(pairs, key=lambda x: x[0])[1:]


def shown_pair(at: AppTest) -> tuple[str, str]:
    return at.selectbox(key="sol_ma").value, at.selectbox(key="sol_mb").value


def test_the_measure_pair_follows_the_current_solutions():
    """The "lowest τ" pair is recomputed when the solutions change — other presets, even after the
    user chose a pair — and when the measures change while the pair is still the preselected one;
    a pair the user chose stays while the solutions stay."""
    wu, rr = ["wu_table3_I", "wu_table3_II"], ["rr_solution_r", "rr_singletons"]
    at = open_page()
    no_trouble(at)
    assert shown_pair(at) == lowest_tau_pair(sv.DEFAULT_PRESETS, sv.DEFAULT_KEYS) == ("nvi", "rand")
    at.button(key="sol_group_wu_table3_I").click().run()
    no_trouble(at)
    assert shown_pair(at) == lowest_tau_pair(wu, sv.DEFAULT_KEYS) == ("v_measure", "purity")
    assert "sol_ma" not in at.query_params                      # a default: left out of the URL
    at.selectbox(key="sol_ma").set_value("ari")
    at.selectbox(key="sol_mb").set_value("vi").run()
    at.multiselect(key="sol_m").set_value([*sv.DEFAULT_KEYS, "mirkin"]).run()
    assert shown_pair(at) == ("ari", "vi")                      # the user's pick, same solutions
    at.button(key="sol_group_rr_solution_r").click().run()
    no_trouble(at)
    assert shown_pair(at) == lowest_tau_pair(rr, [*sv.DEFAULT_KEYS, "mirkin"])
    table = next(df.value for df in at.dataframe if "prefers" in " ".join(df.value.columns))
    found = metrics.changes_of_mind(metrics.compare_solutions(*spelled_out(rr), [*sv.DEFAULT_KEYS, "mirkin"]),
                                    list(shown_pair(at)))
    assert len(table) == len(found)
    # measures changed while the pair is the preselected one: it follows
    at.multiselect(key="sol_m").set_value(KEYS).run()
    assert shown_pair(at) == lowest_tau_pair(rr, KEYS)


def test_a_link_naming_a_pair_keeps_it():
    at = open_page(sol_presets=["wu_table3_I", "wu_table3_II"], sol_ma="ari", sol_mb="vi")
    no_trouble(at)
    assert shown_pair(at) == ("ari", "vi")


def test_solutions_are_offered_by_their_names():
    at = open_page()
    titles = [PRESETS[k].title for k in sv.DEFAULT_PRESETS]
    for key in ("sol_sankey", "sol_a", "sol_b"):
        assert at.selectbox(key=key).options == titles
        assert at.selectbox(key=key).value in sv.DEFAULT_PRESETS      # the key stays the identity (links)
    sankey = chart(at, "sol_sankey_chart")
    assert any(escape_label(titles[0]) in a["text"] for a in sankey["layout"]["annotations"])
    assert not any("extreme_" in str(c.value) for c in at.caption)
