"""Fixtures shared by the browser tests: one Streamlit server and one chromium profile per session.

The server runs ``dashboard/app.py`` on a free port with its output in a log file (an unread pipe
can block it); the browser is Debian's ``/usr/bin/chromium`` driven by Playwright (never
``playwright install``). Facts behind the flags: ``/work/shared/notes/streamlit-and-browser-testing.md``.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from e2e_support import CHROMIUM, launch

ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(items):
    """Every test here drives a real browser: mark it, and skip it (saying how to fix) without chromium."""
    skip = pytest.mark.skip(reason="Debian's /usr/bin/chromium is not installed "
                                   "(apt-get install chromium; never `playwright install`)")
    for item in items:
        if Path(item.fspath).parent == Path(__file__).parent:
            item.add_marker(pytest.mark.browser)
            if not CHROMIUM.exists():
                item.add_marker(skip)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The app's base URL, e.g. ``http://127.0.0.1:40123``, once ``/_stcore/health`` answers ok."""
    port = _free_port()
    log_path = tmp_path_factory.mktemp("streamlit") / "server.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "dashboard/app.py", "--server.port", str(port),
             "--server.address", "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none",
             "--browser.gatherUsageStats", "false",
             # As .streamlit/config.toml: no ForwardMsg cache (its expiry races fast input: "Cached
             # ForwardMsg MISS"), and no warning for the bound widgets the app assigns on purpose.
             "--global.minCachedMessageSize", "1e9", "--global.disableWidgetStateDuplicationWarning", "true",
             # As .streamlit/config.toml: no forced gc.collect(2) after every run (most of a rerun's CPU).
             "--runner.postScriptGC", "false"],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.read() == b"ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not start; log:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def playwright():
    """The one Playwright driver of the session (its sync API cannot be started twice at once)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright, tmp_path_factory):
    """A persistent chromium context (a fresh profile) with a tall viewport: Streamlit scrolls an
    inner container, so a screenshot shows only what fits in the viewport."""
    ctx = launch(playwright, tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield ctx
    finally:
        ctx.close()

