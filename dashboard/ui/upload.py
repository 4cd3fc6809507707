"""The upload panel: files → :mod:`metrics.io` → one :class:`metrics.Contingency`.

The panel parses nothing itself. ``metrics.io`` reads the bytes (format, encoding and delimiter
from the content; UTF-8 or UTF-16), applies the one missing-value rule (an empty cell is
missing; ``NA``, ``null``… are labels unless the checkbox says otherwise) and builds the table,
exactly as ``partition-lab score`` does on the same file. Here the choices are made with
controls, and messages name those controls, never Python arguments.

Every choice (layout, header, missing-value handling, columns, and the files themselves) is
kept in the session, so switching to another source or layout and back loses nothing. A file
is parsed once per upload (with a progress bar) and kept in the session compacted — its labels
as codes, not its text, and never its bytes (:class:`KeptFile`) — for as long as it is in use;
the table is built once per choice of columns and options.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pandas as pd
import streamlit as st

import metrics
from dashboard.ui import noise
from dashboard.ui.safe_text import md
from metrics import io as mio
from metrics.core.formatting import format_number

# The default byte limit of one file, in MB (2^20 bytes) as Streamlit counts them: the same number
# as ``server.maxUploadSize`` in .streamlit/config.toml. The panel reads the live option; the server
# refuses larger uploads, and the panel checks again (AppTest and other callers bypass the server).
MAX_UPLOAD_MB = 200
_CACHE_ENTRIES = 6  # tables built from the parsed files, per choice of columns and options
_CACHE, _CHOICES, _KEPT, _PARSED = "_upload_cache", "_upload_choices", "_upload_kept", "_upload_parsed"

LAYOUTS = {"one": "one file, two columns", "two": "two files (gold, clusters)", "table": "a contingency table"}
NA_TEXT_LABEL = "Treat NA, NaN, null, None… as missing"
DROPNA_LABEL = "Leave out rows with a missing label"


# ---------------------------------------------------------------- messages in the app's words
class PanelMessage(ValueError):
    """A message the panel writes itself, already Markdown (user text in it escaped)."""


def size_problem(name: str, size_bytes: int, limit_mb: float) -> str | None:
    """Why a file is too large to upload (with what to do), as Markdown, or None."""
    if size_bytes <= limit_mb * 2**20:
        return None
    return (f"{md(name)} is {format_number(size_bytes / 2**20)} MB, over the upload limit of {format_number(limit_mb)} "
            "MB: upload a Parquet version (far smaller) or a sample, or count the whole file with the command line "
            f"(partition-lab score {md(name)}), which reads big files with DuckDB without loading them")


def app_message(exc: ValueError) -> str:
    """The message of a reader error as Markdown: the reader's words escaped (they quote file names,
    column names and cells), with advice that names this panel's controls."""
    if isinstance(exc, PanelMessage):
        return str(exc)
    if isinstance(exc, mio.MissingLabelsError):
        text = (f"{md(exc.describe('gold', 'cluster'))}. Tick '{DROPNA_LABEL}' to score the other rows, "
                "or fill in the labels in the file")
        if exc.na_values:
            text += f" (texts such as NA count as missing because '{NA_TEXT_LABEL}' is ticked)"
        return text + "."
    if isinstance(exc, mio.UnmatchedIdsError):
        return f"{md(exc.describe())}. Tick '{DROPNA_LABEL}' to leave those rows out."
    if isinstance(exc, mio.EmptyTableError):
        advice = ("untick the missing-value options or fill in the labels" if "missing" in exc.reason
                  else "upload a file with at least one item")
        return f"{md(exc)}: {advice}."
    return md(exc)


def content_limit() -> int:
    """Bytes of text a file may expand to (a gzip file decompressed, a Parquet file's cells as
    text): the upload limit, so that a small compressed upload costs the server no more than the
    largest plain one (a 0.25 MB .csv.gz held 256 MiB of text)."""
    return int(st.get_option("server.maxUploadSize") * 2**20)


def limit_caption() -> str:
    """What may be uploaded and what to do with bigger files (shown before any upload)."""
    limit = st.get_option("server.maxUploadSize")
    return (f"Up to {format_number(limit)} MB per file. CSV, TSV or Parquet, recognised by their content "
            "(any file name; gzip-compressed text too), UTF-8 or UTF-16 text. For bigger files: save them as "
            "Parquet (far smaller than CSV), or score them with the command line `partition-lab score FILE`, "
            "which counts big files with DuckDB without loading them.")


