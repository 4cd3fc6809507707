"""How long Partition Lab takes to start: ``import metrics`` and ``partition-lab --help``, each
against a bare interpreter (``python -c pass``), in the same run.

    python benchmarks/bench_start.py             # 15 runs of each, medians
    python benchmarks/bench_start.py --runs 31

Each run is a fresh process (what a user waits for). The issue's targets: ``import metrics``
≤ 0.25 s and ``partition-lab --help`` ≤ 0.3 s beyond the bare interpreter. Runs alternate
between the commands so that a busy machine slows each alike; the figure is the median.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import metrics": [sys.executable, "-c", "import metrics"],
    "partition-lab --help": [sys.executable, "-c",
                             "import sys; from metrics.cli import main; sys.exit(main(['--help']))"],
}
TARGETS = {"import metrics": 0.25, "partition-lab --help": 0.3}


def _once(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    for cmd in COMMANDS.values():  # warm the file cache (and .pyc files) first
        _once(cmd)
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(args.runs):
        for name, cmd in COMMANDS.items():
            times[name].append(_once(cmd))
    bare = statistics.median(times["python -c pass"])
    print(f"{'command':<24}{'median s':>10}{'beyond bare s':>15}{'target s':>10}")
    for name, values in times.items():
        med = statistics.median(values)
        extra = "" if name not in TARGETS else f"{med - bare:>15.3f}{TARGETS[name]:>10.2f}"
        print(f"{name:<24}{med:>10.3f}{extra}")


if __name__ == "__main__":
    main()
