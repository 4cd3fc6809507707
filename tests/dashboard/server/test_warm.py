"""``dashboard.server.warm``: the heavy pages visited once before the server takes requests fill the
caches their visitors would fill — checked by running each page after the warm-up with its heavy
library work replaced by a function that fails: the page must not need it any more."""

from __future__ import annotations

import json
import subprocess
import sys

from dashboard.server import warm
from tests import ROOT


def _fresh_run(script: str, *args: str) -> dict:
    """``script`` (with ``%(app)r`` for the app's path) run in a fresh interpreter, so that the
    warm-up starts from empty caches; the JSON it prints last."""
    code = script % {"app": str(ROOT / "dashboard" / "app.py")}
    proc = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


# The work each page's default state costs, as the page reaches it (module attributes).
HEAVY_WORK = {
    "property_checker": ["metrics.properties:check_many", "metrics.properties:check_properties"],
    "chance": ["metrics.chance:sweep_tables", "metrics.chance:score_sweep", "metrics.chance:cluster_sweep"],
    "gallery": ["metrics.papers.gallery:gallery_frame"],
    "fuzzy_lab": ["metrics.papers.experiments:ambiguous_gold", "metrics.papers.experiments:fuzzy_tables",
                  "metrics.papers.experiments:experiment3_row", "metrics.papers.experiments:ambiguity_sweep"],
    "real_data": ["sklearn.cluster:KMeans.fit_predict", "scipy.cluster.hierarchy:linkage"],
    "lesson": [],  # its default step computes little; its revealed steps are checked below
}

# In a fresh interpreter: warm, then break the heavy work and run each page again.
WARM_THEN_RUN = """
import importlib, json, logging, sys
logging.disable(logging.WARNING)
from dashboard.server import warm
heavy = json.loads(sys.argv[1])
first = warm.warm(tuple(heavy))
def broken(name):
    def f(*args, **kwargs):
        raise RuntimeError(f"{name} ran again after the warm-up")
    return f
for page, names in heavy.items():
    for spec in names:
        module, _, attr = spec.partition(":")
        owner = importlib.import_module(module)
        *path, last = attr.split(".")
        for part in path:
            owner = getattr(owner, part)
        setattr(owner, last, broken(spec))
from streamlit.testing.v1 import AppTest
from dashboard import page_scripts
second = {}
for page in heavy:
    at = AppTest.from_file(%(app)r, default_timeout=120)
    at.switch_page(page_scripts()[page])
    at.run()
    second[page] = [e.message for e in at.exception] + [e.value for e in at.error]
print(json.dumps({"first": first, "second": second}))
"""


def test_warm_visits_the_heavy_pages_and_then_they_compute_nothing():
    assert set(HEAVY_WORK) == set(warm.HEAVY_PAGES)
    out = _fresh_run(WARM_THEN_RUN, json.dumps(HEAVY_WORK))
    for page, cpu in out["first"].items():
        assert isinstance(cpu, float) and cpu > 0, (page, cpu)  # warmed, not failed
    for page, problems in out["second"].items():
        assert problems == [], (page, problems)


def test_a_page_that_fails_is_reported_not_raised():
    out = warm.warm(("no_such_page",), timeout=30)
    assert isinstance(out["no_such_page"], str) and out["no_such_page"]


# In a fresh interpreter: warm the Chance page, break the drawing and scoring of random labelings,
# then open its table tab on every preset in its default state, and once under another model.
WARM_TABLES_THEN_RUN = """
import json, logging, sys
logging.disable(logging.WARNING)
from dashboard.server import warm
from dashboard.chance import vocabulary as cvocab
from dashboard.ui.presets import load_presets
from metrics import chance
first = warm.warm(("chance",))
def broken(*args, **kwargs):
    raise RuntimeError("random labelings drawn or scored again after the warm-up")
chance.draw_tables = chance.score_tables = broken
from streamlit.testing.v1 import AppTest
def run(**params):
    at = AppTest.from_file(%(app)r, default_timeout=120)
    for k, v in {cvocab.TAB_KEY: cvocab.TABLE_TAB, **params}.items():
        at.query_params[k] = v
    at.switch_page("app_pages/explore/chance.py")
    at.run()
    return [e.message for e in at.exception] + [e.value for e in at.error]
second = {key: run(ch_t=key) for key in load_presets()}
other = run(ch_t="rr_solution_r", ch_model="num")
# The sweep's exact expectations: every Stirling ratio it can ask for is already kept.
from metrics.chance import models as rm
rm._stirling_ratio_exact = broken
def ratio(n, k):
    try:
        rm.stirling_pair_probability(n, k)
        return "kept"
    except RuntimeError as exc:
        return str(exc)
ks = set(cvocab.KS) | {int(r) for r in cvocab.CLASS_OPTIONS}
ratios = {f"{n} {k}": ratio(int(n), k) for n in cvocab.N_OPTIONS for k in ks if k <= int(n)}
print(json.dumps({"first": first, "second": second, "other": other, "ratios": ratios,
                  "not_warmed": ratio(500, 7)}))
"""


