"""The lesson's presenter view and its place in the browser's history, in a real browser (Debian's
chromium through Playwright; ``server`` and ``browser`` fixtures in ``tests/e2e/conftest.py``).

* At 1280×720 (a projector) ``lesson?step=N&present=1``: no sidebar, and once the answer is
  revealed the chart lies inside the first screen beside the narrative, every piece of its text
  (Plotly's laid-out fonts and the SVG text the browser measures) at 16 px or more; → and
  PageDown go to the next step, ← and PageUp to the one before — through all the steps; step 5's
  four panel titles do not overlap.
* "Next" at the bottom of a step opens the next step scrolled to its top.
* Back after an "explore this" link returns to the step in one press — every explore link of every
  step, read from the steps' own definitions: the link adds exactly one entry to the browser's
  history, its page keeps the address the link wrote, and one Back shows the step again; the
  sidebar's Lesson link returns to the step last seen.
"""

from __future__ import annotations

import math
from pathlib import PurePosixPath
from urllib.parse import parse_qs, urlsplit

import pytest

from dashboard.lesson import presenter
from dashboard.lesson import steps as ls
from dashboard.ui.controls import Settings
from tests.e2e.e2e_support import FIGURE_FONTS_JS, no_errors, open_page, settled

SCREEN = {"width": 1280, "height": 720}
TALL = {"width": 1400, "height": 1400}

# Every font size of the step's chart as Plotly laid it out, the SVG text the browser drew (its
# computed size), and where the chart and its plot area sit on the screen.
CHART_JS = """(key) => {
  const plots = [...document.querySelectorAll(`.st-key-lesson_chart_${key} .js-plotly-plot`)];
  if (plots.length !== 1 || !plots[0]._fullLayout) return null;
  const p = plots[0];
  const drawn = [...p.querySelectorAll('svg text')].filter(t => t.textContent.trim() && t.getBBox().width > 0)
    .map(t => [t.textContent.slice(0, 30), parseFloat(getComputedStyle(t).fontSize)]);
  const box = p.getBoundingClientRect();
  return {sizes: (FONTS)(p), drawn, top: box.top, bottom: box.bottom, left: box.left, right: box.right};
}""".replace("FONTS", FIGURE_FONTS_JS)
SIDEBAR_GONE_JS = """() => { const s = document.querySelector('[data-testid="stSidebar"]');
  if (!s) return true; const b = s.getBoundingClientRect();
  return getComputedStyle(s).display === 'none' || b.width === 0 || b.right <= 0; }"""
STEP_JS = "() => new URL(location.href).searchParams.get('step')"


def at_step(page, n: int) -> None:
    """Wait until step ``n`` is shown and the address bar names it."""
    page.wait_for_function(f"() => ({STEP_JS})() === '{n}'", timeout=120_000)
    settled(page)
    page.get_by_role("heading", name=f"{n}. {ls.STEPS[n - 1].title}").first.wait_for(timeout=120_000)


def reveal(page, n: int) -> dict:
    """Reveal step ``n``'s answer (no answer chosen: the teacher's reveal) and read its chart."""
    key = ls.STEPS[n - 1].key
    page.locator(f".st-key-lesson_reveal_{key} button").first.click()
    settled(page)
    page.wait_for_function(f"(key) => ({CHART_JS})(key) !== null", arg=key, timeout=120_000)
    page.wait_for_timeout(300)
    return page.evaluate(CHART_JS, key)


def test_presenter_view_fits_a_projector_screen_and_follows_the_keys(server, browser, tmp_path):
    page, errors = open_page(browser, f"{server}/lesson?step=1&present=1", SCREEN)
    total = len(ls.STEPS)
    for n in range(1, total + 1):
        at_step(page, n)
        page.wait_for_function(SIDEBAR_GONE_JS, timeout=30_000)            # the sidebar takes no room
        # The question first, and no chart until the reveal.
        assert page.locator(f".st-key-lesson_chart_{ls.STEPS[n - 1].key}").count() == 0
        chart = reveal(page, n)
        assert 0 <= chart["top"] < SCREEN["height"] and chart["bottom"] <= SCREEN["height"] + 1, (n, chart)
        story = page.locator(".st-key-lesson_story").first.bounding_box()
        assert story["x"] < 60 and story["y"] < SCREEN["height"], (n, story)       # narrative at the left edge…
        assert story["x"] + story["width"] <= chart["left"] + 1, (n, story, chart)  # …and the chart beside it
        small = [(w, s) for w, s in chart["sizes"] if s < presenter.PRESENTER_MIN_PX]
        small_drawn = [(t, s) for t, s in chart["drawn"] if s < presenter.PRESENTER_MIN_PX]
        assert chart["sizes"] and chart["drawn"] and not small and not small_drawn, (n, small, small_drawn[:5])
        if ls.STEPS[n - 1].key == "matching":          # four panels side by side: their titles must not touch
            boxes = page.evaluate("""(key) => [...document.querySelectorAll(
                `.st-key-lesson_chart_${key} .js-plotly-plot .annotation`)].map(a => {
                const r = a.getBoundingClientRect(); return [a.textContent, r.left, r.top, r.right, r.bottom]; })""",
                                  ls.STEPS[n - 1].key)
            titles = [b for b in boxes if b[0].startswith(tuple("ABCD")) and "F = " in b[0]]
            assert len(titles) == 4, boxes
            clash = [(a[0], b[0]) for i, a in enumerate(titles) for b in titles[i + 1:]
                     if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]]
            assert not clash, clash
        no_errors(page)
        page.screenshot(path=str(tmp_path / f"present-{n}.png"))
        if n < total:                       # → and PageDown (a clicker) alternate
            page.locator("body").press("ArrowRight" if n % 2 else "PageDown")
    page.keyboard.press("ArrowRight")       # past the last step: nothing happens
    page.wait_for_timeout(1000)
    assert page.evaluate(STEP_JS) == str(total)
    page.keyboard.press("ArrowLeft")
    at_step(page, total - 1)
    page.keyboard.press("PageUp")
    at_step(page, total - 2)
    assert page.evaluate("() => new URL(location.href).searchParams.get('present')") == "1"
    assert not errors, errors
    page.close()


