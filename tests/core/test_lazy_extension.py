"""scipy's C assignment reached without importing scipy.optimize (``metrics._lazy.extension_function``).

``scipy/optimize/_lsap`` is a private module of scipy: where a scipy release moves it, the first
test here fails naming the file, and the library keeps working through the public import (the
fallback tests). Deterministic: which modules a fresh process holds and which values it gives,
never a timing (``benchmarks/bench_metrics.py``'s fresh-process cases measure the time).
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import scipy
from scipy.optimize import linear_sum_assignment

from metrics import _lazy


def _run(code: str) -> dict:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_scipy_still_ships_its_assignment_as_the_extension_file_read():
    path = _lazy.extension_path("scipy.optimize", "_lsap")
    assert path is not None, (
        f"scipy {scipy.__version__} has no scipy/optimize/_lsap extension any more: metrics falls back to "
        "importing scipy.optimize (a slower first evaluate); update metrics.measures.matching's scipy_assignment")
    function = _lazy._function_of_extension("scipy.optimize", "_lsap", "linear_sum_assignment")
    assert function is linear_sum_assignment  # the very function scipy.optimize exports


def test_loading_the_file_leaves_scipy_optimize_intact_for_its_own_import():
    """The extension loaded alone is taken out of sys.modules again, so that a later
    ``import scipy.optimize`` sets its attribute as usual and exports the same function."""
    out = _run("import json, sys\nfrom metrics import _lazy\n"
               "f = _lazy._function_of_extension('scipy.optimize', '_lsap', 'linear_sum_assignment')\n"
               "before = 'scipy.optimize' in sys.modules or 'scipy.optimize._lsap' in sys.modules\n"
               "import scipy.optimize\n"
               "print(json.dumps([before, scipy.optimize._lsap.linear_sum_assignment is f,\n"
               "                  scipy.optimize.linear_sum_assignment is f]))")
    assert out == [False, True, True]


def test_a_missing_extension_falls_back_to_the_public_import():
    out = _run("import json, sys\nimport numpy as np\nfrom metrics._lazy import extension_function\n"
               "f = extension_function('scipy.optimize', '_no_such_module', 'linear_sum_assignment')\n"
               "r, c = f(np.array([[1.0, 5.0], [4.0, 1.0]]), maximize=True)\n"
               "print(json.dumps([c.tolist(), 'scipy.optimize' in sys.modules]))")
    assert out == [[1, 0], True]


def test_missing_files_and_names_are_none():
    assert _lazy.extension_path("scipy.optimize", "_no_such_module") is None
    assert _lazy.extension_path("no_such_package_here", "_x") is None
    assert _lazy._function_of_extension("scipy.optimize", "_lsap", "no_such_function") is None


def test_the_stand_in_solves_as_scipy_does():
    weights = np.random.default_rng(3).random((40, 30))
    stand_in = _lazy.extension_function("scipy.optimize", "_lsap", "linear_sum_assignment")
    for maximize in (False, True):
        got, want = stand_in(weights, maximize=maximize), linear_sum_assignment(weights, maximize=maximize)
        assert all(np.array_equal(x, y) for x, y in zip(got, want, strict=True))


EVALUATE_1000 = """
import json, sys
{first}
import numpy as np, metrics
rng = np.random.default_rng(26)
a, b = rng.integers(0, 1000, 10**6), rng.integers(0, 1000, 10**6)
values = metrics.evaluate(metrics.Contingency.from_labels(a, b))
keys = ("classification_error", "epsilon_n", "nca", "npa", "psi", "psi_simplified")
print(json.dumps([[repr(values[k]) for k in keys], "scipy.optimize" in sys.modules]))
"""


def test_a_first_evaluate_of_a_1000_by_1000_table_solves_without_importing_scipy_optimize():
    """Issue 26, item 6: every measure of 10^6 labels in 1000 × 1000 in a fresh process solves
    its assignments (NCA, PSI: too big for the numpy solver, numba not loaded) with scipy's C
    function, without the package's import — and gives the values of a process that imported it."""
    alone, quick = _run(EVALUATE_1000.format(first=""))
    public, imported = _run(EVALUATE_1000.format(first="import scipy.optimize"))
    assert not quick and imported
    assert alone == public
