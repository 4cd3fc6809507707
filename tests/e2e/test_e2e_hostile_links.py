"""The worst links against a real server (issue 28): after each, the server process is alive, its
health check answers, and the page shows no exception box.

One link used to end the Streamlit process with SIGSEGV for everyone (the Chance page with a
table of 5·10^11 items in the URL); ``inf`` in a number parameter raised inside Streamlit's URL
binding. The server here is started as ``partition-lab app`` starts it, and watched: its process
(``poll()``), ``/_stcore/health``, and the page's ``stException`` boxes. The links are the
AppTest fuzzer's worst ones (tests/dashboard/test_fuzz_links.py), opened by a real browser.
"""

from __future__ import annotations

import json
import urllib.request
from urllib.parse import urlencode

import pytest

from tests.e2e.e2e_support import DONE, app_server

BIG = 5 * 10**11
ISSUE_TABLE = json.dumps({"classes": ["a", "b"], "clusters": ["x", "y"], "cells": [[BIG, 1], [1, BIG]]})
LINKS = [
    ("chance", {"ch_tab": "A table against chance", "ch_t": "lab", "ch_table": ISSUE_TABLE}),
    ("chance", {"ch_tab": "AMI normalisations", "ch_t": "lab", "ch_table": ISSUE_TABLE}),
    ("chance", {"ch_seed": "inf", "beta": "nan", "log": "bits"}),
    ("chance", {"ch_tab": "A table against chance", "ch_t": "lab", "ch_model": "all",
                "ch_table": json.dumps({"classes": [f"c{i}" for i in range(20)],
                                        "clusters": [f"k{j}" for j in range(20)],
                                        "cells": [[10**12] * 20] * 20})}),
    ("chance", {"ch_sm": "num", "ch_n": "10000", "ch_sd": "500"}),
    ("fuzzy_lab", {"fz_seed": "-inf", "fz_n": "1e308", "fz_e1_max": "inf"}),
    ("real_data", {"rd_k": ["inf", "-inf"], "rd_seed": "1e308"}),
    ("solutions", {"sol_src": "real", "sol_k": ["50", "2"], "sol_seed": "nan"}),
    ("compare", {"classes": "inf", "noise": "-1", "a": "lab", "a_table": "[" * 3000}),
    ("generator_lab", {"g_n": "inf", "g_e1": "nan", "g_C": "1000000000000"}),
    ("property_checker", {"p_seed": "inf", "p_lam": "1e308", "p_parts": "-1"}),
    ("table_lab", {"table": json.dumps({"classes": ["a"], "clusters": ["x"], "cells": [[2**62]]})}),
    ("table_lab", {"table": ISSUE_TABLE}),
    ("gallery", {"gal_open": "inf", "gal_p": "<script>alert(1)</script>"}),
    ("lesson", {"step": "99999999999999999999"}),
    ("home", {"beta": "-inf", "log": "x" * 5000}),
]


@pytest.fixture(scope="module")
def watched(tmp_path_factory):
    """A server of its own (this test watches its process): (process, base url)."""
    with app_server(tmp_path_factory.mktemp("hostile") / "server.log") as (proc, url):
        yield proc, url


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as r:
            return r.read() == b"ok"
    except OSError:
        return False


@pytest.mark.parametrize("page_name,params", LINKS, ids=[f"{p}-{'-'.join(sorted(q))}" for p, q in LINKS])
def test_a_hostile_link_leaves_the_server_up_and_the_page_without_an_exception(watched, browser, page_name, params):
    proc, url = watched
    page = browser.new_page()
    try:
        path = "" if page_name == "home" else page_name
        page.goto(f"{url}/{path}?{urlencode(params, doseq=True)}", timeout=60_000)
        page.wait_for_selector(DONE, timeout=120_000)
        page.wait_for_timeout(300)
        boxes = page.locator('[data-testid="stException"]')
        assert boxes.count() == 0, boxes.all_inner_texts()
        text = page.locator('[data-testid="stMain"]').inner_text()
        assert "Traceback" not in text and "Error:" not in text.replace("Connection error", "")
    finally:
        page.close()
    assert proc.poll() is None, f"the server exited with {proc.returncode}"
    assert healthy(url)
