"""The reader: a file (path or bytes) → its label columns, with the one missing-value rule.

The missing-value rule (:func:`missing_mask`), the same for every format and engine:

* an **empty cell** is missing — an empty field in CSV/TSV (quoted ``""`` too), a blank line
  in a one-column file, the absent fields of a line shorter than the header, an empty string,
  a null or a float NaN in Parquet;
* **texts are labels**, exactly as written: ``NA``, ``NaN``, ``nan``, ``null``, ``None``,
  ``01`` and ``1`` are five different labels, and a real class called "NA" is kept —
  **unless** the caller asks to treat given texts as missing (``na_values``; the app's
  checkbox, the command line's ``--na-values``). They are compared with the whole text of a
  cell (quotes removed, nothing trimmed), in every column read (ids too), and with string
  values in Parquet; numbers in Parquet never match them (Parquet states missing values as
  nulls).

What happens to items with a missing label is the caller's choice
(:func:`contingency_from_columns`): an error naming the count per side and the first data rows
(:class:`~metrics.io.MissingLabelsError`), or dropping them. Data rows are counted from 1 after
the header (or from the first line without one), across shards in order.
"""

from __future__ import annotations

import codecs
import gzip
import importlib
import io
import os
import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from .._lazy import lazy_module
from ..core.contingency import Contingency
from .cells import table_from_labels
from .errors import EmptyTableError, MissingLabelsError
from .scan import ContentTooLargeError, TextScan, damaged_gzip
from .sniff import FileKind, is_stream, read_stream, sniff

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    pd = lazy_module("pandas")

__all__ = ["COMMON_NA_TEXTS", "LabelColumns", "MissingReport", "contingency_from_columns", "file_columns",
           "missing_mask", "missing_report", "read_labels"]

#: Texts that files often use for "no value". Never missing by default; the app's checkbox
#: and ``--na-values`` with this list treat them as missing.
COMMON_NA_TEXTS = ("NA", "N/A", "n/a", "#N/A", "NaN", "nan", "NULL", "null", "None", "<NA>")
#: Rows parsed per chunk of a text file (progress is reported after each).
CHUNK_ROWS = 250_000
_IO_EXTRA = "pip install 'partition-lab[io]'"

Progress = Callable[[float], None]


