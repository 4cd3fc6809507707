"""Controls every page shares, drawn in the sidebar by each page (``shared_controls()``).

They are bound to the URL (``?log=bits&beta=2``) and are the reader's settings, not a page's: they
survive page switches, links and "Reset this page" (see ``ui/state.py``).

Streamlit keeps a bound widget's value across pages under its key, but the first run of the next
page may draw it with its default (the browser still reports the previous page's widget while the
new page runs), so that page's numbers would come out in nats, β = 1, beside a sidebar showing bits
— until some later rerun. So the values are also kept here and given back on entering a page.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass

import streamlit as st
from streamlit.errors import StreamlitAPIException

from dashboard.ui.state import SETTINGS, entered

_KEPT = "_settings"  # {"log": …, "beta": …} as the reader last set them
_DEFAULTS = {p.name: p.default for p in SETTINGS}  # nats, β = 1
_LOG, _BETA = SETTINGS  # their declarations: the choices and the range a link is checked against
UNITS = dict(zip(_LOG.allowed() or (), (math.e, 2.0)))  # nats, bits


@dataclass(frozen=True)
class Settings:
    log_base: float
    beta: float
    unit: str


def shared_controls() -> Settings:
    """The unit of information (log base) and β of V_β, from the sidebar."""
    ss = st.session_state
    if entered():
        for name, value in ss.get(_KEPT, {}).items():
            ss[name] = value
            # …and into the address bar, which the page switch emptied: a copied URL must carry them.
            if value != _DEFAULTS[name] and name not in st.query_params:
                # Still bound to the previous page's widget (StreamlitAPIException): it follows.
                with contextlib.suppress(StreamlitAPIException):
                    st.query_params[name] = f"{value:g}" if isinstance(value, float) else str(value)
    with st.sidebar:
        st.subheader("Measure settings")
        unit = st.radio("Unit of information", list(UNITS), key="log", bind="query-params", horizontal=True,
                        help="Log base of the unnormalized information measures (VI, NVI, I, H(C|K), Q0): "
                             "e for nats, 2 for bits. Normalized measures do not change.")
        beta = st.slider("β of V_β", _BETA.lo, _BETA.hi, _DEFAULTS["beta"], 0.1, key="beta", bind="query-params",
                         help="β > 1 weighs completeness more than homogeneity, β < 1 the reverse "
                              "(Rosenberg & Hirschberg 2007, §2).")
    ss[_KEPT] = {"log": unit, "beta": beta}
    return Settings(log_base=UNITS[unit], beta=float(beta), unit=unit)
