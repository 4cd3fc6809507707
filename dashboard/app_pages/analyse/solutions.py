"""Solutions — many clusterings at once, ranked by every measure: which solution each measure prefers,
whether the measures agree (Kendall τ), where two of them change their minds, one solution's
clusters against the gold classes (Sankey), and any two opened in Compare.

Sources: the papers' presets (tables spelled out as labels of the same items — see
``solutions/views.py``), the Real data page's runs over k (its link names them), or
the user's files. Every value is ``metrics.compare_solutions`` and its companions.
"""

import streamlit as st

import metrics
from dashboard.real_data import views as rd
from dashboard.solutions import significance
from dashboard.solutions import views as sv
from dashboard.solutions.upload import upload_source
from dashboard.ui.controls import shared_controls
from dashboard.ui.figures.export import show_chart
from dashboard.ui.measures import formulas_expander
from dashboard.ui.presets import load_presets
from dashboard.ui.readout import escape_markdown, format_number, show_frame
from dashboard.ui.state import Param, page_link, page_state, url_commit, url_is_new, url_state
from metrics.core.formatting import frame_csv

# The page's state (ui/state.py): a link names some of these, the rest take their defaults.
# sol_ma/sol_mb, sol_sankey, sol_a/sol_b default to what the page computes (the most divided pair of
# measures, the first solutions); an upload's widgets go with a link or a reset.
page_state("solutions",
           Param("sol_src", "preset", options=sv.SOURCES, what="source"),
           Param("sol_presets", sv.DEFAULT_PRESETS, options=load_presets, what="preset"),
           Param("sol_data", sv.DEFAULT_REAL["sol_data"], options=rd.DATASETS, what="data set"),
           Param("sol_algo", sv.DEFAULT_REAL["sol_algo"], options=rd.ALGORITHMS, what="algorithm"),
           Param("sol_k", sv.DEFAULT_REAL["sol_k"], bound=True, lo=rd.K_MIN, hi=rd.K_MAX),
           Param("sol_std", True, bound=True),
           Param("sol_seed", 0, bound=True, lo=0, hi=10_000),
           Param("sol_m", sv.DEFAULT_KEYS, options=metrics.MEASURES, what="measure"),
           Param("sol_ma", what="measure"), Param("sol_mb", what="measure"),
           Param("sol_sankey", what="solution"), Param("sol_a", what="solution"), Param("sol_b", what="solution"),
           Param("sol_boot", False, bound=True),
           clear=("sol_upload_",))
settings = shared_controls()
st.title("Solutions")
st.caption("Several clusterings of the same items — papers' examples, runs over k, or your own — scored by every "
           "measure you choose: which solution each measure ranks first, whether the measures agree on the order, "
           "and where two of them change their minds. Every value comes from `metrics.compare_solutions`.")


def preset_source() -> sv.SolutionSet | None:
    presets = load_presets()

    def pick(keys: list[str]) -> None:
        st.session_state["sol_presets"] = list(keys)

    st.markdown("**Presets on the same gold classes**")
    groups = sv.preset_groups(presets)
    with st.container(horizontal=True, gap="small"):  # buttons as wide as their labels, wrapping
        for label, (keys, gold) in groups.items():
            st.button(label, key=f"sol_group_{keys[0]}", on_click=pick, args=(keys,), width="content",
                      help=f"{len(keys)} presets on {gold}.")
    url_state("sol_presets")
    chosen = st.multiselect("Presets (each is one solution)", list(presets), key="sol_presets",
                            format_func=lambda k: presets[k].title)
    url_commit("sol_presets")
    st.caption("A preset is a contingency table. Tables with the same gold classes (names and sizes) are read as "
               "solutions of the same items: the items of each class go to the table's clusters, cell by cell, so "
               "each solution's table is the preset itself and its values are the preset's own. Rosenberg & "
               "Hirschberg's Figure 2 is two such sets: A and B cluster 15 items (3 classes of 5), C and D 21 "
               "items (3 classes of 7).")
    if len(chosen) < 2:
        st.info("Choose at least two presets (or a group above).")
        return None
    problem = sv.preset_problem(chosen, presets)
    if problem:
        st.error(problem)
        return None
    return sv.preset_solutions(tuple(chosen))


