"""The ``partition-lab`` command: score clusterings from files, list measures, start the app.

::

    partition-lab score GOLD [PRED] [options]   # labels → contingency table → measures
    partition-lab score FILE --pred-col p1,p2,p3 [options]     # several solutions, one file
    partition-lab score GOLD PRED1 PRED2 … [--id-col ID] [options]  # one file per solution
    partition-lab score --table TABLE [options] # a contingency table file → measures
    partition-lab measures                      # the registry
    partition-lab app [streamlit options]       # the dashboard

Every value printed comes from :func:`metrics.evaluate` (one solution) or
:func:`metrics.compare_solutions` (several: every measure of each, and the solution each
measure rates best); files are read and tables built by
:mod:`metrics.io`, the reader the dashboard uses too (same formats, same missing-value rule:
an empty cell is missing, texts such as ``NA`` are labels unless ``--na-values`` names them).
Messages speak in options (``--dropna``, ``--na-values``), never in Python arguments. The
table output formats numbers with :func:`metrics.formatting.format_number`; ``--format
json``/``csv`` keep full precision. Exit codes: 0 success; 2 bad input or usage (one line on
stderr, no traceback; also a table that holds no items); 1 an environment problem (optional
package missing, cluster unreachable, unexpected failure — ``--debug`` shows its traceback);
130 interrupted.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import json
import math
import os
import sys
import time
from pathlib import Path

from . import io as mio
from . import limits
from .contingency import Contingency
from .formatting import format_number, spreadsheet_cell
from .registry import FAMILIES, MEASURES, evaluate
from .solutions import compare_solutions, rank_solutions

PROG = "partition-lab"
#: Inputs at least this large (bytes on disk) get progress messages on stderr.
PROGRESS_BYTES = 16 * 2**20


class UsageError(ValueError):
    """Bad command-line input: reported in one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    # argparse prints usage plus the message; a one-line message is the contract here.
    def error(self, message):
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        sys.exit(2)


# ---------------------------------------------------------------------- progress
class Progress:
    """Stage messages and a percentage on stderr; silent when disabled."""

    def __init__(self, enabled: bool, stream=None):
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last_step = -1
        self._start = time.perf_counter()

    def stage(self, message: str) -> None:
        if self.enabled:
            self._end_line()
            self.stream.write(f"{PROG}: {message}\n")
            self.stream.flush()

    def fraction(self, done: float, what: str = "scanning") -> None:
        if not self.enabled:
            return
        step = int(done * 100) if self.tty else int(done * 10) * 10  # a line per 10 % in logs
        if step == self._last_step:
            return
        self._last_step = step
        elapsed = time.perf_counter() - self._start
        text = f"{PROG}: {what} {step:3d}% ({elapsed:.1f} s)"
        self.stream.write(f"\r{text}" if self.tty else f"{text}\n")
        self.stream.flush()

    def _end_line(self) -> None:
        if self.tty and self._last_step >= 0:
            self.stream.write("\n")
            self._last_step = -1


# ---------------------------------------------------------------------- argument parsing
def _log_base(text: str) -> float:
    if text.strip().lower() == "e":
        return math.e
    try:
        base = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"log base must be a number or 'e', got {text!r}") from None
    if not (math.isfinite(base) and base > 1):
        raise argparse.ArgumentTypeError(f"the log base must be a number above 1 (2, 10, e, …), got {text!r}")
    return base


def _budget(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the budget must be a number of seconds, got {text!r}") from None
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"the budget must be a finite number of seconds ≥ 0, got {text!r}")
    return value or None


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive finite number, got {text!r}")
    return value


def _texts(text: str) -> tuple[str, ...]:
    """``NA,NaN,null`` → the texts (empty items ignored: an empty cell is missing anyway)."""
    return tuple(dict.fromkeys(t for t in text.split(",") if t != ""))


