"""metrics.io's one reader: formats × names × encodings × the missing-value rule, and its errors.

Every file is read both from its path and from its bytes (an upload), and — where a table is
built — by both engines (pandas and DuckDB), which must agree cell for cell.
"""

from __future__ import annotations

import csv
import gzip
import io
import zipfile

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics import Contingency, evaluate
from metrics import io as mio

ENGINES = ["pandas", "duckdb"]
GOLD = ["a", "01", "1", "NA", "日本", "a b", "x,y", 'q"r']
PRED = ["k1", "k1", "k2", "null", "k2", "nan", "k3", "None"]


def csv_text(rows, delimiter=",", header=("gold", "pred"), newline="\n") -> str:
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator=newline)
    if header:
        w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def frame_of(t: Contingency) -> pd.DataFrame:
    """The table with labels as text, rows and columns sorted: equal tables give equal frames."""
    f = t.to_frame()
    f.index = [str(x) for x in f.index]
    f.columns = [str(x) for x in f.columns]
    return f.sort_index().sort_index(axis=1)


def both_ways(path):
    """read_labels from the path and from the bytes with the same name: one result."""
    a = mio.read_labels(path)
    b = mio.read_labels(path.read_bytes(), name=str(path))
    pd.testing.assert_frame_equal(a.raw, b.raw)
    assert a.kind == b.kind
    return a


# ---------------------------------------------------------------------- formats and names
TEXT = csv_text(zip(GOLD, PRED))
TSV = csv_text(zip(GOLD, PRED), "\t")
SEMI = csv_text(zip(GOLD, PRED), ";")


def parquet_bytes(df: pd.DataFrame) -> bytes:
    buf = io.BytesIO()
    df.to_parquet(buf, index=False)
    return buf.getvalue()


# (file name, bytes, the note expected — None when the name tells the truth)
FORMS = [
    ("l.csv", TEXT.encode(), None),
    ("l.txt", TEXT.encode(), None),
    ("labels", TEXT.encode(), None),
    ("l.dat", TEXT.encode(), None),
    ("l.tsv", TEXT.encode(), "is comma-separated, not tab-separated as its name says: read as CSV"),
    ("l.tsv", TSV.encode(), None),
    ("l.tab", TSV.encode(), None),
    ("l.txt", TSV.encode(), None),
    ("l.csv", TSV.encode(), "is tab-separated, not comma-separated as its name says: read as TSV"),
    ("l.csv", SEMI.encode(), "is semicolon-separated, not comma-separated as its name says: read as CSV with ';'"),
    ("l.csv.gz", gzip.compress(TEXT.encode()), None),
    ("l.tsv.gz", gzip.compress(TSV.encode()), None),
    ("l.csv", gzip.compress(TEXT.encode()), "is gzip-compressed: decompressed while reading"),
    ("l.parquet", parquet_bytes(pd.DataFrame({"gold": GOLD, "pred": PRED})), None),
    ("l.pq", parquet_bytes(pd.DataFrame({"gold": GOLD, "pred": PRED})), None),
    ("l.csv", parquet_bytes(pd.DataFrame({"gold": GOLD, "pred": PRED})),
     "holds Parquet data, not text: read as Parquet"),
    ("l", parquet_bytes(pd.DataFrame({"gold": GOLD, "pred": PRED})), "holds Parquet data, not text: read as Parquet"),
    ("l.parquet", TEXT.encode(), "holds text, not Parquet: read as delimited text"),
    ("l.xlsx", TEXT.encode(), "holds comma-separated text: read as CSV despite its .xlsx name"),
]


@pytest.mark.parametrize("name, data, note", FORMS, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(FORMS)])
def test_content_decides_the_format_and_the_name_is_a_hint(tmp_path, name, data, note):
    path = tmp_path / name
    path.write_bytes(data)
    lc = both_ways(path)
    assert lc.columns == ["gold", "pred"]
    assert lc.raw["gold"].tolist() == GOLD and lc.raw["pred"].tolist() == PRED  # text exactly as written
    if note is None:
        assert lc.notes == ()
    else:
        assert lc.notes == (f"{path} {note}",)
    want = frame_of(Contingency.from_labels(GOLD, PRED))
    for engine in ENGINES:
        assert frame_of(mio.contingency_from_files(path, engine=engine)).equals(want), engine


