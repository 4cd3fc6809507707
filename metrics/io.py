"""Contingency tables from label files and distributed data frames.

Every measure reads only the contingency table ``n_ij`` (items of class i in cluster
j), so the O(n) work over n items is one group-by count of (gold, pred) pairs:

    SELECT gold, pred, count(*) FROM items GROUP BY gold, pred

Its result has one row per non-zero cell — at most min(n, |C|·|K|) rows, usually far
fewer than n — and becomes a sparse :class:`~metrics.Contingency`. Three engines
run that count:

* ``"pandas"`` reads the label columns into memory and calls
  :meth:`Contingency.from_labels` (no extra dependency; fine up to a few 10^7 items).
* ``"duckdb"`` (:func:`contingency_from_files`, the default) runs the ``GROUP BY``
  inside an embedded DuckDB over the CSV/Parquet files themselves: the labels never
  enter Python, memory is bounded by the number of cells (DuckDB spills to a
  temporary directory if even that does not fit).
* Dask (:func:`contingency_from_dask`) runs the same group-by on a cluster.

The CLI picks DuckDB automatically when the input files together exceed
:data:`DUCKDB_THRESHOLD_BYTES` (32 MiB on disk).

File conventions, the same for every engine: the format comes from the extension
(``.csv``, ``.tsv``/``.tab``/``.txt`` tab-separated, ``.parquet``/``.pq``; ``.gz``
allowed on text files); CSV/TSV labels are read as *text* (``"01"`` and ``"1"`` are
different labels, as they are in the file); an empty field, a NULL or a float NaN
is a *missing* label — an error naming the count, or dropped with ``dropna=True``.

DuckDB and Dask are optional (``pip install 'partition-lab[io]'``): they are
imported inside the functions that need them, so ``import metrics`` never loads them.
"""

from __future__ import annotations

import glob
import importlib
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse

from .contingency import Contingency

__all__ = [
    "DUCKDB_THRESHOLD_BYTES",
    "contingency_from_files",
    "contingency_from_dask",
    "contingency_from_table_file",
    "file_columns",
    "file_format",
    "read_dask",
    "total_size",
]

#: Input size (bytes on disk, all files together) from which the CLI's ``auto``
#: engine uses DuckDB instead of pandas. Below it pandas is as fast (DuckDB's import
#: and query planning cost ~0.2 s) and keeps labels in order of appearance; above it
#: pandas' memory grows with the number of items while DuckDB's follows the number
#: of cells. Measured (benchmarks/bench_io.py, 2 cores): 10^7 rows of int64 labels,
#: a 34 MiB Parquet file, take 2.3 s / 330 MB with DuckDB and 2.5 s / 640 MB with
#: pandas; 10^8 rows in 1000 × 1250 cells take 4.1 s / 310 MB against 6.9 s / 4.4 GB.
DUCKDB_THRESHOLD_BYTES = 32 * 2**20

_IO_EXTRA = "pip install 'partition-lab[io]'"
_TEXT_FORMATS = {"csv": ",", "tsv": "\t"}


def _optional(module: str, purpose: str):
    """Import an optional dependency, or say which extra installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"{purpose} needs the optional package {module.split('.')[0]!r}: {_IO_EXTRA}") from exc


# ---------------------------------------------------------------------- files
def file_format(path) -> str:
    """``"csv"``, ``"tsv"`` or ``"parquet"`` from the file name; ValueError otherwise."""
    name = os.fspath(path).lower()
    if name.endswith(".gz"):
        name = name[:-3]
        if name.endswith((".parquet", ".pq")):
            raise ValueError(f"{path}: Parquet compresses internally; gzip only CSV/TSV files")
    if name.endswith((".parquet", ".pq")):
        return "parquet"
    if name.endswith(".csv"):
        return "csv"
    if name.endswith((".tsv", ".tab", ".txt")):
        return "tsv"
    raise ValueError(f"cannot tell the format of {os.fspath(path)!r}: name it .csv, .tsv or .parquet")


def _expand(paths) -> list[str]:
    """One path, a glob pattern or several of them → existing files, in order."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    out: list[str] = []
    for p in paths:
        p = os.fspath(p)
        if any(ch in p for ch in "*?["):
            matches = sorted(glob.glob(p))
            if not matches:
                raise FileNotFoundError(f"no file matches {p!r}")
            out.extend(matches)
        elif os.path.isdir(p):
            raise IsADirectoryError(f"{p!r} is a directory: give the files (a glob such as '{p}/*.parquet' works)")
        elif not os.path.exists(p):
            raise FileNotFoundError(f"file not found: {p!r}")
        else:
            out.append(p)
    if not out:
        raise ValueError("no input files given")
    return out


