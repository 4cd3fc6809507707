"""True colours in a real browser (Debian's chromium): on every page that draws a heatmap, the
colour scale plotly.js resolves (``_fullData[i].colorscale`` — where a scale given by name, such
as "Blues", becomes plotly.js's own legacy stops) draws the largest count darkest, and every
heatmap uses one of the dashboard's two scales (``dashboard.ui.figures.colours``).

``tests/dashboard/ui/test_chart_colours.py`` checks the specs the pages send; this checks what
plotly.js makes of them.
"""

from __future__ import annotations

import itertools
import urllib.parse

import pytest

from dashboard.ui.figures.colours import COUNT_SCALE, DIVERGING_SCALE
from tests.e2e.e2e_support import DONE

# Every page that draws a heatmap, in a state that draws it (a count table unless said).
PAGES = {
    "table_lab": "table_lab",
    "compare": "compare",
    "generator_lab": "generator_lab",
    "chance": "chance?" + urllib.parse.urlencode({"ch_tab": "A table against chance", "ch_td": "200"}),
    "property_checker": "property_checker?" + urllib.parse.urlencode({"p_tab": "Symmetry: transpose"}),
    "lesson step 5": "lesson?step=5&reveal=1",
    "solutions (goodness and agreement: diverging)": "solutions",
}

# Per heatmap trace: its resolved scale, its z range, its largest value and whether it holds counts.
READ = """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')]
  .filter(gd => gd._fullData).flatMap(gd => gd._fullData.filter(t => t.type === 'heatmap').map(t => {
    const z = Array.from(t.z).flatMap(r => Array.from(r))
      .filter(v => v !== null && v !== undefined && !Number.isNaN(+v)).map(Number);
    return {scale: t.colorscale, zmin: t.zmin, zmax: t.zmax, hi: Math.max(...z), lo: Math.min(...z),
            reversed: !!t.reversescale, counts: /count|items/.test(t.hovertemplate || '')};
  }))"""


def _rgb(colour: str) -> tuple[float, ...]:
    colour = colour.strip()
    if colour.startswith("#"):
        return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return tuple(float(v) for v in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3])


def _luminance(rgb: tuple[float, ...]) -> float:
    lin = [c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _at(scale: list, t: float) -> tuple[float, ...]:
    t = min(max(t, 0.0), 1.0)
    for (p0, c0), (p1, c1) in itertools.pairwise(scale):
        if p0 <= t <= p1:
            w = 0.0 if p1 == p0 else (t - p0) / (p1 - p0)
            a, b = _rgb(c0), _rgb(c1)
            return tuple(x + (y - x) * w for x, y in zip(a, b))
    raise AssertionError(t)


def _same_scale(resolved: list, ours: list) -> bool:
    return len(resolved) == len(ours) and all(
        abs(float(p) - q) < 1e-9 and _rgb(c) == _rgb(d) for (p, c), (q, d) in zip(resolved, ours))


@pytest.mark.parametrize("name", list(PAGES))
def test_every_heatmap_plotly_draws_gives_its_largest_count_the_darkest_colour(server, browser, name):
    page = browser.new_page()
    try:
        page.goto(f"{server}/{PAGES[name]}", timeout=60_000)
        page.wait_for_selector(DONE, timeout=90_000)
        # Streamlit draws a chart once it is scrolled into view: bring each into view while waiting.
        page.wait_for_function(f"""() => {{
            document.querySelectorAll('[data-testid="stPlotlyChart"]').forEach(e => e.scrollIntoView());
            return ({READ})().length > 0; }}""", timeout=90_000, polling=500)
        traces = page.evaluate(READ)
    finally:
        page.close()
    counts = [t for t in traces if t["counts"]]
    assert counts or "diverging" in name, f"no count heatmap drawn on {name}"
    for t in traces:
        scale = [[float(p), c] for p, c in t["scale"]]
        assert not t["reversed"]
        assert _same_scale(scale, COUNT_SCALE) or _same_scale(scale, DIVERGING_SCALE), (name, scale)
    for t in counts:
        scale = [[float(p), c] for p, c in t["scale"]]
        assert _same_scale(scale, COUNT_SCALE), (name, scale)
        darkest = min(_luminance(_rgb(c)) for _, c in scale)
        at_hi = _luminance(_at(scale, (t["hi"] - t["zmin"]) / (t["zmax"] - t["zmin"])))
        at_lo = _luminance(_at(scale, (t["lo"] - t["zmin"]) / (t["zmax"] - t["zmin"])))
        # Panels may share one range (the lesson's four tables): the largest count of the figure is
        # darkest; in every panel a larger count is darker.
        if t["hi"] == t["zmax"]:
            assert abs(at_hi - darkest) < 1e-9, (name, t["hi"], at_hi, darkest)
        assert t["hi"] == t["lo"] or at_hi < at_lo, (name, t)
    if "lesson" in name:
        assert any(t["hi"] == t["zmax"] for t in counts)
