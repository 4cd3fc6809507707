"""Property checker — Wu et al.'s properties of one measure checked live with their evidence, demos
that scale, transpose, split and merge a table, VI's range against NVI's, every measure ×
property beside Wu et al.'s printed Table 12, and "choose a measure" by Gösgens et al.'s properties
(tick what the task needs, see the measures that have it, the evidence of any verdict one choice away)."""


import streamlit as st

import metrics
from dashboard.papers import facts
from dashboard.properties import gosgens_view as gv
from dashboard.properties import views as pv
from dashboard.ui.controls import shared_controls
from dashboard.ui.figures.charts import fmt, table_heatmap
from dashboard.ui.figures.export import show_chart
from dashboard.ui.presets import load_presets
from dashboard.ui.readout import escape_markdown, styled
from dashboard.ui.state import Param, page_state, url_commit, url_state
from dashboard.ui.tables import evaluate_cached
from metrics import solutions
from metrics.papers import generators

DEFAULT_MEASURE = "vi"
DEFAULT_TABLE = "rh_figure3"


def _label(k: str) -> str:
    return f"{metrics.MEASURES[k].symbol} — {metrics.MEASURES[k].name}"


def _value(values: dict, key: str) -> str:
    return fmt(values[key]) if key in values else "not defined for this table"


def _same(a: dict, b: dict, key: str) -> str:
    if key not in a or key not in b:
        return "cannot be compared (not defined for one of the tables)"
    # Equal up to floating-point rounding: the tie rule of metrics.solutions.
    return "**equal**" if solutions.ties(a[key], b[key]) else "**different**"


# The page's state (ui/state.py): a link names some of these, the rest take their defaults
# (the clusters to split or merge default to the chosen table's first ones, decided when drawn).
page_state("property_checker",
           Param("p_m", DEFAULT_MEASURE, options=metrics.MEASURES, what="measure"),
           Param("p_seed", 0, bound=True, lo=0, hi=10**6),
           Param("p_t", DEFAULT_TABLE, options=load_presets, what="table"),
           Param(pv.TAB_KEY, pv.DEMO_TABS[0], bound=True, options=pv.DEMO_TABS),
           Param("p_lam", 2, bound=True, lo=1, hi=10), Param("p_T", False, bound=True),
           Param("p_op", "split", options=["split", "merge"], what="operation"),
           Param("p_sc", what="cluster"), Param("p_parts", 2, bound=True, lo=2, hi=8), Param("p_mc", what="cluster"),
           Param("p_need", [], options=gv.PROPERTIES, what="property"), Param("p_proved", False, bound=True),
           Param("p_em", gv.DEFAULT_EVIDENCE[0], options=metrics.MEASURES, what="measure"),
           Param("p_ep", gv.DEFAULT_EVIDENCE[1], options=gv.PROPERTIES, what="property"))
settings = shared_controls()
st.title("Property checker")
st.caption("Which of Wu, Xiong & Chen's (2009, §5.2) mathematical properties W1–W5 does a measure have? (Wu et al. "
           "number them P1–P5; they are not Dom's P1–P7 of the Generator lab.) Each is checked "
           "numerically on seeded random tables by `metrics.properties.check_properties`, with a counterexample "
           "whenever it fails. Below: demos on a table, and the matrix of every measure × property.")

c1, c2 = st.columns([3, 1])
with c1:
    url_state("p_m", metrics.MEASURES, DEFAULT_MEASURE, "measure")
    key = st.selectbox("Measure", list(metrics.MEASURES), key="p_m", format_func=_label)
    url_commit("p_m", DEFAULT_MEASURE)
with c2:
    seed = st.number_input("Seed of the random cases", 0, 10**6, 0, 1, key="p_seed", bind="query-params",
                           help="Every case is drawn from this seed, so a link reproduces the same cases.")
m = metrics.MEASURES[key]
sym = escape_markdown(m.symbol)  # registry text in Markdown: ε_n or S&S₁ must not turn italic
st.markdown(f"**{escape_markdown(m.name)}** ({sym}) — {escape_markdown(m.description)} "
            f"*{escape_markdown(m.reference)}.* "
            f"{'Higher' if m.higher_is_better else 'Lower'} is better; range {m.range_text}.")

