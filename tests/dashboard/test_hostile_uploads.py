"""Hostile uploads and server hardening (issue 6, "Hostile input, everywhere": the dashboard half).

Every hostile file goes through the real Table lab (AppTest) *after* the user has edited a table,
changed β and uploaded a good file. Each must end in one ``st.error`` that says what is wrong and
what to do — no exception — and the session must be intact: β, the edited table and the chosen
source are still there, and the good file uploads again at once.

Covered elsewhere (tests/dashboard/test_dash_pages.py): header-only and one-column files,
mismatched two-file uploads, missing labels dropped or refused, 10^6 rows over 60 × 1500 labels;
tests/dashboard/test_upload_panel.py: encodings, the NA checkbox, kept choices, the limit caption.
Those files are also replayed here when they are hostile, so the list of the issue is complete
in one place: empty, binary (with and without NUL bytes), ~200 MB, ragged, 10^6 distinct labels,
empty (missing) labels, an Excel workbook renamed to .csv, a broken Parquet file, UTF-16 without
a byte-order mark, a web page saved instead of the data. (A CSV file named .parquet is no longer
hostile: the reader goes by the content and says so.)
"""

from __future__ import annotations

import io
import re
import time
import tomllib
import zipfile

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from dashboard.ui.safe_text import shown
from dashboard.ui.upload import MAX_UPLOAD_MB, size_problem
from tests import ROOT

APP = str(ROOT / "dashboard" / "app.py")
LAB = "app_pages/analyse/table_lab.py"
PRESET = "wu_table10_I"
BETA = 2.0
GOOD = b"gold,cluster\na,1\na,1\nb,1\nb,2\nc,2\n"
# No Python argument names in what the app shows: it names its own controls.
PYTHON_NAMES = re.compile(r"\b\w+=(True|False|\[|\(|'|\")|\b(dropna|na_values|id_col|pred_paths|header)\b")


def shown_measures(at: AppTest) -> dict[str, float]:
    out = {}
    for df in at.dataframe:
        if {"key", "value"} <= set(df.value.columns):
            out.update(dict(zip(df.value["key"], df.value["value"])))
    return out


def upload(at: AppTest, name: str, data: bytes) -> AppTest:
    at.file_uploader(key="lab_upload_file").set_value((name, data, "application/octet-stream"))
    return at.run()


