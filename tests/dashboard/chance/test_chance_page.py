"""The Chance page (issue 11) through Streamlit's AppTest.

What is checked against the library called directly (never against numbers written here):

* the sweep chart's lines, bands and exact markers are ``chance.cluster_sweep``'s draws (mean,
  5 % and 95 % quantiles per k) and ``chance.expectation``'s exact values, for every sweep model;
* the table tab's profile is ``chance.profile`` of the chosen table — a preset, the Table lab's
  table from a link, an upload — under every one of the five models; its chart places each
  observed value at the registry's goodness of ``metrics.evaluate``;
* the AMI tab's bars are ``chance.profile``'s expectations and adjusted values, with the perm
  identity (NMI_x adjusted under perm = AMI_x) visible in the chart's data;
* bad input (fractional or broken tables in links, unknown values, requests too costly to draw)
  is an ``st.error`` or a warning in the page's words, never an exception;
* a page's URL opened in a fresh session reproduces the page (controls, tables, charts);
* the lesson's chart (``chance_views.lesson_figure``) is the page's chart in the state
  ``lesson_params`` names, with type for the back of a room.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

import metrics
from dashboard.chance import charts as cc
from dashboard.chance import views as cv
from dashboard.chance import vocabulary as cvocab
from dashboard.ui.presets import load_presets
from dashboard.ui.readout import escape_label, format_number
from dashboard.ui.safe_text import shown as shown_text
from dashboard.ui.tables import encode_table
from metrics import chance
from metrics import io as mio
from tests.dashboard.apptest_utils import chart, decoded, no_trouble, open_app
from tests.dashboard.test_charts_text import font_problems  # the house check of chart text sizes

PAGE = "app_pages/explore/chance.py"
TIMEOUT = 300
PRESETS = load_presets()


def open_chance(**params) -> object:
    return open_app(PAGE, TIMEOUT, params)


def traces(spec: dict, name: str) -> list[dict]:
    return [t for t in spec["data"] if t.get("name") == name]


def profile_table(at) -> pd.DataFrame:
    """The page's profile table (the frame with a ``key`` and an ``observed`` column)."""
    for df in at.dataframe:
        if {"key", "observed", "expected", "adjusted"} <= set(df.value.columns):
            return df.value.set_index("key")
    raise AssertionError("no profile table on the page")


def quantile(x: np.ndarray, q: float) -> float:
    """The q-quantile as the smallest draw with at least a share q of the draws at or below it."""
    s = np.sort(x)
    return float(s[max(math.ceil(q * s.size) - 1, 0)])


def texts(at) -> str:
    return " ".join(str(e.value) for kind in ("markdown", "caption", "info", "warning", "error")
                    for e in getattr(at, kind))


# ================================================================ the sweep (scikit-learn's experiment)
@pytest.fixture(scope="module")
def default_page():
    at = open_chance()
    no_trouble(at)
    return at


def assert_sweep_is_the_library(spec: dict, keys: list[str], model: str, n: int, n_classes: int, samples: int,
                                seed: int) -> None:
    draws = chance.cluster_sweep(n, cvocab.KS, keys, model=model, n_classes=n_classes, samples=samples, seed=seed)
    means = traces(spec, "mean of the random labelings")
    bands = traces(spec, f"{cc.band_text()} of the random labelings")
    assert len(means) == len(bands) == len(keys)
    for key, mean, band in zip(keys, means, bands):
        assert mean["customdata"][0][0] == escape_label(metrics.MEASURES[key].symbol)
        assert decoded(mean["x"]) == list(cvocab.KS)
        by_k = draws.groupby("k")[key]
        np.testing.assert_allclose(decoded(mean["y"]), by_k.mean().to_numpy(), rtol=1e-12, atol=1e-15)
        low = [quantile(g.to_numpy(), cc.BAND[0]) for _, g in by_k]
        high = [quantile(g.to_numpy(), cc.BAND[1]) for _, g in by_k]
        np.testing.assert_allclose(decoded(band["y"]), high + low[::-1], rtol=1e-12, atol=1e-15)
    # The exact markers: chance.expectation on a table with the sweep's margins, where it is exact.
    for t in traces(spec, "exact expectation"):
        panel = next(i for i, m in enumerate(means) if m["xaxis"] == t["xaxis"])
        key = keys[panel]
        for k, y in zip(decoded(t["x"]), decoded(t["y"])):
            table = metrics.Contingency.from_labels(np.arange(n) % n_classes, np.arange(n) % k)
            e = chance.expectation(table, key, model)
            assert e.exact and y == pytest.approx(e.value, rel=1e-12, abs=1e-15)


