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
