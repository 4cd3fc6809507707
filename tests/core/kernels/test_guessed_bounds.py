"""Compact integer labels of more possible cells than items (metrics/core/contingency.py's
``from_labels``, metrics/core/kernels/counting.py's ``SparseGuess``): their bounds are guessed from
a prefix, rounded up to all ones in their bits, and the count checks every label against the
guess — the table is the one counted with measured bounds, whether the guess holds, or a label
past it, a negative label or a label too large to be its own code comes after the prefix.
Integer labels stay integers until read, and the table is the same once they are."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import metrics
from metrics.core.contingency import Contingency
from metrics.core.kernels import counting

pytest.importorskip("metrics.core.kernels.sparse_counting", reason="numba (the `fast` extra) is not installed")

KEYS = [k for k in metrics.MEASURES if not k.startswith("ami")]
N = 100_000  # past the prefix of 2^16 items the guess is read from


def measured(a, b) -> Contingency:
    """The table counted with both arrays' bounds measured first (no guess)."""
    (lo_a, hi_a), (lo_b, hi_b) = counting.bounds(a), counting.bounds(b)
    if min(lo_a, lo_b) < 0 or max(hi_a, hi_b) >= 2 * a.size + 1024:
        return Contingency.from_labels(a.astype(object), b.astype(object))  # factorized: the same labels
    rows, cols, vals, rs, cs, maxima = counting.count_cells(a, b, hi_a + 1, hi_b + 1, True)
    return Contingency._from_counted_cells(rows, cols, vals, rs, cs, maxima, np.arange(hi_a + 1),
                                           np.arange(hi_b + 1))


def assert_same_table(t: Contingency, want: Contingency) -> None:
    for attr in ("rows", "cols", "values", "row_sums", "col_sums"):
        np.testing.assert_array_equal(getattr(t, attr), getattr(want, attr))
    assert t.shape == want.shape
    assert list(t.row_labels) == list(want.row_labels) and list(t.col_labels) == list(want.col_labels)
    keys = [k for k in KEYS if metrics.MEASURES[k].applies_to(want)]
    assert metrics.evaluate(t, keys) == metrics.evaluate(want, keys)


def spy_on_bounds(monkeypatch) -> list[int]:
    """The sizes of the arrays whose bounds from_labels measures after the prefix."""
    sizes: list[int] = []
    real_bounds, real_all = counting.bounds, counting._all_bounds

    def bounds(a):
        sizes.append(a.size)
        return real_bounds(a)

    def all_bounds(nb, a, b, seen, known):
        sizes.append(a.size - seen)
        return real_all(nb, a, b, seen, known)

    monkeypatch.setattr(counting, "bounds", bounds)
    monkeypatch.setattr(counting, "_all_bounds", all_bounds)
    return sizes


def test_a_guess_that_holds_measures_nothing_and_counts_the_same_table(monkeypatch):
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 20_000, N), rng.integers(0, 30_000, N).astype(np.int32)
    want = measured(a, b)
    sizes = spy_on_bounds(monkeypatch)
    t = Contingency.from_labels(a, b)
    assert sizes == []  # neither array measured past the prefix
    assert t.grid is None and t.shape == want.shape
    assert "row_labels" not in t.__dict__  # integers until read
    assert_same_table(t, want)
    assert all(type(x) is int for x in t.row_labels) and t.row_labels.dtype == object


@pytest.mark.parametrize("late", ["past the guess", "negative", "not its own code"])
def test_a_label_after_the_prefix_outside_the_guess_measures_the_arrays(monkeypatch, late):
    """The prefix's labels lie below 2^14; one label after it lies past 2^14 − 1 (the guess), is
    negative, or is too large to be its own code (factorized instead): the same table as with
    the bounds measured first."""
    rng = np.random.default_rng(2)
    a, b = rng.integers(0, 1 << 14, N), rng.integers(0, 1 << 14, N)
    a[N - 7] = {"past the guess": 40_000, "negative": -3, "not its own code": 10**9}[late]
    want = measured(a, b)
    sizes = spy_on_bounds(monkeypatch)
    t = Contingency.from_labels(a, b)
    assert sizes and max(sizes) == N  # the guess failed: both arrays measured
    assert_same_table(t, want)
    assert a[N - 7] in set(t.row_labels)


def test_labels_of_few_bits_and_every_code_up_to_the_largest():
    """Labels 0 … k − 1 all in use, k not a power of two, and the guess past them: no code is
    renumbered, and the unused codes of the guess leave no row or column."""
    rng = np.random.default_rng(3)
    k = 12_345
    a, b = rng.permutation(np.arange(N) % k), rng.integers(0, 17_000, N)
    t = Contingency.from_labels(a, b)
    assert t.shape == (k, np.unique(b).size)
    assert_same_table(t, measured(a, b))


def test_integer_labels_read_late_are_the_labels_and_survive_a_pickle():
    rng = np.random.default_rng(4)
    a, b = rng.integers(0, 30_000, N), rng.integers(0, 30_000, N)
    t = Contingency.from_labels(a, b)
    copy = pickle.loads(pickle.dumps(t))
    assert "row_labels" not in copy.__dict__
    for table in (t, copy):
        np.testing.assert_array_equal(table.row_labels, np.unique(a).astype(object))
        np.testing.assert_array_equal(table.col_labels, np.unique(b).astype(object))
        assert table.T.col_labels is table.row_labels
    strings = Contingency.from_labels(a.astype(str).astype(object), b)
    assert "row_labels" in strings.__dict__  # labels that are not integers are kept as given


def test_the_guess_is_rounded_up_to_all_ones_in_the_prefixs_bits(monkeypatch):
    """The largest labels come after the prefix, with as many bits as the prefix's largest (below
    2^14 = 16,384): the guess (16,383) still holds, nothing is measured."""
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 10_000, N), rng.integers(0, 9_000, N)
    a[-5:], b[-3:] = 16_383, 15_000
    sizes = spy_on_bounds(monkeypatch)
    t = Contingency.from_labels(a, b)
    assert sizes == []
    assert t.row_labels[-1] == 16_383 and t.col_labels[-1] == 15_000
    assert_same_table(t, measured(a, b))


@pytest.mark.parametrize(("sizes", "picked"), [
    ([3, 1, 2, 0, 0], slice(0, 3)), ([3, 0, 2, 0], [True, False, True, False]), ([0, 4, 1], [False, True, True]),
    ([0, 0], slice(0, 0)), ([5], slice(0, 1)),
])
def test_the_codes_in_use_are_a_slice_where_they_start_at_zero(sizes, picked):
    """Codes in use 0 … k − 1 (the rest unused: a guess past the largest label) are picked by a
    slice — each its own index, the table's arrays views —, any other set by its mask."""
    got = counting.codes_in_use(np.array(sizes))
    if isinstance(picked, slice):
        assert got == picked
    else:
        np.testing.assert_array_equal(got, picked)
