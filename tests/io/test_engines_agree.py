"""pandas, DuckDB and Dask side by side on a corpus of hostile files: the same table or the same refusal.

Each file of the corpus is generated here (nothing big is committed) and counted by the three
engines: ``contingency_from_files(engine="pandas" | "duckdb")`` and ``contingency_from_dask`` over
``read_dask``. For each file the outcome is also pinned down — a table with so many items, or a
refusal saying what — so that agreement cannot come from all three failing the same wrong way.
Before this test, DuckDB counted 1 of the 3 rows of ``stray_quote_end.csv`` (its single-threaded
reader drops an unclosed quoted cell and the rest of the file), refused ``"a"b`` that pandas read
as ``ab``, stopped at a 3 MB cell, read a Parquet NaN as a label ("negative axis 0 index: -1"),
and could not count binary labels; Dask cut a quoted line break in two.
"""

from __future__ import annotations

import gzip
import io

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from metrics import io as mio
from metrics.io.engines import duckdb_engine
from metrics.io.scan import TextLayout, TextScan, scan_text


def _parquet(**columns) -> bytes:
    buf = io.BytesIO()
    pq.write_table(pa.table(columns), buf)
    return buf.getvalue()


def _cut_gzip() -> bytes:
    packed = gzip.compress(("gold,pred\n" + "".join(f"{i},{i * 7 % 13}\n" for i in range(100_000))).encode())
    return packed[:len(packed) // 2]


HUGE = 3 * 2**20  # one cell past DuckDB's default line size limit (2,000,000 bytes)
BOMB_ROWS = 2**20  # 4 MiB of text inside a gzip stream of a few kB

# name → (content, what every engine must do: ("table", items) or ("error", words of the refusal))
CORPUS = {
    # quotes
    "stray_quote_end.csv": (b'gold,pred\na,x\n"b,y\nc,z\n', ("error", "the quote that opens a cell on line 3 is never "
                                                                       "closed")),
    "stray_quote_far.csv": (b"gold,pred\n" + b"a,x\n" * 30_000 + b'"b,y\n' + b"c,z\n" * 30_000,
                            ("error", "line 30,002 is never closed")),
    "quote_in_cell.csv": (b'gold,pred\na,x\nb"q,y\n', ("error", 'line 3 has a quote inside a cell that does not start '
                                                                "with one (near 'b\"q')")),
    "text_after_quote.csv": (b'gold,pred\n"a"b,x\nc,z\n', ("error", "line 2 has text right after the quote that closes "
                                                                    "a cell (near '\"a\"b')")),
    "quote_in_header.csv": (b'"gold,pred\na,x\n', ("error", "the quote that opens a cell on line 1 is never closed")),
    "quoted_breaks.csv": (b'gold,pred\n"a\nb",x\n"c\r\nd",y\ne,z\n', ("table", 3)),
    "quoted_break_short_line.csv": (b'gold,pred\n"a\nb",x\nc\nd,y\n', ("error", "pred: 1; an empty cell), first at "
                                                                                  "data row 2")),
    "doubled_quotes.csv": (b'gold,pred\n"a""b",x\n"""",y\n"a,b",z\n', ("table", 3)),
    "two_quoted_lines.csv": (b'gold,pred\na,x\n"b,y\nc,z\nd",w\ne,v\n', ("table", 3)),
    "tab_in_quotes.tsv": (b'gold\tpred\n"a\tb"\tx\nc\ty\n', ("table", 2)),
    # line ends, blank lines
    "crlf.csv": (b"gold,pred\r\na,x\r\nb,y\r\n", ("table", 2)),
    "cr_only.csv": (b"gold,pred\ra,x\rb,y\r", ("table", 2)),
    "mixed_line_ends.csv": (b"gold,pred\r\na,x\nb,y\rc,z\r\n", ("table", 3)),
    "blank_and_white_lines.csv": (b"gold,pred\na,x\n\n   \n \t \r\nb,y\n", ("table", 2)),
    "white_last_line.csv": (b"gold,pred\na,x\nb,y\n  ", ("table", 2)),
    "leading_blank_lines.csv": (b"\n \ngold,pred\na,x\n", ("table", 1)),
    "no_final_line_end.csv": (b"gold,pred\na,x\nb,y", ("table", 2)),
    "short_line.csv": (b"gold,pred\na,x\nb\nc,z\n", ("error", "first at data row 2")),
    "ragged.csv": (b"gold,pred\na,x\nb,y,z\n", ("error", "line 3 has 3 fields where the first line has 2")),
    "ragged_far.csv": (b"gold,pred\n" + b"a,x\n" * 30_000 + b"b,y,z\n",
                       ("error", "line 30,002 has 3 fields where the first line has 2")),
    "header_only.csv": (b"gold,pred\n", ("error", "has column names but no data rows")),
    "header_and_blank_lines.csv": (b"gold,pred\n\n\n", ("error", "has column names but no data rows")),
    # encodings and bytes
    "bom.csv": (b"\xef\xbb\xbfgold,pred\na,x\n", ("table", 1)),
    "utf16le.csv": (b"\xff\xfe" + "gold,pred\na,x\r\nb,y\n".encode("utf-16-le"), ("table", 2)),
    "utf16be.tsv": (b"\xfe\xff" + "gold\tpred\né\tx\n".encode("utf-16-be"), ("table", 1)),
    "latin1_far.csv": (b"gold,pred\n" + b"a,x\n" * 30_000 + b"caf\xe9,y\n",
                       ("error", "is not UTF-8 text throughout (byte 0xe9 on line 30,002")),
    # A NUL past the sniffed head: refused like one in it (pandas before 3.1 cut the cell at it, DuckDB kept it).
    "nul_in_cell_far.csv": (b"gold,pred\n" + b"a,x\n" * 30_000 + b"b\x00,y\n",
                            ("error", "holds binary data, not CSV/TSV text (a NUL byte on line 30,002)")),
    "nul_in_quoted_cell_far.csv": (b"gold,pred\n" + b"a,x\n" * 30_000 + b'"b\nc\x00",y\n',
                                   ("error", "(a NUL byte on line 30,003)")),
    "unicode_breaks.csv": ("gold,pred\na\u2028b,x\nc\u0085,y\n".encode(), ("table", 2)),
    # sizes
    "huge_cell.csv": (b"gold,pred\n" + b"a" * HUGE + b",x\nb,y\n", ("table", 2)),
    "huge_quoted_cell.csv": (b'gold,pred\n"' + b"a\n" * (HUGE // 2) + b'",x\nb,y\n', ("table", 2)),
    "wide_header.csv": ((",".join(f"c{i}" for i in range(12_000)) + "\ngold,pred" + ",1" * 11_998 + "\n").encode(),
                        ("error", "no column 'gold'")),
    "bomb.csv.gz": (gzip.compress(b"gold,pred\n" + b"a,x\n" * BOMB_ROWS), ("table", BOMB_ROWS)),
    "cut.csv.gz": (_cut_gzip(), ("error", "could not be read to the end")),
    # texts that look like something else
    "na_texts.csv": (b"gold,pred\nNA,x\nnan,y\nNULL,z\n", ("table", 3)),
    "formulas.csv": (b"gold,pred\n=cmd|' /C calc'!A0,x\n@x,y\n+SUM(1;2),z\n-1,w\n", ("table", 4)),
    "markup.csv": (b'gold,pred\n![x](http://evil.example/x.png),x\n<img src=x>,y\n":red[x]",z\n', ("table", 3)),
    # Parquet
    "nan.parquet": (_parquet(gold=[1.0, float("nan"), 2.0], pred=["x", "y", "z"]),
                    ("error", "gold: 1, pred: 0; an empty cell), first at data row 2")),
    "nan32.parquet": (_parquet(gold=pa.array([1.0, float("nan"), 2.0], pa.float32()), pred=["x", "y", "z"]),
                      ("error", "first at data row 2")),
    "inf.parquet": (_parquet(gold=[1.0, float("inf"), 2.0], pred=["x", "y", "z"]), ("error", "a label is inf")),
    "null.parquet": (_parquet(gold=["a", None, "b"], pred=["x", "y", "z"]), ("error", "first at data row 2")),
    "empty_text.parquet": (_parquet(gold=["a", "", "b"], pred=["x", "y", "z"]), ("error", "first at data row 2")),
    "binary.parquet": (_parquet(gold=pa.array([b"a", b"\x00\xff", b"a"], pa.binary()), pred=["x", "y", "z"]),
                       ("table", 3)),
    "fixed_binary.parquet": (_parquet(gold=pa.array([b"ab", b"cd", b"ab"], pa.binary(2)), pred=["x", "y", "z"]),
                             ("table", 3)),
    "list.parquet": (_parquet(gold=[[1], [2], [1]], pred=["x", "y", "z"]), ("error", "holds list<element: int64> "
                                                                                     "values")),
    "dictionary.parquet": (_parquet(gold=pa.array(["a", "b", "a"]).dictionary_encode(), pred=["x", "y", "z"]),
                           ("table", 3)),
    "timestamps.parquet": (_parquet(gold=pa.array([0, 1, 0], pa.timestamp("s")), pred=["x", "y", "z"]),
                           ("table", 3)),
    "dates.parquet": (_parquet(gold=pa.array([0, 1, 0], pa.date32()), pred=["x", "y", "z"]), ("table", 3)),
    "decimals.parquet": (_parquet(gold=pa.array([1, 2, 1], pa.int32()).cast(pa.decimal128(12, 2)),
                                  pred=["x", "y", "z"]), ("table", 3)),
    "signed_zero.parquet": (_parquet(gold=[0.0, -0.0, 1.0], pred=["x", "x", "z"]), ("table", 3)),
    "uint64.parquet": (_parquet(gold=pa.array([2**64 - 1, 1, 1], pa.uint64()), pred=["x", "y", "z"]), ("table", 3)),
    "all_null.parquet": (_parquet(gold=pa.array([None, None], pa.null()), pred=["x", "y"]),
                         ("error", "gold: 2, pred: 0")),
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    paths = {}
    for name, (data, _) in CORPUS.items():
        paths[name] = folder / name
        paths[name].write_bytes(data)
    return paths


def outcome(count):
    """("table", labels as text, labels' types, cells) or ("error", exception type, message)."""
    try:
        t = count()
    except (ValueError, OSError) as exc:
        return ("error", type(exc).__name__, str(exc))
    cells = t.to_frame().to_numpy().tolist()
    return ("table", [(str(x), type(x).__name__) for x in t.row_labels],
            [(str(x), type(x).__name__) for x in t.col_labels], cells, t.n)


def engines(path, **options):
    dask_options = {k: v for k, v in options.items() if k in ("dropna", "na_values")}
    return {
        "pandas": outcome(lambda: mio.contingency_from_files(path, "gold", "pred", engine="pandas", **options)),
        "duckdb": outcome(lambda: mio.contingency_from_files(path, "gold", "pred", engine="duckdb", **options)),
        "dask": outcome(lambda: mio.contingency_from_dask(mio.read_dask(path, ["gold", "pred"]), "gold", "pred",
                                                           source=str(path), **dask_options)),
    }


@pytest.mark.parametrize("name", list(CORPUS))
def test_three_engines_give_the_same_table_or_the_same_refusal(corpus, name):
    results = engines(corpus[name])
    assert results["duckdb"] == results["pandas"], name
    assert results["dask"] == results["pandas"], name
    kind, what = CORPUS[name][1]
    got = results["pandas"]
    assert got[0] == kind, got
    if kind == "table":
        assert got[4] == what
    else:
        assert what in got[2] and "\n" not in got[2], got[2]


@pytest.mark.parametrize("name", ["quoted_break_short_line.csv", "short_line.csv", "nan.parquet", "null.parquet",
                                  "na_texts.csv", "blank_and_white_lines.csv"])
def test_engines_agree_when_missing_labels_are_dropped_or_named(corpus, name):
    for options in ({"dropna": True}, {"na_values": ("NA", "nan", "NULL")},
                    {"dropna": True, "na_values": ("NA", "nan", "NULL")}):
        results = engines(corpus[name], **options)
        assert results["duckdb"] == results["pandas"] == results["dask"], (name, options)


@pytest.mark.parametrize("gold", [b"gold\na\n\nb\n", b"\ngold\na\nb\nc\n", b"gold\r\na\r\n   \r\nb\r\n",
                                  b'gold\n"a\nb"\n\nc\n'])
def test_one_column_files_aligned_by_row(tmp_path, gold):
    """One column: every line is an item (a blank one has a missing label), in both engines."""
    g, p = tmp_path / "gold.txt", tmp_path / "pred.txt"
    g.write_bytes(gold)
    p.write_bytes(b"pred\nx\ny\nz\n")
    results = [outcome(lambda e=engine: mio.contingency_from_files(g, "gold", "pred", pred_paths=p, engine=e))
               for engine in ("pandas", "duckdb")]
    assert results[0] == results[1]


@pytest.mark.parametrize("name", [n for n in CORPUS if not n.endswith(".parquet")])
def test_the_scan_counts_the_rows_pandas_reads(corpus, name):
    """The scan's record count — DuckDB's check — is pandas' row count on every readable text file."""
    path = corpus[name]
    try:
        rows = len(mio.read_labels(path).raw)
    except ValueError:
        return
    layout = scan_text(path, mio.sniff(path), header=True)
    assert layout.records == rows


def test_duckdb_refuses_a_count_that_differs_from_the_scan(corpus, monkeypatch):
    """DuckDB's rows are checked against the scan's count: a reader that lost (or invented) rows is
    refused, not counted. Simulated: the scan reports one record more than the file holds."""
    real = duckdb_engine.scan_text

    def one_more(*args, **kwargs) -> TextLayout:
        layout = real(*args, **kwargs)
        return TextLayout(layout.records + 1, layout.content_bytes, layout.longest_record, layout.line_endings,
                          layout.quoted_line_breaks, layout.white_lines)

    monkeypatch.setattr(duckdb_engine, "scan_text", one_more)
    with pytest.raises(ValueError, match="DuckDB read 2 rows where the file holds 3 records"):
        mio.contingency_from_files(corpus["crlf.csv"], engine="duckdb")


def test_a_stray_quote_deep_in_a_big_file_is_refused_by_both_engines(tmp_path):
    """The review's case, smaller: rows in the millions, a stray quote halfway. DuckDB counted half
    the rows and exited 0; now both engines refuse with the same line number."""
    path = tmp_path / "big_quote.csv"
    half = 600_000
    path.write_bytes(b"gold,pred\n" + b"c1,c0\n" * half + b'"c3,c0\n' + b"c2,c0\n" * half)
    messages = set()
    for engine in ("pandas", "duckdb"):
        with pytest.raises(ValueError) as info:
            mio.contingency_from_files(path, engine=engine)
        messages.add(str(info.value))
    assert messages == {f"{path}: the quote that opens a cell on line {half + 2:,} is never closed (everything "
                        "after it "
                        "would be one cell, up to the end of the file): close it, or remove it"}


@pytest.mark.parametrize("block", [1, 2, 3, 5, 64])
def test_the_scan_does_not_depend_on_how_the_stream_is_cut(block):
    data = (b'gold,pred\r\n"a\r\nb",x\n  \n"say ""hi""",y\rc,z\r\n\r\n"q",w\n')
    whole = TextScan("f", ",", 2, True)
    whole.feed(data)
    want = whole.finish()
    parts = TextScan("f", ",", 2, True)
    for i in range(0, len(data), block):
        parts.feed(data[i:i + block])
    assert parts.finish() == want
    assert (want.records, want.white_lines, want.quoted_line_breaks) == (4, 1, True)
    assert want.line_endings == {"\r\n", "\n", "\r"}
    bad = b'gold,pred\na,x\nb"q,y\n'
    errors = set()
    for size in (1, 4, len(bad)):
        scan = TextScan("f", ",", 2, True)
        with pytest.raises(ValueError) as info:
            for i in range(0, len(bad), size):
                scan.feed(bad[i:i + size])
            scan.finish()
        errors.add(str(info.value))
    assert len(errors) == 1 and "line 3" in errors.pop()


@pytest.mark.parametrize("block", [1, 2, 3, 7, 64])
def test_a_nul_byte_is_refused_on_its_line_however_the_stream_is_cut(block):
    data = b'gold,pred\r\na,x\r\n"b\r\nc",y\rd\x00,z\n'
    scan = TextScan("f", ",", 2, True)
    with pytest.raises(ValueError, match=r"a NUL byte on line 5\)"):
        for i in range(0, len(data), block):
            scan.feed(data[i:i + block])
        scan.finish()


def test_a_big_quoted_file_is_read_in_one_partition_by_dask(tmp_path):
    """Dask cuts text files at line breaks blind to quotes: a quoted line break at a cut gave two
    broken rows. A file whose scan finds one is read whole."""
    path = tmp_path / "q.csv"
    path.write_bytes(b"gold,pred\n" + b'"a\nb",x\n' * 20_000)
    ddf = mio.read_dask(path, ["gold", "pred"])
    assert ddf.npartitions == 1
    t = mio.contingency_from_dask(ddf, "gold", "pred")
    assert t.n == 20_000 and list(t.row_labels) == ["a\nb"]


def test_labels_keep_the_same_python_types_in_every_engine(corpus):
    for name in ("binary.parquet", "timestamps.parquet", "dates.parquet", "decimals.parquet"):
        results = engines(corpus[name])
        types = {engine: [t for _, t in r[1]] for engine, r in results.items()}
        assert types["duckdb"] == types["pandas"] == types["dask"], (name, types)
    assert np.array_equal(np.array(engines(corpus["signed_zero.parquet"])["duckdb"][3]), [[2, 0], [0, 1]])
