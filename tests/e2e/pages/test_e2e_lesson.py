"""The lesson in a real browser (Debian's chromium through Playwright; the ``server`` and
``browser`` fixtures are in ``conftest.py``).

The walk: open ``/lesson`` (step 1), then follow "Next" through every step. At each step the URL
names the step, the header is that step's; once its answer is revealed exactly one chart is on the
page and Plotly has drawn
it (its traces exist in the SVG), and every piece of the chart's text — as the browser lays it
out, Streamlit's theme included — is at least 11 px. At the last step "Next" is disabled. No
error element and no page error along the way; a screenshot per step under the test's tmp dir.
"""

from __future__ import annotations

from dashboard.lesson import steps as ls
from tests.e2e.e2e_support import DONE, FIGURE_FONTS_JS, no_errors, open_page

# A step's chart (the element keyed lesson_chart_<step key>) as the browser holds it: its traces'
# types, how many trace groups Plotly drew, and every font size of the laid-out figure
# (_fullLayout / _fullData: after templates and Streamlit's theme are applied).
CHART_JS = """(key) => {
  const plots = [...document.querySelectorAll(`.st-key-lesson_chart_${key} .js-plotly-plot`)];
  if (plots.length !== 1 || !plots[0]._fullData || !plots[0]._fullLayout) return null;
  const p = plots[0];
  return {types: p._fullData.map(d => d.type),
          drawn: p.querySelectorAll('g.trace, g.hm, .heatmaplayer image').length,
          sizes: (FONTS)(p)};
}""".replace("FONTS", FIGURE_FONTS_JS)
FIRST_TYPE = {"disagree": "bar", "v_singletons": "scatter", "vi_range": "scatter", "uniform": "scatter",
              "matching": "heatmap", "dom": "heatmap", "fuzzy": "scatter",
              "chance": "scatter"}


def test_walk_the_lesson_with_next(server, browser, tmp_path):
    assert set(FIRST_TYPE) == {s.key for s in ls.STEPS}
    page, errors = open_page(browser, f"{server}/lesson")
    for n, step in enumerate(ls.STEPS, start=1):
        page.wait_for_selector(DONE, timeout=180_000)
        if n > 1:
            page.wait_for_function(f"() => new URL(location.href).searchParams.get('step') === '{n}'",
                                   timeout=60_000)
        page.get_by_role("heading", name=f"{n}. {step.title}").first.wait_for(timeout=120_000)
        # The step asks first: its chart comes with the answer (revealed here without one, as a teacher would).
        page.locator(f".st-key-lesson_reveal_{step.key} button").first.click()
        page.wait_for_selector(DONE, timeout=180_000)
        page.wait_for_function(f"(key) => {{ const c = ({CHART_JS})(key); return c && c.drawn > 0 "
                               f"&& c.types[0] === '{FIRST_TYPE[step.key]}'; }}", arg=step.key, timeout=120_000)
        # The step's chart is the only one once the previous step's is gone.
        page.wait_for_function("() => document.querySelectorAll('[data-testid=\"stPlotlyChart\"]').length === 1",
                               timeout=60_000)
        chart = page.evaluate(CHART_JS, step.key)
        small = [(where, size) for where, size in chart["sizes"] if size < 11]
        assert chart["sizes"] and not small, (step.key, small)
        no_errors(page)
        page.screenshot(path=str(tmp_path / f"lesson-{n}.png"))
        nexts = page.get_by_test_id("stPageLink").filter(has_text="Next")
        if n < len(ls.STEPS):
            nexts.filter(has_text=f"step {n + 1}").first.click()
        else:                                                         # the last step: every Next is disabled
            assert nexts.count() == 2
            for i in range(nexts.count()):
                anchors = nexts.nth(i).locator("a")
                assert anchors.count() >= 1 and all(anchors.nth(j).get_attribute("disabled") is not None
                                                    for j in range(anchors.count()))
    assert not errors, errors


def test_a_bad_step_in_the_address_bar_shows_step_one(server, browser):
    page = browser.new_page()
    page.goto(f"{server}/lesson?step=banana", timeout=120_000)
    page.wait_for_selector(DONE, timeout=120_000)
    page.get_by_role("heading", name=f"1. {ls.STEPS[0].title}").first.wait_for(timeout=60_000)
    page.get_by_text("There is no step 'banana'", exact=False).first.wait_for(timeout=30_000)
    page.wait_for_function("() => new URL(location.href).searchParams.get('step') === '1'", timeout=30_000)
    no_errors(page)

