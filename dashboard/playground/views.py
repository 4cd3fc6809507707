"""The playground's state and panels: the scene and its moves, the selection, the move controls,
the measures before and after, and the "who moved" history.

The state is the scene (``pg_scene``, ``pg_n``, ``pg_seed``) and the list of moves (``pg_mv``,
see ``moves.py``): the clustering on screen is the scene's starting clustering with the moves
replayed (:func:`metrics.papers.playground.replay_valid`), so a link reproduces it exactly, Back
undoes a move only if the reader wants (Undo), and a reload loses nothing. Every number comes from
:mod:`metrics`: the scene, the moves, the table and every measure of every clustering along the way.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from dashboard.playground.charts import class_name, cluster_name
from dashboard.playground.moves import MAX_MOVES, decode_moves, encode_move, parse_typed
from metrics.papers import playground as pg

DEFAULT_KEYS = ["purity", "f_measure", "v_measure", "nvi", "vi", "ari", "vd_n"]
MOVES, TYPED, TARGET, ERROR = "pg_mv", "pg_typed", "pg_to", "pg_move_error"
CHART = "pg_scatter_"      # + the number of moves: a move draws a new chart, so its selection is cleared
NEW_TARGET = "new"
MAX_LISTED = 8             # item numbers listed in the history before "…"


@st.cache_resource(max_entries=64, show_spinner=False)
def load_scene(key: str, n: int, seed: int) -> pg.Scene:
    """The scene (shared read-only across sessions: its arrays are never written)."""
    s = pg.scene(key, n, seed)
    for a in (s.points, s.classes, s.clusters):
        a.flags.writeable = False
    return s


def replayed(scene: pg.Scene, texts: list[str]) -> tuple[list[pg.Move], list[np.ndarray], str | None]:
    """The moves of ``texts`` that can be read and made, the clusterings along them, and why the
    first one that cannot was dropped (None: all were made)."""
    moves, problem = decode_moves(texts, scene.n)
    states, failed = pg.replay_valid(scene.clusters, moves)
    return moves[:len(states) - 1], states, problem if failed is None else failed


@st.cache_data(max_entries=4096, show_spinner=False)
def _state_values(scene_args: tuple[str, int, int], moves: tuple[str, ...], keys: tuple[str, ...],
                  log_base: float, beta: float) -> dict[str, float]:
    """The chosen measures of the clustering after ``moves`` (shared across sessions: a link
    opened by a class evaluates each state once)."""
    scene = load_scene(*scene_args)
    _, states, _ = replayed(scene, list(moves))
    return metrics.evaluate(pg.table(scene.classes, states[-1]), list(keys), log_base=log_base, beta=beta)


def trajectory(scene_args: tuple[str, int, int], moves: tuple[str, ...], keys: tuple[str, ...],
               log_base: float, beta: float) -> pd.DataFrame:
    """The chosen measures of every clustering along the moves: one row per state (0 = the
    scene's start), one column per measure. Each state is cached on its own, so a move evaluates
    one new clustering, not the whole history."""
    rows = [_state_values(scene_args, moves[:i], keys, log_base, beta) for i in range(len(moves) + 1)]
    return pd.DataFrame(rows, columns=list(keys))


def forget_moves() -> None:
    """A new scene, or Start over: the moves go, and the typed items (a new scene's items are
    others). A callback of the scene's controls and of the Start over button."""
    st.session_state[MOVES] = []
    st.session_state[TYPED] = ""
    st.session_state.pop(ERROR, None)


def selection(scene: pg.Scene, n_moves: int) -> tuple[list[int], str | None]:
    """The items chosen on the chart (box, lasso or click) and typed in the box, 0-based; or why
    the typed text cannot be read."""
    ss = st.session_state
    event = ss.get(f"{CHART}{n_moves}")
    picked = set()
    if event is not None:
        for p in (event.get("selection") or {}).get("points", []):
            data = p.get("customdata")
            item = data[0] if isinstance(data, list) else data
            if isinstance(item, (int, float)) and 0 <= int(item) < scene.n:
                picked.add(int(item))
    typed, problem = parse_typed(ss.get(TYPED) or "", scene.n)
    return sorted(picked | set(typed)), problem


def do_move(scene_args: tuple[str, int, int], n_moves: int) -> None:
    """The Move button's callback: the selection to the chosen cluster, appended to the moves."""
    ss = st.session_state
    scene = load_scene(*scene_args)
    texts = list(ss.get(MOVES) or [])
    _, states, _ = replayed(scene, texts)
    items, problem = selection(scene, n_moves)
    choice = ss.get(TARGET, NEW_TARGET)
    target = pg.NEW if choice == NEW_TARGET else int(choice)
    if problem or not items:
        ss[ERROR] = problem or "Select items on the chart (box, lasso or click) or type their numbers first."
        return
    if len(texts) >= MAX_MOVES:
        ss[ERROR] = f"The history holds {MAX_MOVES} moves: undo some or start over."
        return
    try:
        pg.move(states[-1], items, target)
    except ValueError as exc:
        ss[ERROR] = f"That move cannot be made: {exc}."
        return
    ss[MOVES] = [*texts, encode_move(pg.Move(tuple(items), target))]
    ss[TYPED] = ""
    ss.pop(ERROR, None)


def undo() -> None:
    st.session_state[MOVES] = list(st.session_state.get(MOVES) or [])[:-1]
    st.session_state.pop(ERROR, None)


def targets(state: np.ndarray) -> list[str]:
    """The choices of "Move them to": every cluster in use (by number, as text), then a new one."""
    return [str(j) for j in sorted(set(state.tolist()))] + [NEW_TARGET]


def target_label(choice: str) -> str:
    return "a new cluster" if choice == NEW_TARGET else cluster_name(int(choice), colour=True)


def describe(counts: dict[int, int], name) -> str:
    """``{3: 2, 0: 5}`` → ``K1 ×5, K4 ×2`` (most first)."""
    return ", ".join(f"{name(k)} ×{c}" for k, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def selection_text(scene: pg.Scene, state: np.ndarray, items: list[int]) -> str:
    if not items:
        return "No items selected: drag a box on the chart, draw a lasso (toolbar), click an item, or type numbers."
    classes = pg.moved_from(scene.classes, items)
    clusters = pg.moved_from(state, items)
    return (f"**{len(items)} item{'s' if len(items) != 1 else ''} selected** — classes "
            f"{describe(classes, class_name)}; now in {describe(clusters, cluster_name)}.")


def measures_now(traj: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """One row per chosen measure: its value now, before the last move and the change (text for
    the change's direction: better or worse, by the registry's direction)."""
    rows = []
    now = traj.iloc[-1]
    before = traj.iloc[-2] if len(traj) > 1 else None
    for k in keys:
        m = metrics.MEASURES[k]
        prev = None if before is None else float(before[k])
        change = None if prev is None else float(now[k]) - prev
        verdict = "" if change is None or abs(change) < 1e-12 else (
            "better" if (change > 0) == m.higher_is_better else "worse")
        rows.append({"measure": m.name, "symbol": m.symbol, "now": float(now[k]), "before": prev,
                     "change": change, "so": verdict, "better": "↑ higher" if m.higher_is_better else "↓ lower"})
    return pd.DataFrame(rows, columns=["measure", "symbol", "now", "before", "change", "so", "better"])


def history_frame(scene: pg.Scene, moves: list[pg.Move], states: list[np.ndarray], traj: pd.DataFrame,
                  keys: list[str]) -> pd.DataFrame:
    """Who moved: one row per move, the latest first — the items, their classes, the clusters
    they left and the one they joined, and the change of each chosen measure."""
    rows = []
    for i, mv in enumerate(moves, start=1):
        before, after = states[i - 1], states[i]
        to = int(after[mv.items[0]])
        listed = ", ".join(str(x + 1) for x in mv.items[:MAX_LISTED]) + (" …" if len(mv.items) > MAX_LISTED else "")
        row = {"move": i, "items": f"{len(mv.items)}: {listed}",
               "classes": describe(pg.moved_from(scene.classes, mv.items), class_name),
               "from": describe(pg.moved_from(before, mv.items), cluster_name),
               "to": cluster_name(to) + (" (new)" if mv.target is pg.NEW else "")}
        for k in keys:
            row[f"Δ {metrics.MEASURES[k].symbol}"] = float(traj[k].iloc[i]) - float(traj[k].iloc[i - 1])
        rows.append(row)
    return pd.DataFrame(rows[::-1])


def changes_text(frame: pd.DataFrame) -> str:
    """One sentence: how many measures got better, worse or stayed with the last move."""
    moved = frame.dropna(subset=["change"])
    if moved.empty:
        return "Move some items: each measure's value before and after the move appears here."
    better = moved.loc[moved["so"] == "better", "symbol"].tolist()
    worse = moved.loc[moved["so"] == "worse", "symbol"].tolist()
    same = moved.loc[moved["so"] == "", "symbol"].tolist()
    parts = [f"{label}: {', '.join(symbols)}" for label, symbols in
             (("better", better), ("worse", worse), ("unchanged", same)) if symbols]
    return "After the last move — " + "; ".join(parts) + "."
