"""A table's random tables under each model, drawn chunk by chunk, and the input checks they share.

:func:`_draw` makes one chunk of draws: a dense (size, R, K) batch where the tables are small,
else a list of :class:`~metrics.Contingency`. How a model's draws are made decides their cost
(:mod:`metrics.chance.costs`) and their memory (a chunk holds at most 2^22 cells or labels).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pandas as pd

from ..core.batch import TableBatch, evaluate_batch
from ..core.contingency import Contingency
from ..core.limits import PERM_DENSE_CELLS
from ..core.registry import Measure, check_beta, check_log_base, evaluate, resolve
from . import models as rm

MODELS = rm.MODELS
DEFAULT_SAMPLES = 1000
Progress = Callable[[int, int], None]

# Tables of at most this many cells are evaluated as one dense batch (metrics.core.batch);
# larger ones (sparse: many classes and clusters, few items) one by one.
_DENSE_TABLE_CELLS = 1 << 18
# Memory of one chunk of draws: dense cells, or item labels.
_CHUNK_CELLS = 1 << 22
_CHUNK_LABELS = 1 << 22


# --------------------------------------------------------------------------- input
def _as_table(t) -> Contingency:
    if not isinstance(t, Contingency):
        if isinstance(t, (str, bytes)) or not hasattr(t, "__len__"):
            raise TypeError(f"chance functions take a metrics.Contingency or a 2-D table, got {type(t).__name__}")
        t = Contingency.from_table(t)
    if not t.is_integer:
        raise ValueError("random models move whole items between classes and clusters: the table needs "
                         "integer counts (this one has fractional cells)")
    if t.n < 1:
        raise ValueError("the table holds no item: there is nothing to compare with chance")
    return t


def _measures(t: Contingency, measures) -> list[Measure]:
    ms = resolve(measures, t)
    for m in ms:
        reason = m.why_not(t)
        if reason:
            raise ValueError(f"{m.key} is not computed for this table: {reason}")
    return ms


def _check_samples(samples, minimum: int = 1) -> int:
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < minimum:
        raise ValueError(f"samples must be an integer of at least {minimum}, got {samples!r}")
    return int(samples)


def _rng(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    try:
        return np.random.default_rng(seed)
    except (TypeError, ValueError):
        raise ValueError(f"seed must be None, a non-negative integer or a numpy Generator, got {seed!r}") from None


def _check(t, model, log_base, beta):
    rm.check_model(model)
    check_log_base(log_base)
    check_beta(beta)
    return _as_table(t)


def _draw(t: Contingency, model: str, size: int, rng: np.random.Generator):
    """``size`` random tables under ``model``: a (size, R, K) array when small enough
    to evaluate as a dense batch, else a list of Contingency."""
    n = int(t.n)
    if model == "perm":
        path = _perm_path(t)
        if path == "batch":
            return rm.random_tables_perm(t.row_sums, t.col_sums, size, rng)
        if path == "tables":
            return [Contingency.from_table(x) for x in rm.random_tables_perm(t.row_sums, t.col_sums, size, rng)]
        rows = np.repeat(np.arange(t.n_classes), t.row_sums)
        cols = rm.shuffled_labels(t.col_sums, size, rng)
        return [Contingency.from_labels(rows, c) for c in cols]
    if model.startswith("num") and _draws_tables(n, t.n_classes, t.n_clusters):
        sizes = (np.broadcast_to(t.row_sums, (size, t.n_classes)) if model == "num1"
                 else rm.random_block_sizes(n, t.n_classes, size, rng))
        return rm.random_tables_num(sizes, t.n_clusters, rng)
    if model in rm.ONE_SIDED:
        rows = np.repeat(np.arange(t.n_classes), t.row_sums)
        n_rows = t.n_classes
    else:
        rows = rm.random_partitions(n, t.n_classes if model == "num" else None, size, rng)
        n_rows = int(rows.max()) + 1
    cols = rm.random_partitions(n, t.n_clusters if model.startswith("num") else None, size, rng)
    n_cols = int(cols.max()) + 1
    if n_rows * n_cols <= _DENSE_TABLE_CELLS:
        return rm._count_tables(rows, cols, n_rows, n_cols)
    rows = np.broadcast_to(rows, cols.shape)
    return [Contingency.from_labels(r, c) for r, c in zip(rows, cols)]


def _perm_path(t: Contingency) -> str:
    """How perm draws ``t``'s random tables: ``"batch"`` (dense batches from scipy's sampler, for
    tables of at most 2^18 cells), ``"labels"`` (shuffled labels counted into one table a draw, up
    to 10^7 items), ``"tables"`` (one dense table a draw from scipy's sampler, up to 2^22 cells);
    ``ValueError`` beyond (and beyond the sampler's own limit of items, ``rm.check_perm_items``)."""
    cells = t.n_classes * t.n_clusters
    if t.n_classes > 1 and t.n_clusters > 1:
        rm.check_perm_items(int(t.n))
    if cells <= _DENSE_TABLE_CELLS:
        return "batch"
    if t.n <= rm.MAX_SAMPLED_ITEMS:
        return "labels"
    if cells <= PERM_DENSE_CELLS:
        return "tables"
    raise ValueError(f"random tables of {t.n_classes:,} × {t.n_clusters:,} classes and clusters with {int(t.n):,} "
                     f"items are not drawn: at most {rm.MAX_SAMPLED_ITEMS:,} items (drawn as labels) or "
                     f"{PERM_DENSE_CELLS:,} cells (drawn as tables); the exact expectations (chance.expected of "
                     "the measures chance.exact_keys(t) lists) need no sampling")


def _draws_tables(n: int, n_classes: int, n_clusters: int) -> bool:
    """Whether num/num1 draws come as tables straight away (``random_models.random_tables_num``:
    each throw counted into its table, or drawn as multinomial rows, with no partition labels
    kept) rather than as labels counted afterwards: for dense batches, whenever a throw is likely
    to fill the K clusters (else the labels are drawn sequentially). num1's tables are those of
    the labels it drew before, throw for throw, at a fraction of the cost of counting labels
    (docs/performance.md)."""
    return n_classes * n_clusters <= _DENSE_TABLE_CELLS and rm._surjection_is_likely(n, n_clusters)


def _chunk_size(t: Contingency, model: str) -> int:
    if model == "perm":
        cells = t.n_classes * t.n_clusters
        if cells <= _DENSE_TABLE_CELLS or t.n > rm.MAX_SAMPLED_ITEMS:  # dense tables, batched or one a draw
            return max(1, _CHUNK_CELLS // cells)
        return max(1, _CHUNK_LABELS // int(t.n))
    return max(1, _CHUNK_LABELS // int(t.n))


def _evaluate_draws(draws, keys: list[str], log_base: float, beta: float) -> pd.DataFrame:
    if isinstance(draws, (np.ndarray, TableBatch)):
        return evaluate_batch(draws, keys, log_base=log_base, beta=beta)
    return pd.DataFrame([evaluate(d, keys, log_base=log_base, beta=beta) for d in draws], columns=keys)


def _chunks(t: Contingency, model: str, samples: int, rng: np.random.Generator) -> Iterator:
    """The random tables of :func:`null_distribution`, chunk by chunk, in the order they are drawn."""
    chunk = _chunk_size(t, model)
    done = 0
    while done < samples:
        size = min(chunk, samples - done)
        yield _draw(t, model, size, rng)
        done += size


def _check_drawable(t: Contingency, model: str) -> None:
    """Raise the samplers' ``ValueError`` for draws beyond a hard limit, before any work."""
    n = int(t.n)
    if model == "perm":
        _perm_path(t)
        return
    if model == "num1" and _draws_tables(n, t.n_classes, t.n_clusters):
        return
    if model == "num":
        rm.check_partition_draws(n, t.n_classes)
    if model.startswith("num"):
        if not _draws_tables(n, t.n_classes, t.n_clusters):
            rm.check_partition_draws(n, t.n_clusters)
    else:
        rm.check_partition_draws(n, None)
