"""Fuzzy lab: V on ambiguous data (Utt et al. 2014) — the worked example, a playground, and
Experiments 1–3 re-run."""

import streamlit as st

import metrics
from dashboard.fuzzy import views as fz
from dashboard.ui.controls import shared_controls
from dashboard.ui.figures.charts import fmt
from dashboard.ui.figures.export import show_chart
from dashboard.ui.readout import show_frame
from dashboard.ui.state import Param, page_link, page_state, url_commit, url_state
from metrics.papers import experiments

E1_SIZES = [16, 32, 64, 128, 256, 512]  # Experiment 1's choices of the largest data size
EXPERIMENT_TABS = ["Experiment 1: data size", "Experiment 2: random clusterings", "Experiment 3: softness"]

# The page's state (ui/state.py): a link names some of these, the rest take their defaults.
page_state("fuzzy_lab",
           Param("fz_n", 100, bound=True, lo=10, hi=500),
           Param("fz_scheme", "halving", options=fz.SCHEME_LABELS, what="ambiguity scheme"),
           Param("fz_rate", 2, bound=True, lo=1, hi=6), Param("fz_share", 50, bound=True, lo=0, hi=100),
           Param("fz_classes", 100, bound=True, lo=2, hi=500), Param("fz_soft", 50, bound=True, lo=0, hi=100),
           Param("fz_noise", 0, bound=True, lo=0, hi=50),
           Param("fz_m", "v_measure", options=fz.fuzzy_measures, what="measure"),
           Param("fz_seed", 0, bound=True, lo=0, hi=10_000), Param("fz_eseed", 0, bound=True, lo=0, hi=10_000),
           Param("fz_tab", EXPERIMENT_TABS[0], bound=True, options=EXPERIMENT_TABS),
           Param("fz_e1_max", 128, bound=True, options=E1_SIZES), Param("fz_e1_rep", 20, bound=True, lo=5, hi=50),
           Param("fz_e2_max", 200, bound=True, lo=20, hi=500),
           Param("fz_e3_n", 200, bound=True, lo=50, hi=500), Param("fz_e3_steps", 11, bound=True, lo=3, hi=21))
settings = shared_controls()
st.title("Fuzzy lab")
st.caption("Ambiguous data: a point may belong to several gold classes and, in a soft clustering, to several "
           "clusters. Utt et al. (2014) split each point's mass over its classes (**fuzzy V**) instead of counting "
           "every membership (**counted V**), and add a **dissimilarity step** that maps classes to clusters one to "
           "one. Every number below is computed by `metrics`.")

# ---------------------------------------------------------------- the worked example
st.header("The worked example (Tables 1–2)")
ex = fz.example()
# Tables 1 and 2 (fixed data: four points, two clusters, every number in [0, 10)) as text, show_frame's
# cheaper path: they read, and sort, as they would as numbers.
w1, w2, w3 = st.columns([4, 4, 5], gap="medium")
with w1:
    st.markdown("**Memberships** (Figures 1–2)")
    st.dataframe(fz.example_memberships(), hide_index=True, width="stretch", key="fz_ex_members")
with w2:
    st.markdown("**Table 1** — each point's mass 1 split over its classes")
    show_frame(fz.example_table1(), key="fz_ex_table1", sortable=False, width="stretch")
with w3:
    st.markdown("**Table 2** — the fuzzy contingency table (clusters as rows, as printed)")
    show_frame(fz.example_table2(), key="fz_ex_table2", sortable=False, width="stretch")
scores = fz.example_scores(settings.log_base, settings.beta)
show_frame(scores, key="fz_ex_scores", sortable=False, hide_index=True, width="stretch")
fuzzy_rh = float(scores.loc[0, "V, R&H normalisation (H(C), H(K))"])
fuzzy_joint = float(scores.loc[0, "V, the paper's eqs. 2–3 (H(C,K))"])
counted = float(scores.loc[1, "V, R&H normalisation (H(C), H(K))"])
st.info(
    f"**The normalisation finding.** The paper prints fuzzy V = {ex['printed']['fuzzy_v']} and defines "
    "h = 1 − H(C|G)/H(C,G), c = 1 − H(G|C)/H(C,G) (its eqs. 2–3, 'correcting typos' of Rosenberg & Hirschberg, "
    f"footnote 1). That normalisation gives **{fmt(fuzzy_joint)}** on Table 2; Rosenberg & Hirschberg's own "
    f"(H(C) and H(K)) gives **{fmt(fuzzy_rh)}** — the printed {ex['printed']['fuzzy_v']}, truncated. So the printed "
    f"numbers follow Rosenberg & Hirschberg. The 'traditional V = {ex['printed']['traditional_v']}' is reproduced by "
    f"no counting we tried: counting every membership pair once gives {fmt(counted)}."
    + ("" if settings.beta == 1 else f" (The sidebar's β = {fmt(settings.beta)}; the paper uses β = 1.)"))
