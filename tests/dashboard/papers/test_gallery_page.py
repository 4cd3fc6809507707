"""The Paper gallery page through AppTest: every row of metrics.papers.gallery shown, with its status,
printed and computed values; filters; links to pages of the app; unreadable paper values end
in st.error."""

from __future__ import annotations

import json
import shutil
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.papers import gallery as gv
from dashboard.ui.readout import SHOWN_SUFFIX
from dashboard.ui.tables import decode_table
from metrics.papers import gallery
from tests.dashboard.apptest_utils import open_app

PAGE = "app_pages/learn/gallery.py"
URL_PATHS = {"", "table_lab", "compare", "generator_lab", "property_checker", "fuzzy_lab", "real_data", "gallery"}


@pytest.fixture(scope="module")
def frame():
    return gallery.gallery_frame()


def open_page(timeout: float = 180, **params) -> AppTest:
    return open_app(PAGE, timeout, params)


def shown_rows(at: AppTest) -> list[dict]:
    """Every row of every gallery table on the page, with its Markdown escapes undone."""
    rows = []
    for table in at.table:
        df = table.value
        if "Item" not in df.columns:
            continue
        for rec in df.to_dict("records"):
            rows.append({k: str(v).replace("\\", "").replace("\u2060", "") for k, v in rec.items()})
    return rows


def test_every_row_is_shown_with_its_values(frame):
    at = open_page()
    assert not at.exception and not at.error, [e.value for e in at.error]
    rows = shown_rows(at)
    assert len(rows) == len(frame)
    for shown, (_, row) in zip(rows, frame.iterrows()):
        assert shown["Item"] == row["item"]
        assert shown["Printed"] == row["printed"]
        assert shown["Computed"] == (row["computed"] if isinstance(row["computed"], str) else "—")
        assert shown[" "] == gv.STATUS_CELL[row["status"]]
        if row["explanation"]:
            assert shown["Why / how"] == row["explanation"]
    # The summary counts the same rows.
    summary = at.dataframe[0].value
    summary = summary[[c for c in summary.columns if not c.endswith(SHOWN_SUFFIX)]]   # the counts, not their text
    assert int(summary.to_numpy().sum()) == len(frame)
    assert summary["✗ differs"].sum() == (frame["status"] == "differs").sum()


def test_every_paper_has_a_section_and_links_into_the_app(frame):
    at = open_page()
    headers = [h.value for h in at.header]
    assert headers == list(gallery.PAPERS.values())
    pages = {link.proto.page for link in at.page_link}
    assert pages <= URL_PATHS
    # Every page an entry links to (or its fallback) is reachable from the gallery.
    wanted = {r["page"] for r in frame["link"] if r is not None}
    assert wanted <= pages
    assert len(at.page_link) >= frame["section"].nunique() - 4  # not-recomputable sections may have no link


def test_a_table_link_carries_its_table(frame):
    at = open_page(gal_p=["rh2007"])
    links = [link for link in at.page_link if link.proto.label == "Solution C in the Table lab"]
    assert links and links[0].proto.page == "table_lab"
    table = decode_table(parse_qs(links[0].proto.query_string)["table"][0])
    fig2 = json.loads((gallery.ASSET_DIR / "rosenberg2007_figure2.json").read_text())
    assert table.to_numpy().tolist() == fig2["reconstructions"]["C"]
    compare = next(link for link in at.page_link if link.proto.label == "Compare A and B")
    assert parse_qs(compare.proto.query_string)["a"] == ["rh_figure2_A"]


def test_only_what_does_not_agree(frame):
    at = open_page()
    at.toggle(key="gal_open").set_value(True).run()
    assert not at.exception
    rows = shown_rows(at)
    assert len(rows) == int((frame["status"] != "agrees").sum())
    assert all(r[" "] != gv.STATUS_CELL["agrees"] for r in rows)
    # The toggle is bound to the URL: a link with gal_open=true opens the page filtered.
    linked = open_page(gal_open="true")
    assert linked.toggle(key="gal_open").value is True and len(shown_rows(linked)) == len(rows)


def test_paper_filter_and_link_to_one_paper(frame):
    at = open_page(gal_p=["utt2014", "dom2001"])
    assert not at.exception and not at.warning
    assert [h.value for h in at.header] == [gallery.PAPERS["dom2001"], gallery.PAPERS["utt2014"]]
    assert len(shown_rows(at)) == int(frame["paper"].isin(["utt2014", "dom2001"]).sum())
    at.pills(key="gal_p").set_value([]).run()
    assert not at.exception and any("at least one paper" in i.value for i in at.info)


def test_an_unknown_paper_in_the_link_is_named():
    at = open_page(gal_p=["nobody2020"])
    assert not at.exception
    assert any("nobody2020" in w.value for w in at.warning)
    assert len(at.header) == len(gallery.PAPERS)


def test_unreadable_paper_values_end_in_st_error(tmp_path, monkeypatch):
    for f in (p for p in gallery.ASSET_DIR.iterdir() if p.name.endswith(".json")):
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "wu2009_table10.json").write_text("{broken")
    monkeypatch.setattr(gallery, "ASSET_DIR", tmp_path)
    gv.gallery_frame.clear()
    try:
        at = open_page()
        assert not at.exception
        assert len(at.error) == 1 and "wu2009_table10.json" in at.error[0].value
    finally:
        gv.gallery_frame.clear()
