"""What ``partition-lab app`` hands over to: the installed app, run by the server process of
:mod:`dashboard.server.serve` with the settings of :mod:`dashboard.server.settings`.

``metrics.cli`` finds this module by name and calls :func:`launch` with every argument after
``app``. Nothing here imports Streamlit: where it is missing, :func:`launch` says so in one line
(an ``ImportError``, which the command reports with exit code 1).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from dashboard.server.settings import APP_DEFAULTS

__all__ = ["dashboard_app_path", "app_command", "launch"]


def dashboard_app_path() -> Path:
    """The installed ``dashboard/app.py``."""
    return Path(__file__).resolve().parent.parent / "app.py"


def app_command(extra: list[str]) -> list[str]:
    """``python -P -m dashboard.server.serve run dashboard/app.py`` (``streamlit run`` with the pages'
    libraries imported at server start: see :mod:`dashboard.server.serve`) with the settings of
    :data:`~dashboard.server.settings.APP_DEFAULTS` the user may override, in either spelling
    (``--server.port 8600`` or ``--server.port=8600``).

    ``-P``: ``python -m`` would put the working folder first on ``sys.path``, and the folder a user
    starts the app in is their own project's — which has a ``metrics.py`` or a ``dashboard/`` more
    often than not: the server would import those instead of the installed packages (every page an
    ``ImportError`` while the health check says ok). Streamlit adds only the app's own folder (the
    installed ``dashboard/``), which holds no module of those names."""
    cmd = [sys.executable, "-P", "-m", "dashboard.server.serve", "run", str(dashboard_app_path())]
    given = {a.split("=", 1)[0] for a in extra if a.startswith("--")}
    for option, value in APP_DEFAULTS.items():
        if option not in given:
            cmd += [option, value]
    return cmd + extra


def launch(extra: list[str]) -> int:
    """Become the dashboard's server (``os.execv``): SIGTERM and SIGINT then reach Streamlit
    itself, which shuts down cleanly, and no orphaned server outlives a stopped command.

    Raises ``ValueError`` when the app is not installed next to this module and ``ImportError``
    when Streamlit is missing, each in one line."""
    app = dashboard_app_path()
    if not app.is_file():
        raise ValueError(f"the dashboard is not installed (no {app})")
    if importlib.util.find_spec("streamlit") is None:
        raise ImportError("the dashboard needs streamlit: pip install 'partition-lab[dashboard]'")
    cmd = app_command(extra)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(cmd[0], cmd)
    return 0  # pragma: no cover - execv does not return