def test_gzip_parquet_is_refused(tmp_path):
    p = tmp_path / "l.parquet.gz"
    p.write_bytes(gzip.compress(parquet_bytes(pd.DataFrame({"gold": ["a"], "pred": ["b"]}))))
    with pytest.raises(ValueError, match="Parquet compresses internally; decompress it"):
        mio.read_labels(p)


# ---------------------------------------------------------------------- encodings
ENC_TEXT = "gold,pred\nçà,x\nÆØÅ,y\n日本,y\nNA,x\n"


@pytest.mark.parametrize("label, data", [
    ("utf-8", ENC_TEXT.encode("utf-8")),
    ("utf-8 BOM", b"\xef\xbb\xbf" + ENC_TEXT.encode("utf-8")),
    ("utf-16 LE BOM", b"\xff\xfe" + ENC_TEXT.encode("utf-16-le")),
    ("utf-16 BE BOM", b"\xfe\xff" + ENC_TEXT.encode("utf-16-be")),
    ("utf-16 BOM, gzip", gzip.compress(b"\xff\xfe" + ENC_TEXT.encode("utf-16-le"))),
])
def test_utf8_and_utf16_with_bom_are_decoded(tmp_path, label, data):
    path = tmp_path / "enc.csv"
    path.write_bytes(data)
    lc = both_ways(path)
    assert lc.columns == ["gold", "pred"]  # the byte-order mark is not part of the first name
    assert lc.raw["gold"].tolist() == ["çà", "ÆØÅ", "日本", "NA"]
    want = frame_of(Contingency.from_labels(["çà", "ÆØÅ", "日本", "NA"], ["x", "y", "y", "x"]))
    for engine in ENGINES:
        assert frame_of(mio.contingency_from_files(path, engine=engine)).equals(want), (label, engine)