def _optional(module: str, purpose: str):
    """Import an optional dependency, or say which extra installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"{purpose} needs the optional package {module.split('.')[0]!r}: {_IO_EXTRA}") from exc


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


def numbered(n: int) -> list[str]:
    """Names of the columns of a headerless file: ``"1"``, ``"2"``, … (as ``cut -f`` counts)."""
    return [str(i + 1) for i in range(n)]


def _source_name(source, name: str | None) -> str:
    if name is not None:
        return name
    if isinstance(source, (bytes, bytearray, memoryview)):
        return "the file"
    return os.fspath(source)


#: Bytes a pipe or device given to the reader may hold (it is read once, into memory).
STREAM_MAX_BYTES = 4 * 2**30


def _once(source, name: str, max_bytes: int | None = None):
    """``(source, name)``, with a pipe, FIFO or device (``/dev/stdin``, ``<(…)``) read once into
    bytes: the sniff and the parse each read the file, and a pipe gives its bytes only once."""
    if isinstance(source, (bytes, bytearray, memoryview)) or not is_stream(source):
        return source, name
    buf = io.BytesIO()
    read_stream(source, buf, limit=max_bytes if max_bytes is not None else STREAM_MAX_BYTES)
    return buf.getvalue(), name


def _check_exists(source) -> None:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return
    path = os.fspath(source)
    if os.path.isdir(path):
        raise IsADirectoryError(f"{path!r} is a directory: give the files (a glob such as '{path}/*.parquet' works)")
    if not os.path.exists(path):
        raise FileNotFoundError(f"file not found: {path!r}")


# ---------------------------------------------------------------------- columns of a file
def text_names(kind: FileKind, header: bool) -> list[str]:
    """Column names of a text file: its header (empty names numbered by position), or 1, 2, …"""
    if not header:
        return numbered(kind.width)
    names = [c if c != "" else str(i + 1) for i, c in enumerate(kind.first_record)]
    seen: set[str] = set()
    for c in names:
        if c in seen:
            raise ValueError(f"{kind.name}: the column name {c!r} appears twice in the header: rename one")
        seen.add(c)
    return names


def _parquet_file(source, name: str):
    pq = _optional("pyarrow.parquet", "reading Parquet")
    try:
        return pq.ParquetFile(io.BytesIO(source) if isinstance(source, (bytes, bytearray, memoryview)) else source)
    except Exception as exc:  # ArrowInvalid and friends: PAR1 at the start, but not a whole Parquet file
        raise ValueError(f"{name} could not be read as Parquet ({_first_line(exc)}): export it again") from None


def file_columns(source, *, header: bool = True, name: str | None = None) -> list[str]:
    """The column names of one CSV/TSV/Parquet file (path or bytes), reading only its start.

    Headerless text files (``header=False``) have columns ``"1"``, ``"2"``, …
    """
    _check_exists(source)
    source, name = _once(source, _source_name(source, name))
    kind = sniff(source, name)
    if kind.fmt == "parquet":
        return [str(c) for c in _parquet_file(source, name).schema_arrow.names]
    return text_names(kind, header)


# ---------------------------------------------------------------------- reading
def _ragged(message: str, kind: FileKind) -> str:
    what = {"\t": "tabs", ",": "commas", ";": "semicolons"}[kind.text_delimiter]
    m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", message)
    if m:
        expected, line, saw = m.groups()
        return (f"{kind.name}: line {line} has {saw} fields where the first line has {expected} (a ragged file): "
                f"every line needs the same number of {what}")
    return f"{kind.name} could not be read as {kind.fmt.upper()} ({_first_line(ValueError(message))})"


class _Tracked(io.RawIOBase):
    """A binary stream that reports how far its reader got (progress of a chunked parse)."""

    def __init__(self, inner, total: int):
        self.inner, self.total, self.done = inner, max(total, 1), 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.inner.read(len(buffer))
        buffer[:len(data)] = data
        self.done += len(data)
        return len(data)


class _Scanned(io.RawIOBase):
    """The content stream pandas parses, fed on its way to a :class:`~metrics.io.scan.TextScan`
    (UTF-16 re-encoded as UTF-8 for it), which stops a file at its size limit."""

    def __init__(self, inner, scan: TextScan, utf16: bool):
        self.inner, self.scan = inner, scan
        self.decoder = codecs.getincrementaldecoder("utf-16")("strict") if utf16 else None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.inner.read(len(buffer))
        self._feed(data)
        buffer[:len(data)] = data
        return len(data)

    def _feed(self, data: bytes) -> None:
        if self.decoder is not None:
            data = self.decoder.decode(data, final=not data).encode("utf-8")
        if data:
            self.scan.feed(data)

    def finish(self):
        """Feed what pandas left unread, then the scan's verdict: its layout, or its error."""
        while data := self.inner.read(1 << 22):
            self._feed(data)
        self._feed(b"")
        return self.scan.finish()


def _open_binary(source):
    if isinstance(source, (bytes, bytearray, memoryview)):
        return io.BytesIO(source), len(source)
    return open(source, "rb"), os.path.getsize(source)


