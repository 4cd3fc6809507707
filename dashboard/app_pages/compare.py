"""Compare — the divergence explorer: which solution does each measure prefer, and where do they flip?"""

import numpy as np
import streamlit as st

import metrics
from dashboard.components import morph
from dashboard.components.charts import cached_preference_figure, table_heatmap
from dashboard.components.compare import preference_table, verdict
from dashboard.components.controls import shared_controls
from dashboard.components.presets import load_presets
from dashboard.components.sources import solution_picker
from dashboard.components.state import url_commit, url_state
from dashboard.components.tables import evaluate_cached

DEFAULT_KEYS = ["v_measure", "nvi", "vi", "ari", "vd_n"]

settings = shared_controls()
st.title("Compare")
st.caption("Two solutions side by side: which one does each measure prefer? Where measures disagree, the "
           "rows are shaded. Below, a morph slides solution R's noise and the number of classes.")
presets = load_presets()

cols = st.columns(2, gap="large")
solutions = {}
for col, side, default in ((cols[0], "a", "rr_singletons"), (cols[1], "b", "rr_solution_r")):
    with col:
        sol = solutions[side] = solution_picker(side, presets, default)
        if sol is not None:
            fig, summary = table_heatmap(sol.table, max_rows=30, max_cols=120, height=260)
            st.plotly_chart(fig, key=f"cmp_heatmap_{side}", width="stretch")
            st.caption(summary or f"n = {sol.table.n:,} · {sol.table.shape[0]:,} classes · "
                                  f"{sol.table.shape[1]:,} clusters")

url_state("m", metrics.MEASURES, DEFAULT_KEYS, "measure", multi=True)
keys = st.multiselect("Measures", list(metrics.MEASURES), key="m",
                      format_func=lambda k: f"{metrics.MEASURES[k].symbol} — {metrics.MEASURES[k].name}")
url_commit("m", DEFAULT_KEYS)
if not keys:
    st.info("Choose at least one measure.")
    st.stop()

a, b = solutions["a"], solutions["b"]
if a is not None and b is not None:
    va = evaluate_cached(a.table, settings.log_base, settings.beta)
    vb = evaluate_cached(b.table, settings.log_base, settings.beta)
    if a.table.n != b.table.n or not np.array_equal(np.sort(a.table.row_sums), np.sort(b.table.row_sums)):
        st.warning("A and B do not cluster the same gold classes (their class sizes differ): the chart still "
                   "compares the numbers, but a preference between them means little.")
    pref = preference_table(va, vb, keys)
    st.markdown(verdict(pref, a.label, b.label))
    st.plotly_chart(cached_preference_figure(pref, a.label, b.label), key="cmp_preference", width="stretch")
    shown = pref[["measure", "symbol", "better", "A", "B", "prefers", "disagrees"]]
    with st.expander("Values"):
        st.dataframe(shown, hide_index=True, width="stretch", key="cmp_values",
                     column_config={"A": st.column_config.NumberColumn(format="%.4f"),
                                    "B": st.column_config.NumberColumn(format="%.4f")})
        st.download_button("Values (CSV)", shown.to_csv(index=False).encode("utf-8"), file_name="compare.csv",
                           mime="text/csv", key="cmp_dl", on_click="ignore")
else:
    st.info("Choose both solutions to compare them.")


@st.fragment
def morph_section(keys: list[str], log_base: float, beta: float) -> None:
    """The morph; a fragment, so that moving its sliders reruns only this section."""
    st.subheader("Morph: solution R against singletons")
    st.caption(f"Reichart & Rappoport's solution R (class i keeps {morph.CLASS_SIZE} − noise items in cluster i "
               f"and sends one to each of the next `noise` clusters) against singletons, on the same data: classes "
               f"of {morph.CLASS_SIZE} items. The chart sweeps one parameter; the dashed line is the sliders' "
               "position, red bands mark where a measure's preference flips.")
    c1, c2, c3 = st.columns([2, 2, 3])
    with c1:
        n_classes = st.slider("Number of classes", morph.MIN_CLASSES, morph.MAX_CLASSES, 10, key="classes",
                              bind="query-params")
    with c2:
        noise = st.slider("Noise of solution R", 0, morph.CLASS_SIZE - 1, 3, key="noise", bind="query-params")
    with c3:
        url_state("sweep", morph.AXES, "noise", "sweep axis")
        axis = st.segmented_control("Sweep over", list(morph.AXES), required=True, key="sweep",
                                    format_func={"noise": "noise", "classes": "number of classes"}.get)
        url_commit("sweep", "noise")
    effective = min(noise, morph.max_noise(n_classes))
    if effective != noise:
        st.caption(f"With {n_classes} classes, solution R's noise can be at most {effective}: using {effective}.")
    fig, values = morph.morph_chart(axis, n_classes, effective, tuple(keys), log_base, beta)
    st.plotly_chart(fig, key="cmp_morph", width="stretch")
    st.markdown("At the sliders (A = singletons, B = solution R): "
                + verdict(preference_table(values[morph.S_LABEL], values[morph.R_LABEL], keys),
                          morph.S_LABEL, morph.R_LABEL))


st.divider()
morph_section(keys, settings.log_base, settings.beta)
