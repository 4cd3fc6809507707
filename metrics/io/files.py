"""Label files on disk → one contingency table: sources, alignment, and the pandas engine."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from .._lazy import lazy_module
from ..core.contingency import Contingency
from . import scan
from .engines.duckdb_engine import duckdb_contingency
from .errors import MissingLabelsError
from .read import (
    LabelColumns,
    _parquet_file,
    contingency_from_columns,
    missing_mask,
    parquet_content_size,
    read_labels,
)
from .sniff import sniff
from .sources import Source, check_alignment, expand_paths, no_items_left

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    pd = lazy_module("pandas")

__all__ = ["content_size", "contingency_from_files", "file_format", "total_size"]


def total_size(paths) -> int:
    """Bytes on disk of the files ``paths`` names (globs expanded)."""
    return sum(os.path.getsize(p) for p in expand_paths(paths))


def content_size(paths, stop_after: int | None = None) -> int:
    """Bytes of text the files ``paths`` names hold once expanded — a gzip file decompressed
    (streamed and counted, never kept), a Parquet file's cells as text
    (:func:`~metrics.io.read.parquet_content_size`) — what an engine has to read, whatever the
    files weigh on disk (1 MB of gzip can hold 1 GiB). Counting stops once the total passes
    ``stop_after``: enough to know it is above."""
    total = 0
    for p in expand_paths(paths):
        kind = sniff(p)
        if kind.fmt == "parquet":
            pf = _parquet_file(p, p)
            total += parquet_content_size(pf, pf.schema_arrow.names)
        else:
            left = None if stop_after is None else max(stop_after - total, 0)
            total += scan.content_size(p, kind, left)
        if stop_after is not None and total > stop_after:
            break
    return total


def file_format(path) -> str:
    """``"csv"``, ``"tsv"`` or ``"parquet"``: how the reader reads ``path`` (decided by its content)."""
    return sniff(expand_paths(path)[0]).fmt


def locate(parts: Sequence[tuple[str, np.ndarray]]) -> tuple[str, tuple[int, ...]]:
    """(file, first rows) of the first shard with a True in its mask: rows are per file."""
    for name, mask in parts:
        rows = np.flatnonzero(mask)
        if rows.size:
            return name, tuple(int(r) + 1 for r in rows[:MissingLabelsError.SHOWN])
    return "", ()


# ---------------------------------------------------------------------- entry point
def contingency_from_files(paths, gold: str = "gold", pred: str = "pred", *, pred_paths=None,
                           id_col: str | None = None, dropna: bool = False, na_values: Sequence[str] = (),
                           header: bool = True, engine: str = "duckdb",
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
        Leave out items with a missing label or, with ``id_col``, without a partner row;
        otherwise they raise :class:`~metrics.io.MissingLabelsError` /
        :class:`~metrics.io.UnmatchedIdsError` naming the counts and the first rows.
    na_values
        Texts treated as missing labels besides empty cells (default none: ``NA`` is a label).
    engine
        ``"duckdb"``: an embedded DuckDB ``GROUP BY`` over the files, the labels never
        loaded into Python (memory ∝ number of non-zero cells). ``"pandas"``: read the
        columns with :func:`~metrics.io.read_labels`, then :func:`~metrics.io.contingency_from_columns`.
        Both apply the same reading and missing-value rules and give the same table.
    progress
        Called with the fraction done (0..1) while DuckDB scans (about every 0.2 s).

    Raises
    ------
    FileNotFoundError
        A file is missing.
    ValueError
        Unreadable files, unknown columns, missing labels, misaligned or duplicated items.
    metrics.io.EmptyTableError
        No item is left.
    ImportError
        DuckDB (the ``io`` extra) is not installed.

    Examples
    --------
    >>> t = contingency_from_files("labels.parquet", gold="gold", pred="pred")  # doctest: +SKIP
    """
    if engine not in ("duckdb", "pandas"):
        raise ValueError(f"engine must be 'duckdb' or 'pandas', got {engine!r}")
    na_values = tuple(na_values)
    if pred_paths is None:
        if id_col is not None:
            raise ValueError("id_col aligns two sources: give pred_paths too (one file holds both labels already)")
        sources = [Source.open(paths, [gold, pred], header, "labels")]
    else:
        extra = [id_col] if id_col is not None else []
        sources = [Source.open(paths, extra + [gold], header, "gold"),
                   Source.open(pred_paths, extra + [pred], header, "pred")]
    if engine == "pandas":
        return _pandas_contingency(sources, gold, pred, id_col, dropna, na_values)
    return duckdb_contingency(sources, gold, pred, id_col, dropna, na_values, progress)