def read_text_raw(source, kind: FileKind, header: bool, names: list[str] | None = None,
                  progress: Progress | None = None, limit: int | None = None) -> pd.DataFrame:
    """Every cell of a delimited text file as text, exactly as written ('' for an empty cell).

    The file is checked on the way by :class:`~metrics.io.scan.TextScan` — its quoting, and its
    size after decompression against ``limit`` (bytes) — whose refusal comes first, as it does in
    the DuckDB engine, which runs the same scan.
    """
    names = text_names(kind, header) if names is None else names
    raw, total = _open_binary(source)
    tracked = _Tracked(raw, total)
    stream = io.BufferedReader(tracked, buffer_size=1 << 20)
    content = gzip.GzipFile(fileobj=stream) if kind.compression == "gzip" else stream
    scanned = _Scanned(content, TextScan(kind.name, kind.text_delimiter, kind.width, header, limit,
                                         kind.compression == "gzip"), kind.encoding == "utf-16")
    handle = io.BufferedReader(scanned, buffer_size=1 << 20)
    chunks = []
    try:
        try:
            # na_filter off: no text is turned into NaN here; the missing rule is applied afterwards,
            # in one place. A blank line is an empty cell only where a line holds one cell.
            reader = pd.read_csv(handle, sep=kind.delimiter, header=0 if header else None, names=names, dtype=str,
                                 na_filter=False, encoding=kind.encoding, quotechar='"', doublequote=True,
                                 skip_blank_lines=len(names) > 1, chunksize=CHUNK_ROWS, engine="c")
            for chunk in reader:
                chunks.append(chunk)
                if progress is not None:
                    progress(min(tracked.done / tracked.total, 1.0))
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError):
            scanned.finish()  # a broken rule the scan finds anywhere in the file is the refusal
            raise
        scanned.finish()
    except pd.errors.EmptyDataError:
        raise ValueError(f"{kind.name} has no columns to read") from None
    except pd.errors.ParserError as exc:
        raise ValueError(_ragged(str(exc), kind)) from None
    except UnicodeDecodeError:
        raise ValueError(f"{kind.name} is not {'UTF-16' if kind.encoding == 'utf-16' else 'UTF-8'} text throughout "
                         "(a byte further down cannot be decoded; Latin-1 or Windows-1252?): save it as UTF-8 "
                         "(in Excel: 'CSV UTF-8') and use that") from None
    except (OSError, EOFError, zlib.error):
        if kind.compression != "gzip":
            raise
        # A truncated or damaged gzip stream.
        raise ValueError(damaged_gzip(kind.name)) from None
    finally:
        handle.close()
        content.close()
        raw.close()
    if not chunks or sum(len(c) for c in chunks) == 0:
        raise ValueError(f"{kind.name} has column names but no data rows: add one row per item")
    df = pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0]
    if progress is not None:
        progress(1.0)
    return df


def check_plain_columns(schema, columns: Sequence[str], name: str) -> None:
    """Refuse a Parquet column of nested values (lists, structs, maps): no label per row."""
    pa = _optional("pyarrow", "reading Parquet")
    for c in columns:
        t = schema.field(c).type
        if pa.types.is_nested(t) or (pa.types.is_dictionary(t) and pa.types.is_nested(t.value_type)):
            raise ValueError(f"{name}: column {c!r} holds {t} values: labels must be plain text or numbers")


def parquet_content_size(pf, columns: Sequence[str]) -> int:
    """What ``columns`` of a Parquet file amount to as text, at least: the uncompressed size its
    metadata states, and never less than two bytes a cell (a one-character cell and its delimiter,
    the smallest CSV of the same cells) — a few kB of Parquet can hold 10^8 equal cells."""
    meta = pf.metadata
    wanted = set(columns)
    stated = 0
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        for c in range(group.num_columns):
            chunk = group.column(c)
            if chunk.path_in_schema.split(".")[0] in wanted:
                stated += chunk.total_uncompressed_size
    return max(stated, 2 * meta.num_rows * len(wanted))