def _measure_keys(text: str) -> list[str]:
    keys = [k.strip() for k in text.split(",") if k.strip()]
    if not keys:
        raise argparse.ArgumentTypeError("--measures needs at least one key (see `partition-lab measures`)")
    return keys


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="External cluster-evaluation measures of a clustering against gold "
                     "classes.", epilog="Exit codes: 0 ok, 2 bad input, 1 environment problem.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    score = sub.add_parser(
        "score", help="score predicted clusters against gold classes",
        description="Score a clustering. GOLD holds the gold classes (and the predicted clusters too when "
        "PRED is not given); PRED the predicted clusters. Files are CSV, TSV or Parquet (gzip-compressed "
        "text too), recognised by their content whatever their name; UTF-8 or UTF-16 with a byte-order "
        "mark. Globs select several shards. Two files are aligned by row, or by --id-col. "
        "Several solutions — comma-separated --pred-col columns, or several PRED files — are scored "
        "together on the same items (with --dropna an item missing a label in any of them is left out of "
        "all): one row per measure, one column per solution and the solution it rates best (the CSV and "
        "JSON hold one record per solution). "
        "An empty cell is a missing label; texts such as NA or null are labels unless --na-values names "
        "them. Inputs over "
        f"{mio.DUCKDB_THRESHOLD_BYTES // 2**20} MiB are counted by DuckDB without loading them (--engine).")
    score.add_argument("gold", nargs="?", metavar="GOLD", help="file with the gold labels")
    score.add_argument("pred", nargs="*", metavar="PRED",
                       help="file with the predicted labels; several files score several solutions (one file "
                       "per solution, named by its file name, aligned with GOLD by row or by --id-col)")
    score.add_argument("--table", metavar="FILE",
                       help="a contingency table file instead (rows = classes, columns = clusters; "
                       "first column = class names when unnamed or not numeric)")
    score.add_argument("--gold-col", help="gold label column (default: 'gold', or the only other column)")
    score.add_argument("--pred-col", metavar="PRED_COL[,PRED_COL…]",
                       help="predicted label column (default: 'pred', or the only other column); several "
                       "columns, comma-separated (p1,p2,p3), score several solutions against the gold column")
    score.add_argument("--id-col", help="align GOLD and PRED by this id column instead of by row")
    score.add_argument("--no-header", action="store_true",
                       help="files have no header row: columns are named 1, 2, … (as in cut -f)")
    score.add_argument("--dropna", action="store_true",
                       help="leave out items with a missing label (or no partner id) instead of failing")
    score.add_argument("--na-values", type=_texts, default=(), metavar="TEXT,TEXT,…",
                       help="texts that mean 'no label', e.g. NA,NaN,null (default: none — every text is a "
                       "label, only empty cells are missing); compared with whole cells, case-sensitive")
    score.add_argument("--measures", type=_measure_keys, metavar="K1,K2,…",
                       help="registry keys to compute (default: all that apply)")
    score.add_argument("--log-base", type=_log_base, default=math.e, metavar="B",
                       help="logarithm base of the unnormalized information measures: e (default), 2, 10, …")
    score.add_argument("--beta", type=_positive_float, default=1.0, help="β of V_β (default 1; β > 1 favours completeness)")
    score.add_argument("--format", choices=("table", "json", "csv"), default="table", help="output format (default: table)")
    score.add_argument("--engine", choices=("auto", "pandas", "duckdb"), default="auto",
                       help="how files are counted (default auto: DuckDB above the size threshold when installed)")
    score.add_argument("--dask", metavar="SCHEDULER_ADDRESS",
                       help="count on a Dask cluster (e.g. tcp://head:8786); files must be readable by the workers")
    score.add_argument("--quiet", action="store_true", help="no progress messages")
    score.add_argument("--budget", type=_budget, default=limits.DEFAULT_BUDGET, metavar="SECONDS",
                       help="refuse a comparison of several solutions estimated to take longer than this many "
                       f"seconds of one core (default {limits.DEFAULT_BUDGET:g}; 0: no limit)")
    score.add_argument("--debug", action="store_true", help="show tracebacks of unexpected errors")

    listing = sub.add_parser("measures", help="list the registered measures")
    listing.add_argument("--format", choices=("table", "json", "csv"), default="table")

    sub.add_parser("app", help="start the dashboard (extra options go to `streamlit run`)",
                   description="Start the dashboard with `streamlit run`. Every option after `app` goes to "
                   "streamlit (e.g. --server.port 8502). The server listens on 127.0.0.1 and sends no usage "
                   "statistics unless --server.address / --browser.gatherUsageStats say otherwise.")
    return parser


