"""The command line's conventions (issue 24): ``-`` is standard input, read once; JSON is strict in
every command (a value that is not a finite number is null, its reason beside it under
``why_null``); two files that share a column are never aligned by row silently.

Standard input is fed to the installed console script through a real pipe (a subprocess): that
is how a user's shell gives it, and how a pipe read twice was found empty before.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics import MEASURES, Contingency, evaluate
from tests.cli.test_cli import measures_of, run

EXE = Path(sys.executable).with_name("partition-lab")


def piped(argv, data: bytes, **kw) -> subprocess.CompletedProcess:
    """``… | partition-lab ARGV``: ``data`` written into a pipe by another process (``cat``)."""
    writer = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        proc = subprocess.Popen([str(EXE), *map(str, argv)], stdin=writer.stdout, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, **kw)
        assert writer.stdin is not None and writer.stdout is not None
        writer.stdout.close()  # the command holds the only reading end
        writer.stdin.write(data)
        writer.stdin.close()
        out, err = proc.communicate(timeout=120)
    finally:
        writer.wait(timeout=30)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out.decode(), err.decode())


@pytest.fixture(scope="module")
def labels(tmp_path_factory):
    d = tmp_path_factory.mktemp("conventions")
    rng = np.random.default_rng(24)
    n = 400
    gold = rng.choice(["a", "b", "c", "d"], size=n)
    pred = np.where(rng.random(n) < 0.7, np.char.add("k", gold), rng.choice(["k1", "k2"], size=n))
    df = pd.DataFrame({"id": [f"item{i:03d}" for i in range(n)], "gold": gold, "pred": pred})
    df.to_csv(d / "both.csv", index=False)
    df[["id", "gold"]].to_csv(d / "gold.csv", index=False)
    shuffled = df[["id", "pred"]].sample(frac=1.0, random_state=7)
    shuffled.to_csv(d / "pred.csv", index=False)
    return d, df, shuffled


# ---------------------------------------------------------------------- standard input
@pytest.mark.skipif(not EXE.exists(), reason="the console script is not installed")
def test_dash_reads_a_pipe_once_as_gold_pred_or_table(labels):
    d, df, _ = labels
    want = evaluate(Contingency.from_labels(df["gold"], df["pred"]), ["ari", "vi", "nmi_arithmetic"])
    text = (d / "both.csv").read_bytes()
    ok = piped(["score", "-", "--measures", "ari,vi,nmi_arithmetic", "--format", "json"], text)
    assert ok.returncode == 0, ok.stderr
    assert measures_of(ok.stdout) == want
    # gzip through the pipe, recognised by its content
    ok = piped(["score", "-", "--measures", "ari,vi,nmi_arithmetic", "--format", "json"], gzip.compress(text))
    assert ok.returncode == 0 and measures_of(ok.stdout) == want, ok.stderr
    # PRED from standard input, aligned with GOLD by id; its solution is named "stdin"
    ok = piped(["score", d / "gold.csv", "-", "--id-col", "id", "--measures", "ari,vi,nmi_arithmetic",
                "--format", "json"], (d / "pred.csv").read_bytes())
    assert ok.returncode == 0, ok.stderr
    assert list(json.loads(ok.stdout)["solutions"]) == ["stdin"] and measures_of(ok.stdout) == want
    # a contingency table
    table = Contingency.from_labels(df["gold"], df["pred"]).to_frame().to_csv().encode()
    ok = piped(["score", "--table", "-", "--measures", "ari,vi,nmi_arithmetic", "--format", "json"], table)
    assert ok.returncode == 0 and measures_of(ok.stdout) == pytest.approx(want, rel=1e-12), ok.stderr


@pytest.mark.skipif(not EXE.exists(), reason="the console script is not installed")
def test_dash_reads_parquet_and_a_redirected_file(labels, tmp_path):
    d, df, _ = labels
    want = evaluate(Contingency.from_labels(df["gold"], df["pred"]), ["ari"])
    buf = io.BytesIO()
    df[["gold", "pred"]].to_parquet(buf)
    ok = piped(["score", "-", "--measures", "ari", "--format", "json"], buf.getvalue())
    assert ok.returncode == 0 and measures_of(ok.stdout) == want, ok.stderr
    with open(d / "both.csv", "rb") as f:  # `partition-lab score - < both.csv`: a regular file as stdin
        ok = subprocess.run([EXE, "score", "-", "--measures", "ari", "--format", "json"], stdin=f,
                            capture_output=True, text=True, timeout=120, check=False)
    assert ok.returncode == 0 and measures_of(ok.stdout) == want, ok.stderr


@pytest.mark.skipif(not EXE.exists(), reason="the console script is not installed")
def test_dash_twice_an_empty_pipe_and_a_terminal_are_one_line_errors(labels):
    d, _, _ = labels
    bad = piped(["score", "-", "-"], (d / "both.csv").read_bytes())
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == "partition-lab: error: standard input (-) can be read only once: give '-' for one input only\n"
    bad = piped(["score", "-"], b"")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "standard input (-) is empty" in bad.stderr
    # Messages name standard input as such, never the temporary copy.
    bad = piped(["score", "-"], b"gold,pred\na,x\n,y\n")
    assert bad.returncode == 2 and "of standard input (-): add --dropna" in bad.stderr and "/tmp" not in bad.stderr
    primary, secondary = os.openpty()  # a terminal as standard input: refused, not waited on
    try:
        bad = subprocess.run([EXE, "score", "-"], stdin=secondary, capture_output=True, text=True, timeout=60,
                             check=False)
    finally:
        os.close(primary)
        os.close(secondary)
    assert bad.returncode == 2 and "standard input, which is a terminal here" in bad.stderr


# ---------------------------------------------------------------------- strict JSON
def _doc_is_strict(text: str) -> None:
    def refuse(constant):
        raise AssertionError(f"{constant} is not JSON")

    json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("preds", [["pred"], ["pred", "other"]])
def test_infinite_and_not_computed_values_are_null_with_the_reason_beside(tmp_path, capsys, preds):
    # No two items share a gold class while the clustering joins some: the Minkowski score is +inf.
    pd.DataFrame({"gold": list("abcd"), "pred": list("xxyy"), "other": list("xyzz")}).to_csv(
        tmp_path / "s.csv", index=False)
    code, out, err = run(["score", tmp_path / "s.csv", "--pred-col", ",".join(preds), "--measures",
                          "minkowski,ari", "--format", "json"], capsys)
    assert code == 0, err
    assert "Infinity" not in out and "NaN" not in out
    _doc_is_strict(out)
    doc = json.loads(out)
    value = evaluate(Contingency.from_labels(list("abcd"), list("xxyy")), ["minkowski"])["minkowski"]
    assert math.isinf(value)  # the library's value; the JSON cannot hold it
    sol = doc["solutions"]["pred"]
    assert sol["measures"]["minkowski"] is None and sol["measures"]["ari"] is not None
    assert sol["why_null"] == {"minkowski": "+inf: the value is infinite (JSON has no infinity)"}
    # CSV keeps the value (inf is read back by pandas, R and Python), the table shows ∞.
    code, out, _ = run(["score", tmp_path / "s.csv", "--pred-col", ",".join(preds), "--measures", "minkowski",
                        "--format", "csv"], capsys)
    assert pd.read_csv(io.StringIO(out), index_col="solution").at["pred", "minkowski"] == math.inf


def test_measures_json_is_strict_with_the_reason_beside_each_null(capsys):
    code, out, _ = run(["measures", "--format", "json"], capsys)
    assert code == 0
    _doc_is_strict(out)
    for record in json.loads(out):
        m = MEASURES[record["key"]]
        nulls = [b for b in record["bounds"] if b is None]
        assert len(nulls) == sum(math.isinf(b) for b in m.bounds)
        assert ("bounds" in record["why_null"]) == bool(nulls), record["key"]
    vi = next(r for r in json.loads(out) if r["key"] == "vi")
    assert vi["why_null"] == {"bounds": "unbounded above (+inf)"}


# ---------------------------------------------------------------------- files that share a column
def test_files_sharing_an_id_column_are_refused_without_id_col(labels, capsys):
    # The case: shuffled predictions that share an `id` column scored by row gave a
    # near-zero ARI with exit 0; by id it is the true value.
    d, df, shuffled = labels
    code, out, err = run(["score", d / "gold.csv", d / "pred.csv", "--measures", "ari"], capsys)
    assert code == 2 and out == ""
    assert err == (f"partition-lab: error: {d / 'gold.csv'} and {d / 'pred.csv'} share the column 'id': give "
                   "--id-col id to align their rows by it (or --by-row to align them by position, as they are)\n")
    true_ari = evaluate(Contingency.from_labels(df["gold"], df["pred"]), ["ari"])["ari"]
    code, out, err = run(["score", d / "gold.csv", d / "pred.csv", "--measures", "ari", "--format", "json",
                          "--id-col", "id"], capsys)
    assert code == 0 and measures_of(out)["ari"] == pytest.approx(true_ari, abs=1e-12)
    by_row = evaluate(Contingency.from_labels(df["gold"], shuffled["pred"]), ["ari"])["ari"]
    code, out, err = run(["score", d / "gold.csv", d / "pred.csv", "--measures", "ari", "--format", "json",
                          "--by-row"], capsys)
    assert code == 0 and measures_of(out)["ari"] == pytest.approx(by_row, abs=1e-12)
    assert abs(by_row - true_ari) > 0.3  # the test data does tell the two alignments apart
    # DuckDB counts the same refusal (the check is made before any engine reads).
    code, _, err = run(["score", d / "gold.csv", d / "pred.csv", "--engine", "duckdb"], capsys)
    assert code == 2 and "--id-col id" in err


def test_several_pred_files_or_columns_sharing_an_id_are_refused(labels, tmp_path, capsys):
    d, df, shuffled = labels
    other = df[["id", "gold"]].rename(columns={"gold": "pred"}).sample(frac=1.0, random_state=3)
    other.to_csv(tmp_path / "other.csv", index=False)
    code, _, err = run(["score", d / "gold.csv", d / "pred.csv", tmp_path / "other.csv"], capsys)
    assert code == 2 and "share the column 'id': give --id-col id" in err and err.count("\n") == 1
    code, out, err = run(["score", d / "gold.csv", d / "pred.csv", tmp_path / "other.csv", "--id-col", "id",
                          "--measures", "ari", "--format", "json"], capsys)
    assert code == 0, err
    assert json.loads(out)["solutions"]["other"]["measures"]["ari"] == pytest.approx(1.0)
    wide = shuffled.assign(p2=shuffled["pred"])
    wide.to_csv(tmp_path / "wide.csv", index=False)
    code, _, err = run(["score", d / "gold.csv", tmp_path / "wide.csv", "--pred-col", "pred,p2"], capsys)
    assert code == 2 and "--id-col id" in err


def test_files_sharing_only_their_label_column_are_aligned_by_row(tmp_path, capsys):
    pd.DataFrame({"label": list("aabbc")}).to_csv(tmp_path / "g.csv", index=False)
    pd.DataFrame({"label": list("xxyyy")}).to_csv(tmp_path / "p.csv", index=False)
    code, out, err = run(["score", tmp_path / "g.csv", tmp_path / "p.csv", "--measures", "ari", "--format", "json"],
                         capsys)
    assert code == 0, err
    assert measures_of(out) == evaluate(Contingency.from_labels(list("aabbc"), list("xxyyy")), ["ari"])
