"""Dask: a table per partition on a cluster, added up (``Contingency.__add__``), with the reader's rules."""

from __future__ import annotations

import operator
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..._lazy import lazy_module
from ...core.contingency import Contingency
from ..cells import table_from_labels
from ..errors import MissingLabelsError
from ..read import (
    _optional,
    _parquet_file,
    check_plain_columns,
    missing_mask,
    text_names,
)
from ..scan import scan_text
from ..sniff import sniff
from ..sources import check_alignment, no_items_left

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    pd = lazy_module("pandas")

__all__ = ["contingency_from_dask", "read_dask"]

_EXT_SEP = {".csv": ",", ".tsv": "\t", ".tab": "\t", ".txt": "\t"}


def read_dask(paths, columns: Iterable[str], *, header: bool = True):
    """A Dask DataFrame of ``columns`` from CSV/TSV/Parquet ``paths``, read by the workers.

    ``paths`` may be URLs (``s3://bucket/part-*.parquet``) or globs: they are expanded by
    Dask, so they must be readable from every worker. Local files are sniffed like
    :func:`~metrics.io.read_labels` does (format, encoding, delimiter) and checked by the reader's
    scan (:func:`~metrics.io.scan.scan_text`: quoting, ragged lines, UTF-8, no data rows), so they
    are refused in the same words as by the other engines; remote files are taken by their
    extension (``.parquet``/``.pq``, ``.csv``, ``.tsv``/``.tab``/``.txt``), UTF-8.
    Text cells stay text exactly as written (an empty cell is ``""``); the missing-value rule
    is applied when counting, by :func:`contingency_from_dask` (``na_values`` there), so it
    holds for frames from anywhere.
    """
    dd = _optional("dask.dataframe", "reading files with Dask")
    first = paths if isinstance(paths, (str, os.PathLike)) else next(iter(paths))
    first = os.fspath(first)
    columns = list(columns)
    local = "://" not in first
    sample = 256_000  # Dask's default: bytes read to learn the columns
    cut = True        # whether a file may be cut into byte ranges (partitions)
    if local:
        import glob

        matches = sorted(glob.glob(first)) if any(ch in first for ch in "*?[") else [first]
        if not matches:
            raise FileNotFoundError(f"no file matches {first!r}")
        kind = sniff(matches[0])
        fmt, sep, encoding, gz = kind.fmt, kind.delimiter, kind.encoding, kind.compression == "gzip"
        names = None if fmt == "parquet" else text_names(kind, header)
        if fmt == "parquet":
            schema = _parquet_file(matches[0], matches[0]).schema_arrow
            check_plain_columns(schema, [c for c in columns if c in schema.names], matches[0])
        else:
            for path in matches:
                layout = scan_text(path, sniff(path) if path != matches[0] else kind, header)
                if layout.records == 0:
                    raise ValueError(f"{path} has column names but no data rows: add one row per item")
                # Dask cuts files at line breaks, blind to quotes: not inside a quoted cell.
                cut = cut and not layout.quoted_line_breaks
                sample = max(sample, 2 * layout.longest_record + 1024)
    else:
        low = first.lower()
        gz = low.endswith(".gz")
        low = low[:-3] if gz else low
        ext = os.path.splitext(low)[1]
        fmt = "parquet" if ext in (".parquet", ".pq") else "text"
        if fmt == "text" and ext not in _EXT_SEP:
            raise ValueError(f"cannot tell the format of the remote file {first!r}: name it .csv, .tsv or .parquet")
        sep, encoding, names = _EXT_SEP.get(ext), "utf-8", None
    if fmt == "parquet":
        return dd.read_parquet(paths, columns=columns)
    kw: dict[str, Any] = {"header": 0 if header else None}
    if names is not None:
        kw["names"] = names
    # Compressed and UTF-16 files cannot be cut into byte ranges: one partition per file.
    blocksize = "64MB" if cut and not gz and encoding != "utf-16" else None
    ddf = dd.read_csv(paths, sep=sep, dtype=str, na_filter=False, encoding=encoding, blocksize=blocksize,
                      compression="gzip" if gz else None, quotechar='"', doublequote=True, sample=sample,
                      skip_blank_lines=names is None or len(names) > 1, **kw)
    if names is None and not header:
        ddf.columns = [str(i + 1) for i in range(len(ddf.columns))]
    missing = [c for c in columns if c not in ddf.columns]
    if missing:
        raise ValueError(f"{first} has no column {missing[0]!r}; its columns: {', '.join(map(str, ddf.columns))}")
    return ddf[columns]