page_link("app_pages/learn/gallery.py", "Every printed number of the paper, beside ours: the Paper gallery",
          icon=":material/fact_check:")


# ---------------------------------------------------------------- the playground
@st.fragment
def playground(log_base: float, beta: float) -> None:
    """Generated ambiguous data; a fragment, so its sliders rerun only this section."""
    st.header("Playground: ambiguity and softness")
    c1, c2, c3, c4 = st.columns(4)
    with c1:
        n = st.slider("Data size (points)", 10, 500, 100, 10, key="fz_n", bind="query-params")
        url_state("fz_scheme", fz.SCHEME_LABELS, "halving", "ambiguity scheme")
        scheme = st.selectbox("Ambiguity scheme", list(fz.SCHEME_LABELS), key="fz_scheme",
                              format_func=fz.SCHEME_LABELS.__getitem__, help=experiments.SCHEMES["halving"])
        url_commit("fz_scheme", "halving")
    with c2:
        rate: float | None
        if scheme == "fixed":
            rate = st.slider("Classes per point", 1, 6, 2, key="fz_rate", bind="query-params")
        elif scheme == "share":
            rate = st.slider("Ambiguous points (%)", 0, 100, 50, 5, key="fz_share", bind="query-params") / 100.0
        else:
            rate = None
            st.caption(f"Halving scheme: {experiments.SCHEMES['halving']}.")
        classes = st.slider("Gold classes", 2, 500, 100, key="fz_classes", bind="query-params",
                            help="How many classes the points' memberships are drawn from (Utt et al.'s "
                                 "Experiment 3: as many classes as points).")
    with c3:
        soft = st.slider("Softness of the clustering (%)", 0, 100, 50, 100 // (fz.SOFT_STEPS - 1), key="fz_soft",
                         bind="query-params",
                         help="0 %: every point only in the cluster of its first class (hard). 100 %: in the "
                              "clusters of all its classes — identical to the gold standard.")
        noise = st.slider("Wrong memberships (%)", 0, 50, 0, 5, key="fz_noise", bind="query-params",
                          help="The cluster memberships of this share of the points are permuted among them.")
    with c4:
        measures = fz.fuzzy_measures()
        url_state("fz_m", measures, "v_measure", "measure")
        measure = st.selectbox("Measure", measures, key="fz_m",
                               format_func=lambda k: f"{metrics.MEASURES[k].symbol} — {metrics.MEASURES[k].name}",
                               help="Measures defined on fractional tables.")
        url_commit("fz_m", "v_measure")
        seed = int(st.number_input("Seed", 0, 10_000, 0, key="fz_seed", bind="query-params"))

    params = (int(n), scheme, rate, int(classes), seed, noise / 100)
    try:
        gold = fz.gold_standard(*params[:5])
        curve = fz.softness_curve(*params, measure, log_base, beta)
    except (ValueError, KeyError) as exc:
        st.error(f"These settings do not make a data set: {exc}. Change the sliders.")
        return
    softness = curve.softness
    # The rule metrics.papers.experiments.ambiguity_sweep uses, so the sweep below passes through this point.
    here = experiments.closest_step([s / 100 for s in softness], soft / 100)
    variants_fig, curve_fig = fz.curve_figures(*params, measure, log_base, beta, here)
    symbol = metrics.MEASURES[measure].symbol
    ambiguous = sum(len(g) > 1 for g in gold)
    st.caption(f"{len(gold)} points, {ambiguous} of them ambiguous; {len(softness)} clusterings from hard to the "
               f"perfect soft one. At the sliders: {softness[here]:.0f} % of the extra memberships assigned"
               + (f", {noise} % of the points' clusters permuted." if noise else "."))
    p1, p2 = st.columns([2, 3], gap="medium")
    with p1:
        st.markdown(f"**{symbol} at the sliders**")
        show_chart(variants_fig, key="fz_variants", width="stretch")
    with p2:
        st.markdown(f"**{symbol} along softness** (Utt et al. Figures 6 and 11)")
        show_chart(curve_fig, key="fz_curve", width="stretch")
    if scheme in fz.SWEEP_RATES:
        st.markdown(f"**{symbol} along the ambiguity rate** — the four countings at every position of the "
                    f"{'ambiguous-points' if scheme == 'share' else 'classes-per-point'} slider, the other sliders "
                    "as set (Utt et al.: entropy-based measures suffer as ambiguity grows)")
        sweep_fig, _ = fz.ambiguity_chart(int(n), scheme, int(classes), soft / 100, noise / 100, seed, measure,
                                          log_base, beta, fz.sweep_x(scheme, rate))
        show_chart(sweep_fig, key="fz_sweep", width="stretch")
    else:
        st.caption("The halving scheme fixes every point's ambiguity, so there is no rate to sweep: choose another "
                   "ambiguity scheme to see the scores along the ambiguity rate.")
    # Drawn only while open (a closed expander runs nothing): a slider step pays for no heatmap
    # it does not show.
    tables_box = st.expander("The tables at the sliders", key="fz_tables", on_change="rerun")
    if tables_box.open:
        heatmaps = fz.step_heatmaps(*params, here, ("fuzzy", "fuzzy_diss"))
        for col, (variant, (fig, caption)) in zip(tables_box.columns(2), heatmaps.items()):
            with col:
                st.markdown(f"**{fz.VARIANT_LABELS[variant]}**")
                show_chart(fig, key=f"fz_heat_{variant}", width="stretch")
                st.caption(caption)


