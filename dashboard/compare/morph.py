"""The morph on the Compare page: Reichart & Rappoport's solution R against singletons,
swept over R's noise or over the number of classes, with the points where a measure's
preference flips. The tables come from ``metrics.papers.generators`` (``solution_r``,
``singletons``); the values from ``metrics.evaluate``.

The morph does not follow the solutions A and B chosen above it, by design: a sweep needs a
family of tables with a parameter to move (R's noise, the number of classes), and two arbitrary
tables — an upload, an edited table — have none; interpolating between them would invent
tables no paper discusses. It is always R against singletons (the papers' case, and the
Compare page's default A and B), and the page says so in its title and caption.
"""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

import metrics
from dashboard.compare.charts import morph_figure
from dashboard.compare.view import NA, TIE, prefers
from dashboard.ui.tables import settings_for
from metrics.papers import generators

CLASS_SIZE = 10  # Reichart & Rappoport §5: 10 classes of 10 items
MIN_CLASSES, MAX_CLASSES = 2, 30
R_LABEL, S_LABEL = "Solution R", "Singletons"
AXES = {"noise": "noise of solution R (items of each class sent to other clusters)",
        "classes": "number of classes (both solutions cluster the same data)"}
AXIS_NAMES = {"noise": "noise", "classes": "classes"}


def max_noise(n_classes: int, class_size: int = CLASS_SIZE) -> int:
    """The largest noise the sliders offer: every class keeps at least one item in its own
    cluster, and its noise items go to distinct other clusters."""
    return min(class_size - 1, n_classes - 1)


def axis_values(axis: str, n_classes: int, noise: int, class_size: int = CLASS_SIZE) -> list[int]:
    """The x values of a sweep: every noise R admits, or every class count that admits ``noise``."""
    if axis == "noise":
        return list(range(max_noise(n_classes, class_size) + 1))
    if axis == "classes":
        return list(range(max(MIN_CLASSES, noise + 1), MAX_CLASSES + 1))
    raise ValueError(f"unknown sweep axis {axis!r}; choose one of {list(AXES)}")


@st.cache_resource(max_entries=64, show_spinner=False)
def sweep_tables(axis: str, n_classes: int, noise: int,
                 class_size: int = CLASS_SIZE) -> tuple[tuple[int, metrics.Contingency, metrics.Contingency], ...]:
    """(x, solution R, singletons) at every x of a sweep: built once per sweep and scored under
    any measures, β and unit (shared read-only; a table keeps what every measure shares)."""
    out = []
    for x in axis_values(axis, n_classes, noise, class_size):
        m, k = (n_classes, x) if axis == "noise" else (x, noise)
        out.append((x, generators.solution_r(m, class_size, k), generators.singletons([class_size] * m)))
    return tuple(out)


@st.cache_data(max_entries=128, show_spinner=False)
def sweep(axis: str, n_classes: int, noise: int, keys: tuple[str, ...], log_base: float = math.e,
          beta: float = 1.0, class_size: int = CLASS_SIZE) -> tuple[pd.DataFrame, dict[str, list[float]]]:
    """(curve, flips): each chosen measure of solution R and of singletons at every x of the
    sweep (long table: x, solution, key, value), and where each measure's preference flips.

    The swept parameter's own slider value does not enter the result: call through
    :func:`sweep_for`, which leaves it out of the cache key.
    """
    xs: list[int] = []
    r_values: dict[str, list[float]] = {key: [] for key in keys}
    s_values: dict[str, list[float]] = {key: [] for key in keys}
    rows: list[dict] = []
    for x, r_table, s_table in sweep_tables(axis, n_classes, noise, class_size):
        xs.append(x)
        for label, table, store in ((R_LABEL, r_table, r_values), (S_LABEL, s_table, s_values)):
            values = metrics.evaluate(table, list(keys), log_base=log_base, beta=beta)
            rows.extend({"x": x, "solution": label, "key": key, "value": values[key]} for key in keys)
            for key in keys:
                store[key].append(values[key])
    curve = pd.DataFrame(rows, columns=["x", "solution", "key", "value"])
    return curve, {key: flips(key, xs, s_values[key], r_values[key]) for key in keys}


def sweep_for(axis: str, n_classes: int, noise: int, keys: tuple[str, ...], log_base: float = math.e,
              beta: float = 1.0) -> tuple[pd.DataFrame, dict[str, list[float]]]:
    """:func:`sweep` with the swept parameter normalized away (one cache entry per sweep)."""
    if axis == "noise":
        return sweep(axis, n_classes, 0, keys, log_base, beta)
    return sweep(axis, 0, noise, keys, log_base, beta)


def flips(key: str, xs: list[int], singletons: list[float], solution_r: list[float]) -> list[float]:
    """Where measure ``key``'s preference between singletons (A) and solution R (B) changes
    along a sweep (``xs`` increasing, the two solutions' values at each): the x of a tie
    between two opposite preferences, else the midpoint."""
    out: list[float] = []
    last_side: str | None = None
    last_x = 0  # read only once a side was seen
    tie_x: int | None = None
    for x, s, r in zip(xs, singletons, solution_r):
        side = prefers(key, s, r)
        if side in (TIE, NA):
            tie_x = x if side == TIE else tie_x
            continue
        if last_side is not None and side != last_side:
            out.append(float(tie_x) if tie_x is not None and tie_x > last_x else (last_x + x) / 2)
        last_side, last_x, tie_x = side, x, None
    return out


def morph_chart(axis: str, n_classes: int, noise: int, keys: tuple[str, ...], log_base: float, beta: float):
    """(figure, values) of the morph at the sliders' position — built once per position and per
    the log base and β the measures see (``tables.settings_for``).

    ``values`` maps each solution's label to its measures at the sliders. A cached figure is
    shared read-only: ``st.plotly_chart`` copies it before encoding.
    """
    return _morph_chart(axis, n_classes, noise, keys, *settings_for(keys, log_base, beta))


@st.cache_resource(max_entries=256, show_spinner=False)
def _morph_chart(axis: str, n_classes: int, noise: int, keys: tuple[str, ...], log_base: float, beta: float):
    curve, flip_points = sweep_for(axis, n_classes, noise, keys, log_base, beta)
    current_x = noise if axis == "noise" else n_classes
    fig = morph_figure(curve, list(keys), AXES[axis], current_x, flip_points, (R_LABEL, S_LABEL),
                       x_name=AXIS_NAMES[axis])
    here = curve[curve["x"] == current_x]
    values = {label: dict(zip(g["key"], g["value"])) for label, g in here.groupby("solution")}
    return fig, values
