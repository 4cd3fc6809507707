"""Page state: every page is a function of its declared parameters, and a link sets all of them.

The rule (for readers of the app and for authors of pages)
----------------------------------------------------------
A page declares its state once, at its top, before any widget::

    page_state("compare",
               Param("a", "rr_singletons", what="table"), Param("b", "rr_solution_r", what="table"),
               Param("m", ["v_measure", "nvi"], options=metrics.MEASURES, what="measure"),
               Param("noise", 3, bound=True),
               clear=("a_upload_", "b_upload_"))

A parameter is a name (its URL key and its widget key), a default, and — for a choice — the
allowed values. ``bound=True`` marks a widget drawn with ``bind="query-params"`` (sliders, toggles,
number inputs, tabs: Streamlit keeps it and the URL in step); the others are keyed options synced by
:func:`url_state` before and :func:`url_commit` after the widget (they write stable keys such as
``wu_table3_I`` into the URL, where a bound widget would write its label). ``clear`` names session
keys (exact, or prefixes ending in ``_``) that hold state derived from the page's parameters — an
edited table, an upload's widgets — and go with them.

How a page is entered decides where its state comes from:

* **A link** fully determines the page. A URL that names any of the page's own parameters when the
  page is entered is a link; so is one that carries the link mark (``link=1``), which the app's
  links that name nothing of their page add (:func:`link_params`, :func:`page_link`: Home's
  "Compare" card, the gallery's links to a page's defaults). Each parameter the link names takes
  the link's value, **every other one its default**, and the page's derived session state is
  dropped: nothing of an earlier visit survives.
* **The sidebar's settings** (``log``, ``beta``: the unit of information and β) are the reader's,
  not a page's: they stay as set across pages, links and resets. Links the app makes carry them, so
  a link copied from the app reproduces them in a new browser. (Streamlit itself keeps a bound
  widget's value across pages, and on a page switch ignores a URL value bound on another page, so
  an in-app link could not change them anyway.)
* **A return** — the sidebar's navigation, which names none of the page's parameters — brings the
  page back as the user left it in this session, and writes that state into the address bar.
* **While on a page** the widgets own the state and the URL follows them, so the address bar can be
  copied at any moment: opened in a new browser it reproduces the page (a fresh session treats
  every address as a link).
* **"Reset this page"** (in the sidebar of every page) returns the page's own parameters to their
  defaults and drops them from the URL; other pages, and the sidebar's settings, keep theirs.

For page authors:

1. Call :func:`page_state` first, before ``shared_controls()`` and any widget; declare every widget
   whose value a link may set or the URL should carry (bound widgets with their default, keyed
   options with default and allowed values), and the session keys derived from them in ``clear``.
2. Draw bound widgets with ``key=<name>, bind="query-params"``; keyed options as
   ``url_state(name)`` / widget without a default / ``url_commit(name)``.
3. Make links with :func:`page_link` (or ``st.page_link(..., query_params=link_params(params))``).
   A link to the page it is on must carry the mark (``link_params(..., same_page=True)``;
   :func:`page_link` sees it): the browser keeps its widgets' values over a same-page link's URL,
   and only the mark makes the page replace them.
4. No ``st.stop()`` above a widget (see below); end that part of the page with an ``if`` instead.
5. Tabs a link may open: ``st.tabs(labels, key=<name>, bind="query-params")``, declared with the
   first label as default; ``if tab.open:`` runs only the open one.

One history entry per link
--------------------------
A link from another page costs the browser's history one entry, and one Back returns to the page
it was on, only if the run that opens the page leaves the address as the link wrote it.
Streamlit's browser side adds an entry for every change of the address a run makes, and one made
early in the run may be written under the path of the page the browser still shows (the link's
own page) before the new page's path. So on arrival the address is not touched: the link mark
stays (:func:`enter`; it counts on arrival only), a value the link names at its default stays
until a control moves (:func:`url_commit` leaves a default the address already names, and does
not add a value the page decided, e.g. the first cluster of the table the link named), and a page
that writes its own parameters (the lesson's ``step``) writes them on arrival only where the
address does not say them yet. (A bound widget's default that a link names leaves Streamlit's
server copy of the address without a message to the browser: no entry either.)

Links are validated before any widget sees them
------------------------------------------------
Every parameter a page declares (and the sidebar's settings) is checked by its :class:`Param`
on every run, before the first widget: the type of its default (a whole number, a number, a
switch, a pair), a finite value within ``lo``/``hi``, one of the choices of a bound widget's
``options``, at most ``max_len`` characters without control characters, and for ``table=True``
the JSON form of a table (``{classes, clusters, cells}``, finite cells ≥ 0, at most
``tables.MAX_URL_CELLS`` cells). A value that fails is taken out of the URL — and out of
Streamlit's copy of the URL it seeds bound widgets from, which would otherwise hand it to the
widget (``inf`` for a whole number raised OverflowError inside Streamlit) — so the parameter
takes its default, and the page shows a note naming the parameter ("The link's value for
``ch_seed`` was not valid …"). Whether a keyed option's value is one of its choices is left to
:func:`url_state`, whose warning names the unknown value.

Keyed options are (re)assigned through ``st.session_state`` on every run, not only when missing:
a widget drawn without a default shows the server's value only when it is assigned, and the
browser drops a widget that one run did not draw (for example a run that ended in ``st.stop()``,
which skips Streamlit's widget clean-up) while the server still holds its value — the widget then
came back empty or on its first option. Pages avoid ``st.stop()`` above widgets for the same reason
(bound widgets have no such repair).
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st
from streamlit.runtime.state.session_state_proxy import get_session_state

from dashboard.ui.safe_text import md
from dashboard.ui.tables import MAX_URL_CELLS
from metrics.core.limits import MAX_TOTAL

_WRITTEN = "_url_written"    # name → the URL value this session last wrote
_SHADOW = "_page_state"      # name → the kept value of a keyed option (survives page switches)
_PAGE = "_state_page"        # the page the last full run drew (dashboard/app.py → enter)
_ENTRY = "_state_entry"      # how that run entered it: {"arriving": bool, "marked": bool}
_ENTERED = "_state_entered"  # whether the last full run entered its page (not consumed, unlike _ENTRY)
_DECLARED_PAGE = "_state_declared"  # the page whose declaration url_state/url_commit consult
LINK_MARK = "link"           # the URL parameter that marks a link to a page that names nothing of it
_MARK_KEPT = "_state_mark_kept"  # whether the address still holds the mark its page was entered with
_DECIDED = "_state_decided"  # name → the value the page decided for a link that named none (not in the URL)
MAX_TEXT = 200               # characters of one URL value (a name, a choice) unless a Param says more
MAX_TABLE_TEXT = 20_000      # characters of a table in a URL (400 cells with names)
MAX_VALUES = 100             # values of a repeated parameter (?m=a&m=b…)
MAX_NAME = 100               # characters of a class or cluster name in a table


@dataclass(frozen=True)
class Param:
    """One parameter of a page's state.

    ``default`` is the value a link that does not name the parameter gives it (None: decided by
    the page when it draws the widget, e.g. the first cluster of the chosen table). ``options``
    are the allowed values of a keyed option (a mapping's keys, or a callable returning them)
    or of a bound widget with choices (tabs, select sliders); ``what`` names the parameter in a
    warning about an unknown value in a link. ``lo`` and ``hi`` bound a number (the widget's
    min and max), ``max_len`` the characters of a text value, ``table=True`` marks a table in
    the URL (see "Links are validated" above).
    """

    name: str
    default: Any = None
    options: Iterable | Callable[[], Iterable] | None = None
    bound: bool = False
    what: str = "value"
    lo: float | None = None
    hi: float | None = None
    max_len: int = MAX_TEXT
    table: bool = False

    @property
    def multi(self) -> bool:
        return not self.bound and isinstance(self.default, (list, tuple))

    def allowed(self) -> list | None:
        if self.options is None:
            return None
        return list(self.options() if callable(self.options) else self.options)

    def problem(self, raw: list[str]) -> str | None:
        """Why the URL's values ``raw`` are not valid for this parameter, in words that quote none
        of them (None: valid)."""
        if not raw:
            return None
        # A keyed option may repeat (a choice of several); a bound widget holds one value or a pair.
        if len(raw) > (MAX_VALUES if not self.bound or isinstance(self.default, (list, tuple)) else 1):
            return "too many values"
        limit = MAX_TABLE_TEXT if self.table else self.max_len
        for text in raw:
            if len(text) > limit:
                return f"longer than {limit:,} characters"
            if _has_control(text):
                return "a control character"
        if self.table:
            return _table_problem(raw[-1])
        if not self.bound:
            return None  # a keyed option's choices: url_state warns about unknown ones
        return self._widget_problem(raw)

    def _widget_problem(self, raw: list[str]) -> str | None:
        d = self.default
        if isinstance(d, bool):
            return None if raw[-1].lower() in ("true", "false") else "not true or false"
        if isinstance(d, (list, tuple)):
            if len(raw) != len(d):
                return f"not {len(d)} values"
            values = []
            for text in raw:
                reason, v = self._number(text, all(isinstance(x, int) for x in d))
                if reason:
                    return reason
                values.append(v)
            return None if values == sorted(values) else "not in increasing order"
        allowed = self.allowed()
        if isinstance(d, (int, float)):
            reason, v = self._number(raw[-1], isinstance(d, int))
            if reason:
                return reason
            if allowed is not None and v not in [float(a) for a in allowed]:
                return "not one of the choices"
            return None
        if allowed is not None and raw[-1] not in [str(a) for a in allowed]:
            return "not one of the choices"
        return None

    def _number(self, text: str, whole: bool) -> tuple[str | None, float]:
        try:
            v = float(text)
        except ValueError:
            return "not a number", 0.0
        if not math.isfinite(v):
            return "not a finite number", v
        if whole and not v.is_integer():
            return "not a whole number", v
        if self.lo is not None and v < self.lo:
            return f"below {self.lo:g}", v
        if self.hi is not None and v > self.hi:
            return f"above {self.hi:g}", v
        return None, v

    def parse(self, raw: list[str]):
        """The value of a bound widget written as ``raw`` in a URL; the default if it does not parse."""
        d = self.default
        try:
            if isinstance(d, bool):
                return {"true": True, "false": False}[raw[-1].lower()]
            if isinstance(d, int):
                return int(float(raw[-1]))
            if isinstance(d, float):
                return float(raw[-1])
            if isinstance(d, (list, tuple)) and d:
                kind = type(d[0])
                return type(d)(kind(float(x)) if kind in (int, float) else kind(x) for x in raw)
            return raw[-1]
        except (KeyError, ValueError, TypeError, IndexError, OverflowError):
            return d


def _has_control(text: str) -> bool:
    return any(unicodedata.category(c) == "Cc" for c in text)


def _table_problem(text: str) -> str | None:
    """Why ``text`` is not a table in the URL form of ``tables.encode_table`` (None: it is)."""
    shape = "not a table of the form {classes, clusters, cells}"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return shape
    if not isinstance(data, dict) or set(data) != {"classes", "clusters", "cells"}:
        return shape
    classes, clusters, cells = data["classes"], data["clusters"], data["cells"]
    if not (isinstance(classes, list) and isinstance(clusters, list) and classes and clusters):
        return shape
    if len(classes) * len(clusters) > MAX_URL_CELLS:
        return f"a table of more than {MAX_URL_CELLS} cells"
    for name in classes + clusters:
        if not isinstance(name, str) or len(name) > MAX_NAME or _has_control(name):
            return f"a class or cluster name that is not a text of at most {MAX_NAME} characters"
    if not (isinstance(cells, list) and len(cells) == len(classes)
            and all(isinstance(r, list) and len(r) == len(clusters) for r in cells)):
        return "not one row of cells per class and one cell per cluster"
    total = 0.0
    for row in cells:
        for x in row:
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or x < 0:
                return "a cell that is not a finite count ≥ 0"
            total += float(x)
    if total >= MAX_TOTAL:
        return "more than 2^62 items"
    return None


# The sidebar's settings (components.controls.shared_controls): the reader's, carried by links.
SETTINGS = (Param("log", "nats", bound=True, options=("nats", "bits")), Param("beta", 1.0, bound=True, lo=0.1, hi=5.0))


@dataclass(frozen=True)
class PageState:
    """A page's declaration: its own parameters and the derived session keys to clear with them."""

    page: str
    params: tuple[Param, ...]
    clear: tuple[str, ...] = ()

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params + SETTINGS if p.name == name), None)


