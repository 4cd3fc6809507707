"""Table lab: edit a contingency table or upload labels, and see every registered measure."""

import streamlit as st

import metrics
from dashboard.ui.controls import shared_controls
from dashboard.ui.editor import DEFAULT_PRESET, load_table, table_editor
from dashboard.ui.figures.charts import cached_goodness_figure, fmt, table_heatmap
from dashboard.ui.figures.export import show_chart
from dashboard.ui.measures import download_buttons, keys_for, measures_frame, show_formulas, show_measures
from dashboard.ui.presets import load_presets
from dashboard.ui.readout import escape_markdown
from dashboard.ui.state import Param, kept, page_link, page_state, url_commit, url_state
from dashboard.ui.tables import encode_table, evaluate_cached, table_csv
from dashboard.ui.upload import upload_panel

EDITABLE_CELLS = 2500  # an uploaded table this small can be copied into the editor

# The page's state (ui/state.py). `table` is the edited table in the URL (editor.py); the
# editor's session keys and the upload panel's widgets are derived state (`lab_version` is not: editor
# keys must never be reused).
page_state("table_lab",
           Param("src", "table", options=["table", "upload"], what="table source"),
           Param("preset", DEFAULT_PRESET, options=load_presets, what="preset"),
           Param("table", table=True),
           Param("fam", list(metrics.FAMILIES), options=metrics.FAMILIES, what="family"),
           Param("lab_formulas", False, bound=True),
           clear=("lab_base", "lab_base_for", "lab_current", "lab_valid", "lab_origin", "lab_names_error",
                  "lab_last_error", "lab_upload_"))
settings = shared_controls()
st.title("Table lab")
st.caption("Rows are gold classes, columns are clusters. Every value below is computed by `metrics` "
           "from the table on the right.")
presets = load_presets()


def _edit_upload(t: metrics.Contingency) -> None:
    # The preset picker is not drawn in upload mode: read its kept value, so the editor does
    # not mistake the copied table for a stale one and reset it to the preset.
    load_table(t.to_frame(), kept("preset", DEFAULT_PRESET), origin="the uploaded labels")
    st.session_state["src"] = "table"


url_state("src", ["table", "upload"], "table", "table source")
source = st.segmented_control("Table from", ["table", "upload"], required=True, key="src",
                              format_func={"table": "a preset, edited", "upload": "uploaded labels"}.__getitem__)
url_commit("src", "table")
left, right = st.columns([1, 1], gap="large")
with left:
    if source == "upload":
        t = upload_panel("lab_upload")
        if t is not None and t.shape[0] * t.shape[1] <= EDITABLE_CELLS:
            st.button("Edit this table", on_click=_edit_upload, args=(t,), key="lab_edit_upload",
                      help="Copy the uploaded table into the editor")
    else:
        t = table_editor(presets)
if t is None:
    st.stop()
if source == "table":
    with left:
        # A link that determines Compare's state: A is this table, carried in the link (None: too
        # large for a URL, and Compare takes this session's Table-lab table).
        text = encode_table(st.session_state["lab_valid"])
        page_link("app_pages/analyse/compare.py", "Compare this table with another solution",
                  {"a": "lab", "a_table": text} if text else {"a": "lab"}, icon=":material/compare_arrows:")
with right:
    fig, summary = table_heatmap(t, max_rows=40, max_cols=120)
    show_chart(fig, key="lab_heatmap", width="stretch")
    if summary:
        st.caption(summary)
    st.caption(f"n = {fmt(t.n)} items · {fmt(t.shape[0])} classes · {fmt(t.shape[1])} clusters")

st.subheader("Measures")
url_state("fam", metrics.FAMILIES, list(metrics.FAMILIES), "family", multi=True)
families = st.pills("Families", list(metrics.FAMILIES), selection_mode="multi",
                    format_func=metrics.FAMILIES.__getitem__, key="fam")
url_commit("fam", list(metrics.FAMILIES))
keys = keys_for(families or [])
if not keys:
    st.info("Choose at least one family of measures.")
    st.stop()
values = evaluate_cached(t, settings.log_base, settings.beta)
mframe = measures_frame(values, keys)
# One above the other, each the page's full width: beside the chart, the table's "What it measures"
# column fell past the right edge.
c_chart, c_table = st.container(), st.container()
with c_chart:
    st.markdown("**At a glance** — the common goodness scale")
    show_chart(cached_goodness_figure(tuple((k, values[k]) for k in keys if k in values), tuple(keys)),
                    key="lab_goodness", width="stretch")
    st.caption("Goodness (the registry's `Measure.goodness`) maps each value onto 0–1 with 1 = best: linear over "
               "the measure's range, distances flipped, chance-corrected measures from chance (0) to 1, unbounded "
               "ones through v/(1+v). It keeps each measure's order, not its spacing. A bar and its label are the "
               "goodness; the raw value stands beside the measure's symbol. Hover a bar for what the measure means.")
with c_table:
    st.markdown(f"**All values** — {settings.unit}, β = {fmt(settings.beta)}")
    show_measures(mframe, key="lab_measures")
    # A range that its bounds alone misstate (VI: unbounded over all n, at most log n for n items) is
    # explained where the table shows it, in the registry's one statement.
    for k in keys:
        m = metrics.MEASURES[k]
        if m.range_note:
            st.caption(f"**{escape_markdown(m.symbol)}'s range {m.range_text}:** {escape_markdown(m.range_note)}")
    stem = kept("preset", DEFAULT_PRESET) if source == "table" else "upload"
    download_buttons(mframe, table_csv(t), stem, key="lab")
# Kept through runs that end early (st.stop() above skips Streamlit's clean-up; persist_state makes the
# browser show the kept value when the toggle comes back) and bound to the URL.
if st.toggle("Show formulas", key="lab_formulas", bind="query-params", persist_state="session"):
    show_formulas(keys)
