"""The upload panel through AppTest: metrics.io's reader behind the app's controls and words.

What a user of the Table lab meets: the limit and the advice for big files before any upload,
UTF-16 files, a class called "NA" (a label until the checkbox says otherwise), messages that
name rows and the panel's controls (never Python arguments), a contingency-table upload, and
choices that survive switching layouts and sources.
"""

from __future__ import annotations

import re

import pytest
from streamlit import config as st_config
from streamlit.testing.v1 import AppTest

import metrics
from dashboard.ui.safe_text import shown
from metrics import io as mio
from metrics.core.formatting import format_number
from tests.dashboard.apptest_utils import no_trouble, open_app, shown_measures

LAB = "app_pages/analyse/table_lab.py"
PYTHON_NAMES = re.compile(r"\b\w+=(True|False|\[|\(|'|\")|\b(dropna|na_values|id_col|pred_paths|header)\b")
NA_FILE = b"gold,cluster\na,1\nNA,1\nNA,2\nb,2\nb,\n"


def lab() -> AppTest:
    return open_app(LAB, 60, {"src": "upload"})


def upload(at: AppTest, name: str, data: bytes, key: str = "lab_upload_file") -> AppTest:
    at.file_uploader(key=key).set_value((name, data, "application/octet-stream"))
    return at.run()


def errors(at: AppTest) -> list[str]:
    """The errors as a reader sees them (the Markdown's escapes resolved)."""
    assert not at.exception, [e.value for e in at.exception]
    return [shown(e.value) for e in at.error]


def expected(gold, pred) -> dict:
    return metrics.evaluate(metrics.Contingency.from_labels(gold, pred))


def test_the_limit_and_the_advice_for_big_files_show_before_any_upload():
    at = lab()
    no_trouble(at)
    assert not at.file_uploader(key="lab_upload_file").value
    captions = " ".join(c.value for c in at.caption)
    assert "Up to 200 MB per file" in captions
    assert "save them as Parquet (far smaller than CSV)" in captions
    assert "`partition-lab score FILE`, which counts big files with DuckDB without loading them" in captions


def test_the_limit_shown_and_enforced_is_the_servers_option():
    old = st_config.get_option("server.maxUploadSize")
    st_config.set_option("server.maxUploadSize", 1)
    try:
        at = lab()
        assert any("Up to 1 MB per file" in c.value for c in at.caption)
        at = upload(at, "big.csv", b"gold,cluster\n" + b"a,1\n" * 300_000)  # 1.1 MB
        (message,) = errors(at)
        assert message.startswith("big.csv is 1.144 MB, over the upload limit of 1 MB")  # 1,200,013 bytes
        assert "(partition-lab score big.csv)" in message
    finally:
        st_config.set_option("server.maxUploadSize", old)


