"""The dashboard's colours, set once: every chart of every page takes its scales and palettes from here.

- :data:`COUNT_SCALE` — the one sequential scale, for counts (a contingency table's cells): pale
  for few items, dark for many. ColorBrewer's 9-class "Blues", written out as explicit stops.
  The name "Blues" must never reach plotly.js: there it is a legacy scale that runs the other way
  (dark for the *smallest* value), which drew every table of the Table lab, Compare, the
  Generator lab and Chance inverted while a ``go.Figure`` (which expands the name in Python) drew
  the lesson's tables the right way.
- :data:`DIVERGING_SCALE` — the one diverging scale, for "worse ↔ better" (goodness, agreement):
  orange for worse or opposite, near-white in the middle, purple for better or alike.
  ColorBrewer's "PuOr", colour-blind safe; no red–green pair anywhere.
- :data:`QUALITATIVE` — categories (algorithms, measure families, series): the Okabe–Ito palette,
  designed to stay distinct under the common colour-vision deficiencies.

Scales are lists of ``[position, colour]`` stops, which Plotly takes as they are on both sides.
"""

from __future__ import annotations

# ColorBrewer "Blues" (9 classes), lightest to darkest.
_BLUES = ["#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c", "#08306b"]
# ColorBrewer "PuOr" (9 classes) from orange (low) to purple (high).
_PUOR = ["#b35806", "#e08214", "#fdb863", "#fee0b6", "#f7f7f7", "#d8daeb", "#b2abd2", "#8073ac", "#542788"]


def _stops(colours: list[str]) -> list[list]:
    last = len(colours) - 1
    return [[round(i / last, 6), c] for i, c in enumerate(colours)]


COUNT_SCALE: list[list] = _stops(_BLUES)
DIVERGING_SCALE: list[list] = _stops(_PUOR)

# Bars beside a count heatmap (class and cluster sizes): a middle stop of the count scale.
COUNT_BAR = _BLUES[3]
# The diverging scale's two ends, for marks that say "worse / opposite" and "better / alike".
WORSE, BETTER = _PUOR[0], _PUOR[-1]

# Okabe & Ito (2008), "Color Universal Design": blue, orange, bluish green, vermillion, reddish
# purple, sky blue, yellow, black.
QUALITATIVE: tuple[str, ...] = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442",
                                "#000000")
# What is neither side (a tie, a missing value, a reference drawn behind the data).
NEUTRAL, MISSING = "#8c8c8c", "#cccccc"
# Outlines and marks that must stand out on any cell of either scale.
HIGHLIGHT = "#D55E00"


def rgba(hex_colour: str, alpha: float) -> str:
    """``#rrggbb`` as a CSS ``rgba(...)`` with the given opacity (fills, bands, links)."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r}, {g}, {b}, {alpha})"


def palette(n: int) -> list[str]:
    """``n`` category colours from :data:`QUALITATIVE`, cycling when there are more categories."""
    return [QUALITATIVE[i % len(QUALITATIVE)] for i in range(n)]
