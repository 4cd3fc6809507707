"""Chance — is a score better than chance? Every measure against random labelings, under the random
model you choose (Gates & Ahn 2017), drawn by ``metrics.chance``.

Three tabs, each a link away (``?ch_tab=…``) and each run only while open:

* **Number of clusters** — scikit-learn's "adjustment for chance" experiment for any measures:
  random clusterings into k clusters against fixed (num1) or random (num, perm) gold classes.
* **A table against chance** — a preset, the Table lab's table or an upload against its null
  distribution: every measure's observed value on its random labelings, z, percentile, p-value,
  adjusted value, exact or Monte Carlo expectation.
* **AMI normalisations** — scikit-learn issue #20066: AMI's four normalisations against their NMI,
  along k and for one table under every model.
"""

import numpy as np
import streamlit as st

import metrics
from dashboard.chance import charts as cc
from dashboard.chance import data as cdata
from dashboard.chance import views as cv
from dashboard.chance import vocabulary as cvocab
from dashboard.ui.controls import shared_controls
from dashboard.ui.figures.charts import table_heatmap
from dashboard.ui.figures.export import show_chart
from dashboard.ui.presets import load_presets
from dashboard.ui.readout import escape_markdown, format_number, show_frame
from dashboard.ui.state import Param, page_state, url_commit, url_state
from metrics import chance
from metrics.core.formatting import frame_csv

# The page's state (ui/state.py): a link names some of these, the rest take their defaults.
# ch_table carries the Table lab's table when ch_t is "lab"; an upload's widgets go with a reset.
page_state("chance",
           Param(cvocab.TAB_KEY, cvocab.SWEEP_TAB, bound=True, options=cvocab.TABS),
           Param("ch_seed", cvocab.DEFAULT_SEED, bound=True, lo=0, hi=2**31 - 1),
           Param("ch_sm", cvocab.DEFAULT_SWEEP["ch_sm"], options=cvocab.SWEEP_MODELS, what="random model"),
           Param("ch_n", cvocab.DEFAULT_SWEEP["ch_n"], options=cvocab.N_OPTIONS, what="number of items"),
           Param("ch_r", cvocab.DEFAULT_SWEEP["ch_r"], options=cvocab.CLASS_OPTIONS, what="number of classes"),
           Param("ch_sd", cvocab.DEFAULT_SWEEP["ch_sd"], options=cvocab.SWEEP_DRAWS, what="number of random labelings"),
           Param("ch_m", cvocab.DEFAULT_SWEEP_KEYS, options=metrics.MEASURES, what="measure"),
           Param("ch_t", cvocab.DEFAULT_TABLE["ch_t"], options=lambda: [*load_presets(), cvocab.LAB, cvocab.UPLOAD],
                 what="table"),
           Param("ch_table", table=True),
           Param("ch_model", cvocab.DEFAULT_TABLE["ch_model"], options=chance.MODELS, what="random model"),
           Param("ch_td", cvocab.DEFAULT_TABLE["ch_td"], options=cvocab.TABLE_DRAWS, what="number of random labelings"),
           Param("ch_fam", list(metrics.FAMILIES), options=metrics.FAMILIES, what="family"),
           Param("ch_look", cvocab.DEFAULT_TABLE["ch_look"], options=metrics.MEASURES, what="measure"),
           clear=("ch_upload_",))
settings = shared_controls()
st.title("Chance")
st.caption("Is a score better than chance? Random labelings score too, and unadjusted measures (V, NMI, mutual "
           "information, Rand, purity…) score them higher the more clusters there are. What counts as chance is a "
           "choice of random model; every random labeling here is drawn by `metrics.chance` and scored by every "
           "registered measure.")
with st.expander("The five random models (Gates & Ahn 2017, *The impact of random models on clustering "
                 "similarity*, JMLR 18)"):
    st.markdown("\n".join(f"- **{m}** — {cvocab.MODEL_TEXT[m]}." for m in chance.MODELS))
    st.caption("Adjusted indices (ARI, AMI) subtract the expectation under perm. Expectations are exact where a "
               "closed form exists — Rand under every model; under perm every measure affine in the mutual "
               "information or in the pair counts, and BCubed and element-centric similarity — and Monte Carlo "
               "means, with their standard error, elsewhere (`metrics.chance.is_exact` says which).")
presets = load_presets()