@pytest.mark.parametrize("data, message", [
    ("gold,pred\ncafé,x\n".encode("latin-1"), r"is not UTF-8 text \(byte 0xe9 at position 13 .*save it as UTF-8"),
    ("gold,pred\nçà,x\n".encode("cp1252"), "save it as UTF-8"),
    ("gold,pred\na,x\n".encode("utf-16-le"), "UTF-16 text without a byte-order mark: save it as UTF-8"),
    (b"\xff\xfe\x00\x00" + "gold,pred\n".encode("utf-32-le"), "is UTF-32 text: save it as UTF-8"),
])
def test_other_encodings_are_refused_with_save_as_utf8(tmp_path, data, message):
    path = tmp_path / "enc.csv"
    path.write_bytes(data)
    for source in (path, data):
        with pytest.raises(ValueError, match=message):
            mio.read_labels(source, name=str(path))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_latin1_byte_far_down_is_caught_by_both_engines(tmp_path, engine):
    # The sniff sees only the first 64 KiB, all ASCII; the bad byte comes later.
    path = tmp_path / "late.csv"
    path.write_bytes(b"gold,pred\n" + b"aaaa,bbbb\n" * 20_000 + "café,x\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"not UTF-8 text throughout.*save it as UTF-8"):
        mio.contingency_from_files(path, engine=engine)


# ---------------------------------------------------------------------- the missing-value rule
NA_FILE = 'gold,pred\nNA,x\nNaN,x\nnan,y\nnull,y\nNone,z\n,z\n"",z\n01,x\n1,x\n"NA",y\n'
NA_GOLD = ["NA", "NaN", "nan", "null", "None", "", "", "01", "1", "NA"]


@pytest.mark.parametrize("engine", ENGINES)
def test_na_texts_are_labels_by_default_and_empty_cells_are_missing(tmp_path, engine):
    path = tmp_path / "na.csv"
    path.write_text(NA_FILE)
    lc = mio.read_labels(path)
    assert lc.raw["gold"].tolist() == NA_GOLD
    assert lc.missing == {"gold": 2, "pred": 0} and lc.missing_rows("gold") == (6, 7)
    with pytest.raises(mio.MissingLabelsError) as info:
        mio.contingency_from_files(path, engine=engine)
    e = info.value
    assert (e.items, e.gold, e.pred, e.gold_rows, e.pred_rows) == (2, 2, 0, (6, 7), ())
    assert e.gold_source == e.pred_source == str(path) and e.na_values == ()
    assert str(e) == (f"2 item(s) have a missing label (gold: 2, pred: 0; an empty cell), first at data rows 6, 7 "
                      f"of {path}: pass dropna=True to leave those items out, or fill in the labels")
    t = mio.contingency_from_files(path, engine=engine, dropna=True)
    kept = [g for g in NA_GOLD if g != ""]
    assert frame_of(t).equals(frame_of(Contingency.from_labels(kept, ["x", "x", "y", "y", "z", "x", "x", "y"])))
    assert t.shape[0] == 7  # NA, NaN, nan, null, None, 01, 1: seven classes


@pytest.mark.parametrize("engine", ENGINES)
def test_na_values_turn_given_texts_missing(tmp_path, engine):
    path = tmp_path / "na.csv"
    path.write_text(NA_FILE)
    lc = mio.read_labels(path, na_values=mio.COMMON_NA_TEXTS)
    assert lc.missing == {"gold": 8, "pred": 0}
    assert lc.frame["gold"].notna().tolist() == [False] * 7 + [True, True, False]
    with pytest.raises(mio.MissingLabelsError) as info:
        mio.contingency_from_files(path, engine=engine, na_values=["NA", "null"])
    e = info.value
    assert (e.items, e.gold, e.gold_rows, e.na_values) == (5, 5, (1, 4, 6, 7, 10), ("NA", "null"))
    assert "an empty cell or a text treated as missing ('NA', 'null')" in str(e)
    t = mio.contingency_from_files(path, engine=engine, na_values=mio.COMMON_NA_TEXTS, dropna=True)
    assert frame_of(t).equals(frame_of(Contingency.from_labels(["01", "1"], ["x", "x"])))


def test_with_na_values_rereads_nothing(tmp_path):
    path = tmp_path / "na.csv"
    path.write_text(NA_FILE)
    lc = mio.read_labels(path)
    path.unlink()  # the file is gone: the rule is applied to the cells already read
    assert lc.with_na_values(["nan"]).missing == {"gold": 3, "pred": 0}
    assert lc.missing == {"gold": 2, "pred": 0}


@pytest.mark.parametrize("engine", ENGINES)
def test_parquet_null_nan_and_empty_string_are_missing_na_texts_are_not(tmp_path, engine):
    path = tmp_path / "n.parquet"
    pd.DataFrame({"gold": pd.array(["a", None, "", "NA", "b", "a"], dtype=object),
                  "pred": [1.0, 2.0, 2.0, np.nan, 1.0, 2.0],
                  "ints": pd.array([1, None, 3, 4, -1, 6], dtype="Int64")}).to_parquet(path)
    lc = mio.read_labels(path)
    assert lc.missing == {"gold": 2, "pred": 1, "ints": 1}
    assert lc.raw["ints"].tolist() == [1, None, 3, 4, -1, 6]  # integers stay integers, not 1.0
    with pytest.raises(mio.MissingLabelsError) as info:
        mio.contingency_from_files(path, engine=engine)
    assert (info.value.items, info.value.gold, info.value.pred) == (3, 2, 1)
    assert info.value.gold_rows == (2, 3) and info.value.pred_rows == (4,)
    t = mio.contingency_from_files(path, engine=engine, dropna=True)
    assert frame_of(t).equals(frame_of(Contingency.from_labels(["a", "b", "a"], [1.0, 1.0, 2.0])))
    # A text in na_values matches Parquet strings, never numbers (Parquet states missing as null).
    with pytest.raises(mio.MissingLabelsError) as info:
        mio.contingency_from_files(path, "gold", "ints", engine=engine, na_values=["NA", "-1"])
    assert (info.value.gold, info.value.pred) == (3, 1) and info.value.gold_rows == (2, 3, 4)


@pytest.mark.parametrize("engine", ENGINES)
def test_blank_lines_and_short_lines(tmp_path, engine):
    # One column: a blank line is an item without a label (dropping it would shift a file
    # aligned by row). Two columns: blank lines are skipped; a short line's absent fields are
    # empty cells; a long line is an error.
    one = tmp_path / "one.txt"
    one.write_text("gold\na\n\nb\n")
    assert mio.read_labels(one).raw["gold"].tolist() == ["a", "", "b"]
    pred = tmp_path / "pred.txt"
    pred.write_text("pred\nx\ny\nz\n")
    with pytest.raises(mio.MissingLabelsError) as info:
        mio.contingency_from_files(one, "gold", "pred", pred_paths=pred, engine=engine)
    assert info.value.gold_rows == (2,) and info.value.gold_source == str(one)
    two = tmp_path / "two.csv"
    two.write_text("gold,pred\na,x\n\nb\nc,z\n")
    with pytest.raises(mio.MissingLabelsError) as info:
        mio.contingency_from_files(two, engine=engine)
    assert (info.value.pred, info.value.pred_rows) == (1, (2,))
    assert mio.contingency_from_files(two, engine=engine, dropna=True).n == 2


@pytest.mark.parametrize("engine", ENGINES)
def test_quoted_fields_keep_delimiters_quotes_and_line_breaks(tmp_path, engine):
    path = tmp_path / "q.csv"
    path.write_text('gold,pred\n"a,b",x\n"line\nbreak",y\n"say ""hi""",x\n  spaced ,y\n')
    lc = mio.read_labels(path)
    assert lc.raw["gold"].tolist() == ["a,b", "line\nbreak", 'say "hi"', "  spaced "]
    t = mio.contingency_from_files(path, engine=engine)
    assert sorted(map(str, t.row_labels)) == sorted(lc.raw["gold"].tolist())


# ---------------------------------------------------------------------- the rule in every engine, property-based
TOKENS = ["a", "b", "NA", "nan", "null", "None", "", "01", "1", " a", "x,y", 'q"', "é", "NaN"]


@settings(max_examples=25, deadline=None)
@given(rows=st.lists(st.tuples(st.sampled_from(TOKENS), st.sampled_from(TOKENS)), min_size=1, max_size=12),
       delimiter=st.sampled_from([",", "\t", ";"]), na=st.sampled_from([(), ("NA", "null"), mio.COMMON_NA_TEXTS]),
       bom=st.booleans(), newline=st.sampled_from(["\n", "\r\n"]))
def test_engines_agree_with_the_rule_on_any_file(tmp_path_factory, rows, delimiter, na, bom, newline):
    path = tmp_path_factory.mktemp("prop") / "p.txt"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + csv_text(rows, delimiter, newline=newline).encode())
    missing = {"", *na}
    kept = [(g, p) for g, p in rows if g not in missing and p not in missing]
    results = []
    for engine in ENGINES:
        try:
            results.append(frame_of(mio.contingency_from_files(path, engine=engine, na_values=na, dropna=True)))
        except mio.EmptyTableError:
            results.append(None)
    if kept:
        want = frame_of(Contingency.from_labels([g for g, _ in kept], [p for _, p in kept]))
        assert all(r is not None and r.equals(want) for r in results)
    else:
        assert results == [None, None]
    if len(kept) < len(rows):
        for engine in ENGINES:
            with pytest.raises(mio.MissingLabelsError) as info:
                mio.contingency_from_files(path, engine=engine, na_values=na)
            first = [i + 1 for i, (g, p) in enumerate(rows) if g in missing or p in missing][:5]
            assert sorted(set(info.value.gold_rows) | set(info.value.pred_rows))[:len(first)] == first


