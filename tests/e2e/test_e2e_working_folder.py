"""``partition-lab app`` started in a folder of the user's own project: the folder's modules must
never shadow the installed packages (issue 24, item 7).

Every other project has a ``metrics.py``; some a ``dashboard/`` package. ``python -m`` puts the
working folder first on ``sys.path``, so the server used to import the folder's ``metrics`` (every
page then failed with ``ImportError … from 'metrics' (./metrics.py)`` while the health check said
ok), or found no ``dashboard.server`` at all. The command is started here as a user starts it —
the console script, in such a folder — and a page is rendered in a real browser.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.e2e.e2e_support import DONE, app_server

EXE = Path(sys.executable).with_name("partition-lab")
# What a stray module does when imported: fail loudly, naming itself.
STRAY = 'raise ImportError("the working folder\'s {name} was imported instead of the installed package")\n'


def _stray_folder(folder: Path, with_dashboard: bool) -> Path:
    folder.mkdir()
    (folder / "metrics.py").write_text(STRAY.format(name="metrics.py"))
    if with_dashboard:
        (folder / "dashboard").mkdir()
        (folder / "dashboard" / "__init__.py").write_text(STRAY.format(name="dashboard/"))
    return folder


@pytest.mark.skipif(not EXE.exists(), reason="the console script is not installed")
@pytest.mark.parametrize("with_dashboard", [False, True], ids=["metrics.py", "metrics.py+dashboard"])
def test_app_started_in_a_folder_with_metrics_py_renders_its_pages(browser, tmp_path, monkeypatch, with_dashboard):
    folder = _stray_folder(tmp_path / "project", with_dashboard)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    monkeypatch.delenv("PYTHONSAFEPATH", raising=False)
    log = tmp_path / "server.log"
    with app_server(log, command=[str(EXE), "app"], cwd=folder) as (_, url):
        page = browser.new_page()
        try:
            for path in ("/", "/compare"):
                page.goto(f"{url}{path}", timeout=60_000)
                page.wait_for_selector(DONE, timeout=60_000)
                text = page.inner_text("body")
                assert "ImportError" not in text and "working folder" not in text, text[:2000]
                assert page.get_by_test_id("stException").count() == 0, text[:2000]
                # The entry script ran: its navigation is there.
                page.get_by_test_id("stSidebarNavLink").first.wait_for(timeout=30_000)
        finally:
            page.close()
    server_log = log.read_text(errors="replace")
    assert "working folder" not in server_log, server_log[-3000:]  # nor in the warm-up
