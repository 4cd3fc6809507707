"""``dashboard.server.serve``: the libraries the pages use are imported at server start, so the first
page load after ``partition-lab app`` does not pay for them — checked by running every page
after the preload and listing what the pages still had to import."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import dashboard
from dashboard.server import serve
from tests import ROOT

# Run in a fresh interpreter: this process has imported everything long ago.
PAGES_AFTER_PRELOAD = """
import json, logging, sys
logging.disable(logging.WARNING)
import streamlit.web.cli
from dashboard.server import serve
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
    return sorted(dashboard.page_scripts().values())


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
    assert not late, f"imported by a page after the preload (add to dashboard/server/serve.py PRELOAD): {late}"
    # Plotly loads a module per trace type and attribute on first use: those small ones may remain.
    plotly = [m for m in out["new"] if m.split(".")[0] == "plotly" and not m.startswith("plotly.graph_objs.")]
    assert not plotly, plotly
    assert any(m.startswith("dashboard.") for m in out["new"])  # the pages did run here


def test_serve_runs_streamlit_with_the_arguments_of_streamlit_run():
    proc = subprocess.run([sys.executable, "-m", "dashboard.server.serve", "run", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Usage: streamlit run" in proc.stdout and "--server.port" in proc.stdout


def test_files_are_sent_whole_in_mebibyte_chunks(tmp_path):
    """The frontend's JavaScript (a few MB per new visitor) goes out in 1 MiB reads and writes, not
    Starlette's 64 KiB ones (a thread hand-off and a socket write each), byte for byte."""
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
    run_apart(FileResponse(path)(scope, receive, send))
    assert b"".join(sent) == data
    assert len([chunk for chunk in sent if chunk]) == -(-len(data) // serve.STATIC_CHUNK) == 4


def run_apart(coroutine):
    """asyncio.run(coroutine) on a thread of its own: the browser tests' Playwright (sync API, one per
    pytest session) keeps an event loop running on the main thread, where asyncio.run refuses."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


# ---------------------------------------------------------------------- frontend files from memory
def _asgi(app, path, method="GET", headers=()):
    """(status, sorted headers, body) of one request to the ASGI ``app``."""
    out = {"status": None, "headers": [], "body": b""}

    asked = []

    async def receive():  # the request's (empty) body, then a client that never hangs up
        if not asked:
            asked.append(True)
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()

    async def send(message):
        if message["type"] == "http.response.start":
            out["status"], out["headers"] = message["status"], sorted(message.get("headers", []))
        elif message["type"] == "http.response.body":
            out["body"] += message.get("body", b"")

    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(), "root_path": "",
             "query_string": b"", "headers": [(k.encode(), v.encode()) for k, v in headers],
             "http_version": "1.1", "scheme": "http", "server": ("127.0.0.1", 8501), "client": ("127.0.0.1", 1)}
    run_apart(app(scope, receive, send))
    return out["status"], out["headers"], out["body"]


def _stock_static_handler():
    from streamlit import file_util
    from streamlit.web.server.starlette.starlette_server_config import STATIC_ASSET_CACHE_MAX_AGE_SECONDS
    from streamlit.web.server.starlette.starlette_static_routes import (
        _NO_CACHE_PATTERN,
        create_streamlit_static_handler,
    )

    directory = file_util.get_static_dir()
    return directory, create_streamlit_static_handler(directory, None), (STATIC_ASSET_CACHE_MAX_AGE_SECONDS,
                                                                         _NO_CACHE_PATTERN)


def test_frontend_files_come_from_memory_exactly_as_streamlit_sends_them():
    """A plain GET of one of Streamlit's frontend files is answered without Streamlit's handler,
    with its status, every header (type, length, date, etag, cache policy: immutable bundles,
    no-cache HTML and manifest) and its bytes; a second request the same from memory."""
    directory, stock, options = _stock_static_handler()
    reached = []

    async def inner(scope, receive, send):
        reached.append(scope["path"])
        await stock(scope, receive, send)

    ours = serve.StaticFromMemory(inner, directory, *options)
    root = Path(directory)
    files = [root / "index.html", root / "manifest.json",
             max(root.rglob("*.js"), key=lambda f: f.stat().st_size), next(root.rglob("*.woff2")),
             next(root.rglob("*.css"))]
    for f in files:
        path = "/" + f.relative_to(root).as_posix()
        expected = _asgi(stock, path)
        assert expected[0] == 200 and expected[2] == f.read_bytes(), path
        assert _asgi(ours, path) == expected, path
        assert _asgi(ours, path) == expected, path
    assert reached == []
    cache = {k.decode(): v.decode() for k, v in _asgi(ours, "/index.html")[1]}["cache-control"]
    assert cache == "no-cache"


def test_everything_but_a_plain_get_of_a_frontend_file_goes_to_streamlit():
    """Pages, unknown or unsafe paths, HEAD, POST, ranges and revalidation are Streamlit's to answer."""
    directory, stock, options = _stock_static_handler()
    reached = []

    async def inner(scope, receive, send):
        reached.append((scope["method"], scope["path"]))
        await stock(scope, receive, send)

    ours = serve.StaticFromMemory(inner, directory, *options)
    js = "/" + next(Path(directory).rglob("*.js")).relative_to(directory).as_posix()
    requests = [("GET", "/compare", ()), ("GET", "/static/../index.html", ()), ("GET", "/nope.js", ()),
                ("HEAD", js, ()), ("POST", js, ()), ("GET", js, (("range", "bytes=0-9"),)),
                ("GET", js, (("if-none-match", '"x"'),)), ("GET", js, (("if-modified-since", "Mon, 1 Jan 2024"),))]
    from starlette.exceptions import HTTPException

    def answer(app, method, path, headers):  # an HTTPException is the app's exception middleware's to send
        try:
            return _asgi(app, path, method, headers)
        except HTTPException as exc:
            return exc.status_code

    for method, path, headers in requests:
        assert answer(ours, method, path, headers) == answer(stock, method, path, headers), (method, path)
    assert reached == [(m, p) for m, p, _ in requests]
    assert _asgi(ours, js, "GET", (("range", "bytes=0-9"),))[0] == 206


def test_the_server_app_is_wrapped_unless_served_under_a_base_path(monkeypatch):
    from streamlit import config
    from streamlit.web.server.starlette import starlette_server

    def app(scope, receive, send):  # Streamlit's app, as far as the wrapper can tell
        raise AssertionError("not called here")

    monkeypatch.setattr(starlette_server, "create_starlette_app", lambda runtime: app)
    assert serve._static_from_memory()
    wrapped = starlette_server.create_starlette_app(None)
    assert isinstance(wrapped, serve.StaticFromMemory) and wrapped.app is app
    base = config.get_option("server.baseUrlPath")
    try:
        config.set_option("server.baseUrlPath", "class")
        assert starlette_server.create_starlette_app(None) is app
    finally:
        config.set_option("server.baseUrlPath", base)
