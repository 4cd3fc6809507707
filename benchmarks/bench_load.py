"""Load test: a class of concurrent real-browser sessions against one Streamlit server (issue 10).

    python benchmarks/bench_load.py [--sessions 30] [--interactions 10] [--budget 1500]

Starts one server exactly as ``partition-lab app`` does (``bench_dashboard.server``: the options of
``.streamlit/config.toml``) on a free port of 127.0.0.1, lets one browser open the Compare page (the
teacher, first: the server's cold caches), then opens ``--sessions`` browser contexts in one Debian
chromium (``/usr/bin/chromium`` driven by Playwright's async API; never ``playwright install``) that
all open the Compare page at once and then each move the morph's noise slider ``--interactions``
times with the arrow keys (up, down, up, …).

Figures:

* **server CPU** (user + system of the server process, ``/proc/<pid>/stat``) of the wave of page
  loads and of the interaction phase, each read once the server has gone quiet: per page load and
  per interaction. This is what a class costs whatever the machine; wall times on this 2-core
  machine, which also runs the 30 browsers, are mostly the browsers' rendering.
* **capacity** these imply for one server process: a Streamlit server runs the scripts of
  concurrent sessions in threads of one process, so (the GIL) about one core's worth of script
  work; ``1 / CPU per interaction`` interactions per second, and the time the wave of ``n``
  simultaneous page loads takes to be served, ``n × CPU per load``.
* **latency**: wall time from a key press until the morph chart's dashed line (the slider's
  position) shows the new value *and* the app reports its script as finished
  (``[data-testid="stApp"][data-test-script-state="notRunning"]``); waiting for the new value, not
  only for "notRunning", matters: right after the key press the app may still say "notRunning".

Errors counted: exception boxes on the page (``stException``) after any interaction, JavaScript
page errors, server tracebacks and timeouts (an interaction that does not finish within
``--timeout`` seconds). The issue asks for 0. The whole run is bounded by ``--budget`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The browser tests' constants (chromium's path, the rerun-finished selector, the morph marker).
sys.path.insert(0, str(ROOT))
from bench_dashboard import BROWSER_ARGS, cpu_seconds, percentile, server, wait_quiet  # noqa: E402 (after the path)

from tests.e2e.e2e_support import CHROMIUM, DONE, MARKER_JS  # noqa: E402 (after the path)

START_NOISE = 3  # the Compare page's default noise


async def session(browser, url: str, idx: int, interactions: int, timeout_ms: float, out: dict,
                  opened: asyncio.Barrier | None = None) -> None:
    """One user: open Compare, wait for the others (``opened``), then move the noise slider
    ``interactions`` times."""
    ctx = await browser.new_context(viewport={"width": 1280, "height": 1600})
    page = await ctx.new_page()
    page.on("pageerror", lambda e: out["page_errors"].append(f"session {idx}: {e}"))
    try:
        t0 = time.perf_counter()
        await page.goto(f"{url}/compare", timeout=timeout_ms)
        await page.wait_for_selector(DONE, timeout=timeout_ms)
        await page.wait_for_function(f"({MARKER_JS})() === {START_NOISE}", timeout=timeout_ms)
        out["first_render"].append(time.perf_counter() - t0)
        if opened is not None:
            await opened.wait()
            if idx == 0:  # the wave of page loads is over: the interactions' CPU starts here
                out["cpu_marks"].append(cpu_seconds(out["pid"]))
        slider = page.get_by_test_id("stSlider").filter(has_text="Noise of solution R").get_by_role("slider")
        value = START_NOISE
        for i in range(interactions):
            key, step = ("ArrowRight", 1) if i % 2 == 0 else ("ArrowLeft", -1)
            await slider.focus()
            t = time.perf_counter()
            try:
                await slider.press(key)
                await page.wait_for_function(f"({MARKER_JS})() === {value + step}", timeout=timeout_ms)
                await page.wait_for_selector(DONE, timeout=timeout_ms)
            except Exception as exc:  # a timeout is a counted error, not a crash
                out["timeouts"].append(f"session {idx}, interaction {i}: {type(exc).__name__}")
                break  # the slider's value is now unknown; stop this session
            out["latency"].append(time.perf_counter() - t)
            value += step
            n_exc = await page.get_by_test_id("stException").count()
            if n_exc:
                out["exceptions"].append(f"session {idx}, interaction {i}: {n_exc} exception box(es)")
    except Exception as exc:  # the first render failed or timed out
        out["timeouts"].append(f"session {idx}, opening the page: {type(exc).__name__}: {str(exc)[:200]}")
        if opened is not None:
            await opened.abort()
    finally:
        await ctx.close()


async def run(url: str, pid: int, sessions: int, interactions: int, timeout_s: float, budget_s: float) -> dict:
    from playwright.async_api import async_playwright

    out = {"latency": [], "first_render": [], "timeouts": [], "exceptions": [], "page_errors": [],
           "pid": pid, "cpu_marks": []}
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=BROWSER_ARGS)
        try:
            # The teacher opens the page first: the server's caches are warm when the class follows.
            teacher = {**out, "latency": [], "first_render": [], "cpu_marks": []}
            c0 = cpu_seconds(pid)
            await session(browser, url, -1, 0, timeout_s * 1000, teacher)
            await asyncio.to_thread(wait_quiet, pid)
            out["teacher_cpu"] = cpu_seconds(pid) - c0
            out["timeouts"] += teacher["timeouts"]
            out["cpu_marks"].append(cpu_seconds(pid))
            opened = asyncio.Barrier(sessions)
            tasks = [session(browser, url, i, interactions, timeout_s * 1000, out, opened) for i in range(sessions)]
            try:
                await asyncio.wait_for(asyncio.gather(*tasks), timeout=budget_s)
            except TimeoutError:
                out["timeouts"].append(f"the whole run exceeded its budget of {budget_s:.0f} s")
            await asyncio.to_thread(wait_quiet, pid)
            out["cpu_marks"].append(cpu_seconds(pid))
        finally:
            await browser.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=30)
    ap.add_argument("--interactions", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds allowed for one interaction")
    ap.add_argument("--budget", type=float, default=1500.0, help="seconds allowed for the whole run")
    args = ap.parse_args()
    if not (1 <= args.sessions <= 40 and 1 <= args.interactions <= 100):
        ap.error("keep it bounded: 1-40 sessions, 1-100 interactions")

    with tempfile.TemporaryDirectory(prefix="bench_load_") as tmp, server(Path(tmp), []) as (pid, url):
        t0 = time.perf_counter()
        out = asyncio.run(run(url, pid, args.sessions, args.interactions, args.timeout, args.budget))
        wall = time.perf_counter() - t0
        server_errors = [ln for log in Path(tmp).glob("server-*.log")
                         for ln in log.read_text(errors="replace").splitlines() if "Traceback" in ln]

    lat = [x * 1000 for x in out["latency"]]
    expected = args.sessions * args.interactions
    errors = len(out["timeouts"]) + len(out["exceptions"]) + len(out["page_errors"]) + len(server_errors)
    print(f"server {url} (127.0.0.1 only, started as `partition-lab app`), {args.sessions} concurrent browser "
          f"sessions × {args.interactions} slider moves on Compare; {os.cpu_count()} CPU(s); wall {wall:.1f} s")
    print(f"the teacher's first load (cold caches): server CPU {out['teacher_cpu']:.2f} s")
    marks = out["cpu_marks"]
    if len(marks) == 3 and out["first_render"]:
        loads, moves = marks[1] - marks[0], marks[2] - marks[1]
        n_open = len(out["first_render"])
        per_load = loads / n_open
        print(f"the class opens the page at once: server CPU {loads:.2f} s for {n_open} loads = {per_load:.3f} s "
              f"per load; all served after {loads:.1f} s of one core's work")
        fr = [x * 1000 for x in out["first_render"]]
        print(f"  wall time to a rendered page (30 browsers rendering on this machine too): median "
              f"{statistics.median(fr):.0f} ms, max {max(fr):.0f} ms")
        if lat:
            per_move = moves / len(lat)
            print(f"interactions: server CPU {moves:.2f} s for {len(lat)} = {per_move:.3f} s per interaction")
            print(f"capacity of one server process (one core of script work): {1 / per_move:.0f} interactions/s; "
                  f"{args.sessions} students moving a slider every 5 s use "
                  f"{args.sessions / 5 * per_move:.0%} of it, every 2 s {args.sessions / 2 * per_move:.0%}")
    print(f"interactions completed: {len(lat)} of {expected}")
    if lat:
        print(f"rerun latency (key press → new chart and script finished): p50 {percentile(lat, 50):.0f} ms, "
              f"p95 {percentile(lat, 95):.0f} ms, max {max(lat):.0f} ms, mean {statistics.fmean(lat):.0f} ms")
    print(f"errors: {errors} (timeouts {len(out['timeouts'])}, exception boxes {len(out['exceptions'])}, "
          f"page errors {len(out['page_errors'])}, server tracebacks {len(server_errors)})")
    for line in (out["timeouts"] + out["exceptions"] + out["page_errors"] + server_errors)[:20]:
        print("  -", line)
    return 0 if errors == 0 and len(lat) == expected else 1


if __name__ == "__main__":
    sys.exit(main())
