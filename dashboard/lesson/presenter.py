"""The lesson's presenter view (``lesson?step=N&present=1``) and its keys.

* :func:`presenter_figure` — a copy of a step's figure with every piece of text at least
  :data:`PRESENTER_MIN_PX` and the height of one projector screen beside the narrative.
* :data:`PRESENTER_CSS` — the page without the sidebar, the top bar and the wide margins, the
  narrative in large high-contrast type: the narrative and the chart share one 1280×720 screen.
* :func:`keys_script` — the one piece of client-side code: ←/→ (and, in the presenter view,
  PageUp/PageDown: what a presentation clicker sends) follow the lesson's Back/Next links, and a
  new step opens scrolled to its top. Streamlit has no keyboard API; the script is run by
  ``st.html(..., unsafe_allow_javascript=True)`` (public API) and only clicks the page's own links,
  so each key press is exactly what a click on Back or Next is: one step, one history entry.
"""

from __future__ import annotations

import json
from typing import Any

import plotly.graph_objects as go

from dashboard.lesson import charts as lesson_charts

PRESENTER_MIN_PX = 16  # px: the smallest text a chart shows in the presenter view
PRESENTER_HEIGHT = 560  # px: the chart beside the narrative, below the step's title, on a 720 px screen
# The containers (st.container keys) the keys script looks for: the lesson's Back and Next links,
# and the mark of the presenter view.
BACK_KEY, NEXT_KEY, PRESENT_KEY = "lesson_back", "lesson_next", "lesson_present"
_FONT_KEYS = ("font", "tickfont", "textfont", "titlefont", "insidetextfont", "outsidetextfont")


def _raise_fonts(node: Any, px: int) -> Any:
    """``node`` (a figure's JSON) with every font's size at least ``px``; arrays of sizes element-wise."""
    if isinstance(node, list):
        return [_raise_fonts(x, px) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    if isinstance(node.get("title"), dict) and "font" not in node["title"]:
        node = {**node, "title": {**node["title"], "font": {}}}  # else the theme's default size (14 px)
    for key, value in node.items():
        if key in _FONT_KEYS and isinstance(value, dict):
            value = dict(value)
            size = value.get("size")
            if isinstance(size, list):
                value["size"] = [max(float(s or px), px) for s in size]
            else:
                value["size"] = max(float(size or px), px)
            out[key] = _raise_fonts(value, px)
        else:
            out[key] = _raise_fonts(value, px)
    return out


def presenter_figure(fig: go.Figure, height: int = PRESENTER_HEIGHT) -> go.Figure:
    """A copy of ``fig`` for the presenter view: the lesson's projector sizes
    (:func:`lesson_charts.readable`), then every font — figure, legend, hover, axes' ticks and
    titles, annotations, text on marks — raised to at least :data:`PRESENTER_MIN_PX`, at
    ``height``. ``fig`` itself is not changed (cached figures are shared)."""
    spec = lesson_charts.readable(fig, height=height).to_plotly_json()
    layout = spec.get("layout", {})
    # Axes and the figure get explicit fonts, so that Streamlit's theme sets none smaller.
    layout.setdefault("font", {})
    for name in list(layout):
        if name.startswith(("xaxis", "yaxis")) and isinstance(layout[name], dict):
            layout[name].setdefault("tickfont", {})
            title = layout[name].get("title")  # a title the theme may fill in gets the size too
            layout[name]["title"] = {"text": title} if isinstance(title, str) else dict(title or {})
    return go.Figure(_raise_fonts(spec, PRESENTER_MIN_PX))


PRESENTER_CSS = """<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"] { display: none; }
[data-testid="stMainBlockContainer"] { padding: 0.6rem 1.5rem 0.5rem 1.5rem; max-width: 100%; }
.st-key-lesson_story p, .st-key-lesson_story li { font-size: 1.15rem; line-height: 1.45; color: #000; }
.st-key-lesson_story h2 { font-size: 1.6rem; padding-top: 0; }
</style>"""


def keys_script(step: int, present: bool) -> str:
    """The script (for ``st.html(..., unsafe_allow_javascript=True)``) that installs the lesson's
    keys once per browser tab and scrolls the page to its top when ``step`` is new.

    The handler acts only while the lesson's Back/Next links are on the page, never while the
    reader types or moves a widget (inputs, sliders, radio buttons, menus keep their arrow keys),
    and never with a modifier key (the browser's own shortcuts). PageUp/PageDown act only in the
    presenter view: elsewhere they scroll the page.
    """
    keys = {"back": BACK_KEY, "next": NEXT_KEY, "present": PRESENT_KEY}
    return f"""<script>
(() => {{
  const w = window, doc = document, keys = {json.dumps(keys)};
  if (!w.__partitionLabLessonKeys) {{
    w.__partitionLabLessonKeys = true;
    doc.addEventListener('keydown', (e) => {{
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      const t = e.target;
      if (t && t.closest && t.closest('input, textarea, select, [contenteditable="true"], [role="slider"], '
          + '[role="radiogroup"], [role="radio"], [role="listbox"], [role="combobox"], [role="option"]')) return;
      const present = !!doc.querySelector('.st-key-' + keys.present);
      let which = null;
      if (e.key === 'ArrowRight' || (present && e.key === 'PageDown')) which = keys.next;
      else if (e.key === 'ArrowLeft' || (present && e.key === 'PageUp')) which = keys.back;
      if (!which) return;
      const link = doc.querySelector('.st-key-' + which + ' a[href]:not([disabled])');
      if (!link) return;
      e.preventDefault();
      link.click();
    }}, true);
  }}
  const step = {json.dumps(str(step))};
  if (w.__partitionLabLessonStep !== step) {{
    w.__partitionLabLessonStep = step;
    for (const el of doc.querySelectorAll('[data-testid="stMain"], [data-testid="stAppViewContainer"]')) {{
      el.scrollTo(0, 0);
    }}
    w.scrollTo(0, 0);
  }}
}})();
</script>"""
