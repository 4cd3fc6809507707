"""Server CPU of the dashboard in a real browser, page by page and control by control (issue 10).

    python benchmarks/bench_dashboard.py [--pages home,compare,...] [--steps 10] [--warm 3]
                                         [--no-cold] [--no-sidebar] [--opt runner.postScriptGC=false ...]

What is measured is the **server's CPU time** (user + system of the Streamlit process, all its
threads: ``/proc/<pid>/stat`` fields 14-15 / ``SC_CLK_TCK``), not wall time: on a 2-core machine
shared with the browser and other work, wall time mostly measures the neighbours. Every figure is
read before an action and after the server has gone quiet again: the browser must report the rerun
finished (``[data-testid="stApp"][data-test-script-state="notRunning"]``, after it was seen to leave
that state) *and* the server's CPU counter must stand still for ``QUIET_S`` — Streamlit sends "script
finished" before its post-run clean-up (garbage collection), which would otherwise be missed.

Figures, per page (the app's ``PAGES``; a page file that does not exist yet is skipped), and for the
playground its moves (a box drawn on the scatter, then "Move": ``playground_moves``):

* **first load** — a fresh server whose very first request is this page (a deep link right after
  ``partition-lab app``, which imports the pages' libraries and fills the heavy pages' caches
  before it takes requests: ``dashboard/server/serve.py``, ``dashboard/server/warm.py``; the CPU of that start is
  printed beside): the page's own imports, whatever its caches still lack, the static files. One
  fresh server per page (about 10 s each); ``--no-cold`` skips them.
* **new session** — a new browser context (a new student: new session, empty HTTP cache) opening
  the page once the server has already served it; median of ``--warm`` loads.
* **per control** — every slider, segmented control, pill group, select box, multiselect, radio,
  toggle/checkbox, number input and tab bar the page shows (in its main area, in each of its tabs,
  and the sidebar's shared settings unless ``--no-sidebar``), each stepped ``--steps`` times in a
  session opened fresh on the page: sliders one arrow key at a time (turning at an end), option
  controls to the next option (round), multi-selects and pills one option off then on again,
  toggles flipped, number inputs up, tabs to the next tab. Median and p95 (nearest rank: with 10
  steps, the largest) of the CPU per step.

Targets (issue 10): per step median <= 0.10 s and p95 <= 0.25 s; first load <= 1.5 s; new session
<= 0.45 s. Each line says PASS or OVER; the exit status is 1 when anything is over.

The server is started exactly as ``partition-lab app`` starts it (``dashboard.server.launch.app_command``: the
options of ``.streamlit/config.toml``), on a free loopback port; ``--opt section.name=value`` adds or
overrides a server option for an A/B comparison. The browser is Debian's ``/usr/bin/chromium`` driven
by Playwright (never ``playwright install``). Every server and browser started is stopped on exit.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.walks.presenter import presenter_walk  # noqa: E402
from tests.e2e.e2e_support import CHROMIUM, DONE, app_server  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
QUIET_S = 0.15          # the server's CPU counter must stand still this long after a rerun
STEP_MEDIAN, STEP_P95 = 0.10, 0.25
FIRST_LOAD, NEW_SESSION = 1.5, 0.45
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]

#: The pages of dashboard/app.py: (name, url path, page file).
PAGES = [
    ("home", "", "home.py"), ("lesson", "lesson", "lesson.py"), ("table_lab", "table_lab", "table_lab.py"),
    ("compare", "compare", "compare.py"), ("solutions", "solutions", "solutions.py"),
    ("generator_lab", "generator_lab", "generator_lab.py"),
    ("property_checker", "property_checker", "property_checker.py"), ("fuzzy_lab", "fuzzy_lab", "fuzzy_lab.py"),
    ("real_data", "real_data", "real_data.py"), ("chance", "chance", "chance.py"), ("gallery", "gallery", "gallery.py"),
    ("playground", "playground", "playground.py"), ("uniform_effect", "uniform_effect", "uniform_effect.py"),
]

# Counts the times the app leaves "notRunning" (a rerun was requested or started) and "running", and
# the messages from the server: a step has caused a rerun when the first count or the messages have
# grown, and is over when the app says "notRunning" again (and the server is quiet); a page load when
# a run has ended. Installed before any page script.
COUNT_RUNS_JS = """(() => {
  window.__stLeft = 0;  // left "notRunning": a rerun was asked for or began
  window.__stRan = 0;   // left "running": a run ended
  const obs = new MutationObserver(recs => {
    for (const r of recs) {
      if (r.oldValue === 'notRunning') window.__stLeft++;
      if (r.oldValue === 'running') window.__stRan++;
    }
  });
  const start = () => obs.observe(document, {attributes: true, subtree: true, attributeOldValue: true,
                                              attributeFilter: ['data-test-script-state']});
  start();
  // Messages from the server: a rerun too quick for the page to show "running" still sends some.
  window.__stFrames = 0;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); this.addEventListener('message', () => window.__stFrames++); }
  };
})();"""

# The controls a page shows, as {kind, root, label, index}: index is the position among the
# root's elements of that test id (stable between two loads of the same page in the same state).
KINDS = {"slider": "stSlider", "buttons": "stButtonGroup", "select": "stSelectbox",
         "multiselect": "stMultiSelect", "radio": "stRadio", "toggle": "stCheckbox",
         "number": "stNumberInput", "tabs": "stTabs"}
LIST_CONTROLS_JS = """(kinds) => {
  const out = [];
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  for (const root of ['stMain', 'stSidebar']) {
    const rootEl = document.querySelector(`[data-testid="${root}"]`);
    if (!rootEl) continue;
    for (const [kind, tid] of Object.entries(kinds)) {
      const els = [...rootEl.querySelectorAll(`[data-testid="${tid}"]`)];
      els.forEach((el, index) => {
        if (!visible(el)) return;
        if (el.querySelector('[disabled], [aria-disabled="true"]') && kind !== 'tabs') return;
        let label;
        if (kind === 'tabs') {
          label = 'tabs: ' + [...el.querySelectorAll('[role="tab"]')].map(t => t.innerText.trim()).join(' | ');
        } else {
          const l = el.querySelector('[data-testid="stWidgetLabel"]');
          label = (l ? l.innerText : el.innerText).trim().split('\\n')[0];
        }
        out.push({kind, root, label, index});
      });
    }
  }
  return out;
}"""


# ---------------------------------------------------------------------------------------- server
def cpu_seconds(pid: int) -> float:
    """utime + stime of the process (all threads), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # fields 14 and 15 of the whole line