def real_source() -> sv.SolutionSet | None:
    c1, c2, c3 = st.columns([2, 4, 3])
    with c1:
        url_state("sol_data")
        data = st.selectbox("Data set", list(rd.DATASETS), key="sol_data", format_func=rd.DATASETS.__getitem__)
        url_commit("sol_data")
    with c2:
        url_state("sol_algo")
        algorithms = st.pills("Algorithms", list(rd.ALGORITHMS), selection_mode="multi", key="sol_algo",
                              format_func=rd.ALGORITHMS.__getitem__)
        url_commit("sol_algo")
    with c3:
        k_lo, k_hi = st.slider("Range of k (number of clusters asked for)", rd.K_MIN, rd.K_MAX,
                               sv.DEFAULT_REAL["sol_k"], key="sol_k", bind="query-params")
    c4, c5 = st.columns([2, 3])
    with c4:
        standardize = st.toggle("Standardize features", True, key="sol_std", bind="query-params",
                                help="Scale every feature to mean 0 and variance 1 before clustering.")
    with c5:
        seed = st.number_input("Seed (K-means starts, random labels)", 0, 10_000, 0, key="sol_seed",
                               bind="query-params", width=260)
    st.caption("The Real data page's clusterings (scikit-learn's K-means, SciPy's Ward, uniform random labels), "
               "one solution per algorithm and k; its *Rank these runs* link opens them here.")
    if not algorithms:
        st.info("Choose at least one algorithm.")
        return None
    chosen = tuple(a for a in rd.ALGORITHMS if a in algorithms)
    if k_lo == k_hi and len(chosen) == 1:
        st.info("That is one clustering: widen the range of k or add an algorithm to compare solutions.")
        return None
    try:
        return sv.real_solutions(data, chosen, int(k_lo), int(k_hi), bool(standardize), int(seed))
    except (ValueError, ImportError, OSError) as exc:
        st.error(f"Could not cluster the data set: {exc}. Pick another data set or range of k.")
        return None


url_state("sol_src")
source = st.segmented_control("Solutions from", list(sv.SOURCES), key="sol_src", required=True,
                              format_func=sv.SOURCES.__getitem__)
url_commit("sol_src")
if source == "preset":
    sset = preset_source()
elif source == "real":
    sset = real_source()
else:
    sset = upload_source()


def _pick_measures(keys: list[str]) -> None:
    st.session_state["sol_m"] = list(keys)


url_state("sol_m")
mc1, mc2 = st.columns([5, 2])
with mc1:
    keys = st.multiselect("Measures", list(metrics.MEASURES), key="sol_m", format_func=sv.symbol_name)
with mc2:
    st.caption("Quick picks")
    st.button("A mix of the four families", key="sol_pick_default", on_click=_pick_measures, args=(sv.DEFAULT_KEYS,),
              width="stretch")
    st.button("Every measure", key="sol_pick_all", on_click=_pick_measures, args=(list(metrics.MEASURES),),
              width="stretch", help="The AMI family is slow on large uploads (its expectation is exact).")
url_commit("sol_m")

result = None
if sset is not None:
    st.markdown(sset.description)
    if len(sset.names) < 2:
        st.info("Only one solution: choose at least two to rank them.")
    elif not keys:
        st.info("Choose at least one measure.")
    else:
        try:
            result = sv.analysis(sset, tuple(keys), settings.log_base, settings.beta)
        except ValueError as exc:
            st.error(f"Could not score these solutions: {escape_markdown(exc)}")


def choice_state(name: str, options: list, default) -> None:
    """``url_state`` for a choice among this set's solutions or measures: a value kept from another set
    (a solution of other presets, a measure no longer chosen) gives way to the default."""
    url_state(name, options, default)
    if st.session_state.get(name) not in options:
        st.session_state[name] = default


PAIR_FOR = "_sol_pair_for"


def follow_pair(sset: sv.SolutionSet, keys: tuple[str, ...], default: tuple[str, str]) -> None:
    """The pair of measures follows what the page shows: when the solutions change (another source,
    other presets, other runs) the pair becomes the new set's most divided one; when only the
    measures change, a pair still at its preselection follows too, one the user chose stays. A
    link that names a pair keeps it."""
    ss = st.session_state
    before = ss.get(PAIR_FOR)
    ss[PAIR_FOR] = (sset.key, keys, default)
    if before is None or before[:2] == (sset.key, keys) or url_is_new("sol_ma") or url_is_new("sol_mb"):
        return
    old_set, _, old_default = before
    if old_set != sset.key or (ss.get("sol_ma"), ss.get("sol_mb")) == tuple(old_default):
        ss["sol_ma"], ss["sol_mb"] = default