def test_the_default_sweep_is_scikit_learns_experiment_drawn_by_the_library(default_page):
    spec = chart(default_page, "ch_sweep_chart")
    assert_sweep_is_the_library(spec, cvocab.DEFAULT_SWEEP_KEYS, "num1", 100, 10, 200, 0)
    # What the chart is for: V, NMI and MI rise with k; ARI and AMI stay at 0 (within their bands).
    means = {k: decoded(t["y"])
             for k, t in zip(cvocab.DEFAULT_SWEEP_KEYS, traces(spec, "mean of the random labelings"))}
    for key in ("v_measure", "nmi_arithmetic", "mutual_info", "rand"):
        assert means[key][-1] > 5 * means[key][0] or means[key][-1] > means[key][0] + 0.3, key
    for key in ("ari", "ami"):
        assert max(abs(v) for v in means[key]) < 0.02, key
    # Rand has an exact expectation under num1 at every k (Gates & Ahn): one × per k.
    rand_panel = cvocab.DEFAULT_SWEEP_KEYS.index("rand")
    axis = traces(spec, "mean of the random labelings")[rand_panel]["xaxis"]
    assert [decoded(t["x"]) for t in traces(spec, "exact expectation") if t["xaxis"] == axis] == [list(cvocab.KS)]


def test_the_panels_axes_come_from_the_registry(default_page):
    spec = chart(default_page, "ch_sweep_chart")
    layout = spec["layout"]
    for i, key in enumerate(cvocab.DEFAULT_SWEEP_KEYS):
        m = metrics.MEASURES[key]
        lo, hi = layout[f"yaxis{'' if i == 0 else i + 1}"]["range"]
        if math.isfinite(m.bounds[0]) and math.isfinite(m.bounds[1]):
            assert lo < m.bounds[0] < m.bounds[1] < hi and hi - lo < 1.1 * (m.bounds[1] - m.bounds[0]), key
        title = next(a["text"] for a in layout["annotations"] if a["xref"] == f"x{'' if i == 0 else i + 1} domain")
        assert ("↑ better" if m.higher_is_better else "↓ better") in title
    mi = cvocab.DEFAULT_SWEEP_KEYS.index("mutual_info")  # unbounded above: the data set the top
    top = max(decoded(traces(spec, f"{cc.band_text()} of the random labelings")[mi]["y"]))
    assert top < layout[f"yaxis{mi + 1}"]["range"][1] < 1.2 * top


@pytest.mark.parametrize("model", ["num", "perm"])
def test_every_sweep_model_redraws_the_chart_from_the_library(default_page, model):
    at = open_chance(ch_m=["v_measure", "ari", "rand"])
    at.segmented_control(key="ch_sm").set_value(model).run()
    no_trouble(at)
    assert at.query_params["ch_sm"] == model
    assert_sweep_is_the_library(chart(at, "ch_sweep_chart"), ["v_measure", "ari", "rand"], model, 100, 10, 200, 0)


