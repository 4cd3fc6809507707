"""Constants and helpers of the browser tests and the dashboard benchmarks (a module of their own:
`conftest` is not importable by name)."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests import ROOT

HOST = "127.0.0.1"

CHROMIUM = Path("/usr/bin/chromium")
# A Streamlit rerun is finished when the app says its script is not running.
DONE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
# The Compare page's morph chart: its dashed line sits at the noise slider's value.
MARKER_JS = """() => {
  const plots = [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')];
  const morph = plots.find(p => p._fullLayout
    && (p._fullLayout.annotations || []).some(a => /sweep|noise of/.test(a.text)));
  if (!morph) return null;
  const line = (morph._fullLayout.shapes || []).find(s => s.type === 'line');
  return line ? line.x0 : null;
}"""


def launch(playwright, profile):
    """Debian's chromium with a fresh profile in ``profile`` (a second one is a second browser) and a
    tall viewport: Streamlit scrolls an inner container, so a screenshot shows only what fits."""
    return playwright.chromium.launch_persistent_context(
        str(profile), executable_path=str(CHROMIUM), headless=True, viewport={"width": 1400, "height": 2600},
        args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync"])


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@contextmanager
def app_server(log_path: Path, options: list[str] = (), *, command: list[str] | None = None,
               cwd: Path = ROOT) -> Iterator[tuple[subprocess.Popen, str]]:
    """A Streamlit server started as ``partition-lab app`` starts it (``dashboard.server.launch.app_command``:
    the options of ``.streamlit/config.toml``, the libraries preloaded) on a free loopback port,
    its output in ``log_path`` (an unread pipe can block it); yields (process, base url) once
    ``/_stcore/health`` answers ok, and stops the server on exit. ``command``: another way to
    start it, given the server options (e.g. the ``partition-lab app`` console script itself),
    run in ``cwd``."""
    from dashboard.server.launch import app_command

    port = free_port()
    with open(log_path, "wb") as log:
        if command is None:
            proc = subprocess.Popen(app_command(["--server.port", str(port), *options]), cwd=cwd, stdout=log,
                                    stderr=subprocess.STDOUT)
        else:
            proc = subprocess.Popen([*command, "--server.port", str(port), *options], cwd=cwd, stdout=log,
                                    stderr=subprocess.STDOUT)
    url = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + 120  # the start warms the heavy pages (dashboard/server/warm.py)
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.read() == b"ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not start; log:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.2)
        yield proc, url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# ---------------------------------------------------------------- helpers of the browser tests
def open_page(browser, url: str, size: dict | None = None, timeout: float = 120_000):
    """A new tab of ``browser`` at ``url`` (viewport ``size`` if given) once the app's first run is
    done; returns ``(page, errors)``, ``errors`` collecting the page's uncaught JavaScript errors."""
    page = browser.new_page()
    if size is not None:
        page.set_viewport_size(size)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, timeout=timeout)
    page.wait_for_selector(DONE, timeout=timeout)
    return page, errors


def settled(page, timeout: float = 180_000) -> None:
    """Wait for the end of the rerun an action started (after a pause: it may not have begun yet)."""
    page.wait_for_timeout(300)
    page.wait_for_selector(DONE, timeout=timeout)


def no_errors(page, errors: list[str] = ()) -> None:
    """No uncaught JavaScript error, no exception and no error box on the page."""
    assert not errors, errors
    assert page.get_by_test_id("stException").count() == 0
    assert page.get_by_test_id("stAlertContentError").count() == 0


# The font sizes of a Plotly figure ``p`` as laid out (_fullLayout / _fullData: after templates and
# Streamlit's theme): [[where, size], …], arrays of sizes flattened.
FIGURE_FONTS_JS = """(p) => {
  const L = p._fullLayout, sizes = [];
  const add = (where, f) => { if (f && f.size !== undefined) sizes.push([where, f.size]); };
  add('font', L.font);
  add('legend', L.legend && L.legend.font);
  add('hoverlabel', L.hoverlabel && L.hoverlabel.font);
  for (const k of Object.keys(L)) {
    if (/^[xy]axis\\d*$/.test(k) && L[k]) {
      if (L[k].showticklabels !== false) add(k + '.tick', L[k].tickfont);
      if (L[k].title && L[k].title.text) add(k + '.title', L[k].title.font);
    }
  }
  (L.annotations || []).forEach((a, i) => add('annotation ' + i, a.font));
  p._fullData.forEach((d, i) => { if (d.text !== undefined || d.texttemplate) add('trace ' + i, d.textfont); });
  return sizes.flatMap(([w, s]) => (Array.isArray(s) ? s : [s]).map(v => [w, v]));
}"""
