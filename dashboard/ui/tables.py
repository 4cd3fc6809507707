"""The one path from what a user entered to a :class:`metrics.Contingency`, and its cached measures.

Every page reads its numbers through :func:`evaluate_cached`, so a table's measures are
computed once per (table, log base, β) and reruns caused by unrelated widgets cost nothing.

Editor frames have a text column ``class`` (the class names) and one numeric column per
cluster. :func:`frame_from_editor` turns one into a clean numeric table or into a list of
problems that name the offending cells, so the page can show them next to the table and keep
using the last valid table.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from dashboard.ui.safe_text import md
from metrics import io as mio
from metrics.core.digest import table_digest
from metrics.core.formatting import frame_csv

CLASS_COL = "class"
# Tables larger than this are not written into the URL (links must stay short enough to share).
MAX_URL_CELLS = 400
MAX_LISTED_PROBLEMS = 6


def editor_frame(table: pd.DataFrame) -> pd.DataFrame:
    """The data-editor form of ``table``: a ``class`` text column, then float cluster columns.

    Floats so that fractional counts (ambiguous data) can be typed into any cell.
    """
    out = table.astype(np.float64).copy()
    out.insert(0, CLASS_COL, [str(x) for x in table.index])
    out.columns = [CLASS_COL] + [str(c) for c in table.columns]
    return out.reset_index(drop=True)


def frame_from_editor(df: pd.DataFrame) -> tuple[pd.DataFrame | None, list[str]]:
    """(table, problems): the numeric table of an editor frame, or what is wrong with it.

    Blank class names become ``C<row>``; cells must be finite numbers ≥ 0.
    """
    problems: list[str] = []
    if CLASS_COL not in df.columns:
        return None, [f"the table has no {CLASS_COL!r} column"]
    clusters = [c for c in df.columns if c != CLASS_COL]
    if df.shape[0] == 0 or not clusters:
        return None, ["the table needs at least one class (row) and one cluster (column)"]
    names = []
    for i, name in enumerate(df[CLASS_COL].tolist()):
        blank = name is None or (isinstance(name, float) and math.isnan(name)) or str(name).strip() == ""
        names.append(f"C{i + 1}" if blank else str(name).strip())
    repeated = mio.repeated_labels(names)  # the rule of every table a user gives (metrics.io)
    if repeated:
        problems.append(mio.repeated_labels_message("class", "row", repeated))
    cells = df[clusters]
    numeric = cells.apply(pd.to_numeric, errors="coerce").astype(np.float64)
    for j, col in enumerate(clusters):
        for i in range(len(names)):
            raw, val = cells.iat[i, j], numeric.iat[i, j]
            where = f"class {names[i]!r}, cluster {col!r}"
            if math.isnan(val):
                missing = raw is None or (isinstance(raw, float) and math.isnan(raw))
                problems.append(f"{where}: empty — enter a count (0 for none)" if missing
                                else f"{where}: {raw!r} is not a number")
            elif math.isinf(val):
                problems.append(f"{where}: infinite — enter a finite count")
            elif val < 0:
                problems.append(f"{where}: {val:g} is negative — counts are ≥ 0")
    if not problems and float(numeric.to_numpy().sum()) <= 0:
        problems.append("every cell is 0: the table holds no items")
    if problems:
        return None, problems
    numeric.index = names
    numeric.columns = [str(c) for c in clusters]
    return numeric, []


def problems_text(problems: list[str]) -> str:
    """A short Markdown list of the first problems (and how many more)."""
    shown = problems[:MAX_LISTED_PROBLEMS]
    more = len(problems) - len(shown)
    # Problems quote the user's class and cluster names: escaped, so "a*b*" is not set in italics.
    lines = [f"- {md(p)}" for p in shown] + ([f"- … and {more} more"] if more else [])
    return "\n".join(lines)


def to_contingency(table: pd.DataFrame) -> metrics.Contingency:
    """The Contingency of a validated numeric table (``ValueError`` from metrics passes through)."""
    return metrics.Contingency.from_table(table)


def dropped_labels(table: pd.DataFrame) -> tuple[list[str], list[str]]:
    """Names of all-zero classes and clusters (the constructors drop them)."""
    values = table.to_numpy()
    rows = [str(n) for n, s in zip(table.index, values.sum(axis=1)) if s == 0]
    cols = [str(n) for n, s in zip(table.columns, values.sum(axis=0)) if s == 0]
    return rows, cols


def display_frame(t: metrics.Contingency, max_rows: int = 40, max_cols: int = 120) -> tuple[pd.DataFrame, str | None]:
    """(frame, summary): the table for display, and None — or, for a table larger than
    ``max_rows × max_cols``, its largest classes and clusters only, with a sentence saying how
    much of the table that is. (Summing the rest into an "other" row or column would swamp the
    colour scale.) Works on the non-zero cells, so a 10^3 × 10^5 table is never densified.
    """
    r, c = t.shape
    if r <= max_rows and c <= max_cols:
        return t.to_frame(), None

    def largest(sums, size, limit):
        if size <= limit:
            return np.arange(size)
        return np.sort(np.argsort(-np.asarray(sums, dtype=np.float64), kind="stable")[:limit])

    keep_r, keep_c = largest(t.row_sums, r, max_rows), largest(t.col_sums, c, max_cols)
    map_r = np.full(r, -1, dtype=np.int64)
    map_r[keep_r] = np.arange(len(keep_r))
    map_c = np.full(c, -1, dtype=np.int64)
    map_c[keep_c] = np.arange(len(keep_c))
    rows, cols = map_r[np.asarray(t.rows)], map_c[np.asarray(t.cols)]
    inside = (rows >= 0) & (cols >= 0)
    dense = np.zeros((len(keep_r), len(keep_c)), dtype=np.asarray(t.values).dtype)
    np.add.at(dense, (rows[inside], cols[inside]), np.asarray(t.values)[inside])
    frame = pd.DataFrame(dense, index=[str(t.row_labels[i]) for i in keep_r],
                         columns=[str(t.col_labels[j]) for j in keep_c])
    share = float(dense.sum()) / float(t.n)
    summary = (f"A {r:,} × {c:,} table with {len(t.values):,} non-zero cells: drawn are its {len(keep_r):,} largest "
               f"classes and {len(keep_c):,} largest clusters, holding {share:.0%} of the items. "
               "Every measure uses the full table.")
    return frame, summary


# ---------------------------------------------------------------- the URL form of a table
def encode_table(table: pd.DataFrame) -> str | None:
    """Compact JSON for ``st.query_params`` (None when the table is too large for a link)."""
    if table.size > MAX_URL_CELLS:
        return None
    cells = [[int(v) if float(v).is_integer() else float(v) for v in row] for row in table.to_numpy().tolist()]
    return json.dumps({"classes": [str(x) for x in table.index], "clusters": [str(c) for c in table.columns],
                       "cells": cells}, separators=(",", ":"), ensure_ascii=False)


def decode_table(text: str) -> pd.DataFrame:
    """The table of :func:`encode_table`'s text; ``ValueError`` saying what is wrong."""
    try:
        data = json.loads(text)
        classes, clusters, cells = data["classes"], data["clusters"], data["cells"]
    except (json.JSONDecodeError, TypeError, KeyError):
        raise ValueError("the link's table is not in the expected form {classes, clusters, cells}") from None
    if not (isinstance(cells, list) and len(cells) == len(classes)
            and all(isinstance(r, list) and len(r) == len(clusters) for r in cells)):
        raise ValueError("the link's table does not have one row per class and one cell per cluster")
    frame = pd.DataFrame(cells, index=[str(c) for c in classes], columns=[str(c) for c in clusters])
    table, problems = frame_from_editor(editor_frame_unchecked(frame))
    if problems:
        raise ValueError("the link's table is invalid: " + "; ".join(problems[:3]))
    return table


