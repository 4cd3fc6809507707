"""The upload panels' noise question (a cluster column holding −1) through AppTest: asked only when
a −1 is there, each reading gives the measures of metrics' own reading, the choice survives a
rerun, "left out" of an all-noise column is an error in words, and Compare shows the three readings
side by side."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

import metrics
from metrics.core.labels import NOISE_READINGS
from tests.dashboard.apptest_utils import no_trouble, open_app, shown_measures

LAB = "app_pages/analyse/table_lab.py"
COMPARE = "app_pages/analyse/compare.py"
GOLD = ["a", "a", "a", "b", "b", "b", "c", "c"]
PRED = ["1", "1", "-1", "2", "2", "-1", "-1", "3"]
FILE = ("gold,cluster\n" + "".join(f"{g},{p}\n" for g, p in zip(GOLD, PRED))).encode()


def upload(at: AppTest, data: bytes, key: str) -> AppTest:
    at.file_uploader(key=key).set_value(("dbscan.csv", data, "text/csv"))
    return at.run()


def expected(reading: str) -> dict:
    return metrics.evaluate(metrics.Contingency.from_labels(GOLD, PRED, noise="-1", noise_as=reading))


def test_no_question_without_noise():
    at = upload(open_app(LAB, 60, {"src": "upload"}), b"gold,cluster\na,1\nb,2\n", "lab_upload_file")
    no_trouble(at)
    assert not [r for r in at.radio if r.key == "lab_upload_noise_as"]


@pytest.mark.parametrize("reading", NOISE_READINGS)
def test_each_reading_gives_metrics_own_table(reading):
    at = upload(open_app(LAB, 60, {"src": "upload"}), FILE, "lab_upload_file")
    no_trouble(at)
    radio = at.radio(key="lab_upload_noise_as")
    assert radio.value == "cluster" and "3 item(s) of the cluster column are labelled −1" in radio.label
    at = radio.set_value(reading).run()
    no_trouble(at)
    assert shown_measures(at, drop_missing=True) == pytest.approx(
        {k: v for k, v in expected(reading).items()}, rel=1e-12, abs=1e-15)
    captions = " ".join(c.value for c in at.caption)
    assert "3 noise item(s) (37.5% of the items)" in captions
    assert ("62.5% of the items are scored" in captions) == (reading == "exclude")
    at.run()
    assert at.radio(key="lab_upload_noise_as").value == reading   # kept across reruns


def test_leaving_out_an_all_noise_column_is_an_error_in_words():
    at = upload(open_app(LAB, 60, {"src": "upload"}), b"gold,cluster\na,-1\nb,-1\n", "lab_upload_file")
    at = at.radio(key="lab_upload_noise_as").set_value("exclude").run()
    assert not at.exception
    (message,) = [e.value for e in at.error]
    assert "every item is noise" in message and "Read them as one cluster or as singletons" in message


def test_compare_shows_the_three_readings_side_by_side():
    at = open_app(COMPARE, 60, {"a": "upload", "m": ["ari", "vi"]})
    at = upload(at, FILE, "a_upload_file")
    no_trouble(at)
    at = at.radio(key="a_upload_noise_as").set_value("singletons").run()
    no_trouble(at)
    (frame,) = [df.value for df in at.dataframe if "one cluster" in df.value.columns]
    assert list(frame["symbol"]) == [metrics.MEASURES["ari"].symbol, metrics.MEASURES["vi"].symbol]
    for reading, column in (("cluster", "one cluster"), ("singletons", "each its own cluster"),
                            ("exclude", "left out")):
        assert list(frame[column]) == pytest.approx([expected(reading)["ari"], expected(reading)["vi"]], rel=1e-12)
