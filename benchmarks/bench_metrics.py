"""Speed of `metrics` against scikit-learn, measured in the same run.

    python benchmarks/bench_metrics.py            # the issue's cases (about a minute)
    python benchmarks/bench_metrics.py --quick    # smaller inputs
    python benchmarks/bench_metrics.py --sklearn-ami-1e6   # also sklearn's AMI at 10^6 labels (~1 min more)

Each case prints seconds for scikit-learn, seconds for Partition Lab and their
ratio (ours / sklearn; below 1 is faster). Timings are the best of a few repeats.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn import metrics as skm

import metrics


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def all_but_ami(a, b):
    t = metrics.Contingency.from_labels(a, b)
    keys = [k for k in metrics.MEASURES if k != "ami"]
    return metrics.evaluate(t, keys)


def ami_only(a, b):
    return metrics.evaluate(metrics.Contingency.from_labels(a, b), ["ami"])


def row(name, sk, ours):
    print(f"{name:<66} {sk:9.3f} {ours:9.3f} {ours / sk:8.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--sklearn-ami-1e6", action="store_true")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    n = 10**6 if args.quick else 10**7
    repeat = 3
    print(f"{'case':<66} {'sklearn s':>9} {'ours s':>9} {'ratio':>8}")
    for k in (10, 1000):
        a = rng.integers(0, k, n)
        b = rng.integers(0, k, n)
        sk = best_of(lambda: skm.homogeneity_completeness_v_measure(a, b), 2)
        ours = best_of(lambda: all_but_ami(a, b), repeat)
        row(f"{n:.0e} int labels {k}x{k}: sklearn h/c/V vs ALL measures but AMI", sk, ours)
    # Labels that are not compact integers go through a hash factorization.
    k = 1000
    a = np.char.add("c", rng.integers(0, k, n // 10).astype(str)).astype(object)
    b = np.char.add("k", rng.integers(0, k, n // 10).astype(str)).astype(object)
    sk = best_of(lambda: skm.homogeneity_completeness_v_measure(a, b), 2)
    ours = best_of(lambda: all_but_ami(a, b), repeat)
    row(f"{n // 10:.0e} string labels {k}x{k}: same comparison", sk, ours)
    # AMI: the expected mutual information dominates.
    cases = [(10**5, 100), (10**5, 1000)]
    if args.sklearn_ami_1e6:
        cases.append((10**6, 1000))
    for m, k in cases:
        a = rng.integers(0, k, m)
        b = rng.integers(0, k, m)
        sk = best_of(lambda: skm.adjusted_mutual_info_score(a, b), 1)
        ours = best_of(lambda: ami_only(a, b), repeat)
        row(f"{m:.0e} labels {k}x{k}: AMI", sk, ours)
    a = rng.integers(0, 1000, 10**6)
    b = rng.integers(0, 1000, 10**6)
    ours = best_of(lambda: ami_only(a, b), repeat)
    print(f"{'1e+06 labels 1000x1000: AMI, ours only (sklearn ~65 s)':<66} {'':>9} {ours:9.3f}")
    # Batches of small tables (the property grids and sweeps).
    tables = rng.integers(0, 20, (25_000, 11, 17)).astype(float)
    keys = [k for k in metrics.MEASURES if k != "ami"]
    ours = best_of(lambda: metrics.evaluate_batch(tables, keys), 2)
    print(f"{'25,000 tables 11x17, all measures but AMI (evaluate_batch)':<66} {'':>9} {ours:9.3f}")


if __name__ == "__main__":
    main()