result = pv.checks(key, int(seed))
held = [pv.WU_PROPERTIES[p][1] for p in pv.WU_PROPERTIES if result[p]["holds"]]
failed = [pv.WU_PROPERTIES[p][1] for p in pv.WU_PROPERTIES if not result[p]["holds"]]
st.markdown(f"**{sym}** has {', '.join(held) or 'none of the five properties'}"
            + (f"; it lacks {', '.join(failed)}." if failed else "."))
cols = st.columns(2, gap="medium")
for i, name in enumerate(pv.WU_PROPERTIES):
    with cols[i % 2]:
        pv.show_check(name, result[name])
with cols[len(pv.WU_PROPERTIES) % 2]:
    pv.show_metric(result["metric"])
st.markdown(gv.summary_line(key) + " (Details: *Choose a measure*, at the bottom of the page.)")

# ---------------------------------------------------------------- demos
@st.fragment
def demos(key: str, result: dict, settings) -> None:
    """Scale, transpose, split/merge and VI's range on a table: a fragment, so moving a demo's
    slider reruns only the demos (the matrix below does not depend on them). Only the open tab
    runs (the tabs are bound to the URL: ``?p_tab=…`` opens one): a new measure or table
    redraws one demo, not four. The closed tabs' widgets keep their values (bound ones are
    kept by Streamlit, keyed options by ui/state.py)."""
    m = metrics.MEASURES[key]
    sym = escape_markdown(m.symbol)
    st.subheader("See it happen")
    presets = load_presets()
    url_state("p_t", presets, DEFAULT_TABLE, "table")
    preset = st.selectbox("Table for the demos", list(presets), key="p_t", format_func=lambda k: presets[k].title)
    url_commit("p_t", DEFAULT_TABLE)
    t = presets[preset].contingency()
    st.caption(f"{presets[preset].provenance}. n = {fmt(t.n)}, {t.shape[0]} classes × {t.shape[1]} clusters.")
    base = evaluate_cached(t, settings.log_base, settings.beta)

    tab_scale, tab_t, tab_split, tab_range = st.tabs(pv.DEMO_TABS, key=pv.TAB_KEY, bind="query-params")
    if tab_scale.open:
        with tab_scale:
            lam = st.slider("λ — every cell times λ", 1, 10, 2, key="p_lam", bind="query-params")
            scaled = generators.scale(t, lam)
            sv = evaluate_cached(scaled, settings.log_base, settings.beta)
            st.markdown(f"{sym}(table) = **{_value(base, key)}**, {sym}({lam}·table) = "
                        f"**{_value(sv, key)}**: "
                        f"{_same(base, sv, key)}.")
            curve = pv.scale_curve(t, key, tuple(range(1, 11)), settings.log_base, settings.beta)
            show_chart(pv.line_figure(curve["factor"], curve["value"], "λ", m.symbol, current_x=lam),
                            key="pc_scale_chart", width="stretch")
            st.caption(f"{sym} of `metrics.papers.generators.scale(table, λ)` for λ = 1…10. An n-invariant "
                       "measure draws a "
                       "flat line; pair counts C(λx, 2) do not scale with λ, so pair-counting measures drift.")

    if tab_t.open:
        with tab_t:
            transpose = st.toggle("Transpose: classes become clusters and clusters classes", key="p_T",
                                  bind="query-params")
            shown = t.T if transpose else t
            tv = evaluate_cached(t.T, settings.log_base, settings.beta)
            fig, _summary = table_heatmap(shown, max_rows=30, max_cols=60, height=300)
            show_chart(fig, key="pc_transpose_heatmap", width="stretch")
            st.markdown(f"{sym}(table) = **{_value(base, key)}**, {sym}(tableᵀ) = **{_value(tv, key)}**: "
                        f"{_same(base, tv, key)}. Showing the table{'ᵀ' if transpose else ''}: "
                        f"{sym} = **{_value(tv if transpose else base, key)}**.")

    if tab_split.open:
        with tab_split:
            labels = {str(c): c for c in t.col_labels}
            names = list(labels)
            # Synced by hand, not bound: a bound widget writes its label ("merge clusters") into the URL.
            url_state("p_op", ["split", "merge"], "split", "operation")
            op = st.segmented_control("Operation", ["split", "merge"], required=True, key="p_op",
                                      format_func={"split": "split a cluster", "merge": "merge clusters"}.__getitem__)
            url_commit("p_op", "split")
            after, problem = None, None
            if op == "split":
                s1, s2 = st.columns([2, 3])
                with s1:
                    url_state("p_sc", names, names[0], "cluster")
                    if st.session_state.get("p_sc") not in names:   # kept from another table
                        st.session_state["p_sc"] = names[0]
                    cluster = st.selectbox("Cluster to split", names, key="p_sc")
                    url_commit("p_sc", names[0])
                with s2:
                    parts = st.slider("Into equal parts", 2, 8, 2, key="p_parts", bind="query-params")
                try:
                    after = generators.split(t, labels[cluster], parts)
                except ValueError as exc:
                    problem = f"This split cannot be made: {exc}."
                what = f"{cluster} split into {parts}"
            else:
                default = names[:2]
                url_state("p_mc", names, default, "cluster", multi=True)
                st.session_state["p_mc"] = [c for c in st.session_state.get("p_mc", []) if c in names]
                chosen = st.multiselect("Clusters to merge", names, key="p_mc")
                url_commit("p_mc", default)
                if len(chosen) < 2:
                    problem = "Choose at least two clusters to merge" + (
                        " — this table has only one cluster: pick another table above." if len(names) < 2 else ".")
                else:
                    try:
                        after = generators.merge(t, [labels[c] for c in chosen])
                    except ValueError as exc:
                        problem = f"These clusters cannot be merged: {exc}."
                what = " + ".join(chosen)
            if problem or after is None:
                st.warning(problem)
            else:
                av = evaluate_cached(after, settings.log_base, settings.beta)
                h1, h2 = st.columns(2)
                with h1:
                    st.caption("Before")
                    show_chart(table_heatmap(t, max_rows=30, max_cols=60, height=280)[0], key="pc_before_heatmap",
                                    width="stretch")
                with h2:
                    st.caption(f"After: {escape_markdown(what)}")
                    show_chart(table_heatmap(after, max_rows=30, max_cols=60, height=280)[0],
                                    key="pc_after_heatmap", width="stretch")
                st.markdown(f"{sym} before = **{_value(base, key)}**, after = **{_value(av, key)}**.")
                if op == "split":
                    curve = pv.split_curve(t, labels[cluster], key, tuple(range(2, 9)), settings.log_base,
                                           settings.beta)
                    show_chart(pv.line_figure(curve["parts"], curve["value"], f"parts of cluster {cluster}",
                                                   m.symbol, current_x=parts), key="pc_split_chart", width="stretch")
            verdict = "is" if result["convex_additivity"]["holds"] else "is not"
            st.caption("`metrics.papers.generators.split` divides every cell of the cluster equally (whole items by "
                       "largest remainder), so each class keeps its share in every part: the new clustering refines "
                       "the old one. Convex additivity says a measure of a partition against its refinement is the "
                       "size-weighted mean of the measure within each block — splits and merges act locally. "
                       f"{sym} {verdict} convex additive on the checked cases (above).")

    if tab_range.open:
        with tab_range:
            keys = ["vi", "nvi"] + ([key] if key not in ("vi", "nvi") else [])
            show_chart(pv.range_chart(tuple(keys), settings.log_base, settings.beta), key="pc_range_chart",
                            width="stretch")
            st.caption(f"{facts.VI_RANGE} So VI's scale depends on the size of the data (Reichart & Rappoport "
                       f"2009). Here m classes of {pv.CLASS_SIZE} items (n = {pv.CLASS_SIZE}m, as in their §5). "
                       f"{facts.nvi_reference_text(pv.CLASS_SIZE)} Values in {settings.unit}, from "
                       "`metrics.evaluate` of `metrics.papers.generators`' tables.")


