"""The dashboard's building blocks without a running app: table validation, links, the
preferences, the morph's flips, file reading and labels → table."""

import io
import math

import numpy as np
import pandas as pd
import pytest

import metrics
from dashboard.compare import morph
from dashboard.compare.view import NA, TIE, A, B, preference_table, prefers, verdict
from dashboard.ui.tables import (
    decode_table,
    display_frame,
    editor_frame,
    encode_table,
    fingerprint,
    frame_from_editor,
    table_csv,
)
from metrics import io as mio
from metrics.papers import generators


# ---------------------------------------------------------------- editor frames
def _frame():
    return pd.DataFrame([[3, 1], [0, 2]], index=["C1", "C2"], columns=["K1", "K2"])


def test_editor_frame_round_trip():
    table, problems = frame_from_editor(editor_frame(_frame()))
    assert problems == []
    assert table.index.tolist() == ["C1", "C2"] and table.columns.tolist() == ["K1", "K2"]
    assert table.to_numpy().tolist() == [[3, 1], [0, 2]]


@pytest.mark.parametrize("cell, message", [(-2.0, "negative"), (np.nan, "empty"), ("abc", "not a number"),
                                           (np.inf, "infinite")])
def test_invalid_cells_are_named(cell, message):
    df = editor_frame(_frame()).astype(object)
    df.loc[1, "K2"] = cell
    table, problems = frame_from_editor(df)
    assert table is None
    assert len(problems) == 1 and message in problems[0] and "'C2'" in problems[0] and "'K2'" in problems[0]


def test_blank_and_duplicate_class_names():
    df = editor_frame(_frame())
    df.loc[0, "class"] = None
    table, problems = frame_from_editor(df)
    assert problems == [] and table.index.tolist() == ["C1", "C2"]
    df.loc[0, "class"] = "C2"
    _, problems = frame_from_editor(df)
    assert problems and "C2" in problems[0]


def test_empty_and_all_zero_tables():
    assert frame_from_editor(editor_frame(_frame()).iloc[:0])[1]
    assert frame_from_editor(editor_frame(_frame())[["class"]])[1]
    zero = editor_frame(_frame() * 0)
    assert "no items" in frame_from_editor(zero)[1][0]


def test_fractional_counts_are_kept():
    df = editor_frame(_frame())
    df.loc[0, "K1"] = 0.5
    table, problems = frame_from_editor(df)
    assert problems == [] and metrics.Contingency.from_table(table).values.dtype.kind == "f"


# ---------------------------------------------------------------- links
def test_table_link_round_trip_and_errors():
    frame = pd.DataFrame([[1.5, 0], [2, 7]], index=["a,b", "ü"], columns=["K 1", "K;2"])
    back = decode_table(encode_table(frame))
    assert back.index.tolist() == ["a,b", "ü"] and back.columns.tolist() == ["K 1", "K;2"]
    assert back.to_numpy().tolist() == [[1.5, 0], [2, 7]]
    for bad in ("not json", '{"classes": ["a"], "clusters": ["k"], "cells": [[1, 2]]}',
                '{"classes": ["a"], "clusters": ["k"], "cells": [[-1]]}'):
        with pytest.raises(ValueError, match="link"):
            decode_table(bad)
    assert encode_table(pd.DataFrame(np.ones((30, 30)))) is None  # too long for a link


# ---------------------------------------------------------------- display of huge tables
def test_huge_tables_show_their_largest_classes_and_clusters():
    rng = np.random.default_rng(0)
    t = metrics.Contingency.from_labels(rng.integers(0, 300, 20_000), rng.integers(0, 2_000, 20_000))
    frame, summary = display_frame(t, max_rows=40, max_cols=120)
    assert frame.shape == (40, 120)
    largest = sorted(range(t.shape[0]), key=lambda i: -t.row_sums[i])[:40]
    assert sorted(frame.index) == sorted(str(t.row_labels[i]) for i in largest)
    dense = t.to_frame()
    shown = dense.loc[[int(i) for i in frame.index], [int(j) for j in frame.columns]]
    assert np.array_equal(frame.to_numpy(), shown.to_numpy())
    share = frame.to_numpy().sum() / t.n
    assert f"{share:.0%} of the items" in summary and "300 × 2,000" in summary
    small, summary = display_frame(metrics.Contingency.from_table(_frame()))
    assert summary is None and small.shape == (2, 2)