def editor_frame_unchecked(frame: pd.DataFrame) -> pd.DataFrame:
    """Like :func:`editor_frame` but keeps non-numeric cells (for validation)."""
    out = frame.copy()
    out.insert(0, CLASS_COL, [str(x) for x in frame.index])
    return out.reset_index(drop=True)


# ---------------------------------------------------------------- cached measures
def fingerprint(t: metrics.Contingency) -> str:
    """A digest of a table's cells and labels: the cache key of its measures
    (:func:`metrics.core.digest.table_digest`, computed once per table object)."""
    return table_digest(t)


# The registry's measures by what their value depends on besides the table: most on nothing else,
# the unnormalized information measures on the log base (``uses_log_base``), V_β on β
# (``uses_beta``). Moving the β slider or switching nats/bits recomputes only the measures it
# changes; the rest come from the cache, computed by the same call with the default arguments
# they ignore, so every value is bit-identical to ``metrics.evaluate(t, log_base=…, beta=…)``.
_GROUPS = {
    (uses_log, uses_beta): tuple(k for k, m in metrics.MEASURES.items()
                                 if (m.uses_log_base, m.uses_beta) == (uses_log, uses_beta))
    for uses_log in (False, True) for uses_beta in (False, True)
}


@st.cache_data(max_entries=1024, show_spinner=False)
def _evaluate_group(digest: str, _t: metrics.Contingency, group: tuple[bool, bool], log_base: float,
                    beta: float) -> dict[str, float]:
    """``metrics.evaluate`` of one group's measures that apply to ``_t`` (cached by the table's
    ``digest``, so the table is hashed once per :func:`evaluate_cached` call, not once per group)."""
    keys = [k for k in _GROUPS[group] if metrics.MEASURES[k].applies_to(_t)]
    return metrics.evaluate(_t, keys, log_base=log_base, beta=beta)   # checks the arguments, even with no keys


