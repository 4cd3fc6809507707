"""The Solutions page's uploads: labels of several solutions → :mod:`metrics.io` → a :class:`SolutionSet`.

Two layouts: **one file** with a gold column and one column per solution, or **several files** —
a gold file and one file per solution (named by its file name), aligned by row or by an id
column. The panel parses nothing: ``metrics.io.read_labels`` reads each file (format, encoding,
delimiter from the content) and ``metrics.io.solution_columns`` aligns the solutions under the
reader's one missing-value rule, exactly as ``partition-lab score FILE --pred-col p1,p2,p3`` and
``partition-lab score GOLD P1 P2 --id-col id`` do. Messages name this panel's controls.

Files and choices stay in the session (switching to another source and back loses nothing);
they never travel in a link. Each file is read once per upload and kept compacted (its labels as
codes, never its bytes); the files not in use are let go.
"""

from __future__ import annotations

import streamlit as st

from dashboard.solutions.views import SolutionSet, upload_solutions
from dashboard.ui import noise
from dashboard.ui.safe_text import md
from dashboard.ui.upload import (
    DROPNA_LABEL,
    NA_TEXT_LABEL,
    KeptFile,
    PanelMessage,
    _keep,
    _restore,
    _uploaded,
    app_message,
    content_limit,
    limit_caption,
    size_problem,
)
from metrics import io as mio
from metrics.core.formatting import format_number

PREFIX = "sol_upload"
LAYOUTS = {"one": "one file: a gold column and a column per solution",
           "files": "several files: the gold labels, then one file per solution"}
BY_ROW = "(the order of the rows)"
_READ = "_sol_upload_read"        # (file id, header) → LabelColumns (compacted) or the reader's error, files in use
_ALIGNED = "_sol_upload_aligned"  # the last few alignments: choices → SolutionColumns or error
_FILES = "_sol_upload_files"      # the solution files of the multi-file uploader, kept across source switches
_KEEP_ALIGNED = 4


def _read(files, header: bool) -> list:
    """Each file's LabelColumns, read once per upload (with a progress bar); raises the first error."""
    cache = st.session_state.get(_READ, {})
    fresh = {}
    for f in files:
        key = (f.file_id, header)
        if key not in cache and isinstance(f, KeptFile):  # its bytes are gone: read with another header choice
            cache[key] = PanelMessage(f"{md(f.name)} was read {'without' if header else 'with'} a header row; upload "
                                      "it again to read it this way.")
        if key not in cache:
            problem = size_problem(f.name, f.size, st.get_option("server.maxUploadSize"))
            if problem:
                cache[key] = PanelMessage(problem)
            else:
                bar = st.progress(0.0, text=f"Reading {md(f.name)} …")

                def reading(x: float, name: str = f.name, bar=bar) -> None:
                    bar.progress(x, text=f"Reading {md(name)} … {x:.0%}")

                try:
                    cache[key] = mio.read_labels(f.getvalue(), name=f.name, header=header, max_bytes=content_limit(),
                                                 progress=reading).compact()
                except ValueError as exc:
                    cache[key] = exc
                except Exception as exc:  # the reader's own failure on odd input still ends in st.error
                    cache[key] = ValueError(f"{f.name} could not be read ({type(exc).__name__}: {exc})")
                finally:
                    bar.empty()
        fresh[key] = cache[key]
    st.session_state[_READ] = fresh  # only the files in use stay in memory
    out = []
    for f in files:
        result = fresh[(f.file_id, header)]
        if isinstance(result, ValueError):
            raise result
        out.append(result)
    return out


def _select(label: str, options: list, default, key: str, **kwargs):
    _restore(key, default if default in options else options[0], options)
    value = st.selectbox(label, options, key=key, **kwargs)
    _keep(key)
    return value


def _multiselect(label: str, options: list, default: list, key: str, **kwargs) -> list:
    ss = st.session_state
    if key not in ss:
        ss[key] = ss.get("_upload_choices", {}).get(key, default)
    ss[key] = [c for c in ss[key] if c in options]
    value = st.multiselect(label, options, key=key, **kwargs)
    _keep(key)
    return value


