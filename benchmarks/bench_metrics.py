"""Speed of `metrics` against scikit-learn and against the memory floor, in the same run.

    python benchmarks/bench_metrics.py                 # 10^7 labels, strings, AMI (a few minutes)
    python benchmarks/bench_metrics.py --n 1e8 --only-labels   # the 10^8 cases (~4 GB of memory)
    python benchmarks/bench_metrics.py --quick         # 10^6 labels
    python benchmarks/bench_metrics.py --kernel numpy  # without the compiled kernels (no numba)
    python benchmarks/bench_metrics.py --sklearn-ami-1e6   # also sklearn's AMI at 10^6 labels (~1 min more)

Label cases print, side by side:

* ``floor``: the time to read both label arrays once — the faster of a sum and a
  bitwise-or reduction over each (numpy, one thread). Nothing that looks at every
  label can take less.
* ``ours``: ``Contingency.from_labels`` plus every measure but the AMI variants
  (``metrics.evaluate`` on a fresh table, so the first evaluation's costs — the
  assignment for ε, ε_n — are in), and ``ours/floor``.
* ``sklearn``: scikit-learn's ``homogeneity_completeness_v_measure`` alone (three of
  our 40-odd measures), and ``ours/sklearn``.

Timings are the best of a few repeats (scikit-learn: one run at 10^8), in wall-clock
seconds; ``--cpu-time`` counts this process's CPU seconds instead, which a busy shared
machine disturbs far less (everything timed on the host is single-threaded; the GPU section
always uses wall-clock time). The compiled kernels are loaded (or compiled) first, that call timed.

When a GPU is present, a GPU section times the same labels on the device through PyTorch
(CUDA) and CuPy, each where installed: ours (counted and summarised on the device, measures on
the host) for V alone and for every measure but AMI, the device's raw count of the table and
its read floor, and torchmetrics' V and ARI where installed, their values beside ours.
``--gpu-only`` adds 10^9 int32 labels drawn on the device and 10^7 labels of 10^5 x 10^5
classes and clusters (a sparse table; see :func:`gpu_case`).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import time
import warnings

import numpy as np
from sklearn import metrics as skm

import metrics
from metrics.core.kernels import counting as _counting

AMI_KEYS = {k for k in metrics.MEASURES if k.startswith("ami")}
KEYS = [k for k in metrics.MEASURES if k not in AMI_KEYS]
CLOCK = time.perf_counter  # --cpu-time: this process's CPU time


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = CLOCK()
        fn()
        best = min(best, CLOCK() - start)
    return best


def all_but_ami(a, b):
    return metrics.evaluate(metrics.Contingency.from_labels(a, b), KEYS)


def ami_only(a, b):
    return metrics.evaluate(metrics.Contingency.from_labels(a, b), ["ami"])


def read_floor(a, b, repeat: int) -> float:
    """Reading both arrays once: the faster of two one-pass reductions."""
    by_sum = best_of(lambda: (a.sum(), b.sum()), repeat)
    if a.dtype.kind not in "iu":
        return by_sum
    by_or = best_of(lambda: (np.bitwise_or.reduce(a), np.bitwise_or.reduce(b)), repeat)
    return min(by_sum, by_or)


HEADER = (f"{'case':<44} {'floor s':>8} {'ours s':>8} {'ours/floor':>10} {'sklearn s':>10} "
          f"{'ours/sklearn':>12}")


def label_row(name, floor, ours, sk):
    sk_cols = f"{sk:10.3f} {ours / sk:12.4f}" if sk is not None else f"{'':>10} {'':>12}"
    floor_cols = f"{floor:8.4f}" if floor is not None else f"{'':>8}"
    ratio = f"{ours / floor:10.2f}" if floor is not None else f"{'':>10}"
    print(f"{name:<44} {floor_cols} {ours:8.4f} {ratio} {sk_cols}", flush=True)


def label_case(rng, n: int, dtype, k: int, repeat: int, sklearn_repeat: int, skip_sklearn: bool) -> None:
    # One function per case, so that its arrays are freed before the next case's (10^8).
    a = rng.integers(0, k, n).astype(dtype, copy=False)
    b = rng.integers(0, k, n).astype(dtype, copy=False)
    floor = read_floor(a, b, repeat)
    ours = best_of(lambda: all_but_ami(a, b), repeat)
    sk = None if skip_sklearn else best_of(lambda: skm.homogeneity_completeness_v_measure(a, b), sklearn_repeat)
    label_row(f"{n:.0e} {np.dtype(dtype).name} labels {k}x{k}", floor, ours, sk)


def label_cases(n: int, repeat: int, sklearn_repeat: int, skip_sklearn: bool) -> None:
    rng = np.random.default_rng(0)
    for dtype in (np.int64, np.int32):
        for k in (10, 1000):
            label_case(rng, n, dtype, k, repeat, sklearn_repeat, skip_sklearn)


def string_case(n: int, repeat: int) -> None:
    # Labels that are not compact integers go through a hash factorization.
    rng = np.random.default_rng(1)
    k = 1000
    a = np.char.add("c", rng.integers(0, k, n).astype(str)).astype(object)
    b = np.char.add("k", rng.integers(0, k, n).astype(str)).astype(object)
    sk = best_of(lambda: skm.homogeneity_completeness_v_measure(a, b), 2)
    ours = best_of(lambda: all_but_ami(a, b), repeat)
    label_row(f"{n:.0e} string labels {k}x{k}", None, ours, sk)


def ami_cases(repeat: int, sklearn_1e6: bool) -> None:
    # AMI: the expected mutual information dominates.
    rng = np.random.default_rng(2)
    print(f"\n{'AMI case':<44} {'sklearn s':>10} {'ours s':>8} {'ours/sklearn':>12}")
    cases = [(10**5, 100), (10**5, 1000)]
    if sklearn_1e6:
        cases.append((10**6, 1000))
    for m, k in cases:
        a = rng.integers(0, k, m)
        b = rng.integers(0, k, m)
        sk = best_of(lambda: skm.adjusted_mutual_info_score(a, b), 1)
        ours = best_of(lambda: ami_only(a, b), repeat)
        print(f"{f'{m:.0e} labels {k}x{k}: AMI':<44} {sk:10.3f} {ours:8.3f} {ours / sk:12.4f}")
    a = rng.integers(0, 1000, 10**6)
    b = rng.integers(0, 1000, 10**6)
    ours = best_of(lambda: ami_only(a, b), repeat)
    print(f"{'1e+06 labels 1000x1000: AMI (sklearn ~65 s)':<44} {'':>10} {ours:8.3f}")
    # Batches of small tables (the property grids and sweeps).
    tables = rng.integers(0, 20, (25_000, 11, 17)).astype(float)
    ours = best_of(lambda: metrics.evaluate_batch(tables, KEYS), 2)
    print(f"{'25,000 tables 11x17, all but AMI (batch)':<44} {'':>10} {ours:8.3f}")


# --------------------------------------------------------------------------- many classes and clusters
def er_labels(n: int, k: int, rng):
    """Entity-resolution-like (gold, pred): k entities of heavy-tailed sizes (Pareto), clustered
    with typical errors — a tenth of the entities split in two, 5 % merged into another, 1 % of
    the records in a random cluster — items in random order, cluster ids compacted."""
    w = rng.pareto(1.2, k) + 1.0
    sizes = np.floor(w / w.sum() * (n - k)).astype(np.int64) + 1
    sizes[np.argmax(sizes)] += n - sizes.sum()
    gold = np.repeat(np.arange(k), sizes)
    pred = rng.permutation(k)[gold]
    split = rng.choice(k, k // 10, replace=False)
    fresh = np.full(k, -1)
    fresh[split] = k + np.arange(split.size)
    moved = (fresh[gold] >= 0) & (rng.random(n) < 0.3)
    pred[moved] = fresh[gold[moved]]
    remap = np.arange(k + split.size)
    remap[rng.choice(k, k // 20, replace=False)] = rng.choice(k, k // 20)
    pred = remap[pred]
    noisy = rng.random(n) < 0.01
    pred[noisy] = rng.integers(0, k + split.size, int(noisy.sum()))
    order = rng.permutation(n)
    return gold[order], np.unique(pred[order], return_inverse=True)[1]


def all_that_apply(a, b):
    """from_labels and every measure but AMI that applies to the table (the limits' checks and a
    matching left out with its reason are part of the time)."""
    t = metrics.Contingency.from_labels(a, b)
    return metrics.evaluate(t, [k for k in KEYS if metrics.MEASURES[k].applies_to(t)])


def sparse_cases(n: int, repeat: int, skip_sklearn: bool) -> None:
    """Issue 26, items 1 and 2: 10^5 classes x 10^5 clusters (more possible cells than items),
    counted in O(n), and their one-to-one matching (ε, ε_n) on a sparse table."""
    rng = np.random.default_rng(31)
    k = 10**5
    print(f"\n{'many classes and clusters (all that apply)':<44} {'floor s':>8} {'ours s':>8} {'ours/floor':>10} "
          f"{'sklearn s':>10} {'ours/sklearn':>12}  ε, ε_n")
    cases = [("random", np.int64), ("random", np.int32), ("entity resolution", np.int64)]
    for kind, dtype in cases:
        if kind == "random":
            a, b = rng.integers(0, k, n).astype(dtype), rng.integers(0, k, n).astype(dtype)
        else:
            a, b = (x.astype(dtype) for x in er_labels(n, k, rng))
        floor = read_floor(a, b, repeat)
        ours = best_of(lambda a=a, b=b: all_that_apply(a, b), repeat)
        counted = best_of(lambda a=a, b=b: metrics.Contingency.from_labels(a, b), repeat)
        sk = None if skip_sklearn else best_of(lambda a=a, b=b: skm.homogeneity_completeness_v_measure(a, b), 1)
        table = metrics.Contingency.from_labels(a, b)
        why = metrics.MEASURES["classification_error"].why_not(table)
        label_row(f"{n:.0e} {np.dtype(dtype).name} {kind} 1e5x1e5", floor, ours, sk)
        print(f"{'':<44} from_labels alone {counted:.4f} s ({counted / floor:.0f}x the floor), "
              f"{table.n_cells:,} cells", flush=True)
        print(f"{'':<44} ε, ε_n: {'computed' if why is None else 'left out: ' + why}", flush=True)
    m = max(n // 10, 10**5)
    for kind in ("random", "entity resolution"):
        if kind == "random":
            a, b = rng.integers(0, k, m), rng.integers(0, k, m)
        else:
            a, b = er_labels(m, k, rng)
        sa = np.array([f"c{i}" for i in range(int(a.max()) + 1)], dtype=object)[a]
        sb = np.array([f"k{i}" for i in range(int(b.max()) + 1)], dtype=object)[b]
        ours = best_of(lambda sa=sa, sb=sb: all_that_apply(sa, sb), repeat)
        sk = None if skip_sklearn else best_of(lambda: skm.homogeneity_completeness_v_measure(sa, sb), 1)
        label_row(f"{m:.0e} string labels, {kind} 1e5x1e5", None, ours, sk)


def planted_table(k: int, cells: int, rng):
    """A k x k table of about ``cells`` non-zero cells in one component: a planted one-to-one
    matching of cells 20-30 (the best matching: every other cell is smaller) and noise cells 1-19."""
    from scipy import sparse

    perm = rng.permutation(k)
    noise_r, noise_c = rng.integers(0, k, cells - k), rng.integers(0, k, cells - k)
    keep = noise_c != perm[noise_r]
    rows = np.concatenate([np.arange(k), noise_r[keep]])
    cols = np.concatenate([perm, noise_c[keep]])
    vals = np.concatenate([rng.integers(20, 31, k), rng.integers(1, 20, int(keep.sum()))])
    return metrics.Contingency.from_table(sparse.coo_matrix((vals, (rows, cols)), shape=(k, k)))


def matching_cases(repeat: int, scipy_too: bool) -> None:
    """ε and ε_n of sparse tables (issue 26, item 2): the compiled sparse assignment, against
    scipy's min_weight_full_bipartite_matching (the solver before) with ``--scipy-matching``."""
    from metrics.measures import matching

    rng = np.random.default_rng(32)
    print(f"\n{'sparse matching: ε and ε_n':<44} {'ours s':>8} {'scipy s':>8} {'scipy/ours':>10}")
    for k, cells in ((10**4, 10**5), (3 * 10**4, 3 * 10**5), (10**5, 10**6)):
        t = planted_table(k, cells, rng)

        def ours(t=t):
            fresh = metrics.Contingency(t.rows, t.cols, t.values, t.row_labels, t.col_labels)
            return metrics.evaluate(fresh, ["classification_error", "epsilon_n"])

        mine = best_of(ours, repeat)
        old = None
        if scipy_too:
            old = best_of(lambda t=t: matching._min_cost_matching(t.rows, t.cols, t.values, *t.shape), 1)
        cols = f"{old:8.3f} {old / mine:10.1f}" if old is not None else f"{'':>8} {'':>10}"
        print(f"{f'{k:.0e} x {k:.0e}, {t.n_cells:.1e} cells':<44} {mine:8.3f} {cols}", flush=True)


