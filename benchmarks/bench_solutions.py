"""Speed of `metrics.compare_solutions` against a per-solution loop, measured in the same run, and of
`metrics.paired_bootstrap`.

    python benchmarks/bench_solutions.py            # 20 solutions x 10^6 labels (one to two minutes)
    python benchmarks/bench_solutions.py --quick    # 10^5 labels
    python benchmarks/bench_solutions.py --part bootstrap   # the paired bootstrap only (a few minutes)

The issue's target: 20 solutions x 10^6 labels, every measure but AMI, within 5 s. The
loop is what a user would write without the API, ``metrics.evaluate(Contingency.from_labels(
gold, s), keys)`` per solution, which factorizes gold again for every solution. Each case prints
both times and their ratio (compare_solutions / loop; below 1 is faster), best of a few repeats,
with the CPU seconds of those runs (on a busy machine wall-clock includes waiting for a core).

Cases: gold as 1,000 text classes (each factorization costs), solutions from 2 to 2·10^5
clusters (the largest make the matching measures work); the same with compact integer gold;
and the solution-vs-solution matrix (210 tables) for ARI and NMI.

The paired bootstrap (issue 27's target: 1,000 resamples of 10^5 items, every measure, "within
seconds"): each row gives the seconds of the whole bootstrap (drawing the resamples, counting both
tables of each, scoring every measure of both), the seconds without the four AMI variants (whose
exact E[I] is computed for each resample's own margins and costs most), and the cost model's
estimate (``metrics.bootstrap.bootstrap_seconds``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import metrics

CPU_SECONDS: list[float] = []


def best_of(fn, repeat: int) -> float:
    """Best wall-clock seconds of ``repeat`` runs; the CPU seconds of that run go to CPU_SECONDS
    (on a shared machine the difference is time spent waiting for a core)."""
    best, cpu = float("inf"), float("inf")
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall = time.perf_counter() - start
        if wall < best:
            best, cpu = wall, time.process_time() - start_cpu
    CPU_SECONDS.append(cpu)
    return best


def make_solutions(rng, gold: np.ndarray, n_classes: int, count: int) -> dict[str, np.ndarray]:
    """``count`` clusterings of gold with k from 2 to 200n/10^3 clusters (log-spaced): coarser
    ones merge classes, finer ones split them, and each has 20% of items moved at random."""
    n = gold.size
    out = {}
    for k in np.geomspace(2, max(n // 5, 3), count).astype(int):
        k = int(k)
        base = gold * k // n_classes if k <= n_classes else gold * (k // n_classes) + rng.integers(0, k // n_classes, n)
        noisy = rng.random(n) < 0.2
        out[f"k={k}"] = np.where(noisy, rng.integers(0, k, n), base)
    return out


def loop(gold, solutions, keys):
    return [metrics.evaluate(metrics.Contingency.from_labels(gold, s), keys) for s in solutions.values()]


def row(name, loop_s, ours_s):
    print(f"{name:<72} {loop_s:9.3f} {ours_s:9.3f} {ours_s / loop_s:8.3f}"
          f"   (CPU s: loop {CPU_SECONDS[-2]:.3f}, ours {CPU_SECONDS[-1]:.3f})")


def bootstrap_case(n: int, classes: int, k_a: int, k_b: int, seed: int = 0):
    """Gold classes and two solutions: A keeps 80% of items in their class's cluster, B 70%."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, classes, n)
    a = np.where(rng.random(n) < 0.8, gold % k_a, rng.integers(0, k_a, n))
    b = np.where(rng.random(n) < 0.7, gold % k_b, rng.integers(0, k_b, n))
    return gold, a, b


