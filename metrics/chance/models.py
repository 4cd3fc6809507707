"""Random models of clusterings (Gates & Ahn 2017) and exact samplers for them.

A random model says which pairs (gold classes, clustering) count as "chance" for a
given table. With a the class sizes (rows), b the cluster sizes (columns), n items,
R classes and K clusters:

============ =========================================================================
``perm``     both random, sizes kept: every table with row sums a and column sums b,
             with the probability of a uniformly random relabelling of the items (the
             hypergeometric / permutation model of Hubert & Arabie and of AMI).
             Keeping only the clusters random gives the same tables: one-sided = two-sided.
``num``      both random: uniform over the partitions of n items into R blocks and,
             independently, into K blocks.
``num1``     the gold classes kept as they are; the clustering uniform over the
             partitions of n items into K blocks.
``all``      both uniform over all partitions of n items (any number of blocks).
``all1``     the gold classes kept; the clustering uniform over all partitions.
============ =========================================================================

Every sampler here is exact (its draws have exactly the model's distribution, up to
the documented float rounding of the sampling probabilities) and reproducible: it
takes a ``numpy.random.Generator``.

Counting partitions. Uniform partitions into k blocks are counted by the Stirling
numbers of the second kind S(n, k), all partitions by the Bell numbers B(n). Both
overflow floats quickly (S(10^4, 100) has ~46,000 digits), and a table of big
integers S(m, j) for m ≤ 10^4, j ≤ 100 would take gigabytes. What the samplers and
the expectations need are *ratios*, which are computed without big numbers:

* P(m, j) = j! S(m, j) / j^m is the probability that m balls thrown into j urns
  fill every urn. From S(m, j) = j S(m−1, j) + S(m−1, j−1),
  P(m, j) = P(m−1, j) + P(m−1, j−1)·(1 − 1/j)^(m−1): a sum of two positive terms,
  so no cancellation; it is run in log space (log P ≥ −j, so values stay small and
  an ε-relative rounding per step adds at most j·ε to log P: below 10^-9 in total
  for n·k ≤ 10^7, far below any Monte Carlo error).
* Bell ratios through Dobinski's formula B(m) = e^-1 Σ_k k^m / k!: a sum of positive
  terms, truncated where the rest is below 10^-30 of the total.
Where they are cheap (n·k ≤ 2·10^6) the Stirling ratios of the expectations are
exact integer arithmetic instead (inclusion–exclusion in Python integers).

References
----------
[GA17] Gates & Ahn (2017), The impact of random models on clustering similarity. JMLR 18.
[St83] Stam (1983), Generation of a random partition of a finite set by an urn model.
       J. Combin. Theory A 35.
[Pa81] Patefield (1981), An efficient method of generating random R × C tables with
       given row and column totals. Applied Statistics 30 (scipy.stats.random_table).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy.special import gammaln

from ..core.limits import (
    BELL_ITEMS,
    BOYETT_ITEMS,
    EXACT_STIRLING_WORK,
    MAX_SAMPLED_ITEMS,
    PERM_SAMPLED_ITEMS,
    STIRLING_RECURRENCE_ITEMS,
    STIRLING_RECURRENCE_WORK,
    STIRLING_TABLE_CELLS,
)

__all__ = ["MODELS", "ONE_SIDED", "check_model", "stirling_pair_probability", "bell_pair_probability",
           "random_partitions", "random_block_sizes", "random_tables_num", "random_tables_perm",
           "MAX_SAMPLED_ITEMS", "PERM_SAMPLED_ITEMS", "check_perm_items"]

MODELS = ("perm", "num", "num1", "all", "all1")
ONE_SIDED = ("num1", "all1")

# The hard limits live in metrics.core.limits (one table of every limit): random partitions are drawn
# item by item, O(n) per draw (MAX_SAMPLED_ITEMS); exact integer Stirling numbers while n·k stays
# below EXACT_STIRLING_WORK (milliseconds); the log-space Stirling recurrence takes n steps of O(k)
# (STIRLING_RECURRENCE_*); the item-by-item k-block sampler keeps an n × (band width) table of
# ratios (STIRLING_TABLE_CELLS); fixed-margin tables are drawn by scipy for n ≤ PERM_SAMPLED_ITEMS.
_EXACT_STIRLING_WORK = EXACT_STIRLING_WORK
_RECURRENCE_ITEMS = STIRLING_RECURRENCE_ITEMS
_RECURRENCE_WORK = STIRLING_RECURRENCE_WORK
_STIRLING_TABLE_CELLS = STIRLING_TABLE_CELLS
# Dobinski terms dropped once they fall this far (in log) below the largest.
_LOG_TAIL = 80.0


def check_model(model: str) -> str:
    if model not in MODELS:
        raise ValueError(f"unknown random model {model!r}; choose one of {', '.join(MODELS)} "
                         "(perm: sizes kept; num: numbers of blocks kept; all: any partition; "
                         "a trailing 1: the gold classes kept as they are)")
    return model


# --------------------------------------------------------------------------- Stirling
def _log_surjection_step(log_p: np.ndarray, m: int, log_keep: np.ndarray) -> np.ndarray:
    """log P(m, ·) from log P(m−1, ·) (index j = 0..k), in place of a new array."""
    new = np.full_like(log_p, -np.inf)
    if m == 0:
        new[0] = 0.0
        return new
    new[1] = 0.0  # one urn is always filled
    if log_p.size > 2:
        with np.errstate(invalid="ignore"):
            joined = log_p[1:-1] + (m - 1) * log_keep[2:]
        new[2:] = np.logaddexp(log_p[2:], joined)
    return new


def _log_keep(k: int) -> np.ndarray:
    """log(1 − 1/j) for j = 0..k (entries 0 and 1 unused)."""
    j = np.arange(k + 1, dtype=np.float64)
    out = np.full(k + 1, -np.inf)
    out[2:] = np.log1p(-1.0 / j[2:])
    return out


def _stirling_ratio_exact(n: int, k: int) -> float:
    """S(n−1, k) / S(n, k), correctly rounded: k!·S(m, k) = Σ_i (−1)^i C(k, i) (k − i)^m for
    m = n − 1 and m = n, whose terms share the power (k − i)^(n−1) (one big power per term
    instead of two; the k! cancels), which halves the work."""
    num = den = 0
    for i in range(k + 1):
        term = math.comb(k, i) * (k - i) ** (n - 1)
        if i % 2:
            num -= term
            den -= (k - i) * term
        else:
            num += term
            den += (k - i) * term
    return num / den  # int / int: correctly rounded


def _surjection_is_likely(n: int, k: int) -> bool:
    """True when n balls in k urns fill every urn with probability ≥ 1/2 (union bound)."""
    return k <= 1 or math.log(k) + n * math.log1p(-1.0 / k) <= math.log(0.5)


def _surjection_series(m: int, k: int) -> float:
    """P(m, k) = Σ_i (−1)^i C(k, i) (1 − i/k)^m, for m balls likely to fill k urns.

    Term i is term i−1 times (k−i+1)/i · ((k−i)/(k−i+1))^m, so no factorial or power
    is formed; the terms fall like (k e^{−m/k})^i / i! with k e^{−m/k} ≤ 1/2 here,
    so the alternating sum is well conditioned."""
    total, term = 1.0, 1.0
    for i in range(1, k):
        term *= (k - i + 1) / i * math.exp(m * math.log1p(-1.0 / (k - i + 1)))
        total += -term if i % 2 else term
        if term < 1e-20 * total:
            break
    return total


@lru_cache(maxsize=256)
def stirling_pair_probability(n: int, k: int) -> float:
    """Probability that two given items share a block of a uniformly random partition
    of n items into k blocks: S(n−1, k) / S(n, k)  [GA17, §4].

    Exact integers when n·k ≤ 2·10^6; otherwise P(n−1, k) / (k P(n, k)) with
    P(m, k) = k! S(m, k)/k^m computed as an alternating series where it converges
    fast (every urn likely filled), else by the positive recurrence in log space.
    """
    if not 1 <= k <= n:
        raise ValueError(f"no partition of {n} items into {k} blocks")
    if n < 2 or k == 1:
        return 1.0
    if n * k <= _EXACT_STIRLING_WORK:
        return _stirling_ratio_exact(n, k)
    if _surjection_is_likely(n - 1, k):
        return _surjection_series(n - 1, k) / (k * _surjection_series(n, k))
    if n > _RECURRENCE_ITEMS or n * k > _RECURRENCE_WORK:
        raise ValueError(f"partitions of {n:,} items into {k:,} blocks: the Stirling ratio would take "
                         f"{n * k:.1e} steps; use the perm model for a table this size")
    log_keep = _log_keep(k)
    log_p = _log_surjection_step(np.zeros(k + 1), 0, log_keep)
    prev = log_p
    for m in range(1, n + 1):
        prev, log_p = log_p, _log_surjection_step(log_p, m, log_keep)
    return math.exp(prev[k] - log_p[k]) / k


def _stirling_new_block_table(n: int, k: int):
    """r(m, j) = S(m−1, j−1)/S(m, j) over the band of (m, j) a k-block draw can visit.

    Returns (table, lo) with table[m−1, j − lo[m−1]] = r(m, j) for
    lo[m−1] = max(1, k − n + m) ≤ j ≤ min(m, k)."""
    width = min(k, n - k + 1)
    if n * width > _STIRLING_TABLE_CELLS:
        raise ValueError(f"uniform partitions of {n} items into {k} blocks are not sampled: "
                         f"the exact sampler would need a {n}×{width} table; use the perm model")
    log_keep = _log_keep(k)
    table = np.zeros((n, width))
    lo = np.maximum(1, k - n + np.arange(1, n + 1))
    log_p = _log_surjection_step(np.zeros(k + 1), 0, log_keep)
    for m in range(1, n + 1):
        new = _log_surjection_step(log_p, m, log_keep)
        j = np.arange(lo[m - 1], min(m, k) + 1)
        # The "new block" share of the recurrence: S(m−1, j−1)/S(m, j).
        with np.errstate(invalid="ignore", over="ignore"):
            share = np.exp(log_p[j - 1] + (m - 1) * log_keep[j] - new[j])
        share[j == 1] = 1.0 if m == 1 else 0.0
        table[m - 1, : j.size] = np.clip(share, 0.0, 1.0)
        log_p = new
    return table, lo


def _k_block_partitions_sequential(n: int, k: int, size: int, rng) -> np.ndarray:
    """(size, n) labels, each row uniform over the partitions into exactly k blocks.

    Items are placed from the last to the first: with j blocks left to open among
    items 1..m, item m opens one (it is its block's smallest item) with probability
    S(m−1, j−1)/S(m, j), else it joins one of the j blocks of items 1..m−1 uniformly.
    Blocks are labelled by the rank of their smallest item."""
    table, lo = _stirling_new_block_table(n, k)
    labels = np.empty((size, n), dtype=np.int64)
    j = np.full(size, k, dtype=np.int64)
    for m in range(n, 0, -1):
        p = table[m - 1, j - lo[m - 1]]
        u = rng.random(size)
        new = u < p
        # Reuse u: given u ≥ p, (u − p)/(1 − p) is uniform on [0, 1).
        spare = np.divide(u - p, 1.0 - p, out=np.zeros(size), where=~new)
        joined = np.minimum((spare * j).astype(np.int64), j - 1)
        labels[:, m - 1] = np.where(new, j - 1, joined)
        j = j - new
    return labels


def _k_block_partitions_rejection(n: int, k: int, size: int, rng) -> np.ndarray:
    """Throw n items into k urns uniformly; keep the throws that fill every urn.

    Each partition into k blocks is hit by exactly k! surjections, so the kept
    draws are uniform over the partitions; used when a throw fills every urn with
    probability ≥ 1/2 (fewer than two throws per draw on average)."""
    labels = rng.integers(0, k, (size, n))
    todo = np.arange(size)
    while todo.size:
        rows = labels[todo]
        filled = np.count_nonzero(_occupancy(rows, k), axis=1) == k
        todo = todo[~filled]
        if todo.size:
            labels[todo] = rng.integers(0, k, (todo.size, n))
    return labels


def _occupancy(labels: np.ndarray, width: int) -> np.ndarray:
    """(B, width) counts of each label per row of a (B, n) label array."""
    b = labels.shape[0]
    flat = (np.arange(b)[:, None] * width + labels).ravel()
    return np.bincount(flat, minlength=b * width).reshape(b, width)


# --------------------------------------------------------------------------- Bell
@lru_cache(maxsize=64)
def _dobinski(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(k, w_k / Σ w) for w_k = k^n / k!, k ≥ 1, truncated at a tail below 10^-30.

    By Dobinski's formula B(n) = e^-1 Σ_k k^n / k!; these are also Stam's urn-count
    probabilities P(K = k) = k^n / (e k! B(n))."""
    if n < 1:
        raise ValueError("Bell weights need n ≥ 1")
    if n > BELL_ITEMS:
        raise ValueError(f"the Bell ratio B(n−1)/B(n) of uniform partitions is computed for at most {BELL_ITEMS:,} "
                         f"items (Dobinski's sum keeps about 13·√(n / ln n) terms), got n = {n:,}")
    # The terms rise then fall (log-concave in k), peaking where k ln k ≈ n: a window around
    # the peak, widened until both of its ends lie below the kept tail (the window used to
    # start at k = 1: 10^7 terms for n = 10^8, where about 10^4 are kept).
    peak_k = _dobinski_peak(n)
    half = 8.0 * math.sqrt(peak_k) + 16.0
    while True:
        lo = max(1, int(peak_k - half))
        k = np.arange(lo, int(peak_k + half) + 2, dtype=np.float64)
        logw = n * np.log(k) - gammaln(k + 1)
        peak = int(np.argmax(logw))
        if (peak > 0 or lo == 1) and peak < k.size - 1 and logw[-1] < logw[peak] - _LOG_TAIL \
                and (lo == 1 or logw[0] < logw[peak] - _LOG_TAIL):
            break
        half *= 2
    keep = logw >= logw[peak] - _LOG_TAIL
    k, logw = k[keep], logw[keep]
    w = np.exp(logw - logw.max())
    return k, w / w.sum()


def _dobinski_peak(n: int) -> float:
    """Where k^n / k! peaks: the root of k ln k = n (Newton's method from k = n / ln n)."""
    if n < 3:
        return 1.0
    k = n / math.log(n)
    for _ in range(50):
        step = (k * math.log(k) - n) / (math.log(k) + 1.0)
        k = max(1.0, k - step)
        if abs(step) < 1e-6 * k:
            break
    return k


def bell_pair_probability(n: int) -> float:
    """Probability that two given items share a block of a uniformly random partition
    of n items: B(n−1)/B(n) = Σ_k (w_k / k) / Σ_k w_k with Dobinski's w_k = k^n/k!
    [GA17, §4]."""
    if n < 2:
        return 1.0
    k, p = _dobinski(n)
    return float(np.sum(p / k))


def _all_partitions_stam(n: int, size: int, rng) -> np.ndarray:
    """(size, n) labels, each row uniform over all partitions of n items [St83].

    Draw an urn count K with P(K = k) = k^n / (e k! B(n)), throw the items into K
    urns uniformly, keep the non-empty urns as blocks (relabelled 0..blocks−1)."""
    k, p = _dobinski(n)
    urns = rng.choice(k, size=size, p=p).astype(np.int64)
    labels = (rng.random((size, n)) * urns[:, None]).astype(np.int64)
    labels = np.minimum(labels, urns[:, None] - 1)
    return _compact_rows(labels, int(urns.max()))


def _compact_rows(labels: np.ndarray, width: int) -> np.ndarray:
    """Renumber each row's labels to 0..(distinct − 1), keeping their order."""
    used = _occupancy(labels, width) > 0
    rank = np.cumsum(used, axis=1) - 1
    return np.take_along_axis(rank, labels, axis=1)


# --------------------------------------------------------------------------- public samplers
def _check_partitions(n: int, k: int | None) -> None:
    """Refuse what the partition samplers cannot draw: too many items, none, or no partition
    of n items into k blocks (k None: any number of blocks)."""
    if n > MAX_SAMPLED_ITEMS:
        raise ValueError(f"random partitions of {n:,} items are not sampled (at most {MAX_SAMPLED_ITEMS:,}: "
                         "each draw costs O(n)); use the perm model, which keeps the table's sizes"
                         + (f" (up to {PERM_SAMPLED_ITEMS:,} items), or the exact expectations of Rand and the "
                            "measures "
                            "linear in it (chance.expected)" if n > PERM_SAMPLED_ITEMS else ""))
    if n < 1:
        raise ValueError("a random partition needs at least one item")
    if k is not None and not 1 <= k <= n:
        raise ValueError(f"no partition of {n} items into {k} blocks")


def check_partition_draws(n: int, k: int | None) -> None:
    """Raise the ``ValueError`` :func:`random_partitions` would raise for n items into k blocks
    (None: any number), before any draw: too many items, or a k-block sampler's table of
    ratios beyond :data:`STIRLING_TABLE_CELLS`."""
    _check_partitions(n, k)
    if k is not None and 1 < k < n and not _surjection_is_likely(n, k):
        width = min(k, n - k + 1)
        if n * width > _STIRLING_TABLE_CELLS:
            raise ValueError(f"uniform partitions of {n} items into {k} blocks are not sampled: "
                             f"the exact sampler would need a {n}×{width} table; use the perm model")


def random_partitions(n: int, k: int | None, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` random partitions of ``n`` items as a (size, n) array of block labels
    0, 1, …: uniform over the partitions into exactly ``k`` blocks, or over all
    partitions when ``k`` is None. Exact; reproducible with a seeded ``rng``."""
    _check_partitions(n, k)
    if k is None:
        return _all_partitions_stam(n, size, rng)
    if k == 1:
        return np.zeros((size, n), dtype=np.int64)
    if k == n:
        return np.tile(np.arange(n, dtype=np.int64), (size, 1))
    if _surjection_is_likely(n, k):
        return _k_block_partitions_rejection(n, k, size, rng)
    return _k_block_partitions_sequential(n, k, size, rng)


def random_block_sizes(n: int, k: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """(size, k) block sizes of ``size`` partitions of ``n`` items, each uniform over the
    partitions into exactly ``k`` blocks, in random block order. Where a throw of the items
    into k urns is likely to fill them all, the throw is counted (:func:`random_tables_num` with
    one class of n items) and kept when every urn is filled: the counts of
    :func:`_k_block_partitions_rejection`'s labels, without keeping the labels. Else the labels
    are drawn sequentially and counted."""
    _check_partitions(n, k)
    if k > 1 and _surjection_is_likely(n, k):
        return random_tables_num(np.full((size, 1), n, dtype=np.int64), k, rng)[:, 0, :]
    return _occupancy(random_partitions(n, k, size, rng), k)


def random_tables_num(row_sizes, k: int, rng: np.random.Generator) -> np.ndarray:
    """(size, R, k) tables of gold classes of sizes ``row_sizes`` ((size, R), one row per
    draw, every row summing to the same n) against clusterings uniform over the partitions of
    their items into exactly ``k`` blocks, for a throw of n items into k urns that is likely
    to fill them all.

    The rejection of :func:`_k_block_partitions_rejection`, on the table: every item is
    thrown into one of k urns uniformly, and a table whose k columns are all filled is kept,
    else that draw is thrown again. Every partition into k blocks is hit by k! surjections, so
    the kept tables are distributed exactly as the tables of uniform partitions. A throw is
    counted straight into the table (no partition labels kept), or, with many items a cell,
    drawn as the table itself: class i's row is a multinomial (a_i; 1/k, …, 1/k), independently
    of the other classes — R·k numbers instead of n labels."""
    row_sizes = np.asarray(row_sizes, dtype=np.int64)
    n = int(row_sizes[0].sum()) if row_sizes.size else 0
    if not (k >= 1 and _surjection_is_likely(n, k)):
        raise ValueError(f"{n} items in {k} urns rarely fill them all: draw the labels instead")
    tables = _throw(row_sizes, n, k, rng)
    todo = np.flatnonzero((tables.sum(axis=1) == 0).any(axis=1))
    while todo.size:
        again = _throw(row_sizes[todo], n, k, rng)
        tables[todo] = again
        todo = todo[(again.sum(axis=1) == 0).any(axis=1)]
    return tables


# numpy draws a multinomial cell (a binomial each) at a few dozen times the cost of throwing one
# uniform label and counting it: rows are drawn as multinomials from this many items a cell on
# (the costs: benchmarks/bench_cost_model.py, docs/performance.md).
_ITEMS_PER_CELL_FOR_MULTINOMIAL = 30


def _throw(row_sizes: np.ndarray, n: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """(B, R, k): for each draw, the items of each class (sizes ``row_sizes[d]``) thrown into
    k urns uniformly, counted."""
    b, r = row_sizes.shape
    if n >= _ITEMS_PER_CELL_FOR_MULTINOMIAL * r * k:
        return rng.multinomial(row_sizes, np.full(k, 1.0 / k))
    classes: np.ndarray  # one row of class labels shared by every draw, or one row per draw
    if (row_sizes == row_sizes[0]).all():
        classes = np.repeat(np.arange(r), row_sizes[0])
    else:
        classes = np.repeat(np.tile(np.arange(r), b), row_sizes.reshape(-1)).reshape(b, n)
    return _count_tables(classes, rng.integers(0, k, (b, n)), r, k)


def _count_tables(rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int) -> np.ndarray:
    """(B, n_rows, n_cols) counts of the label pairs of B draws: ``cols`` (B, n) int64 labels,
    ``rows`` (B, n) or one (n,) row shared by every draw. ``cols`` is overwritten: the cell
    of each pair, (draw · n_rows + row) · n_cols + col, is computed in it in place (int64,
    bincount's own index type: no converted copy, no (B, n) temporary for shared rows)."""
    b = cols.shape[0]
    cells = cols
    cells += rows * n_cols
    cells += np.arange(0, b * n_rows * n_cols, n_rows * n_cols)[:, None]
    return np.bincount(cells.reshape(-1), minlength=b * n_rows * n_cols).reshape(b, n_rows, n_cols)


def check_perm_items(n: int) -> None:
    """Refuse drawing fixed-margin tables of more than :data:`PERM_SAMPLED_ITEMS` items.

    scipy's Patefield sampler multiplies two counts of the table in 64-bit integers; beyond
    n² < 2^63 they overflow, and the sampler returns wrong tables, loops without end or crashes
    the process (a segmentation fault at [[5·10^11, 1], [1, 5·10^11]])."""
    if n > PERM_SAMPLED_ITEMS:
        raise ValueError(
            f"random tables with fixed margins (the perm model) are drawn for at most {PERM_SAMPLED_ITEMS:,} items "
            f"(scipy's sampler multiplies counts in 64-bit integers); this table has {n:,}. Under perm the "
            "expectations of the measures that chance.exact_keys(t) lists need no sampling: use chance.expected")


def _perm_method(n: int, cells: int, method: str | None) -> str:
    """scipy's own choice between Boyett's shuffle and Patefield's algorithm (Boyett while
    n ≤ ln(n + 1) · cells), made here so that Boyett, which holds n labels, is never used
    beyond :data:`BOYETT_ITEMS` items."""
    if method is None:
        return "patefield" if n > math.log(n + 1) * cells or n > BOYETT_ITEMS else "boyett"
    if method not in ("boyett", "patefield"):
        raise ValueError(f"method must be None, 'boyett' or 'patefield', got {method!r}")
    if method == "boyett" and n > BOYETT_ITEMS:
        raise ValueError(f"Boyett's shuffle holds one label per item: at most {BOYETT_ITEMS:,} items, this table "
                         f"has {n:,}; use method='patefield' (or None)")
    return method


def random_tables_perm(row_sums, col_sums, size: int, rng: np.random.Generator,
                       method: str | None = None) -> np.ndarray:
    """(size, R, K) tables drawn uniformly from the relabellings of the items: the
    hypergeometric model with these row and column sums (scipy.stats.random_table,
    Boyett's shuffle or Patefield's algorithm [Pa81], whichever is faster, or
    ``method``).

    At most :data:`PERM_SAMPLED_ITEMS` items (``ValueError`` beyond: see
    :func:`check_perm_items`). Patefield's algorithm walks each cell's conditional
    hypergeometric law from its mode, starting from a probability computed from sums of
    log-factorials in double precision: near the limit (n ≈ 3·10^9) those carry a relative
    rounding of about 10^-4, so the draws are exact up to that rounding of their probabilities
    (about 10^-6 at n = 10^6). A draw costs O(R·K) cells, each a walk of about √(n / (R·K)) steps.

    A single row or column allows one table only, returned as it is: scipy 1.17's
    Patefield sampler returns negative cells for such margins
    (random_table([2, 1], [3]).rvs(method="patefield") gives [[2], [-2]])."""
    row_sums = np.asarray(row_sums, dtype=np.int64)
    col_sums = np.asarray(col_sums, dtype=np.int64)
    if row_sums.size == 1 or col_sums.size == 1:
        only = row_sums[:, None] if col_sums.size == 1 else col_sums[None, :]
        return np.broadcast_to(only, (size, row_sums.size, col_sums.size)).astype(np.float64)
    n = int(row_sums.sum())
    check_perm_items(n)
    method = _perm_method(n, row_sums.size * col_sums.size, method)
    # Imported here, not at the top: scipy.stats costs about 0.4 s of CPU to import, and every
    # `import metrics` (so every dashboard page's first load) would pay it for this one sampler.
    from scipy.stats import random_table

    return random_table(row_sums, col_sums).rvs(size=size, method=method, random_state=rng)


def shuffled_labels(sizes, size: int, rng: np.random.Generator) -> np.ndarray:
    """(size, n) labels, each row a uniformly random arrangement of blocks of the given
    sizes (the permutation model, item by item)."""
    base = np.repeat(np.arange(len(sizes), dtype=np.int64), np.asarray(sizes, dtype=np.int64))
    return rng.permuted(np.tile(base, (size, 1)), axis=1)