# ---------------------------------------------------------------------- score
def _pick_columns(columns: list[str], gold: str | None, pred: str | None, id_col: str | None,
                  name: str) -> tuple[str, str]:
    """Label columns of a file holding both: named, or 'gold'/'pred', or the only two."""
    others = [c for c in columns if c != id_col]
    if gold is None and pred is None and {"gold", "pred"} <= set(columns):
        return "gold", "pred"
    if gold is None and pred is None and len(others) == 2:
        return others[0], others[1]
    if gold is not None and pred is None:
        rest = [c for c in others if c != gold]
        if "pred" in rest or len(rest) == 1:
            return gold, "pred" if "pred" in rest else rest[0]
    if pred is not None and gold is None:
        rest = [c for c in others if c != pred]
        if "gold" in rest or len(rest) == 1:
            return "gold" if "gold" in rest else rest[0], pred
    if gold is not None and pred is not None:
        return gold, pred
    raise UsageError(f"{name} has columns {', '.join(columns)}: name the label columns with --gold-col and --pred-col")


def _pick_column(columns: list[str], chosen: str | None, default: str, id_col: str | None, name: str,
                 option: str) -> str:
    if chosen is not None:
        return chosen
    others = [c for c in columns if c != id_col]
    if default in others:
        return default
    if len(others) == 1:
        return others[0]
    raise UsageError(f"{name} has columns {', '.join(columns)}: name its label column with {option}")


def _first_file(pattern: str) -> str:
    return mio._expand(pattern)[0]


def _choose_engine(args, size: int, progress: Progress) -> str:
    """pandas or DuckDB, by ``size``: the bytes of text to read, decompressed (:func:`_text_size`)."""
    if args.engine != "auto":
        return args.engine
    if size < mio.DUCKDB_THRESHOLD_BYTES:
        return "pandas"
    if importlib.util.find_spec("duckdb") is None:
        progress.stage(f"DuckDB is not installed: reading over {size / 2**20:.0f} MiB of text with pandas "
                       "(pip install 'partition-lab[io]' to count larger-than-memory files)")
        return "pandas"
    return "duckdb"


def _text_size(patterns) -> int:
    """Bytes of text the inputs hold once decompressed — 1 MB of gzip holding 1 GiB is 1 GiB for
    pandas (6 GB of memory), whatever it weighs on disk — counted by streaming, no further than
    the larger of the engine and progress thresholds (enough to decide both)."""
    return mio.content_size(patterns, stop_after=max(mio.DUCKDB_THRESHOLD_BYTES, PROGRESS_BYTES))


def _table_from_label_files(args, progress: Progress) -> Contingency:
    header = not args.no_header
    if args.pred is None:
        cols = mio.file_columns(_first_file(args.gold), header=header)
        gold, pred = _pick_columns(cols, args.gold_col, args.pred_col, args.id_col, args.gold)
        pred_paths, id_col = None, None
    else:
        gcols = mio.file_columns(_first_file(args.gold), header=header)
        pcols = mio.file_columns(_first_file(args.pred), header=header)
        gold = _pick_column(gcols, args.gold_col, "gold", args.id_col, args.gold, "--gold-col")
        pred = _pick_column(pcols, args.pred_col, "pred", args.id_col, args.pred, "--pred-col")
        pred_paths, id_col = args.pred, args.id_col
    size = _text_size([args.gold] + ([args.pred] if args.pred else []))
    progress.enabled = progress.enabled and size >= PROGRESS_BYTES
    engine = _choose_engine(args, size, progress)
    _notes(args, [args.gold] + ([args.pred] if args.pred else []))
    over = "over " if size > max(mio.DUCKDB_THRESHOLD_BYTES, PROGRESS_BYTES) else ""
    progress.stage(f"counting (gold, pred) pairs in {over}{size / 2**20:.1f} MiB of text with {engine}")
    return mio.contingency_from_files(args.gold, gold, pred, pred_paths=pred_paths, id_col=id_col,
                                      dropna=args.dropna, na_values=args.na_values, header=header, engine=engine,
                                      progress=progress.fraction if engine == "duckdb" else None)


