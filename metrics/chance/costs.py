"""What :mod:`metrics.chance`'s random labelings cost: estimates in seconds of one core.

The cost model of :mod:`metrics.core.limits` (per-operation costs, measured) applied to the way
:mod:`metrics.chance` draws and scores each model's random tables (:func:`metrics.chance.draws._draw`):

* **perm** — dense batches of tables with fixed margins (scipy's Patefield sampler: each cell
  a walk of about √(n / cells) steps; or Boyett's shuffle, O(n)) scored by ``evaluate_batch``;
  for tables of more than 2^18 cells, shuffled labels counted one table at a time (O(n) a draw)
  or, beyond 10^7 items, one dense table a draw; AMI's E[I] once per chunk (the margins never
  change).
* **num**, **num1** — where a throw of the items into K urns is likely to fill them all, the
  tables themselves (throws counted, O(n), or multinomial rows, O(R·K)); else random partitions
  drawn item by item (O(n) a side) and counted. AMI's E[I] for every chunk's distinct margins.
* **all**, **all1** — uniform partitions (about n / W(n) blocks: a 10^4-item partition has
  about 1,400) drawn item by item, so their tables are large and sparse and are scored one by
  one, AMI's E[I] and ε's matching included.

:func:`null_seconds` is what ``chance.null_distribution`` would cost (``part`` "draw" or
"score" for ``draw_tables`` / ``score_tables``); ``benchmarks/bench_cost_model.py`` compares it
with measured times.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from ..core.cells import distinct_sizes
from ..core.contingency import Contingency
from ..core.limits import COSTS, Deadline, check_budget, checked_budget
from ..measures.costs import matching_seconds
from ..measures.expected import emi_out_of_budget, emi_terms
from . import models as rm
from .draws import (
    _DENSE_TABLE_CELLS,
    DEFAULT_SAMPLES,
    _check,
    _check_drawable,
    _check_samples,
    _chunk_size,
    _draws_tables,
    _measures,
    _perm_path,
)

__all__ = ["null_seconds", "blocks_of_uniform_partition", "estimate_seconds", "fitting_samples"]

_LOG_DELTA = 30 * math.log(10)     # expected.py's tail bound, which sets the width of E[I]'s windows
_MATCHING_KEYS = ("classification_error", "epsilon_n")


def blocks_of_uniform_partition(n: int) -> float:
    """About how many blocks a uniform partition of n items has: n / W(n), W the Lambert
    function (the peak of Dobinski's weights)."""
    if n < 3:
        return float(max(n, 1))
    w = math.log(n)
    for _ in range(20):
        w = math.log(n) - math.log(w)
    return n / w


def _window(n: float, a: float, b: float) -> float:
    """Terms of E[I]'s sum for one pair of sizes (a, b): expected.py's window around a·b/n."""
    mu = a * b / max(n, 1.0)
    half = math.sqrt(2 * _LOG_DELTA * mu)
    return max(1.0, min(min(a, b) + 1.0, 2.0 * half + _LOG_DELTA / 3 + 2.0))


def _spread(n: int, blocks: float) -> float:
    """About how many sizes the blocks of random partitions into ``blocks`` blocks take (six
    standard deviations of a block's size, √(n / blocks) each)."""
    return 6.0 * math.sqrt(n / blocks) + 1.0


def _distinct_sizes(n: int, blocks: float) -> float:
    """About how many distinct block sizes one random partition into ``blocks`` blocks has (at
    most √(2n), the most a partition of n can have)."""
    return max(1.0, min(blocks, math.sqrt(2.0 * n), _spread(n, blocks)))


def _emi_terms_per_draw(n: int, rows: float, cols: float, rows_distinct: float, cols_distinct: float) -> float:
    return rows_distinct * cols_distinct * _window(n, n / rows, n / cols)


def _batch_score(cells: float, m: int) -> float:
    c = COSTS
    return c["batch_table_measure"] * m + cells * (c["batch_cell"] + c["batch_cell_measure"] * m)


def _table_score(n: int, cells: float, m: int, matching: float) -> float:
    """One random table scored by ``evaluate`` (a sparse table: about min(n, cells) non-zero cells)."""
    c = COSTS
    return c["table"] + c["table_measure"] * m + c["table_cell"] * min(n, cells) + matching


def _patefield(n: int, cells: int) -> float:
    c = COSTS
    if rm._perm_method(n, cells, None) == "boyett":
        return c["boyett_item"] * n + c["patefield_cell"] * cells
    return cells * (c["patefield_cell"] + c["patefield_step"] * math.sqrt(n / cells))


def _partition(n: int, k: int | None) -> float:
    """One random partition drawn item by item."""
    return COSTS["partition_item"] * n


def _stirling_table(n: int, k: int | None) -> float:
    """The k-block sampler's table of ratios, built once for each chunk of draws."""
    if k is not None and 1 < k < n and not rm._surjection_is_likely(n, k):
        return COSTS["stirling_cell"] * n * min(k, n - k + 1)
    return 0.0


def _matching(keys, shape: tuple[float, float]) -> float:
    if not any(k in _MATCHING_KEYS for k in keys):
        return 0.0

    class _Shape:  # matching_seconds reads only the shape
        def __init__(self, shape: tuple[int, int]) -> None:
            self.shape = shape

    return matching_seconds(_Shape((int(shape[0]), int(shape[1]))))


def _ami(keys) -> bool:
    return any(k.startswith("ami") for k in keys)


def null_seconds(t, keys, model: str, samples: int, part: str = "both") -> float:
    """Estimated seconds of ``chance.null_distribution(t, keys, model, samples)`` (``part``:
    "both", "draw" for the drawing alone, "score" for the scoring alone). Raises the
    samplers' ``ValueError`` where the draws are beyond a hard limit."""
    n, r, k = int(t.n), int(t.n_classes), int(t.n_clusters)
    m = len(keys)
    ami = _ami(keys)
    c = COSTS
    draw = score = once = tables = 0.0   # tables: the Stirling ratios of a chunk's draws
    batched = True  # scored as dense batches (else one table at a time, whose cost is per draw)
    cells: float  # a count of cells; expected sizes make it fractional for the random partitions
    if model == "perm":
        path = _perm_path(t)
        cells = r * k
        if path == "batch":
            draw = _patefield(n, cells) if r > 1 and k > 1 else 0.0
            score = _batch_score(cells, m)
            if ami:
                chunks = math.ceil(samples / _chunk_size(t, model))
                once = chunks * c["emi_term"] * _perm_emi_terms(t)
        else:
            batched = False
            draw = c["shuffle_item"] * n if path == "labels" else _patefield(n, cells)
            score = _table_score(n, cells, m, _matching(keys, (r, k)))
            if ami:
                score += c["emi_term"] * _perm_emi_terms(t)
    elif model.startswith("num") and _draws_tables(n, r, k):
        cells = r * k
        throw = min(c["throw_item"] * n, c["multinomial_cell"] * cells)
        draw = throw
        if model == "num":
            likely = r > 1 and rm._surjection_is_likely(n, r)
            draw += min(c["throw_item"] * n, c["multinomial_cell"] * r) if likely else _partition(n, r)
            tables = 0.0 if likely else _stirling_table(n, r)
        score = _batch_score(cells, m)
        if ami:
            # One grid of E[I] sums per chunk, over the distinct sizes its tables' rows and columns
            # take (expected.expected_mi_batch), or table by table where that is fewer terms.
            chunk = _chunk_size(t, model)
            rows_union = distinct_sizes(t.row_sums)[0].size if model == "num1" else min(chunk * r, _spread(n, r))
            cols_union = min(chunk * k, _spread(n, k))
            per_chunk = min(chunk * r * k, rows_union * cols_union) * _window(n, n / r, n / k)
            once = math.ceil(samples / chunk) * c["emi_term"] * per_chunk
    else:
        rows = float(r) if model in ("num", "num1", "all1") else blocks_of_uniform_partition(n)
        cols = float(k) if model.startswith("num") else blocks_of_uniform_partition(n)
        draw = _partition(n, k if model.startswith("num") else None)
        tables = _stirling_table(n, k if model.startswith("num") else None)
        if model not in rm.ONE_SIDED:
            draw += _partition(n, r if model == "num" else None)
            tables += _stirling_table(n, r if model == "num" else None)
        cells = rows * cols
        if cells <= _DENSE_TABLE_CELLS:
            draw += c["throw_item"] * n
            score = _batch_score(cells, m)
        else:
            batched = False
            draw += c["label_item"] * n
            score = _table_score(n, cells, m, _matching(keys, (rows, cols)))
        if ami:
            rows_distinct = distinct_sizes(t.row_sums)[0].size if model in rm.ONE_SIDED else _distinct_sizes(n, rows)
            score += c["emi_term"] * _emi_terms_per_draw(n, rows, cols, rows_distinct, _distinct_sizes(n, cols))
    chunks = math.ceil(samples / _chunk_size(t, model))
    if batched:
        once += chunks * c["batch"]
    draw_once = chunks * tables
    if part == "draw":
        return samples * draw + draw_once
    if part == "score":
        return samples * score + once
    return samples * (draw + score) + once + draw_once


def _perm_emi_terms(t) -> float:
    return 0.0 if emi_out_of_budget(t) else float(emi_terms(t))


def estimate_seconds(t, measures: Iterable[str] | str | None = None, model: str = "perm",
                     samples: int = DEFAULT_SAMPLES, part: str = "both") -> float:
    """Estimated seconds of one core that :func:`null_distribution` (``part="both"``), its
    drawing (:func:`draw_tables`, ``"draw"``) or its scoring (:func:`score_tables`, ``"score"``)
    of ``samples`` random labelings of ``t`` under ``model`` would take (the cost model of
    :mod:`metrics.core.limits`). Raises ``ValueError`` where the draws are beyond a hard limit."""
    t = _check(t, model, math.e, 1.0)
    samples = _check_samples(samples)
    if part not in ("both", "draw", "score"):
        raise ValueError(f"part must be 'both', 'draw' or 'score', got {part!r}")
    return null_seconds(t, [m.key for m in _measures(t, measures)], model, samples, part)


def fitting_samples(cost: Callable[[int], float], budget: float, most: int = 10**9) -> int:
    """The largest number of samples s ≤ ``most`` with ``cost(s) ≤ budget`` (0 if none): a
    binary search over a cost that does not fall as s grows."""
    if cost(1) > budget:
        return 0
    lo, hi = 1, most
    if cost(hi) <= budget:
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if cost(mid) <= budget else (lo, mid)
    return lo


def _what(t: Contingency, model: str, samples: int, part: str = "both") -> str:
    verb = {"both": "", "draw": "drawing ", "score": "scoring "}[part]
    return (f"{verb}{samples:,} random labelings of a {t.n_classes:,} × {t.n_clusters:,} table of {int(t.n):,} items "
            f"under {model}")


def _advice(t: Contingency, keys: list[str], model: str, budget: float, samples: int, part: str) -> str:
    """What fits the budget instead: fewer samples, the perm model, AMI left out, the exact expectations."""
    fits = fitting_samples(lambda s: null_seconds(t, keys, model, s, part), budget)
    out = [f"at most {fits:,} samples fit" if fits >= 2 else "no number of samples fits"]
    if model != "perm" and t.n_classes * t.n_clusters <= _DENSE_TABLE_CELLS:
        try:
            if null_seconds(t, keys, "perm", samples, part) <= budget:
                out.append("the perm model fits (its draws cost the table's cells, not its items)")
        except ValueError:
            pass
    cheap = [k for k in keys if not k.startswith("ami")]
    if cheap and len(cheap) < len(keys) and null_seconds(t, cheap, model, samples, part) <= budget:
        out.append("so do the measures without AMI (its exact expected mutual information is the costly part)")
    if model == "perm":
        out.append("chance.expected gives exact expectations without sampling for chance.exact_keys(t)")
    return "; ".join(out)


def _guard(t: Contingency, keys: list[str], model: str, samples: int, budget, part: str = "both") -> Deadline:
    """Refuse the draws beyond ``budget`` (a CostError saying what fits instead), or beyond a hard
    limit (the samplers' ValueError, raised here before any work); the run's :class:`Deadline`."""
    budget = checked_budget(budget)
    _check_drawable(t, model)
    if budget is not None:
        seconds = null_seconds(t, keys, model, samples, part)
        if seconds > budget:
            check_budget(_what(t, model, samples, part), seconds, budget,
                         _advice(t, keys, model, budget, samples, part))
    return Deadline(budget)