def _normalized(part: pd.DataFrame, columns: list[str], na_values: tuple[str, ...]) -> pd.DataFrame:
    """One partition with every missing cell (the reader's rule) set to NA."""
    out = part.copy()
    for c in columns:
        mask = missing_mask(part[c], na_values)
        if mask.any():
            out[c] = part[c].astype(object).where(~mask, None)
    return out


def _normalize(ddf, columns: list[str], na_values: tuple[str, ...]):
    meta = ddf._meta.copy()
    for c in columns:
        meta[c] = meta[c].astype(object)
    return ddf.map_partitions(_normalized, columns, na_values, meta=meta)


def _with_positions(dask, ddf):
    """The frame with ``__pos``: each row's 0-based position in the whole frame (one extra pass)."""
    lengths = dask.compute(ddf.map_partitions(len))[0]
    offsets = np.concatenate([[0], np.cumsum(np.asarray(lengths, dtype=np.int64))])

    def assign(part, partition_info=None):
        start = int(offsets[partition_info["number"]]) if partition_info else 0
        return part.assign(__pos=np.arange(start, start + len(part), dtype=np.int64))

    meta = ddf._meta.assign(__pos=np.array([], dtype=np.int64))
    return ddf.map_partitions(assign, meta=meta)


def _first(positions: pd.Series) -> tuple[int, ...]:
    return tuple(int(p) + 1 for p in np.sort(positions.to_numpy())[:MissingLabelsError.SHOWN])


