"""Generator lab — Dom's parametric family with Rosenberg & Hirschberg's noise classes: build a
table with sliders and sweep one parameter against the measures (first tab), or see P1–P7 over the
paper's grid beside its printed Table 2 (second tab, ``?g_tab=Properties P1–P7 (Table 2)``)."""

import streamlit as st

import metrics
from dashboard.generator import views as gv
from dashboard.ui.controls import shared_controls
from dashboard.ui.figures.charts import cached_goodness_figure, fmt, table_heatmap
from dashboard.ui.figures.export import show_chart
from dashboard.ui.measures import formulas_expander, measures_frame, show_measures
from dashboard.ui.readout import show_frame
from dashboard.ui.state import Param, page_state, url_commit, url_state
from dashboard.ui.tables import evaluate_cached
from metrics import properties
from metrics.core.formatting import frame_csv

DEFAULT_AXIS = "eps1"
# The measures of the paper's Table 2, plus NVI, ARI and BCubed F for contrast.
DEFAULT_KEYS = ["v_measure", "vi", "nvi", "q0", "f_measure", "rand", "ari", "jaccard", "fowlkes_mallows",
                "hubert_gamma", "bcubed_f"]


def _symbol(k: str) -> str:
    return f"{metrics.MEASURES[k].symbol} — {metrics.MEASURES[k].name}"


# The page's state (ui/state.py): a link names some of these, the rest take their defaults.
page_state("generator_lab",
           *(Param(p.key, p.default, bound=True, options=p.options or None, lo=None if p.options else p.lo,
                   hi=None if p.options else p.hi) for p in gv.PARAMS.values()),
           Param(gv.INTEGER_KEY, False, bound=True),
           Param("g_x", DEFAULT_AXIS, options=gv.PARAMS, what="sweep parameter"),
           Param("g_m", DEFAULT_KEYS, options=metrics.MEASURES, what="measure"),
           Param("g_fail", False, bound=True),
           Param("g_fm", "rand", options=metrics.MEASURES, what="measure"),
           Param("g_fp", next(iter(properties.PROPERTIES)), bound=True, options=properties.PROPERTIES),
           Param(gv.TAB_KEY, gv.LAB_TAB, bound=True, options=(gv.LAB_TAB, gv.PROPERTIES_TAB)))
settings = shared_controls()
st.title("Generator lab")
st.caption("Dom's parametric family of clusterings as extended by Rosenberg & Hirschberg (2007, §4): |C| useful "
           "classes matched to |Ku| useful clusters, error mass ε1 on the non-matching pairs, ε2 in |Knoise| noise "
           "clusters and ε3 in |Cnoise| noise classes. The defaults build the paper's Figure 3. Every table comes "
           "from `metrics.papers.generators.dom`, every value from `metrics`.")

def table_section(t: metrics.Contingency, settings) -> None:
    """The generated table as a heatmap, every measure on the goodness scale, all values."""
    values = evaluate_cached(t, settings.log_base, settings.beta)
    left, right = st.columns([6, 5], gap="large")  # the value table needs the room
    with left:
        fig, summary = table_heatmap(t, max_rows=40, max_cols=60, height=360)
        show_chart(fig, key="gen_heatmap", width="stretch")
        kind = "whole items" if t.is_integer else "expected counts (fractional cells)"
        st.caption(summary or f"n = {fmt(t.n)} · {fmt(t.shape[0])} classes · {fmt(t.shape[1])} clusters · {kind}. "
                              "Empty rows and columns are dropped.")
        missing = [metrics.MEASURES[k].symbol for k in metrics.MEASURES if k not in values]
        if missing:
            st.caption(f"Not defined for this table: {', '.join(missing)} (the table of values says why).")
    with right:
        keys_all = list(metrics.MEASURES)
        st.markdown("**Every measure on the goodness scale** (1 = best; bar and label = goodness, the raw value "
                    "beside each symbol)")
        show_chart(cached_goodness_figure(tuple((k, values[k]) for k in keys_all if k in values),
                                               tuple(keys_all)), key="gen_goodness", width="stretch")
    # Below both columns, at full width: in a column its "What it measures" fell past the edge.
    with st.expander(f"All values — {settings.unit}, β = {fmt(settings.beta)}", expanded=True):
        show_measures(measures_frame(values, list(metrics.MEASURES)), key="gen_measures")
    formulas_expander(list(metrics.MEASURES), key="gen_formulas")


