"""The DuckDB engine: ``GROUP BY gold, pred`` inside an embedded DuckDB, over the files themselves.

The labels never enter Python; memory follows the number of non-zero cells (DuckDB spills to a
temporary directory if even that does not fit). Files are read with the reader's rules, so that
both engines give the same table or the same refusal:

* each text file is first checked by :func:`~metrics.io.scan.scan_text` (quoting, records, the
  longest record): what breaks the rules is refused in the reader's words before DuckDB reads a
  byte, and DuckDB's row count must equal the scan's — a file DuckDB would read short (its
  single-threaded reader drops an unterminated quoted cell and all that follows) is refused, never
  counted;
* it is scanned with exactly the dialect the sniff found (no DuckDB auto-detection), strictly
  (``strict_mode``, no ``ignore_errors``), every cell as text (``all VARCHAR``), with short lines
  padded with NULL as pandas pads them, a line size limit that fits the longest record, and the
  parallel reader unless a quoted cell holds a line break (DuckDB reads those single-threaded);
* the missing-value rule is applied in SQL (an empty cell, a padded one, or a text in
  ``na_values`` is NULL); lines of only spaces and tabs, which pandas skips, are skipped;
* UTF-16 files and files that mix line endings (CRLF and LF: DuckDB's reader stops on them) are
  rewritten as UTF-8 with LF line ends in the temporary directory first;
* Parquet strings that are empty or in ``na_values`` and float NaN become NULL (with DuckDB's
  statistics propagation off: Parquet statistics leave NaN out, and DuckDB then decides that
  ``isnan`` is false for the whole column), and the cells come back through Arrow, so labels have
  the Python types the pandas engine gives them (bytes, dates, decimals).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading

import numpy as np

from ...core.cells import merge_tables
from ...core.contingency import Contingency
from ..cells import table_from_cells
from ..errors import MissingLabelsError
from ..read import _first_line, _optional, _parquet_file, check_plain_columns, text_names
from ..scan import TextLayout, scan_text
from ..sniff import FileKind
from ..sources import Source, check_alignment, no_items_left

#: DuckDB's own default line size limit (bytes); a file with a longer record gets a higher one.
_MAX_LINE = 2_000_000
# A text no cell holds: DuckDB's nullstr must name one, and the empty string stays a value so
# that a padded (absent) cell, NULL, can be told from an empty one.
_NO_NULL_TEXT = "\x01partition-lab: no null text\x02"
_FLOATS = ("FLOAT", "DOUBLE", "REAL")
#: Cells fetched from DuckDB at a time (each batch becomes a table; the tables are added up).
_CELLS_PER_BATCH = 1 << 20


def _sql_str(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _q(s: str) -> str:
    return '"' + s.replace('"', '""') + '"'


class _Scans:
    """SQL for reading each file of a source, with missing cells as NULL; the scan of each text file."""

    def __init__(self, con, tmp: str, na_values: tuple[str, ...]):
        self.con, self.tmp, self.na_values = con, tmp, na_values
        self._layouts: dict[str, TextLayout] = {}
        self._plain: dict[str, str] = {}

    def layout(self, path: str, kind: FileKind, header: bool) -> TextLayout:
        """The file's :class:`~metrics.io.scan.TextLayout` (scanned once; refuses broken quoting)."""
        if path not in self._layouts:
            layout = scan_text(path, kind, header)
            if layout.records == 0:  # the same words as the pandas reader
                raise ValueError(f"{path} has column names but no data rows: add one row per item")
            self._layouts[path] = layout
        return self._layouts[path]

    def _plain_copy(self, path: str, kind: FileKind, header: bool) -> str:
        """A UTF-8 copy with LF line ends (decompressed), written once into the temporary directory."""
        if path not in self._plain:
            out = os.path.join(self.tmp, f"plain-{len(self._plain)}.txt")
            with open(out, "wb") as sink:
                scan_text(path, kind, header, sink=sink)
            self._plain[path] = out
        return self._plain[path]

    def expected_rows(self, src: Source) -> int | None:
        """Rows the files of ``src`` hold by the scans and Parquet metadata (None: not all known)."""
        total = 0
        for path, kind in zip(src.paths, src.kinds):
            if kind.fmt == "parquet":
                total += _parquet_file(path, path).metadata.num_rows
            elif path in self._layouts:
                total += self._layouts[path].records
            else:
                return None
        return total

    def _missing(self, expr: str) -> str:
        texts = ", ".join(_sql_str(v) for v in ("", *self.na_values))
        return f"CASE WHEN {expr} IN ({texts}) THEN NULL ELSE {expr} END"

    def file(self, path: str, kind: FileKind, header: bool, wanted: list[tuple[str, str]]) -> str:
        """``SELECT col AS alias, … FROM <scan of path>`` with the missing rule applied."""
        if kind.fmt == "parquet":
            check_plain_columns(_parquet_file(path, path).schema_arrow, [c for c, _ in wanted], path)
            scan = f"read_parquet({_sql_str(path)})"
            types = {row[0]: row[1] for row in self.con.execute(f"DESCRIBE SELECT * FROM {scan}").fetchall()}
            cols = []
            for col, alias in wanted:
                t = types[col]
                if t.endswith("]") or t.split("(")[0] in ("STRUCT", "MAP", "UNION"):
                    raise ValueError(f"{path}: column {col!r} holds {t} values: labels must be plain text or numbers")
                if t == "VARCHAR":
                    cols.append(f"{self._missing(_q(col))} AS {alias}")
                elif t in _FLOATS:
                    self.con.execute("SET disabled_optimizers = 'statistics_propagation'")
                    cols.append(f"CASE WHEN isnan({_q(col)}) THEN NULL ELSE {_q(col)} END AS {alias}")
                else:
                    cols.append(f"{_q(col)} AS {alias}")
            return f"SELECT {', '.join(cols)} FROM {scan}"
        layout = self.layout(path, kind, header)
        names = text_names(kind, header)
        compression = "gzip" if kind.compression == "gzip" else "none"
        if kind.encoding == "utf-16" or layout.mixed_line_endings:
            path, compression = self._plain_copy(path, kind, header), "none"
        spec = "{" + ", ".join(f"{_sql_str(n)}: 'VARCHAR'" for n in names) + "}"
        max_line = max(_MAX_LINE, 2 * layout.longest_record + 1024)
        # One column: an empty line is an item with an empty label, which DuckDB reads only with
        # the empty text as its null text (it skips the line otherwise).
        null_text = "" if len(names) == 1 else _NO_NULL_TEXT
        # Quoted line breaks with padded short lines: DuckDB reads those single-threaded only
        # (safe here: the scan refused every unclosed quote, and the count is checked).
        parallel = not layout.quoted_line_breaks
        scan = (f"read_csv({_sql_str(path)}, auto_detect = false, header = {str(header).lower()}, "
                f"delim = {_sql_str(kind.text_delimiter)}, quote = '\"', escape = '\"', columns = {spec}, "
                f"nullstr = {_sql_str(null_text)}, null_padding = true, strict_mode = true, "
                f"max_line_size = {max_line}, compression = '{compression}', parallel = {str(parallel).lower()}, "
                # Blank lines before the header: DuckDB would take the first as the header.
                f"skip = {layout.leading_blank_lines if header else 0})")
        where = ""
        if layout.white_lines and len(names) > 1:
            # A line of only spaces and tabs reads as (those spaces, NULL, …): pandas skips it.
            space = " " if kind.delimiter == "\t" else " \t"
            where = f" WHERE NOT ({_q(names[1])} IS NULL AND trim({_q(names[0])}, {_sql_str(space)}) = '')"
        return f"SELECT {', '.join(f'{self._missing(_q(c))} AS {a}' for c, a in wanted)} FROM {scan}{where}"

    def source(self, src: Source, wanted: list[tuple[str, str]]) -> str:
        """All files of ``src``, in order, as one relation."""
        parts = [self.file(p, k, src.header, wanted) for p, k in zip(src.paths, src.kinds)]
        return "(" + " UNION ALL ".join(parts) + ")"

    def check_rows(self, src: Source, rows: int) -> None:
        """DuckDB's row count of ``src`` must be the scans' (no row lost, none invented)."""
        want = self.expected_rows(src)
        if want is not None and rows != want:
            raise ValueError(f"{src.name}: DuckDB read {rows:,} rows where the file holds {want:,} records: count it "
                             "with the pandas engine instead (and please report the file)")


