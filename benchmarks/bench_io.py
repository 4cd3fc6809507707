"""Larger-than-memory counting: DuckDB GROUP BY against pandas + from_labels.

    python benchmarks/bench_io.py                  # 10^7 rows (about a minute here)
    python benchmarks/bench_io.py --rows 1e8       # the issue's full figure
    python benchmarks/bench_io.py --string-labels  # text labels ("c123") instead of int64

Generates a Parquet file of N rows with two label columns — ``gold`` (N/1000 classes,
or ``--classes``) and ``pred`` (1.25× as many clusters: the class relabelled, 20 % of
items, or ``--moved``, put in a random cluster) — written in row groups so the
generator itself stays small. The number of non-zero cells, which bounds DuckDB's
memory, is about classes × (1 + moved × clusters) capped by N: 2 × 10^7 for the
default 10^8 rows, 1.25 × 10^6 with ``--classes 1000``. Then each
method runs in a fresh subprocess, which reports its wall time and its peak resident
memory (``resource.getrusage(RUSAGE_SELF).ru_maxrss``), also net of the memory the
interpreter and imports already held:

(a) ``metrics.io.contingency_from_files`` — embedded DuckDB ``GROUP BY`` over the file;
(b) ``pandas.read_parquet`` of the two columns, then ``Contingency.from_labels``.

Both must give the same table (checked through n, shape and three measures).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

METHODS = {
    "duckdb": "metrics.io.contingency_from_files (DuckDB GROUP BY)",
    "pandas": "pandas.read_parquet + Contingency.from_labels",
}
CHECK = ["v_measure", "ari", "purity"]


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def generate(path: Path, rows: int, string_labels: bool, classes: int | None = None, moved_frac: float = 0.2,
             seed: int = 0) -> float:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    classes = classes or max(rows // 1000, 2)
    clusters = classes + classes // 4
    writer, t0, chunk = None, time.perf_counter(), 2_000_000
    try:
        for start in range(0, rows, chunk):
            m = min(chunk, rows - start)
            gold = rng.integers(0, classes, m)
            pred = (gold * 7919) % clusters
            moved = rng.random(m) < moved_frac
            pred[moved] = rng.integers(0, clusters, int(moved.sum()))
            if string_labels:
                cols = [pa.array(np.char.add("c", gold.astype(str))), pa.array(np.char.add("k", pred.astype(str)))]
            else:
                cols = [pa.array(gold), pa.array(pred)]
            batch = pa.table(cols, names=["gold", "pred"])
            if writer is None:
                writer = pq.ParquetWriter(path, batch.schema)
            writer.write_table(batch, row_group_size=1_000_000)
    finally:
        if writer is not None:
            writer.close()
    return time.perf_counter() - t0


def run_method(method: str, path: str) -> dict:
    """Runs in the child process: import, measure the baseline, count, report."""
    import pandas as pd

    import metrics
    from metrics import Contingency
    from metrics import io as mio

    if method == "duckdb":
        import duckdb  # noqa: F401  (imported before the baseline, like pandas is)
    base = _rss_mb()
    t0 = time.perf_counter()
    if method == "duckdb":
        t = mio.contingency_from_files(path, "gold", "pred")
    else:
        df = pd.read_parquet(path, columns=["gold", "pred"])
        t = Contingency.from_labels(df["gold"].to_numpy(), df["pred"].to_numpy())
    seconds = time.perf_counter() - t0
    t1 = time.perf_counter()
    values = metrics.evaluate(t, CHECK)
    return {"method": method, "seconds": seconds, "evaluate_seconds": time.perf_counter() - t1,
            "peak_mb": _rss_mb(), "baseline_mb": base, "n": int(t.n), "shape": list(t.shape),
            "cells": int(t.values.size), "values": values}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, default=1e7, help="rows of the generated file (1e7, 1e8, …)")
    ap.add_argument("--string-labels", action="store_true", help="text labels instead of int64")
    ap.add_argument("--classes", type=int, help="number of gold classes (default rows/1000); clusters = 1.25×")
    ap.add_argument("--moved", type=float, default=0.2, help="fraction of items put in a random cluster")
    ap.add_argument("--dir", help="where to write the file (default: a temporary directory, removed after)")
    ap.add_argument("--methods", default="duckdb,pandas", help="comma-separated: " + ", ".join(METHODS))
    ap.add_argument("--child", nargs=2, metavar=("METHOD", "PATH"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        method, path = args.child
        if method == "generate":
            gen = generate(Path(path), int(args.rows), args.string_labels, args.classes, args.moved)
            print(json.dumps({"seconds": gen}))
        else:
            print(json.dumps(run_method(method, path)))
        return 0

    rows = int(args.rows)
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="bench-io-") as tmp:
        path = Path(tmp) / f"labels_{rows}.parquet"
        # Generated in a child too: Linux keeps ru_maxrss across fork + exec, so a
        # parent grown big would inflate every child's reading.
        gen = json.loads(subprocess.run(
            [sys.executable, __file__, "--child", "generate", str(path), "--rows", str(rows),
             "--moved", str(args.moved)]
            + (["--classes", str(args.classes)] if args.classes else [])
            + (["--string-labels"] if args.string_labels else []),
            check=True, capture_output=True, text=True).stdout)["seconds"]
        size = path.stat().st_size
        kind = "text" if args.string_labels else "int64"
        print(f"generated {rows:,} rows ({kind} labels) in {gen:.1f} s: {path.name}, {size / 2**20:.0f} MiB on disk")
        results = []
        for method in args.methods.split(","):
            proc = subprocess.run([sys.executable, __file__, "--child", method, str(path)],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                print(f"{method}: FAILED (exit {proc.returncode}): {proc.stderr.strip().splitlines()[-1:]}")
                continue
            results.append(json.loads(proc.stdout.strip().splitlines()[-1]))

    print(f"\n{'method':8s} {'count s':>8s} {'peak RSS':>10s} {'net of imports':>15s} {'evaluate s':>11s}  shape")
    for r in results:
        print(f"{r['method']:8s} {r['seconds']:8.2f} {r['peak_mb']:8.0f} MB {r['peak_mb'] - r['baseline_mb']:12.0f} MB"
              f" {r['evaluate_seconds']:11.2f}  {r['shape'][0]}×{r['shape'][1]} ({r['cells']:,} cells)")
    for r in results:
        values = ", ".join(f"{k} = {v:.6f}" for k, v in r["values"].items())
        print(f"  {r['method']}: {METHODS[r['method']]}; {values}")
    if len(results) > 1:
        ref = results[0]
        same = all(r["n"] == ref["n"] and r["shape"] == ref["shape"]
                   and all(abs(r["values"][k] - ref["values"][k]) < 1e-9 for k in CHECK) for r in results)
        print("tables agree" if same else "TABLES DIFFER")
        if not same:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