def total_size(paths) -> int:
    """Bytes on disk of the files ``paths`` names (globs expanded)."""
    return sum(os.path.getsize(p) for p in _expand(paths))


def _header_names(n: int) -> list[str]:
    # Headerless files: columns are numbered from 1, as `cut -f` does.
    return [str(i + 1) for i in range(n)]


def file_columns(path, *, header: bool = True) -> list[str]:
    """The column names of one CSV/TSV/Parquet file, reading only its header."""
    fmt = file_format(path)
    if fmt == "parquet":
        pq = _optional("pyarrow.parquet", "reading Parquet")
        try:
            return list(pq.read_schema(path).names)
        except Exception as exc:  # ArrowInvalid and friends: not a Parquet file
            raise ValueError(f"{path}: not a readable Parquet file ({_first_line(exc)})") from None
    try:
        head = pd.read_csv(path, sep=_TEXT_FORMATS[fmt], nrows=0 if header else 1,
                           header=0 if header else None, dtype=str)
    except pd.errors.EmptyDataError:
        raise ValueError(f"{path} is empty") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text (a binary or spreadsheet file named .{fmt}?)") from None
    return [str(c) for c in head.columns] if header else _header_names(head.shape[1])


@dataclass(frozen=True)
class _Source:
    """Files of one schema (shards), the columns read from them, and how."""

    paths: tuple[str, ...]
    fmt: str
    columns: tuple[str, ...]
    header: bool
    role: str  # "gold", "pred" or "labels": for messages

    @classmethod
    def open(cls, paths, columns, header: bool, role: str) -> "_Source":
        files = _expand(paths)
        fmts = {file_format(p) for p in files}
        if len(fmts) > 1:
            raise ValueError(f"the {role} files mix formats {sorted(fmts)}: give one format per source")
        for p in files:
            present = file_columns(p, header=header)
            missing = [c for c in columns if c not in present]
            if missing:
                raise ValueError(f"{p} has no column {missing[0]!r}; its columns: {', '.join(present)}")
        return cls(tuple(files), fmts.pop(), tuple(columns), header, role)

    @property
    def name(self) -> str:
        return self.paths[0] if len(self.paths) == 1 else f"{self.paths[0]} (+{len(self.paths) - 1} files)"


# ---------------------------------------------------------------------- checks shared by engines
def _check_alignment(gold_rows: int, pred_rows: int, matched: int, gold_only: int, pred_only: int,
                     id_col: str | None, dropna: bool, gold: str, pred: str) -> None:
    """Two sources must describe the same items, once each.

    By row: equal row counts. By id: with g(x), p(x) the rows holding id x on each
    side, an outer join yields Σ g·p matched rows. ``matched + gold_only == gold_rows``
    holds iff p(x) = 1 for every id on both sides (g·p ≥ g, equality iff p = 1), and
    symmetrically — so two counts detect duplicated ids without a DISTINCT pass.
    """
    if id_col is None:
        if gold_rows != pred_rows:
            raise ValueError(f"{gold} has {gold_rows} rows but {pred} has {pred_rows}: "
                             "files aligned by row must have the same length (or join them with an id column)")
        return
    if matched + gold_only != gold_rows:
        raise ValueError(f"id column {id_col!r} is not unique in {pred}: ids of {gold} match "
                         f"{matched + gold_only - gold_rows} extra row(s)")
    if matched + pred_only != pred_rows:
        raise ValueError(f"id column {id_col!r} is not unique in {gold}: ids of {pred} match "
                         f"{matched + pred_only - pred_rows} extra row(s)")
    if (gold_only or pred_only) and not dropna:
        raise ValueError(f"{gold_only} row(s) of {gold} and {pred_only} row(s) of {pred} have no "
                         f"partner with the same {id_col!r} (or a missing id): drop them with dropna=True (--dropna)")


