"""The Streamlit server's settings: one place for every option ``partition-lab app`` passes.

A checkout also has ``.streamlit/config.toml`` (read by ``streamlit run dashboard/app.py``); an
installed copy has not, so :func:`dashboard.server.launch.app_command` passes these on the command
line. ``tests/dashboard/server/test_settings.py`` checks that the two say the same. The user's own
options (after ``partition-lab app``) win.
"""

from __future__ import annotations

__all__ = ["APP_DEFAULTS"]

#: Loopback only, no usage statistics, no file watcher, the upload limit the app states, the
#: viewer toolbar, and the three runtime settings below.
APP_DEFAULTS = {
    "--server.address": "127.0.0.1",
    "--server.headless": "true",
    "--server.fileWatcherType": "none",
    "--server.maxUploadSize": "200",
    "--browser.gatherUsageStats": "false",
    "--client.toolbarMode": "viewer",
    # No gc.collect(2) after every script run: it walks the whole heap, most of an interaction's CPU.
    "--runner.postScriptGC": "false",
    # No ForwardMsg cache: its browser-side expiry races fast input ("Cached ForwardMsg MISS").
    "--global.minCachedMessageSize": "1e9",
    # The app assigns bound widgets' values on purpose (dashboard/ui/state.py).
    "--global.disableWidgetStateDuplicationWarning": "true",
}
