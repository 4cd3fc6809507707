"""Every hard limit the library enforces, and the cost guards of its long computations.

Hard limits
-----------
What the library refuses with a ``ValueError`` that names the limit and what to do instead,
because beyond it a result would be wrong, a C extension would be called outside what it
supports, or memory would run out. Defined here; the modules that enforce them import them.

================================ ================= =========================================================
limit                            value             why, and where it is enforced
================================ ================= =========================================================
``MAX_TOTAL``                    2^62 (4.6·10^18)  items of a table: int64 marginals and exact pair counts
                                                   (``Contingency`` constructors)
``PERM_SAMPLED_ITEMS``           3,037,000,499     items of a table whose random tables with fixed margins
                                                   (perm) are drawn: scipy's Patefield sampler multiplies two
                                                   counts in int64, so n² must stay below 2^63 (beyond, it
                                                   overflows: wrong tables, endless loops, or a segmentation
                                                   fault) (``random_models.random_tables_perm``)
``BOYETT_ITEMS``                 10^8              items for scipy's Boyett shuffle, which holds n int64 labels
                                                   (800 MB); larger tables use Patefield's algorithm
``MAX_SAMPLED_ITEMS``            10^7              items of a random partition (num, num1, all, all1: O(n) a
                                                   draw) and of a perm draw made from labels (tables of more
                                                   than ``PERM_DENSE_CELLS`` cells)
``PERM_DENSE_CELLS``             2^22              cells of a perm draw made as one dense table (beyond
                                                   ``MAX_SAMPLED_ITEMS`` items; 32 MB a draw)
``BELL_ITEMS``                   10^12             n of the Bell ratio B(n−1)/B(n) (exact Rand under all and
                                                   all1): Dobinski's sum keeps ~13·√(n / ln n) terms
``EXACT_STIRLING_WORK``          2·10^6            n·k up to which S(n−1, k)/S(n, k) is exact integers
``STIRLING_RECURRENCE_ITEMS``    10^6              n, and n·k ≤ ``STIRLING_RECURRENCE_WORK`` = 10^8, of the
                                                   log-space Stirling recurrence (where the series does not
                                                   converge fast)
``STIRLING_TABLE_CELLS``         2^23              cells of the table of ratios of the k-block sampler
``EMI_TERM_BUDGET``              5·10^7            hypergeometric terms of AMI's exact E[I] (``expected``);
                                                   beyond, AMI is left out (``Measure.why_not``)
``MATCHING_BUDGET``              5 s               estimated seconds of one core of the exact one-to-one
                                                   matching of ε, ε_n, NCA, NPA and PSI on a table beyond
                                                   2^20 cells (``matching.sparse_matching_seconds``); beyond,
                                                   they are left out, the reason naming the estimate; a
                                                   matching that runs past it (in steps) is stopped, the
                                                   reason naming the seconds it ran
``FLOAT_MATCHING_BUDGET``        1 s               steps of the sparse matching of fractional weights (NCA's
                                                   n_ij/a_i, PSI's n_ij/max(a_i, b_j)), whose searches cannot
                                                   stop early on tied distances as integer counts do
``GENERATED_CELLS``              10^8              cells of a dense table a generator builds
``GENERATED_ITEMS``              10^8              items a generator expands into labels (``shuffle``,
                                                   ``singletons``, ``random_tables``)
================================ ================= =========================================================

Cost guards
-----------
Long computations estimate their cost before they start, in seconds of one core, from the
table's size and the work asked for, and refuse beyond a budget with a :class:`CostError`
(a ``ValueError``) saying what was asked, the estimate, the budget and what to do: fewer
samples, another model, or the keyword to raise the budget. Every guarded public function
takes ``budget=`` — the same name everywhere — with the default :data:`DEFAULT_BUDGET`
(30 s); ``budget=None`` removes the guard, a number sets it. The guarded functions:
``chance.null_distribution``, ``profile``, ``expectation`` / ``expected`` / ``adjusted`` (when
they sample), ``draw_tables``, ``score_tables``, ``cluster_sweep``, ``sweep_tables``,
``score_sweep``; ``compare_solutions`` and ``solution_matrix``; ``properties.dom_property_rates``,
``dom_property_failures``, ``check_properties`` / ``check_many`` / ``properties_table`` and
``properties.sweep``.

An estimate is a model, so a guarded run also watches its own thread's CPU time
(:class:`Deadline`): one that passes :data:`OVERRUN` times its budget stops with a
``CostError`` at its next checkpoint instead of running on.

Long work reports progress through a callback ``progress(done, total)`` (whole numbers,
``done`` rising to ``total``), called after each chunk of work; the CLI prints it and the app
draws a progress bar.

For authors of a new long computation (e.g. a bootstrap): estimate its seconds with the
per-operation costs below, call ``check_budget(what, seconds, budget, advice)`` before the
work, and ``Deadline(budget)``'s ``check(what)`` between chunks::

    seconds = repeats * evaluate_seconds(t, keys)      # metrics.measures.costs
    limits.check_budget(f"{repeats:,} bootstrap resamples of n = {t.n:,}", seconds, budget,
                        "fewer resamples")
    deadline = limits.Deadline(budget)
    for i in range(repeats):
        ...
        deadline.check("the bootstrap")

The cost model
--------------
Seconds of one core per operation, measured by ``benchmarks/bench_cost_model.py``, which
times each guarded operation over a range of sizes (thread CPU time, best of three) and
prints the estimate beside the measured time, on every random model, tables from 2 × 2 to
600 × 600 and from 100 to 3·10^9 items, sweeps, evaluate up to 30,000 × 30,000, many
solutions and the property checks (how close the estimates come: docs/performance.md). The
estimates err on the high side, and a machine a few times slower still finishes within the
run's deadline (:data:`OVERRUN` budgets).
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Callable

__all__ = ["MAX_TOTAL", "PERM_SAMPLED_ITEMS", "BOYETT_ITEMS", "MAX_SAMPLED_ITEMS", "PERM_DENSE_CELLS",
           "BELL_ITEMS", "EXACT_STIRLING_WORK", "STIRLING_RECURRENCE_ITEMS", "STIRLING_RECURRENCE_WORK",
           "STIRLING_TABLE_CELLS", "EMI_TERM_BUDGET", "MATCHING_BUDGET", "FLOAT_MATCHING_BUDGET",
           "GENERATED_CELLS", "GENERATED_ITEMS",
           "DEFAULT_BUDGET", "OVERRUN", "CostError", "check_budget", "checked_budget", "Deadline", "Progress",
           "COSTS", "check_generated_cells", "check_generated_items"]

# ---------------------------------------------------------------------- hard limits
MAX_TOTAL = 2**62
PERM_SAMPLED_ITEMS = math.isqrt(2**63 - 1)   # 3,037,000,499
BOYETT_ITEMS = 10**8
MAX_SAMPLED_ITEMS = 10**7
PERM_DENSE_CELLS = 1 << 22
BELL_ITEMS = 10**12
EXACT_STIRLING_WORK = 2 * 10**6
STIRLING_RECURRENCE_ITEMS = 10**6
STIRLING_RECURRENCE_WORK = 10**8
STIRLING_TABLE_CELLS = 1 << 23
EMI_TERM_BUDGET = 5 * 10**7
MATCHING_BUDGET = 5.0
FLOAT_MATCHING_BUDGET = 1.0
GENERATED_CELLS = 10**8
GENERATED_ITEMS = 10**8


def check_generated_cells(cells: float, what: str) -> None:
    """Refuse a dense table of more than :data:`GENERATED_CELLS` cells (``what`` names it)."""
    if cells > GENERATED_CELLS:
        raise ValueError(f"{what} would be a dense table of {cells:,.0f} cells (at most {GENERATED_CELLS:,}: "
                         "8 bytes each); choose fewer classes or clusters")


def check_generated_items(n: float, what: str) -> None:
    """Refuse expanding more than :data:`GENERATED_ITEMS` items into labels (``what`` names it)."""
    if n > GENERATED_ITEMS:
        raise ValueError(f"{what} would expand {n:,.0f} items one by one (at most {GENERATED_ITEMS:,}); "
                         "use a smaller table")


# ---------------------------------------------------------------------- budgets
DEFAULT_BUDGET = 30.0
# A guarded run that passes this many times its budget of CPU time is stopped (the estimate was off).
OVERRUN = 3.0
Progress = Callable[[int, int], None]


class CostError(ValueError):
    """A computation refused (or stopped) because its cost exceeds the budget.

    Attributes: ``what`` (the computation asked for), ``seconds`` (its estimated cost, or the
    time it had run when stopped), ``budget`` (seconds of one core) and ``advice`` (what to do).
    """

    def __init__(self, what: str, seconds: float, budget: float, advice: str = "", stopped: bool = False):
        self.what, self.seconds, self.budget, self.advice, self.stopped = what, seconds, budget, advice, stopped
        super().__init__(self.describe())

    def describe(self, raise_it: str = "pass a larger budget= (budget=None: no limit)") -> str:
        """The message, with ``raise_it`` saying how to raise the budget in the caller's interface
        (the CLI: "--budget SECONDS"; the app has none to offer)."""
        todo = ", or ".join(x for x in (self.advice, raise_it) if x)
        if self.stopped:
            return (f"{self.what} was stopped after {self.seconds:.3g} s of one core, {OVERRUN:g} times its budget "
                    f"of {self.budget:.3g} s: {todo}")
        return (f"{self.what} would take about {_duration(self.seconds)} of one core (estimated), over the budget "
                f"of {self.budget:.3g} s: {todo}")


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.2g} s"
    if seconds < 7200:
        return f"{seconds / 60:.2g} minutes"
    if seconds < 3 * 86400:
        return f"{seconds / 3600:.2g} hours"
    return f"{seconds / 86400:.2g} days"


def checked_budget(budget) -> float | None:
    """``budget`` as seconds (None: no limit); ``ValueError`` unless None or a positive number."""
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, numbers.Real) or math.isnan(budget) or budget <= 0:
        raise ValueError(f"budget must be None (no limit) or a positive number of seconds, got {budget!r}")
    return float(budget)


def check_budget(what: str, seconds: float, budget, advice: str = "") -> None:
    """Raise :class:`CostError` when ``seconds`` (an estimate) exceeds ``budget`` (None: never).

    ``what`` says what was asked ("1,000 random labelings of a table with 10^6 items under
    all"), ``advice`` what to do instead ("fewer samples, or the perm model")."""
    budget = checked_budget(budget)
    if budget is not None and not seconds <= budget:
        raise CostError(what, float(seconds), budget, advice)


class Deadline:
    """A guarded run's own CPU time against ``OVERRUN`` × its budget (None: no deadline).

    CPU time of the calling thread: on a shared server (one thread per session) other
    sessions' work does not count."""

    def __init__(self, budget):
        budget = checked_budget(budget)
        self.budget = budget
        self.start = time.thread_time()

    def elapsed(self) -> float:
        return time.thread_time() - self.start

    def check(self, what: str) -> None:
        if self.budget is not None:
            spent = self.elapsed()
            if spent > OVERRUN * self.budget:
                raise CostError(what, spent, self.budget, "fewer samples or a smaller table", stopped=True)


# ---------------------------------------------------------------------- the cost model
#: Seconds of one core per operation (see the module docstring for how they were measured).
COSTS = {
    # metrics.evaluate of one table
    "table": 2e-5,                 # a table's shared quantities, once
    "table_measure": 1.2e-5,       # each measure of a table
    "table_cell": 6e-8,            # each non-zero cell (hashing, x log x, pair counts)
    "emi_term": 8e-8,              # each hypergeometric term of AMI's E[I]
    "emi_walk_term": 6e-9,         # the same, walked by the compiled kernel (measures/emi_compiled.py)
    "dense_matching_cell": 2e-8,   # each cell of a dense one-to-one matching (ε, ε_n)
    "sparse_matching_cell": 3e-8,  # sparse matching, compiled: each component's classes × √cells
    "scipy_matching_cell": 2.5e-7,  # the same without numba (scipy's min_weight_full_bipartite_matching)
    "matching_step": 1e-7,         # each cell a search of the compiled sparse matching relaxes (its budget of steps)
    "levels_matching_cell": 5e-8,  # the same by levels (cells of a few items): each cell × the largest cell
    "levels_step": 2.5e-8,         # each cell a level's pass or search reads (the levels' budget of steps)
    # evaluate_batch of many small dense tables (chance's random tables)
    "batch": 4e-4,                 # each batch (a chunk of draws: its TableBatch, its frame)
    "batch_table_measure": 3e-7,   # each measure of each table
    "batch_cell": 1.5e-8,           # each cell of each table
    "batch_cell_measure": 1e-9,    # each cell of each table, for each measure
    # random tables and partitions (metrics.chance.models)
    "patefield_cell": 6e-8,       # each cell of a table with fixed margins
    "patefield_step": 2e-9,        # each step of its search, about √(n / cells) a cell
    "boyett_item": 2e-8,           # each item of Boyett's shuffle
    "shuffle_item": 8e-8,          # each item of a perm draw made from labels (shuffle, count)
    "throw_item": 1e-8,            # each item thrown into urns and counted (num, num1)
    "multinomial_cell": 3e-7,      # each cell of a multinomial row (num, num1 with many items a cell)
    "partition_item": 6e-8,        # each item of a random partition drawn as labels, and counted
    "stirling_cell": 3e-8,         # each cell of the k-block sampler's table of ratios
    "label_item": 6e-8,            # each item of a solution counted into its table (from_labels)
}