def settings_for(keys, log_base: float, beta: float) -> tuple[float, float]:
    """``(log_base, beta)`` as the measures ``keys`` see them: e where none of them depends on
    the log base, 1 where none depends on β. The cache key of anything computed from these
    measures alone, so moving β or the unit does not recompute what they leave unchanged."""
    ms = [metrics.MEASURES[k] for k in keys]
    return (log_base if any(m.uses_log_base for m in ms) else math.e,
            beta if any(m.uses_beta for m in ms) else 1.0)


@st.cache_resource(max_entries=512, show_spinner=False)
def _evaluated(digest: str, _t: metrics.Contingency, log_base: float, beta: float) -> dict[str, float]:
    """The whole evaluation, shared by reference in front of the groups' caches: st.cache_data
    hands out a pickled copy on every hit, and four groups per table cost the property checker's
    demos (four tables) ~10 ms a rerun. :func:`evaluate_cached` hands out a new dict, so no
    caller can change the kept one."""
    parts = {}
    for (uses_log, uses_beta), keys in _GROUPS.items():
        if keys:
            parts.update(_evaluate_group(digest, _t, (uses_log, uses_beta), log_base if uses_log else math.e,
                                         beta if uses_beta else 1.0))
    return {k: parts[k] for k in metrics.MEASURES if k in parts}


def evaluate_cached(t: metrics.Contingency, log_base: float = math.e, beta: float = 1.0) -> dict[str, float]:
    """``metrics.evaluate`` of every registered measure (those that apply to ``t``, in registry
    order), cached per table and, measure by measure, per the log base and β it depends on."""
    return dict(_evaluated(fingerprint(t), t, float(log_base), float(beta)))


DENSE_CSV_CELLS = 10**6


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs={metrics.Contingency: fingerprint})
def table_csv(t: metrics.Contingency) -> bytes:
    """The table as CSV: rows = classes, columns = clusters; a huge table as its non-zero cells
    (class, cluster, count), which is all the table is."""
    if t.shape[0] * t.shape[1] <= DENSE_CSV_CELLS:
        return frame_csv(t.to_frame(), index_label="class")
    long = pd.DataFrame({"class": np.asarray(t.row_labels, dtype=object)[t.rows],
                         "cluster": np.asarray(t.col_labels, dtype=object)[t.cols], "count": t.values})
    return frame_csv(long, index=False)