# ---------------------------------------------------------------------- columns
def test_column_picking_and_headerless_files(tmp_path):
    path = tmp_path / "w.csv"
    path.write_text("id,gold,p1,p2,p3\n1,a,x,x,\n2,a,x,y,y\n3,b,y,y,NA\n")
    lc = mio.read_labels(path, ["gold", "p1", "p2", "p3"])
    assert lc.columns == ["gold", "p1", "p2", "p3"] and len(lc) == 3
    assert lc.missing == {"gold": 0, "p1": 0, "p2": 0, "p3": 1}
    assert lc.with_na_values(["NA"]).missing["p3"] == 2
    # One table per solution, under the same rule.
    assert lc.contingency("gold", "p1").n == 3
    with pytest.raises(mio.MissingLabelsError, match="first at data row 1 of"):
        lc.contingency("gold", "p3")
    assert lc.contingency("gold", "p3", dropna=True).n == 2
    with pytest.raises(ValueError, match=r"has no column 'p9'; its columns: id, gold, p1, p2, p3"):
        mio.read_labels(path, ["gold", "p9"])
    assert mio.file_columns(path) == ["id", "gold", "p1", "p2", "p3"]
    assert mio.file_columns(path, header=False) == ["1", "2", "3", "4", "5"]
    headerless = mio.read_labels(path, ["2", "3"], header=False)
    assert headerless.raw["2"].tolist() == ["gold", "a", "a", "b"]


