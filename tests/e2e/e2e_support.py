"""Constants of the browser tests (a module of their own: `conftest` is not importable by name)."""

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