def _solution_files():
    """The files of the multi-file uploader, or the ones uploaded there before a source switch."""
    key = f"{PREFIX}_files"
    files = st.file_uploader("Solutions: one file per solution (named by its file name)", key=key,
                             accept_multiple_files=True)
    kept = st.session_state.setdefault(_FILES, {})
    if files:
        kept[key] = [KeptFile(f.name, f.file_id, f.size) for f in files]  # not their bytes
        return list(files)
    if key in st.session_state and st.session_state[key] == []:
        kept.pop(key, None)  # the user removed them
    return kept.get(key, [])


def _file_names(files) -> list[str]:
    names = [f.name.rsplit(".", 1)[0] if "." in f.name.lstrip(".") else f.name for f in files]
    if len(set(names)) == len(names):
        return names
    full = [f.name for f in files]
    repeated = [n for n in dict.fromkeys(full) if full.count(n) > 1]
    if repeated:
        raise ValueError(f"two solution files are named {repeated[0]}: rename one, so each solution has its own name")
    return full


def _aligned(choice: tuple, build):
    cache = st.session_state.setdefault(_ALIGNED, {})
    if choice not in cache:
        try:
            cache[choice] = build()
        except ValueError as exc:
            cache[choice] = exc
        while len(cache) > _KEEP_ALIGNED:
            cache.pop(next(iter(cache)))
    result = cache[choice]
    if isinstance(result, ValueError):
        raise result
    return result


