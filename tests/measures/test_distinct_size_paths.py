"""Per-size work done once per distinct size (``information._costs_of_distinct_sizes``: Q0's and
Q2's model cost; ``matching._sorted_sizes``: F_n's lower bound), for tables of many classes and
clusters with few distinct sizes: the same values to the last bit as the elementwise path, and
the elementwise path kept where the shortcut does not apply."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics
from metrics.measures import information, matching


def _elementwise_costs(sizes, n_classes) -> np.ndarray:
    """log C(s + k, k) of every size, as _model_cost computes it without the shortcut."""
    s = np.asarray(sizes, dtype=np.float64)
    k = np.full(s.shape, max(float(n_classes) - 1.0, 0.0))
    logs = np.zeros(s.shape)
    positive = (s > 0) & (k > 0)
    if positive.any():
        logs[positive] = information._log_binomial(s[positive], k[positive])
    return logs


sizes_strategy = st.tuples(
    st.integers(64, 3000),                       # how many sizes
    st.sampled_from([1, 3, 40, 1000, 10**6]),    # their scale
    st.sampled_from([np.int64, np.int32, np.uint64]),
    st.integers(0, 2**32 - 1),
)


@settings(max_examples=60, deadline=None)
@given(sizes_strategy, st.integers(1, 5000))
def test_distinct_size_costs_equal_the_elementwise_ones_to_the_last_bit(drawn, n_classes):
    count, scale, dtype, seed = drawn
    rng = np.random.default_rng(seed)
    sizes = rng.integers(0, scale + 1, count).astype(dtype)
    fast = information._costs_of_distinct_sizes(sizes, n_classes)
    want = _elementwise_costs(sizes, n_classes)
    if fast is None:  # the shortcut declined (too many distinct sizes, or sizes too large for its table)
        assert np.unique(sizes).size * 4 > count or int(sizes.max()) > 4 * count + 1024
        return
    assert np.array_equal(fast, want)
    assert float(fast.sum()) == float(want.sum())  # the same terms in the same order


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 3000), st.sampled_from([1, 3, 40, 10**4, 10**9, 10**15]),
       st.sampled_from([np.int64, np.int32, np.uint64]), st.integers(1, 5000), st.integers(0, 2**32 - 1))
def test_whole_positive_sizes_cost_the_elementwise_terms_summed_to_the_last_bit(count, scale, dtype, n_classes,
                                                                                 seed):
    """One table's whole sizes, none empty (the path without masks, where the shortcut above
    declines: many distinct or big sizes): the cost is the elementwise terms' sum, bit for bit —
    and the same as the general path gives the same sizes as floats."""
    top = min(scale, int(np.iinfo(dtype).max) // count)  # a table's total fits its dtype
    sizes = np.random.default_rng(seed).integers(1, top + 1, count).astype(dtype)
    n = int(sizes.sum(dtype=np.float64)) or 1
    got = information._model_cost(sizes, n_classes, n)
    assert got == float(_elementwise_costs(sizes, n_classes).sum()) / n
    assert got == information._model_cost(sizes.astype(np.float64), n_classes, n)


def test_the_shortcut_applies_to_many_clusters_of_few_sizes_and_declines_otherwise():
    rng = np.random.default_rng(4)
    many = rng.poisson(100, 10**5)
    assert information._costs_of_distinct_sizes(many, 10**5) is not None
    assert information._costs_of_distinct_sizes(np.arange(1, 10**4), 50) is None        # all distinct
    assert information._costs_of_distinct_sizes(many.astype(float), 10**5) is None      # fuzzy sizes
    assert information._costs_of_distinct_sizes(np.full(100, 10**12), 7) is None        # table too big
    assert information._costs_of_distinct_sizes(many[:10], 3) is None                   # too few to pay
    assert information._costs_of_distinct_sizes(many.reshape(1000, 100), 5) is None     # a batch
    one_class = information._costs_of_distinct_sizes(many, 1)
    assert one_class is not None and not one_class.any()  # a single class costs nothing


def test_q0_and_q2_of_a_big_table_equal_the_elementwise_model_cost():
    rng = np.random.default_rng(9)
    a, b = rng.integers(0, 20000, 10**6), rng.integers(0, 30000, 10**6)
    t = metrics.Contingency.from_labels(a, b)
    got = metrics.evaluate(t, ["q0", "q2"])
    cluster_cost = float(_elementwise_costs(t.col_sums, t.n_classes).sum()) / t.n
    class_cost = float(_elementwise_costs(t.row_sums, t.n_classes).sum()) / t.n
    q0 = t.h_c_given_k + cluster_cost
    assert got["q0"] == q0
    assert got["q2"] == class_cost / q0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=400), st.sampled_from([np.int64, np.uint64, np.int32]))
def test_sorted_sizes_equal_a_sort(sizes, dtype):
    arr = np.array(sizes).astype(dtype)
    assert np.array_equal(matching._sorted_sizes(arr), np.sort(arr.astype(np.float64)))


@pytest.mark.parametrize("sizes", [np.array([2**62, 3, 2**62 + 1]), np.array([0.5, 2.25, 1.0]),
                                   np.random.default_rng(2).poisson(5, (4, 30))])
def test_sorted_sizes_of_big_fuzzy_and_batched_sizes(sizes):
    assert np.array_equal(matching._sorted_sizes(sizes), np.sort(sizes.astype(np.float64), axis=-1))
