"""The Property checker's "choose a measure" view through AppTest: every control (the properties
ticked, proofs only, the measure and property whose evidence is shown), links, and what it shows
against ``metrics.properties.gosgens_evidence`` / ``gosgens_verdict`` computed directly.
"""

from __future__ import annotations

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from dashboard.properties import gosgens_view as gv
from dashboard.ui.safe_text import shown as shown_text
from metrics import properties
from tests.dashboard.apptest_utils import no_trouble, open_app

PAGE = "app_pages/explore/property_checker.py"


def open_page(**params) -> AppTest:
    return open_app(PAGE, 300, params)


def chosen(at: AppTest) -> pd.DataFrame:
    for df in at.dataframe:
        if {"measure", "has", "minimal agreement"} <= set(df.value.columns):
            return df.value
    raise AssertionError("no table of chosen measures on the page")


def text(at: AppTest) -> str:
    return shown_text(" ".join(str(e.value) for kind in ("markdown", "caption", "warning")
                               for e in getattr(at, kind)))


def library_choice(need: list[str], proved_only: bool) -> list[str]:
    ev = properties.gosgens_evidence(budget=None)
    ok = ev["kind"].eq("proof") if proved_only else ev["holds"].eq(True)
    have = ev[ok].groupby("measure")["property"].apply(set)
    return [k for k in metrics.MEASURES if set(need) <= have.get(k, set())]


def keys_of(frame: pd.DataFrame) -> list[str]:
    by_label = {f"{m.symbol} — {m.name}": k for k, m in metrics.MEASURES.items()}
    return [by_label[label] for label in frame["measure"]]


@pytest.fixture(scope="module")
def default_page() -> AppTest:
    return open_page()


def test_the_default_lists_every_measure_with_its_marks(default_page):
    at = default_page
    no_trouble(at)
    frame = chosen(at)
    assert sorted(keys_of(frame)) == sorted(metrics.MEASURES)
    ev = properties.gosgens_evidence(budget=None)
    for _, row in frame.iterrows():
        key = keys_of(pd.DataFrame([row]))[0]
        for p in gv.PROPERTIES:
            state = ev[(ev["measure"] == key) & (ev["property"] == p)]["state"].iloc[0]
            assert row[gv.PROPERTY_LABELS[p]] == gv.MARKS[state], (key, p)
    assert list(frame["has"]) == sorted(frame["has"], reverse=True)
    # the paper's recommendations have seven of the eight
    top = set(keys_of(frame[frame["has"] == 7]))
    assert {"pair_correlation", "sokal_sneath", "correlation_distance"} <= top
    assert "reconstruction" in text(at)
    # the chosen measure's line at the top of the page
    assert "Gösgens et al.'s properties of VI:" in text(at)


def test_ticking_properties_keeps_the_measures_that_have_them():
    at = open_page()
    at.pills(key="p_need").set_value(["min_agreement", "constant_baseline"]).run()
    no_trouble(at)
    assert set(keys_of(chosen(at))) == set(library_choice(["min_agreement", "constant_baseline"], False))
    assert set(keys_of(chosen(at))) == {"pair_correlation", "sokal_sneath"}
    assert at.query_params["p_need"] == ["min_agreement", "constant_baseline"]
    at.pills(key="p_need").set_value(["distance"]).run()
    assert set(keys_of(chosen(at))) == set(library_choice(["distance"], False))


def test_proofs_only_leaves_out_the_searched_verdicts():
    at = open_page(p_need=["distance"])
    searched = set(library_choice(["distance"], False)) - set(library_choice(["distance"], True))
    assert searched and searched <= set(keys_of(chosen(at)))  # e.g. psi_simplified: ✓? only
    at.toggle(key="p_proved").set_value(True).run()
    no_trouble(at)
    assert set(keys_of(chosen(at))) == set(library_choice(["distance"], True))
    assert not searched & set(keys_of(chosen(at)))
    # (a bound widget: Streamlit's browser side writes it into the URL; the link test reads it back)


def test_no_measure_has_everything_says_so():
    at = open_page(p_need=list(gv.PROPERTIES))
    no_trouble(at)
    assert at.warning and "No measure has all of" in at.warning[0].value
    assert not any({"measure", "has"} <= set(df.value.columns) for df in at.dataframe)


