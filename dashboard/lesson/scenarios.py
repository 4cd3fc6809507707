"""Guided scenarios linked from Home: each opens a page with the presets and measures that show
one of the papers' arguments, in the order of the lesson (``components.lesson.STEPS``), and
names the lesson step that explains it (``lesson``: the step's key). Texts stay qualitative —
every number is computed on the page."""

from __future__ import annotations

from dataclasses import dataclass, field

from dashboard.generator.views import PROPERTIES_TAB
from dashboard.properties.views import RANGE_TAB


@dataclass(frozen=True)
class Scenario:
    title: str
    story: str
    page: str  # page script, relative to dashboard/app.py
    params: dict = field(default_factory=dict)
    source: str = ""
    lesson: str = ""  # key of the lesson step that explains it (the card's next step)


SCENARIOS = [
    Scenario(
        "One table, every measure",
        "Singletons put every item alone: perfectly pure clusters that keep no class together. Homogeneity and "
        "purity call them perfect, completeness and the chance-corrected measures do not — each family answers "
        "its own question.",
        "app_pages/analyse/table_lab.py", {"preset": "rr_singletons"}, "Reichart & Rappoport 2009, §5", "disagree"),
    Scenario(
        "The extreme cases",
        "All items in one cluster: which measures give it a perfect score in one direction and zero in the "
        "other? Then pick singletons and no knowledge from the presets.",
        "app_pages/analyse/table_lab.py", {"preset": "extreme_single_cluster"}, "Reichart & Rappoport 2009, §2",
        "disagree"),
    Scenario(
        "V prefers singletons to a good solution",
        "Solution R keeps most of every class together; singletons put every item alone. V rates singletons "
        "higher, VI, NVI, ARI and VD_n do not. The morph below the chart shows where each measure gives up on R.",
        "app_pages/analyse/compare.py", {"a": "rr_singletons", "b": "rr_solution_r"},
        "Reichart & Rappoport 2009, §5 and Table 1", "v_singletons"),
    Scenario(
        "More classes make singletons look better to V",
        "Sweep the number of classes: singletons' V climbs toward solution R's and stays above it, while the "
        "other measures keep preferring R.",
        "app_pages/analyse/compare.py", {"a": "rr_singletons", "b": "rr_solution_r", "sweep": "classes"},
        "Reichart & Rappoport 2009, §5", "v_singletons"),
    Scenario(
        "VI's range grows with n, NVI's baseline does not",
        "Knowing nothing — one cluster — costs more VI the more items there are, so a VI value means little "
        "without n. NVI keeps the single cluster at 1 whatever n; singletons' NVI moves with the number of "
        "classes.",
        "app_pages/explore/property_checker.py", {"p_m": "nvi", "p_tab": RANGE_TAB},
        "Meilă 2007; Reichart & Rappoport 2009, §3–4", "vi_range"),
    Scenario(
        "Purity misses the uniform effect",
        "K-means splits the large class and swallows the small ones (clustering I). Purity, entropy and mutual "
        "information still rate it above the clustering that finds every class (II); VI and VD_n do not.",
        "app_pages/analyse/compare.py", {"a": "wu_table3_I", "b": "wu_table3_II",
                             "m": ["purity", "conditional_entropy", "mutual_info", "vi", "vd_n", "f_measure"]},
        "Wu, Xiong & Chen 2009, Tables 3–4", "uniform"),
    Scenario(
        "Measures that cannot see a change",
        "Two clusterings with the same margins that differ in four cells: VD_n and F_n give both the same "
        "score, the others move.",
        "app_pages/analyse/compare.py", {"a": "wu_table10_I", "b": "wu_table10_II",
                             "m": ["vd_n", "f_n", "vi_n", "r_n", "fm_n", "gamma_n"]},
        "Wu, Xiong & Chen 2009, Tables 10–11", "uniform"),
    Scenario(
        "F-measure's problem of matching",
        "Solutions A and B give every class the same matched cluster share, so F cannot tell them apart; B is "
        "better in homogeneity and completeness, and V, VI and ARI see it.",
        "app_pages/analyse/compare.py", {"a": "rh_figure2_A", "b": "rh_figure2_B",
                             "m": ["f_measure", "purity", "v_measure", "vi", "ari"]},
        "Rosenberg & Hirschberg 2007, §2 and Figure 2", "matching"),
    Scenario(
        "Small clusters F never looks at",
        "Solutions C and D share their matched clusters and differ only in the leftover small clusters — mixed "
        "in C, pure in D. F gives both the same score; V prefers D.",
        "app_pages/analyse/compare.py", {"a": "rh_figure2_C", "b": "rh_figure2_D",
                             "m": ["f_measure", "purity", "v_measure", "vi", "ari"]},
        "Rosenberg & Hirschberg 2007, §3 and Figure 2", "matching"),
    Scenario(
        "Which measures satisfy Dom's P1–P7?",
        "Seven ways a measure should react when Dom's generator adds a useful cluster, error mass, a noise "
        "cluster or a noise class — checked over the paper's grid, beside Rosenberg & Hirschberg's Table 2.",
        "app_pages/explore/generator_lab.py", {"g_tab": PROPERTIES_TAB},
        "Rosenberg & Hirschberg 2007, Tables 1–2", "dom"),
    Scenario(
        "Noise classes and noise clusters",
        "Dom's generator as extended by Rosenberg & Hirschberg: a noise cluster and a noise class. Edit the "
        "cells and watch every measure move.",
        "app_pages/analyse/table_lab.py", {"preset": "rh_figure3"}, "Rosenberg & Hirschberg 2007, Figure 3", "dom"),
    Scenario(
        "Ambiguous data: fuzzy and counted V",
        "Points that belong to several classes, clustered perfectly: both V's still fall as more points are "
        "ambiguous. The sweep shows fuzzy V above counted V, and the dissimilarity step bringing both back.",
        "app_pages/explore/fuzzy_lab.py", {"fz_scheme": "share", "fz_soft": "100"}, "Utt et al. 2014, §3–5", "fuzzy"),
    Scenario(
        "Random labelings score too",
        "Split the items at random into more and more clusters: V, NMI and mutual information climb although "
        "nothing was learnt, while ARI and AMI stay at chance. Then set any table against its own random "
        "labelings, under the random model you choose.",
        "app_pages/explore/chance.py", {}, "Vinh, Epps & Bailey 2010; Gates & Ahn 2017", "chance"),
]
