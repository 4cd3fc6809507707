"""Contingency-table files: a grid of counts, rows gold classes, columns clusters."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._lazy import lazy_module
from ..core.contingency import Contingency
from .errors import EmptyTableError
from .read import (
    _check_exists,
    _once,
    _parquet_file,
    _source_name,
    numbered,
    parquet_content_size,
    read_text_raw,
)
from .scan import ContentTooLargeError
from .sniff import sniff

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: `import metrics` stays fast (metrics._lazy)
    pd = lazy_module("pandas")

__all__ = ["contingency_from_table_file", "repeated_labels", "repeated_labels_message"]

_INDEX = "\x00rows"  # the name given to an unnamed first column while reading


# ---------------------------------------------------------------------- one name per class and cluster
def repeated_labels(labels) -> list[tuple[object, list[int]]]:
    """The labels given more than once, each with its 1-based positions, in order of appearance.

    The rule for every table a user gives — a table file, the Table lab's editor, a link's table:
    a class (a cluster) is one row (one column), so two rows named alike would be two classes
    with one name, scored as two and shown as one.
    """
    positions: dict = {}
    for i, label in enumerate(labels):
        positions.setdefault(label, []).append(i + 1)
    return [(label, rows) for label, rows in positions.items() if len(rows) > 1]


def repeated_labels_message(what: str, place: str, repeated: list[tuple[object, list[int]]]) -> str:
    """``class name 'a' is given to rows 1 and 2: give each class its own name (or add them up)``."""
    parts = []
    for label, rows in repeated[:3]:
        listed = ", ".join(f"{r:,}" for r in rows[:-1]) + f" and {rows[-1]:,}"
        parts.append(f"{what} name {str(label)!r} is given to {place}s {listed}")
    more = f" (and {len(repeated) - 3:,} more names)" if len(repeated) > 3 else ""
    return f"{'; '.join(parts)}{more}: give each {what} its own name (or add their counts up into one {place})"


def _check_unique(df: pd.DataFrame, name: str) -> None:
    rows = repeated_labels(df.index)
    if rows:
        raise ValueError(f"{name}: {repeated_labels_message('class', 'row', rows)}")
    cols = repeated_labels(df.columns)
    if cols:
        raise ValueError(f"{name}: {repeated_labels_message('cluster', 'column', cols)}")


def contingency_from_table_file(source, *, header: bool = True, name: str | None = None,
                                max_bytes: int | None = None) -> Contingency:
    """A contingency table stored as a grid (path or bytes): rows = gold classes, columns = clusters.

    Read like label files (format, encoding and delimiter from the content). CSV/TSV: the first
    row names the clusters (unless ``header=False``); the first column names the classes when
    its header is empty or any of its values is not a number (so
    ``Contingency.to_frame().to_csv(path)`` reads back). Parquet: the stored index, or a first
    non-numeric column, names the classes. Cells must be finite non-negative numbers
    (fractional ones for ambiguous data are kept); an empty cell is an error (write 0).

    Raises :class:`~metrics.io.EmptyTableError` ("the table holds no items") when every cell
    is 0: a file is read to be scored, and an empty table would score as perfect. (Building an
    all-zero table on purpose, ``Contingency.from_table``, stays allowed.)
    """
    _check_exists(source)
    source, name = _once(source, _source_name(source, name), max_bytes)
    kind = sniff(source, name)
    if kind.fmt == "parquet":
        try:
            pf = _parquet_file(source, name)
            if max_bytes is not None and parquet_content_size(pf, pf.schema_arrow.names) > max_bytes:
                raise ContentTooLargeError(name, max_bytes, "parquet")
            df = pf.read().to_pandas()
        except (ImportError, ContentTooLargeError):
            raise
        except Exception as exc:  # any Arrow failure: one line naming the file
            raise ValueError(f"{name} could not be read as Parquet ({str(exc).strip().splitlines()[0]})") from None
        if isinstance(df.index, pd.RangeIndex) and df.shape[1] and not pd.api.types.is_numeric_dtype(df.iloc[:, 0]):
            df = df.set_index(df.columns[0])
    else:
        if header and kind.whole and kind.records <= 1:
            raise ValueError(f"{name} holds no table rows: add one row per gold class")
        if header:
            names = [c if c != "" or i else _INDEX for i, c in enumerate(kind.first_record)]
            if len(set(names)) != len(names):
                dup = next(c for c in names if names.count(c) > 1)
                raise ValueError(f"{name}: the column name {dup!r} appears twice in the header: rename one")
        else:
            names = numbered(kind.width)
        df = read_text_raw(source, kind, header, names, limit=max_bytes)
        if df.shape[0] == 0:
            raise ValueError(f"{name} holds no table rows: add one row per gold class")
        first = df.columns[0]
        if df.shape[1] > 1 and (first == _INDEX or not _all_numbers(df[first])):
            df = df.set_index(first)
            df.index.name = None
        for col in df.columns:
            text = df[col]
            empty = (text == "").to_numpy()
            if empty.any():
                row = int(np.flatnonzero(empty)[0])
                raise ValueError(f"{name}: the cell in column {col!r}, row {row + 1} is empty: write 0 for no items")
            converted = pd.to_numeric(text, errors="coerce")
            bad = converted.isna().to_numpy()
            if bad.any():
                row = int(np.flatnonzero(bad)[0])
                raise ValueError(f"{name}: cell {text.iloc[row]!r} (column {col!r}, row {row + 1}) is not a number")
            df[col] = converted
        if not header:
            df.columns = range(df.shape[1])
    if df.shape[0] == 0 or df.shape[1] == 0:
        raise ValueError(f"{name} holds no table cells")
    _check_unique(df, name)
    rows = [r.item() if isinstance(r, np.generic) else r for r in df.index]
    table = Contingency.from_table(df.to_numpy(), row_labels=rows, col_labels=list(df.columns))
    if table.n == 0:
        raise EmptyTableError("every cell is 0", source=name)
    return table


def _all_numbers(col: pd.Series) -> bool:
    text = col[col != ""]
    return bool(len(text)) and pd.to_numeric(text, errors="coerce").notna().all()
