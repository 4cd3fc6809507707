"""The dashboard in a real browser: Debian's chromium driven by Playwright.

One server per test session (a free port, output to a log file), one browser profile per
session. The flow: a deep link is the very first request the server sees (it must still run
the entry script: the page list, the sidebar), the sidebar leads to Compare, a slider moves,
the morph chart follows, and a screenshot is saved under the test's tmp dir.
"""

from __future__ import annotations

from tests.e2e.e2e_support import DONE, MARKER_JS, open_page

# The `server` and `browser` fixtures live in tests/e2e/conftest.py (shared by every browser test).


def test_deep_link_then_compare_slider_moves_the_morph(server, browser, tmp_path):
    # A deep link as the server's first request still runs the entry script (navigation, sidebar).
    page, errors = open_page(browser, f"{server}/table_lab?preset=wu_table3_I")
    nav = page.get_by_test_id("stSidebarNavLink")
    nav.filter(has_text="Compare").wait_for(timeout=30_000)
    # (each link's text starts with its icon's ligature name)
    assert {"Home", "Table lab", "Compare"} <= {t.split("\n")[-1] for t in nav.all_inner_texts()}
    # The link's preset is in use (its provenance is shown).
    page.get_by_text("Table 3, matrix I", exact=False).first.wait_for(timeout=30_000)

    # Go to Compare through the sidebar.
    nav.filter(has_text="Compare").click()
    page.wait_for_url("**/compare**", timeout=30_000)
    page.wait_for_selector(DONE, timeout=60_000)
    page.wait_for_function(f"({MARKER_JS})() === 3", timeout=60_000)
    page.get_by_text("prefers A", exact=False).first.wait_for(timeout=30_000)

    # Move the noise slider one step: the morph's marker follows, and the URL keeps the value.
    slider = page.get_by_test_id("stSlider").filter(has_text="Noise of solution R").get_by_role("slider")
    slider.focus()
    slider.press("ArrowRight")
    page.wait_for_selector(DONE, timeout=60_000)
    page.wait_for_function(f"({MARKER_JS})() === 4", timeout=60_000)
    page.wait_for_function("() => new URL(location.href).searchParams.get('noise') === '4'", timeout=30_000)

    assert page.get_by_test_id("stException").count() == 0
    assert not errors, errors
    shot = tmp_path / "compare.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
