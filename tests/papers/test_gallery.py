"""metrics.papers.gallery: every row computed, and its agreement flag right.

The expected values are the papers' printed numbers (assets/paper_values/*.json). Each test
recomputes what a row claims by another path — the registry directly, the generators, the
property checks — and checks the flag against the printed precision rule of
tests/test_paper_values.py.
"""

from __future__ import annotations

import json
import math
import shutil

import numpy as np
import pytest

import metrics
from metrics import properties
from metrics.core.formatting import format_number
from metrics.papers import experiments, gallery, generators
from tests import ROOT

ASSETS = ROOT / "assets" / "paper_values"
PAGES = {"table_lab", "compare", "generator_lab", "property_checker", "fuzzy_lab", "real_data"}


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return gallery.gallery_rows()


def by_item(rows, paper: str, item: str) -> dict:
    found = [r for r in rows if r["paper"] == paper and r["item"] == item]
    assert len(found) == 1, (paper, item, len(found))
    return found[0]


# ---------------------------------------------------------------- the rule
@pytest.mark.parametrize("value, printed, status", [
    (0.59157, "0.587", "differs"),       # R&R solution R's V
    (0.81686, "0.81", "truncated"),      # R&R solution R's NVI: cut, not rounded
    (0.047579, ".047", "truncated"),     # Utt et al.'s fuzzy V
    (0.05797, ".014", "differs"),        # Utt et al.'s traditional V
    (2.302585, "2.303", "agrees"),
    (0.30037, "0.30", "agrees"),
    (0.2995, "0.30", "agrees"),          # rounds up to the printed value
    (0.3051, "0.30", "truncated"),
    (1.0, "1", "agrees"),                # a whole number claims an exact value
    (1.0 + 1e-9, "1", "differs"),
    (0.0, "0", "agrees"),
    (-0.0001, "0", "differs"),
    (math.nan, "0.5", "differs"),
])
def test_judge_follows_the_printed_precision(value, printed, status):
    assert gallery.judge(value, printed) == status


def test_decimals():
    assert [gallery.decimals(p) for p in (".047", "0.50", "1", "1.0", "2301")] == [3, 2, 0, 1, 0]


# ---------------------------------------------------------------- every row
def test_every_paper_has_rows_and_every_row_is_complete(rows):
    assert {r["paper"] for r in rows} == set(gallery.PAPERS)
    for r in rows:
        assert set(r) == set(gallery.COLUMNS)
        assert r["status"] in gallery.STATUSES
        assert r["agrees"] == {"agrees": True, "truncated": False, "differs": False}.get(r["status"])
        assert r["item"] and r["printed"] and r["section"]
        if r["status"] == "not recomputable":
            assert r["computed"] is None and r["value"] is None
        else:
            assert r["computed"], r["item"]          # every recomputable row is computed
        if r["status"] != "agrees":
            assert r["explanation"], r["item"]       # and every disagreement explained
        else:
            assert not r["explanation"], r["item"]


def test_numeric_rows_are_judged_by_the_rule(rows):
    numeric = [r for r in rows if r["value"] is not None]
    assert len(numeric) > 100
    for r in numeric:
        assert math.isfinite(r["value"]), r["item"]
        assert r["status"] == gallery.judge(r["value"], r["printed"]), r["item"]


def test_links_point_at_pages_of_the_app(rows):
    for r in rows:
        link = r["link"]
        while link is not None:
            assert link["page"] in PAGES and link["label"]
            if "table" in link:
                t = link["table"]
                assert np.asarray(t["cells"]).shape == (len(t["classes"]), len(t["clusters"]))
            link = link.get("fallback")
    linked = sum(r["link"] is not None for r in rows)
    assert linked >= len(rows) - 3  # only the not-recomputable grammar-induction tables have nowhere to go


