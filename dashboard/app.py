"""Partition Lab's entry point: ``streamlit run dashboard/app.py`` from the repository root.

The page list lives here, one script per page under ``app_pages/``. Not ``pages/``: Streamlit
auto-discovers that folder as a legacy multipage app and, when the first request after a server
start is a deep link, runs the page without this file. Issue 5's pages join ``PAGES`` below.

Each page draws the shared sidebar controls itself (``components.controls.shared_controls``):
widgets drawn here, outside the page, vanish from AppTest's tree after the first run.
"""

import sys
from pathlib import Path

import streamlit as st

# A plain checkout (no `pip install -e .`) still finds `dashboard` and `metrics`; appended, so an
# installed copy takes precedence.
_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.append(_ROOT)

st.set_page_config(page_title="Partition Lab", page_icon=":material/join_inner:", layout="wide")

PAGES = {
    "Partition Lab": [
        st.Page("app_pages/home.py", title="Home", icon=":material/home:", default=True),
        st.Page("app_pages/table_lab.py", title="Table lab", icon=":material/grid_on:", url_path="table_lab"),
        st.Page("app_pages/compare.py", title="Compare", icon=":material/compare_arrows:", url_path="compare"),
    ],
    "Explore": [
        st.Page("app_pages/generator_lab.py", title="Generator lab", icon=":material/tune:", url_path="generator_lab"),
        st.Page("app_pages/property_checker.py", title="Property checker", icon=":material/rule:",
                url_path="property_checker"),
        st.Page("app_pages/fuzzy_lab.py", title="Fuzzy lab", icon=":material/blur_on:", url_path="fuzzy_lab"),
        st.Page("app_pages/real_data.py", title="Real data", icon=":material/scatter_plot:", url_path="real_data"),
    ],
    "Papers": [
        st.Page("app_pages/gallery.py", title="Paper gallery", icon=":material/fact_check:", url_path="gallery"),
    ],
}

st.navigation(PAGES).run()
