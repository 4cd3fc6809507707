"""Every CSV the app offers for download is safe to open in a spreadsheet (issue 29, CSV injection).

Class, cluster and solution names come from users (a link's table, an uploaded file); written
verbatim, ``=cmd|' /C calc'!A0`` runs in a spreadsheet that opens the file. Every download button
of every page is read here (the bytes Streamlit would serve, eager or deferred) and no cell may
begin with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return unless it is a plain number; where
user text flows in, its cells are checked by name (prefixed with ``'``, as OWASP advises).
"""

from __future__ import annotations

import csv
import io
import json
import re

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from dashboard import page_scripts
from metrics.core.formatting import frame_csv, spreadsheet_cell
from tests.dashboard.apptest_utils import open_app

FORMULAS = ["=cmd|' /C calc'!A0", "@SUM(A1)", "+SUM(1;2)", "\tx", "-x"]
NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


@pytest.fixture(autouse=True)
def media(monkeypatch):
    """Keep the media file managers AppTest creates (one per run), to read the buttons' bytes."""
    from streamlit.runtime.media_file_manager import MediaFileManager
    from streamlit.testing.v1 import app_test

    managers: list[MediaFileManager] = []

    class Kept(MediaFileManager):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            managers.append(self)

    monkeypatch.setattr(app_test, "MediaFileManager", Kept)
    return managers


def downloads(at: AppTest, managers) -> dict[str, bytes]:
    """Each CSV download button's bytes, by its key (the last run's manager). The charts' slide
    images (SVG and PNG, made by a browser) are not CSV: tests/dashboard/ui/test_slide_export.py."""
    mgr = managers[-1]
    out = {}
    for button in at.get("download_button"):
        key = button.proto.id.rsplit("-", 1)[-1]
        if key.endswith(("_slide_svg", "_slide_png")):
            continue
        if button.proto.url:
            file_id = button.proto.url.rsplit("/", 1)[-1].split(".")[0]
            out[key] = mgr._storage._files_by_id[file_id].content
        else:  # deferred: the callable Streamlit runs when the button is clicked
            entry = next(e for e in mgr._deferred_callables.values() if e["element_id"] == button.proto.id)
            data = entry["callable"]()
            out[key] = data.encode() if isinstance(data, str) else data
    return out


def cells(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8"))))


def assert_safe(data: bytes) -> None:
    for row in cells(data):
        for cell in row:
            if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                assert NUMBER.fullmatch(cell), (cell, row)


# ---------------------------------------------------------------- the helper
def test_the_helper_prefixes_formulas_and_keeps_numbers():
    assert [spreadsheet_cell(v) for v in FORMULAS] == ["'" + v for v in FORMULAS]
    assert [spreadsheet_cell(v) for v in ("-1", "+2.5e3", -3, 4.5, "a=b", "", None)] == \
        ["-1", "+2.5e3", -3, 4.5, "a=b", "", None]
    frame = pd.DataFrame({FORMULAS[0]: FORMULAS + ["ok"], "n": [-1.5, 2, -3, 4, 5, 6]},
                         index=pd.Index(["@i", "-2", "k", "k", "m", "\tr"], name="=name"))
    rows = cells(frame_csv(frame))
    assert rows[0] == ["'=name", "'" + FORMULAS[0], "n"]
    assert [r[0] for r in rows[1:]] == ["'@i", "-2", "k", "k", "m", "'\tr"]
    assert [r[1] for r in rows[1:]] == ["'" + v for v in FORMULAS] + ["ok"]
    assert [float(r[2]) for r in rows[1:]] == [-1.5, 2, -3, 4, 5, 6]  # numbers stay numbers
    assert_safe(frame_csv(frame))


# ---------------------------------------------------------------- every download button
TABLE = json.dumps({"classes": FORMULAS[:3], "clusters": ["-xk", "-1", "@c"],
                    "cells": [[3, 1, 0], [1, 4, 2], [0, 2, 5]]})


def test_table_lab_downloads(media):
    at = open_app("app_pages/analyse/table_lab.py", 120, {"table": TABLE})
    assert not at.exception and not at.error, [e.value for e in at.error]
    data = downloads(at, media)
    assert set(data) == {"lab_dl_measures", "lab_dl_table"}
    for blob in data.values():
        assert_safe(blob)
    table = cells(data["lab_dl_table"])
    assert table[0] == ["class", "'-xk", "-1", "'@c"]
    assert [r[0] for r in table[1:]] == ["'" + v for v in FORMULAS[:3]]
    assert [[int(v) for v in r[1:]] for r in table[1:]] == [[3, 1, 0], [1, 4, 2], [0, 2, 5]]


def test_compare_download(media):
    at = open_app("app_pages/analyse/compare.py", 120, {"a": "link", "a_table": TABLE, "a_name": FORMULAS[0]})
    assert not at.exception
    data = downloads(at, media)
    assert "cmp_dl" in data
    for blob in data.values():
        assert_safe(blob)


def test_solutions_downloads_name_uploaded_solutions_as_text(media):
    frame = pd.DataFrame({"gold": list("aabbcc") * 2, FORMULAS[0]: list("xxyyzz") * 2,
                          FORMULAS[1]: list("xyxyzz") * 2, "-1": list("uuuvvv") * 2})
    at = open_app("app_pages/analyse/solutions.py", 180, {"sol_src": "upload"})
    at.file_uploader(key="sol_upload_file").set_value(("runs.csv", frame.to_csv(index=False).encode(), "text/csv"))
    at.run()
    at.session_state["sol_values_box"] = True  # the expander that holds the downloads, opened
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    data = downloads(at, media)
    assert {"sol_dl_values", "sol_dl_ranks"} <= set(data)
    for key in ("sol_dl_values", "sol_dl_ranks"):
        rows = cells(data[key])
        assert [r[0] for r in rows[1:]] == ["'" + FORMULAS[0], "'" + FORMULAS[1], "-1"]
        assert_safe(data[key])


@pytest.mark.parametrize("page, params, opened", [
    ("chance", {"ch_tab": "Number of clusters"}, None),
    ("chance", {"ch_tab": "A table against chance", "ch_t": "lab", "ch_table": TABLE}, None),
    ("generator_lab", {"g_tab": "Properties P1–P7 (Table 2)"}, None),
    ("real_data", {}, "rd_values_box"),
    ("property_checker", {}, None),
])
def test_every_other_download_is_safe(media, page, params, opened):
    at = open_app(page_scripts()[page], 300, params)
    if opened:  # an expander that draws its download only while open
        at.session_state[opened] = True
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    data = downloads(at, media)
    assert data, "no download button on the page: nothing was checked"
    for blob in data.values():
        assert_safe(blob)