def test_header_names_duplicated_or_empty(tmp_path):
    (tmp_path / "dup.csv").write_text("gold,gold\na,b\n")
    with pytest.raises(ValueError, match="the column name 'gold' appears twice in the header: rename one"):
        mio.read_labels(tmp_path / "dup.csv")
    (tmp_path / "unnamed.csv").write_text(",gold,pred\n0,a,x\n")
    assert mio.read_labels(tmp_path / "unnamed.csv").columns == ["1", "gold", "pred"]


# ---------------------------------------------------------------------- errors: what is wrong, what to do
def xlsx_bytes() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("xl/workbook.xml", "<workbook/>")
    return buf.getvalue()


# A gzip stream cut in half: past the first 64 KiB of text (found while parsing), or within them.
CUT = gzip.compress(("gold,pred\n" + "".join(f"{i},{i * 7 % 13}\n" for i in range(100_000))).encode())
BAD = [
    ("empty.csv", b"", "is empty: use a file with one row per item"),
    ("blank.csv", b"  \n\n \t\n", "holds only blank space"),
    ("header.csv", b"gold,pred\n", "has column names but no data rows: add one row per item"),
    ("book.xlsx", xlsx_bytes(), "is a ZIP archive (an Excel .xlsx or OpenDocument spreadsheet?), not CSV/TSV text "
                                "or Parquet: save it as 'CSV UTF-8'"),
    ("book.csv", xlsx_bytes(), "is a ZIP archive"),
    ("old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(100), "is an old Excel (.xls)"),
    ("doc.csv", b"%PDF-1.7\n" + bytes(range(256)), "is a PDF document"),
    ("l.csv.bz2", b"BZh91AY&SY" + bytes(50), "is compressed with bzip2: only gzip (.gz) is read"),
    ("noise.csv", bytes(range(256)) * 8, "holds binary data, not CSV/TSV text or Parquet"),
    ("page.csv", b"<!DOCTYPE html><html><body>Sign in</body></html>", "is an HTML/XML document"),
    ("l.json", b'[{"gold": "a", "pred": "x"}]', "is JSON, not a table"),
    ("broken.parquet", b"PAR1 this is not parquet", "could not be read as Parquet"),
    ("cut.csv.gz", CUT[:len(CUT) // 2], "could not be read to the end"),
    ("head.csv.gz", CUT[:200], "is not a readable gzip file"),
    ("ragged.csv", b"gold,pred\na,x\nb,y,z\n", "line 3 has 3 fields where the first line has 2 (a ragged file): "
                                               "every line needs the same number of commas"),
    ("ragged.tsv", b"gold\tpred\na\tx\nb\ty\tz\n", "every line needs the same number of tabs"),
]


@pytest.mark.parametrize("name, data, message", BAD, ids=[b[0] for b in BAD])
def test_bad_files_get_one_line_saying_what_to_do(tmp_path, name, data, message):
    path = tmp_path / name
    path.write_bytes(data)
    for source in (path, data):
        with pytest.raises(ValueError) as info:
            mio.read_labels(source, name=str(path))
        text = str(info.value)
        assert message in text and "\n" not in text and str(path) in text, text


@pytest.mark.parametrize("name, data, message", BAD, ids=[b[0] for b in BAD])
def test_both_engines_refuse_bad_files_in_the_same_words(tmp_path, name, data, message):
    path = tmp_path / name
    path.write_bytes(data)
    texts = []
    for engine in ENGINES:
        with pytest.raises(ValueError) as info:
            mio.contingency_from_files(path, "gold", "pred", engine=engine)
        texts.append(str(info.value))
    assert texts[0] == texts[1]
    assert message in texts[0] and "\n" not in texts[0]


# ---------------------------------------------------------------------- two label columns → a table
def test_contingency_from_columns_drops_or_reports():
    gold = pd.Series(["a", None, "b", "b", "NA"])
    pred = pd.Series(["1", "1", "", "2", "2"])
    with pytest.raises(mio.MissingLabelsError) as info:
        mio.contingency_from_columns(gold, pred, gold_source="g.csv", pred_source="p.csv")
    e = info.value
    assert (e.items, e.gold, e.pred, e.gold_rows, e.pred_rows) == (2, 1, 1, (2,), (3,))
    assert e.describe("gold", "cluster") == ("2 item(s) have a missing label (gold: 1, cluster: 1; an empty cell), "
                                            "first at data row 2 of g.csv (gold) and data row 3 of p.csv (cluster)")
    t = mio.contingency_from_columns(gold, pred, dropna=True)
    assert frame_of(t).equals(frame_of(Contingency.from_labels(["a", "b", "NA"], ["1", "2", "2"])))
    assert mio.contingency_from_columns(gold, pred, dropna=True, na_values=["NA"]).n == 2
    with pytest.raises(mio.EmptyTableError, match=r"^the table holds no items \(every row has a missing label"):
        mio.contingency_from_columns([None, ""], ["1", "2"], dropna=True)
    with pytest.raises(ValueError, match="same items in the same order"):
        mio.contingency_from_columns(["a", "b"], ["x"])
    with pytest.raises(ValueError, match=r"a DataFrame: pass one column \(df\['name'\]\)"):
        mio.contingency_from_columns(pd.DataFrame({"g": ["a"]}), ["x"])
    with pytest.raises(ValueError, match=r"plain text or numbers|must be hashable"):
        mio.contingency_from_columns(pd.Series([[1, 2], [3]], dtype=object), ["a", "b"])
    report = mio.missing_report(gold, pred, ["NA"])
    assert (report.items, report.gold, report.pred, report.gold_rows, report.pred_rows) == (3, 2, 1, (2, 5), (3,))


def test_a_table_file_of_zeros_holds_no_items(tmp_path):
    (tmp_path / "z.csv").write_text(",k1,k2\nc1,0,0\n")
    with pytest.raises(mio.EmptyTableError) as info:
        mio.contingency_from_table_file(tmp_path / "z.csv")
    assert str(info.value) == f"{tmp_path / 'z.csv'}: the table holds no items (every cell is 0)"
    data = b"\xff\xfe" + ",k1,k2\nc1,3,0\nc2,1,4\n".encode("utf-16-le")  # a UTF-16 table upload
    t = mio.contingency_from_table_file(data, name="t.csv")
    assert list(t.row_labels) == ["c1", "c2"] and t.to_dense().tolist() == [[3, 0], [1, 4]]


def test_missing_label_rows_are_named_in_the_right_shard_and_file(tmp_path):
    (tmp_path / "s-0.csv").write_text("gold,pred\na,x\nb,y\n")
    (tmp_path / "s-1.csv").write_text("gold,pred\na,x\n,y\nb,\n")
    for engine in ENGINES:
        with pytest.raises(mio.MissingLabelsError) as info:
            mio.contingency_from_files(str(tmp_path / "s-*.csv"), engine=engine)
        e = info.value
        assert (e.gold_rows, e.pred_rows, e.gold_source) == ((2,), (3,), str(tmp_path / "s-1.csv")), engine
    # Two files joined by id: each label's row in its own file, among the matched items.
    (tmp_path / "g.csv").write_text("id,gold\n1,a\n2,\n3,b\n4,\n")
    (tmp_path / "p.csv").write_text("id,pred\n4,x\n3,\n2,y\n1,x\n")
    for engine in ENGINES:
        with pytest.raises(mio.MissingLabelsError) as info:
            mio.contingency_from_files(tmp_path / "g.csv", "gold", "pred", pred_paths=tmp_path / "p.csv", id_col="id",
                                       engine=engine)
        e = info.value
        assert (e.items, e.gold, e.pred, e.gold_rows, e.pred_rows) == (3, 2, 1, (2, 4), (2,)), engine
        assert "data rows 2, 4 of" in str(e) and str(tmp_path / "p.csv") in str(e)


@pytest.mark.parametrize("engine", ENGINES)
def test_infinite_labels_are_refused_like_missing_ones_are_reported(tmp_path, engine):
    path = tmp_path / "inf.parquet"
    pd.DataFrame({"gold": [1.0, np.inf, 2.0], "pred": [1, 2, 2]}).to_parquet(path)
    with pytest.raises(ValueError, match="a label is inf: labels must be finite numbers or text"):
        mio.contingency_from_files(path, engine=engine)


def test_labels_come_sorted_and_engines_agree_to_the_last_digit(tmp_path):
    rng = np.random.default_rng(3)
    gold = rng.choice(["z", "b", "é", "A", "10", "9"], 3000)
    pred = np.where(rng.random(3000) < 0.6, np.char.add("k", gold), rng.choice(["p", "q", "r"], 3000))
    path = tmp_path / "l.csv"
    pd.DataFrame({"gold": gold, "pred": pred}).to_csv(path, index=False)
    tables = [mio.contingency_from_files(path, engine=e) for e in ENGINES]
    tables.append(mio.read_labels(path.read_bytes(), name="l.csv").contingency("gold", "pred"))
    assert list(tables[0].row_labels) == ["10", "9", "A", "b", "z", "é"]  # code-point order
    values = [evaluate(t) for t in tables]
    assert values[1] == values[0] and values[2] == values[0]  # identical, not close


# ---------------------------------------------------------------------- issue 29: long headers, pipes, bombs
def test_a_header_longer_than_the_sniffed_sample_is_read_whole(tmp_path):
    """12,000 columns (a header over 64 KiB): the sample cut the last name (c10 of c10234), which
    then 'appeared twice'."""
    names = [f"c{i}" for i in range(12_000)]
    p = tmp_path / "wide.csv"
    p.write_text(",".join(names) + "\n" + ",".join("1" for _ in names) + "\n")
    assert len(",".join(names)) > 64 * 1024
    assert mio.file_columns(p) == names
    lc = mio.read_labels(p, ["c0", "c11999"])
    assert lc.raw.to_numpy().tolist() == [["1", "1"]]
    for engine in ENGINES:
        assert mio.contingency_from_files(p, "c10", "c10234", engine=engine).n == 1
    q = tmp_path / "dup.csv"
    q.write_text(",".join(names + ["c7"]) + "\n" + ",".join("1" for _ in range(12_001)) + "\n")
    with pytest.raises(ValueError, match="the column name 'c7' appears twice in the header"):
        mio.file_columns(q)


def test_a_first_line_that_never_ends_is_refused(tmp_path):
    from metrics.io.sniff import MAX_HEAD_BYTES

    p = tmp_path / "line.csv"
    p.write_bytes(b'"a' + b"x" * (MAX_HEAD_BYTES + 10))
    with pytest.raises(ValueError, match="its first line does not end within 16 MiB — or a quote that opens a cell"):
        mio.sniff(p)


def test_a_pipe_is_read_once_by_the_reader(tmp_path):
    import os
    import threading

    fifo = tmp_path / "labels"
    os.mkfifo(fifo)
    data = b"gold,pred\na,x\nb,y\nb,x\n"

    def write():
        with open(fifo, "wb") as w:
            w.write(data)

    writer = threading.Thread(target=write)
    writer.start()
    lc = mio.read_labels(fifo)
    writer.join()
    assert lc.name == str(fifo) and lc.raw.to_numpy().tolist() == [["a", "x"], ["b", "y"], ["b", "x"]]
    # A glob or a list of files for an engine: refused in words (the engines read a file twice).
    writer = threading.Thread(target=write)
    writer.start()
    try:
        with pytest.raises(ValueError, match=r"is not a regular file .* can be read only once"):
            mio.contingency_from_files(fifo)
    finally:
        with open(fifo, "rb") as r:  # let the writer finish
            r.read()
        writer.join()


def test_a_fifo_nobody_writes_to_is_refused_after_the_wait(tmp_path, monkeypatch):
    import importlib
    import os
    import time

    streams = importlib.import_module("metrics.io.sniff")

    fifo = tmp_path / "silent"
    os.mkfifo(fifo)
    monkeypatch.setattr(streams, "PIPE_WAIT_S", 0.3)
    start = time.monotonic()
    with pytest.raises(ValueError, match=r"nothing was written to it in 0.3 s"):
        mio.read_labels(fifo)
    assert time.monotonic() - start < 5


def test_max_bytes_stops_a_gzip_bomb_before_it_is_expanded(tmp_path):
    """A 0.25 MB .csv.gz holding 256 MiB took the server from 352 MB to 4.3 GB. With ``max_bytes``
    the reader stops as soon as the text passes the limit."""
    import resource
    import time

    bomb = gzip.compress(b"gold,pred\n" + b"a,x\n" * (64 * 2**20), 9)  # 256 MiB of text
    assert len(bomb) < 400_000
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.monotonic()
    with pytest.raises(mio.ContentTooLargeError, match=r"b.csv.gz expands to more than 8 MB of text when "
                                                       r"decompressed, the most that is read here"):
        mio.read_labels(bomb, name="b.csv.gz", max_bytes=8 * 2**20)
    assert time.monotonic() - start < 5
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) / 1024
    assert grown_mb < 200, grown_mb  # the whole file as text in pandas: well over 1 GB
    small = gzip.compress(b"gold,pred\n" + b"a,x\n" * 1000)
    assert len(mio.read_labels(small, name="s.csv.gz", max_bytes=8 * 2**20)) == 1000
    # A Parquet file of a few kB with millions of equal cells: judged by its cells, not its bytes.
    buf = io.BytesIO()
    pd.DataFrame({"gold": ["a"] * 2_000_000, "pred": ["x"] * 2_000_000}).to_parquet(buf)
    assert len(buf.getvalue()) < 100_000
    with pytest.raises(mio.ContentTooLargeError, match="holds more than 1 MB of cells"):
        mio.read_labels(buf.getvalue(), name="p.parquet", max_bytes=2**20)
    with pytest.raises(mio.ContentTooLargeError, match=r"t.csv.gz expands to more than"):
        mio.contingency_from_table_file(gzip.compress(b",x\n" + b"a,1\n" * 500_000), name="t.csv.gz",
                                        max_bytes=2**20)
