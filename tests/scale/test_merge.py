"""Tables that merge (metrics/core/cells.py: MergeableTable): ``t1 + t2``, ``sum(tables)`` and
``Contingency.update`` give the table of all the items, cell for cell and label for label,
whatever labels each batch saw."""

from __future__ import annotations

import itertools
import math

import array_api_strict as xs
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import metrics
from metrics import Contingency as C
from metrics.core.digest import table_digest
from metrics.core.kernels import counting


@pytest.fixture(autouse=True, scope="module")
def compiled_kernels_loaded():
    """Tables compared to the last bit are computed in one state of the compiled kernels: loaded
    (a process loads them once its work repays it, and their sums round as numpy's need not)."""
    getattr(counting, "load_compiled", counting.compiled_kernels)()


def assert_identical(got, want):
    """The same table to the last bit: labels (values and types), storage, cells, every measure."""
    assert list(got.row_labels) == list(want.row_labels)
    assert list(got.col_labels) == list(want.col_labels)
    assert [type(x) for x in got.row_labels] == [type(x) for x in want.row_labels]
    assert [type(x) for x in got.col_labels] == [type(x) for x in want.col_labels]
    assert (got.grid is None) == (want.grid is None)
    for name in ("rows", "cols", "values"):
        a, b = getattr(got, name), getattr(want, name)
        assert a.dtype == b.dtype and np.array_equal(a, b), name
    assert got.n == want.n and type(got.n) is type(want.n)
    assert metrics.pair_counts(got) == metrics.pair_counts(want)
    a, b = metrics.evaluate(got), metrics.evaluate(want)
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == b[key] or (math.isnan(a[key]) and math.isnan(b[key])), (key, a[key], b[key])


LABELS = {
    "small ints": st.integers(0, 6),
    "negative and big ints": st.sampled_from([-3, 7, 10**12, -(10**15), 42]),
    "text": st.sampled_from(["a", "b", "é", "Z", "ab", ""]),
    "floats": st.sampled_from([0.5, -1.25, 3.0, 1e300]),
    "numbers and text": st.sampled_from([1, 2, "1", "b", 0]),
    "booleans": st.booleans(),
}


@st.composite
def batches(draw):
    gold = draw(st.sampled_from(list(LABELS)))
    pred = draw(st.sampled_from(list(LABELS)))
    n = draw(st.integers(1, 60))
    t = draw(st.lists(LABELS[gold], min_size=n, max_size=n))
    p = draw(st.lists(LABELS[pred], min_size=n, max_size=n))
    cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=4))) if n > 1 else []
    bounds = [0, *cuts, n]
    return t, p, [(t[i:j], p[i:j]) for i, j in itertools.pairwise(bounds)]


def as_array(labels):
    """Labels as the caller would pass them: numpy arrays of their own dtype where numpy
    has one (so that compact integers are their own codes), object arrays for mixed kinds."""
    kinds = {type(x) for x in labels}
    return np.array(labels, dtype=object) if len(kinds) > 1 else np.array(labels)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batches())
def test_sum_of_batch_tables_is_the_table_of_all_items(drawn):
    t, p, parts = drawn
    want = C.from_labels(as_array(t), as_array(p))
    tables = [C.from_labels(as_array(a), as_array(b)) for a, b in parts]
    assert_identical(sum(tables), want)
    assert_identical(C.merge(tables), want)
    folded = tables[0]
    for other in tables[1:]:
        folded = folded + other
    assert_identical(folded, want)
    streamed = C.from_labels(as_array(parts[0][0]), as_array(parts[0][1]))
    for a, b in parts[1:]:
        streamed.update(as_array(a), as_array(b))
    assert_identical(streamed, want)


def test_batches_that_saw_different_labels_merge_by_value():
    t1 = C.from_labels(["b", "c"], [10, 30])
    t2 = C.from_labels(["a", "b", "b"], [30, 20, 10])
    s = t1 + t2
    assert list(s.row_labels) == ["a", "b", "c"] and list(s.col_labels) == [10, 20, 30]
    assert s.to_dense().tolist() == [[0, 0, 1], [2, 1, 0], [0, 0, 1]]
    assert (t2 + t1).to_dense().tolist() == s.to_dense().tolist()


def test_sum_starts_from_zero_and_nothing_else_adds():
    t = C.from_labels([0, 1, 1], [0, 0, 1])
    one = sum([t])
    assert one is not t and one.to_dense().tolist() == t.to_dense().tolist()
    assert (0 + t).n == 3
    for other in (1, 1.0, "t", None, np.arange(3)):
        with pytest.raises(TypeError):
            t + other
        if not isinstance(other, np.ndarray):
            with pytest.raises(TypeError):
                other + t


def test_adding_leaves_both_tables_unchanged():
    t1, t2 = C.from_labels([0, 0, 1], [1, 1, 0]), C.from_labels([2, 0], [1, 0])
    before = (t1.to_dense().tolist(), t2.to_dense().tolist(), t1.h_c, t2.h_c)
    t1 + t2
    assert (t1.to_dense().tolist(), t2.to_dense().tolist(), t1.h_c, t2.h_c) == before


