"""The Fuzzy lab builds the figures its sliders redraw without Plotly's validation (speed): every
figure it sends, in every section and tab, must still be valid Plotly. And the playground's caches
give what metrics computes for the same settings, on a first visit and on a return."""

from __future__ import annotations

import json

import pandas as pd
import plotly.graph_objects as go
import pytest

from dashboard.fuzzy import views as fz
from metrics.papers import experiments
from tests.dashboard.apptest_utils import chart, decoded, no_trouble, open_app

PAGE = "app_pages/explore/fuzzy_lab.py"
SMALL = {"fz_e1_max": "16", "fz_e1_rep": "5", "fz_e2_max": "20", "fz_e3_n": "50", "fz_e3_steps": "3",
         "fz_n": "30", "fz_classes": "30"}


def sent_figures(at) -> dict[str, dict]:
    return {c.proto.id: json.loads(c.proto.spec) for c in at.get("plotly_chart")}


def assert_valid(figures: dict[str, dict]) -> None:
    for key, spec in figures.items():
        try:
            go.Figure(spec)                      # validates every property; raises on a bad one
        except (ValueError, TypeError) as exc:  # pragma: no cover - the message is the point
            pytest.fail(f"{key}: {exc}")


@pytest.mark.parametrize("params, expected", [
    ({}, ["fz_variants", "fz_curve", "fz_exp1"]),
    ({"fz_scheme": "share", "fz_noise": "20"}, ["fz_variants", "fz_curve", "fz_sweep", "fz_exp1"]),
    ({"fz_scheme": "fixed", "fz_rate": "3"}, ["fz_variants", "fz_curve", "fz_sweep", "fz_exp1"]),
    ({"fz_tab": "Experiment 2: random clusterings"}, ["fz_variants", "fz_curve", "fz_exp2"]),
    ({"fz_tab": "Experiment 3: softness"}, ["fz_variants", "fz_curve", "fz_exp3"]),
])
def test_every_figure_the_page_sends_is_valid_plotly(params, expected):
    at = open_app(PAGE, 180, {**SMALL, **params})
    no_trouble(at)
    figures = sent_figures(at)
    for key in expected:
        assert any(key in i for i in figures), key
    assert_valid(figures)


def test_the_heatmaps_are_valid_plotly_when_the_expander_is_open():
    at = open_app(PAGE, 180, SMALL)
    at.session_state["fz_tables"] = True
    at.run()
    no_trouble(at)
    figures = sent_figures(at)
    assert sum("fz_heat_" in i for i in figures) == 2
    assert_valid(figures)


def test_a_slider_step_and_back_shows_metrics_values_both_times():
    """The playground's scores come from caches shared across sessions: a new setting computes
    them, a return reads them; both times they are metrics' numbers for the settings."""
    at = open_app(PAGE, 180, SMALL)

    def expected(n):
        gold = experiments.ambiguous_gold(n, "halving", None, 30, seed=0)
        steps = experiments.soft_clusterings(gold, fz.SOFT_STEPS)
        rows = [experiments.experiment3_row(gold, c, i, len(steps)) for i, c in enumerate(steps)]
        here = experiments.closest_step([r["softness"] for r in rows], 0.5)
        return rows, here

    for n in (40, 30, 40):
        at.slider(key="fz_n").set_value(n).run()
        no_trouble(at)
        rows, here = expected(n)
        assert decoded(chart(at, "fz_variants")["data"][0]["x"]) == [rows[here][v] for v in fz.VARIANT_LABELS]
        for trace in chart(at, "fz_curve")["data"]:
            variant = next(v for v, label in fz.VARIANT_LABELS.items() if label == trace["name"])
            assert decoded(trace["y"]) == [r[variant] for r in rows]
        assert any(f"{n} points" in c.value for c in at.caption)


def test_tidy_steps_gives_what_melt_gives():
    def melted(frame):
        long = frame.melt(id_vars=["step", "softness"], value_vars=[v for v in fz.VARIANT_LABELS if v in frame],
                          var_name="variant", value_name="value")
        long["softness"] = 100.0 * long["softness"]
        long["label"] = long["variant"].map(fz.VARIANT_LABELS)
        return long

    gold = experiments.ambiguous_gold(60, "share", 0.5, 20, seed=4)
    steps = experiments.soft_clusterings(gold, fz.SOFT_STEPS)
    frames = [pd.DataFrame([experiments.experiment3_row(gold, c, i, len(steps)) for i, c in enumerate(steps)]),
              experiments.experiment3(50, 3, 0)]
    frames.append(frames[0].drop(columns=["fuzzy_diss", "count_diss"]))
    for frame in frames:
        pd.testing.assert_frame_equal(fz.tidy_steps(frame), melted(frame), check_exact=True)
