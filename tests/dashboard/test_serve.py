"""``dashboard.serve``: the libraries the pages use are imported at server start, so the first
page load after ``partition-lab app`` does not pay for them — checked by running every page
after the preload and listing what the pages still had to import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from dashboard import serve

ROOT = Path(__file__).resolve().parents[2]

# Run in a fresh interpreter: this process has imported everything long ago.
PAGES_AFTER_PRELOAD = """
import json, logging, sys
logging.disable(logging.WARNING)
import streamlit.web.cli
from dashboard import serve
missing = serve.preload()
from streamlit.testing.v1 import AppTest
before = set(sys.modules)
for page in sys.argv[1:]:
    at = AppTest.from_file(%(app)r, default_timeout=600)
    at.switch_page(page)
    at.run()
    assert not at.exception, (page, [e.value for e in at.exception])
print(json.dumps({"missing": missing, "new": sorted(set(sys.modules) - before)}))
"""

# Packages whose every module a page uses must already be loaded: the heavy ones.
HEAVY = ("numpy", "pandas", "pyarrow", "scipy", "sklearn", "metrics", "jinja2")


def page_scripts() -> list[str]:
    """Every page of the app, as ``AppTest.switch_page`` names it."""
    return sorted(f"app_pages/{p.name}" for p in (ROOT / "dashboard" / "app_pages").glob("*.py"))


def test_preload_names_no_dashboard_module():
    # A dashboard module would create its st.cache_data functions before Streamlit's runtime exists.
    assert serve.PRELOAD and not [m for m in serve.PRELOAD if m.split(".")[0] == "dashboard"]
    assert len(set(serve.PRELOAD)) == len(serve.PRELOAD)


def test_every_page_finds_its_libraries_loaded():
    pages = page_scripts()
    assert len(pages) >= 11
    code = PAGES_AFTER_PRELOAD % {"app": str(ROOT / "dashboard" / "app.py")}
    proc = subprocess.run([sys.executable, "-c", code, *pages], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["missing"] == []  # the test environment has every extra
    late = [m for m in out["new"] if m.split(".")[0] in HEAVY]
    assert not late, f"imported by a page after the preload (add to dashboard/serve.py PRELOAD): {late}"
    # Plotly loads a module per trace type and attribute on first use: those small ones may remain.
    plotly = [m for m in out["new"] if m.split(".")[0] == "plotly" and not m.startswith("plotly.graph_objs.")]
    assert not plotly, plotly
    assert any(m.startswith("dashboard.") for m in out["new"])  # the pages did run here


def test_serve_runs_streamlit_with_the_arguments_of_streamlit_run():
    proc = subprocess.run([sys.executable, "-m", "dashboard.serve", "run", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Usage: streamlit run" in proc.stdout and "--server.port" in proc.stdout


def test_files_are_sent_whole_in_mebibyte_chunks(tmp_path):
    """The frontend's JavaScript (a few MB per new visitor) goes out in 1 MiB reads and writes, not
    Starlette's 64 KiB ones (a thread hand-off and a socket write each), byte for byte."""
    import asyncio

    from starlette.responses import FileResponse

    data = bytes(range(256)) * (3 * 4096 + 17)                     # 3 MiB and a bit
    path = tmp_path / "bundle.js"
    path.write_bytes(data)
    serve._static_chunks()
    sent = []

    async def receive():                     # the client never hangs up
        await asyncio.Event().wait()

    async def send(message):
        if message["type"] == "http.response.body":
            sent.append(message.get("body", b""))

    scope = {"type": "http", "method": "GET", "path": "/bundle.js", "headers": [], "http_version": "1.1"}
    asyncio.run(FileResponse(path)(scope, receive, send))
    assert b"".join(sent) == data
    assert len([chunk for chunk in sent if chunk]) == -(-len(data) // serve.STATIC_CHUNK) == 4