def _check_missing(missing_any: int, missing_gold: int, missing_pred: int, dropna: bool) -> None:
    if missing_any and not dropna:
        raise ValueError(f"{missing_any} item(s) have a missing label (gold: {missing_gold}, pred: {missing_pred}; "
                         "an empty field, NULL or NaN): drop them with dropna=True (--dropna)")


def _factorize_sorted(values: np.ndarray):
    """Codes and labels, labels sorted when they can be (one type per column)."""
    try:
        codes, uniques = pd.factorize(values, sort=True)
    except TypeError:  # mixed, unorderable labels: order of appearance
        codes, uniques = pd.factorize(values, sort=False)
    return codes, list(uniques.tolist() if hasattr(uniques, "tolist") else uniques)


def _from_cells(gold_values: np.ndarray, pred_values: np.ndarray, counts: np.ndarray) -> Contingency:
    """A Contingency from the group-by result: one (gold, pred, count) per non-zero cell."""
    counts = np.asarray(counts)
    if counts.size == 0 or counts.sum() == 0:
        raise ValueError("no items: the input has no rows with both labels")
    r, row_labels = _factorize_sorted(np.asarray(gold_values))
    c, col_labels = _factorize_sorted(np.asarray(pred_values))
    # Each (gold, pred) pair is one cell already: DuckDB groups typed values (0.0 and
    # -0.0 together), pandas/Dask group with the hash table pd.factorize uses, so the
    # codes never repeat a pair and no O(cells log cells) duplicate merge is needed.
    table = sparse.coo_matrix((counts.astype(np.int64), (r, c)), shape=(len(row_labels), len(col_labels)))
    return Contingency.from_table(table, row_labels=row_labels, col_labels=col_labels)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


# ---------------------------------------------------------------------- entry point
def contingency_from_files(paths, gold: str = "gold", pred: str = "pred", *, pred_paths=None,
                           id_col: str | None = None, dropna: bool = False, header: bool = True,
                           engine: str = "duckdb",
                           progress: Callable[[float], None] | None = None) -> Contingency:
    """The gold × predicted contingency table of labels stored in CSV/TSV/Parquet files.

    Parameters
    ----------
    paths
        A file, a glob pattern, or a list of them (shards with the same columns).
        Without ``pred_paths`` they hold both label columns.
    gold, pred
        Names of the gold-class and predicted-cluster columns (``"1"``, ``"2"``, … for
        files read with ``header=False``).
    pred_paths
        Separate file(s) holding the ``pred`` column. Items are aligned with
        ``paths`` by ``id_col`` when given (each id once per side), else by row.
    dropna
        Drop items with a missing label (empty field, NULL, NaN) or, with ``id_col``,
        without a partner row; otherwise such items raise ``ValueError`` naming their count.
    engine
        ``"duckdb"``: an embedded DuckDB ``GROUP BY`` over the files, the labels never
        loaded into Python (memory ∝ number of non-zero cells). ``"pandas"``: read the
        columns with pandas, then :meth:`Contingency.from_labels`.
    progress
        Called with the fraction done (0..1) while DuckDB scans (about every 0.2 s).

    Raises ``FileNotFoundError`` for missing files, ``ValueError`` for unreadable
    files, unknown columns, missing labels, misaligned or duplicated items, and
    ``ImportError`` naming the ``io`` extra when DuckDB is not installed.

    >>> t = contingency_from_files("labels.parquet", gold="gold", pred="pred")  # doctest: +SKIP
    """
    if engine not in ("duckdb", "pandas"):
        raise ValueError(f"engine must be 'duckdb' or 'pandas', got {engine!r}")
    if pred_paths is None:
        if id_col is not None:
            raise ValueError("id_col aligns two sources: give pred_paths too (one file holds both labels already)")
        sources = [_Source.open(paths, [gold, pred], header, "labels")]
    else:
        extra = [id_col] if id_col is not None else []
        sources = [_Source.open(paths, extra + [gold], header, "gold"),
                   _Source.open(pred_paths, extra + [pred], header, "pred")]
    if engine == "pandas":
        return _pandas_contingency(sources, gold, pred, id_col, dropna)
    return _duckdb_contingency(sources, gold, pred, id_col, dropna, progress)