def test_the_evidence_of_a_counterexample_shows_its_tables():
    at = open_page(p_em="afm", p_ep="min_agreement")
    no_trouble(at)
    v = properties.gosgens_verdict("afm", "min_agreement")
    assert v.kind == "counterexample"
    assert "Counterexample: " + v.detail in text(at)
    shown = [df.value for df in at.dataframe if list(df.value.columns[:1]) == ["K1"]]
    assert shown and shown[0].equals(v.example["tables"][0])


@pytest.mark.parametrize("key,prop,field", [
    ("rand", "constant_baseline", "margins"),      # margins with their exact expectations
    ("afm", "strong_monotonicity", "counts"),      # pair counts
    ("npa", "distance", "labelings"),              # the triangle's three labelings
    ("nmi_arithmetic", "asymptotic_constant_baseline", "points"),  # limits of each regime
])
def test_every_kind_of_evidence_is_shown(key, prop, field):
    at = open_page()
    at.selectbox(key="p_em").set_value(key).run()
    at.selectbox(key="p_ep").set_value(prop).run()
    no_trouble(at)
    v = properties.gosgens_verdict(key, prop)
    assert v.holds is False and field in v.example
    assert v.detail in text(at)
    assert at.query_params["p_em"] == key and at.query_params["p_ep"] == prop
    if field == "margins":
        frame = next(df.value for df in at.dataframe if "class sizes" in df.value.columns)
        assert list(frame.iloc[:, 2]) == v.example["expected"]
    if field == "counts":
        frame = next(df.value for df in at.dataframe if "N11" in df.value.columns)
        assert [tuple(r) for r in frame[["N11", "N10", "N01", "N00"]].to_numpy()] == v.example["counts"]
    if field == "labelings":
        frame = next(df.value for df in at.dataframe if list(df.value.columns) == ["X", "Y", "Z"])
        assert frame["X"].tolist() == v.example["labelings"]["X"]
    if field == "points":
        frame = next(df.value for df in at.dataframe if "margin regime" in df.value.columns)
        assert list(frame["margin regime"]) == list(v.example["points"])


def test_a_proof_names_its_reference_and_the_paper_cell():
    at = open_page(p_em="vi", p_ep="distance")
    no_trouble(at)
    v = properties.gosgens_verdict("vi", "distance")
    assert v.kind == "proof" and "Meilă 2007" in v.detail
    assert "Proof: " + v.detail in text(at)
    assert "The reconstructed paper table says yes: our verdict agrees." in text(at)
    at = open_page(p_em="hubert_gamma", p_ep="min_agreement")
    assert "The reconstructed paper table says yes: our verdict **disagrees**." in text(at)


def test_a_search_is_never_shown_as_a_proof():
    at = open_page(p_em="psi_simplified", p_ep="distance")
    no_trouble(at)
    assert "✓? yes? (no counterexample)" in text(at) and "Search: " in text(at)


def test_the_disagreements_with_the_reconstructed_paper_are_the_library_s():
    at = open_page()
    frame = next(df.value for df in at.dataframe if "paper_unsure" in df.value.columns)
    expected = properties.gosgens_disagreements(budget=None)
    pd.testing.assert_frame_equal(frame.reset_index(drop=True), expected.reset_index(drop=True))
    assert len(frame) == 7


def test_a_link_sets_every_control_and_bad_values_are_reported():
    at = open_page(p_need=["symmetric", "distance"], p_proved="true", p_em="vi", p_ep="symmetric")
    no_trouble(at)
    assert at.pills(key="p_need").value == ["symmetric", "distance"]
    assert at.toggle(key="p_proved").value is True
    assert at.selectbox(key="p_em").value == "vi" and at.selectbox(key="p_ep").value == "symmetric"
    assert set(keys_of(chosen(at))) == set(library_choice(["symmetric", "distance"], True))
    at = open_page(p_need=["telepathy"], p_em="nope", p_ep="distance")
    assert not at.exception
    warnings = " ".join(w.value for w in at.warning)
    assert "telepathy" in warnings and "nope" in warnings
    assert at.selectbox(key="p_em").value == gv.DEFAULT_EVIDENCE[0]
    assert sorted(keys_of(chosen(at))) == sorted(metrics.MEASURES)