FIRST_EVALUATE = """
import sys, time
import numpy as np
rng = np.random.default_rng(0)
a, b = rng.integers(0, {k}, 10**6), rng.integers(0, {k}, 10**6)
start = time.perf_counter()
{libraries}
libs = time.perf_counter()
import metrics
metrics.evaluate(metrics.Contingency.from_labels(a, b))
print(libs - start, time.perf_counter() - libs, "numba" in sys.modules)
"""


def fresh_process_cases(repeat: int) -> None:
    """Issue 26, item 6: the first ``evaluate`` of 10^6 labels in a fresh process (every measure, AMI included),
    numba's cache warm and Python's bytecode cached as an installed package has it, whatever PYTHONDONTWRITEBYTECODE
    says (a first run writes it to a temporary PYTHONPYCACHEPREFIX: compiling the sources took about 0.12 s); the
    libraries a script has usually imported already (pandas, scipy) timed apart."""
    import os
    import subprocess
    import sys
    import tempfile
    print(f"\n{'first evaluate in a fresh process (10^6 labels)':<52} {'libraries s':>11} {'evaluate s':>10}"
          f" {'numba loaded':>12}")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPYCACHEPREFIX": cache, "PYTHONDONTWRITEBYTECODE": ""}  # empty: writes it
        for k, preload in itertools.product((10, 1000), (True, False)):
            libraries = "import pandas, scipy.special, scipy.optimize, scipy.sparse, scipy.stats" if preload else ""
            script = [sys.executable, "-c", FIRST_EVALUATE.format(k=k, libraries=libraries)]
            runs = [subprocess.run(script, capture_output=True, text=True, check=True, env=env).stdout.split()
                    for _ in range(repeat + (k == 10 and preload))]  # the very first writes the bytecode
            best = min(runs, key=lambda out: float(out[1]))
            what = f"{k}x{k}, " + ("pandas and scipy imported first" if preload else "nothing imported first")
            print(f"{what:<52} {float(best[0]):11.3f} {float(best[1]):10.3f} {best[2]:>12}", flush=True)


