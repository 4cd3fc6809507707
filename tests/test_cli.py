"""The `partition-lab` command: values equal metrics.evaluate, errors are one line, exit 2.

Most tests call ``metrics.cli.main`` in-process (fast); one runs the installed
console script to check the entry point itself.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics import MEASURES, Contingency, evaluate
from metrics import cli
from metrics import io as mio


def run(argv, capsys):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    rng = np.random.default_rng(11)
    n = 600
    gold = rng.choice(["red", "green", "blue", "cyan"], size=n)
    pred = np.where(rng.random(n) < 0.6, np.char.add("c-", gold), rng.choice(["p", "q"], size=n))
    df = pd.DataFrame({"item": [f"i{i}" for i in range(n)], "gold": gold, "pred": pred})
    df.to_csv(d / "both.csv", index=False)
    df[["gold", "pred"]].rename(columns={"gold": "truth", "pred": "found"}).to_parquet(d / "two.parquet")
    df[["item", "gold"]].to_csv(d / "gold.tsv", sep="\t", index=False)
    df[["item", "pred"]].sample(frac=1.0, random_state=2).to_csv(d / "pred.tsv", sep="\t", index=False)
    df[["gold"]].to_csv(d / "gold.txt", index=False, header=False)
    df[["pred"]].to_csv(d / "pred.txt", index=False, header=False)
    table = Contingency.from_labels(gold.tolist(), pred.tolist())
    table.to_frame().to_csv(d / "table.csv")
    return d, table


@pytest.mark.parametrize("args", [
    ["both.csv"],                                              # columns named gold/pred
    ["two.parquet"],                                           # the only two columns
    ["both.csv", "--gold-col", "gold", "--pred-col", "pred", "--engine", "duckdb"],
    ["gold.tsv", "pred.tsv", "--id-col", "item"],              # joined by id (pred shuffled)
    ["gold.tsv", "pred.tsv", "--id-col", "item", "--engine", "duckdb"],
    ["gold.txt", "pred.txt", "--no-header"],                   # one label per line, aligned by row
    ["--table", "table.csv"],
])
def test_score_json_equals_evaluate(data, capsys, args):
    d, table = data
    argv = ["score"] + [d / a if a.endswith((".csv", ".tsv", ".txt", ".parquet")) else a for a in args]
    code, out, err = run(argv + ["--format", "json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert (doc["n"], doc["classes"], doc["clusters"]) == (table.n, *table.shape)
    want = evaluate(table)
    assert list(doc["measures"]) == list(want)
    for key, value in want.items():
        assert math.isclose(doc["measures"][key], value, rel_tol=1e-12, abs_tol=1e-12), key


def test_options_reach_evaluate(data, capsys):
    d, table = data
    keys = ["vi", "mutual_info", "v_measure", "nmi_max"]
    code, out, _ = run(["score", d / "both.csv", "--measures", ",".join(keys), "--log-base", "2",
                        "--beta", "2.5", "--format", "json"], capsys)
    assert code == 0
    got = json.loads(out)["measures"]
    assert got == evaluate(table, keys, log_base=2.0, beta=2.5)
    nats = evaluate(table, ["vi"])["vi"]
    assert got["vi"] == pytest.approx(nats / math.log(2))  # bits, not nats
    code, out, _ = run(["score", d / "both.csv", "--measures", "vi", "--log-base", "e", "--format", "json"], capsys)
    assert json.loads(out)["measures"]["vi"] == nats


def test_csv_and_table_formats(data, capsys):
    d, table = data
    want = evaluate(table, ["ari", "bcubed_f", "purity"])
    code, out, _ = run(["score", d / "both.csv", "--measures", "ari,bcubed_f,purity", "--format", "csv"], capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["key"] for r in rows] == list(want)
    assert {r["key"]: float(r["value"]) for r in rows} == want  # repr round-trips exactly
    assert rows[0]["name"] == MEASURES["ari"].name
    code, out, _ = run(["score", d / "both.csv", "--measures", "ari,bcubed_f,purity"], capsys)
    lines = out.splitlines()
    assert lines[0].startswith(f"# {table.n} items, {table.shape[0]} classes, {table.shape[1]} clusters")
    for key, line in zip(want, lines[2:]):
        fields = re.split(r"\s{2,}", line.strip())  # columns are separated by 2+ spaces
        assert fields == [key, MEASURES[key].name, fields[2], MEASURES[key].range_text, MEASURES[key].direction]
        assert float(fields[2]) == pytest.approx(want[key], rel=1e-5)


def test_fractional_table_skips_integer_only_measures(tmp_path, capsys):
    (tmp_path / "fuzzy.csv").write_text(",k1,k2\nc1,1.5,0.5\nc2,0,2\n")
    code, out, err = run(["score", "--table", tmp_path / "fuzzy.csv", "--format", "json"], capsys)
    assert code == 0, err
    t = Contingency.from_table([[1.5, 0.5], [0, 2]])
    assert json.loads(out)["measures"] == evaluate(t)
    assert "ami" not in json.loads(out)["measures"]
    code, _, err = run(["score", "--table", tmp_path / "fuzzy.csv", "--measures", "ami"], capsys)
    assert code == 2 and "ami is not defined for this table" in err


def test_large_input_uses_duckdb_with_progress(data, capsys, monkeypatch):
    d, table = data
    monkeypatch.setattr(mio, "DUCKDB_THRESHOLD_BYTES", 1)
    monkeypatch.setattr(cli, "PROGRESS_BYTES", 1)
    code, out, err = run(["score", d / "both.csv", "--format", "json", "--measures", "ari"], capsys)
    assert code == 0
    assert json.loads(out)["measures"] == evaluate(table, ["ari"])  # stdout stays pure JSON
    assert "with duckdb" in err and "scanning 100%" in err and "computing measures" in err
    code, out, err = run(["score", d / "both.csv", "--format", "json", "--measures", "ari", "--quiet"], capsys)
    assert code == 0 and err == ""
    # Small inputs: pandas, and no progress chatter.
    monkeypatch.undo()
    code, out, err = run(["score", d / "both.csv", "--measures", "ari"], capsys)
    assert code == 0 and err == ""


def test_measures_lists_the_registry(capsys):
    code, out, _ = run(["measures", "--format", "json"], capsys)
    doc = json.loads(out)
    assert code == 0 and [m["key"] for m in doc] == list(MEASURES)
    vi = next(m for m in doc if m["key"] == "vi")
    assert vi["bounds"] == [0.0, None] and vi["direction"] == "lower"
    code, out, _ = run(["measures"], capsys)
    assert [line.split()[0] for line in out.splitlines()[1:]] == list(MEASURES)


BAD = [
    (["score", "missing.csv"], "file not found"),
    (["score", "both.csv", "--gold-col", "label"], "has no column 'label'; its columns: item, gold, pred"),
    (["score", "both.csv", "--measures", "ari,nope"], "unknown measure key(s) ['nope']"),
    (["score", "both.csv", "--log-base", "1"], "log_base must be a number above 1"),
    (["score", "both.csv", "--log-base", "ten"], "log base must be a number or 'e'"),
    (["score", "both.csv", "--beta", "-1"], "beta must be a positive finite number"),
    (["score", "both.csv", "--format", "xml"], "invalid choice: 'xml'"),
    (["score"], "give a GOLD file"),
    (["score", "both.csv", "--id-col", "item"], "--id-col aligns two files"),
    (["score", "both.csv", "--table", "table.csv"], "give no GOLD/PRED files"),
    (["score", "gold.txt", "pred.tsv", "--no-header", "--pred-col", "2"], "has 600 rows but"),
    (["score", "gold.tsv", "holes.csv", "--id-col", "item"], "have no partner with the same 'item'"),
    (["score", "holes.csv", "--engine", "duckdb"], "1 item(s) have a missing label"),
    (["score", "holes.csv"], "1 item(s) have a missing label"),
    (["score", "wide.csv"], "name the label columns with --gold-col and --pred-col"),
    (["score", "empty.csv"], "is empty"),
    (["score", "excel.csv"], "not UTF-8 text"),
    (["score", "excel.csv", "--engine", "duckdb"], "not UTF-8 text"),
    (["score", "ragged.csv"], "malformed CSV"),
    (["score", "ragged.csv", "--engine", "duckdb"], "DuckDB could not read the input"),
    (["score", "labels.xlsx"], "cannot tell the format"),
    (["score", "--table", "badtable.csv"], "is not a number"),
    (["score", "--table", "negtable.csv"], "negative cells"),
    (["bogus"], "invalid choice: 'bogus'"),
]


@pytest.mark.parametrize("argv, message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_one_line_exit_2(data, capsys, argv, message):
    d, _ = data
    (d / "holes.csv").write_text("item,gold,pred\ni0,red,x\ni1,,y\n")
    (d / "wide.csv").write_text("a,b,c\n1,2,3\n")
    (d / "empty.csv").write_text("")
    (d / "excel.csv").write_bytes(b"PK\x03\x04\x14\x00\x06\x00" + bytes(range(128, 256)) * 20)
    (d / "ragged.csv").write_text("gold,pred\na,b\nc,d,e\n")
    (d / "labels.xlsx").write_bytes(b"PK\x03\x04")
    (d / "badtable.csv").write_text(",k1\nc1,lots\n")
    (d / "negtable.csv").write_text(",k1\nc1,-1\n")
    argv = [str(d / a) if (d / a).exists() or a.endswith(".csv") else a for a in argv]
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("partition-lab")
    assert message in err
    assert "Traceback" not in err


def test_console_script_entry_point(data):
    d, table = data
    exe = Path(sys.executable).with_name("partition-lab")
    assert exe.exists(), "the [project.scripts] entry point is not installed"
    ok = subprocess.run([exe, "score", d / "both.csv", "--measures", "nvi", "--format", "json"],
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and json.loads(ok.stdout)["measures"] == evaluate(table, ["nvi"])
    bad = subprocess.run([exe, "score", d / "nothing-here.parquet"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


# ---------------------------------------------------------------------- app
def test_app_command_runs_streamlit_on_the_installed_app(monkeypatch, tmp_path):
    cmd = cli.app_command(["--server.port", "8600"])
    assert cmd[:4] == [sys.executable, "-m", "streamlit", "run"]
    assert Path(cmd[4]) == cli.dashboard_app_path() and cmd[4].endswith(os.path.join("dashboard", "app.py"))
    assert cmd[cmd.index("--server.address") + 1] == "127.0.0.1"
    assert cmd[cmd.index("--browser.gatherUsageStats") + 1] == "false"
    assert cmd[-2:] == ["--server.port", "8600"]
    # The user's own address wins (no duplicate option).
    assert cli.app_command(["--server.address", "0.0.0.0"]).count("--server.address") == 1

    calls = []
    fake_app = tmp_path / "app.py"
    fake_app.write_text("")
    monkeypatch.setattr(cli, "dashboard_app_path", lambda: fake_app)
    monkeypatch.setattr(cli.subprocess, "call", lambda c: calls.append(c) or 0)
    assert cli.main(["app", "--server.headless", "true"]) == 0
    assert calls and calls[0][4] == str(fake_app) and calls[0][-2:] == ["--server.headless", "true"]


def test_app_without_dashboard_is_a_clear_error(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(cli, "dashboard_app_path", lambda: tmp_path / "nowhere" / "app.py")
    code, _, err = run(["app"], capsys)
    assert code == 2 and "the dashboard is not installed" in err and err.count("\n") == 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(not cli.dashboard_app_path().is_file(), reason="dashboard/app.py not written yet")
def test_app_serves_the_dashboard(tmp_path):
    port = _free_port()
    exe = Path(sys.executable).with_name("partition-lab")
    log = open(tmp_path / "server.log", "w")
    proc = subprocess.Popen([exe, "app", "--server.port", str(port), "--server.headless", "true",
                             "--server.fileWatcherType", "none"], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline, body = time.time() + 60, ""
        while time.time() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                    body = r.read().decode()
                    break
            except OSError:
                time.sleep(0.5)
        assert body == "ok", (tmp_path / "server.log").read_text()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()