# ---------------------------------------------------------------- recomputed by another path
def test_wu_table4_rows_equal_the_registry_in_bits(rows):
    wu = json.loads((ASSETS / "wu2009_tables3_4.json").read_text())
    for c in ("I", "II"):
        t = metrics.Contingency.from_table(wu["tables"][c])
        for sym, key in wu["measure_keys"].items():
            r = by_item(rows, "wu2009", f"Clustering {c}: {sym}")
            assert r["value"] == metrics.MEASURES[key](t, log_base=2)
            assert r["printed"] == wu["printed"][c][sym] and r["status"] == "agrees"


def test_rh_table2_rows_equal_the_property_rates(rows):
    t2 = json.loads((ASSETS / "rh2007_table2.json").read_text())
    rates = properties.rates_table(properties.dom_property_rates(list(t2["measure_keys"].values())))
    differing = 0
    for sym, key in t2["measure_keys"].items():
        for prop, printed in t2["rates"][sym].items():
            r = by_item(rows, "rh2007", f"{sym}: {prop}")
            assert r["value"] == rates.loc[prop, key]
            assert float(r["printed"]) == printed
            differing += abs(rates.loc[prop, key] - printed) > 0.005
    table2 = [r for r in rows if r["paper"] == "rh2007" and r["section"].startswith("Table 2")]
    assert len(table2) == 63 and sum(r["status"] == "differs" for r in table2) == differing
    # V, VI and Q0 satisfy every property, as printed.
    for sym in ("Q0", "VI", "V-Measure"):
        assert all(by_item(rows, "rh2007", f"{sym}: P{i}")["status"] == "agrees" for i in range(1, 8))


def test_rh_figure2_values_and_swapped_labels(rows):
    fig2 = json.loads((ASSETS / "rosenberg2007_figure2.json").read_text())
    for sol in "ABCD":
        t = metrics.Contingency.from_table(fig2["reconstructions"][sol])
        f = by_item(rows, "rh2007", f"Solution {sol}: F-measure")
        assert f["value"] == metrics.MEASURES["f_measure"](t) and f["status"] == "agrees"
        label = by_item(rows, "rh2007", f"Label of solution {sol}: F-Measure")
        assert label["status"] == "differs" and "swapped" in label["explanation"]
        assert by_item(rows, "rh2007", f"Label of solution {sol}: V-Measure")["status"] == "agrees"
    assert by_item(rows, "rh2007", "Label of solution A: F-Measure")["printed"] == "0.5"


def test_rr_table1_flags(rows):
    rr = json.loads((ASSETS / "reichart2009_table1.json").read_text())
    r_table = metrics.Contingency.from_table(rr["solution_R"])
    v = by_item(rows, "rr2009", "Solution R: V")
    assert v["value"] == metrics.MEASURES["v_measure"](r_table)
    assert v["status"] == "differs" and "0.587" in v["explanation"]
    for sym in ("NVI", "NVIK"):
        assert by_item(rows, "rr2009", f"Solution R: {sym}")["status"] == "truncated"
    assert by_item(rows, "rr2009", "Solution R: VI")["status"] == "agrees"
    assert all(by_item(rows, "rr2009", f"Singletons: {s}")["status"] == "agrees" for s in ("V", "VI", "NVI", "NVIK"))
    extremes = [r for r in rows if r["section"] == "§3–4: the extreme cases"]
    assert len(extremes) == 9 and all(r["status"] == "agrees" for r in extremes)


def test_utt_flags(rows):
    utt = json.loads((ASSETS / "utt2014_example.json").read_text())
    points = list(utt["gold"])
    fuzzy = metrics.Contingency.from_memberships([utt["gold"][p] for p in points],
                                                 [utt["clusters"][p] for p in points], mode="fuzzy")
    fv = by_item(rows, "utt2014", "Fuzzy V (mass split over the gold classes)")
    assert fv["value"] == metrics.MEASURES["v_measure"](fuzzy) and fv["status"] == "truncated"
    joint = by_item(rows, "utt2014", "Fuzzy V with the paper's own eqs. 2–3 (normalised by the joint entropy, "
                                     "footnote 1)")
    assert joint["value"] == metrics.MEASURES["fuzzy_v_joint"](fuzzy) and joint["status"] == "differs"
    assert by_item(rows, "utt2014", "Traditional V")["status"] == "differs"
    assert all(by_item(rows, "utt2014", p)["status"] == "agrees" for p in points)          # Table 1
    assert all(by_item(rows, "utt2014", f"{c}: g1 g2 g3 g4 Σ")["status"] == "agrees" for c in ("c1", "c2"))
    assert by_item(rows, "utt2014", "Hard dissimilarity matrix")["status"] == "agrees"
    assert by_item(rows, "utt2014", "Soft dissimilarity matrix")["status"] == "differs"


