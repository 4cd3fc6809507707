"""metrics.io: label files (pandas and DuckDB engines), table files, Dask.

Every engine must give the table ``Contingency.from_labels`` gives on the same
labels: checked through every measure's value, so a swapped row or a lost item shows.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import textwrap
import types

import numpy as np
import pandas as pd
import pytest

from metrics import Contingency, evaluate
from metrics import io as mio

ENGINES = ["pandas", "duckdb"]


def same_measures(t1: Contingency, t2: Contingency) -> None:
    assert t1.n == t2.n and t1.shape == t2.shape
    a, b = evaluate(t1), evaluate(t2)
    for key in a:
        assert a[key] == pytest.approx(b[key], rel=1e-12, abs=1e-12), key


@pytest.fixture(scope="module")
def labels():
    rng = np.random.default_rng(7)
    n = 2_000
    gold = rng.choice(["a", "b", "c", "d", "01", "1"], size=n)
    # Predicted clusters correlated with the classes, so a misalignment changes every score.
    pred = np.where(rng.random(n) < 0.7, np.char.add("k", gold), rng.choice(["x", "y", "z"], size=n))
    return pd.DataFrame({"id": np.arange(n).astype(str), "gold": gold, "pred": pred})


@pytest.fixture(scope="module")
def reference(labels):
    return Contingency.from_labels(labels["gold"].tolist(), labels["pred"].tolist())


@pytest.fixture(scope="module")
def files(tmp_path_factory, labels):
    d = tmp_path_factory.mktemp("labels")
    labels.to_csv(d / "both.csv", index=False)
    labels.to_csv(d / "both.tsv", sep="\t", index=False)
    labels.to_csv(d / "both.csv.gz", index=False)
    labels.to_parquet(d / "both.parquet", index=False)
    for i, start in enumerate(range(0, len(labels), 700)):
        labels.iloc[start:start + 700].to_parquet(d / f"shard-{i}.parquet", index=False)
    labels[["id", "gold"]].to_csv(d / "gold.csv", index=False)
    labels[["id", "pred"]].to_csv(d / "pred.csv", index=False)
    # Same items, another order: only an id join can pair them.
    labels[["id", "pred"]].sample(frac=1.0, random_state=3).to_csv(d / "pred_shuffled.csv", index=False)
    labels[["gold", "pred"]].to_csv(d / "noheader.tsv", sep="\t", index=False, header=False)
    return d


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", ["both.csv", "both.tsv", "both.csv.gz", "both.parquet", "shard-*.parquet"])
def test_one_source_matches_from_labels(files, reference, engine, name):
    t = mio.contingency_from_files(files / name if "*" not in name else str(files / name),
                                   "gold", "pred", engine=engine)
    same_measures(t, reference)


@pytest.mark.parametrize("engine", ENGINES)
def test_two_files_by_row_and_by_id(files, reference, engine):
    by_row = mio.contingency_from_files(files / "gold.csv", "gold", "pred", pred_paths=files / "pred.csv",
                                        engine=engine)
    same_measures(by_row, reference)
    by_id = mio.contingency_from_files(files / "gold.csv", "gold", "pred", pred_paths=files / "pred_shuffled.csv",
                                       id_col="id", engine=engine)
    same_measures(by_id, reference)
    # Aligning the shuffled file by row pairs the wrong items: the scores must change.
    wrong = mio.contingency_from_files(files / "gold.csv", "gold", "pred", pred_paths=files / "pred_shuffled.csv",
                                       engine=engine)
    assert evaluate(wrong, "v_measure")["v_measure"] < evaluate(reference, "v_measure")["v_measure"] - 0.1


@pytest.mark.parametrize("engine", ENGINES)
def test_headerless_columns_are_numbered(files, reference, engine):
    t = mio.contingency_from_files(files / "noheader.tsv", "1", "2", header=False, engine=engine)
    same_measures(t, reference)


@pytest.mark.parametrize("engine", ENGINES)
def test_csv_labels_are_text(tmp_path, engine):
    # "01", "1" and "1.0" are different labels in the file, so different classes.
    p = tmp_path / "t.csv"
    p.write_text("gold,pred\n01,a\n1,a\n1.0,b\n1,b\n")
    t = mio.contingency_from_files(p, engine=engine)
    assert t.shape == (3, 2)
    assert sorted(map(str, t.row_labels)) == ["01", "1", "1.0"]


@pytest.mark.parametrize("engine", ENGINES)
def test_missing_labels_error_or_dropna(tmp_path, engine):
    p = tmp_path / "m.csv"
    p.write_text('gold,pred\na,x\n,x\nb,\nb,y\n"",y\na,x\n')
    with pytest.raises(ValueError, match=r"3 item\(s\) have a missing label \(gold: 2, pred: 1"):
        mio.contingency_from_files(p, engine=engine)
    t = mio.contingency_from_files(p, engine=engine, dropna=True)
    same_measures(t, Contingency.from_labels(["a", "b", "a"], ["x", "y", "x"]))


@pytest.mark.parametrize("engine", ENGINES)
def test_nan_and_null_in_parquet_are_missing(tmp_path, engine):
    p = tmp_path / "f.parquet"
    pd.DataFrame({"gold": [1.0, np.nan, 2.0, 2.0], "pred": pd.array([1, 1, None, 3], dtype="Int64")}).to_parquet(p)
    with pytest.raises(ValueError, match=r"2 item\(s\) have a missing label \(gold: 1, pred: 1"):
        mio.contingency_from_files(p, engine=engine)
    t = mio.contingency_from_files(p, engine=engine, dropna=True)
    same_measures(t, Contingency.from_labels([1.0, 2.0], [1, 3]))


@pytest.mark.parametrize("engine", ENGINES)
def test_id_join_problems(tmp_path, engine):
    g, p, dup = tmp_path / "g.csv", tmp_path / "p.csv", tmp_path / "dup.csv"
    g.write_text("id,gold\n1,a\n2,b\n3,a\n,b\n")
    p.write_text("id,pred\n3,x\n1,x\n2,y\n9,z\n")
    dup.write_text("id,pred\n1,x\n1,y\n2,y\n3,x\n")
    with pytest.raises(ValueError, match=r"1 row\(s\) of .*g.csv and 1 row\(s\) of .*p.csv have no partner"):
        mio.contingency_from_files(g, "gold", "pred", pred_paths=p, id_col="id", engine=engine)
    t = mio.contingency_from_files(g, "gold", "pred", pred_paths=p, id_col="id", engine=engine, dropna=True)
    same_measures(t, Contingency.from_labels(["a", "b", "a"], ["x", "y", "x"]))
    with pytest.raises(ValueError, match=r"id column 'id' is not unique in .*dup.csv"):
        mio.contingency_from_files(g, "gold", "pred", pred_paths=dup, id_col="id", engine=engine, dropna=True)


@pytest.mark.parametrize("engine", ENGINES)
def test_length_mismatch_by_row(tmp_path, engine):
    g, p = tmp_path / "g.csv", tmp_path / "p.csv"
    g.write_text("gold\na\nb\nc\n")
    p.write_text("pred\nx\ny\n")
    with pytest.raises(ValueError, match=r"has 3 rows but .* has 2"):
        mio.contingency_from_files(g, "gold", "pred", pred_paths=p, engine=engine)


BAD_FILES = {
    "empty.csv": b"",
    "header_only.csv": b"gold,pred\n",
    "binary.csv": bytes(range(256)) * 8,
    "excel.csv": b"PK\x03\x04\x14\x00\x06\x00\x08\x00" + b"\x00\xff\xfe" * 200,
    "ragged.csv": b"gold,pred\na,x\nb,y,extra,more\nc,z\n",
    "broken.parquet": b"PAR1 this is not parquet",
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_unreadable_files_raise_valueerror(tmp_path, engine, name):
    p = tmp_path / name
    p.write_bytes(BAD_FILES[name])
    with pytest.raises(ValueError) as info:
        mio.contingency_from_files(p, "gold", "pred", engine=engine)
    assert "\n" not in str(info.value).strip()


def test_file_errors(tmp_path, files):
    with pytest.raises(FileNotFoundError, match="file not found"):
        mio.contingency_from_files(tmp_path / "nope.csv")
    with pytest.raises(FileNotFoundError, match="no file matches"):
        mio.contingency_from_files(str(tmp_path / "*.parquet"))
    with pytest.raises(ValueError, match=r"x.xlsx is a ZIP archive \(an Excel .xlsx .*save it as 'CSV UTF-8'"):
        (tmp_path / "x.xlsx").write_bytes(b"PK\x03\x04" + bytes(60))  # what every .xlsx starts with
        mio.contingency_from_files(tmp_path / "x.xlsx")
    with pytest.raises(ValueError, match=r"has no column 'label'; its columns: id, gold, pred"):
        mio.contingency_from_files(files / "both.csv", "label", "pred")
    with pytest.raises(ValueError, match="engine must be"):
        mio.contingency_from_files(files / "both.csv", engine="spark")
    with pytest.raises(ValueError, match="id_col aligns two sources"):
        mio.contingency_from_files(files / "both.csv", id_col="id")


def test_duckdb_progress_reports_fractions(files, reference):
    seen = []
    t = mio.contingency_from_files(files / "both.parquet", progress=seen.append)
    same_measures(t, reference)
    assert seen and seen[-1] == 1.0 and all(0.0 <= f <= 1.0 for f in seen)


def test_duckdb_labels_are_sorted_and_typed(tmp_path):
    p = tmp_path / "typed.parquet"
    pd.DataFrame({"gold": [3, 1, 2, 1], "pred": ["b", "a", "b", "c"]}).to_parquet(p)
    t = mio.contingency_from_files(p)
    assert list(t.row_labels) == [1, 2, 3] and list(t.col_labels) == ["a", "b", "c"]
    assert t.to_frame().loc[1, "a"] == 1 and t.to_frame().loc[2, "b"] == 1


# ---------------------------------------------------------------------- table files
def test_table_file_roundtrip(tmp_path):
    t = Contingency.from_table([[5, 0, 1], [0, 7, 2]], row_labels=["cats", "dogs"], col_labels=["k1", "k2", "k3"])
    t.to_frame().to_csv(tmp_path / "t.csv")
    t.to_frame().to_csv(tmp_path / "t.tsv", sep="\t")
    t.to_frame().to_parquet(tmp_path / "t.parquet")
    for name in ["t.csv", "t.tsv", "t.parquet"]:
        back = mio.contingency_from_table_file(tmp_path / name)
        assert list(back.row_labels) == ["cats", "dogs"] and list(back.col_labels) == ["k1", "k2", "k3"]
        assert back.is_integer
        np.testing.assert_array_equal(back.to_dense(), t.to_dense())


def test_table_file_plain_grid_and_fractions(tmp_path):
    (tmp_path / "g.csv").write_text("3,0\n0.5,2.5\n")
    t = mio.contingency_from_table_file(tmp_path / "g.csv", header=False)
    np.testing.assert_allclose(t.to_dense(), [[3, 0], [0.5, 2.5]])
    assert not t.is_integer
    # With a numeric header row, a numeric first column is counts, not class names.
    (tmp_path / "h.csv").write_text("0,1\n4,0\n0,4\n")
    assert mio.contingency_from_table_file(tmp_path / "h.csv").shape == (2, 2)


@pytest.mark.parametrize("text, message", [
    ("a,b\n1,-2\n3,4\n", "negative"),
    (",k1,k2\nc1,1,\nc2,3,4\n", r"the cell in column 'k2', row 1 is empty: write 0"),
    (",k1,k2\nc1,1,many\nc2,3,4\n", r"cell 'many' \(column 'k2', row 1\) is not a number"),
    ("", "is empty"),
    ("a,b\n", "no table rows"),
])
def test_table_file_errors(tmp_path, text, message):
    p = tmp_path / "bad.csv"
    p.write_text(text)
    with pytest.raises(ValueError, match=message):
        mio.contingency_from_table_file(p)


# ---------------------------------------------------------------------- optional dependencies
def test_core_imports_without_duckdb_and_dask(tmp_path):
    (tmp_path / "l.csv").write_text("gold,pred\na,x\nb,y\n")
    code = textwrap.dedent(f"""
        import sys
        import metrics, metrics.io, metrics.cli
        print(sorted({{"duckdb", "dask", "distributed"}} & set(sys.modules)))  # nothing loaded eagerly
        for name in ("duckdb", "dask", "distributed"):
            sys.modules[name] = None  # as if not installed: importing them raises ImportError
        t = metrics.io.contingency_from_files({str(tmp_path / 'l.csv')!r}, engine="pandas")
        assert t.shape == (2, 2)
        try:
            metrics.io.contingency_from_files({str(tmp_path / 'l.csv')!r}, engine="duckdb")
        except ImportError as exc:
            print(exc)
        try:
            metrics.io.contingency_from_dask(object(), "gold", "pred")
        except ImportError as exc:
            print(exc)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "[]"
    assert len(lines) == 3 and all("pip install 'partition-lab[io]'" in line for line in lines[1:])
    assert "'duckdb'" in lines[1] and "'dask'" in lines[2]