def read_parquet_raw(source, name: str, columns: Sequence[str] | None = None,
                     progress: Progress | None = None, limit: int | None = None) -> pd.DataFrame:
    """The Parquet file's columns with their types (nulls as None/NaN), in batches; refused
    (:class:`~metrics.io.scan.ContentTooLargeError`) when their cells as text would exceed ``limit``."""
    pa = _optional("pyarrow", "reading Parquet")
    pf = _parquet_file(source, name)
    schema = pf.schema_arrow
    if columns is not None:
        _check_columns(list(map(str, schema.names)), columns, name)
    cols = list(schema.names) if columns is None else list(columns)
    check_plain_columns(schema, cols, name)
    if limit is not None and parquet_content_size(pf, cols) > limit:
        raise ContentTooLargeError(name, limit, "parquet")
    total = max(pf.metadata.num_rows, 1)
    batches, done = [], 0
    try:
        for batch in pf.iter_batches(batch_size=CHUNK_ROWS, columns=cols):
            batches.append(batch)
            done += batch.num_rows
            if progress is not None:
                progress(min(done / total, 1.0))
        table = pa.Table.from_batches(batches, schema=pa.schema([schema.field(c) for c in cols])) if batches else None
    except (pa.ArrowException, OSError) as exc:
        raise ValueError(f"{name} could not be read as Parquet ({_first_line(exc)}): export it again") from None
    if table is None or table.num_rows == 0:
        raise ValueError(f"{name} has column names but no data rows: add one row per item")
    # Integer columns with nulls stay integers (objects with None), as in DuckDB, not floats.
    df = table.to_pandas(integer_object_nulls=True)
    df.columns = [str(c) for c in df.columns]
    return df


def _check_columns(present: list[str], wanted: Sequence[str], name: str) -> None:
    for c in wanted:
        if c not in present:
            raise ValueError(f"{name} has no column {c!r}; its columns: {', '.join(present)}")


# ---------------------------------------------------------------------- the missing rule
def _is_text(values: pd.Series) -> bool:
    dtype = values.dtype
    if isinstance(dtype, pd.CategoricalDtype):  # a compacted column (LabelColumns.compact)
        dtype = dtype.categories.dtype
    return dtype == np.dtype(object) or pd.api.types.is_string_dtype(dtype)


def missing_mask(values, na_values: Sequence[str] = ()) -> np.ndarray:
    """Which values are missing under the rule (module docstring): a boolean array.

    Missing: None, NaN, pd.NA and empty strings; and, for text values, the texts in ``na_values``.
    """
    s = values if isinstance(values, pd.Series) else pd.Series(np.asarray(values, dtype=object)
                                                               if not isinstance(values, np.ndarray) else values)
    mask = np.array(s.isna(), dtype=bool)
    if _is_text(s):
        mask |= np.asarray(s.isin(["", *na_values]), dtype=bool)
    return mask


@dataclass(frozen=True)
class MissingReport:
    """Missing labels of two aligned label columns: counts and first 1-based rows per side."""

    items: int
    gold: int
    pred: int
    gold_rows: tuple[int, ...]
    pred_rows: tuple[int, ...]

    def error(self, gold_source: str = "", pred_source: str = "", na_values: Sequence[str] = ()) -> MissingLabelsError:
        return MissingLabelsError(items=self.items, gold=self.gold, pred=self.pred, gold_rows=self.gold_rows,
                                  pred_rows=self.pred_rows, gold_source=gold_source, pred_source=pred_source,
                                  na_values=na_values)


def _first_rows(mask: np.ndarray, k: int = MissingLabelsError.SHOWN) -> tuple[int, ...]:
    return tuple(int(i) + 1 for i in np.flatnonzero(mask)[:k])


def missing_report(gold, pred, na_values: Sequence[str] = ()) -> MissingReport:
    """Counts and first rows of missing labels in two aligned columns (no error raised)."""
    mg, mp = missing_mask(gold, na_values), missing_mask(pred, na_values)
    return MissingReport(int((mg | mp).sum()), int(mg.sum()), int(mp.sum()), _first_rows(mg), _first_rows(mp))


