"""Shared test settings: hypothesis profiles (``HYPOTHESIS_PROFILE=ci`` in .ci/run), and a check
at the end of the run that no process the suite started is still alive."""

import os
import time
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=200, deadline=None)
settings.register_profile("thorough", max_examples=10_000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def _descendants(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of every live process below ``pid`` (Linux /proc; [] elsewhere)."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] == "Z":  # a zombie has already exited; its parent just has not reaped it
            continue
        parents[int(entry.name)] = int(fields[1])
        commands[int(entry.name)] = cmdline
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        for child, ppid in parents.items():
            if ppid == parent:
                found.append((child, commands[child]))
                frontier.append(child)
    return found


def pytest_sessionfinish(session, exitstatus):
    """The suite leaves no process behind (a Streamlit server, a browser, a worker): fail the run
    and name them, after waiting briefly for ones that are still shutting down."""
    deadline = time.monotonic() + 10
    left = _descendants(os.getpid())
    while left and time.monotonic() < deadline:
        time.sleep(0.25)
        left = _descendants(os.getpid())
    if left:
        listing = "; ".join(f"{pid}: {cmd[:160]}" for pid, cmd in left)
        session.config.pluginmanager.get_plugin("terminalreporter").write_line(
            f"ERROR: the test suite left {len(left)} process(es) running: {listing}", red=True)
        session.exitstatus = 1
