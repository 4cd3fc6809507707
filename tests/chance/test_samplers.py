"""The exact samplers of the random models (metrics.chance.models): Bell and Stirling ratios exact on
every path, uniform partitions, random tables with fixed margins, block sizes, and their limits."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from metrics import chance
from metrics.chance import models as rm
from tests.chance.test_chance import C, _table, close, set_partitions, tables_with_margins


# --------------------------------------------------------------------------- counting
def _bell(n):
    row = [1]
    for _ in range(n):
        new = [row[-1]]
        for x in row:
            new.append(new[-1] + x)
        row = new
    return row[0]


@pytest.mark.parametrize("n", [2, 3, 7, 40, 150, 400])
def test_bell_pair_probability_is_exact(n):
    assert close(rm.bell_pair_probability(n), _bell(n - 1) / _bell(n), 1e-14)


def _stirling(n: int, k: int) -> int:
    """S(n, k) by its recurrence S(m, j) = j S(m−1, j) + S(m−1, j−1), in Python integers."""
    row = [1] + [0] * k          # S(0, j)
    for _ in range(n):
        row = [0] + [j * row[j] + row[j - 1] for j in range(1, k + 1)]
    return row[k]


@pytest.mark.parametrize("n,k", [(10, 3), (80, 7), (300, 40), (200, 190), (400, 2)])
def test_stirling_pair_probability_every_path(n, k, monkeypatch):
    """Exact integers (correctly rounded: equal), the alternating series and the log-space
    recurrence agree with S(n−1, k)/S(n, k) from the recurrence in Python integers."""
    truth = _stirling(n - 1, k) / _stirling(n, k)
    assert rm.stirling_pair_probability(n, k) == truth
    rm.stirling_pair_probability.cache_clear()
    monkeypatch.setattr(rm, "_EXACT_STIRLING_WORK", 0)
    try:
        assert close(rm.stirling_pair_probability(n, k), truth, 1e-12)
        monkeypatch.setattr(rm, "_surjection_is_likely", lambda n, k: False)
        rm.stirling_pair_probability.cache_clear()
        assert close(rm.stirling_pair_probability(n, k), truth, 1e-12)
    finally:
        rm.stirling_pair_probability.cache_clear()


def test_new_block_table_is_exact():
    n, k = 30, 6
    table, lo = rm._stirling_new_block_table(n, k)
    for m in range(1, n + 1):
        for j in range(lo[m - 1], min(m, k) + 1):
            truth = Fraction(_stirling(m - 1, j - 1), _stirling(m, j))
            assert abs(table[m - 1, j - lo[m - 1]] - float(truth)) < 1e-14


def _canonical(labels):
    seen = {}
    return tuple(seen.setdefault(x, len(seen)) for x in labels)


def _chi_square_uniform(draws, support):
    counts = Counter(_canonical(row) for row in draws)
    assert set(counts) <= set(support)
    observed = np.array([counts.get(s, 0) for s in support])
    return stats.chisquare(observed).pvalue


@pytest.mark.parametrize("sampler", ["rejection", "sequential"])
@pytest.mark.parametrize("n,k", [(5, 2), (5, 3), (6, 4)])
def test_k_block_samplers_are_uniform(sampler, n, k):
    rng = np.random.default_rng(7)
    draw = rm._k_block_partitions_rejection if sampler == "rejection" else rm._k_block_partitions_sequential
    labels = draw(n, k, 30_000, rng)
    assert (np.array([len(set(r)) for r in labels]) == k).all()
    assert _chi_square_uniform(labels, set_partitions(n, k)) > 1e-3


@pytest.mark.parametrize("n", [4, 6])
def test_stam_sampler_is_uniform(n):
    labels = rm.random_partitions(n, None, 40_000, np.random.default_rng(8))
    assert _chi_square_uniform(labels, set_partitions(n)) > 1e-3


def _columns_sorted(table) -> bytes:
    """A table up to the order of its columns (cluster labels mean nothing)."""
    t = np.asarray(table, dtype=np.int64)
    return t[:, np.lexsort(t[::-1])].tobytes()


@pytest.mark.parametrize("multinomial", [True, False])
@pytest.mark.parametrize("sizes,k", [([3, 3], 3), ([2, 3, 2], 2), ([4, 1, 2], 3)])
def test_table_sampler_is_the_table_of_uniform_partitions(sizes, k, multinomial, monkeypatch):
    """random_tables_num (num/num1 drawn as tables, kept when every column is filled: multinomial
    rows, or a throw of labels counted) has exactly the distribution of the table of fixed classes
    against a partition uniform over those into k blocks: enumerated here, partition by partition."""
    monkeypatch.setattr(rm, "_ITEMS_PER_CELL_FOR_MULTINOMIAL", 0 if multinomial else 10**9)
    n = sum(sizes)
    gold = np.repeat(np.arange(len(sizes)), sizes)
    exact = Counter(_columns_sorted(_table(gold, p)) for p in set_partitions(n, k))
    total = sum(exact.values())
    draws = rm.random_tables_num(np.tile(sizes, (30_000, 1)), k, np.random.default_rng(5))
    assert draws.shape == (30_000, len(sizes), k) and (draws.sum(axis=2) == sizes).all()
    assert (draws.sum(axis=1) > 0).all()
    counts = Counter(_columns_sorted(d) for d in draws)
    assert set(counts) <= set(exact)
    support = list(exact)
    observed = np.array([counts.get(s, 0) for s in support])
    assert stats.chisquare(observed, np.array([exact[s] / total for s in support]) * 30_000).pvalue > 1e-3


@pytest.mark.parametrize("multinomial", [True, False])
@pytest.mark.parametrize("n,k", [(7, 3), (6, 2), (6, 4)])  # (6, 4): the sequential sampler's labels, counted
def test_block_sizes_are_those_of_uniform_partitions(n, k, multinomial, monkeypatch):
    monkeypatch.setattr(rm, "_ITEMS_PER_CELL_FOR_MULTINOMIAL", 0 if multinomial else 10**9)
    exact = Counter(tuple(sorted(np.bincount(p, minlength=k))) for p in set_partitions(n, k))
    total = sum(exact.values())
    sizes = rm.random_block_sizes(n, k, 30_000, np.random.default_rng(6))
    assert sizes.shape == (30_000, k) and (sizes.sum(axis=1) == n).all() and (sizes > 0).all()
    counts = Counter(tuple(sorted(s)) for s in sizes.tolist())
    support = list(exact)
    assert set(counts) <= set(support)
    observed = np.array([counts.get(s, 0) for s in support])
    assert stats.chisquare(observed, np.array([exact[s] / total for s in support]) * 30_000).pvalue > 1e-3


def test_num_draws_as_tables_are_the_model_s_draws(monkeypatch):
    """num/num1 draws of a dense batch come as tables (random_tables_num) instead of labels
    counted afterwards. num1's throws counted into tables are exactly the tables of the labels
    drawn before, throw for throw (the same random stream); as multinomial rows, and for num
    (whose class sizes are drawn too), the mean of every measure agrees with the labels' within
    its Monte Carlo error."""
    t = C.from_table([[30, 10], [6, 34]])
    keys = ["ari", "v_measure", "rand", "purity"]

    def draws(model, samples, seed, tables=True, multinomial=True):
        with monkeypatch.context() as m:
            if not tables:
                m.setattr(chance.draws, "_draws_tables", lambda *a: False)
            if not multinomial:
                m.setattr(rm, "_ITEMS_PER_CELL_FOR_MULTINOMIAL", 10**9)
            return chance.null_distribution(t, keys, model, samples=samples, seed=seed)

    pd.testing.assert_frame_equal(draws("num1", 300, 4, multinomial=False), draws("num1", 300, 4, tables=False),
                                  check_exact=True)
    for model in ("num1", "num"):
        as_tables, as_labels = draws(model, 4000, 3), draws(model, 4000, 3, tables=False)
        diff = as_tables.mean() - as_labels.mean()
        err = np.sqrt((as_tables.var() + as_labels.var()) / 4000)
        assert (diff.abs() < 4.5 * err + 1e-12).all(), (model, diff / err)


@pytest.mark.parametrize("method", ["boyett", "patefield"])
def test_perm_sampler_matches_the_hypergeometric_probabilities(method):
    a, b = [3, 2, 2], [2, 4, 1]
    dist = tables_with_margins(a, b)
    draws = rm.random_tables_perm(a, b, 30_000, np.random.default_rng(9), method=method)
    counts = Counter(d.astype(np.int64).tobytes() for d in draws)
    observed = np.array([counts.get(tab.astype(np.int64).tobytes(), 0) for tab, _ in dist])
    assert observed.sum() == 30_000
    expected = np.array([float(p) for _, p in dist]) * 30_000
    assert stats.chisquare(observed, expected).pvalue > 1e-3


@pytest.mark.parametrize("a,b", [([2, 1], [3]), ([3], [1, 2]), ([1], [1])])
def test_perm_sampler_single_row_or_column(a, b):
    """One row or column: the only table (scipy's Patefield returns negative cells here)."""
    draws = rm.random_tables_perm(a, b, 4, np.random.default_rng(0), method="patefield")
    assert draws.shape == (4, len(a), len(b)) and (draws >= 0).all()
    assert (draws.sum(axis=2) == a).all() and (draws.sum(axis=1) == b).all()


def test_random_partitions_large_and_refused():
    rng = np.random.default_rng(1)
    labels = rm.random_partitions(10_000, 100, 3, rng)
    assert [len(np.unique(r)) for r in labels] == [100, 100, 100]
    labels = rm.random_partitions(2_000, 1_500, 2, rng)  # k close to n: the sequential sampler
    assert [len(np.unique(r)) for r in labels] == [1_500, 1_500]
    with pytest.raises(ValueError, match="no partition"):
        rm.random_partitions(5, 6, 1, rng)
    with pytest.raises(ValueError, match="not sampled"):
        rm.random_partitions(rm.MAX_SAMPLED_ITEMS + 1, 2, 1, rng)