@pytest.mark.parametrize("bom, encoding", [(b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"),
                                           (b"\xef\xbb\xbf", "utf-8")])
def test_utf16_and_bom_uploads_are_read(bom, encoding):
    text = "gold,cluster\nçà,1\nçà,2\n日本,2\nb,1\n"
    at = upload(lab(), "enc.csv", bom + text.encode(encoding))
    no_trouble(at)
    assert at.selectbox(key="lab_upload_gold_col").value == "gold"  # no BOM in the first name
    assert shown_measures(at) == pytest.approx(expected(["çà", "çà", "日本", "b"], ["1", "2", "2", "1"]),
                                               rel=1e-12, abs=1e-15)


def test_na_is_a_label_by_default_and_the_checkbox_makes_it_missing():
    at = upload(lab(), "na.csv", NA_FILE)
    # The empty cell in row 5 is missing: the message names the row and the control to use.
    (message,) = errors(at)
    assert message == ("1 item(s) have a missing label (gold: 0, cluster: 1; an empty cell), first at data row 5 of "
                       "na.csv. Tick 'Leave out rows with a missing label' to score the other rows, or fill in the "
                       "labels in the file.")
    at.checkbox(key="lab_upload_dropna").check().run()
    no_trouble(at)
    # "NA" is a class of its own: 3 classes (a, NA, b) over 4 items.
    assert shown_measures(at) == pytest.approx(expected(["a", "NA", "NA", "b"], ["1", "1", "2", "2"]), rel=1e-12)
    assert any(shown(c.value) == "4 items, 3 classes, 2 clusters (1 row(s) with a missing label left out, first at "
               "data row 5)." for c in at.caption)
    at.checkbox(key="lab_upload_na_text").check().run()
    no_trouble(at)
    assert shown_measures(at) == pytest.approx(expected(["a", "b"], ["1", "2"]), rel=1e-12)
    assert any("2 items, 2 classes, 2 clusters (3 row(s) with a missing label left out, first at data rows 2, 3, 5)"
               in c.value for c in at.caption)
    at.checkbox(key="lab_upload_dropna").uncheck().run()
    (message,) = errors(at)
    assert message.startswith("3 item(s) have a missing label (gold: 2, cluster: 1; an empty cell or a text treated "
                              "as missing ('NA', ")
    assert "first at data rows 2, 3, 5 of na.csv" in message
    assert "because 'Treat NA, NaN, null, None… as missing' is ticked" in message
    assert not PYTHON_NAMES.search(message)


def test_every_row_left_out_is_the_empty_table_message():
    at = upload(lab(), "holes.csv", b"gold,cluster\n,1\nNA,\n")
    at.checkbox(key="lab_upload_dropna").check()
    at.checkbox(key="lab_upload_na_text").check().run()
    (message,) = errors(at)
    assert message == ("the table holds no items (every row has a missing label and was left out): untick the "
                       "missing-value options or fill in the labels.")


def test_two_files_name_the_rows_of_each_file():
    at = lab()
    at.radio(key="lab_upload_layout").set_value("two").run()
    upload(at, "g.csv", b"g\na\n\nb\nb\n", "lab_upload_file_gold")
    at = upload(at, "k.tsv", b"k\n1\n1\n2\n\n", "lab_upload_file_pred")
    (message,) = errors(at)
    assert message.startswith("2 item(s) have a missing label (gold: 1, cluster: 1; an empty cell), first at data "
                              "row 2 of g.csv (gold) and data row 4 of k.tsv (cluster).")


def test_a_contingency_table_upload_and_an_all_zero_one():
    at = lab()
    at.radio(key="lab_upload_layout").set_value("table").run()
    no_trouble(at)
    at = upload(at, "zeros.csv", b",k1,k2\nc1,0,0\nc2,0,0\n", "lab_upload_file_table")
    assert errors(at) == ["zeros.csv: the table holds no items (every cell is 0): upload a file with at least one "
                          "item."]
    assert not shown_measures(at)
    at = upload(at, "t.tsv", b"\tk1\tk2\nc1\t5\t1\nc2\t0\t4\n", "lab_upload_file_table")
    no_trouble(at)
    want = metrics.evaluate(metrics.Contingency.from_table([[5, 1], [0, 4]]))
    assert shown_measures(at) == pytest.approx(want, rel=1e-12, abs=1e-15)
    assert any(c.value == f"{format_number(10)} items, 2 classes, 2 clusters." for c in at.caption)


def test_a_note_says_where_the_content_overrides_the_name():
    at = upload(lab(), "labels.csv", b"gold\tcluster\na\t1\nb\t2\n")
    no_trouble(at)
    assert [shown(i.value) for i in at.info] == ["labels.csv is tab-separated, not comma-separated as its name says: "
                                          "read as TSV"]


def test_headerless_columns_are_numbered():
    at = lab()
    at.checkbox(key="lab_upload_header").uncheck().run()
    at = upload(at, "plain.txt", b"a\tx\na\ty\nb\ty\n")
    no_trouble(at)
    box = at.selectbox(key="lab_upload_pred_col")
    assert box.options == ["column 1", "column 2"] and box.value == "2"
    assert shown_measures(at) == pytest.approx(expected(["a", "a", "b"], ["x", "y", "y"]), rel=1e-12)


def test_nothing_chosen_is_lost_when_switching_layouts_and_sources():
    at = upload(lab(), "w.csv", b"id,gold,pred,other\n1,a,x,p\n2,NA,x,q\n3,b,,q\n4,b,y,p\n")
    at.selectbox(key="lab_upload_gold_col").set_value("gold")
    at.selectbox(key="lab_upload_pred_col").set_value("pred")
    at.checkbox(key="lab_upload_na_text").check()
    at.checkbox(key="lab_upload_dropna").check().run()
    no_trouble(at)
    values = shown_measures(at)
    assert values == pytest.approx(expected(["a", "b"], ["x", "y"]), rel=1e-12)
    # Another layout, then back; another source (the panel is not drawn at all), then back.
    at.radio(key="lab_upload_layout").set_value("two").run()
    at.radio(key="lab_upload_layout").set_value("one").run()
    at.segmented_control(key="src").set_value("table").run()
    at.segmented_control(key="src").set_value("upload").run()
    no_trouble(at)
    assert at.radio(key="lab_upload_layout").value == "one"
    assert at.checkbox(key="lab_upload_na_text").value and at.checkbox(key="lab_upload_dropna").value
    assert (at.selectbox(key="lab_upload_gold_col").value, at.selectbox(key="lab_upload_pred_col").value) == \
        ("gold", "pred")
    assert any(shown(c.value) == "Using w.csv, uploaded before. Upload a file above to replace it."
               for c in at.caption)
    assert shown_measures(at) == values
    # Forgetting the kept file is the user's choice.
    at.button(key="lab_upload_file_forget").click().run()
    no_trouble(at)
    assert not shown_measures(at) and any("Upload a file" in i.value for i in at.info)


def test_a_file_is_parsed_once_per_upload(monkeypatch):
    calls = []
    real = mio.read_labels

    def counting(*args, **kwargs):
        calls.append(kwargs.get("name"))
        return real(*args, **kwargs)

    monkeypatch.setattr(mio, "read_labels", counting)
    at = upload(lab(), "w.csv", b"gold,pred,other\na,x,p\nNA,x,q\nb,y,q\n")
    at.checkbox(key="lab_upload_na_text").check().run()
    at.checkbox(key="lab_upload_dropna").check().run()
    at.selectbox(key="lab_upload_pred_col").set_value("other").run()
    at.selectbox(key="lab_upload_pred_col").set_value("pred").run()
    no_trouble(at)
    assert calls == ["w.csv"]
    at = upload(at, "w2.csv", b"gold,pred\na,x\n")
    assert calls == ["w.csv", "w2.csv"]