def _explain(exc: Exception, sources) -> str:
    """DuckDB's error in the reader's words (ragged lines, bad bytes), else its first line."""
    text = str(exc)
    named = [(p, k) for s in sources for p, k in zip(s.paths, s.kinds) if os.path.basename(p) in text]
    name, kind = named[0] if named else (sources[0].name, sources[0].kinds[0])
    m = re.search(r"Line: (\d+).*?Expected Number of Columns: (\d+) Found: (\d+)", text, re.S)
    if m:
        line, expected, saw = m.groups()
        what = {"\t": "tabs", ",": "commas", ";": "semicolons"}.get(kind.delimiter, "delimiters")
        return (f"{name}: line {line} has {saw} fields where the first line has {expected} (a ragged file): "
                f"every line needs the same number of {what}")
    if "gzip" in text.lower():
        return (f"{name} could not be read to the end (the gzip data stops early or is damaged): export or download "
                "it again")
    if "invalid unicode" in text.lower():
        return (f"{name} is not UTF-8 text throughout (a byte further down cannot be decoded; Latin-1 or "
                "Windows-1252?): save it as UTF-8 (in Excel: 'CSV UTF-8') and use that")
    return f"DuckDB could not read the input: {_first_line(exc)}"


def duckdb_contingency(sources, gold, pred, id_col, dropna, na_values, progress) -> Contingency:
    duckdb = _optional("duckdb", "contingency_from_files (DuckDB engine)")
    tmp = tempfile.mkdtemp(prefix="partition-lab-duckdb-")
    # Row alignment (POSITIONAL JOIN) needs the scans in file order; otherwise
    # dropping that guarantee lets DuckDB aggregate with less memory.
    ordered = len(sources) == 2 and id_col is None
    config = {"temp_directory": tmp, "preserve_insertion_order": ordered}
    try:
        con = duckdb.connect(":memory:", config=config)
        # Otherwise DuckDB draws its own progress bar on stdout for queries over 2 s.
        con.execute("SET enable_progress_bar = false")
        try:
            return _run(con, _Scans(con, tmp, na_values), sources, gold, pred, id_col, dropna, progress)
        finally:
            con.close()
    except duckdb.Error as exc:
        raise ValueError(_explain(exc, sources)) from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _run(con, scans: _Scans, sources, gold, pred, id_col, dropna, progress) -> Contingency:
    con.execute("DROP TABLE IF EXISTS cells")
    if len(sources) == 1:
        rel = scans.source(sources[0], [(gold, "g"), (pred, "p")])
        body = f"SELECT g, p, count(*) AS n, false AS no_g, false AS no_p FROM {rel} GROUP BY ALL"
    elif id_col is None:
        gs = scans.source(sources[0], [(gold, "g")])
        ps = scans.source(sources[1], [(pred, "p")])
        body = (f"SELECT g, p, count(*) AS n, lg IS NULL AS no_g, lp IS NULL AS no_p FROM "
                f"(SELECT g, true AS lg FROM {gs}) POSITIONAL JOIN (SELECT p, true AS lp FROM {ps}) GROUP BY ALL")
    else:
        gs = scans.source(sources[0], [(id_col, "gi"), (gold, "g")])
        ps = scans.source(sources[1], [(id_col, "pi"), (pred, "p")])
        # Presence markers, not the ids: a row with a NULL id matches nothing yet exists.
        body = (f"SELECT g, p, count(*) AS n, lg IS NULL AS no_g, lp IS NULL AS no_p FROM "
                f"(SELECT gi, g, true AS lg FROM {gs}) FULL OUTER JOIN "
                f"(SELECT pi, p, true AS lp FROM {ps}) ON gi = pi GROUP BY ALL")
    _execute_with_progress(con, f"CREATE TEMP TABLE cells AS {body}", progress)

    both = "NOT no_g AND NOT no_p"
    stats = con.execute(
        f"SELECT coalesce(sum(n) FILTER (WHERE {both}), 0),"
        " coalesce(sum(n) FILTER (WHERE no_p), 0), coalesce(sum(n) FILTER (WHERE no_g), 0),"
        f" coalesce(sum(n) FILTER (WHERE {both} AND (g IS NULL OR p IS NULL)), 0),"
        f" coalesce(sum(n) FILTER (WHERE {both} AND g IS NULL), 0),"
        f" coalesce(sum(n) FILTER (WHERE {both} AND p IS NULL), 0) FROM cells"
    ).fetchall()[0]
    matched, gold_only, pred_only, miss_any, miss_g, miss_p = (int(x) for x in stats)
    if len(sources) == 1:
        scans.check_rows(sources[0], matched)
    else:
        if id_col is None:  # POSITIONAL JOIN pads the shorter side with NULL rows
            gold_rows, pred_rows = matched + gold_only, matched + pred_only
        else:
            gold_rows, pred_rows = (int(con.execute(f"SELECT count(*) FROM {scans.source(s, [(id_col, 'i')])}")
                                        .fetchall()[0][0]) for s in sources)
        scans.check_rows(sources[0], gold_rows)
        scans.check_rows(sources[1], pred_rows)
        check_alignment(gold_rows, pred_rows, matched, gold_only, pred_only, id_col, dropna,
                        sources[0].name, sources[1].name)
    if miss_any and not dropna:
        raise _missing_error(con, scans, sources, gold, pred, id_col, miss_any, miss_g, miss_p)
    # No ORDER BY: the (few) distinct labels are sorted below instead of the cells. Through Arrow,
    # the labels get the Python types pandas gives the same Parquet values (bytes, dates, decimals).
    # The cells come in batches, each made a table and added to the others (added as Contingency's + adds: every
    # (g, p) cell is in one batch, so the sum is the table of all of them): a table of 10^7 cells
    # never has all its labels as Python objects at once.
    import pyarrow as pa

    rel = con.sql(f"SELECT g, p, n FROM cells WHERE {both} AND g IS NOT NULL AND p IS NOT NULL")
    # DuckDB 2 renamed fetch_arrow_reader (deprecated there) to to_arrow_reader.
    reader = getattr(rel, "to_arrow_reader", None) or rel.fetch_arrow_reader
    parts = []
    for batch in reader(_CELLS_PER_BATCH):
        cells = pa.Table.from_batches([batch])
        counts = np.asarray(cells.column("n").to_numpy(), dtype=np.int64)
        if counts.size:
            parts.append(table_from_cells(cells.column("g").to_pandas(), cells.column("p").to_pandas(), counts))
    if not parts:
        raise no_items_left(miss_any)
    # One addition of all the parts (what sum(parts) gives, without re-adding the running total).
    return parts[0] if len(parts) == 1 else merge_tables(parts)