def contingency_from_dask(ddf, gold: str, pred: str, *, pred_ddf=None, id_col: str | None = None,
                          dropna: bool = False, na_values: Sequence[str] = (), source: str | None = None,
                          pred_source: str | None = None) -> Contingency:
    """The contingency table of a Dask DataFrame's ``gold`` and ``pred`` columns.

    Each partition counts its items into a table where it lives; the partial tables are added in a
    tree (``Contingency.__add__``: labels matched by value, the sum equal to the table of all the
    items); only partial tables travel, and one comes to this process. With ``pred_ddf``, the two
    frames are joined on ``id_col`` first (an outer join, so unmatched and duplicated ids are
    reported, as in :func:`~metrics.io.contingency_from_files`). Missing labels follow the reader's
    rule (:func:`~metrics.io.missing_mask`: empty, null, NaN, and texts in ``na_values``) and raise
    :class:`~metrics.io.MissingLabelsError` with the first rows (positions in the frame, from 1)
    unless ``dropna=True``; ``source`` (and ``pred_source``) name the frames' files in messages
    (default "the Dask frame", "the gold frame", "the pred frame").

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
    na_values = tuple(na_values)
    gold_name = source or ("the gold frame" if pred_ddf is not None else "the Dask frame")
    pred_name = pred_source or "the pred frame"
    wanted = [(ddf, gold_name, [gold] if pred_ddf is not None else [gold, pred])]
    if pred_ddf is not None:
        wanted.append((pred_ddf, pred_name, [pred]))
    for frame, what, cols in wanted:
        for c in cols + ([id_col] if id_col is not None and pred_ddf is not None else []):
            if c not in frame.columns:
                raise ValueError(f"{what} has no column {c!r}; its columns: {', '.join(map(str, frame.columns))}")
    if pred_ddf is None:
        if id_col is not None:
            raise ValueError("id_col aligns two frames: give pred_ddf too")
        frame = _normalize(ddf[[gold, pred]], [gold, pred], na_values)
        counted = dask.compute(_summed(dask, frame, gold, pred, None))[0]
        one_frame = True
    else:
        if id_col is None:
            raise ValueError("Dask partitions do not align by row: join the two frames on an id column (id_col)")
        left = _normalize(ddf[[id_col, gold]].rename(columns={gold: "__gold"}), [id_col, "__gold"], na_values)
        right = _normalize(pred_ddf[[id_col, pred]].rename(columns={pred: "__pred"}), [id_col, "__pred"], na_values)
        # Missing ids never match (as in SQL): count those rows, then drop them.
        left_ok, right_ok = left[id_col].notnull(), right[id_col].notnull()
        merged = left[left_ok].merge(right[right_ok], on=id_col, how="outer", indicator=True)
        # All as delayed objects: one graph, one pass over the frames.
        scalars = [x.to_delayed() for x in (left.shape[0], right.shape[0], (~left_ok).sum(), (~right_ok).sum())]
        counted, gold_rows, pred_rows, bad_g, bad_p = dask.compute(
            _summed(dask, merged, "__gold", "__pred", "_merge"), *scalars)
        check_alignment(int(gold_rows), int(pred_rows), counted.matched, counted.left_only + int(bad_g),
                        counted.right_only + int(bad_p), id_col, dropna, gold_name, pred_name)
        one_frame = False
    n_miss = counted.missing
    if n_miss and not dropna:
        if one_frame:  # rows are the frame's positions
            pos = _with_positions(dask, frame)
            g_first = pos[pos[gold].isnull()]["__pos"].nsmallest(MissingLabelsError.SHOWN)
            p_first = pos[pos[pred].isnull()]["__pos"].nsmallest(MissingLabelsError.SHOWN)
            g_first, p_first = dask.compute(g_first, p_first)
            gs = ps = gold_name
        else:  # joined frames: the rows of each frame, among matched ids
            lp, rp = _with_positions(dask, left), _with_positions(dask, right)
            lp, rp = lp[lp[id_col].notnull()], rp[rp[id_col].notnull()]
            joined = lp.rename(columns={"__pos": "__gpos"}).merge(rp.rename(columns={"__pos": "__ppos"}), on=id_col)
            g_first = joined[joined["__gold"].isnull()]["__gpos"].nsmallest(MissingLabelsError.SHOWN)
            p_first = joined[joined["__pred"].isnull()]["__ppos"].nsmallest(MissingLabelsError.SHOWN)
            g_first, p_first = dask.compute(g_first, p_first)
            gs, ps = gold_name, pred_name
        raise MissingLabelsError(items=n_miss, gold=counted.missing_gold, pred=counted.missing_pred,
                                 gold_rows=_first(g_first), pred_rows=_first(p_first), gold_source=gs,
                                 pred_source=ps, na_values=na_values)
    if counted.table is None:
        raise no_items_left(n_miss)
    return counted.table


@dataclass
class _Partial:
    """What one partition (or several, once added) holds: the table of its items with both labels
    (None if none has), and the counts the checks need — items with a missing label (either side,
    gold, pred), and for joined frames the rows matched, and found on the left or the right only."""

    table: Contingency | None = None
    missing: int = 0
    missing_gold: int = 0
    missing_pred: int = 0
    matched: int = 0
    left_only: int = 0
    right_only: int = 0

    def __add__(self, other: _Partial) -> _Partial:
        if self.table is None or other.table is None:
            table = self.table if other.table is None else other.table
        else:
            table = self.table + other.table   # the table of the items of both (Contingency.__add__)
        return _Partial(table, *(getattr(self, f) + getattr(other, f) for f in _COUNTS))


_COUNTS = ("missing", "missing_gold", "missing_pred", "matched", "left_only", "right_only")


def _partition_table(part: pd.DataFrame, gold: str, pred: str, indicator: str | None) -> _Partial:
    """The :class:`_Partial` of one partition (its labels already normalized: missing is NA)."""
    counts = {}
    if indicator is not None:
        kind = part[indicator].astype(str).to_numpy()
        counts = {"left_only": int((kind == "left_only").sum()), "right_only": int((kind == "right_only").sum())}
        part = part[kind == "both"]
        counts["matched"] = len(part)
    miss_g, miss_p = part[gold].isna().to_numpy(), part[pred].isna().to_numpy()
    keep = ~(miss_g | miss_p)
    table = table_from_labels(part[gold][keep], part[pred][keep]) if keep.any() else None
    return _Partial(table, int((~keep).sum()), int(miss_g.sum()), int(miss_p.sum()), **counts)


def _summed(dask, frame, gold: str, pred: str, indicator: str | None):
    """One delayed :class:`_Partial` of the whole frame: a table per partition, counted where the
    partition lives, then added in a tree (Contingency's ``+``: labels matched by value, the sum
    equal to the table of all the items) — only the partial tables travel."""
    # The partitions as they are: Dask before 2025 converts object columns to strings on the way
    # out of to_delayed (its "dataframe.convert-string"), which failed on bytes labels and turned
    # float labels into text, unlike the reader's other engines.
    with dask.config.set({"dataframe.convert-string": False}):
        delayed = frame.to_delayed()
    parts = [dask.delayed(_partition_table)(p, gold, pred, indicator) for p in delayed]
    if not parts:
        return dask.delayed(_Partial)()
    while len(parts) > 1:
        parts = [dask.delayed(operator.add)(a, b) for a, b in zip(parts[::2], parts[1::2])] + \
            ([parts[-1]] if len(parts) % 2 else [])
    return parts[0]