# ---------------------------------------------------------------- session state
def _cache() -> dict:
    return st.session_state.setdefault(_CACHE, {})


def _remember(key, value) -> None:
    cache = _cache()
    cache[key] = value
    while len(cache) > _CACHE_ENTRIES:
        cache.pop(next(iter(cache)))


def _restore(key: str, default, options=None) -> None:
    """Before drawing widget ``key``: its kept value (Streamlit drops the state of widgets not drawn)."""
    ss = st.session_state
    choices = ss.setdefault(_CHOICES, {})
    if key in ss and (options is None or ss[key] in options):
        return
    kept = choices.get(key, default)
    ss[key] = kept if options is None or kept in options else default


def _keep(key: str) -> None:
    st.session_state.setdefault(_CHOICES, {})[key] = st.session_state.get(key)


@dataclass(frozen=True)
class KeptFile:
    """What the session keeps of an upload once its uploader is gone (a switch of layout or
    source): its name and id — its cells are kept parsed and compacted (:data:`_PARSED`), never
    its bytes."""

    name: str
    file_id: str
    size: int


def _forget_file(key: str) -> None:
    # The user removed the file from the uploader (its ×): drop the kept one too.
    if st.session_state.get(key) is None:
        st.session_state.setdefault(_KEPT, {}).pop(key, None)


def _drop_kept(key: str) -> None:
    st.session_state.setdefault(_KEPT, {}).pop(key, None)


def _uploaded(label: str, key: str):
    """The uploader ``key``'s file — or, when the uploader was redrawn empty after a switch, the file
    uploaded there before (kept in the session, with a note and a button to forget it)."""
    f = st.file_uploader(label, key=key, on_change=_forget_file, args=(key,))
    kept = st.session_state.setdefault(_KEPT, {})
    if f is not None:
        kept[key] = KeptFile(f.name, f.file_id, f.size)
        return f
    f = kept.get(key)
    if f is not None:
        c1, c2 = st.columns([4, 1])
        c1.caption(f"Using {md(f.name)}, uploaded before. Upload a file above to replace it.")
        c2.button("Forget it", key=f"{key}_forget", on_click=_drop_kept, args=(key,))
    return f


@dataclass(frozen=True)
class ItemLabels:
    """The item-level labels behind an upload panel's table (a labels layout): each row's gold class
    and cluster as read (``gold``, ``pred``: the file's cells), where they come from (``source``:
    the file names and columns), how many rows with a missing label were left out, and the noise
    reading of the table (``noise``: its −1 label, or None; ``noise_as``)."""

    gold: pd.Series
    pred: pd.Series
    source: str
    left_out: int = 0
    noise: object = None
    noise_as: str = "cluster"


def _labels_key(prefix: str) -> str:
    return f"_item_labels_{prefix}"


def item_labels(prefix: str) -> ItemLabels | None:
    """The item labels of the table panel ``prefix`` returned on this run, or None (no table, or a
    contingency table uploaded: its items are not known)."""
    return st.session_state.get(_labels_key(prefix))


# ---------------------------------------------------------------- reading through metrics.io
def _parsed() -> dict:
    """(what, file id, header) → the file read (compacted) or the reader's error, for the files
    the session still uses (kept or uploaded): one entry per file and header choice."""
    parsed = st.session_state.setdefault(_PARSED, {})
    in_use = {k.file_id for k in st.session_state.get(_KEPT, {}).values()}
    for key in [k for k in parsed if k[1] not in in_use]:
        del parsed[key]
    return parsed


