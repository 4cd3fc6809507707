"""Real data: bundled data sets clustered for every k of a range — the measures against the
number of clusters (Rosenberg & Hirschberg Fig. 4/5, Wu et al. Fig. 6) and the uniform effect
(CV_0, CV_1, DCV)."""

import streamlit as st

import metrics
from dashboard.real_data import views as rd
from dashboard.solutions.views import real_data_link_params
from dashboard.ui.controls import shared_controls
from dashboard.ui.figures.export import show_chart
from dashboard.ui.readout import escape_markdown, show_frame
from dashboard.ui.readout import format_number as fmt
from dashboard.ui.state import Param, page_link, page_state, url_commit, url_state

DEFAULT_ALGOS = ["kmeans", "ward"]
# The page's state (ui/state.py): a link names some of these, the rest take their defaults.
page_state("real_data",
           Param("rd_data", "iris", options=rd.DATASETS, what="data set"),
           Param("rd_algo", DEFAULT_ALGOS, options=rd.ALGORITHMS, what="algorithm"),
           Param("rd_k", (2, 15), bound=True, lo=rd.K_MIN, hi=rd.K_MAX), Param("rd_std", True, bound=True),
           Param("rd_logx", False, bound=True), Param("rd_seed", 0, bound=True, lo=0, hi=10_000),
           Param("rd_m", rd.DEFAULT_MEASURES, options=metrics.MEASURES, what="measure"))
settings = shared_controls()
st.title("Real data: the number of clusters")
st.caption("Bundled data sets (scikit-learn's, no download) clustered by K-means, Ward's agglomerative clustering "
           "and random labels for every k of a range. Each chosen measure is drawn against k — how Rosenberg & "
           "Hirschberg (Figures 4–5) and Wu et al. (Figure 6) judge measures — and the cluster sizes' CV against "
           "the classes' (Wu et al.'s uniform effect). Every value comes from `metrics`.")

c1, c2, c3 = st.columns([2, 4, 3])
with c1:
    url_state("rd_data", rd.DATASETS, "iris", "data set")
    key = st.selectbox("Data set", list(rd.DATASETS), key="rd_data", format_func=rd.DATASETS.__getitem__)
    url_commit("rd_data", "iris")
with c2:
    url_state("rd_algo", rd.ALGORITHMS, DEFAULT_ALGOS, "algorithm", multi=True)
    algorithms = st.pills("Algorithms", list(rd.ALGORITHMS), selection_mode="multi", key="rd_algo",
                          format_func=rd.ALGORITHMS.__getitem__)
    url_commit("rd_algo", DEFAULT_ALGOS)
with c3:
    k_lo, k_hi = st.slider("Range of k (number of clusters asked for)", rd.K_MIN, rd.K_MAX, (2, 15), key="rd_k",
                           bind="query-params",
                           help="Wu et al.'s Figure 6 runs k from 2 to 15; Rosenberg & Hirschberg's Figures 4–5 "
                                "go to hundreds (log scale).")
c4, c5, c6 = st.columns([2, 4, 3])
with c4:
    standardize = st.toggle("Standardize features", True, key="rd_std", bind="query-params",
                            help="Scale every feature to mean 0 and variance 1 before clustering.")
with c5:
    log_x = st.toggle("Log scale for k", False, key="rd_logx", bind="query-params")
with c6:
    seed = st.number_input("Seed (K-means starts, random labels)", 0, 10_000, 0, key="rd_seed", bind="query-params")


def _pick(keys: list[str]) -> None:
    st.session_state["rd_m"] = list(keys)


url_state("rd_m", metrics.MEASURES, rd.DEFAULT_MEASURES, "measure", multi=True)
mc1, mc2 = st.columns([5, 2])
with mc1:
    keys = st.multiselect("Measures", list(metrics.MEASURES), key="rd_m",
                          format_func=lambda k: f"{metrics.MEASURES[k].symbol} — {metrics.MEASURES[k].name}")
with mc2:
    st.caption("Quick picks")
    for label, picks in rd.MEASURE_SETS.items():
        st.button(label, key=f"rd_pick_{label}", on_click=_pick, args=(picks,), width="stretch")
url_commit("rd_m", rd.DEFAULT_MEASURES)

