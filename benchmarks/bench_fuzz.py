"""Run the fuzzing properties of tests/fuzz/test_fuzz.py with a large example budget.

    python benchmarks/bench_fuzz.py                 # "thorough" profile: 10^4 examples per property
    python benchmarks/bench_fuzz.py --examples 2000 # a shorter run

Each property is a Hypothesis test (Contingency constructors on hostile input, every
measure inside its registry bounds, never NaN). This script runs them one after the
other outside pytest, and prints for each the number of examples it really checked
(counted by the property itself, not by Hypothesis' budget), the time, and the
falsifying example of any failure. Exit status 1 if any property failed.

The known problems of metrics core that tests/fuzz/test_fuzz.py marks xfail are reported
here too, as "known problem: still present" (or "FIXED" once they pass).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="thorough", help="Hypothesis profile from tests/conftest.py")
    ap.add_argument("--examples", type=int, help="override the profile's max_examples per property")
    ap.add_argument("-k", dest="select", help="run only properties whose name contains this")
    args = ap.parse_args(argv)

    os.environ["HYPOTHESIS_PROFILE"] = args.profile
    sys.path.insert(0, str(TESTS))
    sys.path.insert(0, str(TESTS / "fuzz"))
    import conftest  # noqa: F401  registers and loads the profiles
    from hypothesis import HealthCheck, settings

    base = settings.get_profile(args.profile)
    # No example database (it would land in the working tree); slow data generation is
    # expected here (10^4 examples of 46 measures each).
    settings.register_profile("bench-fuzz", parent=base, database=None,
                              max_examples=args.examples or base.max_examples,
                              suppress_health_check=list(base.suppress_health_check) + [HealthCheck.too_slow])
    settings.load_profile("bench-fuzz")
    budget = settings.get_profile("bench-fuzz").max_examples
    print(f"profile {args.profile!r}: up to {budget} examples per property", flush=True)
    import test_fuzz  # after the profile is loaded: @given reads it at decoration time

    properties, known = [], []
    for name in sorted(dir(test_fuzz)):
        fn = getattr(test_fuzz, name)
        if not name.startswith("test_") or (args.select and args.select not in name):
            continue
        (properties if hasattr(fn, "hypothesis") else known).append((name, fn))

    failures, total, start = [], 0, time.perf_counter()
    for name, fn in properties:
        key = name.removeprefix("test_")
        before = sum(test_fuzz.EXAMPLES.values())
        t0 = time.perf_counter()
        try:
            fn()
            status = "ok"
        except (Exception, AssertionError) as exc:  # report every failure, then go on
            status = "FAILED"
            failures.append((name, exc))
        count = sum(test_fuzz.EXAMPLES.values()) - before
        total += count
        print(f"{key:32s} {count:7d} examples  {time.perf_counter() - t0:7.1f} s  {status}", flush=True)
    print(f"{'total':32s} {total:7d} examples  {time.perf_counter() - start:7.1f} s")

    for name, fn in known:
        params = _params(fn)
        still = 0
        for p in params:
            try:
                fn(*p)
            except BaseException as exc:  # pytest.fail raises a BaseException
                if isinstance(exc, KeyboardInterrupt):
                    raise
                still += 1
        state = "known problem: still present" if still else "FIXED (drop the xfail marker)"
        print(f"{name}: {state} ({still}/{len(params)} cases fail)")

    for name, exc in failures:
        print(f"\n=== {name} failed\n" + "".join(traceback.format_exception_only(type(exc), exc)).strip())
        for note in getattr(exc, "__notes__", []):
            print(note)
    return 1 if failures else 0


def _params(fn) -> list[tuple]:
    """The argument tuples of a (possibly parametrized) plain pytest test."""
    for mark in getattr(fn, "pytestmark", []):
        if mark.name == "parametrize":
            return [v if isinstance(v, tuple) else (v,) for v in mark.args[1]]
    return [()]


if __name__ == "__main__":
    sys.exit(main())
