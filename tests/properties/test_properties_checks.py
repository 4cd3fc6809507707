"""metrics.properties: P1–P7 rates over Dom's grid (Rosenberg & Hirschberg Table 2),
Wu et al.'s Table 12 properties, the metric axioms, and sweeps."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

import metrics
from metrics import properties as P
from metrics.papers import generators as g
from metrics.properties import dom_grid
from tests import ROOT

ASSETS = ROOT / "assets" / "paper_values"
RH_TABLE_2 = json.loads((ASSETS / "rh2007_table2.json").read_text(encoding="utf-8"))
WU_TABLE_12 = json.loads((ASSETS / "wu2009_table12.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def rates() -> pd.DataFrame:
    return P.dom_property_rates()


def rate(rates, key, prop) -> float:
    row = rates[(rates.measure == key) & (rates.property == prop)]
    assert len(row) == 1
    return float(row.rate.iloc[0])


# ------------------------------------------------------------------ P1–P7 (R&H Table 2)
def test_rates_table_is_tidy_and_covers_every_measure_but_ami(rates):
    assert list(rates.columns) == ["measure", "property", "satisfied", "steps", "rate"]
    expected = [k for k, m in metrics.MEASURES.items() if m.domain != "integer"]
    assert list(dict.fromkeys(rates.measure)) == expected and "ami" not in expected
    assert sorted(set(rates.property)) == list(P.PROPERTIES)
    assert ((rates.rate >= 0) & (rates.rate <= 1)).all()
    assert (rates.rate == rates.satisfied / rates.steps).all()


def test_step_counts_follow_from_the_grid(rates):
    # Realizable settings: |Knoise| = 0 only with ε2 = 0 (1 + 6·4 = 25 combinations),
    # likewise |Cnoise| with ε3; 10 values of |Ku|, 4 of ε1.
    noise = 1 + 6 * 4
    steps = rates.groupby("property").steps.first().to_dict()
    assert steps["P1"] == 3 * noise * noise * 4            # |Ku| 2→3, 3→4, 4→5 (|C| = 5)
    assert steps["P2"] == 6 * noise * noise * 4            # |Ku| 5→6 … 10→11
    assert steps["P3"] == 10 * 5 * 3 * noise * 4           # |Knoise| 1→2 … 5→6 with ε2 > 0
    assert steps["P4"] == 10 * noise * noise * 3           # three ε1 steps
    assert steps["P5"] == 10 * 6 * 3 * noise * 4           # ε2 steps need noise clusters
    assert steps["P6"] == steps["P3"] and steps["P7"] == steps["P5"]


def test_v_vi_and_q0_satisfy_all_seven_as_printed(rates):
    for key in ("v_measure", "vi", "q0"):
        assert [rate(rates, key, p) for p in P.PROPERTIES] == [1.0] * 7, key


def category(x: float) -> str:
    return "all" if x == 1.0 else "none" if x == 0.0 else "some"


# Cells of Table 2 where our reading lands in a different category (always / never /
# sometimes) than the printed rate; the reasons are in dom_property_rates' docstring.
KNOWN_DISAGREEMENTS = {
    ("Rand", "P1"), ("Rand", "P2"), ("Rand", "P6"), ("Rand", "P7"),
    ("Mirkin", "P1"), ("Mirkin", "P2"), ("Mirkin", "P6"), ("Mirkin", "P7"),
    ("Fowlkes", "P2"), ("Jaccard", "P2"), ("F-measure", "P2"), ("F-measure", "P6"),
}


def test_rates_against_printed_table_2(rates):
    disagree = set()
    for name, printed in RH_TABLE_2["rates"].items():
        key = RH_TABLE_2["measure_keys"][name]
        for prop, value in printed.items():
            if category(rate(rates, key, prop)) != category(value):
                disagree.add((name, prop))
    assert disagree == KNOWN_DISAGREEMENTS
    # "All evaluated measures satisfy P4" holds here too; P7 fails only for Rand/Mirkin.
    for key in RH_TABLE_2["measure_keys"].values():
        assert rate(rates, key, "P4") == 1.0


def test_rand_and_mirkin_rates_are_equal(rates):
    # Mirkin = 2·C(n,2)·(1 − Rand) at a fixed n: every step moves them in opposite
    # directions, so their (inverted) rates must be equal. The printed table's
    # 0.18 vs 0.22 (P1) and 0.50 vs 0.57 (P5) cannot come from the same tables.
    for prop in P.PROPERTIES:
        assert rate(rates, "rand", prop) == rate(rates, "mirkin", prop)


@pytest.mark.parametrize("low, high", [("vi_n", "nmi_arithmetic"), ("j_prime_n", "r_n"),
                                       ("goodman_kruskal", "purity")])
def test_inverted_inequalities_for_distances(rates, low, high):
    # VI_n = 1 − NMI_arithmetic, J'_n = 1 − R_n, GK = 1 − purity: a distance and its
    # complement must satisfy each property equally often once inequalities are inverted.
    assert metrics.MEASURES[low].direction == "lower" and metrics.MEASURES[high].direction == "higher"
    for prop in P.PROPERTIES:
        assert rate(rates, low, prop) == rate(rates, high, prop), prop


def test_rates_are_deterministic():
    keys = ["rand", "v_measure", "f_measure"]
    a = P.dom_property_rates(keys)
    dom_grid._grid_values.cache_clear()
    b = P.dom_property_rates(keys)
    pd.testing.assert_frame_equal(a, b)


def test_unrealizable_settings_are_skipped():
    grid = {"n_noise_clusters": (0,), "eps2": (0.0, 0.066), "n_noise_classes": (0, 1), "eps3": (0.0,)}
    r = P.dom_property_rates(["v_measure"], grid=grid)
    p5 = r[r.property == "P5"].iloc[0]
    assert p5.steps == 0 and math.isnan(p5.rate)           # ε2 > 0 needs a noise cluster
    assert r[r.property == "P6"].iloc[0].steps == 0        # P6 needs ε3 > 0


def test_bad_grid_and_n():
    with pytest.raises(ValueError, match="unknown grid parameter"):
        P.dom_property_rates(["v_measure"], grid={"eps4": (0.0,)})
    with pytest.raises(ValueError, match="empty"):
        P.dom_property_rates(["v_measure"], grid={"eps1": ()})
    with pytest.raises(ValueError, match="n must be"):
        P.dom_property_rates(["v_measure"], n=-5)
    with pytest.raises(ValueError, match="eps1"):
        P.dom_property_rates(["v_measure"], grid={"eps1": (-0.1, 0.0)})
    with pytest.raises(KeyError, match="nope"):
        P.dom_property_rates(["nope"])


def test_failures_are_the_evidence_behind_the_rates(rates):
    assert P.dom_property_failures("v_measure").empty
    f = P.dom_property_failures("rand", "P3")
    assert len(f) == int(rates[(rates.measure == "rand") & (rates.property == "P3")].steps.iloc[0])
    row = f.iloc[0]
    params = {k: row[k] for k in P.RH_GRID}
    before = g.dom(**{k: (int(v) if k.startswith("n_") else float(v)) for k, v in params.items()},
                   n=P.PROPERTY_GRID_N)
    assert math.isclose(metrics.evaluate(before, ["rand"])["rand"], row.value_from, rel_tol=1e-9)
    assert row.value_to >= row.value_from                  # adding a noise cluster did not lower Rand
    with pytest.raises(ValueError, match="prop"):
        P.dom_property_failures("rand", "P9")


def test_rates_table_layout(rates):
    wide = P.rates_table(rates)
    assert list(wide.index) == list(P.PROPERTIES)
    assert wide.loc["P3", "rand"] == rate(rates, "rand", "P3")


# ------------------------------------------------------------------ Wu Table 12
@pytest.fixture(scope="module")
def checks() -> dict:
    keys = list(WU_TABLE_12["measure_keys"].values()) + list(WU_TABLE_12["unnormalized_keys"].values())
    return {k: P.check_properties(k) for k in keys}


WU_PROPERTY = {"P1": "symmetry", "P2": "n_invariance", "P3": "convex_additivity",
               "P4": "left_domain_complete", "P5": "right_domain_complete"}


def test_checks_agree_with_wu_table_12_where_it_is_right(checks):
    for name, row in WU_TABLE_12["table"].items():
        key = WU_TABLE_12["measure_keys"][name]
        for prop, printed in row.items():
            ours = checks[key][WU_PROPERTY[prop]]["holds"]
            if printed == "Yes*":
                # yes for the unnormalized measure, no for the normalized one
                assert checks[WU_TABLE_12["unnormalized_keys"][name]][WU_PROPERTY[prop]]["holds"], (name, prop)
                assert not ours, (name, prop)
            elif printed == "Yes**":
                assert (name, prop) == ("ε_n", "P1")
            else:
                assert ours == (printed == "Yes"), (name, prop)


def test_epsilon_n_is_symmetric_also_when_k_differs(checks):
    # Table 12 says ε_n is symmetric only for K = K' (Yes**). ε (best one-to-one
    # matching) and its normaliser 1 − 1/max(K, K') are both symmetric, so ε_n is
    # symmetric for every table — the random tables of the check include K ≠ K'.
    assert checks["epsilon_n"]["symmetry"]["holds"]
    t = metrics.Contingency.from_table([[5, 1, 0], [0, 2, 4]])
    assert math.isclose(metrics.evaluate(t, ["epsilon_n"])["epsilon_n"],
                        metrics.evaluate(t.T, ["epsilon_n"])["epsilon_n"])


def test_counterexamples_really_are_counterexamples(checks):
    ev = checks["f_n"]["symmetry"]["evidence"]
    t = metrics.Contingency.from_table(ev["table"].to_numpy())
    assert not math.isclose(metrics.evaluate(t, ["f_n"])["f_n"], metrics.evaluate(t.T, ["f_n"])["f_n"])
    ev = checks["r_n"]["n_invariance"]["evidence"]
    t = ev["table"].to_numpy()
    a = metrics.evaluate(metrics.Contingency.from_table(t), ["r_n"])["r_n"]
    b = metrics.evaluate(metrics.Contingency.from_table(t * ev["factor"]), ["r_n"])["r_n"]
    assert not math.isclose(a, b) and math.isclose(a, ev["value"]) and math.isclose(b, ev["value_scaled"])
    ev = checks["epsilon_n"]["left_domain_complete"]["evidence"]
    t = ev["table"].to_numpy()
    assert np.allclose(t, np.outer(t.sum(1), t.sum(0)) / t.sum())      # independent rows and columns
    assert not math.isclose(metrics.evaluate(metrics.Contingency.from_table(t), ["epsilon_n"])["epsilon_n"], 1.0)


def test_symmetry_check_agrees_with_the_registry():
    table = P.properties_table(trials=100)
    sym = table[table.property == "symmetry"].set_index("measure").holds
    for key, m in metrics.MEASURES.items():
        assert bool(sym[key]) == m.symmetric, key


def test_q0_is_not_n_invariant():
    # The model cost (1/n) Σ log C(h(k)+|C|−1, |C|−1) shrinks like log n / n.
    c = P.check_properties("q0")
    assert not c["n_invariance"]["holds"]
    assert c["n_invariance"]["evidence"]["value"] > c["n_invariance"]["evidence"]["value_scaled"]


# ------------------------------------------------------------------ metric axioms
@pytest.mark.parametrize("key", ["vi", "mirkin", "van_dongen", "classification_error", "vi_log_n"])
def test_known_metrics_satisfy_the_axioms(key):
    m = P.check_properties(key)["metric"]
    assert m["holds"] and m["identity"]["holds"] and m["symmetry"]["holds"] and m["triangle"]["holds"]
    assert m["checked"] >= 500


def test_vi_n_violates_the_triangle_inequality_with_evidence():
    # VI/(H(C)+H(K)) = 1 − NMI_sum is not a metric (Vinh, Epps & Bailey 2010).
    m = P.check_properties("vi_n")["metric"]
    assert m["identity"]["holds"] and m["symmetry"]["holds"] and not m["triangle"]["holds"]
    ev = m["triangle"]["evidence"]
    d = {name: metrics.evaluate(metrics.Contingency.from_labels(ev["labelings"][name[2]], ev["labelings"][name[4]]),
                                ["vi_n"])["vi_n"] for name in ("d(X,Y)", "d(Y,Z)", "d(X,Z)")}
    assert d["d(X,Z)"] > d["d(X,Y)"] + d["d(Y,Z)"] + 1e-9
    assert math.isclose(d["d(X,Z)"], ev["d(X,Z)"])


def test_asymmetric_distances_fail_metric_symmetry():
    for key in ("nvi", "conditional_entropy", "minkowski"):
        m = P.check_properties(key)["metric"]
        assert not m["symmetry"]["holds"], key
    assert P.check_properties("v_measure")["metric"] is None       # not a distance
    q0 = P.check_properties("q0")["metric"]
    assert not q0["identity"]["holds"] and q0["identity"]["evidence"]["d(X,X)"] > 0   # model cost
    with pytest.raises(KeyError, match="unknown measure"):
        P.check_properties("nope")


def test_checks_are_seeded():
    a = P.check_properties("fm_n", seed=3, trials=50)
    b = P.check_properties("fm_n", seed=3, trials=50)
    assert {k: v["holds"] for k, v in a.items() if isinstance(v, dict)} == \
        {k: v["holds"] for k, v in b.items() if isinstance(v, dict)}


# ------------------------------------------------------------------ sweeps
def test_sweep_solution_r_noise():
    s = P.sweep("solution_r", "noise", [0, 1, 2, 3], ["v_measure", "nvi", "ami"])
    assert list(s.columns) == ["noise", "measure", "value"]
    assert len(s) == 12 and set(s.measure) == {"v_measure", "nvi", "ami"}
    v = s[s.measure == "v_measure"].set_index("noise").value
    assert v[0] == 1.0 and v.is_monotonic_decreasing
    assert math.isclose(v[3], metrics.evaluate(g.solution_r(noise=3), ["v_measure"])["v_measure"])


def test_sweep_with_a_callable_and_fixed_arguments():
    s = P.sweep(g.dom, "eps1", [0.0, 0.05, 0.1], ["vi"], n_classes=5, n_useful_clusters=5)
    vi = s.set_index("eps1").value
    assert vi.is_monotonic_increasing and abs(vi[0.0]) < 1e-12   # (batch entropies carry ~1e-16 rounding)
    assert "ami" not in set(P.sweep(g.dom, "eps1", [0.0, 0.05], None, n_classes=3, n_useful_clusters=3).measure)


def test_sweep_bad_input():
    with pytest.raises(ValueError, match="unknown generator"):
        P.sweep("nope", "x", [1])
    with pytest.raises(ValueError, match="noise = 12"):
        P.sweep("solution_r", "noise", [1, 12])
    with pytest.raises(ValueError, match="empty"):
        P.sweep("solution_r", "noise", [])
    with pytest.raises(ValueError, match="both swept and fixed"):
        P.sweep("solution_r", "noise", [1], noise=2)
    with pytest.raises(ValueError, match="not a Contingency"):
        P.sweep(g.ambiguity_rates, "n_points", [3])
