"""The Chance page's vocabulary: its URL, tabs, random models and their words, the options of its
controls, their defaults, and the app's own cost budget — shared by its data and its views."""

from __future__ import annotations

import numpy as np

PAGE = "app_pages/explore/chance.py"   # for links to the page (st.page_link / state.page_link)
TAB_KEY = "ch_tab"
SWEEP_TAB, TABLE_TAB, AMI_TAB = "Number of clusters", "A table against chance", "AMI normalisations"
TABS = (SWEEP_TAB, TABLE_TAB, AMI_TAB)

MODEL_TEXT = {
    "perm": "both labelings random with the table's class sizes and cluster sizes kept (the permutation, or "
            "hypergeometric, model that ARI and AMI assume)",
    "num": "both labelings uniform over the partitions with the table's numbers of classes and of clusters",
    "num1": "the gold classes kept as they are; the clustering uniform over the partitions into the table's "
            "number of clusters",
    "all": "both labelings uniform over all partitions of the n items (any number of blocks)",
    "all1": "the gold classes kept as they are; the clustering uniform over all partitions of the n items",
}
# cluster_sweep varies k, which all/all1 draw at random.
SWEEP_MODELS = ("num1", "num", "perm")
SWEEP_MODEL_TEXT = {
    "num1": "the gold classes fixed; each clustering uniform over the partitions into exactly k clusters "
            "(scikit-learn's \"fixed ground truth\" experiment)",
    "num": "the gold classes random too, uniform over the partitions into exactly that many classes (as in its "
           "\"varying ground truth\" experiment, whose classes number k too)",
    "perm": "both labelings shuffled, the balanced class sizes and cluster sizes kept (the model ARI and AMI adjust "
            "for)",
}

# scikit-learn's gallery example: k = linspace(2, 100, 10) clusters (its n_clusters_range), and k = 10, the
# number of gold classes of the default sweep (the lesson's step 8): the dashed line there meets a sample.
KS = tuple(sorted({int(k) for k in np.linspace(2, 100, 10)} | {10}))
# Discrete choices (strings: they are the URL's values): few values, so a class's first visits
# fill the cache and every later step is a hit.
N_OPTIONS = ("100", "1000", "10000")
CLASS_OPTIONS = ("2", "5", "10", "20", "50")
SWEEP_DRAWS = ("50", "100", "200", "500")
TABLE_DRAWS = ("200", "500", "1000", "2000", "5000")
# The six measures of scikit-learn's example: V, NMI and MI rise with k, Rand too; ARI and AMI stay at 0.
DEFAULT_SWEEP_KEYS = ["v_measure", "nmi_arithmetic", "mutual_info", "rand", "ari", "ami"]
DEFAULT_SWEEP = {"ch_sm": "num1", "ch_n": "100", "ch_r": "10", "ch_sd": "200"}
DEFAULT_TABLE = {"ch_t": "rr_solution_r", "ch_model": "perm", "ch_td": "1000", "ch_look": "v_measure"}
DEFAULT_SEED = 0
LAB, UPLOAD = "lab", "upload"

# The app's budget of one request (seconds of one core; see the module docstring).
APP_BUDGET = 5.0