def test_items_classes_draws_and_seed_are_the_sweep_s_parameters():
    at = open_chance(ch_m=["v_measure", "rand"], ch_n="1000", ch_r="5", ch_sd="50", ch_seed="7")
    no_trouble(at)
    assert_sweep_is_the_library(chart(at, "ch_sweep_chart"), ["v_measure", "rand"], "num1", 1000, 5, 50, 7)
    shapes = chart(at, "ch_sweep_chart")["layout"]["shapes"]
    assert {s["x0"] for s in shapes} == {5}  # the dashed line at k = the number of classes
    at.number_input(key="ch_seed").set_value(8).run()
    assert_sweep_is_the_library(chart(at, "ch_sweep_chart"), ["v_measure", "rand"], "num1", 1000, 5, 50, 8)


def test_the_sentence_under_the_sweep_is_computed(default_page):
    spec = chart(default_page, "ch_sweep_chart")
    means = traces(spec, "mean of the random labelings")
    text = texts(default_page)
    for key, t in zip(cvocab.DEFAULT_SWEEP_KEYS, means):
        ys = decoded(t["y"])
        symbol = metrics.MEASURES[key].symbol
        assert f"{symbol} {format_number(ys[0])} → {format_number(ys[-1])}" in shown_text(text), key


def largest_fitting(options, seconds) -> int:
    """The largest option whose library estimate fits the app's budget (what the page must advise)."""
    fits = [int(o) for o in options if seconds(int(o)) <= cvocab.APP_BUDGET]
    return fits[-1]


def test_no_measure_asks_for_one_and_too_costly_sweeps_are_refused():
    at = open_chance()
    at.multiselect(key="ch_m").set_value([]).run()
    no_trouble(at)
    assert "Choose at least one measure" in texts(at)
    # num at 10^4 items: 500 draws per k cost more than the app's budget (AMI's E[I] for every draw's
    # margins); the advice is the largest choice the library's estimate lets through. (num1 draws
    # 500 per k of 10^4 items in well under a second, which the page used to refuse.)
    n, keys = 10_000, cvocab.DEFAULT_SWEEP_KEYS
    assert chance.sweep_seconds(n, cvocab.KS, keys, "num", 10, None, 500) > cvocab.APP_BUDGET
    assert chance.sweep_seconds(n, cvocab.KS, keys, "num1", 10, None, 500) <= cvocab.APP_BUDGET
    at = open_chance(ch_sm="num", ch_n=str(n), ch_sd="500")
    assert not at.exception
    fits = largest_fitting(cvocab.SWEEP_DRAWS, lambda s: chance.sweep_seconds(n, cvocab.KS, keys, "num", 10, None, s))
    assert at.error and f"at most {format_number(fits)} draws per k" in at.error[0].value
    assert fits < 500
    assert at.segmented_control(key="ch_sd").value == "500"  # what the user chose is kept
    at = open_chance(ch_sm="num1", ch_n=str(n), ch_sd="500")
    no_trouble(at)


# ================================================================ a table against chance
TABLE_TAB = {cvocab.TAB_KEY: cvocab.TABLE_TAB}


def assert_profile_is_the_library(at, t: metrics.Contingency, model: str, samples: int, seed: int = 0) -> None:
    expected = chance.profile(t, None, model, samples, seed)
    shown = profile_table(at)
    assert set(shown.index) == set(expected.index)
    for col in ("observed", "expected", "stderr", "z", "p_value", "adjusted"):
        np.testing.assert_allclose(shown.loc[expected.index, col].astype(float), expected[col].astype(float),
                                   rtol=1e-12, atol=1e-15, equal_nan=True, err_msg=col)
    np.testing.assert_allclose(shown.loc[expected.index, "percentile"].astype(float), expected["percentile"] / 100,
                               rtol=1e-12)
    how = np.where(expected["exact"], "exact",
                   np.where(expected["all_draws_equal"], "Monte Carlo, all draws equal", "Monte Carlo"))
    assert (shown.loc[expected.index, "how"] == how).all()
    observed = metrics.evaluate(t)
    spec = chart(at, "ch_null_chart")
    ticks = spec["layout"]["yaxis"]["ticktext"]
    assert ticks == [escape_label(metrics.MEASURES[k].symbol) for k in shown.index]
    placed = {}
    for t_ in spec["data"]:
        if t_["name"].startswith("observed"):
            placed.update({ticks[int(y)]: x for x, y in zip(decoded(t_["x"]), decoded(t_["y"]))})
    for k in shown.index:
        m = metrics.MEASURES[k]
        assert placed[escape_label(m.symbol)] == pytest.approx(m.goodness(observed[k]), abs=1e-12), k