#: Every declared page, by name (filled as pages run; the tests read it).
DECLARED: dict[str, PageState] = {}


# ---------------------------------------------------------------- entering and declaring a page
def enter(page: str) -> None:
    """Note which page this full run draws (``dashboard/app.py`` calls it before running the page).

    Pages that declare their state read it in :func:`page_state`; doing it here, for every page,
    means a page without a declaration (or a run stopped early) cannot hide an arrival.

    The link mark is read, never removed, on arrival: any change of the address the arrival's run
    makes is a second history entry (see "One history entry per link" above). Left in the address,
    it is no link on the page's later runs (:data:`_MARK_KEPT`); a same-page link's mark, which
    only the mark tells from a rerun, is taken out as before.
    """
    ss = st.session_state
    arriving = ss.get(_PAGE) != page
    has_mark = LINK_MARK in st.query_params
    if arriving:
        ss[_MARK_KEPT] = has_mark
        marked = has_mark
    else:
        marked = has_mark and not ss.get(_MARK_KEPT)
        if marked:
            del st.query_params[LINK_MARK]
        elif not has_mark:
            ss[_MARK_KEPT] = False
    ss[_ENTRY] = {"arriving": arriving, "marked": marked}
    ss[_ENTERED] = arriving
    ss[_PAGE] = page
    ss[_DECLARED_PAGE] = None


