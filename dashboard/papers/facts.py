"""Facts a student checks against the papers, stated once for every page that shows them.

* :data:`VI_RANGE` — VI's range, the registry's one statement (``Measure.range_note``), and
  :func:`nvi_reference_text` — what NVI does for the single cluster and for singletons
  on m classes of c items. The Property checker's range chart and the lesson use both.
* Printed-vs-computed notes for presets whose numbers a paper prints
  (:func:`printed_rows`, :func:`show_printed_notes`): the rows of the Paper gallery
  (``metrics.papers.gallery``: the printed value from ``assets/paper_values``, the value computed by
  ``metrics``, the verdict and the explanation), so Compare and the lesson say exactly what
  the gallery says. Nothing here computes a measure.
"""

from __future__ import annotations

from typing import NamedTuple

import pandas as pd
import streamlit as st

import metrics
from dashboard.papers.gallery import STATUS_MARK, section_table
from metrics.core.formatting import format_number
from metrics.papers import gallery

# VI's range is stated once, in the registry (``Measure.range_note`` of VI, checked against the papers in
# /work/shared/papers and Meilă 2007, "Comparing clusterings — an information based distance", J.
# Multivariate Anal. 98, §4): every page that shows the range reads it from there.
VI_RANGE = f"VI's range: {metrics.MEASURES['vi'].range_note}"


def nvi_reference_text(class_size: int) -> str:
    """What NVI = VI/H(C) does for the two extreme solutions on m classes of ``class_size`` items
    (n = class_size·m): the identities ``metrics.papers.gallery`` checks on the extreme-case presets
    (single cluster: NVI = 1; singletons: NVI = H(K|C)/H(C)), written out for equal classes."""
    c = class_size
    return (f"NVI = VI/H(C) keeps the single cluster at 1 whatever n (its VI is H(C) = log m, which grows with n). "
            f"Singletons' NVI is H(K|C)/H(C) = log {c} / log m for m classes of {c} items: it falls as classes are "
            f"added at a fixed class size, is 1 at m = {c}, and rises if n grows through larger classes instead — "
            "NVI's 1 marks a solution as bad as one cluster, not a floor that singletons share.")


# Presets whose table a paper prints numbers for: (paper, section prefix, item prefixes) of the
# Paper gallery's rows about that table.
PRINTED_FACTS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "rr_singletons": ("rr2009", "Table 1 (bottom)", ("Singletons: ",)),
    "rr_solution_r": ("rr2009", "Table 1 (bottom)", ("Solution R: ",)),
    **{f"rh_figure2_{s}": ("rh2007", "Figure 2", (f"Solution {s}: ", f"Label of solution {s}: ")) for s in "ABCD"},
    "wu_table3_I": ("wu2009", "Table 4", ("Clustering I: ",)),
    "wu_table3_II": ("wu2009", "Table 4", ("Clustering II: ",)),
}
# Tables that are reconstructions, not read off the paper: the Figure 2 presets.
RECONSTRUCTED = frozenset(k for k in PRINTED_FACTS if k.startswith("rh_figure2_"))


@st.cache_data(max_entries=8, show_spinner=False)
def _paper_rows(paper: str) -> pd.DataFrame:
    """``metrics.papers.gallery.gallery_frame`` of one paper (a fraction of a second), once per server."""
    return gallery.gallery_frame(papers=[paper])


def printed_rows(preset: str) -> pd.DataFrame:
    """The Paper gallery's rows about the table of ``preset`` (empty when a paper prints no
    number for it), with ``short`` — the item without the table's name ("V", "F-measure")."""
    if preset not in PRINTED_FACTS:
        return pd.DataFrame(columns=[*gallery.COLUMNS, "short"])
    paper, section, prefixes = PRINTED_FACTS[preset]
    frame = _paper_rows(paper)
    picked = frame[frame["section"].str.startswith(section)
                   & frame["item"].map(lambda item: item.startswith(prefixes))].copy()
    picked["short"] = [next(("figure label " if p.startswith("Label") else "") + item.removeprefix(p)
                            for p in prefixes if item.startswith(p)) for item in picked["item"]]
    return picked.reset_index(drop=True)


def summary(rows: pd.DataFrame) -> str:
    """One line: each printed value beside the computed one and the verdict (✓, ≈ truncated, ✗)."""
    parts = []
    for r in rows.itertuples(index=False):
        computed = format_number(r.value) if r.value is not None and not pd.isna(r.value) else r.computed
        parts.append(f"{r.short} printed {r.printed}, computed {computed} {STATUS_MARK[r.status]}")
    return "; ".join(parts)


class PrintedNotes(NamedTuple):
    """What :func:`show_printed_notes` draws for a preset: the line (None: no printed number),
    whether it disagrees anywhere (an info box then, with the explanations), the expander's title
    and the rows that differ, as the Paper gallery shows them."""

    text: str | None
    differs: bool
    why_title: str
    why: pd.DataFrame | None


@st.cache_resource(max_entries=64, show_spinner=False)
def printed_notes(preset: str) -> PrintedNotes:
    """:class:`PrintedNotes` of a preset, put together once per server (shared read-only: it
    depends on the preset alone, and every rerun of Compare draws it for both sides)."""
    rows = printed_rows(preset)
    if rows.empty:
        return PrintedNotes(None, False, "", None)
    source = f"{gallery.PAPERS[PRINTED_FACTS[preset][0]].split(',')[0]}, {rows['section'].iloc[0].split(' (')[0]}"
    off = rows[rows["status"] != "agrees"]
    text = f"**Printed in the paper vs computed here** ({source}; the paper's units): {summary(rows)}."
    if not len(off):
        return PrintedNotes(text, False, "", None)
    why_title = (f"Why {', '.join(dict.fromkeys(off['short']))} differ{'s' if len(off) == 1 else ''} "
                 "from the print (as the Paper gallery explains)")
    return PrintedNotes(text, True, why_title, section_table(off.reset_index(drop=True)))


def show_printed_notes(preset: str) -> None:
    """Under a preset's table: that it is a reconstruction (Figure 2), and every number the paper
    prints for it beside ours, the disagreements explained as the Paper gallery explains them."""
    if preset in RECONSTRUCTED:
        st.info("**Reconstructed table.** Figure 2 is a picture that the text extraction lost: this table is not "
                "read off the paper but found by an exhaustive search that the printed F and V make unique up to "
                "relabelling (assets/paper_values/rosenberg2007_figure2.json).", icon=":material/extension:")
    notes = printed_notes(preset)
    if notes.text is None:
        return
    (st.info if notes.differs else st.caption)(notes.text)
    if notes.differs:
        with st.expander(notes.why_title):
            st.table(notes.why, hide_index=True)