@pytest.mark.parametrize("model", chance.MODELS)
def test_every_model_sets_the_table_against_the_library_s_null_distribution(model):
    at = open_chance(**TABLE_TAB, ch_td="200")
    at.segmented_control(key="ch_model").set_value(model).run()
    no_trouble(at)
    assert_profile_is_the_library(at, PRESETS["rr_solution_r"].contingency(), model, 200)


def test_a_preset_from_a_link():
    at = open_chance(**TABLE_TAB, ch_t="wu_table3_I", ch_model="num", ch_td="500", ch_seed="3")
    no_trouble(at)
    assert at.selectbox(key="ch_t").value == "wu_table3_I"
    assert_profile_is_the_library(at, PRESETS["wu_table3_I"].contingency(), "num", 500, seed=3)


def test_the_table_lab_s_table_from_a_link():
    frame = pd.DataFrame([[9, 1, 0], [1, 8, 2], [0, 2, 7]], index=["x", "y", "z"], columns=["a", "b", "c"])
    at = open_chance(**TABLE_TAB, ch_t="lab", ch_table=encode_table(frame), ch_td="200")
    no_trouble(at)
    assert_profile_is_the_library(at, metrics.Contingency.from_table(frame), "perm", 200)


def test_the_table_lab_s_table_of_this_session_when_the_link_carries_none():
    at = open_chance(**TABLE_TAB, ch_t="lab", ch_td="200")
    assert "No table edited yet" in texts(at)
    frame = pd.DataFrame([[4, 1], [1, 4]], index=["p", "q"], columns=["u", "v"])
    at.session_state["lab_valid"] = frame
    at.run()
    no_trouble(at)
    assert_profile_is_the_library(at, metrics.Contingency.from_table(frame), "perm", 200)
    assert at.query_params["ch_table"] == encode_table(frame)  # now it travels in the link


def test_an_upload_and_its_warning_that_links_do_not_carry_it():
    rng = np.random.default_rng(5)
    gold = rng.integers(0, 4, 80)
    pred = np.where(rng.random(80) < 0.7, gold, rng.integers(0, 5, 80))
    gold, pred = [f"g{a}" for a in gold], [f"k{b}" for b in pred]
    data = ("gold,pred\n" + "\n".join(f"{a},{b}" for a, b in zip(gold, pred))).encode()
    at = open_chance(**TABLE_TAB, ch_t="upload", ch_td="200")
    no_trouble(at)
    assert any("does not carry it" in i.value for i in at.info)
    at.file_uploader(key="ch_upload_file").set_value(("labels.csv", data, "text/csv")).run()
    no_trouble(at)
    # The table as the upload panel builds it (metrics.io, classes in order of appearance): the
    # draws of a seed follow the order of the margins.
    labels = mio.read_labels(data, name="labels.csv", header=True)
    t = mio.contingency_from_columns(labels.raw["gold"], labels.raw["pred"])
    assert metrics.evaluate(t) == pytest.approx(metrics.evaluate(metrics.Contingency.from_labels(gold, pred)))
    assert_profile_is_the_library(at, t, "perm", 200)
    assert "ch_table" not in at.query_params


