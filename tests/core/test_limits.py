"""Hard limits and cost guards (metrics.core.limits, issue 28).

* every hard limit is defined once, in metrics.core.limits, and the modules that enforce it use that value;
* scipy's perm sampler is never called beyond the items it supports (the calls that segfaulted or
  looped are refused with a ValueError naming the limit and the alternative — in a subprocess in
  tests/fuzz/test_fuzz_library.py); at the limit it still draws exact tables (margins, hypergeometric
  mean and variance); Boyett's shuffle is never used on huge margins; the choice between the two
  is scipy's own (the same draws as scipy for the same seed);
* Dobinski's sum (Bell ratios) gives the values it gave before and refuses beyond its limit;
* the cost guards: a request over ``budget`` raises CostError naming the estimate, the budget and
  what fits (and the advised number of samples does fit); ``budget=None`` lifts the guard; a run
  whose estimate was wrong is stopped by its Deadline; ``budget`` is checked; progress is
  reported up to the total by every long function;
* the generators refuse what would not fit in memory, with a ValueError;
* the CLI's ``--budget``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import metrics
from metrics import chance, properties, solutions
from metrics.chance import models as rm
from metrics.cli import main as cli_main
from metrics.core import cells, limits
from metrics.measures import expected, matching
from metrics.papers import generators
from tests.chance.test_samplers import _bell  # exact Bell numbers (the Bell triangle)


# ---------------------------------------------------------------------- one table of limits
def test_every_limit_is_defined_in_limits_and_used_from_there():
    assert cells._MAX_TOTAL == float(limits.MAX_TOTAL) == float(2**62)
    assert rm.MAX_SAMPLED_ITEMS is limits.MAX_SAMPLED_ITEMS
    assert rm.PERM_SAMPLED_ITEMS == limits.PERM_SAMPLED_ITEMS == math.isqrt(2**63 - 1)
    assert rm._EXACT_STIRLING_WORK == limits.EXACT_STIRLING_WORK
    assert rm._RECURRENCE_ITEMS == limits.STIRLING_RECURRENCE_ITEMS
    assert rm._RECURRENCE_WORK == limits.STIRLING_RECURRENCE_WORK
    assert rm._STIRLING_TABLE_CELLS == limits.STIRLING_TABLE_CELLS
    assert expected.EMI_TERM_BUDGET == limits.EMI_TERM_BUDGET
    assert matching.MATCHING_BUDGET == limits.MATCHING_BUDGET
    # …and the docstring's table names every one of them.
    for name in ("MAX_TOTAL", "PERM_SAMPLED_ITEMS", "BOYETT_ITEMS", "MAX_SAMPLED_ITEMS", "PERM_DENSE_CELLS",
                 "BELL_ITEMS", "EXACT_STIRLING_WORK", "STIRLING_RECURRENCE_ITEMS", "STIRLING_TABLE_CELLS",
                 "EMI_TERM_BUDGET", "MATCHING_BUDGET", "GENERATED_CELLS", "GENERATED_ITEMS"):
        assert f"``{name}``" in limits.__doc__, name


# ---------------------------------------------------------------------- the perm sampler
def test_perm_tables_beyond_the_sampler_s_limit_are_refused_before_scipy_is_called(monkeypatch):
    def never(*a, **k):
        raise AssertionError("scipy's random_table called beyond its limit")

    monkeypatch.setattr(stats, "random_table", never)
    n = limits.PERM_SAMPLED_ITEMS + 1
    with pytest.raises(ValueError, match=r"at most 3,037,000,499 items.*chance.expected"):
        rm.random_tables_perm([n - 1, 1], [n // 2, n - n // 2], 1, np.random.default_rng(0))
    t = metrics.Contingency.from_table([[5 * 10**11, 1], [1, 5 * 10**11]])
    with pytest.raises(ValueError, match="at most 3,037,000,499 items"):
        chance.profile(t, model="perm", samples=200)
    with pytest.raises(ValueError, match="at most 3,037,000,499 items"):
        chance.null_distribution(metrics.Contingency.from_table([[2**40, 3, 0], [1, 2**40, 7]]), model="perm",
                                 samples=50, budget=None)
    with pytest.raises(ValueError, match="at most 3,037,000,499 items"):
        chance.cluster_sweep(10**12, [2, 3], ["ari"], model="perm", samples=2)
    # What needs no sampling still works on such a table: the exact expectations.
    assert chance.expected(t, "ari", "perm") == 0.0
    assert set(chance.exact_keys(t, "perm")) >= {"ari", "rand", "v_measure"}


@pytest.mark.parametrize("shape", [(2, 2), (3, 3)])
def test_perm_tables_at_the_limit_are_exact(shape):
    """At n = isqrt(2^63 − 1) every draw keeps the margins, and the first cell is hypergeometric:
    its mean and variance over 2,000 draws match a·b/n and a·b·(n−a)(n−b)/(n²(n−1))."""
    r, k = shape
    n = limits.PERM_SAMPLED_ITEMS
    a = np.full(r, n // r, dtype=np.int64)
    a[0] += n - int(a.sum())
    b = np.array([n // 3] + [0] * (k - 1), dtype=np.int64)
    b[1:] = (n - b[0]) // (k - 1)
    b[-1] += n - int(b.sum())
    draws = rm.random_tables_perm(a, b, 2000, np.random.default_rng(7))
    assert (draws >= 0).all()
    assert (draws.sum(axis=2) == a).all() and (draws.sum(axis=1) == b).all()
    x = draws[:, 0, 0].astype(np.float64)
    a0, b0 = float(a[0]), float(b[0])
    mean = a0 * b0 / n
    var = mean * (n - a0) / n * (n - b0) / (n - 1.0)
    assert abs(x.mean() - mean) < 5 * math.sqrt(var / x.size)
    assert 0.85 < x.var(ddof=1) / var < 1.15


def test_the_sampler_s_choice_is_scipy_s_own_and_boyett_is_never_used_on_huge_margins():
    for a, b in (([3, 4, 5], [6, 6]), ([40, 60], [20, 30, 50]), ([10**6, 2 * 10**6], [1_500_000, 1_500_000])):
        ours = rm.random_tables_perm(a, b, 50, np.random.default_rng(3))
        scipys = stats.random_table(a, b).rvs(size=50, random_state=np.random.default_rng(3))
        np.testing.assert_array_equal(ours, scipys)
    big = limits.BOYETT_ITEMS + 2
    with pytest.raises(ValueError, match="Boyett's shuffle holds one label per item"):
        rm.random_tables_perm([big // 2, big - big // 2], [big // 2, big - big // 2], 1, np.random.default_rng(0),
                              method="boyett")
    assert rm._perm_method(big, 10**9, None) == "patefield"
    with pytest.raises(ValueError, match="method must be"):
        rm.random_tables_perm([1, 2], [2, 1], 1, np.random.default_rng(0), method="fast")


def test_large_sparse_perm_tables_beyond_the_labels_limit_are_drawn_one_dense_table_at_a_time():
    """More than 2^18 cells and 10^7 items: each draw is one dense table from scipy's sampler."""
    r = k = 600
    n = 2 * 10**7
    cells = np.full((r, k), n // (r * k), dtype=np.int64)
    cells[0, 0] += n - int(cells.sum())
    t = metrics.Contingency.from_table(cells)
    assert chance.draws._perm_path(t) == "tables"
    draws = chance.null_distribution(t, ["ari", "rand"], "perm", 2, seed=1)
    assert draws.shape == (2, 2) and np.isfinite(draws.to_numpy()).all()
    assert chance.expected(t, "ari") == 0.0


# ---------------------------------------------------------------------- Bell ratios
def test_bell_ratios_are_exact_and_refused_beyond_their_limit():
    for n in (2, 3, 7, 50, 300):
        assert rm.bell_pair_probability(n) == pytest.approx(_bell(n - 1) / _bell(n), rel=1e-12)
    k, p = rm._dobinski(10**9)
    assert k.size < 10**6 and p.sum() == pytest.approx(1.0)  # a window round the peak, not 1..peak
    with pytest.raises(ValueError, match="at most 1,000,000,000,000 items"):
        rm.bell_pair_probability(limits.BELL_ITEMS + 1)
    t = metrics.Contingency.from_table([[10**18, 1], [1, 10**18]])
    with pytest.raises(ValueError, match="Bell ratio"):
        chance.expected(t, "rand", "all")


# ---------------------------------------------------------------------- cost guards
T = metrics.Contingency.from_labels(np.arange(10_000) % 10, (np.arange(10_000) * 7) % 13)


def test_a_request_over_its_budget_is_refused_before_any_draw_saying_what_fits(monkeypatch):
    drawn = []
    monkeypatch.setattr(chance.draws, "_draw", lambda *a: drawn.append(1))
    seconds = chance.estimate_seconds(T, None, "all1", 10_000)
    with pytest.raises(limits.CostError) as info:
        chance.null_distribution(T, None, "all1", 10_000, seed=0, budget=seconds / 10)
    err = info.value
    assert not drawn
    assert isinstance(err, ValueError) and err.seconds == pytest.approx(seconds) and err.budget == seconds / 10
    text = str(err)
    assert "10,000 random labelings" in text and "all1" in text and "budget=" in text and "samples fit" in text
    fits = int(text.split("at most ")[1].split(" samples fit")[0].replace(",", ""))
    assert chance.estimate_seconds(T, None, "all1", fits) <= seconds / 10 < chance.estimate_seconds(T, None, "all1",
                                                                                                    fits + 1)
    assert "perm model fits" in text  # under perm the same draws cost the table's cells


def test_the_issue_s_hanging_calls_are_refused_within_the_default_budget():
    t = metrics.Contingency.from_table([[5 * 10**11, 1], [1, 5 * 10**11]])
    with pytest.raises(limits.CostError, match="budget of 30 s"):
        chance.profile(t, model="num1", samples=100)
    with pytest.raises(limits.CostError):
        properties.check_properties("ari", trials=10**7)
    with pytest.raises(limits.CostError):
        properties.dom_property_rates(["ari"], grid={"n_useful_clusters": range(2, 200), "n_noise_clusters": range(60)})
    with pytest.raises(limits.CostError, match="over 1,000,000 values"):
        properties.sweep("scale", "factor", range(1, 10**6 + 1), None, t=metrics.Contingency.from_table([[3, 1],
                                                                                                       [1, 3]]))


def test_budget_none_lifts_the_guard_and_bad_budgets_are_refused():
    small = metrics.Contingency.from_table([[3, 1], [1, 3]])
    tiny = 1e-9
    with pytest.raises(limits.CostError):
        chance.null_distribution(small, ["ari"], "perm", 10, seed=0, budget=tiny)
    assert len(chance.null_distribution(small, ["ari"], "perm", 10, seed=0, budget=None)) == 10
    for bad in (0, -1, float("nan"), "30", True):
        with pytest.raises(ValueError, match="budget must be None"):
            chance.null_distribution(small, ["ari"], "perm", 10, seed=0, budget=bad)
        with pytest.raises(ValueError, match="budget must be None"):
            metrics.compare_solutions([0, 0, 1], {"a": [0, 1, 1]}, budget=bad)


def test_a_run_whose_estimate_was_wrong_is_stopped_by_its_deadline(monkeypatch):
    """The estimate says it is free; the run itself passes OVERRUN × its budget and stops."""
    monkeypatch.setattr(chance.costs, "null_seconds", lambda *a, **k: 0.0)
    monkeypatch.setattr(chance.draws, "_chunk_size", lambda t, model: 1)
    budget = 0.01
    with pytest.raises(limits.CostError, match="was stopped after") as info:
        chance.null_distribution(T, None, "all1", 10**6, seed=0, budget=budget)
    assert info.value.stopped and limits.OVERRUN * budget < info.value.seconds < 60


def test_sweeps_compare_and_checks_are_guarded():
    with pytest.raises(limits.CostError, match="values of k under num"):
        chance.cluster_sweep(10**4, range(2, 102), None, model="num", samples=2000)
    with pytest.raises(limits.CostError):
        chance.sweep_tables(10**4, range(2, 102), model="num", samples=10**6)
    est = chance.sweep_seconds(1000, [2, 5], ["ari"], "num1", 10, None, 20)
    assert 0 < est < 1
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 30, 10**5)
    sols = {f"s{i}": rng.integers(0, 30, 10**5) for i in range(50)}
    seconds = solutions.compare_seconds(gold, sols, None)
    with pytest.raises(limits.CostError, match="50 solutions"):
        metrics.compare_solutions(gold, sols, budget=seconds / 100)
    with pytest.raises(limits.CostError, match="matrix of ari"):
        metrics.solution_matrix(sols, "ari", budget=1e-6)
    with pytest.raises(ValueError, match="trials must be a whole number"):
        properties.check_many(["ari"], trials=0)
    assert properties.checks_seconds(1, 200) < properties.checks_seconds(40, 200)
    assert properties.rates_seconds(["ari"]) < limits.DEFAULT_BUDGET


