"""The Compare page's paired bootstrap: beside each measure's verdict when both sides are uploaded
labels of the same items (every number metrics.paired_bootstrap's, through AppTest), and one clear
line on why not — and how to get it — when a side is a table or the two uploads are not the same
items (different lengths, gold columns that differ, rows left out, noise read two ways)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from dashboard.solutions import significance
from tests.dashboard.apptest_utils import no_trouble, open_app

PAGE = "app_pages/analyse/compare.py"
KEYS = ["ari", "vi", "purity", "ami"]
COLUMNS = ("difference", "low", "high", "p-value")


def runs(n: int = 90, seed: int = 4) -> pd.DataFrame:
    """Gold classes and two solutions of the same items: A close to gold, B less so; A has −1 noise."""
    rng = np.random.default_rng(seed)
    gold = rng.choice(["a", "b", "c"], size=n)
    return pd.DataFrame({"gold": gold,
                         "A": np.where(rng.random(n) < 0.15, "-1", np.char.add("k", gold)),
                         "B": np.where(rng.random(n) < 0.4, rng.choice(["x", "y"], size=n), gold)})


def csv(df: pd.DataFrame) -> bytes:
    return df.to_csv(index=False).encode()


def upload(at: AppTest, side: str, df: pd.DataFrame, pred: str, name: str = "runs.csv") -> AppTest:
    """Side ``side`` ("a"/"b"): its upload panel, the file ``df``, gold column "gold", cluster column ``pred``."""
    at.file_uploader(key=f"{side}_upload_file").set_value((name, csv(df), "text/csv"))
    at = at.run()
    at.selectbox(key=f"{side}_upload_pred_col").set_value(pred)
    return at.run()


def both_uploaded(df_a: pd.DataFrame, df_b: pd.DataFrame | None = None) -> AppTest:
    at = open_app(PAGE, 180, {"a": "upload", "b": "upload", "m": KEYS})
    at = upload(at, "a", df_a, "A")
    return upload(at, "b", df_a if df_b is None else df_b, "B")


def interval_frame(at: AppTest) -> pd.DataFrame | None:
    frames = [df.value for df in at.dataframe if "p-value" in df.value.columns]
    return frames[0].set_index("symbol") if frames else None


def infos(at: AppTest) -> str:
    return " ".join(i.value for i in at.info)


def check_equals_metrics(at: AppTest, boot: pd.DataFrame) -> None:
    shown = interval_frame(at)
    assert shown is not None, infos(at)
    for k in KEYS:
        row = shown.loc[metrics.MEASURES[k].symbol]
        assert [float(row[c]) for c in COLUMNS] == pytest.approx(
            [boot.loc[k, c] for c in ("difference", "low", "high", "p_value")], rel=1e-9, abs=1e-12)
        assert row["real?"] == ("yes" if boot.loc[k, "significant"] else "no")
        assert row["prefers"] in ("A", "B", "tie")


def test_one_file_on_both_sides_shows_metrics_paired_bootstrap():
    df = runs()
    at = both_uploaded(df)
    no_trouble(at)
    boot = metrics.paired_bootstrap(df["gold"], df["A"], df["B"], KEYS, n_resamples=significance.RESAMPLES,
                                    confidence=significance.CONFIDENCE, seed=significance.SEED)
    check_equals_metrics(at, boot)
    # Within a sample of 90 items A's lead is clear under ARI: the interval leaves out 0.
    assert interval_frame(at).loc["ARI", "real?"] == "yes"
    assert any("Paired row by row" in c.value for c in at.caption)


def test_two_files_with_the_same_gold_items_and_the_noise_read_as_singletons():
    df = runs()
    at = both_uploaded(df[["gold", "A"]], df[["gold", "B"]])
    at = at.radio(key="a_upload_noise_as").set_value("singletons").run()
    no_trouble(at)
    boot = metrics.paired_bootstrap(df["gold"], df["A"], df["B"], KEYS, n_resamples=significance.RESAMPLES,
                                    seed=significance.SEED, noise="-1", noise_as="singletons")
    check_equals_metrics(at, boot)
    # Left out, A and B are scored on different items: said, no interval.
    at = at.radio(key="a_upload_noise_as").set_value("exclude").run()
    no_trouble(at)
    assert interval_frame(at) is None and "different items" in infos(at)


def test_presets_get_the_explanation_and_the_way_to_an_interval():
    at = open_app(PAGE, 120, {"m": KEYS})
    no_trouble(at)
    assert interval_frame(at) is None
    text = infos(at)
    assert "A and B are contingency tables" in text and "Upload labels" in text and "gold column" in text


def test_an_upload_against_a_preset_names_the_table_side():
    df = runs()
    at = open_app(PAGE, 120, {"a": "upload", "m": KEYS})
    at = upload(at, "a", df, "A")
    no_trouble(at)
    assert interval_frame(at) is None
    assert "B is a contingency table" in infos(at)


def test_an_uploaded_contingency_table_is_not_paired():
    df = runs()
    at = open_app(PAGE, 180, {"a": "upload", "b": "upload", "m": KEYS})
    at = upload(at, "a", df, "A")
    at.radio(key="b_upload_layout").set_value("table").run()
    table = pd.crosstab(df["gold"], df["B"])
    at.file_uploader(key="b_upload_file_table").set_value(("t.csv", table.to_csv().encode(), "text/csv"))
    at = at.run()
    no_trouble(at)
    assert interval_frame(at) is None and "B is a contingency table" in infos(at)


@pytest.mark.parametrize("case, words", [
    ("shorter", "not the same items"),
    ("other gold", "gold columns differ in"),
])
def test_uploads_of_different_items_are_refused_in_words(case, words):
    df = runs()
    other = df.iloc[:60] if case == "shorter" else df.assign(gold=df["gold"].to_numpy()[::-1])
    at = both_uploaded(df, other)
    no_trouble(at)
    assert interval_frame(at) is None
    text = infos(at)
    assert words in text and "Upload labels" in text
    if case == "shorter":
        assert "90" in text and "60" in text
    else:
        first = int(np.flatnonzero(df["gold"].to_numpy() != other["gold"].to_numpy())[0]) + 1
        assert f"first at data row {first}," in text


def test_rows_left_out_and_two_noise_readings_are_refused_in_words():
    df = runs()
    gapped = df.assign(B=df["B"].where(df.index != 5, ""))   # one empty cell in B
    at = both_uploaded(df, gapped)
    assert at.error   # the reader's message: a missing label, with what to tick
    at = at.checkbox(key="b_upload_dropna").check().run()
    no_trouble(at)
    assert interval_frame(at) is None and "1 row(s) of B's file" in infos(at)
    # Both sides with noise, read two ways.
    noisy = df.assign(B=df["A"])
    at = both_uploaded(df, noisy)
    at = at.radio(key="a_upload_noise_as").set_value("singletons").run()
    no_trouble(at)
    assert interval_frame(at) is None and "choose the same reading" in infos(at)
    at = at.radio(key="b_upload_noise_as").set_value("singletons").run()
    no_trouble(at)
    assert interval_frame(at) is not None
