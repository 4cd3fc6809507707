"""The Playground page through AppTest: a move (typed items, a chosen target) changes the table,
every chosen measure and the history to metrics' values of the moved clustering (computed here
from the scene and the move directly); the URL carries every move and reproduces them; undo,
start over, a new scene, and bad input (typed or in a link) behave."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import streamlit as st

import metrics
from dashboard.playground import views as pv
from dashboard.playground.moves import decode_move, encode_move, parse_typed
from metrics.papers import playground as pg
from tests.dashboard.apptest_utils import chart, decoded, no_trouble, open_app

PAGE = "app_pages/learn/playground.py"


def measures(at) -> pd.DataFrame:
    for df in at.dataframe:
        if "now" in df.value.columns:
            return df.value.set_index("symbol")
    raise KeyError("measures")


def history(at) -> pd.DataFrame:
    for df in at.dataframe:
        if "move" in df.value.columns:
            return df.value
    raise KeyError("history")


def moves_in_url(at) -> list[str]:
    value = at.query_params.get("pg_mv", [])
    return value if isinstance(value, list) else [value]


def expected(scene: pg.Scene, clusters, keys=pv.DEFAULT_KEYS) -> dict[str, float]:
    return metrics.evaluate(metrics.Contingency.from_labels(scene.classes, clusters), keys)


def by_symbol(values: dict[str, float]) -> dict[str, float]:
    return {metrics.MEASURES[k].symbol: v for k, v in values.items()}


def test_a_typed_move_changes_table_measures_and_history():
    at = open_app(PAGE)
    no_trouble(at)
    scene = pg.scene("blobs", 90, 0)
    before = by_symbol(expected(scene, scene.clusters))
    shown = measures(at)
    for sym, v in before.items():
        assert shown.loc[sym, "now"] == pytest.approx(v)
    assert shown["before"].isna().all()
    # The scatter: one trace per class with its own shape, items coloured by cluster, selectable.
    spec = chart(at, "pg_scatter_0")
    classes = [t for t in spec["data"] if "customdata" in t]
    assert len({t["marker"]["symbol"] for t in classes}) == 3
    items = np.concatenate([decoded(t["customdata"]) for t in classes])
    assert sorted(items.tolist()) == list(range(90))
    colour_of: dict[int, set] = {}
    for t in classes:   # each item in its cluster's colour, one colour per cluster
        for colour, i in zip(t["marker"]["color"], decoded(t["customdata"])):
            colour_of.setdefault(int(scene.clusters[i]), set()).add(colour)
    assert all(len(c) == 1 for c in colour_of.values())
    assert len(set().union(*colour_of.values())) == len(colour_of) == 3
    assert spec["layout"]["dragmode"] == "select"
    el = next(c for c in at.get("plotly_chart") if "pg_scatter_0" in c.proto.id)
    assert set(el.proto.selection_mode) == {0, 1, 2}  # points, box, lasso

    at.text_input(key="pg_typed").set_value("1-5, 40").run()
    assert any("6 items selected" in m.value for m in at.markdown)
    at.button(key="pg_move").click().run()
    no_trouble(at)
    assert moves_in_url(at) == ["0-4.39_n"]
    moved, to = pg.move(scene.clusters, [0, 1, 2, 3, 4, 39], pg.NEW)
    after = by_symbol(expected(scene, moved))
    shown = measures(at)
    for sym in after:
        assert shown.loc[sym, "now"] == pytest.approx(after[sym])
        assert shown.loc[sym, "before"] == pytest.approx(before[sym])
        assert shown.loc[sym, "change"] == pytest.approx(after[sym] - before[sym])
    assert any(after[s] != pytest.approx(before[s]) for s in after)
    # The table: a new cluster column holding the six items.
    heat = chart(at, "pg_table")["data"][0]
    assert heat["x"] == [f"K{j + 1}" for j in np.unique(moved)]
    z = np.array(decoded(heat["z"]), dtype=float)
    assert z.sum() == 90 and sorted(z[:, -1].tolist())[-1] >= 1
    h = history(at)
    assert h["move"].tolist() == [1] and h.loc[0, "to"] == f"K{to + 1} (new)"
    assert h.loc[0, "items"].startswith("6: 1, 2, 3, 4, 5, 40")
    assert h.loc[0, "Δ V_β"] == pytest.approx(after["V_β"] - before["V_β"])
    # The chart now shows the moved items in the new cluster's colour (a new chart: selection cleared).
    spec = chart(at, "pg_scatter_1")
    assert at.text_input(key="pg_typed").value == ""


def test_move_to_an_existing_cluster_then_undo_and_start_over():
    at = open_app(PAGE, params={"pg_scene": "noise", "pg_n": "60"})
    scene = pg.scene("noise", 60, 0)
    noise = int(scene.clusters.max())
    stray = np.flatnonzero((scene.clusters == noise) & (scene.classes == 0))
    at.text_input(key="pg_typed").set_value(", ".join(str(i + 1) for i in stray)).run()
    at.selectbox(key="pg_to").set_value("0").run()
    at.button(key="pg_move").click().run()
    no_trouble(at)
    repaired, _ = pg.move(scene.clusters, stray.tolist(), 0)
    assert measures(at).loc["ARI", "now"] == pytest.approx(expected(scene, repaired, ["ari"])["ari"])
    assert measures(at).loc["ARI", "so"] == "better"
    at.button(key="pg_undo").click().run()
    assert "pg_mv" not in at.query_params
    assert measures(at).loc["ARI", "now"] == pytest.approx(expected(scene, scene.clusters, ["ari"])["ari"])
    at.text_input(key="pg_typed").set_value("1").run()
    at.button(key="pg_move").click().run()
    at.text_input(key="pg_typed").set_value("2").run()
    at.button(key="pg_move").click().run()
    assert len(moves_in_url(at)) == 2 and history(at)["move"].tolist() == [2, 1]
    at.button(key="pg_restart").click().run()
    assert "pg_mv" not in at.query_params and at.button(key="pg_undo").disabled


def test_a_link_reproduces_rh_solution_b_where_f_does_not_move():
    scene = pg.scene("matching", 90, 3)
    state, moves = scene.clusters, []
    for i in range(3):
        stray = np.flatnonzero((scene.classes == i) & (state != i))
        moves.append(pg.Move(tuple(stray.tolist()), (i + 1) % 3))
        state = pg.move(state, stray.tolist(), (i + 1) % 3)[0]
    at = open_app(PAGE, params={"pg_scene": "matching", "pg_seed": "3",
                                "pg_mv": [encode_move(m) for m in moves]})
    no_trouble(at)
    shown = measures(at)
    a, b = by_symbol(expected(scene, scene.clusters)), by_symbol(expected(scene, state))
    assert shown.loc["F", "now"] == pytest.approx(a["F"]) == pytest.approx(b["F"])
    assert shown.loc["V_β", "now"] == pytest.approx(b["V_β"]) and b["V_β"] > a["V_β"]
    assert len(history(at)) == 3


def test_a_new_scene_forgets_the_moves_and_bad_input_is_reported():
    at = open_app(PAGE, params={"pg_mv": ["0-2_n", "7_99", "1_0"]})
    assert any("move 2" in w.value and "no cluster 99" in w.value for w in at.warning)
    assert moves_in_url(at) == ["0-2_n"] and len(history(at)) == 1
    at.text_input(key="pg_typed").set_value("5-x").run()
    assert any("“5-x” is not an item number" in e.value.replace("\\", "") for e in at.error)
    assert at.text_input(key="pg_typed").value == "5-x"          # what was typed stays
    at.button(key="pg_move").click().run()                      # a move of unreadable items is refused
    assert moves_in_url(at) == ["0-2_n"] and any("5-x" in e.value.replace("\\", "") for e in at.error)
    assert at.text_input(key="pg_typed").value == "5-x"
    at.text_input(key="pg_typed").set_value("").run()
    at.button(key="pg_move").click().run()                      # and a move of nothing
    assert any("Select items on the chart" in e.value for e in at.error) and moves_in_url(at) == ["0-2_n"]
    at.text_input(key="pg_typed").set_value("500").run()
    assert any("numbered 1 to 90" in e.value for e in at.error)
    at.segmented_control(key="pg_scene").set_value("singletons").run()
    no_trouble(at)
    assert "pg_mv" not in at.query_params and at.query_params["pg_scene"] in ("singletons", ["singletons"])
    scene = pg.scene("singletons", 90, 0)
    assert measures(at).loc["NVI", "now"] == pytest.approx(expected(scene, scene.clusters, ["nvi"])["nvi"])
    at = open_app(PAGE, params={"pg_mv": ["garbage"]})
    assert any("move 1" in w.value for w in at.warning) and not at.exception


def test_chart_selection_events_become_items():
    scene = pg.scene("blobs", 30, 0)
    st.session_state.clear()
    st.session_state["pg_scatter_2"] = {"selection": {"points": [{"customdata": 4}, {"customdata": [7]},
                                                                 {"customdata": 99}, {"x": 1.0}]}}
    st.session_state[pv.TYPED] = "1"
    assert pv.selection(scene, 2) == ([0, 4, 7], None)
    assert pv.selection(scene, 1) == ([0], None)
    st.session_state.clear()


def test_move_codec_round_trip():
    m = pg.Move((3, 4, 5, 6, 7, 12, 14), pg.NEW)
    assert encode_move(m) == "3-7.12.14_n" and decode_move("3-7.12.14_n", 20) == m
    assert decode_move("0_2", 5) == pg.Move((0,), 2)
    for bad in ("", "1_", "_2", "3-1_0", "1-30_0", "a_1", "1..2_0"):
        with pytest.raises(ValueError):
            decode_move(bad, 20)
    assert parse_typed("4 - 8; 13", 20) == ([3, 4, 5, 6, 7, 12], None)
    assert parse_typed("21", 20)[1] and parse_typed("x", 20)[1]
    json.dumps(encode_move(m))


def test_items_seed_and_measure_controls():
    at = open_app(PAGE, params={"pg_mv": ["0_n"]})
    assert len(history(at)) == 1
    at.slider(key="pg_n").set_value(120).run()
    no_trouble(at)
    assert "pg_mv" not in at.query_params                       # other items: the moves go
    assert any("n = 120 items" in c.value for c in at.caption)
    at.number_input(key="pg_seed").set_value(5).run()
    scene = pg.scene("blobs", 120, 5)
    xs = np.concatenate([decoded(t["x"]) for t in chart(at, "pg_scatter_0")["data"] if "customdata" in t])
    assert sorted(np.round(xs, 9)) == sorted(np.round(scene.points[:, 0], 9))
    at.multiselect(key="pg_m").set_value(["ami", "nmi_arithmetic"]).run()
    no_trouble(at)
    shown = measures(at)
    want = by_symbol(expected(scene, scene.clusters, ["ami", "nmi_arithmetic"]))
    assert sorted(shown.index) == sorted(want)
    for sym, v in want.items():
        assert shown.loc[sym, "now"] == pytest.approx(v)
    assert at.query_params["pg_m"] == ["ami", "nmi_arithmetic"]
    at.multiselect(key="pg_m").set_value([]).run()
    assert any("Choose at least one measure" in i.value for i in at.info) and not at.exception
