"""Library fuzzing on extreme tables, each batch in a subprocess (issue 28).

A crash of a C extension (scipy's perm sampler segfaulted on [[5·10^11, 1], [1, 5·10^11]]) kills
the process that calls it, so every call here runs in a child interpreter: a segmentation fault,
a hang (the child's timeout) or an exception other than ValueError is a test failure naming the
call, not a dead test run. The contract, for every call on every table the library accepts:
a result, or a ``ValueError`` (a hard limit of ``metrics.core.limits``, or a ``CostError`` over the
budget) — nothing else, and never a wait of minutes.

* :func:`test_the_issue_s_calls` — the calls of the issue and the other extremes found while
  fixing it (10^18 totals, a 10^6 × 10^6 sparse table, one cell of 2^62 − 1, Bell and Stirling
  ratios of huge n, Boyett's shuffle on 2·10^10 items, generators beyond memory), each with the
  refusal it must give.
* :func:`test_hypothesis_calls` — hypothesis draws batches of calls of ``chance``, ``evaluate`` and
  ``generators`` on tables of extreme cells (0, 1, 2^31 ± 1, 5·10^11, 2^40, 10^12, 10^15, 10^18,
  2^62 − 1), under every random model.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# Runs a JSON list of calls (stdin); prints each before running it, so the last one printed is the
# one that crashed or hung. ValueError (CostError included) is the documented refusal.
CHILD = r'''
import json, math, sys
import numpy as np
from scipy import sparse
import metrics
from metrics import Contingency, chance, properties
from metrics.papers import generators
from metrics.core import limits
from metrics.chance import models as rm

BUDGET = 1.0  # a fuzzed call that is allowed stays short

def table(case):
    if "diagonal" in case:
        k = case["diagonal"]
        return Contingency.from_table(sparse.coo_matrix((np.ones(k, dtype=np.int64), (np.arange(k), np.arange(k))),
                                                        shape=(k, k)))
    return Contingency.from_table(case["cells"])

def run(case):
    fn = case["fn"]
    if fn == "evaluate":
        out = metrics.evaluate(table(case))
        assert all(isinstance(v, float) and not math.isnan(v) for v in out.values()), out
        return
    if fn == "generator":
        return getattr(generators, case["name"])(*case["args"])
    if fn == "code":
        return eval(case["code"])
    t = table(case)
    model, samples = case["model"], case["samples"]
    if fn == "profile":
        out = chance.profile(t, case.get("measures"), model, samples, seed=0, budget=BUDGET)
        assert len(out) >= 1
    elif fn == "expected":
        chance.expected(t, case["measure"], model, samples, seed=0, budget=BUDGET)
    elif fn == "draw_tables":
        chance.draw_tables(t, model, samples, seed=0, budget=BUDGET)
    elif fn == "exact_keys":
        chance.exact_keys(t, model)
    elif fn == "sweep":
        chance.cluster_sweep(case["n"], case["ks"], ["ari", "v_measure"], model, samples=samples, seed=0,
                             budget=BUDGET)
    else:
        raise AssertionError(fn)

cases = json.loads(sys.stdin.read())
refused = 0
for case in cases:
    print("CALL", json.dumps(case)[:300], flush=True)
    try:
        run(case)
    except ValueError as exc:
        refused += 1
        expect = case.get("refusal")
        print("REFUSED", type(exc).__name__, str(exc)[:300], flush=True)
        if expect is not None and expect not in str(exc):
            raise AssertionError(f"expected a refusal naming {expect!r}, got {exc}")
    else:
        if case.get("refusal"):
            raise AssertionError(f"expected a refusal naming {case['refusal']!r}, got a result")
print("CALLS", len(cases), "REFUSED", refused, flush=True)
'''


def run_child(cases: list[dict], timeout: float = 240) -> str:
    try:
        done = subprocess.run([sys.executable, "-c", CHILD], input=json.dumps(cases), capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        last = [line for line in out.splitlines() if line.startswith("CALL ")][-1:]
        pytest.fail(f"a call hung (more than {timeout:g} s): {last}")
    calls = [line for line in done.stdout.splitlines() if line.startswith("CALL ")]
    assert done.returncode == 0, (f"the child died (exit {done.returncode}) at {calls[-1:]}:\n"
                                  f"{done.stderr[-3000:]}")
    assert f"CALLS {len(cases)} " in done.stdout
    return done.stdout


BIG = 5 * 10**11
SPARSE = 10**6
ISSUE = [
    {"fn": "profile", "cells": [[BIG, 1], [1, BIG]], "model": "perm", "samples": 200,
     "refusal": "at most 3,037,000,499 items"},
    {"fn": "profile", "cells": [[2**40, 3, 0], [1, 2**40, 7]], "model": "perm", "samples": 50,
     "refusal": "at most 3,037,000,499 items"},
    {"fn": "profile", "cells": [[BIG, 1], [1, BIG]], "model": "num1", "samples": 200, "refusal": "budget"},
    {"fn": "profile", "cells": [[BIG, 1], [1, BIG]], "model": "num", "samples": 20, "refusal": "at most 10,000,000"},
    {"fn": "profile", "cells": [[BIG, 1], [1, BIG]], "model": "all", "samples": 20, "refusal": "at most 10,000,000"},
    {"fn": "expected", "cells": [[10**18, 1], [1, 10**18]], "model": "all", "samples": 10, "measure": "rand",
     "refusal": "Bell ratio"},
    {"fn": "expected", "cells": [[10**18, 1], [1, 10**18]], "model": "num", "samples": 10, "measure": "rand"},
    {"fn": "expected", "cells": [[10**18, 1], [1, 10**18]], "model": "perm", "samples": 10, "measure": "ari"},
    {"fn": "exact_keys", "cells": [[10**18, 1], [1, 10**18]], "model": "perm", "samples": 2},
    {"fn": "evaluate", "cells": [[10**18, 1], [1, 10**18]]},
    {"fn": "evaluate", "cells": [[2**62 - 1]], "refusal": "at most 2^62"},
    {"fn": "evaluate", "diagonal": SPARSE},
    {"fn": "profile", "diagonal": SPARSE, "model": "perm", "samples": 3, "measures": ["ari"]},
    {"fn": "profile", "diagonal": SPARSE, "model": "num", "samples": 30, "measures": ["ari"], "refusal": "budget"},
    {"fn": "profile", "diagonal": SPARSE, "model": "all1", "samples": 3, "measures": ["ari"]},
    {"fn": "sweep", "cells": [[1]], "n": 10**12, "ks": [2, 3], "model": "perm", "samples": 2,
     "refusal": "at most 3,037,000,499 items"},
    {"fn": "sweep", "cells": [[1]], "n": 10**12, "ks": [2, 3], "model": "num1", "samples": 2},
    {"fn": "sweep", "cells": [[1]], "n": 10**5, "ks": list(range(2, 2000)), "model": "num1", "samples": 2,
     "refusal": "budget"},
    {"fn": "code", "code": "rm.bell_pair_probability(10**18)", "refusal": "at most 1,000,000,000,000"},
    {"fn": "code", "code": "rm.bell_pair_probability(10**12)"},
    {"fn": "code", "code": "rm.stirling_pair_probability(10**18, 10**9)"},
    {"fn": "code", "code": "rm.random_tables_perm([10**10] * 2, [10**10] * 2, 1, np.random.default_rng(0), "
                           "method='boyett')", "refusal": "at most"},
    {"fn": "code", "code": "rm.random_tables_perm([10**8 + 1, 10**8], [10**8, 10**8 + 1], 1, "
                           "np.random.default_rng(0), method='boyett')", "refusal": "Boyett"},
    {"fn": "code", "code": "metrics.compare_solutions(np.arange(10**6) % 7, {str(i): np.arange(10**6) % (i + 2) "
                           "for i in range(300)}, None, budget=5)", "refusal": "budget"},
    {"fn": "code", "code": "properties.check_properties('ari', trials=10**7)", "refusal": "budget"},
    {"fn": "code", "code": "properties.dom_property_rates(['ari'], grid={'n_useful_clusters': range(2, 200), "
                           "'n_noise_clusters': range(60)})", "refusal": "budget"},
    {"fn": "generator", "name": "random_tables", "args": [[1] * SPARSE, [1] * SPARSE, 1], "refusal": "at most"},
    {"fn": "generator", "name": "singletons", "args": [[10**12]], "refusal": "at most"},
    {"fn": "generator", "name": "solution_r", "args": [10**6, 10**6, 3], "refusal": "at most"},
    {"fn": "generator", "name": "dom", "args": [10**5, 10**5], "refusal": "at most"},
    {"fn": "generator", "name": "random_tables", "args": [[BIG, BIG], [BIG, BIG], 3], "refusal": "10^9"},
]


def test_the_issue_s_calls():
    """Each call gives a result or exactly the refusal it names (the child checks the text)."""
    out = run_child(ISSUE)
    assert f"CALLS {len(ISSUE)} REFUSED {sum(1 for c in ISSUE if c.get('refusal'))}" in out


CELLS = st.sampled_from([0, 1, 2, 3, 7, 1000, 2**31 - 1, 2**31, 2**31 + 1, BIG, 2**40, 10**12, 10**15, 10**18,
                         2**62 - 1])
GRIDS = st.integers(1, 4).flatmap(lambda r: st.integers(1, 4).flatmap(
    lambda k: st.lists(st.lists(CELLS, min_size=k, max_size=k), min_size=r, max_size=r)))
MODELS = st.sampled_from(["perm", "num", "num1", "all", "all1"])
KEYS = st.sampled_from([None, ["ari", "rand"], ["ami", "v_measure"], ["classification_error"]])


@st.composite
def calls(draw) -> dict:
    fn = draw(st.sampled_from(["profile", "profile", "expected", "draw_tables", "exact_keys", "evaluate",
                               "generator", "sweep"]))
    case = {"fn": fn, "cells": draw(GRIDS), "model": draw(MODELS), "samples": draw(st.integers(2, 300))}
    if fn == "profile":
        case["measures"] = draw(KEYS)
    elif fn == "expected":
        case["measure"] = draw(st.sampled_from(["ari", "rand", "v_measure", "purity", "ami", "mirkin"]))
    elif fn == "sweep":
        case["model"] = draw(st.sampled_from(["perm", "num", "num1"]))
        case["n"] = draw(st.sampled_from([2, 10, 1000, 10**6, 2**31, 10**12]))
        case["ks"] = draw(st.lists(st.integers(1, 50), min_size=1, max_size=5))
    elif fn == "generator":
        name, args = draw(st.sampled_from([
            ("perfect", [[draw(CELLS) or 1, draw(CELLS) or 1]]),
            ("single_cluster", [[draw(CELLS) or 1, 5]]),
            ("singletons", [[draw(CELLS) or 1]]),
            ("no_knowledge", [[draw(CELLS) or 1, 3]]),
            ("random_table", [[draw(CELLS) or 1, 3], [3, draw(CELLS) or 1]]),
            ("uniform_effect", [[draw(CELLS) or 1, 2], draw(st.integers(1, 6))]),
            ("dom", [draw(st.integers(1, 40)), draw(st.integers(1, 40))]),
        ]))
        case.update(name=name, args=args)
    return case


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases=st.lists(calls(), min_size=20, max_size=20))
def test_hypothesis_calls(cases):
    run_child(cases)
