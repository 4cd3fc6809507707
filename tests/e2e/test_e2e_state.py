"""Page state in a real browser (Debian's chromium through Playwright; ``server`` and ``browser`` are
the session fixtures of ``conftest.py``): what AppTest cannot show — the browser's own copy of the
widgets, its URL, its message cache.

* links clicked in one session (Home's cards, the Table lab's "compare this table") open their page
  as a new browser opening the same address does, whatever was done before;
* the sidebar brings a page back as it was left, address bar included;
* the Table lab switched to uploaded labels (with an upload) and back shows the same page;
* "Reset this page" puts the browser's widgets and URL back to the defaults;
* an address copied from the address bar reproduces the page in another browser;
* ten fast key presses (40 ms apart, back and forth) on every slider of every page leave no
  connection error ("Cached ForwardMsg MISS") and no greyed-out page.
"""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlparse

import pytest

from dashboard import page_scripts
from tests.e2e.e2e_support import DONE, launch

# What a reader sees: every control's value (main area and sidebar), the open tabs, the figures'
# data, and the texts of the main area. Labels name the controls.
SNAPSHOT_JS = """() => {
  const out = {};
  const label = el => {
    const l = el.querySelector('[data-testid="stWidgetLabel"]');
    return l ? l.innerText.trim() : '';
  };
  const roots = {main: document.querySelector('[data-testid="stMain"]'),
                 side: document.querySelector('[data-testid="stSidebar"]')};
  for (const [where, root] of Object.entries(roots)) {
    if (!root) continue;
    root.querySelectorAll('[data-testid="stSlider"]').forEach(el => {
      out[`${where} slider ${label(el)}`] = [...el.querySelectorAll('[data-testid="stSliderThumbValue"]')]
        .map(t => t.innerText).join(' – '); });
    root.querySelectorAll('[data-testid="stSelectbox"] input').forEach(i => {
      out[`${where} select ${i.getAttribute('aria-label')}`] = i.value; });
    root.querySelectorAll('[data-testid="stMultiSelect"]').forEach(el => {
      out[`${where} multi ${label(el)}`] = [...el.querySelectorAll('[data-tag]')]
        .map(t => t.getAttribute('aria-label')).join('|'); });
    root.querySelectorAll('[role="radiogroup"]').forEach(g => {
      out[`${where} choice ${g.getAttribute('aria-label') || label(g.parentElement)}`] =
        [...g.querySelectorAll('[aria-checked="true"], input:checked')].map(b => b.innerText || b.value).join('|'); });
    root.querySelectorAll('[role="toolbar"]').forEach(g => {
      out[`${where} pills ${g.getAttribute('aria-label')}`] =
        [...g.querySelectorAll('[aria-pressed="true"]')].map(b => b.innerText).join('|'); });
    root.querySelectorAll('[data-testid="stCheckbox"] input').forEach(i => {
      out[`${where} check ${i.closest('[data-testid="stCheckbox"]').innerText.trim()}`] = i.checked; });
    root.querySelectorAll('[data-testid="stNumberInput"] input').forEach(i => {
      out[`${where} number ${i.getAttribute('aria-label')}`] = i.value; });
  }
  out.tabs = [...document.querySelectorAll('[role="tab"][aria-selected="true"]')].map(t => t.innerText);
  out.figures = [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')].map(p =>
    JSON.stringify((p._fullData || []).map(d => [d.name, d.x ? [...d.x] : null, d.y ? [...d.y] : null,
                                                 d.z ? [...d.z].map(r => [...r]) : null])));
  out.text = [...roots.main.querySelectorAll('[data-testid="stMarkdownContainer"], [data-testid="stCaptionContainer"]')]
    .map(e => e.innerText);
  return out;
}"""
BROKEN = "Connection error"


# ---------------------------------------------------------------- helpers
@pytest.fixture(scope="module")
def other_browser(playwright, tmp_path_factory):
    """A second browser (its own profile): what someone else sees when opening a copied address."""
    ctx = launch(playwright, tmp_path_factory.mktemp("chromium-other"))
    try:
        yield ctx
    finally:
        ctx.close()


