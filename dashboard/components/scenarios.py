"""Guided scenarios linked from Home: each opens a page with the presets and measures that show
one of the papers' arguments. Texts stay qualitative — every number is computed on the page."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Scenario:
    title: str
    story: str
    page: str  # page script, relative to dashboard/app.py
    params: dict = field(default_factory=dict)
    source: str = ""


SCENARIOS = [
    Scenario(
        "V prefers singletons to a good solution",
        "Solution R keeps most of every class together; singletons put every item alone. V rates singletons "
        "higher, VI, NVI, ARI and VD_n do not. The morph below the chart shows where each measure gives up on R.",
        "app_pages/compare.py", {"a": "rr_singletons", "b": "rr_solution_r"},
        "Reichart & Rappoport 2009, §5 and Table 1"),
    Scenario(
        "More classes make singletons look better to V",
        "Sweep the number of classes: singletons' V climbs toward solution R's and stays above it, while the "
        "other measures keep preferring R.",
        "app_pages/compare.py", {"a": "rr_singletons", "b": "rr_solution_r", "sweep": "classes"},
        "Reichart & Rappoport 2009, §5"),
    Scenario(
        "Purity misses the uniform effect",
        "K-means splits the large class and swallows the small ones (clustering I). Purity, entropy and mutual "
        "information still rate it above the clustering that finds every class (II); VI and VD_n do not.",
        "app_pages/compare.py", {"a": "wu_table3_I", "b": "wu_table3_II",
                             "m": ["purity", "conditional_entropy", "mutual_info", "vi", "vd_n", "f_measure"]},
        "Wu, Xiong & Chen 2009, Tables 3–4"),
    Scenario(
        "F-measure's problem of matching",
        "Solutions A and B give every class the same matched cluster share, so F cannot tell them apart; B is "
        "better in homogeneity and completeness, and V, VI and ARI see it.",
        "app_pages/compare.py", {"a": "rh_figure2_A", "b": "rh_figure2_B",
                             "m": ["f_measure", "purity", "v_measure", "vi", "ari"]},
        "Rosenberg & Hirschberg 2007, §2 and Figure 2"),
    Scenario(
        "Measures that cannot see a change",
        "Two clusterings with the same margins that differ in four cells: VD_n and F_n give both the same "
        "score, the others move.",
        "app_pages/compare.py", {"a": "wu_table10_I", "b": "wu_table10_II",
                             "m": ["vd_n", "f_n", "vi_n", "r_n", "fm_n", "gamma_n"]},
        "Wu, Xiong & Chen 2009, Tables 10–11"),
    Scenario(
        "Noise classes and noise clusters",
        "Dom's generator as extended by Rosenberg & Hirschberg: a noise cluster and a noise class. Edit the "
        "cells and watch every measure move.",
        "app_pages/table_lab.py", {"preset": "rh_figure3"}, "Rosenberg & Hirschberg 2007, Figure 3"),
    Scenario(
        "The extreme cases",
        "All items in one cluster: which measures give it a perfect score in one direction and zero in the "
        "other? Then pick singletons and no knowledge from the presets.",
        "app_pages/table_lab.py", {"preset": "extreme_single_cluster"}, "Reichart & Rappoport 2009, §2"),
]
