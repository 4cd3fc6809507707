"""The Generator lab in a real browser (Debian's chromium through Playwright; the ``server`` and
``browser`` fixtures are in ``conftest.py``).

The walk: open the app, go to the Generator lab through the sidebar, see Figure 3's table and the
sweep; move the |Ku| slider — the table gains a cluster, the sweep's curves change and the URL
keeps the value —, then move ε1 — the sweep's marker follows; save a screenshot under the test's
tmp dir. No error element and no page error along the way.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.e2e.e2e_support import DONE

# The figures' state as Plotly holds it in the page: the heatmap's clusters, and the sweep on the
# goodness scale (its dashed "slider" line and its curves).
STATE_JS = """() => {
  const plots = [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')];
  const heat = plots.find(p => p._fullData && p._fullData.length && p._fullData[0].type === 'heatmap');
  const sweep = plots.find(p => p._fullLayout && p._fullLayout.yaxis && p._fullLayout.yaxis.title
                            && /goodness \\(1 = best\\)/.test(p._fullLayout.yaxis.title.text || ''));
  if (!heat || !sweep) return null;
  const marker = (sweep._fullLayout.shapes || []).find(s => s.name === 'slider');
  return {clusters: [...heat._fullData[0].x], marker: marker ? marker.x0 : null,
          curves: sweep._fullData.map(d => [d.name, [...d.y]])};
}"""


def _state(page) -> dict:
    return page.evaluate(STATE_JS)


def _press(page, label: str, key: str = "ArrowRight") -> float:
    """Focus the slider labelled ``label``, press ``key`` once; seconds until the rerun ends."""
    slider = page.get_by_test_id("stSlider").filter(has_text=label).get_by_role("slider")
    slider.focus()
    start = time.monotonic()
    slider.press(key)
    page.wait_for_selector(DONE, timeout=60_000)
    return time.monotonic() - start


def test_generator_lab_slider_moves_the_table_and_the_sweep(server, browser, tmp_path):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    page.goto(server, timeout=60_000)
    page.wait_for_selector(DONE, timeout=60_000)
    nav = page.get_by_test_id("stSidebarNavLink")
    nav.filter(has_text="Generator lab").click()
    page.wait_for_url("**/generator_lab**", timeout=30_000)
    page.wait_for_selector(DONE, timeout=120_000)
    page.wait_for_function(f"({STATE_JS})() !== null", timeout=60_000)

    # Figure 3: 3 useful clusters + 1 noise cluster; the sweep runs over ε1 with the marker at 0.1.
    before = _state(page)
    assert before["clusters"] == ["K1", "K2", "Knoise1"]
    assert before["marker"] == pytest.approx(0.1)

    # |Ku| 2 → 3: a third useful cluster appears and every curve of the sweep moves. The table
    # and the sweep chart are redrawn one after the other: wait for both.
    curves_before = page.evaluate(f"() => JSON.stringify(({STATE_JS})().curves)")
    seconds = _press(page, "|Ku| useful clusters")
    page.wait_for_function(f"""(before) => {{ const s = ({STATE_JS})();
                                  return s && s.clusters.length === 4 && JSON.stringify(s.curves) !== before; }}""",
                           arg=curves_before, timeout=60_000)
    after = _state(page)
    assert after["clusters"] == ["K1", "K2", "K3", "Knoise1"]
    assert json.dumps(after["curves"]) != json.dumps(before["curves"])
    page.wait_for_function("() => new URL(location.href).searchParams.get('g_Ku') === '3'", timeout=30_000)

    # ε1 0.10 → 0.11: the sweep's marker follows the slider.
    seconds_eps = _press(page, "ε1")
    page.wait_for_function(f"(() => {{ const s = ({STATE_JS})(); return s && Math.abs(s.marker - 0.11) < 1e-9; }})()",
                           timeout=60_000)
    page.wait_for_function("() => new URL(location.href).searchParams.get('g_e1') === '0.11'", timeout=30_000)

    # P1–P7 has its own tab (the first visit computes the grid); the URL names it.
    page.get_by_role("tab", name="Properties P1–P7 (Table 2)").click()
    page.wait_for_selector(DONE, timeout=120_000)
    page.get_by_text("Beside the printed Table 2", exact=False).first.wait_for(timeout=120_000)
    page.wait_for_function("() => (new URL(location.href).searchParams.get('g_tab') || '').startsWith('Properties')",
                           timeout=30_000)

    assert page.get_by_test_id("stException").count() == 0
    assert page.get_by_test_id("stAlertContentError").count() == 0
    assert not errors, errors
    shot = tmp_path / "generator_lab.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    print(f"rerun finished {seconds:.2f} s (|Ku|) and {seconds_eps:.2f} s (ε1) after the key press "
          "(browser, server and network)")