def test_families_filter_the_rows_and_the_close_up_shows_one_measure_s_draws():
    at = open_chance(**TABLE_TAB, ch_td="500", ch_model="all1", ch_fam="pairs", ch_look="ari")
    no_trouble(at)
    shown = profile_table(at)
    assert list(shown.index) == [k for k, m in metrics.MEASURES.items() if m.family == "pairs"]
    t = PRESETS["rr_solution_r"].contingency()
    draws = chance.null_distribution(t, None, "all1", 500, 0)["ari"].to_numpy()
    close = chart(at, "ch_closeup")
    bars = close["data"][0]
    assert sum(decoded(bars["y"])) == 500
    edges = np.histogram(draws, bins=min(40, np.unique(draws).size))[1]
    np.testing.assert_allclose(decoded(bars["x"]), (edges[:-1] + edges[1:]) / 2, rtol=1e-12)
    lines = {s["line"]["dash"]: s["x0"] for s in close["layout"]["shapes"]}
    assert lines["solid"] == pytest.approx(metrics.evaluate(t, ["ari"])["ari"], abs=1e-15)
    assert lines["dash"] == pytest.approx(draws.mean(), rel=1e-12)  # ARI has no closed form under all1
    at.selectbox(key="ch_look").set_value("rand").run()
    assert at.query_params["ch_look"] == "rand"
    assert chart(at, "ch_closeup")["layout"]["shapes"][1]["x0"] == pytest.approx(
        chance.expectation(t, "rand", "all1").value, rel=1e-12)  # Rand: exact under every model


def test_an_infinite_expectation_is_shown_exact_and_equal_draws_without_a_standard_error():
    # Minkowski under `all`: random classes are all singletons with probability 1/B(8), so E = ∞ —
    # exactly, although 200 draws never meet such a table (issue 27).
    frame = pd.DataFrame([[3, 1], [1, 3]], index=["x", "y"], columns=["a", "b"])
    at = open_chance(**TABLE_TAB, ch_t="lab", ch_table=encode_table(frame), ch_td="200", ch_model="all",
                     ch_fam="pairs", ch_look="minkowski")
    no_trouble(at)
    row = profile_table(at).loc["minkowski"]
    assert row["expected"] == math.inf and row["how"] == "exact"
    assert "expected ∞ (exact: some random labeling the model can draw scores ∞)" in texts(at).replace("\\", "")
    # Margins (2, 2) × (3, 1) leave one table up to relabelling: purity never varies under perm.
    frame = pd.DataFrame([[2, 0], [1, 1]], index=["x", "y"], columns=["a", "b"])
    at = open_chance(**TABLE_TAB, ch_t="lab", ch_table=encode_table(frame), ch_td="200", ch_fam="matching",
                     ch_look="purity")
    no_trouble(at)
    row = profile_table(at).loc["purity"]
    assert row["how"] == "Monte Carlo, all draws equal" and math.isnan(row["stderr"])
    assert "every random labeling scored the same, so there is no standard error" in texts(at).replace("\\", "")


def test_bad_tables_and_values_in_links_are_errors_in_the_page_s_words():
    fractional = pd.DataFrame([[1.5, 0.5], [0, 2]], index=["a", "b"], columns=["x", "y"])
    at = open_chance(**TABLE_TAB, ch_t="lab", ch_table=encode_table(fractional))
    assert not at.exception
    assert at.error and "whole counts" in at.error[0].value and "fractional" in at.error[0].value
    at = open_chance(**TABLE_TAB, ch_t="lab", ch_table="{not json")
    # Checked before any widget: a note naming the parameter, then the page without the link's table.
    assert not at.exception and not at.error
    assert any("`ch_table`" in w.value and "not valid" in w.value for w in at.warning)
    assert "open the Table lab" in " ".join(i.value for i in at.info)
    at = open_chance(**TABLE_TAB, ch_model="uniform", ch_td="12", ch_t="nope")
    assert not at.exception and not at.error
    warned = shown_text(" ".join(w.value for w in at.warning))
    for bad in ("'uniform'", "'12'", "'nope'"):
        assert bad in warned
    assert at.segmented_control(key="ch_model").value == "perm" and at.selectbox(key="ch_t").value == "rr_solution_r"
    at = open_chance(ch_seed="abc", ch_tab="no such tab")
    assert not at.exception


