"""The files one engine reads: a source (shards of one schema, each sniffed, the columns read from
them) and the checks every engine applies to two sources — aligned by row or by id, each item
once — so that pandas, DuckDB and Dask refuse the same inputs in the same words.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass

from .errors import EmptyTableError, UnmatchedIdsError
from .read import _parquet_file, text_names
from .sniff import FileKind, is_stream, sniff

__all__ = ["expand_paths", "Source", "check_alignment", "no_items_left"]


def expand_paths(paths) -> list[str]:
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
        elif is_stream(p):
            raise ValueError(f"{p} is not a regular file (a pipe, /dev/stdin or a device) and can be read only once: "
                             "save it to a file and give that, or read its bytes with read_labels")
        else:
            out.append(p)
    if not out:
        raise ValueError("no input files given")
    return out


@dataclass(frozen=True)
class Source:
    """Files of one schema (shards), each sniffed, and the columns read from them."""

    paths: tuple[str, ...]
    kinds: tuple[FileKind, ...]
    columns: tuple[str, ...]
    header: bool
    role: str  # "gold", "pred" or "labels": for messages

    @classmethod
    def open(cls, paths, columns, header: bool, role: str) -> Source:
        files = expand_paths(paths)
        kinds = tuple(sniff(p) for p in files)
        fmts = {k.fmt if k.fmt == "parquet" else f"text separated by {k.delimiter!r}" for k in kinds}
        if len(fmts) > 1:
            raise ValueError(f"the {role} files mix formats ({', '.join(sorted(fmts))}): give one format per source")
        for p, k in zip(files, kinds):
            if k.fmt == "parquet":
                meta = _parquet_file(p, p)
                present = list(map(str, meta.schema_arrow.names))
                if meta.metadata.num_rows == 0:  # the same words as the pandas reader
                    raise ValueError(f"{p} has column names but no data rows: add one row per item")
            else:  # (an empty text file is refused by the scan every engine runs, in the same words)
                present = text_names(k, header)
            missing = [c for c in columns if c not in present]
            if missing:
                raise ValueError(f"{p} has no column {missing[0]!r}; its columns: {', '.join(present)}")
        return cls(tuple(files), kinds, tuple(columns), header, role)

    @property
    def fmt(self) -> str:
        return self.kinds[0].fmt

    @property
    def name(self) -> str:
        return self.paths[0] if len(self.paths) == 1 else f"{self.paths[0]} (+{len(self.paths) - 1} files)"

    @property
    def notes(self) -> tuple[str, ...]:
        return tuple(n for k in self.kinds for n in k.notes)


def check_alignment(gold_rows: int, pred_rows: int, matched: int, gold_only: int, pred_only: int,
                    id_col: str | None, dropna: bool, gold: str, pred: str) -> None:
    """Two sources must describe the same items, once each.

    By row: equal row counts. By id: with g(x), p(x) the rows holding id x on each
    side, an outer join yields Σ g·p matched rows. ``matched + gold_only == gold_rows``
    holds iff p(x) = 1 for every id on both sides (g·p ≥ g, equality iff p = 1), and
    symmetrically — so two counts detect duplicated ids without a DISTINCT pass.
    """
    if id_col is None:
        if gold_rows != pred_rows:
            raise ValueError(f"{gold} has {gold_rows:,} rows but {pred} has {pred_rows:,}: files aligned by row "
                             "must have the same length (or join them with an id column)")
        return
    if matched + gold_only != gold_rows:
        raise ValueError(f"id column {id_col!r} is not unique in {pred}: ids of {gold} match "
                         f"{matched + gold_only - gold_rows:,} extra row(s)")
    if matched + pred_only != pred_rows:
        raise ValueError(f"id column {id_col!r} is not unique in {gold}: ids of {pred} match "
                         f"{matched + pred_only - pred_rows:,} extra row(s)")
    if (gold_only or pred_only) and not dropna:
        raise UnmatchedIdsError(gold=gold_only, pred=pred_only, id_col=id_col, gold_source=gold, pred_source=pred)


def no_items_left(dropped: int) -> EmptyTableError:
    return EmptyTableError("every row has a missing label and was left out" if dropped else "there are no rows")