def test_table_csv_dense_and_long():
    t = metrics.Contingency.from_table(_frame())
    dense = pd.read_csv(io.BytesIO(table_csv.__wrapped__(t)), index_col=0)
    assert dense.to_numpy().tolist() == [[3, 1], [0, 2]]
    import dashboard.ui.tables as tables
    old = tables.DENSE_CSV_CELLS
    tables.DENSE_CSV_CELLS = 1
    try:
        long = pd.read_csv(io.BytesIO(table_csv.__wrapped__(t)))
    finally:
        tables.DENSE_CSV_CELLS = old
    assert long.columns.tolist() == ["class", "cluster", "count"] and long["count"].sum() == t.n


def test_fingerprint_tells_tables_apart():
    a = metrics.Contingency.from_table(_frame())
    assert fingerprint(a) == fingerprint(metrics.Contingency.from_table(_frame()))
    assert fingerprint(a) != fingerprint(a.T)
    assert fingerprint(a) != fingerprint(metrics.Contingency.from_table(_frame() * 2))


# ---------------------------------------------------------------- goodness and preferences
def test_prefers_reads_the_direction_and_ties():
    assert prefers("v_measure", 0.7, 0.5) == A and prefers("vi", 0.7, 0.5) == B
    assert prefers("f_measure", 0.6, 0.6000000000000001) == TIE
    assert prefers("ami", math.nan, 0.2) == NA


def test_preferences_use_the_registry_goodness_and_skip_undefined_measures():
    df = preference_table({"vi": 2.0, "ami": 0.3}, {"vi": 1.0}, ["vi", "ami"])
    assert df["goodness A"][0] == metrics.MEASURES["vi"].goodness(2.0)
    assert df["prefers"].tolist() == [B, NA]
    assert "not defined" in verdict(df, "a", "b")


def test_preference_table_takes_no_vote():
    """Which side each measure prefers, and no mark of a minority: the larger group is not the right one
    (Wu et al.: VD_n and VI_n are right about the uniform effect against purity, entropy and MI)."""
    va = {"v_measure": 0.7, "nvi": 1.0, "vi": 2.3, "ari": 0.0}
    vb = {"v_measure": 0.6, "nvi": 0.8, "vi": 1.9, "ari": 0.4}
    df = preference_table(va, vb, list(va))
    assert df["prefers"].tolist() == [A, B, B, B]
    assert "disagrees" not in df.columns
    text = verdict(df, "singletons", "R")
    assert "prefers A (singletons)" in text and "prefer B (R)" in text


# ---------------------------------------------------------------- the morph
def test_sweep_values_are_metrics_values_and_flips_are_where_preferences_change():
    keys = ("v_measure", "nvi", "vi", "ari", "vd_n")
    curve, flips = morph.sweep_for("noise", 10, 3, keys)
    assert sorted(curve["x"].unique().tolist()) == list(range(10))
    singles = metrics.evaluate(generators.singletons([10] * 10), list(keys))
    for x in range(10):
        r = metrics.evaluate(generators.solution_r(10, 10, x), list(keys))
        got = curve[curve["x"] == x].set_index(["solution", "key"])["value"]
        for k in keys:
            assert got[(morph.R_LABEL, k)] == r[k] and got[(morph.S_LABEL, k)] == singles[k]
    for k in keys:
        sides = []
        for x in range(10):
            got = curve[(curve["x"] == x) & (curve["key"] == k)].set_index("solution")["value"]
            sides.append(prefers(k, got[morph.S_LABEL], got[morph.R_LABEL]))
        changes = [x - 0.5 for x in range(1, 10) if TIE not in (sides[x - 1], sides[x]) and sides[x] != sides[x - 1]]
        assert flips[k] == changes, k
    # The point of the page: the measures give up on R at different noise levels.
    assert len({tuple(flips[k]) for k in keys}) >= 3