# ---------------------------------------------------------------------- pandas engine
def _read_pandas(src: _Source, columns) -> pd.DataFrame:
    frames = []
    for path in src.paths:
        if src.fmt == "parquet":
            try:
                frames.append(pd.read_parquet(path, columns=list(columns)))
            except Exception as exc:
                raise ValueError(f"{path}: cannot read Parquet ({_first_line(exc)})") from None
            continue
        kw = dict(header=0) if src.header else dict(header=None, names=_header_names(len(file_columns(path, header=False))))
        try:
            # All columns, then the wanted ones: with usecols pandas would accept ragged
            # lines silently (DuckDB rejects them). This engine is for small files.
            frames.append(pd.read_csv(path, sep=_TEXT_FORMATS[src.fmt], dtype=str,
                                      keep_default_na=False, na_values=[""], **kw)[list(columns)])
        except UnicodeDecodeError:
            raise ValueError(f"{path} is not UTF-8 text (a binary or spreadsheet file?)") from None
        except pd.errors.ParserError as exc:
            raise ValueError(f"{path}: malformed {src.fmt.upper()} ({_first_line(exc)})") from None
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]


def _pandas_contingency(sources, gold, pred, id_col, dropna) -> Contingency:
    if len(sources) == 1:
        df = _read_pandas(sources[0], [gold, pred])
        g, p = df[gold], df[pred]
    else:
        gsrc, psrc = sources
        gdf = _read_pandas(gsrc, ([id_col] if id_col else []) + [gold])
        pdf = _read_pandas(psrc, ([id_col] if id_col else []) + [pred])
        if id_col is None:
            _check_alignment(len(gdf), len(pdf), 0, 0, 0, None, dropna, gsrc.name, psrc.name)
            g, p = gdf[gold].reset_index(drop=True), pdf[pred].reset_index(drop=True)
        else:
            # pandas would match a missing id with a missing id; SQL (and we) do not.
            gdf = gdf.rename(columns={gold: "__gold"})
            pdf = pdf.rename(columns={pred: "__pred"})
            g_ok, p_ok = gdf[id_col].notna(), pdf[id_col].notna()
            merged = gdf[g_ok].merge(pdf[p_ok], on=id_col, how="outer", indicator=True, sort=False)
            kind = merged["_merge"].value_counts()
            matched = int(kind.get("both", 0))
            gold_only = int(kind.get("left_only", 0)) + int((~g_ok).sum())
            pred_only = int(kind.get("right_only", 0)) + int((~p_ok).sum())
            _check_alignment(len(gdf), len(pdf), matched, gold_only, pred_only, id_col, dropna, gsrc.name, psrc.name)
            both = merged[merged["_merge"] == "both"]
            g, p = both["__gold"], both["__pred"]
    miss_g, miss_p = g.isna().to_numpy(), p.isna().to_numpy()
    miss = miss_g | miss_p
    _check_missing(int(miss.sum()), int(miss_g.sum()), int(miss_p.sum()), dropna)
    if miss.any():
        g, p = g[~miss], p[~miss]
    if len(g) == 0:
        raise ValueError("no items: the input has no rows with both labels")
    return Contingency.from_labels(g.to_numpy(), p.to_numpy())