def _read(uploaded, header: bool, what: str):
    """The file's labels (``what="labels"``) or table (``"table"``), read once per upload and kept —
    compacted (:meth:`metrics.io.LabelColumns.compact`): a session keeps what it needs to build
    tables, not the file's text."""
    key = (what, uploaded.file_id, header)
    parsed = _parsed()
    if key not in parsed:
        if isinstance(uploaded, KeptFile):  # its bytes are gone: read with another header choice
            raise PanelMessage(f"{md(uploaded.name)} was read {'without' if header else 'with'} a header row; "
                               "upload it again to read it this way.")
        problem = size_problem(uploaded.name, uploaded.size, st.get_option("server.maxUploadSize"))
        if problem:
            parsed[key] = PanelMessage(problem)
        else:
            bar = st.progress(0.0, text=f"Reading {md(uploaded.name)} …")

            def reading(f: float, name: str = uploaded.name) -> None:
                bar.progress(f, text=f"Reading {md(name)} … {f:.0%}")

            result: metrics.Contingency | mio.LabelColumns | ValueError
            try:
                if what == "table":
                    result = mio.contingency_from_table_file(uploaded.getvalue(), name=uploaded.name, header=header,
                                                             max_bytes=content_limit())
                else:
                    result = mio.read_labels(uploaded.getvalue(), name=uploaded.name, header=header,
                                             max_bytes=content_limit(), progress=reading).compact()
            except ValueError as exc:
                result = exc
            except Exception as exc:  # a reader's own failure on odd input still ends in st.error
                result = ValueError(f"{uploaded.name} could not be read ({type(exc).__name__}: {exc})")
            finally:
                bar.empty()
            parsed[key] = result
    result = parsed[key]
    if isinstance(result, ValueError):
        raise result
    return result


def _column(labels, title: str, default: int, key: str, header: bool) -> str:
    cols = labels.columns
    _restore(key, cols[min(default, len(cols) - 1)], cols)
    choice = st.selectbox(title, cols, key=key, format_func=str if header else (lambda c: f"column {c}"))
    _keep(key)
    return choice


def _notes(*labels) -> None:
    for lc in labels:
        for note in lc.notes:
            st.info(md(note))


def _labels_table(prefix: str, layout: str, header: bool, na_values: tuple[str, ...], dropna: bool):
    """(table, missing-label report) of the label layouts, or None while files are missing."""
    if layout == "one":
        f = _uploaded("Labels (CSV, TSV or Parquet), one row per item", f"{prefix}_file")
        if f is None:
            st.info("Upload a file with a gold-class column and a cluster column.")
            return None
        lc = _read(f, header, "labels")
        _notes(lc)
        if len(lc.columns) < 2:
            raise ValueError(f"{f.name} has one column; it needs a gold column and a cluster column. "
                             "Upload a file with two columns, or choose 'two files'.")
        c1, c2 = st.columns(2)
        with c1:
            gold_col = _column(lc, "Gold class column", 0, f"{prefix}_gold_col", header)
        with c2:
            pred_col = _column(lc, "Cluster column", 1, f"{prefix}_pred_col", header)
        ids: tuple  # the file ids and chosen columns: the cache key of the table
        gold, pred, names, ids = lc.raw[gold_col], lc.raw[pred_col], (f.name, f.name), (f.file_id, gold_col, pred_col)
    else:
        c1, c2 = st.columns(2)
        with c1:
            fg = _uploaded("Gold labels", f"{prefix}_file_gold")
        with c2:
            fp = _uploaded("Cluster labels", f"{prefix}_file_pred")
        if fg is None or fp is None:
            st.info("Upload both files: the gold classes and the clusters of the same items, in the same order.")
            return None
        lg, lp = _read(fg, header, "labels"), _read(fp, header, "labels")
        _notes(lg, lp)
        with c1:
            gold_col = _column(lg, "Gold column", 0, f"{prefix}_gold_col", header)
        with c2:
            pred_col = _column(lp, "Cluster column", 0, f"{prefix}_pred_col", header)
        gold, pred, names = lg.raw[gold_col], lp.raw[pred_col], (fg.name, fp.name)
        ids = (fg.file_id, fp.file_id, gold_col, pred_col)
    key = ("table", ids, header, na_values, dropna)
    if key not in _cache():
        try:
            table = mio.contingency_from_columns(gold, pred, dropna=dropna, na_values=na_values,
                                                 gold_source=names[0], pred_source=names[1])
            report = mio.missing_report(gold, pred, na_values) if dropna else None
            _remember(key, (table, report))
        except ValueError as exc:
            _remember(key, exc)
    result = _cache()[key]
    if isinstance(result, ValueError):
        raise result
    table, report = result
    source = (f"{names[0]}: {gold_col} and {pred_col}" if names[0] == names[1]
              else f"{names[0]}: {gold_col} and {names[1]}: {pred_col}")
    st.session_state[_labels_key(prefix)] = ItemLabels(gold, pred, source, report.items if report else 0)
    return result