def page_state(page: str, *params: Param, clear: Iterable[str] = ()) -> PageState:
    """Declare the page's state and apply the rule above; call it first on the page.

    Also draws the sidebar's "Reset this page" button.
    """
    decl = PageState(page, tuple(params), tuple(clear))
    DECLARED[page] = decl
    _validate_link(decl)
    ss = st.session_state
    entry = ss.get(_ENTRY) or {"arriving": True, "marked": False}
    ss[_ENTRY] = {"arriving": False, "marked": False}  # consumed: a fragment rerun is no arrival
    ss[_DECLARED_PAGE] = page
    named = any(p.name in st.query_params for p in decl.params)
    if entry["marked"] or (entry["arriving"] and named):
        _open_link(decl, same_page=not entry["arriving"])
        ss[_DECIDED] = {}
    elif entry["arriving"]:
        ss.pop(_DECIDED, None)  # a return writes the state it brings back
    # (otherwise a return, or a rerun on the page: the widgets and the kept values hold the state)
    _reset_button(decl)
    return decl


def _is_default(p: Param, raw: list[str]) -> bool:
    """Whether the URL's values ``raw`` of ``p`` say what leaving it out says (its default)."""
    d = p.default
    if d is None or not raw:
        return False
    if p.bound:
        return p.problem(raw) is None and p.parse(raw) == d
    if isinstance(d, bool):
        return len(raw) == 1 and raw[0].lower() == str(d).lower()
    if isinstance(d, (list, tuple)):
        return raw == [str(x) for x in d]
    return raw == [str(d)]


