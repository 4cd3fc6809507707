"""What the AppTest suites of every page share: opening a page of the app with URL
parameters, and reading what a page shows (errors, measure tables, Plotly specs)."""

from __future__ import annotations

import base64
import json

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from tests import ROOT

APP = str(ROOT / "dashboard" / "app.py")


def open_app(page: str, timeout: float = 60, params: dict | None = None) -> AppTest:
    """Run the app (navigation included) on ``page`` with ``params`` in the URL."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.switch_page(page).run()
    return at


def no_trouble(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def shown_measures(at: AppTest, drop_missing: bool = False) -> dict[str, float]:
    """key → value from the page's measure tables; ``drop_missing`` leaves out the
    rows of measures not defined for the table (shown without a value)."""
    out = {}
    for df in at.dataframe:
        frame = df.value
        if {"key", "value"} <= set(frame.columns):
            pairs = zip(frame["key"], frame["value"])
            out.update({k: v for k, v in pairs if not (drop_missing and (v is None or pd.isna(v)))})
    return out


def chart(at: AppTest, key: str) -> dict:
    """The Plotly spec of the chart whose element id contains ``key``."""
    for c in at.get("plotly_chart"):
        if key in c.proto.id:
            return json.loads(c.proto.spec)
    raise KeyError(key)


def decoded(arr):
    """A Plotly array from a spec: a plain list, or a base64 typed array (possibly 2-D)."""
    if isinstance(arr, dict) and "bdata" in arr:
        out = np.frombuffer(base64.b64decode(arr["bdata"]), dtype=np.dtype(arr["dtype"]))
        if "shape" in arr:
            out = out.reshape([int(s) for s in str(arr["shape"]).split(",")])
        return out.tolist()
    return arr