# --------------------------------------------------------------------------- tables that merge
def merge_cases(n: int, repeat: int) -> None:
    """``sum(tables)`` and ``Contingency.merge(tables)`` of tables counted from batches (the labels
    of each batch: a slice of all), and counting the batches then summing, against ``from_labels``
    of all the items at once: the price of accumulating mini-batches."""
    print(f"\n{'tables that merge':<44} {'batches':>8} {'sum s':>8} {'merge s':>8} {'count+sum s':>11} "
          f"{'all at once s':>13} {'(count+sum)/all':>15}")
    rng = np.random.default_rng(5)
    for k_r, k_c, label in ((1000, 1000, "1000x1000"), (10**5, 10**5, "1e5x1e5 (sparse)")):
        a, b = rng.integers(0, k_r, n), rng.integers(0, k_c, n)
        for batches in (10, 100):
            cuts = np.linspace(0, n, batches + 1).astype(np.int64)
            parts = [(a[i:j], b[i:j]) for i, j in itertools.pairwise(cuts)]
            tables = [metrics.Contingency.from_labels(x, y) for x, y in parts]
            summed = best_of(lambda tables=tables: sum(tables), repeat)
            merged = best_of(lambda tables=tables: metrics.Contingency.merge(tables), repeat)
            counted = best_of(lambda parts=parts: sum(metrics.Contingency.from_labels(x, y) for x, y in parts), repeat)
            whole = best_of(lambda: metrics.Contingency.from_labels(a, b), repeat)
            print(f"{f'{n:.0e} labels {label}':<44} {batches:>8} {summed:8.4f} {merged:8.4f} {counted:11.4f} "
                  f"{whole:13.4f} {counted / whole:15.2f}", flush=True)


