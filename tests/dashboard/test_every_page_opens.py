"""Every page of the app opens under AppTest with no exception and no error — in the test venv and
in the venv of declared minimum versions (.ci/minimums), where a Streamlit or Plotly API missing from
the oldest version allowed shows up first."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboard import page_scripts
from tests.dashboard.apptest_utils import no_trouble, open_app

PAGES = sorted(page_scripts())


def test_every_page_is_listed():
    assert len(PAGES) >= 11


@pytest.mark.parametrize("page", PAGES)
def test_page_opens(page):
    at = open_app(page_scripts()[page], timeout=180)
    no_trouble(at)
    assert at.title or at.header, f"{page} drew no title"


def test_page_names_are_unique_across_the_sidebar_folders():
    # page_scripts() keys pages by file name: two pages of one name in two folders would hide one.
    scripts = sorted((Path(__file__).parents[2] / "dashboard" / "app_pages").rglob("*.py"))
    assert len({p.stem for p in scripts}) == len(scripts) == len(page_scripts())
    app = (Path(__file__).parents[2] / "dashboard" / "app.py").read_text(encoding="utf-8")
    assert all(f'"{script}"' in app for script in page_scripts().values())


def test_page_scripts_gives_each_caller_its_own_copy():
    # A caller that renames an entry (the lesson's tests key the home page by "") must not change
    # what every later caller reads: the link fuzzer then looked for a page named "".
    first = page_scripts()
    first[""] = first.pop("home")
    assert "home" in page_scripts() and "" not in page_scripts()
