"""The Solutions page in a real browser (Debian's chromium through Playwright; the ``server`` and
``browser`` fixtures are in ``conftest.py``).

The walk: open the page on its upload source, upload a file with a gold column and three
solutions through the file input, wait for the verdict heatmap, and read the ranking the page
shows — the rank in every cell of the rendered heatmap and the "Ranked first" list — against
``metrics.rank_solutions(metrics.compare_solutions(...))`` of the same file. Then pick another
solution for the Sankey diagram and follow the Compare link.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import metrics
from dashboard.solutions import views as sv
from metrics.core.formatting import format_number
from tests.e2e.e2e_support import DONE

# The verdict heatmap as drawn: its solutions (y), measures (x) and cell texts (the ranks).
HEATMAP_JS = """() => {
  const plots = [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')];
  const heat = plots.map(p => (p._fullData || [])[0]).find(d => d && d.type === 'heatmap' && d.colorbar
      && /goodness/.test(d.colorbar.title.text));
  return heat ? {y: heat.y, x: heat.x, text: heat.text} : null;
}"""
SANKEY_JS = """() => {
  const plots = [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')];
  const s = plots.map(p => (p._fullData || [])[0]).find(d => d && d.type === 'sankey');
  return s ? s.node.label : null;
}"""


def test_upload_three_solutions_and_read_the_ranking(server, browser, tmp_path):
    rng = np.random.default_rng(12)
    n = 90
    gold = rng.choice(["north", "south", "east"], size=n)
    df = pd.DataFrame({"gold": gold,
                       "good": np.where(rng.random(n) < 0.85, gold, "mixed"),       # close to gold
                       "coarse": np.where(gold == "north", "n", "other"),           # two classes merged
                       "split": np.char.add(gold, rng.choice(["-1", "-2", "-3"], size=n))})  # each class split
    path = tmp_path / "three.csv"
    df.to_csv(path, index=False)
    names = ["good", "coarse", "split"]
    frame = metrics.compare_solutions(df["gold"], df[names], sv.DEFAULT_KEYS)
    ranks = metrics.rank_solutions(frame)

    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server}/solutions?sol_src=upload", timeout=120_000)
        page.wait_for_selector(DONE, timeout=120_000)
        assert "do not travel in a link" in page.inner_text('[data-testid="stMain"]')
        page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
        page.wait_for_function(f"() => {{ const h = ({HEATMAP_JS})(); return h && h.y.length === 3; }}",
                               timeout=120_000)
        page.wait_for_selector(DONE, timeout=60_000)

        shown = page.evaluate(HEATMAP_JS)
        assert shown["y"] == names
        assert shown["x"] == [metrics.MEASURES[k].symbol for k in sv.DEFAULT_KEYS]
        assert shown["text"] == [[format_number(int(r)) for r in row] for row in ranks.to_numpy().tolist()]

        # The ranking in words, as rendered: one line per solution (or tie) some measure ranks first.
        items = page.locator('[data-testid="stMain"] [data-testid="stMarkdownContainer"] li').all_inner_texts()
        want = []
        for best, keys in sv.first_places(ranks):
            who = " = ".join(best) + (" (tied)" if len(best) > 1 else "")
            want.append(f"{who}: {', '.join(metrics.MEASURES[k].symbol for k in keys)}")
        assert [i.strip() for i in items[:len(want)]] == want
        assert want[0].startswith("good: ")  # the clustering close to gold wins most measures
        assert page.get_by_test_id("stException").count() == 0
        assert page.get_by_test_id("stAlertContentError").count() == 0

        # Another solution for the Sankey diagram: its clusters on the right.
        box = page.get_by_role("combobox", name="Solution", exact=True)
        box.click()
        box.fill("split")  # typing filters the options (and opens the list however the click landed)
        page.locator('[role="option"]').filter(has_text="split").first.click()
        page.wait_for_function(f"() => {{ const l = ({SANKEY_JS})(); return l && l.includes('north-1'); }}",
                               timeout=60_000)
        labels = page.evaluate(SANKEY_JS)
        assert sorted(labels[:3]) == ["east", "north", "south"] and len(labels) == 3 + 9

        # One click opens two solutions in Compare, its state given by the link.
        page.get_by_role("link", name="Open good and coarse in Compare").click()
        page.wait_for_url("**/compare**", timeout=60_000)
        page.wait_for_selector(DONE, timeout=120_000)
        for side, name in (("A", "good"), ("B", "coarse")):
            page.wait_for_function(f"""() => {{ const i = document.querySelector('input[aria-label="Solution {side}"]');
                                      return i && i.value === '{name} (sent by a link)'; }}""", timeout=60_000)
        assert "A (good)" in page.inner_text('[data-testid="stMain"]')  # the verdict names the link's solution
        assert page.get_by_test_id("stException").count() == 0
        assert not errors, errors
    finally:
        page.close()
