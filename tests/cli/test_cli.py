"""The `partition-lab` command: values equal metrics.evaluate, errors are one line, exit 2.

Most tests call ``metrics.cli.main`` in-process (fast); one runs the installed
console script to check the entry point itself.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics import MEASURES, Contingency, cli, evaluate
from metrics import io as mio
from metrics.core.formatting import format_number

# Python argument names must never reach a command-line user: messages name options instead.
PYTHON_NAMES = re.compile(r"\b(dropna|na_values|id_col|pred_paths|log_base|gold_col|pred_col|engine|header)\s*=|"
                          r"\b(na_values|id_col|pred_paths|log_base|gold_col|pred_col)\b")


def run(argv, capsys):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def measures_of(out: str) -> dict:
    """The measures of the one solution of a `score --format json` output."""
    (sol,) = json.loads(out)["solutions"].values()
    return sol["measures"]


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
    # One solution is one record of "solutions", as several are, named as several would be: its
    # column in a file holding both, PRED's file name, the table file's name.
    (name, sol), = doc["solutions"].items()
    assert name == ("found" if "two.parquet" in args else "table" if "--table" in args else "pred")
    assert (doc["n"], doc["classes"], sol["n"], sol["classes"], sol["clusters"]) == (table.n, table.shape[0],
                                                                                     table.n, *table.shape)
    want = evaluate(table)
    assert list(sol["measures"]) == list(want) == list(sol["ranks"])
    assert set(sol["ranks"].values()) == {1} and sol["why_null"] == {} and doc["why_null"] == {}
    for key, value in want.items():
        assert math.isclose(sol["measures"][key], value, rel_tol=1e-12, abs_tol=1e-12), key


def test_options_reach_evaluate(data, capsys):
    d, table = data
    keys = ["vi", "mutual_info", "v_measure", "nmi_max"]
    code, out, _ = run(["score", d / "both.csv", "--measures", ",".join(keys), "--log-base", "2",
                        "--beta", "2.5", "--format", "json"], capsys)
    assert code == 0
    got = measures_of(out)
    assert got == evaluate(table, keys, log_base=2.0, beta=2.5)
    nats = evaluate(table, ["vi"])["vi"]
    assert got["vi"] == pytest.approx(nats / math.log(2))  # bits, not nats
    code, out, _ = run(["score", d / "both.csv", "--measures", "vi", "--log-base", "e", "--format", "json"], capsys)
    assert measures_of(out)["vi"] == nats


def test_csv_and_table_formats_are_one_row_per_solution(data, capsys, monkeypatch):
    d, table = data
    want = evaluate(table, ["ari", "bcubed_f", "purity"])
    code, out, _ = run(["score", d / "both.csv", "--measures", "ari,bcubed_f,purity", "--format", "csv"], capsys)
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0 and rows[0] == ["solution", *want] and len(rows) == 2  # one solution: one row
    assert rows[1][0] == "pred" and [float(v) for v in rows[1][1:]] == list(want.values())  # repr round-trips
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(["score", d / "both.csv", "--measures", "ari,bcubed_f,purity"], capsys)
    lines = out.splitlines()
    assert lines[0].startswith(f"# {table.n} items, {table.shape[0]} classes; 1 solution — clusters: pred "
                               f"{table.shape[1]}; log base e")
    split = [re.split(r"\s{2,}", line.strip()) for line in lines[1:]]
    assert split[0] == ["solution", *want]
    assert split[1] == ["better", *(MEASURES[k].direction for k in want)]
    # The one number format of the project (4 significant digits), computed from the value.
    assert split[2] == ["pred", *(format_number(v) for v in want.values())] and len(lines) == 4
    assert [float(v) for v in split[2][1:]] == pytest.approx(list(want.values()), rel=1e-3)


def test_narrow_table_wraps_measures_into_blocks_keeping_rows_solutions(data, capsys, monkeypatch):
    d, table = data
    want = evaluate(table)
    monkeypatch.setenv("COLUMNS", "60")
    code, out, _ = run(["score", d / "both.csv"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert all(len(line) <= 60 for line in lines[1:])
    blocks = "\n".join(lines[1:]).split("\n\n")
    assert len(blocks) > 1
    seen = []
    for block in blocks:
        rows = [re.split(r"\s{2,}", line.strip()) for line in block.splitlines()]
        assert [r[0] for r in rows] == ["solution", "better", "pred"]
        for key, text in zip(rows[0][1:], rows[2][1:]):
            assert text == format_number(want[key])
        seen += rows[0][1:]
    assert seen == list(want)


def test_fractional_table_skips_integer_only_measures(tmp_path, capsys):
    (tmp_path / "fuzzy.csv").write_text(",k1,k2\nc1,1.5,0.5\nc2,0,2\n")
    code, out, err = run(["score", "--table", tmp_path / "fuzzy.csv", "--format", "json"], capsys)
    assert code == 0, err
    t = Contingency.from_table([[1.5, 0.5], [0, 2]])
    assert measures_of(out) == evaluate(t)
    assert "ami" not in measures_of(out)
    code, _, err = run(["score", "--table", tmp_path / "fuzzy.csv", "--measures", "ami"], capsys)
    assert code == 2 and "ami is not defined for this table" in err


def test_large_input_uses_duckdb_with_progress(data, capsys, monkeypatch):
    d, table = data
    monkeypatch.setattr(mio, "DUCKDB_THRESHOLD_BYTES", 1)
    monkeypatch.setattr(cli.score, "PROGRESS_BYTES", 1)
    code, out, err = run(["score", d / "both.csv", "--format", "json", "--measures", "ari"], capsys)
    assert code == 0
    assert measures_of(out) == evaluate(table, ["ari"])  # stdout stays pure JSON
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
    (["score", "both.csv", "--log-base", "1"], "argument --log-base: the log base must be a number above 1"),
    (["score", "both.csv", "--log-base", "ten"], "log base must be a number or 'e'"),
    (["score", "both.csv", "--beta", "-1"], "argument --beta: must be a positive finite number"),
    (["score", "both.csv", "--format", "xml"], "invalid choice: 'xml'"),
    (["score"], "give a GOLD file"),
    (["score", "both.csv", "--id-col", "item"], "--id-col aligns two files"),
    (["score", "both.csv", "--table", "table.csv"], "give no GOLD/PRED files"),
    (["score", "gold.txt", "pred.tsv", "--no-header", "--pred-col", "2"], "has 600 rows but"),
    (["score", "gold.tsv", "holes.csv", "--id-col", "item"], "have no partner with the same 'item'"),
    (["score", "gold.tsv", "holes.csv", "--id-col", "item"], "add --dropna to leave them out"),
    (["score", "holes.csv", "--engine", "duckdb"], "1 item(s) have a missing label"),
    (["score", "holes.csv"], "1 item(s) have a missing label (gold: 1, pred: 0; an empty cell), first at data row 2 "
                             "of"),
    (["score", "holes.csv"], "add --dropna to leave those items out"),
    (["score", "holes.csv", "--engine", "duckdb"], "first at data row 2 of"),
    (["score", "na.csv", "--na-values", "NA,null"], "add --dropna to leave those items out, or fill in the labels "
                                                    "(or leave texts out of --na-values)"),
    (["score", "na.csv", "--na-values", "NA,null", "--engine", "duckdb"], "first at data rows 2, 4 of"),
    (["score", "allmissing.csv", "--dropna"], "the table holds no items"),
    (["score", "allmissing.csv", "--dropna", "--engine", "duckdb"], "the table holds no items"),
    (["score", "--table", "zeros.csv"], "the table holds no items"),
    (["score", "wide.csv"], "name the label columns with --gold-col and --pred-col"),
    (["score", "empty.csv"], "is empty"),
    (["score", "excel.csv"], "is a ZIP archive (an Excel .xlsx"),
    (["score", "excel.csv", "--engine", "duckdb"], "save it as 'CSV UTF-8'"),
    (["score", "latin1.csv"], "is not UTF-8 text"),
    (["score", "latin1.csv", "--engine", "duckdb"], "save it as UTF-8"),
    (["score", "ragged.csv"], "line 3 has 3 fields where the first line has 2 (a ragged file)"),
    (["score", "ragged.csv", "--engine", "duckdb"], "line 3 has 3 fields where the first line has 2 (a ragged file)"),
    (["score", "labels.xlsx"], "is a ZIP archive"),
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
    (d / "latin1.csv").write_bytes("gold,pred\ncafé,1\nthé,2\n".encode("latin-1"))
    (d / "na.csv").write_text("gold,pred\na,x\nNA,x\nb,y\nb,null\n")
    (d / "allmissing.csv").write_text("gold,pred\n,x\na,\n")
    (d / "zeros.csv").write_text(",k1,k2\nc1,0,0\nc2,0,0\n")
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
    assert not PYTHON_NAMES.search(err), err


def test_console_script_entry_point(data):
    d, table = data
    exe = Path(sys.executable).with_name("partition-lab")
    assert exe.exists(), "the [project.scripts] entry point is not installed"
    ok = subprocess.run([exe, "score", d / "both.csv", "--measures", "nvi", "--format", "json"],
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and measures_of(ok.stdout) == evaluate(table, ["nvi"])
    bad = subprocess.run([exe, "score", d / "nothing-here.parquet"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


# ---------------------------------------------------------------------- the reader's rules on the command line
def test_na_texts_are_labels_unless_na_values_names_them(tmp_path, capsys):
    p = tmp_path / "na.csv"
    p.write_text("gold,pred\na,x\nNA,x\nNA,y\nb,null\nb,y\n")
    for engine in ("pandas", "duckdb"):
        code, out, err = run(["score", p, "--format", "json", "--engine", engine], capsys)
        assert code == 0, err
        # "NA" is a class and "null" a cluster, as written.
        want = Contingency.from_labels(["a", "NA", "NA", "b", "b"], ["x", "x", "y", "null", "y"])
        assert measures_of(out) == evaluate(want)
        code, out, err = run(["score", p, "--format", "json", "--engine", engine, "--na-values", "NA,null",
                              "--dropna"], capsys)
        assert code == 0, err
        assert measures_of(out) == evaluate(Contingency.from_labels(["a", "b"], ["x", "y"]))
        code, out, err = run(["score", p, "--engine", engine, "--na-values", "NA,null"], capsys)
        assert code == 2 and out == ""
        assert ("3 item(s) have a missing label (gold: 2, pred: 1; an empty cell or a text treated as missing "
                "('NA', 'null')), first at data rows 2, 3, 4 of") in err
        assert not PYTHON_NAMES.search(err), err


def test_an_all_zero_table_is_refused_not_scored_perfect(tmp_path, capsys):
    for name, text in [("zeros.csv", ",k1,k2\nc1,0,0\nc2,0,0\n"), ("zeros.tsv", "\tk1\nc1\t0\n")]:
        (tmp_path / name).write_text(text)
        code, out, err = run(["score", "--table", tmp_path / name], capsys)
        assert (code, out) == (2, "")
        assert err == f"partition-lab: error: {tmp_path / name}: the table holds no items (every cell is 0)\n"
    # The library still builds (and scores) such a table when asked to, by its documented convention.
    assert Contingency.from_table([[0, 0], [0, 0]]).n == 0


def test_table_output_uses_the_one_number_format(tmp_path, capsys):
    # 1,234 items: counts with thousands separators, values with 4 significant digits.
    gold = ["a"] * 1000 + ["b"] * 234
    pred = ["x"] * 900 + ["y"] * 100 + ["y"] * 200 + ["x"] * 34
    pd.DataFrame({"gold": gold, "pred": pred}).to_csv(tmp_path / "l.csv", index=False)
    code, out, _ = run(["score", tmp_path / "l.csv", "--measures", "vi,ari,mirkin", "--log-base", "2",
                        "--beta", "2.5"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "# 1,234 items, 2 classes; 1 solution — clusters: pred 2; log base 2, β = 2.5"
    want = evaluate(Contingency.from_labels(gold, pred), ["vi", "ari", "mirkin"], log_base=2, beta=2.5)
    keys, _, values = (re.split(r"\s{2,}", line.strip()) for line in lines[1:4])
    shown = dict(zip(keys[1:], values[1:]))
    assert values[0] == "pred" and shown == {k: format_number(v) for k, v in want.items()}
    assert "," in shown["mirkin"]  # a pair count above 1,000 is grouped


def test_notes_say_where_content_overrides_the_name(tmp_path, capsys):
    p = tmp_path / "labels.csv"
    p.write_text("gold\tpred\na\tx\nb\ty\n")  # a TSV named .csv
    code, out, err = run(["score", p, "--format", "json"], capsys)
    assert code == 0
    assert err == f"partition-lab: note: {p} is tab-separated, not comma-separated as its name says: read as TSV\n"
    assert json.loads(out)["n"] == 2
    code, out, err = run(["score", p, "--format", "json", "--quiet"], capsys)
    assert code == 0 and err == ""


@pytest.mark.parametrize("encoding, bom", [("utf-8", b""), ("utf-8", b"\xef\xbb\xbf"), ("utf-16-le", b"\xff\xfe"),
                                           ("utf-16-be", b"\xfe\xff")])
def test_encodings_give_the_same_scores_in_both_engines(tmp_path, capsys, encoding, bom):
    text = "gold,pred\nçà,x\nçà,y\n日本,y\nNA,x\n"
    p = tmp_path / "enc.csv"
    p.write_bytes(bom + text.encode(encoding))
    want = evaluate(Contingency.from_labels(["çà", "çà", "日本", "NA"], ["x", "y", "y", "x"]))
    for engine in ("pandas", "duckdb"):
        code, out, err = run(["score", p, "--format", "json", "--engine", engine], capsys)
        assert code == 0, err
        assert measures_of(out) == want


# ---------------------------------------------------------------------- hostile inputs (issue 29)
def test_a_stray_quote_is_refused_by_both_engines_not_half_counted(tmp_path, capsys):
    """DuckDB counted the rows before a stray quote and exited 0 (n = 3,000,000 of 6,000,000)."""
    p = tmp_path / "big_quote.csv"
    p.write_bytes(b"gold,pred\n" + b"c1,c0\n" * 50_000 + b'"c3,c0\n' + b"c2,c0\n" * 50_000)
    errors = set()
    for engine in ("auto", "pandas", "duckdb"):
        code, out, err = run(["score", p, "--format", "json", "--engine", engine, "--quiet"], capsys)
        assert code == 2 and out == "" and err.count("\n") == 1, (engine, out, err)
        errors.add(err)
    assert errors == {f"partition-lab: error: {p}: the quote that opens a cell on line 50,002 is never closed "
                      "(everything after it would be one cell, up to the end of the file): close it, or remove it\n"}


def test_the_engine_is_chosen_by_the_size_of_the_text_not_of_the_file(tmp_path, capsys):
    """40 MiB of text in 40 kB of gzip: pandas was chosen by the 40 kB (a 1 MB file holding 1 GiB
    took 6 GB); the decompressed size, streamed and counted, chooses DuckDB."""
    import gzip

    p = tmp_path / "bomb.csv.gz"
    p.write_bytes(gzip.compress(b"gold,pred\n" + b"a,x\n" * (10 * 2**20), 9))
    assert p.stat().st_size < 100_000
    assert mio.content_size(p) == 10 + 4 * 10 * 2**20
    assert mio.content_size(p, stop_after=2**20) < 20 * 2**20  # streamed no further than needed
    code, out, err = run(["score", p, "--format", "json", "--measures", "ari"], capsys)
    assert code == 0 and json.loads(out)["n"] == 10 * 2**20
    assert "MiB of text with duckdb" in err


@pytest.mark.parametrize("how", ["stdin", "substitution"])
def test_a_pipe_is_read_once(tmp_path, how):
    """/dev/stdin and <(…) were "empty": the reader opened them twice."""
    p = tmp_path / "both.csv"
    p.write_text("gold,pred\na,x\na,x\nb,y\nb,x\n")
    exe = str(Path(sys.executable).with_name("partition-lab"))
    if how == "stdin":
        result = subprocess.run([exe, "score", "/dev/stdin", "--format", "json"], input=p.read_bytes(),
                                capture_output=True, timeout=120)
    else:
        result = subprocess.run(["bash", "-c", f'"{exe}" score <(cat "{p}") --format json'], capture_output=True,
                                timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["n"] == 4


def test_a_pipe_keeps_its_name_in_messages_and_as_a_solution(tmp_path):
    exe = str(Path(sys.executable).with_name("partition-lab"))
    g, p1, p2 = tmp_path / "g.csv", tmp_path / "p1.csv", tmp_path / "p2.csv"
    g.write_text("gold\na\na\nb\nb\n")
    p1.write_text("pred\nx\nx\ny\ny\n")
    p2.write_text("pred\nx\ny\nx\n\n")  # a missing label in row 4
    result = subprocess.run(["bash", "-c", f'"{exe}" score "{g}" <(cat "{p1}") <(cat "{p2}") --format json'],
                            capture_output=True, timeout=120, text=True)
    assert result.returncode == 2
    assert "/dev/fd/" in result.stderr and "partition-lab-input" not in result.stderr, result.stderr


def test_a_fifo_without_a_writer_is_refused_not_waited_for(tmp_path, capsys, monkeypatch):
    import importlib
    import os

    streams = importlib.import_module("metrics.io.sniff")

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    monkeypatch.setattr(streams, "PIPE_WAIT_S", 0.5)
    code, out, err = run(["score", fifo], capsys)
    assert code == 2 and out == ""
    assert err == (f"partition-lab: error: {fifo}: nothing was written to it in 0.5 s (a pipe or FIFO that no "
                   "program writes to?): start the program that writes it, or save the data to a file and give that\n")


def test_a_table_file_with_a_class_named_twice_is_refused(tmp_path, capsys):
    """Two rows named ``a`` were scored as two classes (the editor refuses them: one rule)."""
    p = tmp_path / "dup.csv"
    p.write_text(",x,y\na,1,1\na,2,3\n")
    code, out, err = run(["score", "--table", p], capsys)
    assert code == 2 and out == ""
    assert err == (f"partition-lab: error: {p}: class name 'a' is given to rows 1 and 2: give each class its own name "
                   "(or add their counts up into one row)\n")
    p.write_text(",x,x\na,1,1\nb,2,3\n")
    code, _, err = run(["score", "--table", p], capsys)
    assert code == 2 and "'x' appears twice in the header" in err


def test_csv_output_writes_formula_like_names_as_text(tmp_path, capsys):
    """A solution named ``=cmd|' /C calc'!A0`` was written verbatim: a spreadsheet runs it."""
    p = tmp_path / "runs.csv"
    names = ["=cmd|' /C calc'!A0", "@x", "+SUM(1;2)", "-1", "a-b"]
    pd.DataFrame({"gold": list("aabb"), **{n: list("xxyy") for n in names}}).to_csv(p, index=False)
    code, out, err = run(["score", p, "--pred-col", ",".join(names), "--format", "csv", "--measures", "ari"], capsys)
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert [r[0] for r in rows[1:]] == ["'=cmd|' /C calc'!A0", "'@x", "'+SUM(1;2)", "-1", "a-b"]
    assert all(float(r[1]) == 1.0 for r in rows[1:])


def test_a_busy_port_fails_at_once_in_one_line(tmp_path):
    """The server found out after its 8 s warm-up; now before it."""
    import socket
    import time

    exe = str(Path(sys.executable).with_name("partition-lab"))
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        start = time.monotonic()
        result = subprocess.run([exe, "app", "--server.port", str(port)], capture_output=True, text=True, timeout=60)
        took = time.monotonic() - start
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"partition-lab: error: port {port} on 127.0.0.1 is not free")
    assert result.stderr.count("\n") == 1
    assert took < 5, took  # no warm-up (about 8 s) before the refusal
