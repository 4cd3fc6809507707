"""The Paper gallery in a real browser (Debian's chromium through Playwright; the ``server`` and
``browser`` fixtures are in ``conftest.py``).

The walk: open the gallery by its URL, wait until every row of ``metrics.papers.gallery`` is drawn —
each table row shows its item, in order, with its status mark —, check that no error element
or exception is on the page, filter to the rows that do not agree, follow an entry's link to
the page that explores it, and save screenshots under the test's tmp dir.
"""

from __future__ import annotations

import pytest

from metrics.papers import gallery
from tests.e2e.e2e_support import DONE, no_errors, open_page

ROWS = '[data-testid="stTable"] tbody tr'
# The item column (the second cell) of every gallery table row, as rendered.
ITEMS_JS = """() => [...document.querySelectorAll('[data-testid="stTable"] tbody tr')]
  .map(tr => tr.querySelectorAll('td, th'))
  .filter(cells => cells.length >= 5)
  .map(cells => [cells[0].innerText.trim(), cells[1].innerText.trim()])"""
MARK = {"agrees": "✓", "truncated": "≈ truncated", "differs": "✗", "not recomputable": "—"}


@pytest.fixture(scope="module")
def frame():
    return gallery.gallery_frame()


def test_gallery_renders_every_row_without_errors(server, browser, frame, tmp_path):
    # The first visit computes the gallery (a few seconds of P1–P7 rates, property checks, experiments).
    page, errors = open_page(browser, f"{server}/gallery", timeout=180_000)
    page.wait_for_function(f"() => document.querySelectorAll('{ROWS}').length === {len(frame)}", timeout=180_000)
    page.wait_for_selector(DONE, timeout=60_000)

    shown = page.evaluate(ITEMS_JS)
    assert [item for _, item in shown] == frame["item"].tolist()
    assert [mark for mark, _ in shown] == [MARK[s] for s in frame["status"]]
    for title in gallery.PAPERS.values():
        assert page.get_by_role("heading", name=title).count() >= 1
    no_errors(page)
    shot = tmp_path / "gallery.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000

    # Only the rows that do not agree; the URL keeps the filter.
    page.get_by_test_id("stCheckbox").filter(has_text="Only what does not agree").locator("label").click()
    open_rows = int((frame["status"] != "agrees").sum())
    page.wait_for_function(f"() => document.querySelectorAll('{ROWS}').length === {open_rows}", timeout=60_000)
    page.wait_for_function("() => new URL(location.href).searchParams.get('gal_open') === 'true'", timeout=30_000)
    assert all(mark != MARK["agrees"] for mark, _ in page.evaluate(ITEMS_JS))
    no_errors(page)
    page.screenshot(path=str(tmp_path / "gallery-open.png"))

    # An entry's link opens the page that explores it, in the state it names.
    page.get_by_test_id("stPageLink").filter(has_text="Compare singletons and solution R").first.click()
    page.wait_for_url("**/compare**", timeout=60_000)
    page.wait_for_selector(DONE, timeout=60_000)
    # (a and b are Compare's defaults, so the page leaves them out of the URL; the measures stay.)
    page.wait_for_function("() => new URL(location.href).searchParams.getAll('m').includes('nvik')",
                           timeout=30_000)
    page.get_by_text("prefer", exact=False).first.wait_for(timeout=60_000)
    no_errors(page, errors)
