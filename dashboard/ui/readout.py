"""What a user reads, in one place: numbers in the one format, labels as written, chart text large
enough to read from the back of a room.

Numbers
    Every number shown — table cells, chart labels, hovers, captions — goes through
    :func:`metrics.core.formatting.format_number` (4 significant digits, thousands separators for
    counts, integers without decimals, no ``-0``). Tables go through :func:`show_frame`: a pandas
    ``Styler`` carries the formatted text for display while the cells keep their numbers, so a
    click on a column header still sorts numerically; where sorting is moot (one measure per row,
    on different scales) or a table is too large for a Styler, the text travels in a column of
    its own beside the hidden numbers. Either way ``AppTest`` reads the values, and CSV downloads
    are written from the unformatted frames (full precision).

Labels
    Plotly reads ``<b>``, ``<i>``, ``<br>``, ``<a href>`` … in every text it draws (ticks, legend,
    hover, annotations), and decodes the entities ``&lt; &gt; &amp;`` and ``&#N;`` after it has
    looked for tags (plotly.js ``svg_text_utils``). :func:`escape_label` escapes ``&``, ``<`` and
    ``>`` (no quotes: Plotly does not decode ``&quot;``), so ``<b>bold</b>`` is drawn as those
    characters, and ``%`` (a label is then safe even inside a ``hovertemplate``). Every figure
    builder escapes each label it receives, once: class and cluster names, solution and series
    names, titles; numbers reach hovers as preformatted ``customdata``. Markdown reads ``*``,
    ``_``, ``[``, ``:red[…]``, ``$…$`` …: :func:`escape_markdown` is the app's one helper for user
    text there (:func:`dashboard.ui.safe_text.md`). ``st.dataframe`` draws cells as plain
    text (nothing to escape).

Fonts
    :func:`readable` gives every figure explicit font sizes ≥ :data:`MIN_FONT` (11 px): the base
    font, ticks, legend, hover labels and annotations, and bar/heatmap text, whose Plotly default
    ("auto") shrinks text to fit a bar or cell — to 4 px for a small class.
"""

from __future__ import annotations

import functools
import html
import threading
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st
from streamlit import dataframe_util

from dashboard.ui.safe_text import md
from metrics.core.formatting import format_number

__all__ = [
    "BASE_FONT",
    "MIN_FONT",
    "PAGE_SIZES",
    "PROJECTOR_SIZES",
    "TEXT_FONT",
    "Sizes",
    "as_text",
    "escape_label",
    "escape_markdown",
    "format_number",
    "readable",
    "show_frame",
    "styled",
    "wrap",
]

MIN_FONT = 11    # px: nothing smaller anywhere in a chart
BASE_FONT = 13   # px: the figure's font (ticks, legend, axis titles)
TEXT_FONT = 12   # px: text drawn on marks (bar and cell labels, panel notes)
HOVER_FONT = 13  # px


@dataclass(frozen=True)
class Sizes:
    """The type sizes :func:`readable` raises a figure's text to (px; each at least MIN_FONT)."""

    body: int = BASE_FONT       # the figure's font, legend, axis titles (the title: body + 2)
    tick: int = BASE_FONT - 1   # tick labels
    text: int = TEXT_FONT       # text on marks, annotations
    hover: int = HOVER_FONT


#: The pages' sizes, and the lesson's: read from the back of a room on a projector.
PAGE_SIZES = Sizes()
PROJECTOR_SIZES = Sizes(body=16, tick=15, text=15, hover=14)


# ---------------------------------------------------------------- labels
def escape_label(text) -> str:
    """``text`` as Plotly must receive it to draw it as written: ``&``, ``<``, ``>`` escaped, and
    ``%`` as ``&#37;`` so that a label can never form a ``%{…}`` placeholder in a template it
    ends up in (Plotly decodes the entity when it draws)."""
    return html.escape(str(text), quote=False).replace("%", "&#37;")


#: The app's one helper for user text in Markdown, :func:`dashboard.ui.safe_text.md`, under
#: the name the views that show labels beside numbers import.
escape_markdown = md


def wrap(text: str, width: int = 48) -> str:
    """Plain text broken into lines of at most ~``width`` characters with ``<br>`` (Plotly hover
    boxes do not wrap by themselves and are cut at the chart's edge). Escapes ``text`` first."""
    words, lines, line = escape_label(text).split(" "), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    if line:
        lines.append(line)
    return "<br>".join(lines)


# ---------------------------------------------------------------- tables
# A Styler costs ~5 ms a table plus ~40 µs a cell (pandas renders every cell: 21 ms for the 46 × 9
# measure table, 8 s for 15,000 failing steps × 13), about three times the text columns' cost.
# Above this many cells the numbers are sent as text beside the hidden numeric columns, so no
# table costs a rerun more than ~45 ms.
STYLER_MAX_CELLS = 1000
SHOWN_SUFFIX = " (shown)"