def test_next_at_the_bottom_opens_the_next_step_at_its_top(server, browser):
    page, _ = open_page(browser, f"{server}/lesson?step=1&reveal=1", SCREEN)
    at_step(page, 1)
    page.wait_for_function(f"(key) => ({CHART_JS})(key) !== null", arg=ls.STEPS[0].key, timeout=120_000)
    bottom_next = page.locator(".st-key-lesson_next_end a").first
    bottom_next.scroll_into_view_if_needed()
    scrolled = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTop")
    assert scrolled > 0
    bottom_next.click()
    at_step(page, 2)
    page.wait_for_timeout(500)
    heading = page.get_by_role("heading", name=f"2. {ls.STEPS[1].title}").first.bounding_box()
    assert heading is not None and 0 <= heading["y"] < SCREEN["height"], heading
    assert page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTop") == 0
    page.close()


def test_back_after_an_explore_link_and_the_sidebar_return_to_the_step(server, browser):
    page, _ = open_page(browser, f"{server}/lesson?step=4", TALL)
    at_step(page, 4)
    page.locator(".st-key-lesson_next a").first.click()                        # one entry per step
    at_step(page, 5)
    reveal(page, 5)
    page.get_by_test_id("stPageLink").filter(has_text="Explore A against B").first.click()
    page.wait_for_function("() => location.pathname.endsWith('/compare')", timeout=60_000)
    settled(page)
    page.go_back()                                                        # ONE press
    at_step(page, 5)
    assert page.evaluate("() => location.pathname").endswith("/lesson")
    page.go_back()                                                        # and once more: the step before
    at_step(page, 4)
    # From another page, the sidebar's Lesson link opens the step last seen.
    page.get_by_test_id("stSidebarNavLink").filter(has_text="Compare").first.click()
    page.wait_for_function("() => location.pathname.endsWith('/compare')", timeout=60_000)
    settled(page)
    page.get_by_test_id("stSidebarNavLink").filter(has_text="Lesson").first.click()
    at_step(page, 4)
    no_errors(page)
    page.close()


@pytest.mark.parametrize("n", range(1, len(ls.STEPS) + 1))
def test_every_explore_link_costs_one_history_entry_and_back_returns_to_its_step(server, browser, n):
    links = ls.build_view(n, Settings(math.e, 1.0, "nats")).explore   # the step's own links (sidebar defaults)
    assert links
    for link in links:
        page, errors = open_page(browser, f"{server}/lesson?step={n}", TALL)
        at_step(page, n)
        reveal(page, n)
        before = page.evaluate("() => history.length")
        page.get_by_test_id("stPageLink").filter(has_text=link.label).first.click()
        path = "/" + PurePosixPath(link.page).stem
        page.wait_for_function(f"() => location.pathname.endsWith('{path}')", timeout=60_000)
        settled(page)
        page.wait_for_timeout(1_000)                # a late address write would come now
        settled(page)
        assert page.evaluate("() => history.length") == before + 1, (n, link.label, page.url)
        wanted = {k: v if isinstance(v, list) else [v] for k, v in link.params.items()}
        assert parse_qs(urlsplit(page.url).query) == wanted, (n, link.label, page.url)
        page.go_back()                                                    # ONE press
        at_step(page, n)
        assert page.evaluate("() => location.pathname").endswith("/lesson"), (n, link.label)
        assert page.evaluate("() => history.length") == before + 1
        no_errors(page, errors)
        page.close()