def settled(page, timeout: float = 120) -> dict:
    """The page's snapshot once reruns are over and two readings a moment apart agree."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        page.wait_for_selector(DONE, timeout=timeout * 1000)
        time.sleep(0.8)
        page.wait_for_selector(DONE, timeout=timeout * 1000)
        shot = page.evaluate(SNAPSHOT_JS)
        if shot == last:
            return shot
        last = shot
    raise AssertionError("the page did not settle")


def params(page) -> dict:
    return {k: v for k, v in parse_qs(urlparse(page.url).query).items()}


def differences(a: dict, b: dict) -> list[str]:
    return [f"{k}: {str(a.get(k))[:200]} != {str(b.get(k))[:200]}" for k in sorted(set(a) | set(b))
            if a.get(k) != b.get(k)]


def watch(page) -> list[str]:
    """Page errors and message-cache failures, as they happen."""
    seen: list[str] = []
    page.on("pageerror", lambda e: seen.append(str(e)))
    page.on("console", lambda m: seen.append(m.text) if "ForwardMsg" in m.text else None)
    return seen


def sidebar(page, title: str) -> None:
    page.get_by_test_id("stSidebarNavLink").filter(has_text=title).first.click()


def click_link(page, text: str) -> None:
    page.get_by_test_id("stPageLink-NavLink").filter(has_text=text).first.click()


def choose(page, group: str, option: str) -> None:
    page.locator(f'[data-testid="stMain"] [role="radiogroup"][aria-label="{group}"]').get_by_text(option).click()


def press(page, slider_label: str, key: str, times: int = 1) -> None:
    thumb = (page.locator('[data-testid="stMain"] [data-testid="stSlider"]').filter(has_text=slider_label)
             .locator('input[type="range"]').first)
    thumb.focus()
    for _ in range(times):
        page.keyboard.press(key)
        time.sleep(0.05)


def fresh_view(other_browser, url: str) -> dict:
    page = other_browser.new_page()
    try:
        page.goto(url, timeout=60_000)
        return settled(page)
    finally:
        page.close()


# ---------------------------------------------------------------- links and returns
def test_scenario_links_after_each_other_match_a_new_browser(server, browser, other_browser):
    page = browser.new_page()
    errors = watch(page)
    page.goto(server, timeout=60_000)
    settled(page)
    # The uniform effect, then the morph moved away from its defaults.
    click_link(page, "Wu, Xiong & Chen 2009, Tables 3–4")
    page.wait_for_url("**/compare**", timeout=30_000)
    before = settled(page)
    assert "purity" in before["main multi Measures"].lower()
    press(page, "Number of classes", "ArrowRight", 3)
    choose(page, "Sweep over", "number of classes")
    settled(page)
    # Home through the sidebar, then "V prefers singletons": its measures, the morph's defaults.
    sidebar(page, "Home")
    settled(page)
    click_link(page, "Reichart & Rappoport 2009, §5 and Table 1")
    page.wait_for_url("**/compare**", timeout=30_000)
    shown = settled(page)
    assert shown["main slider Number of classes"] == "10" and shown["main choice Sweep over"] == "noise"
    assert shown["main multi Measures"].startswith("V_β") and "purity" not in shown["main multi Measures"].lower()
    assert "link" not in params(page)
    assert differences(shown, fresh_view(other_browser, page.url)) == []
    assert not errors, errors


def test_home_links_in_one_session_match_a_new_browser(server, browser, other_browser):
    """Every card on Home, clicked after the others with each page's controls moved in between."""
    page = browser.new_page()
    errors = watch(page)
    page.goto(server, timeout=60_000)
    settled(page)
    links = page.get_by_test_id("stPageLink-NavLink")
    targets = [(links.nth(i).inner_text().split("\n")[-1], links.nth(i).get_attribute("href"))
               for i in range(links.count())]
    targets = [(text, href) for text, href in targets if "lesson" not in href]
    assert len(targets) >= 8
    expected = {href: fresh_view(other_browser, f"{server}/{href}") for _, href in targets}
    for text, href in targets:
        sidebar(page, "Home")
        settled(page)
        page.locator(f'[data-testid="stPageLink-NavLink"][href="{href}"]').first.click()
        page.wait_for_function("(p) => location.pathname.endsWith(p)", arg="/" + href.split("?")[0], timeout=30_000)
        shown = settled(page)
        assert differences(shown, expected[href]) == [], text
        # Move what can be moved (first slider, choices, first selectbox option) before the next card.
        sliders = page.locator('[data-testid="stMain"] [data-testid="stSlider"]:visible input[type="range"]')
        if sliders.count():
            sliders.first.focus()
            page.keyboard.press("ArrowRight")
        groups = page.locator('[data-testid="stMain"] [role="radiogroup"] [aria-checked="false"]:visible')
        if groups.count():
            groups.first.click()
        settled(page)
    assert not errors, errors


