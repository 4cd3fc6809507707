"""User text made inert wherever the app shows it: one helper, :func:`md`.

Text that comes from a user — URL parameters, preset and data names a link asks for, uploaded
file names, cells, column, class and cluster names, solution names — reaches Streamlit's
Markdown in ``st.markdown``, ``st.caption``, ``st.info``/``st.warning``/``st.error``, widget labels,
``st.page_link`` labels, expander titles and radio options. There it must show as written and do
nothing: a link (``table_lab?preset=![x](http://evil.example/x.png)``) made the browser fetch an
image and drew a live link inside the app's own warning.

:func:`md` makes any text inert there, in three ways:

* every ASCII punctuation character is backslash-escaped, as CommonMark allows: no emphasis,
  link, image, code, heading, list, table, HTML (``\\<img\\>``), math (``\\$x\\$``) or Streamlit
  directive (``\\:red\\[x\\]``, ``\\:material/…\\:``);
* an invisible word joiner (U+2060) follows a colon or an at sign that comes right before a name
  or a slash, and precedes the full stop of ``www.``: Streamlit's emoji shortcodes (``:smile:``)
  are looked up in the text after escapes are resolved, where a backslash no longer protects them,
  and so are GFM's ``http://``, ``www.`` and e-mail autolinks (ordinary text — "Solution A: F" —
  gets no joiner);
* line breaks become spaces: the text stays inside the sentence that quotes it (no new
  paragraph, list item or heading can start).

Plotly draws text by its own rules (``<b>``, ``<a href>``): :func:`dashboard.ui.readout.escape_label`.
``st.dataframe`` and ``st.selectbox`` options show plain text and need nothing.
"""

from __future__ import annotations

import re

__all__ = ["md", "shown"]

# CommonMark: "Any ASCII punctuation character may be backslash-escaped".
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_WORD_JOINER = "\u2060"
_ESCAPES = {ord(ch): "\\" + ch for ch in _PUNCTUATION}
_ONE_LINE = {ord("\r"): " ", ord("\n"): " ", 0x0B: " ", 0x0C: " ", 0x85: " ", 0x2028: " ", 0x2029: " "}
# What is matched after escapes are resolved, so that a backslash does not protect it: Streamlit's
# emoji shortcodes (a colon before a name), GFM's autolinks (http://, www., e-mail). A word joiner
# breaks each: after such a colon or at sign, before the full stop of "www.".
_BEFORE_NAME = re.compile(r"([:@])(?=[\w+/-])")
_WWW = re.compile(r"(?i)(www)(?=\.)")


def md(text) -> str:
    """``text`` (anything; ``str()`` of it) as inert Markdown: shown as written, doing nothing.

    >>> md("![x](http://evil.example/x.png) :smile:")
    '\\\\!\\\\[x\\\\]\\\\(http\\\\:\\\\/\\\\/evil\\\\.example\\\\/x\\\\.png\\\\) \\\\:\u2060smile\\\\:'
    """
    text = str(text).translate(_ONE_LINE)
    text = _WWW.sub("\\1" + _WORD_JOINER, _BEFORE_NAME.sub("\\1" + _WORD_JOINER, text))
    return text.translate(_ESCAPES)


def shown(markdown: str) -> str:
    """What Markdown shows for text made with :func:`md`: its escapes resolved, its joiners gone
    (the words a reader sees, for tests and for comparing messages)."""
    out, i = [], 0
    text = markdown.replace(_WORD_JOINER, "")
    while i < len(text):
        escaped = text[i] == "\\" and i + 1 < len(text) and text[i + 1] in _PUNCTUATION
        out.append(text[i + 1] if escaped else text[i])
        i += 2 if escaped else 1
    return "".join(out)
