"""What a user reads, in a real browser (Debian's chromium): labels drawn as written, Compare's
value labels clear of each other, hover boxes inside their chart, no chart text under 11 px.

``tests/dashboard/test_charts_text.py`` checks the specs the pages send; this checks what
Plotly draws from them (escaping, text placement and sizes are Plotly's doing in the browser).
"""

from __future__ import annotations

import urllib.parse

import pandas as pd
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from dashboard.ui.tables import encode_table
from tests.e2e.e2e_support import DONE

BOLD, LINK, PERCENT = "<b>bold</b>", '<a href="x">x</a>', "50%{x}"
HOSTILE = pd.DataFrame([[5, 1, 0], [2, 7, 1], [0, 1, 6]], index=[BOLD, LINK, "a & b"],
                       columns=["K1", PERCENT, "<i>k</i>"])

# The plot (a `.js-plotly-plot` element) that ``test`` picks, by its data.
FIND = """(test) => [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')]
  .find(gd => gd._fullLayout && gd._fullData && test(gd))"""
IS_HEATMAP = "gd => gd._fullData.length && gd._fullData[0].type === 'heatmap'"
IS_PREFERENCE = "gd => gd._fullData.some(t => (t.name || '').startsWith('A: '))"
IS_GOODNESS = "gd => gd._fullData.length && gd._fullData[0].type === 'bar' && gd._fullData[0].orientation === 'h'"


def _open(page, url: str) -> None:
    page.goto(url, timeout=60_000)
    page.wait_for_selector(DONE, timeout=90_000)


def _wait_for(page, test: str) -> None:
    page.wait_for_function(f"() => !!({FIND})({test})", timeout=90_000)


def _hover_point(page, test: str, x_value, y_value) -> dict:
    """Move the mouse onto data coordinates (x_value, y_value) of the chart ``test`` picks (category
    values by index) and return the hover box: its text and its box and the chart's, in page pixels.

    Each try clears any hover box left from before (it would be read as this point's), works out
    where the point is now and moves there: Plotly throttles hover, a busy browser can drop a move,
    and a late layout change (the page still settling) redraws the chart and takes the box away.
    A box counts only once Plotly's hovered point is this one on every category axis: a hover
    still pending from the point before can draw that point's box again after it was cleared."""
    for attempt in range(6):
        where = page.evaluate(f"""([xv, yv]) => {{
            const gd = ({FIND})({test});
            gd.querySelectorAll('.hoverlayer > *').forEach(n => n.remove());
            const fl = gd._fullLayout, svg = gd.querySelector('.main-svg').getBoundingClientRect();
            return {{x: svg.left + fl.xaxis._offset + fl.xaxis.l2p(xv),
                     y: svg.top + fl.yaxis._offset + fl.yaxis.l2p(yv)}};
        }}""", [x_value, y_value])
        page.mouse.move(where["x"] + 3 + attempt, where["y"] + 1)
        page.mouse.move(where["x"], where["y"], steps=2)
        try:
            page.wait_for_function(f"""([xv, yv]) => {{
                const gd = ({FIND})({test});
                const pt = (gd._hoverdata || [])[0];
                if (!pt || !gd.querySelector('.hoverlayer .hovertext')) return false;
                const fl = gd._fullLayout;
                const at = (ax, v, want) => ax.type !== 'category' || Math.round(ax.d2l(v)) === want;
                return at(fl.xaxis, pt.x, xv) && at(fl.yaxis, pt.y, yv);
            }}""", arg=[x_value, y_value], timeout=4_000)
        except PlaywrightTimeout:
            continue
        hover = page.evaluate(f"""() => {{
            const gd = ({FIND})({test});
            const hovertext = gd.querySelector('.hoverlayer .hovertext');
            if (!hovertext) return null;
            const box = hovertext.getBoundingClientRect(), chart = gd.getBoundingClientRect();
            const text = [...gd.querySelectorAll('.hoverlayer .hovertext text')].map(t => t.textContent).join(' | ');
            const markup = gd.querySelectorAll('.hoverlayer a, .hoverlayer tspan[style*="bold"]').length;
            return {{text, markup, box: [box.left, box.top, box.right, box.bottom],
                    chart: [chart.left, chart.top, chart.right, chart.bottom]}};
        }}""")
        if hover is not None:
            return hover
    raise AssertionError(f"no hover box at ({x_value}, {y_value}) after 6 tries")


