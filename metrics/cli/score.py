"""``partition-lab score``: label files or a table file → one table (or several solutions) →
the measures, through :mod:`metrics.io`, the reader the dashboard uses too.
"""

from __future__ import annotations

import importlib.util
import shlex
import sys
from pathlib import Path

from .. import io as mio
from ..core.contingency import Contingency
from ..core.labels import find_noise_label, table_with_noise
from ..core.registry import evaluate
from ..solutions import compare_solutions
from .output import Progress, Scores, format_scores
from .parser import PROG, PROGRESS_BYTES, UsageError


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
    return mio.expand_paths(pattern)[0]


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


def _table_from_label_files(args, progress: Progress) -> tuple[Contingency, str]:
    """The table of one solution, and the solution's name (its column in a file holding both,
    else PRED's file name, as several PRED files are named)."""
    header = not args.no_header
    if args.pred is None:
        cols = mio.file_columns(_first_file(args.gold), header=header)
        gold, pred = _pick_columns(cols, args.gold_col, args.pred_col, args.id_col, args.gold)
        pred_paths, id_col, name = None, None, pred
    else:
        gcols = mio.file_columns(_first_file(args.gold), header=header)
        pcols = mio.file_columns(_first_file(args.pred), header=header)
        gold = _pick_column(gcols, args.gold_col, "gold", args.id_col, args.gold, "--gold-col")
        pred = _pick_column(pcols, args.pred_col, "pred", args.id_col, args.pred, "--pred-col")
        _refuse_shared_columns(args, args.gold, gcols, gold, args.pred, pcols, [pred])
        pred_paths, id_col, name = args.pred, args.id_col, _solution_name(args.pred)
    size = _text_size([args.gold] + ([args.pred] if args.pred else []))
    progress.enabled = progress.enabled and size >= PROGRESS_BYTES
    engine = _choose_engine(args, size, progress)
    _notes(args, [args.gold] + ([args.pred] if args.pred else []))
    over = "over " if size > max(mio.DUCKDB_THRESHOLD_BYTES, PROGRESS_BYTES) else ""
    progress.stage(f"counting (gold, pred) pairs in {over}{size / 2**20:.1f} MiB of text with {engine}")
    table = mio.contingency_from_files(args.gold, gold, pred, pred_paths=pred_paths, id_col=id_col,
                                       dropna=args.dropna, na_values=args.na_values, header=header, engine=engine,
                                       progress=progress.fraction if engine == "duckdb" else None)
    return table, name


def _refuse_shared_columns(args, gold_path: str, gold_columns: list[str], gold_col: str, pred_path: str,
                           pred_columns: list[str], pred_cols: list[str]) -> None:
    """Two files that share a column besides their label columns (an ``id``, an ``item``) are
    never aligned by row silently: the rows of one may be shuffled relative to the other (a
    prediction sorted by cluster). Without ``--id-col`` or ``--by-row`` they are refused."""
    if args.id_col is not None or args.by_row:
        return
    shared = [c for c in gold_columns if c in pred_columns and c != gold_col and c not in pred_cols]
    if shared:
        named = ", ".join(repr(c) for c in shared)
        raise UsageError(f"{gold_path} and {pred_path} share the column{'s' if len(shared) > 1 else ''} {named}: "
                         f"give --id-col {shlex.quote(shared[0])} to align their rows by it (or --by-row to align "
                         "them by position, as they are)")


def _notes(args, patterns) -> None:
    """Say where a file's content overrode its name (a .csv that is tab-separated, …)."""
    if args.quiet:
        return
    seen = set()
    for pattern in patterns:
        for path in mio.expand_paths(pattern):
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


