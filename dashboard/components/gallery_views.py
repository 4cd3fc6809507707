"""The Paper gallery's views: the rows of ``metrics.gallery`` (every printed number beside the
one ``metrics`` computes), one section per paper, each entry with a link to the page that
explores it. This module only displays: the agreement, the explanations and the links are
``metrics.gallery``'s.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitAPIException

from metrics import gallery

from .readout import escape_markdown
from .state import page_link
from .tables import encode_table

# metrics.gallery names pages by URL path; these are their scripts (relative to app.py).
PAGE_SCRIPTS = {
    "table_lab": "app_pages/table_lab.py",
    "compare": "app_pages/compare.py",
    "generator_lab": "app_pages/generator_lab.py",
    "property_checker": "app_pages/property_checker.py",
    "fuzzy_lab": "app_pages/fuzzy_lab.py",
    "real_data": "app_pages/real_data.py",
}
STATUS_MARK = {"agrees": "✓", "truncated": "≈ truncated", "differs": "✗", "not recomputable": "—"}
# Markdown colour directives (cells of st.table are Markdown): a Styler would cost ~0.1 s per table.
STATUS_CELL = {"agrees": ":green[**✓**]", "truncated": ":orange[**≈** truncated]", "differs": ":red[**✗**]",
               "not recomputable": ":gray[—]"}
TABLE_COLUMNS = {"mark": " ", "item": "Item", "printed": "Printed", "computed": "Computed", "why": "Why / how"}


@st.cache_data(show_spinner=False)
def gallery_frame() -> pd.DataFrame:
    """``metrics.gallery.gallery_frame()``, computed once per server (a few seconds)."""
    return gallery.gallery_frame()


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


def show_link(link: dict | None) -> None:
    """A page link to where the entry is explored; its fallback while that page is not part of
    the app (e.g. a page another part of the app adds later)."""
    while link is not None:
        page, params = _target(link)
        try:
            # A link that determines the target page's state (components/state.py).
            page_link(page, link["label"], params, icon=":material/open_in_new:")
            return
        except StreamlitAPIException:
            link = link.get("fallback")


def _link_key(link: dict | None) -> str:
    if link is None:
        return ""
    return repr((link["page"], sorted((k, str(v)) for k, v in (link.get("params") or {}).items()),
                 link["label"], str(link.get("table"))))


def show_paper(frame: pd.DataFrame, paper: str) -> None:
    """One paper: its sections in order, each a table and the links of its entries."""
    rows = frame[frame["paper"] == paper]
    for section, block in rows.groupby("section", sort=False):
        st.markdown(f"**{section}**")
        if common_note(block):
            st.caption(common_note(block))
        st.table(section_table(block.reset_index(drop=True)), hide_index=True)
        links = {}
        for link in block["link"]:
            if link is not None:
                links.setdefault(_link_key(link), link)
        if links:
            cols = st.columns(min(len(links), 3))
            for i, link in enumerate(links.values()):
                with cols[i % len(cols)]:
                    show_link(link)