def test_a_class_named_with_markup_is_drawn_as_written(server, browser):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _open(page, f"{server}/table_lab?table={urllib.parse.quote(encode_table(HOSTILE))}")
    _wait_for(page, IS_HEATMAP)
    drawn = page.evaluate(f"""() => {{
        const gd = ({FIND})({IS_HEATMAP});
        const texts = sel => [...gd.querySelectorAll(sel)].map(t => t.textContent);
        return {{y: texts('.yaxislayer-above .ytick text'), x: texts('.xaxislayer-above .xtick text'),
                links: gd.querySelectorAll('a').length,
                bold: [...gd.querySelectorAll('.ytick tspan, .xtick tspan')].filter(
                    t => /bold|italic/.test(t.getAttribute('style') || '')).length}};
    }}""")
    # The tick labels are the literal strings: no <b> or <a> element, no bold or italic run.
    assert sorted(drawn["y"]) == sorted(HOSTILE.index), drawn     # (the DOM lists ticks bottom-up)
    assert sorted(drawn["x"]) == sorted(HOSTILE.columns), drawn
    assert drawn["links"] == 0 and drawn["bold"] == 0, drawn
    # So is the hover of the cell (class <b>bold</b>, cluster K1).
    hover = _hover_point(page, IS_HEATMAP, 0, 0)
    assert f"class {BOLD}" in hover["text"] and "cluster K1" in hover["text"] and "count 5" in hover["text"], hover
    assert hover["markup"] == 0, hover
    hover = _hover_point(page, IS_HEATMAP, 1, 1)
    assert f"class {LINK}" in hover["text"] and f"cluster {PERCENT}" in hover["text"], hover
    assert not errors, errors
    page.close()


def _label_boxes(page) -> list[dict]:
    return page.evaluate(f"""() => {{
        const gd = ({FIND})({IS_PREFERENCE});
        return [...gd.querySelectorAll('.scatterlayer .textpoint text')].filter(t => t.textContent).map(t => {{
            const r = t.getBoundingClientRect();
            return {{text: t.textContent, box: [r.left, r.top, r.right, r.bottom]}};
        }});
    }}""")


def _overlaps(a, b, slack: float = 0.5) -> bool:
    return (a[0] < b[2] - slack and b[0] < a[2] - slack) and (a[1] < b[3] - slack and b[1] < a[3] - slack)


def test_compare_value_labels_do_not_overlap(server, browser):
    """The default comparison, one with eight measures, and a table against itself (A and B
    at the very same point on every row): every value label's box clears every other's and the
    'against the majority' note."""
    page = browser.new_page()
    measures = "&".join(f"m={k}" for k in ("v_measure", "vi", "nvi", "ari", "mirkin", "purity", "bcubed_f", "vd_n"))
    for url in (f"{server}/compare", f"{server}/compare?a=rh_figure3&b=rr_solution_r&{measures}",
                f"{server}/compare?a=rh_figure3&b=rh_figure3&{measures}"):
        _open(page, url)
        _wait_for(page, IS_PREFERENCE)
        page.wait_for_timeout(500)
        labels = _label_boxes(page)
        n = page.evaluate(f"() => ({FIND})({IS_PREFERENCE})._fullData[0].y.length")
        assert len(labels) == 2 * n, labels
        clashes = [(a["text"], b["text"]) for i, a in enumerate(labels) for b in labels[i + 1:]
                   if _overlaps(a["box"], b["box"])]
        assert not clashes, (url, clashes)
        notes = page.evaluate(f"""() => [...({FIND})({IS_PREFERENCE}).querySelectorAll('.annotation')].map(a => {{
            const r = a.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }})""")
        assert not [(lab["text"], box) for lab in labels for box in notes if _overlaps(lab["box"], box)]
    page.close()


def test_goodness_hover_stays_inside_its_chart(server, browser):
    """The goodness chart's hover (name, value, range, goodness, description) fits inside the
    chart for its first and last bar: the description is wrapped, not cut at the chart's edge."""
    page = browser.new_page()
    _open(page, f"{server}/table_lab")
    _wait_for(page, IS_GOODNESS)
    rows = page.evaluate(f"() => ({FIND})({IS_GOODNESS})._fullLayout.yaxis._categories.length")
    for row, x in ((0, 0.1), (rows - 1, 0.1), (rows // 2, 0.05)):
        hover = _hover_point(page, IS_GOODNESS, x, row)
        (left, t, r, b), (cl, ct, cr, cb) = hover["box"], hover["chart"]
        assert cl - 1 <= left and r <= cr + 1 and ct - 1 <= t and b <= cb + 1, (row, hover)
        assert "goodness" in hover["text"], hover
    page.close()


def test_no_chart_text_is_drawn_under_11_px(server, browser):
    """Every text element Plotly draws on these pages (ticks, legends, titles, labels, cell and
    size labels, annotations) has a computed font size of at least 11 px."""
    page = browser.new_page()
    for path in ("table_lab", "compare", "generator_lab", "property_checker", "lesson?step=1&reveal=1"):
        _open(page, f"{server}/{path}")
        page.wait_for_function("""() => {
            const plots = [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')];
            return plots.length > 0 && plots.every(p => p._fullLayout); }""", timeout=90_000)
        page.wait_for_timeout(500)
        small = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stPlotlyChart"] svg text')]
            .filter(t => t.textContent.trim() && t.getBBox().width > 0)
            .map(t => [t.textContent.slice(0, 30), parseFloat(getComputedStyle(t).fontSize)])
            .filter(([, size]) => size < 11)""")
        assert not small, (path, small[:10])
    page.close()
