"""The uniform effect live: K-means on skewed classes, CV₁ and DCV, and which measures are fooled —
beside Wu et al.'s printed thresholds."""

import streamlit as st

import metrics
from dashboard.playground import uniform as ue
from dashboard.ui.controls import shared_controls
from dashboard.ui.figures.export import show_chart
from dashboard.ui.readout import format_number as fmt
from dashboard.ui.readout import show_frame
from dashboard.ui.safe_text import md
from dashboard.ui.state import Param, page_link, page_state, url_commit, url_state
from metrics.papers import dcv
from metrics.papers import generators as g

DEFAULT_KEYS = ["purity", "conditional_entropy", "mutual_info", "f_measure", "vi", "van_dongen", "rand",
                "fowlkes_mallows", "vi_n", "vd_n", "r_n", "f_n", "epsilon_n", "v_measure", "nvi", "ari"]
page_state("uniform_effect",
           Param("ue_cv0", 1.5, bound=True, lo=0.1, hi=2.5), Param("ue_k", 3, bound=True, lo=2, hi=6),
           Param("ue_n", 600, bound=True, options=ue.SIZES), Param("ue_var", 2.5, bound=True, options=ue.VARIANCES),
           Param("ue_seed", 0, bound=True, lo=0, hi=9999),
           Param("ue_m", DEFAULT_KEYS, options=metrics.MEASURES, what="measure"))
settings = shared_controls()
st.title("The uniform effect, live")
printed = dcv.wu_printed()
low, high, strong = printed["cv1_low"], printed["cv1_high"], printed["strong"]
st.caption(f"K-means makes clusters of similar sizes (Wu, Xiong & Chen 2009, §3.1: its CV₁ lies in [{low:g}, {high:g}] "
           "in 95% of runs). Here scikit-learn's K-means clusters blobs whose class sizes have the coefficient of "
           "variation CV₀ you choose — one large class and equal small ones, as in Wu et al.'s samples — and "
           f"{ue.SETTINGS} data sets of growing CV₀ ({ue.REPEATS} samples each) are clustered as in their §4.2. A "
           "measure that can judge K-means must get worse as DCV = CV₁ − CV₀ falls: Kendall's κ between the measure "
           f"(better = up) and DCV, as in their Table 7; below κ = {strong:g} (what the paper calls strong "
           "consistency) the measure is fooled.")

c1, c2, c3, c4, c5 = st.columns([3, 2, 2, 3, 2])
with c1:
    cv0 = st.slider("CV₀ of the classes (highest)", 0.1, 2.5, 1.5, 0.05, key="ue_cv0", bind="query-params",
                    help=f"Wu et al. go up to 1.86 (hitech samples) and 1.32 (two Gaussians). Above {high:g}, "
                         "K-means cannot follow the classes' sizes.")
with c2:
    k = st.slider("Classes (= clusters)", 2, 6, 3, key="ue_k", bind="query-params",
                  help="K-means is asked for as many clusters as there are classes, as in the paper.")
with c3:
    n = st.select_slider("Items", ue.SIZES, 600, key="ue_n", bind="query-params")
with c4:
    variance = st.select_slider("Spread σ²", ue.VARIANCES, 2.5, key="ue_var", bind="query-params",
                                help="Each class is a Gaussian with covariance σ²·I, centres 4 apart (Wu et al. "
                                     "§4.2 use σ² from 0.5 to 5: the larger, the more the classes overlap).")
with c5:
    seed = st.number_input("Seed", 0, 9999, 0, key="ue_seed", bind="query-params")
url_state("ue_m")
keys = st.multiselect("Measures", list(metrics.MEASURES), key="ue_m",
                      format_func=lambda key: f"{metrics.MEASURES[key].symbol} — {metrics.MEASURES[key].name}")
url_commit("ue_m")

top = g.max_cv(int(k), int(n), ue.MIN_SIZE)
if cv0 > top:
    st.error(f"{k} classes of at least {ue.MIN_SIZE} items among {n} cannot vary more than CV₀ = {top:.2f}: "
             "lower CV₀, or choose fewer classes or more items.")
else:
    with st.spinner("Clustering the data sets with K-means (once per setting on this server)…"):
        points, classes, clusters = ue.run(float(cv0), int(k), int(n), float(variance), int(seed) * 1000)
        sw = ue.sweep(float(cv0), int(k), int(n), float(variance), int(seed), settings.log_base, settings.beta)
    one = dcv.run_summary(classes, clusters)
    left, right = st.columns([1, 1], gap="large")
    with left:
        st.markdown(f"**One sample at CV₀ = {fmt(one['cv0'])}**, clustered by K-means")
        show_chart(ue.scatter(points, classes, clusters), key="ue_scatter", name="uniform-effect-kmeans")
        m1, m2, m3 = st.columns(3)
        m1.metric("CV₀ (classes)", fmt(one["cv0"]))
        m2.metric("CV₁ (clusters)", fmt(one["cv1"]))
        m3.metric("DCV = CV₁ − CV₀", fmt(one["dcv"]))
        inside = low <= one["cv1"] <= high
        st.caption(f"CV₁ = {fmt(one['cv1'])} is {'inside' if inside else 'outside'} Wu et al.'s interval "
                   f"[{low:g}, {high:g}] for K-means. " + (
                       f"CV₀ = {fmt(one['cv0'])} is above {high:g}: K-means cannot give clusters this uneven, so "
                       "it splits the large class and merges small ones." if one["cv0"] > high else
                       f"CV₀ = {fmt(one['cv0'])} is within reach of K-means (≤ {high:g})."))
    with right:
        st.markdown("**CV₁ and DCV as the classes get more skewed** (Wu et al., Figure 2)")
        show_chart(ue.dcv_figure(sw, low, high), key="ue_dcv", name="uniform-effect-dcv")
        st.caption(f"Each point: the mean of {ue.REPEATS} samples at one setting of CV₀. DCV falls as CV₀ grows: "
                   "K-means' results drift away from the classes' sizes.")
    st.subheader("Which measures are fooled?")
    if not keys:
        st.info("Choose at least one measure.")
    else:
        table = ue.verdicts(sw, keys)
        fooled = table.loc[table["here"] == "fooled", "symbol"].tolist()
        st.markdown(f"Here, with κ below {strong:g}: **{md(', '.join(fooled)) if fooled else 'none'}** "
                    f"{'is' if len(fooled) == 1 else 'are'} fooled by the uniform effect.")
        show_frame(table, key="ue_verdicts", columns=["kappa"], sortable=False, hide_index=True, width="stretch",
                   column_config={
                       "kappa": st.column_config.NumberColumn("κ here", help="Kendall's τ-b of the measure (better "
                                                              "= up) against DCV over the settings"),
                       "here": st.column_config.TextColumn("Here"),
                       "wu_simulated": st.column_config.TextColumn("Wu κ, simulated", help="Table 7, two Gaussians"),
                       "wu_sampled": st.column_config.TextColumn("Wu κ, sampled", help="Table 7, hitech samples "
                                                                 "(the normalized row is lost in the extraction)"),
                       "wu": st.column_config.TextColumn("Wu et al.")})
        st.caption("Wu et al. printed: κ of Table 7 (two Gaussians with σ² = 5 and K-means in MATLAB; hitech samples "
                   "with CLUTO) — a reproduction here differs in data and implementation, so κ values differ; "
                   "the question is whether a measure follows DCV at all. A measure that does not change over the "
                   "settings is fooled (it cannot see the effect).")
page_link("app_pages/learn/playground.py", "Move items by hand in the playground", icon=":material/touch_app:")
