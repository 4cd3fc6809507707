"""Figures for slides (``dashboard.ui.figures.export``): every chart of every page offers SVG and
PNG at slide size; nothing is made until a user asks; the images are real (an SVG root and a PNG
header at 1600 × 900) and drawn by Debian's Chromium offline; a second request is served from the
cache.
"""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET

import pandas as pd
import pytest

import metrics
from dashboard.solutions import charts as sc
from dashboard.ui.figures import charts, export
from dashboard.ui.figures.lines import line_panels
from dashboard.ui.readout import PROJECTOR_SIZES
from tests.dashboard.apptest_utils import open_app
from tests.dashboard.test_charts_text import STATES, page, specs

needs_chromium = pytest.mark.skipif(export.chromium_path() is None,
                                    reason="no Chromium (Debian: apt-get install chromium); CI installs it")



@pytest.fixture(scope="module", autouse=True)
def _close_the_browser():
    # The export keeps one browser for the process; the suite leaves no process behind.
    yield
    export.stop_browser()


TABLE = pd.DataFrame([[9, 1, 0], [2, 7, 1], [0, 0, 30]], index=["a", "b", "c"], columns=["k1", "k2", "k3"])


def _figures() -> dict:
    """One figure of each kind the pages draw: a count heatmap, the goodness bars, small multiples
    of lines, a diverging heatmap (Solutions) and a Sankey diagram."""
    t = metrics.Contingency.from_table(TABLE)
    values = {k: metrics.MEASURES[k](t) for k in ("vi", "ari", "purity", "v_measure")}
    frame = pd.DataFrame({"k": [2, 3, 4] * 2, "value": [0.1, 0.4, 0.3, 0.2, 0.5, 0.6],
                          "algo": ["A"] * 3 + ["B"] * 3})
    scores = pd.DataFrame({"vi": [0.5, 1.2], "ari": [0.8, 0.1]}, index=["one", "two"])
    return {
        "heatmap": charts.heatmap_figure(TABLE),
        "goodness": charts.goodness_figure(values, list(values)),
        "lines": line_panels(frame, x="k", y="value", series="algo", x_title="k", y_title="value"),
        "scores": sc.scores_heatmap(scores, scores.rank(), {}),
        "sankey": sc.sankey_figure(t, "solution")[0],
    }


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def _svg_size(data: bytes) -> tuple[int, int]:
    root = ET.fromstring(data)
    assert root.tag.endswith("svg"), root.tag
    return int(float(root.get("width"))), int(float(root.get("height")))


def test_a_slide_spec_is_16_9_at_slide_size_with_text_at_projector_size():
    from tests.dashboard.test_charts_text import _sizes

    for name, fig in _figures().items():
        spec = export.slide_spec(fig)
        assert (spec["layout"]["width"], spec["layout"]["height"]) == (1600, 900), name
        sizes = [s for _, s in _sizes(spec)]
        assert sizes and min(sizes) >= PROJECTOR_SIZES.tick, (name, min(sizes))
        assert spec["layout"]["font"]["size"] >= PROJECTOR_SIZES.body
    fig = _figures()["heatmap"]
    before = fig.to_dict()["layout"].get("width")
    export.slide_spec(fig)
    assert fig.to_dict()["layout"].get("width") == before  # the cached, shared figure is not changed


@needs_chromium
def test_every_kind_of_chart_exports_valid_svg_and_png_at_slide_size():
    for name, fig in _figures().items():
        svg = export.slide_image(fig, "svg")
        png = export.slide_image(fig, "png")
        assert _svg_size(svg) == (1600, 900), name
        assert _png_size(png) == (1600, 900), name
        assert len(png) > 5_000, name   # something drawn, not an empty frame


def test_a_second_request_for_the_same_figure_is_served_from_the_cache(monkeypatch):
    calls = []
    monkeypatch.setattr(export, "render", lambda spec, fmt: calls.append(fmt) or b"<svg/>")
    export._cached_image.clear()
    fig = charts.heatmap_figure(TABLE)
    assert export.slide_image(fig, "svg") == b"<svg/>"
    assert export.slide_image(charts.heatmap_figure(TABLE.copy()), "svg") == b"<svg/>"   # same digest
    export.slide_image(fig, "png")
    export.slide_image(charts.heatmap_figure(TABLE + 1), "svg")                        # another figure
    assert calls == ["svg", "png", "svg"]
    export._cached_image.clear()


def test_an_unknown_format_or_a_missing_browser_is_said_in_words(monkeypatch):
    with pytest.raises(ValueError, match="unknown format"):
        export.render({"data": [], "layout": {}}, "gif")
    monkeypatch.setattr(export, "chromium_path", lambda: None)
    with pytest.raises(RuntimeError, match="need Chromium"):
        export.render({"data": [], "layout": {}}, "svg")


def test_opening_a_page_makes_no_image(monkeypatch):
    """Lazy: the buttons hold a callable that Streamlit runs on a click; drawing the page (here the
    Table lab, two charts) exports nothing."""
    calls = []
    monkeypatch.setattr(export, "render", lambda spec, fmt: calls.append(fmt) or b"")
    at = open_app("app_pages/analyse/table_lab.py", 120)
    assert not at.exception
    assert len(at.get("plotly_chart")) >= 2
    assert calls == []


@pytest.mark.parametrize("state", [s[0] for s in STATES])
def test_every_chart_on_every_page_offers_svg_and_png_for_slides(state):
    at = page(state)
    chart_keys = {k.split("-", 2)[-1] for k in specs(at)}
    buttons = {b.proto.id.split("-", 2)[-1]: b.proto for b in at.get("download_button")}
    missing = {k: [f for f in ("svg", "png") if f"{k}_slide_{f}" not in buttons] for k in chart_keys}
    assert not {k: v for k, v in missing.items() if v}, missing
    for k in chart_keys:
        assert buttons[f"{k}_slide_svg"].label == "SVG for slides"
        assert buttons[f"{k}_slide_png"].label == "PNG for slides"
