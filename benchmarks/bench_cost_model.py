"""The cost model of metrics.core.limits against measured times: how it was calibrated.

    python benchmarks/bench_cost_model.py            # every case (~2 min)
    python benchmarks/bench_cost_model.py --quick    # fewer, smaller cases
    python benchmarks/bench_cost_model.py --perm     # also scipy's perm sampler on huge margins

Each row: a guarded operation at one size, its estimate (``chance.estimate_seconds``,
``chance.sweep_seconds``, ``limits.evaluate_seconds``, ``solutions``/``properties`` guards), the
measured thread CPU time (best of three, after a warm-up run) and their ratio. The constants of
``limits.COSTS`` are set so that the ratio stays between about 1/3 and 3, erring high (an
estimate above the measurement) on the large cases, where a refusal matters.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import metrics
from metrics import chance, properties, solutions
from metrics.chance import models as rm
from metrics.core import limits


def cpu(fn, repeat: int = 3) -> float:
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.thread_time()
        fn()
        best = min(best, time.thread_time() - start)
    return best


def table(n: int, r: int, k: int) -> metrics.Contingency:
    i = np.arange(n)
    return metrics.Contingency.from_labels(i % r, (i * 7 + i // 3) % k)


def grid(n: int, r: int, k: int) -> metrics.Contingency:
    """An r × k table of n items, spread evenly (for n beyond what labels hold)."""
    cells = np.full((r, k), n // (r * k), dtype=np.int64)
    cells[0, 0] += n - int(cells.sum())
    return metrics.Contingency.from_table(cells)


def row(name: str, estimate: float, measured: float) -> None:
    print(f"{name:58s} estimate {estimate:9.4f} s  measured {measured:9.4f} s  ratio {estimate / measured:6.2f}",
          flush=True)


def null_cases(quick: bool) -> None:
    cases = [("perm", 100, 2, 2, 2000), ("perm", 10**4, 10, 10, 1000), ("perm", 10**4, 100, 100, 100),
             ("perm", 10**6, 100, 100, 100), ("perm", 10**5, 30, 30, 500), ("perm", 10**4, 600, 600, 4),
             ("num1", 10**4, 10, 10, 200), ("num1", 10**4, 10, 100, 100), ("num1", 10**3, 10, 500, 50),
             ("num", 10**4, 10, 50, 100), ("num", 10**5, 10, 10, 30), ("all1", 10**3, 5, 5, 100),
             ("all1", 10**4, 10, 10, 30), ("all", 10**4, 10, 10, 20), ("num1", 10**5, 10, 10, 30)]
    if not quick:
        cases += [("perm", 10**5, 600, 600, 4), ("perm", 10**8, 10, 10, 200), ("perm", 3 * 10**9, 10, 10, 50),
                  ("num1", 10**8, 10, 10, 30), ("all1", 10**5, 10, 10, 5)]
    for model, n, r, k, s in cases:
        t = table(n, r, k) if n <= 10**6 else grid(n, r, k)
        for keys in (None, ["ari", "v_measure"]):
            est = chance.estimate_seconds(t, keys, model, s)
            got = cpu(lambda: chance.null_distribution(t, keys, model, s, seed=1, budget=None), 1 if est > 2 else 3)
            row(f"null {model} n={n:.0e} {r}x{k} x{s} keys={'all' if keys is None else 2}", est, got)


def sweep_cases(quick: bool) -> None:
    ks = tuple(int(k) for k in np.linspace(2, 100, 10))
    for n in (1000, 10**4):
        for model in ("num1", "num", "perm"):
            for keys in (None, ["v_measure", "nmi_arithmetic", "mutual_info", "rand", "ari", "ami"]):
                s = 100 if quick else 200
                est = chance.sweep_seconds(n, ks, keys, model, 10, None, s)
                got = cpu(lambda: chance.cluster_sweep(n, ks, keys, model, 10, None, s, 0, budget=None), 1)
                row(f"sweep {model} n={n} x{s} keys={'all' if keys is None else 6}", est, got)


def evaluate_cases() -> None:
    rng = np.random.default_rng(0)
    cases = {
        "2x2": metrics.Contingency.from_table([[3, 1], [1, 3]]),
        "10x10 n=1e4": metrics.Contingency.from_labels(rng.integers(0, 10, 10**4), rng.integers(0, 10, 10**4)),
        "100x100 n=1e5": metrics.Contingency.from_labels(rng.integers(0, 100, 10**5), rng.integers(0, 100, 10**5)),
        "1000x1000 n=1e6": metrics.Contingency.from_labels(rng.integers(0, 1000, 10**6), rng.integers(0, 1000, 10**6)),
        "diagonal n=1e5": metrics.Contingency.from_labels(np.arange(10**5), np.arange(10**5)),
        "3e4x3e4 n=1e5": metrics.Contingency.from_labels(rng.integers(0, 30000, 10**5), rng.integers(0, 30000, 10**5)),
    }
    for name, t in cases.items():
        keys = [k for k, m in metrics.MEASURES.items() if m.applies_to(t)]
        est = limits.evaluate_seconds(t, keys)
        got = cpu(lambda: metrics.evaluate(metrics.Contingency.from_labels(*_labels(t)), keys), 1)
        row(f"evaluate {name} (all measures)", est + limits.COSTS["label_item"] * int(t.n),
            got)


def _labels(t):
    counts = t.values.astype(np.int64)
    return np.repeat(t.rows, counts), np.repeat(t.cols, counts)


def solutions_cases() -> None:
    rng = np.random.default_rng(1)
    n = 10**5
    gold = rng.integers(0, 20, n)
    sols = {f"s{i}": rng.integers(0, 5 + i, n) for i in range(20)}
    est = solutions.compare_seconds(gold, sols, None)
    got = cpu(lambda: metrics.compare_solutions(gold, sols, budget=None), 1)
    row("compare_solutions 20 solutions n=1e5 (all measures)", est, got)


def properties_cases() -> None:
    est = properties.rates_seconds(None, properties.RH_GRID)
    properties._grid_values.cache_clear()
    got = cpu(lambda: (properties._grid_values.cache_clear(), properties.dom_property_rates(budget=None)), 1)
    row("dom_property_rates (the paper's grid, all measures)", est, got)
    est = properties.checks_seconds(len(metrics.MEASURES), 200)
    got = cpu(lambda: properties.check_many(trials=200, budget=None), 1)
    row("check_many (every measure, 200 trials)", est, got)


def perm_sampler() -> None:
    """scipy's Patefield sampler on huge margins, 2 × 2 and 10 × 10, up to the limit."""
    rng = np.random.default_rng(0)
    for n in (10**6, 10**8, 10**9, rm.PERM_SAMPLED_ITEMS):
        for r in (2, 10):
            a = np.full(r, n // r)
            a[0] += n - a.sum()
            size = 200
            got = cpu(lambda: rm.random_tables_perm(a, a, size, rng), 1) / size
            print(f"perm sampler n={n:.3g} {r}x{r}: {got * 1e6:9.1f} us a table", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--perm", action="store_true")
    args = ap.parse_args()
    null_cases(args.quick)
    sweep_cases(args.quick)
    evaluate_cases()
    solutions_cases()
    properties_cases()
    if args.perm:
        perm_sampler()
    print(f"limits.COSTS: {', '.join(f'{k}={v:g}' for k, v in limits.COSTS.items())}")


if __name__ == "__main__":
    main()
