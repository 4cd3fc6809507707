"""User text stays text in a real browser (issue 29, Markdown injection).

``table_lab?preset=![x](http://evil.example/x.png)`` made chromium fetch the image and drew a live
link inside the app's "does not exist" warning. Here the page is opened with markup in a URL
parameter, in a link's table and in an upload (its file name and a cell quoted by the error), and
chromium must request nothing from ``evil.example``, draw no image, link, colour, math or emoji
from it, and show each payload literally (the invisible word joiners the app's helper adds aside).
"""

from __future__ import annotations

import json
from urllib.parse import urlencode, urlparse

import pytest

from tests.e2e.e2e_support import DONE

PAYLOADS = ["![x](http://evil.example/x.png)", "[a](http://evil.example/a)", "<img src=http://evil.example/i.png>",
            ":red[x]", "$x$", ":smile:", "http://evil.example/auto", "www.evil.example", "a@evil.example"]
PAYLOAD = " ".join(PAYLOADS)

DRAWN_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  return {
    images: [...main.querySelectorAll('img')].map(i => i.getAttribute('src')).filter(s => /evil/.test(s || '')),
    links: [...main.querySelectorAll('a')].map(a => a.getAttribute('href')).filter(h => /evil/.test(h || '')),
    math: main.querySelectorAll('.katex').length,
    // A payload's colour would wrap its own word ("x" of :red[x]); the app's own styled spans (none
    // today) are listed with their text so that a failure says where they came from.
    coloured: [...main.querySelectorAll('[data-testid="stMarkdownContainer"] span[style]')]
      .map(s => ({text: s.innerText, html: s.parentElement.outerHTML.slice(0, 300)})),
    text: main.innerText.replace(/\\u2060/g, ''),
  };
}"""


def visit(browser, url: str, upload=None) -> dict:
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(url, timeout=60_000)
        page.wait_for_selector(DONE, timeout=120_000)
        if upload is not None:
            name, data = upload
            page.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files(
                {"name": name, "mimeType": "text/csv", "buffer": data})
            page.get_by_test_id("stAlertContentError").first.wait_for(timeout=60_000)
            page.wait_for_selector(DONE, timeout=120_000)
        page.wait_for_timeout(1000)  # an image or a link would load now
        drawn = page.evaluate(DRAWN_JS)
    finally:
        page.close()
    drawn["requests"] = [r for r in requests if (urlparse(r).hostname or "").endswith("evil.example")]
    return drawn


def assert_literal(drawn: dict, *texts: str) -> None:
    assert drawn["requests"] == [] and drawn["images"] == [] and drawn["links"] == [], drawn
    assert drawn["math"] == 0, drawn
    assert [s for s in drawn["coloured"] if s["text"].strip() == "x"] == [], drawn["coloured"]
    assert "\N{SMILING FACE WITH OPEN MOUTH AND SMILING EYES}" not in drawn["text"], drawn["text"][:2000]
    for text in texts:
        assert text in drawn["text"], (text, drawn["text"][:2000])


def test_markup_in_a_url_parameter_shows_as_written(server, browser):
    drawn = visit(browser, f"{server}/table_lab?{urlencode({'preset': PAYLOAD})}")
    # The warning quotes the link's value as written (repr: in quotes, each payload intact).
    assert "The link asks for preset" in drawn["text"]
    assert_literal(drawn, *PAYLOADS)


def test_markup_in_a_links_table_shows_as_written(server, browser):
    # Class names that break a rule (a name twice) are quoted in the page's message.
    table = {"classes": [PAYLOADS[0], PAYLOADS[0]], "clusters": ["x"], "cells": [[1], [2]]}
    drawn = visit(browser, f"{server}/table_lab?{urlencode({'table': json.dumps(table)})}")
    assert_literal(drawn)
    # A valid table: its names reach the page (as text, not markup).
    table = {"classes": PAYLOADS[:2], "clusters": PAYLOADS[3:5], "cells": [[3, 0], [0, 4]]}
    query = urlencode({"a": "link", "a_table": json.dumps(table), "a_name": PAYLOADS[5]})
    drawn = visit(browser, f"{server}/compare?{query}")
    assert_literal(drawn)


@pytest.mark.parametrize("name, data", [
    (PAYLOADS[0] + ".csv", b"gold,pred\na,x\n,y\n"),                   # a missing label: the error names the file
    ("cells.csv", ('gold,pred\n"a"' + PAYLOADS[1] + ",x\n").encode()),  # a quote error quotes the cell
])
def test_markup_in_an_upload_shows_as_written(server, browser, name, data):
    drawn = visit(browser, f"{server}/table_lab?src=upload", upload=(name, data))
    assert_literal(drawn, name if name != "cells.csv" else "text right after the quote")
