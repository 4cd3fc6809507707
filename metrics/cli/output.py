"""What ``partition-lab`` prints: progress on stderr, and the scores as a table, CSV or JSON;
the ``measures`` command.
"""

from __future__ import annotations

import csv
import io
import json
import math
import sys
import time

from .. import io as mio
from ..core.contingency import Contingency
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
