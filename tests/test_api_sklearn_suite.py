"""scikit-learn's own tests of its clustering scores, run against Partition Lab's drop-ins.

The installed scikit-learn's ``sklearn/metrics/cluster/tests/test_supervised.py`` (the scores'
values, edge cases and refusals) and ``test_common.py`` (symmetry, invariance to label
permutation and format, bounds) are copied with their import of the scores from
``sklearn.metrics.cluster`` pointed at :mod:`metrics.api`; the rest (their helpers,
``contingency_matrix``, ``expected_mutual_information``, the unsupervised scores, the assertions)
stays scikit-learn's. Every test of the files must pass (skips are their own: array-API
namespaces that are not installed). The files change with scikit-learn's releases; the test reads
whichever is installed (the minimum-versions job runs it against scikit-learn 1.7).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
import sklearn

from metrics import api

TESTS = Path(sklearn.__file__).parent / "metrics" / "cluster" / "tests"
# Each file, and the fewest tests of it that must run and pass (a rewrite that broke the file's
# collection, or a file emptied by a release, fails instead of passing vacuously).
SUITES = {"test_supervised.py": 30, "test_common.py": 50}
# Tests of the file left out, each with why: parameters scikit-learn deprecated and then removed
# (the drop-ins take the newest signature, tests/test_api.py).
LEFT_OUT = {
    "test_fowlkes_mallows_sparse_deprecated": "fowlkes_mallows_score's `sparse`, deprecated in 1.7, removed in 1.9",
}


def pointed_at_ours(source: str) -> tuple[str, list[str]]:
    """``source`` with the names of ``from sklearn.metrics.cluster import (…)`` that
    :mod:`metrics.api` exports imported from it instead; (the new source, those names)."""
    lines = source.splitlines(keepends=True)
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom) and node.module == "sklearn.metrics.cluster":
            def spelled(alias: ast.alias) -> str:
                return alias.name + (f" as {alias.asname}" if alias.asname else "")

            ours = [a for a in node.names if a.name in api.__all__]
            theirs = [a for a in node.names if a.name not in api.__all__]
            new = f"from metrics.api import {', '.join(spelled(a) for a in ours)}\n"
            if theirs:
                new = f"from sklearn.metrics.cluster import {', '.join(spelled(a) for a in theirs)}\n" + new
            rewritten = "".join(lines[: node.lineno - 1]) + new + "".join(lines[node.end_lineno:])
            return rewritten, [a.name for a in ours]
    raise AssertionError("the scikit-learn test file no longer imports its scores from "
                         "sklearn.metrics.cluster: point this test at where it imports them now")


def test_rewrite_points_only_the_drop_ins_at_metrics():
    source = "import numpy as np\nfrom sklearn.metrics.cluster import (\n    rand_score,\n" \
             "    contingency_matrix as cm,\n)\nx = 1\n"
    rewritten, ours = pointed_at_ours(source)
    assert ours == ["rand_score"]
    assert rewritten == ("import numpy as np\nfrom sklearn.metrics.cluster import contingency_matrix as cm\n"
                         "from metrics.api import rand_score\nx = 1\n")


@pytest.mark.parametrize("suite", sorted(SUITES))
def test_scikit_learns_own_tests_pass_against_the_drop_ins(suite, tmp_path):
    path = TESTS / suite
    if not path.exists():
        pytest.skip(f"this scikit-learn was installed without its tests ({path})")
    rewritten, ours = pointed_at_ours(path.read_text(encoding="utf-8"))
    # The scores the files test: a rewrite that caught none would test scikit-learn against itself.
    assert {"adjusted_rand_score", "adjusted_mutual_info_score", "normalized_mutual_info_score",
            "fowlkes_mallows_score", "v_measure_score"} <= set(ours)
    test_file = tmp_path / f"{path.stem}_against_metrics.py"
    test_file.write_text(rewritten, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                          "-W", "ignore", "-k", " and ".join(f"not {name}" for name in LEFT_OUT),
                          str(test_file)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr
    assert run.returncode == 0, f"scikit-learn {sklearn.__version__}'s own {suite} fails:\n{run.stdout[-6000:]}"
    passed = re.search(r"(\d+) passed", summary)
    assert passed and int(passed.group(1)) >= SUITES[suite], summary