# --------------------------------------------------------------------------- GPU
# The measures that solve an assignment problem (matching classes to clusters): their cost is
# that of the assignment, not of a pass over the cells, so the table cases show them apart.
ASSIGNMENT_KEYS = {"classification_error", "epsilon_n", "nca", "npa", "psi", "psi_simplified"}


def _evaluate_fresh(make_table, keys) -> None:
    metrics.evaluate(make_table(), keys)


def table_cases(repeat: int, quick: bool) -> None:
    """Issue 26, item 3: every measure of a big table from one pass over its cells.

    * "all measures of a clustering's 1000 x 1000 table": ``evaluate(Contingency.from_table(grid))``
      of the table of 10^7 items in 1000 classes, each item in its class's own cluster but for
      a share of them (20 %, then 95 %) put in a random one, every measure but AMI, against
      reading the grid once (its sum). Each class keeps a dominant cluster: the assignment
      measures' matching is certified by the lines' maxima (metrics.core.kernels.line_maxima).
    * the same of three tables where no class has a dominant cluster — uniform counts 0-19, 10^7
      random labels' (Poisson(10) cells), a random clustering's of skewed sizes (Poisson cells of
      gamma-distributed scales): then without the assignment measures, ``from_table`` alone, and
      each assignment measure alone beside scipy's ``linear_sum_assignment`` of its weights.
    * a coordinate table of 10^5 x 10^5 classes and clusters with 10^6 (``--quick``) or 10^7
      non-zero cells (``from_table`` of a scipy COO matrix, then every measure but AMI and the
      assignment ones), against reading the cells' three arrays once.
    """
    rng = np.random.default_rng(26)
    no_assignment = [k for k in KEYS if k not in ASSIGNMENT_KEYS]
    _counting.load_compiled()  # the compiled passes, as a warmed-up server has them
    print(f"\n{'table case':<52} {'floor ms':>9} {'ours ms':>9} {'ours/floor':>10}")

    def row(name, floor_s, ours_s, peer=""):
        print(f"{name:<52} {floor_s * 1e3:9.3f} {ours_s * 1e3:9.3f} {ours_s / floor_s:10.1f}{peer}", flush=True)

    for moved in (0.2, 0.95):
        classes = rng.integers(0, 1000, 10**7)
        clusters = np.where(rng.random(classes.size) < moved, rng.integers(0, 1000, classes.size), classes)
        clustering = np.bincount(classes * 1000 + rng.permutation(1000)[clusters], minlength=10**6).reshape(1000, 1000)
        metrics.evaluate(metrics.Contingency.from_table(clustering), KEYS)
        ours = best_of(lambda g=clustering: _evaluate_fresh(lambda: metrics.Contingency.from_table(g), KEYS),
                       2 * repeat)
        row(f"all measures of a clustering's table, {moved:.0%} moved ({len(KEYS)})",
            best_of(clustering.sum, 2 * repeat), ours)
    uniform = rng.integers(0, 20, (1000, 1000))
    random_labels = np.bincount(rng.integers(0, 10**6, 10**7), minlength=10**6).reshape(1000, 1000)
    own = np.random.default_rng(46)  # the other cases' draws stay as they were
    skewed = own.poisson(np.outer(own.gamma(0.5, 2, 1000), own.gamma(0.5, 2, 1000)) * 3)
    for name, grid in (("uniform counts 0-19", uniform), ("10^7 random labels' table", random_labels),
                       ("skewed sizes' table", skewed[skewed.sum(1) > 0][:, skewed.sum(0) > 0])):
        _no_dominant_cluster(name, grid, repeat, row, no_assignment)
    from scipy import sparse

    for cells in (10**6,) if quick else (10**6, 10**7):
        k = 10**5
        rows = np.sort(rng.integers(0, k, cells))
        cols = rng.integers(0, k, cells)
        coo = sparse.coo_matrix((rng.integers(1, 5, cells), (rows, cols)), shape=(k, k))
        coo.sum_duplicates()
        data, r, c = coo.data, coo.row, coo.col
        cell_floor = best_of(lambda: (data.sum(), r.sum(), c.sum()), repeat)
        table = metrics.Contingency.from_table(coo)
        build = best_of(lambda: metrics.Contingency.from_table(coo), repeat)

        def fresh():
            # the built table's cells, without its cached quantities
            return metrics.Contingency(table.rows, table.cols, table.values, table.row_labels, table.col_labels)

        ours = best_of(lambda: _evaluate_fresh(fresh, no_assignment), repeat)
        row(f"{table.n_cells:.1e}-cell table 1e5 x 1e5: {len(no_assignment)} measures", cell_floor, ours)
        row("  from_table of its COO matrix", cell_floor, build)