seed = st.number_input("Seed of the random labelings", min_value=0, max_value=2**31 - 1, value=cvocab.DEFAULT_SEED,
                       step=1, key="ch_seed", bind="query-params", width=260,
                       help="The same seed draws the same random labelings, so a link reproduces every chart. "
                            "Change it to see how much a Monte Carlo result moves.")


def choice(key: str, options, label: str, names=None, help: str | None = None) -> str:
    """A segmented control whose value is the page parameter ``key`` (kept in the URL)."""
    url_state(key)
    value = st.segmented_control(label, list(options), key=key, required=True, help=help,
                                 format_func=names or (lambda v: format_number(int(v))))
    url_commit(key)
    return str(value)  # required=True: always a choice


def symbol_name(k: str) -> str:
    return f"{metrics.MEASURES[k].symbol} — {metrics.MEASURES[k].name}"


@st.fragment
def sweep_tab() -> None:
    """Random clusterings into k clusters against gold classes: every chosen measure against k."""
    st.caption("scikit-learn's experiment *Adjustment for chance in clustering performance evaluation*, for any "
               "measures and three random models: n items in balanced gold classes, random clusterings into k "
               "clusters for each k, every measure of each. Its random labels are uniform draws of k labels, which "
               "leave some clusters empty when k is large; these are exact uniform partitions into exactly k "
               f"clusters. Line: the mean over the random labelings; band: {cc.band_text()} of them; ×: the exact "
               "expectation where a closed form exists; dashed: k = the number of classes. Each panel's axis spans "
               "the measure's declared range where it is bounded.")
    c1, c2, c3, c4 = st.columns([3, 3, 4, 4])
    with c1:
        model = choice("ch_sm", cvocab.SWEEP_MODELS, "Random model", str,
                       help="num1: the gold classes stay as they are (scikit-learn's first experiment); num: the "
                            "classes are random too (its second); perm: both shuffled with balanced sizes kept. "
                            "all and all1 draw the number of clusters at random, so they have no k to sweep.")
    with c2:
        n = int(choice("ch_n", cvocab.N_OPTIONS, "Items n"))
    with c3:
        n_classes = int(choice("ch_r", cvocab.CLASS_OPTIONS, "Gold classes"))
    with c4:
        samples = int(choice("ch_sd", cvocab.SWEEP_DRAWS, "Random labelings per k"))
    st.caption(f"**{model}**: {escape_markdown(cvocab.SWEEP_MODEL_TEXT[model])}.")
    url_state("ch_m")
    keys = st.multiselect("Measures", list(metrics.MEASURES), key="ch_m", format_func=symbol_name)
    url_commit("ch_m")
    if not keys:
        st.info("Choose at least one measure.")
        return
    problem = cdata.sweep_problem(n, samples, n_classes, (model,), keys)
    if problem:
        st.error(problem)
        return
    try:
        summary = cdata.sweep_summary(n, n_classes, model, samples, seed, settings.log_base, settings.beta, keys)
    except ValueError as exc:
        st.error(f"These random clusterings cannot be drawn: {escape_markdown(cdata.library_reason(exc))}.")
        return
    missing = [k for k in keys if k not in set(summary["key"])]
    if missing:
        symbols = ", ".join(escape_markdown(metrics.MEASURES[k].symbol) for k in missing)
        st.caption(f"Not computed for these tables: {symbols}.")
    show_chart(cv.sweep_chart(n, n_classes, model, samples, seed, settings.log_base, settings.beta, tuple(keys),
                                   summary), key="ch_sweep_chart", width="stretch")
    st.markdown(cv.sweep_sentence(summary, [k for k in keys if k not in missing]))
    st.download_button("Means and bands (CSV)", lambda: frame_csv(summary, index=False),
                       file_name=f"chance-sweep-{model}-n{n}.csv", mime="text/csv", key="ch_sweep_dl",
                       on_click="ignore")


def table_controls() -> tuple[str, int]:
    c1, c2 = st.columns(2)
    with c1:
        model = choice("ch_model", chance.MODELS, "Random model", str,
                       help="What counts as chance: see 'The five random models' above.")
    with c2:
        samples = int(choice("ch_td", cvocab.TABLE_DRAWS, "Random labelings"))
    st.caption(f"**{model}**: {escape_markdown(cvocab.MODEL_TEXT[model])}.")
    return model, samples