def _validate_link(decl: PageState) -> None:
    """Every declared parameter the URL names, checked by its Param before any widget is drawn;
    an invalid one goes (see "Links are validated" above), with a note naming it."""
    bad = []
    for p in decl.params + SETTINGS:
        if p.name in st.query_params:
            reason = p.problem(st.query_params.get_all(p.name))
            if reason:
                bad.append(f"`{p.name}` ({reason})")
                _forget_url_value(p.name)
    if bad:
        many = len(bad) > 1
        st.warning(f"The link's value{'s' if many else ''} for {', '.join(bad)} {'were' if many else 'was'} not "
                   f"valid; showing the default{'s' if many else ''}.", icon=":material/link_off:")


def _forget_url_value(name: str) -> None:
    """Take ``name`` out of the URL and out of Streamlit's copy of the URL at the start of the run,
    from which a bound widget drawn for the first time takes its value (Streamlit offers no public
    call for the second; without it the widget would still receive the invalid value)."""
    with get_session_state().query_params() as qp:
        qp.remove_param(name)
        initial = getattr(qp, "_initial_query_params", None)
        if isinstance(initial, dict):
            initial.pop(name, None)
    st.session_state.get(_WRITTEN, {}).pop(name, None)


def entered() -> bool:
    """Whether this full run entered its page (from another page, or a new session)."""
    return bool(st.session_state.get(_ENTERED, True))