def _notes(args, patterns) -> None:
    """Say where a file's content overrode its name (a .csv that is tab-separated, …)."""
    if args.quiet:
        return
    seen = set()
    for pattern in patterns:
        for path in mio._expand(pattern):
            for note in mio.sniff(path).notes:
                if note not in seen:
                    seen.add(note)
                    sys.stderr.write(f"{PROG}: note: {_COPIES.shown(note)}\n")


def _table_from_dask(args, progress: Progress) -> Contingency:
    distributed = mio._optional("distributed", "--dask")
    header = not args.no_header
    progress.stage(f"connecting to the Dask scheduler at {args.dask}")
    try:
        client = distributed.Client(args.dask, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise ConnectionError(f"cannot reach the Dask scheduler at {args.dask}: {mio._first_line(exc)}") from None
    with client:
        if args.pred is None:
            cols = mio.file_columns(_first_file(args.gold), header=header) if _is_local(args.gold) else None
            if cols is None and (args.gold_col is None or args.pred_col is None):
                raise UsageError("with remote files, name the columns with --gold-col and --pred-col")
            gold, pred = (_pick_columns(cols, args.gold_col, args.pred_col, None, args.gold) if cols
                          else (args.gold_col, args.pred_col))
            ddf = mio.read_dask(args.gold, [gold, pred], header=header)
            progress.stage(f"counting (gold, pred) pairs over {ddf.npartitions} partition(s) on the cluster")
            return mio.contingency_from_dask(ddf, gold, pred, dropna=args.dropna, na_values=args.na_values)
        if args.id_col is None:
            raise UsageError("with --dask, two files are joined by an id column: give --id-col")
        gold = args.gold_col or "gold"
        pred = args.pred_col or "pred"
        gddf = mio.read_dask(args.gold, [args.id_col, gold], header=header)
        pddf = mio.read_dask(args.pred, [args.id_col, pred], header=header)
        progress.stage("joining by id and counting on the cluster")
        return mio.contingency_from_dask(gddf, gold, pred, pred_ddf=pddf, id_col=args.id_col, dropna=args.dropna,
                                         na_values=args.na_values)


def _is_local(path: str) -> bool:
    return "://" not in path


# A pipe given as an input (/dev/stdin, <(…), a FIFO) is read once into a temporary copy, which
# the reader then reads as often as it needs; messages name it as the user did (_fail).
_COPIES = mio.StreamCopies()


def _score(args) -> int:
    with _COPIES as copies:
        args.gold, args.table = copies.of(args.gold), copies.of(args.table)
        args.pred = [copies.of(p) for p in args.pred or []]
        return _score_files(args)


def _score_files(args) -> int:
    preds = list(args.pred or [])
    args.pred = preds[0] if len(preds) == 1 else None  # one PRED file: the one-solution path below
    if args.table is None and args.gold is not None:
        columns = _several_pred_columns(args, preds)
        if len(preds) > 1 or columns:
            return _score_solutions(args, preds, columns)
    progress = Progress(enabled=not args.quiet)
    if args.table is not None:
        if args.gold is not None or args.pred is not None:
            raise UsageError("--table takes the contingency table file; give no GOLD/PRED files with it")
        if args.dask:
            raise UsageError("--table reads a small table file: --dask does not apply")
        _notes(args, [args.table])
        table = mio.contingency_from_table_file(args.table, header=not args.no_header)
    elif args.gold is None:
        raise UsageError("give a GOLD file (and PRED), or --table FILE")
    elif args.id_col is not None and args.pred is None:
        raise UsageError("--id-col aligns two files: give PRED too")
    elif args.dask:
        table = _table_from_dask(args, progress)
    else:
        table = _table_from_label_files(args, progress)

    progress.stage(f"computing measures for {table.shape[0]} classes × {table.shape[1]} clusters, n = {table.n}")
    values = evaluate(table, args.measures, log_base=args.log_base, beta=args.beta)
    progress.stage("done")
    sys.stdout.write(_format_scores(table, values, args))
    return 0


# ---------------------------------------------------------------------- several solutions
def _several_pred_columns(args, preds: list[str]) -> list[str]:
    """The columns a comma-separated ``--pred-col`` names ([] for one column): of PRED when one
    PRED file is given, else of GOLD. A column whose own name holds a comma stays one column."""
    text = args.pred_col
    if text is None or "," not in text or len(preds) > 1:
        return []
    source = preds[0] if preds else args.gold
    if text in mio.file_columns(_first_file(source), header=not args.no_header):
        return []
    columns = [c.strip() for c in text.split(",") if c.strip()]
    repeated = [c for c in dict.fromkeys(columns) if columns.count(c) > 1]
    if repeated:
        raise UsageError(f"--pred-col names {repeated[0]!r} twice: name each solution's column once")
    return columns


def _one_file(pattern: str, role: str) -> str:
    files = mio._expand(pattern)
    if len(files) > 1:
        raise UsageError(f"{role} {pattern!r} matches {len(files):,} files: with several solutions each file is read "
                         "whole (give one file per solution; an unquoted pattern lets the shell list them)")
    return files[0]


def _solution_name(path: str) -> str:
    """A solution file's name without its folder and extension: runs/kmeans_k3.csv.gz → kmeans_k3."""
    name = Path(path).name
    name = name[:-3] if name.lower().endswith(".gz") else name
    stem = Path(name).stem
    return stem or name


def _file_solution_names(paths: list[str]) -> list[str]:
    repeated = [p for p in dict.fromkeys(paths) if paths.count(p) > 1]
    if repeated:
        raise UsageError(f"PRED file {repeated[0]} is given twice: give each solution once")
    names = [_solution_name(p) for p in paths]
    return names if len(set(names)) == len(names) else list(paths)  # same file names in other folders


def _gold_column(columns: list[str], chosen: str | None, preds: list[str], name: str) -> str:
    if chosen is None:
        others = [c for c in columns if c not in preds]
        chosen = "gold" if "gold" in others else others[0] if len(others) == 1 else None
    if chosen is None:
        raise UsageError(f"{name} has columns {', '.join(columns)}: name the gold column with --gold-col")
    if chosen in preds:
        raise UsageError(f"--gold-col {chosen} is also in --pred-col: a solution cannot be the gold column")
    return chosen


def _read_solutions(args, preds: list[str], columns: list[str]) -> mio.SolutionColumns:
    """The gold column and each solution's labels, aligned (``metrics.io.solution_columns``)."""
    header, na = not args.no_header, args.na_values
    gold_file = _one_file(args.gold, "GOLD")
    extra = [args.id_col] if args.id_col is not None else []
    if not preds:  # one file: a gold column and the --pred-col columns
        if args.id_col is not None:
            raise UsageError("--id-col aligns two files: give PRED too")
        gold_col = _gold_column(mio.file_columns(gold_file, header=header), args.gold_col, columns, args.gold)
        gold = mio.read_labels(gold_file, [gold_col, *columns], header=header, na_values=na)
        solutions = [(c, gold, c) for c in columns]
        files = [gold_file]
    else:
        gold_col = _pick_column(mio.file_columns(gold_file, header=header), args.gold_col, "gold", args.id_col,
                                args.gold, "--gold-col")
        gold = mio.read_labels(gold_file, [*extra, gold_col], header=header, na_values=na)
        files = [_one_file(p, "PRED") for p in preds]
        if columns:  # one PRED file with several columns
            labels = mio.read_labels(files[0], [*extra, *columns], header=header, na_values=na)
            solutions = [(c, labels, c) for c in columns]
        else:  # one file per solution
            if args.pred_col is not None and "," in args.pred_col and \
                    args.pred_col not in mio.file_columns(files[0], header=header):
                raise UsageError("with several PRED files, --pred-col names the one label column each file holds "
                                 "(or leave it out: 'pred', or the only column besides --id-col)")
            solutions = []
            for name, path in zip(_file_solution_names(preds), files):
                col = _pick_column(mio.file_columns(path, header=header), args.pred_col, "pred", args.id_col, path,
                                   "--pred-col")
                solutions.append((name, mio.read_labels(path, [*extra, col], header=header, na_values=na), col))
        files = [gold_file, *files]
    _notes(args, files)
    return mio.solution_columns(gold, gold_col, solutions, id_col=args.id_col, dropna=args.dropna)


def _score_solutions(args, preds: list[str], columns: list[str]) -> int:
    """Several solutions against one gold column: every measure of each (``compare_solutions``)."""
    if args.dask:
        raise UsageError("--dask counts one solution's table on a cluster: score several solutions without it")
    if args.engine == "duckdb":
        raise UsageError("--engine duckdb counts one solution without loading its labels; several solutions are "
                         "compared on their labels in memory: leave --engine out")
    progress = Progress(enabled=not args.quiet)
    size = _text_size([args.gold, *preds])
    progress.enabled = progress.enabled and size >= PROGRESS_BYTES
    over = "over " if size > max(mio.DUCKDB_THRESHOLD_BYTES, PROGRESS_BYTES) else ""
    progress.stage(f"reading {over}{size / 2**20:.1f} MiB of labels")
    sc = _read_solutions(args, preds, columns)
    progress.stage(f"computing measures for {len(sc.names)} solutions, n = {len(sc)}")
    frame = compare_solutions(sc.gold, sc.solutions, args.measures, log_base=args.log_base, beta=args.beta,
                              progress=lambda done, total: progress.fraction(done / total, "scoring solutions"),
                              budget=args.budget)
    progress.stage("done")
    sys.stdout.write(_format_solutions(frame, sc, args))
    return 0


def _json_value(v: float):
    return None if math.isnan(v) else v  # JSON has no NaN: null = not computed


def _format_solutions(frame, sc: mio.SolutionColumns, args) -> str:
    names, keys = list(frame.index), list(frame.columns)
    n, classes = len(sc), int(sc.gold.nunique(dropna=False))
    clusters = {name: int(sc.solutions[name].nunique(dropna=False)) for name in names}
    why_not = frame.attrs.get("why_not", {})
    if args.format == "json":
        ranks = rank_solutions(frame)
        doc = {"n": n, "classes": classes, "log_base": args.log_base, "beta": args.beta, "left_out": sc.left_out,
               "solutions": {name: {"n": n, "classes": classes, "clusters": clusters[name],
                                    "measures": {k: _json_value(frame.at[name, k]) for k in keys},
                                    "ranks": {k: None if math.isnan(r) else int(r) for k, r in ranks.loc[name].items()}}
                             for name in names}}
        if why_not:
            doc["not_computed"] = why_not
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if args.format == "csv":
        return _csv([("solution", *keys)] + [(name, *("" if math.isnan(v) else repr(float(v)) for v in frame.loc[name]))
                                              for name in names])
    ranks = rank_solutions(frame)
    rows = []
    for k in keys:
        best = [name for name in names if ranks.at[name, k] == 1]
        rows.append((k, MEASURES[k].direction, *(format_number(frame.at[name, k]) for name in names),
                     ", ".join(best) if best else "—"))
    why = "a missing label or no partner id" if args.id_col is not None else "a missing label"
    left = f" ({format_number(sc.left_out)} left out: {why})" if sc.left_out else ""
    head = (f"# {format_number(n)} items{left}, {format_number(classes)} classes; {len(names)} solutions — clusters: "
            + ", ".join(f"{name} {format_number(clusters[name])}" for name in names)
            + f"; log base {_fmt_base(args.log_base)}, β = {format_number(args.beta)}\n")
    foot = "".join(f"# — {k} not computed for {name}: {reason}\n"
                   for k, per in why_not.items() for name, reason in per.items())
    widths = set(range(2, 2 + len(names)))
    return head + _aligned([("key", "better", *names, "best")] + rows, right=widths) + foot


def _fmt_base(b: float) -> str:
    return "e" if b == math.e else format_number(b)


def _format_scores(table: Contingency, values: dict, args) -> str:
    if args.format == "json":
        doc = {"n": table.n, "classes": table.shape[0], "clusters": table.shape[1],
               "log_base": args.log_base, "beta": args.beta, "measures": values}
        return json.dumps(doc, indent=2) + "\n"
    if args.format == "csv":
        return _csv([("key", "name", "value")] + [(k, MEASURES[k].name, repr(v)) for k, v in values.items()])
    rows = [(k, MEASURES[k].name, format_number(v), MEASURES[k].range_text, MEASURES[k].direction)
            for k, v in values.items()]
    head = (f"# {format_number(table.n)} items, {format_number(table.shape[0])} classes, "
            f"{format_number(table.shape[1])} clusters; "
            f"log base {_fmt_base(args.log_base)}, β = {format_number(args.beta)}\n")
    return head + _aligned([("key", "measure", "value", "range", "better")] + rows, right={2})


def _csv(rows) -> str:
    """Rows as CSV; a text cell a spreadsheet would run as a formula (a solution named ``=cmd|…``)
    gets a leading ``'`` (:func:`metrics.formatting.spreadsheet_cell`)."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([spreadsheet_cell(c) for c in row] for row in rows)
    return buf.getvalue()


def _aligned(rows, right=frozenset()) -> str:
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [str(c).rjust(w) if i in right else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- measures
def _measures(args) -> int:
    if args.format == "json":
        doc = [{"key": m.key, "name": m.name, "symbol": m.symbol, "family": m.family,
                "family_name": FAMILIES[m.family], "direction": m.direction,
                "bounds": [_json_bound(b) for b in m.bounds], "reference": m.reference,
                "formula": m.formula, "description": m.description, "uses_log_base": m.uses_log_base,
                "symmetric": m.symmetric, "n_invariant": m.n_invariant} for m in MEASURES.values()]
        sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    elif args.format == "csv":
        sys.stdout.write(_csv([("key", "name", "family", "range", "better", "reference")] +
                              [(m.key, m.name, m.family, m.range_text, m.direction, m.reference)
                               for m in MEASURES.values()]))
    else:
        sys.stdout.write(_aligned([("key", "measure", "family", "range", "better")] +
                                  [(m.key, m.name, FAMILIES[m.family], m.range_text, m.direction)
                                   for m in MEASURES.values()]))
    return 0


def _json_bound(b: float):
    return None if math.isinf(b) else b  # JSON has no infinity: null = unbounded


# ---------------------------------------------------------------------- app
def dashboard_app_path() -> Path:
    """The installed ``dashboard/app.py`` (the package next to ``metrics``)."""
    spec = importlib.util.find_spec("dashboard")
    if spec is not None and spec.submodule_search_locations:
        for root in spec.submodule_search_locations:
            candidate = Path(root) / "app.py"
            if candidate.is_file():
                return candidate
    return Path(__file__).resolve().parent.parent / "dashboard" / "app.py"


#: Server settings of the dashboard (also in the checkout's .streamlit/config.toml, which a
#: wheel install does not have): loopback only, no usage statistics, no file watcher, the
#: upload limit the app states, the viewer toolbar. The user's own options win.
APP_DEFAULTS = {
    "--server.address": "127.0.0.1",
    "--server.headless": "true",
    "--server.fileWatcherType": "none",
    "--server.maxUploadSize": "200",
    "--browser.gatherUsageStats": "false",
    "--client.toolbarMode": "viewer",
    # No gc.collect(2) after every script run: it walks the whole heap, most of an interaction's CPU.
    "--runner.postScriptGC": "false",
    # No ForwardMsg cache: its browser-side expiry races fast input ("Cached ForwardMsg MISS").
    "--global.minCachedMessageSize": "1e9",
    # The app assigns bound widgets' values on purpose (dashboard/components/state.py).
    "--global.disableWidgetStateDuplicationWarning": "true",
}


def app_command(extra: list[str]) -> list[str]:
    """``python -m dashboard.serve run dashboard/app.py`` (``streamlit run`` with the pages'
    libraries imported at server start: see ``dashboard/serve.py``) with safe defaults the user
    may override."""
    cmd = [sys.executable, "-m", "dashboard.serve", "run", str(dashboard_app_path())]
    given = {a.split("=", 1)[0] for a in extra if a.startswith("--")}
    for option, value in APP_DEFAULTS.items():
        if option not in given:
            cmd += [option, value]
    return cmd + extra


def _app(extra: list[str]) -> int:
    app = dashboard_app_path()
    if not app.is_file():
        raise UsageError(f"the dashboard is not installed (no {app})")
    if importlib.util.find_spec("streamlit") is None:
        raise ImportError("the dashboard needs streamlit: pip install 'partition-lab[dashboard]'")
    cmd = app_command(extra)
    sys.stdout.flush()
    sys.stderr.flush()
    # Become the server instead of starting it as a child: SIGTERM/SIGINT then reach Streamlit
    # itself, which shuts down cleanly, and no orphaned server outlives a stopped command.
    os.execv(cmd[0], cmd)
    return 0  # pragma: no cover - execv does not return


# ---------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``partition-lab`` console script; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        if argv and argv[0] == "app" and argv[1:2] not in (["-h"], ["--help"]):
            # Everything after `app` belongs to streamlit (--server.port 8502, …).
            args, extra = argparse.Namespace(command="app", debug=False), argv[1:]
        else:
            args, extra = parser.parse_args(argv), []
    except SystemExit as exc:  # usage error (2, one line already printed) or --help (0)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        if args.command == "score":
            return _score(args)
        if args.command == "measures":
            return _measures(args)
        return _app(extra)
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except BrokenPipeError:  # `partition-lab ... | head`
        sys.stderr.close()
        return 0
    except ImportError as exc:
        return _fail(str(exc), 1)
    except ConnectionError as exc:
        return _fail(str(exc), 1)
    except mio.MissingLabelsError as exc:
        texts = " (or leave texts out of --na-values)" if exc.na_values else ""
        return _fail(f"{exc.describe()}: add --dropna to leave those items out, or fill in the labels{texts}", 2)
    except mio.UnmatchedIdsError as exc:
        return _fail(f"{exc.describe()}: add --dropna to leave them out, or give every row a partner", 2)
    except limits.CostError as exc:
        return _fail(exc.describe("--budget SECONDS (0: no limit)"), 2)
    except (ValueError, KeyError, OSError) as exc:
        # KeyError's str() adds quotes; its message is its first argument.
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        if isinstance(exc, OSError) and exc.filename and str(exc.filename) not in message:
            message = f"{exc.filename}: {exc.strerror or message}"
        return _fail(message, 2)
    except Exception as exc:
        if getattr(args, "debug", False):
            raise
        return _fail(f"unexpected {type(exc).__name__}: {mio._first_line(exc)} (rerun with --debug for details)", 1)


def _fail(message: str, code: int) -> int:
    line = " ".join(_COPIES.shown(str(message)).split())  # one line, whatever the exception held
    sys.stderr.write(f"{PROG}: error: {line}\n")
    return code


if __name__ == "__main__":  # pragma: no cover - `python -m metrics.cli`
    sys.exit(main())
