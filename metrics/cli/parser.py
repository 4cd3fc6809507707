"""The ``partition-lab`` command's arguments: the parser, and the checks of option values that
turn bad input into one line and exit code 2.
"""

from __future__ import annotations

import argparse
import math
import sys

from .. import io as mio
from .._version import __version__
from ..core import limits

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
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    score = sub.add_parser(
        "score", help="score predicted clusters against gold classes",
        description="Score a clustering. GOLD holds the gold classes (and the predicted clusters too when "
        "PRED is not given); PRED the predicted clusters. Files are CSV, TSV or Parquet (gzip-compressed "
        "text too), recognised by their content whatever their name; UTF-8 or UTF-16 with a byte-order "
        "mark. Globs select several shards; '-' is standard input (read once; a file named '-' is ./-). "
        "Two files are aligned by --id-col, or by row; two files that share a column besides their label "
        "columns (an id) are refused unless --id-col or --by-row says how to align them. "
        "Several solutions — comma-separated --pred-col columns, or several PRED files — are scored "
        "together on the same items (with --dropna an item missing a label in any of them is left out of "
        "all). Output, in every format and for any number of solutions: one row per solution, one column "
        "per measure; JSON is strict (a value that is not a finite number is null, its reason under "
        "\"why_null\"). "
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
    score.add_argument("--by-row", action="store_true",
                       help="align GOLD and PRED by row even though they share a column (without it, files "
                       "sharing a column besides their labels are refused: give --id-col or --by-row)")
    score.add_argument("--no-header", action="store_true",
                       help="files have no header row: columns are named 1, 2, … (as in cut -f)")
    score.add_argument("--dropna", action="store_true",
                       help="leave out items with a missing label (or no partner id) instead of failing")
    score.add_argument("--na-values", type=_texts, default=(), metavar="TEXT,TEXT,…",
                       help="texts that mean 'no label', e.g. NA,NaN,null (default: none — every text is a "
                       "label, only empty cells are missing); compared with whole cells, case-sensitive")
    score.add_argument("--noise", metavar="LABEL",
                       help="the label of the clustering's noise items (DBSCAN's -1), read as --noise-as says")
    score.add_argument("--noise-as", choices=("cluster", "singletons", "exclude"), default="cluster",
                       help="noise items as one cluster (default: the labels as they are), each a cluster of "
                       "its own, or left out of the table (needs --noise)")
    score.add_argument("--measures", type=_measure_keys, metavar="K1,K2,…",
                       help="registry keys to compute (default: all that apply)")
    score.add_argument("--log-base", type=_log_base, default=math.e, metavar="B",
                       help="logarithm base of the unnormalized information measures: e (default), 2, 10, …")
    score.add_argument("--beta", type=_positive_float, default=1.0,
                       help="β of V_β (default 1; β > 1 favours completeness)")
    score.add_argument("--format", choices=("table", "json", "csv"), default="table",
                       help="output format (default: table): one row per solution, one column per measure")
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

    sub.add_parser("app", help="start the dashboard (every option after `app` is handed over to its server)",
                   description="Start the dashboard. The command hands over to the dashboard's server "
                   "(dashboard.server), which owns its settings: it listens on this machine only and sends "
                   "no usage statistics unless options after `app` say otherwise.")
    return parser