def test_warm_fills_the_chance_table_tab_for_every_preset():
    out = _fresh_run(WARM_TABLES_THEN_RUN)
    assert isinstance(out["first"]["chance presets"], float), out["first"]
    for key, problems in out["second"].items():
        assert problems == [], (key, problems)
    # Another model was not warmed: it does need the broken functions (so the check above can fail).
    assert any("after the warm-up" in str(p) for p in out["other"]), out["other"]
    assert len(out["ratios"]) == 42 and set(out["ratios"].values()) == {"kept"}, out["ratios"]
    assert "after the warm-up" in out["not_warmed"]


# In a fresh interpreter: warm the Real data page, break the clustering, then open the page on every
# bundled data set in its default settings, and once with another setting.
WARM_DATA_SETS_THEN_RUN = """
import json, logging, sys
logging.disable(logging.WARNING)
import scipy.cluster.hierarchy, sklearn.cluster
from dashboard.server import warm
from dashboard.real_data.views import DATASETS
first = warm.warm(("real_data",))
def broken(*args, **kwargs):
    raise RuntimeError("clustered again after the warm-up")
sklearn.cluster.KMeans.fit_predict = broken
scipy.cluster.hierarchy.linkage = broken
from streamlit.testing.v1 import AppTest
def run(**params):
    at = AppTest.from_file(%(app)r, default_timeout=120)
    for k, v in params.items():
        at.query_params[k] = v
    at.switch_page("app_pages/explore/real_data.py")
    at.run()
    return [e.message for e in at.exception] + [e.value for e in at.error]
second = {key: run(rd_data=key) for key in DATASETS}
other = run(rd_data="wine", rd_seed="1")
print(json.dumps({"first": first, "second": second, "other": other}))
"""


def test_warm_clusters_every_real_data_set():
    """A class switching data sets finds each one clustered (the page's default settings); another
    setting was not warmed and does cluster (so the check can fail)."""
    out = _fresh_run(WARM_DATA_SETS_THEN_RUN)
    assert isinstance(out["first"]["real data sets"], float), out["first"]
    assert len(out["second"]) == 4
    for key, problems in out["second"].items():
        assert problems == [], (key, problems)
    assert any("after the warm-up" in str(p) for p in out["other"]), out["other"]


# In a fresh interpreter: warm the lesson, break Dom's P1–P7 rates (step 6's work), then open every
# step revealed, as a lecture walks through them.
WARM_LESSON_THEN_RUN = """
import json, logging
logging.disable(logging.WARNING)
from dashboard.server import warm
from metrics import properties
first = warm.warm(("lesson",))
def broken(*args, **kwargs):
    raise RuntimeError("P1-P7 rates computed again after the warm-up")
properties.dom_property_rates = broken
from streamlit.testing.v1 import AppTest
from dashboard import page_scripts
from dashboard.lesson.steps import STEPS
second = {}
for n in range(1, len(STEPS) + 1):
    at = AppTest.from_file(%(app)r, default_timeout=120)
    at.query_params["step"], at.query_params["reveal"] = str(n), "1"
    at.switch_page(page_scripts()["lesson"]).run()
    second[n] = [e.message for e in at.exception] + [e.value for e in at.error]
print(json.dumps({"first": first, "second": second}))
"""


def test_warm_reveals_every_lesson_step_so_a_lecture_computes_nothing():
    out = _fresh_run(WARM_LESSON_THEN_RUN)
    assert isinstance(out["first"]["lesson steps"], float), out["first"]
    for step, problems in out["second"].items():
        assert problems == [], (step, problems)
