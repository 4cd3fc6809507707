"""Constants and helpers of the browser tests (a module of their own: `conftest` is not importable by name)."""

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
# A Streamlit rerun is finished when the app says its script is not running.
DONE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
# The Compare page's morph chart: its dashed line sits at the noise slider's value.
MARKER_JS = """() => {
  const plots = [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')];
  const morph = plots.find(p => p._fullLayout && (p._fullLayout.annotations || []).some(a => /sweep|noise of/.test(a.text)));
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