demos(key, result, settings)

# ---------------------------------------------------------------- the matrix
st.divider()
st.subheader("Every measure × property — Wu et al.'s Table 12, extended")
long = pv.properties_matrix_long()
explained, matrix_csv = pv.show_matrix(pv.MATRIX_SEED, pv.MATRIX_TRIALS, long)
st.caption("Columns: Wu et al.'s properties W1 symmetry, W2 n-invariance, W3 convex additivity, W4 left- and W5 "
           "right-domain completeness (printed P1–P5 in their Table 12; not Dom's P1–P7), then the metric axioms "
           "of a distance — identity d(X, X) = 0, symmetry, triangle inequality. "
           "✓ holds, ✗ fails, — does not apply (the metric axioms concern distances). Blue cells are those Wu et al. "
           "printed, with their entry (" + pv.table12()["note"] + " — so Yes* marks both the un-normalized measure, "
           "where it means yes, and the normalized one, where it means no); yellow ones are where the print and the "
           "check disagree. Checked by `metrics.properties.properties_table` with seed 0 and 200 cases per property.")
if explained:
    st.markdown(f"**Where Table 12 and the check disagree** ({pv.table12()['differences']['reading']})")
    for why, where in explained:
        st.markdown(f"- **{', '.join(where)}** — {why}")
