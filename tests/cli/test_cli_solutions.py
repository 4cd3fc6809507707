"""Several solutions on the command line (`partition-lab score FILE --pred-col p1,p2,p3`, or one file per
solution) and the reader's aligner behind it (``metrics.io.solution_columns``).

Every printed value must be ``metrics.compare_solutions`` of the same labels (exactly: JSON and CSV
round-trip floats), every rank ``rank_solutions``; bad input is one line on stderr, exit 2, in the
words of the command line.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics import MEASURES, Contingency, compare_solutions, evaluate, rank_solutions
from metrics import io as mio
from metrics.core.formatting import format_number
from tests.cli.test_cli import run

PYTHON_NAMES = re.compile(r"\b(dropna|na_values|id_col|pred_paths|log_base|gold_col|pred_col|engine|header)\s*=|"
                          r"\b(na_values|id_col|pred_paths|log_base|gold_col|pred_col|solution_columns|"
                          r"compare_solutions)\b|Traceback|Error\b")
KEYS = ["ari", "vi", "v_measure", "purity", "bcubed_f", "nvi"]
NAMES = ["p1", "p2", "p3"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("solutions")
    rng = np.random.default_rng(5)
    n = 500
    gold = rng.choice(["red", "green", "blue", "cyan"], size=n)
    p1 = np.where(rng.random(n) < 0.8, np.char.add("c-", gold), "noise")          # close to gold
    p2 = rng.choice(["a", "b", "c", "d", "e", "f"], size=n)                      # chance
    p3 = np.where(np.isin(gold, ["red", "green"]), "warm", "cold")               # merged classes
    df = pd.DataFrame({"item": [f"i{i}" for i in range(n)], "gold": gold, "p1": p1, "p2": p2, "p3": p3})
    df.to_csv(d / "all.csv", index=False)
    df.drop(columns="item").to_parquet(d / "all.parquet")
    df[["item", "gold"]].to_csv(d / "gold.tsv", sep="\t", index=False)
    for i, name in enumerate(NAMES):
        part = df[["item", name]].rename(columns={name: "pred"}).sample(frac=1.0, random_state=i)
        part.to_csv(d / f"{name}.tsv", sep="\t", index=False)            # shuffled: aligned by id only
        df[[name]].to_csv(d / f"{name}.txt", index=False, header=False)  # aligned by row
    df[["gold"]].to_csv(d / "gold.txt", index=False, header=False)
    return d, df


def want(df: pd.DataFrame, keys=None, names=NAMES, **kw) -> pd.DataFrame:
    return compare_solutions(df["gold"], df[list(names)], keys, **kw)


# ---------------------------------------------------------------------- output shapes and values
def test_json_has_every_solution_with_compare_solutions_values_and_ranks(data, capsys):
    d, df = data
    code, out, err = run(["score", d / "all.csv", "--gold-col", "gold", "--pred-col", "p1,p2,p3",
                          "--format", "json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    frame = want(df)
    ranks = rank_solutions(frame)
    assert list(doc["solutions"]) == NAMES
    assert (doc["n"], doc["classes"], doc["left_out"]) == (len(df), 4, 0)
    for name in NAMES:
        sol = doc["solutions"][name]
        table = Contingency.from_labels(df["gold"], df[name])
        assert (sol["n"], sol["classes"], sol["clusters"]) == (table.n, *table.shape)
        assert list(sol["measures"]) == list(MEASURES)  # every measure, registry order
        assert sol["measures"] == frame.loc[name].to_dict()  # exactly compare_solutions
        assert sol["ranks"] == {k: int(r) for k, r in ranks.loc[name].items()}
        # …and the same numbers as scoring that column alone (another table build: last-digit slack).
        alone = evaluate(table)
        assert all(math.isclose(sol["measures"][k], v, rel_tol=1e-12, abs_tol=1e-12) for k, v in alone.items())
    assert doc["solutions"]["p1"]["ranks"]["ari"] == 1 and doc["solutions"]["p2"]["ranks"]["v_measure"] == 3


def test_csv_is_solutions_by_measures_at_full_precision(data, capsys):
    d, df = data
    code, out, err = run(["score", d / "all.parquet", "--pred-col", "p1,p2,p3", "--measures", ",".join(KEYS),
                          "--format", "csv"], capsys)
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["solution", *KEYS]
    frame = want(df, KEYS)
    assert [r[0] for r in rows[1:]] == NAMES
    for r in rows[1:]:
        assert [float(v) for v in r[1:]] == frame.loc[r[0]].tolist()  # repr round-trips exactly


def test_table_is_solutions_by_measures_with_the_one_format_and_the_best(data, capsys, monkeypatch):
    # The table has the CSV's shape (rows = solutions, columns = measures), not its transpose.
    d, df = data
    monkeypatch.setenv("COLUMNS", "200")
    code, out, err = run(["score", d / "all.csv", "--pred-col", "p1,p2,p3", "--measures", ",".join(KEYS)], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == (f"# {format_number(len(df))} items, 4 classes; 3 solutions — clusters: p1 5, p2 6, p3 2; "
                        "log base e, β = 1")
    rows = [re.split(r"\s{2,}", line.strip()) for line in lines[1:]]
    assert rows[0] == ["solution", *KEYS]
    assert rows[1] == ["better", *(MEASURES[k].direction for k in KEYS)]
    frame = want(df, KEYS)
    ranks = rank_solutions(frame)
    for name, row in zip(NAMES, rows[2:5]):
        # the best solution by a measure is starred
        assert row == [name, *(format_number(frame.at[name, k]) + ("*" if ranks.at[name, k] == 1 else "")
                               for k in KEYS)]
    assert lines[6] == "# * the best of the 3 solutions by that measure (tied solutions share it)"
    assert len(lines) == 7


def test_options_reach_compare_solutions(data, capsys):
    d, df = data
    code, out, _ = run(["score", d / "all.csv", "--pred-col", "p1,p3", "--measures", "vi,v_measure,mutual_info",
                        "--log-base", "2", "--beta", "2.5", "--format", "json"], capsys)
    assert code == 0
    frame = want(df, ["vi", "v_measure", "mutual_info"], names=["p1", "p3"], log_base=2.0, beta=2.5)
    doc = json.loads(out)
    assert (doc["log_base"], doc["beta"]) == (2.0, 2.5)
    for name in ("p1", "p3"):
        assert doc["solutions"][name]["measures"] == frame.loc[name].to_dict()


@pytest.mark.parametrize("layout", ["by id, shuffled", "by row, no header"])
def test_one_file_per_solution(data, capsys, layout):
    d, df = data
    if layout == "by id, shuffled":
        argv = ["score", d / "gold.tsv", *(d / f"{n}.tsv" for n in NAMES), "--id-col", "item"]
    else:
        argv = ["score", d / "gold.txt", *(d / f"{n}.txt" for n in NAMES), "--no-header"]
    code, out, err = run(argv + ["--measures", ",".join(KEYS), "--format", "json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert list(doc["solutions"]) == NAMES  # named by their file names
    frame = want(df, KEYS)
    for name in NAMES:
        assert doc["solutions"][name]["measures"] == frame.loc[name].to_dict()


def test_files_with_the_same_name_in_two_folders_are_named_by_path(data, tmp_path, capsys):
    _d, df = data
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    df[["p1"]].to_csv(tmp_path / "a" / "run.csv", index=False)
    df[["p2"]].to_csv(tmp_path / "b" / "run.csv", index=False)
    df[["gold"]].to_csv(tmp_path / "gold.csv", index=False)
    paths = [tmp_path / "a" / "run.csv", tmp_path / "b" / "run.csv"]
    code, out, err = run(["score", tmp_path / "gold.csv", *paths, "--measures", "ari", "--format", "json"], capsys)
    assert code == 0, err
    doc = json.loads(out)["solutions"]
    assert list(doc) == [str(p) for p in paths]
    assert doc[str(paths[0])]["measures"]["ari"] == want(df, ["ari"]).at["p1", "ari"]


def test_one_solution_has_the_shape_of_several(data, capsys):
    d, df = data
    code, out, err = run(["score", d / "all.csv", "--gold-col", "gold", "--pred-col", "p1", "--format", "json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    several = json.loads(run(["score", d / "all.csv", "--gold-col", "gold", "--pred-col", "p1,p2", "--format",
                              "json"], capsys)[1])
    assert list(doc) == list(several) and list(doc["solutions"]) == ["p1"]
    assert list(doc["solutions"]["p1"]) == list(several["solutions"]["p1"])
    assert doc["solutions"]["p1"]["measures"] == evaluate(
        mio.contingency_from_files(d / "all.csv", "gold", "p1", engine="pandas"))
    # CSV: the same header, one row.
    one = run(["score", d / "all.csv", "--pred-col", "p1", "--format", "csv", "--measures", "ari,vi"], capsys)[1]
    two = run(["score", d / "all.csv", "--pred-col", "p1,p2", "--format", "csv", "--measures", "ari,vi"], capsys)[1]
    assert one.splitlines() == two.splitlines()[:2]
    # A column whose name holds a comma is one column, not a list of solutions.
    frame = pd.DataFrame({"gold": df["gold"], "a,b": df["p1"]})
    frame.to_csv(d / "comma.csv", index=False)
    code, out, err = run(["score", d / "comma.csv", "--pred-col", "a,b", "--format", "json"], capsys)
    assert code == 0, err
    assert json.loads(out)["solutions"]["a,b"]["measures"] == doc["solutions"]["p1"]["measures"]


def test_dropna_leaves_an_item_out_of_every_solution(data, tmp_path, capsys):
    _d, df = data
    holes = df.copy()
    holes.loc[3, "p2"] = ""
    holes.loc[10, "gold"] = ""
    holes.to_csv(tmp_path / "holes.csv", index=False)
    code, out, err = run(["score", tmp_path / "holes.csv", "--pred-col", "p1,p2,p3", "--measures", "ari,vi"], capsys)
    assert code == 2 and out == ""
    assert err == (f"partition-lab: error: 2 item(s) have a missing label (gold: 1, p2: 1; an empty cell), first at "
                   f"data rows 4, 11 of {tmp_path / 'holes.csv'}: add --dropna to leave those items out, or fill in "
                   "the labels\n")
    code, out, err = run(["score", tmp_path / "holes.csv", "--pred-col", "p1,p2,p3", "--measures", "ari,vi",
                          "--dropna", "--format", "json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    kept = df.drop(index=[3, 10]).reset_index(drop=True)
    assert (doc["n"], doc["left_out"]) == (len(df) - 2, 2)
    for name in NAMES:
        assert doc["solutions"][name]["measures"] == want(kept, ["ari", "vi"]).loc[name].to_dict()
    code, out, _ = run(["score", tmp_path / "holes.csv", "--pred-col", "p1,p2,p3", "--measures", "ari", "--dropna"],
                       capsys)
    assert out.startswith(f"# {format_number(len(df) - 2)} items (2 left out: a missing label), 4 classes;")


def test_a_measure_not_computed_is_null_and_a_dash(data, capsys, monkeypatch):
    d, _df = data
    measure = type(MEASURES["ari"])
    original = measure.why_not
    monkeypatch.setattr(measure, "why_not", lambda self, t: "over budget" if self.key == "ari" and t.shape[1] == 6
                        else original(self, t))
    code, out, err = run(["score", d / "all.csv", "--pred-col", "p1,p2", "--measures", "ari,vi", "--format", "json"],
                         capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["solutions"]["p2"]["measures"]["ari"] is None and doc["solutions"]["p2"]["ranks"]["ari"] is None
    # The reason sits beside the null, in the solution's record.
    assert doc["solutions"]["p2"]["why_null"] == {"ari": "not computed: over budget"}
    assert doc["solutions"]["p1"]["why_null"] == {}
    code, out, err = run(["score", d / "all.csv", "--pred-col", "p1,p2", "--measures", "ari,vi"], capsys)
    assert code == 0, err
    p2_line = next(line for line in out.splitlines() if line.startswith("p2"))
    assert re.split(r"\s{2,}", p2_line.strip())[1] == "—"
    assert out.splitlines()[-1] == "# — ari not computed for p2: over budget"
    code, out, err = run(["score", d / "all.csv", "--pred-col", "p1,p2", "--measures", "ari,vi", "--format", "csv"],
                         capsys)
    assert out.splitlines()[2].split(",")[1] == ""
    assert err == "partition-lab: note: ari not computed for p2: over budget\n"  # CSV has no place for it


# ---------------------------------------------------------------------- bad input: one line, exit 2, CLI words
BAD = [
    (["score", "all.csv", "--pred-col", "p1,p9"], "has no column 'p9'; its columns: item, gold, p1, p2, p3"),
    (["score", "all.csv", "--pred-col", "p1,p2", "--gold-col", "truth"], "has no column 'truth'"),
    (["score", "all.csv", "--pred-col", "p1,p1"], "--pred-col names 'p1' twice"),
    (["score", "gold.tsv", "p1.tsv", "p1.tsv", "--id-col", "item"], "PRED file"),
    (["score", "gold.tsv", "p1.tsv", "p1.tsv", "--id-col", "item"], "is given twice"),
    (["score", "all.csv", "--pred-col", "gold,p1", "--gold-col", "gold"], "--gold-col gold is also in --pred-col"),
    (["score", "all.csv", "--pred-col", "p1,p2", "--id-col", "item"], "--id-col aligns two files"),
    (["score", "gold.txt", "p1.txt", "short.txt", "--no-header"], "solution 'short': "),
    (["score", "gold.txt", "p1.txt", "short.txt", "--no-header"], "has 3 rows but"),
    (["score", "gold.tsv", "p1.tsv", "partial.tsv", "--id-col", "item"], "have no partner with the same 'item'"),
    (["score", "gold.tsv", "p1.tsv", "partial.tsv", "--id-col", "item"], "add --dropna to leave them out"),
    (["score", "gold.tsv", "p1.tsv", "twice.tsv", "--id-col", "item"], "id column 'item' is not unique in"),
    (["score", "gold.tsv", "p1.tsv", "holes.tsv", "--id-col", "item"],
     "1 item(s) have a missing label (gold: 0, holes: 1; an empty cell), first at data row 2"),
    (["score", "gold.tsv", "p1.tsv", "holes.tsv", "--id-col", "item"], "add --dropna to leave those items out"),
    (["score", "gold.tsv", "p1.tsv", "p2.tsv", "--pred-col", "a,b", "--id-col", "item"],
     "with several PRED files, --pred-col names the one label column each file holds"),
    (["score", "gold.tsv", "p1.tsv", "p2.tsv", "--id-col", "item", "--engine", "duckdb"],
     "several solutions are compared on their labels in memory: leave --engine out"),
    (["score", "all.csv", "--pred-col", "p1,p2", "--dask", "tcp://127.0.0.1:1"], "score several solutions without it"),
    (["score", "gold.tsv", "p1.tsv", "nowhere.tsv"], "file not found"),
    (["score", "gold.tsv", "p?.tsv", "p1.tsv", "--id-col", "item"], "matches 3 files"),
    (["score", "all.csv", "--pred-col", "p1,p2", "--measures", "ari,nope"], "unknown measure key(s) ['nope']"),
    (["score", "wide.csv", "--pred-col", "b,c"], "name the gold column with --gold-col"),
    (["score", "all.csv", "--pred-col", "p1,p2", "--table", "all.csv"], "give no GOLD/PRED files"),
]


@pytest.mark.parametrize("argv, message", BAD, ids=[" ".join(a) + " → " + m for a, m in BAD])
def test_bad_input_is_one_line_exit_2(data, capsys, argv, message):
    d, df = data
    df[["p1"]].head(3).to_csv(d / "short.txt", index=False, header=False)
    df[["item", "p2"]].head(100).rename(columns={"p2": "pred"}).to_csv(d / "partial.tsv", sep="\t", index=False)
    twice = df[["item", "p2"]].rename(columns={"p2": "pred"})
    pd.concat([twice, twice.head(1)]).to_csv(d / "twice.tsv", sep="\t", index=False)
    holes = df[["item", "p3"]].rename(columns={"p3": "pred"})
    holes.loc[1, "pred"] = ""
    holes.to_csv(d / "holes.tsv", sep="\t", index=False)
    (d / "wide.csv").write_text("a,b,c,e\n1,2,3,4\n")
    argv = [str(d / a) if "." in a and not a.startswith(("-", "tcp:")) and "," not in a else a for a in argv]
    code, out, err = run(argv, capsys)
    assert code == 2, err
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("partition-lab: error: ")
    assert message in err
    assert not PYTHON_NAMES.search(err), err


# ---------------------------------------------------------------------- the aligner: metrics.io.solution_columns
def _labels(text: str, name: str, na=()) -> mio.LabelColumns:
    return mio.read_labels(text.encode(), name=name, na_values=na)


def test_aligner_by_id_follows_the_gold_order():
    gold = _labels("id,gold\n1,a\n2,a\n3,b\n4,c\n", "g.csv")
    p = _labels("id,pred\n4,z\n2,y\n1,x\n3,w\n", "p.csv")
    q = _labels("id,k\n3,1\n1,1\n2,2\n4,2\n", "q.csv")
    sc = mio.solution_columns(gold, "gold", [("p", p, "pred"), ("q", q, "k")], id_col="id")
    assert sc.gold.tolist() == ["a", "a", "b", "c"]
    assert sc.solutions["p"].tolist() == ["x", "y", "w", "z"]
    assert sc.solutions["q"].tolist() == ["1", "2", "1", "2"]
    assert sc.rows.tolist() == [1, 2, 3, 4] and sc.left_out == 0 and sc.names == ["p", "q"]


def test_aligner_unmatched_ids_and_dropna_keep_the_common_items():
    gold = _labels("id,gold\n1,a\n2,a\n3,b\n4,c\n", "g.csv")
    p = _labels("id,pred\n4,z\n2,y\n9,v\n", "p.csv")
    with pytest.raises(mio.UnmatchedIdsError) as exc:
        mio.solution_columns(gold, "gold", [("p", p, "pred")], id_col="id")
    assert (exc.value.gold, exc.value.pred, exc.value.pred_source) == (2, 1, "p.csv")
    sc = mio.solution_columns(gold, "gold", [("p", p, "pred")], id_col="id", dropna=True)
    assert sc.gold.tolist() == ["a", "c"] and sc.solutions["p"].tolist() == ["y", "z"]
    assert sc.rows.tolist() == [2, 4] and sc.left_out == 2


def test_aligner_missing_labels_name_each_solution_and_its_file():
    gold = _labels("id,gold\n1,a\n2,\n3,b\n", "g.csv")
    p = _labels("id,pred\n3,\n1,x\n2,y\n", "p.csv")
    q = _labels("id,pred\n1,NA\n2,y\n3,y\n", "q.csv", na=("NA",))
    with pytest.raises(mio.MissingLabelsError) as exc:  # the interfaces' handlers catch the base class
        mio.solution_columns(gold, "gold", [("p", p, "pred"), ("q", q, "pred")], id_col="id")
    e = exc.value
    assert isinstance(e, mio.MissingSolutionLabelsError)
    assert (e.items, e.gold) == (3, 1)
    assert e.solutions == {"p": (1, (1,), "p.csv"), "q": (1, (1,), "q.csv")}
    assert e.describe() == ("3 item(s) have a missing label (gold: 1, p: 1, q: 1; an empty cell), first at data row 2 "
                            "of g.csv (gold) and data row 1 of p.csv (p) and data row 1 of q.csv (q)")
    assert "dropna=True" in str(e)
    with pytest.raises(mio.EmptyTableError, match="the table holds no items"):  # every item misses one somewhere
        mio.solution_columns(gold, "gold", [("p", p, "pred"), ("q", q, "pred")], id_col="id", dropna=True)
    sc = mio.solution_columns(gold, "gold", [("p", p, "pred")], id_col="id", dropna=True)
    assert (sc.gold.tolist(), sc.solutions["p"].tolist(), sc.left_out) == (["a"], ["x"], 2)


def test_aligner_refuses_what_cannot_be_aligned():
    lc = _labels("gold,p1,p2\na,x,1\nb,y,2\n", "t.csv")
    with pytest.raises(ValueError, match="no solution given"):
        mio.solution_columns(lc, "gold", [])
    with pytest.raises(ValueError, match="'p1' is given twice"):
        mio.solution_columns(lc, "gold", [("p1", lc, "p1"), ("p1", lc, "p2")])
    with pytest.raises(ValueError, match="is the gold column 'gold' itself"):
        mio.solution_columns(lc, "gold", [("g", lc, "gold")])
    with pytest.raises(ValueError, match=r"t.csv has no column 'p3'"):
        mio.solution_columns(lc, "gold", [("p3", lc, "p3")])
    other = _labels("p\nx\ny\nz\n", "o.csv")
    with pytest.raises(ValueError, match=r"o.csv has 3 rows but t.csv has 2"):
        mio.solution_columns(lc, "gold", [("o", other, "p")])
    with pytest.raises(mio.EmptyTableError):
        mio.solution_columns(_labels("gold,p\n,x\na,\n", "e.csv"), "gold",
                             [("p", _labels("gold,p\n,x\na,\n", "e.csv"), "p")], dropna=True)


cells = st.sampled_from(["a", "b", "c", ""])


@given(st.lists(st.tuples(cells, cells, cells), min_size=1, max_size=30))
def test_aligner_dropna_is_dropping_rows_with_an_empty_cell_anywhere(rows):
    text = "gold,p1,p2\n" + "".join(f"{g},{x},{y}\n" for g, x, y in rows)
    lc = _labels(text, "h.csv")
    full = [r for r in rows if "" not in r]
    if not full:
        with pytest.raises(mio.EmptyTableError):
            mio.solution_columns(lc, "gold", [("p1", lc, "p1"), ("p2", lc, "p2")], dropna=True)
        return
    sc = mio.solution_columns(lc, "gold", [("p1", lc, "p1"), ("p2", lc, "p2")], dropna=True)
    assert list(zip(sc.gold, sc.solutions["p1"], sc.solutions["p2"])) == full
    assert sc.rows.tolist() == [i + 1 for i, r in enumerate(rows) if "" not in r]
    assert sc.left_out == len(rows) - len(full)
    if len(full) < len(rows):
        with pytest.raises(mio.MissingSolutionLabelsError) as exc:
            mio.solution_columns(lc, "gold", [("p1", lc, "p1"), ("p2", lc, "p2")])
        assert exc.value.items == len(rows) - len(full)
        assert exc.value.gold == sum(r[0] == "" for r in rows)
        assert {k: v[0] for k, v in exc.value.solutions.items()} == {
            k: c for k, c in (("p1", sum(r[1] == "" for r in rows)), ("p2", sum(r[2] == "" for r in rows))) if c}


def test_an_infinite_label_is_named_with_its_row(tmp_path, capsys):
    pd.DataFrame({"gold": [1.0, 2.0, 2.0], "p1": [1.0, 2.0, float("-inf")], "p2": [0.0, 0.0, 1.0]}).to_parquet(
        tmp_path / "inf.parquet")
    code, out, err = run(["score", tmp_path / "inf.parquet", "--pred-col", "p1,p2"], capsys)
    assert (code, out) == (2, "")
    assert err == (f"partition-lab: error: solution 'p1': {tmp_path / 'inf.parquet'} has an infinite label (-inf) at "
                   "data row 3: labels must be finite numbers or text\n")
