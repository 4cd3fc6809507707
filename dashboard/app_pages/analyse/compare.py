"""Compare — the divergence explorer: which solution does each measure prefer, and where do they flip?"""

import numpy as np
import streamlit as st

import metrics
from dashboard.compare import morph, paired
from dashboard.compare.charts import cached_preference_figure
from dashboard.compare.view import SIDES_HELP, preference_table, verdict
from dashboard.papers import facts
from dashboard.ui import noise
from dashboard.ui.controls import shared_controls
from dashboard.ui.figures.charts import fmt, table_heatmap
from dashboard.ui.figures.export import show_chart
from dashboard.ui.presets import load_presets
from dashboard.ui.readout import show_frame
from dashboard.ui.sources import solution_picker
from dashboard.ui.state import Param, page_state, url_commit, url_state
from dashboard.ui.tables import evaluate_cached
from dashboard.ui.upload import noise_readings
from metrics.core.formatting import frame_csv

DEFAULT_KEYS = ["v_measure", "nvi", "vi", "ari", "vd_n"]

# The page's state (ui/state.py): a link names some of these, the rest take their defaults.
# a_table / b_table carry the Table lab's table when a side is "lab"; an upload's widgets go with a reset.
page_state("compare",
           Param("a", "rr_singletons", what="table"), Param("b", "rr_solution_r", what="table"),
           Param("a_table", table=True), Param("b_table", table=True),
           Param("m", DEFAULT_KEYS, options=metrics.MEASURES, what="measure"),
           Param("classes", 10, bound=True, lo=morph.MIN_CLASSES, hi=morph.MAX_CLASSES),
           Param("noise", 3, bound=True, lo=0, hi=morph.CLASS_SIZE - 1),
           Param("sweep", "noise", options=morph.AXES, what="sweep axis"),
           clear=("a_upload_", "b_upload_"))
settings = shared_controls()
st.title("Compare")
st.caption("Two solutions side by side: which one does each measure prefer? Each row is tinted by the solution "
           "its measure prefers — a grouping, not a verdict: the larger group is not the right one. With uploaded "
           "labels of the same items on both sides, each verdict comes with a paired bootstrap interval. Below, a "
           "morph slides solution R's noise and the number of classes.")
presets = load_presets()

cols = st.columns(2, gap="large")
solutions = {}
for col, side, default in ((cols[0], "a", "rr_singletons"), (cols[1], "b", "rr_solution_r")):
    with col:
        sol = solutions[side] = solution_picker(side, presets, default)
        if sol is not None:
            fig, summary = table_heatmap(sol.table, max_rows=30, max_cols=120, height=260)
            show_chart(fig, key=f"cmp_heatmap_{side}", width="stretch")
            st.caption(summary or f"n = {fmt(sol.table.n)} · {fmt(sol.table.shape[0])} classes · "
                                  f"{fmt(sol.table.shape[1])} clusters")
            # A preset a paper prints numbers for: its printed values beside ours (as the Paper gallery).
            facts.show_printed_notes(st.session_state.get(side, ""))

url_state("m", metrics.MEASURES, DEFAULT_KEYS, "measure", multi=True)
keys = st.multiselect("Measures", list(metrics.MEASURES), key="m",
                      format_func=lambda k: f"{metrics.MEASURES[k].symbol} — {metrics.MEASURES[k].name}")
url_commit("m", DEFAULT_KEYS)
if not keys:  # (no st.stop(): the morph's controls below must still be drawn, or their state is lost)
    st.info("Choose at least one measure.")

