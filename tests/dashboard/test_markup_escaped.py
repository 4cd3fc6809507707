"""User text never becomes live Markdown: every URL parameter and every upload field, filled with
markup, is shown as written (issue 29's "Markdown injection").

``table_lab?preset=![x](http://evil.example/x.png)`` made the browser fetch the image and drew a
live link inside the app's own "does not exist" warning; link tables' class names, an uploaded
cell in an upload error and a solution's column name in "Open … in Compare" reached Markdown the
same way. Here every page is opened with markup in each of its declared parameters (tables in a
link carry markup in their class and cluster names), and the upload panels get markup in file
names, column names and cells; every piece of text the page sends to Streamlit's Markdown — bodies
of ``st.markdown``/``st.caption``/alerts/headings, widget labels and help, radio options, page-link
labels, progress texts, expander and tab titles — must hold no live markup: the app's one helper
(:func:`dashboard.ui.safe_text.md`) escaped it. Plotly text must hold no raw tag either.
"""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from dashboard import page_scripts
from dashboard.ui.safe_text import md
from dashboard.ui.state import DECLARED
from tests.dashboard.apptest_utils import open_app

MARK = "ZQ"  # every payload carries it: text that holds it came from the user
PAYLOAD = (f"{MARK}![x](http://evil.example/x.png) [a](http://evil.example/a) <img src=x> :red[x] $x$ :smile: "
           "**b** www.evil.example a@evil.example")
# What the payload looks like wherever it is live. Parsed from the Markdown source (a backslash
# escape protects them there) …
LIVE = ("![x]", "](http", "<img", ":red[", "$x$", "**b**")
# … or matched in the text once escapes are resolved (Streamlit's emoji shortcodes, GFM's
# autolinks), where only a word joiner inside them protects them.
LIVE_AFTER_ESCAPES = (":smile:", "http://evil", "www.evil", "a@evil")
_ESCAPED = re.compile(r"\\[!-/:-@\[-`{-~]")


def live_marks(text: str) -> list[str]:
    """The payload's marks that are live in ``text`` (a Markdown source)."""
    bare = _ESCAPED.sub("\x00", text)  # escaped characters set aside: "\\<img" is text, "<img" a tag
    resolved = _ESCAPED.sub(lambda m: m.group(0)[1], text)
    return [p for p in LIVE if p in bare] + [p for p in LIVE_AFTER_ESCAPES if p in resolved]


PAGES = ["home", "lesson", "table_lab", "compare", "solutions", "generator_lab", "property_checker", "fuzzy_lab",
         "real_data", "chance", "gallery"]


def markdown_texts(at: AppTest) -> list[str]:
    """Every string of the page that Streamlit renders as Markdown."""
    out: list[str] = []

    def strings(proto, fields) -> None:
        for name in fields:
            if proto is None or not hasattr(proto, name):
                continue
            value = getattr(proto, name)
            if isinstance(value, str):
                out.append(value)
            elif name == "options":
                out.extend(str(v) for v in value)

    def walk(node) -> None:
        proto = getattr(node, "proto", None)
        kind = getattr(node, "type", "")
        if hasattr(node, "children") and proto is not None:  # a block: expander and tab titles
            for sub in ("expandable", "tab", "popover"):
                if sub in proto.DESCRIPTOR.fields_by_name and proto.HasField(sub):
                    strings(getattr(proto, sub), ("label",))
        elif proto is not None:
            fields = ["body", "label", "help", "text"] + (["options"] if kind == "radio" else [])
            strings(proto, fields)
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return out


def plotly_texts(at: AppTest) -> list[str]:
    return [c.proto.spec for c in at.get("plotly_chart")]


def assert_inert(at: AppTest, *, expect_mark: bool = True) -> None:
    assert not at.exception, [e.value for e in at.exception]
    texts = [t for t in markdown_texts(at) if MARK in t]
    if expect_mark:
        assert texts, "the user's text is shown nowhere: nothing was checked"
    for text in texts:
        live = live_marks(text)
        assert not live, (live, text)
    for spec in plotly_texts(at):
        if MARK in spec:
            assert "<img" not in spec and "<a " not in spec, spec[:300]


# The payload in pieces short enough for a class name a link may carry (100 characters).
PIECES = [f"{MARK}![x](http://evil.example/x.png)", f"{MARK}[a](http://evil.example/a) <img src=x>",
          f"{MARK}:red[x] $x$ :smile: **b**", f"{MARK}www.evil.example a@evil.example"]


