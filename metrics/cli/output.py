"""What ``partition-lab`` prints: progress on stderr, and the scores as a table, CSV or JSON;
the ``measures`` command.

One shape whatever the number of solutions: rows = solutions, columns = measures, in every format
(one solution is one row). JSON is strict — ``NaN`` and ``Infinity`` are not JSON — in every
command: a value that is not a finite number is ``null``, and the object that holds it has a
``"why_null"`` object giving the reason under the same key (:func:`why_null`, :func:`strict_json`).
"""

from __future__ import annotations

import csv
import io
import json
import math
import shutil
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from ..core.formatting import format_number, spreadsheet_cell
from ..core.registry import FAMILIES, MEASURES
from ..solutions import rank_solutions
from .parser import PROG


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


# ---------------------------------------------------------------------- scores
# One shape whatever the number of solutions: rows = solutions, columns = measures, in every
# format (one solution is one row). JSON is strict (no NaN/Infinity): a value that is not a finite
# number is null, and the object holding it has a "why_null" object naming the reason
# (docs/cli.md, "Output").

@dataclass
class Scores:
    """What ``partition-lab score`` prints: ``frame`` (index = solutions, columns = measure keys,
    as :func:`metrics.compare_solutions` returns, NaN where not computed), the items, classes and
    each solution's clusters; ``left_out``: items left out by ``--dropna`` (``None``: not counted);
    ``why_not``: ``{key: {solution: reason}}`` for the NaN values."""

    frame: Any
    n: float
    classes: int
    clusters: dict[str, int]
    left_out: int | None = 0
    why_not: dict[str, dict[str, str]] = field(default_factory=dict)


def why_null(value: float, reason: str | None = None) -> str | None:
    """Why ``value`` is written as JSON ``null`` (``None``: it is a finite number, written as such)."""
    if math.isnan(value):
        return f"not computed: {reason}" if reason else "not a number: the measure is undefined for this table"
    if math.isinf(value):
        return f"{'+' if value > 0 else '-'}inf: the value is infinite (JSON has no infinity)"
    return None


def strict_json(doc) -> str:
    """``doc`` as JSON that every parser reads: NaN or infinity left in ``doc`` is a bug, raised
    (``ValueError``) rather than written as ``NaN``/``Infinity``."""
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _finite_or_null(values: dict[str, float], reasons: dict[str, str]) -> tuple[dict, dict]:
    """``values`` with non-finite ones as ``None``, and ``{key: why}`` for those."""
    out, why = {}, {}
    for k, v in values.items():
        v = float(v)
        reason = why_null(v, reasons.get(k))
        out[k] = None if reason else v
        if reason:
            why[k] = reason
    return out, why


def format_scores(scores: Scores, args) -> str:
    """The scores in ``args.format``: table, csv or json (rows = solutions, columns = measures)."""
    if args.format == "json":
        return _scores_json(scores, args)
    if args.format == "csv":
        _csv_notes(scores, args)
        return _csv([("solution", *scores.frame.columns)] +
                    [(name, *(_csv_number(v) for v in scores.frame.loc[name])) for name in scores.frame.index])
    return _scores_table(scores, args)


def _csv_number(v) -> str:
    v = float(v)
    return "" if math.isnan(v) else repr(v)  # inf / -inf as Python, pandas and R read them


def _csv_notes(scores: Scores, args) -> None:
    """CSV has no place for the reasons a value is empty: they go to stderr."""
    if args.quiet:
        return
    for k, per in scores.why_not.items():
        for name, reason in per.items():
            sys.stderr.write(f"{PROG}: note: {k} not computed for {name}: {reason}\n")


def _scores_json(scores: Scores, args) -> str:
    frame = scores.frame
    ranks = rank_solutions(frame)
    solutions = {}
    for name in frame.index:
        reasons = {k: per[name] for k, per in scores.why_not.items() if name in per}
        values, why = _finite_or_null(frame.loc[name].to_dict(), reasons)
        solutions[name] = {"n": scores.n, "classes": scores.classes, "clusters": scores.clusters[name],
                           "measures": values,
                           "ranks": {k: None if math.isnan(r) else int(r) for k, r in ranks.loc[name].items()},
                           "why_null": why}
    top_why = {} if scores.left_out is not None else {
        "left_out": "not counted: one solution's table is counted straight from the files"}
    doc = {"n": scores.n, "classes": scores.classes, "left_out": scores.left_out, "log_base": args.log_base,
           "beta": args.beta, "solutions": solutions, "why_null": top_why}
    return strict_json(doc)