def _no_dominant_cluster(name: str, grid, repeat: int, row, no_assignment) -> None:
    from scipy.optimize import linear_sum_assignment

    def from_grid():
        return metrics.Contingency.from_table(grid)

    metrics.evaluate(from_grid(), KEYS)
    floor = best_of(grid.sum, 2 * repeat)
    row(f"all measures of {name} ({len(KEYS)})", floor, best_of(lambda: _evaluate_fresh(from_grid, KEYS), 2 * repeat))
    row(f"  the {len(no_assignment)} without an assignment", floor,
        best_of(lambda: _evaluate_fresh(from_grid, no_assignment), 4 * repeat))
    row("  from_table alone", floor, best_of(from_grid, 4 * repeat))
    a, b = grid.sum(1, keepdims=True), grid.sum(0, keepdims=True)
    peer_weights = {"nca": grid / a, "psi": grid / np.maximum(a, b)}  # what each matches (NPA: the counts, as ε_n)
    for key in sorted(ASSIGNMENT_KEYS):  # each on a fresh table: its own assignment, nothing shared
        ours = best_of(lambda key=key: _evaluate_fresh(from_grid, [key]), repeat)
        weights = peer_weights.get(key.removesuffix("_simplified"), grid.astype(float))
        peer = best_of(lambda w=weights: linear_sum_assignment(w, maximize=True), repeat)
        row(f"  {key} alone (with from_table)", floor, ours,
            f"  scipy's matching {peer * 1e3:.1f} ms, ours/scipy {ours / peer:.2f}")