def test_utt_experiment_claims_match_a_direct_rerun(rows):
    e3 = experiments.experiment3(120, 6, seed=0)
    row = by_item(rows, "utt2014", "With the dissimilarity step, fuzzy V converges to 1 for the perfect soft "
                                   "clustering")
    assert row["computed"] == " → ".join(format_number(v) for v in e3["fuzzy_diss"])
    assert row["status"] == "agrees"
    higher = by_item(rows, "utt2014", "Fuzzy V is consistently higher than V")
    e1 = experiments.experiment1((4, 8, 16, 32, 64, 128), 10, seed=0)
    assert higher["status"] == ("agrees" if (e1["fuzzy"] > e1["count"]).all() else "differs")


def test_wu_cv_rows_equal_generators_cv(rows):
    sizes = json.loads((ASSETS / "wu2009_class_sizes.json").read_text())
    for ds, cls in sizes["table6"]["class_sizes"].items():
        r = by_item(rows, "wu2009", f"Data set {ds}: CV_0 of {', '.join(map(str, cls))}")
        assert r["value"] == generators.cv(cls) and r["status"] == "agrees"
    assert by_item(rows, "wu2009", "CV_0 for n_1 = 200, n_2 = 5800")["value"] == generators.cv([200, 5800])
    assert by_item(rows, "wu2009", "CV_0 of 485, 116, 429, 603, 481, 187")["status"] == "agrees"


def test_wu_table12_flags(rows):
    t12 = [r for r in rows if r["section"].startswith("Table 12")]
    assert len(t12) == 35
    eps = by_item(rows, "wu2009", "ε_n: W1 symmetry")      # Wu's P1, renamed: the app's P1 is Dom's
    assert eps["status"] == "differs" and "K = K" in eps["explanation"]
    assert [r["item"] for r in t12 if r["status"] != "agrees"] == ["ε_n: W1 symmetry"]
    assert properties.check_properties("epsilon_n")["symmetry"]["holds"]


# ---------------------------------------------------------------- the flags follow the data
def test_a_changed_printed_value_flips_its_row(tmp_path):
    for f in ASSETS.glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    wu = json.loads((tmp_path / "wu2009_tables3_4.json").read_text())
    wu["printed"]["I"]["E"] = "0.275"        # printed 0.274; ours 0.27419
    wu["printed"]["II"]["P"] = "0.90"        # printed 0.9; ours 0.9 exactly: still agrees
    (tmp_path / "wu2009_tables3_4.json").write_text(json.dumps(wu))
    changed = gallery.gallery_rows(tmp_path, papers=["wu2009"])
    assert by_item(changed, "wu2009", "Clustering I: E")["status"] == "differs"
    assert by_item(changed, "wu2009", "Clustering II: P")["status"] == "agrees"


def test_bad_input_names_the_problem(tmp_path):
    with pytest.raises(KeyError, match="unknown paper"):
        gallery.gallery_rows(papers=["nobody2020"])
    with pytest.raises(ValueError, match=r"reichart2009_table1.json"):
        gallery.gallery_rows(tmp_path, papers=["rr2009"])
    (tmp_path / "reichart2009_table1.json").write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        gallery.gallery_rows(tmp_path, papers=["rr2009"])


def test_only_chosen_papers(rows):
    dom = gallery.gallery_rows(papers=["dom2001"])
    assert dom == [r for r in rows if r["paper"] == "dom2001"]
    assert gallery.gallery_frame(papers=["dom2001"]).shape == (len(dom), len(gallery.COLUMNS))