def _declared(name: str) -> Param | None:
    decl = DECLARED.get(st.session_state.get(_DECLARED_PAGE, ""))
    return decl.param(name) if decl else None


def _drop_derived(decl: PageState) -> None:
    ss = st.session_state
    for key in list(ss.keys()):
        if any(key == c or (c.endswith("_") and str(key).startswith(c)) for c in decl.clear):
            del ss[key]


def _open_link(decl: PageState, same_page: bool) -> None:
    """The URL is the whole state: forget what this session kept for every parameter."""
    ss = st.session_state
    shadow, written = ss.setdefault(_SHADOW, {}), ss.setdefault(_WRITTEN, {})
    for p in decl.params:
        shadow.pop(p.name, None)
        written.pop(p.name, None)
        if p.bound and same_page:
            # The browser still shows this page's widgets and sends their values with the link's
            # rerun; an assignment is the only thing that outranks them.
            raw = st.query_params.get_all(p.name)
            ss[p.name] = p.parse(raw) if raw else p.default
        elif p.name in ss:
            # Entering the page, a widget is drawn afresh: without a kept value a bound widget
            # takes the URL's value (Streamlit seeds it) or its default, and url_state the same.
            del ss[p.name]
    _drop_derived(decl)


# ---------------------------------------------------------------- reset
def reset_page(page: str) -> None:
    """Every own parameter of ``page`` back to its default, out of the URL; derived state dropped.

    A callback (of the Reset button): bound widgets are assigned their default — deleting them
    would leave the browser showing the old value — and keyed options are forgotten, so that
    :func:`url_state` assigns their default on the rerun.
    """
    decl = DECLARED[page]
    ss = st.session_state
    shadow, written = ss.setdefault(_SHADOW, {}), ss.setdefault(_WRITTEN, {})
    for p in decl.params:
        shadow.pop(p.name, None)
        written.pop(p.name, None)
        if p.bound:
            ss[p.name] = p.default
        else:
            if p.name in ss:
                del ss[p.name]
            if p.name in st.query_params:
                del st.query_params[p.name]
    _drop_derived(decl)


def _reset_button(decl: PageState) -> None:
    with st.sidebar:
        st.button("Reset this page", key=f"reset_{decl.page}", icon=":material/restart_alt:",
                  on_click=reset_page, args=(decl.page,), disabled=not decl.params, width="stretch",
                  help="Every control of this page back to its default (the URL's parameters go too). "
                       "Other pages and the measure settings below keep theirs.")


# ---------------------------------------------------------------- links
def link_params(params: Mapping[str, Any] | None = None, same_page: bool = False) -> dict[str, Any]:
    """The query parameters of a link the app makes: ``params``, the sidebar's current settings
    (where not at their defaults and not named), and — for a link that names nothing of its page,
    or one to the page it is on (``same_page``) — the mark that makes the target page open in
    exactly this state: what the link does not name takes its default. A link that names any of
    its page's parameters needs no mark: arriving with them is a link (:func:`page_state`)."""
    named = dict(params or {})
    out = dict(named)
    ss = st.session_state
    for p in SETTINGS:
        value = ss.get(p.name, p.default)
        if p.name not in out and value != p.default:
            out[p.name] = f"{value:g}" if isinstance(value, float) else str(value)
    if same_page or not {k for k in named if k not in {s.name for s in SETTINGS}}:
        out[LINK_MARK] = "1"
    return out


# The app's pages by script path ("app_pages/analyse/compare.py"), from dashboard/app.py's st.navigation.
# st.page_link given a path resolves it on every call (the working directory, realpath, a scan of
# the pages): about a third of what a link costs, and the gallery draws thirty links per rerun.
# Given the st.Page it skips all that. The same for every session: a page's object is only read.
_PAGES: dict[str, st.Page] = {}


