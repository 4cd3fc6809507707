"""`partition-lab score --noise LABEL --noise-as cluster|singletons|exclude`: every printed value is
the measure of the table from_labels reads for the same labels (one solution, several solutions, a
table file), the note on stderr, and bad input in one line with exit 2."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import metrics
from metrics.core.labels import NOISE_READINGS
from tests.cli.test_cli import run

KEYS = ["ari", "vi", "bcubed_f"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("noise")
    rng = np.random.default_rng(3)
    n = 400
    gold = rng.choice(["a", "b", "c"], size=n)
    dbscan = np.where(rng.random(n) < 0.3, "-1", np.char.add("k", gold))
    hdbscan = np.where(rng.random(n) < 0.1, "-1", np.char.add("h", gold))
    pd.DataFrame({"gold": gold, "dbscan": dbscan, "hdbscan": hdbscan}).to_csv(d / "runs.csv", index=False)
    return d, gold, {"dbscan": dbscan, "hdbscan": hdbscan}


def measures(out: str) -> dict:
    return {name: sol["measures"] for name, sol in json.loads(out)["solutions"].items()}


@pytest.mark.parametrize("reading", NOISE_READINGS)
def test_one_solution(data, capsys, reading):
    d, gold, sols = data
    code, out, err = run(["score", d / "runs.csv", "--gold-col", "gold", "--pred-col", "dbscan", "--noise", "-1",
                          "--noise-as", reading, "--measures", ",".join(KEYS), "--format", "json"], capsys)
    assert code == 0, err
    t = metrics.Contingency.from_labels(gold, sols["dbscan"], noise="-1", noise_as=reading)
    got = measures(out)["dbscan"]
    for k in KEYS:
        assert got[k] == pytest.approx(metrics.MEASURES[k](t), rel=1e-12, abs=1e-12)
    count = int((sols["dbscan"] == "-1").sum())
    assert f"dbscan: {count:,} noise item(s) labelled -1 ({count / 400:.1%}), read as {reading}" in err


@pytest.mark.parametrize("reading", NOISE_READINGS)
def test_several_solutions(data, capsys, reading):
    d, gold, sols = data
    code, out, err = run(["score", d / "runs.csv", "--gold-col", "gold", "--pred-col", "dbscan,hdbscan",
                          "--noise", "-1", "--noise-as", reading, "--measures", ",".join(KEYS), "--format", "json"],
                         capsys)
    assert code == 0, err
    got = measures(out)
    for name, labels in sols.items():
        t = metrics.Contingency.from_labels(gold, labels, noise="-1", noise_as=reading)
        for k in KEYS:
            assert got[name][k] == pytest.approx(metrics.MEASURES[k](t), rel=1e-12, abs=1e-12)
        assert f"{name}: " in err and f"read as {reading}" in err


def test_readings_differ_and_default_is_the_labels_as_they_are(data, capsys):
    d = data[0]
    base = ["score", d / "runs.csv", "--gold-col", "gold", "--pred-col", "dbscan", "--measures", "ari",
            "--format", "json"]
    values = {r: measures(run(base + ["--noise", "-1", "--noise-as", r], capsys)[1])["dbscan"]["ari"]
              for r in NOISE_READINGS}
    assert len(set(values.values())) == 3
    code, out, err = run(base, capsys)
    assert code == 0 and measures(out)["dbscan"]["ari"] == values["cluster"] and "noise" not in err


def test_a_table_file(tmp_path, capsys):
    table = tmp_path / "t.csv"
    pd.DataFrame([[5, 0, 2], [0, 4, 3]], index=["x", "y"], columns=["0", "1", "-1"]).to_csv(table)
    code, out, err = run(["score", "--table", table, "--noise", "-1", "--noise-as", "singletons", "--measures", "ari",
                          "--format", "json"], capsys)
    assert code == 0, err
    expected = metrics.MEASURES["ari"](metrics.Contingency.from_table([[5, 0, 1, 1, 0, 0, 0], [0, 4, 0, 0, 1, 1, 1]]))
    (got,) = measures(out).values()
    assert got["ari"] == pytest.approx(expected, rel=1e-12)


def test_bad_input_is_one_line(data, capsys, tmp_path):
    d, _, _ = data
    code, out, err = run(["score", d / "runs.csv", "--gold-col", "gold", "--pred-col", "dbscan",
                          "--noise-as", "exclude"], capsys)
    assert code == 2 and "--noise-as exclude needs --noise LABEL" in err and len(err.strip().splitlines()) == 1
    every = tmp_path / "all.csv"
    pd.DataFrame({"gold": ["a", "b"], "pred": ["-1", "-1"]}).to_csv(every, index=False)
    code, out, err = run(["score", every, "--noise", "-1", "--noise-as", "exclude"], capsys)
    assert code == 2 and out == "" and "every item is noise" in err and "Traceback" not in err
