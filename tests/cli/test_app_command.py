"""`partition-lab app`: the command hands over to dashboard.server.launch and becomes the Streamlit
server (exec), so a signal stops the server itself and nothing outlives the command."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from dashboard.server import launch
from metrics import cli


def run(argv, capsys):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_app_command_runs_streamlit_on_the_installed_app():
    cmd = launch.app_command(["--server.port", "8600"])
    # streamlit run, libraries preloaded; -P: the working folder never shadows the installed packages
    assert cmd[:5] == [sys.executable, "-P", "-m", "dashboard.server.serve", "run"]
    assert Path(cmd[5]) == launch.dashboard_app_path() and cmd[5].endswith(os.path.join("dashboard", "app.py"))
    for option, value in launch.APP_DEFAULTS.items():
        assert cmd[cmd.index(option) + 1] == value
    assert cmd[cmd.index("--server.address") + 1] == "127.0.0.1"
    assert cmd[cmd.index("--browser.gatherUsageStats") + 1] == "false"
    assert cmd[-2:] == ["--server.port", "8600"]
    # The user's own options win, in either spelling, and are never doubled.
    assert launch.app_command(["--server.address", "0.0.0.0"]).count("--server.address") == 1
    spelled = launch.app_command(["--server.maxUploadSize=50"])
    assert "--server.maxUploadSize" not in spelled and spelled[-1] == "--server.maxUploadSize=50"


def test_app_replaces_itself_with_streamlit(monkeypatch, tmp_path):
    calls = []
    fake_app = tmp_path / "app.py"
    fake_app.write_text("")
    monkeypatch.setattr(launch, "dashboard_app_path", lambda: fake_app)
    monkeypatch.setattr(launch.os, "execv", lambda path, argv: calls.append((path, argv)))
    assert cli.main(["app", "--server.headless", "true"]) == 0
    path, argv = calls[0]
    assert path == sys.executable and argv[0] == sys.executable
    assert argv[5] == str(fake_app) and argv[-2:] == ["--server.headless", "true"]
    assert argv.count("--server.headless") == 1


def test_app_without_dashboard_is_a_clear_error(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(launch, "dashboard_app_path", lambda: tmp_path / "nowhere" / "app.py")
    code, _, err = run(["app"], capsys)
    assert code == 2 and "the dashboard is not installed" in err and err.count("\n") == 1


def test_app_without_streamlit_says_so_in_one_line(monkeypatch, capsys):
    real = launch.importlib.util.find_spec
    monkeypatch.setattr(launch.importlib.util, "find_spec",
                        lambda name, *a: None if name == "streamlit" else real(name, *a))
    code, _, err = run(["app"], capsys)
    assert code == 1 and err.count("\n") == 1
    assert "the dashboard needs streamlit: pip install 'partition-lab[dashboard]'" in err


def test_app_without_the_dashboard_package_says_so_in_one_line(monkeypatch, capsys):
    # As if only the library were installed: the launcher (imported by this file) must not be found
    # either, and should the command still reach it, execv must not replace the test process.
    for name in ("dashboard", "dashboard.server", "dashboard.server.launch"):
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setattr(launch.os, "execv", lambda *a: pytest.fail("the command reached the launcher"))
    code, _, err = run(["app", "--server.port", "8600"], capsys)
    assert code == 1 and err.count("\n") == 1
    assert "the dashboard is not installed: pip install 'partition-lab[dashboard]'" in err


def test_the_library_names_no_server_option():
    """``partition-lab app`` hands over to ``dashboard.server``, which owns every Streamlit option:
    no module of ``metrics`` imports Streamlit or names one of its options."""
    root = Path(__file__).resolve().parents[2]
    option = re.compile(r"--(server|browser|client|runner|global|theme|logger)\.[A-Za-z]")
    for path in sorted((root / "metrics").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not option.search(text), path
        assert not re.search(r"^\s*(import|from)\s+streamlit", text, re.MULTILINE), path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _children(pid: int) -> list[int]:
    """PIDs whose parent is ``pid`` (Linux /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # Field 4 is the parent PID; the command name (field 2) may hold spaces.
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to find child processes")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_server_and_closes_its_port(tmp_path, sig):
    port = _free_port()
    exe = Path(sys.executable).with_name("partition-lab")
    with open(tmp_path / "server.log", "w") as log:
        proc = subprocess.Popen([exe, "app", "--server.port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline, body = time.time() + 120, ""  # the start warms the heavy pages
        while time.time() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                    body = r.read().decode()
                    break
            except OSError:
                time.sleep(0.3)
        assert body == "ok", (tmp_path / "server.log").read_text()
        # The command is the server: the process we started listens itself and has no
        # server child that could be orphaned.
        assert not _children(proc.pid)
        proc.send_signal(sig)
        proc.wait(timeout=30)
        deadline = time.time() + 10
        while _port_open(port) and time.time() < deadline:
            time.sleep(0.2)
        assert not _port_open(port), "the port is still open after the signal"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
