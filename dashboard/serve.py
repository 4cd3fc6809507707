"""The server process of ``partition-lab app``: the libraries the pages use imported first, then
Streamlit's own command line (``python -m dashboard.serve run dashboard/app.py [options]`` takes
exactly the arguments of ``streamlit run``).

Why: a Streamlit server imports what a page needs on the first request that runs it. NumPy, pandas,
SciPy, Plotly, scikit-learn's clustering and ``metrics`` cost about a second of CPU, paid by
whoever opens the first page after the server starts — in a classroom, the teacher projecting it
while thirty students wait. Imported here they cost the server's start instead, before it takes
a request (``benchmarks/bench_dashboard.py`` measures a page's first load after start).

Only modules that create no Streamlit cache are imported: a ``dashboard`` module would create its
``st.cache_data`` functions before Streamlit's runtime exists. ``tests/dashboard/test_serve.py``
checks that every library the pages load is named here.
"""

from __future__ import annotations

import importlib
import sys

#: Imported before the server starts. The pages' libraries (the test runs every page and compares).
PRELOAD = (
    "numpy", "pandas", "pandas.io.formats.style", "pandas.io.formats.csvs", "pandas.core.reshape.reshape",
    "pyarrow", "pyarrow.pandas_compat", "pyarrow.vendored.version", "jinja2", "PIL.Image",
    "scipy.optimize", "scipy.sparse", "scipy.special", "scipy.stats", "scipy.cluster.hierarchy",
    "plotly.graph_objects", "plotly.animation", "plotly.colors", "plotly.io._json", "plotly.offline", "plotly.tools",
    # Plotly's figure classes load lazily, one module per trace type and attribute: the pages' kinds.
    "plotly.graph_objs._figure", "plotly.graph_objs.bar", "plotly.graph_objs.box", "plotly.graph_objs.heatmap",
    "plotly.graph_objs.scatter", "plotly.graph_objs.sankey", "plotly.graph_objs.layout",
    "sklearn.cluster", "sklearn.datasets", "sklearn.datasets.data", "sklearn.datasets.descr",
    "sklearn.preprocessing",
    "threadpoolctl", "streamlit.emojis", "streamlit.material_icon_names",
    "metrics", "metrics.chance", "metrics.experiments", "metrics.gallery", "metrics.generators",
    "metrics.io", "metrics.properties", "metrics.random_models", "metrics.solutions",
)


def preload() -> list[str]:
    """Import :data:`PRELOAD`; the names that could not be imported (an optional library missing:
    the page that needs it says so when opened)."""
    missing = []
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing


def main() -> None:
    preload()
    from streamlit.web.cli import main as streamlit_main

    sys.argv = ["streamlit", *sys.argv[1:]]
    streamlit_main(prog_name="streamlit")


if __name__ == "__main__":
    main()
