"""The server's settings live in one place (``dashboard/server/settings.py``), and the checkout's
``.streamlit/config.toml`` (read by ``streamlit run dashboard/app.py``) says the same."""

from __future__ import annotations

import tomllib

from dashboard.server.launch import app_command
from dashboard.server.settings import APP_DEFAULTS
from tests import ROOT


def test_server_options_agree_between_config_command_and_browser_tests():
    """The checkout's .streamlit/config.toml, `partition-lab app` (dashboard.server.settings.APP_DEFAULTS, for an
    install without the checkout) and the browser tests' server run with the same options — the
    ForwardMsg cache turned off among them (its expiry races fast input: "Cached ForwardMsg MISS")."""
    root = ROOT
    config = tomllib.loads((root / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    e2e_support = (root / "tests" / "e2e" / "e2e_support.py").read_text(encoding="utf-8")

    def same(a, b) -> bool:
        if isinstance(a, bool):
            return str(a).lower() == str(b).lower()
        if isinstance(a, (int, float)):
            return float(a) == float(b)
        return str(a) == str(b)

    for section, options in config.items():
        for name, value in options.items():
            option = f"--{section}.{name}"
            assert option in APP_DEFAULTS and same(value, APP_DEFAULTS[option]), option
    # … and every option of the command is in the checkout's configuration.
    assert set(APP_DEFAULTS) == {f"--{section}.{name}" for section, options in config.items() for name in options}
    assert float(config["global"]["minCachedMessageSize"]) > 200 * 2**20  # above any message: no cache
    # The browser tests' server (and the benchmarks') is started by the command itself.
    assert "proc = subprocess.Popen(app_command([" in e2e_support
    assert set(APP_DEFAULTS) <= set(app_command([]))