def markup_table(classes=PIECES[:2], clusters=PIECES[2:]) -> str:
    """A link's table whose class and cluster names are markup (the form of tables.encode_table)."""
    return json.dumps({"classes": list(classes), "clusters": list(clusters), "cells": [[3, 1], [1, 4]]})


def declared(page: str) -> list:
    """The page's declared parameters (``page_state``), read by running the page once."""
    if page not in DECLARED:
        assert not open_app(page_scripts()[page], 120).exception
    return list(DECLARED[page].params)


# ---------------------------------------------------------------- the helper
@pytest.mark.parametrize("text", [PAYLOAD, "a*b*", "`x`", "line\n\n# h", "1. x", "- x", "|a|b|", "\\*", "&lt;"])
def test_md_leaves_no_mark_and_loses_no_character(text):
    out = md(text)
    assert not live_marks(out)
    assert "\n" not in out and "\r" not in out
    # Unescaped and without the invisible joiners it is the text again (line breaks as spaces).
    plain, shown, i = out.replace("\u2060", ""), [], 0
    while i < len(plain):  # what Markdown shows: each backslash escape resolved
        escaped = plain[i] == "\\" and i + 1 < len(plain)
        shown.append(plain[i + 1] if escaped else plain[i])
        i += 2 if escaped else 1
    assert "".join(shown) == text.replace("\n", " ")


# ---------------------------------------------------------------- every parameter of every page
@pytest.mark.parametrize("page", PAGES)
def test_markup_in_every_parameter_of_a_page_stays_text(page):
    params = {}
    for p in declared(page):
        if getattr(p, "table", False):
            params[p.name] = markup_table()
        elif p.multi:
            params[p.name] = [PAYLOAD, PAYLOAD + "2"]
        else:
            params[p.name] = PAYLOAD
    params.update({"log": PAYLOAD, "beta": PAYLOAD})
    at = open_app(page_scripts()[page], 180, params)
    # Pages without parameters of their own show no user text: nothing to find there.
    assert_inert(at, expect_mark=any(not getattr(p, "bound", False) for p in declared(page)))


@pytest.mark.parametrize("page, params", [
    ("table_lab", {"table": markup_table()}),
    ("table_lab", {"table": markup_table(classes=PIECES[:1] * 2)}),  # a class name twice: refused, quoted
    ("table_lab", {"table": json.dumps({"classes": PIECES[:2], "clusters": ["x", "y"], "cells": [[0, 0], [1, 2]]})}),
    ("compare", {"a": "link", "a_table": markup_table(), "a_name": PIECES[0], "b": "link",
                 "b_table": markup_table(clusters=PIECES[3:1:-1]), "b_name": PIECES[2]}),
    ("chance", {"ch_t": "lab", "ch_table": markup_table(), "ch_tab": "A table against chance"}),
])
def test_markup_in_a_links_table_stays_text(page, params):
    at = open_app(page_scripts()[page], 180, params)
    assert_inert(at, expect_mark=False)
    # The names were read: they reach the page's text, charts or tables.
    shown = " ".join(plotly_texts(at)) + " ".join(str(df.value.to_dict()) for df in at.dataframe)
    assert MARK in shown or any(MARK in t for t in markdown_texts(at)), "the link's table was not used"


@pytest.mark.parametrize("table", [
    json.dumps({"classes": ["a", "b"], "clusters": PIECES[1:2], "cells": [[PIECES[0]], [2]]}),  # a cell of text
    json.dumps({"classes": PIECES[:1], "clusters": ["x"], "cells": [[-1]]}),                    # a negative cell
    markup_table(classes=PIECES[:1] * 2),                                                        # a class twice
])
@pytest.mark.parametrize("page, param", [("table_lab", "table"), ("compare", "a_table"), ("chance", "ch_table")])
def test_markup_in_a_refused_links_table_stays_text(page, param, table):
    extra = {"compare": {"a": "link", "a_name": PIECES[2]}, "chance": {"ch_t": "lab"}}.get(page, {})
    assert_inert(open_app(page_scripts()[page], 180, {param: table, **extra}), expect_mark=False)


# ---------------------------------------------------------------- every upload field
def _panel():
    import streamlit as st

    from dashboard.ui.upload import upload_panel

    st.session_state["table"] = upload_panel("x")


def panel(layout: str = "one") -> AppTest:
    at = AppTest.from_function(_panel, default_timeout=60).run()
    at.radio(key="x_layout").set_value(layout).run()
    return at


