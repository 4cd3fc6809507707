"""Label files → labels → one :class:`metrics.Contingency`.

Accepted: CSV, TSV (or .txt with tabs or commas) and Parquet; one file holding a gold and a
cluster column, or two files with one labelling each (same items, same order). Every problem a
file can have ends in a ``ValueError`` whose message says what is wrong and what to do; the
page shows it with ``st.error``.

Large files (10^6 rows and more) are read in chunks with a progress callback, parsed once per
upload (kept in the session), and the table is built once per choice of columns.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import PurePath

import pandas as pd
import streamlit as st

import metrics

TEXT_TYPES = ("csv", "tsv", "txt")
PARQUET_TYPES = ("parquet", "pq")
SUPPORTED = TEXT_TYPES + PARQUET_TYPES
CHUNK_ROWS = 250_000
# The default byte limit of one file, in MB (2^20 bytes) as Streamlit counts them: the same number
# as ``server.maxUploadSize`` in .streamlit/config.toml. The server refuses larger uploads, but the
# panel checks again with the live option (AppTest and other callers bypass the server's check).
MAX_UPLOAD_MB = 200
_CACHE_ENTRIES = 6

Progress = Callable[[float], None]


# ---------------------------------------------------------------- reading files (no Streamlit)
def read_labels_file(name: str, data: bytes, header: bool = True, progress: Progress | None = None,
                     max_mb: float = MAX_UPLOAD_MB) -> pd.DataFrame:
    """The columns of an uploaded file; text files keep labels as strings, exactly as written."""
    ext = PurePath(name).suffix.lower().lstrip(".")
    if ext not in SUPPORTED:
        raise ValueError(f"{name}: unsupported file type {ext or '(none)'!r}; use CSV, TSV or Parquet")
    if not data:
        raise ValueError(f"{name} is empty: upload a file with one row per item")
    if len(data) > max_mb * 2**20:
        raise ValueError(f"{name} is {len(data) / 2**20:,.0f} MB, over the upload limit of {max_mb:g} MB: "
                         "upload a Parquet version (much smaller) or a sample, or score the full file with "
                         "the `partition-lab score` command line")
    if data.startswith(b"PK\x03\x04") and ext in TEXT_TYPES:
        raise ValueError(f"{name} is a ZIP archive (an Excel .xlsx workbook?), not {ext.upper()} text: "
                         "save it as 'CSV UTF-8' from the spreadsheet program and upload that")
    df = _read_parquet(name, data, progress) if ext in PARQUET_TYPES else _read_text(name, data, ext, header, progress)
    if df.shape[1] == 0:
        raise ValueError(f"{name} has no columns")
    if df.shape[0] == 0:
        raise ValueError(f"{name} has column names but no data rows: add one row per item")
    df.columns = [str(c) for c in df.columns]
    return df


def _read_text(name: str, data: bytes, ext: str, header: bool, progress: Progress | None) -> pd.DataFrame:
    if b"\x00" in data[:65536]:
        raise ValueError(f"{name} looks like a binary file, not CSV/TSV text (Parquet files need a .parquet name)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name} is not UTF-8 text (undecodable byte at position {exc.start}): "
                         "save it as UTF-8 CSV or TSV") from None
    if not text.strip():
        raise ValueError(f"{name} holds only blank space: upload a file with one row per item")
    first_line = text.split("\n", 1)[0]
    sep = "\t" if ext == "tsv" or (ext == "txt" and "\t" in first_line) else ","
    total_lines = max(text.count("\n"), 1)
    chunks, done = [], 0
    try:
        reader = pd.read_csv(io.StringIO(text), sep=sep, header=0 if header else None, dtype=str,
                             skipinitialspace=True, chunksize=CHUNK_ROWS)
        for chunk in reader:
            chunks.append(chunk)
            done += len(chunk)
            if progress:
                progress(min(done / total_lines, 1.0))
    except pd.errors.EmptyDataError:
        raise ValueError(f"{name} has no columns to read") from None
    except pd.errors.ParserError as exc:
        raise ValueError(f"{name}: {_explain_parser_error(str(exc), sep)}") from None
    if not chunks:
        raise ValueError(f"{name} has column names but no data rows: add one row per item")
    df = pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0]
    if not header:
        df.columns = [f"column {i + 1}" for i in range(df.shape[1])]
    return df


def _explain_parser_error(message: str, sep: str) -> str:
    m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", message)
    what = "tabs" if sep == "\t" else "commas"
    if m:
        expected, line, saw = m.groups()
        return (f"line {line} has {saw} fields where the first line has {expected} (a ragged file): "
                f"every line needs the same number of {what}")
    return f"could not be read as {'TSV' if sep == chr(9) else 'CSV'} ({message.strip()})"


def _read_parquet(name: str, data: bytes, progress: Progress | None) -> pd.DataFrame:
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not data.startswith(b"PAR1"):
        raise ValueError(f"{name} is not a Parquet file (it lacks the PAR1 signature): "
                         "if it holds CSV text, give it a .csv name")
    try:
        pf = pq.ParquetFile(io.BytesIO(data))
        total = max(pf.metadata.num_rows, 1)
        batches, done = [], 0
        for batch in pf.iter_batches(batch_size=CHUNK_ROWS):
            batches.append(batch)
            done += batch.num_rows
            if progress:
                progress(min(done / total, 1.0))
        table = pa.Table.from_batches(batches, schema=pf.schema_arrow) if batches else pf.schema_arrow.empty_table()
        return table.to_pandas()
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise ValueError(f"{name} could not be read as Parquet ({exc})") from None


# ---------------------------------------------------------------- labels → table
def missing_counts(gold: pd.Series, pred: pd.Series) -> tuple[int, int, int]:
    """(missing gold labels, missing cluster labels, rows with either missing)."""
    g, p = gold.isna().to_numpy(), pred.isna().to_numpy()
    return int(g.sum()), int(p.sum()), int((g | p).sum())


def labels_to_contingency(gold: pd.Series, pred: pd.Series, missing: str = "error") -> metrics.Contingency:
    """The table of two label columns; ``missing`` is ``"drop"`` (leave such rows out) or ``"error"``."""
    if missing not in ("drop", "error"):
        raise ValueError(f"missing must be 'drop' or 'error', got {missing!r}")
    if len(gold) != len(pred):
        raise ValueError(f"the gold labels have {len(gold)} rows and the cluster labels {len(pred)}: "
                         "both must list the same items in the same order")
    n_gold, n_pred, n_rows = missing_counts(gold, pred)
    if n_rows:
        if missing == "error":
            first = int((gold.isna().to_numpy() | pred.isna().to_numpy()).argmax())
            raise ValueError(f"{n_rows} row(s) have a missing label (gold: {n_gold}, cluster: {n_pred}; first at "
                             f"data row {first + 1}): choose 'drop' to leave them out, or fill them in the file")
        keep = ~(gold.isna().to_numpy() | pred.isna().to_numpy())
        gold, pred = gold[keep], pred[keep]
        if len(gold) == 0:
            raise ValueError("every row has a missing label: nothing is left to count — fill in the labels, "
                             "or choose other columns")
    try:
        t = metrics.Contingency.from_labels(gold.to_numpy(), pred.to_numpy())
    except TypeError as exc:  # e.g. a Parquet column of lists or maps: labels must be hashable
        raise ValueError(f"labels must be plain text or numbers, one per row ({exc})") from None
    return t


# ---------------------------------------------------------------- the Streamlit panel
def _cache() -> dict:
    return st.session_state.setdefault("_upload_cache", {})


def _remember(key, value) -> None:
    cache = _cache()
    cache[key] = value
    while len(cache) > _CACHE_ENTRIES:
        cache.pop(next(iter(cache)))


def _parsed(uploaded, header: bool) -> pd.DataFrame:
    """The file's columns, read once per upload (with a progress bar) and kept in the session."""
    key = ("file", uploaded.file_id, header)
    cache = _cache()
    if key not in cache:
        bar = st.progress(0.0, text=f"Reading {uploaded.name} …")
        try:
            result = read_labels_file(uploaded.name, uploaded.getvalue(), header,
                                      progress=lambda f: bar.progress(f, text=f"Reading {uploaded.name} … {f:.0%}"),
                                      max_mb=st.get_option("server.maxUploadSize"))
        except ValueError as exc:
            result = exc
        except Exception as exc:  # noqa: BLE001 — a reader's own failure on odd input still ends in st.error
            result = ValueError(f"{uploaded.name} could not be read ({type(exc).__name__}: {exc})")
        finally:
            bar.empty()
        _remember(key, result)
    result = cache[key]
    if isinstance(result, ValueError):
        raise result
    return result