# ---------------------------------------------------------------------- Dask on a multi-process cluster
@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    # Spawned workers re-run the parent's __main__; AppTest (earlier in a full run) leaves its
    # script there. Start them from an empty __main__ instead.
    main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                           dashboard_address=None, worker_dashboard_address=None)
    finally:
        sys.modules["__main__"] = main
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()
    # The worker processes started multiprocessing's resource tracker; it would outlive the suite.
    from multiprocessing import resource_tracker

    if getattr(resource_tracker._resource_tracker, "_pid", None) is not None:
        resource_tracker._resource_tracker._stop()


def test_dask_matches_from_labels(dask_client, labels, reference):
    dd = pytest.importorskip("dask.dataframe")
    ddf = dd.from_pandas(labels, npartitions=6)
    # Both workers take part: the count really is distributed.
    assert len(dask_client.scheduler_info()["workers"]) == 2
    t = mio.contingency_from_dask(ddf, "gold", "pred")
    same_measures(t, reference)


def test_dask_id_join_and_missing(dask_client, labels, reference):
    dd = pytest.importorskip("dask.dataframe")
    g = dd.from_pandas(labels[["id", "gold"]], npartitions=3)
    p = dd.from_pandas(labels[["id", "pred"]].sample(frac=1.0, random_state=1), npartitions=4)
    same_measures(mio.contingency_from_dask(g, "gold", "pred", pred_ddf=p, id_col="id"), reference)

    extra = pd.concat([labels[["id", "pred"]], pd.DataFrame({"id": ["0"], "pred": ["x"]})])
    with pytest.raises(ValueError, match=r"id column 'id' is not unique"):
        mio.contingency_from_dask(g, "gold", "pred", pred_ddf=dd.from_pandas(extra, npartitions=2), id_col="id")

    holes = labels.copy()
    holes.loc[[3, 10, 11], "gold"] = None
    holes.loc[[10, 20], "pred"] = np.nan
    ddf = dd.from_pandas(holes, npartitions=4)
    with pytest.raises(ValueError, match=r"4 item\(s\) have a missing label \(gold: 3, pred: 2"):
        mio.contingency_from_dask(ddf, "gold", "pred")
    kept = holes.dropna(subset=["gold", "pred"])
    same_measures(mio.contingency_from_dask(ddf, "gold", "pred", dropna=True),
                  Contingency.from_labels(kept["gold"].tolist(), kept["pred"].tolist()))
    with pytest.raises(ValueError, match="has no column 'label'"):
        mio.contingency_from_dask(ddf, "label", "pred")
    with pytest.raises(ValueError, match="do not align by row"):
        mio.contingency_from_dask(g, "gold", "pred", pred_ddf=p)


