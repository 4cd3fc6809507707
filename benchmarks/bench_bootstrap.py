"""Speed of metrics.paired_bootstrap: the issue's case, 1,000 resamples of 10^5 items, every measure.

    python benchmarks/bench_bootstrap.py            # the issue's case and a few others (~1 min)
    python benchmarks/bench_bootstrap.py --quick    # 200 resamples

Each row: the case, the seconds of the whole bootstrap (drawing the resamples, counting both
tables of each, scoring every measure of both), the seconds without the four AMI variants (whose
exact E[I] is computed for each resample's own margins and costs most), and the cost model's
estimate (metrics.bootstrap.bootstrap_seconds). Timings are the best of a few repeats.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import metrics
from metrics import bootstrap


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def case(n: int, classes: int, k_a: int, k_b: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, classes, n)
    a = np.where(rng.random(n) < 0.8, gold % k_a, rng.integers(0, k_a, n))
    b = np.where(rng.random(n) < 0.7, gold % k_b, rng.integers(0, k_b, n))
    return gold, a, b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 resamples instead of 1,000")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    resamples = 200 if args.quick else 1000
    cases = [
        ("n = 10^5, 10 classes, 10 and 12 clusters (the issue's case)", case(10**5, 10, 10, 12)),
        ("n = 10^5, 50 classes, 40 and 60 clusters", case(10**5, 50, 40, 60)),
        ("n = 10^4, 10 classes, 10 and 12 clusters", case(10**4, 10, 10, 12)),
        ("n = 10^5, 1,000 classes, 800 and 1,200 clusters", case(10**5, 1000, 800, 1200)),
    ]
    every = list(metrics.MEASURES)
    no_ami = [k for k in every if not k.startswith("ami")]
    print(f"{resamples:,} resamples, {len(every)} measures ({len(no_ami)} without AMI)")
    print(f"{'case':<60} {'all (s)':>9} {'no AMI (s)':>11} {'estimate (s)':>13}")
    for name, (gold, a, b) in cases:
        keys = [m for m in every if metrics.MEASURES[m].applies_to(metrics.Contingency.from_labels(gold, a))
                and metrics.MEASURES[m].applies_to(metrics.Contingency.from_labels(gold, b))]
        small = name.startswith("n = 10^5, 1,000")
        runs = 50 if small else resamples   # one sparse table a resample: a few resamples, scaled
        scale = resamples / runs

        def run(ks, runs=runs, gold=gold, a=a, b=b):
            bootstrap.paired_bootstrap(gold, a, b, ks, n_resamples=runs, seed=0, budget=None)

        everything = best_of(lambda: run(keys), args.repeat) * scale
        without = best_of(lambda: run([k for k in keys if not k.startswith("ami")]), args.repeat) * scale
        estimate = bootstrap.bootstrap_seconds(gold, a, b, keys, resamples)
        note = f" (×{scale:g} of {runs})" if scale != 1 else ""
        print(f"{name + note:<60} {everything:9.2f} {without:11.2f} {estimate:13.2f}")


if __name__ == "__main__":
    main()