def null_result(t: metrics.Contingency, label: str, model: str, samples: int):
    """The table's null distribution, or None with the reason shown in the page's words."""
    problem = cdata.table_problem(t, model, samples, what=label)
    if problem:
        st.error(problem)
        return None
    try:
        return cdata.table_null(t, model, samples, seed, settings.log_base, settings.beta)
    except ValueError as exc:
        st.error(f"These random labelings cannot be drawn: {escape_markdown(cdata.library_reason(exc))}.")
        return None


def closeup(result: cdata.NullResult, samples: int) -> None:
    """One measure's random labelings in its own units."""
    options = list(result.draws.columns)
    url_state("ch_look", options)
    if st.session_state.get("ch_look") not in options:
        default = cvocab.DEFAULT_TABLE["ch_look"]
        st.session_state["ch_look"] = default if default in options else options[0]
    key = st.selectbox("Look closer at one measure", options, key="ch_look", format_func=symbol_name)
    url_commit("ch_look")
    row = result.profile.loc[key]
    show_chart(cc.closeup_figure(key, result.draws[key], row), key="ch_closeup", width="stretch")
    infinite = int(np.isinf(result.draws[key].to_numpy(dtype=np.float64)).sum())
    st.caption(f"{format_number(samples)} random labelings. Observed {format_number(row['observed'])}, expected "
               f"{escape_markdown(cc.expectation_text(row))}, z = {format_number(row['z'])}, percentile "
               f"{format_number(row['percentile'])} %, p = {format_number(row['p_value'])}, adjusted "
               f"{format_number(row['adjusted'])}."
               + (f" {format_number(infinite)} random labelings score ∞ and are not drawn." if infinite else ""))


@st.fragment
def table_tab() -> None:
    """A table against its null distribution under one model."""
    left, right = st.columns([3, 2], gap="large")
    with left:
        picked = cv.table_picker(presets)
    model, samples = table_controls()
    if picked is not None:
        with right:
            fig, summary = table_heatmap(picked.table, max_rows=30, max_cols=60, height=260)
            show_chart(fig, key="ch_heatmap", width="stretch")
            t = picked.table
            st.caption(summary or f"n = {format_number(t.n)} · {format_number(t.shape[0])} classes · "
                                  f"{format_number(t.shape[1])} clusters")
    url_state("ch_fam")
    families = st.pills("Families", list(metrics.FAMILIES), selection_mode="multi", key="ch_fam",
                        format_func=metrics.FAMILIES.__getitem__)
    url_commit("ch_fam")
    if picked is None:
        return
    result = null_result(picked.table, picked.label, model, samples)
    if result is None:
        return
    keys = [k for k in result.draws.columns if metrics.MEASURES[k].family in (families or [])]
    if not keys:
        st.info("Choose at least one family of measures.")
        return
    st.markdown(f"**Each measure of {escape_markdown(picked.label)} against {format_number(samples)} random "
                f"labelings under {model}**")
    show_chart(cv.null_chart(cdata.cells_key(picked.table), model, samples, seed, settings.log_base,
                                  settings.beta, tuple(keys), result), key="ch_null_chart", width="stretch")
    st.caption(f"One row per measure on the common goodness scale (0 = worst, 1 = best, from each measure's range and "
               f"direction): the grey line spans {cc.band_text()} of the random labelings, the blue box "
               "their middle half, the black tick chance's expectation (grey when it is a Monte Carlo mean), the "
               "diamond the table's own value — purple when at most "
               f"{cc.percent(cc.ALPHA)} of the random labelings do as well, orange otherwise. Where chance "
               "sits on this scale is the lesson: random labelings score high on Rand and low on ARI. Hover a "
               "diamond for the raw values.")
    absent = [m.symbol for m in metrics.MEASURES.values() if m.key not in result.draws.columns
              and m.family in (families or [])]
    if absent:
        st.caption(f"Not computed for this table: {escape_markdown(', '.join(absent))}.")
    frame = cdata.profile_table(picked.table, model, samples, seed, settings.log_base, settings.beta, tuple(keys))
    show_frame(frame, key="ch_profile", percent=["percentile"], sortable=False, hide_index=True, width="stretch",
               column_order=[c for c in frame.columns if c != "key"],
               column_config={c: {"label": cv.PROFILE_LABELS.get(c, c), "help": h} for c, h in cv.PROFILE_HELP.items()})
    d1, d2 = st.columns(2)
    d1.download_button("Profile (CSV)", lambda: frame_csv(result.profile), key="ch_profile_dl",
                       file_name=f"chance-profile-{model}.csv", mime="text/csv", on_click="ignore")
    d2.download_button("Every random labeling's measures (CSV)", lambda: frame_csv(result.draws),
                       key="ch_draws_dl", file_name=f"chance-draws-{model}.csv", mime="text/csv", on_click="ignore")
    closeup(result, samples)


