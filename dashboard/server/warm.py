"""Visit the heavy pages once, headless, before the server takes its first request.

Some pages compute a lot for their default state — every measure's properties (Property
checker), thousands of random labelings (Chance), every printed number of the papers (Paper
gallery), the soft clusterings of the playground (Fuzzy lab), a clustering for every k (Real
data). Those results depend only on parameters and live in caches shared by every session, so
whoever opens such a page first after the server starts pays for everyone: the teacher projecting
it while the class waits. ``partition-lab app`` (``dashboard/server/serve.py``) calls :func:`warm` first:
each page runs once in its default state, exactly as a visitor's session would run it, through
Streamlit's headless script runner (``streamlit.testing.v1.AppTest``), and fills the same caches
— the pages' own code, so nothing here repeats their parameters. The server's start takes those
seconds instead (``benchmarks/bench_dashboard.py`` prints both).

Streamlit's runtime does not exist yet at that point; the headless runner stands one in for each
run and removes it afterwards. Caches created then are process-wide and the server's sessions
find them (``tests/dashboard/test_warm.py`` checks that a page then computes nothing).
"""

from __future__ import annotations

import logging
import time
from importlib.resources import files

from dashboard import page_scripts

#: The pages whose default state costs more than a second of CPU to compute.
#: The lesson is among them for its steps beyond the default one: step 6 reads Dom's P1–P7 rates
#: over the paper's grid, which a teacher moving through the steps would otherwise wait for.
HEAVY_PAGES = ("property_checker", "chance", "gallery", "fuzzy_lab", "real_data", "lesson")


def warm(pages: tuple[str, ...] = HEAVY_PAGES, timeout: float = 300) -> dict[str, float | str]:
    """Run each page of ``pages`` once in its default state; for each, the CPU seconds it took,
    or why it failed (a page that fails here is simply not warmed: the server starts anyway).
    With the Chance page, also its table tab's null distributions of every preset and the exact
    expectations its sweep can ask for (the entry ``"chance presets"``: ``chance_views.warm_tables``,
    ``chance_views.warm_sweep_expectations``); with the Real data page, also every
    bundled data set (``"real data sets"``)."""
    from streamlit.testing.v1 import AppTest

    app = str(files("dashboard") / "app.py")
    # The runner's "no runtime" and "missing ScriptRunContext" notices are expected here.
    logging.disable(logging.WARNING)
    out: dict[str, float | str] = {}
    try:
        for page in pages:
            out[page] = _timed(lambda page=page: AppTest.from_file(app, default_timeout=timeout)
                               .switch_page(page_scripts()[page]).run())
        if "chance" in pages:
            # Beyond the default state: the table tab's null distribution of every preset, which a
            # class picking tables one after the other would otherwise pay for one by one.
            out["chance presets"] = _timed(lambda: AppTest.from_function(_warm_chance_tables,
                                                                          default_timeout=timeout).run())
        if "lesson" in pages:
            # Beyond the default state: every step revealed, as a lecture walks through them.
            out["lesson steps"] = _timed(lambda: _every_lesson_step(app, timeout))
        if "real_data" in pages:
            # Beyond the default state: every bundled data set in the page's default settings, which
            # a class switching data sets would otherwise pay for one by one (about half a second of
            # clustering each).
            out["real data sets"] = _timed(lambda: _every_data_set(app, timeout))
    finally:
        logging.disable(logging.NOTSET)
        # The runs read Streamlit's configuration before the command line's options exist; forget
        # it, so that the server parses it afresh (else it warns that [server] options changed).
        from streamlit import config

        if hasattr(config, "_config_options"):
            config._config_options = None
    return out


def _timed(run) -> float | str:
    """CPU seconds of ``run()`` (a headless run), or why it failed: its first exception."""
    start = time.process_time()
    try:
        failed = [str(e.message) for e in run().exception]
    except Exception as exc:  # warming must never stop the server from starting
        failed = [f"{type(exc).__name__}: {exc}"]
    return failed[0] if failed else time.process_time() - start


def _every_data_set(app: str, timeout: float):
    """The Real data page run on each bundled data set, its other settings at their defaults
    (the link ``?rd_data=…``): the last run, or the first that failed."""
    from streamlit.testing.v1 import AppTest

    from dashboard.real_data.views import DATASETS

    for key in DATASETS:
        at = AppTest.from_file(app, default_timeout=timeout)
        at.query_params["rd_data"] = key
        at.switch_page("app_pages/explore/real_data.py").run()
        if at.exception:
            break
    return at


def _every_lesson_step(app: str, timeout: float):
    """The lesson run on each step with its chart revealed (the link ``?step=N&reveal=1``): the last
    run, or the first that failed."""
    from streamlit.testing.v1 import AppTest

    from dashboard.lesson.steps import STEPS

    for n in range(1, len(STEPS) + 1):
        at = AppTest.from_file(app, default_timeout=timeout)
        at.query_params["step"], at.query_params["reveal"] = str(n), "1"
        at.switch_page(page_scripts()["lesson"]).run()
        if at.exception:
            break
    return at


def _warm_chance_tables() -> None:
    """A script for the headless runner (its source is run as a page would be, inside a runtime)."""
    from dashboard.chance.data import warm_sweep_expectations, warm_tables
    from dashboard.ui.presets import load_presets

    warm_tables(load_presets())
    warm_sweep_expectations()
