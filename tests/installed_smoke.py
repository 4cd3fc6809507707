"""Smoke test of an installed Partition Lab, run by tests/test_wheel_install.py with the python of a
fresh virtual environment that holds only the wheel (and its dependencies), from a directory outside
the checkout. It prints one JSON line of what it checked and how long each step took.

Usage: python installed_smoke.py CHECKOUT_DIR
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def timed(report: dict, name: str):
    class _Timer:
        def __enter__(self):
            self.t0 = time.perf_counter()

        def __exit__(self, *exc):
            report[f"{name}_s"] = round(time.perf_counter() - self.t0, 2)

    return _Timer()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(checkout: Path) -> dict:
    report: dict = {}
    import dashboard
    import metrics
    from dashboard.server import launch
    from metrics.papers import gallery

    for module in (metrics, dashboard):
        where = Path(module.__file__).resolve()
        assert checkout not in where.parents, f"{module.__name__} was imported from the checkout: {where}"
    report["installed_at"] = str(Path(metrics.__file__).resolve().parent.parent)
    exe = Path(sys.executable).with_name("partition-lab")

    with timed(report, "measures"):
        out = subprocess.run([exe, "measures", "--format", "json"], capture_output=True, text=True, check=True)
        keys = [m["key"] for m in json.loads(out.stdout)]
        assert keys == list(metrics.MEASURES), "partition-lab measures does not list the registry"
    report["measures"] = len(keys)

    with timed(report, "score"):
        labels = Path("labels.csv")
        gold = [i % 4 for i in range(200)]
        pred = [(i * 7) % 5 for i in range(200)]
        labels.write_text("gold,pred\n" + "".join(f"{g},{p}\n" for g, p in zip(gold, pred)), encoding="utf-8")
        out = subprocess.run([exe, "score", str(labels), "--format", "json"], capture_output=True, text=True,
                             check=True)
        scored = json.loads(out.stdout)
        expected = metrics.evaluate(metrics.Contingency.from_labels([str(g) for g in gold], [str(p) for p in pred]))
        (solution,) = scored["solutions"].values()  # one solution: one record, as several are
        assert scored["n"] == 200 and solution["measures"] == expected, "partition-lab score disagrees with evaluate"
        bad = subprocess.run([exe, "score", "no-such-file.csv"], capture_output=True, text=True)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1, bad.stderr

    with timed(report, "gallery"):
        frame = gallery.gallery_frame()
        assert len(frame) > 200 and set(frame["status"]) <= set(gallery.STATUSES)
    report["gallery_rows"] = len(frame)

    from dashboard.ui.presets import load_presets
    report["presets"] = len(load_presets())

    from streamlit.testing.v1 import AppTest

    import dashboard
    app = launch.dashboard_app_path()
    pages = sorted(dashboard.page_scripts())
    assert pages, f"no pages installed next to {app}"
    with timed(report, "pages"):
        for page in pages:
            at = AppTest.from_file(str(app), default_timeout=180)
            at.switch_page(dashboard.page_scripts()[page]).run()
            assert not at.exception, (page, [e.value for e in at.exception])
            assert not at.error, (page, [e.value for e in at.error])
    report["pages"] = pages

    with timed(report, "server"):
        port = free_port()
        with open("server.log", "w") as log:
            proc = subprocess.Popen([exe, "app", "--server.port", str(port)], stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline, body = time.time() + 120, ""
            while time.time() < deadline and proc.poll() is None and body != "ok":
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                        body = r.read().decode()
                except OSError:
                    time.sleep(0.3)
            assert body == "ok", Path("server.log").read_text()[-2000:]
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as r:
                assert r.status == 200 and b"<html" in r.read().lower()
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
    return report


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]).resolve())))
