"""The Solutions page's noise question (an uploaded solution holding −1), the three readings side by
side, and the paired bootstrap beside each measure's verdict — every number metrics' own, through
AppTest; the toggle travels in the link."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from dashboard.solutions import significance
from dashboard.solutions import views as sv
from metrics.core.labels import NOISE_READINGS
from tests.dashboard.apptest_utils import no_trouble, open_app

PAGE = "app_pages/analyse/solutions.py"
KEYS = ["ari", "vi", "purity"]


def runs(n: int = 80) -> pd.DataFrame:
    rng = np.random.default_rng(4)
    gold = rng.choice(["a", "b", "c"], size=n)
    return pd.DataFrame({"gold": gold, "dbscan": np.where(rng.random(n) < 0.25, "-1", np.char.add("k", gold)),
                         "kmeans": np.where(rng.random(n) < 0.3, rng.choice(["x", "y"], size=n), gold)})


def uploaded(df: pd.DataFrame, **params) -> AppTest:
    at = open_app(PAGE, 120, {"sol_src": "upload", "sol_m": KEYS, **params})
    at.file_uploader(key="sol_upload_file").set_value(("runs.csv", df.to_csv(index=False).encode(), "text/csv"))
    return at.run()


def frame_with(at: AppTest, column: str) -> pd.DataFrame:
    (frame,) = [df.value for df in at.dataframe if column in df.value.columns]
    return frame


def test_no_question_without_noise():
    df = runs()
    df["dbscan"] = df["dbscan"].replace("-1", "k0")
    at = uploaded(df)
    no_trouble(at)
    assert not [r for r in at.radio if r.key == "sol_upload_noise_as"]


@pytest.mark.parametrize("reading", NOISE_READINGS)
def test_the_noise_question_and_the_three_readings(reading):
    df = runs()
    at = uploaded(df)
    no_trouble(at)
    radio = at.radio(key="sol_upload_noise_as")
    assert radio.value == "cluster" and "of 1 solution(s) are labelled −1" in radio.label
    at = radio.set_value(reading).run()
    no_trouble(at)
    share = (df["dbscan"] == "-1").mean()
    assert any(f"dbscan {share:.1%}" in m.value for m in at.markdown)
    side = frame_with(at, "coverage (left out)").set_index("solution")
    for r, name in (("cluster", "one cluster"), ("singletons", "each its own cluster"), ("exclude", "left out")):
        expected = metrics.compare_solutions(df["gold"], df[["dbscan", "kmeans"]], KEYS, noise="-1", noise_as=r)
        for k in KEYS:
            np.testing.assert_allclose(side[f"{sv.symbol(k)} · {name}"].astype(float), expected[k], rtol=1e-12)
    assert side.loc["dbscan", "coverage (left out)"] == pytest.approx(1 - share)
    # The page's own scores follow the chosen reading.
    chosen = sv.analysis(sv.SolutionSet(("check", reading), df["gold"], {"dbscan": df["dbscan"]}, "", noise="-1",
                                        noise_as=reading), tuple(KEYS), np.e, 1.0).values
    expected = metrics.compare_solutions(df["gold"], {"dbscan": df["dbscan"]}, KEYS, noise="-1", noise_as=reading)
    pd.testing.assert_frame_equal(chosen, expected)


def test_the_bootstrap_beside_each_verdict():
    df = runs()
    at = uploaded(df, sol_a="dbscan", sol_b="kmeans")
    at = at.radio(key="sol_upload_noise_as").set_value("singletons").run()
    assert not [t for t in at.toggle if t.key == "sol_boot" and t.value]
    at = at.toggle(key="sol_boot").set_value(True).run()
    no_trouble(at)
    shown = frame_with(at, "p-value").set_index("measure")
    boot = metrics.paired_bootstrap(df["gold"], df["dbscan"], df["kmeans"], KEYS, n_resamples=significance.RESAMPLES,
                                    seed=significance.SEED, noise="-1", noise_as="singletons")
    for k in KEYS:
        row = shown.loc[sv.symbol(k)]
        assert [float(row[c]) for c in ("difference", "low", "high", "p-value")] == pytest.approx(
            [boot.loc[k, c] for c in ("difference", "low", "high", "p_value")], rel=1e-12)
        assert row["real?"] == ("yes" if boot.loc[k, "low"] > 0 or boot.loc[k, "high"] < 0 else "no")
        assert row["prefers"] in ("A", "B", "tie")
    # Left out, A and B are scored on different items: said in words, no table.
    at = at.radio(key="sol_upload_noise_as").set_value("exclude").run()
    assert not at.exception
    assert any("different items" in w.value for w in at.warning)


def test_presets_are_not_bootstrapped_and_a_link_opens_the_toggle():
    at = open_app(PAGE, 120, {"sol_boot": "true"})
    no_trouble(at)
    assert at.toggle(key="sol_boot").value is True
    assert any("Presets are tables, not items" in i.value for i in at.info)
