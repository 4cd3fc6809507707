"""Controls every page shares, drawn in the sidebar by each page (``shared_controls()``).

They are bound to the URL (``?log=bits&beta=2``), so they survive page switches and links.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import streamlit as st

UNITS = {"nats": math.e, "bits": 2.0}


@dataclass(frozen=True)
class Settings:
    log_base: float
    beta: float
    unit: str


def shared_controls() -> Settings:
    """The unit of information (log base) and β of V_β, from the sidebar."""
    with st.sidebar:
        st.subheader("Measure settings")
        unit = st.radio("Unit of information", list(UNITS), key="log", bind="query-params", horizontal=True,
                        help="Log base of the unnormalized information measures (VI, NVI, I, H(C|K), Q0): "
                             "e for nats, 2 for bits. Normalized measures do not change.")
        beta = st.slider("β of V_β", 0.1, 5.0, 1.0, 0.1, key="beta", bind="query-params",
                         help="β > 1 weighs completeness more than homogeneity, β < 1 the reverse "
                              "(Rosenberg & Hirschberg 2007, §2).")
    return Settings(log_base=UNITS[unit], beta=float(beta), unit=unit)
