"""True colours on every page: every heatmap the app draws takes one of the dashboard's two scales
(``dashboard.ui.figures.colours``), given as explicit stops, and on a table of counts the largest
count gets the darkest colour.

The pages run under ``AppTest`` in the states ``test_charts_text`` opens (shared with it: each
state runs once per session) and every page of the app in its default state, so a new page is
checked without being listed. The browser-level counterpart (the colours plotly.js resolves) is
``tests/e2e/test_e2e_colours.py``.
"""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest

import dashboard
from dashboard.ui.figures import colours
from tests.dashboard.apptest_utils import decoded, open_app
from tests.dashboard.test_charts_text import STATES, page, specs

_RUNS_DEFAULT: dict = {}
COVERED = {script for _, script, params in STATES if not params}
STATE_IDS = [s[0] for s in STATES] + [f"{name}-default" for name, script in dashboard.page_scripts().items()
                                      if script not in COVERED]


def _page(state_id: str):
    if state_id.endswith("-default") and state_id not in {s[0] for s in STATES}:
        if state_id not in _RUNS_DEFAULT:
            _RUNS_DEFAULT[state_id] = open_app(dashboard.page_scripts()[state_id[:-8]], 300)
        return _RUNS_DEFAULT[state_id]
    return page(state_id)


# ---------------------------------------------------------------- colour arithmetic (independent of the app)
def rgb(colour: str) -> tuple[float, float, float]:
    """A CSS colour as Plotly writes it (``#rrggbb``, ``rgb(r, g, b)``, ``rgba(...)``) → 0–255 floats."""
    colour = colour.strip()
    if colour.startswith("#") and len(colour) == 7:
        return tuple(float(int(colour[i:i + 2], 16)) for i in (1, 3, 5))  # type: ignore[return-value]
    m = re.fullmatch(r"rgba?\(([^)]*)\)", colour)
    assert m, f"not a colour this test reads: {colour!r}"
    r, g, b = (float(v) for v in m.group(1).split(",")[:3])
    return r, g, b


def luminance(colour: str) -> float:
    """WCAG relative luminance (0 = black, 1 = white)."""
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = rgb(colour)
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def colour_at(scale: list, t: float) -> tuple[float, float, float]:
    """The colour plotly.js gives position ``t`` ∈ [0, 1] of a scale of stops (linear in RGB)."""
    t = min(max(t, 0.0), 1.0)
    for (p0, c0), (p1, c1) in itertools.pairwise(scale):
        if p0 <= t <= p1:
            w = 0.0 if p1 == p0 else (t - p0) / (p1 - p0)
            a, b = rgb(c0), rgb(c1)
            return tuple(x + (y - x) * w for x, y in zip(a, b))  # type: ignore[return-value]
    raise AssertionError(f"{t} outside the scale")


def _lum_rgb(c: tuple[float, float, float]) -> float:
    return luminance("rgb({:.3f}, {:.3f}, {:.3f})".format(*c))


# ---------------------------------------------------------------- what every heatmap must satisfy
def _z(trace: dict) -> np.ndarray:
    z = decoded(trace.get("z"))
    rows = [[np.nan if v is None else float(decoded(v) if isinstance(v, dict) else v) for v in
             (decoded(r) if isinstance(r, dict) else r)] for r in z]
    return np.array(rows, dtype=float)


def _is_counts(trace: dict) -> bool:
    # A table of counts says so in its hover: "count …" or "… items".
    hover = str(trace.get("hovertemplate", ""))
    return "count" in hover or "items" in hover


def heatmap_problems(trace: dict, largest: float | None = None) -> list[str]:
    """Why a heatmap trace would not draw its values in the dashboard's true colours. ``largest``:
    the largest count of the whole figure (panels may share one range, so that equal counts look
    alike across them); the trace that holds it must draw it darkest. None: this trace's own."""
    scale = trace.get("colorscale")
    if isinstance(scale, str) or scale is None:
        # A name reaches plotly.js, whose legacy "Blues" (and others) run dark-to-light.
        return [f"colour scale given by name ({scale!r}), not as explicit stops"]
    scale = [[float(p), c] for p, c in scale]
    if trace.get("reversescale"):
        return ["reversescale set"]
    if scale not in (colours.COUNT_SCALE, colours.DIVERGING_SCALE):
        return [f"a colour scale of its own: {scale[0][1]} … {scale[-1][1]}"]
    if _is_counts(trace) and scale != colours.COUNT_SCALE:
        return ["a table of counts not drawn on the count scale"]
    if scale != colours.COUNT_SCALE:
        return []
    z = _z(trace)
    if not np.isfinite(z).any():
        return []
    lo, hi = float(np.nanmin(z)), float(np.nanmax(z))
    zmin = float(trace["zmin"]) if trace.get("zmin") is not None else lo
    zmax = float(trace["zmax"]) if trace.get("zmax") is not None else hi
    if zmax == zmin:
        return []
    darkest = min(luminance(c) for _, c in scale)
    at_max = _lum_rgb(colour_at(scale, (hi - zmin) / (zmax - zmin)))
    at_min = _lum_rgb(colour_at(scale, (lo - zmin) / (zmax - zmin)))
    out = []
    if hi == (hi if largest is None else largest) and not math.isclose(at_max, darkest, rel_tol=1e-6, abs_tol=1e-9):
        out.append(f"largest count {hi} drawn at luminance {at_max:.3f}, the darkest stop is {darkest:.3f}")
    if hi > lo and not at_max < at_min:
        out.append(f"largest count {hi} not darker than the smallest {lo}")
    return out