def _pick_column(df: pd.DataFrame, label: str, default: int, key: str) -> str:
    cols = list(df.columns)
    return st.selectbox(label, cols, index=min(default, len(cols) - 1), key=key)


def upload_panel(prefix: str) -> metrics.Contingency | None:
    """Upload controls; the table of the chosen label columns, or None (with the reason shown)."""
    layout = st.radio("Files", ["one", "two"], key=f"{prefix}_layout", horizontal=True,
                      format_func={"one": "one file, two columns", "two": "two files (gold, clusters)"}.get)
    header = st.checkbox("First row holds column names", value=True, key=f"{prefix}_header")
    try:
        if layout == "one":
            f = st.file_uploader("Labels (CSV, TSV or Parquet), one row per item", type=list(SUPPORTED),
                                 key=f"{prefix}_file")
            if f is None:
                st.info("Upload a file with a gold-class column and a cluster column.")
                return None
            df = _parsed(f, header)
            if df.shape[1] < 2:
                st.error(f"{f.name} has one column; it needs a gold column and a cluster column. "
                         "Upload a file with two columns, or choose 'two files'.")
                return None
            c1, c2 = st.columns(2)
            with c1:
                gold_col = _pick_column(df, "Gold class column", 0, f"{prefix}_gold_col")
            with c2:
                pred_col = _pick_column(df, "Cluster column", 1, f"{prefix}_pred_col")
            gold, pred, ids = df[gold_col], df[pred_col], (f.file_id, gold_col, pred_col)
        else:
            c1, c2 = st.columns(2)
            with c1:
                fg = st.file_uploader("Gold labels", type=list(SUPPORTED), key=f"{prefix}_file_gold")
            with c2:
                fp = st.file_uploader("Cluster labels", type=list(SUPPORTED), key=f"{prefix}_file_pred")
            if fg is None or fp is None:
                st.info("Upload both files: the gold classes and the clusters of the same items, in the same order.")
                return None
            dg, dp = _parsed(fg, header), _parsed(fp, header)
            with c1:
                gold_col = _pick_column(dg, "Gold column", 0, f"{prefix}_gold_col")
            with c2:
                pred_col = _pick_column(dp, "Cluster column", 0, f"{prefix}_pred_col")
            gold, pred, ids = dg[gold_col], dp[pred_col], (fg.file_id, fp.file_id, gold_col, pred_col)
        policy = "error"
        n_gold, n_pred, n_rows = missing_counts(gold, pred) if len(gold) == len(pred) else (0, 0, 0)
        if n_rows:
            policy = st.radio(f"{n_rows} row(s) have a missing label (gold: {n_gold}, cluster: {n_pred})",
                              ["drop", "error"], key=f"{prefix}_missing", horizontal=True,
                              format_func={"drop": "drop those rows", "error": "stop with an error"}.get)
        key = ("table", ids, header, policy)
        if key not in _cache():
            try:
                _remember(key, labels_to_contingency(gold, pred, policy))
            except ValueError as exc:
                _remember(key, exc)
        t = _cache()[key]
        if isinstance(t, ValueError):
            raise t
    except ValueError as exc:
        st.error(str(exc))
        return None
    note = f" ({n_rows} row(s) with a missing label dropped)" if n_rows else ""
    st.caption(f"{t.n:,} items, {t.shape[0]:,} classes, {t.shape[1]:,} clusters{note}.")
    if t.n < 2:
        st.warning("Only one item: every measure is at a degenerate value. Upload more rows for a meaningful table.")
    return t