playground(settings.log_base, settings.beta)


# ---------------------------------------------------------------- the experiments
@st.fragment
def experiments_section() -> None:
    st.header("Experiments 1–3, re-run")
    st.caption("Seeded and cached; sizes are smaller than the paper's so that a rerun stays quick. Scores are V "
               "(β = 1, Rosenberg & Hirschberg's normalisation), as in the paper.")
    seed = int(st.columns(4)[0].number_input("Seed of the experiments", 0, 10_000, 0, key="fz_eseed",
                                             bind="query-params"))
    # Bound to the URL (?fz_tab=<label>), so a link can open any experiment; only the open tab runs.
    tab1, tab2, tab3 = st.tabs(EXPERIMENT_TABS, key="fz_tab", bind="query-params")
    if tab1.open:
        with tab1:
            st.markdown("Perfect clusterings of random ambiguous gold standards (halving scheme) at growing data "
                        "sizes (paper: Figure 4, 2 to ~1000 points, 100 gold standards each). The paper: fuzzy V is "
                        "consistently higher than V, neither reaches 1, the variation shrinks with size.")
            e1, e2 = st.columns(2)
            largest = e1.select_slider("Largest size", E1_SIZES, 128, key="fz_e1_max",
                                       bind="query-params")
            repeats = e2.slider("Gold standards per size", 5, 50, 20, 5, key="fz_e1_rep", bind="query-params")
            view = fz.experiment1_view(int(largest), int(repeats), seed)
            show_chart(view.figure, key="fz_exp1", width="stretch")
            # One row per size, in size order: sent as text (converted once per setting, not per rerun).
            show_frame(view.summary, key="fz_exp1_summary", percent=["fuzzy_higher"], sortable=False,
                       hide_index=True, width="stretch",
                       column_config={"fuzzy_higher": st.column_config.Column("fuzzy higher (share)")})
    if tab2.open:
        with tab2:
            st.markdown("A random ambiguous gold standard against an independent random soft clustering with the "
                        "same ambiguity profile, one pair per size (paper: Figure 5, every size from 2 to 500).")
            largest2 = st.slider("Largest size", 20, 500, 200, 20, key="fz_e2_max", bind="query-params")
            frame2 = fz.experiment2(fz.even_sizes(int(largest2)), seed)
            show_chart(fz.experiment2_figure(frame2), key="fz_exp2", width="stretch")
            s2 = experiments.summarize(frame2)
            st.caption(f"Fuzzy V above counted V at {int((s2['fuzzy_higher'] == 1).sum())} of {len(s2)} sizes.")
    if tab3.open:
        with tab3:
            st.markdown("One gold standard (halving scheme, as many classes as points), clustered from hard — each "
                        "point in the cluster of its first class — to the perfect soft clustering (paper: Figures 6 "
                        "and 11, 500 points). The paper: both V's fall as the clustering gets closer to the gold "
                        "standard; with the dissimilarity step both rise to 1.")
            e31, e32 = st.columns(2)
            n3 = e31.slider("Points", 50, 500, 200, 50, key="fz_e3_n", bind="query-params")
            steps3 = e32.slider("Clusterings (steps)", 3, 21, 11, 2, key="fz_e3_steps", bind="query-params")
            view3 = fz.experiment3_view(int(n3), int(steps3), seed)
            show_chart(view3.figure, key="fz_exp3", width="stretch")
            with st.expander("Values"):
                # One row per clustering, in step order: sent as text (converted once per setting).
                show_frame(view3.frame, key="fz_exp3_values", sortable=False, hide_index=True, width="stretch")


experiments_section()