@st.fragment
def changes_section(sset: sv.SolutionSet, keys: tuple[str, ...], result: sv.Analysis) -> None:
    """The solution pairs two measures order oppositely (a fragment: choosing the pair reruns only it)."""
    st.subheader("Where two measures change their minds")
    if len(keys) < 2:
        st.info("Choose at least two measures above to compare their orderings.")
        return
    default_a, default_b = sv.most_divided_pair(result.tau)
    follow_pair(sset, keys, (default_a, default_b))
    c1, c2 = st.columns(2)
    with c1:
        choice_state("sol_ma", list(keys), default_a)
        a = st.selectbox("Measure A", list(keys), key="sol_ma", format_func=sv.symbol_name)
        url_commit("sol_ma", default_a)
    with c2:
        choice_state("sol_mb", list(keys), default_b)
        b = st.selectbox("Measure B", list(keys), key="sol_mb", format_func=sv.symbol_name)
        url_commit("sol_mb", default_b)
    st.caption("Preselected: the two chosen measures whose orderings agree least (lowest τ).")
    if a == b:
        st.info("Choose two different measures.")
        return
    found = sv.changes(sset, keys, settings.log_base, settings.beta, a, b)
    pairs = len(sset.names) * (len(sset.names) - 1) // 2
    sa, sb = escape_markdown(sv.symbol(a)), escape_markdown(sv.symbol(b))
    tau = result.tau.at[a, b]
    if found.empty:
        st.markdown(f"**{sa}** and **{sb}** never order two solutions oppositely (of {format_number(pairs)} pairs; "
                    f"τ = {format_number(tau)}).")
        return
    st.markdown(f"**{sa}** and **{sb}** order **{format_number(len(found))}** of the {format_number(pairs)} pairs of "
                f"solutions oppositely (τ = {format_number(tau)}): in each row {sa} rates the first solution better, "
                f"{sb} the second.")
    show_frame(sv.changes_frame(found, a, b, sset.title), key="sol_changes", sortable=False, hide_index=True,
               width="stretch")


@st.fragment
def sankey_section(sset: sv.SolutionSet) -> None:
    """One solution's clusters against the gold classes (a fragment)."""
    st.subheader("One solution against the gold classes")
    names = sset.names
    choice_state("sol_sankey", list(names), names[0])
    name = st.selectbox("Solution", names, key="sol_sankey", format_func=sset.title)
    url_commit("sol_sankey", names[0])
    t = sv.solution_table(sset, name)
    fig, note = sv.sankey(sset, name)
    show_chart(fig, key="sol_sankey_chart", width="stretch")
    st.caption("Each band is one cell of the table: the items of a gold class (left) that "
               f"{escape_markdown(sset.title(name))} puts in one of its clusters (right). {format_number(t.n)} items, "
               f"{format_number(t.shape[0])} classes, {format_number(t.shape[1])} clusters."
               + (f" Note: {note}" if note else ""))


@st.fragment
def compare_section(sset: sv.SolutionSet, keys: tuple[str, ...]) -> None:
    """Any two solutions opened in Compare by a link that determines its state (a fragment)."""
    st.subheader("Open two solutions in Compare")
    names = sset.names
    c1, c2 = st.columns(2)
    with c1:
        choice_state("sol_a", list(names), names[0])
        a = st.selectbox("Solution A", names, key="sol_a", format_func=sset.title)
        url_commit("sol_a", names[0])
    with c2:
        choice_state("sol_b", list(names), names[1])
        b = st.selectbox("Solution B", names, key="sol_b", format_func=sset.title)
        url_commit("sol_b", names[1])
    if a == b:
        st.info("Choose two different solutions.")
        return
    bootstrap_section(sset, keys, a, b)
    params = sv.compare_params(sset, a, b)
    if isinstance(params, str):
        st.warning(params)
        return
    page_link("app_pages/analyse/compare.py",
              f"Open {escape_markdown(sset.title(a))} and {escape_markdown(sset.title(b))} in Compare",
              {**params, "m": list(keys)},
              icon=":material/compare_arrows:")
    st.caption("Compare opens with both tables and the measures chosen here; the link holds the tables, so it "
               "works in any browser.")


