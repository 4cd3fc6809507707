"""The one reader against the floor: what sniffing, the missing-value rule and the canonical
table cost on an upload-sized file.

    python benchmarks/bench_reader.py              # 10^6 rows (a few seconds per case)
    python benchmarks/bench_reader.py --rows 2e5

For each case, in the same run and process, the best of ``--repeat`` runs of:

(a) the reader — ``metrics.io.read_labels(bytes, name=…)`` then ``contingency_from_columns``
    (sniff the format, encoding and delimiter; parse every cell as text; apply the missing
    rule; labels sorted, cells in row order), as the upload panel and ``partition-lab score``
    (pandas engine) do;
(b) the floor — ``pandas.read_csv(dtype=str)`` (or ``read_parquet``) of the same bytes, then
    ``Contingency.from_labels``: no sniffing, no rule, no canonical order.

The ratio (a)/(b) is the reader's overhead. Both tables must have the same measures.
Cases: UTF-8 CSV, UTF-16 CSV (decoded on the fly), Parquet; 60 classes × 1,500 clusters.
"""

from __future__ import annotations

import argparse
import io
import time

import numpy as np
import pandas as pd

import metrics
from metrics import io as mio

CHECK = ["v_measure", "ari", "purity"]


def _best(fn, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, default=1e6)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    n = int(args.rows)
    rng = np.random.default_rng(7)
    gold = rng.integers(0, 60, n)
    pred = (gold * 13 + rng.integers(0, 200, n)) % 1500
    frame = pd.DataFrame({"gold": gold.astype(str), "cluster": pred.astype(str)})
    text = frame.to_csv(index=False)
    buf = io.BytesIO()
    frame.to_parquet(buf, index=False)
    cases = {
        "CSV, UTF-8": ("l.csv", text.encode("utf-8"), "utf-8"),
        "CSV, UTF-16": ("l.csv", text.encode("utf-16"), "utf-16"),
        "Parquet": ("l.parquet", buf.getvalue(), None),
    }
    print(f"{n:,} rows, {len(set(gold))} classes × {len(set(pred))} clusters; best of {args.repeat}")
    print(f"{'case':<14}{'MB':>8}{'reader s':>11}{'floor s':>10}{'ratio':>8}")
    for case, (name, data, encoding) in cases.items():
        def reader():
            lc = mio.read_labels(data, name=name)
            return mio.contingency_from_columns(lc.raw["gold"], lc.raw["cluster"])

        def floor():
            if encoding is None:
                df = pd.read_parquet(io.BytesIO(data))
            else:
                df = pd.read_csv(io.BytesIO(data), dtype=str, encoding=encoding)
            return metrics.Contingency.from_labels(df["gold"].to_numpy(), df["cluster"].to_numpy())

        t_reader, a = _best(reader, args.repeat)
        t_floor, b = _best(floor, args.repeat)
        va, vb = metrics.evaluate(a, CHECK), metrics.evaluate(b, CHECK)
        assert all(abs(va[k] - vb[k]) <= 1e-12 for k in CHECK), (va, vb)
        print(f"{case:<14}{len(data) / 2**20:>8.1f}{t_reader:>11.3f}{t_floor:>10.3f}{t_reader / t_floor:>8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
