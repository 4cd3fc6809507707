"""The Glossary: every measure of the registry (symbol, name, formula, range, direction,
reference, description — ``metrics.MEASURES``, the one source) and every other symbol the app
shows (:mod:`dashboard.glossary.symbols`), filtered by a search and drawn on the page.
"""

from __future__ import annotations

import re

import streamlit as st

import metrics
from dashboard.glossary.symbols import SYMBOLS, Symbol
from dashboard.ui.readout import escape_markdown


def _folded(text: str) -> str:
    # Search ignores case, spaces and the marks of sub- and superscripts: "vbeta", "V_β", "v β" match.
    text = text.lower().replace("β", "beta").replace("γ", "gamma").replace("ε", "epsilon").replace("³", "3")
    return re.sub(r"[\s_^{}\\'’.,;:()|\-−]", "", text)


def _matches(query: str, *texts: str) -> bool:
    q = _folded(query)
    return not q or any(q in _folded(t) for t in texts)


def measure_matches(m, query: str) -> bool:
    """Whether measure ``m`` answers ``query`` (its symbol, name, key, family, description or reference)."""
    return _matches(query, m.symbol, m.name, m.key, m.family, metrics.FAMILIES[m.family], m.description,
                    m.reference)


def measures_for(query: str) -> list[str]:
    """Keys of the measures that answer ``query``, in registry order (all for an empty query)."""
    return [k for k, m in metrics.MEASURES.items() if measure_matches(m, query)]


def symbols_for(query: str) -> list[Symbol]:
    """The other symbols that answer ``query`` (their text, meaning or section)."""
    return [s for s in SYMBOLS if _matches(query, s.text, s.meaning, s.group)]


def show_measure(key: str) -> None:
    """One measure's entry: symbol and name, its formula (LaTeX), range (and the registry's note on
    it), direction, family, reference and description — all from the registry."""
    m = metrics.MEASURES[key]
    st.markdown(f"#### {escape_markdown(m.symbol)} — {escape_markdown(m.name)}")
    st.latex(m.formula)
    better = "higher is better ↑" if m.higher_is_better else "lower is better ↓"
    st.markdown(f"{escape_markdown(m.description)}  \n"
                f"**Range** {escape_markdown(m.range_text)} · **{better}** · "
                f"**Family** {escape_markdown(metrics.FAMILIES[m.family])} · key `{m.key}`  \n"
                f"*{escape_markdown(m.reference)}*")
    if m.range_note:
        st.caption(f"On the range: {escape_markdown(m.range_note)}")


def show_symbols(symbols: list[Symbol]) -> None:
    """The other symbols, section by section, each with its definition (LaTeX) and meaning."""
    for group in dict.fromkeys(s.group for s in symbols):
        st.markdown(f"**{escape_markdown(group)}**")
        for s in (s for s in symbols if s.group == group):
            st.latex(s.latex)
            st.caption(f"{escape_markdown(s.text)}: {escape_markdown(s.meaning)}")