def test_update_drops_every_cached_quantity():
    t = C.from_labels([0, 0, 1, 1], [0, 0, 1, 1])
    assert metrics.evaluate(t)["v_measure"] == 1.0 and t.h_c > 0 and metrics.pair_counts(t)[0] == 2
    digest = table_digest(t)
    t.update([0, 1], [1, 0])
    fresh = C.from_labels([0, 0, 1, 1, 0, 1], [0, 0, 1, 1, 1, 0])
    assert_identical(t, fresh)
    assert table_digest(t) != digest
    assert table_digest(t) == table_digest(fresh)


def test_a_bad_batch_leaves_the_table_unchanged():
    t = C.from_labels([0, 1, 1], [0, 0, 1])
    with pytest.raises(ValueError, match="NaN"):
        t.update([0.0, math.nan], [1, 1])
    with pytest.raises(ValueError, match="same length"):
        t.update([0, 1], [1])
    assert t.n == 3 and t.to_dense().tolist() == [[1, 0], [1, 1]]


def test_update_with_labels_on_another_device():
    t = C.from_labels(xs.asarray([0, 1, 1]), xs.asarray([2, 2, 3]))
    t.update(xs.asarray([1, 5]), xs.asarray([3, 2]))
    assert_identical(t, C.from_labels(np.array([0, 1, 1, 1, 5]), np.array([2, 2, 3, 3, 2])))


@pytest.mark.parametrize("noise_as", ["cluster", "exclude", "singletons"])
def test_noise_readings_add_up_as_for_all_items(noise_as):
    gold = np.array([0, 1, 1, 2, 0, 2, 1, 0])
    pred = np.array([-1, 3, -1, 3, 4, -1, -1, 3])
    want = C.from_labels(gold, pred, noise=-1, noise_as=noise_as)
    parts = [C.from_labels(gold[i:j], pred[i:j], noise=-1, noise_as=noise_as) for i, j in ((0, 3), (3, 4), (4, 8))]
    got = sum(parts)
    assert_identical(got, want)
    assert (got.noise, got.noise_as, got.noise_count) == (-1, noise_as, 4)
    assert got.noise_share == want.noise_share and got.coverage == want.coverage
    streamed = C.from_labels(gold[:3], pred[:3], noise=-1, noise_as=noise_as)
    streamed.update(gold[3:], pred[3:])
    assert_identical(streamed, want)
    assert (streamed.noise_count, streamed.coverage) == (want.noise_count, want.coverage)


def test_tables_that_read_noise_differently_are_refused():
    a = C.from_labels([0, 1], [-1, 2], noise=-1, noise_as="exclude")
    b = C.from_labels([0, 1], [-1, 2])
    with pytest.raises(ValueError, match="read noise items differently"):
        a + b


def test_counts_past_float_precision_stay_exact():
    big = 2**60 + 1
    s = C.from_table([[big, 1]]) + C.from_table([[big, 0], [0, 3]])
    assert s.to_dense().tolist() == [[2 * big, 1], [0, 3]] and s.n == 2 * big + 4


def test_a_total_past_the_limit_is_refused():
    t = C.from_table([[2**61, 2**60]])
    with pytest.raises(ValueError, match="too large to merge"):
        t + t


def test_fractional_tables_add_up():
    a = C.from_memberships([{"x": 0.5, "y": 0.5}, "x"], ["k", "k"])
    b = C.from_memberships(["y"], ["l"])
    s = a + b
    assert not s.is_integer and s.n == pytest.approx(3.0)
    np.testing.assert_allclose(s.to_dense(), [[1.5, 0.0], [0.5, 1.0]])


def test_labels_that_cannot_be_ordered_keep_first_appearance_table_by_table():
    t1 = C.from_table([[1, 2]], row_labels=[(1, 2)], col_labels=["k", 3])
    t2 = C.from_table([[4], [5]], row_labels=["z", (1, 2)], col_labels=[(0,)])
    s = t1 + t2
    assert list(s.row_labels) == [(1, 2), "z"]
    assert s.to_dense().tolist() == [[1, 2, 5], [0, 0, 4]]


def test_sparse_tables_with_many_labels_merge():
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, 50_000, 30_000), rng.integers(0, 40_000, 30_000) * 3
    parts = [C.from_labels(a[i:i + 7000], b[i:i + 7000]) for i in range(0, a.size, 7000)]
    assert all(t.grid is None for t in parts)
    assert_identical(sum(parts), C.from_labels(a, b))


def test_dense_grids_merge_as_counted():
    rng = np.random.default_rng(8)
    a, b = rng.integers(0, 300, 200_000), rng.integers(0, 400, 200_000)
    parts = [C.from_labels(a[:90_000], b[:90_000]), C.from_labels(a[90_000:], b[90_000:])]
    assert all(t.grid is not None for t in parts)
    assert_identical(parts[0] + parts[1], C.from_labels(a, b))


def test_merge_refuses_nothing_and_non_tables():
    with pytest.raises(ValueError, match="no tables"):
        C.merge([])
    with pytest.raises(TypeError, match="only tables add up, got a list"):
        C.merge([C.from_labels([0], [0]), [[1]]])
