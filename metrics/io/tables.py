"""Contingency-table files: a grid of counts, rows gold classes, columns clusters."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..contingency import Contingency
from .errors import EmptyTableError
from .read import _check_exists, _parquet_file, _source_name, numbered, read_text_raw
from .sniff import sniff

__all__ = ["contingency_from_table_file"]

_INDEX = "\x00rows"  # the name given to an unnamed first column while reading


def contingency_from_table_file(source, *, header: bool = True, name: str | None = None) -> Contingency:
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
    name = _source_name(source, name)
    kind = sniff(source, name)
    if kind.fmt == "parquet":
        try:
            df = _parquet_file(source, name).read().to_pandas()
        except ImportError:
            raise
        except Exception as exc:  # noqa: BLE001 - any Arrow failure: one line naming the file
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
        df = read_text_raw(source, kind, header, names)
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
    rows = [r.item() if isinstance(r, np.generic) else r for r in df.index]
    table = Contingency.from_table(df.to_numpy(), row_labels=rows, col_labels=list(df.columns))
    if table.n == 0:
        raise EmptyTableError("every cell is 0", source=name)
    return table


def _all_numbers(col: pd.Series) -> bool:
    text = col[col != ""]
    return bool(len(text)) and pd.to_numeric(text, errors="coerce").notna().all()
