"""One reader, two interfaces: for tricky files, ``partition-lab score --format json`` and the table
the dashboard's upload panel builds are the same — same items, classes, clusters, labels, and every
measure to the last digit — with the app's checkboxes matching the command line's options.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import sys

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from metrics import cli
from metrics import io as mio

NA_OPTION = ",".join(mio.COMMON_NA_TEXTS)


@pytest.fixture(autouse=True)
def _keep_main_module():
    # AppTest leaves its script in sys.modules["__main__"]; put the real one back.
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main


def _panel():
    import streamlit as st

    from dashboard.ui.upload import upload_panel

    st.session_state["table"] = upload_panel("x")


def app_table(name: str, data: bytes, na_checkbox: bool, dropna: bool):
    at = AppTest.from_function(_panel, default_timeout=60).run()
    at.checkbox(key="x_na_text").set_value(na_checkbox)
    at.checkbox(key="x_dropna").set_value(dropna)
    at.file_uploader(key="x_file").set_value((name, data, "application/octet-stream")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at.session_state["table"]


def parquet(df: pd.DataFrame) -> bytes:
    buf = io.BytesIO()
    df.to_parquet(buf, index=False)
    return buf.getvalue()


TEXT = "gold,pred\na,x\nNA,x\nNA,y\nnull,y\nb,NaN\nb,y\n01,z\n1,z\nçà,x\n"
EMPTY = "gold,pred\na,x\n,x\nNA,y\nb,\nb,y\nc,None\n"
# (name, bytes, the app's NA checkbox / --na-values, the app's drop checkbox / --dropna)
CASES = [
    ("na_labels.csv", TEXT.encode(), False, False),
    ("na_missing.csv", TEXT.encode(), True, True),
    ("bom.csv", b"\xef\xbb\xbf" + TEXT.encode(), False, False),
    ("utf16le.csv", b"\xff\xfe" + TEXT.encode("utf-16-le"), False, False),
    ("utf16be.csv", b"\xfe\xff" + TEXT.encode("utf-16-be"), True, True),
    ("tabs.txt", TEXT.replace(",", "\t").encode(), False, False),
    ("tabs_named.csv", TEXT.replace(",", "\t").encode(), False, False),
    ("semicolons.csv", TEXT.replace(",", ";").encode(), False, False),
    ("no_extension", TEXT.encode(), False, False),
    ("empty_cells.csv", EMPTY.encode(), False, True),
    ("empty_and_na.csv", EMPTY.encode(), True, True),
    ("packed.csv.gz", gzip.compress(EMPTY.encode("utf-8")), False, True),
    ("nulls.parquet", parquet(pd.DataFrame({"gold": ["a", None, "NA", "b", "", "b"],
                                            "pred": [1.0, 2.0, np.nan, 2.0, 1.0, 1.0]})), False, True),
    ("nulls_na.parquet", parquet(pd.DataFrame({"gold": ["a", None, "NA", "b", "", "b"],
                                               "pred": [1.0, 2.0, np.nan, 2.0, 1.0, 1.0]})), True, True),
]


def frame_of(t: metrics.Contingency) -> pd.DataFrame:
    f = t.to_frame()
    f.index, f.columns = [str(x) for x in f.index], [str(x) for x in f.columns]
    return f.sort_index().sort_index(axis=1)


@pytest.mark.parametrize("name, data, na, dropna", CASES, ids=[c[0] for c in CASES])
def test_the_command_line_and_the_app_build_the_same_table(tmp_path, capsys, name, data, na, dropna):
    table = app_table(name, data, na, dropna)
    path = tmp_path / name
    path.write_bytes(data)
    options = (["--na-values", NA_OPTION] if na else []) + (["--dropna"] if dropna else [])
    for engine in ("pandas", "duckdb"):
        code = cli.main(["score", str(path), "--format", "json", "--quiet", "--engine", engine] + options)
        out, err = capsys.readouterr()
        assert code == 0, err
        doc = json.loads(out)
        (sol,) = doc["solutions"].values()  # one solution: one record
        assert (doc["n"], doc["classes"], sol["clusters"]) == (table.n, *table.shape), engine
        want = metrics.evaluate(table)
        # Strict JSON: a value that is not a finite number is null, its reason beside it.
        assert sol["measures"] == {k: v if math.isfinite(v) else None for k, v in want.items()}, engine
        assert set(sol["why_null"]) == {k for k, v in want.items() if not math.isfinite(v)}, engine
        # The labels too (the measures cannot tell "NA" from "null"): the library call the CLI makes.
        same = mio.contingency_from_files(path, engine=engine, na_values=mio.COMMON_NA_TEXTS if na else (),
                                          dropna=dropna)
        assert frame_of(same).equals(frame_of(table)), engine


def test_the_default_keeps_na_as_a_label_in_both(tmp_path, capsys):
    # The point of the rule: a class really called "NA" is counted, by the app and by the CLI.
    table = app_table("na.csv", TEXT.encode(), False, False)
    assert "NA" in list(table.row_labels) and table.n == 9
    path = tmp_path / "na.csv"
    path.write_text(TEXT)
    assert cli.main(["score", str(path), "--format", "json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["n"] == 9
