"""The one reader: label files and contingency-table files → labels and tables, for every interface.

The command line (``partition-lab score``) and the dashboard's upload panel both read files
here, so they read the same cells, apply the same missing-value rule and build the same table.

Reading (:func:`read_labels`, :func:`sniff`)
    A path or the file's bytes (with its name). CSV, TSV (also semicolon-separated "Excel CSV")
    and Parquet, optionally gzip-compressed text (``.gz``). The **content decides**: Parquet by
    its ``PAR1`` signature, the delimiter by a sniff of the first lines; the name is a hint, and
    where the content contradicts it the reader says so (:attr:`FileKind.notes`). A CSV saved
    as ``.txt`` or without extension is read. Spreadsheets (``.xlsx`` is a ZIP archive) and
    other binary files are refused with what to save instead. Encodings: UTF-8, UTF-8 with a
    byte-order mark, UTF-16 LE/BE with a byte-order mark; anything else is refused with "save
    it as UTF-8" (no guessing: a wrong guess changes labels silently). Text labels stay text
    exactly as written (``"01"`` ≠ ``"1"``, nothing trimmed); Parquet values keep their types.
    Columns are picked by name; a headerless file's columns are ``"1"``, ``"2"``, …

One set of rules for every engine (:mod:`metrics.io.scan`)
    Every text file is checked by one vectorised pass, whichever engine counts it: RFC 4180
    quoting (a quote never closed, text after a closing quote, a quote inside an unquoted cell
    are refused naming the line), lines with more cells than the first, bytes that are not
    UTF-8, and the number of records — DuckDB's row count must equal it, so no engine loses a
    row silently. pandas, DuckDB and Dask give the same table or the same refusal
    (``tests/test_engines_agree.py`` runs them side by side on a corpus of hostile files).

The missing-value rule (:func:`missing_mask`)
    An empty cell is missing (also a blank line in a one-column file, the absent fields of a
    short line, an empty string, a Parquet null, a float NaN). Texts such as ``NA``, ``NaN``,
    ``nan``, ``null``, ``None`` are **labels** unless the caller asks to treat given texts as
    missing (``na_values=[...]``; :data:`COMMON_NA_TEXTS` is a ready list). Items with a
    missing label raise :class:`MissingLabelsError` (counts per side, the first 1-based data
    rows) or are left out with ``dropna=True``; when nothing is left, :class:`EmptyTableError`
    ("the table holds no items"). Every engine — pandas, DuckDB, Dask — applies this rule.

Tables
    :func:`contingency_from_columns` turns two label columns into a table under the rule;
    :func:`contingency_from_files` counts (gold, pred) pairs over files (shards, two files
    aligned by row or by an id column) with pandas or, for big inputs, an embedded DuckDB that
    never loads the labels (:data:`DUCKDB_THRESHOLD_BYTES` is the command line's switch-over);
    :func:`contingency_from_dask` on a Dask cluster; :func:`contingency_from_table_file` reads a
    table stored as a grid of counts.

Several solutions at once: ``read_labels(path, ["gold", "p1", "p2", "p3"])`` reads the columns
in one pass (``LabelColumns.missing`` reports missing cells per column), then
``lc.contingency("gold", "p2", dropna=...)`` gives each table; files of one solution each are
aligned by id with ``contingency_from_files(gold_file, "gold", "pred", pred_paths=p_file,
id_col="id")``. For :func:`metrics.compare_solutions`, :func:`solution_columns` aligns the gold
column and every solution's labels item by item — one file's columns, or one file per solution
by row or by id — under the same missing-value rule, leaving out an item missing anywhere from
all solutions (``dropna``) or naming the counts per solution (:class:`MissingSolutionLabelsError`).

DuckDB, Dask and pyarrow are optional (``pip install 'partition-lab[io]'``): they are imported
inside the functions that need them, so ``import metrics`` never loads them.
"""

from __future__ import annotations

from .engines.dask_engine import contingency_from_dask, read_dask
from .errors import NO_ITEMS, EmptyTableError, MissingLabelsError, MissingSolutionLabelsError, UnmatchedIdsError
from .files import content_size, contingency_from_files, file_format, total_size
from .read import (  # noqa: F401  (_first_line, _optional: the CLI's one-line messages, optional imports)
    COMMON_NA_TEXTS,
    LabelColumns,
    MissingReport,
    _first_line,
    _optional,
    contingency_from_columns,
    file_columns,
    missing_mask,
    missing_report,
    read_labels,
)
from .scan import ContentTooLargeError
from .sniff import FileKind, StreamCopies, is_stream, read_stream, sniff
from .solutions import SolutionColumns, solution_columns
from .sources import expand_paths
from .tables import contingency_from_table_file, repeated_labels, repeated_labels_message

__all__ = [
    "COMMON_NA_TEXTS",
    "ContentTooLargeError",
    "DUCKDB_THRESHOLD_BYTES",
    "NO_ITEMS",
    "EmptyTableError",
    "FileKind",
    "LabelColumns",
    "MissingLabelsError",
    "MissingReport",
    "MissingSolutionLabelsError",
    "SolutionColumns",
    "StreamCopies",
    "UnmatchedIdsError",
    "content_size",
    "expand_paths",
    "contingency_from_columns",
    "contingency_from_dask",
    "contingency_from_files",
    "contingency_from_table_file",
    "file_columns",
    "file_format",
    "is_stream",
    "missing_mask",
    "missing_report",
    "read_dask",
    "read_labels",
    "read_stream",
    "repeated_labels",
    "repeated_labels_message",
    "sniff",
    "solution_columns",
    "total_size",
]

#: Input size (bytes of text once expanded, all files together: :func:`content_size`, so that
#: 1 MB of gzip holding 1 GiB counts as 1 GiB) from which the CLI's ``auto`` engine uses DuckDB
#: instead of pandas. Below it pandas is as fast (DuckDB's import and query planning cost
#: a fixed fraction of a second); above it pandas' memory grows with the number of items
#: while DuckDB's follows the number of cells (benchmarks/bench_io.py; the figures are in
#: docs/performance.md).
DUCKDB_THRESHOLD_BYTES = 32 * 2**20
