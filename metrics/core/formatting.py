"""One number format for everything Partition Lab prints: the dashboard's tables, charts and
hovers, and the command line's table output.

Rules (:func:`format_number`):

* integers (Python or NumPy integers, and floats that hold a whole number below 10^15) are
  printed whole, with thousands separators: ``1,334``, never ``1334.0000``;
* other finite values get 4 significant digits: ``0.5916``, ``210.5``; trailing zeros are
  dropped when the shorter text is the value itself (``60.5``, ``0.5``, not ``60.50``), and kept
  when rounding happened (0.99996 prints ``1.000``, not a perfect-looking ``1``); the integer
  part is never cut (``12,346``); below 10^-4 in magnitude, scientific notation (``3.2e-07``);
* values within 10^-12 of 0 print as ``0``: every measure is computed in double precision from
  quantities of order 1 or larger, so a residue that small is rounding (AMI's −1.3e-13 for a
  chance table), and ``-0`` is never printed;
* ±infinity prints as ``∞`` / ``−∞``; None and NaN (no value) as ``—``.

Machine-readable outputs (JSON, CSV downloads) keep full precision: this is for reading.

CSV for spreadsheets (:func:`spreadsheet_cell`, :func:`frame_csv`): a spreadsheet opening a CSV
runs a text cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula (``=cmd|' /C calc'!A0``
starts a program). Every CSV Partition Lab writes — the app's downloads, ``partition-lab score
--format csv`` — writes such a text cell with a leading ``'`` (OWASP's CSV-injection advice; the
spreadsheet shows the text and drops the quote), also one that begins with a tab or a carriage
return. Numbers stay numbers: a negative number, or a text that is a plain number (a cluster
called ``-1``), is no formula.
"""

from __future__ import annotations

import math
import numbers
import re

__all__ = ["format_number", "frame_csv", "spreadsheet_cell", "SIGNIFICANT_DIGITS", "ZERO_TOLERANCE"]

SIGNIFICANT_DIGITS = 4
# Below this magnitude a value is rounding noise (see the module docstring).
ZERO_TOLERANCE = 1e-12
_WHOLE_LIMIT = 1e15   # floats are exact integers well below 2^53 ≈ 9e15
_FIXED_FLOOR = 1e-4   # below it, fixed notation would need too many zeros


def format_number(x, digits: int = SIGNIFICANT_DIGITS) -> str:
    """``x`` as Partition Lab prints numbers for reading (rules in the module docstring).

    >>> [format_number(v) for v in (1334.0, 210.5, 60.5, 0.59163, -1.3e-13, 2**40, float("inf"), None)]
    ['1,334', '210.5', '60.5', '0.5916', '0', '1,099,511,627,776', '∞', '—']
    """
    if x is None or isinstance(x, bool):
        return "—" if x is None else str(x)
    if isinstance(x, numbers.Integral):
        return f"{int(x):,}"
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(v):
        return "—"
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    if abs(v) < ZERO_TOLERANCE:
        return "0"
    if v.is_integer() and abs(v) < _WHOLE_LIMIT:
        return f"{int(v):,}"
    if abs(v) < _FIXED_FLOOR or abs(v) >= _WHOLE_LIMIT:
        mantissa, _, power = f"{v:.{digits - 1}e}".partition("e")
        if _exact(float(f"{mantissa}e{power}"), v):
            mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa}e{int(power):+03d}".replace("e+", "e")
    exponent = math.floor(math.log10(abs(v)))
    if abs(float(f"{v:.{max(0, digits - 1 - exponent)}f}")) >= 10.0 ** (exponent + 1):
        exponent += 1  # rounding carried into a new digit: 0.99996 prints 1.000, not 1.0000
    decimals = max(0, digits - 1 - exponent)
    text = f"{v:,.{decimals}f}"
    if "." in text and _exact(float(text.replace(",", "")), v):
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "0") else text


def _exact(shown: float, v: float) -> bool:
    # "Exact" up to float noise: 0.1 + 0.2 prints 0.3, not 0.3000.
    return abs(shown - v) <= 1e-9 * abs(v)


# ---------------------------------------------------------------------- CSV for spreadsheets
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_FORMULA_PATTERN = r"^[=+\-@\t\r]"
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def spreadsheet_cell(value):
    """``value`` as a CSV cell a spreadsheet shows as text: a text that a spreadsheet would run as
    a formula gets a leading ``'`` (see the module docstring); anything else is returned as is.

    >>> [spreadsheet_cell(v) for v in ("=1+1", "@x", "-1", -1.5, "a-b", "+SUM(1;2)")]
    ["'=1+1", "'@x", '-1', -1.5, 'a-b', "'+SUM(1;2)"]
    """
    if isinstance(value, str) and value.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def _safe_labels(index):
    import pandas as pd

    if isinstance(index, pd.MultiIndex):
        index = index.set_levels([_safe_labels(level) for level in index.levels])
    elif index.dtype == object or pd.api.types.is_string_dtype(index.dtype):
        index = index.map(spreadsheet_cell)
    return index.set_names([spreadsheet_cell(n) for n in index.names])


def frame_csv(frame, **to_csv) -> bytes:
    """``frame.to_csv(**to_csv)`` as UTF-8 bytes, every text cell, column name and index label made
    safe for spreadsheets (:func:`spreadsheet_cell`): the one writer of the app's CSV downloads."""
    import numpy as np
    import pandas as pd

    out = frame.copy(deep=False)
    for i in range(out.shape[1]):
        values = out.iloc[:, i]
        if not (values.dtype == object or pd.api.types.is_string_dtype(values.dtype)):
            continue
        cells = values.to_numpy(dtype=object)  # by position (labels may repeat)
        is_text = np.frompyfunc(lambda v: isinstance(v, str), 1, 1)(cells).astype(bool)
        if not is_text.any():
            continue
        text = pd.Series(cells[is_text], dtype=object)
        risky = (text.str.contains(_FORMULA_PATTERN, regex=True)
                 & ~text.str.fullmatch(_PLAIN_NUMBER.pattern)).to_numpy()
        if risky.any():
            where = np.flatnonzero(is_text)[risky]
            cells = cells.copy()
            cells[where] = ["'" + v for v in cells[where]]
            out.isetitem(i, cells)
    out.columns = _safe_labels(out.columns)
    out.index = _safe_labels(out.index)
    return out.to_csv(**to_csv).encode("utf-8")
