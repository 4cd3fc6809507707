"""No compile wait (issue 26, item 6): the compiled kernels are cached on disk and a fresh process
loads them instead of compiling; a read-only install caches them in the user's cache directory;
a fresh process does not load numba at all for work that would not repay it.

Timings are the benchmark's (``python benchmarks/bench_metrics.py``, its "fresh process" rows); here
only what makes them: cache hits, no misses, which modules a process imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="numba (the `fast` extra) is not installed")

ROOT = Path(__file__).resolve().parents[3]

# Runs every compiled kernel of the counting (both sorts of a sparse count), the grid summary, the
# grid cell sums and the matchings once (numba forced), then prints each kernel's cache hits and
# misses, and where its cache lives.
USE_EVERY_KERNEL = textwrap.dedent("""
    import json, sys
    {prelude}
    import numpy as np
    import metrics
    from metrics.core.kernels import counting
    counting.FORCE_KERNEL = "numba"
    from metrics.core.kernels import cell_stats, compiled, sparse_counting
    from metrics.measures import matching
    rng = np.random.default_rng(0)
    metrics.evaluate(metrics.Contingency.from_labels(rng.integers(0, 300, 10**5), rng.integers(0, 300, 10**5)),
                     ["classification_error", "f_measure"])
    t = metrics.Contingency.from_labels(rng.integers(0, 1500, 40000), rng.integers(0, 1500, 40000))
    metrics.evaluate(t, ["classification_error", "nca"])
    # The same cells without the offsets the count kept: the matching finds them (sorted_indptr).
    uncounted = metrics.Contingency(t.rows, t.cols, t.values, t.row_labels, t.col_labels)
    metrics.evaluate(uncounted, ["classification_error"])
    # Past 2^32 bucket keys (2^18 classes, 2^24 clusters): the one-level radix sort.
    counting.count_cells(rng.integers(0, 1 << 18, 1000), rng.integers(0, 1 << 24, 1000), 1 << 18, 1 << 24, True)
    out = {{}}
    for module in (compiled, sparse_counting, cell_stats):
        for name in dir(module):
            kernel = getattr(module, name)
            if hasattr(kernel, "stats") and kernel.signatures:
                out[module.__name__ + "." + name] = [sum(kernel.stats.cache_hits.values()),
                                                     sum(kernel.stats.cache_misses.values()),
                                                     kernel.stats.cache_path]
    print(json.dumps(out))
""")


def run(code: str, env: dict) -> dict:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **env}, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_fresh_process_loads_every_kernel_from_the_disk_cache(tmp_path):
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    first = run(USE_EVERY_KERNEL.format(prelude=""), env)
    second = run(USE_EVERY_KERNEL.format(prelude=""), env)
    # The kernels of the counting, the grid summary, the matchings (ε's by levels too) and the components ran.
    for name in ("count_pairs", "keys_and_marginals", "bucket_scatter", "sort_buckets", "scatter_digit",
                 "runs_to_cells", "grid_summary",
                 "max_weight_assignment", "sparse_max_weight_matching", "levels_max_weight", "sorted_indptr",
                 "cell_components", "grid_square_sums"):
        assert any(key.endswith("." + name) for key in second), (name, sorted(second))
    assert any(misses for _, misses, _ in first.values())  # the first process compiled…
    for name, (hits, misses, path) in second.items():      # …the second compiled nothing
        assert misses == 0 and hits >= 1, (name, hits, misses)
        assert path.startswith(str(tmp_path)), path


READ_ONLY_PACKAGE = """
import tempfile
import metrics
package = metrics.__path__[0]
plain = tempfile.TemporaryFile
def refuse_the_package(*args, dir=None, **kwargs):
    # What a read-only site-packages does to numba's check that __pycache__ is writable.
    if dir is not None and str(dir).startswith(package):
        raise PermissionError(13, "Read-only file system", dir)
    return plain(*args, dir=dir, **kwargs)
tempfile.TemporaryFile = refuse_the_package
"""


def test_a_read_only_install_caches_the_kernels_in_the_user_cache_directory(tmp_path):
    """Where the package's own ``__pycache__`` is not writable, numba keeps the cache in the user's
    cache directory (``$XDG_CACHE_HOME/numba``, or ``NUMBA_CACHE_DIR`` where set): the second fresh
    process loads from there."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "user-cache"), "NUMBA_CACHE_DIR": ""}
    code = USE_EVERY_KERNEL.format(prelude=READ_ONLY_PACKAGE)
    run(code, env)
    second = run(code, env)
    assert second
    for name, (hits, misses, path) in second.items():
        assert misses == 0 and hits >= 1, (name, hits, misses)
        assert path.startswith(str(tmp_path / "user-cache")), path


COLD_EVALUATE = textwrap.dedent("""
    import json, sys
    import numpy as np
    import metrics
    from metrics.core.kernels import counting
    rng = np.random.default_rng(1)
    cases = [(rng.integers(0, 10, 10**6), rng.integers(0, 10, 10**6)),
             (rng.integers(0, 1000, 10**6), rng.integers(0, 1000, 10**6))]
    keys = [k for k in metrics.MEASURES if not k.startswith("ami")]
    cold = [metrics.evaluate(metrics.Contingency.from_labels(a, b), keys) for a, b in cases]
    loaded_cold = "numba" in sys.modules
    assert counting.load_compiled()
    warm = [metrics.evaluate(metrics.Contingency.from_labels(a, b), keys) for a, b in cases]
    print(json.dumps({"numba_loaded_cold": loaded_cold, "numba_loaded_after": "numba" in sys.modules,
                      "same": [c == w for c, w in zip(cold, warm)],
                      "close": [all(abs(c[k] - w[k]) <= 1e-12 for k in c) for c, w in zip(cold, warm)]}))
""")


def test_a_fresh_process_scores_a_million_labels_without_loading_numba():
    """Loading numba and its cached kernels costs more than numpy spends on 10^6 labels, so a
    fresh process's first evaluate does without them (counting.COLD_WORK); once loaded, the
    compiled kernels give the same table, every measure equal (to rounding where the compiled
    cell sums add in another order)."""
    out = run(COLD_EVALUATE, {})
    assert out["numba_loaded_cold"] is False
    assert out["numba_loaded_after"] is True
    assert out["same"][0] and all(out["close"])


def test_big_work_loads_the_compiled_kernels():
    """In a process that has not loaded numba, the counting loads it once the work asked for
    passes COLD_WORK items (here lowered): numpy until then, the compiled kernels after."""
    code = textwrap.dedent("""
        import json, sys
        import numpy as np
        import metrics
        from metrics.core.kernels import counting
        counting.COLD_WORK = 100_000
        first = counting.kernel(60_000), "numba" in sys.modules
        second = counting.kernel(60_000), "numba" in sys.modules
        a = np.arange(60_000) % 7
        t = metrics.Contingency.from_labels(a, a)
        print(json.dumps([first, second, t.n]))
    """)
    first, second, n = run(code, {})
    assert first == ["numpy", False] and second == ["numba", True] and n == 60_000