# ---------------------------------------------------------------------- DuckDB engine
def _sql_str(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _sql_ident(s: str) -> str:
    return '"' + s.replace('"', '""') + '"'


def _duckdb_scan(src: _Source) -> str:
    files = "[" + ", ".join(_sql_str(p) for p in src.paths) + "]"
    if src.fmt == "parquet":
        return f"read_parquet({files}, union_by_name = true)"
    opts = [f"delim = {_sql_str(_TEXT_FORMATS[src.fmt])}", f"header = {str(src.header).lower()}",
            "all_varchar = true", "union_by_name = true"]
    if not src.header:
        width = len(file_columns(src.paths[0], header=False))
        opts.append("names = [" + ", ".join(_sql_str(c) for c in _header_names(width)) + "]")
    return f"read_csv({files}, {', '.join(opts)})"


def _duckdb_contingency(sources, gold, pred, id_col, dropna, progress) -> Contingency:
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
            return _duckdb_run(con, sources, gold, pred, id_col, dropna, progress)
        finally:
            con.close()
    except duckdb.Error as exc:
        # Parse errors, ragged rows, binary input: one line naming the problem.
        raise ValueError(f"DuckDB could not read the input: {_first_line(exc)}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _duckdb_run(con, sources, gold, pred, id_col, dropna, progress) -> Contingency:
    q = _sql_ident
    if len(sources) == 1:
        scan = _duckdb_scan(sources[0])
        body = (f"SELECT {q(gold)} AS g, {q(pred)} AS p, count(*) AS n, false AS no_g, false AS no_p "
                f"FROM {scan} GROUP BY ALL")
    elif id_col is None:
        gs, ps = (_duckdb_scan(s) for s in sources)
        body = (f"SELECT g, p, count(*) AS n, lg IS NULL AS no_g, lp IS NULL AS no_p FROM "
                f"(SELECT {q(gold)} AS g, true AS lg FROM {gs}) POSITIONAL JOIN "
                f"(SELECT {q(pred)} AS p, true AS lp FROM {ps}) GROUP BY ALL")
    else:
        gs, ps = (_duckdb_scan(s) for s in sources)
        # Presence markers, not the ids: a row with a NULL id matches nothing yet exists.
        body = (f"SELECT g, p, count(*) AS n, lg IS NULL AS no_g, lp IS NULL AS no_p FROM "
                f"(SELECT {q(id_col)} AS gi, {q(gold)} AS g, true AS lg FROM {gs}) FULL OUTER JOIN "
                f"(SELECT {q(id_col)} AS pi, {q(pred)} AS p, true AS lp FROM {ps}) ON gi = pi GROUP BY ALL")
    _execute_with_progress(con, f"CREATE TEMP TABLE cells AS {body}", progress)

    types = dict(con.execute("SELECT column_name, data_type FROM information_schema.columns "
                             "WHERE table_name = 'cells'").fetchall())
    for col, role in (("g", "gold"), ("p", "pred")):
        if types[col].endswith("]") or types[col].split("(")[0] in ("STRUCT", "MAP", "UNION"):
            raise ValueError(f"the {role} column holds {types[col]} values: labels must be scalars")

    def missing(col):
        nan = f" OR isnan({col})" if types[col] in ("FLOAT", "DOUBLE") else ""
        return f"({col} IS NULL{nan})"

    stats = con.execute(
        "SELECT coalesce(sum(n) FILTER (WHERE NOT no_g AND NOT no_p), 0),"
        " coalesce(sum(n) FILTER (WHERE no_p), 0), coalesce(sum(n) FILTER (WHERE no_g), 0),"
        f" coalesce(sum(n) FILTER (WHERE NOT no_g AND NOT no_p AND ({missing('g')} OR {missing('p')})), 0),"
        f" coalesce(sum(n) FILTER (WHERE NOT no_g AND NOT no_p AND {missing('g')}), 0),"
        f" coalesce(sum(n) FILTER (WHERE NOT no_g AND NOT no_p AND {missing('p')}), 0) FROM cells"
    ).fetchone()
    matched, gold_only, pred_only, miss_any, miss_g, miss_p = (int(x) for x in stats)
    if len(sources) == 2:
        if id_col is None:  # POSITIONAL JOIN pads the shorter side with NULL rows
            gold_rows, pred_rows = matched + gold_only, matched + pred_only
        else:
            gold_rows, pred_rows = (int(con.execute(f"SELECT count(*) FROM {_duckdb_scan(s)}").fetchone()[0])
                                    for s in sources)
        _check_alignment(gold_rows, pred_rows, matched, gold_only, pred_only, id_col, dropna,
                         sources[0].name, sources[1].name)
    _check_missing(miss_any, miss_g, miss_p, dropna)
    # No ORDER BY: _from_cells sorts the (few) distinct labels instead of the cells.
    cells = con.execute(f"SELECT g, p, n FROM cells WHERE NOT no_g AND NOT no_p "
                        f"AND NOT {missing('g')} AND NOT {missing('p')}").fetchnumpy()
    return _from_cells(np.ma.getdata(cells["g"]), np.ma.getdata(cells["p"]), cells["n"])


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


# ---------------------------------------------------------------------- Dask
def read_dask(paths, columns: Iterable[str], *, header: bool = True):
    """A Dask DataFrame of ``columns`` from CSV/TSV/Parquet ``paths``, read by the workers.

    ``paths`` may be URLs (``s3://bucket/part-*.parquet``) or globs: they are
    expanded by Dask, so they must be readable from every worker.
    """
    dd = _optional("dask.dataframe", "reading files with Dask")
    first = paths if isinstance(paths, (str, os.PathLike)) else next(iter(paths))
    fmt = file_format(first)
    columns = list(columns)
    if fmt == "parquet":
        return dd.read_parquet(paths, columns=columns)
    kw = dict(header=0) if header else dict(header=None, names=_header_names(len(file_columns(first, header=False))))
    return dd.read_csv(paths, sep=_TEXT_FORMATS[fmt], usecols=columns, dtype=str,
                       keep_default_na=False, na_values=[""], **kw)


def contingency_from_dask(ddf, gold: str, pred: str, *, pred_ddf=None, id_col: str | None = None,
                          dropna: bool = False) -> Contingency:
    """The contingency table of a Dask DataFrame's ``gold`` and ``pred`` columns.

    One distributed ``groupby([gold, pred]).size()``: each partition counts its
    (gold, pred) pairs, the partial counts are summed in a tree; only the non-zero
    cells travel to this process. With ``pred_ddf``, the two frames are joined on
    ``id_col`` first (an outer join, so unmatched and duplicated ids are reported,
    as in :func:`contingency_from_files`). Missing labels raise ``ValueError``
    naming their count unless ``dropna=True``.

    The computation runs on the current Dask scheduler: the distributed ``Client``
    created last, or Dask's local threads if there is none. To use a real cluster:

    1. start a scheduler and workers on the machines, all with this package and
       ``partition-lab[io]`` installed (same versions as the client)::

           dask scheduler                            # on the head node, port 8786
           dask worker tcp://HEAD:8786 --nworkers 8  # on each worker machine

       (or a deployment from ``dask_jobqueue``, ``dask_kubernetes``, …);
    2. connect, read the data where every worker can see it, and count::

           from distributed import Client
           import dask.dataframe as dd
           client = Client("tcp://HEAD:8786")
           ddf = dd.read_parquet("s3://bucket/labels/*.parquet", columns=["gold", "pred"])
           t = contingency_from_dask(ddf, "gold", "pred")
           metrics.evaluate(t)

       From the shell: ``partition-lab score 's3://bucket/labels/*.parquet' --dask tcp://HEAD:8786``.
    """
    dask = _optional("dask", "contingency_from_dask")
    wanted = [(ddf, "the gold frame" if pred_ddf is not None else "the Dask frame",
               [gold] if pred_ddf is not None else [gold, pred])]
    if pred_ddf is not None:
        wanted.append((pred_ddf, "the pred frame", [pred]))
    for frame, what, cols in wanted:
        for c in cols + ([id_col] if id_col is not None and pred_ddf is not None else []):
            if c not in frame.columns:
                raise ValueError(f"{what} has no column {c!r}; its columns: {', '.join(map(str, frame.columns))}")
    if pred_ddf is None:
        if id_col is not None:
            raise ValueError("id_col aligns two frames: give pred_ddf too")
        counts = ddf[[gold, pred]].groupby([gold, pred], dropna=False, sort=False).size()
        cells = dask.compute(counts)[0]
        miss_g, miss_p = _index_missing(cells, 0), _index_missing(cells, 1)
    else:
        if id_col is None:
            raise ValueError("Dask partitions do not align by row: join the two frames on an id column (id_col)")
        left = ddf[[id_col, gold]].rename(columns={gold: "__gold"})
        right = pred_ddf[[id_col, pred]].rename(columns={pred: "__pred"})
        # Missing ids never match (as in SQL): count those rows, then drop them.
        left_ok, right_ok = left[id_col].notnull(), right[id_col].notnull()
        merged = left[left_ok].merge(right[right_ok], on=id_col, how="outer", indicator=True)
        counts = merged.groupby(["__gold", "__pred", "_merge"], dropna=False, sort=False, observed=True).size()
        cells, gold_rows, pred_rows, bad_g, bad_p = dask.compute(counts, left.shape[0], right.shape[0],
                                                                 (~left_ok).sum(), (~right_ok).sum())
        kind = cells.index.get_level_values(2).astype(str)
        matched = int(cells[kind == "both"].sum())
        _check_alignment(int(gold_rows), int(pred_rows), matched,
                         int(cells[kind == "left_only"].sum()) + int(bad_g),
                         int(cells[kind == "right_only"].sum()) + int(bad_p),
                         id_col, dropna, "the gold frame", "the pred frame")
        cells = cells[kind == "both"]
        cells.index = cells.index.droplevel(2)
        miss_g, miss_p = _index_missing(cells, 0), _index_missing(cells, 1)
    miss = miss_g | miss_p
    values = cells.to_numpy()
    _check_missing(int(values[miss].sum()), int(values[miss_g].sum()), int(values[miss_p].sum()), dropna)
    keep = ~miss
    return _from_cells(cells.index.get_level_values(0).to_numpy()[keep],
                       cells.index.get_level_values(1).to_numpy()[keep], values[keep])


def _index_missing(cells: pd.Series, level: int) -> np.ndarray:
    return np.asarray(pd.isna(cells.index.get_level_values(level)), dtype=bool)


# ---------------------------------------------------------------------- table files
def contingency_from_table_file(path, *, header: bool = True) -> Contingency:
    """A contingency table stored as a grid: rows = gold classes, columns = clusters.

    CSV/TSV: the first row names the clusters (unless ``header=False``); the first
    column names the classes when its header is empty or any of its values is not a
    number (so ``Contingency.to_frame().to_csv(path)`` reads back). Parquet: the
    stored index, or a first non-numeric column, names the classes. Cells must be
    finite non-negative numbers (fractional ones for ambiguous data are kept).
    """
    fmt = file_format(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"file not found: {os.fspath(path)!r}")
    if fmt == "parquet":
        try:
            df = pd.read_parquet(path)
        except ImportError:
            raise
        except Exception as exc:
            raise ValueError(f"{path}: cannot read Parquet ({_first_line(exc)})") from None
        if isinstance(df.index, pd.RangeIndex) and df.shape[1] and not pd.api.types.is_numeric_dtype(df.iloc[:, 0]):
            df = df.set_index(df.columns[0])
    else:
        try:
            df = pd.read_csv(path, sep=_TEXT_FORMATS[fmt], header=0 if header else None, dtype=str,
                             keep_default_na=False, na_values=[""])
        except pd.errors.EmptyDataError:
            raise ValueError(f"{path} is empty") from None
        except UnicodeDecodeError:
            raise ValueError(f"{path} is not UTF-8 text (a binary or spreadsheet file?)") from None
        except pd.errors.ParserError as exc:
            raise ValueError(f"{path}: malformed {fmt.upper()} ({_first_line(exc)})") from None
        if df.shape[1] == 0 or df.shape[0] == 0:
            raise ValueError(f"{path} holds no table rows")
        first = df.columns[0]
        unnamed = header and (str(first) == "" or str(first).startswith("Unnamed: 0"))
        if df.shape[1] > 1 and (unnamed or not _all_numbers(df[first])):
            df = df.set_index(first)
            df.index.name = None
        for col in df.columns:
            converted = pd.to_numeric(df[col], errors="coerce")
            bad = converted.isna() & df[col].notna()
            if bad.any():
                row = int(np.flatnonzero(bad.to_numpy())[0])
                raise ValueError(f"{path}: cell {df[col].iloc[row]!r} (column {col!r}, row {row + 1}) is not a number")
            df[col] = converted
        if not header:
            df.columns = range(df.shape[1])
    if df.shape[0] == 0 or df.shape[1] == 0:
        raise ValueError(f"{path} holds no table cells")
    rows = [r.item() if isinstance(r, np.generic) else r for r in df.index]
    return Contingency.from_table(df.to_numpy(), row_labels=rows, col_labels=list(df.columns))


def _all_numbers(col: pd.Series) -> bool:
    text = col.dropna()
    return bool(len(text)) and pd.to_numeric(text, errors="coerce").notna().all()