def _gpu_libraries(dry_run: bool = False):
    """[(library, module, device)] for PyTorch with CUDA and for CuPy with a GPU, each where
    present. ``dry_run``: PyTorch's CPU device instead, to check this section without a GPU."""
    found = []
    with contextlib.suppress(Exception):  # no PyTorch, or a broken CUDA install
        import torch

        if torch.cuda.is_available() or dry_run:
            found.append(("torch", torch, "cuda" if torch.cuda.is_available() else "cpu"))
    with contextlib.suppress(Exception):
        import cupy

        if not dry_run and cupy.cuda.runtime.getDeviceCount() > 0:
            found.append(("cupy", cupy, "cuda"))
    return found


def _torchmetrics():
    """(torch, v_measure_score, adjusted_rand_score) of torchmetrics, or Nones where it is absent."""
    warnings.filterwarnings("ignore", message="Sparse invariant checks")  # torchmetrics' own warning
    try:
        import torch
        from torchmetrics.functional.clustering import adjusted_rand_score, v_measure_score
    except Exception:  # torchmetrics not installed
        return None, None, None
    return torch, v_measure_score, adjusted_rand_score


def device_draw(lib, mod, device):
    """A function (n, k) -> n int32 labels in 0..k-1 drawn by the GPU library itself."""
    if lib == "torch":
        return lambda n, k: mod.randint(0, k, (n,), dtype=mod.int32, device=device)
    if lib == "cupy":
        return lambda n, k: mod.random.randint(0, k, n, dtype=mod.int32)
    gen = np.random.default_rng(5)   # the dry run: PyTorch's CPU device, or numpy
    return lambda n, k: gen.integers(0, k, n, dtype=np.int32)


