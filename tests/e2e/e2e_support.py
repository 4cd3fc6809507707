"""Constants of the browser tests (a module of their own: `conftest` is not importable by name)."""

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
# A Streamlit rerun is finished when the app says its script is not running.
DONE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