# ---------------------------------------------------------------------- pandas engine
def _read_source(src: Source, columns, na_values) -> list[LabelColumns]:
    return [read_labels(p, list(columns), header=src.header, na_values=na_values) for p in src.paths]


def _concat(parts: list[LabelColumns], column: str) -> pd.Series:
    cols = [lc.raw[column] for lc in parts]
    return pd.concat(cols, ignore_index=True) if len(cols) > 1 else cols[0].reset_index(drop=True)


def _pandas_contingency(sources, gold, pred, id_col, dropna, na_values) -> Contingency:
    if len(sources) == 1:
        parts = _read_source(sources[0], [gold, pred], na_values)
        g, p = _concat(parts, gold), _concat(parts, pred)
        g_parts = [(lc.name, missing_mask(lc.raw[gold], na_values)) for lc in parts]
        p_parts = [(lc.name, missing_mask(lc.raw[pred], na_values)) for lc in parts]
        return _count(g, p, g_parts, p_parts, dropna, na_values)
    gsrc, psrc = sources
    extra = [id_col] if id_col else []
    gparts, pparts = _read_source(gsrc, extra + [gold], na_values), _read_source(psrc, extra + [pred], na_values)
    g, p = _concat(gparts, gold), _concat(pparts, pred)
    if id_col is None:
        check_alignment(len(g), len(p), 0, 0, 0, None, dropna, gsrc.name, psrc.name)
        return _count(g, p, [(lc.name, missing_mask(lc.raw[gold], na_values)) for lc in gparts],
                      [(lc.name, missing_mask(lc.raw[pred], na_values)) for lc in pparts], dropna, na_values)
    # Join by id. A missing id matches nothing (as in SQL). Each side keeps its file and row,
    # so a missing label is reported where it is written.
    gi, pi = _concat(gparts, id_col), _concat(pparts, id_col)
    g_ok, p_ok = ~missing_mask(gi, na_values), ~missing_mask(pi, na_values)
    gdf = pd.DataFrame({"__id": gi, "__gold": g, "__gpos": np.arange(len(g))})[g_ok]
    pdf = pd.DataFrame({"__id": pi, "__pred": p, "__ppos": np.arange(len(p))})[p_ok]
    merged = gdf.merge(pdf, on="__id", how="outer", indicator=True, sort=False)
    kind = merged["_merge"].value_counts()
    matched = int(kind.get("both", 0))
    gold_only = int(kind.get("left_only", 0)) + int((~g_ok).sum())
    pred_only = int(kind.get("right_only", 0)) + int((~p_ok).sum())
    check_alignment(len(g), len(p), matched, gold_only, pred_only, id_col, dropna, gsrc.name, psrc.name)
    both = merged[merged["_merge"] == "both"].sort_values("__gpos", kind="stable")
    gpos, ppos = both["__gpos"].to_numpy(np.int64), both["__ppos"].to_numpy(np.int64)
    return _count(both["__gold"], both["__pred"], _positions(gparts, gold, gpos, na_values),
                  _positions(pparts, pred, ppos, na_values), dropna, na_values)


def _positions(parts: list[LabelColumns], column: str, positions: np.ndarray, na_values):
    """Per file, a mask of its rows that are matched items with a missing ``column``."""
    out, start = [], 0
    matched = np.zeros(sum(len(lc) for lc in parts), dtype=bool)
    matched[positions] = True
    for lc in parts:
        stop = start + len(lc)
        out.append((lc.name, missing_mask(lc.raw[column], na_values) & matched[start:stop]))
        start = stop
    return out


def _count(g: pd.Series, p: pd.Series, g_parts, p_parts, dropna: bool, na_values) -> Contingency:
    mg, mp = missing_mask(g, na_values), missing_mask(p, na_values)
    miss = mg | mp
    if miss.any() and not dropna:
        gname, grows = locate(g_parts)
        pname, prows = locate(p_parts)
        raise MissingLabelsError(items=int(miss.sum()), gold=int(mg.sum()), pred=int(mp.sum()), gold_rows=grows,
                                 pred_rows=prows, gold_source=gname or pname, pred_source=pname or gname,
                                 na_values=na_values)
    if len(g) - int(miss.sum()) == 0:
        raise no_items_left(int(miss.sum()))
    return contingency_from_columns(g, p, dropna=True, na_values=na_values)