def test_long_work_reports_progress_up_to_its_total():
    def recorder():
        calls = []
        return calls, lambda done, total: calls.append((done, total))

    small = metrics.Contingency.from_table([[30, 10], [10, 30]])
    runs = {
        "draw_tables": lambda p: chance.draw_tables(small, "perm", 300, 0, progress=p),
        "expectation": lambda p: chance.expectation(small, "purity", "num", 50, 0, progress=p),
        "sweep_tables": lambda p: chance.sweep_tables(40, [2, 3], "num1", 2, samples=20, seed=0, progress=p),
        "compare_solutions": lambda p: metrics.compare_solutions([0, 0, 1, 1], {"a": [0, 1, 0, 1], "b": [1, 1, 0, 0],
                                                                               "c": [0, 0, 0, 0]}, ["ari"], progress=p),
        "solution_matrix": lambda p: metrics.solution_matrix({"a": [0, 1, 0], "b": [1, 1, 0]}, "ari", progress=p),
        "properties.sweep": lambda p: properties.sweep("solution_r", "noise", [0, 1, 2], ["ari"], progress=p),
    }
    for name, run in runs.items():
        calls, p = recorder()
        run(p)
        assert calls, name
        dones = [d for d, _ in calls]
        assert dones == sorted(dones) and calls[-1][0] == calls[-1][1], (name, calls)