def test_classes_sweep_range():
    curve, _ = morph.sweep_for("classes", 10, 3, ("v_measure",))
    assert sorted(curve["x"].unique().tolist()) == list(range(4, morph.MAX_CLASSES + 1))
    with pytest.raises(ValueError, match="axis"):
        morph.axis_values("size", 10, 3)


# ---------------------------------------------------------------- files and labels
# The upload panel parses nothing itself: it calls metrics.io (tests/test_reader.py covers the
# reader in depth; tests/dashboard/test_upload_panel.py the panel). These check the calls it makes.
def test_csv_tsv_and_parquet_are_read():
    df = mio.read_labels(b"gold,cluster\na,1\nb,2\n", name="x.csv").raw
    assert df.columns.tolist() == ["gold", "cluster"] and df["cluster"].tolist() == ["1", "2"]
    df = mio.read_labels(b"g\tk\na\t1\n", name="x.tsv").raw
    assert df.shape == (1, 2)
    df = mio.read_labels(b"a,1\nb,2\n", name="x.csv", header=False).raw
    assert df.shape == (2, 2) and df.columns.tolist() == ["1", "2"]
    buf = io.BytesIO()
    pd.DataFrame({"g": [1, 1, 2], "k": ["x", "y", "y"]}).to_parquet(buf)
    seen = []
    df = mio.read_labels(buf.getvalue(), name="x.parquet", progress=seen.append).raw
    assert df["g"].tolist() == [1, 1, 2] and seen and seen[-1] == 1.0


@pytest.mark.parametrize("name, data, message", [
    ("x.csv", b"", "empty"),
    ("x.csv", b"   \n  \n", "blank"),
    ("x.csv", bytes(range(256)) * 8, "binary"),
    ("x.csv", b"\xff\xfe\xfa,ok\n", "UTF-16"),  # a UTF-16 byte-order mark, then bytes that are not UTF-16
    ("x.csv", b"\xfa\xfb,ok\n", "UTF-8"),
    ("x.csv", b"g,k\na,1\nb,2,3\n", "line 3 has 3 fields"),
    ("x.csv", b"g,k\n", "no data rows"),
    ("x.parquet", b"PAR1garbage", "Parquet"),
    ("x.xlsx", b"PK\x03\x04whatever", "ZIP archive"),
])
def test_bad_files_raise_clear_errors(name, data, message):
    with pytest.raises(ValueError, match=message):
        mio.read_labels(data, name=name)


def test_missing_labels_drop_or_error():
    gold = pd.Series(["a", None, "b", "b"])
    pred = pd.Series(["1", "1", None, "2"])
    report = mio.missing_report(gold, pred)
    assert (report.gold, report.pred, report.items) == (1, 1, 2)
    with pytest.raises(mio.MissingLabelsError, match="2 item"):
        mio.contingency_from_columns(gold, pred)
    t = mio.contingency_from_columns(gold, pred, dropna=True)
    assert t.n == 2
    with pytest.raises(ValueError, match="same items"):
        mio.contingency_from_columns(gold, pred.iloc[:3])
    with pytest.raises(mio.EmptyTableError, match="the table holds no items"):
        mio.contingency_from_columns(pd.Series([None, None]), pd.Series(["1", "2"]), dropna=True)


def test_unhashable_labels_are_a_clear_error():
    gold = pd.Series([[1, 2], [3]], dtype=object)
    with pytest.raises(ValueError, match=r"plain text or numbers|1-D"):
        mio.contingency_from_columns(gold, pd.Series(["a", "b"]))


def test_labels_table_equals_metrics_from_labels():
    rng = np.random.default_rng(1)
    g, k = rng.integers(0, 5, 500), rng.integers(0, 7, 500)
    data = pd.DataFrame({"g": g, "k": k}).to_csv(index=False).encode()
    df = mio.read_labels(data, name="x.csv").raw
    t = mio.contingency_from_columns(df["g"], df["k"])
    ref = metrics.Contingency.from_labels(g, k)
    # String labels come in another order than integers: same table up to row/column order,
    # so the values agree up to summation order.
    assert metrics.evaluate(t) == pytest.approx(metrics.evaluate(ref), rel=1e-12, abs=1e-15)