def upload_panel(prefix: str) -> metrics.Contingency | None:
    """Upload controls; the table of the chosen file(s), or None (with the reason shown). The item
    labels behind the table, where it was built from labels, are :func:`item_labels`."""
    st.session_state.pop(_labels_key(prefix), None)
    _restore(f"{prefix}_layout", "one", list(LAYOUTS))
    layout = st.radio("Files", list(LAYOUTS), key=f"{prefix}_layout", horizontal=True, format_func=LAYOUTS.__getitem__)
    _keep(f"{prefix}_layout")
    st.caption(limit_caption())
    _restore(f"{prefix}_header", True)
    header = st.checkbox("First row holds column names", key=f"{prefix}_header")
    _keep(f"{prefix}_header")
    na_values: tuple[str, ...] = ()
    dropna = False
    if layout != "table":
        c1, c2 = st.columns(2)
        with c1:
            _restore(f"{prefix}_na_text", False)
            if st.checkbox(NA_TEXT_LABEL, key=f"{prefix}_na_text",
                           help="Off: every text is a label, so a class called \"NA\" stays a class; only empty "
                           f"cells are missing. On: these texts are missing too: {', '.join(mio.COMMON_NA_TEXTS)}."):
                na_values = mio.COMMON_NA_TEXTS
            _keep(f"{prefix}_na_text")
        with c2:
            _restore(f"{prefix}_dropna", False)
            dropna = st.checkbox(DROPNA_LABEL, key=f"{prefix}_dropna",
                                 help="Off: a row with a missing label stops with a message naming the rows. "
                                 "On: such rows are left out of the table (and counted below it).")
            _keep(f"{prefix}_dropna")
    report = None
    try:
        if layout == "table":
            f = _uploaded("Contingency table (CSV, TSV or Parquet): rows gold classes, columns clusters",
                          f"{prefix}_file_table")
            if f is None:
                st.info("Upload a table of counts: one row per gold class, one column per cluster, "
                        "the class names in the first column.")
                return None
            t = _read(f, header, "table")
        else:
            result = _labels_table(prefix, layout, header, na_values, dropna)
            if result is None:
                return None
            t, report = result
    except ValueError as exc:
        st.error(app_message(exc))
        return None
    note = ""
    if report is not None and report.items:
        rows = sorted(set(report.gold_rows) | set(report.pred_rows))[:mio.MissingLabelsError.SHOWN]
        note = (f" ({format_number(report.items)} row(s) with a missing label left out, first at "
                f"{mio.errors.rows_text(rows, report.items)})")
    st.caption(f"{format_number(t.n)} items, {format_number(t.shape[0])} classes, "
               f"{format_number(t.shape[1])} clusters{note}.")
    if t.n < 2:
        st.warning("Only one item: every measure is at a degenerate value. Upload more rows for a meaningful table.")
    return _read_noise(prefix, t)


def _read_noise(prefix: str, t: metrics.Contingency) -> metrics.Contingency | None:
    """Ask how to read the cluster labelled −1 (noise), if there is one; the table read that way."""
    label = noise.noise_label(t.col_labels)
    if label is None:
        return t
    count = int(t.col_sums[list(t.col_labels).index(label)])
    reading = noise.reading_control(f"{prefix}_noise_as", f"{format_number(count)} item(s) of the cluster column are",
                                    _restore, _keep)
    key = ("noise", id(t), reading)
    kept = _cache().get(key)
    if kept is None or kept[0] is not t:
        try:
            kept = (t, noise.table_with_noise(t, label, reading))
        except ValueError as exc:
            kept = (t, exc)
        _remember(key, kept)
    st.session_state[f"_noise_source_{prefix}"] = (t, label)
    items = item_labels(prefix)
    if items is not None:
        st.session_state[_labels_key(prefix)] = replace(items, noise=label, noise_as=reading)
    if isinstance(kept[1], ValueError):
        st.error(f"{md(kept[1])}. Read them as one cluster or as singletons.")
        return None
    st.caption(noise.noise_caption(kept[1]))
    return kept[1]


def noise_readings(prefix: str, t: metrics.Contingency) -> dict[str, metrics.Contingency] | None:
    """The three readings of the noise of panel ``prefix``'s table ``t`` (the table it returned),
    or None when that table has no noise cluster."""
    source = st.session_state.get(f"_noise_source_{prefix}")
    if source is None or t.noise_count is None or not t.noise_count:
        return None
    return noise.table_readings(*source)