a, b = solutions["a"], solutions["b"]
if keys and a is not None and b is not None:
    va = evaluate_cached(a.table, settings.log_base, settings.beta)
    vb = evaluate_cached(b.table, settings.log_base, settings.beta)
    if a.table.n != b.table.n or not np.array_equal(np.sort(a.table.row_sums), np.sort(b.table.row_sums)):
        st.warning("A and B do not cluster the same gold classes (their class sizes differ): the chart still "
                   "compares the numbers, but a preference between them means little.")
    pref = preference_table(va, vb, keys)
    st.markdown(verdict(pref, a.label, b.label))
    show_chart(cached_preference_figure(pref, a.label, b.label), key="cmp_preference", width="stretch")
    st.caption("Each row is one measure: A (circle, value above) and B (diamond, value below) placed on the "
               "measure's goodness scale (0 = worst, 1 = best), the larger marker on the side it prefers. "
               + SIDES_HELP)
    paired.show_intervals(a, b, pref, settings.log_base, settings.beta)
    shown = pref[["measure", "symbol", "better", "A", "B", "prefers"]]
    with st.expander("Values"):
        show_frame(shown, key="cmp_values", columns=["A", "B"], sortable=False, hide_index=True, width="stretch",
                   column_config={"prefers": st.column_config.TextColumn("prefers", help=SIDES_HELP)})
        st.download_button("Values (CSV)", frame_csv(shown, index=False), file_name="compare.csv",
                           mime="text/csv", key="cmp_dl", on_click="ignore")
    for side, sol in (("a", a), ("b", b)):
        readings = noise_readings(f"{side}_upload", sol.table)
        if readings:
            with st.expander(f"Noise items of {side.upper()}: the three readings side by side"):
                values = {r: evaluate_cached(t, settings.log_base, settings.beta) for r, t in readings.items()}
                show_frame(noise.readings_frame(values, keys), key=f"cmp_noise_{side}",
                           columns=list(noise.READING_NAMES.values()), sortable=False, hide_index=True,
                           width="stretch")
                st.caption(f"Solution {side.upper()}'s items labelled −1 read as one cluster (every other tool's "
                           "reading), each as a cluster of its own, or left out (" +
                           noise.noise_caption(readings.get("exclude", sol.table)) + ")")
elif keys:
    st.info("Choose both solutions to compare them.")


@st.fragment
def morph_section(keys: list[str], log_base: float, beta: float) -> None:
    """The morph; a fragment, so that moving its sliders reruns only this section."""
    st.subheader("Morph: solution R against singletons (not A and B above)")
    st.caption(f"Reichart & Rappoport's solution R (class i keeps {morph.CLASS_SIZE} − noise items in cluster i "
               f"and sends one to each of the next `noise` clusters) against singletons, on the same data: classes "
               f"of {morph.CLASS_SIZE} items. The chart sweeps one parameter; the dashed line is the sliders' "
               "position, orange-red bands mark where a measure's preference flips. The morph does not use the "
               "solutions A and B chosen above: sweeping needs a family of tables with a parameter to move, "
               "which two arbitrary tables do not have; it is always the papers' case, R against singletons.")
    c1, c2, c3 = st.columns([2, 2, 3])
    with c1:
        n_classes = st.slider("Number of classes", morph.MIN_CLASSES, morph.MAX_CLASSES, 10, key="classes",
                              bind="query-params")
    with c2:
        noise = st.slider("Noise of solution R", 0, morph.CLASS_SIZE - 1, 3, key="noise", bind="query-params")
    with c3:
        url_state("sweep", morph.AXES, "noise", "sweep axis")
        axis = st.segmented_control("Sweep over", list(morph.AXES), required=True, key="sweep",
                                    format_func={"noise": "noise", "classes": "number of classes"}.__getitem__)
        assert axis is not None  # required=True: always a choice
        url_commit("sweep", "noise")
    effective = min(noise, morph.max_noise(n_classes))
    if effective != noise:
        st.caption(f"With {n_classes} classes, solution R's noise can be at most {effective}: using {effective}.")
    if not keys:
        st.info("Choose at least one measure above to draw the morph.")
        return
    fig, values = morph.morph_chart(axis, n_classes, effective, tuple(keys), log_base, beta)
    show_chart(fig, key="cmp_morph", width="stretch")
    st.markdown("At the sliders (here A = singletons, B = solution R, whatever is chosen above): "
                + verdict(preference_table(values[morph.S_LABEL], values[morph.R_LABEL], keys),
                          morph.S_LABEL, morph.R_LABEL))


st.divider()
morph_section(keys, settings.log_base, settings.beta)
