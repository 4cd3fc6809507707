"""The caches that reuse values across β and the unit of information (issue 10, "speed") must
give exactly what a fresh computation gives: the registry's ``uses_log_base`` / ``uses_beta``
flags decide what is reused, so they are checked against the measures themselves."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics
from dashboard.properties import views as pv
from dashboard.ui.tables import evaluate_cached, settings_for
from metrics import properties

tables = st.lists(st.lists(st.integers(0, 12), min_size=1, max_size=5), min_size=1, max_size=5).filter(
    lambda rows: len({len(r) for r in rows}) == 1 and sum(map(sum, rows)) >= 2)


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


@settings(max_examples=60, deadline=None)
@given(tables, st.sampled_from([0.3, 2.0, 4.9]), st.sampled_from([2.0, 10.0]))
def test_unflagged_measures_ignore_beta_and_log_base_bit_for_bit(rows, beta, base):
    t = metrics.Contingency.from_table(np.array(rows))
    ref = metrics.evaluate(t)
    for k, v in metrics.evaluate(t, beta=beta).items():
        if not metrics.MEASURES[k].uses_beta:
            assert _same(v, ref[k]), k
    for k, v in metrics.evaluate(t, log_base=base).items():
        if not metrics.MEASURES[k].uses_log_base:
            assert _same(v, ref[k]), k


def test_beta_flag_marks_the_measures_beta_moves():
    t = metrics.Contingency.from_table(np.array([[5, 1, 0], [2, 6, 1], [0, 1, 7]]))
    moved = {k for k, v in metrics.evaluate(t, beta=3.0).items() if v != metrics.evaluate(t)[k]}
    flagged = {k for k, m in metrics.MEASURES.items() if m.uses_beta}
    assert flagged == moved == {"v_measure", "fuzzy_v_joint"}


@pytest.mark.parametrize("base, beta", [(math.e, 1.0), (2.0, 1.0), (math.e, 0.4), (2.0, 3.7)])
def test_evaluate_cached_equals_a_fresh_evaluate(base, beta):
    for cells in ([[5, 1, 0], [2, 6, 1]], [[1.5, 0.5], [0.25, 2.0]], [[3]]):
        t = metrics.Contingency.from_table(np.array(cells, dtype=float))
        fresh = metrics.evaluate(t, log_base=base, beta=beta)
        cached = evaluate_cached(t, base, beta)
        assert list(cached) == list(fresh)          # same measures, registry order
        assert all(_same(cached[k], fresh[k]) for k in fresh)


def test_evaluate_cached_refuses_bad_settings():
    t = metrics.Contingency.from_table(np.array([[2, 1], [0, 3]]))
    with pytest.raises(ValueError, match="log_base"):
        evaluate_cached(t, 1.0, 1.0)
    with pytest.raises(ValueError, match="beta"):
        evaluate_cached(t, 2.0, -1.0)


def test_settings_for_keeps_only_what_the_measures_use():
    assert settings_for(["ari", "nmi_geometric"], 2.0, 3.0) == (math.e, 1.0)
    assert settings_for(["vi"], 2.0, 3.0) == (2.0, 1.0)
    assert settings_for(["v_measure"], 2.0, 3.0) == (math.e, 3.0)
    assert settings_for(["vi", "v_measure"], 2.0, 3.0) == (2.0, 3.0)


def test_range_curve_reused_across_beta_is_a_fresh_one():
    for keys in (("vi", "nvi"), ("vi", "nvi", "v_measure")):
        got = pv.range_curve(keys, 2.0, 2.5)
        fresh = pv._range_curve.__wrapped__(keys, 2.0, 2.5)
        pd.testing.assert_frame_equal(got, fresh)


def _deep_equal(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_deep_equal(a[k], b[k]) for k in a)
    if isinstance(a, pd.DataFrame):
        return a.equals(b) and list(a.index) == list(b.index) and list(a.columns) == list(b.columns)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_deep_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("family", list(metrics.FAMILIES))
def test_check_many_entries_are_check_properties(family):
    keys = pv.family_keys(family)
    many = properties.check_many(keys, seed=3, trials=40)
    assert list(many) == keys
    for k in keys:
        assert _deep_equal(many[k], properties.check_properties(k, seed=3, trials=40)), k


def test_properties_table_is_the_frame_of_check_many():
    keys = ["vi", "ari", "nmi_geometric"]
    pd.testing.assert_frame_equal(properties.properties_table(keys, seed=1, trials=30),
                                  properties.properties_frame(properties.check_many(keys, seed=1, trials=30)))
