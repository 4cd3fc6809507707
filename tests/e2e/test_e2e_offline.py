"""No request leaves the machine: every page loads only from the app's own server.

A lab or exam room often has no internet. The browser records every request of a page load (the
favicon, fonts, icons, scripts, images) and the test fails on any to a host other than the app's.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from dashboard import page_scripts
from tests.e2e.e2e_support import DONE

PAGES = sorted(page_scripts())


@pytest.mark.parametrize("page_name", PAGES)
def test_a_page_load_requests_nothing_outside_the_app(server, browser, page_name):
    own = urlsplit(server).netloc
    outside: list[str] = []
    page = browser.new_page()
    try:
        def record(request):
            url = urlsplit(request.url)
            if url.scheme in ("http", "https", "ws", "wss") and url.netloc != own:
                outside.append(request.url)

        page.on("request", record)
        path = "" if page_name == "home" else page_name
        page.goto(f"{server}/{path}", timeout=60_000)
        page.wait_for_selector(DONE, timeout=90_000)
        # Give late requests (favicon, lazily loaded fonts and icons) time to go out.
        page.wait_for_load_state("networkidle", timeout=30_000)
        page.wait_for_timeout(500)
        icon = page.evaluate("() => [...document.querySelectorAll('link[rel~=icon]')].map(l => l.href)")
        assert icon and all(not urlsplit(h).netloc or urlsplit(h).netloc == own or h.startswith("data:")
                            for h in icon), icon
    finally:
        page.close()
    assert not outside, f"{page_name} requested outside hosts: {outside}"