def upload_source() -> SolutionSet | None:
    """The upload controls; the uploaded solutions, or None with the reason shown."""
    st.info("Uploaded files stay in this browser session: they do not travel in a link. A copied address "
            "opens this page on *Your files* without them.")
    _restore(f"{PREFIX}_layout", "one", list(LAYOUTS))
    layout = st.radio("Files", list(LAYOUTS), key=f"{PREFIX}_layout", format_func=LAYOUTS.__getitem__)
    _keep(f"{PREFIX}_layout")
    st.caption(limit_caption())
    c1, c2, c3 = st.columns(3)
    with c1:
        _restore(f"{PREFIX}_header", True)
        header = st.checkbox("First row holds column names", key=f"{PREFIX}_header")
        _keep(f"{PREFIX}_header")
    with c2:
        _restore(f"{PREFIX}_na_text", False)
        na = st.checkbox(NA_TEXT_LABEL, key=f"{PREFIX}_na_text",
                         help="Off: every text is a label; only empty cells are missing. On: "
                              f"{', '.join(mio.COMMON_NA_TEXTS)} "
                              "are missing too.")
        _keep(f"{PREFIX}_na_text")
    with c3:
        _restore(f"{PREFIX}_dropna", False)
        dropna = st.checkbox(DROPNA_LABEL, key=f"{PREFIX}_dropna",
                             help="Off: a row with a missing label (in gold or in any solution) stops with a message "
                                  "naming the rows. On: such rows are left out of every solution, so all are scored "
                                  "on the same items.")
        _keep(f"{PREFIX}_dropna")
    na_values = mio.COMMON_NA_TEXTS if na else ()
    fmt = str if header else (lambda c: f"column {c}")
    try:
        if layout == "one":
            f = _uploaded("Labels (CSV, TSV or Parquet): a gold column and one column per solution, one row per item",
                          f"{PREFIX}_file")
            if f is None:
                st.info("Upload a file with a gold-class column and one cluster column per solution.")
                return None
            (lc,) = _read([f], header)
            lc = lc.with_na_values(na_values)
            if len(lc.columns) < 3:
                raise ValueError(f"{f.name} has {len(lc.columns)} column(s): it needs a gold column and at least two "
                                 "solution columns. Upload a file with more columns, or choose 'several files'.")
            g1, g2 = st.columns([1, 3])
            with g1:
                gold_col = _select("Gold class column", lc.columns, "gold", f"{PREFIX}_gold", format_func=fmt)
            others = [c for c in lc.columns if c != gold_col]
            with g2:
                default = [c for c in others if c.lower() not in ("id", "item")]
                cols = _multiselect("Solution columns", others, default, f"{PREFIX}_cols", format_func=fmt)
            if not cols:
                st.info("Choose the solution columns.")
                return None
            choice: tuple = ("one", f.file_id, header, na_values, dropna, gold_col, tuple(cols))
            result = _aligned(choice, lambda: mio.solution_columns(lc, gold_col, [(c, lc, c) for c in cols],
                                                                   dropna=dropna))
            where = f"{md(f.name)}, gold column {md(gold_col)}"
        else:
            g1, g2 = st.columns([1, 2])
            with g1:
                fg = _uploaded("Gold labels", f"{PREFIX}_gold_file")
            with g2:
                files = _solution_files()
            if fg is None or not files:
                st.info("Upload the gold labels and one file per solution (the same items: in the same order, or "
                        "with an id column in every file).")
                return None
            gold_lc, *sol_lcs = [lc.with_na_values(na_values) for lc in _read([fg, *files], header)]
            names = _file_names(files)
            shared = [c for c in gold_lc.columns if all(c in lc.columns for lc in sol_lcs)]
            a1, a2, a3 = st.columns(3)
            with a1:
                align = _select("Align the files by", [BY_ROW, *shared], "id" if "id" in shared else BY_ROW,
                                f"{PREFIX}_align", help="The row order (every file lists the same items in the same "
                                "order), or an id column every file has (each id once per file).")
            id_col = None if align == BY_ROW else align
            with a2:
                gold_col = _select("Gold class column", [c for c in gold_lc.columns if c != id_col] or gold_lc.columns,
                                   "gold", f"{PREFIX}_gold", format_func=fmt)
            label_cols = [c for c in sol_lcs[0].columns if c != id_col and all(c in lc.columns for lc in sol_lcs)]
            if not label_cols:
                raise ValueError("the solution files have no label column in common: give every solution file its "
                                 "labels under the same column name")
            with a3:
                pred_col = _select("Cluster column (in every solution file)", label_cols, "pred", f"{PREFIX}_pred",
                                   format_func=fmt)
            choice = ("files", fg.file_id, tuple(f.file_id for f in files), header, na_values, dropna, id_col,
                      gold_col, pred_col)
            result = _aligned(choice, lambda: mio.solution_columns(
                gold_lc, gold_col, [(n, lc, pred_col) for n, lc in zip(names, sol_lcs)], id_col=id_col,
                dropna=dropna))
            where = f"{md(fg.name)} and {format_number(len(files))} solution files"
    except ValueError as exc:
        st.error(app_message(exc))
        return None
    left = (f"; {format_number(result.left_out)} row(s) left out (a missing label"
            f"{' or no partner id' if layout == 'files' and choice[6] is not None else ''})" if result.left_out else "")
    description = (f"{format_number(len(result.names))} uploaded solutions from {where}: "
                   f"{format_number(len(result))} items{left}.")
    label, counts = _aligned(("noise", *choice), lambda: _noise_counts(result))
    if label is None:
        return upload_solutions(choice, result, description)
    with_noise = {n: c for n, c in counts.items() if c}
    reading = noise.reading_control(f"{PREFIX}_noise_as", f"{format_number(sum(with_noise.values()))} item(s) of "
                                    f"{format_number(len(with_noise))} solution(s) are", _restore, _keep)
    shares = ", ".join(f"{md(n)} {c / len(result):.1%}" for n, c in with_noise.items())
    description += f" Noise items (−1): {shares}; read as {noise.READING_NAMES[reading]}."
    return upload_solutions(choice, result, description, label, reading)


def _noise_counts(result) -> tuple:
    """The solutions' noise label (−1, as text or number) and how many items each labels so."""
    label = next((x for x in (noise.noise_label(result.solutions[n].unique()) for n in result.names)
                  if x is not None), None)
    if label is None:
        return None, {}
    return label, {n: int((result.solutions[n] == label).sum()) for n in result.names}
