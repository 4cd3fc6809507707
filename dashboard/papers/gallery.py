"""The Paper gallery's views: the rows of ``metrics.papers.gallery`` (every printed number beside the
one ``metrics`` computes), one section per paper, each entry with a link to the page that
explores it. This module only displays: the agreement, the explanations and the links are
``metrics.papers.gallery``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import pyarrow as pa
import streamlit as st
from streamlit import dataframe_util
from streamlit.errors import StreamlitAPIException

from dashboard.ui.readout import escape_markdown
from dashboard.ui.state import page_link
from dashboard.ui.tables import encode_table
from metrics.papers import gallery

# metrics.papers.gallery names pages by URL path; these are their scripts (relative to app.py).
PAGE_SCRIPTS = {
    "table_lab": "app_pages/analyse/table_lab.py",
    "compare": "app_pages/analyse/compare.py",
    "generator_lab": "app_pages/explore/generator_lab.py",
    "property_checker": "app_pages/explore/property_checker.py",
    "fuzzy_lab": "app_pages/explore/fuzzy_lab.py",
    "real_data": "app_pages/explore/real_data.py",
}
STATUS_MARK = {"agrees": "✓", "truncated": "≈ truncated", "differs": "✗", "not recomputable": "—"}
# Markdown colour directives (cells of st.table are Markdown): a Styler would cost ~0.1 s per table.
STATUS_CELL = {"agrees": ":green[**✓**]", "truncated": ":orange[**≈** truncated]", "differs": ":red[**✗**]",
               "not recomputable": ":gray[—]"}
TABLE_COLUMNS = {"mark": " ", "item": "Item", "printed": "Printed", "computed": "Computed", "why": "Why / how"}


@st.cache_resource(show_spinner=False)
def gallery_frame() -> pd.DataFrame:
    """``metrics.papers.gallery.gallery_frame()``, computed once per server (a few seconds). Shared
    read-only: st.cache_data would unpickle a copy of its few hundred rows on every rerun."""
    return gallery.gallery_frame()


@st.cache_resource(show_spinner=False)
def summary_table() -> pd.DataFrame:
    """:func:`summary` of the gallery, once per server (shared read-only, so its table is also
    converted for the browser once: ``readout.show_frame``)."""
    return summary(gallery_frame())


def summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows per paper and status (a count of the gallery's rows)."""
    counts = frame.groupby(["paper", "status"]).size().unstack(fill_value=0)
    counts = counts.reindex(index=[p for p in gallery.PAPERS if p in counts.index],
                            columns=list(gallery.STATUSES), fill_value=0)
    counts.index = [gallery.PAPERS[p].split(",")[0].split(" (")[0] + " " + p[-4:] for p in counts.index]
    counts.columns = [f"{STATUS_MARK[s].split(' ')[0]} {s}" for s in counts.columns]
    return counts


def _escape(text) -> str:
    """Cells of ``st.table`` are Markdown: keep *, _, `, $ … literal (Yes*, J'_n …)."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return "—"
    return escape_markdown(text)


def common_note(rows: pd.DataFrame) -> str:
    """The note every row of a section shares (shown once above its table), else ""."""
    notes = set(rows["note"])
    return notes.pop() if len(notes) == 1 else ""


def section_table(rows: pd.DataFrame) -> pd.DataFrame:
    """One section's rows for ``st.table``: status mark, item, printed, computed and why (the
    explanation, or how the number was obtained when that is not the section's common note)."""
    shared = common_note(rows)
    why = [r.explanation or (r.note if r.note != shared else "") for r in rows.itertuples(index=False)]
    return pd.DataFrame({
        "mark": [STATUS_CELL[s] for s in rows["status"]],
        "item": [_escape(x) for x in rows["item"]],
        "printed": [_escape(x) for x in rows["printed"]],
        "computed": [_escape(x) for x in rows["computed"]],
        "why": [_escape(x) if x else "" for x in why],
    }).rename(columns=TABLE_COLUMNS)


def _target(link: dict) -> tuple[str, dict]:
    """(page script, query parameters) of a gallery link; a table no preset holds travels in
    the Table lab's ``table`` parameter."""
    params = dict(link.get("params") or {})
    if "table" in link:
        spec = link["table"]
        frame = pd.DataFrame(spec["cells"], index=spec["classes"], columns=spec["clusters"])
        text = encode_table(frame)
        if text is not None:
            params["table"] = text
    return PAGE_SCRIPTS[link["page"]], params


def _targets(link: dict | None) -> tuple[tuple[str, dict, str], ...]:
    """(page script, query parameters, label) of a link and of each of its fallbacks, in order."""
    out = []
    while link is not None:
        page, params = _target(link)
        out.append((page, params, link["label"]))
        link = link.get("fallback")
    return tuple(out)


def show_link(link: dict | None, targets: tuple[tuple[str, dict, str], ...] | None = None) -> None:
    """A page link to where the entry is explored; its fallback while that page is not part of
    the app (e.g. a page another part of the app adds later). ``targets``: :func:`_targets` of
    the link, when already computed."""
    for page, params, label in (targets if targets is not None else _targets(link)):
        try:
            # A link that determines the target page's state (ui/state.py).
            page_link(page, label, params, icon=":material/open_in_new:")
            return
        except StreamlitAPIException:
            continue


def _link_key(link: dict | None) -> str:
    if link is None:
        return ""
    return repr((link["page"], sorted((k, str(v)) for k, v in (link.get("params") or {}).items()),
                 link["label"], str(link.get("table"))))


@dataclass(frozen=True)
class Section:
    """One section of a paper as the page shows it: title, shared note, table, links.

    ``table`` is the Arrow table ``st.table`` would make of :func:`section_table`'s frame (the
    same bytes are sent): converted once per server instead of on every rerun, where the
    conversion was about a third of what a rerun of the page cost."""

    title: str
    note: str
    table: pa.Table
    links: tuple[tuple[tuple[str, dict, str], ...], ...]  # each link's _targets


@st.cache_resource(show_spinner=False, max_entries=64)
def paper_sections(paper: str, only_open: bool) -> tuple[Section, ...]:
    """The sections of one paper (only the rows that do not agree, with ``only_open``), built
    once per server: the same for every session, and the page's slowest part to build (a
    DataFrame per section). Shared read-only: ``st.table`` only reads its table."""
    frame = gallery_frame()
    if only_open:
        frame = frame[frame["status"] != "agrees"]
    out = []
    for section, block in frame[frame["paper"] == paper].groupby("section", sort=False):
        links: dict[str, dict] = {}
        for link in block["link"]:
            if link is not None:
                links.setdefault(_link_key(link), link)
        table = dataframe_util.convert_pandas_df_to_arrow_table(section_table(block.reset_index(drop=True)))
        out.append(Section(section, common_note(block), table,
                           tuple(_targets(link) for link in links.values())))
    return tuple(out)


def show_paper(paper: str, only_open: bool = False) -> None:
    """One paper: its sections in order, each a table and the links of its entries."""
    for sec in paper_sections(paper, only_open):
        st.markdown(f"**{sec.title}**")
        if sec.note:
            st.caption(sec.note)
        st.table(sec.table, hide_index=True)
        if sec.links:
            cols = st.columns(min(len(sec.links), 3))
            for i, targets in enumerate(sec.links):
                with cols[i % len(cols)]:
                    show_link(None, targets)