def _as_series(values, what: str) -> pd.Series:
    if isinstance(values, pd.Series):
        return values.reset_index(drop=True)
    if isinstance(values, pd.DataFrame):
        raise ValueError(f"the {what} labels are a DataFrame: pass one column (df['name'])")
    arr = np.asarray(values, dtype=object) if not isinstance(values, np.ndarray) else values
    if arr.ndim != 1:
        raise ValueError(f"the {what} labels must be one column (1-D), got shape {arr.shape}")
    return pd.Series(arr)


def contingency_from_columns(gold, pred, *, dropna: bool = False, na_values: Sequence[str] = (),
                             gold_source: str = "", pred_source: str | None = None) -> Contingency:
    """The contingency table of two aligned label columns, under the missing-value rule.

    ``gold`` and ``pred`` list the gold class and the predicted cluster of the same items in the
    same order (pandas Series — e.g. two columns of :attr:`LabelColumns.frame` — or 1-D arrays).
    Items with a missing label (:func:`missing_mask`; ``na_values`` adds texts) raise
    :class:`~metrics.io.MissingLabelsError` naming the counts per side and the first rows
    (1-based positions), or are left out with ``dropna=True``. ``gold_source`` and
    ``pred_source`` (default: the same) name the files in messages.

    The table lists its labels in sorted order and its cells row by row, as every engine's
    does (:mod:`metrics.io.cells`), so equal labels give equal numbers to the last digit.

    Raises :class:`~metrics.io.EmptyTableError` when no item is left, ``ValueError`` for columns
    of different lengths and for labels that are not plain values (lists, dicts) or infinite.
    """
    pred_source = gold_source if pred_source is None else pred_source
    g, p = _as_series(gold, "gold"), _as_series(pred, "predicted")
    if len(g) != len(p):
        raise ValueError(f"the gold labels have {len(g):,} rows and the predicted labels {len(p):,}: both must list "
                         "the same items in the same order")
    report = missing_report(g, p, na_values)
    if report.items:
        if not dropna:
            raise report.error(gold_source, pred_source, na_values)
        keep = ~(missing_mask(g, na_values) | missing_mask(p, na_values))
        g, p = g[keep], p[keep]
    if len(g) == 0:
        reason = "every row has a missing label and was left out" if report.items else "there are no rows"
        raise EmptyTableError(reason)
    return table_from_labels(g, p)