def _is_number_column(s: pd.Series) -> bool:
    if pd.api.types.is_bool_dtype(s):
        return False
    if pd.api.types.is_numeric_dtype(s):
        return True
    # Object columns of numbers and None (a measure not defined for a table).
    return s.dtype == object and len(s) > 0 and all(
        v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in s)


def number_columns(frame: pd.DataFrame) -> list:
    """The columns of ``frame`` that hold numbers (booleans excepted)."""
    return [c for c in frame.columns if _is_number_column(frame[c])]


def _formatter(digits: int, percent: bool = False):
    if percent:
        return lambda v: "—" if v is None or pd.isna(v) else f"{format_number(100 * float(v), digits)} %"
    if digits == 4:
        return format_number
    return lambda v: format_number(v, digits)


def styled(frame: pd.DataFrame, columns: Iterable | None = None, percent: Iterable = (), digits: int = 4):
    """A ``Styler`` that shows ``frame``'s numbers (``columns``, default every number column) with
    :func:`format_number` and ``percent`` columns (shares in [0, 1]) as percentages; a numeric
    index is formatted too. The frame's values are left as they are (they sort as numbers)."""
    percent = [c for c in percent if c in frame.columns]
    cols = [c for c in (number_columns(frame) if columns is None else columns)
            if c in frame.columns and c not in percent]
    s = frame.style
    if cols:
        s = s.format(_formatter(digits), subset=cols)
    if percent:
        s = s.format(_formatter(digits, percent=True), subset=percent)
    if pd.api.types.is_numeric_dtype(frame.index) and not pd.api.types.is_bool_dtype(frame.index):
        s = s.format_index(_formatter(digits), axis=0)
    return s


def for_table(frame: pd.DataFrame):
    """What ``st.table`` is given for ``frame``: where every number in it prints as
    :func:`format_number` prints it (integers under 1,000 beside a text index: the property
    checker's counterexample tables), the Arrow table ``st.table`` would make of the frame,
    converted once per frame object (see :func:`show_frame`); else :func:`styled` of it. A
    Styler costs ~15 ms per small table (pandas renders each cell's HTML), the conversion ~3 ms."""
    integral = all(pd.api.types.is_integer_dtype(d) and not pd.api.types.is_bool_dtype(d) for d in frame.dtypes)
    if integral and not pd.api.types.is_numeric_dtype(frame.index) and bool((abs(frame.to_numpy()) < 1000).all()):
        return _once_per_frame(frame, ("for_table",), lambda: dataframe_util.convert_pandas_df_to_arrow_table(frame))
    return styled(frame)


def as_text(frame: pd.DataFrame, columns: Iterable | None = None, percent: Iterable = (), digits: int = 4,
            column_config: dict | None = None, column_order: Iterable | None = None):
    """``(frame, column_config, column_order)`` showing each number column as a right-aligned
    text column ``"<name> (shown)"`` in its place, under its own header; the numeric column stays
    in the frame, hidden (for ``AppTest`` and anything else reading the values). Its header sorts
    as text: for tables whose rows are not comparable by value (one measure per row) or too large
    for a Styler."""
    percent = [c for c in percent if c in frame.columns]
    cols = [c for c in (number_columns(frame) if columns is None else columns) if c in frame.columns]
    out = frame.copy()
    config = dict(column_config or {})
    order = list(column_order if column_order is not None else frame.columns)
    for c in cols:
        fmt = _formatter(digits, percent=c in percent)
        shown, config[f"{c}{SHOWN_SUFFIX}"] = text_twin(c, config.get(c))
        out[shown] = [fmt(v) for v in frame[c].tolist()]
        order = [shown if o == c else o for o in order]
    return out, config, order


def text_twin(column, own_config=None) -> tuple[str, Any]:
    """(name, column config) of the text column that shows number column ``column``: right-aligned,
    under the number column's own label, help and width (``own_config``)."""
    own = own_config if isinstance(own_config, dict) else {}
    return f"{column}{SHOWN_SUFFIX}", st.column_config.TextColumn(
        own.get("label") or str(column), help=own.get("help"), alignment="right", width=own.get("width"))


def show_frame(frame, *, key: str, columns: Iterable | None = None, percent: Iterable = (), digits: int = 4,
               sortable: bool = True, column_config: dict | None = None, column_order: Iterable | None = None,
               **kwargs) -> None:
    """``st.dataframe`` of ``frame`` with its numbers in the one number format.

    ``sortable`` tables that fit :data:`STYLER_MAX_CELLS` go through :func:`styled` (headers
    sort by value); others through :func:`as_text`. ``column_config`` entries must not set a
    ``format`` for formatted columns: Streamlit lets a column's format win over the Styler.
    ``digits`` > 4 only where a table exists to show differences in later digits.
    """
    if sortable and frame.size <= STYLER_MAX_CELLS:
        st.dataframe(styled(frame, columns, percent, digits), key=key, column_config=column_config,
                     column_order=column_order, **kwargs)
        return
    columns = None if columns is None else tuple(columns)
    made = _once_per_frame(frame, (columns, tuple(percent), digits, repr(column_config), repr(column_order)),
                           lambda: _sendable(frame, columns, percent, digits, column_config, column_order))
    data, config, order = made
    st.dataframe(data, key=key, column_config=config, column_order=order, **kwargs)