def sweep_section(params: dict, integer: bool, settings) -> None:
    """One parameter on the x-axis, the chosen measures as lines: goodness, then raw values."""
    st.subheader("Sweep one parameter")
    url_state("g_x", gv.PARAMS, DEFAULT_AXIS, "sweep parameter")
    axis = st.segmented_control("Parameter on the x-axis", list(gv.PARAMS), required=True, key="g_x",
                                format_func=lambda a: gv.PARAMS[a].symbol,
                                help="The other parameters stay at the sliders' values.")
    assert axis is not None  # required=True: always a choice
    url_commit("g_x", DEFAULT_AXIS)
    url_state("g_m", metrics.MEASURES, DEFAULT_KEYS, "measure", multi=True)
    keys = st.multiselect("Measures", list(metrics.MEASURES), key="g_m", format_func=_symbol)
    url_commit("g_m", DEFAULT_KEYS)
    if not keys:
        st.info("Choose at least one measure to sweep.")
        return
    fixed = tuple(sorted((a, v) for a, v in params.items() if a != axis))
    good_fig, raw_fig, curve, skipped = gv.sweep_charts(axis, fixed, tuple(keys), integer, settings.log_base,
                                                        settings.beta, params[axis])
    symbol = gv.PARAMS[axis].symbol
    if curve.empty:
        st.warning(f"No value of {symbol} can be built with the other settings: {skipped[0][1]}. "
                   "Change another slider.")
        return
    st.markdown(f"**On the goodness scale** — every measure's `Measure.goodness` along {symbol}; the dashed line "
                "is the slider's position")
    show_chart(good_fig, key="gen_sweep_goodness", width="stretch")
    st.markdown("**Raw values** — each measure on its own axis (↑/↓: which direction is better)")
    show_chart(raw_fig, key="gen_sweep_raw", width="stretch")
    if skipped:
        xs = ", ".join(fmt(x) for x, _ in skipped[:8]) + (" …" if len(skipped) > 8 else "")
        st.caption(f"Left out {len(skipped)} value(s) of {symbol} that cannot be built ({xs}): {skipped[0][1]}.")
    gaps = [k for k, g in curve.groupby("key", sort=False) if g["value"].isna().any()]
    if gaps:
        why = sorted({metrics.core.registry.DOMAINS[metrics.MEASURES[k].domain] for k in gaps})
        st.caption(f"Gaps: {', '.join(metrics.MEASURES[k].symbol for k in gaps)} not defined for some of these "
                   f"tables — {'; '.join(why)}.")


@st.fragment
def lab(settings) -> None:
    """Sliders, table, measures and sweep: a fragment, so moving a slider reruns only this part
    (the P1–P7 tab does not depend on the sliders)."""
    params, integer = gv.dom_sliders()
    t, problem = gv.realize(params, integer)
    if problem or t is None:
        st.error(f"**These settings cannot be built:** {problem}. Move that slider — the other settings are kept.")
    else:
        table_section(t, settings)
    sweep_section(params, integer, settings)