def xlsx_bytes() -> bytes:
    """A minimal but real Office Open XML workbook (what Excel writes), built with zipfile."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml",
                   '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
                   'package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/'
                   'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>')
        z.writestr("_rels/.rels", '<?xml version="1.0"?><Relationships/>')
        z.writestr("xl/workbook.xml", '<?xml version="1.0"?><workbook><sheets><sheet name="labels" sheetId="1"/>'
                                      "</sheets></workbook>")
        z.writestr("xl/worksheets/sheet1.xml",
                   '<?xml version="1.0"?><worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>gold</t>'
                   '</is></c><c r="B1" t="inlineStr"><is><t>cluster</t></is></c></row></sheetData></worksheet>')
    data = buf.getvalue()
    assert data.startswith(b"PK\x03\x04")
    return data


def nan_parquet() -> bytes:
    buf = io.BytesIO()
    pd.DataFrame({"gold": [np.nan] * 4, "cluster": [1.0, 2.0, np.nan, 2.0]}).to_parquet(buf)
    return buf.getvalue()


_rng = np.random.default_rng(6)
# (file name, bytes, words the error must contain, words saying what to do)
HOSTILE = [
    ("empty.csv", b"", "is empty", "use a file with one row per item"),
    ("garbage.csv", _rng.integers(0, 256, 50_000, dtype=np.uint8).tobytes(), "binary", "save the labels as CSV"),
    ("latin1.csv", ("gold,cluster\n" + "é,1\n" * 50).encode("latin-1"), "not UTF-8", "save it as UTF-8"),
    ("ragged.csv", b"gold,cluster\na,1\nb,2,9,9\nc,3\n", "ragged", "same number of commas"),
    # NaN, nan and NA are labels unless the checkbox says otherwise; the empty cell is missing.
    ("nan.csv", b"gold,cluster\nNaN,1\nnan,2\n,3\nNA,4\n", "1 item(s) have a missing label (gold: 1, cluster: 0; "
     "an empty cell), first at data row 3 of nan.csv", "Tick 'Leave out rows with a missing label'"),
    ("nan.parquet", nan_parquet(), "4 item(s) have a missing label (gold: 4, cluster: 1; an empty cell), first at "
     "data rows 1, 2, 3, 4", "Tick 'Leave out rows with a missing label'"),
    ("workbook.csv", xlsx_bytes(), "ZIP archive", "save it as 'CSV UTF-8'"),
    ("broken.parquet", b"PAR1" + _rng.integers(0, 256, 5_000, dtype=np.uint8).tobytes(), "could not be read as Parquet",
     "export it again"),
    ("utf16.csv", GOOD.decode().encode("utf-16-le"), "UTF-16 text without a byte-order mark", "save it as UTF-8"),
    ("page.csv", b"<!DOCTYPE html><html><body>Please sign in</body></html>", "HTML/XML document",
     "save the labels as CSV"),
]


@pytest.fixture
def lab() -> AppTest:
    """The Table lab with an edited preset, β changed, then a good upload: the state to keep."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["preset"] = PRESET
    at.switch_page(LAB).run()
    at.slider(key="beta").set_value(BETA).run()
    base = at.session_state["lab_base"]
    first_cluster = next(c for c in base.columns if c != "class")
    key = at.session_state["lab_editor_key"]
    at.session_state[key] = {"edited_rows": {0: {first_cluster: 41.0}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception and not at.error
    edited = base.set_index("class").astype(float)
    edited.iloc[0, 0] = 41.0
    at.edited_table = metrics.Contingency.from_table(edited)  # the table the user built
    assert shown_measures(at) == pytest.approx(metrics.evaluate(at.edited_table, beta=BETA), rel=1e-12, abs=1e-15)
    at.segmented_control(key="src").set_value("upload").run()
    upload(at, "good.csv", GOOD)
    assert not at.exception and not at.error
    at.good_values = shown_measures(at)
    assert at.good_values
    return at


def assert_intact(at: AppTest) -> None:
    """β, the source, the good file's table (re-uploaded) and the edited table are all still there."""
    assert at.slider(key="beta").value == BETA
    assert at.segmented_control(key="src").value == "upload"
    upload(at, "good.csv", GOOD)
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert shown_measures(at) == at.good_values
    at.segmented_control(key="src").set_value("table").run()
    assert not at.exception and not at.error
    assert at.selectbox(key="preset").value == PRESET
    assert shown_measures(at) == pytest.approx(metrics.evaluate(at.edited_table, beta=BETA), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("name, data, problem, advice", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_upload_ends_in_an_error_and_keeps_the_session(lab, name, data, problem, advice):
    at = upload(lab, name, data)
    assert not at.exception, [e.value for e in at.exception]
    errors = [shown(e.value) for e in at.error]
    assert len(errors) == 1 and problem in errors[0] and advice in errors[0], errors
    assert name in errors[0]  # the message names the file
    assert not PYTHON_NAMES.search(errors[0]), errors[0]
    assert not shown_measures(at)  # no stale numbers from the good file
    assert_intact(at)


def test_a_200_mb_upload_is_refused_fast_with_the_limit_named(lab, tmp_path):
    # A real ~200 MB file (just over the limit), written to tmp and read back as an upload would be.
    path = tmp_path / "huge.csv"
    row = b"some-gold-class,some-cluster\n"
    with open(path, "wb") as f:
        f.write(b"gold,cluster\n")
        block = row * (2**20 // len(row))
        while f.tell() <= MAX_UPLOAD_MB * 2**20:
            f.write(block)
    data = path.read_bytes()
    assert len(data) > MAX_UPLOAD_MB * 2**20
    t0 = time.perf_counter()
    at = upload(lab, "huge.csv", data)
    elapsed = time.perf_counter() - t0
    del data
    assert not at.exception
    errors = [shown(e.value) for e in at.error]
    assert len(errors) == 1 and "over the upload limit of 200 MB" in errors[0] and "partition-lab" in errors[0]
    assert elapsed < 60, elapsed  # refused before parsing, not after
    assert_intact(at)


def test_the_size_guard_at_the_function_level():
    assert size_problem("ok.csv", 2**20, 1) is None  # exactly at the limit is allowed
    text = shown(size_problem("big.csv", 2**20 + 1, 1))  # Markdown: the name escaped
    assert text.startswith("big.csv is 1.000 MB, over the upload limit of 1 MB: upload a Parquet version")
    assert "(partition-lab score big.csv)" in text and "DuckDB" in text
    assert size_problem("*a*.csv", 2**20 + 1, 1).startswith("\\*a\\*")
    assert "over the upload limit of 0.5 MB" in size_problem("big.csv", 2**20, 0.5)


def test_a_million_distinct_labels_work_and_never_hang(lab):
    n = 10**6
    ids = np.arange(n)
    data = pd.DataFrame({"gold": ids, "cluster": (ids * 7919) % n}).to_csv(index=False).encode()  # a relabelling
    t0 = time.perf_counter()
    at = upload(lab, "distinct.csv", data)
    elapsed = time.perf_counter() - t0
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert elapsed < 120, f"{elapsed:.0f} s"  # never hangs
    assert any("1,000,000 items, 1,000,000 classes, 1,000,000 clusters" in c.value for c in at.caption)
    t = metrics.Contingency.from_labels(ids.astype(str), ((ids * 7919) % n).astype(str))
    shown = shown_measures(at)
    expected = metrics.evaluate(t, beta=BETA)
    assert set(shown) == set(expected)
    assert shown == pytest.approx(expected, rel=1e-9, abs=1e-12, nan_ok=True)
    assert_intact(at)


# ---------------------------------------------------------------- the server and the code
def test_server_config_binds_localhost_without_usage_statistics_and_limits_uploads():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["address"] == "127.0.0.1"
    assert config["browser"]["gatherUsageStats"] is False
    limit = config["server"]["maxUploadSize"]
    assert isinstance(limit, int) and 0 < limit <= 200
    assert limit == MAX_UPLOAD_MB  # the panel's own check uses the same number
    readme = (ROOT / "README.md").read_text()
    assert f"uploads limited to {limit} MB" in readme and "127.0.0.1" in readme  # documented


UNSAFE = re.compile(r"pickle\.loads?\(|\bread_pickle\(|(?<![\w.])eval\(|(?<![\w.])exec\(|allow_pickle\s*=\s*True"
                    r"|\bmarshal\.loads?\(|\byaml\.load\(|\bshelve\.open\(")


def test_no_code_unpickles_or_evals_user_data():
    sources = sorted((ROOT / "dashboard").rglob("*.py")) + sorted((ROOT / "metrics").rglob("*.py"))
    assert len(sources) > 10
    hits = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}" for p in sources
            for i, line in enumerate(p.read_text().splitlines(), 1) if UNSAFE.search(line)]
    assert not hits, hits


def test_the_unsafe_pattern_catches_what_it_should():
    # The grep above must be able to fail: each form it guards against is matched, safe ones are not.
    for bad in ["pickle.load(f)", "x = pickle.loads(b)", "pd.read_pickle(p)", "eval(text)", "exec(code)",
                "np.load(p, allow_pickle=True)", "yaml.load(s)"]:
        assert UNSAFE.search(bad), bad
    for ok in ["pickle.dumps(x)", "model.eval()", "literal_eval_like = 1", "np.load(p)", "yaml.safe_load(s)"]:
        assert not UNSAFE.search(ok), ok


def test_a_decompression_bomb_is_refused_at_the_limit_not_expanded(lab):
    """A 0.25 MB .csv.gz holding 256 MiB took the server from 352 MB to 4.3 GB. The panel reads an
    upload's text no further than the upload limit (here 2 MB: 64 MiB of text in ~70 kB)."""
    import gzip
    import resource

    from streamlit import config as st_config

    bomb = gzip.compress(b"gold,cluster\n" + b"a,1\n" * (16 * 2**20), 9)
    assert len(bomb) < 200_000
    old = st_config.get_option("server.maxUploadSize")
    st_config.set_option("server.maxUploadSize", 2)
    try:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        at = upload(lab, "bomb.csv.gz", bomb)
        grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) / 1024
        assert not at.exception
        errors = [shown(e.value) for e in at.error]
        assert len(errors) == 1 and errors[0].startswith(
            "bomb.csv.gz expands to more than 2 MB of text when decompressed, the most that is read here"), errors
        assert grown_mb < 150, grown_mb  # 64 MiB of text in pandas: several hundred MB
        assert not shown_measures(at)
        assert_intact(at)
    finally:
        st_config.set_option("server.maxUploadSize", old)