def _sendable(frame, columns, percent, digits, column_config, column_order):
    """:func:`as_text` of ``frame`` with its frame turned into the Arrow table ``st.dataframe``
    would make of it (the same bytes are sent)."""
    data, config, order = as_text(frame, columns, percent, digits, column_config, column_order)
    return dataframe_util.convert_pandas_df_to_arrow_table(data), config, order


# What show_frame makes of a frame, kept for as long as that frame object lives: a frame that the
# caches share (st.cache_resource hands every rerun the same object, read-only) is formatted and
# converted to Arrow once — most of what a table costs a rerun (the Fuzzy lab's Experiment 1
# summary: ~10 ms per rerun of anything on the page). A frame built afresh on each run passes
# through and its entry goes with it. Keyed by id(), as frames cannot be hashed; the weak
# reference tells a live frame from a dead one whose id was reused.
_MADE: dict[int, tuple[weakref.ref, dict]] = {}
_MADE_LOCK = threading.RLock()  # re-entrant: a frame may die, and call _forget, inside the lock


def _once_per_frame(frame: pd.DataFrame, key: tuple, make):
    with _MADE_LOCK:
        entry = _MADE.get(id(frame))
        if entry is None or entry[0]() is not frame:
            entry = (weakref.ref(frame, functools.partial(_forget, id(frame))), {})
            _MADE[id(frame)] = entry
        memo = entry[1]
    if key not in memo:
        memo[key] = make()
    return memo[key]


def _forget(frame_id: int, ref: weakref.ref) -> None:
    with _MADE_LOCK:
        if frame_id in _MADE and _MADE[frame_id][0] is ref:
            del _MADE[frame_id]


# ---------------------------------------------------------------- charts
_AXIS_PREFIXES = ("xaxis", "yaxis")


def _font(spec: dict | None, size: int) -> dict:
    out = dict(spec or {})
    out["size"] = max(int(out.get("size") or size), MIN_FONT)
    return out


def readable(data: list[dict], layout: dict, sizes: Sizes = PAGE_SIZES) -> tuple[list[dict], dict]:
    """``(data, layout)`` with every font size set explicitly and at least the ``sizes`` given
    (a larger size set on purpose stays):

    * the figure's font, the hover labels (left-aligned, so wrapped lines read as a paragraph),
      the legend, every axis' ticks and title, every annotation;
    * text drawn on marks (``text`` / ``texttemplate``) at ``sizes.text``, for bars without
      Plotly's shrink-to-fit (``constraintext: "none"``): the builders draw a mark's text only
      where it fits at that size (outside a bar, or in cells large enough);
    * axes with thousands separators and no SI suffixes ("1,500", not "1.5k").

    Explicit sizes matter: Streamlit's chart theme sets its own (smaller) tick and legend sizes
    wherever a figure leaves them unset. Called by every figure builder of the dashboard (and,
    with :data:`PROJECTOR_SIZES`, by the lesson); the spec-level test walks every chart of every
    page and checks the result.
    """
    layout = dict(layout)
    layout["font"] = _font(layout.get("font"), sizes.body)
    hover = dict(layout.get("hoverlabel") or {})
    hover["font"] = _font(hover.get("font"), sizes.hover)
    hover.setdefault("align", "left")
    layout["hoverlabel"] = hover
    if layout.get("showlegend", True) is not False:
        legend = dict(layout.get("legend") or {})
        legend["font"] = _font(legend.get("font"), sizes.body)
        layout["legend"] = legend
    if isinstance(layout.get("title"), dict):
        layout["title"] = {**layout["title"], "font": _font(layout["title"].get("font"), sizes.body + 2)}
    for name in list(layout):
        if name.startswith(_AXIS_PREFIXES) and isinstance(layout[name], dict):
            ax = dict(layout[name])
            ax["tickfont"] = _font(ax.get("tickfont"), sizes.tick)
            if isinstance(ax.get("title"), dict):
                ax["title"] = {**ax["title"], "font": _font(ax["title"].get("font"), sizes.body)}
            if ax.get("type") != "category":
                ax.setdefault("separatethousands", True)
                ax.setdefault("exponentformat", "none")
            layout[name] = ax
    if layout.get("annotations"):
        layout["annotations"] = [{**a, "font": _font(a.get("font"), sizes.text)} for a in layout["annotations"]]
    out = []
    for trace in data:
        if trace.get("text") is not None or trace.get("texttemplate"):
            trace = {**trace, "textfont": _font(trace.get("textfont"), sizes.text)}
            if trace.get("type") == "bar":
                trace.setdefault("constraintext", "none")
        out.append(trace)
    return out, layout