NAME = f"{PAYLOAD}.txt"
UPLOADS = [
    # (layout, uploader key → (name, bytes)): the file name, the cells and the column names in every message
    ("one", {"x_file": (PAYLOAD + ".csv", b"gold\tpred\na\tx\nb\ty\n")}),        # a note names the file
    ("one", {"x_file": (NAME, f"gold,pred\n{PAYLOAD},x\n,y\n".encode())}),         # a missing label
    ("one", {"x_file": (NAME, f'gold,pred\n"a"{PAYLOAD},x\n'.encode())}),       # a quote error quotes the cell
    ("one", {"x_file": (NAME, f"gold,pred\na,x,{PAYLOAD}\n".encode())}),          # a ragged line
    ("one", {"x_file": (NAME, f"{PAYLOAD}\na\n".encode())}),                      # one column, named with markup
    ("one", {"x_file": (NAME, b"")}),                                            # empty
    ("two", {"x_file_gold": (NAME, b"gold\na\nb\n"), "x_file_pred": (PAYLOAD + "p.csv", b"pred\nx\n\n")}),
    ("table", {"x_file_table": (NAME, f",x,y\n{PAYLOAD},1,{PAYLOAD}\n".encode())}),  # a cell that is no number
    ("table", {"x_file_table": (NAME, f",x,y\n{PAYLOAD},1,1\n{PAYLOAD},2,3\n".encode())}),  # a class twice
    ("table", {"x_file_table": (NAME, f",{PAYLOAD},y\na,0,0\n".encode())}),       # every cell 0
]


@pytest.mark.parametrize("layout, files", UPLOADS)
def test_markup_in_every_upload_field_stays_text(layout, files):
    at = panel(layout)
    for key, (name, data) in files.items():
        at.file_uploader(key=key).set_value((name, data, "application/octet-stream"))
    at.run()
    assert_inert(at)


def test_a_kept_upload_names_its_file_as_text():
    at = panel("one")
    at.file_uploader(key="x_file").set_value((NAME, b"gold,pred\na,x\nb,y\n", "text/csv")).run()
    at.radio(key="x_layout").set_value("two").run()
    at.radio(key="x_layout").set_value("one").run()
    assert_inert(at)


def solutions_upload(*files, layout: str = "one") -> AppTest:
    at = open_app("app_pages/analyse/solutions.py", 180, {"sol_src": "upload"})
    if layout != "one":
        at.radio(key="sol_upload_layout").set_value(layout).run()
        at.file_uploader(key="sol_upload_gold_file").set_value(files[0])
        at.file_uploader(key="sol_upload_files").set_value(list(files[1:]))
    else:
        at.file_uploader(key="sol_upload_file").set_value(files[0])
    return at.run()


def test_markup_in_uploaded_solution_names_stays_text():
    """Column names become solution names: the ranking, the Sankey's caption and chart, the
    changes of mind and "Open … in Compare" all show them."""
    frame = pd.DataFrame({"gold": list("aabbcc") * 3, PAYLOAD: list("xxyyzz") * 3,
                          PAYLOAD + "2": list("xyxyzz") * 3, "p3": list("uuuvvv") * 3})
    at = solutions_upload((NAME, frame.to_csv(index=False).encode(), "text/csv"))
    assert_inert(at)
    labels = [t for t in markdown_texts(at) if "in Compare" in t and MARK in t]
    assert labels, "the Compare link names the two solutions"


def test_markup_in_solution_file_names_stays_text():
    gold = ("gold.csv", b"gold\na\na\nb\nb\n", "text/csv")
    one = (PAYLOAD + ".csv", b"pred\nx\nx\ny\ny\n", "text/csv")
    two = (PAYLOAD + "2.csv", b"pred\nx\ny\nx\ny\n", "text/csv")
    assert_inert(solutions_upload(gold, one, two, layout="files"))
    bad = (PAYLOAD + "3.csv", b"pred\nx\n", "text/csv")  # one row: the files do not align
    assert_inert(solutions_upload(gold, one, bad, layout="files"))


def test_the_checker_catches_live_markup():
    """The check itself: an unescaped payload in a page is found."""
    def page():
        import streamlit as st

        st.warning(f"The link asks for {PAYLOAD}")

    at = AppTest.from_function(page).run()
    with pytest.raises(AssertionError):
        assert_inert(at)
    with pytest.raises(AssertionError):
        assert_inert(AppTest.from_function(lambda: __import__("streamlit").radio("r", [PAYLOAD])).run())


def test_the_links_table_carries_the_markup():
    from dashboard.ui.tables import decode_table

    assert list(decode_table(markup_table()).index) == PIECES[:2]
