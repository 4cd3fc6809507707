"""Partition Lab's entry point: ``partition-lab app`` (an installed package), or
``streamlit run dashboard/app.py`` from a checkout; both read ``.streamlit/config.toml``'s options
(``dashboard.server.settings.APP_DEFAULTS`` carries them for an install).

The page list lives here, one script per page under ``app_pages/``, in one folder per sidebar
section (``learn/``, ``analyse/``, ``explore/``). Not ``pages/``: Streamlit
auto-discovers that folder as a legacy multipage app and, when the first request after a server
start is a deep link, runs the page without this file.

Each page draws the shared sidebar controls itself (``components.controls.shared_controls``):
widgets drawn here, outside the page, vanish from AppTest's tree after the first run.
"""

from importlib.resources import files

import streamlit as st

import dashboard.server.process  # noqa: F401 — once per process: one BLAS thread (see there)
from dashboard.ui.state import app_page
from dashboard.ui.state import enter as enter_page

# The favicon is a file of the installed package, not a Material icon: those are fetched from an
# outside font server on every load, which fails offline (a lab or exam room often has no internet).
ICON = files("dashboard") / "static" / "icon.png"
st.set_page_config(page_title="Partition Lab", page_icon=str(ICON), layout="wide")

PAGES = {
    "Partition Lab": [
        app_page("app_pages/home.py", title="Home", icon=":material/home:", default=True),
    ],
    "Learn": [
        app_page("app_pages/learn/lesson.py", title="Lesson", icon=":material/school:", url_path="lesson"),
        app_page("app_pages/learn/gallery.py", title="Paper gallery", icon=":material/fact_check:", url_path="gallery"),
        app_page("app_pages/learn/glossary.py", title="Glossary", icon=":material/menu_book:", url_path="glossary"),
        app_page("app_pages/learn/playground.py", title="Playground", icon=":material/touch_app:",
                 url_path="playground"),
        app_page("app_pages/learn/uniform_effect.py", title="Uniform effect", icon=":material/equalizer:",
                 url_path="uniform_effect"),
    ],
    "Analyse": [
        app_page("app_pages/analyse/table_lab.py", title="Table lab", icon=":material/grid_on:", url_path="table_lab"),
        app_page("app_pages/analyse/compare.py", title="Compare", icon=":material/compare_arrows:", url_path="compare"),
        app_page("app_pages/analyse/solutions.py", title="Solutions", icon=":material/leaderboard:",
                 url_path="solutions"),
    ],
    "Explore": [
        app_page("app_pages/explore/generator_lab.py", title="Generator lab", icon=":material/tune:",
                 url_path="generator_lab"),
        app_page("app_pages/explore/property_checker.py", title="Property checker", icon=":material/rule:",
                 url_path="property_checker"),
        app_page("app_pages/explore/fuzzy_lab.py", title="Fuzzy lab", icon=":material/blur_on:", url_path="fuzzy_lab"),
        app_page("app_pages/explore/real_data.py", title="Real data", icon=":material/scatter_plot:",
                 url_path="real_data"),
        app_page("app_pages/explore/chance.py", title="Chance", icon=":material/casino:", url_path="chance"),
    ],
}

page = st.navigation(PAGES)
# Which page this run draws, and whether it was just entered by a link or a return: the state rule
# of ui/state.py (a link determines the page, a return brings back the session's state).
enter_page(page.url_path or "home")
page.run()
