"""The Playground in a real browser (Debian's chromium through Playwright; the ``server`` and
``browser`` fixtures are in ``conftest.py``): a box drawn on the scatter selects items, "Move" puts
them in a new cluster, and the measures, the table and the URL change — the verdict the page
prints for each measure is the one metrics gives for the move the URL records."""

from __future__ import annotations

import re

import metrics
from dashboard.playground.moves import decode_moves
from dashboard.playground.views import DEFAULT_KEYS
from metrics.papers import playground as pg
from tests.e2e.e2e_support import DONE, open_page

SCATTER = '[data-testid="stPlotlyChart"] .js-plotly-plot'
# The number of clusters (columns) of the contingency heatmap drawn beside the scatter.
HEAT_COLUMNS_JS = """() => {
  const plots = [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')];
  const heat = plots.find(p => p._fullData && p._fullData.some(t => t.type === 'heatmap'));
  if (!heat) return null;
  return heat._fullData.find(t => t.type === 'heatmap').x.length;
}"""


def test_a_box_selection_moved_to_a_new_cluster_changes_the_measures(server, browser, tmp_path):
    page, errors = open_page(browser, f"{server}/playground?pg_scene=noise&pg_n=60")
    page.wait_for_function(f"() => document.querySelector('{SCATTER}') && "
                           f"document.querySelector('{SCATTER}')._fullData", timeout=60_000)
    page.get_by_text("No items selected").wait_for(timeout=30_000)
    clusters_before = page.evaluate(HEAT_COLUMNS_JS)

    # A box over the middle of the plot (the chart's drag mode is box select).
    drag = page.locator(f"{SCATTER} .nsewdrag").first
    box = drag.bounding_box()
    x0, y0 = box["x"] + box["width"] * 0.2, box["y"] + box["height"] * 0.2
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + box["width"] * 0.3, y0 + box["height"] * 0.3, steps=8)
    page.mouse.move(box["x"] + box["width"] * 0.8, box["y"] + box["height"] * 0.8, steps=8)
    page.mouse.up()
    page.get_by_text(re.compile(r"\d+ items? selected")).first.wait_for(timeout=30_000)
    page.wait_for_selector(DONE, timeout=60_000)
    page.screenshot(path=str(tmp_path / "selected.png"))

    page.wait_for_function("() => document.querySelectorAll('.st-key-pg_move button').length === 1",
                           timeout=30_000)
    page.locator(".st-key-pg_move button").click()
    page.wait_for_function("() => new URL(location.href).searchParams.getAll('pg_mv').length === 1",
                           timeout=60_000)
    page.get_by_text("After the last move").first.wait_for(timeout=60_000)
    page.wait_for_selector(DONE, timeout=60_000)
    page.screenshot(path=str(tmp_path / "moved.png"))
    assert page.get_by_test_id("stException").count() == 0
    assert not errors, errors

    # The move the URL records, replayed by metrics: the page's verdicts are its measures' changes.
    text = page.evaluate("() => new URL(location.href).searchParams.getAll('pg_mv')")
    scene = pg.scene("noise", 60, 0)
    moves, problem = decode_moves(text, scene.n)
    assert problem is None and len(moves) == 1 and moves[0].target is pg.NEW and moves[0].items
    states = pg.replay(scene.clusters, moves)
    before, after = (metrics.evaluate(metrics.Contingency.from_labels(scene.classes, s), DEFAULT_KEYS)
                     for s in states)
    changed = [k for k in DEFAULT_KEYS if abs(after[k] - before[k]) > 1e-12]
    assert changed, "a move to a new cluster changes some measure"
    sentence = page.get_by_text("After the last move").first.inner_text()
    for k in DEFAULT_KEYS:
        m = metrics.MEASURES[k]
        word = ("better" if (after[k] > before[k]) == m.higher_is_better else "worse") if k in changed \
            else "unchanged"
        part = re.search(rf"{word}: ([^;.]*)", sentence)
        assert part and m.symbol in [s.strip() for s in part.group(1).split(",")], (k, word, sentence)
    # The table beside the chart: one column per cluster of the moved clustering.
    page.wait_for_function(f"() => ({HEAT_COLUMNS_JS})() === {len(set(states[-1].tolist()))}", timeout=30_000)
    # The new cluster is offered as a target; Undo takes the move back (the URL empties).
    page.get_by_role("button", name="Undo").click()
    page.wait_for_function("() => new URL(location.href).searchParams.getAll('pg_mv').length === 0",
                           timeout=60_000)
    page.wait_for_selector(DONE, timeout=60_000)
    page.wait_for_function(f"() => ({HEAT_COLUMNS_JS})() === {clusters_before}", timeout=60_000)
    page.close()
