"""Every page of the app opens under AppTest with no exception and no error — in the test venv and
in the venv of declared minimum versions (.ci/minimums), where a Streamlit or Plotly API missing from
the oldest version allowed shows up first."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.dashboard.apptest_utils import no_trouble, open_app

PAGES = sorted(p.name for p in (Path(__file__).parents[2] / "dashboard" / "app_pages").glob("*.py"))


def test_every_page_is_listed():
    assert len(PAGES) >= 11


@pytest.mark.parametrize("page", PAGES)
def test_page_opens(page):
    at = open_app(f"app_pages/{page}", timeout=180)
    no_trouble(at)
    assert at.title or at.header, f"{page} drew no title"