def test_the_sidebar_brings_a_page_back_as_it_was_left(server, browser):
    page = browser.new_page()
    page.goto(f"{server}/compare?a=wu_table3_I", timeout=60_000)
    settled(page)
    press(page, "Noise of solution R", "ArrowRight", 2)
    choose(page, "Sweep over", "number of classes")
    left = settled(page)
    url = params(page)
    sidebar(page, "Table lab")
    settled(page)
    sidebar(page, "Compare")
    page.wait_for_url("**/compare**", timeout=30_000)
    back = settled(page)
    assert differences(back, left) == []
    assert params(page) == url and url["noise"] == ["5"] and url["sweep"] == ["classes"]


def test_table_lab_compare_link_carries_the_table(server, browser, other_browser):
    page = browser.new_page()
    page.goto(f"{server}/table_lab?preset=wu_table3_I", timeout=60_000)
    settled(page)
    click_link(page, "Compare this table with another solution")
    page.wait_for_url("**/compare**", timeout=30_000)
    shown = settled(page)
    assert shown["main select Solution A"] == "The Table lab's table" and "a_table" in params(page)
    assert differences(shown, fresh_view(other_browser, page.url)) == []


# ---------------------------------------------------------------- switching away and back
def test_table_lab_upload_and_back_keeps_the_page(server, browser, tmp_path):
    page = browser.new_page()
    errors = watch(page)
    page.goto(f"{server}/table_lab?preset=wu_table3_I", timeout=60_000)
    before = settled(page)
    assert before["main pills Families"].count("|") == 3  # all four families
    choose(page, "Table from", "uploaded labels")
    settled(page)
    labels = tmp_path / "labels.csv"
    labels.write_text("gold,cluster\na,1\na,1\nb,2\nb,2\nb,1\n")
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(labels))
    page.get_by_text("5 items", exact=False).first.wait_for(timeout=60_000)
    settled(page)
    choose(page, "Table from", "a preset, edited")
    after = settled(page)
    assert differences(after, before) == []
    assert "Choose at least one family" not in page.inner_text('[data-testid="stMain"]')
    assert not errors, errors


def test_every_choice_switched_away_and_back_in_the_browser(server, browser):
    """Each segmented control and radio of the pages that have them: away, back, the same page."""
    page = browser.new_page()
    for path in ("compare", "generator_lab", "property_checker?p_tab=Convex+additivity%3A+split+%2F+merge",
                 "fuzzy_lab"):
        page.goto(f"{server}/{path}", timeout=60_000)
        before = settled(page)
        groups = page.locator('[data-testid="stMain"] [role="radiogroup"]')
        for i in range(groups.count()):
            group = groups.nth(i)
            options = group.locator('[role="radio"]')
            if options.count() < 2:
                continue
            original = [j for j in range(options.count()) if options.nth(j).get_attribute("aria-checked") == "true"]
            other = next(j for j in range(options.count()) if j not in original)
            options.nth(other).click()
            settled(page)
            page.locator('[data-testid="stMain"] [role="radiogroup"]').nth(i).locator('[role="radio"]') \
                .nth(original[0]).click()
            assert differences(settled(page), before) == [], (path, i)


