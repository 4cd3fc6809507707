"""The server process of ``partition-lab app``: the libraries the pages use imported first, the
heavy pages' shared caches filled (``dashboard/warm.py``), all of it frozen for the garbage
collector (``gc.freeze``), then Streamlit's own command line
(``python -m dashboard.serve run dashboard/app.py [options]`` takes exactly the arguments of
``streamlit run``).

Why: a Streamlit server imports what a page needs on the first request that runs it. NumPy, pandas,
SciPy, Plotly, scikit-learn's clustering and ``metrics`` cost about a second of CPU, paid by
whoever opens the first page after the server starts — in a classroom, the teacher projecting it
while thirty students wait. Imported here they cost the server's start instead, before it takes
a request (``benchmarks/bench_dashboard.py`` measures a page's first load after start).

:data:`PRELOAD` names no ``dashboard`` module: imported bare, one would create its ``st.cache_data``
functions before Streamlit's runtime exists (the warm-up imports them inside runs that stand a
runtime in: ``dashboard/warm.py``). ``tests/dashboard/test_serve.py`` checks that every library the
pages load is named here.
"""

from __future__ import annotations

import gc
import importlib
import sys
import time

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


#: Bytes per read and write when the server sends a file (Starlette's default is 64 KiB).
STATIC_CHUNK = 1 << 20


def _static_chunks() -> None:
    """Send files in 1 MiB chunks. A new visitor's browser fetches the frontend's JavaScript, a few
    MB, and each chunk costs a hand-off to a worker thread for the read and a socket write: at
    64 KiB those were about a third of the server CPU that a new session costs
    (``benchmarks/bench_dashboard.py``'s "new session")."""
    from starlette.responses import FileResponse

    FileResponse.chunk_size = STATIC_CHUNK


def main() -> None:
    preload()
    if sys.argv[1:2] == ["run"] and "--help" not in sys.argv:
        from dashboard.warm import warm

        start = time.monotonic()
        done = warm()
        failed = {page: why for page, why in done.items() if isinstance(why, str)}
        print(f"Partition Lab: {len(done) - len(failed)} heavy page state(s) computed for their first visitors "
              f"in {time.monotonic() - start:.1f} s" + "".join(f"; {p} not warmed ({why})" for p, why in failed.items()),
              file=sys.stderr, flush=True)
    # Everything alive now — the libraries, the warmed caches: a few hundred thousand objects —
    # lives as long as the server. Frozen, Python's collector never scans it again; otherwise its
    # full collections, triggered by the pages' allocations, walk it all: 0.1-0.2 s spikes in a
    # slider step (benchmarks/bench_dashboard.py's p95), and slower steps on average.
    gc.collect()
    gc.freeze()
    _static_chunks()
    from streamlit.web.cli import main as streamlit_main

    sys.argv = ["streamlit", *sys.argv[1:]]
    streamlit_main(prog_name="streamlit")


if __name__ == "__main__":
    main()
