"""Playground: move items between clusters by hand and watch the table and every measure move."""

import streamlit as st

import metrics
from dashboard.playground import views as pv
from dashboard.playground.charts import scatter_figure
from dashboard.playground.moves import MAX_MOVE_TEXT
from dashboard.ui.controls import shared_controls
from dashboard.ui.figures.charts import fmt, table_heatmap
from dashboard.ui.figures.export import show_chart
from dashboard.ui.readout import show_frame
from dashboard.ui.safe_text import md
from dashboard.ui.state import Param, page_link, page_state, url_commit, url_state
from metrics.papers import playground as pg

MIN_N, MAX_N = 30, 300
# The page's state (ui/state.py): the scene and the moves made on it; the typed items, the target
# and the charts' selections are derived (they go with a link or a reset).
page_state("playground",
           Param("pg_scene", "blobs", options=pg.SCENES, what="scene"),
           Param("pg_n", 90, bound=True, lo=MIN_N, hi=MAX_N), Param("pg_seed", 0, bound=True, lo=0, hi=9999),
           Param("pg_m", pv.DEFAULT_KEYS, options=metrics.MEASURES, what="measure"),
           Param(pv.MOVES, [], what="move", max_len=MAX_MOVE_TEXT),
           clear=(pv.TYPED, pv.TARGET, pv.ERROR, pv.CHART))
settings = shared_controls()
st.title("Playground")
st.caption("Items in the plane: the shape is an item's gold class, the colour its cluster. Select items on the "
           "chart (drag a box, draw a lasso from the toolbar, or click one; Shift adds to a selection) or type their "
           "numbers, and move them to another cluster or a new one. The table, every measure you chose and the "
           "history of moves follow at once; the address bar keeps the scene and every move, so a link shows exactly "
           "this.")

c1, c2, c3 = st.columns([4, 3, 2])
with c1:
    url_state("pg_scene")
    scene_key = st.segmented_control("Scene", list(pg.SCENES), key="pg_scene", required=True,
                                     on_change=pv.forget_moves,
                                     format_func=lambda k: pg.SCENES[k].split(":")[0],
                                     help="Each scene sets up one situation of the papers; choosing another "
                                          "starts over.")
    url_commit("pg_scene")
with c2:
    n_items = st.slider("Items", MIN_N, MAX_N, 90, 3, key="pg_n", bind="query-params", on_change=pv.forget_moves,
                        help="Three gold classes of (nearly) equal size; changing it starts over.")
with c3:
    seed = st.number_input("Seed", 0, 9999, 0, key="pg_seed", bind="query-params", on_change=pv.forget_moves,
                           help="Where the items lie (and, in the noise scene, which items are noise).")

scene_args = (str(scene_key), int(n_items), int(seed))
scene = pv.load_scene(*scene_args)
st.markdown(f"**{md(scene.title)}.** " + {
    "blobs": "Clusters as a centroid method finds them: wrong only where the classes overlap. Fix the borders.",
    "singletons": "Every item alone: homogeneity is perfect, yet nothing is learnt. Lasso a class into a new "
                  "cluster and watch which measures were rewarding the singletons.",
    "matching": "Each cluster holds 3/5 of its class; the other 2/5 of every class are spread over the other two "
                "clusters. Gather each class's stray items into one cluster: F-measure and purity cannot see the "
                "difference, V and VI can.",
    "noise": "The classes, but a fifth of the items thrown into one mixed cluster. Move them home one class at "
             "a time.",
}[scene_args[0]])

url_state(pv.MOVES)
moves, states, problem = pv.replayed(scene, list(st.session_state.get(pv.MOVES) or []))
if problem:
    st.warning(f"The link's moves could not all be made ({md(problem)}); showing the moves before it.")
    st.session_state[pv.MOVES] = st.session_state[pv.MOVES][:len(moves)]
url_commit(pv.MOVES, [])
state = states[-1]
t = pg.table(scene.classes, state)


