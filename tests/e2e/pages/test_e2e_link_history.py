"""Every cross-page link of the app costs the browser's history one entry, and one Back returns
(Debian's chromium through Playwright; ``server`` and ``browser`` are the session fixtures of
``conftest.py``).

The links are not listed here: each page of the app is opened at its own address, and every page
link it draws to another page (its rendered ``stPageLink`` elements: Home's cards and scenarios,
the gallery's sections, the Solutions/Real data/Table lab links, …) is clicked from it. The click
adds exactly one history entry and the address stays the link's own (a write as the page opens
would add an entry, sometimes under the path of the page the link was on); after one Back the tab
shows the page the link was on. The lesson's explore links, drawn once a step's
answer is revealed, have their own test (``pages/test_e2e_presenter.py``).
"""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest

from dashboard import page_scripts
from tests.e2e.e2e_support import no_errors, settled

# Every page by its address ("/" for Home); the lesson's cross-page links are its explore links.
SOURCES = sorted("/" if name == "home" else f"/{name}" for name in page_scripts() if name != "lesson")

# The links a page draws: [href as written, href resolved, label] of each enabled page link.
LINKS_JS = """() => [...document.querySelectorAll('[data-testid="stPageLink"] a')]
  .filter(a => a.getAttribute('aria-disabled') !== 'true')
  .map(a => [a.getAttribute('href'), a.href, a.innerText.trim()])"""


# What may still change while a page runs: the address, the history's length, the links drawn,
# and whether Streamlit shows its running indicator.
RUNNING = '[data-testid="stStatusWidgetRunningIcon"], [data-testid="stStatusWidgetRunningManIcon"]'
STATE_JS = f"""() => [location.href, history.length, document.querySelectorAll('[data-testid="stPageLink"]').length,
  !!document.querySelector('{RUNNING}')]"""


def quiet(page, still: float = 2.0, timeout: float = 180.0) -> None:
    """Wait until the page has run to its end: nothing of :data:`STATE_JS` changed for ``still``
    seconds and no run is shown (the script-state attribute reads "not running" before a page's
    first run has drawn much: a long page draws its links seconds later)."""
    deadline, last, since = time.monotonic() + timeout, None, time.monotonic()
    while time.monotonic() < deadline:
        settled(page)
        now = page.evaluate(STATE_JS)
        if now != last or now[3]:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= still:
            return
        page.wait_for_timeout(500)
    raise AssertionError(f"{page.url} did not come to rest")


# Every entry a script adds to the tab's history (Streamlit's browser side adds them by pushState),
# recorded from the page's start: with the tab back on the page after a Back, the history's length
# no longer tells one entry from none (the next push replaces the entry ahead).
RECORD_JS = """(() => { window.__pushes = []; const push = history.pushState.bind(history);
  history.pushState = (s, t, u) => { window.__pushes.push(String(u)); return push(s, t, u); }; })()"""


def recorded_tab(browser, url: str):
    """A new tab at ``url`` recording its history entries (:data:`RECORD_JS`) and its JavaScript
    errors, once the page has come to rest; returns ``(page, errors)``."""
    page = browser.new_page()
    page.add_init_script(RECORD_JS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, timeout=120_000)
    quiet(page)
    return page, errors


def cross_page_links(page, source_url: str) -> dict[str, tuple[str, str]]:
    """href as written → (href resolved, label) of the links on ``page`` to another page (the first
    label of each address)."""
    here = urlsplit(source_url).path
    out: dict[str, tuple[str, str]] = {}
    for written, href, label in page.evaluate(LINKS_JS):
        if urlsplit(href).path != here:
            out.setdefault(written, (href, label))
    return out


@pytest.mark.parametrize("source", SOURCES)
def test_every_cross_page_link_is_one_history_entry_and_one_back(server, browser, source):
    """Each link clicked from the page (the tab back on it after the previous link's Back; a fresh
    tab after a problem): history +1, the link's own address, and one Back shows the page again."""
    url = urljoin(server + "/", source.lstrip("/"))
    page, errors = recorded_tab(browser, url)
    links = cross_page_links(page, url)
    if source == "/":
        assert len(links) >= 10, links                          # the cards and the guided scenarios
    problems: list[str] = []
    for written, (href, label) in links.items():
        if page is None:
            page, errors = recorded_tab(browser, url)
        pushed = page.evaluate("() => window.__pushes.length")
        page.locator('[data-testid="stPageLink"] a').and_(page.locator(f'[href="{written}"]')).first.click()
        page.wait_for_function("(p) => location.pathname === p", arg=urlsplit(href).path, timeout=60_000)
        quiet(page)                                             # a late address write would come by now
        entries = page.evaluate("(n) => window.__pushes.slice(n)", pushed)
        address = urlsplit(page.url)
        if len(entries) != 1 or parse_qs(address.query) != parse_qs(urlsplit(href).query):
            problems.append(f"{label!r} ({href}): history entries {entries}, address {address.path}?{address.query}")
        page.go_back()                                          # ONE press
        quiet(page)
        no_errors(page, errors)
        if urlsplit(page.url).path != urlsplit(url).path:
            problems.append(f"{label!r} ({href}): one Back shows {page.url}, not {url}")
            page.close()
            page = None                                         # the next link from a fresh tab
    if page is not None:
        page.close()
    assert not problems, "\n".join(problems)
