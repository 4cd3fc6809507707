"""Figures for slides in a real browser: a click on "SVG for slides" / "PNG for slides" under the Table
lab's heatmap downloads the chart at 1600 × 900, made on the click by the server (kaleido driving
Debian's chromium, offline)."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET

from tests.e2e.e2e_support import DONE


def _download(page, label: str) -> bytes:
    # The heatmap's own buttons (its container's key): the page's other charts have theirs, and
    # whichever is drawn first would otherwise be the first on the page.
    buttons = page.locator(".st-key-lab_heatmap_slides").get_by_test_id("stDownloadButton")
    button = buttons.filter(has_text=label).locator("button").first
    button.wait_for(state="visible", timeout=90_000)
    button.scroll_into_view_if_needed(timeout=30_000)
    with page.expect_download(timeout=120_000) as info:
        button.click()
    path = info.value.path()
    assert info.value.suggested_filename.startswith("lab_heatmap.")
    with open(path, "rb") as f:
        return f.read()


def test_the_heatmap_downloads_as_svg_and_png_at_slide_size(server, browser):
    page = browser.new_page()
    try:
        page.goto(f"{server}/table_lab", timeout=60_000)
        page.wait_for_selector(DONE, timeout=90_000)
        svg = _download(page, "SVG for slides")
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg") and (root.get("width"), root.get("height")) == ("1600", "900")
        png = _download(page, "PNG for slides")
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (1600, 900)
        # No rerun of the page for a download (on_click="ignore"): the page is still idle and whole.
        assert page.locator(DONE).count() == 1
    finally:
        page.close()