def bootstrap_section(sset: sv.SolutionSet, keys: tuple[str, ...], a: str, b: str) -> None:
    """Each measure's verdict on A against B, and beside it whether the difference survives
    resampling the items (metrics.paired_bootstrap)."""
    on = st.toggle(f"Is the difference real? Resample the items ({format_number(significance.RESAMPLES)} paired "
                   "bootstrap resamples)", False, key="sol_boot", bind="query-params",
                   help="Draws the items again with replacement, scores A and B on each resample and gives, per "
                   "measure, the interval of the difference (A − B, positive when A is better) and a p-value "
                   "for 'no difference'.")
    if not on:
        return
    if sset.presets:
        st.info("Presets are tables, not items: their items are spelled out in an arbitrary order, so which item A "
                "and B share is an artefact and a paired bootstrap would mean nothing. Use real data runs or your "
                "own files.")
        return
    boot = significance.bootstrap(sset, keys, a, b, settings.log_base, settings.beta)
    if isinstance(boot, str):
        st.warning(escape_markdown(boot))
        return
    show_frame(significance.verdict_frame(boot), key="sol_boot_table", columns=["A", "B", "difference", "low", "high",
               "p-value"], sortable=False, hide_index=True, width="stretch")
    st.caption(f"A = {escape_markdown(sset.title(a))}, B = {escape_markdown(sset.title(b))}. *prefers*: each "
               "measure's verdict on the data; "
               f"*difference*: A − B, turned so that positive means A is better (B − A for ↓ measures); *low*–*high*: "
               f"the {significance.CONFIDENCE:.0%} percentile interval of the difference over "
               f"{format_number(significance.RESAMPLES)} resamples of the {format_number(sset.n)} items (seed "
               f"{significance.SEED}); *p-value*: two-sided, for 'no difference'; *real?*: yes when the interval "
               "leaves out 0. The bootstrap sees the uncertainty of the sample of items, not of the algorithm's "
               "own randomness.")


if sset is not None and result is not None:
    keys_t = tuple(keys)
    st.subheader("Every measure's verdict")
    show_chart(sv.scores_figure(sset, keys_t, settings.log_base, settings.beta), key="sol_scores",
                    width="stretch")
    st.caption("One row per solution, one column per measure. Colour: the measure's value on the common goodness "
               "scale (`Measure.goodness`: 0 = worst, 1 = best, so distances such as VI are flipped); number: the "
               "solution's rank under that measure (1 = best; tied values share a rank). Hover for the raw value.")
    formulas_expander(keys, key="sol_formulas")
    st.markdown("**Ranked first**")
    st.markdown(sv.first_places_markdown(sset.titled(result.ranks)))
    # Drawn only while open (a closed expander runs nothing): a step of a control pays for no
    # Styler it does not show.
    values_box = st.expander("Values (the ranks are the heatmap's numbers, and in the CSV)", key="sol_values_box",
                             on_change="rerun")
    if values_box.open:
        with values_box:
            shown = sset.titled(result.values).rename(columns=sv.symbol).reset_index()
            show_frame(shown, key="sol_values", hide_index=True, width="stretch")
            d1, d2 = st.columns(2)
            d1.download_button("Values (CSV)", frame_csv(result.values), file_name="solutions.csv",
                               mime="text/csv", key="sol_dl_values", on_click="ignore")
            d2.download_button("Ranks (CSV)", frame_csv(result.ranks), file_name="solution-ranks.csv",
                               mime="text/csv", key="sol_dl_ranks", on_click="ignore")
    if sset.noise is not None:
        with st.expander("Noise items: the three readings side by side"):
            show_frame(significance.noise_readings(sset, keys_t, settings.log_base, settings.beta).reset_index(),
                       key="sol_noise_readings", sortable=False, hide_index=True, width="stretch")
            st.caption("Each measure with the items labelled −1 read as one cluster (every other tool's silent "
                       "reading), each as a cluster of its own, or left out; with them left out, the coverage (share "
                       "of items scored) matters as much as the values.")
    for key, per in result.why_not.items():
        st.caption(f"{escape_markdown(sv.symbol(key))} is not computed for "
                   f"{', '.join(escape_markdown(sset.title(n)) for n in per)}: "
                   f"{escape_markdown(next(iter(per.values())))}")

    st.subheader("Do the measures agree?")
    if len(keys) < 2:
        st.info("Choose at least two measures to compare their orderings.")
    else:
        show_chart(sv.agreement_figure(sset, keys_t, settings.log_base, settings.beta), key="sol_agreement",
                        width="stretch")
        two = " With two solutions τ can only be 1 or −1." if len(sset.names) == 2 else ""
        st.caption("Kendall τ-b between two measures' orderings of the solutions (`metrics.rank_agreement`), each "
                   "measure read in its own direction: 1 = they prefer the same solutions in every pair, −1 = the "
                   "opposite in every pair; pairs tied under a measure count for neither. — = undefined: a "
                   "measure gives every solution the same value." + two)
    changes_section(sset, keys_t, result)
    sankey_section(sset)
    compare_section(sset, keys_t)