def _noise_note(args, tables: dict) -> None:
    """Say on stderr how many items each solution labels as noise, and how they were read."""
    if args.quiet:
        return
    for name, t in tables.items():
        count, share, coverage = (t["count"], t["share"], t["coverage"]) if isinstance(t, dict) else (
            t.noise_count, t.noise_share, t.coverage)
        kept = f", {coverage:.1%} of the items scored" if args.noise_as == "exclude" else ""
        sys.stderr.write(f"{PROG}: note: {name}: {count:,} noise item(s) labelled {args.noise} ({share:.1%}), "
                         f"read as {args.noise_as}{kept}\n")


def _score_files(args) -> int:
    if args.noise is None and args.noise_as != "cluster":
        raise UsageError(f"--noise-as {args.noise_as} needs --noise LABEL, the label of the noise items (e.g. -1)")
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
        name = _solution_name(args.table)
    elif args.gold is None:
        raise UsageError("give a GOLD file (and PRED), or --table FILE")
    elif args.id_col is not None and args.pred is None:
        raise UsageError("--id-col aligns two files: give PRED too")
    elif args.dask:
        table = _table_from_dask(args, progress)
        name = _solution_name(args.pred) if args.pred is not None else (args.pred_col or "pred")
    else:
        table, name = _table_from_label_files(args, progress)

    if args.noise is not None:
        label = find_noise_label(table.col_labels, args.noise)
        table = table_with_noise(table, args.noise if label is None else label, args.noise_as)
        _noise_note(args, {name: table})
    progress.stage(f"computing measures for {table.shape[0]} classes × {table.shape[1]} clusters, n = {table.n}")
    values = evaluate(table, args.measures, log_base=args.log_base, beta=args.beta)
    progress.stage("done")
    # One solution is one row, as several are (metrics.cli.output: one shape).
    import pandas as pd  # here, not at import: `partition-lab --help` starts without pandas

    frame = pd.DataFrame([values], index=[name], columns=list(values), dtype=float)
    left_out = None if args.dropna and args.table is None else 0  # --dropna's count is not kept by the reader
    sys.stdout.write(format_scores(Scores(frame, table.n, int(table.shape[0]), {name: int(table.shape[1])},
                                          left_out), args))
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
    files = mio.expand_paths(pattern)
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
        gold_columns = mio.file_columns(gold_file, header=header)
        gold_col = _pick_column(gold_columns, args.gold_col, "gold", args.id_col, args.gold, "--gold-col")
        gold = mio.read_labels(gold_file, [*extra, gold_col], header=header, na_values=na)
        files = [_one_file(p, "PRED") for p in preds]
        if columns:  # one PRED file with several columns
            _refuse_shared_columns(args, args.gold, gold_columns, gold_col, preds[0],
                                   mio.file_columns(files[0], header=header), columns)
            labels = mio.read_labels(files[0], [*extra, *columns], header=header, na_values=na)
            solutions = [(c, labels, c) for c in columns]
        else:  # one file per solution
            if args.pred_col is not None and "," in args.pred_col and \
                    args.pred_col not in mio.file_columns(files[0], header=header):
                raise UsageError("with several PRED files, --pred-col names the one label column each file holds "
                                 "(or leave it out: 'pred', or the only column besides --id-col)")
            solutions = []
            for name, pred, path in zip(_file_solution_names(preds), preds, files):
                pred_columns = mio.file_columns(path, header=header)
                col = _pick_column(pred_columns, args.pred_col, "pred", args.id_col, path, "--pred-col")
                _refuse_shared_columns(args, args.gold, gold_columns, gold_col, pred, pred_columns, [col])
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
                              noise=args.noise, noise_as=args.noise_as,
                              progress=lambda done, total: progress.fraction(done / total, "scoring solutions"),
                              budget=args.budget)
    progress.stage("done")
    if args.noise is not None:
        _noise_note(args, frame.attrs["noise"])
    clusters = {name: int(sc.solutions[name].nunique(dropna=False)) for name in frame.index}
    scores = Scores(frame, len(sc), int(sc.gold.nunique(dropna=False)), clusters, sc.left_out,
                    frame.attrs.get("why_not", {}))
    sys.stdout.write(format_scores(scores, args))
    return 0