# ---------------------------------------------------------------------- generators
@pytest.mark.parametrize("call", [
    lambda: generators.random_tables([1] * 10**6, [1] * 10**6, 1),
    lambda: generators.shuffle(metrics.Contingency.from_table([[5 * 10**11, 1], [1, 5 * 10**11]]), 0.5),
    lambda: generators.singletons([10**12]),
    lambda: generators.solution_r(10**6, 10**6, 3),
    lambda: generators.dom(10**5, 10**5),
    lambda: generators.perfect([1] * 10**5),
    lambda: generators.no_knowledge([1] * 10**5, [1] * 10**5),
])
def test_generators_refuse_what_does_not_fit_in_memory(call):
    with pytest.raises(ValueError, match="at most 100,000,000"):
        call()


# ---------------------------------------------------------------------- the CLI
def test_the_cli_s_budget_option(tmp_path, capsys):
    rng = np.random.default_rng(0)
    path = tmp_path / "labels.csv"
    cols = {"gold": rng.integers(0, 5, 2000), **{f"p{i}": rng.integers(0, 5, 2000) for i in range(3)}}
    path.write_text("gold,p0,p1,p2\n" + "\n".join(",".join(str(cols[c][i]) for c in cols) for i in range(2000)))
    assert cli_main(["score", str(path), "--pred-col", "p0,p1,p2", "--budget", "0.000001", "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--budget SECONDS" in err[0] and "budget=" not in err[0]
    assert cli_main(["score", str(path), "--pred-col", "p0,p1,p2", "--budget", "0", "--quiet"]) == 0
    assert cli_main(["score", str(path), "--pred-col", "p0,p1,p2", "--budget", "-3"]) == 2