def app_page(script: str, **kwargs) -> st.Page:
    """``st.Page(script, **kwargs)``, also the target of :func:`page_link`'s links to ``script``."""
    _PAGES[script] = page = st.Page(script, **kwargs)
    return page


def page_link(page: str, label: str, params: Mapping[str, Any] | None = None, **kwargs) -> None:
    """``st.page_link`` to ``page`` as a link that determines its state (see :func:`link_params`)."""
    target = _PAGES.get(page, page)
    here = isinstance(target, st.Page) and (target.url_path or "home") == st.session_state.get(_PAGE)
    st.page_link(target, label=label, query_params=link_params(params, same_page=here), **kwargs)


# ---------------------------------------------------------------- keyed options (the URL by hand)
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


_UNSET = object()


def url_state(name: str, options: Iterable | None = None, default=_UNSET, what: str | None = None,
              multi: bool | None = None) -> None:
    """Prepare the state of the widget keyed ``name`` (call before drawing it, and draw it
    without a default): the URL's value when it is new (a link, the back button), else the
    widget's own value, else its kept value, else the default. Arguments left out come from the
    page's declaration (:func:`page_state`).

    The value is assigned on every run (see the module's note), so the browser always shows it.
    Unknown values in the URL get a warning naming them (a link to a preset that does not exist).
    """
    p = _declared(name)
    if options is None:
        options = p.allowed() if p else None
    if default is _UNSET:
        default = p.default if p else None
    what = what or (p.what if p else "value")
    multi = (p.multi if p else isinstance(default, (list, tuple))) if multi is None else multi
    ss = st.session_state
    shadow = ss.setdefault(_SHADOW, {})
    value: Any = _UNSET
    if url_is_new(name, multi):
        allowed = list(options) if options is not None else None
        raw = st.query_params.get_all(name) if multi else [st.query_params.get(name)]
        good = [v for v in raw if allowed is None or v in allowed]
        bad = [v for v in raw if allowed is not None and v not in allowed]
        if bad:
            st.warning(f"The link asks for {what} {md(', '.join(repr(b) for b in bad))}, which does not exist"
                       + ("; ignoring it." if good else "; showing the default instead."))
        if good:
            value = good if multi else good[0]
    if value is _UNSET:
        value = ss[name] if name in ss else shadow.get(name, default)
        if options is not None and value is not None:
            # A kept value the options no longer hold (kept from another table, another source):
            # the default, not an error or whatever Streamlit falls back to.
            allowed = list(options)
            if multi:  # (an empty choice stays empty: the page asks for one)
                known = [v for v in value if v in allowed]
                value = known if known or not value else default
            elif value not in allowed:
                value = default
    if value is None:
        return  # nothing to show yet (a default the page decides when it draws the widget)
    ss[name] = list(value) if multi else value


def kept(name: str, default):
    """The value of the page-state widget ``name``, also while it is not drawn (its kept value)."""
    if name in st.session_state:
        return st.session_state[name]
    return st.session_state.get(_SHADOW, {}).get(name, default)


def url_commit(name: str, default=_UNSET) -> None:
    """After the widget: keep its value and write it into the URL (the default is left out)."""
    if default is _UNSET:
        p = _declared(name)
        default = p.default if p else None
    value = st.session_state.get(name)
    st.session_state.setdefault(_SHADOW, {})[name] = value
    decided = st.session_state.get(_DECIDED)
    if default is None and decided is not None and name not in st.query_params and decided.get(name, value) == value:
        # The page decided it (the first cluster of the table a link named) as it opened by that
        # link, which does not name it: a write would be a second history entry. A copy of the
        # address decides the same; written once the reader (or a new decision) changes it.
        decided[name] = value
        return
    text = list(value) if isinstance(value, (list, tuple)) else None if value is None else str(value)
    if value is None or value == default or (isinstance(value, (list, tuple)) and isinstance(default, (list, tuple))
                                             and list(value) == list(default)):
        if text is not None and st.query_params.get_all(name) == (text if isinstance(text, list) else [text]):
            # A default the address bar already names (a link named it) stays: the address says the
            # same, and a write is a history entry ("One history entry per link" above).
            st.session_state.setdefault(_WRITTEN, {})[name] = text
            return
        set_param(name, None)
    else:
        set_param(name, text)
