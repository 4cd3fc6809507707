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
tables of each, scoring every measure of both) with the exact E[I] of the four AMI variants computed
three ways, in the same run: "log-gamma" is the formula used before (each hypergeometric term from
four log-gamma functions, as scikit-learn does), "numpy" the walk of metrics.measures.expected
without numba (no compiled kernel at all), "compiled" the walk with numba (the default where the
``fast`` extra is installed); then the seconds without the AMI variants and the cost model's
estimate (``metrics.bootstrap.bootstrap_seconds``); below each row, the CPU seconds of the same
runs (wall-clock on a busy machine includes waiting for a core). The three E[I] give the same
AMI intervals to 10^-9 (checked). The formula before and the numpy walk run on the issue's case only.
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


def log_gamma_pair_sums(n: int, a, b) -> np.ndarray:
    """Each (a, b) pair's share of E[I] by the formula used before the walk: every term
    (k/n) log(n k/(a b)) P(k) with log P(k) from four log-gamma functions, over the same window."""
    from scipy.special import gammaln

    from metrics.measures.expected import _window

    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    out = np.zeros(a.size)
    keep = np.flatnonzero((a > 0) & (b > 0))
    a, b = a[keep], b[keep]
    lo, hi = _window(a, b, n)
    length = np.maximum(hi - lo + 1, 0)
    sums, ends, start = np.zeros(a.size), np.cumsum(length), 0
    while start < a.size:   # chunks of about 2^22 terms, as the formula did
        stop = max(start + 1, int(np.searchsorted(ends, (ends[start - 1] if start else 0) + (1 << 22), "right")))
        seg = slice(start, stop)
        pair = np.repeat(np.arange(stop - start), length[seg])
        offsets = np.cumsum(length[seg]) - length[seg]
        k = (lo[seg][pair] + np.arange(pair.size) - offsets[pair]).astype(np.float64)
        aa, bb = a[seg][pair], b[seg][pair]
        const = gammaln(aa + 1) + gammaln(bb + 1) + gammaln(n - aa + 1) + gammaln(n - bb + 1) - gammaln(n + 1)
        log_p = const - gammaln(k + 1) - gammaln(aa - k + 1) - gammaln(bb - k + 1) - gammaln(n - aa - bb + k + 1)
        term = (k / n) * (np.log(n) + np.log(k) - np.log(aa) - np.log(bb)) * np.exp(log_p)
        sums[seg] = np.bincount(pair, weights=term, minlength=stop - start)
        start = stop
    out[keep] = sums
    return out


def emi_variant(name: str):
    """A context in which the bootstrap's E[I] is computed by ``name``: "log-gamma", "numpy" or
    "compiled"."""
    import contextlib

    from metrics.core.kernels import counting
    from metrics.measures import expected

    @contextlib.contextmanager
    def variant():
        real, forced = expected.pair_sums, counting.FORCE_KERNEL
        if name == "log-gamma":
            expected.pair_sums = log_gamma_pair_sums
        # "compiled" forces numba, so that the warm-up loads it (a fresh process loads it only for
        # work that repays it) and no timed run pays for the import.
        counting.FORCE_KERNEL = {"numpy": "numpy", "compiled": "numba"}.get(name)
        try:
            yield
        finally:
            expected.pair_sums, counting.FORCE_KERNEL = real, forced

    return variant()


def bench_bootstrap(quick: bool) -> None:
    resamples = 200 if quick else 1000
    cases = [
        ("n = 10^5, 10 classes, 10 and 12 clusters (the issue's case)", bootstrap_case(10**5, 10, 10, 12)),
        ("n = 10^5, 50 classes, 40 and 60 clusters", bootstrap_case(10**5, 50, 40, 60)),
        ("n = 10^4, 10 classes, 10 and 12 clusters", bootstrap_case(10**4, 10, 10, 12)),
        ("n = 10^5, 1,000 classes, 800 and 1,200 clusters", bootstrap_case(10**5, 1000, 800, 1200)),
    ]
    variants = ("log-gamma", "numpy", "compiled")
    print(f"\npaired_bootstrap: {resamples:,} resamples, {len(metrics.MEASURES)} measures; seconds with E[I] by")
    print(f"{'case':<64} {'log-gamma':>9} {'numpy':>9} {'compiled':>9} {'no AMI':>9} {'estimate':>9}")
    for name, (gold, a, b) in cases:
        tables = metrics.Contingency.from_labels(gold, a), metrics.Contingency.from_labels(gold, b)
        keys = [k for k, m in metrics.MEASURES.items() if all(m.applies_to(t) for t in tables)]
        # One sparse table a resample (the 1,000-class case): a few resamples, scaled up.
        runs = 50 if tables[0].n_classes * tables[0].n_clusters > 1 << 18 else resamples

        def run(ks, runs=runs, gold=gold, a=a, b=b):
            return metrics.paired_bootstrap(gold, a, b, ks, n_resamples=runs, seed=0, budget=None)

        with emi_variant("compiled"):
            run(["ami"], runs=2)   # numba compiles (or loads its cache) outside the timing
        seconds, frames = {}, {}
        # The formula before and the numpy walk on the case only (minutes on the others).
        for variant in variants if name == cases[0][0] else variants[-1:]:
            with emi_variant(variant):
                seconds[variant] = best_of(lambda: frames.__setitem__(variant, run(keys)), 1) * resamples / runs
        cpu = dict(zip(seconds, (c * resamples / runs for c in CPU_SECONDS[-len(seconds):])))
        ami = [k for k in keys if k.startswith("ami")]
        for variant in set(frames) - {"compiled"}:   # the same resamples: the same AMI, whichever E[I]
            np.testing.assert_allclose(frames[variant].loc[ami, ["low", "high"]],
                                       frames["compiled"].loc[ami, ["low", "high"]], rtol=1e-9)
        no_ami = best_of(lambda: run([k for k in keys if k not in ami]), 1) * resamples / runs
        cpu["no AMI"], seconds["no AMI"] = CPU_SECONDS[-1] * resamples / runs, no_ami
        estimate = metrics.bootstrap.bootstrap_seconds(gold, a, b, keys, resamples)
        note = f" (x{resamples // runs} of {runs})" if runs != resamples else ""
        print(f"{name + note:<64} " + " ".join(f"{seconds[v]:9.2f}" if v in seconds else f"{'-':>9}"
                                               for v in (*variants, "no AMI")) + f" {estimate:9.2f}")
        print(f"{'  CPU seconds of the same runs':<64} " + " ".join(f"{cpu[v]:9.2f}" if v in cpu else f"{'-':>9}"
                                                                   for v in (*variants, "no AMI")))


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