def wait_quiet(pid: int, quiet: float = QUIET_S, limit: float = 60.0) -> None:
    """Until the process's CPU counter has not moved for ``quiet`` seconds."""
    deadline = time.monotonic() + limit
    last, since = cpu_seconds(pid), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.03)
        now = cpu_seconds(pid)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return


@contextmanager
def server(log_dir: Path, options: list[str]):
    """A Streamlit server started as ``partition-lab app`` starts it (``e2e_support.app_server``),
    once its CPU counter stands still; yields (pid, base url). Says so if the server logged a
    traceback."""
    log_path = Path(tempfile.mkstemp(prefix="server-", suffix=".log", dir=log_dir)[1])
    try:
        with app_server(log_path, options) as (proc, url):
            wait_quiet(proc.pid)
            yield proc.pid, url
    finally:
        tracebacks = log_path.read_text(errors="replace").count("Traceback")
        if tracebacks:
            print(f"  !! the server logged {tracebacks} traceback(s): {log_path}", flush=True)


# ---------------------------------------------------------------------------------------- browser
class Session:
    """One browser context (a new user: new Streamlit session, empty HTTP cache) on one page."""

    def __init__(self, browser, pid: int, url: str):
        self.pid, self.url = pid, url
        self.ctx = browser.new_context(viewport={"width": 1400, "height": 2000})
        self.ctx.add_init_script(COUNT_RUNS_JS)
        self.page = self.ctx.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))

    def close(self) -> None:
        self.ctx.close()

    def open(self, path: str) -> float:
        """Load the page; the server CPU it took."""
        c0 = cpu_seconds(self.pid)
        self.page.goto(f"{self.url}/{path}", timeout=120_000)
        self.page.wait_for_function("window.__stRan > 0", timeout=120_000)
        self.page.wait_for_selector(DONE, timeout=120_000)
        wait_quiet(self.pid)
        self.settle_dom()
        self.check()
        return cpu_seconds(self.pid) - c0

    def settle_dom(self) -> None:
        """Until the browser has drawn the run: elements come from code chunks loaded on first use
        (a slider, a chart, a table), after the run has finished; until then a skeleton stands in."""
        self.page.wait_for_load_state("networkidle", timeout=60_000)
        self.page.wait_for_function("!document.querySelector('[data-testid=\"stSkeleton\"]')", timeout=60_000)
        self.page.wait_for_function(
            """() => {
                 const n = document.querySelectorAll('[data-testid]').length;
                 const t = performance.now();
                 if (window.__domN !== n) { window.__domN = n; window.__domT = t; }
                 return t - window.__domT > 300;
               }""", polling=100, timeout=60_000)

    def step(self, action) -> float | None:
        """Do ``action`` (one interaction); the server CPU until the rerun it caused is over.
        None when the action caused no rerun (the control did not change)."""
        page = self.page
        n0, f0 = page.evaluate("[window.__stLeft, window.__stFrames]")
        c0 = cpu_seconds(self.pid)
        action()
        try:
            page.wait_for_function(f"window.__stLeft > {n0} || window.__stFrames > {f0}", timeout=5_000)
        except Exception:  # Playwright's TimeoutError: nothing was rerun
            return None
        page.wait_for_selector(DONE, timeout=120_000)
        wait_quiet(self.pid)
        self.check()
        return cpu_seconds(self.pid) - c0

    def check(self) -> None:
        page = self.page
        n_exc = page.get_by_test_id("stException").count()
        if n_exc:
            self.errors.append(f"{n_exc} exception box(es)")
        if page.get_by_text("Connection error").count():
            self.errors.append("connection error")

    def controls(self) -> list[dict]:
        return self.page.evaluate(LIST_CONTROLS_JS, KINDS)

    def locate(self, c: dict, retry: bool = False):
        """The control ``c`` (kind, root, label) on the page now: the first of its kind with that label."""
        index = self.page.evaluate(
            """([c, tid]) => {
                 const els = [...document.querySelectorAll(`[data-testid="${c.root}"] [data-testid="${tid}"]`)];
                 const label = el => {
                   if (c.kind === 'tabs') return 'tabs: ' + [...el.querySelectorAll('[role="tab"]')]
                       .map(t => t.innerText.trim()).join(' | ');
                   const l = el.querySelector('[data-testid="stWidgetLabel"]');
                   return (l ? l.innerText : el.innerText).trim().split('\\n')[0];
                 };
                 return els.findIndex(el => label(el) === c.label);
               }""", [c, KINDS[c["kind"]]])
        if index < 0 and not retry:
            self.page.wait_for_timeout(1000)
            return self.locate(c, retry=True)
        if index < 0:
            raise LookupError(f"{c['kind']} {c['label']!r} not found")
        return self.page.locator(f'[data-testid="{c["root"]}"] [data-testid="{KINDS[c["kind"]]}"]').nth(index)

    def open_tab(self, tab: tuple[str, str] | None) -> None:
        """Click tab ``tab = (tab bar label, tab label)`` (not measured), if any."""
        if tab is None:
            return
        bar = self.locate({"kind": "tabs", "root": "stMain", "label": tab[0]})
        target = bar.get_by_role("tab").filter(has_text=tab[1]).first
        if target.get_attribute("aria-selected") != "true":
            n0 = self.page.evaluate("window.__stLeft")
            target.click()
            with suppress(Exception):  # a tab without a rerun (not lazy)
                self.page.wait_for_function(f"window.__stLeft > {n0}", timeout=5_000)
            self.page.wait_for_selector(DONE, timeout=120_000)
            wait_quiet(self.pid)