st.download_button("Matrix (CSV)", matrix_csv, file_name="properties.csv",
                   mime="text/csv", key="pc_matrix_dl", on_click="ignore")


# ---------------------------------------------------------------- choose a measure (Gösgens et al.)
@st.fragment
def choose_a_measure() -> None:
    """Tick the properties a task needs → the measures that have them; any verdict's evidence one
    choice away. A fragment: ticking reruns only this part of the page."""
    st.subheader("Choose a measure — Gösgens, Tikhonov & Prokhorenkova's properties (ICML 2021)")
    st.caption("Eight properties a similarity index may need, decided for every measure by "
               "`metrics.properties.gosgens_properties`: ✓ proved (a reference or a written argument), ✓? no "
               "counterexample in an exhaustive search of small cases (every pair of partitions of up to 7 items, "
               "every triple of 5 items, exact expectations for every margin pair up to 7 items) — not a proof, "
               "✗ a counterexample was found (shown below), — does not apply. " + gv.RECONSTRUCTION_NOTE)
    url_state("p_need")
    need = st.pills("Properties your task needs", list(gv.PROPERTIES), selection_mode="multi", key="p_need",
                    format_func=gv.PROPERTY_LABELS.__getitem__)
    url_commit("p_need")
    proved_only = st.toggle("Only verdicts with a proof (leave out ✓?)", key="p_proved", bind="query-params")
    chosen = gv.choose(list(need or []), bool(proved_only))
    wanted = ", ".join(gv.PROPERTY_LABELS[p] for p in need or []) or "no property ticked: every measure"
    if chosen.empty:
        st.warning(f"No measure has all of: {wanted}"
                   + (" with a proof. Allow verdicts without one (✓?) or tick fewer properties."
                      if proved_only else ". Tick fewer properties."))
    else:
        st.markdown(f"**{len(chosen)} measure{'s' if len(chosen) != 1 else ''}** "
                    f"({escape_markdown(wanted)}), most properties first:")
        st.dataframe(styled(chosen.drop(columns="key")), key="p_choose_table", hide_index=True, width="stretch")
    st.markdown("**The evidence of one verdict**")
    e1, e2 = st.columns(2)
    with e1:
        url_state("p_em")
        ev_key = st.selectbox("Measure", list(metrics.MEASURES), key="p_em", format_func=_label)
        url_commit("p_em")
    with e2:
        url_state("p_ep")
        ev_prop = st.selectbox("Property", list(gv.PROPERTIES), key="p_ep", format_func=gv.PROPERTY_LABELS.__getitem__)
        url_commit("p_ep")
    gv.show_verdict(ev_key, ev_prop)
    with st.expander("Where the searches disagree with the paper's table (as reconstructed)"):
        frame = gv.disagreements()
        st.caption(gv.RECONSTRUCTION_NOTE + " A cell marked *unsure* is one the reconstruction is least sure of; "
                   "the others follow from what the paper states.")
        st.dataframe(frame, key="p_disagreements", hide_index=True, width="stretch")


st.divider()
choose_a_measure()
