"""Keeping page state in the URL, so that a link reproduces what someone sees.

Two mechanisms, chosen per widget:

* Numeric widgets and widgets whose options are their own labels use Streamlit's
  ``bind="query-params"`` (the widget key is the parameter name: ``?noise=5&log=bits``).
* Widgets that show labels for keys (a preset's title for ``wu_table3_I``) are synced here
  through ``st.query_params``: a bound widget would write the *label* into the URL, and links
  must carry stable keys. :func:`url_state` runs before the widget, :func:`url_commit` after.

A URL value is applied when it differs from what this session last wrote — it came from a
link, a page link or the back button; otherwise the widget's own state wins. Each value is
also kept in a session shadow, so it survives a page switch (Streamlit drops the state of
widgets that are not drawn) and edits are never lost by navigating away and back.
"""

from __future__ import annotations

from collections.abc import Iterable

import streamlit as st

_WRITTEN = "_url_written"
_SHADOW = "_page_state"


def set_param(name: str, value: str | list[str] | None) -> None:
    """Write ``name=value`` into the URL (a list repeats the parameter), or remove ``name`` when
    ``value`` is None. Writes only on change: every write sends a message to the browser."""
    current = st.query_params.get_all(name) if isinstance(value, list) else st.query_params.get(name)
    if value is None or value == []:
        if name in st.query_params:
            del st.query_params[name]
    elif current != value:
        st.query_params[name] = value
    st.session_state.setdefault(_WRITTEN, {})[name] = None if value == [] else value


def url_is_new(name: str, multi: bool = False) -> bool:
    """Whether the URL holds a value for ``name`` that this session did not write itself."""
    if name not in st.query_params:
        return False
    current = st.query_params.get_all(name) if multi else st.query_params.get(name)
    return current != st.session_state.get(_WRITTEN, {}).get(name)


def url_state(name: str, options: Iterable[str], default, what: str, multi: bool = False) -> None:
    """Prepare the state of the widget keyed ``name`` (call before drawing it, and draw it
    without a default): the URL's value when it is new, else the widget's own or kept value.

    Unknown values in the URL get a warning naming them (a link to a preset that does not exist).
    """
    ss = st.session_state
    shadow = ss.setdefault(_SHADOW, {})
    if url_is_new(name, multi):
        allowed = list(options)
        raw = st.query_params.get_all(name) if multi else [st.query_params.get(name)]
        good = [v for v in raw if v in allowed]
        bad = [v for v in raw if v not in allowed]
        if bad:
            st.warning(f"The link asks for {what} {', '.join(repr(b) for b in bad)}, which does not exist"
                       + ("; ignoring it." if good else "; showing the default instead."))
        if good:
            ss[name] = good if multi else good[0]
            return
    if name not in ss:
        ss[name] = shadow.get(name, default)


def kept(name: str, default):
    """The value of the page-state widget ``name``, also while it is not drawn (its kept value)."""
    if name in st.session_state:
        return st.session_state[name]
    return st.session_state.get(_SHADOW, {}).get(name, default)


def url_commit(name: str, default) -> None:
    """After the widget: keep its value and write it into the URL (the default is left out)."""
    value = st.session_state.get(name)
    st.session_state.setdefault(_SHADOW, {})[name] = value
    if value == default or value is None:
        set_param(name, None)
    else:
        set_param(name, list(value) if isinstance(value, (list, tuple)) else str(value))