def gpu_cases(sizes, repeat: int, dry_run: bool = False, huge: int | None = None) -> None:
    found = _gpu_libraries(dry_run)
    if not found:
        print("\nGPU: none found (neither PyTorch with CUDA nor CuPy): GPU section not run.")
        return
    global CLOCK
    CLOCK = time.perf_counter  # device work is not this process's CPU time
    torch, tm_v, tm_ari = _torchmetrics()
    for lib, mod, device in found:
        if lib == "torch":
            sync = mod.cuda.synchronize if device == "cuda" else (lambda: None)
            name = mod.cuda.get_device_name(0) if device == "cuda" else "CPU (dry run: not a GPU figure)"
            to_dev = lambda x, mod=mod, device=device: mod.as_tensor(x, device=device)  # noqa: E731
            as_torch = lambda x: x  # noqa: E731
        else:
            sync = mod.cuda.Device().synchronize
            name = mod.cuda.runtime.getDeviceProperties(0)["name"].decode()
            to_dev = mod.asarray
            # torchmetrics reads the same device memory through DLPack (no copy).
            as_torch = (lambda x: torch.from_dlpack(x)) if torch is not None else None

        def timed(fn, sync=sync):
            def run():
                out = fn()
                sync()
                return out
            run()
            return best_of(run, repeat)

        print(f"\nGPU ({lib}, {name}): labels already on the device; ours V = from_labels + V, ours all = "
              "from_labels + every measure but AMI; sums = the same but the six assignment measures (every "
              "measure read from the table's shared sums, issue 26 item 3); tm = torchmetrics")
        print(f"{'case':<30} {'read s':>8} {'table s':>10} {'ours V s':>9} {'V/table':>10} {'ours all s':>10} "
              f"{'sums s':>8} {'tm V s':>8} {'ours V/tm V':>11} {'sums/tm V':>9} {'tm ARI s':>8}  "
              "V ours | tm, ARI ours | tm")
        rng = np.random.default_rng(3)
        tm = as_torch if tm_v is not None else None
        for n in sizes:
            for k in (10, 1000):
                gpu_case(rng, n, k, to_dev, timed, mod, tm, tm_v, tm_ari)
        if huge:
            # 10^9 int32 labels (issue 26's first rows): drawn on the device, so no 8 GB pass
            # through the host; 10^5 x 10^5 classes and clusters: the sparse table on a device.
            for k in (10, 1000):
                gpu_case(rng, huge, k, to_dev, timed, mod, tm, tm_v, tm_ari, draw=device_draw(lib, mod, device))
            gpu_case(rng, sizes[0], 10**5, to_dev, timed, mod, None, tm_v, tm_ari)


def raw_table(mod, keys, cells: int):
    """The counts of ``cells`` cell keys on the device, the library's fastest way: ``bincount``,
    or for CuPy beyond 10^4 cells one atomic add per key (its ``bincount``, CUB's histogram, is
    slow for many bins; docs/performance.md, session 42)."""
    if mod.__name__ == "cupy" and cells > 10**4:
        counts = mod.zeros(cells, dtype=mod.int64)
        mod.add.at(counts, keys, 1)
        return counts
    return mod.bincount(keys, minlength=cells)