def bench_bootstrap(quick: bool) -> None:
    resamples = 200 if quick else 1000
    cases = [
        ("n = 10^5, 10 classes, 10 and 12 clusters (the issue's case)", bootstrap_case(10**5, 10, 10, 12)),
        ("n = 10^5, 50 classes, 40 and 60 clusters", bootstrap_case(10**5, 50, 40, 60)),
        ("n = 10^4, 10 classes, 10 and 12 clusters", bootstrap_case(10**4, 10, 10, 12)),
        ("n = 10^5, 1,000 classes, 800 and 1,200 clusters", bootstrap_case(10**5, 1000, 800, 1200)),
    ]
    print(f"\npaired_bootstrap: {resamples:,} resamples, {len(metrics.MEASURES)} measures")
    print(f"{'case':<72} {'all s':>9} {'no AMI s':>9} {'estimate':>9}")
    for name, (gold, a, b) in cases:
        tables = metrics.Contingency.from_labels(gold, a), metrics.Contingency.from_labels(gold, b)
        keys = [k for k, m in metrics.MEASURES.items() if all(m.applies_to(t) for t in tables)]
        # One sparse table a resample (the 1,000-class case): a few resamples, scaled up.
        runs = 50 if tables[0].n_classes * tables[0].n_clusters > 1 << 18 else resamples

        def run(ks, runs=runs, gold=gold, a=a, b=b):
            metrics.paired_bootstrap(gold, a, b, ks, n_resamples=runs, seed=0, budget=None)

        every = best_of(lambda: run(keys), 1) * resamples / runs
        no_ami = best_of(lambda: run([k for k in keys if not k.startswith("ami")]), 1) * resamples / runs
        estimate = metrics.bootstrap.bootstrap_seconds(gold, a, b, keys, resamples)
        note = f" (x{resamples // runs} of {runs})" if runs != resamples else ""
        print(f"{name + note:<72} {every:9.2f} {no_ami:9.2f} {estimate:9.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--part", choices=("all", "solutions", "bootstrap"), default="all")
    args = parser.parse_args()
    if args.part != "solutions":
        bench_bootstrap(args.quick)
    if args.part == "bootstrap":
        return
    rng = np.random.default_rng(0)
    n = 10**5 if args.quick else 10**6
    n_classes, count, repeat = 1000, 20, 3
    # "All but AMI": every measure but the AMI family (ami, ami_min, …): their exact expected
    # mutual information is timed on its own in bench_metrics.py.
    keys = [k for k in metrics.MEASURES if k != "ami" and not k.startswith("ami_")]
    gold_int = rng.integers(0, n_classes, n)
    gold_text = np.char.add("class-", gold_int.astype(str)).astype(object)
    solutions = make_solutions(rng, gold_int, n_classes, count)

    print(f"{'case':<72} {'loop s':>9} {'ours s':>9} {'ratio':>8}")
    for label, gold in (("text", gold_text), ("integer", gold_int)):
        ours_frame = metrics.compare_solutions(gold, solutions, keys)
        looped = loop(gold, solutions, keys)
        # The comparison is only fair if both give the same numbers.
        for name, values in zip(solutions, looped):
            got = ours_frame.loc[name, list(values)].to_numpy()
            assert np.allclose(got, list(values.values()), rtol=1e-12, atol=0, equal_nan=True), name
        loop_s = best_of(lambda g=gold: loop(g, solutions, keys), repeat)
        ours_s = best_of(lambda g=gold: metrics.compare_solutions(g, solutions, keys), repeat)
        row(f"{count} solutions x {n:.0e} labels, {label} gold: all but AMI", loop_s, ours_s)

    for key in ("ari", "nmi_arithmetic"):
        ours_s = best_of(lambda k=key: metrics.solution_matrix(solutions, k), 1)
        print(f"{f'solution_matrix({key}), {count} solutions x {n:.0e} labels (210 tables)':<72} "
              f"{'':>9} {ours_s:9.3f}")
    frame = metrics.compare_solutions(gold_int, solutions, keys)
    ours_s = best_of(lambda: (metrics.rank_agreement(frame), metrics.changes_of_mind(frame)), repeat)
    print(f"{f'rank_agreement + changes_of_mind, {count} x {len(keys)} frame':<72} {'':>9} {ours_s:9.3f}")


if __name__ == "__main__":
    main()
