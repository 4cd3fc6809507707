"""Fixtures shared by the browser tests: one Streamlit server and one chromium profile per session.

The server runs ``dashboard/app.py`` as ``partition-lab app`` runs it (its options, the libraries
preloaded), on a free port with its output in a log file (an unread pipe can block it); the browser
is Debian's ``/usr/bin/chromium`` driven by Playwright (never ``playwright install``). Facts behind
the flags: ``/work/shared/notes/streamlit-and-browser-testing.md``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.e2e_support import CHROMIUM, app_server, launch


def pytest_collection_modifyitems(items):
    """Every test here drives a real browser: mark it, and skip it (saying how to fix) without chromium."""
    skip = pytest.mark.skip(reason="Debian's /usr/bin/chromium is not installed "
                                   "(apt-get install chromium; never `playwright install`)")
    for item in items:
        if Path(__file__).parent in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)
            if not CHROMIUM.exists():
                item.add_marker(skip)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The app's base URL, e.g. ``http://127.0.0.1:40123``: a server started exactly as
    ``partition-lab app`` starts it (``e2e_support.app_server``)."""
    with app_server(tmp_path_factory.mktemp("streamlit") / "server.log") as (_, url):
        yield url


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

