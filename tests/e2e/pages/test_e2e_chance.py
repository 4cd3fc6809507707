"""The Chance page in a real browser (Debian's chromium through Playwright; the ``server`` and
``browser`` fixtures are in ``conftest.py``).

The walk: open ``/chance``; the sweep chart (scikit-learn's experiment) is drawn with the six
default measures; switch the random model from num1 to perm — the chart redraws with other means
and the URL names the model —; change the seed — the URL carries it (a bound widget: only the
browser writes it) —; open the URL in a new page and see the same chart; open the table tab and
see the null-distribution chart. No error element and no page error along the way.
"""

from __future__ import annotations

import json

from tests.e2e.e2e_support import DONE, no_errors, open_page

# The sweep chart's state as Plotly holds it in the page: each mean line's y values, by panel.
SWEEP_JS = """() => {
  const plots = [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')];
  const sweep = plots.find(p => p._fullData && p._fullData.some(d => d.name === 'mean of the random labelings'));
  if (!sweep) return null;
  return sweep._fullData.filter(d => d.name === 'mean of the random labelings').map(d => [...d.y]);
}"""
NULL_JS = """() => {
  const plots = [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')];
  const chart = plots.find(p => p._fullData && p._fullData.some(d => (d.name || '').startsWith('observed')));
  return chart ? chart._fullLayout.yaxis.ticktext.length : null;
}"""


def _sweep(page):
    return page.evaluate(f"() => JSON.stringify(({SWEEP_JS})())")


def test_chance_page_model_switch_redraws_the_sweep_and_the_url_reproduces_it(server, browser, tmp_path):
    page, errors = open_page(browser, f"{server}/chance")
    page.wait_for_function(f"({SWEEP_JS})() !== null", timeout=120_000)
    before = _sweep(page)
    assert len(json.loads(before)) == 6  # V, NMI, MI, Rand, ARI, AMI
    no_errors(page, errors)

    # num1 → perm: a new sampling run, the chart redraws with other means, the URL names the model.
    page.locator('.st-key-ch_sm [role="radio"]', has_text="perm").click()
    page.wait_for_function(f"(before) => {{ const s = JSON.stringify(({SWEEP_JS})()); "
                           f"return s !== 'null' && s !== before; }}", arg=before, timeout=120_000)
    page.wait_for_selector(DONE, timeout=120_000)
    page.wait_for_function("() => new URL(location.href).searchParams.get('ch_sm') === 'perm'", timeout=30_000)
    assert page.locator('.st-key-ch_sm [role="radio"][aria-checked="true"]').inner_text().strip() == "perm"
    no_errors(page, errors)

    # The seed: a bound number input, written into the URL by the browser. The sweep to wait
    # past is now perm's (seed 0), not the default model's: else the old chart may be read.
    before = _sweep(page)
    seed = page.locator('.st-key-ch_seed input')
    seed.fill("4")
    seed.press("Enter")
    page.wait_for_function("() => new URL(location.href).searchParams.get('ch_seed') === '4'", timeout=60_000)
    page.wait_for_selector(DONE, timeout=120_000)
    page.wait_for_function(f"(before) => {{ const s = JSON.stringify(({SWEEP_JS})()); "
                           f"return s !== 'null' && s !== before; }}", arg=before, timeout=120_000)
    shown = _sweep(page)
    page.screenshot(path=str(tmp_path / "chance-sweep.png"))

    # The address bar reproduces the page in a new tab.
    url = page.url
    other = browser.new_page()
    other.on("pageerror", lambda e: errors.append(str(e)))
    other.goto(url, timeout=60_000)
    other.wait_for_selector(DONE, timeout=120_000)
    other.wait_for_function(f"({SWEEP_JS})() !== null", timeout=120_000)
    assert _sweep(other) == shown
    assert other.locator('.st-key-ch_sm [role="radio"][aria-checked="true"]').inner_text().strip() == "perm"
    no_errors(other, errors)
    other.close()

    # The table tab: every measure of the default preset against its null distribution.
    page.get_by_role("tab", name="A table against chance").click()
    page.wait_for_function("() => new URL(location.href).searchParams.get('ch_tab') === 'A table against chance'",
                           timeout=60_000)
    page.wait_for_function(f"(({NULL_JS})() || 0) > 40", timeout=120_000)
    page.wait_for_selector(DONE, timeout=120_000)
    no_errors(page, errors)
    page.close()