DEGENERATE = {"one item": [[1]], "one cell": [[5]], "one class": [[2, 3, 1]], "singleton clusters": [[1, 1, 0, 0],
                                                                                                   [0, 0, 1, 1]]}


@pytest.mark.parametrize("name", DEGENERATE)
def test_degenerate_tables_under_every_model_give_a_profile_not_an_error(name):
    """Where a model leaves one possible labeling, chance is the table itself: E = observed, exact."""
    cells = DEGENERATE[name]
    frame = pd.DataFrame(cells, index=[f"c{i}" for i in range(len(cells))],
                         columns=[f"k{j}" for j in range(len(cells[0]))])
    t = metrics.Contingency.from_table(frame)
    for model in chance.MODELS:
        at = open_chance(**TABLE_TAB, ch_t="lab", ch_table=encode_table(frame), ch_model=model, ch_td="200")
        no_trouble(at)
        assert_profile_is_the_library(at, t, model, 200)
    at = open_chance(**{cvocab.TAB_KEY: cvocab.AMI_TAB, "ch_t": "lab", "ch_table": encode_table(frame), "ch_td": "200",
                        "ch_sd": "50"})
    no_trouble(at)


def test_a_table_too_large_to_sample_in_time_is_refused_with_what_would_fit():
    rng = np.random.default_rng(0)
    big = pd.DataFrame(rng.integers(50, 150, (10, 10)), index=[f"c{i}" for i in range(10)],
                       columns=[f"k{j}" for j in range(10)])
    at = open_chance(**TABLE_TAB, ch_t="lab", ch_table=encode_table(big), ch_model="all1", ch_td="5000")
    assert not at.exception
    t = metrics.Contingency.from_table(big)
    assert chance.estimate_seconds(t, None, "all1", 5000) > cvocab.APP_BUDGET
    fits = largest_fitting(cvocab.TABLE_DRAWS, lambda s: chance.estimate_seconds(t, None, "all1", s))
    assert fits < 5000
    assert (at.error and f"at most {format_number(fits)} random labelings" in at.error[0].value
            and format_number(int(t.n)) in at.error[0].value)
    assert "perm" in at.error[0].value  # perm draws margins, which fit


# ================================================================ AMI's normalisations (#20066)
@pytest.fixture(scope="module")
def ami_page():
    at = open_chance(**{cvocab.TAB_KEY: cvocab.AMI_TAB, "ch_td": "200", "ch_sd": "50"})
    no_trouble(at)
    return at


def test_ami_along_k_under_each_sweep_model_is_the_library(ami_page):
    spec = chart(ami_page, "ch_ami_sweep_chart")
    means = [t for t in spec["data"] if t["name"].endswith(": mean")]
    assert len(means) == len(cvocab.SWEEP_MODELS) * len(cc.NORMALISATIONS) * 2
    keys = [k for _, nmi, ami in cc.NORMALISATIONS for k in (nmi, ami)]
    for r, model in enumerate(cvocab.SWEEP_MODELS):
        draws = chance.cluster_sweep(100, cvocab.KS, keys, model=model, n_classes=10, samples=50, seed=0)
        for j, key in enumerate(keys):
            t = means[r * len(keys) + j]
            np.testing.assert_allclose(decoded(t["y"]), draws.groupby("k")[key].mean().to_numpy(), rtol=1e-12,
                                       atol=1e-15)