def _scores_table(scores: Scores, args) -> str:
    frame = scores.frame
    names, keys = [str(n) for n in frame.index], list(frame.columns)
    several = len(names) > 1
    ranks = rank_solutions(frame)
    why = "a missing label or no partner id" if args.id_col is not None else "a missing label"
    left = f" ({format_number(scores.left_out)} left out: {why})" if scores.left_out else ""
    head = (f"# {format_number(scores.n)} items{left}, {format_number(scores.classes)} classes; "
            f"{len(names)} solution{'s' if several else ''} — clusters: "
            + ", ".join(f"{name} {format_number(scores.clusters[name])}" for name in frame.index)
            + f"; log base {_fmt_base(args.log_base)}, β = {format_number(args.beta)}\n")

    def cell(name, k) -> str:
        text = format_number(frame.at[name, k])
        return text + ("*" if ranks.at[name, k] == 1 else " ") if several else text

    columns = [["solution", "better", *names]]
    columns += [[k, MEASURES[k].direction, *(cell(name, k) for name in frame.index)] for k in keys]
    foot = (f"# * the best of the {len(names)} solutions by that measure (tied solutions share it)\n"
            if several else "")
    foot += "".join(f"# — {k} not computed for {name}: {reason}\n"
                    for k, per in scores.why_not.items() for name, reason in per.items())
    return head + _blocks(columns, _width()) + foot


def _width() -> int:
    """Characters per line of the table: the terminal's (or $COLUMNS), 120 when not a terminal."""
    return max(40, shutil.get_terminal_size((120, 24)).columns)


def _blocks(columns: list[list[str]], width: int) -> str:
    """Columns (the first one, the solutions' names, repeated) side by side, in as many blocks
    as ``width`` needs — as pandas prints a wide frame: rows stay solutions, whatever the width."""
    first, rest = columns[0], columns[1:]
    blocks: list[list[list[str]]] = []
    used = width + 1
    for col in rest:
        w = max(len(c) for c in col) + 2
        if used + w > width and (not blocks or len(blocks[-1]) > 1):
            blocks.append([first])
            used = max(len(c) for c in first)
        blocks[-1].append(col)
        used += w
    if not blocks:
        blocks = [[first]]
    return "\n".join(_aligned(list(zip(*block)), right=set(range(1, len(block)))) for block in blocks)


def _fmt_base(b: float) -> str:
    return "e" if b == math.e else format_number(b)


def _csv(rows) -> str:
    """Rows as CSV; a text cell a spreadsheet would run as a formula (a solution named ``=cmd|…``)
    gets a leading ``'`` (:func:`metrics.core.formatting.spreadsheet_cell`)."""
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
        doc = [_measure_record(m) for m in MEASURES.values()]
        sys.stdout.write(strict_json(doc))
    elif args.format == "csv":
        sys.stdout.write(_csv([("key", "name", "family", "range", "better", "reference")] +
                              [(m.key, m.name, m.family, m.range_text, m.direction, m.reference)
                               for m in MEASURES.values()]))
    else:
        sys.stdout.write(_aligned([("key", "measure", "family", "range", "better")] +
                                  [(m.key, m.name, FAMILIES[m.family], m.range_text, m.direction)
                                   for m in MEASURES.values()]))
    return 0


def _measure_record(m) -> dict:
    """A measure in ``partition-lab measures --format json``: an infinite bound is ``null``, and
    ``why_null`` says so (JSON has no infinity)."""
    low, high = (float(b) for b in m.bounds)
    unbounded = [side for side, b in (("below (-inf)", low), ("above (+inf)", high)) if math.isinf(b)]
    return {"key": m.key, "name": m.name, "symbol": m.symbol, "family": m.family,
            "family_name": FAMILIES[m.family], "direction": m.direction,
            "bounds": [None if math.isinf(b) else b for b in (low, high)], "reference": m.reference,
            "formula": m.formula, "description": m.description, "uses_log_base": m.uses_log_base,
            "symmetric": m.symmetric, "n_invariant": m.n_invariant,
            "why_null": {"bounds": "unbounded " + " and ".join(unbounded)} if unbounded else {}}