def _missing_error(con, scans: _Scans, sources, gold, pred, id_col, items, n_gold, n_pred) -> MissingLabelsError:
    """The error, with the first rows of each side found by a second, ordered scan (error path only)."""
    con.execute("SET preserve_insertion_order = true")

    def first_rows(src: Source, column: str, partner: str | None) -> tuple[str, tuple[int, ...]]:
        if not (n_gold if column == gold else n_pred):
            return "", ()
        for path, kind in zip(src.paths, src.kinds):
            wanted = [(column, "v")] + ([(id_col, "i")] if partner else [])
            rel = scans.file(path, kind, src.header, wanted)
            cond = "v IS NULL" + (f" AND i IN (SELECT i FROM {partner} WHERE i IS NOT NULL)" if partner else "")
            rows = con.execute(f"SELECT rn FROM (SELECT row_number() OVER () AS rn, * FROM ({rel})) WHERE {cond} "
                               f"ORDER BY rn LIMIT {MissingLabelsError.SHOWN}").fetchall()
            if rows:
                return path, tuple(int(r[0]) for r in rows)
        return "", ()

    if len(sources) == 1:
        gname, grows = first_rows(sources[0], gold, None)
        pname, prows = first_rows(sources[0], pred, None)
    else:
        gpart = scans.source(sources[1], [(id_col, "i")]) if id_col else None
        ppart = scans.source(sources[0], [(id_col, "i")]) if id_col else None
        gname, grows = first_rows(sources[0], gold, gpart)
        pname, prows = first_rows(sources[1], pred, ppart)
    return MissingLabelsError(items=items, gold=n_gold, pred=n_pred, gold_rows=grows, pred_rows=prows,
                              gold_source=gname or pname, pred_source=pname or gname, na_values=scans.na_values)


def _execute_with_progress(con, sql: str, progress) -> None:
    """Run ``sql``; meanwhile report DuckDB's own estimate of the fraction done."""
    if progress is None:
        con.execute(sql)
        return
    # Progress tracking without DuckDB's own bar (which would print to stdout).
    con.execute("SET enable_progress_bar = true; SET enable_progress_bar_print = false; SET progress_bar_time = 0")
    failure: list[BaseException] = []

    def run():
        try:
            con.execute(sql)
        except BaseException as exc:  # re-raised in the caller's thread
            failure.append(exc)

    worker = threading.Thread(target=run, name="partition-lab-duckdb", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.2)
        pct = con.query_progress()
        if pct >= 0:
            progress(min(pct / 100.0, 1.0))
    if failure:
        raise failure[0]
    progress(1.0)