def test_ami_for_a_table_under_every_model_is_the_library_and_shows_the_perm_identity(ami_page):
    spec = chart(ami_page, "ch_ami_table_chart")
    t = PRESETS["rr_solution_r"].contingency()
    names = [n for n, _, _ in cc.NORMALISATIONS]
    itself = traces(spec, "AMI_x itself")[0]
    assert decoded(itself["x"]) == names
    amis = metrics.evaluate(t, [a for _, _, a in cc.NORMALISATIONS])
    np.testing.assert_allclose(decoded(itself["y"]), [amis[a] for _, _, a in cc.NORMALISATIONS], rtol=1e-12)
    for model in chance.MODELS:
        prof = chance.profile(t, None, model, 200, 0)
        left, right = [d for d in spec["data"] if d.get("legendgroup") == model]
        assert left["yaxis"] == "y" and right["yaxis"] == "y2"
        np.testing.assert_allclose(decoded(left["y"]), [prof.at[a, "expected"] for _, _, a in cc.NORMALISATIONS],
                                   rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(decoded(right["y"]), [prof.at[b, "adjusted"] for _, b, _ in cc.NORMALISATIONS],
                                   rtol=1e-12, atol=1e-15)
        if model == "perm":  # the identity: AMI is NMI adjusted under perm, and chance scores exactly 0 on it
            assert decoded(left["y"]) == [0.0] * 4
            np.testing.assert_allclose(decoded(right["y"]), decoded(itself["y"]), rtol=1e-12)
    assert "Under perm, NMI\\_x adjusted for chance is AMI\\_x" in texts(ami_page)


def test_the_ami_tab_uses_the_other_tabs_settings_from_a_link():
    at = open_chance(**{cvocab.TAB_KEY: cvocab.AMI_TAB, "ch_td": "200", "ch_sd": "50", "ch_n": "1000", "ch_r": "5",
                        "ch_t": "wu_table10_I"})
    no_trouble(at)
    text = texts(at)
    assert "n = 1,000 items, 5 gold classes, 50 random labelings per k" in text
    spec = chart(at, "ch_ami_table_chart")
    itself = traces(spec, "AMI_x itself")[0]
    t = PRESETS["wu_table10_I"].contingency()
    assert decoded(itself["y"])[2] == pytest.approx(metrics.evaluate(t, ["ami"])["ami"], rel=1e-12)


# ================================================================ links, reset, text sizes
def state_of(at) -> dict:
    widgets = {w.key: w.value for kind in ("segmented_control", "multiselect", "selectbox", "pills", "number_input")
               for w in getattr(at, kind) if w.key and w.key.startswith("ch_")}
    charts = {c.proto.id.rsplit("-", 1)[-1]: json.loads(c.proto.spec)["data"] for c in at.get("plotly_chart")}
    return {"widgets": widgets, "charts": charts}


def url_of(at) -> dict:
    """The address bar: the keyed options' parameters, plus the bound widgets (seed, tab), which
    the browser writes there (AppTest has no browser) when they are not at their default."""
    url = dict(at.query_params)
    if at.number_input(key="ch_seed").value != cvocab.DEFAULT_SEED:
        url["ch_seed"] = str(at.number_input(key="ch_seed").value)
    if at.session_state[cvocab.TAB_KEY] != cvocab.SWEEP_TAB:
        url[cvocab.TAB_KEY] = at.session_state[cvocab.TAB_KEY]
    return url


def test_a_link_copied_from_the_address_bar_reproduces_the_sweep():
    at = open_chance()
    at.segmented_control(key="ch_sm").set_value("perm").run()
    at.segmented_control(key="ch_r").set_value("5").run()
    at.multiselect(key="ch_m").set_value(["vi", "nvi", "ari"]).run()
    at.number_input(key="ch_seed").set_value(11).run()
    no_trouble(at)
    url = url_of(at)
    assert url["ch_sm"] == "perm" and url["ch_r"] == "5" and url["ch_m"] == ["vi", "nvi", "ari"]
    assert url["ch_seed"] == "11"
    again = open_chance(**url)
    no_trouble(again)
    assert state_of(again) == state_of(at)


def test_a_link_copied_from_the_address_bar_reproduces_the_table_tab():
    at = open_chance(**TABLE_TAB)
    at.selectbox(key="ch_t").set_value("wu_table3_II").run()
    at.segmented_control(key="ch_model").set_value("num1").run()
    at.segmented_control(key="ch_td").set_value("500").run()
    at.pills(key="ch_fam").set_value(["information", "pairs"]).run()
    at.selectbox(key="ch_look").set_value("vi").run()
    no_trouble(at)
    url = url_of(at)
    assert url[cvocab.TAB_KEY] == cvocab.TABLE_TAB and url["ch_t"] == "wu_table3_II" and url["ch_look"] == "vi"
    again = open_chance(**url)
    no_trouble(again)
    assert state_of(again) == state_of(at)
    assert profile_table(again).equals(profile_table(at))
    # The rows follow the families (the profile's frame is cached per table, model and measures).
    assert {metrics.MEASURES[k].family for k in profile_table(at).index} == {"information", "pairs"}
    at.pills(key="ch_fam").set_value(["pairs"]).run()
    assert {metrics.MEASURES[k].family for k in profile_table(at).index} == {"pairs"}


def test_defaults_are_left_out_of_the_url_and_reset_restores_them():
    at = open_chance(**TABLE_TAB, ch_model="all", ch_td="200", ch_t="wu_table3_I")
    assert at.query_params["ch_model"] == "all"
    at.button(key="reset_chance").click().run()
    no_trouble(at)
    assert not any(k.startswith("ch_") for k in at.query_params)
    assert at.segmented_control(key="ch_sm").value == "num1"  # the first tab: the default
    at.session_state[cvocab.TAB_KEY] = cvocab.TABLE_TAB
    at.run()
    assert at.segmented_control(key="ch_model").value == "perm"
    assert at.selectbox(key="ch_t").value == "rr_solution_r"
    assert at.segmented_control(key="ch_td").value == "1000"


@pytest.mark.parametrize("tab", cvocab.TABS)
def test_every_chart_sets_its_text_at_11_px_or_more(tab):
    at = open_chance(**{cvocab.TAB_KEY: tab, "ch_td": "200", "ch_sd": "50"})
    no_trouble(at)
    specs = {c.proto.id[-30:]: json.loads(c.proto.spec) for c in at.get("plotly_chart")}
    assert specs
    problems = {k: font_problems(s) for k, s in specs.items()}
    assert not {k: v for k, v in problems.items() if v}, problems


# ================================================================ the lesson's chart
def _every_font_size(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k.endswith("font") and isinstance(v, dict) and "size" in v:
                yield v["size"]
            yield from _every_font_size(v)
    elif isinstance(node, list):
        for v in node:
            yield from _every_font_size(v)


def test_the_lesson_chart_is_the_page_s_chart_in_the_state_its_link_names():
    fig = cv.lesson_figure()
    spec = json.loads(fig.to_json())
    sizes = list(_every_font_size(spec))
    assert sizes and min(sizes) >= 14  # the back of a room
    assert font_problems(spec) == []
    params = cv.lesson_params()
    assert params == {cvocab.TAB_KEY: cvocab.SWEEP_TAB, "ch_sm": "num1", "ch_n": "100", "ch_r": "10", "ch_sd": "200",
                      "ch_seed": "0", "ch_m": cvocab.DEFAULT_SWEEP_KEYS}
    at = open_chance(**params)
    no_trouble(at)
    page_data = chart(at, "ch_sweep_chart")["data"]
    assert [decoded(t["y"]) for t in page_data] == [decoded(t["y"]) for t in spec["data"]]
    other = cv.lesson_figure(model="perm", keys=("v_measure", "ari"), n=1000, seed=2)
    assert_sweep_is_the_library(json.loads(other.to_json()), ["v_measure", "ari"], "perm", 1000, 10, 200, 2)