# ---------------------------------------------------------------- reset and copied addresses
def test_reset_puts_widgets_and_url_back(server, browser, other_browser):
    page = browser.new_page()
    page.goto(f"{server}/compare", timeout=60_000)
    defaults = settled(page)
    press(page, "Noise of solution R", "ArrowRight", 3)
    choose(page, "Sweep over", "number of classes")
    moved = settled(page)
    assert moved["main slider Noise of solution R"] == "6" and params(page)["sweep"] == ["classes"]
    page.get_by_test_id("stSidebar").get_by_role("button", name="Reset this page").click()
    page.wait_for_function("() => !new URL(location.href).searchParams.has('noise')", timeout=30_000)
    assert differences(settled(page), defaults) == []
    assert not {"noise", "sweep", "classes", "a", "b", "m"} & set(params(page))


def test_a_copied_address_reproduces_the_page_in_another_browser(server, browser, other_browser):
    page = browser.new_page()
    page.goto(f"{server}/property_checker", timeout=60_000)
    settled(page)
    page.get_by_role("tab", name="VI's range grows with n").click()
    page.wait_for_function("() => new URL(location.href).searchParams.has('p_tab')", timeout=30_000)
    shown = settled(page)
    assert shown["tabs"] == ["VI's range grows with n"]
    assert differences(shown, fresh_view(other_browser, page.url)) == []
    # Compare with moved controls: the address bar alone carries them.
    page.goto(f"{server}/compare?a=rh_figure2_A&b=rh_figure2_B", timeout=60_000)
    settled(page)
    press(page, "Number of classes", "ArrowLeft", 4)
    choose(page, "Sweep over", "number of classes")
    shown = settled(page)
    assert differences(shown, fresh_view(other_browser, page.url)) == []


# ---------------------------------------------------------------- fast input
def _slider_pages() -> list[str]:
    """Every page (its URL path; home is ""), every lesson step, and the states that show other sliders:
    the property checker's split tab, the Fuzzy lab's other schemes and experiment tabs."""
    from dashboard.lesson.steps import STEPS

    pages = sorted(page_scripts())
    paths = ["" if p == "home" else p for p in pages if p != "lesson"]
    paths += [f"lesson?step={n}" for n in range(1, len(STEPS) + 1)]
    return paths + ["property_checker?p_tab=Convex+additivity%3A+split+%2F+merge", "fuzzy_lab?fz_scheme=share",
                    "fuzzy_lab?fz_scheme=fixed&fz_tab=Experiment+2%3A+random+clusterings",
                    "fuzzy_lab?fz_tab=Experiment+3%3A+softness"]


SLIDER_PAGES = _slider_pages()


@pytest.mark.parametrize("path", SLIDER_PAGES)
def test_fast_keys_on_every_slider_leave_no_connection_error(server, browser, path):
    """Ten key presses 40 ms apart on each slider, six one way and four back: values are revisited,
    which is what made the browser's message cache miss."""
    page = browser.new_page()
    errors = watch(page)
    page.goto(f"{server}/{path}", timeout=60_000)
    settled(page, timeout=240)
    sliders = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]')
    count = sliders.count()
    for i in range(count):
        thumb = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]').nth(i)
        thumb.focus()
        for k in range(10):
            page.keyboard.press("ArrowRight" if k < 6 else "ArrowLeft")
            time.sleep(0.04)
        settled(page, timeout=240)
        assert BROKEN not in page.inner_text("body"), (path, i)
        assert page.get_by_test_id("stException").count() == 0, (path, i)
    assert not errors, errors
    page.close()
    print(f"{path or 'home'}: {count} slider(s)")