@st.fragment
def ami_tab() -> None:
    """AMI's four normalisations against their NMI: along k under each sweep model, and for one
    table under every model."""
    st.caption("scikit-learn's `adjusted_mutual_info_score` normalises by the min, geometric, arithmetic (its "
               "default) or max mean of the two entropies, and its users still ask which one behaves like an "
               "adjusted index (scikit-learn issue #20066). Every one does under the model AMI assumes (perm): its "
               "expectation is 0. The charts show how far that carries to the other models.")
    st.subheader("Along the number of clusters")
    n = int(cv.param_value("ch_n", cvocab.N_OPTIONS, cvocab.DEFAULT_SWEEP["ch_n"]))
    n_classes = int(cv.param_value("ch_r", cvocab.CLASS_OPTIONS, cvocab.DEFAULT_SWEEP["ch_r"]))
    samples = int(cv.param_value("ch_sd", cvocab.SWEEP_DRAWS, cvocab.DEFAULT_SWEEP["ch_sd"]))
    st.caption(f"The settings of the '{cvocab.SWEEP_TAB}' tab: n = {format_number(n)} items, "
               f"{format_number(n_classes)} gold classes, {format_number(samples)} random labelings per k. Blue: "
               f"AMI_x; orange: NMI_x; bands: {cc.band_text()} of the random labelings.")
    problem = cdata.sweep_problem(n, samples, n_classes, cvocab.SWEEP_MODELS, cc.NORMALISATION_KEYS)
    if problem:
        st.error(problem)
    else:
        summaries = {m: cdata.sweep_summary(n, n_classes, m, samples, seed, settings.log_base, settings.beta,
                                         cc.NORMALISATION_KEYS) for m in cvocab.SWEEP_MODELS}
        show_chart(cv.ami_sweep_chart(n, n_classes, samples, seed, settings.log_base, settings.beta, summaries),
                        key="ch_ami_sweep_chart", width="stretch")
        st.markdown(cv.ami_sweep_sentence(summaries, n))
    st.subheader("For a table, under every model")
    picked = cv.table_picker(presets)
    samples = int(cv.param_value("ch_td", cvocab.TABLE_DRAWS, cvocab.DEFAULT_TABLE["ch_td"]))
    if picked is None:
        return
    profiles, skipped = {}, []
    for model in chance.MODELS:
        problem = cdata.table_problem(picked.table, model, samples, what=picked.label)
        if problem and not picked.table.is_integer:
            st.error(problem)
            return
        if problem:
            skipped.append(problem)
            continue
        result = null_result(picked.table, picked.label, model, samples)
        if result is not None:
            profiles[model] = result.profile
    for problem in skipped:
        st.warning(problem)
    rows = cc.ami_table_rows(profiles)
    if rows.empty:
        return
    st.caption(f"{format_number(samples)} random labelings per model (the '{cvocab.TABLE_TAB}' tab's setting). Left: "
               f"chance's own score on each AMI variant under each model, ± {format_number(cc.ERROR_BAR_SE)} "
               "standard errors where it is a Monte Carlo mean. Right: each NMI variant adjusted for chance under "
               "each model, (NMI − E)/(1 − E), beside AMI itself (black). One y-axis for both.")
    show_chart(cc.ami_table_figure(rows), key="ch_ami_table_chart", width="stretch")
    st.markdown(cv.ami_table_sentence(rows))


# Three tabs bound to the URL (?ch_tab=…), so a link opens any of them; only the open tab runs.
# Each tab is a fragment: its controls rerun the tab alone, not the app's navigation and sidebar
# (the seed and the sidebar's settings, outside, rerun the page).
tab_sweep, tab_table, tab_ami = st.tabs(list(cvocab.TABS), key=cvocab.TAB_KEY, bind="query-params")
if tab_sweep.open:
    with tab_sweep:
        sweep_tab()
if tab_table.open:
    with tab_table:
        table_tab()
if tab_ami.open:
    with tab_ami:
        ami_tab()