# ---------------------------------------------------------------------- label columns of a file
@dataclass(frozen=True, eq=False)
class LabelColumns:
    """Label columns read from one file, before and after the missing-value rule.

    ``raw`` holds the cells as read (text exactly as written, ``""`` for an empty cell; Parquet
    values with their types), ``kind`` how the file was read (format, encoding, delimiter, and
    ``notes`` where the content overrode the name), ``na_values`` the texts treated as missing.
    :attr:`frame` is ``raw`` with every missing cell set to NA; its row ``i`` is data row ``i + 1``.
    """

    raw: pd.DataFrame
    kind: FileKind
    na_values: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.kind.name

    @property
    def columns(self) -> list[str]:
        return list(self.raw.columns)

    @property
    def notes(self) -> tuple[str, ...]:
        return self.kind.notes

    def __len__(self) -> int:
        return len(self.raw)

    @cached_property
    def _masks(self) -> dict[str, np.ndarray]:
        return {c: missing_mask(self.raw[c], self.na_values) for c in self.raw.columns}

    @cached_property
    def frame(self) -> pd.DataFrame:
        """The columns with the missing-value rule applied (missing cells are NA)."""
        out = {}
        for c in self.raw.columns:
            mask = self._masks[c]
            out[c] = self.raw[c].where(~mask) if mask.any() else self.raw[c]
        return pd.DataFrame(out)

    @property
    def missing(self) -> dict[str, int]:
        """Missing cells per column."""
        return {c: int(m.sum()) for c, m in self._masks.items()}

    def missing_rows(self, column: str, k: int = MissingLabelsError.SHOWN) -> tuple[int, ...]:
        """The first ``k`` data rows (1-based) where ``column`` is missing."""
        return _first_rows(self._masks[column], k)

    def compact(self) -> LabelColumns:
        """The same cells in less memory: each text column with repeated labels stored as codes
        into its sorted distinct texts (a pandas Categorical: 1-2 bytes a cell instead of a
        string). Every function of the reader gives the same results on it — what a server keeps
        of an upload for as long as a session uses it."""
        out = {}
        for c in self.raw.columns:
            col = self.raw[c]
            if _is_text(col) and not isinstance(col.dtype, pd.CategoricalDtype) and \
                    col.nunique(dropna=False) <= len(col) // 2:
                col = col.astype("category")
            out[c] = col
        return replace(self, raw=pd.DataFrame(out, index=self.raw.index))

    def with_na_values(self, na_values: Sequence[str]) -> LabelColumns:
        """The same cells under other ``na_values`` (no re-reading)."""
        return replace(self, na_values=tuple(na_values))

    def select(self, columns: Sequence[str]) -> LabelColumns:
        """Only ``columns`` (ValueError naming the file's columns if one is absent)."""
        _check_columns(self.columns, columns, self.name)
        return replace(self, raw=self.raw[list(columns)])

    def contingency(self, gold: str, pred: str, *, dropna: bool = False) -> Contingency:
        """The table of two of these columns (:func:`contingency_from_columns`)."""
        _check_columns(self.columns, [gold, pred], self.name)
        return contingency_from_columns(self.raw[gold], self.raw[pred], dropna=dropna, na_values=self.na_values,
                                        gold_source=self.name)


def read_labels(source, columns: Sequence[str] | None = None, *, name: str | None = None, header: bool = True,
                na_values: Sequence[str] = (), progress: Progress | None = None,
                max_bytes: int | None = None) -> LabelColumns:
    """Read label columns from a CSV/TSV/Parquet file given as a path or as bytes.

    The format, encoding and delimiter come from the content (:func:`~metrics.io.sniff`);
    text stays text exactly as written.

    Parameters
    ----------
    source
        A path (str or PathLike) or the file's bytes (an upload).
    columns
        The columns to keep (all when None), by name; headerless files (``header=False``)
        have columns ``"1"``, ``"2"``, … . Several label columns at once (a gold column and
        predictions p1, p2, …) are read in one pass.
    name
        The file's name (for bytes): used in messages, and its extension is a hint.
    na_values
        Texts to treat as missing besides empty cells (default none: ``NA`` is a label).
    progress
        Called with the fraction read (0..1) after each chunk of rows.
    max_bytes
        Refuse (:class:`~metrics.io.scan.ContentTooLargeError`) a file whose text exceeds this
        many bytes once decompressed — stopped as soon as it does, so a gzip bomb is never
        expanded — or a Parquet file whose cells as text would (an app's cap on what one
        upload may cost). None: no limit.

    Raises
    ------
    ValueError
        Saying what is wrong and what to do: empty, binary, spreadsheet, non-UTF-8 or ragged
        files; unknown columns.
    """
    _check_exists(source)
    source, name = _once(source, _source_name(source, name), max_bytes)
    if columns is not None:
        columns = list(dict.fromkeys(columns))  # a column asked for twice is read once
    kind = sniff(source, name)
    if kind.fmt == "parquet":
        raw = read_parquet_raw(source, name, columns, progress, max_bytes)
    else:
        names = text_names(kind, header)
        if columns is not None:
            _check_columns(names, columns, name)
        # Every column is parsed (a line with too many fields must fail even outside the chosen
        # columns, as it does in DuckDB); only the chosen ones are kept.
        raw = read_text_raw(source, kind, header, names, progress, max_bytes)
        if columns is not None:
            raw = raw[list(columns)]
    return LabelColumns(raw, kind, tuple(na_values))