def _largest_count(spec: dict) -> float | None:
    counts = [_z(t) for t in spec.get("data", []) if t.get("type") == "heatmap" and
              t.get("colorscale") == colours.COUNT_SCALE]
    finite = [float(np.nanmax(z)) for z in counts if np.isfinite(z).any()]
    return max(finite, default=None)


# ---------------------------------------------------------------- the scales themselves
def test_the_count_scale_runs_from_light_to_dark_and_the_diverging_scale_through_a_light_middle():
    lum = [luminance(c) for _, c in colours.COUNT_SCALE]
    assert lum == sorted(lum, reverse=True) and lum[0] > 0.9 and lum[-1] < 0.05
    assert colours.COUNT_SCALE[0][0] == 0 and colours.COUNT_SCALE[-1][0] == 1
    div = [luminance(c) for _, c in colours.DIVERGING_SCALE]
    middle = len(div) // 2
    assert div[middle] == max(div)
    assert div[:middle + 1] == sorted(div[:middle + 1]) and div[middle:] == sorted(div[middle:], reverse=True)


def test_no_scale_or_palette_pairs_red_with_green():
    """Colour-blind safety, checked crudely but independently of the palette's provenance: no
    colour of a scale or the qualitative palette is a saturated red or a saturated green (the
    pair that deuteranopes and protanopes confuse)."""
    def hue_sat(c):
        r, g, b = (v / 255 for v in rgb(c))
        mx, mn = max(r, g, b), min(r, g, b)
        if mx == mn:
            return None, 0.0
        d = mx - mn
        h = (60 * ((g - b) / d % 6) if mx == r else 60 * ((b - r) / d + 2) if mx == g else 60 * ((r - g) / d + 4))
        return h, d / mx
    every = [c for _, c in colours.COUNT_SCALE + colours.DIVERGING_SCALE] + list(colours.QUALITATIVE)
    reds = [c for c in every if (hs := hue_sat(c))[0] is not None and (hs[0] < 12 or hs[0] > 345) and hs[1] > 0.5]
    greens = [c for c in every if (hs := hue_sat(c))[0] is not None and 90 <= hs[0] <= 150 and hs[1] > 0.5]
    assert not (reds and greens), (reds, greens)


def test_the_check_catches_the_inverted_tables_of_the_issue():
    """The check itself: the name "Blues" (plotly.js's legacy, inverted scale), a reversed scale,
    a red–yellow–green scale and counts on the diverging scale are reported; the count scale passes."""
    counts = {"type": "heatmap", "z": [[0, 3], [9, 1]], "hovertemplate": "count %{z}"}
    assert "by name" in " ".join(heatmap_problems({**counts, "colorscale": "Blues"}))
    assert heatmap_problems({**counts, "colorscale": colours.COUNT_SCALE, "reversescale": True})
    assert heatmap_problems({**counts, "colorscale": [[0, "#a50026"], [0.5, "#ffffbf"], [1, "#006837"]]})
    assert heatmap_problems({**counts, "colorscale": colours.DIVERGING_SCALE})
    dark_to_light = [[round(1 - p, 6), c] for p, c in reversed(colours.COUNT_SCALE)]
    assert heatmap_problems({**counts, "colorscale": dark_to_light})
    assert heatmap_problems({**counts, "colorscale": colours.COUNT_SCALE}) == []
    # zmax above the largest count leaves it short of the darkest colour: reported
    assert heatmap_problems({**counts, "colorscale": colours.COUNT_SCALE, "zmax": 20})


# ---------------------------------------------------------------- every page
@pytest.mark.parametrize("state", STATE_IDS)
def test_every_heatmap_on_every_page_draws_its_largest_count_darkest(state):
    at = _page(state)
    assert not at.exception, [e.value for e in at.exception]
    problems = {}
    for key, spec in specs(at).items():
        for i, trace in enumerate(spec.get("data", [])):
            if trace.get("type") == "heatmap":
                found = heatmap_problems(trace, _largest_count(spec))
                if found:
                    problems[f"{key[-40:]} data[{i}]"] = found
    assert not problems, problems


def test_the_pages_with_tables_of_counts_draw_them_on_the_count_scale():
    """The pages the issue names (Table lab, Compare, the Generator lab, Chance) and the lesson's
    step 5 each draw at least one count heatmap, so the check above really reads theirs."""
    seen = set()
    for state in STATE_IDS:
        for spec in specs(_page(state)).values():
            if any(t.get("type") == "heatmap" and t.get("colorscale") == colours.COUNT_SCALE
                   for t in spec.get("data", [])):
                seen.add(state.split("-")[0])
    assert {"table_lab", "compare", "generator_lab", "chance"} <= seen, seen