@st.fragment
def chooser(scene_args: tuple[str, int, int], state, n_moves: int) -> None:
    """The scatter and the selection. A fragment: a box, a lasso, a click or typed numbers rerun
    only this. The move controls stand outside it, so a move is one run of the whole page (whose
    table, measures and history follow); the Move button reads the selection when clicked."""
    scene = pv.load_scene(*scene_args)
    show_chart(scatter_figure(scene_args, scene.points, scene.classes, tuple(state.tolist())),
               key=f"{pv.CHART}{n_moves}", name="playground", on_select="rerun",
               selection_mode=("points", "box", "lasso"))
    st.text_input("Or type item numbers", key=pv.TYPED, placeholder="e.g. 4-8, 13",
                  help="Items are numbered 1 to n (hover an item for its number); ranges with a dash.")
    items, typed_problem = pv.selection(scene, n_moves)
    if typed_problem:
        st.error(f"Typed items: {md(typed_problem)}.")
    st.markdown(pv.selection_text(scene, state, items))


left, right = st.columns([5, 4], gap="large")
with left:
    chooser(scene_args, state, len(moves))
    choices = pv.targets(state)
    if st.session_state.get(pv.TARGET) not in choices:
        st.session_state[pv.TARGET] = pv.NEW_TARGET
    m1, m2, m3, m4 = st.columns([3, 2, 2, 2], vertical_alignment="bottom")
    with m1:
        st.selectbox("Move them to", choices, key=pv.TARGET, format_func=pv.target_label)
    with m2:
        st.button("Move", key="pg_move", type="primary", on_click=pv.do_move, args=(scene_args, len(moves)),
                  width="stretch", icon=":material/move_item:")
    with m3:
        st.button("Undo", key="pg_undo", on_click=pv.undo, disabled=not moves, width="stretch",
                  icon=":material/undo:", help="Take back the last move")
    with m4:
        st.button("Start over", key="pg_restart", on_click=pv.forget_moves, disabled=not moves, width="stretch",
                  icon=":material/restart_alt:", help="Every move taken back: the scene as it began")
    if st.session_state.get(pv.ERROR):
        st.error(st.session_state[pv.ERROR])
with right:
    fig, summary = table_heatmap(t, max_rows=10, max_cols=24, height=260)
    show_chart(fig, key="pg_table", name="playground-table")
    st.caption(summary or f"n = {fmt(t.n)} items · {fmt(t.shape[0])} classes · {fmt(t.shape[1])} clusters · "
                          f"{len(moves)} move{'s' if len(moves) != 1 else ''}")
    url_state("pg_m")
    keys = st.multiselect("Measures", list(metrics.MEASURES), key="pg_m",
                          format_func=lambda k: f"{metrics.MEASURES[k].symbol} — {metrics.MEASURES[k].name}")
    url_commit("pg_m")
    keys = [k for k in keys if metrics.MEASURES[k].applies_to(t)]
    if not keys:
        st.info("Choose at least one measure.")
    else:
        traj = pv.trajectory(scene_args, tuple(st.session_state[pv.MOVES]), tuple(keys), settings.log_base,
                             settings.beta)
        now = pv.measures_now(traj, keys)
        st.markdown(pv.changes_text(now))
        show_frame(now, key="pg_measures", columns=["now", "before", "change"], sortable=False, hide_index=True,
                   width="stretch", column_config={
                       "measure": st.column_config.TextColumn("Measure", width="small"),
                       "now": st.column_config.NumberColumn("Now"),
                       "before": st.column_config.NumberColumn("Before", help="Before the last move"),
                       "change": st.column_config.NumberColumn("Change", help="Now − before"),
                       "so": st.column_config.TextColumn("So", help="Better or worse, by the measure's direction "
                                                                    "(its 'better' column in the Table lab)")},
                   column_order=["symbol", "now", "before", "change", "so", "measure"])

st.subheader("Who moved")
if not moves:
    st.caption("No moves yet. Each move you make is listed here, the latest first, with the change it made to "
               "each chosen measure.")
elif keys:
    show_frame(pv.history_frame(scene, moves, states, traj, keys), key="pg_history", sortable=False,
               hide_index=True, width="stretch")
page_link("app_pages/learn/uniform_effect.py", "The uniform effect live: K-means on skewed classes",
          icon=":material/scatter_plot:")