# ------------------------------------------------------------------------------------ the steppers
def stepper(s: Session, c: dict):
    """A function doing the next step of control ``c`` (a closure keeping its own position)."""
    page, kind = s.page, c["kind"]
    state = {"i": 0, "dir": 1}

    if kind == "slider":
        def act():
            # The focusable element of a slider thumb is a hidden range input (the last one: the
            # upper thumb of a range slider).
            thumb = s.locate(c).locator('input[type="range"]').last
            now, lo, hi = thumb.evaluate("e => [e.value, e.min, e.max].map(Number)")
            if (state["dir"] > 0 and now >= hi) or (state["dir"] < 0 and now <= lo):
                state["dir"] *= -1
            thumb.focus()
            page.keyboard.press("ArrowRight" if state["dir"] > 0 else "ArrowLeft")
        return act

    if kind in ("buttons", "radio", "tabs"):
        role = {"buttons": "button", "radio": "radio", "tabs": "tab"}[kind]

        def act():
            loc = s.locate(c)
            # A segmented control's or pills' options carry data-variant (a help icon is a button too).
            opts = loc.locator("button[data-variant]:not([disabled])") if kind == "buttons" \
                else loc.get_by_role(role)
            if kind == "radio":
                opts = loc.locator('label:has(input[type="radio"])')
            n = opts.count()
            checked = [i for i in range(n) if _is_on(opts.nth(i))]
            multi = kind == "buttons" and opts.first.get_attribute("role") == "checkbox"
            if multi or not checked:
                # Pills with several choices: one option off, then on again (then the next one).
                target = (state["i"] // 2) % n
            else:
                target = (checked[0] + 1) % n
            state["i"] += 1
            opts.nth(target).click()
        return act

    if kind == "select":
        def act():
            # By keyboard (a click on an option can land on a list still opening): open, the next
            # option (the one before from the last), Enter.
            for attempt in range(3):
                try:
                    s.locate(c).locator('input[role="combobox"]').focus()
                    page.keyboard.press("ArrowDown")
                    options = page.locator('[role="listbox"] [role="option"]')
                    options.first.wait_for(timeout=5_000)
                    break
                except Exception:  # Playwright's TimeoutError: try again
                    page.keyboard.press("Escape")
                    if attempt == 2:
                        raise
            # Opening moves the focus to the option after the chosen one; from the last it stays.
            focused = page.locator('[role="listbox"] [role="option"][data-focused="true"]')
            if focused.count() == 0 or focused.first.get_attribute("aria-selected") == "true":
                page.keyboard.press("ArrowUp")
            page.keyboard.press("Enter")
        return act

    if kind == "multiselect":
        def act():
            loc = s.locate(c)
            remove = loc.locator('button[aria-label^="Remove "]')
            if state["i"] % 2 == 0 and remove.count():  # remove the first chosen option…
                state["removed"] = remove.first.get_attribute("aria-label").removeprefix("Remove ")
                remove.first.click()
            else:  # …and choose it again (typed: the list is virtual, a far option is not drawn)
                for attempt in range(3):  # the box may be redrawn under the first click
                    try:
                        box = s.locate(c).locator('input[role="combobox"]')
                        box.click()
                        box.press_sequentially(state["removed"])
                        option = page.locator('[role="listbox"] [role="option"]:not([data-key="__select_all__"])') \
                            .filter(has_text=state["removed"]).first
                        option.wait_for(timeout=5_000)
                        option.click()
                        break
                    except Exception:  # Playwright's TimeoutError: try again
                        page.keyboard.press("Escape")
                        if attempt == 2:
                            raise
                page.keyboard.press("Escape")
            state["i"] += 1
        return act

    if kind == "toggle":
        def act():
            s.locate(c).locator("label").first.click()
        return act

    if kind == "number":
        def act():
            s.locate(c).get_by_test_id("stNumberInputStepUp").click()
        return act

    raise ValueError(kind)


def _is_on(el) -> bool:
    for attr in ("aria-checked", "aria-selected", "aria-pressed"):
        if el.get_attribute(attr) == "true":
            return True
    return el.locator('input:checked').count() > 0


# ------------------------------------------------------------------------------------- measuring
@dataclass
class PageResult:
    name: str
    cold: float | None = None
    first_here: float | None = None
    warm: list[float] = field(default_factory=list)
    controls: dict[str, list[float]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def percentile(xs: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    s = sorted(xs)
    k = max(0, min(len(s) - 1, -(-len(s) * q // 100) - 1))
    return s[int(k)]


def discover(s: Session, path: str, sidebar: bool) -> list[tuple[tuple[str, str] | None, dict]]:
    """Every control of the page, each with the tab (if any) that must be open to show it."""
    s.open(path)
    found = [(None, c) for c in s.controls() if sidebar or c["root"] == "stMain"]
    seen = {(c["root"], c["kind"], c["label"]) for _, c in found}
    for _, bar in [x for x in found if x[1]["kind"] == "tabs" and x[1]["root"] == "stMain"]:
        labels = [t.inner_text().strip() for t in s.locate(bar).get_by_role("tab").all()]
        for label in labels:
            s.open_tab((bar["label"], label))
            for c in s.controls():
                key = (c["root"], c["kind"], c["label"])
                if key not in seen and c["root"] == "stMain":
                    seen.add(key)
                    found.append(((bar["label"], label), c))
    return found


def measure_page(browser, pid: int, url: str, name: str, path: str, args) -> PageResult:
    res = PageResult(name)
    s = Session(browser, pid, url)
    try:
        res.first_here = s.open(path)
        found = discover(s, path, not args.no_sidebar) if args.steps else []  # --no-controls: loads only
        print(f"    {len(found)} controls", flush=True)
    finally:
        s.close()
    for _ in range(args.warm):
        s = Session(browser, pid, url)
        try:
            res.warm.append(s.open(path))
        finally:
            s.close()
    for tab, c in found:
        title = f"{c['kind']} “{c['label']}”" + (f" [tab {tab[1]}]" if tab and c["kind"] != "tabs" else "") \
            + (" (sidebar)" if c["root"] == "stSidebar" else "")
        s = Session(browser, pid, url)
        samples, misses = [], 0
        try:
            s.open(path)
            s.open_tab(tab if c["kind"] != "tabs" else None)
            act = stepper(s, c)
            while len(samples) < args.steps and misses < args.steps:
                cost = s.step(act)
                if cost is None:
                    misses += 1
                else:
                    samples.append(cost)
        except Exception as exc:  # report the control, go on with the others
            res.notes.append(f"{title}: stopped after {len(samples)} steps ({type(exc).__name__}: "
                             f"{str(exc).splitlines()[0][:160]})")
        finally:
            res.notes += [f"{title}: {e}" for e in dict.fromkeys(s.errors)]
            s.close()
        if misses:
            res.notes.append(f"{title}: {misses} step(s) caused no rerun (not counted)")
        if samples:
            res.controls[title] = samples
        print(f"    {title}: {len(samples)} steps, median "
              f"{statistics.median(samples) if samples else float('nan'):.3f} s",
              flush=True)
    if name == "lesson" and args.steps:
        presenter_walk(Session(browser, pid, url), path, args.steps, res.controls, res.notes)
    if name == "playground" and args.steps:
        s = Session(browser, pid, url)
        try:
            s.open(path)
            res.controls.update(playground_moves(s, args.steps))
        except Exception as exc:  # report it, go on with the other pages
            res.notes.append(f"playground moves: stopped ({type(exc).__name__}: {str(exc).splitlines()[0][:160]})")
        finally:
            res.notes += [f"playground moves: {e}" for e in dict.fromkeys(s.errors)]
            s.close()
    return res


# The playground's move: a box drawn on the scatter (another rectangle each time: a rerun with the
# selection), then the Move button (a rerun that replays the moves and evaluates the new clustering).
SCATTER_DRAG = '[data-testid="stPlotlyChart"] .js-plotly-plot .nsewdrag'


def playground_moves(s: Session, steps: int) -> dict[str, list[float]]:
    """Server CPU of ``steps`` moves on the playground: the selection, the Move click, both."""
    import random

    page, rng = s.page, random.Random(0)
    names = [f"playground: {what}" for what in ("select (a box on the scatter)", "move (the Move button)",
                                                 "one move (select + Move)")]
    out: dict[str, list[float]] = {n: [] for n in names}
    for _ in range(steps * 2):
        box = page.locator(SCATTER_DRAG).first.bounding_box()
        x0, y0 = box["x"] + rng.uniform(0.05, 0.55) * box["width"], box["y"] + rng.uniform(0.05, 0.55) * box["height"]
        x1, y1 = x0 + rng.uniform(0.2, 0.4) * box["width"], y0 + rng.uniform(0.2, 0.4) * box["height"]
        picked = s.step(lambda: (page.mouse.move(x0, y0), page.mouse.down(), page.mouse.move(x1, y1, steps=6),
                                 page.mouse.up()))  # (run at once: this iteration's box)
        button = page.locator(".st-key-pg_move button")
        if picked is None or button.count() != 1 or button.is_disabled():
            continue  # an empty box: no item, nothing to move
        moved = s.step(button.click)
        if moved is not None:
            for name, cost in zip(names, (picked, moved, picked + moved)):
                out[name].append(cost)
        if len(out[names[-1]]) >= steps:
            break
    return out


def verdict(value: float, target: float) -> str:
    return "PASS" if value <= target + 1e-9 else "OVER"


def report(results: list[PageResult]) -> bool:
    ok = True
    print("\nServer CPU (s). Targets: first load <= 1.5, new session <= 0.45, per step median <= 0.10 / p95 <= 0.25")
    for r in results:
        print(f"\n== {r.name}")
        if r.cold is not None:
            print(f"  first load after server start   {r.cold:7.3f}   (<= {FIRST_LOAD})  {verdict(r.cold, FIRST_LOAD)}")
            ok &= r.cold <= FIRST_LOAD + 1e-9
        if r.first_here is not None:
            print(f"  first load in the shared server {r.first_here:7.3f}   (after the pages before it)")
        if r.warm:
            w = statistics.median(r.warm)
            print(f"  new session, warm page          {w:7.3f}   (<= {NEW_SESSION})  {verdict(w, NEW_SESSION)}"
                  f"   [{', '.join(f'{x:.2f}' for x in r.warm)}]")
            ok &= w <= NEW_SESSION + 1e-9
        for title, xs in r.controls.items():
            med, p95 = statistics.median(xs), percentile(xs, 95)
            good = med <= STEP_MEDIAN + 1e-9 and p95 <= STEP_P95 + 1e-9
            ok &= good
            print(f"  {title[:62]:62s} n={len(xs):2d} median {med:6.3f}  p95 {p95:6.3f}  max {max(xs):6.3f}"
                  f"  {'PASS' if good else 'OVER'}")
        for note in r.notes:
            print(f"  note: {note}")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", default="", help="comma-separated page names (default: every page)")
    ap.add_argument("--steps", type=int, default=10, help="steps per control (default 10)")
    ap.add_argument("--warm", type=int, default=3, help="new-session loads per page (default 3)")
    ap.add_argument("--no-cold", action="store_true", help="skip the fresh server per page")
    ap.add_argument("--no-sidebar", action="store_true", help="skip the sidebar's shared settings")
    ap.add_argument("--no-controls", action="store_true", help="page loads only")
    ap.add_argument("--opt", action="append", default=[], metavar="SECTION.NAME=VALUE",
                    help="an extra server option (repeatable), e.g. runner.postScriptGC=false")
    ap.add_argument("--json", type=Path, help="also write the raw figures here")
    args = ap.parse_args()
    if not CHROMIUM.exists():
        print(f"needs Debian's chromium at {CHROMIUM} (apt-get install chromium)")
        return 2
    wanted = [p for p in args.pages.split(",") if p]
    unknown = set(wanted) - {p[0] for p in PAGES}
    if unknown:
        ap.error(f"unknown page(s): {', '.join(sorted(unknown))}")
    pages = [p for p in PAGES if (not wanted or p[0] in wanted)]
    from dashboard import page_scripts  # the page files, in the sidebar's section folders

    missing = [p[0] for p in pages if p[0] not in page_scripts()]
    pages = [p for p in pages if p[0] not in missing]
    options = []
    for o in args.opt:
        name, _, value = o.partition("=")
        options += [f"--{name}", value]
    if args.no_controls:
        args.steps = 0

    from playwright.sync_api import sync_playwright
    results = {name: PageResult(name) for name, _, _ in pages}
    print(f"{os.cpu_count()} CPU(s), load average {os.getloadavg()[0]:.2f}; server options {options or 'as configured'}"
          + (f"; skipped (no page file): {', '.join(missing)}" if missing else ""), flush=True)
    with tempfile.TemporaryDirectory(prefix="bench_dashboard_") as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=BROWSER_ARGS)
        try:
            if not args.no_cold:
                for name, path, _ in pages:
                    with server(Path(tmp), options) as (pid, url):
                        start = cpu_seconds(pid)
                        s = Session(browser, pid, url)
                        try:
                            results[name].cold = s.open(path)
                        finally:
                            results[name].notes += [f"first load: {e}" for e in s.errors]
                            s.close()
                    print(f"  {name}: first load after server start {results[name].cold:.3f} s "
                          f"(the server's start: {start:.2f} s)", flush=True)
            with server(Path(tmp), options) as (pid, url):
                for name, path, _ in pages:
                    print(f"  {name}:", flush=True)
                    r = measure_page(browser, pid, url, name, path, args)
                    r.cold = results[name].cold
                    r.notes = results[name].notes + r.notes
                    results[name] = r
        finally:
            browser.close()
    ok = report(list(results.values()))
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in results.values()], indent=1))
    print(f"\nload average now {os.getloadavg()[0]:.2f} (CPU time is what the server spent; "
          "wall time would include waiting for a busy machine)")
    print("ALL WITHIN TARGETS" if ok else "SOME FIGURES OVER TARGET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