try:
    data = rd.load_dataset(key)
except (ValueError, ImportError, OSError) as exc:
    st.error(f"Could not load the data set: {exc}. Pick another data set.")
    st.stop()
sizes = rd.class_sizes(data)
st.markdown(f"**{rd.DATASETS[key]}** · {data.features.shape[1]} features · class sizes "
            f"{', '.join(f'{escape_markdown(name)} {fmt(size)}' for name, size in zip(data.class_names, sizes))} · "
            f"CV_0 = {fmt(rd.class_cv(data))}")
if not algorithms:
    st.info("Choose at least one algorithm.")
    st.stop()
if not keys:
    st.info("Choose at least one measure.")
    st.stop()
ks = tuple(range(int(k_lo), int(k_hi) + 1))
chosen = tuple(a for a in rd.ALGORITHMS if a in algorithms)
try:
    # Cached across sessions per state: a rerun that changes nothing computed (the log scale, a
    # state seen before) rebuilds nothing (real_data_views.sweep_view).
    view = rd.sweep_view(key, chosen, ks, standardize, int(seed), tuple(keys), settings.log_base, settings.beta)
except (ValueError, KeyError) as exc:
    st.error(f"Could not evaluate the clusterings: {exc}")
    st.stop()
frame = view.frame
measures_fig, goodness_fig, cv_fig = view.figures(log_x)

st.subheader("Measures against k")
st.caption(f"Dashed line: the true number of classes ({data.n_classes}). Units: {settings.unit}; "
           f"β = {settings.beta:g}. Rosenberg & Hirschberg: VI grows with k and cannot pick k; Wu et al.: the "
           "normalized VI_n, VD_n and R_n agree on the best k.")
show_chart(measures_fig, key="rd_measures", width="stretch")

st.subheader("Which k does each measure prefer?")
show_chart(goodness_fig, key="rd_goodness", width="stretch")
st.caption("The registry's goodness scale (`Measure.goodness`): 1 = best possible, distances flipped; it keeps "
           "each measure's order, so a curve's peak is the k that measure rates best.")
st.markdown(f"**Best k per measure** (the data has {data.n_classes} classes)")
# One measure per row: its numbers as text (readout.as_text), no Styler to build on every rerun.
show_frame(view.best, key="rd_best", sortable=False, hide_index=True, width="content")
# The Solutions page recomputes exactly these runs from the link (data set, algorithms, k, standardization, seed).
page_link("app_pages/analyse/solutions.py",
          "Rank these runs on the Solutions page: every measure's verdict, where they agree",
          real_data_link_params(key, list(chosen), (k_lo, k_hi), standardize, int(seed), keys),
          icon=":material/leaderboard:")

st.subheader("The uniform effect: CV_0, CV_1 and DCV")
cv0 = float(frame["cv0"].iloc[0])
u1, u2 = st.columns([3, 2], gap="medium")
with u1:
    show_chart(cv_fig, key="rd_cv", width="stretch")
with u2:
    at_true = frame[frame["k"] == data.n_classes]
    st.markdown(f"CV_0 of the class sizes: **{fmt(cv0)}**")
    if at_true.empty:
        st.caption(f"k = {data.n_classes} (the number of classes) is outside the range: no DCV at the true k.")
    for row in at_true.itertuples(index=False):
        st.markdown(f"{rd.ALGORITHMS[row.algorithm]} at k = {data.n_classes}: CV_1 = **{fmt(row.cv1)}**, "
                    f"DCV = CV_1 − CV_0 = **{fmt(row.dcv)}**")
    st.caption("Wu et al. §3.1: K-means tends to make clusters of similar sizes (CV_1 < CV_0, DCV < 0) — the "
               "uniform effect; measures that reward it mislead on skewed classes (try *Breast cancer*).")

# Drawn only while open (a closed expander runs nothing): a step of a control pays for no table
# it does not show.
values_box = st.expander("All values", key="rd_values_box", on_change="rerun")
if values_box.open:
    with values_box:
        show_frame(view.shown, key="rd_values", hide_index=True, width="stretch")
        st.download_button("Values (CSV)", view.csv, file_name=f"{key}-k-sweep.csv",
                           mime="text/csv", key="rd_dl", on_click="ignore")