def properties_section(settings) -> None:
    """P1–P7 over the paper's grid beside the printed Table 2, every measure's rates, failing steps."""
    st.subheader("P1–P7 over the paper's grid")
    grid = ", ".join(f"{gv.SYMBOLS[k]} ∈ {{{', '.join(fmt(v) for v in vs)}}}"
                     for k, vs in properties.RH_GRID.items())
    st.caption(f"Dom's desirable properties P1–P5 and Rosenberg & Hirschberg's P6–P7 (their Table 1) — not Wu et "
               f"al.'s properties, which the Property checker shows as W1–W5 —, tested on every step of the grid: "
               f"{grid} — about 14 000 distinct tables of n = {properties.PROPERTY_GRID_N:,} items. A rate is the "
               "share of the steps a property applies to where it holds (`metrics.properties.dom_property_rates`).")
    with st.expander("The seven properties (for a measure M where higher is better; inverted for distances)"):
        st.table({"property": list(properties.PROPERTIES), "statement": list(properties.PROPERTIES.values())})

    rates = gv.property_rates(settings.log_base, settings.beta)
    comparison = gv.table2_comparison(rates)
    ours, printed, differs = gv.comparison_frames(comparison)
    st.markdown("**Beside the printed Table 2** — cells that differ at the printed precision are highlighted")
    if settings.beta != 1:
        st.caption(f"V-Measure here is V_β with β = {fmt(settings.beta)} (sidebar); the paper's is β = 1.")
    c1, c2 = st.columns(2, gap="medium")
    height = 38 + 35 * len(ours)
    with c1:
        st.markdown(f"Ours (`metrics`, n = {properties.PROPERTY_GRID_N:,})")
        st.dataframe(gv.styled_comparison(ours, differs), key="gen_t2_ours", width="stretch", height=height)
    with c2:
        st.markdown(f"Printed — {gv.table2()['source'].split(',')[0]}, Table 2")
        st.dataframe(gv.styled_comparison(printed, differs), key="gen_t2_printed", width="stretch", height=height)
    gv.show_explanations(comparison)

    st.markdown("**Every measure** — the rates of all registered measures (AMI needs whole items; the grid's "
                "tables hold expected counts)")
    matrix = gv.rates_matrix(rates)
    st.dataframe(gv.styled_rates(matrix), key="gen_rates", width="stretch", hide_index=True,
                 height=38 + 35 * min(len(matrix), 16),
                 column_config={"measure": st.column_config.TextColumn("Measure"),
                                "symbol": st.column_config.TextColumn("Symbol", width="small"),
                                "family": st.column_config.TextColumn("Family"), **gv.rates_column_config()})
    st.download_button("Rates (CSV)", frame_csv(rates, index=False), file_name="p1-p7-rates.csv",
                       mime="text/csv", key="gen_rates_dl", on_click="ignore")

    failing_steps(rates, settings)


@st.fragment
def failing_steps(rates, settings) -> None:
    """One measure's failing steps on demand; a fragment, so that its toggle and choices rerun only
    this part, not the tables above (Stylers, which cost a rerun the most)."""
    if st.toggle("Show the failing steps of one measure", key="g_fail", bind="query-params"):
        f1, f2 = st.columns([3, 1])
        with f1:
            url_state("g_fm", list(dict.fromkeys(rates["measure"])), "rand", "measure")
            fkey = st.selectbox("Measure", list(dict.fromkeys(rates["measure"])), key="g_fm", format_func=_symbol)
            url_commit("g_fm", "rand")
        with f2:
            fprop = st.selectbox("Property", list(properties.PROPERTIES), key="g_fp", bind="query-params")
        fails = gv.failures(fkey, fprop, settings.log_base, settings.beta)
        r = rates[(rates["measure"] == fkey) & (rates["property"] == fprop)].iloc[0]
        st.caption(f"{metrics.MEASURES[fkey].symbol} satisfies {fprop} on {r.satisfied:,} of {r.steps:,} steps; "
                   f"the {len(fails):,} steps where it does not "
                   "(`metrics.properties.dom_property_failures`: the setting stepped from, the parameter that moves, "
                   "and the measure's values before and after):")
        if len(fails):
            # Six significant digits here: a failing step can move a value in its fifth digit.
            show_frame(fails, key="gen_failures", digits=6, hide_index=True, width="stretch")


# Two tabs bound to the URL (?g_tab=…), so a link (the lesson, the Paper gallery) opens either one;
# only the open tab runs, so the sliders do not wait for the grid and the grid not for the sliders.
tab_lab, tab_props = st.tabs([gv.LAB_TAB, gv.PROPERTIES_TAB], key=gv.TAB_KEY, bind="query-params")
if tab_lab.open:
    with tab_lab:
        lab(settings)
if tab_props.open:
    with tab_props:
        properties_section(settings)
