"""metrics.properties.gosgens_properties: Gösgens et al.'s properties for every registered measure.
Every verdict has evidence, every counterexample is re-checked from what it stores (with the
registry's own evaluate, not the search's batch), the paper's recommendations come out, and the
disagreements with the (reconstructed) paper table are exactly the documented ones."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import metrics
from metrics.core.limits import CostError
from metrics.properties import (
    GOSGENS_PROPERTIES,
    gosgens_disagreements,
    gosgens_evidence,
    gosgens_properties,
    gosgens_verdict,
    gosgens_verdicts,
)
from metrics.properties import gosgens_baseline as gb
from metrics.properties import gosgens_search as gs

MEASURES = metrics.MEASURES


@pytest.fixture(scope="module")
def verdicts():
    return gosgens_verdicts(budget=None)


def _value(key, table):
    return metrics.evaluate(metrics.Contingency.from_table(np.asarray(table)), [key])[key]


def test_every_measure_has_every_property(verdicts):
    assert list(verdicts) == list(MEASURES)
    frame = gosgens_properties()
    assert list(frame.index) == list(MEASURES)
    assert list(frame.columns) == list(GOSGENS_PROPERTIES)
    assert str(frame.dtypes.iloc[0]) == "boolean"
    na = frame.isna()
    # only strong monotonicity is ever "not applicable", and only for non-pair-counting measures
    assert not na.drop(columns="strong_monotonicity").any().any()
    pair_counting = {k for k in MEASURES if gs.is_pair_counting(k)}
    assert set(frame.index[~na["strong_monotonicity"]]) == pair_counting
    assert len(pair_counting) == 20


def test_no_yes_without_evidence(verdicts):
    for key, props in verdicts.items():
        for prop, v in props.items():
            if v.holds:
                assert v.kind in ("proof", "no_counterexample"), (key, prop)
                assert ("checked" in v.detail or "search" in v.detail or "exact" in v.detail
                        or "quadruples" in v.detail or "regimes" in v.detail or "triples" in v.detail
                        or "moves" in v.detail or "constant baseline" in v.detail), (key, prop, v.detail)
            elif v.holds is False:
                assert v.kind == "counterexample" and v.example, (key, prop)


def test_agreement_and_symmetry_counterexamples_recompute(verdicts):
    checked = 0
    for key, props in verdicts.items():
        for prop in ("max_agreement", "min_agreement", "symmetric", "local_monotonicity"):
            v = props[prop]
            if v.holds is not False or "tables" not in v.example:
                continue
            values = [_value(key, t.to_numpy()) for t in v.example["tables"]]
            expected = v.example["values"]
            assert np.allclose(values, expected[: len(values)], equal_nan=True) or all(
                (math.isinf(a) and math.isinf(b)) or a == pytest.approx(b)
                for a, b in zip(values, expected)), (key, prop)
            if prop == "symmetric":
                assert values[0] != pytest.approx(values[1])
            if prop == "local_monotonicity":
                better = (values[1] > values[0]) if MEASURES[key].higher_is_better else (values[1] < values[0])
                assert not better or values[1] == pytest.approx(values[0])
            checked += 1
    assert checked > 100


def test_triangle_counterexamples_recompute(verdicts):
    checked = 0
    for key, props in verdicts.items():
        v = props["distance"]
        if v.holds is False and v.example and "labelings" in v.example and isinstance(v.example["labelings"], dict):
            lab = v.example["labelings"]
            x, y, z = (np.array(lab[k]) for k in "XYZ")
            sign = 1 if MEASURES[key].higher_is_better else -1

            def d(a, b, key=key, sign=sign, x=x):
                agreement = sign * metrics.evaluate(metrics.Contingency.from_labels(a, b), [key])[key]
                return sign * metrics.evaluate(metrics.Contingency.from_labels(x, x), [key])[key] - agreement

            assert d(x, z) > d(x, y) + d(y, z) + 1e-12, key
            checked += 1
    assert checked >= 10


def test_constant_baseline_counterexamples_recompute(verdicts):
    for key in ("rand", "nmi_arithmetic", "correlation_distance", "nca", "psi", "bcubed_f"):
        v = verdicts[key]["constant_baseline"]
        assert v.holds is False
        (a1, b1), (a2, b2) = v.example["margins"]
        e = []
        for a, b in ((a1, b1), (a2, b2)):
            e.append(sum(p * _value(key, t) for t, p in gb._tables_with_margins(a, b)))
        assert e == pytest.approx(v.example["expected"], abs=1e-12)
        assert abs(e[0] - e[1]) > 1e-3


def test_strong_monotonicity_counterexamples_recompute(verdicts):
    for key, props in verdicts.items():
        v = props["strong_monotonicity"]
        if v.holds is False:
            q1, q2 = v.example["counts"]
            assert all(x >= 1 for x in q1)                     # an interior point
            def f(q, key=key):
                stand_in = gs._PairCounts(*([x] for x in q))
                return float(np.atleast_1d(MEASURES[key].func(stand_in, log_base=math.e, beta=1.0))[0])

            assert [f(q1), f(q2)] == pytest.approx(v.example["values"])


def test_the_papers_recommendations(verdicts):
    for key in ("pair_correlation", "sokal_sneath"):
        holds = {p: verdicts[key][p].holds for p in GOSGENS_PROPERTIES}
        assert holds == {**{p: True for p in GOSGENS_PROPERTIES}, "distance": False}, key
    holds = {p: verdicts["correlation_distance"][p].holds for p in GOSGENS_PROPERTIES}
    assert holds == {**{p: True for p in GOSGENS_PROPERTIES}, "constant_baseline": False}


@pytest.mark.parametrize("key,prop,holds", [
    ("vi", "distance", True), ("nmi_max", "distance", True), ("nmi_arithmetic", "distance", False),
    ("vi_n", "distance", False), ("ari", "constant_baseline", True), ("ami", "constant_baseline", True),
    ("rand", "constant_baseline", False), ("rand", "min_agreement", True), ("ari", "min_agreement", False),
    ("pair_recall", "symmetric", False), ("pair_recall", "max_agreement", False),
    ("nmi_max", "local_monotonicity", False), ("ami", "local_monotonicity", False),
    ("vi", "local_monotonicity", True), ("mirkin", "strong_monotonicity", False),
    ("jaccard", "strong_monotonicity", False), ("ari", "strong_monotonicity", False),
    ("nca", "symmetric", False), ("npa", "symmetric", True),
    ("hubert_gamma", "min_agreement", False),   # same formula as CC, but 0 (not −1) for one cluster vs singletons
])
def test_known_verdicts(verdicts, key, prop, holds):
    assert verdicts[key][prop].holds is holds, verdicts[key][prop].detail


def test_disagreements_with_the_paper_are_the_documented_ones(verdicts):
    found = set(zip(gosgens_disagreements()["measure"], gosgens_disagreements()["property"]))
    assert found == {
        ("jaccard", "min_agreement"), ("pair_recall", "min_agreement"), ("pair_f", "min_agreement"),  # iff reading
        ("jaccard", "local_monotonicity"), ("pair_f", "local_monotonicity"),                       # strict at N11 = 0
        ("hubert_gamma", "min_agreement"), ("gamma_n", "min_agreement"),                           # degenerate rule
    }


def test_strictness_failures_of_jaccard_are_only_at_n11_zero(verdicts):
    ex = verdicts["jaccard"]["local_monotonicity"].example
    before, after = (metrics.Contingency.from_table(t.to_numpy()) for t in ex["tables"])
    assert metrics.pair_counts(before)[0] == metrics.pair_counts(after)[0] == 0
    assert "0 worsen it" in verdicts["jaccard"]["local_monotonicity"].detail


def test_evidence_frame_is_tidy(verdicts):
    ev = gosgens_evidence()
    assert len(ev) == len(MEASURES) * len(GOSGENS_PROPERTIES)
    assert set(ev["state"]) <= {"yes (proved)", "yes? (no counterexample)", "no (counterexample)", "n/a"}
    assert isinstance(ev, pd.DataFrame)
    # every cite of the paper says it is a reconstruction
    # the reconstructed paper table is cited where it agrees, never as a proof
    cites = ev[ev["detail"].str.contains("as reconstructed here", regex=False)]
    assert len(cites) > 10 and cites["kind"].eq("no_counterexample").all()
    assert cites["detail"].str.contains("which is not a proof", regex=False).all()
    # the paper's column is filled exactly for the measures a paper row covers
    assert set(ev.loc[ev["paper"].notna(), "measure"]) == {
        "nmi_arithmetic", "v_measure", "vi_n", "nmi_max", "vi", "ami", "bcubed_f", "rand", "hubert_gamma_prime",
        "ari", "r_n", "j_prime_n", "ms_prime_n", "jaccard", "pair_recall", "pair_f", "pair_correlation",
        "hubert_gamma", "gamma_n", "sokal_sneath", "correlation_distance"}


def test_a_no_counterexample_verdict_is_never_called_a_proof(verdicts):
    states = {v.state for props in verdicts.values() for v in props.values() if v.kind == "no_counterexample"}
    assert states == {"yes? (no counterexample)"}
    assert gosgens_verdict("psi_simplified", "distance").state == "yes? (no counterexample)"
    assert gosgens_verdict("vi", "distance").kind == "proof"


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown property"):
        gosgens_verdict("vi", "monotone")
    with pytest.raises(KeyError):
        gosgens_verdict("no_such_measure", "distance")
    with pytest.raises(ValueError, match="budget"):
        gosgens_properties(budget=-1)


def test_a_first_run_beyond_its_budget_is_refused_and_a_kept_one_reports_progress():
    # a set of measures never searched before in this process: the estimate is checked
    with pytest.raises(CostError):
        gosgens_properties(["vi", "ari", "nca"], budget=1e-3)
    seen = []
    gosgens_properties(["vi", "ari"], budget=None, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, 6) for i in range(1, 7)]
    seen.clear()
    kept = gosgens_properties(["vi", "ari"], budget=1e-3, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(6, 6)] and list(kept.index) == ["vi", "ari"]  # kept: no estimate, no search


def test_checks_close_tells_infinity_from_a_finite_value():
    # metrics.properties.checks._close once let |∞ − x| ≤ tol·(1 + ∞) pass for every finite x, so
    # Minkowski's +∞ passed identity and symmetry comparisons it should fail.
    from metrics.properties.checks import _close

    assert not _close(math.inf, 1.0).any() and not _close(1.0, math.inf).any()
    assert _close(math.inf, math.inf).all() and not _close(math.inf, -math.inf).any()
    assert _close([1.0, 2.0], [1.0 + 1e-12, 2.0]).all()


def test_one_measure_with_a_proved_baseline_alone():
    """A measure whose constant baseline is proved (ARI) asked for alone: nothing is left to draw
    for the asymptotic regimes, and its evidence is still complete (it raised before)."""
    frame = gosgens_evidence(["ari"])
    assert set(frame["measure"]) == {"ari"} and len(frame) == len(GOSGENS_PROPERTIES)
