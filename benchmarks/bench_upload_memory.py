"""Server memory held by uploads: many sessions each uploading a file, then every browser closed (issue 29).

    python benchmarks/bench_upload_memory.py [--sessions 20] [--mb 6] [--page table_lab|solutions]
                                            [--after 10,150,200] [--opt section.name=value ...]

A real server is started as ``partition-lab app`` starts it (``e2e_support.app_server``: the
options of ``.streamlit/config.toml``, the warm-up), on a free loopback port. Debian's chromium,
driven by Playwright, then opens ``--sessions`` sessions one after the other — each a new browser
tab, so a new Streamlit session — on the page's upload panel and uploads a label file of
``--mb`` MB (its own content: a different seed per session) through the real file input, waiting
until the page shows the table's summary. The sessions stay open. Then every tab is closed
and the server's memory is read again after each delay of ``--after`` (seconds after the last
browser closed; Streamlit drops a disconnected session after ``server.disconnectedSessionTTL``,
120 s by default).

Memory is the server process's resident set, ``VmRSS`` of ``/proc/<pid>/status`` (what the
machine lends it), read when its CPU has been still for a second: after the warm-up, after one
plain session (the page opened, nothing uploaded), after the uploads, and after closing. The
review measured 359 MB → 1,078 MB after 20 × 6 MB, unchanged 3 minutes after every browser closed.

Prints one line per reading and, with ``--json``, a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.e2e.e2e_support import DONE, app_server, launch  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
# page → (URL path and parameters that show its upload panel, the upload input's position among
# the page's file inputs, the text that says the upload was read)
PAGES = {
    "table_lab": ("table_lab?src=upload", 0, "items,"),
    "solutions": ("solutions?sol_src=upload", 0, "uploaded solutions"),
}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def quiet_rss(pid: int, still: float = 1.0, limit: float = 60.0) -> float:
    """The resident set once the server's CPU has stood still for ``still`` seconds."""
    end = time.monotonic() + limit
    last = cpu_s(pid)
    while time.monotonic() < end:
        time.sleep(still)
        now = cpu_s(pid)
        if now - last < 0.02:
            break
        last = now
    return rss_mb(pid)


def label_file(path: Path, mb: float, seed: int, solutions: bool) -> None:
    """A CSV of about ``mb`` MB: gold classes and one (or three) clusterings, one row per item."""
    names = ["p1", "p2", "p3"] if solutions else ["pred"]

    def columns(n: int, rng) -> dict:
        gold = rng.integers(0, 40, n)
        cols = {"gold": np.char.add("class", gold.astype(str))}
        for name in names:
            cols[name] = np.char.add("k", np.where(rng.random(n) < 0.7, gold, rng.integers(0, 60, n)).astype(str))
        return cols

    sample = columns(10_000, np.random.default_rng(seed))
    row_bytes = sum(np.char.str_len(c).mean() + 1 for c in sample.values())
    cols = columns(int(mb * 2**20 / row_bytes), np.random.default_rng(seed))
    n = len(cols["gold"])
    with open(path, "w") as f:
        f.write(",".join(cols) + "\n")
        for i in range(0, n, 200_000):
            block = np.column_stack([c[i:i + 200_000] for c in cols.values()])
            f.write("\n".join(",".join(r) for r in block) + "\n")


def run(sessions: int, mb: float, page: str, after: list[float], options: list[str]) -> dict:
    from playwright.sync_api import sync_playwright

    route, _, done_text = PAGES[page]
    out: dict = {"sessions": sessions, "mb": mb, "page": page, "options": options, "readings": []}

    def note(what: str, value: float) -> None:
        out["readings"].append({"when": what, "rss_mb": round(value, 1)})
        print(f"{what:<48} {value:8.1f} MB", flush=True)

    with tempfile.TemporaryDirectory(prefix="bench-upload-") as tmp:
        tmp = Path(tmp)
        files = []
        for i in range(sessions):
            files.append(tmp / f"labels-{i}.csv")
            label_file(files[-1], mb, seed=i, solutions=page == "solutions")
        out["file_mb"] = round(files[0].stat().st_size / 2**20, 2)
        with app_server(tmp / "server.log", options) as (proc, url), sync_playwright() as p:
            note("server started (warm-up done)", quiet_rss(proc.pid))
            browser = launch(p, tmp / "profile")
            try:
                first = browser.new_page()
                first.goto(f"{url}/{route}")
                first.wait_for_selector(DONE, timeout=120_000)
                note("one session open, nothing uploaded", quiet_rss(proc.pid))
                first.close()
                tabs = []  # each tab is a Streamlit session of its own (one websocket each)
                for f in files:
                    tab = browser.new_page()
                    tab.goto(f"{url}/{route}")
                    tab.wait_for_selector(DONE, timeout=120_000)
                    tab.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files(str(f))
                    tab.get_by_text(done_text).first.wait_for(timeout=180_000)
                    tabs.append(tab)
                out["uploads_ok"] = len(tabs)
                note(f"after {sessions} uploads of {out['file_mb']} MB (sessions open)", quiet_rss(proc.pid))
                for tab in tabs:
                    tab.close()
            finally:
                browser.close()
            closed = time.monotonic()
            for delay in after:
                time.sleep(max(0.0, closed + delay - time.monotonic()))
                note(f"{delay:g} s after every browser closed", quiet_rss(proc.pid, limit=5))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--mb", type=float, default=6.0)
    ap.add_argument("--page", choices=list(PAGES), default="table_lab")
    ap.add_argument("--after", default="10,150,200", help="seconds after closing to read the memory")
    ap.add_argument("--opt", action="append", default=[], help="server option section.name=value (A/B)")
    ap.add_argument("--json", help="write the summary here")
    args = ap.parse_args()
    options = []
    for o in args.opt:
        name, _, value = o.partition("=")
        options += [f"--{name}", value]
    result = run(args.sessions, args.mb, args.page, [float(x) for x in args.after.split(",") if x], options)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
