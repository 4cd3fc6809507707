"""The ``partition-lab`` command: score clusterings from files, list measures, start the app.

::

    partition-lab score GOLD [PRED] [options]   # labels → contingency table → measures
    partition-lab score --table TABLE [options] # a contingency table file → measures
    partition-lab measures                      # the registry
    partition-lab app [streamlit options]       # the dashboard

Every value printed comes from :func:`metrics.evaluate`; tables are built by
:mod:`metrics.io`. Exit codes: 0 success; 2 bad input or usage (one line on stderr,
no traceback); 1 an environment problem (optional package missing, cluster
unreachable, unexpected failure — ``--debug`` shows its traceback); 130 interrupted.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import json
import math
import subprocess
import sys
import time
from pathlib import Path

from . import io as mio
from .contingency import Contingency
from .registry import FAMILIES, MEASURES, evaluate

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

    def fraction(self, done: float) -> None:
        if not self.enabled:
            return
        step = int(done * 100) if self.tty else int(done * 10) * 10  # a line per 10 % in logs
        if step == self._last_step:
            return
        self._last_step = step
        elapsed = time.perf_counter() - self._start
        text = f"{PROG}: scanning {step:3d}% ({elapsed:.1f} s)"
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
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"log base must be a number or 'e', got {text!r}") from None


def _positive_float(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None


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
        "PRED is not given); PRED the predicted clusters. Files are CSV, TSV (.tsv/.tab/.txt) or Parquet, "
        "by extension; globs select several shards. Two files are aligned by row, or by --id-col. "
        "Empty fields are missing labels. Inputs over "
        f"{mio.DUCKDB_THRESHOLD_BYTES // 2**20} MiB are counted by DuckDB without loading them (--engine).")
    score.add_argument("gold", nargs="?", metavar="GOLD", help="file with the gold labels")
    score.add_argument("pred", nargs="?", metavar="PRED", help="file with the predicted labels")
    score.add_argument("--table", metavar="FILE",
                       help="a contingency table file instead (rows = classes, columns = clusters; "
                       "first column = class names when unnamed or not numeric)")
    score.add_argument("--gold-col", help="gold label column (default: 'gold', or the only other column)")
    score.add_argument("--pred-col", help="predicted label column (default: 'pred', or the only other column)")
    score.add_argument("--id-col", help="align GOLD and PRED by this id column instead of by row")
    score.add_argument("--no-header", action="store_true",
                       help="files have no header row: columns are named 1, 2, … (as in cut -f)")
    score.add_argument("--dropna", action="store_true",
                       help="drop items with a missing label (or no partner id) instead of failing")
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
    if args.engine != "auto":
        return args.engine
    if size < mio.DUCKDB_THRESHOLD_BYTES:
        return "pandas"
    if importlib.util.find_spec("duckdb") is None:
        progress.stage(f"DuckDB is not installed: reading {size / 2**20:.0f} MiB with pandas "
                       "(pip install 'partition-lab[io]' to count larger-than-memory files)")
        return "pandas"
    return "duckdb"


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
    size = mio.total_size(args.gold) + (mio.total_size(args.pred) if args.pred else 0)
    progress.enabled = progress.enabled and size >= PROGRESS_BYTES
    engine = _choose_engine(args, size, progress)
    progress.stage(f"counting (gold, pred) pairs in {size / 2**20:.1f} MiB with {engine}")
    return mio.contingency_from_files(args.gold, gold, pred, pred_paths=pred_paths, id_col=id_col,
                                      dropna=args.dropna, header=header, engine=engine,
                                      progress=progress.fraction if engine == "duckdb" else None)


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
            return mio.contingency_from_dask(ddf, gold, pred, dropna=args.dropna)
        if args.id_col is None:
            raise UsageError("with --dask, two files are joined by an id column: give --id-col")
        gold = args.gold_col or "gold"
        pred = args.pred_col or "pred"
        gddf = mio.read_dask(args.gold, [args.id_col, gold], header=header)
        pddf = mio.read_dask(args.pred, [args.id_col, pred], header=header)
        progress.stage("joining by id and counting on the cluster")
        return mio.contingency_from_dask(gddf, gold, pred, pred_ddf=pddf, id_col=args.id_col, dropna=args.dropna)


def _is_local(path: str) -> bool:
    return "://" not in path


def _score(args) -> int:
    progress = Progress(enabled=not args.quiet)
    if args.table is not None:
        if args.gold is not None or args.pred is not None:
            raise UsageError("--table takes the contingency table file; give no GOLD/PRED files with it")
        if args.dask:
            raise UsageError("--table reads a small table file: --dask does not apply")
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


def _fmt_base(b: float) -> str:
    return "e" if b == math.e else f"{b:g}"


def _format_scores(table: Contingency, values: dict, args) -> str:
    if args.format == "json":
        doc = {"n": table.n, "classes": table.shape[0], "clusters": table.shape[1],
               "log_base": args.log_base, "beta": args.beta, "measures": values}
        return json.dumps(doc, indent=2) + "\n"
    if args.format == "csv":
        return _csv([("key", "name", "value")] + [(k, MEASURES[k].name, repr(v)) for k, v in values.items()])
    rows = [(k, MEASURES[k].name, f"{v:.6g}", MEASURES[k].range_text, MEASURES[k].direction)
            for k, v in values.items()]
    head = (f"# {table.n} items, {table.shape[0]} classes, {table.shape[1]} clusters; "
            f"log base {_fmt_base(args.log_base)}, β = {args.beta:g}\n")
    return head + _aligned([("key", "measure", "value", "range", "better")] + rows, right={2})


def _csv(rows) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
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


def app_command(extra: list[str]) -> list[str]:
    """``python -m streamlit run dashboard/app.py`` with safe defaults the user may override."""
    cmd = [sys.executable, "-m", "streamlit", "run", str(dashboard_app_path())]
    given = " ".join(extra)
    # Local by default: listen on loopback only and send no usage statistics.
    if "--server.address" not in given:
        cmd += ["--server.address", "127.0.0.1"]
    if "--browser.gatherUsageStats" not in given:
        cmd += ["--browser.gatherUsageStats", "false"]
    return cmd + extra


def _app(extra: list[str]) -> int:
    app = dashboard_app_path()
    if not app.is_file():
        raise UsageError(f"the dashboard is not installed (no {app})")
    if importlib.util.find_spec("streamlit") is None:
        raise ImportError("the dashboard needs streamlit: pip install 'partition-lab[dashboard]'")
    return subprocess.call(app_command(extra))


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
    line = " ".join(str(message).split())  # one line, whatever the exception held
    sys.stderr.write(f"{PROG}: error: {line}\n")
    return code


if __name__ == "__main__":  # pragma: no cover - `python -m metrics.cli`
    sys.exit(main())