def test_cli_dask_scheduler(dask_client, files, reference, capsys):
    from metrics.cli import main

    address = dask_client.scheduler.address
    assert main(["score", str(files / "shard-*.parquet"), "--dask", address, "--format", "json", "--quiet"]) == 0
    (sol,) = json.loads(capsys.readouterr().out)["solutions"].values()  # one solution: one record
    got, want = sol["measures"], evaluate(reference)
    assert got.keys() == want.keys()
    assert all(math.isclose(got[k], want[k], rel_tol=1e-12, abs_tol=1e-12) for k in want)
    rc = main(["score", str(files / "gold.csv"), str(files / "pred_shuffled.csv"), "--id-col", "id",
               "--dask", address, "--format", "json", "--quiet", "--measures", "v_measure,ari"])
    (sol,) = json.loads(capsys.readouterr().out)["solutions"].values()
    assert rc == 0 and sol["measures"] == pytest.approx(evaluate(reference, ["v_measure", "ari"]), rel=1e-12)


def test_dask_follows_the_readers_missing_rule(dask_client, tmp_path):
    dd = pytest.importorskip("dask.dataframe")
    df = pd.DataFrame({"gold": ["a", "NA", "", "b", "b", None], "pred": ["x", "x", "y", "null", "y", "y"]})
    ddf = dd.from_pandas(df, npartitions=3)
    with pytest.raises(mio.MissingLabelsError) as info:
        mio.contingency_from_dask(ddf, "gold", "pred")
    e = info.value
    assert (e.items, e.gold, e.pred, e.gold_rows, e.pred_rows) == (2, 2, 0, (3, 6), ())  # rows across partitions
    want = mio.contingency_from_columns(df["gold"], df["pred"], dropna=True)
    assert mio.contingency_from_dask(ddf, "gold", "pred", dropna=True).to_frame().equals(want.to_frame())
    with pytest.raises(mio.MissingLabelsError) as info:
        mio.contingency_from_dask(ddf, "gold", "pred", na_values=["NA", "null"])
    e = info.value
    assert (e.items, e.gold_rows, e.pred_rows, e.na_values) == (4, (2, 3, 6), (4,), ("NA", "null"))
    # Joined by id: each frame's rows, among the matched ids.
    g = dd.from_pandas(pd.DataFrame({"id": ["1", "2", "3", "4"], "gold": ["a", "", "b", None]}), npartitions=2)
    p = dd.from_pandas(pd.DataFrame({"id": ["4", "3", "2", "1"], "pred": ["x", "", "y", "x"]}), npartitions=2)
    with pytest.raises(mio.MissingLabelsError) as info:
        mio.contingency_from_dask(g, "gold", "pred", pred_ddf=p, id_col="id")
    e = info.value
    assert (e.items, e.gold, e.pred, e.gold_rows, e.pred_rows) == (3, 2, 1, (2, 4), (2,))
    # Files read by the workers: sniffed like read_labels (a UTF-16 TSV named .csv).
    path = tmp_path / "u16.csv"
    path.write_bytes(b"\xff\xfe" + "gold\tpred\nNA\tx\nb\t\nb\ty\n".encode("utf-16-le"))
    t = mio.contingency_from_dask(mio.read_dask(str(path), ["gold", "pred"]), "gold", "pred", dropna=True)
    assert t.to_frame().equals(mio.contingency_from_files(path, engine="pandas", dropna=True).to_frame())
