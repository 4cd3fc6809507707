"""Fast start (issue 24): ``import metrics`` and ``partition-lab --help`` leave pandas, scipy, DuckDB,
numba, Dask and pyarrow unimported — each needed only by the calls that use it (metrics/_lazy.py).

Deterministic: which modules a fresh interpreter holds, never a timing (benchmarks/bench_start.py
measures the time).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("pandas", "scipy", "duckdb", "numba", "dask", "pyarrow", "sklearn", "streamlit", "plotly")


def _heavy_after(code: str) -> list[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_import_metrics_leaves_heavy_packages_out():
    assert _heavy_after("import metrics") == []


def test_the_registry_and_dropins_are_there_without_them():
    import metrics  # this process's registry, every module loaded: the fresh one is as full

    registered = len(metrics.MEASURES)
    code = (f"import metrics\nassert len(metrics.MEASURES) == {registered}\n"
            "assert callable(metrics.adjusted_rand_score)\n"
            "assert metrics.__version__\nassert metrics.MEASURES['vi'].formula")
    assert _heavy_after(code) == []


@pytest.mark.parametrize("argv", [["--help"], ["score", "--help"], ["measures", "--help"], ["--version"]])
def test_cli_help_leaves_heavy_packages_out(argv):
    code = ("import contextlib, io\nfrom metrics.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n    assert main({argv!r}) == 0")
    assert _heavy_after(code) == []


def test_building_the_parser_leaves_heavy_packages_out():
    assert _heavy_after("from metrics.cli import build_parser\nbuild_parser()") == []


def test_a_call_imports_what_it_needs():
    """Lazy, not missing: scoring labels brings pandas in and gives scikit-learn's number."""
    code = "import metrics\nassert metrics.adjusted_rand_score(['a', 'a', 'b'], [1, 1, 2]) == 1.0"
    assert "pandas" in _heavy_after(code)


def test_lazy_names_of_the_package():
    import metrics
    from metrics import chance, solutions

    assert metrics.compare_solutions is solutions.compare_solutions
    assert metrics.chance is chance
    assert {"compare_solutions", "chance", "rank_solutions"} <= set(dir(metrics))
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        metrics.nonsense  # noqa: B018


def test_scoring_numpy_labels_leaves_pandas_out():
    """Integer numpy labels and lists are counted without pandas: only a process that imported
    pandas can hold its objects, so the checks for DataFrames and Series never import it."""
    code = ("import numpy as np, metrics\n"
            "a = np.arange(10**5)\n"
            "metrics.evaluate(metrics.Contingency.from_labels(a % 7, a % 5))\n"
            "metrics.Contingency.from_labels([0, 1, 1, 2], [1, 1, 0, 0])")
    assert "pandas" not in _heavy_after(code)


def test_a_pandas_frame_is_still_refused_and_a_series_read():
    code = ("import pandas as pd, metrics\n"
            "try:\n    metrics.Contingency.from_labels(pd.DataFrame({'g': [1, 2]}), [1, 2])\n"
            "except ValueError as e:\n    assert 'DataFrame' in str(e)\nelse:\n    raise SystemExit('not refused')\n"
            "assert metrics.Contingency.from_labels(pd.Series([1, 1, 2]), pd.Index([3, 3, 4])).n == 3")
    assert "pandas" in _heavy_after(code)


def test_a_first_evaluate_of_a_small_table_imports_neither_scipy_optimize_nor_special():
    """Every measure of a 10 × 10 table in a fresh process: the assignments and Q0's model cost
    are computed without the two scipy packages whose import costs more than the evaluation."""
    code = ("import sys, numpy as np, metrics\n"
            "rng = np.random.default_rng(0)\n"
            "a, b = rng.integers(0, 10, 10**5), rng.integers(0, 10, 10**5)\n"
            "metrics.evaluate(metrics.Contingency.from_labels(a, b))\n"
            "assert 'scipy.optimize' not in sys.modules and 'scipy.special' not in sys.modules, "
            "sorted(m for m in sys.modules if m.startswith('scipy.'))[:20]")
    _heavy_after(code)