def gpu_case(rng, n, k, to_dev, timed, mod, as_torch, tm_v, tm_ari, draw=None) -> None:
    """One row: ``draw`` (n, k) -> labels on the device where given, else numpy's draw copied
    there. The raw floor is the device's count of the cell keys (:func:`raw_table`), or where the grid would
    pass 10^8 cells (10^5 x 10^5) its ``unique`` with counts — the sparse table, nothing else;
    there torchmetrics is not run (it makes the table dense: 10^10 cells, 80 GB) and the same
    labels counted and measured on the host are timed instead."""
    if draw is not None:
        a, b = draw(n, k), draw(n, k)
        host_a = host_b = None
        dtype = "int32"
    else:
        host_a, host_b = rng.integers(0, k, n), rng.integers(0, k, n)
        a, b = to_dev(host_a), to_dev(host_b)
        dtype = "int64"
    read = timed(lambda: (a.sum(), b.sum()))
    if k * k <= 10**8:
        raw = timed(lambda: raw_table(mod, a * k + b, k * k))  # the table, nothing else
    else:
        raw = timed(lambda: mod.unique(a * k + b, return_counts=True))  # int64 labels: no overflow
    only_v = lambda: metrics.evaluate(metrics.Contingency.from_labels(a, b), ["v_measure"])  # noqa: E731
    ours_v = timed(only_v)
    applies = all_that_apply if k * k > 10**8 else all_but_ami
    ours = timed(lambda: applies(a, b))
    values = applies(a, b)

    def sums():
        t = metrics.Contingency.from_labels(a, b)
        return metrics.evaluate(t, [k for k in KEYS if k not in ASSIGNMENT_KEYS and metrics.MEASURES[k].applies_to(t)])

    ours_sums = timed(sums)
    tm_v_s = tm_ari_s = float("nan")
    compared = f"  {values['v_measure']:.6f} | –, {values['ari']:.3g} | –"
    if as_torch is not None:
        ta, tb = as_torch(a), as_torch(b)
        tm_v_s = timed(lambda: tm_v(tb, ta))
        tm_ari_s = timed(lambda: tm_ari(tb, ta))
        compared = (f"  {values['v_measure']:.6f} | {float(tm_v(tb, ta)):.6f}, "
                    f"{values['ari']:.3g} | {float(tm_ari(tb, ta)):.3g}")
    if k * k > 10**8:  # no torchmetrics to compare with: the same labels counted on the host instead
        compared += f"; the same on the host: {timed(lambda: all_that_apply(host_a, host_b)):.4f} s"
    shape = "1e5x1e5" if k == 10**5 else f"{k}x{k}"
    print(f"{f'{n:.0e} {dtype} labels {shape}':<30} {read:8.4f} {raw:10.4f} {ours_v:9.4f} {ours_v / raw:10.2f} "
          f"{ours:10.4f} {ours_sums:8.4f} {tm_v_s:8.4f} {ours_v / tm_v_s:11.2f} {ours_sums / tm_v_s:9.2f} "
          f"{tm_ari_s:8.4f}{compared}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=float, default=1e7, help="labels per label case (default 1e7)")
    parser.add_argument("--quick", action="store_true", help="10^6 labels")
    parser.add_argument("--only-labels", action="store_true", help="only the integer label cases (and GPU)")
    parser.add_argument("--no-sklearn", action="store_true", help="skip scikit-learn in the label cases")
    parser.add_argument("--kernel", choices=_counting.KERNELS, help="force one counting kernel")
    parser.add_argument("--sklearn-ami-1e6", action="store_true")
    parser.add_argument("--sparse", action="store_true",
                        help="only issue 26's cases of many classes and clusters, sparse matching, fresh process")
    parser.add_argument("--scipy-matching", action="store_true",
                        help="also time scipy's sparse matching (the solver before; ~30 s at 10^5 x 10^5)")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time with this process's CPU time (steadier on a busy machine)")
    parser.add_argument("--gpu-only", action="store_true",
                        help="only the GPU section, at --n labels and 10^8 (a device run's few minutes)")
    parser.add_argument("--gpu-dry-run", type=float, metavar="N",
                        help="run only the GPU section, on PyTorch's CPU device with N labels (checks the script)")
    args = parser.parse_args()
    global CLOCK
    if args.cpu_time:
        CLOCK = time.process_time
    if args.gpu_dry_run:
        gpu_cases([int(args.gpu_dry_run)], 1, dry_run=True, huge=int(args.gpu_dry_run))
        return
    n = 10**6 if args.quick else int(args.n)
    if args.gpu_only:
        _counting.load_compiled()
        gpu_cases(sorted({n, 10**8}), 3, huge=10**9)
        return
    _counting.FORCE_KERNEL = args.kernel
    repeat = 3 if n <= 10**7 else 2
    sklearn_repeat = 2 if n <= 10**7 else 1
    start = time.perf_counter()
    _counting.load_compiled()  # a process loads numba only for big work (counting.COLD_WORK): load it now
    for dtype in (np.int64, np.int32):  # loads (or compiles) the kernels for these dtypes
        warm = np.arange(1 << 16, dtype=dtype)
        all_but_ami(warm % 100, (warm * 7) % 100)
    print(f"clock: {'CPU time of this process' if args.cpu_time else 'wall clock'}; "
          f"counting kernel: {_counting.kernel(n)}; first call in this process "
          f"(loads the kernels): {time.perf_counter() - start:.2f} s\n")
    if args.sparse:
        sparse_cases(n, repeat, args.no_sklearn)
        matching_cases(repeat, args.scipy_matching)
        fresh_process_cases(repeat)
        return
    print(HEADER)
    label_cases(n, repeat, sklearn_repeat, args.no_sklearn)
    if not args.only_labels:
        string_case(n // 10, repeat)
        ami_cases(repeat, args.sklearn_ami_1e6)
        merge_cases(n // 10, repeat)   # 100 running totals of 10^7 labels would take minutes
        table_cases(repeat, args.quick)
        sparse_cases(n, repeat, args.no_sklearn)
        matching_cases(repeat, args.scipy_matching)
        fresh_process_cases(repeat)
    gpu_cases([n] if args.only_labels else sorted({n, 10**8}), repeat)


if __name__ == "__main__":
    main()
